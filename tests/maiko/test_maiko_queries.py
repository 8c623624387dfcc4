"""Maiko's query catalogue: every query answers, every witness replays in the
engine and validates, every core names MK rules only, and every number agrees with a second
method without z3 (spec/maiko/confirm.py)."""

from __future__ import annotations

import functools
import json

import pytest

from hanamikoji.cli.main import main
from hanamikoji.oracle.core.validate import Status, judge_bytes
from hanamikoji.properties.core.cite import checks
from hanamikoji.spec.maiko import confirm
from hanamikoji.spec.maiko.queries import CATALOGUE, by_name

NAMES = [q.name for q in CATALOGUE]
ISSUE = {"score-range", "shared-victory", "winner-nonpositive", "most-tiles-on-board",
         "loser-highest-score", "largest-lead",
         "fastest-end", "dead-not-static", "no-face-down-end", "static-reachable"}


@functools.cache
def answer(name: str):
    return by_name(name).run()


def test_the_catalogue_has_the_issues_questions():
    assert ISSUE <= set(NAMES) and len(set(NAMES)) == len(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_every_query_answers_under_ten_seconds_with_witnesses_that_validate(name):
    found = answer(name)
    assert found.status == "answered", found.notes
    for witness in found.witnesses:
        record = witness.to_json()["record"]
        verdict = judge_bytes(json.dumps(record).encode())
        assert verdict.status is Status.VALID, (witness.label, verdict.message)


@pytest.mark.parametrize("name", [n for n in NAMES if by_name(n).confirm])
def test_numbers_agree_with_the_second_method(name):
    found = answer(name)
    module, _, function = by_name(name).confirm.partition(":")
    assert found.answer_json() == getattr(confirm, function)()
    assert found.confirmation and found.confirmation.endswith("the same answer")


@checks("MK-COMP-1", "MK-SCORE-1", "MK-END-1", "MK-SETUP-3", "MK-SETUP-4")
def test_score_cores_name_the_rules_that_bound_a_board():
    """18 is the most: one's own colour has 18 tiles (MK-COMP-1, MK-SCORE-1); the lowest needs
    the bound of a filled board (MK-END-1) and the tiles in play (MK-SETUP-3 / MK-SETUP-4)."""
    found = answer("score-range")
    cores = [set(p.rules) for p in found.proofs]
    assert cores[0] == {"MK-COMP-1", "MK-SCORE-1"}  # highest, 2 players
    assert "MK-END-1" in cores[1] and "MK-SETUP-4" in cores[1]  # lowest, 2 players
    assert "MK-END-1" in cores[3] and "MK-SETUP-4" not in cores[3]  # lowest, 3 players
    for proof in found.proofs:
        assert all(r.startswith("MK-") for r in proof.rules)
        assert all(not h.startswith("MK-") for h in proof.hypotheses) and proof.hypotheses


@checks("MK-SCORE-2", "MK-SCORE-3", "MK-SCORE-4")
def test_shared_victories_and_a_winner_below_zero_replay():
    """Every number of winners from 2 to N occurs; every player count has a winner below zero,
    the lowest shared by every player."""
    shared = answer("shared-victory").answer_json()
    assert shared == {f"{n} players": list(range(2, n + 1)) for n in (2, 3, 4)}
    for witness in answer("shared-victory").witnesses:
        state = witness.confirm()
        assert len(state.result.winners) >= 2
        assert len({state.result.scores[w] for w in state.result.winners}) == 1
    low = answer("winner-nonpositive")
    lowest = {n: low.answer_json()[f"{n} players"]["lowest"] for n in (2, 3, 4)}
    assert all(v < 0 for v in lowest.values())
    for witness in low.witnesses:
        state = witness.confirm()
        n = state.config.players
        assert state.result.winners == tuple(range(n))
        assert set(state.result.scores) == {lowest[n]}


def test_the_command_line(capsys):
    assert main(["query", "--game", "maiko", "--list"]) == 0
    assert "score-range" in capsys.readouterr().out
    assert main(["query", "--game", "maiko", "most-tiles-on-board", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["answer"] == {"2 players": 51, "3 players": 67, "4 players": 67}
    assert document["confirmed_by"]
