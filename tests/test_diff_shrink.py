"""How ``diff`` shrinks a divergence before Hypothesis does (oracle/core/diff_draw.py
``cut_steps`` and ``lower_last``, oracle/core/diff.py ``_shrunk``): whole stretches of steps cut
out (a game's earlier rounds, the turns before a decision), the decisions after a cut made again
where they are still legal, the last decision tried lower, and a game counted as failing only
at the request the divergence was found at. Hypothesis's shrinker cuts at most a few choices at
a time and lowers a choice by halves: a seeded game of seven rounds stayed one of seven rounds
(simultaneous-to-geisha, 3662 characters against 1047 when Hypothesis drew the games)."""

from __future__ import annotations

import pathlib
import sys

import pytest

from hanamikoji.oracle.core.diff_draw import (Overrun, ReplayedDraws, SeededDraws, choice,
                                              cut_steps, lower_last)

ROOT = pathlib.Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"


def rounds_game(draws, log):
    """A toy game of rounds: each round one step draws a target (0..3) and three steps draw
    a move; the game ends at the first round whose target is 3, and it "fails" when that
    round's moves are all 2. A failing game's last round alone fails too. A game that runs
    out of the choices it replays passes."""
    try:
        return _rounds_game(draws, log)
    except Overrun:
        return False


def _rounds_game(draws, log):
    for _ in range(20):
        with draws.step():
            target = draws.integer(0, 3)
        moves = []
        for _ in range(3):
            with draws.step():
                moves.append(draws.integer(0, 5))
        log.append((target, tuple(moves)))
        if target == 3:
            return moves == [2, 2, 2]
    return False


def failing_rounds_game() -> list[int]:
    """The choices of a seeded toy game that fails after several rounds."""
    for index in range(10_000):
        draws = SeededDraws(7, index)
        log: list = []
        if rounds_game(draws, log) and len(log) >= 4:
            return draws.choices
    raise AssertionError("no seeded toy game fails after four rounds")


def test_cuts_take_out_the_rounds_before_the_one_that_fails():
    choices = failing_rounds_game()
    played = ReplayedDraws(choices)
    assert rounds_game(played, [])
    games = []

    def attempt(draws):
        log: list = []
        games.append(log)
        return rounds_game(draws, log) and len(draws.choices) < len(kept[0].choices)

    kept = [played]

    def attempt_kept(draws):
        if attempt(draws):
            kept[0] = draws
            return True
        return False

    cut, tried = cut_steps(attempt_kept, played, 50)
    log: list = []
    assert rounds_game(ReplayedDraws(cut.choices), log)
    assert log == [(3, (2, 2, 2))]  # the failing round alone
    assert tried == len(games) <= 50


def test_cuts_stop_at_their_budget_of_games():
    played = ReplayedDraws(failing_rounds_game())
    rounds_game(played, [])
    calls = []

    def never(draws):
        calls.append(draws)
        rounds_game(draws, [])
        return False

    kept, tried = cut_steps(never, played, 7)
    assert kept is played and tried == len(calls) == 7


def pick_game(draws, log):
    """A toy game of picks among the items still offered: it fails when item 9 is picked (and
    passes when it runs out of the choices it replays)."""
    try:
        return _pick_game(draws, log)
    except Overrun:
        return False


def _pick_game(draws, log):
    items = list(range(12))
    for _ in range(6):
        with draws.step():
            item = choice(draws, items)
        items.remove(item)
        log.append(item)
        if item == 9:
            return True
    return False


def test_a_decision_after_a_cut_is_made_again_where_it_is_still_offered():
    """After the picks before it are cut out, item 9 stands at another index: the cut game
    picks item 9 again, not the item now at 9's old index."""
    given = None
    for index in range(10_000):
        draws = SeededDraws(3, index)
        log: list = []
        if pick_game(draws, log) and len(log) >= 3 and any(item < 9 for item in log[:-1]):
            given = draws.choices
            break
    assert given is not None
    played = ReplayedDraws(given)
    assert pick_game(played, [])

    def shorter(draws):
        log: list = []
        return pick_game(draws, log) and len(draws.choices) < len(played.choices)

    cut, _ = cut_steps(shorter, played, 20)
    log: list = []
    assert pick_game(ReplayedDraws(cut.choices), log) and log == [9]


def test_the_last_decision_is_tried_lower_each_earlier_item_first():
    def game(draws, log):
        with draws.step():
            item = choice(draws, "abcdefgh")
        log.append(item)
        return item in "cfh"  # fails on c, f or h

    played = ReplayedDraws([7])
    assert game(played, [])
    tried = []

    def attempt(draws):
        log: list = []
        failed = game(draws, log)
        tried.append(log[0])
        return failed

    lowered, games = lower_last(attempt, played, 50)
    assert tried == ["a", "b", "c"] and games == 3
    log: list = []
    assert game(ReplayedDraws(lowered.choices), log) and log == ["c"]
    assert lower_last(attempt, played, 2)[0] is played  # its budget spent first


def test_a_replayed_choice_out_of_its_range_is_the_low_end_and_one_past_the_end_overruns():
    """As Hypothesis replays an example: a game cut short of its divergence stops there, not
    played on at length with made-up choices."""
    draws = ReplayedDraws([9, 1])
    assert [draws.integer(2, 5), draws.integer(0, 3), draws.integer(4, 4)] == [2, 1, 4]
    assert draws.choices == [2, 1] and draws.ranges == [(2, 5), (0, 3)]
    with pytest.raises(Overrun):
        draws.integer(0, 1)
    with pytest.raises(Overrun):
        choice(draws, "ab")


@pytest.fixture
def tests_on_the_path(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(TESTS))
    monkeypatch.syspath_prepend(str(TESTS))


def test_a_friend_flipped_first_is_the_report_of_an_engine_that_keeps_the_turn(
        tests_on_the_path):
    """Maiko's engine that keeps the turn after a friend is flipped: the report is the deal
    and one flip of a friend at a space of one digit, at most 856 characters, as small as
    beb3f24's (the seeded game found diverges after 32 decisions; 934 characters before the
    cuts)."""
    from hanamikoji.engine.core.registry import get
    from hanamikoji.oracle.core.diff import compare_engines, hooks

    game = get("maiko")
    configs = tuple(c for c in hooks(game).configs(None) if game.num_players(c) == 3)
    report = compare_engines([sys.executable, "-m", "hanamikoji.oracle.core.adapter",
                              "--engine", "maiko=maiko.broken:FRIEND_KEEPS_TURN"],
                             games=30, seed=0, shrink=200, timeout=600.0, game=game,
                             variants=configs, seeded_check=False)
    divergence = report.divergence
    assert divergence is not None and divergence.request == {"op": "current_player"}
    assert divergence.size() <= (2, 856)
    assert divergence.decisions[-1]["kind"] == "flip"


def test_a_simultaneous_finish_shrinks_to_two_rounds(tests_on_the_path):
    """The Hanamikoji engine that gives a simultaneous finish to the geisha player: the seeded
    game found (game 9 of seed 0) ends after seven rounds, 91 decisions; its earlier rounds
    cut out, the report is a game of two rounds, 26 decisions, 1047 characters, as small as
    beb3f24's, within 20 games of shrinking (Hypothesis alone left the 91 decisions after 200)."""
    from hanamikoji.oracle.core.diff import compare_engines

    report = compare_engines([sys.executable, str(ROOT / "docs" / "examples" / "adapter.py"),
                              "--engine", "broken_engines:simultaneous-to-geisha"],
                             games=60, seed=0, shrink=20, timeout=600.0, seeded_check=False)
    divergence = report.divergence
    assert divergence is not None and divergence.request["op"] == "observe"
    assert divergence.size() <= (26, 1047)
    assert report.shrink_games <= 20
