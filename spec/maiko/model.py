"""The end of a Maiko game as z3 sees it: what the rules allow a final position to be.

:class:`Ending` states, as constraints over whole numbers, what every final position of a Maiko
game satisfies (or, with ``moment=True``, every position during play): for each player the
multiset on their maiko board (``board[p][c][i]``, tiles of colour c and item i), what is
discarded, what is still on the game board (face down, or face up as the first tile of a flip),
the box of a 2-player game, the tokens in hand, each player's score and own-colour count, the
winners and the end reason. Every constraint comes from one rule and is tracked under
``"RULE-ID @ where"`` (:class:`~hanamikoji.spec.core.solver.Problem`), so that a question the
rules forbid comes back unsatisfiable with an unsat core of MK rules; the question's own terms
are tracked under labels that are not rule IDs (``question: ...``).

**What it is.** A *sound relaxation*: every position the engine can reach satisfies every
constraint (each is justified below, and the tests check engine positions against the model),
so what the model forbids cannot happen. It may allow positions no game reaches, since it does
not order events in time; so an optimum it proves is a bound, and a query claims it only with a
witness game, replayed in the engine, that reaches it.

**The constraints**, by rule (``p`` a player, ``c`` a colour, ``i`` an item):

* MK-COMP-1 (the tiles): each of the 36 kinds of item tile has 2 copies, each one somewhere:
  on a maiko board, discarded, face down or face up on the game board, or in the box; the 9
  friends face down, face up or in the box. All counts are whole numbers.
* MK-SETUP-4 (2 players) or MK-SETUP-3 (3, 4 players), the box: the 18 tiles of the removed
  colour and 3 friends with 2 players, nothing otherwise. The box never changes.
* MK-FLIP-1 (the game board): at most one item tile lies face up, the first tile of a flip in
  progress (a friend turned face up is counted apart; a pair leaves the game board).
* MK-COMP-2 (tokens): the tokens in hands are at most the 16 of the game.
* MK-SCORE-1: ``score[p] = own[p] - (tiles[p] - own[p])``, own the tiles of p's colour.
* MK-COMP-4: ``full[p]`` holds when every item space of p's board holds a tile.
* **The bound of a filled board** (MK-END-1, MK-FLIP-3, MK-TUTOR-1, MK-TUTOR-DANNA-2,
  MK-TUTOR-OKASAN-1, MK-END-2). ``filled[p]``: p's board was full at some moment. Tiles reach a
  maiko board only by a placement on the board of the player taking the decision (a pair,
  MK-FLIP-3; a Danna item, MK-TUTOR-DANNA-2; an Oka-san tile, MK-TUTOR-OKASAN-1), so a board is
  first full just after a placement on its last empty item space ``last[p]``, in p's turn, and:

  - MK-END-1: a board full at the end was filled at some moment; ``last[p]`` held nothing
    before the fill, so the tiles on it at the end are at most the fill's tiles plus the tiles
    placed on p's board since (``after``). After the fill p flips no more (MK-END-1 for the
    player who triggers the end, MK-END-3 "as MK-END-1 says" for one who fills in a last turn):
    no pair follows in that turn.
  - MK-FLIP-3: the fill placed at most 2 tiles (a pair; Danna and Oka-san place one); and a
    pair in a later turn goes to the flipper's board, so it reaches p's board only in a later
    turn of p's.
  - MK-TUTOR-DANNA-2, MK-TUTOR-OKASAN-1: in the rest of the filling turn only a visit places a
    tile, one per visit; in later turns a Danna or Oka-san tile reaches p's board only in a
    turn of p's (each goes onto the visitor's own board).
  - MK-TUTOR-1: one visit per turn, so at most one visit after the fill, and none if the fill
    itself was a visit (a single tile).
  - MK-END-2: p takes no turn after the one in which their board is filled: the player who
    triggers the end is followed by the last turns of the others up to the one before the
    first player, and a player who fills in a last turn has no later turn.

  Together: the item space filled last ends with at most 2 + 1 = 3 tiles. Row discards,
  Sabanto and the Oka-san visits of others only take tiles away, and the other item spaces are
  bounded by the tiles in play alone. A board never full has an empty item space at the end
  (MK-COMP-4). With ``moment=True`` the same holds at every moment of play: before the fill an
  item space is empty, after it ``after`` counts the tiles placed so far.

At the end of a game (``moment=False``) also:

* MK-END-5: the game ended in exactly one way: ``full-board``, ``static`` or
  ``no-face-down-tile``.
* MK-END-2: a full-board end needs a board filled at some moment (the trigger stands even if
  an item space is emptied again), and comes at the end of a turn, when a first tile flipped
  has gone back face down.
* MK-STATIC-1, MK-STATIC-2: a static end needs that the end was never triggered (no board
  ever full), no token in any hand, no face-down friend, at most one face-down tile of each
  item, no flip in progress, and at least one face-down tile (with none, MK-END-4 ends first).
* MK-END-4: an end for want of a face-down tile leaves no tile face down (a first tile flipped
  may stay face up: MK-FLIP-1 allows one).
* MK-SCORE-2: a winner has the most points; MK-SCORE-3: among those tied on points, a winner
  has the most own-colour tiles; MK-SCORE-4: every player that no one beats on points and then
  on own-colour tiles is a winner (a shared victory names them all).

>>> from hanamikoji.engine.maiko import Config
>>> ending = Ending(Config.make(2))
>>> sorted({rule for rule, _, _ in ending.parts})[:4]
['MK-COMP-1', 'MK-COMP-2', 'MK-COMP-4', 'MK-END-1']
>>> best = optimum(ending, [(s, True) for s in ending.scores], "max", "a player's score",
...                Deadline(30))
>>> best.value, best.check.rules
(18, ('MK-COMP-1', 'MK-SCORE-1'))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import attrs
import z3

from hanamikoji.engine.maiko import Config, Phase, State
from hanamikoji.engine.maiko.components import (
    COPIES,
    FRIEND,
    NUM_COLOURS,
    NUM_FRIENDS,
    NUM_ITEMS,
    PLAYER_COUNTS,
    TOTAL_TOKENS,
    TWO_PLAYER_FRIENDS_REMOVED,
    tile_name,
)
from hanamikoji.engine.maiko.game import DOWN, UP
from hanamikoji.spec.core.queries import Counterexample, ModelInconsistency, Proof
from hanamikoji.spec.core.solver import (
    Constraint,
    Deadline,
    Problem,
    Status,
    solve,
    unknown,
)

__all__ = [
    "PLAYER_COUNTS",
    "REASONS",
    "Deadline",
    "Ending",
    "Optimum",
    "Seat",
    "decide",
    "optimum",
    "satisfiable",
]

#: The ways a game ends (the engine's result reasons), MK-END-5.
REASONS = ("full-board", "static", "no-face-down-tile")
COLOURS = range(NUM_COLOURS)
ITEMS = range(NUM_ITEMS)


@attrs.frozen(eq=False)
class Seat:
    """One player's terms: the board (``board[c][i]``), the tiles on each item space, the
    totals, whether the board is full now and was ever full (``filled``), the item space
    filled last, the tokens in hand, and whether the player wins."""

    player: int
    colour: int
    board: tuple[tuple[z3.ArithRef, ...], ...]
    on_item: tuple[z3.ArithRef, ...]
    tiles: z3.ArithRef
    own: z3.ArithRef
    score: z3.ArithRef
    full: z3.BoolRef
    filled: z3.BoolRef
    last: z3.ArithRef
    hand: z3.ArithRef
    winner: z3.BoolRef


class Ending:
    """The constraints of a final position of a game of ``config`` (of any position during
    play with ``moment=True``: no end reason, no winners). ``parts`` are ``(rule, where,
    formula)``; :meth:`problem` tracks each under ``"rule @ where"``."""

    def __init__(self, config: Config, *, moment: bool = False,
                 without: Iterable[str] = ()) -> None:
        self.config = config
        self.moment = moment
        #: Rules left out (a weakened rule set), for "what if" questions and the tests.
        self.without = frozenset(without)
        self.parts: list[tuple[str, str, z3.BoolRef]] = []
        self._build()

    # --- building

    def _add(self, rule: str, where: str, *formulas: z3.BoolRef) -> None:
        self.parts.append((rule, where, z3.And(*formulas) if len(formulas) != 1 else formulas[0]))

    def _build(self) -> None:
        config = self.config
        n = config.players
        removed = None if config.removed_colour is None else int(config.removed_colour)
        setup = "MK-SETUP-4" if n == 2 else "MK-SETUP-3"
        Int = z3.Int

        # Where every tile is (MK-COMP-1) and the box (MK-SETUP-3/4).
        board = [[[Int(f"board[{p}][{tile_name(c * NUM_ITEMS + i)}]") for i in ITEMS]
                  for c in COLOURS] for p in range(n)]
        self.discarded = [[Int(f"discarded[{tile_name(c * NUM_ITEMS + i)}]") for i in ITEMS]
                          for c in COLOURS]
        self.down = [[Int(f"down[{tile_name(c * NUM_ITEMS + i)}]") for i in ITEMS]
                     for c in COLOURS]
        self.up = [[Int(f"up[{tile_name(c * NUM_ITEMS + i)}]") for i in ITEMS] for c in COLOURS]
        self.box = [[Int(f"box[{tile_name(c * NUM_ITEMS + i)}]") for i in ITEMS] for c in COLOURS]
        self.friends_down, self.friends_up, self.friends_box = (
            Int("friends_down"), Int("friends_up"), Int("friends_box"))
        places = [self.discarded, self.down, self.up, self.box] + board
        self._add("MK-COMP-1", "the tiles",
                  *[z3.Sum([place[c][i] for place in places]) == COPIES
                    for c in COLOURS for i in ITEMS],
                  *[place[c][i] >= 0 for place in places for c in COLOURS for i in ITEMS],
                  self.friends_down + self.friends_up + self.friends_box == NUM_FRIENDS,
                  self.friends_down >= 0, self.friends_up >= 0, self.friends_box >= 0)
        self._add(setup, "the box",
                  *[self.box[c][i] == (COPIES if c == removed else 0)
                    for c in COLOURS for i in ITEMS],
                  self.friends_box == (TWO_PLAYER_FRIENDS_REMOVED if n == 2 else 0))
        self.face_up = z3.Sum([self.up[c][i] for c in COLOURS for i in ITEMS])
        self.face_down = z3.Sum([self.down[c][i] for c in COLOURS for i in ITEMS]
                                + [self.friends_down])
        self._add("MK-FLIP-1", "the game board", self.face_up <= 1)

        # Each player: score, fullness, the bound of a filled board, tokens in hand.
        seats = []
        for p in range(n):
            colour = int(config.colours[p])
            on_item = tuple(z3.Sum([board[p][c][i] for c in COLOURS]) for i in ITEMS)
            tiles = z3.Sum(list(on_item))
            own = z3.Sum(board[p][colour])
            score = Int(f"score[{p}]")
            where = f"player {p}"
            self._add("MK-SCORE-1", where, score == own - (tiles - own))
            full, filled, last = z3.Bool(f"full[{p}]"), z3.Bool(f"filled[{p}]"), Int(f"last[{p}]")
            self._add("MK-COMP-4", where, full == z3.And([t >= 1 for t in on_item]))
            self._filled_board(p, on_item, full, filled, last)
            seats.append(Seat(p, colour, tuple(tuple(row) for row in board[p]), on_item, tiles,
                              own, score, full, filled, last, Int(f"hand[{p}]"),
                              z3.Bool(f"winner[{p}]")))
        self.seats: tuple[Seat, ...] = tuple(seats)
        self._add("MK-COMP-2", "tokens", *[s.hand >= 0 for s in seats],
                  z3.Sum([s.hand for s in seats]) <= TOTAL_TOKENS)
        self.triggered = z3.Or([s.filled for s in seats])
        self.reason = {r: z3.Bool(f"reason={r}") for r in REASONS}
        if not self.moment:
            self._end()
            self._winners()

    def _filled_board(self, p: int, on_item: Sequence[z3.ArithRef], full: z3.BoolRef,
                      filled: z3.BoolRef, last: z3.ArithRef) -> None:
        """The bound of a filled board (the module's docstring gives the argument)."""
        Int = z3.Int
        fill = Int(f"fill[{p}]")                      # tiles the filling placement put on last
        visits = Int(f"ending_visits[{p}]")           # Danna and Oka-san visits after the fill
        danna_v, okasan_v = Int(f"ending_danna_visits[{p}]"), Int(f"ending_okasan_visits[{p}]")
        ending_pair = Int(f"ending_pair_tiles[{p}]")  # tiles placed after the fill, that turn
        ending_danna = Int(f"ending_danna_tiles[{p}]")
        ending_okasan = Int(f"ending_okasan_tiles[{p}]")
        later_turns = Int(f"later_turns[{p}]")        # p's turns after the filling turn
        later_pair, later_danna, later_okasan = (Int(f"later_{k}_tiles[{p}]")
                                                 for k in ("pair", "danna", "okasan"))
        after = z3.Sum([ending_pair, ending_danna, ending_okasan, later_pair, later_danna,
                        later_okasan])
        where = f"player {p}"
        self._add("MK-END-1", where,
                  z3.Implies(full, filled),
                  z3.Implies(filled, z3.And(
                      0 <= last, last < NUM_ITEMS, fill >= 1,
                      *[z3.Implies(last == i, on_item[i] <= fill + after) for i in ITEMS])),
                  ending_pair == 0)
        self._add("MK-FLIP-3", where, fill <= 2,
                  later_pair >= 0, z3.Implies(later_pair > 0, later_turns > 0))
        self._add("MK-TUTOR-DANNA-2", where, ending_danna >= 0, ending_danna <= danna_v,
                  later_danna >= 0, z3.Implies(later_danna > 0, later_turns > 0))
        self._add("MK-TUTOR-OKASAN-1", where, ending_okasan >= 0, ending_okasan <= okasan_v,
                  later_okasan >= 0, z3.Implies(later_okasan > 0, later_turns > 0))
        self._add("MK-TUTOR-1", where, danna_v >= 0, okasan_v >= 0, visits == danna_v + okasan_v,
                  visits <= 1, z3.Implies(fill <= 1, visits == 0))
        self._add("MK-END-2", where, z3.Implies(filled, later_turns == 0))

    def _end(self) -> None:
        """How the game ended (MK-END-2, MK-END-4, MK-END-5, MK-STATIC-1, MK-STATIC-2). A
        full-board end comes from ``end_turn`` after the last turn, when a first tile has gone
        back face down; a static end is checked at a first flip, before the trigger (so no
        board was ever full: the trigger stands once made); an end for want of a face-down
        tile may leave the first tile of a flip face up (MK-FLIP-1 allows that one)."""
        r = self.reason
        seats = self.seats
        self._add("MK-END-5", "the end",
                  z3.Sum([z3.If(b, 1, 0) for b in r.values()]) == 1)
        self._add("MK-END-2", "the end",
                  z3.Implies(r["full-board"], z3.And(self.triggered, self.face_up == 0)))
        self._add("MK-STATIC-1", "the end", z3.Implies(r["static"], z3.And(
            z3.Not(self.triggered), *[s.hand == 0 for s in seats], self.friends_down == 0,
            *[z3.Sum([self.down[c][i] for c in COLOURS]) <= 1 for i in ITEMS],
            self.face_up == 0)))
        self._add("MK-STATIC-2", "the end", z3.Implies(r["static"], self.face_down >= 1))
        self._add("MK-END-4", "the end",
                  z3.Implies(r["no-face-down-tile"], self.face_down == 0))

    def _winners(self) -> None:
        """MK-SCORE-2..4 as the engine ranks (``decide``): by points, then own-colour tiles;
        every player no one beats on that order wins. Split by rule: a winner has the most
        points (2), a winner has the most own-colour tiles among those tied on points (3), and
        a player nobody beats is a winner (4)."""
        seats = self.seats

        def beats_or_ties(a: Seat, b: Seat) -> z3.BoolRef:
            return z3.Or(a.score > b.score, z3.And(a.score == b.score, a.own >= b.own))

        self._add("MK-SCORE-2", "the winners",
                  *[z3.Implies(a.winner, a.score >= b.score) for a in seats for b in seats])
        self._add("MK-SCORE-3", "the winners",
                  *[z3.Implies(z3.And(a.winner, a.score == b.score), a.own >= b.own)
                    for a in seats for b in seats])
        self._add("MK-SCORE-4", "the winners",
                  *[z3.Implies(z3.And([beats_or_ties(a, b) for b in seats]), a.winner)
                    for a in seats])

    # --- reading

    @property
    def scores(self) -> list[z3.ArithRef]:
        return [s.score for s in self.seats]

    @property
    def players(self) -> int:
        return self.config.players

    def problem(self, deadline: Deadline | None = None, *, cores: bool = True) -> Problem:
        """A problem holding every constraint, tracked (``cores=False``: untracked, for the
        checks whose unsat core nobody reads)."""
        problem = Problem(deadline, cores=cores, without=self.without)
        for rule, where, formula in self.parts:
            problem.require([Constraint(rule, formula)], where)
        return problem

    def winners_count(self) -> z3.ArithRef:
        return z3.Sum([z3.If(s.winner, 1, 0) for s in self.seats])

    def decode(self, model: z3.ModelRef) -> dict[str, Any]:
        """A final position of the model, in words: each board (tile names and counts), the
        scores, the winners and the reason."""
        def value(term: z3.ArithRef) -> int:
            return model.eval(term, model_completion=True).as_long()

        def true(term: z3.BoolRef) -> bool:
            return z3.is_true(model.eval(term, model_completion=True))

        out: dict[str, Any] = {
            "boards": [{tile_name(c * NUM_ITEMS + i): value(s.board[c][i])
                        for c in COLOURS for i in ITEMS if value(s.board[c][i])}
                       for s in self.seats],
            "scores": [value(s.score) for s in self.seats],
            "own_colour": [value(s.own) for s in self.seats],
        }
        if not self.moment:
            out["winners"] = [s.player for s in self.seats if true(s.winner)]
            out["reason"] = next(r for r, b in self.reason.items() if true(b))
        return out

    # --- engine positions

    def facts(self, state: State) -> list[z3.BoolRef]:
        """What an engine position fixes of the model's terms: every board, the discards, the
        game board, the box, the hands, and at the end the reason and the winners (the
        auxiliary terms, such as the item space filled last, are left to z3)."""
        if state.config != self.config:
            raise ValueError("the state is of another configuration")
        out: list[z3.BoolRef] = []
        down = [[0] * NUM_ITEMS for _ in COLOURS]
        up = [[0] * NUM_ITEMS for _ in COLOURS]
        friends = {DOWN: 0, UP: 0}
        for space, status in enumerate(state.spaces):
            code = state.layout[space]
            if status in (DOWN, UP):
                if code == FRIEND:
                    friends[status] += 1
                else:
                    (down if status == DOWN else up)[code // NUM_ITEMS][code % NUM_ITEMS] += 1
        discarded = [[0] * NUM_ITEMS for _ in COLOURS]
        for code in state.discarded:
            discarded[code // NUM_ITEMS][code % NUM_ITEMS] += 1
        for c in COLOURS:
            for i in ITEMS:
                out += [self.down[c][i] == down[c][i], self.up[c][i] == up[c][i],
                        self.discarded[c][i] == discarded[c][i]]
                out += [s.board[c][i] == state.boards[s.player][i * NUM_COLOURS + c]
                        for s in self.seats]
        out += [self.friends_down == friends[DOWN], self.friends_up == friends[UP]]
        out += [s.hand == state.hands[s.player] for s in self.seats]
        if not self.moment:
            if state.phase is not Phase.OVER or state.result is None:
                raise ValueError("the end model reads only a finished game")
            out += [b == (r == state.result.reason.value) for r, b in self.reason.items()]
            out += [s.winner == (s.player in state.result.winners) for s in self.seats]
        return out

    def admits(self, state: State, deadline: Deadline | None = None) -> bool:
        """Whether the engine position ``state`` satisfies every constraint (the model's
        soundness, checked on real games by the tests)."""
        problem = self.problem(deadline)
        problem.require([Constraint("position", z3.And(self.facts(state)))], "the engine")
        return problem.check().decided().status is Status.SAT


# --- questions ------------------------------------------------------------------------------


def _hypothesis(problem: Problem, label: str, formula: z3.BoolRef) -> None:
    problem.require([Constraint(f"question: {label}", formula)], "the question")


def satisfiable(ending: Ending, deadline: Deadline, label: str, formula: z3.BoolRef,
                given: Sequence[tuple[str, z3.BoolRef]] = ()) -> z3.ModelRef | None:
    """A model of the constraints with ``formula`` (the question, labelled ``label``) and the
    ``given`` hypotheses, or None when there is none."""
    problem = ending.problem(deadline, cores=False)
    for name, extra in given:
        _hypothesis(problem, name, extra)
    _hypothesis(problem, label, formula)
    verdict = problem.check().decided()
    return verdict.model if verdict.status is Status.SAT else None


def decide(ending: Ending, deadline: Deadline, claim: str, label: str,
           cases: Sequence[z3.BoolRef], given: Sequence[tuple[str, z3.BoolRef]] = ()
           ) -> Proof | Counterexample:
    """``claim`` decided either way. Its negation is the disjunction of ``cases`` (labelled
    ``label``, with the ``given`` hypotheses): each case is refuted by its own tracked check (the
    core of a disjunction is far costlier to minimise) and the proof names the union of their
    unsat cores; the first case z3 satisfies makes a :class:`Counterexample` of the final
    position it found (:meth:`Ending.decode`; a position of the model, not of a game)."""
    rules: set[str] = set()
    hypotheses: set[str] = set()
    dropped: set[str] = set()
    for case in cases:
        problem = ending.problem(deadline)
        for name, extra in given:
            _hypothesis(problem, name, extra)
        _hypothesis(problem, label, case)
        verdict = problem.check().decided()
        dropped.update(problem.dropped)
        if verdict.status is Status.SAT:
            return Counterexample(claim, label, tuple(ending.decode(verdict.model).items()),
                                  None, tuple(sorted(dropped)))
        rules.update(verdict.rules)
        hypotheses.update(h.split(" @ ")[0] for h in verdict.hypotheses)
    return Proof(claim, tuple(sorted(rules)), tuple(sorted(hypotheses)))


@attrs.frozen(eq=False)
class Optimum:
    """An extreme of a quantity: its value, a final position of the model there, and the claim
    that nothing lies beyond it decided either way (``check``: the unsat cores, or the position
    z3 found beyond a ``claimed`` value that is not the extreme)."""

    value: int
    position: dict[str, Any]
    check: Proof | Counterexample

    @property
    def proved(self) -> bool:
        return isinstance(self.check, Proof)


def optimum(ending: Ending, cases: Sequence[tuple[z3.ArithRef, z3.BoolRef | bool]], sense: str,
            what: str, deadline: Deadline, given: Sequence[tuple[str, z3.BoolRef]] = (),
            of: str = "", claimed: int | None = None) -> Optimum:
    """The maximum (``sense`` "max") or minimum ("min") of a quantity that takes the value
    ``term`` wherever ``condition`` holds, for each ``(term, condition)`` of ``cases`` (every
    player's score: ``[(score, True), ...]``; a winner's score: ``[(score, winner), ...]``),
    over the model with the ``given`` hypotheses. ``what`` names the quantity in words ("a
    player's score"), ``of`` the setting for the claim ("3 players").

    z3's optimiser finds the best of the first case; then one beyond it is refuted case by case
    with tracked checks (:func:`decide`), and a case that is not refuted is optimised in turn,
    from beyond the best so far, until every case is refuted. (Most questions are symmetric in
    the players, so the first case usually holds the optimum, and each other case costs one
    unsatisfiable check.) The answer is exact: a model reaches it, and the cores forbid beyond.

    With ``claimed``, the claim "never beyond ``claimed``" is decided instead, either way: the
    proof, or the position z3 finds beyond it (whose value is then the one returned)."""
    if sense not in ("max", "min"):
        raise ValueError(f"sense is 'max' or 'min', not {sense!r}")
    word, sign = ("at least", 1) if sense == "max" else ("at most", -1)

    def beyond(term: z3.ArithRef, value: int) -> z3.BoolRef:
        return term >= value if sense == "max" else term <= value

    def claim_of(value: int) -> str:
        return (f"{of + ': ' if of else ''}{what} is never "
                f"{'above' if sense == 'max' else 'below'} {value}")

    if claimed is not None:
        checked = decide(ending, deadline, claim_of(claimed), f"{what} {word} {claimed + sign}",
                         [z3.And(c, beyond(t, claimed + sign)) for t, c in cases], given)
        if isinstance(checked, Proof):
            return Optimum(claimed, {}, checked)
        position = dict(checked.values)
        found = _optimise(ending, cases, sense, deadline, given, claimed + sign)
        return Optimum(claimed + sign if found is None else found[0], position, checked)
    term, condition = cases[0]
    found = _optimise(ending, [(term, condition)], sense, deadline, given, None)
    if found is None:
        raise ModelInconsistency(f"{of}: the model has no {what} with the hypotheses given")
    best, model = found
    while True:
        checked = decide(ending, deadline, claim_of(best), f"{what} {word} {best + sign}",
                         [z3.And(c, beyond(t, best + sign)) for t, c in cases], given)
        if isinstance(checked, Proof):
            return Optimum(best, ending.decode(model), checked)
        found = _optimise(ending, cases, sense, deadline, given, best + sign)
        if found is None:
            raise ModelInconsistency(f"{of}: z3 finds {what} beyond {best} and then cannot")
        best, model = found


def _optimise(ending: Ending, cases: Sequence[tuple[z3.ArithRef, z3.BoolRef | bool]],
              sense: str, deadline: Deadline,
              given: Sequence[tuple[str, z3.BoolRef]], bound: int | None
              ) -> tuple[int, z3.ModelRef] | None:
    """The best value over ``cases`` (beyond ``bound`` if given) and a model there, by z3's
    optimiser over the untracked constraints (each case in turn, the best kept), or None when
    no case has a model."""
    best: tuple[int, z3.ModelRef] | None = None
    for term, condition in cases:
        optimiser = z3.Optimize()
        for rule, _, formula in ending.parts:
            if rule not in ending.without:
                optimiser.add(formula)
        optimiser.add(condition, *[extra for _, extra in given])
        if bound is not None:
            optimiser.add(term >= bound if sense == "max" else term <= bound)
        (optimiser.maximize if sense == "max" else optimiser.minimize)(term)
        answer = solve(optimiser, deadline)
        if answer == z3.unsat:
            continue
        if answer != z3.sat:
            raise unknown(optimiser, "z3 could not optimise", deadline)
        model = optimiser.model()
        value = model.eval(term, model_completion=True).as_long()
        if best is None or (value > best[0] if sense == "max" else value < best[0]):
            best = (value, model)
        if bound is None:
            break  # the first case only: the caller refutes the others
    return best
