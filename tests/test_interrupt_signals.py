"""SIGTERM and SIGHUP stop a command as Ctrl-C does (runtime/interrupt.py): the temporary output file
is removed (no ``.hanamikoji-*.tmp`` left beside an untouched output), the workers and bot
processes are ended, stderr says "interrupted", and the exit code is 128 + the signal's number:
143 for SIGTERM, 129 for SIGHUP (docs/cli.md). Real signals, sent to a real command process
once it has written some of its output (an event read from the folder, not a sleep)."""

from __future__ import annotations

import os
import pathlib
import re
import signal
import subprocess
import sys
import time

import pytest

TESTS = pathlib.Path(__file__).resolve().parent
COMMAND = [sys.executable, "-m", "hanamikoji"]
#: Only so that a hang fails rather than waits for ever; never reached by a passing run.
BOUND = 300


def _wait_for(found, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + BOUND
    while not found():
        assert process.poll() is None and time.monotonic() < deadline, process.communicate()
        time.sleep(0.02)


def _descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        here = todo.pop()
        try:
            with open(f"/proc/{here}/task/{here}/children") as file:
                children = [int(word) for word in file.read().split()]
        except OSError:
            children = []
        out.extend(children)
        todo.extend(children)
    return out


def _ended(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


def _gone(pid: int) -> bool:
    """The process ends (waited for up to :data:`BOUND` seconds: a bound only for a failure)."""
    deadline = time.monotonic() + BOUND
    while not _ended(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="finds processes in Linux's /proc")
@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize("signum, code", [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_a_signal_stops_simulate_like_ctrl_c(signum, code, workers, tmp_path):
    records = tmp_path / "games.jsonl"
    process = subprocess.Popen([*COMMAND, "simulate", "--games", "9" * 20, "--workers", workers,
                                "--records", str(records)], cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    try:
        # records written to the temporary file: the command is mid-output
        _wait_for(lambda: [p for p in tmp_path.glob(".hanamikoji-*.tmp") if p.stat().st_size],
                  process)
        below = _descendants(process.pid)  # its workers (and their fork server), if any
        process.send_signal(signum)  # to the command alone, as `kill` sends it
        out, err = process.communicate(timeout=BOUND)
        assert process.returncode == code, (out, err)
        assert re.fullmatch(r"hanamikoji simulate: interrupted after [\d,]+ of "
                            r"99,999,999,999,999,999,999 games \(the summary is of those; no "
                            r"records written\)\n", err), err
        assert list(tmp_path.iterdir()) == []  # no records, no temporary file
        # the workers are stopped before the command exits; the pool's fork server and
        # resource tracker end once they see its end (in their own time: waited for)
        assert [pid for pid in below if not _gone(pid)] == []
    finally:  # a failed assertion leaves no endless simulation behind, nor its workers
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="finds processes in Linux's /proc")
@pytest.mark.parametrize("signum, code, said", [(signal.SIGTERM, 143, "SIGTERM"),
                                                (signal.SIGHUP, 129, "SIGHUP")])
def test_a_signal_stops_a_tournament_and_its_bot(signum, code, said, tmp_path):
    """A bot that hangs, with a long decision limit: the signal ends the tournament at once,
    the bot with it, and writes no --out folder."""
    pidfile = tmp_path / "pid"
    hang = f"{sys.executable} {TESTS / 'referee_bots.py'} hang {pidfile}"
    process = subprocess.Popen(
        [*COMMAND, "tournament", "random", hang, "--deals", "1", "--decision-time", "600",
         "--game-time", "600", "--out", str(tmp_path / "out")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        _wait_for(pidfile.exists, process)
        process.send_signal(signum)
        out, err = process.communicate(timeout=BOUND)
        assert (process.returncode, err, out) == (code, f"hanamikoji: interrupted ({said})\n",
                                                  "")
        assert _ended(int(pidfile.read_text()))
        assert sorted(p.name for p in tmp_path.iterdir()) == ["pid"]
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()


def test_the_cli_doc_lists_the_codes():
    doc = (TESTS.parent / "docs" / "cli.md").read_text()
    for signum, name in ((signal.SIGINT, "interrupted (Ctrl-C)"), (signal.SIGTERM, "SIGTERM"),
                         (signal.SIGHUP, "SIGHUP")):
        assert re.search(rf"^\| {128 + signum} \| [^|]*{re.escape(name)}", doc, re.M), name
