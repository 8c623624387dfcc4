"""Maiko's encoding for the framework bridges, for 2, 3 and 4 players (docs/integrations.md).

Actions: the same integers for every player count, in the engine's sort order: a flip, a Danna
reveal and a One-san look for each of the 81 spaces a board can have, Oka-san for each owner
(0-3) and item, the One-san stop, Sabanto for each item and colour, a row-discard step for each
item and colour or none, and the end of the turn. A 2-player board has 60 spaces, so the
actions of spaces 60-80 are never legal there.

Chance: the layout is laid tile by tile, one draw per space in space order (60 with 2 players,
81 with 3 or 4), each a tile code 0-36 (``colour * 9 + item``, 36 a friend) with probability
proportional to the tiles of that code left: a uniform shuffle, the engine's
:class:`~hanamikoji.engine.maiko.actions.Layout` (MK-SETUP-5).

The bound: ``max_decisions`` (default 5,000). Maiko has no bound of its own: two face-down
tiles of one item can be flipped, mismatched and turned back forever (MK-FLIP-4) while anyone
holds a token (MK-STATIC-1). A game still going after that many player decisions ends there,
truncated, with every player's return -1, which no finished game gives: every result has a
winner (MK-SCORE-4), who gets 0 or more.

Returns: a sole winner +1 and every other player -1; in a shared victory each winner 0 and every
other player -1 (as Hanamikoji's 0 / 0): a general-sum game.

Tensors are 0/1; a count is written as that many ones (a thermometer).

>>> ENCODING.num_distinct_actions, ENCODING.int_to_action(279), ENCODING.int_to_action(316)
(362, OneSanStop(), Sweep(item=0, colour=None))
"""

from __future__ import annotations

from typing import Any, Sequence

import attrs

from hanamikoji.engine.core.game import CHANCE, TERMINAL, Outcome
from hanamikoji.engine.core.codec import dumps
from hanamikoji.engine.maiko import view as V
from hanamikoji.engine.maiko.actions import (
    Danna,
    EndTurn,
    Flip,
    Layout,
    OkaSan,
    OneSan,
    OneSanStop,
    Sabanto,
    Sweep,
)
from hanamikoji.engine.maiko.components import (
    COPIES,
    FRIEND,
    NUM_COLOURS,
    NUM_ITEMS,
    NUM_TILE_KINDS,
    TOTAL_TILES,
    TOTAL_TOKENS,
    Colour,
    Tutor,
    tile_name,
)
from hanamikoji.engine.maiko.display import position
from hanamikoji.engine.maiko.game import Phase, Reason

from . import Encoding, Layout as TensorLayout, Setup

_SPACES = TOTAL_TILES  # 81: the most spaces a layout has (3 or 4 players)
_SEATS = 4  # MK-SETUP-1: at most four players
ACTIONS: tuple[Any, ...] = tuple(sorted(
    [Flip(s) for s in range(_SPACES)] + [Danna(s) for s in range(_SPACES)]
    + [OkaSan(o, i) for o in range(_SEATS) for i in range(NUM_ITEMS)]
    + [OneSan(s) for s in range(_SPACES)] + [OneSanStop()]
    + [Sabanto(i, c) for i in range(NUM_ITEMS) for c in Colour]
    + [Sweep(i, c) for i in range(NUM_ITEMS) for c in (None, *Colour)]
    + [EndTurn()]))
_PHASES = tuple(Phase)
_REASONS = tuple(Reason)
_PLAYERS = (0, 1, 2, 3, CHANCE, TERMINAL)
#: A board space: the tile face up on it (0-36), face down, or empty.
_CELL = NUM_TILE_KINDS + 2
_DOWN, _GONE = NUM_TILE_KINDS, NUM_TILE_KINDS + 1

_OBSERVATION = TensorLayout([
    ("player", _SEATS), ("current_player", len(_PLAYERS)), ("first_player", _SEATS),
    ("colours", _SEATS * NUM_COLOURS), ("removed_colour", NUM_COLOURS), ("phase", len(_PHASES)),
    ("board", _SPACES * _CELL), ("maiko_boards", _SEATS * NUM_ITEMS * NUM_COLOURS * COPIES),
    ("hands", _SEATS * TOTAL_TOKENS), ("pool", TOTAL_TOKENS),
    ("tutor_cards", len(Tutor) * TOTAL_TOKENS), ("discarded", FRIEND * COPIES),
    ("pending", _SPACES), ("visited", 1), ("looks", _SPACES), ("row_discard", 3),
    ("row_discard_next", 3), ("end_triggered_by", _SEATS), ("winners", _SEATS),
    ("reason", len(_REASONS)), ("truncated", 1), ("last_space", _SPACES),
    ("last_tile", NUM_TILE_KINDS)])
#: The information state adds the player's memory: the tile they saw on each space.
_INFO_STATE = TensorLayout(_OBSERVATION.pieces + (("seen", _SPACES * NUM_TILE_KINDS),))


class MaikoEncoding(Encoding):
    game_name = "maiko"
    actions = ACTIONS
    num_distinct_actions = len(ACTIONS)
    max_chance_outcomes = NUM_TILE_KINDS
    bound_name = "max_decisions"
    bound_default = 5000
    utility = "general_sum"

    # --- parameters

    def game_string_values(self, params: Any) -> dict[str, Any]:
        """``colours`` written with ``/`` (``pink/green``): a comma would end the value in
        OpenSpiel's game string, and the game could not be loaded again from it."""
        out = dict(params)
        if isinstance(out.get("colours"), str):
            out["colours"] = out["colours"].replace(",", "/")
        return out

    def _game_options(self, params: dict[str, Any]) -> dict[str, Any]:
        if isinstance(params.get("colours"), str):  # the game's option takes commas
            params = dict(params, colours=params["colours"].replace("/", ","))
        return params

    # --- chance: the layout, tile by tile

    def chance_multiset(self, state: Any) -> tuple[int, ...]:
        counts = [0] * NUM_TILE_KINDS
        for code in state.config.tiles:
            counts[code] += 1
        return tuple(counts)

    def assemble(self, state: Any, drawn: Sequence[int]) -> Layout:
        return Layout(tuple(drawn))

    def decompose(self, outcome: Layout) -> list[int]:
        return list(outcome.tiles)

    def chance_text(self, state: Any, drawn: Sequence[int], kind: int) -> str:
        return f"lay {tile_name(kind)} on space {len(drawn)}"

    # --- the bound, the end

    def max_game_length(self, setup: Setup) -> int:
        return setup.bound

    def max_chance_nodes(self, setup: Setup) -> int:
        return setup.config.tiles_in_play

    def reaches_bound(self, state: Any, decisions: int, setup: Setup) -> bool:
        return decisions >= setup.bound

    def returns(self, outcome: Outcome | None, players: int) -> list[float]:
        """+1 for a sole winner, 0 for each winner of a shared victory, -1 for every other
        player; -1 for everyone in a truncated game."""
        if outcome is None:
            return [-1.0] * players
        win = 1.0 if len(outcome.winners) == 1 else 0.0
        return [win if p in outcome.winners else -1.0 for p in range(players)]

    # --- what a player sees

    def view_text(self, view: V.View) -> str:
        return V.view_text(view)  # the engine's canonical text, its log extended step by step

    def observation_text(self, view: V.View) -> str:
        """The view with its log cut to the last step (what was just seen)."""
        return dumps(V.view_to_json(attrs.evolve(view, log=view.log[-1:])))

    def state_text(self, state: Any) -> str:
        head = (f"Maiko · {state.config.players} players · turn {state.turn} · "
                f"{len(state.steps)} decisions · phase {state.phase.value}")
        # The position is public: any player's view draws it.
        lines = ([head, *position(V.observe(state, 0))] if state.phase is not Phase.LAYOUT
                 else [head])
        if state.result is not None:
            result = state.result
            lines.append(f"result: winners {list(result.winners)} by {result.reason.value}, "
                         f"scores {list(result.scores)}")
        return "\n".join(lines)

    def observation_layout(self, setup: Setup) -> TensorLayout:
        return _OBSERVATION

    def info_state_layout(self, setup: Setup) -> TensorLayout:
        return _INFO_STATE

    def observation_ones(self, view: V.View, setup: Setup, truncated: bool) -> list[int]:
        """MK-INFO-1, MK-INFO-2: the public position now, and the last step as this player
        saw it (the tile it showed them, if any)."""
        layout = _OBSERVATION
        at, one = layout.offset, layout.one
        config = view.config
        ones = [one("player", view.player),
                one("current_player", _PLAYERS.index(view.current_player)),
                one("first_player", view.first_player), one("phase", _PHASES.index(view.phase))]
        ones += [at["colours"] + NUM_COLOURS * p + colour
                 for p, colour in enumerate(config.colours)]
        if config.removed_colour is not None:
            ones.append(one("removed_colour", config.removed_colour))
        for space, code in enumerate(view.board):
            ones.append(at["board"] + space * _CELL
                        + (code if code >= 0 else _DOWN if code == V.HIDDEN else _GONE))
        for player, board in enumerate(view.boards):
            for index, count in enumerate(board):
                base = at["maiko_boards"] + (player * NUM_ITEMS * NUM_COLOURS + index) * COPIES
                ones.extend(range(base, base + count))
        for player, count in enumerate(view.hands):
            ones.extend(range(at["hands"] + player * TOTAL_TOKENS,
                              at["hands"] + player * TOTAL_TOKENS + count))
        ones.extend(range(at["pool"], at["pool"] + view.pool))
        for tutor, count in enumerate(view.cards):
            ones.extend(range(at["tutor_cards"] + tutor * TOTAL_TOKENS,
                              at["tutor_cards"] + tutor * TOTAL_TOKENS + count))
        discarded = [0] * FRIEND
        for code in view.discarded:
            discarded[code] += 1
        for code, count in enumerate(discarded):
            ones.extend(range(at["discarded"] + code * COPIES,
                              at["discarded"] + code * COPIES + count))
        if view.pending is not None:
            ones.append(one("pending", view.pending))
        if view.visited:
            ones.append(one("visited", 0))
        ones += [one("looks", space) for space in view.looks]
        if view.sweep_row is not None:
            ones += [one("row_discard", view.sweep_row), one("row_discard_next", view.sweep_index)]
        if view.triggered_by is not None:
            ones.append(one("end_triggered_by", view.triggered_by))
        if view.result is not None:
            ones += [one("winners", p) for p in view.result.winners]
            ones.append(one("reason", _REASONS.index(view.result.reason)))
        if truncated:
            ones.append(one("truncated", 0))
        if view.log:
            last = view.log[-1]
            last_space = getattr(last.decision, "space", None)
            if last_space is not None:
                ones.append(one("last_space", last_space))
            if last.tile is not None:
                ones.append(one("last_tile", last.tile))
        return ones

    def info_state_ones(self, views: Sequence[V.View], setup: Setup,
                        truncated: bool) -> list[int]:
        """MK-INFO-3, MK-TUTOR-ONESAN-2: the observation, and the player's memory: the tile
        they have seen on each space (flips, Danna reveals and their own One-san looks, never
        another player's). The string holds the whole game as seen; the tensor, of a fixed
        size, only this memory of it."""
        (view,) = views  # a Maiko view has perfect recall: one epoch
        ones = self.observation_ones(view, setup, truncated)
        seen = _INFO_STATE.offset["seen"]
        ones += [seen + space * NUM_TILE_KINDS + code for space, code in view.known().items()]
        return ones


ENCODING = MaikoEncoding()
