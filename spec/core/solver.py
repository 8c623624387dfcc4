"""The solver side of every spec model: z3 checks tracked by rule ID, with deadlines.

A :class:`Constraint` is a rule ID (or a hypothesis label) and a z3 formula. :class:`Problem`
adds constraints to a solver with ``assert_and_track`` under the name ``"RULE-ID @ where"``, so an
unsatisfiable check yields an unsat core that decodes to the rule IDs that forbid the situation
(:attr:`Verdict.rules`), the question's own hypotheses apart (:attr:`Verdict.hypotheses`).

Every check, by :class:`Problem` or by z3's optimiser (:func:`solve`), has a deterministic budget:
z3's resource limit, :data:`RLIMIT_PER_CHECK` units of z3's own work counter ("rlimit"), which
counts the same on a fast machine and on a loaded one, so a query's answer never depends on the
machine's load. A wall-clock bound (:class:`Deadline` with seconds) is only the user's outer
bound, off by default. A check that z3 cannot decide within its budget is ``unknown`` (or
``timeout`` when the user's wall-clock bound ran out), never an answer (:class:`Undecided`).

An interrupt (Ctrl-C) during a check is :class:`KeyboardInterrupt`, never a verdict: z3 is told
not to take SIGINT itself (its ``ctrl_c`` parameter off, else it would turn the key into a
cancelled check, "unknown", and Python would never see it), and the check runs in a worker
thread while the main thread waits, where Python's handler runs as soon as the key is pressed;
the check is then cancelled (``Z3_interrupt``) and its outcome discarded. Nothing here knows a
game.

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

import contextlib
import enum
import re
import threading
import time
from collections import defaultdict
from typing import Any, Iterable, Iterator, Sequence

import attrs
import z3

from hanamikoji.runtime.processes import sigint_deferred, sigint_to_main_thread

#: z3's resource limit of every check: units of z3's deterministic work counter (the "rlimit
#: count" statistic of a solver), not time, so a check answers alike on an idle machine and a
#: loaded one. Sized by measuring (:class:`measured`, run with the limit off) every check of
#: both games' catalogues (``hanamikoji verify``; the largest used 5.9 million units) and of the
#: tests that ask z3 (tests/test_where.py, tests/test_queries_either_way.py,
#: tests/test_model_{reach,round}.py, tests/maiko/test_maiko_{reach,where,tokens,ending,
#: either_way}.py; the largest, a Maiko ``--where`` example, used 24.2 million). A check's count
#: varied with what the process had asked z3 before (up to twice, seen) until each question got
#: a context of its own (:func:`fresh_context`); the budget is about
#: eight times the largest: a check the catalogue or the tests make answers well inside it, and
#: one that exhausts it is far beyond them ("unknown"). How long that takes depends on the
#: problem (z3 counts some work more finely than other), hence the user's wall-clock
#: ``--timeout`` as an outer bound.
RLIMIT_PER_CHECK = 200_000_000

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
    """The budget of one query's checks: ``rlimit`` z3 resource units for each check (0: no
    limit), and, if ``seconds`` is given, a wall-clock bound shared by all of them (the user's
    outer bound; None, the default: none)."""

    def __init__(self, seconds: float | None = None, *, rlimit: int | None = None) -> None:
        self._end = None if seconds is None else time.monotonic() + seconds
        self.rlimit = RLIMIT_PER_CHECK if rlimit is None else rlimit

    def timeout_ms(self) -> int | None:
        """The milliseconds left of the wall-clock bound (None: there is none); raises
        :class:`Undecided` (timeout) once it has run out."""
        if self._end is None:
            return None
        left = int((self._end - time.monotonic()) * 1000)
        if left <= 0:
            raise Undecided(Status.TIMEOUT, "the query's time budget ran out")
        return left

    def expired(self) -> bool:
        """Whether the wall-clock bound, if any, has run out."""
        return self._end is not None and time.monotonic() >= self._end

    def configure(self, engine: Any) -> int | None:
        """Set ``engine``'s (a z3 Solver or Optimize) budget for its next check, and z3's own
        SIGINT handling off (:func:`solve` takes Ctrl-C); the wall-clock milliseconds set, if
        any."""
        timeout_ms = self.timeout_ms()
        engine.set("ctrl_c", False)
        engine.set("rlimit", self.rlimit)
        if timeout_ms is not None:
            engine.set("timeout", timeout_ms)
        return timeout_ms


# --- running a check so that Ctrl-C stays an interrupt -----------------------------------

_usage: list[int] | None = None


# z3's main context, made now and whole: a Ctrl-C that lands inside ``z3.Context.__init__`` (it
# is made on first use, in whatever builds the first formula) leaves a context without its
# ``owner``, whose destructor then prints a traceback after the interrupt's one line.
with sigint_deferred():
    z3.main_ctx()


@contextlib.contextmanager
def fresh_context() -> Iterator[z3.Context]:
    """Within this block (or the function it decorates), z3's main context is a new one: every
    formula built without an explicit context, and every solver, lives there.

    Why: z3 numbers each term of a context as it is made, and its heuristics (which variable to
    split on, which model to give) follow those numbers, so a check in a context that earlier
    questions have filled can take another path (more resource units, another model) than the
    same check in an empty one. A question asked in a context of its own answers the same, with
    the same witness, whatever the process asked z3 before: in ``verify`` or alone, first or
    last, in any test worker. The previous main context comes back afterwards; terms made
    inside keep their own context alive, so a result that holds some stays usable (with terms of
    that context only).

    >>> with fresh_context() as inner:
    ...     z3.Int("x").ctx is inner, z3.main_ctx() is inner
    (True, True)
    >>> z3.main_ctx() is inner
    False
    """
    with sigint_deferred():  # whole, or not made at all (see the main context above)
        context = z3.Context()
    previous = z3.z3._main_ctx
    z3.z3._main_ctx = context
    try:
        yield context
    finally:
        z3.z3._main_ctx = previous


def _rlimit_count(engine: Any) -> int:
    statistics = engine.statistics()
    return int(statistics.get_key_value("rlimit count")) if "rlimit count" in statistics.keys() \
        else 0


def solve(engine: Any, deadline: Deadline, *assumptions: z3.BoolRef) -> z3.CheckSatResult:
    """``engine.check(*assumptions)`` (a z3 Solver or Optimize) within ``deadline``'s budget,
    with Ctrl-C an interrupt: the check runs in a worker thread and the main thread waits; a
    KeyboardInterrupt while it waits cancels the check (``Z3_interrupt``, repeated until the
    worker returns, since a cancel that comes before the check has begun is not kept) and is
    raised again, the check's outcome never read."""
    deadline.configure(engine)
    before = _rlimit_count(engine) if _usage is not None else 0
    if threading.current_thread() is not threading.main_thread():
        answer = engine.check(*assumptions)  # no signal reaches this thread: nothing to wait for
    else:
        outcome: dict[str, Any] = {}
        done = threading.Event()

        def check() -> None:
            try:
                outcome["answer"] = engine.check(*assumptions)
            except BaseException as error:  # given to the caller below
                outcome["error"] = error
            finally:
                done.set()

        # A daemon thread: if a Ctrl-C lands before the check can be cancelled, the process
        # still ends (a pool's worker would be joined at exit, and a check that never ends
        # would hang it).
        thread = threading.Thread(target=check, name="z3-check", daemon=True)
        try:
            with sigint_to_main_thread():
                thread.start()
            done.wait()
        except KeyboardInterrupt:
            while thread.is_alive():
                engine.ctx.interrupt()
                try:
                    done.wait(0.05)
                except KeyboardInterrupt:  # pressed again while the check winds down
                    continue
            raise
        if "error" in outcome:
            raise outcome["error"]
        answer = outcome["answer"]
    if _usage is not None:
        _usage.append(_rlimit_count(engine) - before)
    return answer


def unknown(engine: Any, what: str, deadline: Deadline) -> Undecided:
    """Why ``engine``'s last check (within ``deadline``) is undecided, as :class:`Undecided`:
    TIMEOUT when the user's wall-clock bound ran out, UNKNOWN otherwise (the resource budget,
    or z3's own limits). z3 says "canceled" for both the budget and the clock in some of its
    solvers: the clock is read to tell them apart."""
    reason = engine.reason_unknown()
    if reason == "timeout" or (reason == "canceled" and deadline.expired()):
        return Undecided(Status.TIMEOUT, f"{what}: {reason}")
    return Undecided(Status.UNKNOWN, f"{what}: {reason} (the budget is {deadline.rlimit:,} "
                     "z3 resource units a check)")


class measured:
    """Record how many z3 resource units each check uses, while in this context: ``with
    measured() as used: ...`` then ``max(used)``. How :data:`RLIMIT_PER_CHECK` was sized."""

    def __enter__(self) -> list[int]:
        global _usage
        _usage = []
        return _usage

    def __exit__(self, *exc: Any) -> None:
        global _usage
        _usage = None


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
        start = time.perf_counter()
        answer = solve(self.solver, self.deadline, *assumptions)
        seconds = time.perf_counter() - start
        if answer == z3.sat:
            return Verdict(Status.SAT, self.solver.model(), seconds=seconds)
        if answer == z3.unsat:
            core = (tuple(sorted(str(lit) for lit in self.solver.unsat_core())) if self.cores
                    else ())
            return Verdict(Status.UNSAT, core=core, seconds=seconds)
        return Verdict(unknown(self.solver, "z3 could not decide a check", self.deadline).status,
                       seconds=seconds)


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
