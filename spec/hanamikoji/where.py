"""Questions an analyst writes: can a Hanamikoji game end so that an expression holds?

``hanamikoji query --where EXPR [--variant V] [--timeout S] [--json]`` and :func:`ask` answer
from the z3 model (the language is :mod:`hanamikoji.spec.core.expr`; the terms are
:data:`TERMS`):

* **possible**, with a witness game: z3 finds a final marker row, the rounds and the result; a
  game of the search reaches the row (tie rounds make up the rounds), the reference engine replays
  it, and the expression is evaluated again, in plain Python, on the engine's final state;
* **impossible**, with the unsat core: the rule IDs, and the derived sets and the question, which
  are not rules, apart;
* **unknown** when z3 cannot decide within its resource budget (or the ``timeout`` given):
  never reported as either answer.

What "the end of a game" ranges over: a standard game ends at a final row of the search
(:func:`.derive.reachability`, rows with a goal, END-2) after any number of rounds at least the
fewest that reach it (every open row can be kept by a round in which every geisha ties, so a
game may last longer; ``unbounded-game``). An Italian game ends at such a row within three
rounds, or after exactly three rounds at a row without a goal (VAR-IT-1), decided by VAR-IT-2..4.

>>> ask("geisha(0) == 7").answer
'impossible'
>>> found = ask("winner == 0 and geisha(0) == 3")
>>> found.answer, found.witness["result"]["winner"]
('possible', 0)
"""

from __future__ import annotations

import time
from typing import Any

import attrs
import z3

from hanamikoji.engine.hanamikoji import Reason, Result, Rules
from hanamikoji.engine.hanamikoji import charm as charm_of
from hanamikoji.engine.hanamikoji import geisha_count
from hanamikoji.engine.hanamikoji.record import to_record
from hanamikoji.spec.core.expr import ExprError, Term, check, evaluate, parse, translate
from hanamikoji.spec.core.queries import ModelInconsistency, WhereAnswer, WitnessError
from hanamikoji.spec.core.solver import Constraint, Deadline, Status, Undecided, fresh_context

from .derive import Markers, reachability
from .model import NEUTRAL, NO_WINNER, REASON_CODE, decode_result, decode_row

__all__ = ["TERMS", "WhereAnswer", "ask", "ExprError"]

_REASONS = tuple(r.value for r in Reason)

#: The terms of an expression about the end of a Hanamikoji game.
TERMS: tuple[Term, ...] = (
    Term("geisha", "how many geisha player p holds at the end (SCORE-4)", "int", 1, range(2),
         argument="a player"),
    Term("charm", "the charm of the geisha player p holds at the end (SCORE-4)", "int", 1,
         range(2), argument="a player"),
    Term("marker", "where geisha g's victory marker is at the end: none (the centre), 0 or 1",
         "enum", 1, range(7), ("none", 0, 1), argument="a geisha"),
    Term("winner", "the winner: 0, 1, or none (a shared victory)", "enum",
         values=(0, 1, "none")),
    Term("reason", "why the game ended: " + ", ".join(f'"{r}"' for r in _REASONS), "enum",
         values=_REASONS),
    Term("rounds", "how many rounds the game lasted", "int"),
)

FINAL_LABEL = "final rows of a game (derived: the search over marker rows)"


def _within(timeout: float | None) -> str:
    return ("within its resource budget" if timeout is None
            else f"within its resource budget and {timeout:g} s")


@fresh_context()
def ask(expression: str, *, variant: str = "standard", timeout: float | None = None) -> WhereAnswer:
    """Whether a game of ``variant`` can end so that ``expression`` holds (see the module).
    :class:`ExprError` (with the column) for an expression that is not one of the language;
    ``ValueError`` for an unknown variant."""
    rules = Rules.named(variant)
    tree = parse(expression)
    check(tree, TERMS)
    start = time.perf_counter()
    deadline = Deadline(timeout)
    reach = reachability()
    cases = [(False, [(row, r.rounds) for row, r in reach.final])]
    if rules.max_rounds is not None:
        cases.append((True, [(row, r.rounds) for row, r in reach.open]))
    cores: set[str] = set()
    hypotheses: set[str] = set()
    try:
        for at_limit, rows in cases:
            verdict, problem = _check(tree, rows, at_limit=at_limit, limit=rules.max_rounds,
                                      deadline=deadline)
            if verdict.status is Status.SAT:
                witness = _witness(expression, tree, rules, verdict.model, problem)
                return WhereAnswer(expression, rules.name, "possible",
                                   time.perf_counter() - start, witness=witness)
            cores.update(verdict.rules)
            hypotheses.update(h.split(" @ ")[0] for h in verdict.hypotheses)
    except Undecided as undecided:
        return WhereAnswer(expression, rules.name, "unknown", time.perf_counter() - start,
                           note=f"z3 could not decide {_within(timeout)} ({undecided.detail})")
    return WhereAnswer(expression, rules.name, "impossible", time.perf_counter() - start,
                       core=tuple(sorted(cores)), hypotheses=tuple(sorted(hypotheses)))


@attrs.frozen(eq=False)
class _Problem:
    problem: Any
    row: Any
    standing: Any
    rounds: z3.ArithRef


def _check(tree: Any, rows: list[tuple[Markers, int]], *, at_limit: bool, limit: int | None,
           deadline: Deadline) -> tuple[Any, _Problem]:
    """One z3 check: a row of ``rows`` (each with the fewest rounds that reach it), the game
    ended there (by a goal, or ``at_limit`` by VAR-IT-2..4 after exactly ``limit`` rounds), and
    the question."""
    from .findings import row_problem

    rp = row_problem(deadline, at_limit=at_limit)
    s, row = rp.standing, rp.row
    rounds = z3.Int("rounds")
    label = "open rows of a game (derived: the search over marker rows)" if at_limit else \
        FINAL_LABEL
    reached = [z3.And(row.equals(m), rounds >= low) for m, low in rows]
    rp.problem.require([Constraint(label, z3.Or(reached) if reached else z3.BoolVal(False)),
                        Constraint("the game ends there", s.ended)], "the end")
    if limit is not None:
        rp.problem.require([Constraint("VAR-IT-1", rounds == limit if at_limit else
                                       rounds <= limit)], "the round limit")

    def term(name: str, arg: int | None) -> Any:
        if arg is None:  # winner, reason, rounds: the terms without an argument
            return s.winner if name == "winner" else s.reason if name == "reason" else rounds
        if name == "geisha":
            return s.geisha[arg]
        if name == "charm":
            return s.charm[arg]
        return row.markers[arg]

    def encode(name: str, value: Any) -> Any:
        if name == "reason":
            return REASON_CODE[Reason(value)]
        if value == "none":
            return NEUTRAL if name == "marker" else NO_WINNER
        return value

    rp.problem.require([Constraint("the question", translate(tree, TERMS, term, encode))],
                       "the question")
    return rp.problem.check().decided(), _Problem(rp.problem, row, s, rounds)


def _witness(expression: str, tree: Any, rules: Rules, model: z3.ModelRef,
             p: _Problem) -> dict[str, Any]:
    """A game that ends where the model says, replayed in the engine, and the expression
    evaluated again on the engine's final state."""
    from .findings import _plans, _tie_sides
    from .witness import Witness

    row = decode_row(model, p.row)
    rounds = model.eval(p.rounds, model_completion=True).as_long()
    decoded = decode_result(model, p.standing)
    if decoded is None:
        raise ModelInconsistency(f"the model ends no game at {row}")
    result = Result(*decoded)
    path = reachability().path(row)
    extra = rounds - len(path)
    if extra < 0:
        raise ModelInconsistency(f"row {row} is reached in {len(path)} rounds, not {rounds}")
    tie = _tie_sides()
    # tie rounds keep an open row: before the last round if it ends the game, else at the end
    ends_here = dict(reachability().final).get(row) is not None
    sides = (path[:-1] + (tie,) * extra + path[-1:]) if ends_here and path else \
        path + (tie,) * extra
    witness = Witness.of_plans(f"a game where {expression}", rules, _plans(sides), row, result)
    try:
        state = witness.confirm()
    except WitnessError as error:
        raise ModelInconsistency(str(error)) from None
    final = state.scores[-1].markers
    end = state.result
    assert end is not None  # confirmed: the engine reaches the model's result

    def value(name: str, arg: int | None) -> Any:
        if arg is None:  # winner, reason, rounds: the terms without an argument
            if name == "winner":
                return "none" if end.winner is None else end.winner
            return end.reason.value if name == "reason" else len(state.scores)
        if name == "geisha":
            return geisha_count(final, arg)
        if name == "charm":
            return charm_of(final, arg)
        return "none" if final[arg] is None else final[arg]

    if not evaluate(tree, value):
        raise ModelInconsistency(f"the witness game ends at {final} ({end}), where "
                                 f"{expression!r} does not hold")
    return {"markers": list(final), "rounds": len(state.scores),
            "result": {"winner": end.winner, "reason": end.reason.value},
            "record": to_record(state)}
