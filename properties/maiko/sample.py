"""Maiko's part of ``hanamikoji verify``: the generic properties of the core on Maiko, then
Maiko's own invariants (:mod:`.invariants`, each citing its MK rules) after every step of seeded
games of 2, 3 and 4 players.

>>> outcomes = run_sample(max_examples=2, reproducibility_seeds=())
>>> all(o.passed for o in outcomes)
True
"""

from __future__ import annotations

from hanamikoji.engine.core.registry import get
from hanamikoji.engine.maiko.components import PLAYER_COUNTS
from hanamikoji.properties.core.sample import SampleOutcome, run_check, run_generic_sample

from . import invariants as inv
from .scenarios import configure

__all__ = ["run_sample"]


def _games(players: int, seeds: range) -> int:
    """Every state and step invariant along each seeded game; the number of steps checked."""
    import random

    game = get("maiko")
    steps = 0
    for seed in seeds:
        rng = random.Random(f"sample/{players}/{seed}")
        state = game.new_game(configure(players), seed % players)
        while not game.is_terminal(state):
            inv.check_state(state)
            if game.current_player(state) < 0:
                decision = game.sample_chance(state, rng)
            else:
                decision = rng.choice(game.legal_actions(state))
            after = game.apply(state, decision)
            inv.check_step(state, decision, after)
            state, steps = after, steps + 1
        inv.check_state(state)
    return steps


def run_sample(*, max_examples: int = 10, seed: int = 0,
               reproducibility_seeds: tuple[int, ...] = (0, 1)) -> list[SampleOutcome]:
    """The generic sample on Maiko, then its own invariants on ``max(1, max_examples // 5)``
    seeded games per player count."""
    outcomes = run_generic_sample(get("maiko"), max_examples=max_examples, seed=seed,
                                  reproducibility_seeds=reproducibility_seeds)
    games = range(seed, seed + max(1, max_examples // 5))
    rules = tuple(sorted({rule for invariant in inv.STATE_INVARIANTS + inv.STEP_INVARIANTS
                          for rule in _rules(invariant)}))
    for players in PLAYER_COUNTS:
        outcomes.append(run_check(f"maiko-invariants-{players}-players", rules,
                                  lambda players=players: _games(players, games)))
    return outcomes


def _rules(invariant: object) -> list[str]:
    from hanamikoji.properties.core.cite import cited

    return list(cited(invariant))
