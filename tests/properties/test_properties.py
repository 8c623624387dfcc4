"""Every property of the suite holds for the reference engine (under the loaded profile)."""

import os

import pytest
from hypothesis import settings

from hanamikoji.properties.hanamikoji import invariants as inv
from hanamikoji.properties.profiles import PROFILES
from hanamikoji.properties.hanamikoji.suite import PROPERTIES, PROPERTIES_BY_NAME


@pytest.mark.parametrize("prop", PROPERTIES, ids=lambda p: p.name)
def test_property_holds_for_the_reference_engine(prop):
    prop.test()()


def test_every_invariant_of_the_module_is_run_by_a_property_or_the_reproducibility_test():
    run = {p.invariant for p in PROPERTIES} | {inv.seeded_games_are_reproducible}
    invariants = {getattr(inv, name) for name in inv.__all__
                  if callable(getattr(inv, name)) and name[0].islower()
                  and name not in ("rule_ids", "check_state", "check_step")}
    assert invariants - run == set()
    assert set(inv.STATE_INVARIANTS) | set(inv.STEP_INVARIANTS) <= invariants


def test_each_invariant_cites_rule_ids_of_the_spec_in_a_one_line_summary():
    from hanamikoji.spec.core.coverage import spec_rule_ids

    known = set(spec_rule_ids())
    for prop in PROPERTIES:
        summary = prop.invariant.__doc__.split("\n\n")[0]
        cited = inv.rule_ids(prop.invariant)
        assert set(cited) <= known, prop.name
        # Only the engine's contract (purity, history, reproducibility) has no rule to cite.
        assert cited or summary.startswith("(The engine's contract, no rule ID.)"), prop.name


def test_property_names_are_unique_kebab_case():
    names = [p.name for p in PROPERTIES]
    assert len(set(names)) == len(names) == len(PROPERTIES_BY_NAME)
    assert all(n == n.lower() and " " not in n and "_" not in n for n in names)


def test_the_loaded_profile_is_the_one_hypothesis_profile_names():
    chosen = os.environ.get("HYPOTHESIS_PROFILE") or "dev"
    assert settings.default.max_examples == PROFILES[chosen]["max_examples"]
    assert settings.default.deadline is None
    if chosen == "ci":
        assert settings.default.database is None and settings.default.derandomize
