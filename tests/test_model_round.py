"""The z3 round model against independent enumeration and against the engine.

Counts from the model (round-outcome-pairs, round-favour-patterns, the local pieces of the round
relation) are checked against a plain-Python enumeration written here, which knows only the
deck (COMP-2) and that each side holds 8 cards, a fact itself checked against engine play.
The two directions of "the model and the engine check each other" are here too: sides of rounds
played by the engine are models of the round constraints, and models of the round constraints
(decoded into deals and actions by spec/witness.py) are rounds the engine plays.
"""

from __future__ import annotations

import functools
import random

import pytest
import z3
from hypothesis import given, strategies as st

from hanamikoji.engine.hanamikoji import STANDARD, ITALIAN_THREE_ROUNDS, replay, score_markers
from hanamikoji.engine.hanamikoji.seeded import play_game
from hanamikoji.spec.hanamikoji import derive, model
from hanamikoji.spec.hanamikoji.queries import by_name
from hanamikoji.spec.hanamikoji.witness import round_decisions

from hanamikoji.spec.hanamikoji.confirm import enumerated_pairs
from hanamikoji.properties.core.cite import checks

SIDE = 8  # checked against the engine in test_engine_sides_hold_eight_cards


@checks("SCORE-1")
def test_engine_sides_hold_eight_cards():
    """SCORE-1, ACT-*: in engine play every side holds exactly 8 cards at scoring."""
    sizes = {sum(side) for i in range(30) for score in play_game(11, i, STANDARD).scores
             for side in score.sides}
    assert sizes == {SIDE}


def test_round_outcome_pairs_matches_plain_enumeration():
    answer = by_name("round-outcome-pairs").run()
    assert answer.status == "answered"
    assert answer.answer == len(enumerated_pairs())


def test_round_relation_local_pieces_match_plain_enumeration():
    relation = derive.round_relation()
    for g in range(7):
        expected = sorted({(a[g], b[g]) for a, b in enumerated_pairs()})
        assert list(relation.local[g]) == expected
    assert relation.totals == ((SIDE, SIDE),)


@checks("SCORE-2", "SCORE-3")
def test_round_favour_patterns_match_plain_enumeration():
    """SCORE-2, SCORE-3: the patterns z3 enumerates are those of the enumerated pairs."""
    expected = {score_markers((None,) * 7, a, b) for a, b in enumerated_pairs()}
    found = derive.favour_patterns(derive.round_relation())
    assert set(found) == expected
    assert by_name("round-favour-patterns").run().answer == len(expected)


def test_max_round_wins_matches_plain_enumeration():
    best = max(sum(1 for x, y in zip(a, b) if x > y) for a, b in enumerated_pairs())
    assert by_name("max-round-wins").run().answer == best


def _allowed(sides) -> bool:
    return derive.plan_for_sides(sides) is not None


@checks("SCORE-1", "SCORE-2", "SCORE-3")
@given(seed=st.integers(0, 2**32 - 1), italian=st.booleans())
def test_engine_rounds_are_models_of_the_round_constraints(seed, italian):
    """Engine -> model: every round the engine scores (sides with secrets) satisfies DEAL-*,
    TURN-*, ACT-* and SCORE-1, and its marker row satisfies SCORE-2 and SCORE-3."""
    rules = ITALIAN_THREE_ROUNDS if italian else STANDARD
    state = play_game(seed, 0, rules)
    before = (None,) * 7
    step = _step()
    for score in state.scores:
        assert _allowed(score.sides), score
        step.problem.push()
        step.problem.require([model.Constraint("engine", z3.And(
            step.before.equals(before), step.after.equals(score.markers),
            *[x == v for x, v in zip(step.a + step.b, score.sides[0] + score.sides[1])]))],
            "engine")
        verdict = step.problem.check()
        step.problem.pop()
        assert verdict.status is model.Status.SAT, (before, score)
        before = score.markers


@functools.cache
def _step() -> derive.Step:
    return derive.Step(derive.round_relation(), None, require_open=True)


def test_model_rejects_sides_the_rules_forbid():
    """The round model is not vacuous: 9 cards on a side, more cards of a geisha on one side
    than she has, or more on both sides together, are unsat; a neighbour is sat."""
    assert not _allowed(((2, 2, 1, 1, 1, 1, 1), (0, 0, 1, 1, 1, 1, 3)))  # 9 and 7 cards
    assert not _allowed(((3, 0, 0, 1, 1, 1, 2), (0, 2, 2, 1, 1, 1, 1)))  # 3 of geisha 0
    assert not _allowed(((0, 0, 0, 1, 1, 3, 3), (1, 1, 1, 0, 0, 1, 4)))  # 7 of geisha 6
    assert _allowed(((0, 0, 0, 1, 1, 3, 3), (1, 1, 1, 1, 1, 1, 2)))


def test_unsat_core_decodes_to_rule_ids():
    problem, r = derive.round_problem()
    problem.require([model.Constraint("hypothesis", z3.Sum(list(r.sides[0])) == 9)], "query")
    verdict = problem.check()
    assert verdict.status is model.Status.UNSAT
    assert {"ACT-SECRET-1", "ACT-GIFT-1", "ACT-COMP-1", "SCORE-1"} <= set(verdict.rules)
    assert all(model.is_rule_id(rule) for rule in verdict.rules)
    assert verdict.hypotheses == ("hypothesis @ query",)


@pytest.mark.parametrize("index", range(25))
def test_model_rounds_replay_in_the_engine(index):
    """Model -> engine: an outcome drawn from the enumeration, solved by the full round model,
    decoded into a deal and decisions (spec/witness.py), is played by the engine and scores
    exactly the sides the model said."""
    sides = random.Random(index).choice(enumerated_pairs())
    plan = derive.plan_for_sides(sides)
    assert plan is not None and plan.sides == sides
    starter = index % 2
    deal, decisions = round_decisions(plan, starter)
    state = replay((deal,) + decisions, STANDARD, first_player=starter)
    assert state.scores[0].sides == sides
    assert state.scores[0].markers == score_markers((None,) * 7, *sides)


def test_a_query_out_of_time_reports_timeout_not_an_answer():
    answer = by_name("both-eleven-charm").run(budget_seconds=0)
    assert answer.status == "timeout"
    assert answer.answer is None and not answer.proofs


def test_undecided_check_raises():
    problem = model.Problem(model.Deadline(0))  # a bound already run out: undecided at once
    with pytest.raises(model.Undecided) as caught:
        problem.check()
    assert caught.value.status is model.Status.TIMEOUT
