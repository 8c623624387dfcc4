"""Shared by the integration tests (imported only by tests that skipped themselves when an extra
is missing): random play through OpenSpiel, and the leak check of OpenSpiel's strings and
tensors against the engine's resampler."""

from __future__ import annotations

import random

import numpy as np


def play(game, rng: random.Random, visit=None):
    """One OpenSpiel game: chance drawn by its probabilities, players uniformly at random;
    ``visit(state)`` sees every state, the last one included."""
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


def seen_by(state, player: int) -> tuple:
    """Everything ``player`` is given of an OpenSpiel state: who is to move, the information
    state and the observation (strings and tensors), and their legal actions when they move."""
    legal = state.legal_actions() if state.current_player() == player else None
    return (state.current_player(), state.information_state_string(player),
            state.observation_string(player),
            np.asarray(state.information_state_tensor(player)).tobytes(),
            np.asarray(state.observation_tensor(player)).tobytes(), legal)


def check_leak(state, rng: random.Random) -> int:
    """INFO-2, MK-INFO-2 through OpenSpiel: for each player, everything hidden from them drawn
    again (the engine's resampler, ``Game.resample``; the draws of a chance node in progress
    drawn again too) changes nothing they are given. Returns the number of players checked."""
    from hanamikoji.integrations.openspiel import determinized

    for player in range(state.get_game().num_players()):
        other = determinized(state, player, rng)
        assert seen_by(other, player) == seen_by(state, player), f"player {player} sees a change"
    return state.get_game().num_players()
