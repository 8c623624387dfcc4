"""Proof that the property suite bites: each broken engine of tests/broken_engines.py is caught
by the properties meant to catch it, deterministically and quickly, while the reference engine
passes the same properties under the same settings."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import Phase, settings
from hypothesis.stateful import run_state_machine_as_test

from hanamikoji.properties.hanamikoji.invariants import Violation, seeded_games_are_reproducible
from hanamikoji.properties.hanamikoji.machine import games_machine
from hanamikoji.properties.hanamikoji.sample import run_sample
from hanamikoji.properties.hanamikoji.suite import PROPERTIES_BY_NAME, SUPPRESSED
from hanamikoji.spec.core.coverage import spec_rule_ids

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:  # broken_engines is a module of tests/, as other tools load it
    sys.path.insert(0, str(TESTS))

from broken_engines import BROKEN  # noqa: E402

#: The properties that must catch each broken engine (each cites a rule the engine breaks).
CATCHERS = {
    "tie-moves-marker": ["markers-move-only-to-the-stronger-side"],
    "tie-clears-old-marker": ["markers-move-only-to-the-stronger-side"],
    "same-starter": ["turns-follow-the-order", "steps-follow-the-turn-order"],
    "simultaneous-to-geisha": ["result-agrees-with-the-markers"],
    "simultaneous-to-nobody": ["result-agrees-with-the-markers"],
    "gift-gives-two": ["sides-follow-the-answers", "steps-move-exactly-the-played-cards"],
    "action-twice": ["actions-are-used-once-per-round",
                     "legal-actions-are-exactly-what-the-rules-allow"],
    "removed-card-returns": ["cards-are-conserved", "deck-is-the-rest-of-the-deal"],
    "view-shows-opponent-hand": ["views-leak-nothing"],
    "view-shows-deck": ["views-leak-nothing"],
    "view-shows-removed-card": ["views-leak-nothing"],
    "view-shows-opponent-secret": ["views-leak-nothing"],
    "italian-limit-draw": ["round-limit-decides-by-charm-then-highest-geisha"],
    "italian-tiebreak-wrong": ["round-limit-decides-by-charm-then-highest-geisha"],
}
CASES = [(engine, prop) for engine, props in CATCHERS.items() for prop in props]

#: Deterministic and quick: a fixed sequence of examples, no shrinking, no database.
HUNT = settings(max_examples=200, deadline=None, database=None, derandomize=True,
                phases=(Phase.generate,), report_multiple_bugs=False,
                suppress_health_check=SUPPRESSED)


#: The engines whose every deal is legal but whose shuffle is not fair, and what catches them.
UNFAIR = {"biased-swap-shuffle": ["diff", "audit"], "deal-ignores-seed": ["diff", "audit"]}


def test_the_catalogue_holds_every_bug_the_issue_lists():
    issue = {"tie-moves-marker", "tie-clears-old-marker", "same-starter",
             "simultaneous-to-geisha", "simultaneous-to-nobody", "gift-gives-two",
             "action-twice", "removed-card-returns", "view-shows-opponent-hand",
             "view-shows-deck", "italian-limit-draw", "italian-tiebreak-wrong"}
    assert issue <= set(BROKEN)
    # Every engine is caught here: by the properties below, or by the reproducibility check;
    # a shuffle that is legal but not fair, by diff's seeded check and audit (test_audit.py,
    # test_oracle_diff.py).
    assert set(BROKEN) == set(CATCHERS) | {"deal-depends-on-hash-seed"} | set(UNFAIR)


def test_each_broken_engine_says_what_is_broken_and_cites_real_rules():
    known = set(spec_rule_ids())
    for name, engine in BROKEN.items():
        assert engine.name == name and engine.bug and set(engine.rules) <= known


@pytest.mark.parametrize("engine_name, property_name", CASES)
def test_catchers_check_a_rule_the_engine_breaks(engine_name, property_name):
    assert set(PROPERTIES_BY_NAME[property_name].rules) & set(BROKEN[engine_name].rules)


def caught_breaking(engine_name: str, run) -> Violation:
    """Run ``run``; it must fail with a :class:`Violation` that names a rule the broken engine
    breaks (any other failure, a crash or an assertion about something else, does not count)."""
    with pytest.raises(Violation) as caught:
        run()
    broken = set(BROKEN[engine_name].rules)
    assert set(caught.value.rules) & broken, (
        f"{engine_name} was caught for {caught.value.rules}, not for a rule it breaks ({broken})")
    return caught.value


@pytest.mark.parametrize("engine_name, property_name", CASES)
def test_the_property_finds_a_counterexample_in_the_broken_engine(engine_name, property_name):
    test = PROPERTIES_BY_NAME[property_name].test(engine=BROKEN[engine_name], settings=HUNT)
    caught_breaking(engine_name, test)


@pytest.mark.parametrize("property_name", sorted({p for _, p in CASES}))
def test_the_reference_passes_the_same_properties_with_the_same_settings(property_name):
    PROPERTIES_BY_NAME[property_name].test(settings=HUNT)()


def test_a_counterexample_shrinks_to_the_first_round():
    # SCORE-3: a tie that moves a marker needs only one scoring.
    shrinking = settings(HUNT, phases=(Phase.generate, Phase.shrink), max_examples=100)
    test = PROPERTIES_BY_NAME["markers-move-only-to-the-stronger-side"].test(
        engine=BROKEN["tie-moves-marker"], settings=shrinking)
    with pytest.raises(AssertionError, match=r"^round 0: geisha \d scored (\d) to \1 "):
        test()


def test_the_reproducibility_check_catches_a_deal_that_depends_on_the_hash_seed():
    with pytest.raises(AssertionError, match="PYTHONHASHSEED"):
        seeded_games_are_reproducible(range(4), engine=BROKEN["deal-depends-on-hash-seed"])
    seeded_games_are_reproducible(range(4))  # the reference, the same way


@pytest.mark.parametrize("engine_name", ["tie-clears-old-marker", "same-starter",
                                         "action-twice", "view-shows-deck"])
def test_the_state_machine_catches_broken_engines(engine_name):
    caught_breaking(engine_name, lambda: run_state_machine_as_test(
        games_machine(engine=BROKEN[engine_name]),
        settings=settings(HUNT, max_examples=50, stateful_step_count=120)))


def test_the_sample_reports_a_broken_engine_without_raising():
    outcomes = {o.name: o for o in run_sample(engine=BROKEN["tie-moves-marker"],
                                              max_examples=30, reproducibility_seeds=())}
    caught = outcomes["markers-move-only-to-the-stronger-side"]
    assert not caught.passed and "SCORE-3" in caught.message and caught.examples >= 1
    assert outcomes["cards-are-conserved"].passed


def test_broken_engines_load_alone_in_a_fresh_process():
    code = ("import sys; from hanamikoji.properties.hanamikoji.engine_api import load_engine; "
            "a = load_engine('broken_engines:tie-moves-marker'); "
            "b = load_engine('broken_engines:TIE_MOVES_MARKER'); "
            "print(a is b, a.name, 'pytest' in sys.modules, 'hypothesis' in sys.modules)")
    env = dict(os.environ, PYTHONPATH=str(TESTS))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True, cwd=TESTS.parent).stdout.split()
    assert out == ["True", "tie-moves-marker", "False", "False"]


def test_the_documented_catalogue_is_the_catalogue():
    doc = (TESTS.parent / "docs" / "properties.md").read_text(encoding="utf-8")
    lines = doc.splitlines()
    start = lines.index("| engine | rules | what is broken | caught by |")
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split(" | ")])
    documented = {}
    for name, rules, bug, caught_by in rows:
        documented[name.strip("`")] = (rules, bug, [c.strip("` ") for c in caught_by.split(",")])
    assert list(documented) == list(BROKEN)
    for name, engine in BROKEN.items():
        rules, bug, caught_by = documented[name]
        assert rules == (", ".join(engine.rules) or "(contract)") and bug == engine.bug
        assert caught_by == CATCHERS.get(name, UNFAIR.get(name, ["seeded_games_are_reproducible"]))
