"""Ctrl-C held back by :func:`hanamikoji.runtime.processes.sigint_deferred`: it takes effect
once the block ends, through the handler that was in place, even while another thread runs (a
signal mask in the main thread would then hold nothing back); and left to the main thread by
:func:`~hanamikoji.runtime.processes.sigint_to_main_thread`."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading

import pytest

from hanamikoji.runtime.processes import sigint_deferred, sigint_to_main_thread


@pytest.fixture
def python_handler():
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_a_ctrl_c_in_the_block_is_raised_when_it_ends(python_handler):
    done = []
    with pytest.raises(KeyboardInterrupt):
        with sigint_deferred():
            os.kill(os.getpid(), signal.SIGINT)
            done.append("the rest of the block")
    assert done == ["the rest of the block"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_it_holds_while_another_thread_runs(python_handler):
    """The process's SIGINT may be given to any thread that does not block it; the handler (run
    in the main thread) holds it all the same."""
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    done = []
    try:
        with pytest.raises(KeyboardInterrupt):
            with sigint_deferred():
                for _ in range(3):
                    os.kill(os.getpid(), signal.SIGINT)
                    done.append("went on")
    finally:
        stop.set()
        other.join()
    assert done == ["went on"] * 3  # raised once, at the end


def test_no_ctrl_c_no_interrupt_and_an_ignored_one_stays_ignored(python_handler):
    with sigint_deferred():
        pass
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with sigint_deferred():
        os.kill(os.getpid(), signal.SIGINT)
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN


def _blocks_sigint(native_id: int) -> bool:
    status = open(f"/proc/self/task/{native_id}/status").read()
    blocked = int(next(line for line in status.splitlines()
                       if line.startswith("SigBlk:")).split()[1], 16)
    return bool(blocked & (1 << (signal.SIGINT - 1)))


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="reads /proc")
def test_threads_started_in_the_block_leave_ctrl_c_to_the_main_thread():
    """A thread started within sigint_to_main_thread blocks SIGINT, so the kernel gives a Ctrl-C
    to the main thread, which wakes from any wait to run the handler; the main thread's mask is
    as it was after the block, and a thread started after it takes SIGINT as usual."""
    stop = threading.Event()
    with sigint_to_main_thread():
        inside = threading.Thread(target=stop.wait)
        inside.start()
    outside = threading.Thread(target=stop.wait)
    outside.start()
    try:
        assert _blocks_sigint(inside.native_id)
        assert not _blocks_sigint(outside.native_id)
        assert not _blocks_sigint(threading.main_thread().native_id)
    finally:
        stop.set()
        inside.join()
        outside.join()


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="reads /proc")
def test_a_process_started_in_the_block_unblocks_it_for_its_own_children():
    """What a worker started within the block does first (sigint_unblocked): its mask, which it
    inherited, no longer holds SIGINT back from what it starts."""
    code = ("import signal\n"
            "from hanamikoji.runtime.processes import sigint_unblocked\n"
            "before = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set())\n"
            "sigint_unblocked()\n"
            "after = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set())\n"
            "print(before, after)\n")
    with sigint_to_main_thread():
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              timeout=120)
    assert done.stdout.split() == ["True", "False"], done.stderr
