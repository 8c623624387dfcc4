"""Every z3 check has a deterministic budget, z3's resource limit, and no wall-clock bound unless
the user gives one: the same question gets the same answer on an idle machine and a loaded one
(spec/core/solver.py, docs/queries.md "Budgets")."""

from __future__ import annotations

import doctest
from typing import Any, Callable

import pytest
import z3

from hanamikoji.spec.core import solver
from hanamikoji.spec.core.solver import Constraint, Deadline, Problem, Status, Undecided


def _pigeons(n: int) -> list[Constraint]:
    """n pigeons in n - 1 holes: unsat, and costly for z3 as n grows."""
    put = [[z3.Bool(f"p{i}h{j}") for j in range(n - 1)] for i in range(n)]
    return [Constraint("every pigeon sits", z3.And([z3.Or(row) for row in put])),
            Constraint("one pigeon a hole", z3.And([
                z3.Or(z3.Not(put[a][j]), z3.Not(put[b][j]))
                for j in range(n - 1) for a in range(n) for b in range(a + 1, n)]))]


def _settings(monkeypatch) -> list[tuple[str, object]]:
    seen: list[tuple[str, object]] = []
    for kind in (z3.Solver, z3.Optimize):
        original = kind.set

        def record(self, *args, _original=original, **keys):
            seen.extend(zip(args[::2], args[1::2]))
            seen.extend(keys.items())
            return _original(self, *args, **keys)

        monkeypatch.setattr(kind, "set", record)
    return seen


def test_a_check_gets_the_resource_budget_and_no_clock(monkeypatch):
    seen = _settings(monkeypatch)
    problem = Problem(Deadline())
    problem.require(_pigeons(4), "pigeons")
    assert problem.check().status is Status.UNSAT
    assert ("rlimit", solver.RLIMIT_PER_CHECK) in seen
    assert ("ctrl_c", False) in seen  # z3 must leave SIGINT to Python
    assert not [value for name, value in seen if name == "timeout"]


def test_the_optimiser_gets_the_same_budget(monkeypatch):
    seen = _settings(monkeypatch)
    x = z3.Int("x")
    optimiser = z3.Optimize()
    optimiser.add(x <= 7)
    optimiser.maximize(x)
    assert solver.solve(optimiser, Deadline()) == z3.sat
    assert optimiser.model()[x].as_long() == 7
    assert ("rlimit", solver.RLIMIT_PER_CHECK) in seen and ("ctrl_c", False) in seen
    assert not [value for name, value in seen if name == "timeout"]


def test_a_check_beyond_its_budget_is_unknown_by_its_count_not_by_time():
    # the same tiny budget gives the same "unknown" however long the machine takes
    for _ in range(2):
        problem = Problem(Deadline(rlimit=20_000), cores=False)
        problem.require(_pigeons(9), "pigeons")
        verdict = problem.check()
        assert verdict.status is Status.UNKNOWN
    try:
        verdict.decided()
    except Undecided as undecided:
        assert undecided.status is Status.UNKNOWN
    else:
        raise AssertionError("an undecided check gave an answer")


def test_the_optimiser_beyond_its_budget_is_unknown_and_says_why():
    xs = [z3.Int(f"x{i}") for i in range(30)]
    optimiser = z3.Optimize()
    optimiser.add([z3.And(x >= 0, x <= 20) for x in xs])
    optimiser.add(z3.Distinct(xs[:20]))
    optimiser.maximize(z3.Sum(xs))
    assert solver.solve(optimiser, Deadline(rlimit=5_000)) == z3.unknown
    undecided = solver.unknown(optimiser, "z3 could not optimise", Deadline(rlimit=5_000))
    assert undecided.status is Status.UNKNOWN and "5,000 z3 resource units" in undecided.detail


def test_a_wall_clock_bound_is_only_the_users():
    from hanamikoji.spec.core import queries, verify

    assert Deadline().timeout_ms() is None
    assert queries.QUERY_BUDGET_SECONDS is None
    assert verify.query_budget("hanamikoji") is None and verify.query_budget("maiko") is None
    bounded = Deadline(30)
    assert 0 < bounded.timeout_ms() <= 30_000


def test_the_solver_modules_examples_run():
    failures, tried = doctest.testmod(solver, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0


def _asked(ask: Callable[..., Any], expression: str, **options: Any) -> dict[str, Any]:
    answer = ask(expression, **options).to_json()
    answer.pop("seconds")
    return answer


@pytest.mark.parametrize("game", ["hanamikoji", "maiko"])
def test_a_question_answers_alike_whatever_the_process_asked_z3_before(game):
    """The same question gives the same answer and the same witness game asked first or after
    others (each ``ask`` builds its model in a z3 context of its own): before, z3's models
    followed the terms earlier questions had left in its one main context, and a loaded run
    of the suite once answered "unknown" where a fresh worker answered "possible"."""
    if game == "hanamikoji":
        from hanamikoji.spec.hanamikoji.where import ask

        question, others, options = ("rounds == 2 and charm(0) > charm(1)",
                                     ["geisha(0) == 4", "rounds == 3"], {})
    else:
        from hanamikoji.spec.maiko.where import ask

        question, others, options = ("winners == 2", ["score(0) > 10"], {"players": 3})
    first = _asked(ask, question, **options)
    for other in others:
        ask(other, **options)
    again = _asked(ask, question, **options)
    assert first["answer"] == "possible" and first["witness"] is not None
    assert again == first


def test_a_fresh_context_is_left_for_the_one_before():
    outer = z3.main_ctx()
    with solver.fresh_context() as inner:
        x = z3.Int("x")
        assert x.ctx is inner is z3.main_ctx() and inner is not outer
        with solver.fresh_context() as innermost:
            assert z3.main_ctx() is innermost is not inner
        assert z3.main_ctx() is inner
    assert z3.main_ctx() is outer
    assert z3.simplify(x + 1 - 1).eq(x)  # a term of the inner context stays usable
