"""Files a command writes into a folder (runtime/output.py) are never written through a link planted
there, and a FIFO there is never waited on: ``diff --save DIR``, the page ``view`` names beside
its records, ``vectors --out DIR`` and ``verify --out DIR`` (one writer, ``output_folder``), and
:class:`hanamikoji.runtime.output.Folder`, which a campaign's ``--resume`` folder uses too."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from hanamikoji.runtime import output as O
from hanamikoji.cli.main import main

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    """A file outside the folder, which no command here may change."""
    path = tmp_path / "victim.txt"
    path.write_text("precious\n")
    return path


def _planted(folder: Path, name: str, victim: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    link = folder / name
    link.symlink_to(victim)
    return link


# --- Folder -----------------------------------------------------------------------------------


def test_a_folder_file_is_written_whole_and_a_link_at_its_name_is_refused(tmp_path, victim):
    folder = tmp_path / "out"
    with O.Folder(str(folder), make=True) as where:
        with where.file("a.txt") as out:
            out.write("one\n")
        assert where.read("a.txt") == b"one\n" and where.read("missing") is None
        _planted(folder, "b.txt", victim)
        with pytest.raises(O.OutputError) as error, where.file("b.txt") as out:
            out.write("overwritten\n")
        assert str(error.value) == (f"{folder}/b.txt is a symbolic link: only a regular file is "
                                    "read or written there, never followed or replaced")
        with pytest.raises(O.OutputError, match="b.txt is a symbolic link"):
            where.read("b.txt")
    assert victim.read_text() == "precious\n"
    assert sorted(p.name for p in folder.iterdir()) == ["a.txt", "b.txt"]  # no temporary left


def test_a_link_planted_after_the_check_is_replaced_not_followed(tmp_path, victim, monkeypatch):
    """Between the look at the name and the rename, a link put there is replaced by the new
    file (a rename replaces the name, never what a link there points to)."""
    folder = tmp_path / "out"
    with O.Folder(str(folder), make=True) as where:
        monkeypatch.setattr(O.Folder, "status", lambda self, name: None)  # as if not there yet
        with where.file("b.txt") as out:
            out.write("new\n")
            _planted(folder, "b.txt", victim)
    assert victim.read_text() == "precious\n"
    assert not (folder / "b.txt").is_symlink() and (folder / "b.txt").read_text() == "new\n"


def test_a_fifo_in_a_folder_is_refused_never_opened(tmp_path):
    """Read or written, a FIFO at a name is refused at once; a regression that opened it would
    wait for ever, so the check runs in a process of its own with a bound."""
    folder = tmp_path / "out"
    folder.mkdir()
    os.mkfifo(folder / "f")
    script = (
        "import sys\n"
        "from hanamikoji.runtime.output import Folder, OutputError\n"
        "where = Folder(sys.argv[1])\n"
        "for use in (lambda: where.read('f'), lambda: where.file('f').__enter__()):\n"
        "    try:\n"
        "        use()\n"
        "    except OutputError as error:\n"
        "        print(error)\n")
    try:
        done = subprocess.run([sys.executable, "-c", script, str(folder)], capture_output=True,
                              text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("a FIFO in the folder was opened and waited on")
    assert done.stdout == 2 * (f"{folder}/f is a FIFO: only a regular file is read or written "
                               "there, never followed or replaced\n"), done.stderr


# --- the commands -----------------------------------------------------------------------------


def test_diff_save_never_writes_through_a_link_in_its_folder(tmp_path, monkeypatch, capsys,
                                                             victim):
    """``diff --save DIR`` wrote divergence.json through a link planted in DIR."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT / "tests"))
    adapter = [sys.executable, str(ROOT / "docs" / "examples" / "adapter.py"),
               "--engine", "broken_engines:gift-gives-two"]
    saved = tmp_path / "saved"
    _planted(saved, "divergence.html", victim)  # the last file written: none is, then
    code = main(["diff", "--games", "20", "--shrink", "0", "--variant", "standard", "--json",
                 "--save", str(saved), "--", *adapter])
    err = capsys.readouterr().err
    assert code == 2 and err == (
        f"hanamikoji diff: error: {saved}/divergence.html is a symbolic link: only a regular "
        "file is read or written there, never followed or replaced\n")
    assert victim.read_text() == "precious\n"
    assert [path.name for path in saved.iterdir()] == ["divergence.html"]


def test_view_never_writes_its_own_page_through_a_link(tmp_path, capsys, victim):
    """Without --out, view names the page itself beside the records (games.html): a link there
    is refused, not followed. A page the user names with --out is one output file, whose link
    is followed as docs/cli.md says."""
    records = tmp_path / "games.jsonl"
    assert main(["simulate", "--games", "2", "--records", str(records)]) == 0
    _planted(tmp_path, "games.html", victim)
    capsys.readouterr()
    assert main(["view", str(records)]) == 2
    assert capsys.readouterr().err == (
        f"hanamikoji view: error: {tmp_path}/games.html is a symbolic link: only a regular file "
        "is read or written there, never followed or replaced\n")
    assert victim.read_text() == "precious\n"
    assert main(["view", str(records), "--out", str(tmp_path / "games.html")]) == 0
    assert victim.read_text().startswith("<!DOCTYPE html>")


def test_vectors_never_writes_through_a_link_in_its_folder(tmp_path, capsys, victim):
    out = tmp_path / "vectors"
    _planted(out, "records.json", victim)
    assert main(["vectors", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "it holds records.json" in err
    assert victim.read_text() == "precious\n" and (out / "records.json").is_symlink()


@pytest.mark.parametrize("name", ["report.json", "witnesses"])
def test_an_output_folder_with_a_link_in_it_is_refused_and_left_as_it_was(tmp_path, victim,
                                                                          name):
    """verify --out (and tournament --out, vectors --out) replace a folder only if all in it is
    their own regular files: a link, even with one of their names, is refused."""
    out = tmp_path / "report"
    _planted(out, name, victim if name != "witnesses" else tmp_path)
    with pytest.raises(O.OutputError, match=f"cannot replace {out}: it holds {name}"):
        with O.output_folder(str(out), ours=("report.json", "witnesses/", "witnesses/*.jsonl"),
                             command="verify") as folder:
            with folder.file("report.json") as file:
                file.write("{}\n")
    assert victim.read_text() == "precious\n" and (out / name).is_symlink()
