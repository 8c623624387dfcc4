"""Seeded Hanamikoji games: game ``index`` of seed ``seed``, as ``simulate`` plays it.

The random source is the core's (:func:`hanamikoji.engine.core.seeded.game_rng`), so these
are the very games ``hanamikoji simulate --seed S`` plays and records.
"""

from __future__ import annotations

from hanamikoji.engine.core.seeded import game_rng
from .game import State, random_game
from .rules import STANDARD, Rules


def play_game(seed: int, index: int, rules: Rules = STANDARD, first_player: int = 0) -> State:
    """Game ``index`` of seed ``seed``: every decision uniform over the legal ones."""
    return random_game(game_rng(seed, index), rules, first_player)
