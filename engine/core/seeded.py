"""The toolkit's seeded games: game ``index`` of a run seeded ``seed`` is the same game in every
tool (``play``, ``simulate``, ``vectors``, ``perft --seed``, the property sample) and in every
process, on any number of workers."""

from __future__ import annotations

import random
from typing import Any

from .game import CHANCE, Game


def game_rng(seed: int, index: int) -> random.Random:
    """The random source of game ``index`` of a run seeded ``seed``."""
    return random.Random(f"{seed}/{index}")


def play_game(game: Game, config: Any, seed: int, index: int, first_player: int = 0,
              max_turns: int | None = None) -> Any:
    """Game ``index`` of seed ``seed``, played to its end, or until it has lasted ``max_turns``
    of the game's own unit of length (:meth:`Game.length`) if given."""
    rng = game_rng(seed, index)
    if max_turns is None:
        return game.random_game(rng, config, first_player)
    state = game.new_game(config, first_player)
    while not game.is_terminal(state) and game.length(state)[1] <= max_turns:
        if game.current_player(state) == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
        else:
            state = game.apply(state, rng.choice(game.legal_actions(state)))
    return state
