"""Maiko's part of ``hanamikoji diff``: games in which half the decisions make pairs, so that
boards fill and games end within a few hundred decisions (uniform play takes 500 to 1,000 and
rarely fills a board). The core's harness (:mod:`hanamikoji.oracle.core.diff`) reaches it through
:data:`EXTENSION`, this game's diff hooks."""

from __future__ import annotations

from typing import Any, Sequence

from hanamikoji.engine.maiko.actions import Flip
from hanamikoji.engine.maiko.components import FRIEND, NUM_ITEMS
from hanamikoji.engine.maiko.game import DOWN, Phase, State
from hanamikoji.oracle.core.diff import DiffExtension, Engine, play


def plan(state: State) -> Any:
    """What a player who knows the layout does to make pairs (MK-FLIP-3): the first flip of
    a face-down tile whose item has another tile face down, then the second flip of that
    other tile; None when there is no such flip (or no flip to make)."""
    if state.phase is Phase.FIRST:
        seen: dict[int, int] = {}
        for space, status in enumerate(state.spaces):
            code = state.layout[space]
            if status == DOWN and code != FRIEND:
                if code % NUM_ITEMS in seen:
                    return Flip(seen[code % NUM_ITEMS])
                seen[code % NUM_ITEMS] = space
    elif state.phase is Phase.SECOND and state.pending is not None \
            and state.layout[state.pending] != FRIEND:
        item = state.layout[state.pending] % NUM_ITEMS
        for space, status in enumerate(state.spaces):
            code = state.layout[space]
            if status == DOWN and code != FRIEND and code % NUM_ITEMS == item:
                return Flip(space)
    return None


class MaikoDiff(DiffExtension):
    """Maiko's diff hooks: the core's games (:func:`~hanamikoji.oracle.core.diff.play`) with
    :func:`plan`, so that the last turns of a full board, rows and columns, and the scoring of
    many ends are compared often."""

    def play(self, data: Any, engine: Engine, configs: Sequence[Any]) -> None:
        play(data, engine, self.game, configs, plan=plan)


EXTENSION = MaikoDiff
