"""The computations behind the query catalogue (:mod:`.queries`): each function takes a
:class:`.model.Deadline` and returns a :class:`.queries.Finding` computed from the z3 model.

Every claim is decided either way (:func:`decide`). Unsat: the claim holds, and its proof is the
unsat core (rule IDs; the question's own hypotheses under their labels, never rule IDs). Sat:
the claim fails, and the answer says so, with the counterexample decoded from z3's model
(:class:`.queries.Counterexample`: rows, sides, counts) and, where a game of the engine reaches
it, a witness game (:mod:`.witness`), confirmed in the engine by :meth:`.queries.Query.run`. A
check z3 cannot decide is unknown, never either answer.

The round-based queries take keyword options that change the question, for "what if" questions
and for the tests that show each claim can fail: ``without`` (rule IDs left out of the model: a
weakened rule set) and, for a maximum, ``best`` (the bound claimed, instead of the one the
search finds). Under a weakened rule set the engine still plays by every rule, so a witness it
refuses is left out (the counterexample then says no game reaches it).
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Sequence

import attrs
import z3

from hanamikoji.engine.hanamikoji import ITALIAN_THREE_ROUNDS, STANDARD, Reason, Result, Rules
from hanamikoji.engine.hanamikoji import charm as charm_of
from hanamikoji.engine.hanamikoji import geisha_count
from hanamikoji.engine.hanamikoji.cards import CHARM, GEISHA
from hanamikoji.spec.core.solver import check_hypothesis, fresh_context

from . import derive
from .derive import Markers, Sides, plan_for_sides, reachability, round_relation
from .model import (
    CHARM_GOAL,
    GEISHA_GOAL,
    Components,
    Constraint,
    Deadline,
    Problem,
    RoundPlan,
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
from .queries import Counterexample, Finding, ModelInconsistency, Proof
from .witness import Witness, WitnessError


# --- deciding a claim ----------------------------------------------------------------------


@attrs.frozen(eq=False)
class Decision:
    """A claim decided by z3: it holds (``proof``, the unsat core of its negation) or it fails
    (``model``, a model of its negation ``hypothesis``). ``without``: the rules the problem
    left out."""

    claim: str
    hypothesis: str
    proof: Proof | None
    model: z3.ModelRef | None
    without: tuple[str, ...] = ()

    @property
    def holds(self) -> bool:
        return self.proof is not None

    def counterexample(self, values: Sequence[tuple[str, Any]], reached: bool | None = None
                       ) -> Counterexample:
        return Counterexample(self.claim, self.hypothesis, tuple(values), reached, self.without)


def decide(problem: Problem, claim: str, hypothesis: z3.BoolRef, label: str) -> Decision:
    """Check ``hypothesis`` (the negation of ``claim``, labelled ``label``) against ``problem``
    and answer either way: unsat, ``claim`` holds and the unsat core is its proof; sat, it
    fails, with z3's model. Raises :class:`.model.Undecided` if z3 cannot tell."""
    verdict = check_hypothesis(problem, label, hypothesis)
    if verdict.status is Status.UNSAT:
        return Decision(claim, label, Proof.of(claim, verdict), None, problem.dropped)
    return Decision(claim, label, None, verdict.model, problem.dropped)


def _int(model: z3.ModelRef, term: z3.ArithRef) -> int:
    return model.eval(term, model_completion=True).as_long()


def _pair(model: z3.ModelRef, terms: Sequence[z3.ArithRef]) -> tuple[int, ...]:
    return tuple(_int(model, t) for t in terms)


def _shown(make: Callable[[], Witness], weakened: bool,
           shows: Callable[[Any], bool] = lambda state: True) -> tuple[Witness, ...]:
    """The witness ``make`` builds, replayed in the engine, which must reach the model's end
    and show the counterexample (``shows`` the engine's final state). Under the full rules a
    refusal is an error (:class:`WitnessError`); under a weakened rule set the engine, which
    plays by every rule, may refuse it, and then there is no witness."""
    try:
        witness = make()
        if not shows(witness.confirm()):
            raise WitnessError(f"witness {witness.label!r}: the engine does not show the "
                               "counterexample the model found")
    except (WitnessError, ModelInconsistency):
        if weakened:
            return ()
        raise
    return (witness,)


def _shows_round(index: int, before: Markers, sides: Sides, after: Markers
                 ) -> Callable[[Any], bool]:
    """Whether the engine's game plays, as its round ``index`` (from 0), a round from the row
    ``before`` with ``sides`` to the row ``after``."""
    def shows(state: Any) -> bool:
        scores = state.scores
        was = scores[index - 1].markers if index else derive.START
        return (len(scores) > index and was == tuple(before)
                and tuple(map(tuple, scores[index].sides)) == tuple(map(tuple, sides))
                and scores[index].markers == tuple(after))
    return shows


def decide_row(rp: "RowProblem", claim: str, hypothesis: z3.BoolRef, label: str, *,
               terms: Sequence[tuple[str, z3.ArithRef]] = ()) -> Finding:
    """A yes/no question about marker rows, answered either way: whether some row has
    ``hypothesis`` (the negation of ``claim``). No (answer False): the proof is the unsat core.
    Yes (True): the counterexample row z3 finds, each player's geisha and charm (and
    ``terms``), and a whole game through the row when a game reaches it (the search's rows),
    replayed in the engine."""
    decision = decide(rp.problem, claim, hypothesis, label)
    if decision.proof is not None:
        return Finding(answer=False, proofs=(decision.proof,))
    model = decision.model
    row = decode_row(model, rp.row)
    geisha, charm = _pair(model, rp.standing.geisha), _pair(model, rp.standing.charm)
    reach = reachability()
    witnesses: tuple[Witness, ...] = ()
    if row in dict(reach.final) or row in dict(reach.open):
        path = reach.path(row)

        def shows(state: Any) -> bool:
            shown = state.scores[len(path) - 1].markers if path else derive.START
            return shown == row and all(
                geisha_count(row, p) == geisha[p] and charm_of(row, p) == charm[p]
                for p in (0, 1))

        witnesses = _shown(lambda: game_through(
            f"a game through the counterexample {row}", _plans(path), row,
            rp.problem.deadline), bool(decision.without), shows)
    values = (("row", row), ("geisha", geisha), ("charm", charm)) + tuple(
        (name, _int(model, term)) for name, term in terms)
    return Finding(answer=True, witnesses=witnesses,
                   counterexamples=(decision.counterexample(values, bool(witnesses)),))


@attrs.frozen(eq=False)
class RowProblem:
    """A problem about one marker row and what it means for each player."""

    problem: Problem
    row: Row
    standing: Standing


def row_problem(deadline: Deadline, *, at_limit: bool | None = None, cores: bool = True,
                without: Sequence[str] = ()) -> RowProblem:
    """One marker row with SCORE-4 and END-2 (and the result rules if ``at_limit`` is given),
    less the rules ``without``."""
    problem = Problem(deadline, cores=cores, without=without)
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


def round_step(deadline: Deadline, *, without: Sequence[str] = ()) -> RoundStep:
    """One round of the full round model from an open row (END-2) to the next row: the problem
    the proofs about a single round use, so that their cores name the action rules (less the
    rules ``without``)."""
    problem = Problem(deadline, without=without)
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


#: The derived hypothesis that a row is one a game can start a round in.
OPEN_LABEL = "open rows of a game (derived: the search over marker rows)"


def _open_rows() -> list[Markers]:
    return [row for row, _ in reachability().open]


def _round_counterexample(step: RoundStep, decision: Decision, hypothesis: z3.BoolRef,
                          label: str) -> tuple[Counterexample, tuple[Witness, ...]]:
    """A claim about one round from an open row, refuted: the round z3 found (from a row a game
    reaches if z3 finds one there: it is asked again with that derived hypothesis), decoded as
    its rows, sides, wins and geisha, and a whole game through it, replayed in the engine,
    when a game reaches it."""
    model = decision.model
    reachable = decode_row(model, step.before) in dict(reachability().open)
    if not reachable:
        step.problem.push()
        try:
            step.problem.require([Constraint(OPEN_LABEL, _member(step.before, _open_rows()))],
                                 "reachable")
            verdict = check_hypothesis(step.problem, decision.hypothesis, hypothesis)
        finally:
            step.problem.pop()
        if verdict.status is Status.SAT:
            model, reachable = verdict.model, True
    before, after = decode_row(model, step.before), decode_row(model, step.after)
    sides = (decode_counts(model, step.round.sides[0]), decode_counts(model, step.round.sides[1]))
    values = (("before", before), ("sides", sides), ("after", after),
              ("wins", tuple(_int(model, _wins(step.round, p)) for p in (0, 1))),
              ("geisha", _pair(model, step.now.geisha)))
    witnesses: tuple[Witness, ...] = ()
    if reachable:
        path = _plans(reachability().path(before))
        plans = path + [decode_round(model, step.round)]
        witnesses = _shown(lambda: game_through(
            f"{label}: a round from {before} to {after}", plans, after, step.problem.deadline),
            bool(decision.without), _shows_round(len(path), before, sides, after))
    return decision.counterexample(values, bool(witnesses)), witnesses


def _wins(r: RoundVars, player: int) -> z3.ArithRef:
    """How many geisha ``player`` has strictly more items of (SCORE-2)."""
    mine, theirs = r.sides[player], r.sides[1 - player]
    return z3.Sum([z3.If(a > b, 1, 0) for a, b in zip(mine, theirs)])


def _favour(sides: Sides) -> Markers:
    """The row after a first round with ``sides`` (SCORE-2: the side with more; SCORE-3: a tie
    leaves the centre marker)."""
    return tuple(0 if a > b else 1 if b > a else None for a, b in zip(*sides))


@functools.cache
@fresh_context()
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


def game_through(label: str, plans: Sequence[RoundPlan], row: Markers, deadline: Deadline
                 ) -> Witness:
    """A whole standard game: the rounds ``plans``, which end at ``row``, then, if no goal is
    reached there, one round more that ends the game (z3, certified relation)."""
    result = _result_of(row, at_limit=False, deadline=deadline)
    if result is not None:
        return Witness.of_plans(label, STANDARD, list(plans), row, result)
    last, ending, result = _finish_from(row, deadline)
    return Witness.of_plans(label, STANDARD, list(plans) + _plans([last]), ending, result)


def _final(row: Markers) -> Result:
    reached = dict(reachability().final)[row]
    assert reached.result is not None
    winner, reason = reached.result
    return Result(winner, reason)


def _geisha(row: Markers, player: int) -> int:
    return sum(1 for m in row if m == player)


# --- one round -----------------------------------------------------------------------------


def scored_cards_per_side(deadline: Deadline, *, claim: int | None = None,
                          without: Sequence[str] = ()) -> Finding:
    """z3 enumerates the side totals of a round; then the claim "each side holds exactly n"
    (n the first total found, or ``claim``) is decided. Holds: the answer is n, with the core.
    Fails: the answer is the totals found, with the round z3 finds where a side does not hold
    n and a game that plays it."""
    problem, r = derive.round_problem(deadline, without=without)
    totals = (z3.Sum(list(r.sides[0])), z3.Sum(list(r.sides[1])))
    found = sorted({decode_counts(model, totals) for model, _ in enumerate_solutions(
        problem, value_atoms(totals, range(sum(CHARM) + 1)))})
    if not found:
        raise ModelInconsistency("the round model allows no round")
    n = found[0][0] if claim is None else claim
    decision = decide(problem, f"each side holds exactly {n} cards at scoring",
                      z3.Or(totals[0] != n, totals[1] != n), f"a side does not hold {n} cards")
    if decision.proof is not None:
        unscored = sum(CHARM) - 2 * n
        return Finding(answer=n, proofs=(decision.proof,), notes=(
            f"the other {unscored} cards are the removed card and the two trade-offs",))
    model = decision.model
    sides = (decode_counts(model, r.sides[0]), decode_counts(model, r.sides[1]))
    held = (sum(sides[0]), sum(sides[1]))
    witnesses = _shown(lambda: game_through(
        f"a first round with {held[0]} and {held[1]} cards on the sides",
        [decode_round(model, r)], _favour(sides), deadline), bool(decision.without),
        _shows_round(0, derive.START, sides, _favour(sides)))
    counterexample = decision.counterexample(
        (("side totals", held), ("sides", sides)), bool(witnesses))
    return Finding(answer=(("side_totals", tuple(found)),), witnesses=witnesses,
                   counterexamples=(counterexample,))


def round_outcome_pairs(deadline: Deadline) -> Finding:
    relation = round_relation()
    return Finding(answer=relation.count_pairs(), notes=(
        f"local pieces per geisha: {[len(p) for p in relation.local]}; side totals "
        f"{list(relation.totals)}; {relation.checks} z3 checks in {relation.seconds:.2f} s",))


def round_favour_patterns(deadline: Deadline) -> Finding:
    patterns = derive.favour_patterns(round_relation())
    return Finding(answer=len(patterns))


def max_round_wins(deadline: Deadline, *, best: int | None = None,
                   without: Sequence[str] = ()) -> Finding:
    """The most geisha one player wins in one round: ``best`` (by default the maximum over the
    favour patterns), decided either way on the full round model. "No player wins more":
    the core, or a round z3 finds that wins more (the answer is then "at least" its wins,
    with a game that plays it). "A player wins that many": a witness game, or the core (the
    answer is then "at most" one fewer)."""
    if best is None:
        patterns = derive.favour_patterns(round_relation())
        best = max(sum(1 for m in row if m == 0) for row in patterns)
    step = round_step(deadline, without=without)
    more = z3.Or(_wins(step.round, 0) > best, _wins(step.round, 1) > best)
    above = decide(step.problem, f"no player wins more than {best} geisha in one round", more,
                   f"a player wins {best + 1}+ geisha in one round")
    if above.proof is None:
        counterexample, witnesses = _round_counterexample(
            step, above, more, f"a player wins more than {best} geisha")
        return Finding(answer=(("at_least", max(counterexample.value("wins"))),),
                       witnesses=witnesses, counterexamples=(counterexample,))
    problem, r = derive.round_problem(deadline, without=without)
    reached = decide(problem, f"no player wins {best} geisha in one round",
                     z3.Or(_wins(r, 0) == best, _wins(r, 1) == best),
                     f"a player wins {best} geisha in one round")
    if reached.proof is not None:
        return Finding(answer=(("at_most", best - 1),), proofs=(above.proof, reached.proof))
    model = reached.model
    sides = (decode_counts(model, r.sides[0]), decode_counts(model, r.sides[1]))
    who = 0 if _int(model, _wins(r, 0)) == best else 1
    witnesses = _shown(lambda: game_through(
        f"player {who} wins {best} geisha in the first round", [decode_round(model, r)],
        _favour(sides), deadline), bool(reached.without),
        _shows_round(0, derive.START, sides, _favour(sides)))
    return Finding(answer=best, proofs=(above.proof,), witnesses=witnesses)


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
    witnesses: tuple[Witness, ...] = ()
    if rows:
        witnesses = (path_witness("a double finish", rows[0], result=_final(rows[0])),)
    return Finding(answer=(("reachable", bool(rows)), ("final_states", len(rows))),
                   witnesses=witnesses)


def both_eleven_charm(deadline: Deadline, *, without: Sequence[str] = ()) -> Finding:
    return _both(deadline, "charm", without)


def both_four_geisha(deadline: Deadline, *, without: Sequence[str] = ()) -> Finding:
    return _both(deadline, "geisha", without)


def _both(deadline: Deadline, which: str, without: Sequence[str]) -> Finding:
    rp = row_problem(deadline, without=without)
    s = rp.standing
    if which == "charm":
        claim, label = "no row gives both players 11+ charm", "both players hold 11+ charm"
        hypothesis = z3.And(s.charm[0] >= CHARM_GOAL, s.charm[1] >= CHARM_GOAL)
    else:
        claim, label = "no row gives both players 4+ geisha", "both players hold 4+ geisha"
        hypothesis = z3.And(s.geisha[0] >= GEISHA_GOAL, s.geisha[1] >= GEISHA_GOAL)
    return decide_row(rp, claim, hypothesis, label)


def rulebook_example(deadline: Deadline, *, without: Sequence[str] = ()) -> Finding:
    rp = row_problem(deadline, without=without)
    s = rp.standing
    finding = Finding(answer=False)
    for top, bottom in ((0, 1), (1, 0)):
        found = decide_row(
            rp, f"player {top} cannot hold 3 geisha with 8 charm while player {bottom} "
                "holds 4 geisha with 11 charm",
            z3.And(s.geisha[top] == 3, s.charm[top] == 8, s.geisha[bottom] == 4,
                   s.charm[bottom] == 11),
            f"player {top}: 3 geisha, 8 charm; player {bottom}: 4 geisha, 11 charm")
        finding = finding.merged(found, finding.answer or found.answer)
    return finding


def max_geisha_at_end(deadline: Deadline, *, best: int | None = None,
                      without: Sequence[str] = ()) -> Finding:
    """The most geisha a player holds when a standard game ends: ``best`` (by default the
    maximum over the search's final rows), decided either way on one round of the full model.
    "No round ends with a player holding more": the core, or the round z3 finds (the answer is
    then "at least" its geisha). "A game ends with a player holding that many", from a row a
    game reaches: a witness game, or the core (the answer is then "at most" one fewer)."""
    if best is None:
        best = max(max(_geisha(row, 0), _geisha(row, 1)) for row, _ in reachability().final)
    step = round_step(deadline, without=without)
    now = step.now
    more = z3.Or(now.geisha[0] > best, now.geisha[1] > best)
    above = decide(step.problem, f"no round ends with a player holding more than {best} geisha",
                   more, f"a player holds {best + 1}+ geisha after a round")
    if above.proof is None:
        counterexample, witnesses = _round_counterexample(
            step, above, more, f"a player holds more than {best} geisha")
        return Finding(answer=(("at_least", max(counterexample.value("geisha"))),),
                       witnesses=witnesses, counterexamples=(counterexample,))
    step.problem.require([Constraint(OPEN_LABEL, _member(step.before, _open_rows()))],
                         "reachable")
    ends = z3.And(z3.Or(*now.goal), z3.Or(now.geisha[0] == best, now.geisha[1] == best))
    reached = decide(step.problem, f"no game ends with a player holding {best} geisha", ends,
                     f"a game ends with a player holding {best} geisha")
    if reached.proof is not None:
        return Finding(answer=(("at_most", best - 1),), proofs=(above.proof, reached.proof))
    model = reached.model
    before, after = decode_row(model, step.before), decode_row(model, step.after)
    sides = (decode_counts(model, step.round.sides[0]), decode_counts(model, step.round.sides[1]))
    who = 0 if _geisha(after, 0) == best else 1
    path = _plans(reachability().path(before))
    plans = path + [decode_round(model, step.round)]
    witnesses = _shown(lambda: game_through(
        f"player {who} ends the game with {best} geisha", plans, after, deadline),
        bool(reached.without), _shows_round(len(path), before, sides, after))
    return Finding(answer=best, proofs=(above.proof,), witnesses=witnesses)


def win_every_geisha(deadline: Deadline, *, without: Sequence[str] = ()) -> Finding:
    """Whether a player can hold all seven geisha: decided on one round of the full model
    from any open row (the start included). No: the core. Yes: the round z3 finds, and a
    game through it when a game reaches it."""
    step = round_step(deadline, without=without)
    every = z3.Or(step.now.geisha[0] == len(GEISHA), step.now.geisha[1] == len(GEISHA))
    decision = decide(step.problem, "no round leaves one player holding all seven geisha",
                      every, "a player holds all seven geisha after a round")
    if decision.proof is not None:
        return Finding(answer=False, proofs=(decision.proof,))
    counterexample, witnesses = _round_counterexample(step, decision, every,
                                                      "a player holds all seven geisha")
    return Finding(answer=True, witnesses=witnesses, counterexamples=(counterexample,))


def unbounded_game(deadline: Deadline, *, without: Sequence[str] = ()) -> Finding:
    """Whether a standard game can go on for ever: yes if a round can tie every geisha and
    such a round keeps every open row (no marker moves, no goal). Each is decided either way:
    no tie round (the core), or a tie round that moves a marker or reaches a goal (the round
    z3 finds): then the answer is no, the tie rounds do not show it."""
    step = round_step(deadline, without=without)
    ties = z3.And([a == b for a, b in zip(*step.round.sides)])
    problem = step.problem
    tie = decide(problem, "no round ties every geisha", ties, "every geisha ties")
    if tie.proof is not None:
        return Finding(answer=False, proofs=(tie.proof,))
    moved = z3.Or([x != y for x, y in zip(step.before.markers, step.after.markers)])
    restless = z3.And(ties, z3.Or(moved, z3.Or(*step.now.goal)))
    still = decide(problem, "from every open row, a round in which every geisha ties leaves "
                   "every marker in place, so no goal is reached and the next round starts "
                   "from the same open row", restless,
                   "a round ties every geisha and moves a marker or reaches a goal")
    if still.proof is None:
        counterexample, witnesses = _round_counterexample(
            step, still, restless, "a round that ties every geisha and does not stand still")
        return Finding(answer=False, witnesses=witnesses, counterexamples=(counterexample,),
                       notes=("a round in which every geisha ties can move a marker or reach "
                              "a goal, so tie rounds do not show that a game can go on for "
                              "ever",))
    # A game that stands still: reach an open row, tie two rounds, then end it.
    start = next(row for row, r in reachability().open if r.rounds >= 1)
    last, ending, result = _finish_from(start, deadline)
    sides = reachability().path(start) + (_tie_sides(),) * 2 + (last,)
    witness = Witness.of_plans(
        f"two rounds in which every geisha ties leave {start} in place", STANDARD,
        _plans(sides), ending, result)
    return Finding(answer=True, proofs=(still.proof,), witnesses=(witness,))


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
        model = verdict.model
        assert model is not None  # decided, not unsat: sat
        decoded = decode_result(model, rp.standing)
        assert decoded is not None
        by_reason.setdefault(decoded[1], []).append(row)
        charm = [model.eval(rp.standing.charm[p], model_completion=True).as_long()
                 for p in (0, 1)]
        for name in by_reading:
            order = model.eval(orders[name], model_completion=True).as_long()
            way = "charm" if charm[0] != charm[1] else "highest-geisha" if order else "shared"
            by_reading[name][way] += 1
    names = ((Reason.ROUND_LIMIT_CHARM, "charm"), (Reason.ROUND_LIMIT_HIGHEST_GEISHA,
                                                  "highest-geisha"), (Reason.SHARED, "shared"))
    engine_counts = {name: len(by_reason.get(reason, [])) for reason, name in names}
    if engine_counts != by_reading[ENGINE_READING]:
        raise ModelInconsistency(f"VAR-IT-3 gives {engine_counts}, its reading "
                                 f"({ENGINE_READING}) {by_reading[ENGINE_READING]}")
    witnesses = []
    for reason, _name in names:
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
    counterexamples: list[Counterexample] = []
    for scope, restrict in (("reachable", True), ("any", False)):
        for x, y in pairs:
            problem.push()
            if restrict:
                problem.require([Constraint(LIMIT_LABEL, _member(row, rows))], "query")
            decision = decide(problem, f"on {'every reachable row' if restrict else 'every row'} "
                              f"where the tiebreak is consulted, readings ({x}) and ({y}) name "
                              "the same winner or none", orders[x] != orders[y],
                              f"readings ({x}) and ({y}) differ")
            problem.pop()
            if decision.proof is not None:
                proofs.append(decision.proof)
            else:
                found = decode_row(decision.model, row)
                shown = [_int(decision.model, orders[r]) for r in (x, y)]
                counterexamples.append(decision.counterexample(
                    (("row", found), (f"reading ({x})", _tiebreak_word(shown[0])),
                     (f"reading ({y})", _tiebreak_word(shown[1]))), found in rows))
                if found in rows:
                    result = _result_of(found, at_limit=True, deadline=deadline)
                    witnesses.append(path_witness(
                        f"a tiebreak where readings ({x}) and ({y}) differ (row {found})", found,
                        rules=ITALIAN_THREE_ROUNDS, ties=3 - _depth(found), result=result))
            answer.append((f"({x})=({y}) {scope}", decision.holds))
    return Finding(answer=tuple(answer), proofs=tuple(proofs), witnesses=tuple(witnesses),
                   counterexamples=tuple(counterexamples))


def _tiebreak_word(order: int) -> str:
    return {1: "player 0", -1: "player 1", 0: "a shared victory"}[order]


def charm_wording_equivalent(deadline: Deadline, *, without: Sequence[str] = ()) -> Finding:
    rp = row_problem(deadline, without=without)
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
    differ = decide_row(rp, "in every double finish the two wordings name the same winner",
                        z3.And(double, eleven != more), "a double finish where the wordings differ",
                        terms=(("winner (11+ charm)", eleven), ("winner (more charm)", more)))
    return attrs.evolve(differ, answer=not differ.answer)
