"""``hanamikoji diff --leaks -- COMMAND``: the black-box leak check. Pairs of
games that differ only in what one player cannot see; the engine's own answers to ``observe``
for that player must be the same. Leaking engines run as separate processes are caught, the
reference passes."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
CLI = [sys.executable, "-c", "from hanamikoji.cli.main import run; run()"]
REFERENCE = [sys.executable, "-m", "hanamikoji.oracle.core.adapter"]
EXAMPLE = [sys.executable, str(ROOT / "docs" / "examples" / "adapter.py")]


def leaks(*argv: str, game: str = "hanamikoji", games: int = 20) -> subprocess.CompletedProcess:
    import os

    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(TESTS)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])}
    return subprocess.run([*CLI, "diff", "--leaks", "--game", game, "--games", str(games),
                           "--timeout", "600", "--", *argv], capture_output=True, text=True,
                          cwd=ROOT, env=env,
                          timeout=600)


@pytest.mark.parametrize("game", ["hanamikoji", "maiko"])
def test_the_reference_does_not_leak(game):
    done = leaks(*REFERENCE, game=game, games=20)
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert done.stdout.startswith("no leak: ") and "20 pairs of games" in done.stdout


@pytest.mark.parametrize("engine, key", [("view-shows-opponent-hand", "opponent_hand"),
                                         ("view-shows-deck", "deck")])
def test_hanamikoji_leaking_engines_are_caught(engine, key):
    done = leaks(*EXAMPLE, "--engine", f"broken_engines:{engine}")
    assert done.returncode == 1, (done.stdout, done.stderr)
    lines = done.stdout.splitlines()
    assert lines[0].startswith("LEAK: ")
    assert f'cannot see (at "{key}")' in lines[1]


def test_maikos_peek_leak_is_caught():
    done = leaks(*REFERENCE, "--engine", "maiko=maiko.broken:PEEK_LEAKS", game="maiko",
                 games=40)
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert 'cannot see (at "log")' in done.stdout.splitlines()[1]


def test_the_json_report_has_both_games_and_answers():
    done = leaks(*EXAMPLE, "--engine", "broken_engines:view-shows-opponent-hand")
    report = json.loads(subprocess.run(
        [*CLI, "diff", "--leaks", "--json", "--games", "20", "--timeout", "600", "--", *EXAMPLE,
         "--engine",
         "broken_engines:view-shows-opponent-hand"], capture_output=True, text=True, cwd=ROOT,
        env={**__import__("os").environ, "PYTHONPATH": str(TESTS)}, timeout=600).stdout)
    assert done.returncode == 1
    assert report["status"] == "leak"
    leak = report["leak"]
    first, second = leak["answers"]
    assert first["view"]["opponent_hand"] != second["view"]["opponent_hand"]
    assert {k: v for k, v in first["view"].items() if k != "opponent_hand"} == \
        {k: v for k, v in second["view"].items() if k != "opponent_hand"}
    assert len(leak["decisions"][0]) == len(leak["decisions"][1])
    assert leak["decisions"][0] != leak["decisions"][1]


def test_an_engine_whose_view_ignores_the_hidden_state_passes_even_in_its_own_shape(tmp_path):
    """Any shape is judged by equality only: an adapter answering observe with its own
    (non-reference) shape that shows nothing hidden passes."""
    own = tmp_path / "own.py"
    own.write_text(
        "import json, sys\n"
        "from hanamikoji.oracle.core.adapter import Adapter\n"
        "adapter = Adapter()\n"
        "for line in sys.stdin:\n"
        "    answer = adapter.answer(line)\n"
        "    if json.loads(line).get('op') == 'observe':\n"
        "        view = answer['view']\n"
        "        answer = {'mine': [view['hand'], view['markers'], view['deck_size']]}\n"
        "    print(json.dumps(answer), flush=True)\n")
    done = leaks(sys.executable, str(own))
    assert done.returncode == 0, (done.stdout, done.stderr)


def test_the_documented_diff_commands_run_as_shown(tmp_path):
    """Every command this issue added to the diff section of docs/oracle.md (its
    ``<!-- oracle-run -->`` blocks) runs with the exit code it says, and shows what is shown."""
    if str(TESTS) not in sys.path:
        sys.path.insert(0, str(TESTS))
    from test_perft_suite import run_documented, shown_outputs

    doc = (ROOT / "docs" / "oracle.md").read_text()
    section = doc[doc.index("\n## 5. The differential harness\n"):doc.index("\n## 6. Maiko\n")]
    done = run_documented(section, tmp_path)
    missing = done["hanamikoji diff -- python missing.py"]
    assert missing.stderr.startswith("hanamikoji diff: error: cannot start python missing.py: "
                                     "it exited before answering its first request")
    for command, text in shown_outputs(section).items():
        if "--leaks" in command:
            expected = [line for line in text.splitlines() if line != "..."]
            assert done[command].stdout.splitlines()[:len(expected)] == expected
