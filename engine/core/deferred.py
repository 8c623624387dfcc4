"""Ctrl-C held back while a short piece of work must end whole, and left to the main thread.

Some work must not be cut in the middle by an interrupt: a file copied over its old contents,
the bot processes of a game being ended one after another, an object of a library being made.
:func:`sigint_deferred` holds a Ctrl-C (SIGINT) that arrives meanwhile and lets it take effect
as soon as the block ends, through whatever handler was in place. SIGTERM and SIGHUP, which the
command treats as Ctrl-C, are held the same way where a Python handler takes them (the command's,
a campaign worker's), and are left to the main thread alike: :data:`STOPPING`.

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

#: The signals that stop a command as Ctrl-C does (those this platform has).
STOPPING = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                 if hasattr(signal, name))


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
        if signum not in came:
            came.append(signum)

    # SIGINT always; SIGTERM and SIGHUP where Python code takes them (not their default, which
    # ends the process at once, nor ignored)
    held = [signum for signum in STOPPING
            if signum == signal.SIGINT or callable(signal.getsignal(signum))]
    previous = {signum: signal.signal(signum, hold) for signum in held}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        for signum in came:
            signal.raise_signal(signum)


@contextmanager
def sigint_to_main_thread() -> Iterator[None]:
    """Start threads in the block with SIGINT (and SIGTERM, SIGHUP: :data:`STOPPING`) blocked
    in them (a new thread takes its creator's
    signal mask), so that the kernel gives a Ctrl-C to the main thread. Python runs its handlers
    only in the main thread, and a main thread waiting on a lock wakes for a signal only if the
    signal is given to it: one taken by a helper thread blocked in a read or a write (a process
    pool's manager, a z3 check, a reader of a pipe) would wake nobody until the wait ended by
    itself, perhaps never. Processes started in the block inherit the mask too: one that may
    start others, or must answer Ctrl-C, unblocks it (:func:`sigint_unblocked`). Elsewhere than
    the main thread, or without signal masks, the block runs as it is."""
    if not hasattr(signal, "pthread_sigmask") or (
            threading.current_thread() is not threading.main_thread()):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, set(STOPPING))
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def sigint_unblocked() -> None:
    """Unblock SIGINT (and SIGTERM, SIGHUP: :data:`STOPPING`) in this thread: a worker process started within
    :func:`sigint_to_main_thread` calls it first, so that what it starts takes Ctrl-C as usual."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, set(STOPPING))
