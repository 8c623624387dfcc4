"""Ctrl-C on ``simulate --workers N`` stops the workers at once and prints no summary of
nothing (docs/cli.md: exit 130, the summary of the games finished)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time

import pytest


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in open(f"/proc/{pid}/task/{pid}/children").read().split()]
    except OSError:
        return []


def _workers_running(pid: int) -> bool:
    """Whether ``pid``'s two worker processes run, each ignoring SIGINT (its initializer ran).
    The workers are forked by the pool's fork server, a child of ``pid`` (as is multiprocessing's
    resource tracker): they are ``pid``'s grandchildren."""
    ready = 0
    for child in _children(pid):
        for worker in _children(child):
            try:
                status = open(f"/proc/{worker}/status").read()
            except OSError:
                continue
            ignored = int(re.search(r"SigIgn:\s+([0-9a-f]+)", status).group(1), 16)
            ready += bool(ignored & (1 << (signal.SIGINT - 1)))
    return ready >= 2


def _masks(pid: int) -> list[bool]:
    """Whether each thread of ``pid`` blocks SIGINT, the main thread first."""
    blocks = []
    for thread in sorted(os.listdir(f"/proc/{pid}/task"), key=lambda t: (t != str(pid), t)):
        try:
            status = open(f"/proc/{pid}/task/{thread}/status").read()
        except OSError:
            continue
        blocked = int(re.search(r"SigBlk:\s+([0-9a-f]+)", status).group(1), 16)
        blocks.append(bool(blocked & (1 << (signal.SIGINT - 1))))
    return blocks


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads /proc")
def test_ctrl_c_with_workers_says_what_finished_and_prints_no_blank_summary():
    """Ctrl-C to the whole group, as a terminal sends it, once both workers run (an event read
    from /proc, not a sleep). Whatever number of games had finished, the summary has no empty
    line; with none, there is no summary at all, only the line that says so."""
    process = subprocess.Popen(
        [sys.executable, "-m", "hanamikoji.engine", "simulate", "--game", "maiko", "--players",
         "4", "--workers", "2", "--games", "100000"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        while not _workers_running(process.pid):
            assert process.poll() is None, process.communicate()
            time.sleep(0.01)
        # The pool's threads leave Ctrl-C to the main thread; the workers take it as usual
        threads = _masks(process.pid)
        assert len(threads) > 1 and all(threads[1:]) and not threads[0], threads
        assert not any(mask for child in _children(process.pid)
                       for worker in _children(child) for mask in _masks(worker))
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=300)  # generous: only so that a hang fails
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 130, (out, err)
    found = re.fullmatch(r"hanamikoji simulate: interrupted after ([\d,]+) of 100,000 games "
                         r"\(the summary is of those\)\n", err)
    assert found, err
    if found.group(1) == "0":
        assert out == ""
    else:
        lines = out.splitlines()
        assert lines and all(line.split(":", 1)[-1].strip() for line in lines), out
