"""Ctrl-C held back by :func:`hanamikoji.engine.core.deferred.sigint_deferred`: it takes effect
once the block ends, through the handler that was in place, even while another thread runs (a
signal mask in the main thread would then hold nothing back)."""

from __future__ import annotations

import os
import signal
import threading

import pytest

from hanamikoji.engine.core.deferred import sigint_deferred


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
