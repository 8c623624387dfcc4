"""Build concrete rounds that end with chosen sides: scenarios for tests, vectors and witnesses.

Each player's ten cards of a round (six dealt, four drawn) are exactly the cards of their four
actions (1 + 2 + 3 + 4, TURN-3), and each side receives eight scored cards: the owner's secret,
two kept from their own gift and competition each, the card they took from the opponent's gift
and the set they took from the opponent's competition. So any split of 16 cards into two sides
of eight can be reached; :func:`round_for_sides` builds a deal and the 8 turns that reach it.

>>> from .game import apply, new_game, replay
>>> deal, decisions = round_for_sides((0, 1, 1, 1, 1, 2, 2), (1, 1, 1, 1, 1, 2, 1), starter=0)
>>> replay((deal,) + decisions).scores[0].sides
((0, 1, 1, 1, 1, 2, 2), (1, 1, 1, 1, 1, 2, 1))
"""

from __future__ import annotations

from typing import Sequence

import attrs

from . import cards as C
from .actions import (
    Action,
    ActionKind,
    Competition,
    CompetitionPick,
    Deal,
    Decision,
    Gift,
    GiftPick,
    Secret,
    TradeOff,
)
from .cards import FULL_DECK, Cards

#: The default order in which each player takes their actions.
DEFAULT_ORDER = (ActionKind.SECRET, ActionKind.TRADE_OFF, ActionKind.GIFT, ActionKind.COMPETITION)


@attrs.frozen
class PlayerPlan:
    """One player's four actions in a round and the answers their opponent gives."""

    secret: int
    trade_off: tuple[int, int]
    gift: tuple[int, int, int]
    gift_pick: int  # the card the opponent takes
    competition: tuple[tuple[int, int], tuple[int, int]]
    competition_pick: int  # the index in ``competition`` of the set the opponent takes
    order: tuple[ActionKind, ...] = DEFAULT_ORDER

    def action(self, kind: ActionKind) -> tuple[Action, Decision | None]:
        if kind is ActionKind.SECRET:
            return Secret(self.secret), None
        if kind is ActionKind.TRADE_OFF:
            return TradeOff(self.trade_off), None
        if kind is ActionKind.GIFT:
            return Gift(self.gift), GiftPick(self.gift_pick)
        return (Competition(self.competition),
                CompetitionPick(self.competition[self.competition_pick]))

    def cards_in_order(self) -> list[int]:
        out: list[int] = []
        for kind in self.order:
            out.extend(self.action(kind)[0].cards)
        return out


def round_decisions(removed: int, plans: Sequence[PlayerPlan], starter: int) -> tuple[Deal, tuple[Decision, ...]]:
    """The deal and the decisions of a round in which player p plays ``plans[p]`` (TURN-1..4).

    Each player's cards are dealt in the order of their actions (the first six in hand, the rest
    drawn at their turns), which makes every action playable in time: after k actions a player
    has spent at most 7 + k - 1 of the 7 + k cards they have seen.
    """
    flows = [plans[p].cards_in_order() for p in (0, 1)]
    hands = (flows[0][:6], flows[1][:6])
    draws = []
    for t in range(8):
        player = starter if t % 2 == 0 else 1 - starter
        draws.append(flows[player][6 + t // 2])
    deal = Deal(removed=removed, hands=hands, draws=draws)
    decisions: list[Decision] = []
    for t in range(8):
        player = starter if t % 2 == 0 else 1 - starter
        action, answer = plans[player].action(plans[player].order[t // 2])
        decisions.append(action)
        if answer is not None:
            decisions.append(answer)
    return deal, tuple(decisions)


def _take(pool: list[int], n: int) -> tuple[int, ...]:
    taken, pool[:n] = tuple(pool[:n]), []
    return taken


def round_for_sides(side0: Cards, side1: Cards, starter: int,
                    orders: tuple[tuple[ActionKind, ...], tuple[ActionKind, ...]] = (DEFAULT_ORDER, DEFAULT_ORDER),
                    ) -> tuple[Deal, tuple[Decision, ...]]:
    """A round whose scoring shows ``side0`` and ``side1`` (SCORE-1), eight cards each; the
    other five cards go to the trade-offs and the removed card."""
    if C.size(side0) != 8 or C.size(side1) != 8:
        raise ValueError("each side receives exactly 8 scored cards in a round")
    rest = C.sub(FULL_DECK, C.add(side0, side1))
    if min(rest) < 0:
        raise ValueError(f"sides {side0} and {side1} hold more cards than the game has")
    # Each side, sorted, is cut into: own secret 1, kept from own gift 2, kept from own
    # competition 2, taken from the opponent's gift 1, taken from the opponent's competition 2.
    shares = []
    for side in (side0, side1):
        pool = list(C.cards_of(side))
        shares.append({"secret": _take(pool, 1), "gift_kept": _take(pool, 2),
                       "comp_kept": _take(pool, 2), "gift_taken": _take(pool, 1),
                       "comp_taken": _take(pool, 2)})
    rest_pool = list(C.cards_of(rest))
    removed = rest_pool.pop()
    plans = []
    for p in (0, 1):
        mine, theirs = shares[p], shares[1 - p]
        gift = mine["gift_kept"] + theirs["gift_taken"]
        competition = (mine["comp_kept"], theirs["comp_taken"])
        plans.append(PlayerPlan(
            secret=mine["secret"][0], trade_off=(rest_pool[2 * p], rest_pool[2 * p + 1]),
            gift=gift, gift_pick=theirs["gift_taken"][0],  # type: ignore[arg-type]
            competition=competition, competition_pick=1,  # type: ignore[arg-type]
            order=orders[p]))
    return round_decisions(removed, plans, starter)


def tie_sides() -> tuple[Cards, Cards]:
    """Two equal sides of eight: every geisha ties (SCORE-3), so no marker moves."""
    half = tuple(c // 2 for c in FULL_DECK)  # (1, 1, 1, 1, 1, 2, 2): nine cards
    side = list(half)
    side[6] -= 1  # eight cards
    return tuple(side), tuple(side)
