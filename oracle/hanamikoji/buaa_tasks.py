"""Vectors in the task shapes of the BUAA 2026 course (``hanamikoji vectors --tasks buaa``).

Three JSON files, each a header and a list of cases that a short Node test can loop over:

* ``t1.json`` (the win judge, ``hanamikoji_judge(board, round)``): every board of 7 values from
  -1, 0, 1 (A to G; 1 the caller's marker) and every round 1 to 3, with the expected code (1 the
  caller wins, -1 the opponent, 0 play on, 2 a draw after round 3), from the engine's
  ``italian-three-rounds`` rules (END-2..4, VAR-IT-2..4; the draw is a shared victory). Each
  case says whether the board can stand after the scoring of that round of a game (``reachable``),
  from the rows one round's scoring can produce (SCORE-2, SCORE-3), played round by round from
  the neutral row and stopped where a goal ends the game (END-1).
* ``t2.json`` (the state calculator, ``calc_current_state(history, board)``): rounds of seeded
  games as their starter saw them once the round was over (every card shown), the board before
  the round from the starter's side, and the 3 x 7 answer: the starter's cards per geisha (secret
  included), the opponent's, and the board after scoring. The rounds are chosen so that every
  action comes at every one of the eight places of a round, both seats start, and boards that
  are not neutral come in.
* ``t3.json`` (the bot, ``hanamikoji_action(history, hand, board)``): decision points of seeded
  games as the deciding player saw them (the engine's ``observe``: ``X`` for the opponent's
  hidden cards), with every legal action string in canonical form (letters sorted; a
  competition's sets each sorted, the smaller set first) and, for each, the other spellings of
  the same decision.

Every expected answer is computed by the engine; nothing is typed by hand. The same engine
writes the same bytes.
"""

from __future__ import annotations

import functools
import itertools
import random
from typing import Any, Iterator

from hanamikoji.engine.hanamikoji import cards as C
from hanamikoji.engine.hanamikoji.actions import ACTION_TYPES, ActionKind, CompetitionPick, Decision
from hanamikoji.engine.hanamikoji.game import (
    Phase,
    State,
    apply,
    current_player,
    legal_actions,
    new_game,
)
from hanamikoji.engine.hanamikoji.rules import ITALIAN_THREE_ROUNDS, Markers
from hanamikoji.engine.hanamikoji.seeded import play_game
from hanamikoji.oracle.hanamikoji import buaa

ROUNDS = ITALIAN_THREE_ROUNDS.max_rounds or 3
START: Markers = (None,) * C.NUM_GEISHA
BOARDS = tuple(itertools.product((-1, 0, 1), repeat=C.NUM_GEISHA))
SEED = 2026
GENERATOR = "hanamikoji vectors --tasks buaa"


# --- T1 ---------------------------------------------------------------------------------------


def judge_code(board: tuple[int, ...], round: int) -> int:
    """T1's code for ``board`` after round ``round`` (1 to 3), by the engine's rules."""
    result = ITALIAN_THREE_ROUNDS.round_result(buaa.board_markers(board), round - 1)
    if result is None:
        return 0
    return 2 if result.winner is None else 1 if result.winner == 0 else -1


def round_rows() -> tuple[Markers, ...]:
    """Every row one round's scoring can produce from the neutral row (SCORE-2, SCORE-3): the
    scoring of every pair of sides of 8 cards each that the deck can hold (COMP-2)."""
    from hanamikoji.spec.hanamikoji.confirm import patterns

    return patterns()


@functools.cache  # the same for every seed and --cases: worked out once a process
def reachable_after() -> tuple[frozenset[Markers], ...]:
    """The rows a game can stand in after the scoring of round 1, 2 and 3: each round moves the
    markers of an open row (no goal reached, END-1) by a row one round can produce."""
    moves = [tuple((g, m) for g, m in enumerate(row) if m is not None) for row in round_rows()]
    after: list[frozenset[Markers]] = []
    frontier = {START}
    for round_index in range(ROUNDS):
        found = set()
        for row in frontier:
            for move in moves:
                new = list(row)
                for g, m in move:
                    new[g] = m
                found.add(tuple(new))
        after.append(frozenset(found))
        frontier = {row for row in found if ITALIAN_THREE_ROUNDS.round_result(row, round_index)
                    is None}
    return tuple(after)


def t1_cases() -> list[dict[str, Any]]:
    after = reachable_after()
    return [{"board": list(board), "round": r, "expected": judge_code(board, r),
             "reachable": buaa.board_markers(board) in after[r - 1]}
            for r in range(1, ROUNDS + 1) for board in BOARDS]


# --- T2 ---------------------------------------------------------------------------------------


def t2_cases(seed: int = SEED, wanted: int = 40, rng: random.Random | None = None
             ) -> list[dict[str, Any]]:
    """Rounds of seeded games until every (action, place) pair, both starting seats and boards
    that are not neutral are covered, and at least ``wanted`` cases. With ``rng`` (the long
    sets of ``--cases``), every round is taken, and each history is spelled as a player may
    write it (:func:`respelled`)."""
    cases: list[dict[str, Any]] = []
    covered: set[Any] = set()
    goals = ({(k, p) for k in ActionKind for p in range(8)} | {("starter", 0), ("starter", 1)}
             | {("board", True)})
    for index in itertools.count():
        if goals <= covered and len(cases) >= wanted:
            break
        if index > 2000 + wanted:  # pragma: no cover - a seed that never covers them
            raise AssertionError(f"seed {seed}: T2 cases cover {len(covered)} of {len(goals)}")
        state = play_game(seed, index, ITALIAN_THREE_ROUNDS, index % 2)
        before = START
        starter = state.first_player
        for score, decisions in zip(state.scores, buaa._rounds(state.history)):
            kinds = [d.kind for d in decisions if isinstance(d, ACTION_TYPES)]
            new = ({(k, p) for p, k in enumerate(kinds)} | {("starter", starter)}
                   | {("board", any(m is not None for m in before))})
            if (rng is not None and len(cases) < wanted or not new <= covered
                    or len(cases) < wanted and index % 3 == 0):
                board = buaa.markers_board(before, starter)
                history = buaa.round_text(decisions)
                if rng is not None:
                    history = " ".join(respelled(move, rng) for move in history.split())
                expected = [list(score.sides[starter]), list(score.sides[1 - starter]),
                            buaa.markers_board(score.markers, starter)]
                # the notation's own decoder must agree with the game's scoring
                got = buaa.calc_current_state(history, board)
                if got != expected:  # pragma: no cover - a bug of the codec
                    raise AssertionError(f"{history!r} from {board}: {got} != {expected}")
                cases.append({"id": f"seed {seed} game {index} round {score.round + 1}",
                              "history": history, "board": board, "expected": expected})
                covered |= new
            before = score.markers
            starter = 1 - starter
    return cases


# --- T3 ---------------------------------------------------------------------------------------


def spellings(decision: Decision) -> list[str]:
    """Every way to write ``decision`` as a T3 answer, the canonical one first."""
    canonical = buaa.decision_text(decision)
    head, letters = canonical[0], canonical[1:]
    if isinstance(decision, CompetitionPick) or head != "4":
        found = {head + "".join(p) for p in itertools.permutations(letters)}
    else:
        found = set()
        for first, second in ((letters[:2], letters[2:]), (letters[2:], letters[:2])):
            for a in {first, first[::-1]}:
                for b in {second, second[::-1]}:
                    found.add(head + a + b)
    found.discard(canonical)
    return [canonical] + sorted(found)


def _decision_points(state: State) -> Iterator[State]:
    """Every state of a finished game's history at which a player decides."""
    point = new_game(state.rules, state.first_player)
    for decision in state.history:
        if point.phase in (Phase.ACTION, Phase.RESPONSE):
            yield point
        point = apply(point, decision)


def t3_points(seed: int = SEED, wanted: int = 48, every: bool = False
              ) -> list[tuple[str, State]]:
    """(id, state) of decision points of seeded games (seed ``seed + 1``): one of each place in
    a round (each of the eight moves and the picks), seat and round, until ``wanted``; with
    ``every``, every decision point of every game, in order, until ``wanted`` and until every
    move and every pick of a gift or a competition has come at each of the eight places for
    both seats."""
    points: list[tuple[str, State]] = []
    covered: set[Any] = set()
    goals = ({(turn, kind, player) for turn in range(8) for player in (0, 1)
              for kind in (None, ActionKind.GIFT, ActionKind.COMPETITION)}
             | {(kind, place) for kind in ActionKind for place in range(7)})
    reached: set[Any] = set()
    for index in itertools.count():
        if len(points) >= wanted and (not every or goals <= reached) or index > 200 + wanted:
            break
        state = play_game(seed + 1, index, ITALIAN_THREE_ROUNDS, index % 2)
        for point in _decision_points(state):
            key = (point.round, point.turn, point.phase, current_player(point))
            new = {(point.turn, point.pending.kind if point.pending is not None else None,
                    current_player(point))} | _moves_made(point)
            if not every and key in covered or every and len(points) >= wanted and (
                    new <= reached):
                continue
            covered.add(key)
            reached |= new
            points.append((f"seed {seed + 1} game {index} round {point.round + 1} move "
                           f"{point.turn + 1}" + (" pick" if point.phase is Phase.RESPONSE
                                                  else ""), point))
            if len(points) >= wanted and (not every or goals <= reached):
                break
    return points


def _moves_made(point: State) -> set[tuple[ActionKind, int]]:
    """(kind, place) of each move of ``point``'s round made so far (a gift or competition
    once answered)."""
    kinds = [d.kind for d in buaa._rounds(point.history)[-1] if isinstance(d, ACTION_TYPES)]
    return {(kind, place) for place, kind in enumerate(kinds[:point.turn])}


def t3_case(id: str, point: State, rng: random.Random | None = None) -> dict[str, Any]:
    """The T3 case of the decision point ``point``: its history respelled with ``rng`` when
    one is given (:func:`respelled`; X stays X)."""
    player = current_player(point)
    legal = legal_actions(point)
    history = buaa.view_text(point, player)
    if rng is not None:
        history = " ".join(respelled(move, rng) for move in history.split())
    return {"id": id, "history": history, "hand": buaa.hand_text(point, player),
            "board": buaa.markers_board(point.markers, player),
            "legal": [buaa.decision_text(d) for d in legal],
            "spellings": {s[0]: s[1:] for s in map(spellings, legal) if len(s) > 1}}


def t3_cases(seed: int = SEED, wanted: int = 48, rng: random.Random | None = None
             ) -> list[dict[str, Any]]:
    """Decision points of seeded games: every place in a round (each of the eight moves and the
    picks), both seats, every round. With ``rng`` (the long sets of ``--cases``), every decision
    point of each game, with its history respelled."""
    return [t3_case(id, point, rng) for id, point in t3_points(seed, wanted, rng is not None)]


def respelled(move: str, rng: random.Random) -> str:
    """``move`` as a player may write it: its cards in any order, a competition's two sets in
    either order (each set's letters in any order), a pick's letters in any order. The course's
    referee passes each move on as its player wrote it (``4BDCA-DB`` is ``4ACBD-BD``).

    >>> respelled("4ACBD-BD", random.Random(3))
    '4BDCA-BD'
    """
    head, body = move[0], move[1:]
    action, dash, pick = body.partition("-")
    shuffle = lambda text: "".join(rng.sample(text, len(text)))  # noqa: E731
    if head == "4":
        sets = [action[:2], action[2:]]
        rng.shuffle(sets)
        action = "".join(shuffle(s) for s in sets)
    else:
        action = shuffle(action)
    return head + action + dash + shuffle(pick)


# --- the files --------------------------------------------------------------------------------

NOTES = {
    "t1.json": "Every board (A..G: 1 the caller's marker, -1 the opponent's, 0 neutral) after "
               "every round 1..3, under the course's rules (our variant italian-three-rounds): "
               "expected 1 the caller wins, -1 the opponent wins, 0 play on, 2 a draw (after "
               "round 3 only). reachable: whether a game can stand on that board after the "
               "scoring of that round; a judge must answer every case, reachable or not.",
    "t2.json": "history: a whole round, the caller's move first, every card shown; board: the "
               "markers before the round, from the caller's side. expected: the caller's cards "
               "per geisha A..G (secret included), the opponent's, and the board after scoring.",
    "t3.json": "history: the round so far as the deciding player sees it (X for the opponent's "
               "hidden cards; a last gift or competition without '-' awaits this player's pick); "
               "hand: their cards, sorted; board: from their side. legal: every distinct legal "
               "answer in canonical form (letters sorted; a competition's two sets each sorted, "
               "the smaller set first); spellings: the other ways to write the same answer.",
}


LONG_NOTE = (" These are the long cases of --cases: every round (T2) or decision point (T3) of "
             "the seed's games, in order, each move's letters written in an order drawn from "
             "the seed (a competition's sets in either order), as players may write them.")


def files(cases: int | None = None, seed: int | None = None) -> dict[str, dict[str, Any]]:
    """The three documents, by file name: the small committed set (seed :data:`SEED`, or
    ``seed``), or with ``cases`` that many T2 and T3 cases of ``seed``'s games, respelled."""
    seed = SEED if seed is None else seed
    rng = None if cases is None else random.Random(f"buaa-vectors/{seed}")
    built = {"t1.json": t1_cases(),
             "t2.json": t2_cases(seed, cases or 40, rng),
             "t3.json": t3_cases(seed, cases or 48, rng)}
    generator = GENERATOR + ("" if seed == SEED else f" --seed {seed}") + (
        "" if cases is None else f" --cases {cases}")
    return {name: {"file": name, "generator": generator, "rules": "italian-three-rounds",
                   "notes": NOTES[name] + (LONG_NOTE if cases is not None and name != "t1.json"
                                           else ""),
                   "numberOfTests": len(built_cases), "tests": built_cases}
            for name, built_cases in built.items()}
