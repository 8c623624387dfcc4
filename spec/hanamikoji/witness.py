"""Witnesses are real: a model of a round becomes a concrete deal and action sequence that the
reference engine plays.

The z3 round model (:func:`.model.round_constraints`) counts cards per place and leaves out the
order of the turns. :func:`round_decisions` puts it back. Each player's drawn cards are assigned
to the actions that use them; the actions that use no drawn card come first, and the draws arrive
in the order of the actions that use them. Then every action finds its cards in the hand when it
is played: the actions at positions k+1 and later use at least 3 - k of the four drawn cards (the
ones that use any come last, and all four are used), so the ones at positions up to k use at most
k + 1 of them, and exactly k + 1 cards have been drawn by then (TURN-2). The engine checks it all
again when :meth:`Witness.replay` plays the decisions.

>>> from hanamikoji.engine.hanamikoji import replay
>>> from hanamikoji.spec.hanamikoji.derive import plan_for_sides
>>> plan = plan_for_sides(((1, 1, 1, 1, 1, 1, 2), (1, 1, 1, 1, 1, 1, 2)))
>>> deal, decisions = round_decisions(plan, starter=0)
>>> state = replay((deal,) + decisions)
>>> state.scores[0].sides == plan.sides, state.scores[0].markers
(True, (None, None, None, None, None, None, None))
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

import attrs

from hanamikoji.engine.hanamikoji import (
    ALL_KINDS,
    ActionKind,
    Competition,
    CompetitionPick,
    Deal,
    Decision,
    Gift,
    GiftPick,
    Result,
    Rules,
    Secret,
    State,
    TradeOff,
    replay,
)
from hanamikoji.engine.hanamikoji.cards import NUM_GEISHA, cards_of
from hanamikoji.engine.hanamikoji.record import to_record
from hanamikoji.spec.core.queries import WitnessError

if TYPE_CHECKING:
    from .model import RoundPlan

Markers = tuple["int | None", ...]
Cards = tuple[int, ...]


def _actions(plan: "RoundPlan", p: int) -> dict[ActionKind, tuple[Any, Cards]]:
    """Player p's four actions, each with the multiset of cards it takes from the hand."""
    first, second = plan.sets[p]
    pairs = (cards_of(first), cards_of(second))
    return {
        ActionKind.SECRET: (Secret(cards_of(plan.secrets[p])[0]), plan.secrets[p]),
        ActionKind.TRADE_OFF: (TradeOff(cards_of(plan.trade_offs[p])), plan.trade_offs[p]),
        ActionKind.GIFT: (Gift(cards_of(plan.gifts[p])), plan.gifts[p]),
        ActionKind.COMPETITION: (Competition(pairs),
                                 tuple(x + y for x, y in zip(first, second))),
    }


def _schedule(plan: "RoundPlan", p: int) -> tuple[list[Any], list[int]]:
    """Player p's actions in a playable order, and their four draws in order (module docstring)."""
    actions = _actions(plan, p)
    used = [sum(cards[g] for _, cards in actions.values()) for g in range(NUM_GEISHA)]
    held = [h + d for h, d in zip(plan.hands[p], plan.draws[p])]
    if used != held:
        raise WitnessError(f"player {p}'s actions use {used}, but they hold {held} (TURN-3)")
    # Give each drawn card to an action that uses a card of its geisha, biggest actions first.
    drawn: dict[ActionKind, list[int]] = {kind: [] for kind in ALL_KINDS}
    for g in range(NUM_GEISHA):
        left = plan.draws[p][g]
        for kind in reversed(ALL_KINDS):
            take = min(left, actions[kind][1][g])
            drawn[kind] += [g] * take
            left -= take
    order = sorted(ALL_KINDS, key=lambda kind: (len(drawn[kind]) > 0, ALL_KINDS.index(kind)))
    return [actions[kind][0] for kind in order], [g for kind in order for g in drawn[kind]]


def _answer(plan: "RoundPlan", p: int, action: Any) -> Decision | None:
    """ACT-GIFT-2, ACT-COMP-2: the opponent's choice, as the plan says."""
    if isinstance(action, Gift):
        return GiftPick(cards_of(plan.gift_taken[p])[0])
    if isinstance(action, Competition):
        return CompetitionPick(cards_of(plan.sets[p][plan.set_taken[p]]))
    return None


def round_decisions(plan: "RoundPlan", starter: int) -> tuple[Deal, tuple[Decision, ...]]:
    """The deal and the decisions of one round that ``plan`` describes, ``starter`` playing
    first (TURN-1): turn t is played by the starter when t is even."""
    schedules = [_schedule(plan, p) for p in (0, 1)]
    players = [starter if t % 2 == 0 else 1 - starter for t in range(8)]
    deal = Deal(removed=cards_of(plan.removed)[0],
                hands=(cards_of(plan.hands[0]), cards_of(plan.hands[1])),
                draws=tuple(schedules[p][1][t // 2] for t, p in enumerate(players)))
    decisions: list[Decision] = []
    for t, p in enumerate(players):
        action = schedules[p][0][t // 2]
        decisions.append(action)
        answer = _answer(plan, p, action)
        if answer is not None:
            decisions.append(answer)
    return deal, tuple(decisions)


def game_decisions(plans: "Sequence[RoundPlan]", first_player: int = 0) -> tuple[Decision, ...]:
    """Every decision of a game whose rounds are ``plans`` (UPDATE-4: starters alternate)."""
    out: list[Decision] = []
    for r, plan in enumerate(plans):
        deal, decisions = round_decisions(plan, first_player if r % 2 == 0 else 1 - first_player)
        out.append(deal)
        out.extend(decisions)
    return tuple(out)


@attrs.frozen
class Witness:
    """A game the model found: what the model says it shows (``markers`` after the last round,
    and ``result``), and the decisions that play it in the engine."""

    label: str
    rules: Rules
    decisions: tuple[Decision, ...]
    markers: Markers
    result: Result | None
    first_player: int = 0

    @classmethod
    def of_plans(cls, label: str, rules: Rules, plans: "Sequence[RoundPlan]", markers: Markers,
                 result: Result | None, first_player: int = 0) -> "Witness":
        return cls(label, rules, game_decisions(plans, first_player), tuple(markers), result,
                   first_player)

    def replay(self) -> State:
        """Play the decisions in the reference engine."""
        return replay(self.decisions, self.rules, self.first_player)

    def confirm(self) -> State:
        """Replay, and raise :class:`WitnessError` unless the engine reaches the model's marker
        row and result."""
        try:
            state = self.replay()
        except ValueError as error:
            raise WitnessError(f"witness {self.label!r}: the engine refuses it: {error}") from None
        markers = state.scores[-1].markers if state.scores else None
        if markers != self.markers or state.result != self.result:
            raise WitnessError(
                f"witness {self.label!r}: the model says {self.markers} and {self.result}, the "
                f"engine reaches {markers} and {state.result}")
        return state

    def to_json(self) -> dict[str, Any]:
        """The witness as JSON: what it shows, and its game record (hanamikoji-record/1)."""
        result = None if self.result is None else {
            "winner": self.result.winner, "reason": self.result.reason.value}
        return {"label": self.label, "markers": list(self.markers), "result": result,
                "record": to_record(self.replay())}
