"""Maiko's part of ``hanamikoji verify``: the generic properties of the core on Maiko, then
Maiko's own invariants (:mod:`.invariants`, each citing its MK rules) after every step of seeded
games of 2, 3 and 4 players.

>>> outcomes = run_sample(max_examples=2, reproducibility_seeds=())
>>> all(o.passed for o in outcomes)
True
"""

from __future__ import annotations

import functools

from typing import Callable

import attrs

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


#: The Maiko invariants that state a generic property's contract in Maiko's own rules: on
#: Maiko, the generic property checks the rules they cite (their ``@checks``). A generic
#: property of the core's contract alone (purity, round trips of the codecs) has none.
COUNTERPARTS: dict[str, tuple[Callable[..., None], ...]] = {
    "legal-actions-all-apply": (inv.every_open_state_has_a_decision,),
    "legal-actions-are-sorted-and-distinct": (inv.legal_actions_are_sorted_distinct_and_face_down,),
    "other-decisions-are-refused": (inv.legal_actions_are_sorted_distinct_and_face_down,),
    "ledger-is-conserved": (inv.tiles_are_conserved, inv.tokens_are_conserved),
    "players-and-outcomes-are-well-formed": (inv.turn_order_is_clockwise,
                                             inv.result_follows_the_boards),
    "games-end-within-a-bound": (inv.every_open_state_has_a_decision,
                                 inv.no_open_position_is_static),
    "views-leak-nothing": (inv.views_do_not_leak, inv.looks_reach_only_the_looker),
}


def generic_rules(name: str) -> tuple[str, ...]:
    """The Maiko rules generic property ``name`` checks: those its counterparts cite."""
    return tuple(dict.fromkeys(rule for invariant in COUNTERPARTS.get(name, ())
                               for rule in _rules(invariant)))


def run_sample(*, max_examples: int = 10, seed: int = 0,
               reproducibility_seeds: tuple[int, ...] = (0, 1)) -> list[SampleOutcome]:
    """The generic sample on Maiko (each with the Maiko rules its counterparts cite), then its
    own invariants on ``max(1, max_examples // 5)`` seeded games per player count."""
    outcomes = [attrs.evolve(o, rules=o.rules or generic_rules(o.name))
                for o in run_generic_sample(get("maiko"), max_examples=max_examples, seed=seed,
                                            reproducibility_seeds=reproducibility_seeds)]
    games = range(seed, seed + max(1, max_examples // 5))
    rules = tuple(sorted({rule for invariant in inv.STATE_INVARIANTS + inv.STEP_INVARIANTS
                          for rule in _rules(invariant)}))
    for players in PLAYER_COUNTS:
        outcomes.append(run_check(f"maiko-invariants-{players}-players", rules,
                                  functools.partial(_games, players, games)))
    return outcomes


def _rules(invariant: object) -> list[str]:
    from hanamikoji.properties.core.cite import cited

    return list(cited(invariant))
