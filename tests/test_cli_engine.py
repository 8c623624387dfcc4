"""The play and simulate commands, their errors and exit codes, run as a user runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from hanamikoji.cli.main import main
from hanamikoji.runtime.output import output_file
from hanamikoji.engine.hanamikoji.record import read_record
from hanamikoji.properties.core.cite import checks


def run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hanamikoji.engine", *args],
                          capture_output=True, text=True, env={**os.environ, **(env or {})},
                          timeout=120)


def test_play_prints_rounds_table_and_result(tmp_path, capsys):
    out_file = tmp_path / "game.json"
    assert main(["play", "--seed", "3", "--record", str(out_file)]) == 0
    out = capsys.readouterr().out
    assert "Round 0" in out and "geisha " in out and "charm " in out and "marker" in out
    assert out.rstrip().splitlines()[-1].startswith("Result: player")
    state = read_record(json.loads(out_file.read_text()))
    assert state.result is not None


@checks("VAR-IT-1")
def test_simulate_json_summary_and_italian_records(tmp_path, capsys):
    """VAR-IT-1: `simulate --variant italian-three-rounds --records` writes no 4-round game."""
    records = tmp_path / "out.jsonl"
    assert main(["simulate", "--games", "300", "--seed", "2", "--variant",
                 "italian-three-rounds", "--records", str(records), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert set(summary) >= {"games", "seconds", "games_per_second", "reasons", "rounds"}
    assert summary["games"] == 300 == sum(summary["reasons"].values())
    lines = records.read_text().splitlines()
    assert len(lines) == 300
    for line in lines:
        record = json.loads(line)
        assert len(record["rounds"]) <= 3
        assert read_record(record).result is not None
    assert sum(summary["rounds"].values()) == 300 and max(map(int, summary["rounds"])) <= 3


def test_same_seed_same_games_in_another_process(tmp_path):
    """Determinism: the records do not depend on PYTHONHASHSEED or the process."""
    outputs = []
    for hash_seed in ("0", "12345"):
        path = tmp_path / f"r{hash_seed}.jsonl"
        done = run("simulate", "--games", "40", "--seed", "9", "--records", str(path),
                   env={"PYTHONHASHSEED": hash_seed})
        assert done.returncode == 0, done.stderr
        outputs.append(path.read_text())
    assert outputs[0] == outputs[1]


@pytest.mark.parametrize("args, needle", [
    (["simulate", "--games", "x"], "--games"),
    (["simulate", "--games", "0"], "--games"),
    (["simulate", "--variant", "french"], "--variant"),
    (["play"], "--seed"),
    (["play", "--seed", "1.5"], "--seed"),
    (["frobnicate"], "frobnicate"),
    ([], "COMMAND"),
    (["simulate", "--games", "2", "--records", "{tmp}/missing/out.jsonl"], "no such directory"),
])
def test_bad_arguments_give_one_line_and_exit_2(args, needle, tmp_path):
    # a missing folder inside the test's own temporary folder: never a path of the machine
    done = run(*[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], done.stderr
    assert "Traceback" not in done.stderr


def test_output_is_not_half_written_on_failure(tmp_path):
    """A failure while writing leaves the old file as it was and no temporary file behind."""
    target = tmp_path / "keep.jsonl"
    target.write_text("old\n")
    with pytest.raises(RuntimeError):
        with output_file(str(target)) as out:
            out.write("new, half done")
            raise RuntimeError("disk on fire")
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.jsonl"]
    done = run("simulate", "--games", "2", "--records", str(tmp_path))
    assert done.returncode == 2 and "is a directory" in done.stderr


def test_engine_commands_do_not_import_z3():
    code = ("import sys; from hanamikoji.cli.main import main; "
            "main(['simulate', '--games', '3']); main(['play', '--seed', '1']); "
            "print('z3' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip().splitlines()[-1] == "False"


def test_workers_give_the_same_games_as_one_process(tmp_path):
    """--workers N: same tally and byte-identical records as one process, same seed."""
    reports, texts = [], []
    for workers in ("1", "3"):
        path = tmp_path / f"w{workers}.jsonl"
        done = run("simulate", "--games", "450", "--seed", "7", "--workers", workers,
                   "--records", str(path), "--json")
        assert done.returncode == 0, done.stderr
        report = json.loads(done.stdout)
        reports.append({k: v for k, v in report.items() if k not in ("seconds", "games_per_second")})
        texts.append(path.read_text())
    assert reports[0] == reports[1]
    assert texts[0] == texts[1] and texts[0].count("\n") == 450


def test_validate_imports_only_what_judging_a_record_needs(tmp_path):
    """A bot arena validates each game as it ends, so the command's start is most of the time:
    validating a record imports neither the random source, nor the package's data files, nor the
    engine's board display and resampler, nor the other game, nor the campaign machinery
    (``hashlib``, the backends, the shards), which only ``--workers``, ``--resume`` and
    ``--scheduler`` need."""
    record = tmp_path / "one.jsonl"
    assert run("simulate", "--games", "1", "--records", str(record)).returncode == 0
    unused = ("random", "importlib.resources", "hanamikoji.engine.hanamikoji.display",
              "hanamikoji.engine.hanamikoji.resample", "hanamikoji.engine.maiko", "hashlib",
              "hanamikoji.campaign", "hanamikoji.oracle.core.validate_campaign")
    code = ("import sys; from hanamikoji.cli.main import main; "
            f"code = main(['validate', {str(record)!r}]); "
            f"print(code, [m for m in {unused!r} if m in sys.modules])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip().splitlines()[-1] == "0 []"
