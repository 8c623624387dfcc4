"""Sets derived from the model: what one round can put on the table, and which marker rows a game
can reach. Every set is computed by z3 from the constraints of :mod:`.model`.

**The round relation.** Enumerating the 122,597 outcomes of a round one model at a time is far
too slow, so :func:`round_relation` decomposes the round model by geisha, in three z3 steps:

1. *Local pieces.* For each geisha g, z3 enumerates every pair (A[g], B[g]) that the full round
   model allows (A: player 0's side, B: player 1's). These are exact projections: every model of
   the round has (A[g], B[g]) in the set of geisha g.
2. *Totals.* z3 enumerates every pair (sum A, sum B) that the full round model allows.
3. *Completeness.* Steps 1 and 2 give necessary conditions. The certificate shows they are
   sufficient: for symbolic sides (A, B) that satisfy them, :func:`_construct_round` builds every
   place of a round (who holds which cards, which set was taken, ...) as a z3 term of (A, B), and
   z3 proves that no such (A, B) makes any rule of :func:`.model.round_constraints` false. A
   construction that failed for even one pair would make the check satisfiable, and the
   relation would be reported as uncertified, not used.

The outcomes of a round are then exactly the tuples built from the local pieces whose totals
are allowed, and counting them is a small dynamic programme over the geisha
(:meth:`RoundRelation.count_pairs`).

**Reachable rows.** :func:`reachability` runs a breadth-first search over marker rows in which
each step is a z3 query: given the rows of the frontier, enumerate every row one round's scoring
can lead to (SCORE-2, SCORE-3, with the sides ranging over the certified round relation), and
whether it ends the game (END-2..4).
"""

from __future__ import annotations

import functools
import time
from typing import Callable, Sequence, TypeVar

import attrs
import z3

from hanamikoji.engine.hanamikoji.cards import CHARM, GEISHA
from hanamikoji.engine.hanamikoji.rules import Reason
from hanamikoji.spec.core.solver import fresh_context

from .model import (
    GIFT_TAKEN_SIZE,
    REMOVED_SIZE,
    SECRET_SIZE,
    SET_SIZE,
    TRADE_OFF_SIZE,
    TURNS_EACH,
    Components,
    Constraint,
    Counts,
    Deadline,
    Problem,
    RoundPlan,
    RoundVars,
    Row,
    Standing,
    Status,
    Undecided,
    any_of,
    component_constraints,
    decode_counts,
    decode_result,
    decode_round,
    decode_row,
    row_of_atoms,
    enumerate_solutions,
    goal_constraints,
    result_constraints,
    round_constraints,
    row_constraints,
    sides_constraint,
    standing_constraints,
    start_constraints,
    update_constraints,
    value_atoms,
)

Markers = tuple["int | None", ...]
Sides = tuple[tuple[int, ...], tuple[int, ...]]
START: Markers = (None,) * len(GEISHA)
RELATION_LABEL = "certified round relation"


# --- one round -----------------------------------------------------------------------------


def round_problem(deadline: Deadline | None = None, tag: str = "round", *, cores: bool = True,
                  without: Sequence[str] = ()) -> tuple[Problem, RoundVars]:
    """A problem holding the components and one round's rules (less the rules ``without``)."""
    problem = Problem(deadline, cores=cores, without=without)
    comp = Components.fresh()
    problem.require(component_constraints(comp), "components")
    r = RoundVars.fresh(tag)
    problem.require(round_constraints(r, comp), tag)
    return problem, r


def plan_for_sides(sides: Sides, deadline: Deadline | None = None) -> RoundPlan | None:
    """A round whose scoring shows ``sides``, decoded from a z3 model; None if the rules forbid
    it (raises :class:`Undecided` if z3 cannot tell)."""
    problem, r = round_problem(deadline)
    problem.require([sides_constraint(r, sides)], "query")
    verdict = problem.check().decided()
    return None if verdict.status is Status.UNSAT else decode_round(verdict.model, r)


@attrs.frozen
class RoundRelation:
    """What one round's scoring can show: ``local[g]`` the allowed (A[g], B[g]) pairs, ``totals``
    the allowed (sum A, sum B); certified complete (see the module docstring)."""

    local: tuple[tuple[tuple[int, int], ...], ...]
    totals: tuple[tuple[int, int], ...]
    checks: int
    seconds: float

    def count_pairs(self) -> int:
        """How many (A, B) the relation holds: a dynamic programme over geisha on the totals."""
        partial: dict[tuple[int, int], int] = {(0, 0): 1}
        for pairs in self.local:
            step: dict[tuple[int, int], int] = {}
            for (sa, sb), n in partial.items():
                for a, b in pairs:
                    key = (sa + a, sb + b)
                    step[key] = step.get(key, 0) + n
            partial = step
        return sum(partial.get(t, 0) for t in self.totals)

    def constraints(self, sides: tuple[Counts, Counts]) -> list[Constraint]:
        """``sides`` is one round's outcome (a hypothesis, labelled as certified, not a rule).

        A local piece that is exactly the lattice triangle a, b >= 0, a + b <= k is written as
        those three inequalities, which z3 handles faster than the list of its points.
        """
        a, b = sides
        local = []
        for g in GEISHA:
            k = _triangle(self.local[g])
            local.append(z3.And(a[g] >= 0, b[g] >= 0, a[g] + b[g] <= k) if k is not None else
                         z3.Or([z3.And(a[g] == x, b[g] == y) for x, y in self.local[g]]))
        total = z3.Or([z3.And(z3.Sum(list(a)) == x, z3.Sum(list(b)) == y) for x, y in self.totals])
        return [Constraint(RELATION_LABEL, z3.And(*local, total))]


def _triangle(pairs: tuple[tuple[int, int], ...]) -> int | None:
    """k if ``pairs`` is exactly {(a, b): a, b >= 0, a + b <= k}, else None."""
    k = max((a + b for a, b in pairs), default=-1)
    points = {(a, b) for a in range(k + 1) for b in range(k + 1 - a)}
    return k if k >= 0 and set(pairs) == points else None


def _clamp_overlap(lo: z3.ArithRef, hi: z3.ArithRef, start: int, end: int) -> z3.ArithRef:
    """|[lo, hi) ∩ [start, end)| as a z3 term."""
    top = z3.If(hi < end, hi, end)
    bottom = z3.If(lo > start, lo, start)
    return z3.If(top > bottom, top - bottom, 0)


def _split(counts: Sequence[z3.ArithRef], sizes: Sequence[int]) -> list[Counts]:
    """Lay the cards of ``counts`` out in geisha order and cut them into parts of ``sizes``."""
    parts: list[list[z3.ArithRef]] = [[] for _ in sizes]
    before: z3.ArithRef = z3.IntVal(0)
    for g in GEISHA:
        after = before + counts[g]
        start = 0
        for j, n in enumerate(sizes):
            parts[j].append(_clamp_overlap(before, after, start, start + n))
            start += n
        before = after
    return [tuple(part) for part in parts]


def _plus(*rows: Counts) -> Counts:
    return tuple(z3.Sum([row[g] for row in rows]) for g in GEISHA)


def _construct_round(a: Counts, b: Counts, comp: Components) -> RoundVars:
    """Every place of a round as a z3 term of the sides (a, b): the certificate's construction.

    Each side's cards, in geisha order, fill in turn the owner's secret, the two gift cards they
    keep, the card they took from the opponent's gift, the competition set they keep, and the set
    they took; the cards on neither side fill the removed card and the two trade-offs. Every
    player's competition has the taken set second. A player is dealt their secret, trade-off and
    gift cards and draws their competition (played last, see :mod:`.witness`).
    """
    own = [_split(side, (SECRET_SIZE, 2, GIFT_TAKEN_SIZE, SET_SIZE, SET_SIZE)) for side in (a, b)]
    unscored = tuple(comp.items[g] - a[g] - b[g] for g in GEISHA)
    removed, trade0, trade1 = _split(unscored, (REMOVED_SIZE, TRADE_OFF_SIZE, TRADE_OFF_SIZE))
    trade = (trade0, trade1)
    secret, kept, won_gift, set_kept, won_set = ((own[0][j], own[1][j]) for j in range(5))
    gift_taken = (won_gift[1], won_gift[0])
    gifts = _each(lambda p: _plus(kept[p], gift_taken[p]))
    sets = _each(lambda p: (set_kept[p], won_set[1 - p]))
    # TURN-3 with ACT-*-1: the six dealt cards are the secret, trade-off and gift; the four
    # drawn cards are the competition, played last.
    hands = _each(lambda p: _plus(secret[p], trade[p], gifts[p]))
    draws = _each(lambda p: _plus(*sets[p]))
    return RoundVars(
        removed=removed, hands=hands, draws=draws,
        turns=(z3.IntVal(TURNS_EACH), z3.IntVal(TURNS_EACH)),
        secrets=secret, trade_offs=trade, gifts=gifts, gift_taken=gift_taken,
        sets=sets, set_taken=(z3.BoolVal(True), z3.BoolVal(True)),
        revealed=secret, gift_kept=kept, won_gift=won_gift, set_kept=set_kept,
        won_set=won_set, sides=(a, b))


_T = TypeVar("_T")


def _each(place: Callable[[int], _T]) -> tuple[_T, _T]:
    """Player 0's and player 1's ``place``."""
    return (place(0), place(1))


def _sum_atoms(r: RoundVars) -> tuple[z3.ArithRef, z3.ArithRef]:
    return z3.Sum(list(r.sides[0])), z3.Sum(list(r.sides[1]))


@functools.cache
@fresh_context()
def round_relation() -> RoundRelation:
    """The certified round relation (module docstring), computed once per process. Each check
    has the default timeout; raises :class:`Undecided` if one is undecided, and
    :class:`Uncertified` if the completeness proof fails."""
    start = time.perf_counter()
    deadline = Deadline(None)
    problem, r = round_problem(deadline, cores=False)
    checks = 0
    local = []
    for g in GEISHA:
        a, b = r.sides[0][g], r.sides[1][g]
        pairs: set[tuple[int, int]] = set()
        for model, _ in enumerate_solutions(problem, value_atoms((a, b), range(CHARM[g] + 1))):
            x, y = decode_counts(model, (a, b))
            pairs.add((x, y))
            checks += 1
        checks += 1
        local.append(tuple(sorted(pairs)))
    sa, sb = _sum_atoms(r)
    totals: set[tuple[int, int]] = set()
    for model, _ in enumerate_solutions(problem, value_atoms((sa, sb), range(sum(CHARM) + 1))):
        x, y = decode_counts(model, (sa, sb))
        totals.add((x, y))
        checks += 1
    checks += 1
    relation = RoundRelation(tuple(local), tuple(sorted(totals)), checks, 0.0)

    # Completeness: no (A, B) allowed by the relation breaks a rule of the constructed round.
    # One check per conjunct: z3 proves many small facts much faster than their conjunction.
    proof = Problem(deadline, cores=False)
    comp = Components.fresh()
    proof.require(component_constraints(comp), "components")
    a = tuple(z3.Int(f"A[{g}]") for g in GEISHA)
    b = tuple(z3.Int(f"B[{g}]") for g in GEISHA)
    proof.require(relation.constraints((a, b)), "candidate")
    for index, (rule, part) in enumerate(_conjuncts(round_constraints(_construct_round(a, b, comp),
                                                                      comp))):
        proof.push()
        proof.require([Constraint("negated", z3.Not(part))], f"{rule} #{index}")
        verdict = proof.check().decided()
        proof.pop()
        checks += 1
        if verdict.status is not Status.UNSAT:
            raise Uncertified(
                f"the round relation's completeness certificate fails {rule} for sides "
                f"{decode_counts(verdict.model, a)} / {decode_counts(verdict.model, b)}")
    return attrs.evolve(relation, checks=checks, seconds=time.perf_counter() - start)


def _conjuncts(constraints: Sequence[Constraint]) -> list[tuple[str, z3.BoolRef]]:
    """Each constraint's formula split at its top-level conjunctions."""
    out = []
    for c in constraints:
        todo = [c.expr]
        while todo:
            expr = todo.pop()
            if z3.is_and(expr):
                todo.extend(reversed(expr.children()))
            else:
                out.append((c.rule, expr))
    return out


class Uncertified(Undecided):
    """A derived set could not be certified: the model's answer is not available (reported
    as "unknown", like any check z3 cannot decide)."""

    def __init__(self, detail: str) -> None:
        super().__init__(Status.UNKNOWN, detail)


@functools.cache
@fresh_context()
def favour_patterns(relation: RoundRelation) -> tuple[tuple[int | None, ...], ...]:
    """SCORE-2, SCORE-3: every row R one round can produce (R[g] = 0 or 1 for the player with
    more items of geisha g, None for equal), by z3 enumeration over the certified relation."""
    problem = Problem(cores=False)
    a = tuple(z3.Int(f"A[{g}]") for g in GEISHA)
    b = tuple(z3.Int(f"B[{g}]") for g in GEISHA)
    problem.require(relation.constraints((a, b)), "round")
    atoms = [x > y for x, y in zip(a, b)] + [y > x for x, y in zip(a, b)]
    patterns = {row_of_atoms(values) for _, values in enumerate_solutions(problem, atoms)}
    return tuple(sorted(patterns, key=_row_key))


def _row_key(row: Markers) -> tuple[int, ...]:
    return tuple(-1 if m is None else m for m in row)


# --- reachable marker rows -----------------------------------------------------------------


@attrs.frozen
class Reached:
    """How a row was first reached: after ``rounds`` rounds, and the result if the game ends
    there. ``model`` is the z3 model of the step that reached it (parent row and sides)."""

    rounds: int
    result: tuple[int | None, Reason] | None = None
    model: z3.ModelRef | None = attrs.field(default=None, eq=False, repr=False)


@attrs.frozen
class Reachability:
    """Open rows (a game can stand there at the start of a round, the start included) and final
    rows (a standard game ends there), each with how it was first reached."""

    open: tuple[tuple[Markers, Reached], ...]
    final: tuple[tuple[Markers, Reached], ...]
    checks: int
    seconds: float
    step: "Step" = attrs.field(eq=False, repr=False)

    def path(self, row: Markers) -> tuple[Sides, ...]:
        """The sides of each round of a shortest game that reaches ``row``."""
        index = dict(self.open) | dict(self.final)
        steps: list[Sides] = []
        while (model := index[row].model) is not None:
            steps.append((decode_counts(model, self.step.a), decode_counts(model, self.step.b)))
            row = decode_row(model, self.step.before)
        return tuple(reversed(steps))


class Step:
    """One round from a row ``before`` to ``after``, with the sides on the certified relation.

    With ``require_open`` the problem also states END-2 for ``before`` (no goal reached, so the
    game goes on). The search leaves it out: its frontier holds only rows that the previous
    layer found open, and the redundant constraint would slow every check.
    """

    def __init__(self, relation: RoundRelation, deadline: Deadline | None, *,
                 cores: bool = False, require_open: bool = True) -> None:
        self.problem = Problem(deadline, cores=cores)
        comp = Components.fresh()
        self.problem.require(component_constraints(comp), "components")
        self.before, self.after = Row.fresh("before"), Row.fresh("after")
        self.a = tuple(z3.Int(f"A[{g}]") for g in GEISHA)
        self.b = tuple(z3.Int(f"B[{g}]") for g in GEISHA)
        self.problem.require(relation.constraints((self.a, self.b)), "round")
        self.problem.require(row_constraints(self.before), "before")
        self.problem.require(row_constraints(self.after), "after")
        self.problem.require(update_constraints(self.before, (self.a, self.b), self.after),
                             "scoring")
        self.was = Standing.fresh("before", comp)
        self.now = Standing.fresh("after", comp)
        if require_open:
            self.problem.require(standing_constraints(self.was, self.before)
                                 + goal_constraints(self.was)
                                 + [Constraint("END-2", z3.Not(z3.Or(*self.was.goal)))], "before")
        self.problem.require(standing_constraints(self.now, self.after) + goal_constraints(self.now)
                             + result_constraints(self.now, self.after, at_limit=False), "after")

def _member(row: Row, rows: Sequence[Markers]) -> z3.BoolRef:
    return any_of([row.equals(m) for m in rows])


@functools.cache
@fresh_context()
def reachability() -> Reachability:
    """Breadth-first search over marker rows, each layer's successors enumerated by z3.

    A row first found at layer d is reached in d rounds and no fewer. Every open row is also the
    start of a round that ends with the same row (the all-tie round, see the query
    ``unbounded-game``), so the open rows are also the rows a game can stand in after exactly k
    rounds, for any k at least their depth.
    """
    start = time.perf_counter()
    deadline = Deadline(None)
    relation = round_relation()
    step = Step(relation, deadline, require_open=False)
    opened: dict[Markers, Reached] = {START: Reached(0)}
    final: dict[Markers, Reached] = {}
    frontier = [START]
    depth, checks = 0, 0
    problem = step.problem
    while frontier:
        depth += 1
        problem.push()
        if frontier == [START]:
            problem.require(start_constraints(step.before), "start")  # COMP-4
        else:
            problem.require([Constraint("frontier", _member(step.before, frontier))],
                            f"layer {depth}")
        for seen in list(opened) + list(final):
            problem.add(step.after.differs(seen))
        found: list[Markers] = []
        for model, values in enumerate_solutions(problem, step.after.atoms()):
            checks += 1
            row = row_of_atoms(values)
            result = decode_result(model, step.now)
            (final if result is not None else opened)[row] = Reached(depth, result, model)
            if result is None:
                found.append(row)
        checks += 1
        problem.pop()
        frontier = found
    key = lambda item: _row_key(item[0])
    return Reachability(tuple(sorted(opened.items(), key=key)),
                        tuple(sorted(final.items(), key=key)), checks,
                        time.perf_counter() - start, step)


__all__ = ["RoundRelation", "Reachability", "Reached", "Step", "Uncertified", "favour_patterns",
           "plan_for_sides", "reachability", "round_problem", "round_relation", "START"]
