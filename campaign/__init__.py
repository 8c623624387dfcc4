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
  worker lists the process groups it starts (``processes.group_started``: a tournament's command
  bots), and the main process ends those of a worker that died;
* :class:`Dask`: the workers of a Dask distributed scheduler (``--scheduler ADDRESS``, or the
  environment variable ``HANAMIKOJI_SCHEDULER``); the optional extra ``[dask]`` (``pip install '.[dask]'``).
  A worker that dies mid-shard loses nothing: the scheduler runs the shard again elsewhere.

With a store (``--resume DIR``), each finished shard is written to ``DIR/<name>.out`` through
:class:`hanamikoji.runtime.output.Folder` (whole or not at all, never through a link), a header line
naming the campaign and the shard before its blob, then its SHA-256 to ``DIR/<name>.sha256``
(the format of ``sha256sum``, so ``cd DIR && sha256sum -c *.sha256`` checks them). A rerun with
the same ``DIR`` takes every shard that checks whole (its digest, its header, the command's
check of its blob: :class:`Store`), and runs only the others. ``DIR/campaign.json`` says what
the campaign computes; a rerun that would compute something else is refused rather than mixed
with it, and so is a folder that holds a link, a FIFO or a device.

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

from hanamikoji.runtime.base import SCHEDULER_VARIABLE, UsageError, scheduler_address, shown  # noqa: F401 (both said here too)
from hanamikoji.runtime.processes import (end_groups, exit_on_term, list_groups_in,
                                          sigint_to_main_thread, sigint_unblocked)

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
    goes through in pieces, and a worker stopped by SIGTERM (Ctrl-C, ``processes.exit_on_term``)
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


#: The files a store keeps for a shard, after its name.
_SHARD_FILES = (".out", ".sha256")


class Store:
    """The shards of a campaign kept in a folder (``--resume DIR``).

    The store trusts nothing in the folder that it cannot check. It reads and writes only
    regular files it names itself, relative to the folder it opened once
    (:class:`hanamikoji.runtime.output.Folder`: never through a link, never waiting on a FIFO), and
    refuses at once a folder that holds a symbolic link, a FIFO, a device or a socket anywhere,
    or a folder where a shard's file or ``campaign.json`` goes. Each stored shard is
    ``NAME.out``: a header line, the campaign's description (``campaign.json``'s, with the
    toolkit's version) and the shard's name (which says its range), then the blob; and
    ``NAME.sha256``, the digest of the whole ``NAME.out`` in ``sha256sum``'s format, naming
    that file. A shard is taken only if all of it checks: the digest, the name in the digest
    file, the header (this campaign, this shard), and ``check(shard, blob)``, the command's
    own check of the blob (well formed, as many games or records as its range holds), which
    returns why it is not, or None. A shard that fails is run again, and one line on stderr
    says which and why."""

    def __init__(self, folder: str, description: dict[str, Any],
                 check: Callable[[Shard, str], str | None] | None = None) -> None:
        from hanamikoji import __version__
        from hanamikoji.runtime.output import Folder, OutputError

        self.check = check
        description = {**description, "version": __version__}
        self.command = str(description.get("command", "campaign"))
        self.description = description
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as error:
            raise UsageError(f"--resume {folder}: cannot make the folder: "
                             f"{error.strerror or error}") from None
        try:
            self.folder = Folder(folder)
        except OutputError as error:  # not a folder, or not one this user may open
            said = str(error).removeprefix(f"cannot write into {folder}: ")
            raise UsageError(f"--resume {folder}: {said}") from None
        self.path = folder
        self._refuse_strangers()
        text = json.dumps(description, sort_keys=True) + "\n"
        before = self._read("campaign.json")
        if before is not None and before != text.encode("utf-8"):
            raise UsageError(f"--resume {folder}: it holds the shards of another campaign "
                             f"({_differences(before, description)}); give a new folder")
        if before is None:
            self._write("campaign.json", text)

    def close(self) -> None:
        self.folder.close()

    def _refuse_strangers(self) -> None:
        """Refuse the folder, in one line naming what it holds, if it holds anything but
        regular files and folders, or a folder named as a file of the store."""
        import stat

        from hanamikoji.runtime.output import OutputError, kind

        try:
            for name, mode in sorted(self.folder.entries()):
                ours = name == "campaign.json" or name.endswith(_SHARD_FILES)
                if stat.S_ISREG(mode) or (stat.S_ISDIR(mode) and not ours):
                    continue
                raise UsageError(f"--resume {self.path}: {self.folder.named(name)} is "
                                 f"{kind(mode)}; a campaign's folder holds only the regular "
                                 "files it wrote (remove it, or give a new folder)")
        except OutputError as error:
            raise UsageError(f"--resume {self.path}: {error}") from None

    def _read(self, name: str, limit: int | None = None) -> bytes | None:
        from hanamikoji.runtime.output import OutputError

        try:
            return self.folder.read(name, limit)
        except OutputError as error:
            raise UsageError(f"--resume {self.path}: {error}") from None

    def _write(self, name: str, text: str) -> None:
        from hanamikoji.runtime.output import OutputError

        try:
            with self.folder.file(name) as out:
                out.write(text)
        except OutputError as error:
            raise UsageError(f"--resume {self.path}: {error}") from None

    def load(self, shard: Shard) -> str | None:
        """The blob of ``shard`` if it is stored and checks whole (see the class), else None;
        a stored shard that does not check is named on stderr, with why."""
        data = self._read(shard.name + ".out")
        if data is None:
            return None
        blob, problem = self._checked(shard, data)
        if problem is not None:
            import sys

            print(f"hanamikoji {self.command}: note: --resume {self.path}: shard {shard.name} "
                  f"runs again: {problem}", file=sys.stderr)
            return None
        return blob

    def _checked(self, shard: Shard, data: bytes) -> tuple[str | None, str | None]:
        """The blob stored as ``data`` for ``shard`` and None, or None and why it is not
        taken."""
        listed = self._read(shard.name + ".sha256", 4096)  # a line of some 150 bytes
        if listed is None:
            return None, f"{shard.name}.sha256 is missing"
        expected = hashlib.sha256(data).hexdigest()
        if listed != f"{expected}  {shard.name}.out\n".encode("ascii"):
            said = listed.split(b" ", 1)
            if len(said) == 2 and said[1].strip() not in (b"", f"{shard.name}.out".encode()):
                other = json.dumps(said[1].strip().decode("utf-8", "replace")[:80])
                return None, f"{shard.name}.sha256 is the digest of another file, {other}"
            return None, "its digest does not match"
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return None, "it is not UTF-8 text"
        head, newline, blob = text.partition("\n")
        if not newline or head != self._header(shard):
            return None, _misnamed(head, shard.name)
        if self.check is not None:
            try:
                problem = self.check(shard, blob)
            except (ValueError, KeyError, TypeError, IndexError, AttributeError,
                    RecursionError) as error:
                problem = f"it is not a shard's output ({type(error).__name__})"
            if problem is not None:
                return None, problem
        return blob, None

    def _header(self, shard: Shard) -> str:
        """The first line of ``shard``'s file: which campaign and which shard it is."""
        return json.dumps({"campaign": self.description, "shard": shard.name}, sort_keys=True)

    def save(self, shard: Shard, blob: str) -> None:
        """Store ``blob`` as ``shard``'s: the header and the blob first, then their digest,
        each whole."""
        text = self._header(shard) + "\n" + blob
        self._write(shard.name + ".out", text)
        self._write(shard.name + ".sha256", f"{digest(text)}  {shard.name}.out\n")


def _misnamed(head: str, name: str) -> str:
    """Why the first line ``head`` of a stored shard is not the header of shard ``name`` of
    this campaign, in words."""
    try:
        said = json.loads(head)
    except ValueError:
        said = None
    if not isinstance(said, dict) or "campaign" not in said or "shard" not in said:
        return "it has no shard header (another format, or not a shard)"
    if said["shard"] != name:
        return f"it holds shard {json.dumps(str(said['shard'])[:80])}"
    return "its header is of another campaign"


def _differences(before: bytes, description: dict[str, Any]) -> str:
    """What the stored campaign ``before`` (its ``campaign.json``) has that ``description``
    has not, in words: ``seed 1, not 2``."""
    try:
        stored = json.loads(before)
    except ValueError:
        return "its campaign.json is not this toolkit's"
    if not isinstance(stored, dict):
        return "its campaign.json is not this toolkit's"
    if "version" not in stored:
        return ("its shards were made by an earlier version of the toolkit, whose shards do "
                "not say which they are")
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
    SIGTERM (``processes.exit_on_term``). ``started``: a queue told this worker's process id, so
    that the main process can stop it. ``environ``, ``path``: the environment variables and
    ``sys.path`` of the main process now (a fork server keeps those it started with, perhaps
    long before, and a shard's adapter is started with the worker's environment).
    ``groups``: the folder where this worker lists the process groups it runs
    (``processes.group_started``)."""
    import signal
    import sys

    if groups is not None:
        list_groups_in(groups)
    if environ is not None:
        os.environ.clear()
        os.environ.update(environ)
    if path is not None:
        sys.path[:] = path
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):  # a closed terminal: the main process answers it, as Ctrl-C
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, exit_on_term)
    sigint_unblocked()  # started within sigint_to_main_thread: its children take Ctrl-C as usual
    if started is not None:
        started.put(os.getpid())


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
        """The folder where each worker lists the process groups it runs
        (``processes.group_started``)."""
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
        """Stop the workers of ``executor`` at once (a SIGTERM each: ``processes.exit_on_term``)."""
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
            end_groups(self.groups)  # those of a worker that died

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
            end_groups(self.groups)
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
        if store is not None:
            store.close()


def blobs(shards: Iterable[tuple[Shard, str]]) -> Iterator[str]:
    """The blobs alone, in order."""
    for _, blob in shards:
        yield blob
