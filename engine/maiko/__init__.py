"""Maiko: the reference engine of the second game (rules: spec/maiko/rules.md).

Modules: :mod:`.components` (colours, tiles, the configuration), :mod:`.actions` (decisions),
:mod:`.game` (state and transitions), :mod:`.view` (views, resampling, the ledger),
:mod:`.record` (JSON forms, ``maiko-record/1`` and its schema), :mod:`.display` (text for
people) and :mod:`.game_type` (the core's :class:`~hanamikoji.engine.core.game.Game`).
"""

from .actions import (
    Danna,
    Decision,
    EndTurn,
    Flip,
    Kind,
    Layout,
    OkaSan,
    OneSan,
    OneSanStop,
    Sabanto,
    Sweep,
)
from .components import FRIEND, Colour, Config, Tutor, colour_of, item_of, parse_tile, tile, tile_name
from .game import (
    CHANCE,
    TERMINAL,
    Phase,
    Reason,
    Result,
    State,
    Step,
    apply,
    current_player,
    is_static,
    legal_actions,
    new_game,
    random_layout,
)
from .game_type import GAME, MaikoGame
from .record import FORMAT, read_record, record_schema, to_record
from .view import Seen, View, expected_ledger, ledger, observe, resample

__all__ = [
    "CHANCE", "TERMINAL", "FORMAT", "FRIEND", "GAME",
    "Colour", "Config", "Tutor", "tile", "tile_name", "parse_tile", "item_of", "colour_of",
    "Kind", "Decision", "Layout", "Flip", "Danna", "OkaSan", "OneSan", "OneSanStop", "Sabanto",
    "Sweep", "EndTurn",
    "Phase", "Reason", "Result", "State", "Step", "new_game", "random_layout", "current_player",
    "legal_actions", "apply", "is_static",
    "View", "Seen", "observe", "resample", "ledger", "expected_ledger",
    "MaikoGame", "to_record", "read_record", "record_schema",
]
