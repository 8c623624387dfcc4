"""Maiko through the commands, as a user runs them: play prints a game a person can follow,
simulate ends every game and says by which end, its records validate, --max-turns reports an
unfinished game as such, and a bad option is one line and exit 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hanamikoji.properties.core.cite import checks


def hanamikoji(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hanamikoji.engine", *args],
                          capture_output=True, text=True, timeout=300)


@checks("MK-COMP-3", "MK-INFO-1")
def test_play_prints_the_boards_and_the_turns():
    """MK-COMP-3, MK-INFO-1: the board, each maiko board as a 3 x 3 grid, the turn's steps."""
    done = hanamikoji("play", "--game", "maiko", "--players", "3", "--seed", "2")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "player 2 (pink)" in out and "Turn 0 · player 0" in out
    assert out.count("[0:") >= 3
    last = out.strip().splitlines()[-1]
    assert last.startswith("Result: ") and "· end: " in last and "P2" in last


@checks("MK-END-2", "MK-END-4", "MK-STATIC-2")
@pytest.mark.parametrize("players", ["2", "3", "4"])
def test_simulate_ends_every_game_and_its_records_validate(players, tmp_path):
    """MK-END-2, MK-END-4, MK-STATIC-2: every game ends, by one of the three ends, and each
    record replays to its result."""
    records = tmp_path / "games.jsonl"
    done = hanamikoji("simulate", "--game", "maiko", "--players", players, "--games", "40",
                      "--seed", "1", "--records", str(records), "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert "unfinished" not in summary
    assert sum(summary["reasons"].values()) == 40
    assert set(summary["reasons"]) <= {"full-board", "static", "no-face-down-tile"}
    assert sum(summary["turns"].values()) == 40
    done = hanamikoji("validate", str(records))
    assert done.returncode == 0 and done.stdout.strip().endswith("40 valid, 0 illegal, 0 malformed")


@checks("MK-END-5")
def test_max_turns_reports_unfinished_games_never_as_results(tmp_path):
    """MK-END-5: a limit on turns belongs to the tool; a game stopped by it has no result."""
    records = tmp_path / "games.jsonl"
    done = hanamikoji("simulate", "--game", "maiko", "--games", "5", "--seed", "1",
                      "--max-turns", "3", "--records", str(records), "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["unfinished"] == 5 and summary["reasons"] == {}
    assert records.read_text() == ""


@pytest.mark.parametrize("args, needle", [
    (("--players", "5"), "players"),
    (("--variant", "standard"), "no option 'variant'"),
    (("--option", "colours=red,blue"), "colour"),
])
def test_bad_options_are_one_line(args, needle):
    done = hanamikoji("simulate", "--game", "maiko", "--games", "1", *args)
    assert done.returncode == 2, done.stdout
    assert done.stderr.count("\n") == 1 and needle in done.stderr, done.stderr


@checks("MK-FLIP-2", "MK-SETUP-1")
def test_validate_text_says_where_and_names_a_path_once(tmp_path):
    """MK-FLIP-2, MK-SETUP-1: the text line of an illegal record says the turn and step the
    ``--json`` verdict gives (not only the rule), and a malformed decision's line names its
    JSON path once."""
    records = tmp_path / "games.jsonl"
    done = hanamikoji("simulate", "--game", "maiko", "--games", "1", "--seed", "1",
                      "--records", str(records))
    assert done.returncode == 0, done.stderr
    record = json.loads(records.read_text())
    illegal = json.loads(json.dumps(record))
    illegal["turns"][3]["steps"][1] = illegal["turns"][3]["steps"][0]  # the same space twice
    malformed = json.loads(json.dumps(record))
    malformed["turns"][5]["steps"][0]["space"] = "x"
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(illegal) + "\n" + json.dumps(malformed) + "\n")
    text = hanamikoji("validate", str(bad)).stdout.splitlines()
    verdicts = [json.loads(line) for line in
                hanamikoji("validate", "--json", str(bad)).stdout.splitlines()[:2]]
    assert verdicts[0]["rule"] == "MK-FLIP-2"
    assert f"turn {verdicts[0]['turn']}, step {verdicts[0]['step']}: " in text[0], text[0]
    assert (verdicts[0]["turn"], verdicts[0]["step"]) == (3, 1)
    assert verdicts[1]["status"] == "malformed"
    assert text[1].count("$.turns[5]") == 1, text[1]
    assert "$.turns[5].steps[0].space: expected" in text[1], text[1]
