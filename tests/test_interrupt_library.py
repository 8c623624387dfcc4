"""A command run in a process that goes on leaves no Ctrl-C behind for the library.

``main([...])`` takes SIGINT for the command (:func:`hanamikoji.runtime.interrupt.install`).
A Ctrl-C it answered must not stop a later call of :mod:`hanamikoji.oracle` in the same
process, whose loops ask :func:`~hanamikoji.runtime.interrupt.check` whether one was pressed:
the suite met this as a worker that ran a test sending SIGINT to itself, then an API example,
which the stale interrupt stopped.
"""

from __future__ import annotations

import os
import signal
import sys

from hanamikoji.cli.main import main
from hanamikoji.runtime import interrupt


def test_a_ctrl_c_a_command_answered_does_not_stop_the_library_later(tmp_path, capsys):
    records = tmp_path / "games.jsonl"
    assert main(["simulate", "--games", "3", "--records", str(records)]) == 0
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # given back
    interrupt.install()  # as a command does, then a Ctrl-C it answers
    try:
        os.kill(os.getpid(), signal.SIGINT)
    except KeyboardInterrupt:
        pass
    assert interrupt.pressed()
    interrupt.uninstall()
    interrupt.check()  # no KeyboardInterrupt: the command that took it has answered
    from hanamikoji.oracle import validate

    verdicts = validate(records)
    assert verdicts.ok and len(verdicts.to_json()) == 3, verdicts


def test_main_again_and_again_wraps_the_unraisable_hook_once(capsys):
    main(["games"])
    hook = sys.unraisablehook
    for _ in range(3):
        main(["games"])
    assert sys.unraisablehook is hook
