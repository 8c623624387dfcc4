"""The generic property library (properties/core/) on every game it can reach: the test game and
Hanamikoji pass every generic property and the state machine; the test game's broken versions
(tests/testgame/broken.py) and a catalogue of one-line mutants are each caught by the property
meant to catch them, and only with a :class:`Violation` that names it."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import Phase, given, settings
from hypothesis.stateful import run_state_machine_as_test

from hanamikoji.engine.core import registry
from hanamikoji.engine.core.errors import IllegalActionError
from hanamikoji.engine.core.game import CHANCE
from hanamikoji.properties.core import invariants as inv
from hanamikoji.properties.core import strategies as s
from hanamikoji.properties.core.machine import games_machine
from hanamikoji.properties.core.suite import PROPERTIES, PROPERTIES_BY_NAME
from hanamikoji.properties.profiles import SUPPRESSED

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:  # the test game is the package testgame of tests/
    sys.path.insert(0, str(TESTS))

from testgame import game as tg  # noqa: E402
from testgame.broken import BROKEN  # noqa: E402
from testgame.fixtures import subprocess_env, testgame  # noqa: E402,F401

NAMES = [p.name for p in PROPERTIES]

#: Deterministic and quick: a fixed sequence of examples, no shrinking, no database.
HUNT = settings(max_examples=200, deadline=None, database=None, derandomize=True,
                phases=(Phase.generate,), report_multiple_bugs=False,
                suppress_health_check=SUPPRESSED)


def scaled(examples: int, **options: Any) -> settings:
    """The loaded profile's settings with ``examples`` examples under ci (100 by default), in
    proportion under the others (dev: a quarter; thorough: twenty times)."""
    return settings(max_examples=max(5, examples * settings.default.max_examples // 100), **options)


# --- the reference games pass --------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_the_test_game_passes_every_generic_property(testgame, name):
    PROPERTIES_BY_NAME[name].test(testgame, settings=scaled(100))()


@pytest.mark.parametrize("name", NAMES)
def test_hanamikoji_passes_every_generic_property(name):
    PROPERTIES_BY_NAME[name].test(registry.get("hanamikoji"), settings=scaled(40))()


def test_the_state_machine_plays_the_test_game(testgame):
    run_state_machine_as_test(games_machine(testgame), settings=scaled(40))


def test_the_state_machine_plays_hanamikoji():
    run_state_machine_as_test(games_machine(registry.get("hanamikoji")),
                              settings=scaled(20))


@pytest.mark.parametrize("name", ["testgame", "hanamikoji"])
def test_seeded_games_are_the_same_in_a_fresh_process(testgame, name):
    inv.seeded_games_are_reproducible(registry.get(name), seeds=(0, 1, 2))


def test_the_reproducibility_check_catches_a_deal_that_depends_on_the_hash_seed(testgame):
    broken = BROKEN["testgame-hash-seeded"]
    env = subprocess_env(target="testgame-hash-seeded=testgame.broken:HASH_SEEDED")
    with pytest.raises(inv.Violation, match="PYTHONHASHSEED") as caught:
        inv.seeded_games_are_reproducible(broken, seeds=range(4), env=env)
    assert caught.value.property == broken.caught_by


def test_a_game_a_fresh_process_cannot_find_is_reported_as_such():
    lost = tg.TestGame()
    with pytest.raises(RuntimeError, match="HANAMIKOJI_GAMES"):
        inv.seeded_games_are_reproducible(lost, seeds=(0,), hash_seeds=("1",),
                                          env={"PATH": "", "HANAMIKOJI_GAMES": ""})


# --- the broken versions of the test game are caught ----------------------------------------


@pytest.mark.parametrize("name", ["testgame-leaky-view", "testgame-chip-from-nothing"])
def test_each_broken_test_game_is_caught_by_its_property(name):
    broken = BROKEN[name]
    with pytest.raises(inv.Violation) as caught:
        PROPERTIES_BY_NAME[broken.caught_by].test(broken, settings=HUNT)()
    assert caught.value.property == broken.caught_by


@pytest.mark.parametrize("name", ["testgame-leaky-view", "testgame-chip-from-nothing"])
def test_the_state_machine_catches_each_broken_test_game(name):
    broken = BROKEN[name]
    with pytest.raises(inv.Violation) as caught:
        run_state_machine_as_test(games_machine(broken),
                                  settings=settings(HUNT, max_examples=50, stateful_step_count=60))
    assert caught.value.property == broken.caught_by


@pytest.mark.parametrize("name", sorted({g.caught_by for g in BROKEN.values()} & set(NAMES)))
def test_the_reference_passes_the_catchers_with_the_same_settings(name):
    PROPERTIES_BY_NAME[name].test(tg.GAME, settings=HUNT)()


def test_the_broken_versions_break_rules_of_the_spec():
    from hanamikoji.spec.core.coverage import rule_ids_in

    known = {rule for rule, _ in rule_ids_in((TESTS / "testgame" / "rules.md").read_text())}
    # TG-INFO-1 (leaky view), TG-SETUP-1 and TG-BET-1 (the chip made from nothing).
    assert {r for g in BROKEN.values() for r in g.rules} == {"TG-INFO-1", "TG-SETUP-1", "TG-BET-1"}
    assert all(set(g.rules) <= known and g.bug for g in BROKEN.values())


# --- every generic property bites: one mutant of the test game per property -----------------


#: A rule ID of the game's form that its spec lacks, built so that spec coverage does not read
#: it as a citation of an unknown rule.
NO_SUCH_RULE = "-".join(("TG", "BET", "9"))


class _Mutant(tg.TestGame):
    name = "testgame-mutant"


class MutatesItsInput(_Mutant):
    def apply(self, state, decision):
        after = super().apply(state, decision)
        object.__setattr__(state, "pot", state.pot + 1)  # frozen, but not against this
        return after


class HistoryForgetsTheDeal(_Mutant):
    def history(self, state):
        return state.moves


class ChanceProbabilitiesDoNotAddUp(_Mutant):
    def chance_outcomes(self, state):
        return tuple((deal, 2 * p) for deal, p in super().chance_outcomes(state))


class UnsortedLegalActions(_Mutant):
    def legal_actions(self, state):
        return tuple(reversed(super().legal_actions(state)))


class UntypedRefusal(_Mutant):
    def apply(self, state, decision):
        if not isinstance(decision, (tg.Deal, tg.Move)):
            raise TypeError(f"what is {decision!r}?")
        return super().apply(state, decision)


class RefusalCitesNoRuleOfTheSpec(_Mutant):
    def apply(self, state, decision):
        try:
            return super().apply(state, decision)
        except IllegalActionError as error:
            raise IllegalActionError(error.message, NO_SUCH_RULE) from None


class AcceptsMovesAfterTheEnd(_Mutant):
    def apply(self, state, decision):
        if state.outcome is not None and isinstance(decision, tg.Move):
            return state
        return super().apply(state, decision)


class WinnerTwice(_Mutant):
    def outcome(self, state):
        if state.outcome is None:
            return None
        return attrs.evolve(state.outcome, winners=state.outcome.winners * 2)


class NeverEndsInTime(_Mutant):
    def max_decisions(self, config):
        return 3


class CallWrittenAsCheck(_Mutant):
    def decision_to_json(self, decision):
        return super().decision_to_json(tg.Move.CHECK if decision is tg.Move.CALL else decision)


class RecordForgetsTheFirstPlayer(_Mutant):
    def to_record(self, state):
        return {**super().to_record(state), "first_player": 0}


class RecordBreaksItsSchema(_Mutant):
    def to_record(self, state):
        return {**super().to_record(state), "comment": "not in the schema"}

    def read_record(self, obj):
        return super().read_record({k: v for k, v in obj.items() if k != "comment"})


MUTANTS = {
    "apply-leaves-its-input-unchanged": MutatesItsInput,
    "history-records-each-decision": HistoryForgetsTheDeal,
    "legal-actions-all-apply": ChanceProbabilitiesDoNotAddUp,
    "legal-actions-are-sorted-and-distinct": UnsortedLegalActions,
    "other-decisions-are-refused": [UntypedRefusal, RefusalCitesNoRuleOfTheSpec,
                                    AcceptsMovesAfterTheEnd],
    "players-and-outcomes-are-well-formed": WinnerTwice,
    "games-end-within-a-bound": NeverEndsInTime,
    "decisions-and-positions-round-trip": CallWrittenAsCheck,
    "records-round-trip": RecordForgetsTheFirstPlayer,
    "records-follow-their-schema": RecordBreaksItsSchema,
    "ledger-is-conserved": type(BROKEN["testgame-chip-from-nothing"]),
    "views-leak-nothing": type(BROKEN["testgame-leaky-view"]),
}
CASES = [(name, mutant) for name, mutants in MUTANTS.items()
         for mutant in (mutants if isinstance(mutants, list) else [mutants])]


def test_every_generic_property_has_a_mutant():
    assert set(MUTANTS) == set(NAMES)


@pytest.mark.parametrize("name, mutant", CASES, ids=[m.__name__ for _, m in CASES])
def test_each_property_catches_its_mutant(name, mutant):
    with pytest.raises(inv.Violation) as caught:
        PROPERTIES_BY_NAME[name].test(mutant(), settings=HUNT)()
    assert caught.value.property == name


# --- the library itself ----------------------------------------------------------------------


def test_a_violation_names_its_property_and_the_rules():
    error = inv.Violation("views-leak-nothing", "player 1 sees a card", ("TG-INFO-1", None))
    assert isinstance(error, AssertionError)
    assert (error.property, error.rules) == ("views-leak-nothing", ("TG-INFO-1",))
    assert str(error) == "views-leak-nothing: player 1 sees a card [TG-INFO-1]"


def test_a_refused_decision_must_cite_a_rule_of_the_game():
    # TG-BET-1: a call before any bet is refused with the rule; an ID of no spec is not enough.
    state = tg.GAME.apply(tg.GAME.new_game(tg.Config(3), 0), tg.Deal((0, 1, 2)))
    inv.other_decisions_are_refused(tg.GAME, state, tg.Move.CALL)
    with pytest.raises(inv.Violation, match=f"{NO_SUCH_RULE} is not a rule of tests/testgame/"):
        inv.other_decisions_are_refused(RefusalCitesNoRuleOfTheSpec(), state, tg.Move.CALL)


@given(start=s.games(tg.GAME))
def test_games_draw_every_option_in_range_and_a_first_player_among_the_players(start):
    # TG-SETUP-1: 3 to 5 players, the first one of them.
    assert 3 <= start.config.players <= 5 and start.first_player in range(start.config.players)
    assert start.decisions == () and tg.GAME.current_player(start.final) == CHANCE


@settings(max_examples=30)
@given(played=s.playthroughs(tg.GAME))
def test_a_playthrough_prints_as_its_replay(testgame, played):
    again = eval(repr(played), {"Playthrough": s.Playthrough, "Deal": tg.Deal, "Move": tg.Move})
    assert again.states == played.states and again.decisions == played.decisions


@settings(max_examples=30)
@given(played=s.finished_games(tg.GAME, options={"players": 4}, first_player=3))
def test_finished_games_end_and_fixed_options_stay_fixed(played):
    assert played.is_over and played.config == tg.Config(4) and played.first_player == 3
    assert len(played.decisions) <= tg.GAME.max_decisions(played.config)


def test_the_strategies_draw_chance_from_the_listed_outcomes():
    state = tg.GAME.new_game(tg.Config(3), 0)
    listed = {deal for deal, _ in tg.GAME.chance_outcomes(state)}

    @settings(max_examples=30, database=None)
    @given(deal=s.decisions(tg.GAME, state))
    def drawn(deal):
        assert deal in listed

    drawn()


def test_fingerprints_see_what_equality_cannot():
    state = tg.GAME.new_game(tg.Config(3), 0)
    before = inv.fingerprint(state)
    object.__setattr__(state, "pot", 4)
    assert inv.fingerprint(state) != before


def test_the_default_bound_is_used_for_a_game_that_declares_none():
    game = registry.get("hanamikoji")
    config = game.configure()
    assert game.max_decisions(config) is None
    inv.games_end_within_a_bound(game, config, 0, random.Random(1))


@pytest.mark.parametrize("name", ["hanamikoji.properties.core.invariants",
                                  "hanamikoji.properties.core.strategies",
                                  "hanamikoji.properties.core.suite",
                                  "hanamikoji.properties.core.machine",
                                  "testgame.game", "testgame.broken"])
def test_docstring_examples(name):
    import doctest
    import importlib

    failures, _ = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert failures == 0
