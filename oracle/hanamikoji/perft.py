"""Hanamikoji's fast perft: count the decision sequences of one round, as chess programmers count
moves. ``hanamikoji perft`` (:mod:`hanamikoji.oracle.core.perft`) uses it through
:data:`EXTENSION`, this game's perft hooks.

The tree is the tree of legal decisions of one round after its deal: its nodes are states, the
children of a node are ``apply(state, d)`` for each ``d`` in ``legal_actions(state)``. The deal
fixes chance (the draws follow it), so a round is always 12 decisions deep: 8 actions and the 4
answers to the two gifts and two competitions (TURN-1, TURN-3, TURN-4). ``perft(d)`` is the number
of nodes at depth ``d``, that is, of distinct sequences of ``d`` decisions. The counting convention
is the engine's ``legal_actions``: an action is its kind and the multiset of its cards (a
competition the unordered pair of its two sets), an answer is the geisha taken from a gift or the
set taken from a competition, each counted once per distinct one (COMP-2).

The engine decides every child; two facts of the rules make the count fast:

* a player's legal actions depend only on their own hand and unused actions (TURN-3,
  ACT-*-1), and the answers to an offer only on the offer (ACT-GIFT-2, ACT-COMP-2);
* a player's hand at their turn depends only on their own earlier actions, since the draws are
  fixed by the deal (TURN-2).

So a round's tree is the interleaving of two trees, one per player, that do not affect each
other. Each player's tree is counted once, memoised on the player's hand, unused actions and
turn (a transposition table), as a table: how many sequences of their next ``j`` actions, with
their answers, include ``r`` offers (and how many end with an offer not yet answered). A node at
depth ``d`` is then ``T`` complete turns plus perhaps one unanswered offer, and
``d = T + r0 + r1``; summing products of the two tables gives every depth at once. The tests
check the result against a plain recursive walk of ``legal_actions``/``apply``.

>>> perft(round_start(seeded_deal(0)), 3)
(1, 76, 2031, 33442)
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from hanamikoji.engine.hanamikoji.actions import Deal, Decision
from hanamikoji.engine.hanamikoji.errors import HanamikojiError
from hanamikoji.engine.hanamikoji.game import (
    TURNS_PER_ROUND,
    Phase,
    State,
    apply,
    current_player,
    legal_actions,
    new_game,
    random_deal,
)
from hanamikoji.engine.hanamikoji.rules import STANDARD, Rules
from hanamikoji.oracle.core.perft import PerftExtension

#: 8 actions and 4 answers (two gifts and two competitions).
ROUND_DEPTH = 12

# table[(j, r)] = count: sequences of a player's next j actions (with answers) holding r offers.
_Table = dict[tuple[int, int], int]


def round_start(deal: Deal, first_player: int = 0, rules: Rules = STANDARD) -> State:
    """The state after ``deal`` at the start of a game (round 0, started by ``first_player``)."""
    return apply(new_game(rules, first_player), deal)


def seeded_deal(seed: int) -> Deal:
    """The deal of game 0 of seed ``seed``, as ``hanamikoji play --seed`` deals it."""
    from hanamikoji.engine.core.seeded import game_rng

    return random_deal(game_rng(seed, 0))


class _Counter:
    """Per-player tables, memoised for one round (one deal)."""

    def __init__(self) -> None:
        self._tables: dict[Any, tuple[_Table, _Table]] = {}
        self._after: dict[Any, tuple[_Table, _Table]] = {}

    def tables(self, state: State) -> tuple[_Table, _Table]:
        """(full, part) for the player to act in ``state`` (an ACTION state): ``full[(j, r)]``
        counts their next ``j`` actions with answers, ``r`` of them offers; ``part[(j, r)]``
        those whose ``j``-th action is an offer still to be answered."""
        player = current_player(state)
        key = (player, state.turn, state.hands[player], frozenset(state.used[player]))
        known = self._tables.get(key)
        if known is not None:
            return known
        full: _Table = defaultdict(int)
        part: _Table = defaultdict(int)
        full[(0, 0)] = 1
        for action in legal_actions(state):
            after = apply(state, action)
            offer = 0
            answers = 1
            if after.phase is Phase.RESPONSE:
                responses = legal_actions(after)
                offer, answers = 1, len(responses)
                part[(1, 1)] += 1
                after = apply(after, responses[0])
            full[(1, offer)] += answers
            if state.turn + 2 < TURNS_PER_ROUND:
                sub_full, sub_part = self._next_turn(state.turn + 2, player, after)
                for (j, r), count in sub_full.items():
                    if j:  # j == 0 is this action itself, counted above
                        full[(j + 1, r + offer)] += answers * count
                for (j, r), count in sub_part.items():
                    part[(j + 1, r + offer)] += answers * count
        known = (dict(full), dict(part))
        self._tables[key] = known
        return known

    def _next_turn(self, turn: int, player: int, after: State) -> tuple[_Table, _Table]:
        """The tables of ``player`` at their next turn ``turn``, from ``after`` (the opponent to
        act): the opponent's choice does not matter, so they take their first legal action."""
        key = (player, turn, after.hands[player], frozenset(after.used[player]))
        known = self._after.get(key)
        if known is None:
            known = self.tables(_advance(after))
            self._after[key] = known
        return known

    def counts(self, state: State, depth: int) -> tuple[int, ...]:
        """The number of nodes at each depth 0..``depth`` below ``state``, within its round."""
        if depth == 0:
            return (1,)
        if state.phase is Phase.RESPONSE:
            responses = legal_actions(state)
            rest = self.counts(apply(state, responses[0]), depth - 1)
            return (1,) + tuple(len(responses) * c for c in rest)
        if state.phase is not Phase.ACTION:
            return (1,) + (0,) * depth  # the round is over: its tree ends here
        turns = TURNS_PER_ROUND - state.turn
        mover = _by_actions(*self.tables(state))
        if turns > 1:
            other = _by_actions(*self.tables(_advance(state)))
        else:
            other = ({0: {0: 1}}, {})
        out = [0] * (depth + 1)
        (f0, p0), (f1, p1) = mover, other
        for done in range(turns + 1):
            j0, j1 = (done + 1) // 2, done // 2
            _add_products(out, done, f0.get(j0, {}), f1.get(j1, {}))
            if done < turns:  # the next turn's action is an offer not yet answered
                if done % 2 == 0:
                    _add_products(out, done, p0.get(j0 + 1, {}), f1.get(j1, {}))
                else:
                    _add_products(out, done, f0.get(j0, {}), p1.get(j1 + 1, {}))
        return tuple(out)


def _advance(state: State) -> State:
    """The player to act takes their first legal action, and the opponent the first answer."""
    state = apply(state, legal_actions(state)[0])
    if state.phase is Phase.RESPONSE:
        state = apply(state, legal_actions(state)[0])
    return state


def _by_actions(full: _Table, part: _Table) -> tuple[dict[int, dict[int, int]], dict[int, dict[int, int]]]:
    grouped: tuple[dict[int, dict[int, int]], dict[int, dict[int, int]]] = ({}, {})
    for table, out in zip((full, part), grouped):
        for (j, r), count in table.items():
            out.setdefault(j, {})[r] = count
    return grouped


def _add_products(out: list[int], done: int, a: dict[int, int], b: dict[int, int]) -> None:
    """Nodes after ``done`` turns: depth ``done`` plus one per offer (its answer, or itself)."""
    for ra, ca in a.items():
        for rb, cb in b.items():
            depth = done + ra + rb
            if depth < len(out):
                out[depth] += ca * cb


def perft(state: State, depth: int) -> tuple[int, ...]:
    """The number of decision sequences of each length 0..``depth`` from ``state``, within its
    round (``state`` is in the middle of a round: an action or an answer is due)."""
    if state.phase not in (Phase.ACTION, Phase.RESPONSE):
        raise ValueError("perft counts the decisions of a round; this state is in the "
                         f"{state.phase.value} phase")
    if not 0 <= depth <= ROUND_DEPTH:
        raise ValueError(f"a round is {ROUND_DEPTH} decisions deep; depth must be 0 to "
                         f"{ROUND_DEPTH}, not {depth}")
    return _Counter().counts(state, depth)


def divide(state: State, depth: int) -> tuple[tuple[Decision, int], ...]:
    """``perft(state, depth)[depth]`` split by the first decision, in ``legal_actions`` order."""
    if not 1 <= depth <= ROUND_DEPTH:
        raise ValueError(f"divide needs a depth from 1 to {ROUND_DEPTH}, not {depth}")
    counter = _Counter()
    return tuple((d, counter.counts(apply(state, d), depth - 1)[depth - 1])
                 for d in legal_actions(state))


# --- the start file of ``perft --deal`` ------------------------------------------------------


def start_from_json(obj: Any, rules: Rules = STANDARD) -> State:
    """The round start a JSON object ``{"first_player", "removed", "hands", "draws"}`` (the keys
    of the record format) describes; :class:`HanamikojiError` naming the JSON path when it is
    not one, or the rule when the deal is not legal (DEAL-1)."""
    from hanamikoji.engine.hanamikoji.codec import MalformedJSONError, parse_deal

    if not isinstance(obj, dict) or "first_player" not in obj:
        raise MalformedJSONError("$", 'expected an object with "first_player", "removed", '
                                 '"hands" and "draws"')
    first = obj["first_player"]
    if type(first) is not int or first not in (0, 1):
        raise MalformedJSONError("$.first_player", f"expected 0 or 1, got {json.dumps(first)}")
    deal = parse_deal({k: v for k, v in obj.items() if k != "first_player"})
    try:
        return round_start(deal, first, rules)
    except HanamikojiError as error:
        raise HanamikojiError(f"not a legal deal: {error}") from None


def header(state: State) -> tuple[dict[str, Any], str] | None:
    """How ``perft`` names a round start (a deal and who begins), or None for any other state."""
    if len(state.history) != 1 or not isinstance(state.history[0], Deal):
        return None
    from hanamikoji.engine.hanamikoji.codec import deal_json

    deal = state.history[0]
    return ({"first_player": state.first_player, "deal": deal_json(deal)},
            f"first player {state.first_player}, removed {deal.removed}, hands "
            f"{' '.join(map(str, deal.hands[0]))} / {' '.join(map(str, deal.hands[1]))}, draws "
            f"{' '.join(map(str, deal.draws))}")


class HanamikojiPerft(PerftExtension):
    """Hanamikoji's perft hooks: a round's tree counted from per-player tables, the round-start
    header, and ``perft --deal FILE``."""

    def count(self, state: State, depth: int) -> tuple[int, ...] | None:
        """TURN-1..4, COMP-2: a round's tree counted from per-player tables. The next deal is a
        chance node, a leaf, so nothing lies beyond 12 decisions."""
        if state.phase not in (Phase.ACTION, Phase.RESPONSE) or depth < 0:
            return None
        counts = perft(state, min(depth, ROUND_DEPTH))
        return counts + (0,) * (depth + 1 - len(counts))

    def divide(self, state: State, depth: int) -> tuple[tuple[Any, int], ...] | None:
        """:meth:`count` by first decision, the per-player tables shared by the children."""
        if state.phase not in (Phase.ACTION, Phase.RESPONSE) or not 1 <= depth <= ROUND_DEPTH:
            return None
        return divide(state, depth)

    def max_depth(self) -> tuple[int, str]:
        """TURN-1, TURN-4: chance (the next deal) ends a round's tree."""
        return ROUND_DEPTH, f"a round is {ROUND_DEPTH} decisions deep (8 actions and 4 answers)"

    def header(self, state: State) -> tuple[dict[str, Any], str]:
        """A round start is named by its deal and who begins, as ``perft --deal`` files are."""
        return header(state) or super().header(state)

    def start_from_json(self, obj: Any, config: Rules) -> State:
        """``perft --deal FILE``: ``{"first_player", "removed", "hands", "draws"}``."""
        return start_from_json(obj, config)


EXTENSION = HanamikojiPerft
