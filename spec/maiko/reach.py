"""How Maiko games move and end: the fewest turns and flips of each ending, static positions,
dead positions, and the end when no tile is left face down.

Four queries of the Maiko catalogue live here: :func:`fastest_end`, :func:`static_reachable`,
:func:`dead_not_static` and :func:`no_face_down_end`. Each answers for 2, 3 and 4 players.

**The counting model.** A whole game is far too large for z3 to play move by move, but its
fewest turns and flips follow from counting. :class:`Counting` abstracts a game, from a position
at the start of a turn (:class:`Start`; the new game is one) to its end, into whole numbers:
``K`` the turns begun (the turn in which the game ends included: the engine's ``turn + 1``), and
for each player the turns they begin, split by how each one ends (MK-TURN-2: a friend flipped, a
friend revealed by Danna, a mismatch, the ending step, or not at all because the game ended
inside it), the pairs, the visits (Danna on an item, Oka-san, the others), the tokens gained and
spent, and the fills of each column of their maiko board; for each item, the tiles taken off the
game board by pairs and by Danna. Every constraint is added with its rule ID
(``assert_and_track``), so that "fewer than m" comes back unsatisfiable with an unsat core of MK
rules. The model is a *relaxation*: each constraint is a property that every real game has
(each is justified where it is added, in :meth:`Counting._build`), so nothing it forbids can
happen, while it may allow things no game can do (it does not order events in time). The
minimum it proves is therefore a lower bound; a witness game, replayed from scratch in the
engine, shows the bound is reached. Both are required before a minimum is claimed.

The three arguments, in words (N players, Fr friends and c tiles of each item in play: 6 and 6
with 2 players, 9 and 8 with 3 or 4):

* **full-board**: a full-board game ends at the end of the turn of the player before the first
  player (MK-END-2), so after a whole number of rounds: at least N turns, each player one. A
  board has nine item spaces and a placement (a pair, Danna, Oka-san) fills at most one, with at
  most one visit per turn (MK-TUTOR-1); so filling in T of one's own turns takes 9 - T pairs
  (2 flips each). Every other turn must end: with a friend (flipped, 1 flip; or revealed by
  Danna, 0 flips but one of the Fr friends) or a mismatch (2 flips). Trading pairs for turns
  pays until the friends run out: 16 flips in N turns, at best 14, 14, 15 flips.
* **static**: MK-STATIC-1 wants every friend revealed (each reveal ends a turn: Fr turns), every
  token spent (N + Fr at least, one visit per turn), and at most one face-down tile of each
  item (c - 1 of each taken off, 2 per pair, 1 per Danna): Fr + N turns and 46, 64, 65 flips,
  in one game.
* **no-face-down-tile**: every tile must leave the game board; each friend's reveal ends a turn
  and the game ends in a later turn: Fr + 1 turns. A tile leaves flipped (1 flip) unless Danna
  takes it; so the flips are the tiles in play less the visits, plus 2 per mismatch. Visits are
  one per turn, and turns need endings: a friend each, or (after a full board) the ending step,
  which is why the fewest flips (52, 69, 69) need a board filled first, in Fr + N, Fr + N,
  Fr + 3 turns, and the fewest turns cost one flip more (53, 71, 71).

>>> from hanamikoji.spec.core.solver import Deadline
>>> best = fewest(2, "full-board", Deadline(30))
>>> best.turns, best.flips, best.flips_at_fewest_turns, best.turns_at_fewest_flips
(2, 14, 16, 6)
>>> fewest(4, "static", Deadline(30)).turns
13

**Dead positions.** A position can be dead without being static: a player keeps a
token and never spends it, so MK-STATIC-1 never holds, while every maiko board lacks an item
whose tiles are gone for good (discarded, or on other boards in other colours). No board can
ever be filled, so the game can go on for ever by the players' choice (MK-END-5). That no board
can be filled is an inductive invariant, checked by z3 decision kind by decision kind
(:func:`invariant_check`); the witness games reach such positions for 2, 3 and 4 players, and
an exhaustive search over the engine from each confirms it (:func:`explore`).

**Every game can end.** With MK-STATIC-2 and MK-END-4, from every position some sequence of
decisions ends the game: the potential is the number of face-down tiles. If the position is not
static and the end is not triggered, a face-down friend can be flipped, two face-down tiles of
one item can be flipped as a pair, or a player holds a token and, the others passing with
mismatches, visits Danna on their turn: the potential drops within N turns, and at 0 MK-END-4
ends the game; a triggered end ends it within N - 1 turns (:func:`progress_check` checks the
case analysis with z3). Without MK-STATIC-2 the static position itself (two face-down tiles or
more) is a trap: the only decisions are flips, every turn is a mismatch, nothing ever changes
(``progress_check(without=("MK-STATIC-2",))``: z3 finds it once the rule is dropped;
:func:`explore` confirms it on the engine, reading the static end as going on).

**Either way.** Every claim here is decided either way: unsat, the claim holds with its unsat
core; sat, it fails, with a :class:`~hanamikoji.spec.core.queries.Counterexample` decoded from
z3's model (the counts of the counting model, the decision that breaks the invariant, the
position the case analysis misses). A minimum claimed too high answers "at most" what z3 found;
an ending z3 proves impossible answers "possible: no". These models are abstractions, not
positions a game stands in, so their counterexamples come with no witness game.
"""

from __future__ import annotations

import heapq
import math
from collections import Counter, deque
from typing import Any, Callable, Iterable, Literal, Sequence

import attrs
import z3
from hanamikoji.engine.core.errors import GameError
from hanamikoji.engine.maiko import (
    FRIEND,
    Config,
    Danna,
    Decision,
    Flip,
    OneSan,
    Phase,
    State,
    apply,
    legal_actions,
    tile_name,
)
from hanamikoji.engine.maiko.components import PLAYER_COUNTS, TOTAL_TOKENS
from hanamikoji.engine.maiko.game import COLUMNS, DOWN, Reason, filled
from hanamikoji.spec.core.queries import Counterexample, Finding, ModelInconsistency, Proof
from hanamikoji.spec.core.solver import (
    Constraint,
    Deadline,
    Problem,
    Status,
    check_hypothesis,
    solve,
    unknown,
)

from .script import Script, ScriptError
from .witness import FACTS, Witness

__all__ = [
    "REASONS", "PLAYER_COUNTS", "METHODS", "Setting", "Start", "Counting", "Fewest", "fewest",
    "fastest_end", "static_reachable", "dead_not_static", "no_face_down_end",
    "invariant_check", "progress_check", "position_key", "explore", "Graph",
    "without_static", "minimum_game", "static_game", "dead_game", "nfd_turn_start_game",
    "open_visits", "minima", "Builder",
]

#: The ways a game ends (the engine's result reasons).
REASONS = ("full-board", "static", "no-face-down-tile")

#: One line per query for the catalogue (kept with the catalogue, which imports no z3).
from .queries import REACH_METHODS as METHODS  # noqa: E402


# --- settings and positions ---------------------------------------------------------------


@attrs.frozen
class Setting:
    """The tiles in play for a player count: friends, and tiles of each item.

    >>> Setting.of(2), Setting.of(3).items
    (Setting(players=2, friends=6, copies=6), 72)
    """

    players: int
    friends: int
    copies: int

    @classmethod
    def of(cls, players: int) -> Setting:
        tiles = Counter(Config.make(players).tiles)
        copies = {sum(tiles[colour * 9 + item] for colour in range(4)) for item in range(9)}
        assert len(copies) == 1
        return cls(players, tiles[FRIEND], copies.pop())

    @property
    def items(self) -> int:
        """Item tiles in play."""
        return 9 * self.copies

    @property
    def setup_rule(self) -> str:
        """The rule that says which tiles are in play."""
        return "MK-SETUP-4" if self.players == 2 else "MK-SETUP-3"


@attrs.frozen
class Start:
    """What the counting model needs of a position at the start of a turn (no decision taken in
    it yet), the end not triggered. Players are listed in turn order from the player to move;
    ``seat`` is that player's place after the first player ((current - first) mod N).
    ``filled`` gives, per player, the filled item spaces of each column. ``initial`` marks the
    new game, whose numbers the rules give (MK-SETUP-*), rather than a position's."""

    players: int
    seat: int
    hands: tuple[int, ...]
    down_items: tuple[int, ...]
    down_friends: int
    filled: tuple[tuple[int, ...], ...]
    initial: bool = False

    @classmethod
    def new_game(cls, players: int) -> Start:
        setting = Setting.of(players)
        return cls(players, 0, (1,) * players, (setting.copies,) * 9, setting.friends,
                   ((0, 0, 0),) * players, initial=True)

    @classmethod
    def of(cls, state: State) -> Start:
        """The position ``state``: a first flip at the start of a turn, not triggered."""
        if (state.phase is not Phase.FIRST or state.visited or state.pending is not None
                or state.triggered_by is not None):
            raise ValueError("a Start is a position at the start of a turn before the trigger")
        n = state.config.players
        order = [(state.current + j) % n for j in range(n)]
        down = [state.layout[s] for s, v in enumerate(state.spaces) if v == DOWN]
        return cls(n, (state.current - state.first_player) % n,
                   tuple(state.hands[p] for p in order),
                   tuple(sum(1 for t in down if t != FRIEND and t % 9 == i) for i in range(9)),
                   down.count(FRIEND),
                   tuple(tuple(sum(1 for i in column if filled(state.boards[p], i))
                               for column in COLUMNS) for p in order))


# --- the counting model ---------------------------------------------------------------------


class Counting:
    """The counting model of the games from ``start`` that end by ``reason``.

    ``parts`` are ``(rule, where, formula)``; :meth:`problem` tracks each under
    ``"rule @ where"``. ``turns`` (K) and ``flips`` are the quantities asked about.
    """

    def __init__(self, start: Start, reason: str, *, without: Iterable[str] = ()) -> None:
        if reason not in REASONS:
            raise ValueError(f"unknown reason {reason!r}")
        self.start = start
        self.reason = reason
        #: Rules left out (a weakened rule set), for "what if" questions and tests.
        self.without = frozenset(without)
        self.parts: list[tuple[str, str, z3.BoolRef]] = []
        self._names = Counter[str]()
        self._build()

    def _int(self, name: str) -> z3.ArithRef:
        self._names[name] += 1
        return z3.Int(f"{name}#{self._names[name]}" if self._names[name] > 1 else name)

    def _add(self, rule: str, where: str, *formulas: z3.BoolRef) -> None:
        self.parts.append((rule, where, z3.And(*formulas) if len(formulas) != 1 else formulas[0]))

    def _build(self) -> None:
        start, reason = self.start, self.reason
        n = start.players
        players = range(n)
        items = range(9)
        setting = Setting.of(n)
        I = self._int
        K, F = I("turns"), I("flips")
        self.turns, self.flips = K, F

        # The position. For the new game the rules give these numbers; for another position
        # they are the question's hypotheses.
        hand0 = [I(f"hand0_{j}") for j in players]
        down0 = [I(f"down0_{i}") for i in items]
        friends0 = I("friends0")
        filled0 = [[I(f"filled0_{j}_{c}") for c in range(3)] for j in players]
        seat0 = I("seat0")
        if start.initial:
            self._add("MK-SETUP-2", "start: one token each",
                      *[h == 1 for h in hand0])
            self._add(setting.setup_rule, "start: the tiles in play",
                      friends0 == setting.friends, *[d == setting.copies for d in down0])
            self._add("MK-SETUP-5", "start: every tile face down, no tile on a maiko board",
                      *[f == 0 for row in filled0 for f in row])
            self._add("MK-TURN-1", "start: the first player begins", seat0 == 0)
        else:
            self._add("position: tokens", "start",
                      *[h == v for h, v in zip(hand0, start.hands, strict=True)])
            self._add("position: face-down tiles", "start", friends0 == start.down_friends,
                      *[d == v for d, v in zip(down0, start.down_items, strict=True)])
            self._add("position: maiko boards", "start",
                      *[f == v for row, vrow in zip(filled0, start.filled, strict=True)
                        for f, v in zip(row, vrow, strict=True)])
            self._add("position: the player to move", "start", seat0 == start.seat)

        # Per player j (turn order from the player to move): turns begun, split by how they
        # end; pairs; visits; tokens; fills of each column.
        def per(name: str) -> list[z3.ArithRef]:
            return [I(f"{name}_{j}") for j in players]

        t, ff, df, mm, es, un = (per(x) for x in ("turns", "friend_flip", "danna_friend",
                                                  "mismatch", "ending_step", "unended"))
        pairs, dk, ok, ov, visits = (per(x) for x in ("pairs", "danna_item", "oka_san",
                                                      "other_visit", "visits"))
        gains, lost, hand, col = (per(x) for x in ("gains", "lost", "hand_end", "column_tokens"))
        col_by_pairs = per("column_tokens_by_pairs")
        fill_pair, fill_danna, fill_oka = (per(x) for x in ("fill_pair", "fill_danna", "fill_oka"))
        fills = [[I(f"fills_{j}_{c}") for c in range(3)] for j in players]
        comp = [[I(f"completions_{j}_{c}") for c in range(3)] for j in players]
        full = [z3.Bool(f"full_{j}") for j in players]
        pi, di, li = ([I(f"{x}_{i}") for i in items] for x in ("pairs_of", "danna_of", "lone_of"))
        down_end = [I(f"down_end_{i}") for i in items]
        fl_pair, fl_mm, fl_friend = per("flips_pairs"), per("flips_mismatch"), per("flips_friend")
        rounds, b = I("rounds"), I("last_seat")
        counts = (t + ff + df + mm + es + un + pairs + dk + ok + ov + visits + gains + lost
                  + hand + col + col_by_pairs + fill_pair + fill_danna + fill_oka + pi + di + li
                  + fl_pair + fl_mm + fl_friend + [x for row in fills + comp for x in row]
                  + [rounds] + hand0 + down0 + [friends0] + [x for row in filled0 for x in row])
        self.shown = {"turns_by_player": t, "friends_flipped": ff, "danna_friends": df,
                      "mismatches": mm, "ending_steps": es, "unended": un, "pairs": pairs,
                      "visits": visits}
        self._add("definition: counts are whole numbers", "domains",
                  *[x >= 0 for x in counts], K >= 1, 0 <= seat0, seat0 <= n - 1)
        # The seat of the turn in which the game ends: the K-th turn from here.
        self._add("definition: the last turn's seat", "turn order",
                  seat0 + K - 1 == n * rounds + b, 0 <= b, b <= n - 1)

        # MK-TURN-1: play goes round; the j-th player from the mover begins ceil((K - j) / n)
        # of the K turns.
        self._add("MK-TURN-1", "turns per player",
                  *[z3.And(n * t[j] >= K - j, n * t[j] <= K - j + n - 1) for j in players])
        # MK-TURN-2: a turn ends only by a mismatch, a friend (flipped, or revealed by Danna,
        # MK-TUTOR-DANNA-3) or the ending step; the only turn that does not end is the one in
        # which the game ends (MK-END-4, MK-STATIC-2). A turn that ends in the ending step
        # with a Danna friend is counted as a Danna friend.
        self._add("MK-TURN-2", "how turns end",
                  *[t[j] == ff[j] + df[j] + mm[j] + es[j] + un[j] for j in players])
        # Flips (each a decision of its own, MK-FLIP-1): a pair is two (MK-FLIP-3), a mismatch
        # two (MK-FLIP-4), a friend flipped ends the turn after at least one (MK-FLIP-5); at an
        # MK-END-4 end, a last tile flipped alone is one more (``lone``).
        self._add("MK-FLIP-3", "flips of pairs", *[fl_pair[j] == 2 * pairs[j] for j in players])
        self._add("MK-FLIP-4", "flips of mismatches", *[fl_mm[j] == 2 * mm[j] for j in players])
        self._add("MK-FLIP-5", "flips of friends", *[fl_friend[j] >= ff[j] for j in players])
        lone = z3.Sum(li)
        self._add("MK-FLIP-1", "flips", F >= z3.Sum(fl_pair + fl_mm + fl_friend) + lone)
        # MK-TUTOR-1: at most one visit per turn.
        self._add("MK-TUTOR-1", "one visit a turn",
                  *[z3.And(visits[j] == dk[j] + df[j] + ok[j] + ov[j], visits[j] <= t[j])
                    for j in players])
        # MK-TUTOR-2: a visit pays a token the player holds, so the tokens at the end are those
        # held at the start, plus those gained, less the visits, and never negative.
        self._add("MK-TUTOR-2", "tokens",
                  *[z3.And(hand[j] == hand0[j] + gains[j] - visits[j], hand[j] >= 0)
                    for j in players])
        # MK-TOKEN-1: a token comes only with a friend revealed (by a flip or by Danna) or a
        # column completed; MK-TOKEN-2: it comes from the pool or a card unless every token is
        # in players' hands (``lost``).
        self._add("MK-TOKEN-1", "gains",
                  *[gains[j] == ff[j] + df[j] + col[j] - lost[j] for j in players])
        # MK-TUTOR-2 again, for the first visit: it is paid with a token held before any visit,
        # so one held at the start, or gained from a friend flipped or from a column completed
        # by a pair (a Danna friend, a Danna item and Oka-san are visits themselves).
        self._add("MK-TUTOR-2", "the first visit",
                  *[z3.And(col_by_pairs[j] <= col[j], col_by_pairs[j] <= fill_pair[j],
                           z3.Implies(visits[j] >= 1, hand0[j] + ff[j] + col_by_pairs[j] >= 1))
                    for j in players])
        # MK-TOKEN-2 (with MK-COMP-2's 16 tokens): a gain is lost only while all 16 tokens are
        # in hands; hands shrink only by visits, so at least 16 - (tokens in hands at the end)
        # visits follow.
        self._add("MK-TOKEN-2", "lost gains",
                  z3.Implies(z3.Sum(lost) >= 1, z3.Sum(visits) >= TOTAL_TOKENS - z3.Sum(hand)))
        # Fills: a placement puts the tiles of one item on one item space (a pair MK-FLIP-3,
        # Danna MK-TUTOR-DANNA-2, Oka-san MK-TUTOR-OKASAN-1), so it fills at most one empty
        # item space (MK-COMP-4); the row discard and Sabanto only take tiles away.
        self._add("MK-FLIP-3", "fills by pairs", *[fill_pair[j] <= pairs[j] for j in players])
        self._add("MK-TUTOR-DANNA-2", "fills by Danna",
                  *[fill_danna[j] <= dk[j] for j in players])
        self._add("MK-TUTOR-OKASAN-1", "fills by Oka-san",
                  *[fill_oka[j] <= ok[j] for j in players])
        self._add("MK-COMP-4", "fills",
                  *[z3.Sum(fills[j]) == fill_pair[j] + fill_danna[j] + fill_oka[j]
                    for j in players])
        # MK-COL-1: a column pays when a placement fills its last empty item space (MK-COL-2:
        # never for a second layer), so each completion is a fill; from f filled spaces the
        # first completion of a column takes 3 - f fills, so a column with x fills pays at most
        # x - max(0, 2 - f) times.
        self._add("MK-COL-1", "column tokens",
                  *[z3.And(col[j] == z3.Sum(comp[j]),
                           *[comp[j][c] <= z3.If(fills[j][c] >= 2 - filled0[j][c],
                                                 fills[j][c] - z3.If(filled0[j][c] >= 2, 0,
                                                                     2 - filled0[j][c]), 0)
                             for c in range(3)])
                    for j in players])
        # MK-COMP-3: a full board has its three columns of three item spaces filled; the
        # spaces filled at the start count, and every other needs a fill.
        self._add("MK-COMP-3", "full boards",
                  *[z3.Implies(full[j], z3.And([filled0[j][c] + fills[j][c] >= 3
                                                for c in range(3)])) for j in players])
        # MK-END-1, MK-END-3: the ending step comes only with a full board; MK-END-2: after it
        # the player takes no other turn (the trigger's own turn, or a last turn).
        self._add("MK-END-1", "ending step needs a full board",
                  *[z3.Implies(es[j] >= 1, full[j]) for j in players])
        self._add("MK-END-2", "one ending step each", *[es[j] <= 1 for j in players])
        # The tiles of each item on the game board at the end: those at the start less two
        # per pair (MK-FLIP-3) and one per Danna item (MK-TUTOR-DANNA-1), less a tile left
        # face up by an MK-END-4 end; only face-down tiles are flipped or revealed (MK-FLIP-2)
        # and none ever comes back.
        self._add("MK-FLIP-2", "tiles left on the game board",
                  *[z3.And(down_end[i] == down0[i] - 2 * pi[i] - di[i] - li[i], down_end[i] >= 0)
                    for i in items])
        self._add("MK-FLIP-3", "pairs by item", z3.Sum(pi) == z3.Sum(pairs))
        self._add("MK-TUTOR-DANNA-1", "Danna by item", z3.Sum(di) == z3.Sum(dk))
        # MK-FLIP-5, MK-TUTOR-DANNA-3: a revealed friend stays face up, so each reveal is of a
        # different friend that lay face down.
        revealed = z3.Sum(ff + df)
        self._add("MK-FLIP-5", "friends revealed", revealed <= friends0)

        # The j-th player from the mover sits at seat (seat0 + j) mod n.
        unended_last = [un[j] == z3.If(z3.Or(b == seat0 + j, b == seat0 + j - n), 1, 0)
                        for j in players]
        if reason == "full-board":
            # MK-END-2: the game ends at the end of the last turn of the player before the first
            # player (seat n - 1); MK-END-1: the end was triggered by a full board.
            self._add("MK-END-2", "the end of a round",
                      z3.Sum(un) == 0, b == n - 1, lone == 0)
            self._add("MK-END-1", "a board is full", z3.Or(full))
        elif reason == "static":
            # MK-STATIC-1: not triggered (a trigger stands, MK-END-1, so no ending step ever),
            # no token in any hand, no face-down friend, no two face-down tiles of one item.
            self._add("MK-STATIC-1", "the static position",
                      z3.Sum(es) == 0, *[h == 0 for h in hand],
                      *[d <= 1 for d in down_end], revealed >= friends0, lone == 0)
            # MK-STATIC-2: the game ends at a first flip, inside the last turn.
            self._add("MK-STATIC-2", "the game ends inside the last turn", *unended_last)
        else:
            # MK-END-4: no tile face down (a last tile flipped alone may lie face up), the game
            # ends inside the last turn.
            self._add("MK-END-4", "no face-down tile",
                      *[d == 0 for d in down_end], revealed >= friends0, lone <= 1,
                      *unended_last)
            # MK-END-2: ending steps come only after the trigger, and the game ends with the
            # trigger's round; so every ending step is in the last round, before the seat of
            # the last turn.
            self._add("MK-END-2", "ending steps in the last round", z3.Sum(es) <= b)

    # -- solving

    def problem(self, deadline: Deadline) -> Problem:
        problem = Problem(deadline, without=self.without)
        grouped: dict[tuple[str, str], list[z3.BoolRef]] = {}
        for rule, where, formula in self.parts:
            grouped.setdefault((rule, where), []).append(formula)
        for (rule, where), formulas in grouped.items():
            problem.require([Constraint(rule, f) for f in formulas], where)
        return problem

    def optimum(self, objective: str, deadline: Deadline,
                given: Callable[[Counting], z3.BoolRef] | None = None) -> int | None:
        """The least ``objective`` ("turns" or "flips") the model allows (None if it allows no
        game), with ``given`` holding."""
        optimize = z3.Optimize()
        for rule, _, formula in self.parts:
            if rule not in self.without:
                optimize.add(formula)
        if given is not None:
            optimize.add(given(self))
        target = self.turns if objective == "turns" else self.flips
        optimize.minimize(target)
        answer = solve(optimize, deadline)
        if answer == z3.unsat:
            return None
        if answer != z3.sat:
            raise unknown(optimize, f"z3 could not minimise {objective}", deadline)
        return optimize.model().eval(target, model_completion=True).as_long()

    def decide(self, claim: str, hypothesis: str, formula: z3.BoolRef,
               deadline: Deadline) -> Proof | Counterexample:
        """``claim`` decided either way: the unsat core of ``formula`` (its negation, labelled
        ``hypothesis``), or the counts of the game z3 finds (:meth:`decode`)."""
        problem = self.problem(deadline)
        verdict = check_hypothesis(problem, hypothesis, formula, "question")
        if verdict.status is Status.UNSAT:
            return Proof.of(claim, verdict)
        return Counterexample(claim, hypothesis, self.decode(verdict.model), None,
                              problem.dropped)

    def decode(self, model: z3.ModelRef) -> tuple[tuple[str, Any], ...]:
        """The counts of the abstract game a model describes (per player in turn order from
        the player to move)."""
        value = lambda term: model.eval(term, model_completion=True).as_long()
        return ((("turns", value(self.turns)), ("flips", value(self.flips)))
                + tuple((name, tuple(value(x) for x in terms))
                        for name, terms in self.shown.items()))


#: Which count of a counterexample each minimum is about.
QUANTITY = {"turns": "turns", "flips": "flips", "flips_at_fewest_turns": "flips",
            "turns_at_fewest_flips": "turns"}


@attrs.frozen
class Fewest:
    """The fewest turns and flips of one ending, with the proofs; ``turns_at_fewest_flips`` is
    the fewest turns of a game with the fewest flips, ``flips_at_fewest_turns`` the fewest flips
    of a game with the fewest turns (one game achieves both when they are the minima).

    Each minimum is a claim decided either way: ``refuted`` pairs a minimum (a key of
    :data:`QUANTITY`) with the counterexample z3 found below it, and the answer then says "at
    most" that many. The minima are None when z3 proves that no game ends so (the proof is the
    core of the whole counting model)."""

    players: int
    reason: str
    turns: int | None
    flips: int | None
    flips_at_fewest_turns: int | None
    turns_at_fewest_flips: int | None
    proofs: tuple[Proof, ...]
    refuted: tuple[tuple[str, Counterexample], ...] = ()

    @property
    def possible(self) -> bool:
        return self.turns is not None

    @property
    def proved(self) -> bool:
        """Whether a game ends so and every minimum claimed holds (a witness can show them)."""
        return self.possible and not self.refuted

    @property
    def counterexamples(self) -> tuple[Counterexample, ...]:
        return tuple(c for _, c in self.refuted)

    @property
    def one_game(self) -> bool:
        return self.flips_at_fewest_turns == self.flips

    def to_answer(self) -> tuple[tuple[str, Any], ...]:
        if not self.possible:
            return (("possible", False),)
        refuted = dict(self.refuted)

        def shown(key: str) -> Any:
            if key in refuted:
                return (("at_most", refuted[key].value(QUANTITY[key])),)
            return getattr(self, key)

        return (("turns", shown("turns")), ("flips", shown("flips")),
                ("one_game", self.one_game),
                ("flips_at_fewest_turns", shown("flips_at_fewest_turns")),
                ("turns_at_fewest_flips", shown("turns_at_fewest_flips")))


_FEWEST: dict[tuple[int, str], Fewest] = {}


def fewest(players: int, reason: str, deadline: Deadline, start: Start | None = None, *,
           claimed: dict[str, int] | None = None, without: Iterable[str] = ()) -> Fewest:
    """The counting model's minima for games of ``players`` ending by ``reason`` (from the new
    game, or from ``start``), each decided either way (an unsat core for one fewer, or the
    counterexample z3 finds); cached for the new game. ``claimed`` replaces some of z3's minima
    (keys of :data:`QUANTITY`) by other values to check, and ``without`` leaves rules out: the
    tests use them to see a claim fail."""
    key = (players, reason)
    cached = start is None and not claimed and not without
    if cached and key in _FEWEST:
        return _FEWEST[key]
    model = Counting(start or Start.new_game(players), reason, without=without)
    what = f"a {players}-player game ending by {reason}"
    turns = model.optimum("turns", deadline)
    if turns is None:
        none = model.decide(f"no {what}", what, z3.BoolVal(True), deadline)
        if not isinstance(none, Proof):
            raise ModelInconsistency(f"z3 minimises over no {reason} game, then finds one")
        found = Fewest(players, reason, None, None, None, None, (none,))
    else:
        claimed = claimed or {}
        turns = claimed.get("turns", turns)
        flips = (claimed["flips"] if "flips" in claimed
                 else model.optimum("flips", deadline))
        assert flips is not None
        flips_at = (claimed["flips_at_fewest_turns"] if "flips_at_fewest_turns" in claimed
                    else model.optimum("flips", deadline, lambda m: m.turns == turns))
        turns_at = (claimed["turns_at_fewest_flips"] if "turns_at_fewest_flips" in claimed
                    else model.optimum("turns", deadline, lambda m: m.flips == flips))
        checks = [("turns", f"{what} takes at least {turns} turns", f"at most {turns - 1} turns",
                   model.turns <= turns - 1),
                  ("flips", f"{what} takes at least {flips} flips", f"at most {flips - 1} flips",
                   model.flips <= flips - 1)]
        if flips_at is not None and flips_at > flips:
            checks.append(("flips_at_fewest_turns",
                           f"{what} in {turns} turns takes at least {flips_at} flips",
                           f"{turns} turns and at most {flips_at - 1} flips",
                           z3.And(model.turns == turns, model.flips <= flips_at - 1)))
        if turns_at is not None and turns_at > turns:
            checks.append(("turns_at_fewest_flips",
                           f"{what} with {flips} flips takes at least {turns_at} turns",
                           f"{flips} flips and at most {turns_at - 1} turns",
                           z3.And(model.flips == flips, model.turns <= turns_at - 1)))
        proofs: list[Proof] = []
        refuted: list[tuple[str, Counterexample]] = []
        for quantity, claim, hypothesis, formula in checks:
            decided = model.decide(claim, hypothesis, formula, deadline)
            if isinstance(decided, Proof):
                proofs.append(decided)
            else:
                refuted.append((quantity, decided))
        found = Fewest(players, reason, turns, flips, flips_at, turns_at, tuple(proofs),
                       tuple(refuted))
    if cached:
        _FEWEST[key] = found
    return found


# --- building witness games -----------------------------------------------------------------


class Builder:
    """A :class:`Script` with the moves the plans below speak of: by item, not by tile
    (``pair(3)``: flip two face-down tiles of item 3, seen ones first; ``danna(0)``,
    ``friend()``, ``danna_friend()``, ``mismatch()``, ``look()``, ``sabanto(item, colour)``).
    Row discards are always declined."""

    def __init__(self, players: int) -> None:
        self.script = Script(Config.make(players))

    @property
    def state(self) -> State:
        return self.script.state

    def down(self) -> list[int]:
        return [s for s, v in enumerate(self.state.spaces) if v == DOWN]

    def down_friends(self) -> int:
        return sum(1 for s in self.down() if self.state.layout[s] == FRIEND
                   and s not in self.script.unseen()) + self.script.unseen_tiles()[FRIEND]

    def settle(self) -> None:
        """Keep every pending row discard (the plans never discard)."""
        while self.state.phase is Phase.SWEEP:
            self.script.keep_row()

    def take(self, item: int, colour: int | None = None) -> int:
        """A face-down space with a tile of ``item`` (and ``colour``): a seen one if there is
        one, else an unseen one made to hold such a tile."""
        def fits(code: int) -> bool:
            return code != FRIEND and code % 9 == item and (colour is None or code // 9 == colour)

        unseen = set(self.script.unseen())
        layout = self.state.layout
        for s in self.down():
            if s not in unseen and fits(layout[s]):
                return s
        codes = [c for c in sorted(self.script.unseen_tiles()) if fits(c)]
        if not codes:
            raise ScriptError(f"no face-down tile of item {item}"
                              + ("" if colour is None else f" in colour {colour}") + " is left")
        return self.script.space_of(codes[0])

    def pair(self, item: int, colour: int | None = None) -> None:
        self.script.flip_at(self.take(item, colour))
        self.script.flip_at(self.take(item, colour))
        self.settle()

    def danna(self, item: int, colour: int | None = None) -> None:
        self.script.play(Danna(self.take(item, colour)))
        self.settle()

    def _seen_friend(self) -> int | None:
        unseen = set(self.script.unseen())
        return next((s for s in self.down()
                     if s not in unseen and self.state.layout[s] == FRIEND), None)

    def danna_friend(self) -> None:
        space = self._seen_friend()
        if space is None:
            self.script.danna("friend")
        else:
            self.script.play(Danna(space))

    def friend(self) -> None:
        space = self._seen_friend()
        if space is None:
            self.script.friend()
        else:
            self.script.flip_at(space)

    def flip_item(self, item: int) -> None:
        self.script.flip_at(self.take(item))

    def mismatch(self) -> None:
        """Two face-down tiles of different items, seen ones first."""
        unseen = set(self.script.unseen())
        layout = self.state.layout
        seen = [s for s in self.down() if s not in unseen and layout[s] != FRIEND]
        for a in seen:
            for c in seen:
                if layout[a] % 9 != layout[c] % 9:
                    self.script.flip_at(a)
                    self.script.flip_at(c)
                    return
        if seen:
            codes = [c for c in sorted(self.script.unseen_tiles())
                     if c != FRIEND and c % 9 != layout[seen[0]] % 9]
            if codes:
                self.script.flip_at(seen[0])
                self.script.flip_at(self.script.space_of(codes[0]))
                return
        self.script.end_by_mismatch()

    def look(self) -> None:
        """A One-san visit of one look (at a tile already seen if there is one), then stop: a
        token spent, nothing changed."""
        unseen = set(self.script.unseen())
        down = self.down()
        self.script.play(OneSan(next((s for s in down if s not in unseen), down[0])))
        self.script.stop_looking()

    def sabanto(self, item: int, colour: int) -> None:
        self.script.sabanto(item, colour)

    def close_ending(self) -> None:
        if self.state.phase is Phase.ENDING:
            self.script.end_turn()

    def witness(self, label: str, **shows: Any) -> Witness:
        return self.script.witness(label, **shows)


def _check(builder: Builder, label: str, reason: str, turns: int, flips: int) -> Witness:
    """The witness of a built game, after checking in the engine that it ends by ``reason`` in
    ``turns`` turns with ``flips`` flips (the minima the model proved): ModelInconsistency
    otherwise."""
    state = builder.state
    facts = {"reason": FACTS["reason"](state), "turns": FACTS["turns"](state),
             "flips": FACTS["flips"](state)}
    wanted = {"reason": reason, "turns": turns, "flips": flips}
    if facts != wanted:
        raise ModelInconsistency(f"witness {label!r}: the plan reaches {facts}, the counting "
                                 f"model's minimum is {wanted}")
    return builder.witness(label, over=True, reason=reason, turns=turns, flips=flips)


def _built(plan: Callable[..., Builder], *args: Any) -> Builder:
    """Play a plan; a plan the script or the engine refuses is a bug of this module, reported
    as an inconsistency (the query's status "error"), never as an answer."""
    try:
        return plan(*args)
    except (ScriptError, GameError) as error:
        raise ModelInconsistency(f"the plan {plan.__name__}{args} fails: {error}") from None


def _full_board_game(players: int, rounds: int) -> Builder:
    """A full-board game filled by the first player in ``rounds`` of their turns: Danna each
    turn, the 9 - rounds pairs in the first, the items in column order so that two columns pay
    a token early; their other turns end with a friend when the friends left outnumber the
    other players' turns still to come (or they need the token), else a mismatch; every other
    turn is a Danna friend while there are friends (0 flips), else a friend or a mismatch."""
    b = Builder(players)
    order = (0, 3, 6, 1, 4, 7, 2, 5, 8)
    placed = 0
    for k in range(players * rounds):
        state = b.state
        if state.phase is Phase.OVER:
            raise ScriptError("the game ended before its last round")
        if state.current == 0:
            if state.hands[0] >= 1:
                b.danna(order[placed])
                placed += 1
            if k == 0:
                for _ in range(9 - rounds):
                    b.pair(order[placed])
                    placed += 1
            if b.state.phase is Phase.ENDING:
                b.close_ending()
            elif b.state.phase is Phase.FIRST and b.state.current == 0:
                others = (players - 1) * (rounds - k // players)
                friends = b.down_friends()
                if friends and (b.state.hands[0] == 0 or friends > others):
                    b.friend()
                else:
                    b.mismatch()
        elif state.hands[state.current] >= 1 and b.down_friends():
            b.danna_friend()
        elif b.down_friends():
            b.friend()
        else:
            b.mismatch()
    return b


#: The static plans: for each player, the items of their Danna visits in order (None: Danna on
#: a friend), one visit a turn for Fr + N turns. Each item's pairs go to the board of the first
#: player whose list names it (item 8 with 2 players: the second player's). No board gets three
#: items of one column, so no column pays a token that would have to be spent.
_STATIC_PLANS: dict[int, tuple[tuple[int | None, ...], ...]] = {
    2: ((0, 1, 2, 3), (4, 5, 6, 7)),
    3: ((None, 0, 1, 2), (3, 5, 5, 5), (4, 6, 7, 8)),
    4: ((0, 0, 0, 1), (2, 2, 2), (3, 4, 5), (6, 7, 8)),
}


def static_game(players: int) -> Builder:
    """A game ending static in Fr + N turns: every turn one visit (a Danna item, or a Danna
    friend); the first Fr turns end with a friend, the next N - 1 with a mismatch, and the last
    player's last visit spends the last token with no face-down friend and at most one
    face-down tile of each item (MK-STATIC-1)."""
    setting = Setting.of(players)
    plan = _STATIC_PLANS[players]
    queues = [list(q) for q in plan]
    danna = Counter(i for q in plan for i in q if i is not None)
    owner = {i: next((p for p, q in enumerate(plan) if i in q), 1) for i in range(9)}
    pairs = {i: math.ceil(max(0, setting.copies - 1 - danna[i]) / 2) for i in range(9)}
    b = Builder(players)
    last = setting.friends + players - 1
    for k in range(last + 1):
        p = k % players
        if b.state.phase is Phase.OVER or b.state.current != p:
            raise ScriptError(f"turn {k} is not player {p}'s")
        if k < players:
            for item in range(9):
                if owner[item] == p:
                    for _ in range(pairs[item]):
                        b.pair(item)
        visit = queues[p].pop(0)
        if visit is None:
            b.danna_friend()
            continue
        b.danna(visit)
        if k < setting.friends:
            b.friend()
        elif k < last:
            b.mismatch()
    return b


#: The no-face-down plans of fewest turns (Fr + 1): each player's Danna items in order, one
#: a turn, and the item of the last tile flipped alone (2 players: 54 - 7 is odd).
_NFD_FAST: dict[int, tuple[tuple[tuple[int, ...], ...], int | None]] = {
    2: (((0, 0, 1, 1), (2, 2, 3)), 3),
    3: (((0, 0, 1, 4), (1, 2, 2), (3, 3, 4)), None),
    4: (((0, 0, 1), (1, 2, 4), (2, 3), (3, 4)), None),
}

#: The no-face-down plans of fewest flips: each player's Danna items in order, one a turn, and
#: the pairs each player makes in their first turn. The first player fills their board in the
#: last round (the trigger), the next E - 1 players fill theirs in their last turns (MK-END-3:
#: no flip, no friend needed to end the turn), the player before the first takes the last tile.
_NFD_FEW: dict[int, tuple[tuple[tuple[int, ...], ...], dict[int, dict[int, int]]]] = {
    2: (((0, 0, 1, 2), (1, 2, 3, 3)),
        {0: {0: 2, 3: 2, 4: 3, 5: 3, 6: 3, 7: 3, 8: 3}, 1: {1: 2, 2: 2}}),
    3: (((0, 0, 1, 3), (1, 2, 2, 4), (3, 4, 5, 5)),
        {0: {1: 3, 2: 3, 4: 3, 5: 2, 6: 2, 7: 2, 8: 2},
         1: {0: 3, 3: 3, 5: 1, 6: 2, 7: 2, 8: 2}}),
    4: (((0, 0, 2), (1, 1, 3), (2, 3, 4), (4, 5, 5)),
        {0: {1: 3, 3: 3, 4: 2, 5: 2, 6: 2, 7: 2, 8: 2},
         1: {0: 3, 2: 3, 4: 1, 5: 1, 6: 2, 7: 2, 8: 2}}),
}


#: No-face-down plans in which the last friend flipped is the last face-down tile, so that the
#: game ends as the next turn begins, its player holding a token they have not used: Fr + 1
#: turns begun, Fr with a decision. Danna items in even numbers (None: no visit that turn), so
#: that pairs take every other tile.
_NFD_AT_TURN_START: dict[int, tuple[tuple[int | None, ...], ...]] = {
    2: ((0, 0, 1), (1, 2, 2)),
    3: ((0, 0, 1), (1, 2, 2), (3, 3, None)),
    4: ((0, 0, None), (1, 1), (2, 2), (3, 3)),
}


def _spread_pairs(players: int, queues: Sequence[Sequence[int | None]],
                  lone: int | None = None) -> dict[int, dict[int, int]]:
    """Pairs for a no-face-down plan: an item with Danna visits goes to its first Danna
    player's board, the others go round the players (no board gets all nine items); a lone
    item keeps its last tile for a flip of its own."""
    setting = Setting.of(players)
    danna = Counter(i for q in queues for i in q if i is not None)
    out: dict[int, dict[int, int]] = {p: {} for p in range(players)}
    spare = 0
    for item in range(9):
        count = (setting.copies - danna[item] - (1 if item == lone else 0)) // 2
        holders = [p for p, q in enumerate(queues) if item in q]
        if holders:
            owner = holders[0]
        else:
            owner, spare = spare % players, spare + 1
        out[owner][item] = count
    return out


def _nfd_game(players: int, queues: Sequence[Sequence[int | None]],
              pairs: dict[int, dict[int, int]], lone: int | None) -> Builder:
    """Play a no-face-down plan: in turn k, player k mod N makes their pairs (first turn),
    visits Danna on their next item (None: no visit), then ends the turn with a friend while
    friends are face down; a full board ends it by itself; the last turn takes the last
    tile(s)."""
    b = Builder(players)
    left = [list(q) for q in queues]
    k = 0
    while b.state.phase is not Phase.OVER:
        p = b.state.current
        if p != k % players:
            raise ScriptError(f"turn {k} is not player {p}'s")
        if k < players:
            for item, count in sorted(pairs.get(p, {}).items()):
                for _ in range(count):
                    b.pair(item)
        if not left[p]:
            raise ScriptError(f"player {p} has no visit left in turn {k}")
        visit = left[p].pop(0)
        if visit is not None:
            b.danna(visit)
        if b.state.phase is Phase.ENDING:
            b.close_ending()
        elif b.state.phase is Phase.FIRST and b.state.current == p:
            if b.down_friends():
                b.friend()
            elif lone is not None:
                b.flip_item(lone)
            else:
                raise ScriptError(f"turn {k} cannot end as planned")
        k += 1
    return b


def minimum_game(players: int, reason: str, at: str, fewest_: Fewest) -> Witness:
    """The witness of ``fewest_`` for ``at`` "turns" (the fewest turns, with the fewest flips
    such a game allows) or "flips" (the fewest flips, in the fewest turns such a game allows)."""
    turns = fewest_.turns if at == "turns" else fewest_.turns_at_fewest_flips
    flips = fewest_.flips_at_fewest_turns if at == "turns" else fewest_.flips
    if turns is None or flips is None:
        raise ValueError(f"{players} players, {reason}: no game of the fewest {at} to build: the "
                         f"minima are {turns} turns and {flips} flips")
    label = (f"{players} players, {reason}: fewest {at}: {turns} turns, {flips} flips")
    if reason == "full-board":
        if turns % players:
            raise ModelInconsistency(f"a full-board game of {turns} turns with {players} players")
        b = _built(_full_board_game, players, turns // players)
    elif reason == "static":
        b = _built(static_game, players)
    elif at == "turns":
        queues, lone = _NFD_FAST[players]
        b = _built(_nfd_game, players, queues, _spread_pairs(players, queues, lone), lone)
    else:
        queues, pairs = _NFD_FEW[players]
        b = _built(_nfd_game, players, queues, pairs, None)
    return _check(b, label, reason, turns, flips)


# --- dead positions -------------------------------------------------------------------------


def dead_game(players: int) -> Builder:
    """A game that reaches a dead position that is not static. Player p lacks item 8 - p: they
    pair the two tiles of their colour of it and send both away with Sabanto (two visits), and
    the other tiles of that item go to the other boards, in other colours; every other item
    reaches every board. One tile each of items 0 and 1 stays face down (the last player takes
    one more of each with Danna), every friend is flipped, and the tokens are spent with
    One-san looks until the last player alone holds one, which they keep: at the start of the
    next turn nobody can ever fill a board, and the position is not static."""
    setting = Setting.of(players)
    config = Config.make(players)
    colours = [int(c) for c in config.colours]
    lack = {p: 8 - p for p in range(players)}
    holder = players - 1
    b = Builder(players)
    # What each player pairs in round 2: every item but their own lacking one; items 0 and 1
    # give one tile each to the holder by Danna and keep one face down.
    left = {i: setting.copies for i in range(9)}
    for p in range(players):
        left[lack[p]] -= 2
    for i in (0, 1):
        left[i] -= 2
    bulk: dict[int, Counter[int]] = {p: Counter() for p in range(players)}
    for item in range(9):
        takers = [p for p in range(players) if lack[p] != item
                  and not (item in (0, 1) and p == holder)]
        extra = [p for p in range(players) if lack[p] != item]
        count = left[item] // 2
        if count < len(takers):
            raise ScriptError(f"item {item}: {count} pairs for {len(takers)} boards")
        for k in range(count):
            who = takers[k] if k < len(takers) else extra[k % len(extra)]
            bulk[who][item] += 1
    # Round 1: the pair of one's own colour of the lacking item, one of it sent away.
    for p in range(players):
        b.pair(lack[p], colours[p])
        b.sabanto(lack[p], colours[p])
        b.friend()
    # Round 2: the other one sent away (the item space empty again), then the bulk.
    for p in range(players):
        b.sabanto(lack[p], colours[p])
        for item, count in sorted(bulk[p].items()):
            for _ in range(count):
                b.pair(item)
        b.friend()
    dannas = [0, 1]
    target = [0] * players
    target[holder] = 1
    for _ in range(60):
        state = b.state
        p = state.current
        if (state.phase is Phase.FIRST and not dannas and not b.down_friends()
                and list(state.hands) == target):
            return b
        if p == holder and dannas:
            b.danna(dannas.pop(0))
        elif state.hands[p] > target[p]:
            b.look()
        if b.down_friends():
            b.friend()
        else:
            b.mismatch()
    raise ScriptError("the dead position was not reached")


def dead_position_facts(state: State) -> tuple[tuple[str, Any], ...]:
    """The dead position as an answer: what lies face down, the tokens, what each board lacks
    and which of those items are gone for good."""
    down = sorted(state.layout[s] for s, v in enumerate(state.spaces) if v == DOWN)
    return (("player_to_move", state.current), ("face_down", tuple(tile_name(t) for t in down)),
            ("hands", tuple(state.hands)),
            ("missing", tuple(tuple(i for i in range(9) if not filled(board, i))
                              for board in state.boards)),
            ("gone_for_good", tuple(tuple(x) for x in FACTS["unfillable_items"](state))),
            ("discarded", tuple(tile_name(t) for t in state.discarded)),
            ("static", FACTS["static"](state)))


INVARIANT = ("an item a player lacks whose tiles are gone for that player (none on the game "
             "board, none of their colour on another board) stays missing: every kind of "
             "decision keeps it so, hence that board is never full and never triggers the end")
PROGRESS = ("from every position that is not over, some decisions end the game or take a tile "
            "off the game board within N turns; the face-down tiles are finite, so every game "
            "can end")


def invariant_check(deadline: Deadline, *, without: Iterable[str] = ()
                    ) -> Proof | Counterexample:
    """z3: "player p lacks item X and X is gone for p for good" is kept by every decision.

    Counts about one player p and one item X: ``down``, the tiles of X on the game board (face
    down, or face up as a first flip); ``other``, the tiles of X in p's colour on the other
    maiko boards; ``own``, the tiles on p's item space X. The invariant is down = other =
    own = 0. Each kind of decision (the mover q is p or not; the item j is X or not) changes
    the counts as its rule says; z3 finds no decision that breaks the invariant, and the core
    names the rule of every kind of decision: each is needed, each keeps it. Decided either
    way: without a rule (``without``) z3 may find a decision that breaks the invariant, and
    the counterexample says which, and the counts before and after.
    """
    down, other, own = z3.Ints("down other own")
    down2, other2, own2 = z3.Ints("down' other' own'")
    mover_is_p, item_is_x = z3.Bools("mover_is_p item_is_x")
    kinds = ("flip", "pair", "danna", "oka_san", "sabanto", "row_discard", "one_san", "end_turn")
    kind = {k: z3.Bool(f"decision_is_{k}") for k in kinds}
    same = z3.And(down2 == down, other2 == other, own2 == own)
    problem = Problem(deadline, without=without)
    problem.require([Constraint("hypothesis: p lacks X, and X is gone for p for good",
                                z3.And(down == 0, other == 0, own == 0))], "before")
    problem.require([Constraint("hypothesis: after the decision X is no longer gone",
                                z3.Not(z3.And(down2 == 0, other2 == 0, own2 == 0)))], "after")
    problem.require([Constraint("definition: counts are whole numbers",
                                z3.And(*[x >= 0 for x in (down, other, own, down2, other2,
                                                          own2)]))], "domains")
    # The decisions of a turn: a flip, a tutor visit (Danna, Oka-san, One-san looks,
    # Sabanto), a row discard, the end of the ending step (docs/maiko.md's record format);
    # a flip that makes a pair is kind "pair".
    problem.require([Constraint("definition: the kinds of decision",
                                z3.PbEq([(kind[k], 1) for k in kinds], 1))], "one decision")

    def moves(k: str, rule: str, effect: z3.BoolRef) -> None:
        problem.require([Constraint(rule, z3.Implies(kind[k], effect))], f"decision {k}")

    # MK-FLIP-1, MK-FLIP-4, MK-FLIP-5: a first flip turns a tile face up on the game board, a
    # mismatch turns both back face down, a friend is no item: no tile leaves the game board.
    moves("flip", "MK-FLIP-4", same)
    # MK-FLIP-3: a pair moves two face-down tiles of one item onto the mover's item space.
    moves("pair", "MK-FLIP-3", z3.If(item_is_x, z3.And(
        down >= 2, down2 == down - 2,
        z3.If(mover_is_p, z3.And(own2 == own + 2, other2 == other),
              z3.And(own2 == own, other2 >= other, other2 <= other + 2))), same))
    # MK-TUTOR-DANNA-1, MK-TUTOR-DANNA-2: Danna moves one face-down tile onto the mover's
    # board (a friend stays on the game board).
    moves("danna", "MK-TUTOR-DANNA-2", z3.If(item_is_x, z3.And(
        down >= 1, down2 == down - 1,
        z3.If(mover_is_p, z3.And(own2 == own + 1, other2 == other),
              z3.And(own2 == own, other2 >= other, other2 <= other + 1))), same))
    # MK-TUTOR-OKASAN-1: the mover takes a tile of their own colour from another board: p
    # takes a p-coloured tile, another player a tile of their colour (maybe from p's board).
    moves("oka_san", "MK-TUTOR-OKASAN-1", z3.If(
        mover_is_p,
        z3.If(item_is_x, z3.And(other >= 1, other2 == other - 1, own2 == own + 1,
                                down2 == down), same),
        z3.And(down2 == down, other2 == other, own2 <= own)))
    # MK-TUTOR-SABANTO-1, MK-ROW-1: tiles leave a maiko board for the discard, never back.
    moves("sabanto", "MK-TUTOR-SABANTO-1", z3.And(down2 == down, other2 <= other, own2 <= own))
    moves("row_discard", "MK-ROW-1", z3.And(down2 == down, other2 <= other, own2 <= own))
    # MK-TUTOR-ONESAN-2: a look leaves the tile face down; MK-END-1: ending the ending step
    # moves no tile.
    moves("one_san", "MK-TUTOR-ONESAN-2", same)
    moves("end_turn", "MK-END-1", same)
    verdict = problem.check().decided()
    if verdict.status is Status.UNSAT:
        return Proof.of(INVARIANT, verdict)
    model = verdict.model
    assert model is not None  # decided, not unsat: sat
    value = lambda term: model.eval(term, model_completion=True)
    return Counterexample(INVARIANT, "after the decision X is no longer gone", (
        ("decision", next(k for k in kinds if z3.is_true(value(kind[k])))),
        ("mover_is_p", z3.is_true(value(mover_is_p))),
        ("item_is_x", z3.is_true(value(item_is_x))),
        ("before", tuple(value(x).as_long() for x in (down, other, own))),
        ("after", tuple(value(x).as_long() for x in (down2, other2, own2)))),
        None, problem.dropped)


def _progress_problem(deadline: Deadline, without: Iterable[str]
                      ) -> tuple[Problem, dict[str, Any]]:
    """The case analysis of the potential argument, one constraint per rule: no face-down tile
    ends the game (MK-END-4); a static position ends it (MK-STATIC-2, with MK-STATIC-1's
    definition); a face-down friend can be flipped (MK-FLIP-5); two face-down tiles of one item
    can be flipped as a pair (MK-FLIP-3); one face-down tile can be flipped, and the second
    flip finds none (MK-END-4); with two or more face-down tiles of different items and no
    friend, a turn can pass with a mismatch (MK-FLIP-4), so the holder of a token reaches their
    turn and visits Danna (MK-TUTOR-DANNA-1); after a trigger the last turns are finite
    (MK-END-2). ``progress``: within N turns some decisions end the game or take a tile off the
    game board."""
    fd, fdf = z3.Ints("face_down face_down_friends")
    dup, tok, trig, over, progress, passing = z3.Bools(
        "two_of_one_item token_in_a_hand triggered over progress a_turn_can_pass")
    problem = Problem(deadline, without=without)
    problem.require([Constraint("definition: counts", z3.And(
        fd >= 0, fdf >= 0, fdf <= fd, z3.Implies(dup, fd - fdf >= 2)))], "domains")
    problem.require([Constraint("hypothesis: not over and no progress",
                                z3.And(z3.Not(over), z3.Not(progress)))], "question")
    problem.require([Constraint("MK-END-4", z3.And(z3.Implies(fd == 0, over),
                                                   z3.Implies(fd == 1, progress)))], "no tile")
    problem.require([Constraint("MK-STATIC-2", z3.Implies(
        z3.And(z3.Not(trig), z3.Not(tok), fdf == 0, z3.Not(dup)), over))], "static")
    problem.require([Constraint("MK-FLIP-5", z3.Implies(fdf >= 1, progress))], "friend")
    problem.require([Constraint("MK-FLIP-3", z3.Implies(dup, progress))], "pair")
    problem.require([Constraint("MK-FLIP-4", z3.Implies(
        z3.And(fd >= 2, fdf == 0, z3.Not(dup)), passing))], "mismatch")
    problem.require([Constraint("MK-TUTOR-DANNA-1", z3.Implies(
        z3.And(tok, fd >= 1, passing), progress))], "Danna")
    problem.require([Constraint("MK-END-2", z3.Implies(trig, progress))], "last turns")
    names = {"face_down": fd, "face_down_friends": fdf, "two_of_one_item": dup,
             "token_in_a_hand": tok, "triggered": trig}
    return problem, names


def progress_check(deadline: Deadline, *, without: Iterable[str] = ()
                   ) -> Proof | Counterexample:
    """z3: from every position at a first flip that is not over, some decisions within N turns
    end the game or take a tile off the game board (the potential, the face-down tiles,
    drops); the tiles are finite, so every game can end (each turn has boundedly many
    decisions: a flip either pairs, which takes two tiles, or ends the turn; one visit; at most
    six looks; three sweeps per row completed). Decided either way: without a rule
    (``without``; the reading without MK-STATIC-2 is one) z3 may find a position where no
    decision makes progress, a trap, and the counterexample describes it."""
    problem, names = _progress_problem(deadline, without)
    verdict = problem.check().decided()
    if verdict.status is Status.UNSAT:
        return Proof.of(PROGRESS, verdict)
    model = verdict.model
    assert model is not None  # decided, not unsat: sat
    values = {k: model.eval(v, model_completion=True) for k, v in names.items()}
    return Counterexample(PROGRESS, "not over and no progress", tuple(sorted(
        (k, v.as_long() if z3.is_int_value(v) else z3.is_true(v)) for k, v in values.items())),
        None, problem.dropped)


# --- exhaustive search over engine states ---------------------------------------------------


def position_key(state: State) -> tuple[Any, ...]:
    """What the rules read of a state: everything but the turn counter and the history (no
    rule reads them: MK-END-2 reads the first player and the player to move), and One-san's
    looks as a set (MK-TUTOR-ONESAN-1: only which tiles, never their order)."""
    return (state.phase, state.current, state.spaces, state.boards, state.hands, state.pool,
            state.cards, state.discarded, state.pending, state.visited, frozenset(state.looks),
            state.resume, state.sweep_row, state.sweep_index, state.triggered_by,
            None if state.result is None else state.result.reason)


def without_static(state: State) -> State:
    """The reading without MK-STATIC-2: a state the engine ended as static goes on instead (the
    player to move at the first flip), every other state is left as it is."""
    if state.result is not None and state.result.reason is Reason.STATIC:
        return attrs.evolve(state, phase=Phase.FIRST, result=None)
    return state


@attrs.frozen
class Graph:
    """The positions reachable from ``root`` (keys of :func:`position_key`), each with a state
    and its moves (decision, key, cost in flips, cost in turns)."""

    root: tuple[Any, ...]
    states: dict[tuple[Any, ...], State]
    moves: dict[tuple[Any, ...], list[tuple[Decision, tuple[Any, ...], int, int]]]

    def terminal(self) -> list[tuple[Any, ...]]:
        return [k for k, s in self.states.items() if s.phase is Phase.OVER]

    def can_end(self) -> set[tuple[Any, ...]]:
        """The positions from which some decisions end the game (backward search)."""
        back: dict[tuple[Any, ...], list[tuple[Any, ...]]] = {}
        for k, out in self.moves.items():
            for _, to, _, _ in out:
                back.setdefault(to, []).append(k)
        done = set(self.terminal())
        queue = deque(done)
        while queue:
            for k in back.get(queue.popleft(), ()):
                if k not in done:
                    done.add(k)
                    queue.append(k)
        return done

    def has_cycle(self) -> bool:
        """Whether some position can come back (a game can go on for ever)."""
        colour: dict[tuple[Any, ...], int] = {}
        for top in self.states:
            if top in colour:
                continue
            stack = [(top, iter(self.moves.get(top, ())))]
            colour[top] = 1
            while stack:
                node, it = stack[-1]
                step = next(it, None)
                if step is None:
                    colour[node] = 2
                    stack.pop()
                    continue
                to = step[1]
                if colour.get(to) == 1:
                    return True
                if to not in colour:
                    colour[to] = 1
                    stack.append((to, iter(self.moves.get(to, ()))))
        return False

    def cheapest(self, reason: str, cost: Literal[2, 3]) -> int | None:
        """The least total ``cost`` (2: flips, 3: turns begun after the root's turn) to an end
        by ``reason`` (Dijkstra); None if no such end is reachable."""
        best = {self.root: 0}
        heap = [(0, 0, self.root)]
        counter = 1
        while heap:
            d, _, k = heapq.heappop(heap)
            if d > best.get(k, math.inf):
                continue
            state = self.states[k]
            if state.phase is Phase.OVER:
                if state.result is not None and state.result.reason.value == reason:
                    return d
                continue
            for move in self.moves.get(k, ()):
                nd = d + move[cost]
                if nd < best.get(move[1], math.inf):
                    best[move[1]] = nd
                    heapq.heappush(heap, (nd, counter, move[1]))
                    counter += 1
        return None


def explore(state: State, *, static_end: bool = True, limit: int = 200_000) -> Graph:
    """Every position reachable from ``state`` by legal decisions (the engine's own
    ``legal_actions`` and ``apply``), up to ``limit`` positions (ValueError beyond). With
    ``static_end=False`` a static end is read as going on (:func:`without_static`)."""
    fix: Callable[[State], State] = (lambda s: s) if static_end else without_static
    state = fix(state)
    root = position_key(state)
    states = {root: state}
    moves: dict[tuple[Any, ...], list[tuple[Decision, tuple[Any, ...], int, int]]] = {}
    queue = deque([root])
    while queue:
        key = queue.popleft()
        current = states[key]
        out = []
        for decision in legal_actions(current):
            after = fix(apply(current, decision))
            to = position_key(after)
            out.append((decision, to, 1 if isinstance(decision, Flip) else 0,
                        after.turn - current.turn))
            if to not in states:
                if len(states) >= limit:
                    raise ValueError(f"more than {limit} positions")
                states[to] = after
                queue.append(to)
        moves[key] = out
    return Graph(root, states, moves)


# --- the queries ----------------------------------------------------------------------------


def _answers(players: int, deadline: Deadline, reasons: Iterable[str]) -> tuple[
        list[tuple[str, Any]], list[Proof], list[Witness], list[Counterexample]]:
    """Each ending's minima, their proofs and counterexamples, and a witness game at each
    minimum when every minimum holds (a witness shows the minima it was built for)."""
    answer: list[tuple[str, Any]] = []
    proofs: list[Proof] = []
    witnesses: list[Witness] = []
    counterexamples: list[Counterexample] = []
    for reason in reasons:
        best = fewest(players, reason, deadline)
        answer.append((reason, best.to_answer()))
        proofs.extend(best.proofs)
        counterexamples.extend(best.counterexamples)
        if best.proved:
            witnesses.append(minimum_game(players, reason, "turns", best))
            if not best.one_game:
                witnesses.append(minimum_game(players, reason, "flips", best))
    return answer, proofs, witnesses, counterexamples


def fastest_end(deadline: Deadline) -> Finding:
    """For each player count and each way a game ends: the fewest turns (begun, the engine's
    ``turn + 1``) and the fewest flips, whether one game has both, and the other quantity at
    each minimum; proved by the counting model's unsat cores, reached by witness games."""
    answer: list[tuple[str, Any]] = []
    proofs: list[Proof] = []
    witnesses: list[Witness] = []
    counterexamples: list[Counterexample] = []
    for players in PLAYER_COUNTS:
        a, p, w, c = _answers(players, deadline, REASONS)
        answer.append((f"{players} players", tuple(a)))
        proofs += p
        witnesses += w
        counterexamples += c
    notes = (
        ("turns are turns begun, the one in which the game ends included (the engine's turn + 1); "
         "a game record lists only turns with a decision, one fewer when MK-END-4 or MK-STATIC-2 "
         "ends the game as a turn begins"),
        ("a last turn after a full board needs no flip when its player visits Danna and reveals a "
         "friend (MK-TUTOR-DANNA-3), or fills their own board (MK-END-3)"),
        ("full-board: the fewest turns (one round: the first player fills the board in one turn "
         "with 8 pairs and a visit) cost 16 flips; fewer flips need more rounds"),
        ("no-face-down-tile: the fewest flips need a board filled first (the ending steps are "
         "turns that end with no flip and no friend); the fewest turns cost one flip more"),
    )
    return Finding(answer=tuple(answer), proofs=tuple(proofs), witnesses=tuple(witnesses),
                   notes=notes, counterexamples=tuple(counterexamples))


def static_reachable(deadline: Deadline) -> Finding:
    """Whether and how soon a game reaches a static position (MK-STATIC-1)."""
    answer: list[tuple[str, Any]] = []
    proofs: list[Proof] = []
    witnesses: list[Witness] = []
    counterexamples: list[Counterexample] = []
    for players in PLAYER_COUNTS:
        best = fewest(players, "static", deadline)
        setting = Setting.of(players)
        answer.append((f"{players} players", (("reachable", best.possible),)
                       + (best.to_answer() if best.possible else ())))
        proofs += best.proofs
        counterexamples += best.counterexamples
        if best.proved:
            witnesses.append(minimum_game(players, "static", "turns", best))
            if best.turns != setting.friends + players:
                raise ModelInconsistency("the static minimum is not friends + players turns")
    how = ("every friend revealed (each reveal ends a turn), every token spent (the players' "
           "first tokens and one per friend, each visit in a turn of its own, each player's "
           "last one in a turn that reveals no friend), and at most one face-down tile of each "
           "item (pairs and Danna take the others): friends + players turns")
    return Finding(answer=tuple(answer) + (("how", how),), proofs=tuple(proofs),
                   witnesses=tuple(witnesses), counterexamples=tuple(counterexamples))


def dead_not_static(deadline: Deadline) -> Finding:
    """Query ``dead-not-static``: a reachable position that is not static (MK-STATIC-1) from
    which no board can ever be filled; and whether a position can be reached from which the
    game can never end, with MK-STATIC-2 and without it."""
    answer: list[tuple[str, Any]] = []
    witnesses: list[Witness] = []
    for players in PLAYER_COUNTS:
        b = _built(dead_game, players)
        state = b.state
        gone = FACTS["unfillable_items"](state)
        if not all(gone) or FACTS["static"](state):
            raise ModelInconsistency("the dead plan does not reach a dead, non-static position")
        graph = explore(state)
        if any(FACTS["full_boards"](s) != [False] * players or s.triggered_by is not None
               for s in graph.states.values()):
            raise ModelInconsistency("the search fills a board from a dead position")
        if len(graph.can_end()) != len(graph.states) or not graph.has_cycle():
            raise ModelInconsistency("the dead position does not behave as argued")
        answer.append((f"{players} players", (
            ("reachable", True),
            ("position", dead_position_facts(state)),
            ("positions_searched", len(graph.states)),
            ("endings_reachable", tuple(sorted({s.result.reason.value
                                                for s in graph.states.values()
                                                if s.result is not None}))))))
        witnesses.append(b.witness(
            f"{players} players: a dead position that is not static (turn {state.turn + 1})",
            over=False, static=False, phase="FIRST", hands=list(state.hands),
            unfillable_items=gone, full_boards=[False] * players,
            face_down=len(state.face_down())))
    invariant = invariant_check(deadline)
    progress = progress_check(deadline)
    trap = progress_check(deadline, without=("MK-STATIC-2",))
    # The trap under the reading without MK-STATIC-2: each static witness's last position.
    traps = []
    if isinstance(trap, Counterexample):
        for players in PLAYER_COUNTS:
            best = fewest(players, "static", deadline)
            if not best.proved:
                continue
            static_state = minimum_game(players, "static", "turns", best).replay()
            graph = explore(static_state, static_end=False)
            if graph.terminal() or len(graph.states) < 2:
                raise ModelInconsistency("without MK-STATIC-2 a static position can still end")
            traps.append((f"{players} players", (("face_down", len(static_state.face_down())),
                                                 ("positions", len(graph.states)),
                                                 ("any_end_reachable", False))))
    answer += [
        ("can_go_on_for_ever_by_choice", isinstance(invariant, Proof)),
        ("can_reach_a_position_that_never_ends", isinstance(progress, Counterexample)),
        ("without_MK_STATIC_2", (
            ("can_reach_a_position_that_never_ends", isinstance(trap, Counterexample)),
            ("trap", trap.values if isinstance(trap, Counterexample) else None),
            ("static_witness_positions", tuple(traps)))),
    ]
    checked = (invariant, progress, trap)
    return Finding(answer=tuple(answer),
                   proofs=tuple(c for c in checked if isinstance(c, Proof)),
                   counterexamples=tuple(c for c in checked if isinstance(c, Counterexample)),
                   witnesses=tuple(witnesses), notes=(
        ("the dead position is not static because a player holds a token; they may keep it "
         "for ever (MK-END-5), or spend it, after which the position is static and ends"),
        ("without MK-STATIC-2 the static position of each static witness game is a trap: the "
         "only decisions are flips, every turn is a mismatch, no end is reachable (exhaustive "
         "search with the static end read as going on)"),))


def open_visits(state: State, player: int) -> int:
    """The tutor visits ``player`` could make at a first flip of their own turn, the position
    otherwise as ``state`` (the end read as going on): what the other readings of MK-END-4
    would still let them do. With no face-down tile only Oka-san and Sabanto can be left."""
    going_on = attrs.evolve(state, phase=Phase.FIRST, result=None, current=player,
                            visited=False, pending=None, looks=(), resume=None)
    return sum(1 for d in legal_actions(going_on) if not isinstance(d, Flip))


def nfd_turn_start_game(players: int) -> Builder:
    """A game ending by MK-END-4 as a turn begins: the last friend flipped was the last
    face-down tile, and the player who must flip next holds a token."""
    queues = _NFD_AT_TURN_START[players]
    return _nfd_game(players, queues, _spread_pairs(players, queues), None)


def no_face_down_end(deadline: Deadline) -> Finding:
    """MK-END-4: a game that ends because no tile is face down when a flip is due."""
    answer, proofs, witnesses, counterexamples = [], [], [], []
    for players in PLAYER_COUNTS:
        a, p, w, c = _answers(players, deadline, ("no-face-down-tile",))
        proofs += p
        witnesses += w
        counterexamples += c
        setting = Setting.of(players)
        b = _built(nfd_turn_start_game, players)
        end = b.state
        mover = end.current
        flips = FACTS["flips"](end)
        shown = b.witness(
            f"{players} players, no-face-down-tile as turn {setting.friends + 1} begins: the "
            f"player to move, {mover}, holds a token",
            over=True, reason="no-face-down-tile", turns=setting.friends + 1, flips=flips,
            face_down=0, hands=list(end.hands))
        witnesses.append(shown)
        if FACTS["reason"](end) != "no-face-down-tile" or end.turn != setting.friends:
            raise ModelInconsistency("the turn-start plan does not end as planned")
        answer.append((f"{players} players", a[0][1] + (
            ("ends_as_a_turn_begins", (
                ("turns_begun", end.turn + 1),
                ("turns_in_the_record", len({step.turn for step in end.steps})),
                ("flips", flips),
                ("player_to_move", mover),
                ("hands", tuple(end.hands)),
                ("full_boards", tuple(FACTS["full_boards"](end))),
                ("open_visits", tuple(open_visits(end, q) for q in range(players))))),)))
    readings = (
        ("taken", "reading 8: the game ends at once and is scored; the engine is total (every "
                  "position that is not the end has a legal decision)"),
        ("pass_for_ever", "a player who must flip and cannot passes: no flip is ever possible "
                          "again, so the game goes on for ever unless Oka-san fills a board; "
                          "meanwhile every player holding a token may still visit Oka-san or "
                          "Sabanto (open_visits), changing the scores; a result would depend "
                          "on when everybody stops"),
        ("visit_first", "the player who must flip may first visit a tutor (if not yet this "
                        "turn): the position the game is scored in can differ by that visit "
                        "(Oka-san takes a tile of their colour, +1 to them and -1 to its owner, "
                        "or completes their board; Sabanto discards a tile of their own)"),
    )
    return Finding(answer=tuple(answer) + (("readings", readings),), proofs=tuple(proofs),
                   witnesses=tuple(witnesses), counterexamples=tuple(counterexamples), notes=(
        ("open_visits: per player, the tutor visits legal at a first flip of theirs in the "
         "final position read as going on (the engine's legal_actions): what the readings "
         "other than reading 8 would still let them do"),
        ("turns_begun counts the turn that ends before its first decision; the record lists "
         "turns_in_the_record turns"),))


def minima(start: Start, reason: str, deadline: Deadline) -> tuple[int, int] | None:
    """The counting model's fewest turns and fewest flips from the position ``start`` to an
    end by ``reason`` (None if the model allows no such end): lower bounds on what the engine
    can do from there."""
    model = Counting(start, reason)
    turns = model.optimum("turns", deadline)
    if turns is None:
        return None
    flips = model.optimum("flips", deadline)
    assert flips is not None
    return turns, flips
