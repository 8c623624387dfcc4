"""The multi-round queries against an independent search written with the engine's own functions.

The search here knows the favour patterns of one round from the plain enumeration of
test_model_round.py, moves markers with the engine's ``score_markers`` (SCORE-2, SCORE-3) and
ends games with ``Rules.round_result`` (END-2..4, VAR-IT-2..4). None of it uses z3.
"""

from __future__ import annotations

import itertools

from hanamikoji.engine.hanamikoji import (
    STANDARD,
    Reason,
    Result,
    charm,
    geisha_count,
)
from hanamikoji.spec.hanamikoji import derive
from hanamikoji.spec.hanamikoji.queries import by_name


from hanamikoji.spec.hanamikoji import confirm
from hanamikoji.spec.hanamikoji.confirm import READINGS, limit_rows, search
from hanamikoji.properties.core.cite import checks


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


@checks("VAR-IT-1", "VAR-IT-3")
def test_italian_round_limit_matches_the_engine_rules():
    """VAR-IT-1..4 by Rules.round_result on the rows a game can stand in after three rounds,
    and the same rows decided by each reading of VAR-IT-3 written in Python."""
    expected = confirm.italian_round_limit()
    readings = {k: v for k, v in expected.items() if k.startswith("reading")}
    counts = {k: v for k, v in expected.items() if not k.startswith("reading")}
    assert readings["reading (b)"] == counts  # the engine takes reading (b)
    assert readings["reading (c)"] != counts  # (c) really is another rule
    assert by_name("italian-round-limit").run().answer_json() == {**counts, **readings}


def test_tiebreak_readings_agree_matches_the_independent_search():
    """Each pair of readings compared on the reachable rows where the tiebreak is consulted
    (equal charm, no goal) and on every such row of the 3^7, reachable or not."""
    reachable = [r for r in limit_rows() if charm(r, 0) == charm(r, 1)]
    every = [r for r in itertools.product((None, 0, 1), repeat=7)
             if charm(r, 0) == charm(r, 1) and STANDARD.goal_result(r) is None]
    expected = {}
    for scope, rows in (("reachable", reachable), ("any", every)):
        for x, y in (("a", "b"), ("a", "c"), ("b", "c")):
            expected[f"({x})=({y}) {scope}"] = all(READINGS[x](r) == READINGS[y](r) for r in rows)
    assert expected["(a)=(b) reachable"] and not expected["(b)=(c) reachable"]
    found = by_name("tiebreak-readings-agree").run()
    assert found.answer_json() == expected
    # each disagreement comes with its row; each one a game reaches (every one over the
    # reachable rows, and those z3 happens to find there over all rows) with a game
    assert len(found.counterexamples) == sum(1 for v in expected.values() if not v)
    assert all(c.reached == (c.value("row") in limit_rows()) for c in found.counterexamples)
    assert len(found.witnesses) == sum(1 for c in found.counterexamples if c.reached) >= sum(
        1 for k, v in expected.items() if "reachable" in k and not v)
    for witness in found.witnesses:
        state = witness.confirm()
        row = state.scores[-1].markers
        assert len(state.scores) == 3 and charm(row, 0) == charm(row, 1)
        assert READINGS["c"](row) != READINGS["b"](row) == READINGS["a"](row)


def test_charm_wording_equivalent_matches_every_row():
    assert by_name("charm-wording-equivalent").run().answer is confirm.charm_wording_equivalent()


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
