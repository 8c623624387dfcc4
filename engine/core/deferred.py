"""Ctrl-C held back while a short piece of work must end whole.

Some work must not be cut in the middle by an interrupt: a file copied over its old contents,
the bot processes of a game being ended one after another, an object of a library being made.
:func:`sigint_deferred` holds a Ctrl-C (SIGINT) that arrives meanwhile and lets it take effect
as soon as the block ends, through whatever handler was in place.

It swaps the Python-level handler rather than masking the signal: the kernel gives a signal
sent to the process to any thread that does not block it, so a mask set in the main thread
holds nothing back while another thread runs (a progress bar's refresh, a process pool's
manager); Python's handlers, however, always run in the main thread. Off the main thread, where
no handler can be set, the block runs as it is (no Python handler interrupts such a thread).
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Any, Iterator


@contextmanager
def sigint_deferred() -> Iterator[None]:
    """Run the block with SIGINT held back; a SIGINT that came meanwhile is raised again, once,
    when the block ends (with the handler that was in place: Python's KeyboardInterrupt, a
    command's own handler, or nothing if it was ignored)."""
    if threading.current_thread() is not threading.main_thread() or (
            signal.getsignal(signal.SIGINT) is None):  # a handler set outside Python: left be
        yield
        return
    came: list[int] = []

    def hold(signum: int, frame: Any) -> None:
        came.append(signum)

    previous = signal.signal(signal.SIGINT, hold)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if came:
            signal.raise_signal(signal.SIGINT)
