"""Resampling what a player cannot see: the other worlds behind the non-interference check.

For a player P and a state, :func:`resample` builds another state that P cannot tell apart from
it under INFO-1 and INFO-2: every card hidden from P is permuted among the places P cannot see,
and the game is replayed. Kept: P's hand and P's past draws, every face-up card (gifts and
competitions, the opponent's secret once revealed at scoring), every answer, and the kinds of the
opponent's face-down actions. Permuted, round by round: the removed card, the opponent's dealt
and drawn cards that did not become face up (among them their secret and trade-off), and every
card not yet drawn (the deck order). The opponent's secret and trade-off decisions are rewritten
with the new cards, and the whole history is replayed by the engine under test, so that
``observe`` sees a consistent state (its log of the round is built from the history).

Which dealt or drawn card an action used is not recorded (cards of a geisha are
interchangeable, COMP-2), so each card played is matched, in play order, to a card of its geisha
that its player held at that time. The matching exists whenever the game was legal, and any one
explains the game as well as another.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import attrs

from . import game as _game
from .actions import Competition, Deal, Gift, Secret, TradeOff, json_text
from .game import Phase

#: Anything with the reference engine's functions (new_game, apply, current_player...): the
#: history is replayed by it, so the engine under test builds the resampled state.
Engine = Any
REFERENCE: Any = _game

__all__ = ["UnexplainedHistory", "resample", "hidden_cards"]

_TURNS = 8  # TURN-1
_ACTIONS = (Secret, TradeOff, Gift, Competition)

Shuffle = Callable[[tuple[int, ...]], Sequence[int]]


class UnexplainedHistory(AssertionError):
    """A history that its own deals cannot explain: a card played that its player never held."""


@attrs.define  # a working record, filled in while matching plays to cards; never escapes
class _Slot:
    """One dealt or drawn card: where it lies in the deal, and when its holder got it."""

    where: str  # "removed", "hand" or "draw"
    index: int  # the position in the hand, or the turn of the draw
    value: int
    since: int  # the turn from which its holder has it (-1: dealt)
    hidden: bool = True  # hidden from P
    played_by: tuple[int, int] | None = None  # (decision index, card position) that used it


def _deciders(state: Any, engine: Engine) -> list[int]:
    """Who took each decision of ``state.history``, as the engine says (replayed)."""
    replayed = engine.new_game(state.rules, state.first_player)
    deciders = []
    for decision in state.history:
        deciders.append(engine.current_player(replayed))
        replayed = engine.apply(replayed, decision)
    return deciders


def _rounds(history: Sequence[Any]) -> list[tuple[int, int]]:
    """The ``(start, stop)`` index range of each round's decisions, the deal first."""
    starts = [i for i, d in enumerate(history) if isinstance(d, Deal)]
    return [(start, stop) for start, stop in zip(starts, starts[1:] + [len(history)])]


def _round_slots(state: Any, player: int, r: int, start: int, stop: int,
                 deciders: list[int], engine: Engine) -> tuple[list[_Slot], dict[int, list[_Slot]]]:
    """The slots of round ``r``: every card of the deal, and which slots each of the opponent's
    face-down decisions used (by decision index)."""
    history = state.history
    deal: Deal = history[start]
    opponent = 1 - player
    scored = r < len(state.scores)
    actions = [i for i in range(start + 1, stop) if isinstance(history[i], _ACTIONS)]
    if scored:
        drawn = _TURNS
    elif state.phase is Phase.ACTION:
        drawn = min(len(actions) + 1, _TURNS)
    else:
        drawn = len(actions)
    drawers = [deciders[i] for i in actions][:drawn]
    if len(drawers) < drawn:  # the current turn has begun with its draw
        drawers.append(engine.current_player(state))

    slots = [_Slot("removed", 0, deal.removed, -1)]
    holdings: list[_Slot] = []  # the opponent's cards, dealt then drawn
    for i, value in enumerate(deal.hands[player]):
        slots.append(_Slot("hand-p", i, value, -1, hidden=False))
    for i, value in enumerate(deal.hands[opponent]):
        holdings.append(_Slot("hand-q", i, value, -1))
    for t, value in enumerate(deal.draws):
        if t >= drawn:
            slots.append(_Slot("draw", t, value, t))  # not drawn yet: the deck order is hidden
        elif drawers[t] == player:
            slots.append(_Slot("draw", t, value, t, hidden=False))
        else:
            holdings.append(_Slot("draw", t, value, t))
    slots.extend(holdings)

    face_down: dict[int, list[_Slot]] = {}
    for turn, i in enumerate(actions):
        if deciders[i] != opponent:
            continue
        decision = history[i]
        revealed = isinstance(decision, (Gift, Competition)) or (
            isinstance(decision, Secret) and scored)  # SCORE-1 reveals the secret
        used = []
        for position, card in enumerate(decision.cards):
            slot = next((s for s in holdings if s.played_by is None and s.value == card
                         and s.since <= turn), None)
            if slot is None:
                raise UnexplainedHistory(
                    f"round {r}, turn {turn}: player {opponent} plays {json_text(decision)} "
                    f"without a card of geisha {card} dealt or drawn for them")
            slot.played_by = (i, position)
            slot.hidden = not revealed
            used.append(slot)
        if not revealed:
            face_down[i] = used
    return slots, face_down


def hidden_cards(state: Any, player: int, *, engine: Engine = REFERENCE) -> tuple[tuple[int, ...], ...]:
    """Per round, the sorted cards hidden from ``player`` (what :func:`resample` permutes)."""
    deciders = _deciders(state, engine)
    found = []
    for r, (start, stop) in enumerate(_rounds(state.history)):
        slots, _ = _round_slots(state, player, r, start, stop, deciders, engine)
        found.append(tuple(sorted(s.value for s in slots if s.hidden)))
    return tuple(found)


def resample(state: Any, player: int, shuffle: Shuffle, *, engine: Engine = REFERENCE) -> Any:
    """A state that ``player`` cannot tell from ``state`` (INFO-1, INFO-2): the cards hidden
    from them permuted by ``shuffle`` (called once per round with the hidden cards, it returns
    them in a new order), the history rewritten to match and replayed by ``engine``."""
    history = list(state.history)
    deciders = _deciders(state, engine)
    rewritten: list[Any] = []
    for r, (start, stop) in enumerate(_rounds(history)):
        slots, face_down = _round_slots(state, player, r, start, stop, deciders, engine)
        hidden = [s for s in slots if s.hidden]
        values = tuple(s.value for s in hidden)
        new_values = tuple(shuffle(values))
        if sorted(new_values) != sorted(values):
            raise ValueError(f"shuffle must permute {values}, not return {new_values}")
        for slot, value in zip(hidden, new_values):
            slot.value = value
        deal: Deal = history[start]
        by_place = {(s.where, s.index): s.value for s in slots}
        hands = [list(deal.hands[0]), list(deal.hands[1])]
        hands[1 - player] = [by_place["hand-q", i] for i in range(len(deal.hands[1 - player]))]
        new_deal = Deal(by_place["removed", 0], tuple(hands),
                        tuple(by_place["draw", t] for t in range(len(deal.draws))))
        rewritten.append(new_deal)
        for i in range(start + 1, stop):
            decision = history[i]
            if i in face_down:
                cards = [s.value for s in face_down[i]]
                decision = Secret(cards[0]) if isinstance(decision, Secret) else TradeOff(cards)
            rewritten.append(decision)
    replayed = engine.new_game(state.rules, state.first_player)
    for decision in rewritten:
        replayed = engine.apply(replayed, decision)
    return replayed
