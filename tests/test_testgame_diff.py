"""diff drives the test game through the generic adapter (a separate process): the reference
agrees with itself, and a broken version served by the adapter is caught at the step where it
breaks. The adapter finds the game through HANAMIKOJI_GAMES, as any outside game would be."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hanamikoji.properties.core.cite import checks

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:  # the test game is the package testgame of tests/
    sys.path.insert(0, str(TESTS))

from testgame.fixtures import subprocess_env, testgame  # noqa: E402,F401

ADAPTER = [sys.executable, "-m", "hanamikoji.oracle.core.adapter"]


def diff(*args: str, target: str | None = None) -> subprocess.CompletedProcess:
    env = subprocess_env() if target is None else subprocess_env(target=target)
    return subprocess.run([sys.executable, "-m", "hanamikoji.engine", "diff", "--timeout", "600",
                           *args, "--",
                           *ADAPTER], capture_output=True, text=True, timeout=300, env=env,
                          cwd=TESTS.parent)


@checks("TG-DEAL-1", "TG-BET-1")
def test_the_reference_test_game_agrees_with_itself_through_the_adapter(testgame):
    """TG-DEAL-1, TG-BET-1: every step of 30 games of 3 to 5 players compared, no divergence."""
    for players in ("3", "5"):
        done = diff("--game", "testgame", "--players", players, "--games", "15", "--json")
        assert done.returncode == 0, done.stdout + done.stderr
        report = json.loads(done.stdout)
        assert report["status"] == "agree" and report["games"] >= 15


@checks("TG-INFO-1")
def test_a_leaking_test_game_is_caught_through_the_adapter(testgame, tmp_path):
    """TG-INFO-1: the adapter serves the leaking version under the test game's name; diff sees
    the view of a player hold another player's card."""
    from hanamikoji.oracle.core.diff import compare_engines
    from testgame.game import GAME

    env_target = "testgame=testgame.broken:LEAKY_VIEW"
    # The harness runs the reference here; only the adapter's process maps the name to the
    # leaking version, through its own environment.
    adapter_env = subprocess_env(target=env_target)
    wrapper = tmp_path / "adapter.sh"
    wrapper.write_text(f"#!/bin/sh\nexport HANAMIKOJI_GAMES='{adapter_env['HANAMIKOJI_GAMES']}'\n"
                       f"export PYTHONPATH='{adapter_env['PYTHONPATH']}'\n"
                       f"exec {' '.join(ADAPTER)}\n")
    wrapper.chmod(0o755)
    report = compare_engines([str(wrapper)], games=30, game=GAME, shrink=50, timeout=600)
    assert report.divergence is not None, report
    assert "view of player" in report.divergence.message
    assert report.divergence.request["op"] == "observe"


def test_diff_usage_errors_for_the_test_game(testgame):
    done = diff("--game", "testgame", "--players", "9", "--games", "1")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "players" in done.stderr
