"""Ctrl-C at any moment of a z3 command is an interrupt, every time: "interrupted", exit 130,
no verdict printed and no report written.

Tested as the bug was found: a parent process sends SIGINT to ``query`` and ``verify`` at
seeded random moments spread over the length of a first, uninterrupted run of the same command.
The moments are counted from when the command has loaded z3 (``libz3`` in its memory map: it is
past its start-up and runs the question), so what a moment lands in does not depend on how fast
the machine imports. A moment after the command's work is done (its verdict on stdout, or its
report on disk, before the signal is sent) is not a failure of the code: it is drawn again,
earlier. Linux only (it reads /proc).
"""

from __future__ import annotations

import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

from testgame.fixtures import subprocess_env  # noqa: E402

pytestmark = pytest.mark.skipif(not Path("/proc/self/maps").exists(),
                                reason="needs /proc to see when the command has loaded z3")

#: Each command and how many moments it is interrupted at (22 in all). The two queries are
#: those the bug was found with (the optimiser's checks, and many small solver checks); the
#: verify runs a catalogue of both kinds (tests/testgame/few.py) and writes its report.
COMMANDS = {
    "query-maiko": (["query", "--game", "maiko", "most-tiles-on-board"], 7),
    "query-italian": (["query", "italian-round-limit"], 5),
    "verify": (["verify", "--game", "few", "--out", "OUT"], 10),
}

#: A bound no healthy run comes near, so that a hung process fails instead of hanging the suite.
GENEROUS = 300


def _has_z3(pid: int) -> bool:
    try:
        return "libz3" in Path(f"/proc/{pid}/maps").read_text()
    except OSError:  # gone
        return False


def _start(command: list[str], out: Path) -> tuple[subprocess.Popen[str], float]:
    """The command, started, and the moment it had loaded z3 (or ended)."""
    env = subprocess_env(target="few=testgame.few:GAME")
    env["PYTHONUNBUFFERED"] = "1"  # a verdict is on the pipe as soon as it is printed
    process = subprocess.Popen(
        [sys.executable, "-m", "hanamikoji.engine",
         *[str(out) if part == "OUT" else part for part in command]],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=out.parent)
    while process.poll() is None and not _has_z3(process.pid):
        time.sleep(0.005)
    return process, time.monotonic()


def _done_before(process: subprocess.Popen[str], out: Path) -> bool:
    """Whether the command's work was over before the signal: ended, a verdict on stdout, or a
    report written."""
    return (process.poll() is not None
            or bool(select.select([process.stdout], [], [], 0)[0])
            or (out / "report.json").exists())


def _interrupted(process: subprocess.Popen[str], out: Path) -> None:
    stdout, stderr = process.communicate(timeout=GENEROUS)
    code = process.returncode
    # 130 is the CLI's own exit; a process killed by the SIGINT itself after saying
    # "interrupted" is what a shell reports as 130 too
    assert code in (130, -signal.SIGINT), (code, stdout, stderr)
    assert "interrupted" in stderr and "Traceback" not in stderr, stderr
    assert stdout == "", stdout  # no answer, no verdict, no table
    assert not (out / "report.json").exists() and not (out / "report.md").exists()


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_ctrl_c_at_random_moments_is_always_interrupted(name, tmp_path):
    command, moments = COMMANDS[name]
    reference = tmp_path / "reference"
    process, ready = _start(command, reference)
    stdout, stderr = process.communicate(timeout=GENEROUS)
    length = time.monotonic() - ready
    # the uninterrupted run gives a verdict: what an interrupted one must never print
    assert process.returncode in (0, 1) and stdout.strip(), (process.returncode, stderr)
    rng = random.Random(f"{name}-2026")
    tried = drawn = 0
    while tried < moments:
        drawn += 1
        assert drawn <= 3 * moments, "the command's work keeps ending before the moments"
        out = tmp_path / f"run{drawn}"
        moment = rng.uniform(0.0, 0.95) * length
        process, ready = _start(command, out)
        while time.monotonic() < ready + moment and process.poll() is None:
            time.sleep(0.005)
        if _done_before(process, out):
            # after the work: no interrupt to test; the run is shorter than measured
            process.communicate(timeout=GENEROUS)
            length = max(0.05, min(length, moment))
            continue
        process.send_signal(signal.SIGINT)
        _interrupted(process, out)
        tried += 1
