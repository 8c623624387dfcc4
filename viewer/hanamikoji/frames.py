"""Hanamikoji's steps for the viewer: the whole state as JSON (what "everything" shows), and the
rule IDs each decision applied.

The whole state has the keys of a player's view (:func:`~hanamikoji.engine.hanamikoji.codec.
view_json`) that are public, and each player's hidden places in full: ``hands``, ``secrets``,
``trade_offs`` (INFO-1 says who may see which), the deck and the removed card (INFO-2: nobody).
"""

from __future__ import annotations

from typing import Any

from hanamikoji.engine.hanamikoji import codec
from hanamikoji.engine.hanamikoji.actions import (ALL_KINDS, Competition, CompetitionPick, Deal,
                                                  Gift, GiftPick, Secret, TradeOff)
from hanamikoji.engine.hanamikoji.game import Phase, State, current_player
from hanamikoji.engine.hanamikoji.rules import charm, geisha_count

#: The rules a decision of each kind applies (the spec's IDs).
_DECISION_RULES = {
    Secret: ("TURN-2", "ACT-SECRET-1"),
    TradeOff: ("TURN-2", "ACT-TRADE-1"),
    Gift: ("TURN-2", "ACT-GIFT-1"),
    Competition: ("TURN-2", "ACT-COMP-1"),
    GiftPick: ("TURN-4", "ACT-GIFT-2", "ACT-GIFT-3"),
    CompetitionPick: ("TURN-4", "ACT-COMP-2", "ACT-COMP-3"),
}

#: The rules that name each end (END-3, END-4, VAR-IT-2..4).
_END_RULES = {
    "geisha": ("END-2", "END-3"),
    "charm": ("END-2", "END-3"),
    "charm-over-geisha": ("END-2", "END-4"),
    "round-limit-charm": ("VAR-IT-1", "VAR-IT-2"),
    "round-limit-highest-geisha": ("VAR-IT-1", "VAR-IT-3"),
    "shared": ("VAR-IT-1", "VAR-IT-4"),
}


def everything(state: State) -> dict[str, Any]:
    """The whole state of ``state`` as JSON, hidden places included."""
    return {
        "round": state.round, "phase": Phase(state.phase).value, "turn": state.turn,
        "current_player": codec.player_json(current_player(state)),
        "markers": list(state.markers),
        "hands": [codec.cards_json(h) for h in state.hands],
        "secrets": [codec.cards_json(s) for s in state.secrets],
        "trade_offs": [codec.cards_json(t) for t in state.trade_offs],
        "sides": [codec.cards_json(s) for s in state.sides],
        "used": [[k.value for k in ALL_KINDS if k in state.used[p]] for p in (0, 1)],
        "pending": None if state.pending is None else codec.decision_json(state.pending),
        "deck": list(state.deck), "deck_size": len(state.deck), "removed": state.removed,
        "scores": [{"round": s.round, "sides": [codec.cards_json(s.sides[0]),
                                                codec.cards_json(s.sides[1])],
                    "markers": list(s.markers)} for s in state.scores],
        "result": codec.result_json(state.result),
    }


def rules(before: State, decision: Any, after: State) -> list[str]:
    """The rule IDs the step from ``before`` to ``after`` applied: the deal's, the action's or
    the answer's, then the scoring's, and the end's or the next round's."""
    if isinstance(decision, Deal):
        found = (["UPDATE-1", "UPDATE-3", "UPDATE-4"] if before.round else ["SETUP-1"]) + [
            "DEAL-1", "DEAL-2", "DEAL-3", "DEAL-4"]
    else:
        found = list(_DECISION_RULES.get(type(decision), ()))
    if len(after.scores) > len(before.scores):
        found += ["SCORE-1", "SCORE-2", "SCORE-3", "SCORE-4", "END-1"]
        if after.result is not None:
            found += _END_RULES.get(after.result.reason.value, ())
        else:
            found += ["UPDATE-2"]
    return found


def standing(state: State) -> dict[str, list[int]]:
    """Each player's geisha and charm by the victory markers (SCORE-4), for the end's line."""
    return {"geisha": [geisha_count(state.markers, p) for p in (0, 1)],
            "charm": [charm(state.markers, p) for p in (0, 1)]}
