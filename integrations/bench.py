"""The integrations' figures for ``hanamikoji bench`` (section ``integrations``): steps per second
of random play through each bridge, in process, next to the engine's own loop; a bridge whose
extra is not installed gets a "not installed" row instead.

A step is a player's decision, whatever the loop: the chance draws (21 ``apply_action`` per
Hanamikoji deal through OpenSpiel, one ``sample_chance`` inside PettingZoo's ``step``) are part
of the time, not of the count, so the figures compare.
"""

from __future__ import annotations

import importlib.util
import random
import time
from typing import Any, Callable

from hanamikoji.engine.core.game import CHANCE

from . import encoding as E

#: Each bridge: its module, the import that needs its extra, the extra.
BRIDGES = (("openspiel", "pyspiel", "openspiel"), ("pettingzoo", "pettingzoo", "pettingzoo"))


def _timed(run: Callable[[random.Random], int], budget: float) -> tuple[int, int, float]:
    """Games played, steps made and seconds taken by whole games of ``run`` (each returns its
    steps) until ``budget`` seconds have passed."""
    games = steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < budget or not games:
        steps += run(random.Random(games))
        games += 1
    return games, steps, time.perf_counter() - start


def _engine(name: str) -> Callable[[random.Random], int]:
    game = E.get(name).game
    config = game.configure()

    def run(rng: random.Random) -> int:
        state, steps = game.new_game(config), 0
        while not game.is_terminal(state):
            if game.current_player(state) == CHANCE:
                state = game.apply(state, game.sample_chance(state, rng))
            else:
                state = game.apply(state, rng.choice(game.legal_actions(state)))
                steps += 1
        return steps
    return run


def _openspiel(name: str, tensors: bool) -> Callable[[random.Random], int]:
    from . import openspiel as O

    game = O.load(name)

    def run(rng: random.Random) -> int:
        state, steps = game.new_initial_state(), 0
        while not state.is_terminal():
            if state.is_chance_node():
                kinds, weights = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(kinds, weights)[0])
            else:
                if tensors:
                    state.information_state_tensor(state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        return steps
    return run


def _pettingzoo(name: str) -> Callable[[random.Random], int]:
    import numpy as np

    from .pettingzoo_env import env

    e = env(name)

    def run(rng: random.Random) -> int:
        e.reset(seed=rng.randrange(2**31))
        steps = 0
        for _ in e.agent_iter():
            observation, _, termination, truncation, _ = e.last()
            if termination or truncation:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
        return steps
    return run


def measure(game_name: str | None = None, budget: float = 2.0) -> list[dict[str, Any]]:
    """The rows of the bench's ``integrations`` section for ``game_name`` (default
    Hanamikoji, default options)."""
    name = game_name or "hanamikoji"
    E.get(name)  # OptionError for a game without an integration
    rows = []

    def row(figure: str, run: Callable[[random.Random], int], unit: str) -> None:
        games, steps, seconds = _timed(run, budget)
        rows.append({"figure": f"{figure} ({name})", "value": round(steps / seconds),
                     "unit": unit, "target": None, "games": games, "steps": steps,
                     "seconds": round(seconds, 2)})

    row("engine alone: random games", _engine(name), "decisions/s (in process)")
    for bridge, needs, extra in BRIDGES:
        if importlib.util.find_spec(needs) is None:
            rows.append({"figure": f"{bridge} ({name})", "value": None,
                         "unit": f"not installed: pip install '.[{extra}]' in the clone",
                         "target": None})
            continue
        if bridge == "openspiel":
            row("openspiel: random games", _openspiel(name, False), "decisions/s (in process)")
            row("openspiel: with the information-state tensor", _openspiel(name, True),
                "decisions/s (in process)")
        else:
            row("pettingzoo: agent_iter, last, step", _pettingzoo(name), "decisions/s (in process)")
    return rows
