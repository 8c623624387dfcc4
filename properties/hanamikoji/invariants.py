"""The invariants of Hanamikoji: one named function per invariant, each citing its rule IDs.

Each function checks one thing and raises :class:`Violation` (an ``AssertionError``) with a
one-line message saying where (round, turn) and what was expected. They are reused by the
``@given`` properties (:mod:`.suite`), the state machine (:mod:`.machine`), the broken-engine
tests and :func:`.sample.run_sample`.

The expectations are computed here from the rules text, not from the engine: the charm values,
the card counts, the turn order and the end of the game are restated below, and every state is
compared with what its ``history`` (the decisions played, deals included) implies. Functions
that call the engine take ``engine=`` (the reference by default); the others read only the
state, which must have the attributes of the reference :class:`~hanamikoji.engine.State`.

>>> import random
>>> from hanamikoji.engine.hanamikoji import random_game
>>> final = random_game(random.Random(5))
>>> cards_are_conserved(final) is None and result_agrees_with_the_markers(final) is None
True
"""

from __future__ import annotations

import copy
import enum
import functools
import itertools
import json
import os
import subprocess
import sys
from itertools import zip_longest
from typing import Any, Callable, Iterable, Sequence

import attrs

from hanamikoji.engine.hanamikoji import (
    CHANCE,
    TERMINAL,
    ActionKind,
    Competition,
    CompetitionPick,
    Deal,
    Gift,
    GiftPick,
    STANDARD,
    ObservedTurn,
    Phase,
    Reason,
    Result,
    Secret,
    TradeOff,
)

from hanamikoji.engine.core.codec import value_text
from hanamikoji.engine.hanamikoji.codec import decision_json, result_json

from .engine_api import REFERENCE, Engine, engine_spec
from .resample import resample
from hanamikoji.properties.core.cite import checks, cited

__all__ = [
    "Violation",
    "rule_ids",
    # the cards
    "marker_row_is_well_formed",
    "cards_are_conserved",
    "deck_is_the_rest_of_the_deal",
    "hands_follow_draws_and_plays",
    "actions_are_used_once_per_round",
    "face_down_cards_follow_the_actions",
    "sides_follow_the_answers",
    # scoring and the end
    "scoring_accounts_for_21_cards",
    "scored_sides_follow_the_round",
    "markers_move_only_to_the_stronger_side",
    "game_ends_at_the_first_goal",
    "result_agrees_with_the_markers",
    "round_limit_decides_by_charm_then_highest_geisha",
    # turns
    "turns_follow_the_order",
    "step_follows_the_turn_order",
    "step_moves_exactly_the_played_cards",
    # legality
    "legal_actions_are_exactly_what_the_rules_allow",
    "legal_actions_all_apply",
    "illegal_decisions_are_refused",
    # the engine's contract
    "apply_leaves_its_input_unchanged",
    "history_is_the_decisions_played",
    "records_replay_to_the_same_game",
    "seeded_games_are_reproducible",
    # hidden information
    "views_show_what_a_player_may_know",
    "views_leak_nothing",
    # groups
    "STATE_INVARIANTS",
    "STEP_INVARIANTS",
    "check_state",
    "check_step",
]

# --- the rules, restated from spec/rules.md ----------------------------------------------------

#: COMP-1: the charm of geisha 0..6.
CHARM = (2, 2, 2, 3, 3, 4, 5)
#: COMP-2: geisha g has as many item cards as her charm.
FULL = CHARM
NUM_GEISHA = len(CHARM)
HAND_SIZE = 6  # DEAL-3
DECK_SIZE = 8  # DEAL-4
TURNS = 8  # TURN-1
SIDE_SIZE = 8  # ACT-*-3: 1 + 2 + 2 own cards, 1 + 2 taken from the opponent
#: ACT-SECRET-1, ACT-TRADE-1, ACT-GIFT-1, ACT-COMP-1: cards per action.
SIZE = {ActionKind.SECRET: 1, ActionKind.TRADE_OFF: 2, ActionKind.GIFT: 3,
        ActionKind.COMPETITION: 4}
ACTIONS = (Secret, TradeOff, Gift, Competition)
ANSWERS = (GiftPick, CompetitionPick)
EMPTY = (0,) * NUM_GEISHA


class Violation(AssertionError):
    """An invariant does not hold; ``rules`` names the rule IDs it checks."""

    def __init__(self, message: str, rules: tuple[str, ...] = ()) -> None:
        super().__init__(message + (f" [{', '.join(rules)}]" if rules else ""))
        self.rules = rules


def rule_ids(function: Callable[..., Any]) -> tuple[str, ...]:
    """The rule IDs an invariant cites with :func:`~hanamikoji.properties.core.cite.checks`,
    in order.

    >>> rule_ids(cards_are_conserved)
    ('COMP-2', 'DEAL-1', 'ACT-GIFT-1', 'ACT-COMP-1', 'UPDATE-1')
    """
    return cited(function)


def _require(condition: bool, function: Callable[..., Any], message: str) -> None:
    if not condition:
        raise Violation(message, rule_ids(function))


# --- card arithmetic (7-tuples of counts per geisha) --------------------------------------------


def _counts(cards: Iterable[int]) -> tuple[int, ...]:
    row = [0] * NUM_GEISHA
    for card in cards:
        row[card] += 1
    return tuple(row)


def _add(*rows: Sequence[int]) -> tuple[int, ...]:
    return tuple(sum(column) for column in zip(*rows)) if rows else EMPTY


def _sub(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    return tuple(x - y for x, y in zip(a, b))


def _show(row: Sequence[int]) -> str:
    return "[" + " ".join(str(g) for g, n in enumerate(row) for _ in range(n)) + "]"


def _starter(first_player: int, round_index: int) -> int:
    """UPDATE-4: round r is started by the first player when r is even, else by the other."""
    return first_player if round_index % 2 == 0 else 1 - first_player


# --- the history, read by the rules ------------------------------------------------------------


@attrs.frozen
class Turn:
    """One turn as the rules see it: the mover (TURN-1), the action, and the answer if any."""

    player: int
    action: Any
    answer: Any = None

    @property
    def complete(self) -> bool:
        """An action is complete once a gift or a competition is answered (TURN-4)."""
        return self.answer is not None or not isinstance(self.action, (Gift, Competition))


@attrs.frozen
class Round:
    """One round of the history: its deal and its turns so far."""

    index: int
    starter: int
    deal: Deal
    turns: tuple[Turn, ...]

    @property
    def completed(self) -> int:
        """How many turns are complete."""
        return sum(1 for turn in self.turns if turn.complete)

    @property
    def drawn(self) -> int:
        """TURN-2: draws so far: one at the start of each turn begun."""
        if self.turns and not self.turns[-1].complete:
            return len(self.turns)
        return min(len(self.turns) + 1, TURNS)

    def mover(self, turn: int) -> int:
        """TURN-1: the player of turn ``turn``."""
        return self.starter if turn % 2 == 0 else 1 - self.starter

    def drawn_by(self, player: int) -> tuple[int, ...]:
        """The cards ``player`` has drawn this round (TURN-2)."""
        return tuple(self.deal.draws[t] for t in range(self.drawn) if self.mover(t) == player)

    def played_by(self, player: int) -> tuple[int, ...]:
        """The cards ``player`` has taken from their hand for their actions this round."""
        return tuple(card for turn in self.turns if turn.player == player
                     for card in turn.action.cards)

    def kinds_used_by(self, player: int) -> tuple[ActionKind, ...]:
        return tuple(turn.action.kind for turn in self.turns if turn.player == player)

    def placements(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """ACT-GIFT-2/3, ACT-COMP-2/3: the face-up cards on each side from answered offers."""
        sides = [EMPTY, EMPTY]
        for turn in self.turns:
            if turn.answer is None:
                continue
            taker, giver = 1 - turn.player, turn.player
            taken = _counts(_answer_cards(turn.answer))
            sides[taker] = _add(sides[taker], taken)
            sides[giver] = _add(sides[giver], _sub(_counts(turn.action.cards), taken))
        return sides[0], sides[1]

    def face_down(self, kind: type[Secret | TradeOff], player: int) -> tuple[int, ...]:
        """ACT-SECRET-1, ACT-TRADE-1: the cards ``player`` put under that marker."""
        return _counts(card for turn in self.turns if turn.player == player
                       and isinstance(turn.action, kind) for card in turn.action.cards)

    def scored_sides(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """SCORE-1, ACT-SECRET-3: the face-up cards and each owner's revealed secret."""
        placed = self.placements()
        return (_add(placed[0], self.face_down(Secret, 0)),
                _add(placed[1], self.face_down(Secret, 1)))


def _answer_cards(answer: Any) -> tuple[int, ...]:
    return answer.pair if isinstance(answer, CompetitionPick) else (answer.card,)


def rounds_of(state: Any) -> tuple[Round, ...]:
    """The rounds of ``state.history`` as the rules read them.

    The movers alternate from the round's starter (TURN-1, UPDATE-4); each answer completes the
    turn before it (TURN-4).
    """
    rounds: list[Round] = []
    turns: list[Turn] = []
    deal: Deal | None = None

    def close() -> None:
        if deal is not None:
            index = len(rounds)
            rounds.append(Round(index, _starter(state.first_player, index), deal, tuple(turns)))

    for decision in state.history:
        if isinstance(decision, Deal):
            close()
            deal, turns = decision, []
        elif isinstance(decision, ANSWERS):
            turns[-1] = attrs.evolve(turns[-1], answer=decision)
        else:
            starter = _starter(state.first_player, len(rounds))
            turns.append(Turn(starter if len(turns) % 2 == 0 else 1 - starter, decision))
    close()
    return tuple(rounds)


def _current_round(state: Any) -> Round | None:
    """The round being played (None before its deal)."""
    if state.phase is Phase.DEAL:
        return None
    rounds = rounds_of(state)
    return rounds[-1] if rounds else None


def _where(state: Any) -> str:
    return f"round {state.round}, turn {state.turn}, phase {state.phase.value}"


_DECISIONS = (Deal, Secret, TradeOff, Gift, Competition, GiftPick, CompetitionPick)


def _jsonable(value: Any) -> Any:
    """``value`` in the record's JSON terms: a decision as its JSON form, a result as
    ``{"winner", "reason"}``, an enum as its name in records, tuples as lists."""
    if isinstance(value, _DECISIONS):
        return decision_json(value)
    if isinstance(value, Result):
        return result_json(value)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    return value


def _shown(value: Any) -> str:
    """A value as a violation's message shows it: its record JSON (``_jsonable``), never a
    Python repr, except for an object of the engine's own that has no JSON form."""
    text = value_text(_jsonable(value))
    return repr(value) if text.endswith(" object") else text


# --- the cards ---------------------------------------------------------------------------------


@checks("COMP-1", "COMP-4")
def marker_row_is_well_formed(state: Any) -> None:
    """COMP-1, COMP-4: one marker per geisha of the fixed row, each neutral or on a side; all
    neutral before the first scoring."""
    check = marker_row_is_well_formed
    _require(len(state.markers) == NUM_GEISHA and all(m in (None, 0, 1) for m in state.markers),
             check, f"{_where(state)}: the marker row {_shown(state.markers)} is not 7 of null/0/1")
    if not state.scores:
        _require(all(m is None for m in state.markers), check,
                 f"{_where(state)}: markers {_shown(state.markers)} moved before any scoring")


@checks("COMP-2", "DEAL-1", "ACT-GIFT-1", "ACT-COMP-1", "UPDATE-1")
def cards_are_conserved(state: Any) -> None:
    """COMP-2, DEAL-1, ACT-GIFT-1, ACT-COMP-1, UPDATE-1: the 21 cards are exactly accounted for:
    none created, lost or duplicated."""
    check = cards_are_conserved
    pending = _counts(state.pending.cards) if state.pending is not None else EMPTY
    removed = _counts(()) if state.removed is None else _counts((state.removed,))
    places = {"removed": removed, "hand 0": state.hands[0], "hand 1": state.hands[1],
              "deck": _counts(state.deck), "secret 0": state.secrets[0],
              "secret 1": state.secrets[1], "trade-off 0": state.trade_offs[0],
              "trade-off 1": state.trade_offs[1], "side 0": state.sides[0],
              "side 1": state.sides[1], "pending": pending}
    found = _add(*places.values())
    if state.phase is Phase.DEAL:
        # UPDATE-1: between rounds every card is gathered for the next deal; nothing lies out.
        _require(found == EMPTY, check,
                 f"{_where(state)}: cards {_show(found)} are still out before the deal")
        return
    _require(found == FULL, check,
             f"{_where(state)}: the places hold {_show(found)}, not the 21 cards {_show(FULL)} "
             f"({', '.join(f'{k} {_show(v)}' for k, v in places.items() if any(v))})")


@checks("DEAL-2", "DEAL-4", "TURN-2")
def deck_is_the_rest_of_the_deal(state: Any) -> None:
    """DEAL-2, DEAL-4, TURN-2: the removed card is the deal's, out of play; the deck is the
    deal's draws not yet drawn, in order; it holds 8 - cards drawn."""
    check = deck_is_the_rest_of_the_deal
    current = _current_round(state)
    if current is None:
        return
    _require(state.removed == current.deal.removed, check,
             f"{_where(state)}: the removed card is {_shown(state.removed)}, dealt "
             f"{current.deal.removed}")
    _require(len(state.deck) == DECK_SIZE - current.drawn, check,
             f"{_where(state)}: the deck holds {len(state.deck)} cards after {current.drawn} "
             f"draws, not {DECK_SIZE - current.drawn}")
    _require(tuple(state.deck) == tuple(current.deal.draws[current.drawn:]), check,
             f"{_where(state)}: the deck is {tuple(state.deck)}, not the undrawn "
             f"{tuple(current.deal.draws[current.drawn:])}")


@checks("DEAL-3", "TURN-2", "TURN-4")
def hands_follow_draws_and_plays(state: Any) -> None:
    """DEAL-3, TURN-2, TURN-4: each hand is the 6 dealt cards plus the cards its player drew,
    less those they played (6 + drawn - played cards)."""
    check = hands_follow_draws_and_plays
    current = _current_round(state)
    if current is None:
        _require(state.hands == (EMPTY, EMPTY), check, f"{_where(state)}: hands before the deal")
        return
    for p in (0, 1):
        drawn, played = current.drawn_by(p), current.played_by(p)
        size = sum(state.hands[p])
        _require(size == HAND_SIZE + len(drawn) - len(played), check,
                 f"{_where(state)}: player {p} holds {size} cards, not 6 + {len(drawn)} drawn - "
                 f"{len(played)} played")
        expected = _sub(_add(_counts(current.deal.hands[p]), _counts(drawn)), _counts(played))
        _require(tuple(state.hands[p]) == expected, check,
                 f"{_where(state)}: player {p} holds {_show(state.hands[p])}, not "
                 f"{_show(expected)} (dealt, plus drawn, less played)")


@checks("TURN-3", "COMP-3", "UPDATE-3")
def actions_are_used_once_per_round(state: Any) -> None:
    """TURN-3, COMP-3, UPDATE-3: each player takes each action at most once per round, all four
    by the round's end; the markers are face up again for the next round."""
    check = actions_are_used_once_per_round
    for rnd in rounds_of(state):
        for p in (0, 1):
            kinds = rnd.kinds_used_by(p)
            _require(len(set(kinds)) == len(kinds), check,
                     f"round {rnd.index}: player {p} takes {[k.value for k in kinds]}: an "
                     "action twice")
            if rnd.completed == TURNS:
                _require(len(kinds) == len(SIZE), check,
                         f"round {rnd.index}: player {p} ends it with {len(kinds)} actions, not 4")
    current = _current_round(state)
    for p in (0, 1):
        used = tuple(state.used[p])
        expected = () if current is None else current.kinds_used_by(p)
        _require(len(set(used)) == len(used) and set(used) == set(expected), check,
                 f"{_where(state)}: player {p}'s used markers are {[k.value for k in used]}, "
                 f"not {[k.value for k in expected]}")


@checks("ACT-SECRET-1", "ACT-TRADE-1")
def face_down_cards_follow_the_actions(state: Any) -> None:
    """ACT-SECRET-1, ACT-TRADE-1: the secret and trade-off places hold the cards their owners
    put there this round, and nothing else."""
    check = face_down_cards_follow_the_actions
    current = _current_round(state)
    for p in (0, 1):
        secret = EMPTY if current is None else current.face_down(Secret, p)
        trade_off = EMPTY if current is None else current.face_down(TradeOff, p)
        _require(tuple(state.secrets[p]) == secret, check,
                 f"{_where(state)}: player {p}'s secret is {_show(state.secrets[p])}, "
                 f"played {_show(secret)}")
        _require(tuple(state.trade_offs[p]) == trade_off, check,
                 f"{_where(state)}: player {p}'s trade-off is {_show(state.trade_offs[p])}, "
                 f"played {_show(trade_off)}")


@checks("ACT-GIFT-2", "ACT-GIFT-3", "ACT-COMP-2", "ACT-COMP-3", "TURN-4")
def sides_follow_the_answers(state: Any) -> None:
    """ACT-GIFT-2, ACT-GIFT-3, ACT-COMP-2, ACT-COMP-3, TURN-4: each answered offer put the
    chosen cards on the chooser's side and the rest on the offerer's; an unanswered one waits."""
    check = sides_follow_the_answers
    current = _current_round(state)
    expected = (EMPTY, EMPTY) if current is None else current.placements()
    _require(tuple(map(tuple, state.sides)) == expected, check,
             f"{_where(state)}: the sides are {_show(state.sides[0])} and "
             f"{_show(state.sides[1])}, not {_show(expected[0])} and {_show(expected[1])}")
    waiting = None
    if current is not None and current.turns and not current.turns[-1].complete:
        waiting = current.turns[-1].action
    _require(state.pending == waiting, check,
             f"{_where(state)}: the pending offer is {_shown(state.pending)}, not "
             f"{_shown(waiting)}")
    _require((state.phase is Phase.RESPONSE) == (waiting is not None), check,
             f"{_where(state)}: phase {state.phase.value} with pending offer {_shown(waiting)}")


# --- scoring and the end -----------------------------------------------------------------------


@checks("SCORE-1", "DEAL-2", "ACT-TRADE-3", "ACT-GIFT-3", "ACT-COMP-3")
def scoring_accounts_for_21_cards(state: Any) -> None:
    """SCORE-1, DEAL-2, ACT-TRADE-3, ACT-GIFT-3, ACT-COMP-3: each scoring counts 16 cards, 8 on
    each side; the 4 trade-off cards and the removed card make up the 21."""
    check = scoring_accounts_for_21_cards
    rounds = rounds_of(state)
    for i, score in enumerate(state.scores):
        _require(score.round == i and i < len(rounds), check,
                 f"scoring {i} is labelled round {score.round} ({len(rounds)} rounds dealt)")
        rnd = rounds[i]
        sizes = [sum(side) for side in score.sides]
        _require(sizes == [SIDE_SIZE, SIDE_SIZE], check,
                 f"round {i}: the sides score {sizes[0]} and {sizes[1]} cards, not 8 and 8")
        trade_offs = _add(rnd.face_down(TradeOff, 0), rnd.face_down(TradeOff, 1))
        _require(sum(trade_offs) == 4, check,
                 f"round {i}: {sum(trade_offs)} cards in trade-offs, not 4")
        total = _add(score.sides[0], score.sides[1], trade_offs, _counts((rnd.deal.removed,)))
        _require(total == FULL, check,
                 f"round {i}: scored sides, trade-offs and the removed card make {_show(total)}, "
                 f"not the 21 cards")


@checks("SCORE-1", "ACT-SECRET-3", "ACT-GIFT-3", "ACT-COMP-3")
def scored_sides_follow_the_round(state: Any) -> None:
    """SCORE-1, ACT-SECRET-3, ACT-GIFT-3, ACT-COMP-3: each side scored is its face-up cards
    plus its owner's revealed secret, as the round's decisions placed them."""
    check = scored_sides_follow_the_round
    rounds = rounds_of(state)
    for score in state.scores:
        if score.round >= len(rounds):
            continue  # scoring_accounts_for_21_cards reports it
        expected = rounds[score.round].scored_sides()
        _require(tuple(map(tuple, score.sides)) == expected, check,
                 f"round {score.round}: scored sides {_show(score.sides[0])} and "
                 f"{_show(score.sides[1])}, but the decisions placed {_show(expected[0])} and "
                 f"{_show(expected[1])}")


@checks("SCORE-2", "SCORE-3", "UPDATE-2")
def markers_move_only_to_the_stronger_side(state: Any) -> None:
    """SCORE-2, SCORE-3, UPDATE-2: a marker moves to the side with strictly more of its items,
    and only then; a tie (even 0 to 0) leaves it where it was, earlier rounds included."""
    check = markers_move_only_to_the_stronger_side
    markers: tuple = (None,) * NUM_GEISHA
    for score in state.scores:
        side0, side1 = score.sides
        for g in range(NUM_GEISHA):
            a, b = side0[g], side1[g]
            want = 0 if a > b else 1 if b > a else markers[g]
            _require(score.markers[g] == want, check,
                     f"round {score.round}: geisha {g} scored {a} to {b} with her marker at "
                     f"{_shown(markers[g])}; it must be at {_shown(want)}, not "
                     f"{_shown(score.markers[g])}")
        markers = tuple(score.markers)
    _require(tuple(state.markers) == markers, check,
             f"{_where(state)}: the markers are {_shown(state.markers)}, but the last scoring left "
             f"{_shown(markers)}")


def _geisha(markers: Sequence[int | None], player: int) -> int:
    return sum(1 for m in markers if m == player)


def _charm(markers: Sequence[int | None], player: int) -> int:
    return sum(CHARM[g] for g, m in enumerate(markers) if m == player)


def _goal(rules: Any, markers: Sequence[int | None], player: int) -> bool:
    """END-2: 4 or more geisha, or 11 or more charm (the presets' goals)."""
    return _geisha(markers, player) >= rules.geisha_goal or _charm(markers, player) >= rules.charm_goal


@checks("END-1", "END-2", "UPDATE-5", "VAR-IT-1")
def game_ends_at_the_first_goal(state: Any) -> None:
    """END-1, END-2, UPDATE-5, VAR-IT-1: scoring only after a round's 8 turns; the game ends at
    the first scoring that reaches a goal (or the third, under the Italian rule), never later."""
    check = game_ends_at_the_first_goal
    rounds = rounds_of(state)
    complete = sum(1 for rnd in rounds if rnd.completed == TURNS)
    _require(len(state.scores) == complete, check,
             f"{_where(state)}: {len(state.scores)} scorings after {complete} complete rounds")
    limit = state.rules.max_rounds
    for score in state.scores[:-1]:
        reached = [p for p in (0, 1) if _goal(state.rules, score.markers, p)]
        _require(not reached, check,
                 f"round {score.round}: player(s) {reached} reached the goal, yet the game went on")
        _require(limit is None or score.round + 1 < limit, check,
                 f"round {score.round}: the round limit {limit} was reached, yet the game went on")
    if limit is not None:
        _require(state.round < limit and len(rounds) <= limit, check,
                 f"{_where(state)}: round {state.round} under a limit of {limit} rounds")
    should_end = False
    if state.scores:
        last = state.scores[-1]
        should_end = (any(_goal(state.rules, last.markers, p) for p in (0, 1))
                      or (limit is not None and last.round + 1 >= limit))
    is_over = state.phase is Phase.OVER
    _require(is_over == should_end and (state.result is not None) == is_over, check,
             f"{_where(state)}: phase {state.phase.value}, result {_shown(state.result)}, but the "
             f"game {'must' if should_end else 'must not'} be over")
    if is_over:
        _require(len(rounds) == len(state.scores), check,
                 f"{_where(state)}: {len(rounds)} rounds dealt for {len(state.scores)} scorings")


def _goal_result(rules: Any, markers: Sequence[int | None]) -> Result | None:
    """END-2..4, restated: who reached the goal, and why they win."""
    reached = [p for p in (0, 1) if _goal(rules, markers, p)]
    if not reached:
        return None
    if len(reached) == 2:  # END-4: one has 4 geisha, the other 11 charm; charm wins
        charmer = [p for p in (0, 1) if _charm(markers, p) >= rules.charm_goal]
        return Result(charmer[0], Reason.CHARM_OVER_GEISHA) if len(charmer) == 1 else None
    winner = reached[0]
    reason = Reason.CHARM if _charm(markers, winner) >= rules.charm_goal else Reason.GEISHA
    return Result(winner, reason)


@checks("END-3", "END-4", "SCORE-4")
def result_agrees_with_the_markers(state: Any) -> None:
    """END-3, END-4, SCORE-4: a goal reached by one player is theirs (reason "charm" with 11
    charm, else "geisha"); 4 geisha against 11 charm goes to the charm (charm-over-geisha)."""
    check = result_agrees_with_the_markers
    if state.result is None:
        return
    expected = _goal_result(state.rules, state.markers)
    if expected is None and state.result.reason in (Reason.GEISHA, Reason.CHARM,
                                                     Reason.CHARM_OVER_GEISHA):
        raise Violation(f"{_where(state)}: result {_shown(state.result)}, but no one reached the "
                        f"goal with markers {_shown(state.markers)}", rule_ids(check))
    if expected is not None:
        _require(state.result == expected, check,
                 f"{_where(state)}: markers {_shown(state.markers)} (geisha "
                 f"{_geisha(state.markers, 0)}"
                 f"/{_geisha(state.markers, 1)}, charm {_charm(state.markers, 0)}/"
                 f"{_charm(state.markers, 1)}) give {_shown(expected)}, not {_shown(state.result)}")


def _limit_result(markers: Sequence[int | None]) -> Result:
    """VAR-IT-2..4, restated: more charm; else the highest geisha values compared from the top;
    else shared."""
    c0, c1 = _charm(markers, 0), _charm(markers, 1)
    if c0 != c1:
        return Result(0 if c0 > c1 else 1, Reason.ROUND_LIMIT_CHARM)
    values = [sorted((CHARM[g] for g, m in enumerate(markers) if m == p), reverse=True)
              for p in (0, 1)]
    for v0, v1 in zip_longest(*values, fillvalue=0):
        if v0 != v1:
            return Result(0 if v0 > v1 else 1, Reason.ROUND_LIMIT_HIGHEST_GEISHA)
    return Result(None, Reason.SHARED)


@checks("VAR-IT-2", "VAR-IT-3", "VAR-IT-4")
def round_limit_decides_by_charm_then_highest_geisha(state: Any) -> None:
    """VAR-IT-2, VAR-IT-3, VAR-IT-4: at the round limit with no goal, more charm wins; on equal
    charm the highest-valued geisha held, compared from the top; else the victory is shared."""
    check = round_limit_decides_by_charm_then_highest_geisha
    limit = state.rules.max_rounds
    if state.result is None or limit is None or state.round + 1 < limit:
        limit_reasons = (Reason.ROUND_LIMIT_CHARM, Reason.ROUND_LIMIT_HIGHEST_GEISHA, Reason.SHARED)
        _require(state.result is None or state.result.reason not in limit_reasons, check,
                 f"{_where(state)}: result {_shown(state.result)} before the round limit {limit}")
        return
    if _goal_result(state.rules, state.markers) is not None:
        return  # VAR-IT-2: a goal decides (result_agrees_with_the_markers)
    expected = _limit_result(state.markers)
    _require(state.result == expected, check,
             f"{_where(state)}: at the round limit, markers {_shown(state.markers)} (charm "
             f"{_charm(state.markers, 0)}/{_charm(state.markers, 1)}) give {_shown(expected)}, not "
             f"{_shown(state.result)}")


# --- turns -------------------------------------------------------------------------------------


@checks("TURN-1", "TURN-4", "UPDATE-4", "SETUP-1")
def turns_follow_the_order(state: Any, *, engine: Engine = REFERENCE) -> None:
    """TURN-1, TURN-4, UPDATE-4, SETUP-1: the round's starter moves first, then the players
    alternate; the opponent answers a gift or competition before the next turn."""
    check = turns_follow_the_order
    player = engine.current_player(state)
    if state.phase is Phase.DEAL:
        _require(player == CHANCE, check, f"{_where(state)}: player {player} to move, not the deal")
        return
    if state.phase is Phase.OVER:
        _require(player == TERMINAL, check, f"{_where(state)}: player {player} to move after the end")
        return
    current = _current_round(state)
    assert current is not None
    _require(state.turn == current.completed, check,
             f"{_where(state)}: turn {state.turn} after {current.completed} complete turns")
    expected = expected_mover(state)
    _require(player == expected, check,
             f"{_where(state)}: player {player} to move; turn {state.turn} of round "
             f"{state.round} (started by player {current.starter}) wants player {expected}")


@checks("TURN-1", "TURN-4", "SETUP-1")
def expected_mover(state: Any) -> int:
    """TURN-1, TURN-4, SETUP-1: who must move in ``state``, from the rules and the round's
    history alone (never from the engine's ``current_player``): CHANCE at a deal, TERMINAL at the
    end, else the mover of the turn, or their opponent when an offer awaits an answer."""
    if state.phase is Phase.DEAL:
        return CHANCE
    if state.phase is Phase.OVER:
        return TERMINAL
    current = _current_round(state)
    assert current is not None
    mover = current.mover(current.completed)
    return mover if state.phase is Phase.ACTION else 1 - mover


@checks("TURN-1", "TURN-4", "UPDATE-4", "END-1", "SETUP-1")
def step_follows_the_turn_order(before: Any, decision: Any, after: Any, *,
                                engine: Engine = REFERENCE) -> None:
    """TURN-1, TURN-4, UPDATE-4, END-1, SETUP-1: a deal starts the round with its starter; an
    offer waits for the opponent's answer; the turn then passes; the first player never changes."""
    check = step_follows_the_turn_order
    _require(after.first_player == before.first_player, check,
             f"{_where(before)}: the first player changed from {before.first_player} to "
             f"{after.first_player}")
    mover = engine.current_player(before)
    now = engine.current_player(after)
    if isinstance(decision, Deal):
        starter = _starter(before.first_player, before.round)
        _require(after.round == before.round and after.turn == 0 and now == starter, check,
                 f"{_where(before)}: after the deal, round {after.round} turn {after.turn} player "
                 f"{now} moves; round {before.round} is started by player {starter}")
        return
    if isinstance(decision, (Gift, Competition)):
        _require(after.phase is Phase.RESPONSE and after.turn == before.turn and now == 1 - mover,
                 check, f"{_where(before)}: after {_shown(decision)}, {_where(after)} with player "
                        f"{now} to move; player {1 - mover} must answer first")
        return
    scored = len(after.scores) > len(before.scores)
    if scored:
        _require(before.turn == TURNS - 1, check,
                 f"{_where(before)}: the round was scored after turn {before.turn}, not turn 7")
        _require(after.round == before.round + 1 or after.phase is Phase.OVER, check,
                 f"{_where(before)}: after the scoring, {_where(after)}")
        return
    next_mover = mover if isinstance(decision, ANSWERS) else 1 - mover
    # After an answer, the next turn is the answerer's: the offerer's opponent (TURN-1).
    _require(after.turn == before.turn + 1 and now == next_mover, check,
             f"{_where(before)}: after {_shown(decision)}, {_where(after)} with player {now} to "
             f"move, not turn {before.turn + 1} of player {next_mover}")


@checks("TURN-2", "TURN-4", "ACT-SECRET-1", "ACT-TRADE-1", "ACT-GIFT-1", "ACT-GIFT-2",
       "ACT-GIFT-3", "ACT-COMP-1", "ACT-COMP-2", "ACT-COMP-3")
def step_moves_exactly_the_played_cards(before: Any, decision: Any, after: Any, *,
                                        engine: Engine = REFERENCE) -> None:
    """TURN-2, TURN-4, ACT-SECRET-1, ACT-TRADE-1, ACT-GIFT-1, ACT-GIFT-2, ACT-GIFT-3, ACT-COMP-1,
    ACT-COMP-2, ACT-COMP-3: each step moves exactly the cards it names, and the next mover draws."""
    check = step_moves_exactly_the_played_cards
    if before.phase is Phase.OVER:
        return
    hands = [tuple(before.hands[0]), tuple(before.hands[1])]
    secrets = [tuple(before.secrets[0]), tuple(before.secrets[1])]
    trade_offs = [tuple(before.trade_offs[0]), tuple(before.trade_offs[1])]
    sides = [tuple(before.sides[0]), tuple(before.sides[1])]
    deck = tuple(before.deck)
    pending = None
    mover = engine.current_player(before)
    if isinstance(decision, Deal):
        hands = [_counts(decision.hands[0]), _counts(decision.hands[1])]
        deck = tuple(decision.draws)
        next_mover = _starter(before.first_player, before.round)
    elif isinstance(decision, ANSWERS):
        offerer = 1 - mover
        taken = _counts(_answer_cards(decision))
        sides[mover] = _add(sides[mover], taken)
        sides[offerer] = _add(sides[offerer], _sub(_counts(before.pending.cards), taken))
        next_mover = mover
    else:
        played = _counts(decision.cards)
        hands[mover] = _sub(hands[mover], played)
        if isinstance(decision, Secret):
            secrets[mover] = _add(secrets[mover], played)
        elif isinstance(decision, TradeOff):
            trade_offs[mover] = _add(trade_offs[mover], played)
        else:
            pending = decision
        next_mover = 1 - mover
    turn_ends = not isinstance(decision, (Gift, Competition))
    if len(after.scores) > len(before.scores):
        expected = (_add(sides[0], secrets[0]), _add(sides[1], secrets[1]))
        got = after.scores[-1].sides
        _require(tuple(map(tuple, got)) == expected, check,
                 f"{_where(before)}: after {_shown(decision)} the round scores {_show(got[0])} and "
                 f"{_show(got[1])}, not {_show(expected[0])} and {_show(expected[1])}")
        return
    if turn_ends and deck:  # TURN-2: the next turn begins with its draw
        hands[next_mover] = _add(hands[next_mover], _counts(deck[:1]))
        deck = deck[1:]
    for name, want, got in (("hands", hands, after.hands), ("secrets", secrets, after.secrets),
                            ("trade-offs", trade_offs, after.trade_offs),
                            ("sides", sides, after.sides)):
        _require([tuple(x) for x in got] == [tuple(x) for x in want], check,
                 f"{_where(before)}: after {_shown(decision)} the {name} are "
                 f"{' and '.join(_show(x) for x in got)}, not {' and '.join(_show(x) for x in want)}")
    _require(tuple(after.deck) == deck and after.pending == pending, check,
             f"{_where(before)}: after {_shown(decision)} the deck is {tuple(after.deck)} and the "
             f"pending offer {_shown(after.pending)}, not {deck} and {_shown(pending)}")


# --- legality ----------------------------------------------------------------------------------


def _selections(hand: Sequence[int], k: int) -> set[tuple[int, ...]]:
    cards = [g for g, n in enumerate(hand) for _ in range(n)]
    return set(itertools.combinations(cards, k))  # sorted: the cards are listed in order


def _rules_menu(state: Any) -> set[Any]:
    """What the rules allow the current player, enumerated from the hand and the history."""
    current = _current_round(state)
    if current is None or state.phase is Phase.OVER:
        return set()
    if state.phase is Phase.RESPONSE:
        offer = current.turns[-1].action
        if isinstance(offer, Gift):  # ACT-GIFT-2: any one of the three cards
            return {GiftPick(card) for card in offer.cards}
        return {CompetitionPick(pair) for pair in offer.pairs}  # ACT-COMP-2: either set
    mover = current.mover(current.completed)
    used = set(current.kinds_used_by(mover))
    hand = state.hands[mover]
    menu: set[Any] = set()
    if ActionKind.SECRET not in used:
        menu |= {Secret(s[0]) for s in _selections(hand, 1)}
    if ActionKind.TRADE_OFF not in used:
        menu |= {TradeOff(s) for s in _selections(hand, 2)}
    if ActionKind.GIFT not in used:
        menu |= {Gift(s) for s in _selections(hand, 3)}
    if ActionKind.COMPETITION not in used:
        for a, b, c, d in _selections(hand, 4):  # ACT-COMP-1: every division into two sets
            menu |= {Competition(((a, b), (c, d))), Competition(((a, c), (b, d))),
                     Competition(((a, d), (b, c)))}
    return menu


@checks("TURN-3", "ACT-SECRET-1", "ACT-TRADE-1", "ACT-GIFT-1", "ACT-COMP-1", "ACT-GIFT-2",
       "ACT-COMP-2", "COMP-2")
def legal_actions_are_exactly_what_the_rules_allow(state: Any, *,
                                                   engine: Engine = REFERENCE) -> None:
    """TURN-3, ACT-SECRET-1, ACT-TRADE-1, ACT-GIFT-1, ACT-COMP-1, ACT-GIFT-2, ACT-COMP-2, COMP-2:
    the legal actions are every distinct choice the rules allow, each once, sorted."""
    check = legal_actions_are_exactly_what_the_rules_allow
    legal = tuple(engine.legal_actions(state))
    _require(list(legal) == sorted(set(legal)), check,
             f"{_where(state)}: legal_actions is not sorted and distinct: {_shown(legal)}")
    expected = _rules_menu(state)
    missing = sorted(expected - set(legal))
    extra = sorted(set(legal) - expected)
    _require(not missing and not extra, check,
             f"{_where(state)}: legal_actions lacks {_shown(missing[:4])} and offers "
             f"{_shown(extra[:4])} ({len(missing)} missing, {len(extra)} extra)")


@checks("TURN-2", "TURN-3")
def legal_actions_all_apply(state: Any, *, engine: Engine = REFERENCE) -> None:
    """TURN-2, TURN-3: a player to move always has an action (hands hold enough cards), and
    every legal action applies."""
    check = legal_actions_all_apply
    player = engine.current_player(state)
    legal = engine.legal_actions(state)
    _require(bool(legal) == (player in (0, 1)), check,
             f"{_where(state)}: {len(legal)} legal actions with player {player} to move")
    for action in legal:
        try:
            engine.apply(state, action)
        except ValueError as error:
            raise Violation(f"{_where(state)}: the legal {_shown(action)} is refused: {error}",
                            rule_ids(check)) from None


@functools.cache
def _known_rule_ids() -> frozenset[str]:
    from hanamikoji.spec.core.coverage import spec_rule_ids

    return frozenset(spec_rule_ids())


@checks("TURN-3", "TURN-4", "DEAL-1", "END-2")
def illegal_decisions_are_refused(state: Any, decision: Any, *,
                                  engine: Engine = REFERENCE) -> None:
    """TURN-3, TURN-4, DEAL-1, END-2: a decision the state does not allow raises a ValueError
    that names a rule of the spec, and leaves the state as it was."""
    check = illegal_decisions_are_refused
    player = engine.current_player(state)
    if player == CHANCE and isinstance(decision, Deal) and decision.multiset() == FULL:
        return  # every shuffle of the 21 cards is a legal deal
    if decision in engine.legal_actions(state):
        return
    snapshot = copy.deepcopy(state)
    try:
        engine.apply(state, decision)
    except ValueError as error:
        rule = getattr(error, "rule", None)
        _require(rule in _known_rule_ids(), check,
                 f"{_where(state)}: {_shown(decision)} is refused with rule {_shown(rule)}, not a "
                 f"rule ID of spec/rules.md: {error}")
    else:
        raise Violation(f"{_where(state)}: {_shown(decision)} is accepted, but it is not among the "
                        f"legal decisions", rule_ids(check))
    _require(state == snapshot, check, f"{_where(state)}: refusing {_shown(decision)} changed the "
                                       f"state")


# --- the engine's contract ---------------------------------------------------------------------


def apply_leaves_its_input_unchanged(state: Any, decision: Any, *,
                                     engine: Engine = REFERENCE) -> None:
    """(The engine's contract, no rule ID.) apply never changes its input, and the same decision
    in the same state gives equal states."""
    snapshot = copy.deepcopy(state)
    first = engine.apply(state, decision)
    if state != snapshot:
        raise Violation(f"{_where(snapshot)}: apply({_shown(decision)}) changed its input state")
    second = engine.apply(state, decision)
    if first != second:
        raise Violation(f"{_where(state)}: apply({_shown(decision)}) twice gives different states")


def history_is_the_decisions_played(game: Any) -> None:
    """(The engine's contract, no rule ID.) every state's history is the decisions that led to
    it, deals included."""
    for i, state in enumerate(game.states):
        if tuple(state.history) != tuple(game.decisions[:i]):
            raise Violation(f"after {i} decisions ({_where(state)}) the history holds "
                            f"{len(state.history)} decisions, not the {i} played")


def _record_decisions(parsed: Any) -> list[Any]:
    return [decision for rnd in parsed.rounds
            for decision in (rnd.deal,) + tuple(d for _, ds in rnd.turns for d in ds)]


@checks("SETUP-1", "UPDATE-4", "TURN-1")
def records_replay_to_the_same_game(state: Any, *, engine: Engine = REFERENCE) -> None:
    """SETUP-1, UPDATE-4, TURN-1: the record of a game ("hanamikoji-record/1") replays, through
    JSON, to the same game: the same states, the same result, the same record again."""
    check = records_replay_to_the_same_game
    from hanamikoji.engine.hanamikoji.record import parse_record, read_record, to_record

    history = tuple(state.history)
    if state.phase is Phase.RESPONSE:
        # A record holds whole turns: an offer is written with its answer. Check the game up to
        # the last whole turn.
        state = engine.new_game(state.rules, state.first_player)
        for decision in history[:-1]:
            state = engine.apply(state, decision)
    record = to_record(state)
    text = json.dumps(record, sort_keys=True)
    parsed = parse_record(json.loads(text))
    replayed = engine.new_game(state.rules, state.first_player)
    for decision in _record_decisions(parsed):
        replayed = engine.apply(replayed, decision)
    _require(replayed == state, check,
             f"{_where(state)}: the record replays to {_where(replayed)} with result "
             f"{_shown(replayed.result)}, not the same state")
    _require(json.dumps(to_record(replayed), sort_keys=True) == text, check,
             f"{_where(state)}: the replayed game writes a different record")
    for i, rnd in enumerate(record["rounds"]):  # the record's own account of the turn order
        starter = _starter(state.first_player, i)
        players = [turn["player"] for turn in rnd["turns"]]
        _require(players == [starter if t % 2 == 0 else 1 - starter for t in range(len(players))],
                 check, f"record round {i}: players {players}, not alternating from {starter}")
    if state.result is not None:
        # A second opinion: the reference reads the record to the same result and markers.
        reference = read_record(json.loads(text))
        _require(reference.result == state.result and reference.markers == state.markers, check,
                 f"{_where(state)}: the reference reads the record to {_shown(reference.result)}, "
                 f"not {_shown(state.result)}")


def _seeded_record(engine: Engine, rules_name: str, seed: int) -> str:
    """The record (JSON) of the game of ``seed``: deals from ``engine.random_deal`` and
    decisions uniform over the legal ones, both from ``random.Random(seed)``; the first player
    is ``seed % 2``."""
    import random

    from hanamikoji.engine.hanamikoji import PRESETS
    from hanamikoji.engine.hanamikoji.record import to_record

    rng = random.Random(seed)
    state = engine.new_game(PRESETS[rules_name], seed % 2)
    for _ in range(10_000):
        player = engine.current_player(state)
        if player == TERMINAL:
            break
        decision = engine.random_deal(rng) if player == CHANCE else rng.choice(
            engine.legal_actions(state))
        state = engine.apply(state, decision)
    return json.dumps(to_record(state), sort_keys=True)


def _seeded_records_main() -> None:
    """Child process: print the seeded records of ``argv[1]`` (JSON: spec, rules, seeds)."""
    from .engine_api import load_engine

    job = json.loads(sys.argv[1])
    engine = load_engine(job["engine"])
    print(json.dumps([_seeded_record(engine, job["rules"], seed) for seed in job["seeds"]]))


def _pythonpath_for(spec: str) -> list[str]:
    """The folder a fresh process needs on its path to import the module of ``spec``."""
    module = sys.modules.get(spec.partition(":")[0])
    file = getattr(module, "__file__", None)
    if not file:
        return []
    folder = os.path.dirname(os.path.abspath(file))
    for _ in range(spec.partition(":")[0].count(".") + (os.path.basename(file) == "__init__.py")):
        folder = os.path.dirname(folder)
    return [folder]


def seeded_games_are_reproducible(seeds: Sequence[int], *, rules: Any = STANDARD,
                                  engine: Engine = REFERENCE) -> None:
    """(The engine's contract, no rule ID.) the same seed gives the same game here and in two
    fresh processes with other PYTHONHASHSEEDs."""
    rules_name = rules.name  # a preset: the child process finds it by name
    spec = engine_spec(engine)
    if spec is None:
        raise TypeError(f"{engine!r} cannot be loaded in a fresh process: give it an "
                        "engine_spec attribute ('module:attribute')")
    here = [_seeded_record(engine, rules_name, seed) for seed in seeds]
    job = json.dumps({"engine": spec, "rules": rules_name, "seeds": list(seeds)})
    code = "from hanamikoji.properties.hanamikoji.invariants import _seeded_records_main; _seeded_records_main()"
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        path = _pythonpath_for(spec) + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
        env["PYTHONPATH"] = os.pathsep.join(path)
        child = subprocess.run([sys.executable, "-c", code, job], capture_output=True, text=True,
                               env=env, timeout=120)
        if child.returncode != 0:
            raise RuntimeError(f"the child process failed: {child.stderr.strip()[-500:]}")
        there = json.loads(child.stdout)
        for seed, a, b in zip(seeds, here, there):
            if a != b:
                raise Violation(f"seed {seed} ({rules_name}): the game in a fresh process with "
                                f"PYTHONHASHSEED={hash_seed} differs from this process's")


# --- hidden information ------------------------------------------------------------------------


def _expected_log(state: Any, player: int) -> tuple[ObservedTurn, ...]:
    current = _current_round(state)
    if current is None:
        return ()
    log = []
    for turn in current.turns:
        action = turn.action
        if isinstance(action, Competition):
            shown: Any = action.pairs
        elif isinstance(action, Gift) or turn.player == player:
            shown = tuple(action.cards)
        else:
            shown = None
        pick: Any = None
        if isinstance(turn.answer, GiftPick):
            pick = turn.answer.card
        elif isinstance(turn.answer, CompetitionPick):
            pick = turn.answer.pair
        log.append(ObservedTurn(turn.player, action.kind, shown, pick))
    return tuple(log)


@checks("INFO-1", "ACT-SECRET-2", "ACT-TRADE-2", "COMP-3")
def views_show_what_a_player_may_know(state: Any, player: int, *,
                                      engine: Engine = REFERENCE) -> None:
    """INFO-1, ACT-SECRET-2, ACT-TRADE-2, COMP-3: a view shows its player's own hand, secret and
    trade-off, every face-up card, the markers, the used actions, the sizes of the hidden places
    and the round's public history. (For views with the reference View's attributes.)"""
    check = views_show_what_a_player_may_know
    view = engine.observe(state, player)
    other = 1 - player
    expected = {
        "player": player, "round": state.round, "phase": state.phase, "turn": state.turn,
        "current_player": expected_mover(state), "markers": tuple(state.markers),
        "hand": tuple(state.hands[player]), "secret": tuple(state.secrets[player]),
        "trade_off": tuple(state.trade_offs[player]),
        "sides": tuple(map(tuple, state.sides)), "used": tuple(map(tuple, state.used)),
        "pending": state.pending, "opponent_hand_size": sum(state.hands[other]),
        "opponent_secret_size": sum(state.secrets[other]),
        "opponent_trade_off_size": sum(state.trade_offs[other]), "deck_size": len(state.deck),
        "scores": tuple(state.scores), "result": state.result,
        "log": _expected_log(state, player),
    }
    for name, want in expected.items():
        got = getattr(view, name, None)
        if name in ("markers", "hand", "secret", "trade_off") and got is not None:
            got = tuple(got)
        elif name in ("sides", "used") and got is not None:
            got = tuple(map(tuple, got))
        elif name in ("scores", "log") and got is not None:
            got = tuple(got)
        _require(got == want, check,
                 f"{_where(state)}: player {player}'s view shows {name} = {_shown(got)}, not "
                 f"{_shown(want)}")


@checks("INFO-2", "DEAL-2", "DEAL-3", "DEAL-4", "ACT-SECRET-2", "ACT-TRADE-2")
def views_leak_nothing(state: Any, player: int,
                       shuffle: Callable[[tuple[int, ...]], Sequence[int]], *,
                       engine: Engine = REFERENCE) -> None:
    """INFO-2, DEAL-2, DEAL-3, DEAL-4, ACT-SECRET-2, ACT-TRADE-2: resampling everything hidden
    from a player (consistently with what they saw) changes neither their view nor their
    legal actions."""
    check = views_leak_nothing
    try:
        other = resample(state, player, shuffle, engine=engine)
    except ValueError as error:
        raise Violation(f"{_where(state)}: a world player {player} cannot tell apart from this one "
                        f"is refused by the engine: {error}", rule_ids(check)) from None
    seen, seen_there = engine.observe(state, player), engine.observe(other, player)
    if seen != seen_there:
        differences = [f.name for f in attrs.fields(type(seen))
                       if getattr(seen, f.name) != getattr(seen_there, f.name, None)] \
            if attrs.has(type(seen)) else []
        raise Violation(f"{_where(state)}: player {player}'s view changes with cards hidden from "
                        f"them ({', '.join(differences) or 'the view'} differ)", rule_ids(check))
    if engine.current_player(state) == player:
        _require(engine.legal_actions(state) == engine.legal_actions(other), check,
                 f"{_where(state)}: player {player}'s legal actions change with cards hidden "
                 f"from them")


# --- groups ------------------------------------------------------------------------------------

#: Every invariant of a single state (the engine-free ones and turns_follow_the_order).
STATE_INVARIANTS: tuple[Callable[..., None], ...] = (
    marker_row_is_well_formed, cards_are_conserved, deck_is_the_rest_of_the_deal,
    hands_follow_draws_and_plays, actions_are_used_once_per_round,
    face_down_cards_follow_the_actions, sides_follow_the_answers, scoring_accounts_for_21_cards,
    scored_sides_follow_the_round, markers_move_only_to_the_stronger_side,
    game_ends_at_the_first_goal, result_agrees_with_the_markers,
    round_limit_decides_by_charm_then_highest_geisha, turns_follow_the_order,
)

#: Every invariant of one step ``(before, decision, after)``.
STEP_INVARIANTS: tuple[Callable[..., None], ...] = (
    step_follows_the_turn_order, step_moves_exactly_the_played_cards,
)

_TAKES_ENGINE = {turns_follow_the_order, step_follows_the_turn_order,
                 step_moves_exactly_the_played_cards}


def check_state(state: Any, *, engine: Engine = REFERENCE) -> None:
    """Every state invariant (:data:`STATE_INVARIANTS`)."""
    for invariant in STATE_INVARIANTS:
        if invariant in _TAKES_ENGINE:
            invariant(state, engine=engine)
        else:
            invariant(state)


def check_step(before: Any, decision: Any, after: Any, *, engine: Engine = REFERENCE) -> None:
    """Every step invariant (:data:`STEP_INVARIANTS`)."""
    for invariant in STEP_INVARIANTS:
        invariant(before, decision, after, engine=engine)
