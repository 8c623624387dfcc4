"""Files and folders written safely, by every command that writes one (runtime/output.py):
a special file written straight, never replaced; a link followed; a file's mode and hard links
kept; ``-`` for standard output; a full disk one line and exit 2, nothing half-written; an
output folder swapped in whole, or left as it was."""

from __future__ import annotations

import errno
import importlib
import json
import os
import pathlib
import shutil
import stat
import subprocess
import sys
import textwrap
import threading

import pytest

from hanamikoji.engine.core import registry
from hanamikoji.cli.main import main
from hanamikoji.oracle.core.vectors import FILES

TESTS = pathlib.Path(__file__).resolve().parent
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

COMMAND = [sys.executable, "-m", "hanamikoji.engine"]
SIMULATE = ["simulate", "--games", "5", "--seed", "4"]


def run(*args: str, cwd: pathlib.Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*COMMAND, *args], capture_output=True, text=True, timeout=120,
                          cwd=cwd)


def one_line(done: subprocess.CompletedProcess | str) -> str:
    err = done if isinstance(done, str) else done.stderr
    assert err.count("\n") == 1 and "Traceback" not in err and "bug" not in err, err
    return err.rstrip("\n")


@pytest.fixture(scope="module")
def records(tmp_path_factory) -> str:
    """What ``simulate`` (:data:`SIMULATE`) writes to a new file."""
    path = tmp_path_factory.mktemp("reference") / "records.jsonl"
    assert run(*SIMULATE, "--records", str(path)).returncode == 0
    return path.read_text()


def leftovers(folder: pathlib.Path) -> list[str]:
    """Temporary files or folders of a write, left in ``folder``."""
    return sorted(p.name for p in folder.iterdir() if "hanamikoji" in p.name)


# --- special files: written straight, never replaced ------------------------------------------


def device(path: pathlib.Path, minor: int) -> pathlib.Path:
    """A character device node of the memory driver at ``path`` (3: null, 7: full)."""
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, minor))
    except (PermissionError, OSError) as error:
        pytest.skip(f"cannot make a device node here ({error.strerror}): needs root")
    return path


def test_a_device_node_is_written_to_not_replaced_by_a_plain_file(tmp_path):
    null = device(tmp_path / "null", 3)
    done = run(*SIMULATE, "--records", str(null))
    assert done.returncode == 0, done.stderr
    assert stat.S_ISCHR(null.stat().st_mode) and null.stat().st_rdev == os.makedev(1, 3)
    assert leftovers(tmp_path) == []


def full_device(tmp_path: pathlib.Path) -> pathlib.Path:
    """A device that answers every write with ENOSPC: a node of our own where we may make one;
    else /dev/full, but only when we are not root (a write that replaced it, as the code once
    did, would replace the machine's)."""
    try:
        os.mknod(tmp_path / "full", 0o666 | stat.S_IFCHR, os.makedev(1, 7))
        return tmp_path / "full"
    except (PermissionError, OSError):
        pass
    if os.geteuid() != 0 and os.path.exists("/dev/full"):
        return pathlib.Path("/dev/full")
    pytest.skip("no full device: cannot make a node, and /dev/full is not safe to try as root")


@pytest.mark.parametrize("argv", [SIMULATE + ["--records"], ["play", "--seed", "3", "--record"]])
def test_a_full_device_is_one_line_exit_2_and_stays_a_device(argv, tmp_path):
    full = full_device(tmp_path)
    done = run(*argv, str(full))
    assert done.returncode == 2
    assert one_line(done).endswith(f"error: no space left on device writing {full}")
    assert stat.S_ISCHR(full.stat().st_mode)


def _reader(fifo: pathlib.Path, into: list[bytes]) -> threading.Thread:
    """A thread that reads the FIFO to its end. The test holds a write end open too, so the
    reader sees the end only once the test lets go of it, whenever the command ran."""
    def read() -> None:
        with open(fifo, "rb") as handle:
            into.append(handle.read())
    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize("argv, kind", [(SIMULATE[:2] + ["200", "--records"], "records"),
                                        (["play", "--seed", "3", "--record"], "record")])
def test_a_fifo_gets_the_output_as_it_comes(argv, kind, tmp_path):
    """200 games are more than a pipe holds (64 KiB): the reader takes them while they come."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    thread = _reader(fifo, got)
    keeper = os.open(fifo, os.O_WRONLY)  # meets the reader's open: both go on
    try:
        done = run(*argv, str(fifo))
    finally:
        os.close(keeper)
    thread.join(timeout=60)
    assert done.returncode == 0, done.stderr
    assert stat.S_ISFIFO(fifo.lstat().st_mode), "the FIFO was replaced"
    expected = tmp_path / "expected"
    assert run(*argv, str(expected)).returncode == 0
    assert got == [expected.read_bytes()]
    if kind == "records":
        assert got[0].count(b"\n") == 200 and len(got[0]) > 65536


def test_a_symlink_is_followed_and_its_target_written_whole(tmp_path, records):
    """Through two links (one relative, into another folder): the links stay links, the target
    gets the records, and the temporary file was made beside the target, not the link."""
    (tmp_path / "data").mkdir()
    target = tmp_path / "data" / "records.jsonl"
    target.write_text("old\n")
    (tmp_path / "middle").symlink_to("data/records.jsonl")
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "middle")
    done = run(*SIMULATE, "--records", str(link))
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and (tmp_path / "middle").is_symlink()
    assert target.read_text() == records
    dangling = tmp_path / "dangling"
    dangling.symlink_to("data/new.jsonl")  # a link to a file not there yet: made, as open makes it
    assert run(*SIMULATE, "--records", str(dangling)).returncode == 0
    assert dangling.is_symlink() and (tmp_path / "data" / "new.jsonl").read_text() == records
    assert leftovers(tmp_path) == leftovers(tmp_path / "data") == []


def test_a_file_keeps_its_mode_and_its_hard_links(tmp_path, records):
    single = tmp_path / "single.jsonl"
    single.write_text("old\n")
    single.chmod(0o640)
    shared = tmp_path / "shared.jsonl"
    shared.write_text("old\n")
    shared.chmod(0o600)
    other = tmp_path / "other-name.jsonl"
    os.link(shared, other)
    for path in (single, shared):
        done = run(*SIMULATE, "--records", str(path))
        assert done.returncode == 0, done.stderr
        assert path.read_text() == records
    assert stat.S_IMODE(single.stat().st_mode) == 0o640
    assert stat.S_IMODE(shared.stat().st_mode) == 0o600
    assert os.path.samefile(shared, other) and shared.stat().st_nlink == 2
    assert other.read_text() == records
    assert leftovers(tmp_path) == []
    # a new file: the mode a plain open gives under the umask
    umask = os.umask(0o027)
    try:
        assert main([*SIMULATE, "--records", str(tmp_path / "new.jsonl")]) == 0
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "new.jsonl").stat().st_mode) == 0o640


@pytest.mark.parametrize("name", ["-", "descriptor-link"])
def test_records_go_to_standard_output_and_the_summary_to_stderr(name, tmp_path, records):
    """``-``, or a link to this process's descriptor 1 as ``/dev/stdout`` is (a link of our own:
    a write that replaced the link, as the code once did, would replace the machine's)."""
    if name != "-":
        (tmp_path / name).symlink_to("/proc/self/fd/1")
    done = run(*SIMULATE, "--records", name, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == records
    assert "5 games of hanamikoji" in done.stderr
    assert [p.name for p in tmp_path.iterdir()] == ([] if name == "-" else [name])
    assert name == "-" or (tmp_path / name).is_symlink()
    as_json = run(*SIMULATE, "--records", name, "--json", cwd=tmp_path)
    assert as_json.stdout == records and json.loads(as_json.stderr)["games"] == 5


def test_play_record_to_standard_output_shows_the_game_on_stderr(tmp_path):
    done = run("play", "--seed", "3", "--record", "-", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["format"] == "hanamikoji-record/1"
    assert "seed 3" in done.stderr and "Result:" in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_folder_output_refuses_standard_output(tmp_path):
    done = run("vectors", "--out", "-", cwd=tmp_path)
    assert done.returncode == 2 and "standard output" in one_line(done)
    assert list(tmp_path.iterdir()) == []


# --- a disk that cannot take the output: one line, exit 2, nothing half-written ----------------


@pytest.fixture
def tiny_filesystem(tmp_path):
    """A real file system of 1 MiB (tmpfs), where mounting one is permitted."""
    mount = tmp_path / "tiny"
    mount.mkdir()
    try:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)],
                              capture_output=True, text=True, timeout=30)
    except FileNotFoundError:
        pytest.skip("no mount command")
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], capture_output=True, timeout=30)


def fill(folder: pathlib.Path) -> None:
    """Take every free block of the file system of ``folder``."""
    handle = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(handle, b"x" * 4096)
    except OSError as error:
        assert error.errno == errno.ENOSPC
    finally:
        os.close(handle)


def test_a_full_file_system_is_one_line_exit_2_and_the_old_file_stays(tiny_filesystem):
    old = tiny_filesystem / "records.jsonl"
    old.write_text("old\n")
    fill(tiny_filesystem)
    done = run(*SIMULATE[:2], "300", "--records", str(old))
    assert done.returncode == 2
    assert one_line(done).endswith(f"error: no space left on device writing {old}")
    assert old.read_text() == "old\n"
    assert leftovers(tiny_filesystem) == []


def test_a_hard_linked_file_on_a_disk_too_small_for_a_second_copy_stays(tiny_filesystem):
    """Room for the staged output but not for it again in the file: the space is reserved in
    the file before its old contents are touched, so the old contents stay, on both names."""
    argv = [*SIMULATE[:2], "150", "--records"]  # some 150 KB, many pages of the file system
    reference = tiny_filesystem.parent / "reference.jsonl"
    assert run(*argv, str(reference)).returncode == 0
    records = reference.read_text()
    old = tiny_filesystem / "records.jsonl"
    old.write_text("old\n")
    os.link(old, tiny_filesystem / "second-name")
    needed = len(records.encode())
    stats = os.statvfs(tiny_filesystem)
    spare = stats.f_bavail * stats.f_frsize - needed * 3 // 2  # one copy and a half
    with open(tiny_filesystem / "filler", "wb") as handle:
        handle.write(b"x" * spare)
    done = run(*argv, str(old))
    assert done.returncode == 2
    assert one_line(done).endswith(f"error: no space left on device writing {old}")
    assert old.read_text() == "old\n" and os.path.samefile(old, tiny_filesystem / "second-name")
    assert leftovers(tiny_filesystem) == []
    os.unlink(tiny_filesystem / "filler")  # room again: both names see the new records
    assert run(*argv, str(old)).returncode == 0
    assert (tiny_filesystem / "second-name").read_text() == records


def test_a_full_file_system_leaves_the_old_vectors_folder(tiny_filesystem):
    folder = tiny_filesystem / "vectors"
    assert run("vectors", "--out", str(folder)).returncode == 0
    before = {name: (folder / name).read_bytes() for name in FILES}
    (folder / "records.json").write_bytes(b"{}")  # so a rewrite would show
    before["records.json"] = b"{}"
    fill(tiny_filesystem)
    done = run("vectors", "--out", str(folder))
    assert done.returncode == 2
    assert "error: no space left on device writing " + str(folder) in one_line(done)
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert leftovers(tiny_filesystem) == []


def failing_fsync(monkeypatch, code: int, after: int = 0) -> None:
    """``os.fsync`` fails with ``code`` from its ``after``-th call on: the moment a file system
    says the data cannot be kept (a full disk, a quota, a file system gone read-only)."""
    calls = []
    real = os.fsync

    def fsync(descriptor: int) -> None:
        calls.append(descriptor)
        if len(calls) > after and stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise OSError(code, os.strerror(code))
        real(descriptor)
    monkeypatch.setattr(os, "fsync", fsync)


@pytest.mark.parametrize("code, words", [(errno.ENOSPC, "no space left on device"),
                                         (errno.EDQUOT, "disk quota exceeded"),
                                         (errno.EROFS, "read-only file system"),
                                         (errno.EIO, "input/output error")])
def test_a_write_the_disk_refuses_is_one_line_exit_2_and_the_old_file_stays(
        code, words, tmp_path, monkeypatch, capsys):
    """Injected where the data is committed to the disk, so on any machine."""
    for name, links in (("one.jsonl", 1), ("linked.jsonl", 2)):
        old = tmp_path / name
        old.write_text("old\n")
        if links == 2:
            os.link(old, tmp_path / "second-name")
        failing_fsync(monkeypatch, code)
        assert main([*SIMULATE, "--records", str(old)]) == 2
        assert capsys.readouterr().err == f"hanamikoji simulate: error: {words} writing {old}\n"
        assert old.read_text() == "old\n"
        assert leftovers(tmp_path) == []


def test_an_unwritable_folder_is_one_line_exit_2(tmp_path):
    """A folder the user may not write into. Root may write anywhere (its capability to override
    file permissions), so as root (CI) the command runs without that capability (util-linux's
    setpriv drops it from the bounding set), as any user would."""
    prefix: list[str] = []
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("root writes into a read-only folder, and setpriv (util-linux) is missing")
        prefix = [setpriv, "--bounding-set=-dac_override,-dac_read_search"]
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        done = subprocess.run([*prefix, *COMMAND, *SIMULATE, "--records", str(folder / "r.jsonl")],
                              capture_output=True, text=True, timeout=120)
    finally:
        folder.chmod(0o755)
    assert done.returncode == 2 and one_line(done).endswith(
        f"error: permission denied writing {folder / 'r.jsonl'}")


# --- output folders: written aside, swapped in whole ------------------------------------------


def snapshot(folder: pathlib.Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def old_vectors(tmp_path: pathlib.Path) -> pathlib.Path:
    """A complete vectors folder of an earlier version (every file marked as old)."""
    folder = tmp_path / "vectors"
    folder.mkdir()
    for name in FILES:
        (folder / name).write_text(f'{{"old": "{name}"}}\n')
    return folder


def test_vectors_interrupted_midway_leave_the_old_folder_as_it_was(tmp_path, monkeypatch,
                                                                   capsys):
    from hanamikoji.oracle.core import vectors

    folder = old_vectors(tmp_path)
    before = snapshot(folder)
    rendered = []
    real = vectors.render

    def render(document):
        rendered.append(document)
        if len(rendered) == 3:
            raise KeyboardInterrupt  # Ctrl-C with two files of the four written
        return real(document)
    monkeypatch.setattr(vectors, "render", render)
    assert main(["vectors", "--out", str(folder)]) == 130
    assert snapshot(folder) == before
    assert leftovers(tmp_path) == []
    monkeypatch.setattr(vectors, "render", real)
    assert main(["vectors", "--out", str(folder)]) == 0
    assert sorted(snapshot(folder)) == sorted(FILES) and snapshot(folder) != before


def test_vectors_on_a_full_disk_midway_leave_the_old_folder(tmp_path, monkeypatch, capsys):
    folder = old_vectors(tmp_path)
    before = snapshot(folder)
    failing_fsync(monkeypatch, errno.ENOSPC, after=2)
    assert main(["vectors", "--out", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"hanamikoji vectors: error: no space left on device writing {folder}/")
    assert snapshot(folder) == before and leftovers(tmp_path) == []


def test_a_folder_with_files_the_command_did_not_write_is_refused_untouched(tmp_path, capsys):
    folder = old_vectors(tmp_path)
    (folder / "maiko").mkdir()
    (folder / "maiko" / "records.json").write_text("{}")
    (folder / "notes.txt").write_text("mine")
    before = snapshot(folder)
    assert main(["vectors", "--out", str(folder)]) == 2
    assert capsys.readouterr().err == (
        f"hanamikoji vectors: error: cannot replace {folder}: it holds maiko/ and 1 more, which "
        "hanamikoji vectors does not write (give a new or empty folder, or one vectors wrote)\n")
    assert snapshot(folder) == before and leftovers(tmp_path) == []


QUICK = textwrap.dedent('''
    """A test game with a one-query catalogue and a one-property sample, both instant."""
    from types import SimpleNamespace
    from typing import ClassVar

    from hanamikoji.spec.core.queries import Finding, Query
    from testgame.game import TestGame


    def yes(deadline):
        return Finding(answer=True)


    CATALOGUE = (Query("always", "Is it so?", "by hand", "outputquick:yes"),)
    QUERY_BUDGET_SECONDS = 10.0


    def run_sample(*, max_examples, seed):
        return [SimpleNamespace(name="holds", rules=("TG-SETUP-1",), passed=True,
                                examples=max_examples, seconds=0.0, message="")]


    class QuickGame(TestGame):
        name: ClassVar[str] = "outputquick"
        queries_module: ClassVar[str] = "outputquick"
        sample_module: ClassVar[str] = "outputquick"


    GAME = QuickGame()
''')


@pytest.fixture
def quick_game(tmp_path, monkeypatch):
    """A game whose verify is instant, registered in this process."""
    (tmp_path / "outputquick.py").write_text(QUICK)
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("outputquick", None)
    game = importlib.import_module("outputquick").GAME
    registry.register(game)
    try:
        yield game
    finally:
        registry.unregister(game.name)
        sys.modules.pop("outputquick", None)


def old_report(tmp_path: pathlib.Path) -> pathlib.Path:
    """The folder of an earlier ``verify --out`` of another game, with a witness file."""
    folder = tmp_path / "report"
    (folder / "witnesses").mkdir(parents=True)
    (folder / "witnesses" / "hanamikoji-marker-states.jsonl").write_text("{}\n")
    (folder / "report.json").write_text('{"old": true}\n')
    (folder / "report.md").write_text("old\n")
    return folder


def test_verify_out_replaces_the_whole_old_report(tmp_path, quick_game, capsys):
    """The witnesses of another game's older report do not stay beside the new report; the
    folder keeps its mode, and a link to it stays a link."""
    folder = old_report(tmp_path)
    folder.chmod(0o750)
    link = tmp_path / "link"
    link.symlink_to("report")
    assert main(["verify", "--game", "outputquick", "--out", str(link)]) == 0
    assert sorted(snapshot(folder)) == ["report.html", "report.json", "report.md"]
    assert json.loads((folder / "report.json").read_text())["ok"] is True
    assert link.is_symlink() and stat.S_IMODE(folder.stat().st_mode) == 0o750
    assert leftovers(tmp_path) == []


def test_verify_out_failing_midway_leaves_the_old_report(tmp_path, quick_game, monkeypatch,
                                                         capsys):
    folder = old_report(tmp_path)
    before = snapshot(folder)
    failing_fsync(monkeypatch, errno.ENOSPC, after=1)  # report.json written, report.md not
    assert main(["verify", "--game", "outputquick", "--out", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err == (f"hanamikoji verify: error: no space left on device writing "
                   f"{folder / 'report.md'}\n")
    assert snapshot(folder) == before and leftovers(tmp_path) == []


def test_simulate_interrupted_says_the_streamed_records_went_out(monkeypatch, capfd, tmp_path):
    """Ctrl-C after three games with --records -: standard output has had those three records
    (a stream cannot be taken back), and stderr says so rather than 'no records written'."""
    from hanamikoji.cli import commands

    real = commands.play_game

    def play_game(game, config, seed, index, *rest):
        if index == 3:
            raise KeyboardInterrupt
        return real(game, config, seed, index, *rest)
    monkeypatch.setattr(commands, "play_game", play_game)
    monkeypatch.chdir(tmp_path)
    assert main([*SIMULATE, "--records", "-"]) == 130
    out, err = capfd.readouterr()
    assert [json.loads(line)["format"] for line in out.splitlines()] == ["hanamikoji-record/1"] * 3
    assert ("interrupted after 3 of 5 games (the summary is of those; the records of those went "
            "to standard output)") in err
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_while_a_hard_linked_file_is_copied_in_waits_for_the_copy(tmp_path, monkeypatch,
                                                                         capsys, records):
    """A file of several names is rewritten in place; Ctrl-C in the middle of that copy takes
    effect once it is done, so the file is never left half old, half new."""
    import shutil
    import signal

    from hanamikoji.runtime import interrupt

    old = tmp_path / "records.jsonl"
    old.write_text("old\n" * 1000)
    os.link(old, tmp_path / "second-name")
    real = shutil.copyfileobj

    def copy(source, target, *rest):
        target.write(source.read(100))
        os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C, a tenth of a kilobyte into the copy
        real(source, target, *rest)
    monkeypatch.setattr(shutil, "copyfileobj", copy)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)  # the command takes it
    try:
        assert main([*SIMULATE, "--records", str(old)]) == 130
    finally:
        signal.signal(signal.SIGINT, before)
        monkeypatch.setattr(interrupt, "_pending", False)
    assert old.read_text() == records and os.path.samefile(old, tmp_path / "second-name")
    assert leftovers(tmp_path) == []
