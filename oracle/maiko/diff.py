"""Maiko's part of ``hanamikoji diff``: games in which half the decisions make pairs, so that
boards fill and games end within a few hundred decisions (uniform play takes 500 to 1,000 and
rarely fills a board). The core's harness (:mod:`hanamikoji.oracle.core.diff`) reaches it through
:data:`EXTENSION`, this game's diff hooks."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from hanamikoji.engine.maiko.actions import Danna, Flip, Layout, OneSan
from hanamikoji.engine.maiko.components import FRIEND, NUM_ITEMS, tile_name
from hanamikoji.engine.maiko.game import DOWN, Phase, State
from hanamikoji.oracle.core.diff import DiffExtension, play_drawn


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
    """Maiko's diff hooks: the core's games (:func:`~hanamikoji.oracle.core.diff.play_drawn`) with
    :func:`plan`, so that the last turns of a full board, rows and columns, and the scoring of
    many ends are compared often."""

    def play_drawn(self, draws: Any, match_for: Callable[[Any, int], Any],
                   configs: Sequence[Any]) -> None:
        play_drawn(draws, match_for, self.game, configs, plan=plan)

    def decision_text(self, state: State, decision: Any) -> str:
        """A decision as the report shows it, with the tiles it concerns from the reference's
        state (MK-SETUP-5): a layout, every space's tile, nine to a line; a flip, a Danna
        reveal or a One-san look, the tile at its space (``flip space=30: pink-3``)."""
        text = self.game.decision_text(decision)
        if isinstance(decision, Layout):
            names = [tile_name(t) for t in decision.tiles]
            width = max(map(len, names), default=0)
            rows = [f"{start:>2}-{min(start + 9, len(names)) - 1:<2}  "
                    + " ".join(n.ljust(width) for n in names[start:start + 9]).rstrip()
                    for start in range(0, len(names), 9)]
            return "\n".join([text + ", by space:"] + rows)
        if isinstance(decision, (Flip, Danna, OneSan)) and state.layout \
                and 0 <= decision.space < len(state.layout):
            return f"{text}: {tile_name(state.layout[decision.space])}"
        return text


EXTENSION = MaikoDiff
