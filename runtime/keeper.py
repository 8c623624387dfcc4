"""The keeper of a process the toolkit starts, on Linux: an adapter of ``hanamikoji diff``, a
command bot of the referee (``tournament``). Nothing the process starts outlives it, even a
process that leaves its process group with ``setsid()`` (a double fork, Node's
``spawn(..., {detached: true})``).

``python -I -S keeper.py [--grace SECONDS] STATUS_FD COMMAND...`` makes itself a child subreaper
(``prctl(PR_SET_CHILD_SUBREAPER)``, Linux 3.4 and later): a process whose parent dies is
re-parented to its nearest living subreaper ancestor, so every process descended from the
adapter stays a descendant of the keeper, whatever session or group it moves to. The keeper
starts COMMAND with its own standard input, output and error (the harness's pipes), lets go of
its copies of input and output, and writes ``ok`` on STATUS_FD (or ``error ERRNO``: the command
could not be started), then waits. When the adapter exits, or the keeper is sent SIGTERM,
SIGHUP or SIGINT, every remaining descendant is sent SIGTERM, then, ``--grace`` seconds later
(default :data:`GRACE`; 0: at once, the referee's choice: a game that is over owes its bot
nothing), SIGKILL until none is left (a subreaper with no child has no descendant). It then
exits as the adapter did: its exit code, or the same signal. So the end of the command's
output comes as soon as the command has ended and its descendants with it, even when one of
them held the output: a bot that died is known at once, not when its answer's time runs out.

The side that starts a keeper uses :func:`argv` and :func:`started`; :data:`AVAILABLE` says
where it can (elsewhere the caller ends the command's process group, and a process that left
the group may be left running).

Only the standard library, and no package import: it runs with ``-I -S`` beside the adapter.
"""

from __future__ import annotations

import os
import signal
import sys
import time

#: typing.TYPE_CHECKING without importing typing, which the keeper starts faster without.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Sequence

PR_SET_CHILD_SUBREAPER = 36
#: Seconds the descendants left get between SIGTERM and SIGKILL, by default.
GRACE = 1.0
#: Whether the keeper can run here: ``prctl(PR_SET_CHILD_SUBREAPER)`` is Linux's.
AVAILABLE = sys.platform.startswith("linux")


def argv(status_fd: int, command: Sequence[str],
         grace: float | None = None) -> list[str]:
    """The command line that runs ``command`` under the keeper, which reports on
    ``status_fd`` (the write end of a pipe, passed to the keeper's process)."""
    options = [] if grace is None else ["--grace", repr(float(grace))]
    return [sys.executable, "-I", "-S", os.path.abspath(__file__), *options, str(status_fd),
            *command]


def started(status_fd: int) -> str | None:
    """Read the keeper's word from the read end ``status_fd`` (then closed): None when the
    command started, else why it could not (the system's words: "No such file or
    directory")."""
    with os.fdopen(status_fd, "rb") as said:
        word = said.read()
    if word.startswith(b"ok"):
        return None
    parts = word.split(b" ", 2)
    return parts[2].decode("utf-8", "replace") if len(parts) == 3 else "the keeper did not start"


#: What the keeper waits for: a child's end, or the word to stop. All four are blocked from
#: the start and taken with ``sigwaitinfo``, never by a handler: a handler's exception can come
#: between any two bytecodes, and one that came after the adapter had ended but before the
#: keeper's clean-up began killed the keeper and left every descendant running (a stress test
#: that sends SIGTERM while the adapter ends saw it in 110 of 200 runs).
WAITED = (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP, signal.SIGINT)


def descendants() -> list[int]:
    """The keeper's descendants, from /proc (the field after the command name is the
    parent), its children first."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
            parents.setdefault(int(fields[1]), []).append(int(entry))
        except (OSError, IndexError, ValueError):
            continue
    found = list(parents.get(os.getpid(), ()))
    for pid in found:  # grows as it goes: breadth first
        found.extend(parents.get(pid, ()))
    return found


def reap(statuses: dict[int, int]) -> bool:
    """Reap every child that has ended; False when the keeper has no child left."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return False
        if pid == 0:
            return True
        statuses[pid] = status


def end_all(statuses: dict[int, int], grace: float = GRACE) -> None:
    """SIGTERM to every descendant, then, after ``grace`` seconds or as soon as none is
    left, SIGKILL until none is left. Orphans of the processes that end come to the keeper
    (the subreaper), so each look at /proc finds every descendant still alive."""
    termed: set[int] = set()
    deadline = time.monotonic() + grace
    while reap(statuses) and time.monotonic() < deadline:
        for pid in descendants():
            if pid not in termed:
                termed.add(pid)
                _kill(pid, signal.SIGTERM)
        time.sleep(0.01)
    while reap(statuses):
        for pid in descendants():
            _kill(pid, signal.SIGKILL)
        try:
            pid, status = os.waitpid(-1, 0)
            statuses[pid] = status
        except ChildProcessError:
            return


def _kill(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def main(words: list[str]) -> None:
    grace = GRACE
    if words[:1] == ["--grace"]:
        grace, words = float(words[1]), words[2:]
    status_fd, command = int(words[0]), words[1:]
    # Blocked before the status pipe says ok: a signal sent from then on waits for the keeper.
    # (A blocked SIGCHLD is kept pending though its default is to be ignored.)
    signal.pthread_sigmask(signal.SIG_BLOCK, WAITED)
    import ctypes  # here: the side that starts a keeper imports this module too

    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    # Not subprocess.Popen: importing subprocess doubles the keeper's start, paid for every
    # bot of every game. The status pipe is not the command's to hold (its reader waits for
    # its end); SIGPIPE and SIGXFSZ, which Python ignores, are the command's default again.
    os.set_inheritable(status_fd, False)
    try:
        adapter = os.posix_spawnp(command[0], command, os.environ,
                                  setsigdef=(signal.SIGPIPE, signal.SIGXFSZ), setsigmask=())
    except OSError as error:
        os.write(status_fd, f"error {error.errno or 0} {error.strerror or error}".encode())
        os.close(status_fd)
        sys.exit(127)
    # Let go of the harness's input and output: the adapter sees the end of its input when the
    # harness closes it, and the harness the end of the adapter's output when no one holds it.
    # (The adapter starts with no signal blocked: setsigmask above.)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.write(status_fd, b"ok")
    os.close(status_fd)
    statuses: dict[int, int] = {}
    # Reap, then wait for the next signal: a child that ends between the two leaves its SIGCHLD
    # pending, so sigwaitinfo returns at once. The stopping signals stay blocked after: the
    # keeper finishes its work whatever comes.
    while reap(statuses) and adapter not in statuses:
        if signal.sigwaitinfo(WAITED).si_signo != signal.SIGCHLD:
            break
    end_all(statuses, grace)
    ended = statuses.get(adapter)
    if ended is not None and os.WIFSIGNALED(ended):
        import resource

        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if os.WTERMSIG(ended) != signal.SIGKILL:  # SIGKILL has no handler to reset
            signal.signal(os.WTERMSIG(ended), signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, (os.WTERMSIG(ended),))
        os.kill(os.getpid(), os.WTERMSIG(ended))
    sys.exit(os.WEXITSTATUS(ended) if ended is not None and os.WIFEXITED(ended) else 1)


if __name__ == "__main__":
    main(sys.argv[1:])
