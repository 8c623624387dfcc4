"""``hanamikoji perft --suite FILE`` (a file of perft cases, pass or fail per case) and
``perft --record FILE --at WHERE`` (count from a place in a game record)."""

from __future__ import annotations

import copy
import json
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-c", "from hanamikoji.cli.main import run; run()"]
SUITES = {"hanamikoji": ROOT / "tests" / "vectors" / "perft.json",
          "maiko": ROOT / "tests" / "vectors" / "maiko" / "perft.json"}


def hanamikoji(*argv: str, cwd: pathlib.Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *argv], capture_output=True, text=True, cwd=cwd, timeout=600)


@pytest.mark.parametrize("game", sorted(SUITES))
def test_the_committed_suites_pass(game):
    cases = json.loads(SUITES[game].read_text())["tests"]
    done = hanamikoji("perft", "--suite", str(SUITES[game]))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:-1] == [f"pass  {case['id']}" for case in cases]
    assert lines[-1] == f"{len(cases)} cases: {len(cases)} passed, 0 failed"
    report = json.loads(hanamikoji("perft", "--suite", str(SUITES[game]), "--json").stdout)
    assert (report["game"], report["cases"], report["failed"]) == (game, len(cases), 0)
    assert [r["depths"] for r in report["results"]] == \
        [case["expected"]["depths"] for case in cases]


@pytest.mark.parametrize("game", sorted(SUITES))
def test_a_suite_with_one_wrong_count_fails_naming_the_case(tmp_path, game):
    doc = json.loads(SUITES[game].read_text())
    bad = copy.deepcopy(doc)
    case = bad["tests"][1]
    case["expected"]["depths"]["1"] += 1
    path = tmp_path / "perft.json"
    path.write_text(json.dumps(bad))
    done = hanamikoji("perft", "--suite", str(path))
    assert done.returncode == 1, done.stderr
    right = case["expected"]["depths"]["1"] - 1
    assert f"FAIL  {case['id']}: depth 1: {right} instead of {right + 1}" in done.stdout
    assert done.stdout.splitlines()[-1].endswith("1 failed")
    report = json.loads(hanamikoji("perft", "--suite", str(path), "--json").stdout)
    assert [r["id"] for r in report["results"] if r["status"] == "fail"] == [case["id"]]


def test_a_suite_is_not_a_depth_command(tmp_path):
    done = hanamikoji("perft", "--suite", str(SUITES["maiko"]), "--depth", "2")
    assert done.returncode == 2 and "--suite takes its depths from the file" in done.stderr
    done = hanamikoji("perft", "--seed", "0")
    assert done.returncode == 2
    assert "the following arguments are required: --depth" in done.stderr


# --- --record FILE --at WHERE ----------------------------------------------------------------


def hanamikoji_history(record: dict, round_index: int, turn: int) -> list:
    """The decisions of a Hanamikoji record before round ``round_index``, turn ``turn``: the
    deals, every action and every answer (a gift's or competition's ``pick``), written by hand
    from the record format."""
    history = []
    for r, played in enumerate(record["rounds"][:round_index + 1]):
        history.append({"deal": {k: played[k] for k in ("removed", "hands", "draws")}})
        for t, entry in enumerate(played["turns"]):
            if (r, t) == (round_index, turn):
                return history
            key = "sets" if entry["action"] == "competition" else "cards"
            history.append({"action": entry["action"], key: entry[key]})
            if entry.get("pick") is not None:  # a competition's pick is an index in its sets
                pick = (entry["sets"][entry["pick"]] if entry["action"] == "competition"
                        else entry["pick"])
                history.append({"response": entry["action"], "pick": pick})
    raise AssertionError("no such turn")


def maiko_history(record: dict, turn: int, step: int) -> list:
    history = [{"kind": "layout", "tiles": record["layout"]}]
    for t, played in enumerate(record["turns"][:turn + 1]):
        history += played["steps"][:step] if t == turn else played["steps"]
    return history


@pytest.mark.parametrize("game, at, depth", [
    ("hanamikoji", (0, 0), 3), ("hanamikoji", (0, 5), 4), ("hanamikoji", (1, 3), 3),
    ("maiko", (0, 0), 2), ("maiko", (3, 1), 2), ("maiko", (20, 0), 2),
])
def test_record_at_is_history_of_the_same_position(tmp_path, game, at, depth):
    records = tmp_path / "games.jsonl"
    done = hanamikoji("simulate", "--game", game, "--games", "2", "--seed", "2", "--records",
                      str(records), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    record = json.loads(records.read_text().splitlines()[0])
    history = (hanamikoji_history(record, *at) if game == "hanamikoji"
               else maiko_history(record, *at))
    position = {"game": game, "options": record.get("options", {"variant": record.get("variant")}),
                "first_player": record["first_player"], "history": history}
    (tmp_path / "position.json").write_text(json.dumps(position))
    where = ":".join(map(str, at))
    by_record = hanamikoji("perft", "--record", str(records), "--at", where, "--depth",
                           str(depth), "--divide", "--json", cwd=tmp_path)
    by_history = hanamikoji("perft", "--game", game, "--history", "position.json", "--depth",
                            str(depth),
                            "--divide", "--json", cwd=tmp_path)
    assert by_record.returncode == 0, by_record.stderr
    assert by_history.returncode == 0, by_history.stderr
    assert json.loads(by_record.stdout) == json.loads(by_history.stdout)
    text = hanamikoji("perft", "--record", str(records), "--at", where, "--depth", "1",
                      cwd=tmp_path).stdout
    keys = ("round", "turn") if game == "hanamikoji" else ("turn", "step")
    assert text.startswith(f"perft of {records} at {keys[0]} {at[0]}, {keys[1]} {at[1]}: ")


def test_record_at_errors(tmp_path):
    records = tmp_path / "game.json"
    hanamikoji("play", "--seed", "3", "--record", str(records), cwd=tmp_path)
    for argv, says in [
        (["--at", "9:0"], "--at 9:0: no decision of the record is at 9:0"),
        (["--at", "1"], "--at takes ROUND:TURN"),
        ([], "--record needs --at ROUND:TURN"),
    ]:
        done = hanamikoji("perft", "--record", str(records), *argv, "--depth", "2",
                          cwd=tmp_path)
        assert done.returncode == 2 and says in done.stderr, done.stderr
        assert len(done.stderr.splitlines()) == 1
    done = hanamikoji("perft", "--seed", "0", "--at", "0:0", "--depth", "2", cwd=tmp_path)
    assert done.returncode == 2 and "--at goes with --record" in done.stderr


# --- docs/oracle.md: the commands of the perft section run as shown ----------------------


def run_documented(section: str, tmp_path: pathlib.Path) -> dict[str, subprocess.CompletedProcess]:
    """Every command of the ``<!-- oracle-run -->`` blocks of a section of docs/oracle.md, run
    by bash in a folder that sees tests/ and docs/ of the checkout, in order; each must exit
    as its ``# exit N`` comment says (0 without one)."""
    import os
    import re

    for name in ("tests", "docs"):
        (tmp_path / name).symlink_to(ROOT / name)
    env = {**os.environ,
           "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")}
    env.pop("PYTHONPATH", None)
    blocks = re.findall(r"<!-- oracle-run -->\n```\n(.*?)```", section, re.S)
    assert blocks
    done = {}
    for line in (line for block in blocks for line in block.splitlines() if line.strip()):
        command, _, comment = line.partition("#")
        code = int(comment.split()[1]) if comment.strip().startswith("exit") else 0
        result = subprocess.run(["bash", "-c", command], capture_output=True, text=True,
                                cwd=tmp_path, env=env, timeout=600)
        assert result.returncode == code, (command, result.stdout[-500:], result.stderr[-500:])
        done[command.strip()] = result
    return done


def shown_outputs(section: str) -> dict[str, str]:
    """The ``$ command`` blocks of a section: the command and what it prints."""
    import re

    return {m.group(1).split("   #")[0].strip(): m.group(2)
            for m in re.finditer(r"```\n\$ ([^\n]*)\n(.*?)```", section, re.S)}


def test_the_documented_perft_commands_run_as_shown(tmp_path):
    doc = (ROOT / "docs" / "oracle.md").read_text()
    section = doc[doc.index("\n## 4. perft\n"):doc.index("\n## 5. The differential harness\n")]
    run_documented(section, tmp_path)
    shown = shown_outputs(section)
    for command in ("hanamikoji perft --record game.json --at 1:3 --depth 2",
                    "hanamikoji perft --suite tests/vectors/perft.json"):
        result = subprocess.run(["bash", "-c", command.replace("hanamikoji ", " ".join(
            f"'{a}'" for a in CLI) + " ", 1)], capture_output=True, text=True, cwd=tmp_path,
            timeout=600)
        assert result.stdout == shown[command], command
