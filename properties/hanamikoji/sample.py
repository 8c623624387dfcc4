"""A short sample of the property suite, run programmatically (no pytest): for ``hanamikoji
verify`` and anyone who wants a quick verdict on an engine.

:func:`run_sample` runs every property of :data:`.suite.PROPERTIES` briefly, then the
reproducibility check (two fresh processes), and reports each as a :class:`SampleOutcome`. It
never raises for a failing property: the outcome says so. The properties are not shrunk here
(the message shows the first counterexample found); run the pytest suite for shrunk examples.

>>> outcomes = run_sample(max_examples=2, reproducibility_seeds=())
>>> all(o.passed for o in outcomes), outcomes[0].name
(True, 'marker-row-is-well-formed')
"""

from __future__ import annotations

import time

from hypothesis import HealthCheck, Phase, Verbosity, given, seed as hypothesis_seed, settings
from hypothesis import strategies as st

from hanamikoji.engine.hanamikoji import PRESETS

from hanamikoji.properties.core.sample import SampleOutcome, first_line

from . import invariants as inv
from .engine_api import REFERENCE, Engine
from .suite import PROPERTIES, Property

__all__ = ["SampleOutcome", "run_sample"]


def _run_property(prop: Property, engine: Engine, max_examples: int, seed: int) -> SampleOutcome:
    ran = 0

    def property_holds(data: st.DataObject) -> None:
        nonlocal ran
        try:
            prop.check(data, engine)
        except Exception:
            ran += 1  # a failing example ran; Hypothesis's own aborts are not Exceptions
            raise
        ran += 1

    test = settings(max_examples=max_examples, deadline=None, database=None,
                    derandomize=False, phases=(Phase.explicit, Phase.generate),
                    verbosity=Verbosity.quiet, report_multiple_bugs=False,
                    suppress_health_check=list(HealthCheck))(
        hypothesis_seed(seed)(given(st.data())(property_holds)))
    start = time.perf_counter()
    try:
        test()
    except Exception as error:  # the sample reports failures, it does not raise them
        return SampleOutcome(prop.name, prop.rules, False, ran, time.perf_counter() - start,
                             first_line(error))
    return SampleOutcome(prop.name, prop.rules, True, ran, time.perf_counter() - start, "")


def _run_reproducibility(engine: Engine, seeds: tuple[int, ...]) -> SampleOutcome:
    name = "seeded-games-are-reproducible"
    rules = inv.rule_ids(inv.seeded_games_are_reproducible)
    start = time.perf_counter()
    try:
        for preset in PRESETS.values():
            inv.seeded_games_are_reproducible(seeds, rules=preset, engine=engine)
    except Exception as error:
        return SampleOutcome(name, rules, False, 0, time.perf_counter() - start, first_line(error))
    return SampleOutcome(name, rules, True, 2 * len(seeds), time.perf_counter() - start, "")


def run_sample(*, max_examples: int = 25, seed: int = 0, engine: Engine = REFERENCE,
               reproducibility_seeds: tuple[int, ...] = tuple(range(8))) -> list[SampleOutcome]:
    """Every property with ``max_examples`` examples from Hypothesis seed ``seed``, then the
    reproducibility check on ``reproducibility_seeds`` (skipped when empty), against
    ``engine``."""
    outcomes = [_run_property(prop, engine, max_examples, seed) for prop in PROPERTIES]
    if reproducibility_seeds:
        outcomes.append(_run_reproducibility(engine, tuple(reproducibility_seeds)))
    return outcomes


def _main() -> None:  # python -m hanamikoji.properties.hanamikoji.sample
    for outcome in run_sample():
        verdict = "ok  " if outcome.passed else "FAIL"
        print(f"{verdict} {outcome.name:52} {outcome.examples:4} examples "
              f"{outcome.seconds:6.2f} s  {outcome.message}")


if __name__ == "__main__":
    _main()
