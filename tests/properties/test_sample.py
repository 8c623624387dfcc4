"""run_sample: a short sample of every property, programmatically, for ``hanamikoji verify``."""

import attrs
import pytest

from hanamikoji.properties.hanamikoji.sample import SampleOutcome, run_sample
from hanamikoji.properties.hanamikoji.suite import PROPERTIES


def test_the_sample_runs_every_property_and_the_reproducibility_check():
    outcomes = run_sample(max_examples=5, seed=3)
    assert [o.name for o in outcomes] == [p.name for p in PROPERTIES] + [
        "seeded-games-are-reproducible"]
    assert all(o.passed and o.message == "" for o in outcomes), [o for o in outcomes if not o.passed]
    # Examples that ran to the end of the check; Hypothesis's aborted draws do not count.
    assert [o.examples for o in outcomes[:-1]] == [5] * len(PROPERTIES)
    assert outcomes[-1].examples == 2 * 8 and all(o.seconds >= 0 for o in outcomes)
    assert [o.rules for o in outcomes] == [p.rules for p in PROPERTIES] + [()]
    assert all(type(o.rules) is tuple and all(type(r) is str for r in o.rules) for o in outcomes)


def test_outcomes_are_frozen_values():
    outcome = SampleOutcome("x", ("DEAL-1",), True, 1, 0.0, "")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        outcome.passed = False
