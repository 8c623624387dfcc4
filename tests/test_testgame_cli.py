"""The generic commands drive the test game (registered through HANAMIKOJI_GAMES, as any game
outside the toolkit would be): ``games`` lists it, ``play`` and ``simulate`` (with worker
processes) play it, and its options are checked by the game itself."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hanamikoji.engine.core.seeded import play_game

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:  # the test game is the package testgame of tests/
    sys.path.insert(0, str(TESTS))

from testgame.fixtures import subprocess_env, testgame  # noqa: E402,F401
from testgame.game import FORMAT, GAME  # noqa: E402


def hanamikoji(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hanamikoji.engine", *args], capture_output=True,
                          text=True, timeout=120, env=subprocess_env() if env is None else env,
                          cwd=TESTS.parent)


def test_games_lists_the_test_game(testgame):
    listed = json.loads(hanamikoji("games", "--json").stdout)["games"]
    entry = next(game for game in listed if game["name"] == "testgame")
    assert entry["players"] == {"min": 3, "max": 5} and entry["record_format"] == FORMAT
    assert entry["spec"] == "tests/testgame/rules.md" and entry["length_unit"] == "moves"
    assert [o["name"] for o in entry["options"]] == ["players"]
    text = hanamikoji("games").stdout
    assert "testgame: Test game (Kuhn poker for 3 to 5), 3 to 5 players, records " \
           "testgame-record/1" in text


def test_play_prints_a_whole_game_and_writes_its_record(testgame, tmp_path):
    done = hanamikoji("play", "--game", "testgame", "--seed", "1")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "seed 1"
    assert lines[1:] == GAME.render(play_game(GAME, GAME.configure(), 1, 0))
    record = tmp_path / "game.json"
    done = hanamikoji("play", "--game", "testgame", "--seed", "7", "--players", "5",
                      "--first-player", "4", "--record", str(record))
    assert done.returncode == 0, done.stderr
    final = GAME.read_record(json.loads(record.read_text()))
    assert final.config.players == 5 and final.first_player == 4 and final.outcome is not None


@pytest.mark.parametrize("args, message", [
    (["--players", "2"], "must be from 3 to 5, not 2"),
    (["--first-player", "3"], "--first-player 3: testgame with 3 players numbers them 0 to 2"),
    (["--variant", "standard"], "game testgame has no option 'variant'"),
])
def test_play_refuses_what_the_game_does_not_take_in_one_line(testgame, args, message):
    # TG-SETUP-1: 3 to 5 players, the first one of them.
    done = hanamikoji("play", "--game", "testgame", "--seed", "1", *args)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and message in done.stderr


def test_without_the_environment_the_game_is_unknown():
    env = subprocess_env()
    env.pop("HANAMIKOJI_GAMES")
    done = hanamikoji("play", "--game", "testgame", "--seed", "1", env=env)
    assert done.returncode == 2 and "unknown game 'testgame'" in done.stderr


def test_simulate_with_workers_writes_the_records_of_the_seeded_games(testgame, tmp_path):
    out = tmp_path / "games.jsonl"
    done = hanamikoji("simulate", "--game", "testgame", "--games", "200", "--seed", "1",
                      "--records", str(out), "--workers", "2", "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == 200 and set(summary["reasons"]) <= {"showdown", "folds"}
    assert set(summary["winners"]) <= {"0", "1", "2"} and sum(summary["winners"].values()) == 200
    assert set(summary["moves"]) <= {"3", "4", "5"}  # all check (3), or a bet and its answers
    lines = out.read_text().splitlines()
    config = GAME.configure()
    assert lines == [json.dumps(GAME.to_record(play_game(GAME, config, 1, i)),
                                separators=(",", ":")) for i in range(200)]
    assert all(GAME.read_record(json.loads(line)) for line in lines)


def test_simulate_gives_the_same_records_on_any_number_of_workers(testgame, tmp_path):
    # 450 games are three pieces of work, so two worker processes both play.
    outputs = []
    for workers in ("1", "2"):
        out = tmp_path / f"{workers}.jsonl"
        done = hanamikoji("simulate", "--game", "testgame", "--players", "4", "--games", "450",
                          "--seed", "3", "--records", str(out), "--workers", workers)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("450 games of testgame (players 4) in ")
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1] and outputs[0].count(b"\n") == 450
