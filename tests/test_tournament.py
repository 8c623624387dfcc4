"""``hanamikoji tournament``: the schedule, deterministic standings, records that validate, the
standings' statistics computed a second way, Ctrl-C, and bad usage."""

from __future__ import annotations

import collections
import json
import math
import os
import pathlib
import signal
import subprocess
import sys
import time

import pytest

from hanamikoji.cli.main import main
from hanamikoji.engine.core.registry import get
from hanamikoji.oracle.core.referee import BotSpec
from hanamikoji.oracle.core.tournament import (GameResult, Tournament, bradley_terry, play_unit,
                                               standings, wilson)

TESTS = pathlib.Path(__file__).resolve().parent
HANAMIKOJI = [sys.executable, "-m", "hanamikoji"]
SERVED_RANDOM = f"{sys.executable} -m hanamikoji.oracle.core.bot random"


def run(*words: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*HANAMIKOJI, *words], capture_output=True, text=True,
                          env=env or dict(os.environ, PYTHONPATH=str(TESTS)))


def test_every_pair_plays_each_deal_from_both_seats():
    bots = tuple(BotSpec(n, argv=("x",)) for n in "abc")
    schedule = Tournament("hanamikoji", (), bots, deals=3, seed=0).schedule()
    assert len(schedule) == 3 * 3 * 2
    seen = collections.Counter(schedule)
    assert set(seen.values()) == {1}
    for a in range(3):
        for b in range(3):
            if a != b:
                assert {deal for seating, deal in schedule if seating == (a, b)} == {0, 1, 2}


def test_maiko_every_seating_of_each_group_plays_each_deal():
    bots = tuple(BotSpec(n, argv=("x",)) for n in "abcd")
    schedule = Tournament("maiko", (("players", 3),), bots, deals=2, seed=0).schedule()
    assert len(schedule) == 4 * 2 * 6  # groups of 3 of 4, deals, seatings of 3
    for group in ({0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}):
        for deal in (0, 1):
            seatings = [s for s, d in schedule if set(s) == group and d == deal]
            assert len(set(seatings)) == 6


def test_deals_are_shared_across_groups_and_seatings(tmp_path):
    """Every game of deal d is dealt the same first round, whoever sits where."""
    out = tmp_path / "t"
    assert main(["tournament", "random", "heuristic", "random", "--deals", "3", "--seed", "4",
                 "--out", str(out)]) == 0
    games = [json.loads(x) for x in (out / "games.jsonl").read_text().splitlines()]
    records = [json.loads(x) for x in (out / "records.jsonl").read_text().splitlines()]
    assert len(games) == len(records) == 3 * 3 * 2
    by_deal = collections.defaultdict(set)
    for line, record in zip(games, records):
        by_deal[line["deal"]].add(json.dumps(record["rounds"][0]["hands"]))
    assert sorted(by_deal) == [0, 1, 2]
    assert all(len(hands) == 1 for hands in by_deal.values())
    assert len({next(iter(h)) for h in by_deal.values()}) == 3


@pytest.mark.parametrize("game_args", [[], ["--game", "maiko", "--players", "2"]])
def test_the_same_seed_gives_byte_identical_standings(game_args):
    """With a bot process among them: the bot's seed comes through the protocol."""
    words = ["tournament", "random", SERVED_RANDOM, "--deals", "1", "--json", *game_args]
    first, again = run(*words, "--seed", "5"), run(*words, "--seed", "5")
    other = run(*words, "--seed", "6")
    assert first.returncode == 0, first.stderr
    assert first.stdout == again.stdout
    assert first.stdout != other.stdout
    assert first.stderr == ""  # no progress when stderr is not a terminal
    report = json.loads(first.stdout)
    assert sum(s["games"] for s in report["standings"]) == report["games"] * 2


@pytest.mark.parametrize("game_args, records", [([], 8), (["--game", "maiko", "--players", "3"],
                                                          6)])
def test_every_game_is_a_record_validate_accepts(tmp_path, game_args, records):
    out = tmp_path / "t"
    words = ["tournament", "random", "random", "random", "--deals", "1", "--out", str(out),
             *game_args]
    if not game_args:
        words = ["tournament", "random", "heuristic", "--deals", "4", "--out", str(out)]
    assert main(words) == 0
    checked = run("validate", str(out / "records.jsonl"))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"{records} records: {records} valid" in checked.stdout


@pytest.mark.parametrize("game_args, bad", [([], "referee_bots:PickNotOffered"),
                                            (["--game", "maiko", "--players", "4"],
                                             "referee_bots:EndsTurnEarly")])
def test_a_forfeit_is_written_with_its_rule_and_the_game_so_far(tmp_path, capsys, game_args,
                                                                 bad):
    out = tmp_path / "t"
    bot = f"bad={sys.executable} -m hanamikoji.oracle.core.bot {bad}"
    env = dict(os.environ, PYTHONPATH=str(TESTS))
    words = ["tournament", "random", bot, *(["random", "random"] if game_args else []),
             "--deals", "1", "--json", "--out", str(out), *game_args]
    result = subprocess.run([*HANAMIKOJI, *words], capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    bad_row = next(s for s in report["standings"] if s["bot"] == "bad")
    assert bad_row["forfeits"] == bad_row["losses"] == bad_row["games"] > 0
    game = get(report["game"])
    lines = [json.loads(x) for x in (out / "games.jsonl").read_text().splitlines()]
    forfeited = [x for x in lines if "forfeit" in x]
    assert len(forfeited) == bad_row["forfeits"] == len(report["forfeits"])
    for line in forfeited:
        assert line["forfeit"]["bot"] == "bad" and line["forfeit"]["rule"]
        assert line["bots"][line["forfeit"]["seat"]] == "bad"
        state = game.position_from_json(line["position"])  # the game so far replays
        assert not game.is_terminal(state)
    records = (out / "records.jsonl").read_text().splitlines()
    assert len(records) == len(lines) - len(forfeited)


# --- the statistics, a second way -------------------------------------------------------------


@pytest.mark.parametrize("k, n", [(0, 10), (3, 10), (50, 100), (99, 100), (7.5, 20)])
def test_wilson_bounds_solve_the_score_equation(k, n):
    """Each bound p of the Wilson interval is a root of (p^ - p)^2 = z^2 p (1 - p) / n."""
    z = 1.959963984540054
    low, high = wilson(k, n)
    p_hat = k / n
    for p in (low, high):
        if 0 < p < 1:
            assert (p_hat - p) ** 2 == pytest.approx(z * z * p * (1 - p) / n, abs=1e-12)
    assert low <= p_hat <= high


@pytest.mark.parametrize("a_wins, b_wins, ties", [(30, 10, 0), (5, 5, 3), (12, 0, 0)])
def test_bradley_terry_of_two_bots_is_the_odds(a_wins, b_wins, ties):
    """For two bots the Bradley-Terry fit is closed form: the strength ratio is the ratio of
    wins (ties and the prior's tie counted half each way)."""
    wins = [[0, a_wins + ties / 2], [b_wins + ties / 2, 0]]
    a, b = bradley_terry(wins)
    expected = 400 * math.log10((a_wins + ties / 2 + 0.5) / (b_wins + ties / 2 + 0.5))
    assert a - b == pytest.approx(expected, abs=1e-6)
    assert a + b == pytest.approx(0, abs=1e-9)


def test_standings_count_every_seat_of_every_game():
    tournament = Tournament("hanamikoji", (), (BotSpec("r", make=_random()),
                                               BotSpec("h", make=_heuristic())), 3, 1)
    schedule = tournament.schedule()
    results = [play_unit(tournament, i, schedule) for i in range(len(schedule))]
    rows = {s.name: s for s in standings(["r", "h"], results)}
    assert rows["r"].games == rows["h"].games == 6
    assert rows["r"].wins == rows["h"].losses and rows["r"].draws == rows["h"].draws
    assert (rows["h"].rating > rows["r"].rating) == (rows["h"].wins > rows["r"].wins)
    again = [play_unit(tournament, i) for i in reversed(range(len(schedule)))][::-1]
    assert again == results  # a unit is a function of the tournament and its index
    shipped = [GameResult.from_unit_json(json.loads(json.dumps(r.unit_json()))) for r in results]
    assert shipped == results  # as a worker would send it back


def _random():
    from hanamikoji.oracle.core.bot import RandomBot

    return RandomBot


def _heuristic():
    from hanamikoji.oracle.hanamikoji.bot import HeuristicBot

    return HeuristicBot


# --- Ctrl-C and bad usage -------------------------------------------------------------------------


def test_ctrl_c_says_interrupted_and_leaves_no_bot(tmp_path):
    pidfile = tmp_path / "pid"
    hang = f"{sys.executable} {TESTS / 'referee_bots.py'} hang {pidfile}"
    process = subprocess.Popen([*HANAMIKOJI, "tournament", "random", hang, "--deals", "2",
                                "--decision-time", "600", "--game-time", "600",
                                "--out", str(tmp_path / "out")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stop = time.monotonic() + 60
    while not pidfile.exists():  # the bot is up and waiting for its decision
        assert process.poll() is None and time.monotonic() < stop
        time.sleep(0.01)
    bot = int(pidfile.read_text())
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert (process.returncode, err, out) == (130, "hanamikoji: interrupted\n", "")
    sys.path.insert(0, str(TESTS))
    from test_referee import gone

    assert gone(bot)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("words, message", [
    (["random"], "seats 2 bots a game; 1 given"),
    (["--game", "maiko", "--players", "4", "random", "random", "random"],
     "seats 4 bots a game; 3 given"),
    (["random", "'unclosed"], "No closing quotation"),
    (["random", "random", "--decision-time", "5", "--game-time", "1"], "is shorter than"),
    (["random", "random", "--deals", "0"], "--deals must be at least 1"),
])
def test_bad_usage_is_one_line_and_exit_2(words, message):
    result = run("tournament", *words)
    assert result.returncode == 2
    assert message in result.stderr and result.stderr.count("\n") == 1, result.stderr


def test_progress_on_a_terminal_only():
    """On a terminal, stderr shows the games played of the schedule's and the forfeits so far;
    stdout is the same table either way (no progress in a pipe: the determinism test)."""
    sys.path.insert(0, str(TESTS))
    from test_cli_rough_edges import _on_a_terminal

    argv = ["tournament", "random", "heuristic", "--deals", "300", "--seed", "2"]
    code, out, terminal = _on_a_terminal(argv)
    assert code == 0 and "playing" in terminal and "/600" in terminal, terminal
    assert "forfeits" in terminal and "games/s" in terminal
    assert out == run(*argv).stdout


@pytest.mark.parametrize("game_name", ["hanamikoji", "maiko"])
def test_schema_bot_prints_the_bot_protocols_schema(game_name):
    from hanamikoji.oracle.core.bot_schema import bot_schema

    done = run("schema", "--bot", "--game", game_name)
    assert done.returncode == 0 and json.loads(done.stdout) == bot_schema(get(game_name))
    both = run("schema", "--bot", "--protocol")
    assert both.returncode == 2 and "not allowed with" in both.stderr
