"""What every game's JSON codecs share: the canonical text the oracle compares, the error for a
JSON value that is not the form expected, and ``current_player`` as JSON."""

from __future__ import annotations

import json
from typing import Any

from hanamikoji.engine.core.errors import InvalidActionError
from hanamikoji.engine.core.game import CHANCE, TERMINAL


class MalformedJSONError(InvalidActionError):
    """Not the JSON form expected, at JSON path ``path``."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path


def dumps(value: Any) -> str:
    """Canonical text: sorted keys, no spaces; what the oracle's comparisons compare."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)


def player_json(player: int) -> int | str:
    """``current_player`` as a player number, ``"chance"`` or ``"terminal"``."""
    if player == CHANCE:
        return "chance"
    if player == TERMINAL:
        return "terminal"
    return player


#: The protocol an adapter speaks when it says nothing: 1, the requests of before the core
#: (for the registry's default game, its own ``new_game`` and chance request). An adapter that
#: answers ``new_game`` with ``"protocol": 2`` gets the general requests below for every game.
GENERAL_PROTOCOL = 2


def new_game_request(game: Any, config: Any, first_player: int) -> dict[str, Any]:
    """The general ``new_game`` request: the game, its player count, options, first player."""
    return {"op": "new_game", "game": game.name, "players": game.num_players(config),
            "options": game.options_of(config), "first_player": first_player}


def chance_request(game: Any, outcome: Any) -> dict[str, Any]:
    """The general request that tells an adapter a chance outcome, in the game's JSON form."""
    return {"op": "chance", "outcome": game.decision_to_json(outcome)}


def random_chance_request(game: Any, config: Any, seed: int) -> dict[str, Any]:
    """The optional request for the first chance outcome of a new game (first player 0) drawn
    from a random source seeded with ``seed``: the seeded-chance check of ``diff``."""
    return {"op": "random_chance", "game": game.name, "players": game.num_players(config),
            "options": game.options_of(config), "seed": seed}
