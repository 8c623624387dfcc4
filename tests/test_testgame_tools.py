"""The oracle tools drive the test game exactly as they drive Hanamikoji: vectors, perft (from a
seeded start and from a position), spec coverage, and the game through the registry only.
The test game (tests/testgame/) is three-player Kuhn poker, so "two players" cannot hide."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from hanamikoji.oracle.core import perft as P
from hanamikoji.engine.core.seeded import play_game
from hanamikoji.properties.core.cite import checks

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:  # the test game is the package testgame of tests/
    sys.path.insert(0, str(TESTS))

from testgame.fixtures import subprocess_env, testgame  # noqa: E402,F401
from testgame.game import GAME  # noqa: E402


def hanamikoji(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hanamikoji.engine", *args], capture_output=True,
                          text=True, timeout=120, env=subprocess_env(), cwd=TESTS.parent)


@checks("TG-DEAL-1", "TG-BET-1")
def test_vectors_of_the_test_game_are_deterministic_and_cite_its_rules(testgame, tmp_path):
    """TG-DEAL-1, TG-BET-1: the generic corpus, twice the same bytes, every cited rule a TG rule."""
    for out in ("a", "b"):
        done = hanamikoji("vectors", "--game", "testgame", "--out", str(tmp_path / out))
        assert done.returncode == 0, done.stderr
    files = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert files == ["decisions.json", "perft.json", "records.json", "views.json"]
    spec = (TESTS / "testgame" / "rules.md").read_text(encoding="utf-8")
    for name in files:
        first = (tmp_path / "a" / name).read_bytes()
        assert first == (tmp_path / "b" / name).read_bytes()
        document = json.loads(first)
        assert document["game"] == "testgame"
        cited = {rule for case in document["tests"] for rule in case["rules"]}
        assert all(rule.startswith("TG-") and f"**{rule}**" in spec for rule in cited), cited
    records = json.loads((tmp_path / "a" / "records.json").read_bytes())["tests"]
    assert {case["expected"]["status"] for case in records} >= {"valid", "illegal"}


@checks("TG-BET-1", "TG-BET-2")
def test_perft_of_the_test_game_matches_a_count_by_hand(testgame):
    """TG-BET-1, TG-BET-2: after the deal, each of three players in turn passes or bets once a
    round goes on, so the first two depths are 2 and 4 whatever the cards."""
    before = GAME.new_game(GAME.configure({"players": 3}))
    start = GAME.apply(before, GAME.sample_chance(before, random.Random(0)))
    counts = P.walk(GAME, start, 2)
    assert counts[:3] == (1, 2, 4)
    done = hanamikoji("perft", "--game", "testgame", "--seed", "0", "--depth", "2", "--json")
    assert done.returncode == 0, done.stderr
    assert list(json.loads(done.stdout)["depths"].values())[:2] == [2, 4]


@checks("TG-BET-1")
def test_perft_from_a_position_of_the_test_game(testgame, tmp_path):
    """TG-BET-1: perft --history from a position written by position_to_json agrees with the walk."""
    final = play_game(GAME, GAME.configure({"players": 4}), 7, 0)
    states = list(GAME.states(final))
    middle = states[2]
    path = tmp_path / "position.json"
    path.write_text(json.dumps(GAME.position_to_json(middle)))
    done = hanamikoji("perft", "--game", "testgame", "--history", str(path), "--depth", "2",
                      "--json")
    assert done.returncode == 0, done.stderr
    depths = [int(v) for v in json.loads(done.stdout)["depths"].values()]
    assert tuple(depths) == P.walk(GAME, middle, 2)[1:3]


def test_spec_coverage_covers_the_test_game(testgame):
    """Every TG rule is cited by a check once the game is registered; unregistered, none is read."""
    done = hanamikoji("spec", "coverage", "--game", "testgame", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert [g["game"] for g in report["games"]] == ["testgame"]
    assert report["rules"] and report["uncovered"] == [] and report["unknown"] == []
    assert all(r["id"].startswith("TG-") for r in report["rules"])


@checks("TG-BET-1")
def test_validate_judges_test_game_records_by_their_format(testgame, tmp_path):
    """TG-BET-1: records of simulate are valid; a move the rules forbid is illegal with a TG rule
    and where; a broken shape is malformed with its JSON path; the game is found by format."""
    records = tmp_path / "games.jsonl"
    done = hanamikoji("simulate", "--game", "testgame", "--games", "20", "--seed", "3",
                      "--records", str(records))
    assert done.returncode == 0, done.stderr
    done = hanamikoji("validate", "--json", str(records))
    verdicts = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0 and {v["status"] for v in verdicts} == {"valid"}
    assert all(v["result"]["winners"] for v in verdicts)
    record = json.loads(records.read_text().splitlines()[0])
    malformed = dict(record, first_player="x")
    illegal = dict(record, moves=[dict(record["moves"][0], move="call")] + record["moves"][1:])
    cases = tmp_path / "cases.jsonl"
    cases.write_text(json.dumps(malformed) + "\n" + json.dumps(illegal) + "\n")
    done = hanamikoji("validate", "--json", str(cases))
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert done.returncode == 2
    assert first["status"] == "malformed" and first["path"].startswith("$.first_player")
    assert second["status"] == "illegal" and second["rule"].startswith("TG-")
    assert [key for key in second if key not in ("index", "source", "line", "status", "rule",
                                                 "path", "message", "result")] \
        == list(GAME.record_where)
