"""Signals and processes, kept for every tool alike: Ctrl-C held back while a short piece of
work must end whole, and left to the main thread; the process groups a campaign's worker starts,
ended if the worker dies; the keeper script that ends whatever an adapter of ``diff`` starts.

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

import os
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
    """Unblock SIGINT (and SIGTERM, SIGHUP: :data:`STOPPING`) in this thread: a worker process
    started within :func:`sigint_to_main_thread` calls it first, so that what it starts takes
    Ctrl-C as usual."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, set(STOPPING))


# --- the process groups a tool starts ------------------------------------------------------------


def signal_group(pgid: int, sig: int) -> bool:
    """Send ``sig`` to process group ``pgid`` (a bot's, an adapter's: each runs in a session of
    its own); False when no process is left in it."""
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def exit_on_term(signum: int, frame: Any) -> None:
    """A worker's SIGTERM: stop the processes this worker started (a diff shard's adapters run
    in sessions of their own, which no Ctrl-C reaches), then end at once. Never an exception:
    raised between the acquire of a lock of the pool's queues and the block that releases it,
    or caught by the shard's code, it would leave the worker running, or waiting for ever on
    a lock it holds itself, and the pool waiting for the worker."""
    import signal

    for child in children():
        try:
            os.killpg(child, signal.SIGTERM)  # its session's group (start_new_session)
        except OSError:
            try:
                os.kill(child, signal.SIGTERM)
            except OSError:
                pass
    os._exit(128 + signum)


#: In a worker of a campaign's local backend: the file that lists the process groups this worker
#: started and has not ended (None elsewhere: a process that ends its own groups, or a Dask
#: worker).
_groups_file: str | None = None
_groups: set[int] = set()


def list_groups_in(folder: str) -> None:
    """Make this process (a campaign's local worker) list the process groups it starts in a
    file of its own in ``folder``, for the main process to end if the worker dies
    (:func:`end_groups`)."""
    global _groups_file
    _groups_file = os.path.join(folder, str(os.getpid()))


def group_started(pgid: int) -> None:
    """Say that this process started the process group ``pgid`` (a session of its own: a
    tournament's command bot), so that if it is a worker and dies before it ends the group
    (killed, out of memory: no :func:`exit_on_term`), the main process ends the group. The
    list is a file rewritten whole, which a killed worker leaves as it was. Nothing outside a
    worker of a campaign's local backend (:func:`list_groups_in`)."""
    if _groups_file is not None:
        _groups.add(pgid)
        _write_groups()


def group_ended(pgid: int) -> None:
    """Say that the process group ``pgid`` of :func:`group_started` has ended."""
    if _groups_file is not None and pgid in _groups:
        _groups.discard(pgid)
        _write_groups()


def _write_groups() -> None:
    assert _groups_file is not None
    with open(_groups_file + ".new", "w", encoding="utf-8") as file:
        file.write("".join(f"{pgid}\n" for pgid in sorted(_groups)))
    os.replace(_groups_file + ".new", _groups_file)


def end_groups(folder: str) -> None:
    """End every process group the workers listed in ``folder`` and did not end: those of a
    worker that died. Called once the workers have ended (a worker stopped by SIGTERM ends its
    own, :func:`exit_on_term`). A group is a bot's keeper and the bot: a SIGTERM, which the
    keeper answers by ending every process the bot started (in any session) before it exits,
    then, once the group has ended or after :data:`GROUP_BOUND` seconds, a SIGKILL."""
    import signal
    import time

    try:
        names = os.listdir(folder)
    except OSError:
        return
    pgids: list[int] = []
    for name in names:
        try:
            with open(os.path.join(folder, name), encoding="utf-8") as file:
                pgids.extend(int(word) for word in file.read().split())
        except (OSError, ValueError):
            continue
        try:
            os.remove(os.path.join(folder, name))
        except OSError:
            pass
    alive = [pgid for pgid in pgids if signal_group(pgid, signal.SIGTERM)]
    deadline = time.monotonic() + GROUP_BOUND
    while alive and time.monotonic() < deadline:
        time.sleep(0.01)
        alive = [pgid for pgid in alive if signal_group(pgid, 0)]
    for pgid in alive:
        signal_group(pgid, signal.SIGKILL)


#: Seconds a bot's keeper has to end its bot's processes once told to (it kills them at once).
GROUP_BOUND = 10.0


def children() -> list[int]:
    """The process ids of this process's children (Linux's /proc; none where it is not)."""
    out: list[int] = []
    try:
        for thread in os.listdir(f"/proc/{os.getpid()}/task"):
            with open(f"/proc/{os.getpid()}/task/{thread}/children") as file:
                out.extend(int(word) for word in file.read().split())
    except (OSError, ValueError):
        pass
    return out


def exit_status(code: int) -> str:
    """How a process ended, in words, from its return code (``subprocess``'s: negative for a
    signal): ``exit code 1``, ``killed by SIGSEGV``."""
    if code >= 0:
        return f"exit code {code}"
    try:
        return f"killed by {signal.Signals(-code).name}"
    except ValueError:
        return f"killed by signal {-code}"
