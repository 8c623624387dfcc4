"""Hanamikoji's encoding for the framework bridges (docs/integrations.md has the tables).

Actions: every decision a hand of the 21 cards allows, in the engine's sort order (secrets,
trade-offs, gifts, competitions, then the answers: a gift's card, a competition's set), so a
sorted menu is a sorted list of integers.

Chance: a round's :class:`~hanamikoji.engine.hanamikoji.actions.Deal` is drawn card by card, 21
draws of a geisha each, with probability proportional to her cards left: the removed card,
player 0's six cards, player 1's six, then the deck in draw order, which is how
:func:`~hanamikoji.engine.hanamikoji.game.random_deal` cuts a shuffled deck (DEAL-1..4).

The bound: ``max_rounds`` (default 10). A standard game has no round limit (UPDATE-5, and the
query ``unbounded-game`` shows one can go on forever); one still undecided when round
``max_rounds`` would begin ends there, truncated, with returns 0 / 0, which no finished
standard game has: only the Italian round limit shares a victory (VAR-IT-4). The Italian
variant is bounded by its own rule (VAR-IT-1, 3 rounds) and takes no other ``max_rounds``.

Tensors are 0/1. A multiset of cards is 21 bits, one per card of the deck: geisha ``g`` owns
``CHARM[g]`` bits and a count ``n`` sets the first ``n`` of them.

>>> ENCODING.num_distinct_actions, ENCODING.int_to_action(0)
(534, Secret(card=0))
>>> ENCODING.action_to_int(ENCODING.int_to_action(300))
300
"""

from __future__ import annotations

import itertools
from typing import Any, Sequence

from hanamikoji.engine.core.errors import OptionError
from hanamikoji.engine.core.game import Outcome
from hanamikoji.engine.hanamikoji import cards as C
from hanamikoji.engine.hanamikoji import game as G
from hanamikoji.engine.hanamikoji.actions import (
    ALL_KINDS,
    ActionKind,
    Competition,
    CompetitionPick,
    Deal,
    Gift,
    GiftPick,
    Secret,
    TradeOff,
)
from hanamikoji.engine.hanamikoji.rules import Reason

from . import Encoding, Layout, Setup

#: DEAL-2..4: the parts of a deal, in the order the draws fill them.
DEAL_PARTS = (("the removed card", 1), ("player 0's hand", 6), ("player 1's hand", 6),
              ("the deck", C.NUM_CARDS - 13))
#: A round: 8 actions (TURN-1) and at most 4 answers (two offers each, TURN-4).
DECISIONS_PER_ROUND = G.TURNS_PER_ROUND + 4


def _fits(decision: Any) -> bool:
    """Whether the cards of ``decision`` could all be in one hand (COMP-2: no more of a geisha
    than the deck holds)."""
    cards = (decision.pair if isinstance(decision, CompetitionPick)
             else () if isinstance(decision, GiftPick) else decision.cards)
    return C.contains(C.FULL_DECK, C.counts(cards))


def _every_decision() -> tuple[Any, ...]:
    pairs = list(itertools.combinations_with_replacement(C.GEISHA, 2))
    triples = itertools.combinations_with_replacement(C.GEISHA, 3)
    candidates = ([Secret(g) for g in C.GEISHA] + [TradeOff(p) for p in pairs]
                  + [Gift(t) for t in triples]
                  + [Competition(two) for two in itertools.combinations_with_replacement(pairs, 2)]
                  + [GiftPick(g) for g in C.GEISHA] + [CompetitionPick(p) for p in pairs])
    return tuple(sorted(d for d in candidates if _fits(d)))


ACTIONS = _every_decision()

#: The first bit of each geisha in a 21-bit multiset.
_CARD_AT = tuple(itertools.accumulate((0,) + C.FULL_DECK[:-1]))
_SET = C.NUM_CARDS
_PLAYERS = (0, 1, G.CHANCE, G.TERMINAL)
_PHASES = (G.Phase.DEAL, G.Phase.ACTION, G.Phase.RESPONSE, G.Phase.OVER)
_REASONS = tuple(Reason)
_MAX_HAND = 7  # six dealt and one drawn (TURN-2); every action plays at least one card
_TURN = (("present", 1), ("mover", 2), ("kind", 4), ("hidden", 1), ("cards", _SET),
         ("set_a", _SET), ("set_b", _SET), ("taken", _SET))
_TURN_SIZE = sum(size for _, size in _TURN)
_TURN_AT = dict(zip((n for n, _ in _TURN),
                    itertools.accumulate([0] + [s for _, s in _TURN][:-1])))
_SCORE_SIZE = 3 * _SET  # both sides after scoring, then the markers


def _multiset(ones: list[int], at: int, multiset: Sequence[int]) -> None:
    for geisha, count in enumerate(multiset):
        if count > C.FULL_DECK[geisha]:
            raise AssertionError(f"{count} cards of geisha {geisha}: more than the deck holds")
        ones.extend(range(at + _CARD_AT[geisha], at + _CARD_AT[geisha] + count))


def _markers(ones: list[int], at: int, markers: Sequence[int | None]) -> None:
    for geisha, marker in enumerate(markers):
        ones.append(at + 3 * geisha + (0 if marker is None else 1 + marker))


class HanamikojiEncoding(Encoding):
    game_name = "hanamikoji"
    actions = ACTIONS
    num_distinct_actions = len(ACTIONS)
    max_chance_outcomes = C.NUM_GEISHA
    bound_name = "max_rounds"
    bound_default = 10
    utility = "zero_sum"

    def check_setup(self, setup: Setup) -> None:
        limit = setup.config.max_rounds
        if limit is not None and setup.bound != self.bound_default:
            raise OptionError(f"parameter max_rounds bounds a standard game only; "
                              f"{setup.config.name} ends after {limit} rounds by its own rule "
                              f"(VAR-IT-1)")

    def rounds(self, setup: Setup) -> int:
        """The most rounds a game lasts: the variant's limit, else the bound."""
        limit = setup.config.max_rounds
        return limit if limit is not None else setup.bound

    # --- chance: the deal, card by card

    def chance_multiset(self, state: G.State) -> tuple[int, ...]:
        return C.FULL_DECK

    def assemble(self, state: G.State, drawn: Sequence[int]) -> Deal:
        """DEAL-1..4 as :func:`~hanamikoji.engine.hanamikoji.game.random_deal` cuts the deck."""
        return Deal(removed=drawn[0], hands=(tuple(drawn[1:7]), tuple(drawn[7:13])),
                    draws=tuple(drawn[13:]))

    def decompose(self, outcome: Deal) -> list[int]:
        return [outcome.removed, *outcome.hands[0], *outcome.hands[1], *outcome.draws]

    def chance_text(self, state: G.State, drawn: Sequence[int], kind: int) -> str:
        index = len(drawn)
        for part, size in DEAL_PARTS:
            if index < size:
                where = part if size == 1 else f"card {index + 1} of {part}"
                return f"deal geisha {kind} as {where}"
            index -= size
        raise AssertionError("a deal has 21 cards")  # pragma: no cover

    # --- the bound, the end

    def max_game_length(self, setup: Setup) -> int:
        return self.rounds(setup) * DECISIONS_PER_ROUND

    def max_chance_nodes(self, setup: Setup) -> int:
        return self.rounds(setup) * C.NUM_CARDS

    def reaches_bound(self, state: G.State, decisions: int, setup: Setup) -> bool:
        """A standard game waiting for the deal of round ``max_rounds`` (counted from 0)."""
        return state.phase is G.Phase.DEAL and state.round >= self.rounds(setup)

    def returns(self, outcome: Outcome | None, players: int) -> list[float]:
        """+1 / -1; 0 / 0 for the Italian shared victory and for a truncated game."""
        if outcome is None or len(outcome.winners) != 1:
            return [0.0, 0.0]
        return [1.0 if p == outcome.winners[0] else -1.0 for p in range(2)]

    # --- what a player sees

    def epoch(self, state: G.State) -> int:
        """A view holds the turns of the current round only, so each round is an epoch."""
        return state.round

    def observation_layout(self, setup: Setup) -> Layout:
        return Layout([
            ("player", 2), ("current_player", 4), ("first_player", 2),
            ("round", self.rounds(setup) + 1), ("phase", len(_PHASES)),
            ("turn", G.TURNS_PER_ROUND + 1), ("markers", 3 * C.NUM_GEISHA),
            ("hand", _SET), ("secret", _SET), ("trade_off", _SET), ("sides", 2 * _SET),
            ("used", 2 * len(ALL_KINDS)), ("pending_gift", _SET), ("pending_competition", 2 * _SET),
            ("opponent_hand_size", _MAX_HAND + 1), ("opponent_secret_size", 2),
            ("opponent_trade_off_size", 3), ("deck_size", C.NUM_CARDS - 13),
            ("result", 3), ("reason", len(_REASONS)), ("truncated", 1)])

    def info_state_layout(self, setup: Setup) -> Layout:
        rounds = self.rounds(setup)
        return Layout(self.observation_layout(setup).pieces
                      + (("turns", rounds * G.TURNS_PER_ROUND * _TURN_SIZE),
                         ("scores", rounds * _SCORE_SIZE)))

    def observation_ones(self, view: G.View, setup: Setup, truncated: bool,
                         layout: Layout | None = None) -> list[int]:
        layout = layout or self.observation_layout(setup)
        at, one = layout.offset, layout.one
        ones = [one("player", view.player),
                one("current_player", _PLAYERS.index(view.current_player)),
                one("first_player", view.first_player),
                one("round", view.round),
                one("phase", _PHASES.index(view.phase)),
                one("turn", view.turn)]
        _markers(ones, at["markers"], view.markers)
        _multiset(ones, at["hand"], view.hand)
        _multiset(ones, at["secret"], view.secret)
        _multiset(ones, at["trade_off"], view.trade_off)
        _multiset(ones, at["sides"], view.sides[0])
        _multiset(ones, at["sides"] + _SET, view.sides[1])
        for player, used in enumerate(view.used):
            ones.extend(at["used"] + 4 * player + ALL_KINDS.index(kind) for kind in used)
        if isinstance(view.pending, Gift):
            _multiset(ones, at["pending_gift"], C.counts(view.pending.cards))
        elif isinstance(view.pending, Competition):
            for index, pair in enumerate(view.pending.pairs):
                _multiset(ones, at["pending_competition"] + index * _SET, C.counts(pair))
        ones += [one("opponent_hand_size", view.opponent_hand_size),
                 one("opponent_secret_size", view.opponent_secret_size),
                 one("opponent_trade_off_size", view.opponent_trade_off_size),
                 one("deck_size", view.deck_size)]
        if view.result is not None:
            winner = view.result.winner
            ones += [one("result", 2 if winner is None else winner),
                     one("reason", _REASONS.index(view.result.reason))]
        if truncated:
            ones.append(one("truncated", 0))
        return ones

    def info_state_ones(self, views: Sequence[G.View], setup: Setup,
                        truncated: bool) -> list[int]:
        """The observation now, then every round's turns as the player saw them (an earlier
        round as they last saw it, before its final decision, whose effect the round's
        scoring shows), then every scored round: both sides, secrets revealed, and the
        markers after (SCORE-1..3)."""
        layout = self.info_state_layout(setup)
        now = views[-1]
        ones = self.observation_ones(now, setup, truncated, layout)
        turns = layout.offset["turns"]
        for view in views:
            base = turns + view.round * G.TURNS_PER_ROUND * _TURN_SIZE
            for index, turn in enumerate(view.log):
                _turn(ones, base + index * _TURN_SIZE, turn)
        scores = layout.offset["scores"]
        for score in now.scores:
            at = scores + score.round * _SCORE_SIZE
            _multiset(ones, at, score.sides[0])
            _multiset(ones, at + _SET, score.sides[1])
            _markers(ones, at + 2 * _SET, score.markers)
        return ones


def _turn(ones: list[int], at: int, turn: G.ObservedTurn) -> None:
    """One turn of a view's log (ACT-*): who, which action, the cards where shown, the two sets
    of a competition, and what the opponent took."""
    ones += [at + _TURN_AT["present"], at + _TURN_AT["mover"] + turn.player,
             at + _TURN_AT["kind"] + ALL_KINDS.index(turn.kind)]
    if turn.cards is None:
        ones.append(at + _TURN_AT["hidden"])
    elif turn.kind is ActionKind.COMPETITION:
        for name, pair in zip(("set_a", "set_b"), turn.cards):
            _multiset(ones, at + _TURN_AT[name], C.counts(pair))  # type: ignore[arg-type]
    else:
        _multiset(ones, at + _TURN_AT["cards"], C.counts(turn.cards))  # type: ignore[arg-type]
    if turn.pick is not None:
        taken = (turn.pick,) if isinstance(turn.pick, int) else turn.pick
        _multiset(ones, at + _TURN_AT["taken"], C.counts(taken))


ENCODING = HanamikojiEncoding()
