"""Maiko's steps for the viewer: the whole state as JSON (what "everything" shows), and the rule
IDs each decision applied.

The whole state is a player's view (:func:`~hanamikoji.engine.maiko.view.view_to_json`) with
what no single player sees added: ``under``, the tile under each face-down space (``null``
elsewhere), and a log that names the tile of every step, One-san's private looks included
(MK-INFO-2, MK-TUTOR-ONESAN-2).
"""

from __future__ import annotations

from typing import Any, Iterator

import attrs

from hanamikoji.engine.maiko.actions import (Danna, EndTurn, Flip, Layout, OkaSan, OneSan,
                                             OneSanStop, Sabanto, Sweep)
from hanamikoji.engine.maiko.components import COLUMNS, FRIEND, ROWS, tile_name
from hanamikoji.engine.maiko.game import DOWN, State, filled
from hanamikoji.engine.maiko.record import decision_to_json
from hanamikoji.engine.maiko.view import observe, view_to_json

_DECISION_RULES: dict[type, tuple[str, ...]] = {
    Layout: ("MK-SETUP-5",),
    Flip: ("MK-FLIP-1", "MK-FLIP-2"),
    Danna: ("MK-TUTOR-1", "MK-TUTOR-2", "MK-TUTOR-DANNA-1"),
    OkaSan: ("MK-TUTOR-1", "MK-TUTOR-2", "MK-TUTOR-OKASAN-1"),
    OneSan: ("MK-TUTOR-ONESAN-1", "MK-TUTOR-ONESAN-2"),
    OneSanStop: ("MK-TUTOR-ONESAN-1",),
    Sabanto: ("MK-TUTOR-1", "MK-TUTOR-2", "MK-TUTOR-SABANTO-1"),
    Sweep: ("MK-ROW-1", "MK-ROW-3"),
    EndTurn: ("MK-END-1",),
}

_END_RULES = {"full-board": ("MK-END-1", "MK-END-2"), "no-face-down-tile": ("MK-END-4",),
              "static": ("MK-STATIC-1", "MK-STATIC-2")}


def everything(state: State) -> dict[str, Any]:
    """The whole state of ``state`` as JSON, hidden tiles included."""
    # Player 0's view for the public fields, which every player's view holds alike; its log,
    # player 0's, is left out and replaced below by every step's with its tile (all players'
    # looks).
    out = view_to_json(attrs.evolve(observe(state, 0), log=()))
    out["player"] = None
    out["under"] = [tile_name(state.layout[s]) if v == DOWN else None
                    for s, v in enumerate(state.spaces)]
    out["log"] = _log_json(state)
    return out


# The page asks for the whole state after every step, and the log has perfect recall: the last
# log written is kept and extended by the steps that follow it, instead of being written again
# from the first step (quadratic: 3-player games of 400 turns took seconds). A hit needs the
# very layout object and the same steps, so the log is the one written from scratch.
_LAST_LOG: list[tuple[tuple[int, ...], tuple[Any, ...], list[dict[str, Any]]]] = []


def _log_json(state: State) -> list[dict[str, Any]]:
    layout, steps = state.layout, state.steps
    if _LAST_LOG and _LAST_LOG[0][0] is layout:
        _, known, log = _LAST_LOG[0]
        if steps[:len(known)] == known:
            log = log + [_step_json(state, step) for step in steps[len(known):]]
            _LAST_LOG[0] = (layout, steps, log)
            return list(log)
    log = [_step_json(state, step) for step in steps]
    _LAST_LOG[:] = [(layout, steps, log)]
    return list(log)


def views(states: list[State], player: int) -> Iterator[dict[str, Any]]:
    """``player``'s view of each of ``states`` (one game, step by step) as JSON, as
    ``view_to_json(observe(state, player))`` makes it. A view has perfect recall: its log at a
    step is the first entries of the last view's log, written once (one by one, the logs
    cost the square of the game's length: seconds for a 3-player game of 400 turns)."""
    final = view_to_json(observe(states[-1], player))["log"]
    for state in states:
        out = view_to_json(attrs.evolve(observe(state, player), log=()))
        out["log"] = final[:len(state.steps)]
        yield out


def _step_json(state: State, step: Any) -> dict[str, Any]:
    out = {"turn": step.turn, "player": step.player, "decision": decision_to_json(step.decision)}
    space = getattr(step.decision, "space", None)
    if space is not None:
        out["tile"] = tile_name(state.layout[space])
    return out


def _lines(board: tuple[int, ...], lines: tuple[tuple[int, ...], ...]) -> int:
    return sum(all(filled(board, i) for i in line) for line in lines)


def rules(before: State, decision: Any, after: State) -> list[str]:
    """The rule IDs the step from ``before`` to ``after`` applied: the decision's, what a flip
    turned out to be (a pair, a mismatch, a friend), a column's token, a row discard begun, the
    end and its scoring."""
    found = list(_DECISION_RULES.get(type(decision), ()))
    if isinstance(decision, (Flip, Danna)) and before.layout:
        if before.layout[decision.space] == FRIEND:
            found.append("MK-FLIP-5" if isinstance(decision, Flip) else "MK-TUTOR-DANNA-3")
        elif isinstance(decision, Danna):
            found.append("MK-TUTOR-DANNA-2")
        elif before.pending is not None:
            placed = sum(map(sum, after.boards)) > sum(map(sum, before.boards))
            found.append("MK-FLIP-3" if placed else "MK-FLIP-4")
    if before.boards and after.boards:
        for old, new in zip(before.boards, after.boards):
            if _lines(new, COLUMNS) > _lines(old, COLUMNS):
                found += ["MK-COL-1", "MK-TOKEN-1", "MK-TOKEN-2"]
            if _lines(new, ROWS) > _lines(old, ROWS) and after.sweep_row is not None:
                found += ["MK-ROW-1", "MK-ROW-4"] if "MK-COL-1" in found else ["MK-ROW-1"]
    if before.triggered_by is None and after.triggered_by is not None:
        found.append("MK-END-1")
    if after.result is not None and before.result is None:
        found += _END_RULES.get(after.result.reason.value, ())
        found += ["MK-SCORE-1", "MK-SCORE-2"]
    return list(dict.fromkeys(found))


__all__ = ["everything", "rules"]
