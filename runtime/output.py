"""Every file and folder a command writes goes through here: written whole or not at all, and
never at the cost of what was at the path.

A single output file (``play --record``, ``simulate --records``) is, by what its path names:

* ``-``: standard output, written straight;
* a new path or a regular file: written to a temporary file in the same folder, flushed to disk
  (``fsync``) and renamed over the path when complete, so a failure or an interrupt leaves the
  old file as it was and no temporary file behind. An existing file keeps its mode (and, where
  permitted, its owner); a new one gets the mode ``open`` gives (``0666`` less the umask);
* a symbolic link: followed to its target (through any number of links), and the target is
  written as above; the link stays a link;
* a regular file with several hard links: rewritten in place, as the shell's ``>`` would, so
  that every name still sees the same file (a rename would give this name a new file and leave
  the others with the old one). The output is first written whole to a temporary file beside
  it, then the space it needs is reserved in the file (``posix_fallocate``) before the old
  contents are touched: a failure or an interrupt while the command runs, or a disk that
  cannot hold it, leaves the old contents; Ctrl-C during the final copy takes effect after it,
  and only an I/O error there could leave the file cut short;
* a FIFO, a character device, or a descriptor of this process named through ``/dev/fd``,
  ``/dev/stdout`` or ``/proc/self/fd``: written straight (a reader of a FIFO sees the records as
  they come);
* a folder, a block device or a socket: refused.

An output folder (``verify --out``, ``vectors --out``) is written whole to a new folder beside
it (``.NAME.….hanamikoji-new``) and swapped in only when complete: the old folder is renamed
aside, the new one renamed in, the old one removed. A failure or an interrupt leaves the old
folder exactly as it was, and nothing of an earlier run survives in the new one. A folder is
replaced only if everything in it is a file the command writes (its own earlier output);
anything else in it (a file of the user's, a subfolder, a link) is refused in one line, the
folder untouched.

A file the command names itself inside a folder (a campaign's ``--resume DIR``, ``diff --save
DIR``, the page ``view`` writes beside its records) is written by :class:`Folder`: the folder is
opened once and every file is made, read and renamed relative to it, never through a link. What
is already at such a name must be a regular file: a symbolic link, a FIFO, a device, a socket
or a folder there is refused in one line, never followed, opened for writing, or waited on.

A failure is :class:`OutputError`: one line, such as ``no space left on device writing
out.jsonl``, that the command line prints with exit code 2.
"""

from __future__ import annotations

import errno
import fnmatch
import io
import os
import pathlib
import re
import shutil
import stat
import sys
import tempfile
from contextlib import contextmanager
from typing import IO, Any, Collection, Iterator

from hanamikoji.runtime.processes import sigint_deferred

#: The path that names standard output.
STDOUT = "-"

#: How many symbolic links a path may go through (Linux's own limit).
MAX_LINKS = 40


class OutputError(Exception):
    """A file or folder that cannot be written: one line that names it and says why."""


def reason(error: OSError) -> str:
    """The system's reason for ``error``, as a phrase (``no space left on device``)."""
    text = error.strerror or errno.errorcode.get(error.errno or 0, "") or str(error)
    return text[:1].lower() + text[1:]


def shown(path: str) -> str:
    """``path`` as messages name it."""
    return "standard output" if path == STDOUT else path


class _Raw(io.FileIO):
    """A file whose failed writes say which output failed, and why, in one line (a write error
    surfaces wherever the buffer happens to be flushed, far from the command's own code)."""

    def __init__(self, descriptor: int, *, name: str, closefd: bool = True) -> None:
        super().__init__(descriptor, "w", closefd=closefd)
        self.shown = name

    def write(self, data: Any) -> int:
        try:
            return super().write(data)
        except BrokenPipeError:
            raise  # the reader went away: the command line's concern, not a write failure
        except OSError as error:
            raise OutputError(f"{reason(error)} writing {self.shown}") from None


def _text(raw: _Raw) -> IO[str]:
    return io.TextIOWrapper(io.BufferedWriter(raw), encoding="utf-8", newline="\n")


def _fail(error: OSError, path: str) -> OutputError:
    return OutputError(f"{reason(error)} writing {shown(path)}")


# --- where a path leads -------------------------------------------------------------------


_DESCRIPTORS = re.compile(r"/proc/(?:[^/]+/)*fd")

#: What :func:`resolve` says of a descriptor link of another process.
ANOTHER_PROCESS = -1


def resolve(path: str) -> tuple[str, int | None]:
    """The path ``path`` leads to once every symbolic link is followed, and, when it goes through
    a descriptor link (``/dev/stdout``, ``/dev/fd/N``, ``/proc/self/fd/N``), the descriptor
    (:data:`ANOTHER_PROCESS` for another process's): such a link names an open file, not a
    place, so it is written through, never renamed over."""
    current = os.path.abspath(path)
    own = os.path.realpath(f"/proc/{os.getpid()}/fd")
    for _ in range(MAX_LINKS + 1):
        folder = os.path.realpath(os.path.dirname(current))
        current = os.path.join(folder, os.path.basename(current))
        if _DESCRIPTORS.fullmatch(folder):
            number = os.path.basename(current)
            mine = folder == own and number.isdigit()
            return current, int(number) if mine else ANOTHER_PROCESS
        try:
            target = os.readlink(current)
        except OSError:  # not a link (or not there): the end of the chain
            return current, None
        current = os.path.join(folder, target)
    raise OutputError(f"cannot write {path}: too many levels of symbolic links")


def is_stdout(path: str) -> bool:
    """Whether ``path`` names this process's standard output (``-``, ``/dev/stdout``,
    ``/dev/fd/1``): a command then prints what it would print there on stderr instead."""
    if path == STDOUT:
        return True
    try:
        return resolve(path)[1] == sys.stdout.fileno()
    except (OutputError, OSError, ValueError):
        return False


def streams(path: str) -> bool:
    """Whether :func:`output_file` writes ``path`` straight, as the output comes (standard
    output, a FIFO, a character device, a descriptor), rather than whole or not at all."""
    if path == STDOUT:
        return True
    try:
        target, descriptor = resolve(path)
        return descriptor is not None or not stat.S_ISREG(os.stat(target).st_mode)
    except (OSError, OutputError):
        return False


# --- one file -------------------------------------------------------------------------------


@contextmanager
def output_file(path: str) -> Iterator[IO[str]]:
    """A text file (UTF-8, ``\\n`` line ends) to write the output ``path`` names into, written
    as the module docstring says by what is at ``path``; :class:`OutputError` if it cannot be."""
    if path == STDOUT:
        sys.stdout.flush()
        with _straight(os.dup(sys.stdout.fileno()), STDOUT) as out:
            yield out
        return
    target, descriptor = resolve(path)
    if descriptor is not None and descriptor != ANOTHER_PROCESS:
        try:
            duplicate = os.dup(descriptor)
        except OSError as error:
            raise _fail(error, path) from None
        with _straight(duplicate, path) as out:
            yield out
        return
    try:
        status: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        status = None
    except OSError as error:
        raise _fail(error, path) from None
    if descriptor is None and (status is None or stat.S_ISREG(status.st_mode)):
        if status is not None and status.st_nlink > 1:
            with _in_place(target, path, status) as out:
                yield out
        else:
            with _atomic(target, path, status) as out:
                yield out
    elif status is not None and stat.S_ISDIR(status.st_mode):
        raise OutputError(f"cannot write {path}: it is a directory")
    elif status is None or stat.S_ISBLK(status.st_mode) or stat.S_ISSOCK(status.st_mode):
        kind = ("not an open file" if status is None else
                "a block device" if stat.S_ISBLK(status.st_mode) else "a socket")
        raise OutputError(f"cannot write {path}: it is {kind} (give a file, a FIFO, a character "
                          "device, or - for standard output)")
    else:  # a FIFO, a character device, another process's descriptor
        try:
            # A FIFO waits here for its reader, as a shell's redirection does.
            opened = os.open(target, os.O_WRONLY | os.O_TRUNC | os.O_CLOEXEC)
        except OSError as error:
            raise _fail(error, path) from None
        with _straight(opened, path) as out:
            yield out


@contextmanager
def _straight(descriptor: int, path: str) -> Iterator[IO[str]]:
    """Write straight to an open descriptor (closed afterwards; it is ours, a duplicate if need
    be)."""
    out = _text(_Raw(descriptor, name=shown(path)))
    try:
        yield out
        out.flush()
    finally:
        try:
            out.close()
        except (OSError, OutputError):
            pass  # the failure that brought us here is the one to report


def _new_mode(*, folder: bool = False) -> int:
    """The mode ``open`` (or ``mkdir``) gives a new file (folder): ``0666`` (``0777``) less the
    umask."""
    umask = os.umask(0)
    os.umask(umask)
    return (0o777 if folder else 0o666) & ~umask


@contextmanager
def _staged(target: str, path: str) -> Iterator[tuple[IO[str], str, int]]:
    """A temporary file beside ``target``: the open text file, its name and its descriptor; it
    is removed if the block fails (the caller removes or renames it on success)."""
    directory = os.path.dirname(target)
    if not os.path.isdir(directory):
        named = (os.path.dirname(path) or "." if os.path.abspath(path) == target else directory)
        raise OutputError(f"cannot write {path}: no such directory {named}")
    try:
        handle, temporary = tempfile.mkstemp(dir=directory, prefix=".hanamikoji-", suffix=".tmp")
    except OSError as error:
        raise _fail(error, path) from None
    out = _text(_Raw(handle, name=path))
    try:
        yield out, temporary, handle
    except BaseException:
        try:
            out.close()
        except (OSError, OutputError):
            pass
        os.unlink(temporary)
        raise


def _finish(out: IO[str], handle: int, path: str) -> None:
    """Flush ``out`` to the disk, then close it."""
    out.flush()
    try:
        os.fsync(handle)
    except OSError as error:
        raise _fail(error, path) from None
    out.close()


def _sync_folder(directory: str) -> None:
    """Make a rename in ``directory`` durable (best effort: not every file system can)."""
    try:
        descriptor = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


@contextmanager
def _atomic(target: str, path: str, status: os.stat_result | None) -> Iterator[IO[str]]:
    """A new file or a file of one name: a temporary file renamed over ``target`` when
    complete, with the old file's mode and owner (a new file's mode as ``open`` gives it)."""
    with _staged(target, path) as (out, temporary, handle):
        try:
            if status is None:
                os.chmod(temporary, _new_mode())
            else:
                mine = (os.getuid(), os.getgid()) if hasattr(os, "getuid") else None
                if mine is not None and (status.st_uid, status.st_gid) != mine:
                    try:  # before the mode: a change of owner clears set-user-ID bits
                        os.chown(temporary, status.st_uid, status.st_gid)
                    except PermissionError:
                        pass  # only root may give a file away; the mode is kept still
                os.chmod(temporary, stat.S_IMODE(status.st_mode))
        except OSError as error:
            raise _fail(error, path) from None
        yield out
        _finish(out, handle, path)
        try:
            os.replace(temporary, target)
        except OSError as error:
            raise _fail(error, path) from None
    _sync_folder(os.path.dirname(target))


@contextmanager
def _in_place(target: str, path: str, status: os.stat_result) -> Iterator[IO[str]]:
    """A file of several hard links: the output staged whole beside it, then its space reserved
    in the file, then copied over the old contents (every link sees the new contents)."""
    with _staged(target, path) as (out, temporary, handle):
        yield out
        _finish(out, handle, path)
        try:
            size = os.stat(temporary).st_size
            with sigint_deferred(), open(target, "r+b") as file, open(temporary, "rb") as staged:
                if hasattr(os, "posix_fallocate") and size > status.st_size:
                    try:
                        os.posix_fallocate(file.fileno(), 0, size)
                    except OSError as error:
                        if error.errno not in (errno.EOPNOTSUPP, errno.EINVAL, errno.ENOSYS):
                            file.truncate(status.st_size)  # as it was: nothing written
                            raise
                shutil.copyfileobj(staged, file)
                file.truncate(size)
                file.flush()
                os.fsync(file.fileno())
        except OSError as error:
            raise _fail(error, path) from None
        os.unlink(temporary)


# --- a folder -------------------------------------------------------------------------------


class OutputFolder:
    """The new contents of an output folder, as they are written (in a folder beside it)."""

    def __init__(self, path: str, staging: str) -> None:
        self.path = path
        self.staging = staging

    @contextmanager
    def file(self, relative: str) -> Iterator[IO[str]]:
        """A text file at ``relative`` in the folder (its folders made as needed)."""
        where = os.path.join(self.path, relative)
        full = os.path.join(self.staging, relative)
        try:
            os.makedirs(os.path.dirname(full), exist_ok=True)
            handle = os.open(full, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC
                             | getattr(os, "O_NOFOLLOW", 0), 0o666)  # a new file, never a link's
        except OSError as error:
            raise _fail(error, where) from None
        out = _text(_Raw(handle, name=where))
        try:
            yield out
            _finish(out, handle, where)
        finally:
            if not out.closed:
                try:
                    out.close()
                except (OSError, OutputError):
                    pass


def foreign(folder: str, ours: Collection[str]) -> list[str]:
    """What is in ``folder`` that matches none of the patterns ``ours`` (``fnmatch`` patterns of
    paths relative to the folder; a folder's pattern ends with ``/``): the relative paths, a
    folder's with ``/``, sorted; what is in a foreign folder is not listed. A link or a special
    file is never ours."""
    found: list[str] = []

    def visit(relative: str) -> None:
        for name in sorted(os.listdir(os.path.join(folder, relative))):
            inner = f"{relative}{name}"
            mode = os.lstat(os.path.join(folder, inner)).st_mode
            if stat.S_ISDIR(mode):
                inner += "/"
            if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)) or not any(
                    fnmatch.fnmatchcase(inner, pattern) for pattern in ours):
                found.append(inner)
            elif stat.S_ISDIR(mode):
                visit(inner)

    visit("")
    return found


@contextmanager
def output_folder(path: str, *, ours: Collection[str], command: str) -> Iterator[OutputFolder]:
    """The output folder ``path``, written whole beside it and swapped in when the block ends
    without error (see the module docstring); ``ours``: the patterns of what ``command`` writes
    there (:func:`foreign`)."""
    if path == STDOUT:
        raise OutputError("cannot write a folder of files to standard output (-); give a folder "
                          "(./- for one named -)")
    target, descriptor = resolve(path)
    if descriptor is not None:
        raise OutputError(f"cannot write into {path}: it is not a directory")
    target = os.path.normpath(target)
    old: os.stat_result | None
    try:
        old = os.stat(target)
    except FileNotFoundError:
        old = None
    except OSError as error:
        raise _fail(error, path) from None
    if old is not None:
        if not stat.S_ISDIR(old.st_mode):
            raise OutputError(f"cannot write into {path}: it is not a directory")
        here = os.path.realpath(os.getcwd())
        if here == target or here.startswith(target.rstrip(os.sep) + os.sep):
            raise OutputError(f"cannot replace {path}: it is (or holds) the current folder; "
                              "give another folder")
        try:
            stray = foreign(target, ours)
        except OSError as error:
            raise _fail(error, path) from None
        if stray:
            more = f" and {len(stray) - 1} more" if len(stray) > 1 else ""
            raise OutputError(f"cannot replace {path}: it holds {stray[0]}{more}, which "
                              f"hanamikoji {command} does not write (give a new or empty folder, "
                              f"or one {command} wrote)")
    parent, name = os.path.split(target)
    try:
        os.makedirs(parent, exist_ok=True)
        staging = tempfile.mkdtemp(dir=parent, prefix=f".{name}.", suffix=".hanamikoji-new")
        # mkdtemp's folder is 0700: give it the old folder's mode, or a new folder's
        os.chmod(staging, stat.S_IMODE(old.st_mode) if old is not None else _new_mode(folder=True))
    except OSError as error:
        raise _fail(error, path) from None
    try:
        yield OutputFolder(path, staging)
        _sync_folder(staging)
        _swap(staging, target, path, old is not None)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    _sync_folder(parent)


def _swap(staging: str, target: str, path: str, replacing: bool) -> None:
    """Rename ``staging`` to ``target``: the old folder aside first, back if the rename fails,
    removed once the new one is in."""
    parent, name = os.path.split(target)
    if not replacing:
        try:
            os.rename(staging, target)
        except OSError as error:
            raise _fail(error, path) from None
        return
    try:
        aside = tempfile.mkdtemp(dir=parent, prefix=f".{name}.", suffix=".hanamikoji-old")
        os.rename(target, aside)  # over the empty folder just made: a name nobody else has
    except OSError as error:
        raise _fail(error, path) from None
    try:
        os.rename(staging, target)
    except BaseException as error:
        os.rename(aside, target)
        if isinstance(error, OSError):
            raise _fail(error, path) from None
        raise
    shutil.rmtree(aside, ignore_errors=True)
    if os.path.lexists(aside):
        print(f"hanamikoji: note: the old {path} is left at {aside}: it could not be removed",
              file=sys.stderr)


# --- files the command names inside a folder ----------------------------------------------


def kind(mode: int) -> str:
    """What a file of ``mode`` (an ``lstat``'s) is, in words: ``a symbolic link``."""
    for test, words in ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a FIFO"),
                        (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                        (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder")):
        if test(mode):
            return words
    return "a regular file" if stat.S_ISREG(mode) else "a special file"


#: How a file of a :class:`Folder` is opened to be read: never through a link at its name
#: (ELOOP), never waiting for a FIFO's writer.
_READ = os.O_RDONLY | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)


class Folder:
    """A folder whose files the command names itself (``--resume DIR``, ``diff --save DIR``):
    opened once, its files made, read and renamed relative to that open folder (``dir_fd``),
    never through a link. A name may hold nothing yet or a regular file; anything else there
    (a symbolic link, a FIFO, a device, a socket, a folder) is refused with
    :class:`OutputError`, one line naming it. A link planted after the check is not followed
    either: a new file is renamed over the name, which replaces the link itself, and a file is
    read with ``O_NOFOLLOW``. So nothing outside the folder is ever written, and nothing there
    is waited on. ``shown``: the folder as messages name it; ``make``: make it (and its
    parents) if it is not there."""

    def __init__(self, path: str, *, shown: str | None = None, make: bool = False) -> None:
        self.path = path
        self.shown = path if shown is None else shown
        try:
            if make:
                os.makedirs(path, exist_ok=True)
            self.descriptor = os.open(path, os.O_RDONLY | os.O_CLOEXEC
                                      | getattr(os, "O_DIRECTORY", 0))
        except OSError as error:
            if error.errno == errno.ENOTDIR:
                raise OutputError(f"cannot write into {self.shown}: it is not a folder") from None
            raise OutputError(f"cannot write into {self.shown}: {reason(error)}") from None

    def close(self) -> None:
        if self.descriptor >= 0:
            os.close(self.descriptor)
            self.descriptor = -1

    def __enter__(self) -> "Folder":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def named(self, name: str) -> str:
        """The file ``name`` of the folder, as messages name it."""
        return name if self.shown in ("", os.curdir) else os.path.join(self.shown, name)

    def status(self, name: str) -> os.stat_result | None:
        """What is at ``name`` (not followed if it is a link), or None if nothing is."""
        try:
            return os.stat(name, dir_fd=self.descriptor, follow_symlinks=False)
        except FileNotFoundError:
            return None
        except OSError as error:
            raise OutputError(f"cannot read {self.named(name)}: {reason(error)}") from None

    def refuse(self, name: str, mode: int) -> OutputError:
        return OutputError(f"{self.named(name)} is {kind(mode)}: only a regular file is "
                           "read or written there, never followed or replaced")

    def check(self, name: str) -> os.stat_result | None:
        """What is at ``name`` (None: nothing yet) if the folder may write a file there; else
        :class:`OutputError` (a link, a FIFO, a device, a socket, a folder, or not a name of a
        file of this folder), so that a command writing several files can ask before the
        first."""
        if os.sep in name or name in (os.curdir, os.pardir, ""):
            raise OutputError(f"cannot write {self.named(name)}: not a file name of {self.shown}")
        old = self.status(name)
        if old is not None and not stat.S_ISREG(old.st_mode):
            raise self.refuse(name, old.st_mode)
        return old

    def entries(self) -> Iterator[tuple[str, int]]:
        """Each name in the folder and its ``lstat`` mode (a link's own)."""
        try:
            with os.scandir(self.descriptor) as found:
                for entry in found:
                    yield entry.name, entry.stat(follow_symlinks=False).st_mode
        except OSError as error:
            raise OutputError(f"cannot read {self.shown}: {reason(error)}") from None

    def read(self, name: str, limit: int | None = None) -> bytes | None:
        """The bytes of the regular file ``name`` (at most ``limit``), or None if there is
        nothing there; :class:`OutputError` if it is anything but a regular file."""
        before = self.status(name)
        if before is None:
            return None
        if not stat.S_ISREG(before.st_mode):
            raise self.refuse(name, before.st_mode)
        try:
            handle = os.open(name, _READ, dir_fd=self.descriptor)
        except FileNotFoundError:
            return None
        except OSError as error:
            if error.errno == errno.ELOOP:  # made a link since the check
                raise self.refuse(name, stat.S_IFLNK) from None
            raise OutputError(f"cannot read {self.named(name)}: {reason(error)}") from None
        with os.fdopen(handle, "rb") as file:
            mode = os.fstat(handle).st_mode
            if not stat.S_ISREG(mode):  # swapped for a FIFO or a device since the check
                raise self.refuse(name, mode)
            try:
                return file.read() if limit is None else file.read(limit)
            except OSError as error:
                raise OutputError(f"cannot read {self.named(name)}: {reason(error)}") from None

    @contextmanager
    def file(self, name: str) -> Iterator[IO[str]]:
        """A text file written whole to a new file of the folder and renamed over ``name`` when
        complete (an existing regular file keeps its mode); refused if ``name`` holds anything
        but a regular file."""
        where = self.named(name)
        old = self.check(name)
        temporary, handle = self._new_file(where)
        out = _text(_Raw(handle, name=where))
        try:
            if old is not None:
                os.fchmod(handle, stat.S_IMODE(old.st_mode))
            yield out
            _finish(out, handle, where)
            os.replace(temporary, name, src_dir_fd=self.descriptor, dst_dir_fd=self.descriptor)
        except BaseException as error:
            try:
                out.close()
            except (OSError, OutputError):
                pass
            try:
                os.unlink(temporary, dir_fd=self.descriptor)
            except OSError:
                pass
            if isinstance(error, OSError) and not isinstance(error, BrokenPipeError):
                raise _fail(error, where) from None
            raise
        try:
            os.fsync(self.descriptor)
        except OSError:
            pass  # best effort: not every file system can

    def _new_file(self, where: str) -> tuple[str, int]:
        """A new temporary file of the folder (``.hanamikoji-….tmp``), made with ``O_EXCL``:
        its name and its descriptor."""
        import secrets

        flags = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC
                 | getattr(os, "O_NOFOLLOW", 0))
        while True:
            temporary = f".hanamikoji-{secrets.token_hex(6)}.tmp"
            try:
                return temporary, os.open(temporary, flags, 0o666, dir_fd=self.descriptor)
            except FileExistsError:
                continue
            except OSError as error:
                raise _fail(error, where) from None
def write_text(path: pathlib.Path, text: str, make_dir: bool = False, *,
               in_folder: bool = False) -> None:
    """``text`` into ``path`` as every output of the command is written
    (:func:`output_file`: at once for a file, straight into a device); ``make_dir``:
    create its folder first (a usage error naming it when that fails). ``in_folder``: the
    command named the file itself, in a folder (``diff --save DIR``, the page beside the
    records): then it is written only as a regular file of that folder, never through a link
    planted at its name, nor into a FIFO or a device there (:class:`Folder`)."""
    from hanamikoji.runtime.base import UsageError

    if in_folder:
        with Folder(str(path.parent), make=make_dir) as folder, folder.file(path.name) as out:
            out.write(text)
        return
    if make_dir:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise UsageError(f"cannot write {path}: {error.strerror or error}") from None
    with output_file(str(path)) as out:
        out.write(text)
