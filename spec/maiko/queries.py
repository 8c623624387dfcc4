"""Maiko's query catalogue: questions a rules analyst asks, each answered by a z3 model with
witness games replayed in the engine (``hanamikoji query --game maiko --list``).

The scoring queries (:mod:`.findings`) answer from a model of one final maiko board; the queries
about how games move and end (:mod:`.reach`) from a counting model of a whole game, with
searches over engine states. This module imports no z3.
"""

from __future__ import annotations

from hanamikoji.spec.core.queries import Query
from hanamikoji.spec.core.queries import by_name as _by_name

#: The wall-clock budget of one query's own checks.
QUERY_BUDGET_SECONDS: float | None = None  # no wall-clock bound: each check has z3's resource budget

_FINDINGS = "hanamikoji.spec.maiko.findings"
_REACH = "hanamikoji.spec.maiko.reach"
_CONFIRM = "hanamikoji.spec.maiko.confirm"
_BOARD = ("z3 optimises over a model of one final board (MK-COMP-1, MK-SETUP-3/4, MK-END-1, "
          "MK-SCORE-1); 'nothing beyond the extreme' is decided either way: an unsat core, or "
          "the board z3 finds beyond it; a witness game at each extreme, replayed in the engine")

_ENDING = ("z3 over the ending model (spec/maiko/model.py): every board, the discards, the "
           "game board, the box, the tokens, the end reason and the winners, each constraint "
           "tracked by its MK rule; an extreme is found by z3's optimiser and nothing beyond it "
           "is decided either way (unsat cores, or the position z3 finds beyond); a witness "
           "game at each answer, replayed in the engine")

_TOKENS = ("a z3 ledger model of the tokens up to the gain asked about (friends, columns, visits; "
           "gains from the pool, a card or lost; without a visit each column pays at most once "
           "per player), each constraint tracked by its MK rule: the fewest gains and columns by "
           "z3, one fewer refuted by an unsat core (or answered 'at most'); a witness game at "
           "that count, replayed in the engine with its ledger read step by step ('at least' "
           "the bound, with the witness's count, where it has more)")


#: How each query of :mod:`.reach` is answered, in one line. Every claim is decided either way:
#: a minimum that fails answers "at most" the counts z3 finds (a counterexample).
REACH_METHODS = {
    "fastest-end": "a z3 counting model of a whole game (turn endings, pairs, one visit per turn, "
                   "tokens, column tokens, last turns), each constraint tracked by its rule: "
                   "z3 finds each minimum and an unsat core proves one fewer impossible (or "
                   "z3's counts with fewer are the counterexample); a witness game at each "
                   "minimum, replayed in the engine",
    "static-reachable": "the counting model with MK-STATIC-1 as the end: unsat cores for one "
                        "turn and one flip fewer; a witness game ending 'static', replayed in "
                        "the engine",
    "dead-not-static": "a witness game reaching a non-static position where every board lacks "
                       "an item gone for good; z3 proves the invariant kept by every kind of "
                       "decision (unsat core) and an exhaustive engine search from the position "
                       "confirms it; z3 checks the potential argument that every game can end, "
                       "and without MK-STATIC-2 finds the trap (a counterexample); each answer "
                       "is the side z3 finds",
    "no-face-down-end": "the counting model with MK-END-4 as the end: unsat cores for one turn "
                        "and one flip fewer; witness games ending 'no-face-down-tile', replayed "
                        "in the engine, and the visits the other readings would allow there",
}


def _reach_method(name: str) -> str:
    return REACH_METHODS[name]


CATALOGUE: tuple[Query, ...] = (
    Query("score-range",
          "What are the highest and the lowest final scores a player can have, for 2, 3 and 4 "
          "players?", _BOARD, f"{_FINDINGS}:score_range", f"{_CONFIRM}:score_range",
          "arithmetic over the tiles each configuration lays"),
    Query("most-tiles-on-board", "What is the most tiles one maiko board can hold?", _BOARD,
          f"{_FINDINGS}:most_tiles_on_board", f"{_CONFIRM}:most_tiles_on_board",
          "arithmetic over the tiles each configuration lays"),
    Query("shared-victory",
          "Can a game end in a shared victory, and among how many players?", _ENDING,
          f"{_FINDINGS}:shared_victory"),
    Query("winner-nonpositive",
          "Can the winner have a score of zero or less, and what is the lowest score a winner "
          "can have?", _ENDING, f"{_FINDINGS}:winner_nonpositive", f"{_CONFIRM}:winner_nonpositive",
          "arithmetic: the best of N scores is at least their average"),
    Query("loser-highest-score", "What is the highest score of a player who does not win?",
          _ENDING, f"{_FINDINGS}:loser_highest_score", f"{_CONFIRM}:loser_highest_score",
          "enumeration of two players' own and other tile counts, ranked as MK-SCORE-2..4 say"),
    Query("largest-lead", "What is the largest lead a winner can have over another player?",
          _ENDING, f"{_FINDINGS}:largest_lead", f"{_CONFIRM}:largest_lead",
          "enumeration of two boards over the tiles each configuration lays"),
    Query("fastest-end",
          "In how few turns, and with how few flips, can a game end, for each way it can end "
          "and each player count?", _reach_method("fastest-end"), f"{_REACH}:fastest_end"),
    Query("static-reachable", "How can a game reach a static position (MK-STATIC-1), and how "
          "soon?", _reach_method("static-reachable"), f"{_REACH}:static_reachable"),
    Query("dead-not-static",
          "Can a game reach a position that is not static from which no maiko board can ever "
          "be filled, so that the game can go on for ever by the players' choice; and can it "
          "reach one from which it can never end at all?", _reach_method("dead-not-static"),
          f"{_REACH}:dead_not_static"),
    Query("no-face-down-end",
          "Can a game end because no face-down tile is left (MK-END-4), and what does that "
          "position look like?", _reach_method("no-face-down-end"), f"{_REACH}:no_face_down_end"),
    Query("token-from-tutor",
          "Can a player gain a kamon token when the pool is empty, so that it comes from a tutor "
          "card (MK-TOKEN-2)?", _TOKENS, "hanamikoji.spec.maiko.tokens:token_from_tutor"),
    Query("all-tokens-in-hands",
          "Can all 16 kamon tokens be in players' hands at once, so that a gain gives nothing "
          "(MK-TOKEN-2)?", _TOKENS, "hanamikoji.spec.maiko.tokens:all_tokens_in_hands"),
)


def by_name(name: str) -> Query:
    return _by_name(CATALOGUE, name)


def run_all(budget_seconds: float | None = QUERY_BUDGET_SECONDS) -> tuple:
    return tuple(query.run(budget_seconds) for query in CATALOGUE)
