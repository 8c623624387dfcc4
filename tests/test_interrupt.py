"""Ctrl-C during a z3 check is an interrupt: "interrupted", exit 130, no answer and no report.
z3 is told not to take SIGINT, and the check runs while the main thread waits, so Python's own
handler takes it (spec/core/solver.py). The test game's query says when its check begins, and
the signal is sent then: no sleep races the process. tests/test_interrupt_moments.py sends it
at random moments of real queries."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

TESTS = os.path.dirname(os.path.abspath(__file__))
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)

from testgame.fixtures import subprocess_env  # noqa: E402


@pytest.mark.parametrize("command", [["query", "--game", "slow", "pigeons"],
                                     ["verify", "--game", "slow", "--out", "OUT"]])
def test_ctrl_c_during_a_z3_check_is_interrupted_not_a_verdict(command, tmp_path):
    command = [str(tmp_path / "out") if part == "OUT" else part for part in command]
    env = subprocess_env(target="slow=testgame.slow:GAME")
    process = subprocess.Popen([sys.executable, "-m", "hanamikoji.engine", *command],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=env, cwd=tmp_path)
    said = ""
    while not said.endswith("pigeons: checking\n"):  # the check has begun (it never ends)
        line = process.stderr.readline()
        if not line:  # ended without reaching the check: fail, never wait on the check
            process.kill()
            raise AssertionError((said, process.communicate()))
        said += line
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=300)  # generous: a loaded machine meets it
    err = said + err
    assert process.returncode == 130, (out, err)
    assert "interrupted" in err and "Traceback" not in err
    assert out == ""  # no answer, no table
    assert not (tmp_path / "out" / "report.md").exists()
