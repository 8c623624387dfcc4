"""The computations behind the query catalogue (:mod:`.queries`): each function takes a
:class:`.model.Deadline` and returns a :class:`.queries.Finding` computed from the z3 model.

Proofs are unsatisfiable checks whose unsat cores name the rules (:func:`prove`); witnesses are
games built from z3 models (:mod:`.witness`), confirmed in the engine by :meth:`.queries.Query.run`.
"""

from __future__ import annotations

import functools
from typing import Sequence

import attrs
import z3

from hanamikoji.engine.hanamikoji import ITALIAN_THREE_ROUNDS, STANDARD, Reason, Result, Rules
from hanamikoji.engine.hanamikoji.cards import CHARM, GEISHA

from . import derive
from .derive import Markers, Sides, plan_for_sides, reachability, round_relation
from .model import (
    CHARM_GOAL,
    GEISHA_GOAL,
    Components,
    Constraint,
    Deadline,
    Problem,
    RoundVars,
    Row,
    Standing,
    Status,
    component_constraints,
    decode_counts,
    decode_result,
    decode_round,
    decode_row,
    enumerate_solutions,
    goal_constraints,
    ENGINE_READING,
    TIEBREAK_READINGS,
    result_constraints,
    round_constraints,
    row_constraints,
    standing_constraints,
    update_constraints,
    value_atoms,
)
from .queries import Finding, ModelInconsistency, Proof
from .witness import Witness


# --- shared pieces -------------------------------------------------------------------------


def prove(problem: Problem, claim: str, hypothesis: z3.BoolRef, label: str) -> Proof:
    """Check ``hypothesis`` (the negation of ``claim``, labelled ``label``) against ``problem``;
    it must be unsat, and the proof is its unsat core. Raises :class:`ModelInconsistency` if it
    is sat and :class:`.model.Undecided` if z3 cannot tell."""
    problem.push()
    try:
        problem.require([Constraint(f"hypothesis: {label}", hypothesis)], "query")
        verdict = problem.check().decided()
    finally:
        problem.pop()
    if verdict.status is not Status.UNSAT:
        raise ModelInconsistency(f"the model refutes its own claim {claim!r}: {label} is possible")
    return Proof(claim, verdict.rules,
                 tuple(h.split(" @ ")[0] for h in verdict.hypotheses))


def decide_row(rp: "RowProblem", claim: str, hypothesis: z3.BoolRef, label: str
               ) -> tuple[bool, tuple[Proof, ...], tuple[Witness, ...],
                                            tuple[str, ...]]:
    """A yes/no question about marker rows, answered either way: whether some row has
    ``hypothesis`` (the negation of ``claim``). No: the proof is the unsat core. Yes: the
    counterexample row z3 finds, with a game that reaches it when a game can (the search's
    rows), replayed in the engine."""
    rp.problem.push()
    try:
        rp.problem.require([Constraint(f"hypothesis: {label}", hypothesis)], "query")
        verdict = rp.problem.check().decided()
    finally:
        rp.problem.pop()
    if verdict.status is Status.UNSAT:
        return False, (Proof(claim, verdict.rules,
                             tuple(h.split(" @ ")[0] for h in verdict.hypotheses)),), (), ()
    row = decode_row(verdict.model, rp.row)
    reach = reachability()
    witnesses: tuple[Witness, ...] = ()
    where = "a row no game reaches"
    if row in dict(reach.final) or row in dict(reach.open):
        where = "a row a game reaches"
        result = _final(row) if row in dict(reach.final) else None
        witnesses = (path_witness(f"a game reaching the counterexample {row}", row,
                                  result=result),)
    return True, (), witnesses, (f"counterexample: {label} at {row}, {where}",)


@attrs.frozen(eq=False)
class RowProblem:
    """A problem about one marker row and what it means for each player."""

    problem: Problem
    row: Row
    standing: Standing


def row_problem(deadline: Deadline, *, at_limit: bool | None = None, cores: bool = True
                ) -> RowProblem:
    """One marker row with SCORE-4 and END-2 (and the result rules if ``at_limit`` is given)."""
    problem = Problem(deadline, cores=cores)
    comp = Components.fresh()
    problem.require(component_constraints(comp), "components")
    row = Row.fresh("row")
    standing = Standing.fresh("row", comp)
    constraints = row_constraints(row) + standing_constraints(standing, row)
    constraints += goal_constraints(standing)
    if at_limit is not None:
        constraints += result_constraints(standing, row, at_limit=at_limit)
    problem.require(constraints, "row")
    return RowProblem(problem, row, standing)


@attrs.frozen(eq=False)
class RoundStep:
    """A problem about one round of the full model between two marker rows."""

    problem: Problem
    round: RoundVars
    before: Row
    after: Row
    was: Standing
    now: Standing


def round_step(deadline: Deadline) -> RoundStep:
    """One round of the full round model from an open row (END-2) to the next row: the problem
    the proofs about a single round use, so that their cores name the action rules."""
    problem = Problem(deadline)
    comp = Components.fresh()
    problem.require(component_constraints(comp), "components")
    before, after = Row.fresh("before"), Row.fresh("after")
    was, now = Standing.fresh("before", comp), Standing.fresh("after", comp)
    problem.require(row_constraints(before) + standing_constraints(was, before)
                    + goal_constraints(was)
                    + [Constraint("END-2", z3.Not(z3.Or(*was.goal)))], "before")
    problem.require(row_constraints(after) + standing_constraints(now, after)
                    + goal_constraints(now), "after")
    r = RoundVars.fresh("round")
    problem.require(round_constraints(r, comp), "round")
    problem.require(update_constraints(before, r.sides, after), "scoring")
    return RoundStep(problem, r, before, after, was, now)


def _wins(r: RoundVars, player: int) -> z3.ArithRef:
    """How many geisha ``player`` has strictly more items of (SCORE-2)."""
    mine, theirs = r.sides[player], r.sides[1 - player]
    return z3.Sum([z3.If(a > b, 1, 0) for a, b in zip(mine, theirs)])


@functools.cache
def _tie_sides() -> Sides:
    """The sides of a round in which every geisha ties (z3, full round model)."""
    problem, r = derive.round_problem()
    problem.require([Constraint("hypothesis: every geisha ties",
                                z3.And([a == b for a, b in zip(*r.sides)]))], "query")
    verdict = problem.check().decided()
    if verdict.status is Status.UNSAT:
        raise ModelInconsistency("no round ties every geisha")
    return decode_counts(verdict.model, r.sides[0]), decode_counts(verdict.model, r.sides[1])


def _plans(sides: Sequence[Sides]) -> list:
    plans = []
    for s in sides:
        plan = plan_for_sides(s)
        if plan is None:
            raise ModelInconsistency(f"the certified relation holds {s}, the round model not")
        plans.append(plan)
    return plans


def path_witness(label: str, row: Markers, *, rules: Rules = STANDARD, ties: int = 0,
                 result: Result | None) -> Witness:
    """A game that reaches ``row`` by a shortest path of the search, then plays ``ties`` rounds
    in which every geisha ties; ``result`` is what the model says happens there."""
    sides = reachability().path(row) + (_tie_sides(),) * ties
    return Witness.of_plans(label, rules, _plans(sides), row, result)


def _final(row: Markers) -> Result:
    reached = dict(reachability().final)[row]
    assert reached.result is not None
    winner, reason = reached.result
    return Result(winner, reason)


def _geisha(row: Markers, player: int) -> int:
    return sum(1 for m in row if m == player)


# --- one round -----------------------------------------------------------------------------


def scored_cards_per_side(deadline: Deadline) -> Finding:
    problem, r = derive.round_problem(deadline)
    totals = (z3.Sum(list(r.sides[0])), z3.Sum(list(r.sides[1])))
    found = sorted({decode_counts(model, totals) for model, _ in enumerate_solutions(
        problem, value_atoms(totals, range(sum(CHARM) + 1)))})
    if len(found) != 1 or found[0][0] != found[0][1]:
        return Finding(answer=False, notes=(f"side totals: {found}",))
    n = found[0][0]
    proof = prove(problem, f"each side holds exactly {n} cards at scoring",
                   z3.Or(totals[0] != n, totals[1] != n), f"a side does not hold {n} cards")
    unscored = sum(CHARM) - 2 * n
    return Finding(answer=n, proofs=(proof,), notes=(
        f"the other {unscored} cards are the removed card and the two trade-offs",))


def round_outcome_pairs(deadline: Deadline) -> Finding:
    relation = round_relation()
    return Finding(answer=relation.count_pairs(), notes=(
        f"local pieces per geisha: {[len(p) for p in relation.local]}; side totals "
        f"{list(relation.totals)}; {relation.checks} z3 checks in {relation.seconds:.2f} s",))


def round_favour_patterns(deadline: Deadline) -> Finding:
    patterns = derive.favour_patterns(round_relation())
    return Finding(answer=len(patterns))


def max_round_wins(deadline: Deadline) -> Finding:
    patterns = derive.favour_patterns(round_relation())
    best = max(sum(1 for m in row if m == 0) for row in patterns)
    step = round_step(deadline)
    proof = prove(step.problem, f"no player wins more than {best} geisha in one round",
                   z3.Or(_wins(step.round, 0) > best, _wins(step.round, 1) > best),
                   f"a player wins {best + 1}+ geisha in one round")
    row = next(row for row in patterns if sum(1 for m in row if m == 0) == best)
    problem, r = derive.round_problem(deadline)
    problem.require([Constraint("hypothesis: the pattern", z3.And(
        [(a > b) if m == 0 else (b > a) if m == 1 else (a == b)
         for a, b, m in zip(*r.sides, row)]))], "query")
    verdict = problem.check().decided()
    if verdict.status is Status.UNSAT:
        raise ModelInconsistency(f"the pattern {row} is not a round of the full model")
    witness = Witness.of_plans(f"player 0 wins {best} geisha in the first round", STANDARD,
                               [decode_round(verdict.model, r)], row,
                               _result_of(row, at_limit=False, deadline=deadline))
    return Finding(answer=best, proofs=(proof,), witnesses=(witness,))


def _result_of(markers: Markers, *, at_limit: bool, deadline: Deadline) -> Result | None:
    """The model's result for a marker row (END-2..4, and VAR-IT-2..4 ``at_limit``)."""
    rp = row_problem(deadline, at_limit=at_limit)
    rp.problem.require([Constraint("hypothesis: the row", rp.row.equals(markers))], "query")
    verdict = rp.problem.check().decided()
    if verdict.status is Status.UNSAT:
        raise ModelInconsistency(f"the row {markers} breaks COMP-4")
    decoded = decode_result(verdict.model, rp.standing)
    return None if decoded is None else Result(*decoded)


# --- marker rows ---------------------------------------------------------------------------


def marker_states(deadline: Deadline) -> Finding:
    reach = reachability()
    depth = max(r.rounds for _, r in reach.open)
    return Finding(answer=(("open", len(reach.open)), ("final", len(reach.final))), notes=(
        f"every open row is reached within {depth} rounds; {reach.checks} z3 checks in "
        f"{reach.seconds:.2f} s",))


def simultaneous_goals(deadline: Deadline) -> Finding:
    rows = [row for row, r in reachability().final
            if r.result is not None and r.result[1] is Reason.CHARM_OVER_GEISHA]
    witnesses = ()
    if rows:
        witnesses = (path_witness("a double finish", rows[0], result=_final(rows[0])),)
    return Finding(answer=(("reachable", bool(rows)), ("final_states", len(rows))),
                   witnesses=witnesses)


def both_eleven_charm(deadline: Deadline) -> Finding:
    return _both(deadline, "charm")


def both_four_geisha(deadline: Deadline) -> Finding:
    return _both(deadline, "geisha")


def _both(deadline: Deadline, which: str) -> Finding:
    rp = row_problem(deadline)
    s = rp.standing
    if which == "charm":
        claim, label = "no row gives both players 11+ charm", "both players hold 11+ charm"
        hypothesis = z3.And(s.charm[0] >= CHARM_GOAL, s.charm[1] >= CHARM_GOAL)
    else:
        claim, label = "no row gives both players 4+ geisha", "both players hold 4+ geisha"
        hypothesis = z3.And(s.geisha[0] >= GEISHA_GOAL, s.geisha[1] >= GEISHA_GOAL)
    found, proofs, witnesses, notes = decide_row(rp, claim, hypothesis, label)
    return Finding(answer=found, proofs=proofs, witnesses=witnesses, notes=notes)


def rulebook_example(deadline: Deadline) -> Finding:
    rp = row_problem(deadline)
    s = rp.standing
    answer, proofs, witnesses, notes = False, [], [], []
    for top, bottom in ((0, 1), (1, 0)):
        found, p, w, n = decide_row(
            rp, f"player {top} cannot hold 3 geisha with 8 charm while player {bottom} "
                "holds 4 geisha with 11 charm",
            z3.And(s.geisha[top] == 3, s.charm[top] == 8, s.geisha[bottom] == 4,
                   s.charm[bottom] == 11),
            f"player {top}: 3 geisha, 8 charm; player {bottom}: 4 geisha, 11 charm")
        answer, proofs, witnesses, notes = (answer or found, proofs + list(p),
                                            witnesses + list(w), notes + list(n))
    return Finding(answer=answer, proofs=tuple(proofs), witnesses=tuple(witnesses),
                   notes=tuple(notes))


def max_geisha_at_end(deadline: Deadline) -> Finding:
    final = reachability().final
    best = max(max(_geisha(row, 0), _geisha(row, 1)) for row, _ in final)
    row = next(row for row, _ in final if _geisha(row, 0) == best or _geisha(row, 1) == best)
    step = round_step(deadline)
    proof = prove(step.problem, f"no round ends with a player holding more than {best} geisha",
                   z3.Or(step.now.geisha[0] > best, step.now.geisha[1] > best),
                   f"a player holds {best + 1}+ geisha after a round")
    who = 0 if _geisha(row, 0) == best else 1
    witness = path_witness(f"player {who} ends the game with {best} geisha", row,
                            result=_final(row))
    return Finding(answer=best, proofs=(proof,), witnesses=(witness,))


def win_every_geisha(deadline: Deadline) -> Finding:
    step = round_step(deadline)
    proof = prove(step.problem, "no round leaves one player holding all seven geisha",
                   z3.Or(step.now.geisha[0] == len(GEISHA), step.now.geisha[1] == len(GEISHA)),
                   "a player holds all seven geisha after a round")
    return Finding(answer=False, proofs=(proof,))


def unbounded_game(deadline: Deadline) -> Finding:
    step = round_step(deadline)
    ties = z3.And([a == b for a, b in zip(*step.round.sides)])
    problem = step.problem
    problem.push()
    problem.require([Constraint("hypothesis: every geisha ties", ties)], "tie round")
    verdict = problem.check().decided()
    problem.pop()
    if verdict.status is Status.UNSAT:
        return Finding(answer=False, proofs=(Proof(
            "no round ties every geisha", verdict.rules,
            tuple(h.split(" @ ")[0] for h in verdict.hypotheses)),))
    moved = z3.Or([x != y for x, y in zip(step.before.markers, step.after.markers)])
    proof = prove(problem, "from every open row, a round in which every geisha ties leaves "
                   "every marker in place, so no goal is reached and the next round starts "
                   "from the same open row", z3.And(ties, z3.Or(moved, z3.Or(*step.now.goal))),
                   "a round ties every geisha and moves a marker or reaches a goal")
    # A game that stands still: reach an open row, tie two rounds, then end it.
    start = next(row for row, r in reachability().open if r.rounds >= 1)
    last, ending, result = _finish_from(start, deadline)
    sides = reachability().path(start) + (_tie_sides(),) * 2 + (last,)
    witness = Witness.of_plans(
        f"two rounds in which every geisha ties leave {start} in place", STANDARD,
        _plans(sides), ending, result)
    return Finding(answer=True, proofs=(proof,), witnesses=(witness,))


def _finish_from(before: Markers, deadline: Deadline) -> tuple[Sides, Markers, Result]:
    """A round from the open row ``before`` that ends the game (z3, certified relation): its
    sides, the final row and the result."""
    step = derive.Step(round_relation(), deadline)
    step.problem.require([Constraint("hypothesis: the round ends the game", z3.And(
        step.before.equals(before), step.now.ended))], "query")
    verdict = step.problem.check().decided()
    if verdict.status is Status.UNSAT:
        raise ModelInconsistency(f"no round ends the game from {before}")
    model = verdict.model
    decoded = decode_result(model, step.now)
    assert decoded is not None
    return ((decode_counts(model, step.a), decode_counts(model, step.b)),
            decode_row(model, step.after), Result(*decoded))


def fastest_finish(deadline: Deadline) -> Finding:
    fastest: dict[Reason, tuple[int, Markers]] = {}
    for row, reached in reachability().final:
        assert reached.result is not None
        reason = reached.result[1]
        if reason not in fastest or reached.rounds < fastest[reason][0]:
            fastest[reason] = (reached.rounds, row)
    witnesses = tuple(
        path_witness(f"a game that ends by {reason.value} after {rounds} round(s)", row,
                      result=_final(row))
        for reason, (rounds, row) in sorted(fastest.items(), key=lambda kv: kv[0].value))
    answer = tuple((reason.value, rounds)
                   for reason, (rounds, _) in sorted(fastest.items(), key=lambda kv: kv[0].value))
    return Finding(answer=answer, witnesses=witnesses)


# --- the Italian variant -------------------------------------------------------------------


LIMIT_LABEL = "rows after three rounds with no goal (derived: the search's open rows)"


def _limit_rows() -> list[Markers]:
    """VAR-IT-1: the rows a game can stand in after its third round with no goal reached: the
    open rows first reached within three rounds (each stays put through tie rounds)."""
    return [row for row, r in reachability().open if r.rounds <= 3]


def _member(row: Row, rows: Sequence[Markers]) -> z3.BoolRef:
    return z3.Or([row.equals(m) for m in rows])


def italian_round_limit(deadline: Deadline) -> Finding:
    """The rows after a third round with no goal, by how VAR-IT-2..4 decide them: under the
    reading of VAR-IT-3 the engine takes (b), with a witness game for each way; and the same
    counts under readings (a) and (c), from the same rows and the same z3 models."""
    rows = _limit_rows()
    rp = row_problem(deadline, at_limit=True, cores=False)
    rp.problem.require([Constraint("hypothesis: no goal reached (END-2)",
                                   z3.Not(z3.Or(*rp.standing.goal)))], "no goal")
    orders = {name: z3.Int(f"tiebreak order, reading ({name})") for name, _, _ in TIEBREAK_READINGS}
    rp.problem.require([Constraint(f"reading ({name}) of VAR-IT-3", orders[name] == order(
        rp.standing, rp.row)) for name, _, order in TIEBREAK_READINGS], "readings")
    by_reason: dict[Reason, list[Markers]] = {}
    by_reading: dict[str, dict[str, int]] = {name: {"charm": 0, "highest-geisha": 0, "shared": 0}
                                             for name, _, _ in TIEBREAK_READINGS}
    for row in rows:
        verdict = rp.problem.check(*rp.row.literals(row)).decided()
        if verdict.status is Status.UNSAT:
            raise ModelInconsistency(f"the open row {row} has a goal or breaks COMP-4")
        decoded = decode_result(verdict.model, rp.standing)
        assert decoded is not None
        by_reason.setdefault(decoded[1], []).append(row)
        charm = [verdict.model.eval(rp.standing.charm[p], model_completion=True).as_long()
                 for p in (0, 1)]
        for name in by_reading:
            order = verdict.model.eval(orders[name], model_completion=True).as_long()
            way = "charm" if charm[0] != charm[1] else "highest-geisha" if order else "shared"
            by_reading[name][way] += 1
    names = ((Reason.ROUND_LIMIT_CHARM, "charm"), (Reason.ROUND_LIMIT_HIGHEST_GEISHA,
                                                  "highest-geisha"), (Reason.SHARED, "shared"))
    engine_counts = {name: len(by_reason.get(reason, [])) for reason, name in names}
    if engine_counts != by_reading[ENGINE_READING]:
        raise ModelInconsistency(f"VAR-IT-3 gives {engine_counts}, its reading "
                                 f"({ENGINE_READING}) {by_reading[ENGINE_READING]}")
    witnesses = []
    for reason, name in names:
        if by_reason.get(reason):
            row = min(by_reason[reason], key=lambda m: (_depth(m), derive._row_key(m)))
            result = _result_of(row, at_limit=True, deadline=deadline)
            witnesses.append(path_witness(
                f"an italian-three-rounds game decided by {reason.value}", row,
                rules=ITALIAN_THREE_ROUNDS, ties=3 - _depth(row), result=result))
    total = sum(len(v) for v in by_reason.values())
    others = "; ".join(f"under reading ({name}): " + ", ".join(f"{k} {v}" for k, v in
                                                              by_reading[name].items())
                       for name, _, _ in TIEBREAK_READINGS if name != ENGINE_READING)
    return Finding(answer=tuple((name, engine_counts[name]) for _, name in names) + tuple(
                       (f"reading ({r})", tuple(by_reading[r].items()))
                       for r, _, _ in TIEBREAK_READINGS),
                   witnesses=tuple(witnesses),
                   notes=(f"{total} rows after the third round with no goal; the engine takes "
                          f"reading ({ENGINE_READING}); {others}",))


def _depth(row: Markers) -> int:
    return dict(reachability().open)[row].rounds


def tiebreak_readings_agree(deadline: Deadline) -> Finding:
    """Each pair of readings of VAR-IT-3, over the rows a game can stand in after three rounds
    with no goal and equal charm (where the tiebreak is consulted): agree (an unsat core), or
    differ (the first such row z3 finds, and a game that reaches it, decided by the engine's
    reading). The same over every row with equal charm, reachable or not."""
    rows = _limit_rows()
    rp = row_problem(deadline)
    s, row = rp.standing, rp.row
    problem = rp.problem
    orders = {name: z3.Int(f"reading ({name})") for name, _, _ in TIEBREAK_READINGS}
    problem.require([Constraint("VAR-IT-3" if name == ENGINE_READING else
                                f"reading ({name}) of VAR-IT-3: {words}", orders[name] == order(s, row))
                     for name, words, order in TIEBREAK_READINGS], "tiebreak")
    # Where the tiebreak is consulted: the question's own hypotheses, not rules.
    problem.require([Constraint("hypothesis: equal charm (VAR-IT-2 consults VAR-IT-3)",
                                s.charm[0] == s.charm[1]),
                     Constraint("hypothesis: no goal reached (END-2)", z3.Not(z3.Or(*s.goal)))],
                    "tiebreak reached")
    pairs = [(x, y) for i, (x, _, _) in enumerate(TIEBREAK_READINGS)
             for y, _, _ in TIEBREAK_READINGS[i + 1:]]
    answer: list[tuple[str, bool]] = []
    proofs: list[Proof] = []
    witnesses: list[Witness] = []
    notes: list[str] = []
    for scope, restrict in (("reachable", True), ("any", False)):
        for x, y in pairs:
            problem.push()
            if restrict:
                problem.require([Constraint(LIMIT_LABEL, _member(row, rows))], "query")
            differ = orders[x] != orders[y]
            problem.push()
            problem.require([Constraint(f"hypothesis: readings ({x}) and ({y}) differ", differ)],
                            "query")
            verdict = problem.check().decided()
            problem.pop()
            if verdict.status is Status.UNSAT:
                proofs.append(Proof(f"on {'every reachable row' if restrict else 'every row'} "
                                    f"where the tiebreak is consulted, readings ({x}) and ({y}) "
                                    "name the same winner or none", verdict.rules,
                                    tuple(h.split(" @ ")[0] for h in verdict.hypotheses)))
            else:
                found = decode_row(verdict.model, row)
                shown = [verdict.model.eval(orders[r], model_completion=True).as_long()
                         for r in (x, y)]
                notes.append(f"readings ({x}) and ({y}) differ on the "
                             f"{'reachable row' if restrict else 'row (reachable or not)'} {found}: "
                             f"({x}) gives {_tiebreak_word(shown[0])}, ({y}) "
                             f"{_tiebreak_word(shown[1])}")
                if restrict:
                    result = _result_of(found, at_limit=True, deadline=deadline)
                    witnesses.append(path_witness(
                        f"a tiebreak where readings ({x}) and ({y}) differ (row {found})", found,
                        rules=ITALIAN_THREE_ROUNDS, ties=3 - _depth(found), result=result))
            problem.pop()
            answer.append((f"({x})=({y}) {scope}", verdict.status is Status.UNSAT))
    return Finding(answer=tuple(answer), proofs=tuple(proofs), witnesses=tuple(witnesses),
                   notes=tuple(notes))


def _tiebreak_word(order: int) -> str:
    return {1: "player 0", -1: "player 1", 0: "a shared victory"}[order]


def charm_wording_equivalent(deadline: Deadline) -> Finding:
    rp = row_problem(deadline)
    s = rp.standing
    eleven, more = z3.Int("winner (11+ charm)"), z3.Int("winner (more charm)")
    rp.problem.require([Constraint("END-4", z3.And(
        z3.Or(eleven == 0, eleven == 1),
        z3.And([z3.Implies(eleven == p, s.charm[p] >= CHARM_GOAL) for p in (0, 1)])))],
        "reading of 000, 001, 003")
    rp.problem.require([Constraint("reading of 002: the player with more charm wins", z3.And(
        z3.Or(more == 0, more == 1),
        z3.And([z3.Implies(more == p, s.charm[p] > s.charm[1 - p]) for p in (0, 1)])))],
        "reading of 002")
    double = z3.Or([z3.And(s.geisha[p] >= GEISHA_GOAL, s.charm[1 - p] >= CHARM_GOAL)
                    for p in (0, 1)])
    differ, proofs, witnesses, notes = decide_row(
        rp, "in every double finish the two wordings name the same winner",
        z3.And(double, eleven != more), "a double finish where the wordings differ")
    return Finding(answer=not differ, proofs=proofs, witnesses=witnesses, notes=notes)
