"""The other engine of ``hanamikoji diff``: its process and the line protocol's exchange with it.

:class:`Engine` starts the command (through the keeper, :mod:`hanamikoji.runtime.keeper`, where
there is one), writes one request line and reads one answer line (:class:`_Channel`, straight from
the pipe, a line at most :data:`LINE_LIMIT` bytes), keeps the tail of its standard error, and stops
it with every process it started. An engine that crashes, prints something that is not a JSON line,
does not answer in time or writes a line nobody asked for is an :class:`EngineFailure`
(:class:`CannotStart` when it never answered at all); what the answers say is judged elsewhere
(:mod:`hanamikoji.oracle.core.diff_compare`). Part of the harness of
:mod:`hanamikoji.oracle.core.diff`, where the names other modules import are still found.
"""

from __future__ import annotations

import json
import math
import os
import select
import signal
import subprocess
import threading
import time
from typing import Any, Callable, Sequence

from hanamikoji.runtime import interrupt
from hanamikoji.runtime.base import EngineError
from hanamikoji.runtime.processes import sigint_to_main_thread
from hanamikoji.runtime.processes import signal_group as _signal_group
from hanamikoji.runtime import keeper

#: The longest answer line read from the other engine, in bytes, its newline not counted (4 MiB);
#: a longer line is a protocol error.
LINE_LIMIT = 1 << 22
#: The other engine's standard error is read in chunks of this size, and only its last
#: ``STDERR_TAIL`` bytes are kept (an engine may write without end, and without a newline).
STDERR_CHUNK = 1 << 16
#: The other engine's standard output is read in chunks of at most this size.
READ_CHUNK = 1 << 20
STDERR_TAIL = 4096
#: The longest tail of standard error a message quotes.
STDERR_SHOWN = 600
#: The most bytes of request lines to write at once (:meth:`Engine.write_requests`): a pipe
#: holds at least one page (4,096 bytes on Linux, its ``PIPE_BUF``), so an empty one takes them
#: in one write that never waits, even for an engine that is not reading.
AHEAD_BYTES = 4096
#: The requests that send a decision or a chance outcome: what progress counts as compared.
DECISION_OPS = ("apply", "chance", "deal")


class CannotStart(EngineError):
    """The command could not be started at all, or its process exited before answering its
    very first request (exit 2, not a divergence)."""


def cannot_start(argv: Sequence[str], failure: "EngineFailure") -> CannotStart:
    """The one-line error of an engine that exited before its first answer."""
    return CannotStart(f"cannot start {' '.join(argv)}: it exited before answering its first "
                       f"request ({failure.message})")


class EngineFailure(Exception):
    """The other engine crashed, printed garbage, or did not answer in time. ``unstarted``: it
    exited before answering the first request of the first process started (it cannot start:
    a script that does not exist, an import that fails), not a divergence."""

    def __init__(self, kind: str, message: str, unstarted: bool = False,
                 request: Any = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.unstarted = unstarted
        #: For a line nobody asked for: the last request sent before it.
        self.request = request


_EOF = object()
_TOO_LONG = object()
_EXTRA = object()

#: The keeper (:mod:`hanamikoji.runtime.keeper`), which ends every process an adapter started, is used where it
#: can be: Linux (``prctl(PR_SET_CHILD_SUBREAPER)``). Elsewhere the adapter's process group is
#: ended, and a process that left the group (``setsid()``) may be left running.
KEEPER = keeper.AVAILABLE
#: Seconds to wait for the end of the other engine's output once it is stopped: as soon as
#: every process that held it is gone, which stop() sees to; a bound only in case it cannot.
SETTLE_BOUND = 30.0


class _Channel:
    """The other engine's standard output as answers: exactly one line per request, read by
    the harness's own thread straight from the pipe, as many bytes as are there at a time (no
    reader thread to hand each line over, no system call per line). A line that is there when
    every request sent already has its answer is one nobody asked for (a request answered
    twice, or other output): it is kept (``extra``) and nothing more is read, so an engine that
    writes without end cannot make the harness grow."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream  # held: its file descriptor stays open as long as the channel
        self.fd = stream.fileno()
        self.asked = 0  # requests written; counted before each is written
        self.read = 0  # answer lines read
        self.buffer = bytearray()  # read, not yet taken as a line
        #: A whole line read alone into an empty buffer, not yet taken (before the buffer).
        self.line: bytes | None = None
        self.scanned = 0  # no newline in buffer[:scanned]
        self.ended = False  # the end of the output was read
        self.extra: bytes | None = None
        self.last: dict[str, Any] | None = None  # the last request written
        # poll, not select: no limit on the descriptor's number (a program that embeds the
        # harness may hold more than a thousand files)
        self.poll = select.poll()
        self.poll.register(self.fd, select.POLLIN)

    def _fill(self, timeout: float | None) -> bool:
        """Read what the pipe holds, waiting at most ``timeout`` seconds (None: not at all)
        for something to come; False when nothing came in that time."""
        wait = 0 if timeout is None else max(0, math.ceil(timeout * 1000))
        if not self.poll.poll(wait):
            return False
        try:
            chunk = os.read(self.fd, READ_CHUNK)
        except OSError:
            chunk = b""
        if not chunk:
            self.ended = True
        elif self.line is None and not self.buffer and chunk.find(b"\n") == len(chunk) - 1:
            self.line = chunk  # one whole line, as a batch's answer comes: taken as it is
            return True
        self.buffer += chunk
        return True

    def _take(self) -> Any:
        """The next whole line of the buffer (its newline included), :data:`_TOO_LONG`, the
        rest of the output when it has ended without a newline, or None: not there yet."""
        line = self.line
        if line is not None:
            self.line = None
            return line
        at = self.buffer.find(b"\n", self.scanned)
        if at < 0:
            self.scanned = len(self.buffer)
            if len(self.buffer) > LINE_LIMIT:
                return _TOO_LONG
            if self.ended and self.buffer:
                line = bytes(self.buffer)
                self.buffer.clear()
                self.scanned = 0
                return line
            return None
        if at > LINE_LIMIT:
            return _TOO_LONG
        line = bytes(self.buffer[:at + 1])
        del self.buffer[:at + 1]
        self.scanned = 0
        return line

    def look_for_extra(self) -> None:
        """Before a request is counted, every one before it answered: a line already written
        is one nobody asked for."""
        if self.extra is not None or self.ended or self.read < self.asked:
            return
        self._fill(None)
        self._keep_extra()

    def _keep_extra(self) -> None:
        line = self._take()
        if isinstance(line, bytes):
            self.extra = line
        elif line is _TOO_LONG:  # a line nobody asked for, and too long to keep whole
            self.extra = bytes(self.buffer[:LINE_LIMIT])

    def answer(self, timeout: float) -> Any:
        """The answer line to the last request, :data:`_TOO_LONG`, :data:`_EXTRA` (a line
        came when none was asked for), :data:`_EOF`, or None: none within ``timeout``."""
        if self.extra is not None:
            return _EXTRA
        deadline = time.monotonic() + timeout
        while True:
            line = self._take()
            if line is not None:
                break
            if self.ended:
                return _EOF
            if not self._fill(deadline - time.monotonic()):
                return None
        if line is _TOO_LONG:
            return _TOO_LONG
        # A request is counted before it is written, so its answer never finds
        # ``read == asked``: only a line nobody asked for does.
        if self.read >= self.asked:
            self.extra = line
            return _EXTRA
        self.read += 1
        return line

    def drain(self, timeout: float) -> None:
        """Read the output to its end (the engine is stopped), within ``timeout`` seconds:
        answers still owed are taken as answers, and the first line nobody asked for is kept."""
        deadline = time.monotonic() + timeout
        while self.extra is None and not (self.ended and not self.buffer):
            line = self._take()
            if line is None:
                if self.ended or not self._fill(deadline - time.monotonic()):
                    return
            elif line is _TOO_LONG:
                return
            elif self.read < self.asked:
                self.read += 1
            else:
                self.extra = line


class Engine:
    """The other engine: a child process and a line reader with a timeout."""

    def __init__(self, argv: Sequence[str], timeout: float,
                 env: dict[str, str] | None = None) -> None:
        self.argv = list(argv)
        self.timeout = timeout
        self.env = env
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0
        #: The adapter declared the general requests (``"protocol": 2`` in its answer to
        #: ``new_game``); a process that has not said so gets its game's own requests.
        self.general = False
        #: The adapter declared ``batch`` (``"protocol": 3``): a step is asked in one line.
        self.batched = False
        #: The adapter declared ``view_changes`` (``"protocol": 4``): a batched game asks each
        #: view as what changed since the one before.
        self.changes = False
        #: Every view key an adapter declared (``view_keys``), over the run; None: none.
        self.view_keys: tuple[str, ...] | None = None
        #: Decisions and chance outcomes sent (probes included), over the run: the progress.
        self.decisions = 0
        #: The keeper's status pipe of a process :meth:`launch` started and nobody has
        #: waited for yet (-1: no keeper), else None.
        self._launched: int | None = None

    def ensure_started(self) -> None:
        if self._launched is not None:  # launch() started it: wait for the keeper's word
            self._finish_start(self._launched)
            return
        if self.process is not None and self.process.poll() is None:
            return
        self._finish_start(self._launch())

    def launch(self) -> None:
        """Start the process without waiting for it (:meth:`ensure_started` then waits): two
        engines launched one after the other start side by side."""
        if self._launched is None and (self.process is None or self.process.poll() is not None):
            self._launched = self._launch()

    def _launch(self) -> int:
        """Start the process (through the keeper where there is one); the keeper's status
        pipe, to read, or -1 without a keeper."""
        self.stop()
        env = None if self.env is None else {**os.environ, **self.env}
        argv = self.argv
        status = None
        if KEEPER:  # Linux: the keeper ends every descendant, even one that left the group
            status = os.pipe()
            argv = keeper.argv(status[1], self.argv)
        try:
            # Its own process group (session): stop() ends the adapter and whatever it started.
            self.process = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, start_new_session=True, env=env,
                pass_fds=() if status is None else (status[1],))
        except OSError as error:
            if status is not None:
                os.close(status[0])
                os.close(status[1])
            raise CannotStart(f"cannot start {self.argv[0]!r}: "
                              f"{error.strerror or error}") from None
        if status is None:
            return -1
        os.close(status[1])
        return status[0]

    def _finish_start(self, status: int) -> None:
        """Wait for the keeper's word on ``status`` (-1: no keeper), then set up the reading
        of the process's output and error."""
        self._launched = None
        assert self.process is not None
        if status >= 0:
            reason = keeper.started(status)
            if reason is not None:
                self.process.wait()
                self.process = None
                raise CannotStart(f"cannot start {self.argv[0]!r}: {reason}")
        self.starts += 1
        self.answers = 0  # answer lines read from this process
        self.general = self.batched = self.changes = False
        self._channel = _Channel(self.process.stdout)
        _widen(self.process.stdout)
        self._stderr = bytearray()
        self._stderr_done = threading.Event()
        with sigint_to_main_thread():
            threading.Thread(target=self._read_stderr,
                             args=(self.process.stderr, self._stderr, self._stderr_done),
                             daemon=True).start()

    @staticmethod
    def _read_stderr(stream: Any, tail: bytearray, done: threading.Event) -> None:
        """Keep the last :data:`STDERR_TAIL` bytes of what the engine writes on its standard
        error, read in chunks: memory stays flat whatever it writes."""
        try:
            fd = stream.fileno()
            while True:
                chunk = os.read(fd, STDERR_CHUNK)
                if not chunk:
                    break
                tail += chunk
                if len(tail) > STDERR_TAIL:
                    del tail[:len(tail) - STDERR_TAIL]
        except (OSError, ValueError):
            pass
        done.set()

    def stderr_tail(self) -> str:
        """The last lines of the engine's standard error; call after :meth:`stop`, which ends
        every process that could write there: the tail is then whole, however slow the
        reader thread was (waited for, within :data:`SETTLE_BOUND`)."""
        done = getattr(self, "_stderr_done", None)
        if done is not None:
            done.wait(SETTLE_BOUND)
        text = bytes(getattr(self, "_stderr", b"")).decode("utf-8", "replace")
        lines = [line.rstrip() for line in text.splitlines() if line.strip()]
        shown = " | ".join(lines[-3:]) if lines else ""
        return shown if len(shown) <= STDERR_SHOWN else "..." + shown[-STDERR_SHOWN:]

    def _fail(self, kind: str, message: str) -> EngineFailure:
        unstarted = (kind == "crash" and self.starts == 1 and self.answers == 0)
        self.stop()
        tail = self.stderr_tail()
        return EngineFailure(kind, message + (f"; its stderr ends: {tail}" if tail else ""),
                             unstarted)

    def _extra_failure(self, channel: _Channel) -> EngineFailure:
        """The protocol error of a line nobody asked for."""
        text = (channel.extra or b"").decode("utf-8", "replace").rstrip("\n")
        shown = text if len(text) <= 80 else text[:77] + "..."
        after = "" if channel.last is None else f", the last {_short(channel.last)}"
        failure = self._fail("protocol", "protocol error: the engine wrote a line nobody asked "
                                         f"for ({shown!r}) after answering every request sent "
                                         f"({channel.asked}{after}): it answered one twice, "
                                         "or wrote something else on its standard output")
        failure.request = channel.last
        return failure

    def request(self, message: dict[str, Any]) -> Any:
        """Send one request line and read one answer line."""
        return self.decode_line(message, self.request_line(message))

    def request_line(self, message: dict[str, Any],
                     meanwhile: Callable[[], Any] | None = None) -> bytes:
        """Send one request line and read one answer line, as the bytes written (its newline
        included); every failure but a line that is not JSON is raised here. ``meanwhile`` is
        called once the request is written, before the answer is waited for: the harness's
        own work overlaps the engine's."""
        self.write_request(message)
        if meanwhile is not None:
            meanwhile()
        return self.read_answer(message)

    def write_request(self, message: dict[str, Any], text: str | None = None) -> None:
        """Send one request line (:meth:`read_answer` reads its answer); ``text``: the
        message's JSON, written already."""
        self.write_requests((message,), None if text is None else (text,))

    def write_requests(self, messages: Sequence[dict[str, Any]],
                       texts: Sequence[str] | None = None) -> None:
        """Send several request lines in one write, their answers read in order by as many
        calls of :meth:`read_answer`: the engine answers one while the next is already there
        (the seeded-chance check asks a thousand). Written when every request before them is
        answered, lines that fit in a pipe's least capacity (:data:`AHEAD_BYTES`) go in at
        once, all or none: a process that cannot take them fails as before the first, as it
        would one request at a time."""
        interrupt.check()  # a Ctrl-C swallowed by a garbage-collector callback stops here
        assert self.process is not None and self.process.stdin is not None
        channel = self._channel
        channel.look_for_extra()
        if channel.extra is not None:
            raise self._extra_failure(channel)
        channel.asked += 1
        channel.last = messages[0]
        try:
            self.process.stdin.write("".join(
                text + "\n" for text in (texts if texts is not None else
                                         map(json.dumps, messages))).encode("utf-8"))
            self.process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            code = self.process.poll()
            raise self._fail("crash", f"the engine exited (code {code}) before "
                                      f"{_short(messages[0])}") from None
        channel.asked += len(messages) - 1
        channel.last = messages[-1]

    def read_answer(self, message: dict[str, Any], decisions: int | None = None) -> bytes:
        """The answer line to ``message``, the last request :meth:`write_request` sent;
        ``decisions``: the decisions it sends, counted already (a batch's)."""
        assert self.process is not None
        channel = self._channel
        line = channel.answer(self.timeout)
        if line is None:
            raise self._fail("hang", f"the engine did not answer {_short(message)} within "
                                     f"{self.timeout:g} s") from None
        if line is _EOF:
            try:
                code = self.process.wait(timeout=SETTLE_BOUND)
            except subprocess.TimeoutExpired:
                code = None
            raise self._fail("crash", f"the engine closed its output (exit code {code}) "
                                      f"instead of answering {_short(message)}")
        if line is _TOO_LONG:
            raise self._fail("protocol", f"protocol error: the engine answered {_short(message)} "
                                         f"with a line longer than {LINE_LIMIT} bytes")
        if line is _EXTRA:  # the answer came before the request: a line nobody asked for
            raise self._extra_failure(channel)
        self.counted(message, decisions)
        return line

    def counted(self, message: dict[str, Any], decisions: int | None = None) -> None:
        """Count the answer to ``message``: an answer, and the decisions it applied
        (``decisions``, when its sender counted them)."""
        self.answers += 1
        if decisions is not None:
            self.decisions += decisions
            return
        op = message.get("op")
        if op in DECISION_OPS:
            self.decisions += 1
        elif op == "batch":
            self.decisions += sum(r.get("op") in DECISION_OPS for r in message["requests"])

    def decode_line(self, message: dict[str, Any], line: bytes) -> Any:
        """The JSON value of the answer line to ``message``; a line that is not JSON fails."""
        from hanamikoji.oracle.core.validate import NotJSONError, decode

        try:
            return decode(line)
        except NotJSONError as error:
            text = line.decode("utf-8", "replace").strip()
            raise self._fail("garbage", f"the engine answered {_short(message)} with a line "
                                        f"that is not JSON ({error}): {text[:80]!r}") from None

    def settle(self) -> EngineFailure | None:
        """Stop the engine and read its output to the end: the protocol error of a line
        nobody asked for if it wrote one at any time (a request answered twice, or anything
        else), else None. Whether it did depends on what the engine wrote, not on when it was
        read: every line is read before the end of the output is."""
        channel = getattr(self, "_channel", None)
        self.stop()
        if channel is None:
            return None
        channel.drain(SETTLE_BOUND)
        if channel.extra is None:
            return None
        return self._extra_failure(channel)

    def close_input(self) -> None:
        """Close the process's standard input (the end of the requests: an adapter then
        ends), without waiting; :meth:`stop` waits."""
        process = self.process
        try:
            if process is not None and process.stdin:
                process.stdin.close()
        except OSError:
            pass

    def stop(self) -> None:
        """End the engine's process and every process it started: standard input closed,
        then SIGTERM, then SIGKILL. On Linux the keeper (:mod:`.keeper`) ends every
        descendant, even one that left the process group; elsewhere the group is ended."""
        if self._launched is not None:  # launched, never waited for
            if self._launched >= 0:
                os.close(self._launched)
            self._launched = None
        process, self.process = self.process, None
        if process is None:
            return
        try:
            if process.stdin:
                process.stdin.close()
        except OSError:
            pass
        try:
            _wait(process, 1)
        except subprocess.TimeoutExpired:
            # the keeper, and the adapter in its group: the keeper ends the others
            _signal_group(process.pid, signal.SIGTERM)
            try:
                # the keeper's own work is bounded (its grace, then SIGKILL); a generous wait
                process.wait(timeout=SETTLE_BOUND if KEEPER else 1)
            except subprocess.TimeoutExpired:
                _signal_group(process.pid, signal.SIGKILL)
                process.kill()
                process.wait()
        # The adapter is gone; what it started may not be: end its group in any case.
        if _signal_group(process.pid, signal.SIGTERM):
            deadline = time.monotonic() + 1
            while time.monotonic() < deadline and _signal_group(process.pid, 0):
                time.sleep(0.02)
            _signal_group(process.pid, signal.SIGKILL)


def _wait(process: subprocess.Popen[bytes], timeout: float) -> int:
    """``process.wait(timeout)``, woken the moment the process ends where Linux gives a
    descriptor for it (``os.pidfd_open``): ``Popen.wait`` with a timeout sleeps in growing
    steps (up to 50 ms) between looks, and diff stops three processes in a run."""
    if process.returncode is None and hasattr(os, "pidfd_open"):
        try:
            handle = os.pidfd_open(process.pid)
        except OSError:  # too old a kernel, or no such process: wait as Popen waits
            return process.wait(timeout=timeout)
        try:
            poller = select.poll()
            poller.register(handle, select.POLLIN)
            if not poller.poll(timeout * 1000):
                raise subprocess.TimeoutExpired(process.args, timeout)
        finally:
            os.close(handle)
    return process.wait(timeout=timeout)


#: The capacity asked for the pipe of the other engine's answers (Linux's default
#: ``pipe-max-size``; the default capacity is 64 KiB).
PIPE_BYTES = 1 << 20


def _widen(stream: Any) -> None:
    """Ask for a pipe of :data:`PIPE_BYTES` under ``stream`` (Linux's ``F_SETPIPE_SZ``): an
    answer line of a batch is then written in one go and read in one, not in turns of 64 KiB,
    each a wake-up of both processes. Where the system says no, the pipe stays as it is."""
    try:
        import fcntl

        fcntl.fcntl(stream.fileno(), fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    except (ImportError, AttributeError, OSError, ValueError):
        pass


def _short(message: dict[str, Any]) -> str:
    text = json.dumps(message)
    return text if len(text) <= 90 else text[:87] + "..."
