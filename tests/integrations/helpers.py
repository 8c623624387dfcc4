"""Shared by the integration tests: random OpenSpiel play and the leak check on OpenSpiel
states (imported only by tests that have skipped themselves without open_spiel)."""

from __future__ import annotations

import random

import numpy as np


def play(game, rng: random.Random, visit=None):
    """One OpenSpiel game: chance by its probabilities, players uniform; ``visit(state)`` is
    called on every state, the last included."""
    state = game.new_initial_state()
    while True:
        if visit is not None:
            visit(state)
        if state.is_terminal():
            return state
        if state.is_chance_node():
            kinds, weights = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(kinds, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def check_leak(game, state, rng: random.Random) -> int:
    """Our leak check through OpenSpiel: for each player, every hidden thing drawn again (the
    engine's ``Game.resample``; a part-drawn chance node drawn again too); the information
    state and the observation, string and tensor, and the legal actions must not change.
    Returns the number of comparisons made."""
    from hanamikoji.integrations import openspiel as O

    core = state._core
    engine_game = core.encoding.game
    done = 0
    for player in range(game.num_players()):
        other_engine = engine_game.resample(core.engine, player, rng)
        other = O.from_engine_state(game, other_engine, rng, drawn=len(core.drawn))
        assert other.current_player() == state.current_player()
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.observation_string(player) == state.observation_string(player)
        assert np.array_equal(other.information_state_tensor(player),
                              state.information_state_tensor(player))
        assert np.array_equal(other.observation_tensor(player), state.observation_tensor(player))
        if state.current_player() == player:
            assert other.legal_actions() == state.legal_actions()
        done += 1
    return done
