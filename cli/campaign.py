"""Campaigns: a long run cut into shards, run anywhere, merged into the same bytes.

A campaign is a sequence of :class:`Shard` values. A shard names its slice of the work (a seed
range, ``seeds-000000000200-000000000299``, or a slice of an input file) and the task that does
it: a function, named ``"module:function"`` so it travels to another process or machine by
name, that returns the shard's output as text (its *blob*). A task depends only on its
arguments, never on where or when it runs, so a shard's blob is the same on any worker.

:func:`run` hands the shards to a :class:`Backend` and gives the blobs back **in shard order**,
whatever order the shards finish in: the merged output (the caller writes the blobs one after
another) is byte-identical for any number of workers and any backend. At most ``window`` shards
are out at a time, so memory does not grow with the campaign.

Backends:

* :class:`Serial`: in this process, one shard after another (``--workers 1``);
* :class:`Local`: worker processes of this machine (``--workers N``), a
  ``concurrent.futures`` process pool started from a fork server: a worker that ends
  mid-shard is noticed and its shards run again, and Ctrl-C stops the workers at once (each
  tells the main process its id); no further dependency (joblib/loky) is needed for that. A
  worker lists the process groups it starts (:func:`group_started`: a tournament's command
  bots), and the main process ends those of a worker that died;
* :class:`Dask`: the workers of a Dask distributed scheduler (``--scheduler ADDRESS``, or the
  environment variable ``HANAMIKOJI_SCHEDULER``); the optional extra ``[dask]`` (``pip install '.[dask]'``).
  A worker that dies mid-shard loses nothing: the scheduler runs the shard again elsewhere.

With a store (``--resume DIR``), each finished shard is written to ``DIR/<name>.out`` through
:mod:`hanamikoji.cli.output` (whole or not at all), then its SHA-256 to ``DIR/<name>.sha256``
(the format of ``sha256sum``, so ``cd DIR && sha256sum -c *.sha256`` checks them). A rerun with
the same ``DIR`` takes every shard whose blob is there and matches its digest, and runs only
the others. ``DIR/campaign.json`` says what the campaign computes; a rerun that would compute
something else is refused rather than mixed with it.

Ctrl-C stops the campaign: the shards finished by then are stored (with a store), the workers
are stopped, and :class:`KeyboardInterrupt` reaches the command, which says "interrupted".
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import re
from collections import deque
from typing import Any, Callable, Generator, Iterable, Iterator, Protocol

import attrs

from hanamikoji.cli.base import SCHEDULER_VARIABLE, UsageError, scheduler_address, shown  # noqa: F401 (both said here too)
from hanamikoji.engine.core.deferred import sigint_to_main_thread, sigint_unblocked

#: The environment variable that names a Dask scheduler when ``--scheduler`` is not given.


@attrs.frozen
class Shard:
    """One unit of work: ``name`` (unique in its campaign, a file name), the task that computes
    its blob (``"module:function"``) and the task's arguments (picklable values)."""

    name: str
    task: str
    args: tuple[Any, ...] = ()


def seed_range_name(first: int, count: int, unit: str = "seeds") -> str:
    """The name of the shard of games ``first .. first + count - 1``; names sort as the ranges.

    >>> seed_range_name(200, 100)
    'seeds-000000000200-000000000299'
    >>> seed_range_name(50, 50, "games")
    'games-000000000050-000000000099'
    """
    return f"{unit}-{first:012d}-{first + count - 1:012d}"


def seed_shards(task: str, total: int, size: int, args: tuple[Any, ...],
                unit: str = "seeds") -> Iterator[Shard]:
    """The shards of games ``0 .. total - 1``, ``size`` games each (the last may be shorter),
    made one at a time (``total`` may be larger than any list): each calls
    ``task(*args, first, count)``, and is named by :func:`seed_range_name` (``unit``: "seeds"
    for simulate's games of a seed, "games" for diff's and a tournament's)."""
    for first in range(0, total, size):
        count = min(size, total - first)
        yield Shard(seed_range_name(first, count, unit), task, args + (first, count))


def run_shard(shard: Shard) -> str:
    """The blob of ``shard``: its task called with its arguments (on any worker)."""
    module, _, function = shard.task.partition(":")
    return getattr(importlib.import_module(module), function)(*shard.args)


_written = 0  # the blobs this process has written (:func:`run_shard_to_file`)


def run_shard_to_file(shard: Shard, folder: str) -> tuple[str, str]:
    """In a worker of :class:`Local`: the blob of ``shard``, written to a file of ``folder``,
    and ``("file", its path)``. So only a message of a few bytes goes back through the pool's
    pipe, which a pipe takes whole (up to ``PIPE_BUF`` bytes): a blob of a hundred kilobytes
    goes through in pieces, and a worker stopped by SIGTERM (Ctrl-C, :func:`_exit_on_term`)
    between two of them left the pool's reader waiting for ever for the rest, and the command
    with it (1 Ctrl-C in 20 on a loaded machine). A blob that cannot be written (a full disk)
    comes back itself, ``("blob", blob)``."""
    global _written
    blob = run_shard(shard)
    _written += 1
    path = os.path.join(folder, f"{os.getpid()}-{_written}.blob")
    try:
        with open(path, "w", encoding="utf-8") as file:
            file.write(blob)
    except OSError:
        return ("blob", blob)
    return ("file", path)


def digest(blob: str) -> str:
    """The SHA-256 of a blob's UTF-8 bytes, in hex."""
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


# --- the store --------------------------------------------------------------------------------


class Store:
    """The shards of a campaign kept in a folder (``--resume DIR``)."""

    def __init__(self, folder: str, description: dict[str, Any]) -> None:
        self.folder = folder
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as error:
            raise UsageError(f"--resume {folder}: cannot make the folder: "
                             f"{error.strerror or error}") from None
        if not os.path.isdir(folder):
            raise UsageError(f"--resume {folder}: it is not a folder")
        manifest = os.path.join(folder, "campaign.json")
        text = json.dumps(description, sort_keys=True) + "\n"
        try:
            with open(manifest, encoding="utf-8") as file:
                before = file.read()
        except FileNotFoundError:
            before = None
        except OSError as error:
            raise UsageError(f"--resume {folder}: cannot read {manifest}: "
                             f"{error.strerror or error}") from None
        if before is not None and before != text:
            raise UsageError(f"--resume {folder}: it holds the shards of another campaign "
                             f"({_differences(before, description)}); give a new folder")
        if before is None:
            self._write("campaign.json", text)

    def _write(self, name: str, text: str) -> None:
        # Imported here: the output module brings tempfile and random, which a plain
        # validate (whose handler is a campaign's) does not need.
        from hanamikoji.cli.output import OutputError, output_file

        try:
            with output_file(os.path.join(self.folder, name)) as out:
                out.write(text)
        except OutputError as error:
            raise UsageError(f"--resume {self.folder}: {error}") from None

    def load(self, shard: Shard) -> str | None:
        """The blob of ``shard`` if it is stored whole (its digest matches), else None."""
        base = os.path.join(self.folder, shard.name)
        try:
            with open(base + ".sha256", encoding="utf-8") as file:
                expected = file.read().split(" ", 1)[0]
            with open(base + ".out", encoding="utf-8", newline="") as file:
                blob = file.read()
        except (OSError, UnicodeDecodeError):
            return None
        return blob if digest(blob) == expected else None

    def save(self, shard: Shard, blob: str) -> None:
        """Store ``blob`` as ``shard``'s: the blob first, then its digest, each whole."""
        self._write(shard.name + ".out", blob)
        self._write(shard.name + ".sha256", f"{digest(blob)}  {shard.name}.out\n")


def _differences(before: str, description: dict[str, Any]) -> str:
    """What the stored campaign ``before`` (its ``campaign.json``) has that ``description``
    has not, in words: ``seed 1, not 2``."""
    try:
        stored = json.loads(before)
    except ValueError:
        return "its campaign.json is not this toolkit's"
    if not isinstance(stored, dict):
        return "its campaign.json is not this toolkit's"
    now = json.loads(json.dumps(description))
    keys = sorted(set(stored) | set(now))
    return ", ".join(f"{key} {json.dumps(stored.get(key))}, not {json.dumps(now.get(key))}"
                     for key in keys if stored.get(key) != now.get(key))


# --- backends ---------------------------------------------------------------------------------


class Pending(Protocol):
    """A shard handed to a backend."""

    def done(self) -> bool: ...

    def result(self) -> str: ...


class Backend(Protocol):
    """Where shards run: ``submit`` returns at once; ``close`` (idempotent) stops the workers,
    at once when ``interrupted``."""

    workers: int

    def submit(self, shard: Shard) -> Pending: ...

    def close(self, interrupted: bool = False) -> None: ...


class _Ready:
    def __init__(self, blob: str) -> None:
        self.blob = blob

    def done(self) -> bool:
        return True

    def result(self) -> str:
        return self.blob


class Serial:
    """Every shard in this process, when it is submitted."""

    workers = 1

    def submit(self, shard: Shard) -> Pending:
        return _Ready(run_shard(shard))

    def close(self, interrupted: bool = False) -> None:
        pass


def ignore_interrupts(started: Any = None, environ: dict[str, str] | None = None,
                      path: list[str] | None = None, groups: str | None = None) -> None:
    """A worker process's initializer: Ctrl-C reaches the whole process group, and only the
    main process answers it (it stops the workers and keeps what finished). The stop is a
    SIGTERM (:func:`_exit_on_term`). ``started``: a queue told this worker's process id, so
    that the main process can stop it. ``environ``, ``path``: the environment variables and
    ``sys.path`` of the main process now (a fork server keeps those it started with, perhaps
    long before, and a shard's adapter is started with the worker's environment).
    ``groups``: the folder where this worker lists the process groups it runs
    (:func:`group_started`)."""
    import signal
    import sys

    global _groups_file
    if groups is not None:
        _groups_file = os.path.join(groups, str(os.getpid()))
    if environ is not None:
        os.environ.clear()
        os.environ.update(environ)
    if path is not None:
        sys.path[:] = path
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):  # a closed terminal: the main process answers it, as Ctrl-C
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _exit_on_term)
    sigint_unblocked()  # started within sigint_to_main_thread: its children take Ctrl-C as usual
    if started is not None:
        started.put(os.getpid())


def _exit_on_term(signum: int, frame: Any) -> None:
    """A worker's SIGTERM: stop the processes this worker started (a diff shard's adapters run
    in sessions of their own, which no Ctrl-C reaches), then end at once. Never an exception:
    raised between the acquire of a lock of the pool's queues and the block that releases it,
    or caught by the shard's code, it would leave the worker running, or waiting for ever on
    a lock it holds itself, and the pool waiting for the worker."""
    import signal

    for child in _children():
        try:
            os.killpg(child, signal.SIGTERM)  # its session's group (start_new_session)
        except OSError:
            try:
                os.kill(child, signal.SIGTERM)
            except OSError:
                pass
    os._exit(128 + signum)


#: In a worker of :class:`Local`: the file that lists the process groups this worker started
#: and has not ended (None elsewhere: a process that ends its own groups, or a Dask worker).
_groups_file: str | None = None
_groups: set[int] = set()


def group_started(pgid: int) -> None:
    """Say that this process started the process group ``pgid`` (a session of its own: a
    tournament's command bot), so that if it is a worker and dies before it ends the group
    (killed, out of memory: no :func:`_exit_on_term`), the main process ends the group. The
    list is a file rewritten whole, which a killed worker leaves as it was. Nothing outside a
    worker of :class:`Local`."""
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


def _end_groups(folder: str) -> None:
    """End every process group the workers listed in ``folder`` and did not end: those of a
    worker that died. Called once the workers have ended (a worker stopped by SIGTERM ends its
    own, :func:`_exit_on_term`). A group is a bot's keeper and the bot: a SIGTERM, which the
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
    alive = [pgid for pgid in pgids if _signal_group(pgid, signal.SIGTERM)]
    deadline = time.monotonic() + GROUP_BOUND
    while alive and time.monotonic() < deadline:
        time.sleep(0.01)
        alive = [pgid for pgid in alive if _signal_group(pgid, 0)]
    for pgid in alive:
        _signal_group(pgid, signal.SIGKILL)


#: Seconds a bot's keeper has to end its bot's processes once told to (it kills them at once).
GROUP_BOUND = 10.0


def _signal_group(pgid: int, signum: int) -> bool:
    """Send ``signum`` to the process group ``pgid``; False if it has no process left."""
    try:
        os.killpg(pgid, signum)
    except ProcessLookupError:
        return False
    except OSError:
        pass
    return True


def _children() -> list[int]:
    """The process ids of this process's children (Linux's /proc; none where it is not)."""
    out: list[int] = []
    try:
        for thread in os.listdir(f"/proc/{os.getpid()}/task"):
            with open(f"/proc/{os.getpid()}/task/{thread}/children") as file:
                out.extend(int(word) for word in file.read().split())
    except (OSError, ValueError):
        pass
    return out


def _context(preload: Iterable[str] = ()) -> Any:
    """How worker processes start: from a fork server, a clean single-threaded process that
    imported this module and ``preload`` (the module of the campaign's task) once, so a worker
    starts at once with them, never forked from this process. A fork copies every lock as it
    is at that instant, and a lock another thread of this process held (Dask's client, a
    progress bar, the pool's own threads, which fork a new worker when one ends) stays held in
    the child for ever: its worker hangs, and the campaign waits on it. ``spawn`` where there
    is no fork server (not POSIX)."""
    import multiprocessing

    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        # Taken when the fork server starts: at the first pool of this process.
        context.set_forkserver_preload([__name__, *preload])
        return context
    return multiprocessing.get_context("spawn")


class WorkersLost(RuntimeError):
    """Worker processes ended (killed, or the interpreter crashed) while running shards, more
    often than :data:`Local.RESTARTS` times."""


class Local:
    """``workers`` processes of this machine: a :class:`concurrent.futures.ProcessPoolExecutor`
    whose workers start by :func:`_context`. Unlike ``multiprocessing.Pool``, which replaces a
    worker that dies and waits for ever for the shard it held, the executor notices a worker
    that ends; then the shards not finished are handed to new workers, as a Dask scheduler
    does (a shard depends only on its arguments, so running it again gives the same blob)."""

    #: How many times the workers are started again after one ended mid-campaign.
    RESTARTS = 3

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.context: Any = None
        self.executor: Any = None
        self.restarts = 0
        self.out: list[_LocalPending] = []
        self.closed = False
        #: The campaign's temporary folder, made with the first workers (see :attr:`groups`
        #: and :attr:`blobs`); removed on close.
        self.folder: str | None = None

    @property
    def groups(self) -> str | None:
        """The folder where each worker lists the process groups it runs (:func:`group_started`)."""
        return None if self.folder is None else os.path.join(self.folder, "groups")

    @property
    def blobs(self) -> str | None:
        """The folder of the shards' output files (:func:`run_shard_to_file`)."""
        return None if self.folder is None else os.path.join(self.folder, "blobs")

    def _start(self) -> None:
        import sys
        import tempfile
        from concurrent.futures import ProcessPoolExecutor

        if self.folder is None:
            self.folder = tempfile.mkdtemp(prefix="campaign-")
            os.mkdir(os.path.join(self.folder, "groups"))
            os.mkdir(os.path.join(self.folder, "blobs"))
        self.started = self.context.SimpleQueue()
        self.pids: set[int] = set()
        self.executor = ProcessPoolExecutor(self.workers, mp_context=self.context,
                                            initializer=ignore_interrupts,
                                            initargs=(self.started, dict(os.environ),
                                                      list(sys.path), self.groups))

    def submit(self, shard: Shard) -> Pending:
        if self.executor is None:  # started with the first shard, which names the task
            self.context = _context([shard.task.partition(":")[0]])
            self._start()
        pending = _LocalPending(self, shard)
        self.out.append(pending)
        return pending

    def lost(self, broken: Any) -> None:
        """A worker ended: start new workers and hand them every shard not finished (once for
        all the shards that saw the same broken executor)."""
        if broken is not self.executor:
            return  # already started again by another shard's wait
        self.restarts += 1
        if self.restarts > self.RESTARTS:
            raise WorkersLost(f"worker processes ended {self.restarts} times while running "
                              "shards (killed, or out of memory?); run again with --resume "
                              "DIR to keep the shards that finish")
        self._stop(broken)
        self._start()
        for pending in self.out:
            if pending.executor is broken:
                pending.resubmit()

    def _stop(self, executor: Any) -> None:
        """Stop the workers of ``executor`` at once (a SIGTERM each: :func:`_exit_on_term`)."""
        import signal

        while not self.started.empty():
            self.pids.add(self.started.get())
        for pid in self.pids:
            try:
                os.kill(pid, signal.SIGTERM)
            except OSError:  # already ended
                pass
        # The executor sees its workers end, fails what they held, and its thread ends.
        executor.shutdown(wait=True, cancel_futures=True)
        if self.groups is not None:
            _end_groups(self.groups)  # those of a worker that died

    def close(self, interrupted: bool = False) -> None:
        if self.closed:
            return
        self.closed = True
        if self.executor is None:
            return  # no shard was handed out
        if interrupted:
            self._stop(self.executor)
        else:
            self.executor.shutdown(wait=True)
        self.started.close()
        import shutil

        if self.groups is not None:
            _end_groups(self.groups)
        if self.folder is not None:  # with the blobs of shards stopped, or never taken back
            shutil.rmtree(self.folder, ignore_errors=True)


class _LocalPending:
    def __init__(self, backend: Local, shard: Shard) -> None:
        self.backend = backend
        self.shard = shard
        self.resubmit()

    def resubmit(self) -> None:
        self.executor = self.backend.executor
        # The executor starts its manager thread and its workers on a submit
        with sigint_to_main_thread():
            self.future = self.executor.submit(run_shard_to_file, self.shard, self.backend.blobs)

    def done(self) -> bool:
        """Finished with its blob (a shard whose worker ended is not done: it runs again)."""
        return (self.future.done() and not self.future.cancelled()
                and self.future.exception() is None)

    def result(self) -> str:
        from concurrent.futures.process import BrokenProcessPool

        while True:
            try:
                kind, value = self.future.result()
            except BrokenProcessPool:
                self.backend.lost(self.executor)
                continue
            self.backend.out.remove(self)
            if kind == "blob":
                return str(value)
            with open(value, encoding="utf-8") as file:
                blob = file.read()
            os.remove(value)
            return blob


#: Seconds to reach a Dask scheduler (``--scheduler-timeout``) by default.
SCHEDULER_TIMEOUT = 10.0

#: A scheduler's address as this toolkit takes it: ``tcp://HOST:PORT``, the scheme and the port
#: optional (Dask's own defaults: tcp, 8786), HOST a name, an IPv4 address or a bracketed IPv6
#: one.
_ADDRESS = re.compile(r"(?:tcp://)?"
                      r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)"
                      r"(?::(?P<port>[0-9]{1,5}))?")
_EXPECTED = "expected the address 'dask scheduler' prints, such as tcp://10.0.0.5:8786"


def check_address(address: str) -> str:
    """``address`` if it is one this toolkit connects to (:data:`_ADDRESS`), else a
    :class:`UsageError` that says why. Dask takes more (``inproc://``, ``ucx://``, ``tls://``),
    but none of those a command can use as given: an ``inproc`` scheduler lives in another
    process's memory, ``ucx`` needs UCX-Py, ``tls`` certificates no option passes; and what Dask
    cannot read it reports late, with a traceback from the client's destructor."""
    found = _ADDRESS.fullmatch(address)
    if found is None:
        scheme, sep, _ = address.partition("://")
        why = (f"the scheme {scheme}:// is not one this toolkit connects by (tcp://)"
               if sep and scheme != "tcp" else "not an address")
        raise UsageError(f"--scheduler {shown(address)}: {why}; {_EXPECTED}")
    port = found.group("port")
    if port is not None and not 1 <= int(port) <= 65535:
        raise UsageError(f"--scheduler {shown(address)}: the port must be from 1 to 65535, "
                         f"not {port}; {_EXPECTED}")
    return address


def probe(address: str, seconds: float) -> str:
    """What answers at ``address`` (a Dask server says its type: ``Scheduler``, ``Worker``),
    asked with Dask's own protocol and a deadline of ``seconds`` for the whole exchange: Dask's
    client waits without end for the first message of a server that accepts a connection and
    never speaks the protocol. An OSError or TimeoutError (caught by the caller) when no Dask
    server answers in time, or what answers does not say what it is."""
    import asyncio

    from distributed.comm import connect

    async def ask() -> str:
        comm = await connect(address, timeout=seconds)
        try:
            await comm.write({"op": "identity", "reply": True})
            answer = await comm.read()
        finally:
            comm.abort()
        kind = answer.get("type") if isinstance(answer, dict) else None
        if not isinstance(kind, str):
            raise TimeoutError("what answers there is not a Dask server")
        return kind

    async def bounded() -> str:
        return await asyncio.wait_for(ask(), seconds)

    return asyncio.run(bounded())


class Dask:
    """The workers of the Dask scheduler at ``address`` (``tcp://host:8786``), or of a
    ``distributed.Client`` given as ``client`` (then left open on close). The address is
    checked (:func:`check_address`) and asked what it is (:func:`probe`) before a client is
    made, each within ``timeout`` seconds; a client that fails to start is closed, so that
    nothing is printed later by its destructor."""

    def __init__(self, address: str | None = None, client: Any = None,
                 timeout: float = SCHEDULER_TIMEOUT) -> None:
        try:
            import distributed
        except ImportError:
            raise UsageError("--scheduler needs Dask distributed, which is not installed: "
                             "pip install '.[dask]' in a clone of this toolkit") from None
        self.own = client is None
        if client is None:
            assert address is not None
            client = _client(distributed, check_address(address), timeout)
        self.client = client
        self.workers = max(1, len(client.scheduler_info().get("workers", {})))
        self.futures: list[Any] = []
        self.closed = False
        import uuid

        self.token = uuid.uuid4().hex

    def submit(self, shard: Shard) -> Pending:
        # pure=False with a key of this run: a shard is never taken from another run's cache
        future = self.client.submit(run_shard, shard, key=f"campaign-{shard.name}-{self.token}",
                                    pure=False, retries=3)
        self.futures.append(future)
        return _DaskFuture(future)

    def close(self, interrupted: bool = False) -> None:
        if self.closed:
            return
        self.closed = True
        pending = [f for f in self.futures if not f.done()]
        if pending:
            self.client.cancel(pending)
        self.futures.clear()
        if self.own:
            self.client.close()


class _DaskFuture:
    def __init__(self, future: Any) -> None:
        self.future = future

    def done(self) -> bool:
        return bool(self.future.done())

    def result(self) -> str:
        return str(self.future.result())


def _client(distributed: Any, address: str, timeout: float) -> Any:
    """A ``distributed.Client`` of the scheduler at ``address``, or a :class:`UsageError`
    within about ``timeout`` seconds (twice: the probe, then the client's own connection)."""
    def unreachable(why: str) -> UsageError:
        return UsageError(f"--scheduler {shown(address)}: cannot reach a Dask scheduler there "
                          f"within {timeout:g} s ({why}); {_EXPECTED}, and see "
                          "--scheduler-timeout")

    try:
        kind = probe(address, timeout)
    except (OSError, TimeoutError) as error:
        raise unreachable(_first_line(error) or "no answer") from None
    except Exception as error:  # Dask's own errors for what it cannot read
        raise unreachable(f"{type(error).__name__}: {_first_line(error)}") from None
    if kind != "Scheduler":
        raise UsageError(f"--scheduler {shown(address)}: a Dask {kind.lower()} answers there, "
                         f"not a scheduler; {_EXPECTED}")
    # Made in two steps, so that a client whose start fails can be closed: its destructor
    # would otherwise try to close it some 20 s later and print a traceback.
    client = distributed.Client.__new__(distributed.Client)
    try:
        with sigint_to_main_thread():  # the client's event-loop thread
            client.__init__(address, timeout=f"{timeout}s", set_as_default=False)
    except Exception as error:
        _close_quietly(client, timeout)
        raise unreachable(f"{type(error).__name__}: {_first_line(error)}") from None
    except BaseException:
        _close_quietly(client, timeout)
        raise
    return client


def _close_quietly(client: Any, timeout: float) -> None:
    """Close a client that failed to start, whatever Dask raises meanwhile; then its
    destructor has nothing left to do."""
    try:
        client.close(timeout=timeout)
    except BaseException:
        pass
    client.status = "closed"


def _first_line(error: BaseException) -> str:
    text = str(error)
    return text.splitlines()[0] if text else ""


def backend_for(workers: int, scheduler: str | None = None,
                timeout: float | None = None) -> Backend:
    """The backend a command's ``--workers``, ``--scheduler`` and ``--scheduler-timeout``
    ask for."""
    address = scheduler_address(scheduler)
    if address is not None:
        return Dask(address, timeout=SCHEDULER_TIMEOUT if timeout is None else timeout)
    return Serial() if workers <= 1 else Local(workers)


# --- running a campaign -----------------------------------------------------------------------


def run(shards: Iterable[Shard], backend: Backend, store: Store | None = None, *,
        window: int | None = None,
        finished: Callable[[Shard, str], None] | None = None
        ) -> Generator[tuple[Shard, str], None, None]:
    """``(shard, blob)`` for every shard, in the order of ``shards``, each computed once by
    ``backend`` (or taken from ``store``; a new one is saved there as soon as it is received).
    ``window``: how many shards may be out at once (default: four per worker). ``finished``
    is called with each shard as it is received, in whatever order they finish.

    On KeyboardInterrupt (or any exception) the shards already finished are saved to the store
    and the backend's workers are stopped at once before the exception goes on."""
    window = window or 4 * max(1, backend.workers)
    out: deque[tuple[Shard, Pending | None, str | None]] = deque()
    todo = iter(shards)
    interrupted = False

    def receive(shard: Shard, blob: str) -> None:
        if store is not None:
            store.save(shard, blob)
        if finished is not None:
            finished(shard, blob)

    def fill() -> None:
        while len(out) < window:
            shard = next(todo, None)
            if shard is None:
                return
            blob = store.load(shard) if store is not None else None
            if blob is not None:
                out.append((shard, None, blob))
            else:
                out.append((shard, backend.submit(shard), None))

    try:
        fill()
        while out:
            shard, pending, blob = out.popleft()
            if blob is None:
                assert pending is not None
                blob = pending.result()
                receive(shard, blob)
                # received later shards that finished first, so an interrupt keeps them
                for index, (later, waiting, kept) in enumerate(out):
                    if kept is None and waiting is not None and waiting.done():
                        text = waiting.result()
                        receive(later, text)
                        out[index] = (later, None, text)
            yield shard, blob
            fill()
    except BaseException as error:
        # Ctrl-C, a failure, or a reader that stopped before the end: the workers are stopped
        # at once. A reader that closes the campaign once it has every shard stops nothing:
        # the workers are idle and end as after the last shard.
        interrupted = bool(out) or not isinstance(error, GeneratorExit)
        if store is not None:
            for shard, waiting, kept in out:
                if kept is None and waiting is not None and waiting.done():
                    try:
                        store.save(shard, waiting.result())
                    except BaseException:  # a shard that failed is simply not kept
                        pass
        raise
    finally:
        backend.close(interrupted=interrupted)


def blobs(shards: Iterable[tuple[Shard, str]]) -> Iterator[str]:
    """The blobs alone, in order."""
    for _, blob in shards:
        yield blob
