"""The rules of spec/rules.md as z3 constraints, every one tracked by its rule ID.

The model has three layers, each a set of constraint builders that return :class:`Constraint`
values (a rule ID and a z3 formula):

* :class:`RoundVars` and :func:`round_constraints`: one round, as item counts per geisha in every
  place (the removed card, each hand and draw, secret, trade-off, gift and the card the opponent
  took from it, the two competition sets and which one the opponent took). The cards on each side
  at scoring are *derived* from these places by the action rules; nothing assumes their totals.
  The order of the turns is abstracted away: :mod:`.witness` shows, by construction and by replay
  in the engine, that every model of a round is a round the engine plays.
* :class:`Row` and :func:`update_constraints`: a row of victory markers and how one round's
  scoring moves it (SCORE-2, SCORE-3).
* :class:`Standing` and :func:`result_constraints`: geisha counts and charm (SCORE-4), the goal
  (END-2) and who wins (END-3, END-4, VAR-IT-2..4).

:class:`Problem` adds constraints to a solver with ``assert_and_track``. The tracking literal of a
constraint is named ``"RULE-ID @ where"``, so an unsatisfiable check yields an unsat core that
decodes to the rule IDs that forbid the situation (:attr:`Verdict.rules`). Every check has z3's
deterministic resource budget (``RLIMIT_PER_CHECK``); a check that z3 cannot decide is reported
as ``unknown`` or ``timeout``, never as an answer (:class:`Undecided`).

Decoding a model (:func:`decode_round`, :func:`decode_row`) and enumerating solutions
(:func:`enumerate_solutions`) are separate functions, as in z3's own examples.

>>> problem = Problem()
>>> components = Components.fresh()
>>> problem.require(component_constraints(components), "components")
>>> row = Row.fresh("m")
>>> problem.require(row_constraints(row), "row")
>>> standing = Standing.fresh("m", components)
>>> problem.require(standing_constraints(standing, row), "row")
>>> problem.require([Constraint("query", z3.And(standing.charm[0] >= 11, standing.charm[1] >= 11))],
...                 "both players 11+ charm")
>>> verdict = problem.check()
>>> verdict.status, verdict.rules
(<Status.UNSAT: 'unsat'>, ('COMP-1', 'SCORE-4'))
"""

from __future__ import annotations

from typing import Sequence

import attrs
import z3

from hanamikoji.engine.hanamikoji.cards import CHARM, GEISHA
from hanamikoji.engine.hanamikoji.rules import Reason
from hanamikoji.spec.core.solver import (  # noqa: F401  (the solver, shared by every game)
    RLIMIT_PER_CHECK,
    Constraint,
    Deadline,
    Problem,
    Status,
    Undecided,
    Verdict,
    all_of,
    any_of,
    enumerate_solutions,
    is_rule_id,
    value_atoms,
)

#: The z3 value of a victory marker in the centre (the engine's ``None``, COMP-4).
NEUTRAL = -1

#: Sizes fixed by the rules: DEAL-2, DEAL-3, DEAL-4, TURN-1, ACT-*-1, ACT-GIFT-2.
REMOVED_SIZE = 1
HAND_SIZE = 6
DECK_SIZE = 8
TURNS_EACH = 4
SECRET_SIZE, TRADE_OFF_SIZE, GIFT_SIZE, SET_SIZE, GIFT_TAKEN_SIZE = 1, 2, 3, 2, 1

#: END-2: the goal.
GEISHA_GOAL, CHARM_GOAL = 4, 11

#: z3 codes of the result reasons (END-3, END-4, VAR-IT-2..4).
REASON_CODE: dict[Reason, int] = {reason: code for code, reason in enumerate(Reason)}
CODE_REASON: dict[int, Reason] = {code: reason for reason, code in REASON_CODE.items()}
#: The z3 value of "no winner" (VAR-IT-4, a shared victory).
NO_WINNER = -1

Counts = tuple[z3.ArithRef, ...]


def _row(name: str) -> Counts:
    return tuple(z3.Int(f"{name}[{g}]") for g in GEISHA)


def _nonnegative(counts: Counts) -> z3.BoolRef:
    return z3.And([c >= 0 for c in counts])


def _size(counts: Counts, n: int | z3.ArithRef) -> z3.BoolRef:
    return z3.Sum(list(counts)) == n


def _sized(counts: Counts, n: int | z3.ArithRef) -> z3.BoolRef:
    return z3.And(_nonnegative(counts), _size(counts, n))


def _plus(*rows: Counts) -> Counts:
    return tuple(z3.Sum([row[g] for row in rows]) for g in GEISHA)


def _equal(a: Sequence, b: Sequence) -> z3.BoolRef:
    return z3.And([x == y for x, y in zip(a, b)])


def _at_most(a: Sequence, b: Sequence) -> z3.BoolRef:
    return z3.And([x <= y for x, y in zip(a, b)])


# --- components ----------------------------------------------------------------------------


@attrs.frozen(eq=False)
class Components:
    """The charm value of each geisha (COMP-1) and her number of item cards (COMP-2)."""

    charm: Counts
    items: Counts

    @classmethod
    def fresh(cls, tag: str = "") -> "Components":
        return cls(_row(f"{tag}charm"), _row(f"{tag}items"))


def component_constraints(comp: Components) -> list[Constraint]:
    """COMP-1: charm values 2, 2, 2, 3, 3, 4, 5. COMP-2: geisha g has as many cards as charm."""
    return [Constraint("COMP-1", _equal(comp.charm, CHARM)),
            Constraint("COMP-2", _equal(comp.items, comp.charm))]


# --- one round -----------------------------------------------------------------------------


@attrs.frozen(eq=False)
class RoundVars:
    """Every place of one round, as counts per geisha (index ``[p]`` is player p's place).

    ``gift_taken[p]`` is the card the opponent took from p's gift; ``sets[p]`` are p's two
    competition sets and ``set_taken[p]`` says whether the opponent took set 1 (else set 0).
    ``won_gift``, ``won_set``, ``gift_kept``, ``set_kept``, ``revealed`` are the parts of each side;
    ``sides[p]`` is what lies on p's side at scoring, secret included.
    """

    removed: Counts
    hands: tuple[Counts, Counts]
    draws: tuple[Counts, Counts]
    turns: tuple[z3.ArithRef, z3.ArithRef]
    secrets: tuple[Counts, Counts]
    trade_offs: tuple[Counts, Counts]
    gifts: tuple[Counts, Counts]
    gift_taken: tuple[Counts, Counts]
    sets: tuple[tuple[Counts, Counts], tuple[Counts, Counts]]
    set_taken: tuple[z3.BoolRef, z3.BoolRef]
    revealed: tuple[Counts, Counts]
    gift_kept: tuple[Counts, Counts]
    won_gift: tuple[Counts, Counts]
    set_kept: tuple[Counts, Counts]
    won_set: tuple[Counts, Counts]
    sides: tuple[Counts, Counts]

    @classmethod
    def fresh(cls, tag: str) -> "RoundVars":
        """Fresh z3 constants, named ``"{tag}.place[p][g]"``."""
        def pair(name: str) -> tuple[Counts, Counts]:
            return (_row(f"{tag}.{name}[0]"), _row(f"{tag}.{name}[1]"))

        return cls(
            removed=_row(f"{tag}.removed"),
            hands=pair("hand"), draws=pair("draws"),
            turns=(z3.Int(f"{tag}.turns[0]"), z3.Int(f"{tag}.turns[1]")),
            secrets=pair("secret"), trade_offs=pair("trade_off"), gifts=pair("gift"),
            gift_taken=pair("gift_taken"),
            sets=(pair("set[0]"), pair("set[1]")),
            set_taken=(z3.Bool(f"{tag}.set_taken[0]"), z3.Bool(f"{tag}.set_taken[1]")),
            revealed=pair("revealed"), gift_kept=pair("gift_kept"), won_gift=pair("won_gift"),
            set_kept=pair("set_kept"), won_set=pair("won_set"), sides=pair("side"),
        )


def round_constraints(r: RoundVars, comp: Components) -> list[Constraint]:
    """DEAL-1..4, TURN-1..3, ACT-*-1..3 and SCORE-1 for one round.

    The sides follow from the actions: a player's side holds their revealed secret
    (ACT-SECRET-3), the two cards they kept of their gift (ACT-GIFT-3), the card they took from
    the opponent's gift (ACT-GIFT-2), the set they kept of their competition (ACT-COMP-3) and the
    set they took from the opponent's (ACT-COMP-2); trade-offs and the removed card lie on no side
    (ACT-TRADE-3, DEAL-2). A player's actions take their cards from the hand, dealt or drawn
    (TURN-3); that this uses up the hand exactly is a consequence, not a constraint.
    """
    out = [
        Constraint("DEAL-1", _equal(_plus(r.removed, *r.hands, *r.draws), comp.items)),
        Constraint("DEAL-2", _sized(r.removed, REMOVED_SIZE)),
        Constraint("DEAL-3", z3.And([_sized(h, HAND_SIZE) for h in r.hands])),
        Constraint("DEAL-4", z3.And(_nonnegative(r.draws[0]), _nonnegative(r.draws[1]),
                                    z3.Sum(list(r.draws[0] + r.draws[1])) == DECK_SIZE)),
        Constraint("TURN-1", z3.And([t == TURNS_EACH for t in r.turns])),
    ]
    for p in (0, 1):
        o = 1 - p
        used = _plus(r.secrets[p], r.trade_offs[p], r.gifts[p], *r.sets[p])
        out += [
            Constraint("TURN-2", _size(r.draws[p], r.turns[p])),
            Constraint("TURN-3", _at_most(used, _plus(r.hands[p], r.draws[p]))),
            Constraint("ACT-SECRET-1", _sized(r.secrets[p], SECRET_SIZE)),
            Constraint("ACT-TRADE-1", _sized(r.trade_offs[p], TRADE_OFF_SIZE)),
            Constraint("ACT-GIFT-1", _sized(r.gifts[p], GIFT_SIZE)),
            Constraint("ACT-COMP-1", z3.And([_sized(s, SET_SIZE) for s in r.sets[p]])),
            Constraint("ACT-GIFT-2", z3.And(_sized(r.gift_taken[p], GIFT_TAKEN_SIZE),
                                            _at_most(r.gift_taken[p], r.gifts[p]),
                                            _equal(r.won_gift[o], r.gift_taken[p]))),
            Constraint("ACT-GIFT-3", _equal(r.gift_kept[p],
                                            [x - y for x, y in zip(r.gifts[p], r.gift_taken[p])])),
            Constraint("ACT-COMP-2", _equal(r.won_set[o], [
                z3.If(r.set_taken[p], b, a) for a, b in zip(*r.sets[p])])),
            Constraint("ACT-COMP-3", _equal(r.set_kept[p], [
                z3.If(r.set_taken[p], a, b) for a, b in zip(*r.sets[p])])),
            Constraint("ACT-SECRET-3", _equal(r.revealed[p], r.secrets[p])),
            Constraint("SCORE-1", _equal(r.sides[p], _plus(
                r.revealed[p], r.gift_kept[p], r.won_gift[p], r.set_kept[p], r.won_set[p]))),
        ]
    return out


def sides_constraint(r: RoundVars, sides: tuple[Sequence[int], Sequence[int]],
                     label: str = "given sides") -> Constraint:
    """A hypothesis: the two sides at scoring are exactly ``sides`` (counts per geisha)."""
    return Constraint(label, z3.And(_equal(r.sides[0], sides[0]), _equal(r.sides[1], sides[1])))


# --- marker rows ---------------------------------------------------------------------------


@attrs.frozen(eq=False)
class Row:
    """A row of victory markers: per geisha NEUTRAL, 0 or 1 (the engine's None, 0, 1).

    The atoms ``held(p, g)`` are built once: searches use them in thousands of clauses.
    """

    markers: Counts
    _held: tuple[tuple[z3.BoolRef, ...], ...] = attrs.field(repr=False)
    _free: tuple[tuple[z3.BoolRef, ...], ...] = attrs.field(repr=False)

    @classmethod
    def fresh(cls, tag: str) -> "Row":
        markers = _row(f"{tag}.marker")
        held = tuple(tuple(m == p for m in markers) for p in (0, 1))
        return cls(markers, held, tuple(tuple(z3.Not(h) for h in row) for row in held))

    def held(self, player: int, g: int) -> z3.BoolRef:
        return self._held[player][g]

    def atoms(self) -> list[z3.BoolRef]:
        """The atoms ``held(p, g)``; given COMP-4 their values fix the row."""
        return [h for row in self._held for h in row]

    def literals(self, markers: Sequence[int | None]) -> list[z3.BoolRef]:
        """Literals of the atoms ``held(p, g)`` that (given COMP-4) make this row ``markers``."""
        return [self._held[p][g] if m == p else self._free[p][g]
                for g, m in enumerate(markers) for p in (0, 1)]

    def equals(self, markers: Sequence[int | None]) -> z3.BoolRef:
        """This row is ``markers``."""
        return all_of(self.literals(markers))

    def differs(self, markers: Sequence[int | None]) -> z3.BoolRef:
        """This row is not ``markers`` (a blocking clause)."""
        return any_of([self._free[p][g] if m == p else self._held[p][g]
                       for g, m in enumerate(markers) for p in (0, 1)])


def row_constraints(row: Row) -> list[Constraint]:
    """COMP-4: one victory marker per geisha, in her centre or on one player's side."""
    return [Constraint("COMP-4", z3.And([z3.And(m >= NEUTRAL, m <= 1) for m in row.markers]))]


def start_constraints(row: Row) -> list[Constraint]:
    """COMP-4: at the start of the game every marker is in the centre."""
    return [Constraint("COMP-4", z3.And([m == NEUTRAL for m in row.markers]))]


def update_constraints(before: Row, sides: tuple[Counts, Counts], after: Row) -> list[Constraint]:
    """SCORE-2: the side with strictly more items wins the geisha; SCORE-3: a tie leaves her
    marker where it was. UPDATE-2: markers carry over to the next round (``after`` is the next
    round's ``before``)."""
    a, b = sides
    return [
        Constraint("SCORE-2", z3.And([z3.And(z3.Implies(a[g] > b[g], after.markers[g] == 0),
                                             z3.Implies(b[g] > a[g], after.markers[g] == 1))
                                      for g in GEISHA])),
        Constraint("SCORE-3", z3.And([z3.Implies(a[g] == b[g],
                                                 after.markers[g] == before.markers[g])
                                      for g in GEISHA])),
    ]


# --- standing, goal and result -------------------------------------------------------------


@attrs.frozen(eq=False)
class Standing:
    """What a row means for each player: geisha count and charm (SCORE-4), whether they reach the
    goal (END-2), and the game's result if it ends there (END-3, END-4, VAR-IT-2..4)."""

    geisha: tuple[z3.ArithRef, z3.ArithRef]
    charm: tuple[z3.ArithRef, z3.ArithRef]
    goal: tuple[z3.BoolRef, z3.BoolRef]
    ended: z3.BoolRef
    winner: z3.ArithRef
    reason: z3.ArithRef
    components: Components

    @classmethod
    def fresh(cls, tag: str, components: Components) -> "Standing":
        two = lambda name, make: (make(f"{tag}.{name}[0]"), make(f"{tag}.{name}[1]"))
        return cls(geisha=two("geisha", z3.Int), charm=two("charm", z3.Int),
                   goal=two("goal", z3.Bool), ended=z3.Bool(f"{tag}.ended"),
                   winner=z3.Int(f"{tag}.winner"), reason=z3.Int(f"{tag}.reason"),
                   components=components)


def standing_constraints(s: Standing, row: Row) -> list[Constraint]:
    """SCORE-4: a player's geisha are the markers on their side, their charm the sum of those
    geisha's charm values (COMP-1, required once per problem with :func:`component_constraints`)."""
    out = []
    for p in (0, 1):
        out.append(Constraint("SCORE-4", z3.And(
            s.geisha[p] == z3.Sum([z3.If(row.held(p, g), 1, 0) for g in GEISHA]),
            s.charm[p] == z3.Sum([z3.If(row.held(p, g), s.components.charm[g], 0)
                                  for g in GEISHA]))))
    return out


def goal_constraints(s: Standing) -> list[Constraint]:
    """END-2: a player reaches the goal with 4+ geisha or 11+ charm."""
    return [Constraint("END-2", z3.And([s.goal[p] == z3.Or(s.geisha[p] >= GEISHA_GOAL,
                                                           s.charm[p] >= CHARM_GOAL)
                                        for p in (0, 1)]))]


def _winner_is(s: Standing, player: int, reason: Reason) -> z3.BoolRef:
    return z3.And(s.winner == player, s.reason == REASON_CODE[reason])


def result_constraints(s: Standing, row: Row, *, at_limit: bool) -> list[Constraint]:
    """END-2 (the game ends when a goal is reached), END-3 (one player at the goal: "charm" if
    they have 11+ charm, else "geisha"), END-4 (4+ geisha against 11+ charm: the latter wins).

    With ``at_limit`` (the third round of ``italian-three-rounds``) the game ends anyway (VAR-IT-1):
    VAR-IT-2 (more charm wins), VAR-IT-3 (on equal charm, compare the charm values held, sorted
    from the highest down), VAR-IT-4 (still equal: shared).
    """
    g0, g1 = s.goal
    ends = (Constraint("VAR-IT-1", s.ended) if at_limit
            else Constraint("END-2", s.ended == z3.Or(g0, g1)))
    out = [ends]
    end3 = []
    for p in (0, 1):
        only = z3.And(s.goal[p], z3.Not(s.goal[1 - p]))
        end3.append(z3.Implies(only, z3.If(s.charm[p] >= CHARM_GOAL,
                                           _winner_is(s, p, Reason.CHARM),
                                           _winner_is(s, p, Reason.GEISHA))))
    out.append(Constraint("END-3", z3.And(end3)))
    out.append(Constraint("END-4", z3.Implies(z3.And(g0, g1), z3.And(
        s.reason == REASON_CODE[Reason.CHARM_OVER_GEISHA],
        z3.Or([z3.And(s.winner == p, s.charm[p] >= CHARM_GOAL) for p in (0, 1)])))))
    if not at_limit:
        return out
    none = z3.And(z3.Not(g0), z3.Not(g1))
    c0, c1 = s.charm
    out.append(Constraint("VAR-IT-2", z3.Implies(z3.And(none, c0 != c1), z3.If(
        c0 > c1, _winner_is(s, 0, Reason.ROUND_LIMIT_CHARM),
        _winner_is(s, 1, Reason.ROUND_LIMIT_CHARM)))))
    order = held_values_order(s, row)
    out.append(Constraint("VAR-IT-3", z3.Implies(z3.And(none, c0 == c1, order != 0), z3.If(
        order > 0, _winner_is(s, 0, Reason.ROUND_LIMIT_HIGHEST_GEISHA),
        _winner_is(s, 1, Reason.ROUND_LIMIT_HIGHEST_GEISHA)))))
    out.append(Constraint("VAR-IT-4", z3.Implies(z3.And(none, c0 == c1, order == 0), z3.And(
        s.winner == NO_WINNER, s.reason == REASON_CODE[Reason.SHARED]))))
    return out


CHARM_VALUES = tuple(sorted(set(CHARM), reverse=True))


def held_values_order(s: Standing, row: Row) -> z3.ArithRef:
    """VAR-IT-3, reading (b): +1 if player 0's held charm values, sorted from the highest down,
    come first in lexicographic order (a longer list beating its own prefix), -1 if player 1's
    do, 0 if equal.

    Comparing the sorted lists so is comparing, value by value from the highest, how many geisha
    of that value each player holds: at the first value where the counts differ, the player with
    more such geisha has that value where the other has a lower one or none.
    """
    order: z3.ArithRef = z3.IntVal(0)
    for value in reversed(CHARM_VALUES):  # built inside out: the highest value decides first
        n = [z3.Sum([z3.If(z3.And(row.held(p, g), s.components.charm[g] == value), 1, 0)
                     for g in GEISHA]) for p in (0, 1)]
        order = z3.If(n[0] > n[1], 1, z3.If(n[1] > n[0], -1, order))
    return order


def highest_value_order(s: Standing, row: Row) -> z3.ArithRef:
    """VAR-IT-3, reading (a): +1 if player 0's single highest held charm value is higher than
    player 1's (none counts as 0), -1 if lower, 0 if equal."""
    top = []
    for p in (0, 1):
        best: z3.ArithRef = z3.IntVal(0)
        for g in GEISHA:
            c = s.components.charm[g]
            best = z3.If(z3.And(row.held(p, g), c > best), c, best)
        top.append(best)
    return z3.If(top[0] > top[1], 1, z3.If(top[1] > top[0], -1, 0))


def five_charm_order(s: Standing, row: Row) -> z3.ArithRef:
    """VAR-IT-3, reading (c): +1 if player 0 holds the geisha of charm 5, -1 if player 1 does,
    0 if she is neutral (the reading then falls through to VAR-IT-4, a shared victory)."""
    holds = [z3.Or([z3.And(row.held(p, g), s.components.charm[g] == max(CHARM_VALUES))
                    for g in GEISHA]) for p in (0, 1)]
    return z3.If(holds[0], 1, z3.If(holds[1], -1, 0))


#: The readings of VAR-IT-3 (spec/hanamikoji/rules.md, "Where the rulebook is silent" 4): each a
#: name, its words, and its order term (+1: player 0 wins the tiebreak, -1: player 1, 0: neither).
#: The engine takes (b).
TIEBREAK_READINGS = (
    ("a", "the single highest geisha each player holds", highest_value_order),
    ("b", "the charm values each player holds, from the highest down", held_values_order),
    ("c", "whoever holds the geisha of charm 5, else shared", five_charm_order),
)
ENGINE_READING = "b"


# --- decoding ------------------------------------------------------------------------------


def _value(model: z3.ModelRef, term: z3.ExprRef) -> int:
    return model.eval(term, model_completion=True).as_long()


def decode_counts(model: z3.ModelRef, counts: Counts) -> tuple[int, ...]:
    return tuple(_value(model, c) for c in counts)


def decode_row(model: z3.ModelRef, row: Row) -> tuple[int | None, ...]:
    """A z3 row as an engine marker row (None for the centre)."""
    return tuple(None if v == NEUTRAL else v for v in decode_counts(model, row.markers))


def row_of_atoms(values: Sequence[bool]) -> tuple[int | None, ...]:
    """The marker row given the values of :meth:`Row.atoms` (player 0's seven, then 1's)."""
    n = len(values) // 2
    return tuple(0 if values[g] else 1 if values[n + g] else None for g in range(n))


def decode_result(model: z3.ModelRef, s: Standing) -> tuple[int | None, Reason] | None:
    """(winner, reason) if the standing ended the game, else None."""
    if not z3.is_true(model.eval(s.ended, model_completion=True)):
        return None
    winner = _value(model, s.winner)
    return (None if winner == NO_WINNER else winner), CODE_REASON[_value(model, s.reason)]


@attrs.frozen
class RoundPlan:
    """A decoded round: every place as a 7-tuple of counts (``set_taken[p]``: 0 or 1)."""

    removed: tuple[int, ...]
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    draws: tuple[tuple[int, ...], tuple[int, ...]]
    secrets: tuple[tuple[int, ...], tuple[int, ...]]
    trade_offs: tuple[tuple[int, ...], tuple[int, ...]]
    gifts: tuple[tuple[int, ...], tuple[int, ...]]
    gift_taken: tuple[tuple[int, ...], tuple[int, ...]]
    sets: tuple[tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[int, ...], tuple[int, ...]]]
    set_taken: tuple[int, int]
    sides: tuple[tuple[int, ...], tuple[int, ...]]


def decode_round(model: z3.ModelRef, r: RoundVars) -> RoundPlan:
    """The round a model describes, as plain counts."""
    two = lambda rows: (decode_counts(model, rows[0]), decode_counts(model, rows[1]))
    taken = lambda t: int(z3.is_true(model.eval(t, model_completion=True)))
    return RoundPlan(
        removed=decode_counts(model, r.removed), hands=two(r.hands), draws=two(r.draws),
        secrets=two(r.secrets), trade_offs=two(r.trade_offs), gifts=two(r.gifts),
        gift_taken=two(r.gift_taken), sets=(two(r.sets[0]), two(r.sets[1])),
        set_taken=(taken(r.set_taken[0]), taken(r.set_taken[1])),
        sides=two(r.sides))
