"""The multi-round queries against an independent search written with the engine's own functions.

The search here knows the favour patterns of one round from the plain enumeration of
test_model_round.py, moves markers with the engine's ``score_markers`` (SCORE-2, SCORE-3) and
ends games with ``Rules.round_result`` (END-2..4, VAR-IT-2..4). None of it uses z3.
"""

from __future__ import annotations

import functools
import itertools

from hanamikoji.engine.hanamikoji import (
    CHARM,
    ITALIAN_THREE_ROUNDS,
    STANDARD,
    Reason,
    Result,
    charm,
    geisha_count,
    held_values,
    score_markers,
)
from hanamikoji.spec.hanamikoji import derive
from hanamikoji.spec.hanamikoji.queries import by_name

from .test_model_round import enumerated_pairs

START = (None,) * 7


@functools.cache
def patterns() -> tuple[tuple, ...]:
    return tuple(sorted({score_markers(START, a, b) for a, b in enumerated_pairs()},
                        key=lambda r: tuple(-1 if m is None else m for m in r)))


@functools.cache
def search() -> tuple[dict, dict]:
    """Open rows and final rows of a standard game, each with the fewest rounds to reach it."""
    opened, final = {START: 0}, {}
    frontier = [START]
    moves = [tuple((g, m) for g, m in enumerate(p) if m is not None) for p in patterns()]
    rounds = 0
    while frontier:
        rounds += 1
        found = []
        for row in frontier:
            for move in moves:
                after = list(row)
                for g, m in move:
                    after[g] = m
                after = tuple(after)
                if after in opened or after in final:
                    continue
                if STANDARD.goal_result(after) is not None:
                    final[after] = rounds
                else:
                    opened[after] = rounds
                    found.append(after)
        frontier = found
    return opened, final


def test_marker_states_match_the_independent_search():
    opened, final = search()
    answer = by_name("marker-states").run()
    assert answer.answer_json() == {"open": len(opened), "final": len(final)}


def test_search_rows_and_depths_match_the_model():
    opened, final = search()
    reach = derive.reachability()
    assert {row: r.rounds for row, r in reach.open} == opened
    assert {row: r.rounds for row, r in reach.final} == final
    for row, reached in reach.final:
        assert reached.result is not None
        assert STANDARD.goal_result(row) == Result(*reached.result)


def test_simultaneous_goals_match_the_independent_search():
    _, final = search()
    double = [row for row in final
              if STANDARD.goal_result(row).reason is Reason.CHARM_OVER_GEISHA]
    answer = by_name("simultaneous-goals").run().answer_json()
    assert answer == {"reachable": bool(double), "final_states": len(double)}


def test_max_geisha_at_end_matches_the_independent_search():
    _, final = search()
    best = max(max(geisha_count(row, 0), geisha_count(row, 1)) for row in final)
    assert by_name("max-geisha-at-end").run().answer == best


def test_fastest_finish_matches_the_independent_search():
    _, final = search()
    fastest: dict[str, int] = {}
    for row, rounds in final.items():
        reason = STANDARD.goal_result(row).reason.value
        fastest[reason] = min(rounds, fastest.get(reason, rounds))
    assert by_name("fastest-finish").run().answer_json() == fastest


def test_italian_round_limit_matches_the_engine_rules():
    """VAR-IT-1..4 by Rules.round_result on the rows a game can stand in after three rounds.
    Since one round can tie every geisha (the all-None pattern), those are the rows the search
    reaches in at most three rounds."""
    assert START in patterns()
    opened, _ = search()
    rows = [row for row, rounds in opened.items() if rounds <= 3]
    counts = {"charm": 0, "highest-geisha": 0, "shared": 0}
    names = {Reason.ROUND_LIMIT_CHARM: "charm",
             Reason.ROUND_LIMIT_HIGHEST_GEISHA: "highest-geisha", Reason.SHARED: "shared"}
    for row in rows:
        counts[names[ITALIAN_THREE_ROUNDS.round_result(row, 2).reason]] += 1
    assert by_name("italian-round-limit").run().answer_json() == counts


def _highest(row, player) -> int:
    return max((c for c, m in zip(CHARM, row) if m == player), default=0)


def test_tiebreak_readings_agree_matches_the_independent_search():
    opened, _ = search()
    agree = True
    for row in opened:
        if charm(row, 0) != charm(row, 1):
            continue
        a = (_highest(row, 0) > _highest(row, 1)) - (_highest(row, 0) < _highest(row, 1))
        h0, h1 = held_values(row, 0), held_values(row, 1)
        b = (h0 > h1) - (h0 < h1)
        agree = agree and a == b
    assert by_name("tiebreak-readings-agree").run().answer is agree


def test_charm_wording_equivalent_matches_every_row():
    agree = True
    for row in itertools.product((None, 0, 1), repeat=7):
        for p in (0, 1):
            if geisha_count(row, p) >= 4 and charm(row, 1 - p) >= 11:
                c0, c1 = charm(row, 0), charm(row, 1)
                more = 0 if c0 > c1 else 1 if c1 > c0 else None
                agree = agree and more == 1 - p
    assert by_name("charm-wording-equivalent").run().answer is agree


def test_impossible_rows_match_every_row():
    rows = list(itertools.product((None, 0, 1), repeat=7))
    both_eleven = any(charm(r, 0) >= 11 and charm(r, 1) >= 11 for r in rows)
    both_four = any(geisha_count(r, 0) >= 4 and geisha_count(r, 1) >= 4 for r in rows)
    example = any(geisha_count(r, p) == 3 and charm(r, p) == 8 and geisha_count(r, 1 - p) == 4
                  and charm(r, 1 - p) == 11 for r in rows for p in (0, 1))
    all_seven = any(geisha_count(r, p) == 7 for r in search()[1] for p in (0, 1))
    assert by_name("both-eleven-charm").run().answer is both_eleven
    assert by_name("both-four-geisha").run().answer is both_four
    assert by_name("rulebook-example").run().answer is example
    assert by_name("win-every-geisha").run().answer is all_seven
