"""A closed standard output never turns a verdict into success (docs/cli.md, exit codes): a
check that failed before the reader went away keeps its code (1, or 2 for malformed input); a
command that could not write all it had to say exits 141 (128 + SIGPIPE), never 0.

The pipe is closed before the command starts, so its first write fails: no race with a reader
(``| head -1`` closes at a moment of its own)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from hanamikoji.runtime.base import EXIT_PIPE
from hanamikoji.cli.main import main

COMMAND = [sys.executable, "-m", "hanamikoji.engine"]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("closed")
    good = folder / "good.jsonl"
    assert main(["simulate", "--games", "40", "--records", str(good)]) == 0
    bad = folder / "bad.jsonl"
    lines = []
    for line in good.read_text().splitlines():
        record = json.loads(line)
        record["first_player"] = 1 - record["first_player"]  # every record illegal
        lines.append(json.dumps(record))
    bad.write_text("\n".join(lines) + "\n")
    malformed = folder / "malformed.jsonl"
    malformed.write_text("{}\n" * 40)
    return folder


def run_into_a_closed_pipe(*argv: str) -> subprocess.CompletedProcess:
    read, write = os.pipe()
    os.close(read)  # nobody will read: the first write fails with EPIPE
    try:
        return subprocess.run([*COMMAND, *argv], stdout=write, stderr=subprocess.PIPE,
                              text=True, timeout=300)
    finally:
        os.close(write)


def _quiet(done: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, done.stderr


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_a_failed_check_stays_a_failure_when_the_reader_goes_away(files, json_flag):
    """`set -o pipefail; validate manybad.jsonl | head -1` gave 0; without the pipe, 1."""
    done = run_into_a_closed_pipe("validate", *json_flag, str(files / "bad.jsonl"))
    assert done.returncode == 1, done.stderr
    _quiet(done)
    done = run_into_a_closed_pipe("validate", *json_flag, str(files / "malformed.jsonl"))
    assert done.returncode == 2, done.stderr
    _quiet(done)


@pytest.mark.parametrize("argv", [["validate", "--json"], ["validate"], ["show"], ["stats"]])
def test_output_that_could_not_be_written_is_never_exit_0(files, argv):
    """All records valid, but the verdicts (or the one summary line) were never written."""
    done = run_into_a_closed_pipe(*argv, str(files / "good.jsonl"))
    assert done.returncode == EXIT_PIPE == 141, done.stderr
    _quiet(done)


def test_a_command_started_with_standard_output_closed(files):
    """sys.stdout is None then; it was an internal error (AttributeError, exit 3)."""
    for name, code in (("good.jsonl", EXIT_PIPE), ("bad.jsonl", 1)):
        done = subprocess.run(["sh", "-c", 'exec "$@" >&-', "sh", *COMMAND, "validate",
                               str(files / name)], stderr=subprocess.PIPE, text=True,
                              timeout=300)
        assert done.returncode == code, done.stderr
        _quiet(done)


def test_the_cli_doc_lists_the_code(files):
    import pathlib

    doc = (pathlib.Path(__file__).resolve().parents[1] / "docs" / "cli.md").read_text()
    assert f"| {EXIT_PIPE} |" in doc


def test_diff_save_is_written_when_the_reader_goes_away(tmp_path):
    """`diff ... --save d | true` exited 141 with no folder: the save came after the report,
    whose first print failed. Now the folder is written first, whole."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    adapter = [sys.executable, os.path.join(root, "docs", "examples", "adapter.py"),
               "--engine", "broken_engines:gift-gives-two"]
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "hanamikoji", "diff", "--games", "20", "--shrink", "0",
             "--variant", "standard", "--save", str(tmp_path / "d"), "--", *adapter],
            stdout=write, stderr=subprocess.PIPE, text=True, timeout=300,
            env={**os.environ, "PYTHONPATH": os.path.join(root, "tests")})
    finally:
        os.close(write)
    assert done.returncode in (1, EXIT_PIPE), done.stderr
    _quiet(done)
    assert sorted(p.name for p in (tmp_path / "d").iterdir()) == [
        "divergence.html", "divergence.json", "position.json"]
    assert json.loads((tmp_path / "d" / "divergence.json").read_text())["message"]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs Linux's /dev/full")
@pytest.mark.parametrize("words", [["simulate", "--games", "2"], ["tournament", "random", "random", "--deals", "1"],
                                   ["schema", "--check"]])
def test_standard_output_on_a_full_disk_is_one_line_and_exit_2(words):
    """Standard output on a full disk (/dev/full) is said as a file that cannot be written is:
    one line, exit 2, never an internal error."""
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "hanamikoji", *words], stdout=full,
                              stderr=subprocess.PIPE, text=True, input="", timeout=300)
    assert done.returncode == 2, done.stderr
    assert done.stderr == (f"hanamikoji {words[0]}: error: no space left on device writing "
                           "standard output\n")
