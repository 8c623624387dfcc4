"""The solver side of every spec model: z3 checks tracked by rule ID, with deadlines.

A :class:`Constraint` is a rule ID (or a hypothesis label) and a z3 formula. :class:`Problem`
adds constraints to a solver with ``assert_and_track`` under the name ``"RULE-ID @ where"``, so an
unsatisfiable check yields an unsat core that decodes to the rule IDs that forbid the situation
(:attr:`Verdict.rules`), the question's own hypotheses apart (:attr:`Verdict.hypotheses`). Every
check has a timeout; a check that z3 cannot decide is ``unknown`` or ``timeout``, never an answer
(:class:`Undecided`); an interrupt (Ctrl-C) during a check is :class:`KeyboardInterrupt`, never a
verdict. Nothing here knows a game.

>>> import z3
>>> problem = Problem()
>>> x = z3.Int("x")
>>> problem.require([Constraint("MK-COMP-1", x <= 18)], "tiles")
>>> problem.require([Constraint("question", x >= 19)], "more than 18")
>>> verdict = problem.check()
>>> verdict.status, verdict.rules, verdict.hypotheses
(<Status.UNSAT: 'unsat'>, ('MK-COMP-1',), ('question @ more than 18',))
"""

from __future__ import annotations

import enum
import re
import time
from collections import defaultdict
from typing import Iterable, Iterator, Sequence

import attrs
import z3

#: Every check gets at most this many milliseconds (less when a query's deadline is nearer).
DEFAULT_TIMEOUT_MS = 9_000

_RULE_ID = re.compile(r"^[A-Z]+(?:-[A-Z]+)*-\d+$")


@attrs.frozen(eq=False)
class Constraint:
    """One rule's formula. ``rule`` is a spec rule ID, or a label for a hypothesis (a query's
    question, or a set derived and certified elsewhere) that is not a rule."""

    rule: str
    expr: z3.BoolRef


def is_rule_id(name: str) -> bool:
    """Whether ``name`` looks like a spec rule ID (``ACT-GIFT-2``), not a hypothesis label.

    >>> is_rule_id("ACT-GIFT-2"), is_rule_id("query")
    (True, False)
    """
    return bool(_RULE_ID.match(name))


def any_of(literals: Sequence[z3.BoolRef]) -> z3.BoolRef:
    """``z3.Or`` of Boolean terms, without z3py's per-argument sort coercion: searches build
    thousands of these clauses, and the coercion would dominate their cost."""
    ctx = literals[0].ctx
    args = (z3.Ast * len(literals))(*[lit.as_ast() for lit in literals])
    return z3.BoolRef(z3.Z3_mk_or(ctx.ref(), len(literals), args), ctx)


def all_of(literals: Sequence[z3.BoolRef]) -> z3.BoolRef:
    """``z3.And`` of Boolean terms, without the coercion (see :func:`any_of`)."""
    ctx = literals[0].ctx
    args = (z3.Ast * len(literals))(*[lit.as_ast() for lit in literals])
    return z3.BoolRef(z3.Z3_mk_and(ctx.ref(), len(literals), args), ctx)



# --- solving -------------------------------------------------------------------------------


class Status(enum.Enum):
    SAT = "sat"
    UNSAT = "unsat"
    UNKNOWN = "unknown"
    TIMEOUT = "timeout"

    def __repr__(self) -> str:
        return f"<Status.{self.name}: {self.value!r}>"


class Undecided(Exception):
    """A check z3 could not decide (``status`` is UNKNOWN or TIMEOUT): no answer may be drawn."""

    def __init__(self, status: Status, detail: str) -> None:
        super().__init__(f"{status.value}: {detail}")
        self.status = status
        self.detail = detail


@attrs.frozen(eq=False)
class Verdict:
    """The outcome of one check: a model when SAT; the unsat core's literal names when UNSAT."""

    status: Status
    model: z3.ModelRef | None = None
    core: tuple[str, ...] = ()
    seconds: float = 0.0

    @property
    def rules(self) -> tuple[str, ...]:
        """The spec rule IDs in the unsat core, sorted."""
        return tuple(sorted({name.split(" @ ")[0] for name in self.core
                             if is_rule_id(name.split(" @ ")[0])}))

    @property
    def hypotheses(self) -> tuple[str, ...]:
        """The core's other members: the question's own hypotheses and certified derived sets."""
        return tuple(sorted({name for name in self.core if not is_rule_id(name.split(" @ ")[0])}))

    def decided(self) -> "Verdict":
        """This verdict if SAT or UNSAT; else raise :class:`Undecided`."""
        if self.status in (Status.SAT, Status.UNSAT):
            return self
        raise Undecided(self.status, "z3 could not decide a check")


class Deadline:
    """A wall-clock budget shared by the checks of one query (seconds from creation)."""

    def __init__(self, seconds: float | None) -> None:
        self._end = None if seconds is None else time.monotonic() + seconds

    def timeout_ms(self) -> int:
        if self._end is None:
            return DEFAULT_TIMEOUT_MS
        left = int((self._end - time.monotonic()) * 1000)
        if left <= 0:
            raise Undecided(Status.TIMEOUT, "the query's time budget ran out")
        return min(DEFAULT_TIMEOUT_MS, left)


class Problem:
    """A z3 solver whose every constraint is tracked under ``"RULE @ where"``.

    With ``cores=False`` the constraints are asserted untracked: an unsatisfiable check then has
    no core, but enumerations run several times faster (no assumption literals).

    ``without`` names rules left out (a weakened rule set): their constraints are never added,
    so a claim that needs one of them can be seen to fail. Only tests and "what if" questions
    use it; :attr:`dropped` lists the rules actually left out.

    >>> x = z3.Int("x")
    >>> weak = Problem(without={"MK-COMP-1"})
    >>> weak.require([Constraint("MK-COMP-1", x <= 18), Constraint("question", x >= 19)], "q")
    >>> weak.check().status, weak.dropped
    (<Status.SAT: 'sat'>, ('MK-COMP-1',))
    """

    def __init__(self, deadline: Deadline | None = None, *, cores: bool = True,
                 without: Iterable[str] = ()) -> None:
        self.solver = z3.SolverFor("QF_LIA")
        self.cores = cores
        if cores:
            self.solver.set("unsat_core", True)
            self.solver.set("core.minimize", True)
        self.deadline = deadline or Deadline(None)
        self.without = frozenset(without)
        self._dropped: set[str] = set()
        self._names: set[str] = set()
        self._scopes: list[set[str]] = []

    @property
    def dropped(self) -> tuple[str, ...]:
        """The rules of ``without`` that a constraint named, and that were left out, sorted."""
        return tuple(sorted(self._dropped))

    def require(self, constraints: Iterable[Constraint], where: str) -> None:
        """Add ``constraints``; the formulas of one rule at one place are tracked together."""
        grouped: dict[str, list[z3.BoolRef]] = defaultdict(list)
        for c in constraints:
            if c.rule in self.without:
                self._dropped.add(c.rule)
                continue
            grouped[c.rule].append(c.expr)
        for rule, exprs in grouped.items():
            name = f"{rule} @ {where}"
            if name in self._names:
                raise ValueError(f"constraint {name!r} is already tracked in this problem")
            self._names.add(name)
            if self.cores:
                self.solver.assert_and_track(z3.And(exprs), z3.Bool(name))
            else:
                self.solver.add(*exprs)

    def add(self, expr: z3.BoolRef) -> None:
        """An untracked constraint: only for blocking clauses during enumeration."""
        self.solver.add(expr)

    def push(self) -> None:
        self.solver.push()
        self._scopes.append(set(self._names))

    def pop(self) -> None:
        self.solver.pop()
        self._names = self._scopes.pop()

    def check(self, *assumptions: z3.BoolRef) -> Verdict:
        """Check, with ``assumptions`` (literals) holding for this check only."""
        timeout_ms = self.deadline.timeout_ms()
        self.solver.set("timeout", timeout_ms)
        start = time.perf_counter()
        answer = self.solver.check(*assumptions)
        seconds = time.perf_counter() - start
        if answer == z3.sat:
            return Verdict(Status.SAT, self.solver.model(), seconds=seconds)
        if answer == z3.unsat:
            core = (tuple(sorted(str(lit) for lit in self.solver.unsat_core())) if self.cores
                    else ())
            return Verdict(Status.UNSAT, core=core, seconds=seconds)
        reason = self.solver.reason_unknown()
        if "interrupted" in reason or (reason == "canceled" and seconds < timeout_ms / 1000 * 0.9):
            # z3 took a Ctrl-C as a cancelled check ("canceled" before the timeout was due, or
            # "interrupted from keyboard"): an interrupt, never a verdict
            raise KeyboardInterrupt(reason)
        status = Status.TIMEOUT if reason in ("timeout", "canceled") else Status.UNKNOWN
        return Verdict(status, seconds=seconds)


def check_hypothesis(problem: Problem, label: str, formula: z3.BoolRef,
                     where: str = "query") -> Verdict:
    """Check ``formula`` against ``problem`` in a scope of its own, tracked as the hypothesis
    ``"hypothesis: label"`` (never a rule ID); undecided raises :class:`Undecided`. The caller
    reads the verdict either way: unsat (the core), or sat (the model)."""
    problem.push()
    try:
        problem.require([Constraint(f"hypothesis: {label}", formula)], where)
        return problem.check().decided()
    finally:
        problem.pop()


# --- enumeration ---------------------------------------------------------------------------


def enumerate_solutions(problem: Problem, atoms: Sequence[z3.BoolRef], limit: int | None = None
                        ) -> Iterator[tuple[z3.ModelRef, tuple[bool, ...]]]:
    """Models of ``problem`` that differ in the truth of ``atoms``, one per distinct valuation,
    each with that valuation.

    Blocking clauses over Boolean atoms (rather than over integer values) keep each new check
    cheap. Raises :class:`Undecided` if a check is undecided; stops after ``limit`` models.
    """
    negated = [z3.Not(a) for a in atoms]
    found = 0
    problem.push()
    try:
        while limit is None or found < limit:
            verdict = problem.check().decided()
            if verdict.status is Status.UNSAT:
                return
            model = verdict.model
            assert model is not None
            values = tuple(z3.is_true(model.eval(a, model_completion=True)) for a in atoms)
            yield model, values
            found += 1
            problem.add(any_of([n if v else a for a, n, v in zip(atoms, negated, values)]))
    finally:
        problem.pop()


def value_atoms(terms: Sequence[z3.ArithRef], domain: Iterable[int]) -> list[z3.BoolRef]:
    """Boolean atoms ``term == v`` for every value ``v`` of a finite ``domain``: blocking on them
    enumerates distinct values of ``terms``."""
    values = tuple(domain)
    return [t == v for t in terms for v in values]
