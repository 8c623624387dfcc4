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


# A Ctrl-C pressed while z3 makes its main context: z3's constructor is patched to press it
# (the kernel queues the signal at once; Python's handler runs at its next chance).
PRESS_WHILE_Z3_MAKES_ITS_CONTEXT = """
import os, signal, sys
import z3.z3 as z3core
made = z3core.Z3_mk_context_rc
def press_then_make(conf):
    os.kill(os.getpid(), signal.SIGINT)
    return made(conf)
z3core.Z3_mk_context_rc = press_then_make
"""


def test_ctrl_c_while_z3_makes_its_context_leaves_it_whole():
    """The context is made with SIGINT held back, so the interrupt comes after it is whole (a
    context cut short has no ``owner``, and its destructor prints a traceback)."""
    script = PRESS_WHILE_Z3_MAKES_ITS_CONTEXT + """
try:
    import hanamikoji.spec.core.solver
except KeyboardInterrupt:
    print("interrupted after", "a whole context" if z3core._main_ctx.owner else "none")
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300, env=subprocess_env())
    assert done.stdout == "interrupted after a whole context\n", (done.stdout, done.stderr)
    assert done.stderr == ""


def test_ctrl_c_while_z3_makes_its_context_is_one_line_and_130(tmp_path):
    script = PRESS_WHILE_Z3_MAKES_ITS_CONTEXT + """
from hanamikoji.cli.main import main
sys.exit(main(["query", "--game", "maiko", "most-tiles-on-board"]))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300, env=subprocess_env(), cwd=tmp_path)
    assert done.returncode == 130, (done.stdout, done.stderr)
    assert done.stderr == "hanamikoji: interrupted\n" and done.stdout == ""
