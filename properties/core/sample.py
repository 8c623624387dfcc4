"""A short sample of the generic properties on one game, run programmatically (no pytest): what
``hanamikoji verify`` shows for a game that has no sample of its own, and the generic half of a
game's own sample.

Each property runs a few Hypothesis examples from a fixed seed; a failure is reported, never
raised (the outcome carries the first line of the error). The rules a generic property names are
none: it checks the core's contract, and the game's own invariants cite its rules.
"""

from __future__ import annotations

import time
from typing import Callable

import attrs
from hypothesis import HealthCheck, Phase, Verbosity, given, seed as hypothesis_seed, settings
from hypothesis import strategies as st

from hanamikoji.engine.core.game import Game

from . import invariants as inv
from .suite import PROPERTIES, Property

__all__ = ["SampleOutcome", "first_line", "run_generic_sample", "run_check"]


@attrs.frozen
class SampleOutcome:
    """One property's verdict: name, rule IDs, whether it held, examples run, seconds, and the
    first line of the failure (empty if it held)."""

    name: str
    rules: tuple[str, ...]
    passed: bool
    examples: int
    seconds: float
    message: str


def first_line(error: BaseException) -> str:
    text = str(error).strip() or type(error).__name__
    return f"{type(error).__name__}: {text.splitlines()[0]}"


def _run_property(prop: Property, game: Game, max_examples: int, seed: int) -> SampleOutcome:
    ran = 0

    def property_holds(data: st.DataObject) -> None:
        nonlocal ran
        ran += 1
        prop.check(data, game)

    test = settings(max_examples=max_examples, deadline=None, database=None,
                    phases=(Phase.explicit, Phase.generate), verbosity=Verbosity.quiet,
                    report_multiple_bugs=False, suppress_health_check=list(HealthCheck))(
        hypothesis_seed(seed)(given(st.data())(property_holds)))
    start = time.perf_counter()
    try:
        test()
    except Exception as error:  # the sample reports failures, it does not raise them
        return SampleOutcome(prop.name, (), False, ran, time.perf_counter() - start,
                             first_line(error))
    return SampleOutcome(prop.name, (), True, ran, time.perf_counter() - start, "")


def run_check(name: str, rules: tuple[str, ...], check: Callable[[], int]) -> SampleOutcome:
    """A plain check (no Hypothesis) as an outcome: ``check`` returns how many cases it ran."""
    start = time.perf_counter()
    try:
        ran = check()
    except Exception as error:
        return SampleOutcome(name, rules, False, 0, time.perf_counter() - start, first_line(error))
    return SampleOutcome(name, rules, True, ran, time.perf_counter() - start, "")


def run_generic_sample(game: Game, *, max_examples: int = 10, seed: int = 0,
                       reproducibility_seeds: tuple[int, ...] = (0, 1)) -> list[SampleOutcome]:
    """Every generic property on ``game`` with ``max_examples`` examples from seed ``seed``,
    then the fresh-process reproducibility check (skipped when no seeds are given)."""
    outcomes = [_run_property(prop, game, max_examples, seed) for prop in PROPERTIES]
    if reproducibility_seeds:
        def reproducible() -> int:
            inv.seeded_games_are_reproducible(game, seeds=reproducibility_seeds)
            return len(reproducibility_seeds)

        outcomes.append(run_check("seeded-games-are-reproducible", (), reproducible))
    return outcomes
