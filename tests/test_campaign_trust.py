"""What a campaign trusts in its ``--resume`` folder (hanamikoji.campaign.Store): only
regular files it wrote there, each a shard that says which campaign and which shard it is and
checks whole. A link is never followed (the file it points to is untouched), a FIFO is never
waited on (refused at once), and a shard that is swapped, damaged or not a shard at all is run
again, with one line on stderr, never merged: the output is one process's, byte for byte."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hanamikoji.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
SHARDS = ("seeds-000000000000-000000000009", "seeds-000000000010-000000000019",
          "seeds-000000000020-000000000024")


def _simulate(folder: Path | None, records: Path, *more: str) -> int:
    argv = ["simulate", "--games", "25", "--seed", "3", "--shard-size", "10",
            "--records", str(records), *more]
    return main(argv + (["--resume", str(folder)] if folder is not None else []))


def _reference(tmp_path: Path) -> bytes:
    """The records of one process, no campaign."""
    assert _simulate(None, tmp_path / "one.jsonl") == 0
    return (tmp_path / "one.jsonl").read_bytes()


def _command(*argv: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """``hanamikoji ARGV`` in a process of its own, killed (and the test failed) if it is still
    running after ``timeout`` seconds: a FIFO that is opened hangs the command."""
    try:
        return subprocess.run([sys.executable, "-m", "hanamikoji", *argv], capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        pytest.fail(f"hanamikoji {' '.join(argv)} still running after {timeout} s (a FIFO "
                    "opened and waited on?)")


def _forge(folder: Path, name: str, blob: str) -> None:
    """Give shard ``name`` the content ``blob`` behind its own header line (when it has one), with
    a digest that matches: what a damaged or hostile folder could hold."""
    old = (folder / f"{name}.out").read_text()
    head = old.partition("\n")[0]
    text = (head + "\n" if '"campaign"' in head else "") + blob
    (folder / f"{name}.out").write_text(text)
    (folder / f"{name}.sha256").write_text(
        f"{hashlib.sha256(text.encode()).hexdigest()}  {name}.out\n")


def _swap(folder: Path, a: str, b: str) -> None:
    """Exchange the two shards' .out and .sha256 files."""
    for suffix in (".out", ".sha256"):
        x, y = folder / f"{a}{suffix}", folder / f"{b}{suffix}"
        x.rename(folder / "swap")
        y.rename(x)
        (folder / "swap").rename(y)


# --- links, FIFOs and folders in the folder ---------------------------------------------------


def test_a_link_in_place_of_a_shard_is_refused_and_what_it_points_to_is_untouched(tmp_path,
                                                                                  capsys):
    """The issue's reproduction: a shard's .out and .sha256 removed and the .out made a link to
    a file outside the folder. The rerun wrote the shard's records into that file and exited 0;
    now it is refused at once, in one line naming the link, and the file is as it was."""
    folder = tmp_path / "camp"
    assert _simulate(folder, tmp_path / "a.jsonl", "--workers", "2") == 0
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (folder / f"{SHARDS[1]}.out").unlink()
    (folder / f"{SHARDS[1]}.sha256").unlink()
    (folder / f"{SHARDS[1]}.out").symlink_to(victim)
    capsys.readouterr()
    assert _simulate(folder, tmp_path / "b.jsonl", "--workers", "2") == 2
    err = capsys.readouterr().err
    assert err == (f"hanamikoji simulate: error: --resume {folder}: {folder}/{SHARDS[1]}.out is a "
                   "symbolic link; a campaign's folder holds only the regular files it wrote "
                   "(remove it, or give a new folder)\n")
    assert victim.read_text() == "precious\n"
    assert (folder / f"{SHARDS[1]}.out").is_symlink() and not (tmp_path / "b.jsonl").exists()


@pytest.mark.parametrize("name", ["campaign.json", f"{SHARDS[0]}.sha256", "notes"])
def test_a_link_anywhere_in_the_folder_is_refused(tmp_path, capsys, name):
    folder = tmp_path / "camp"
    assert _simulate(folder, tmp_path / "a.jsonl") == 0
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    if (folder / name).exists():
        (folder / name).unlink()
    (folder / name).symlink_to(victim)
    capsys.readouterr()
    assert _simulate(folder, tmp_path / "b.jsonl") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{folder}/{name} is a symbolic link" in err
    assert victim.read_text() == "precious\n"


@pytest.mark.parametrize("name", [f"{SHARDS[1]}.out", "campaign.json"])
def test_a_fifo_as_a_shard_or_as_campaign_json_is_refused_at_once(tmp_path, name):
    """A FIFO there hung the campaign (still running after 300 s): opened to be read, it waits
    for a writer that never comes. Now it is refused before anything opens it."""
    folder = tmp_path / "camp"
    argv = ["simulate", "--games", "25", "--shard-size", "10", "--resume", str(folder)]
    assert _command(*argv).returncode == 0
    (folder / name).unlink()
    os.mkfifo(folder / name)
    done = _command(*argv)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (f"hanamikoji simulate: error: --resume {folder}: {folder}/{name} is a "
                           "FIFO; a campaign's folder holds only the regular files it wrote "
                           "(remove it, or give a new folder)\n")


def test_a_device_as_a_shard_is_refused(tmp_path, capsys):
    """A character device (here one like /dev/null, made where the system lets this user)."""
    import stat

    folder = tmp_path / "camp"
    assert _simulate(folder, tmp_path / "a.jsonl") == 0
    (folder / f"{SHARDS[2]}.out").unlink()
    try:
        os.mknod(folder / f"{SHARDS[2]}.out", stat.S_IFCHR | 0o600, os.makedev(1, 3))
    except OSError as error:
        pytest.skip(f"cannot make a device here: {error.strerror}")
    capsys.readouterr()
    assert _simulate(folder, tmp_path / "b.jsonl") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{folder}/{SHARDS[2]}.out is a character device;" in err


def test_a_folder_where_a_shard_goes_is_refused(tmp_path, capsys):
    folder = tmp_path / "camp"
    (folder / f"{SHARDS[0]}.out").mkdir(parents=True)
    assert _simulate(folder, tmp_path / "a.jsonl") == 2
    assert f"{folder}/{SHARDS[0]}.out is a folder; a campaign's folder holds only" in (
        capsys.readouterr().err)
    (folder / f"{SHARDS[0]}.out").rmdir()
    (folder / "notes").mkdir()  # a folder of another name is the user's own
    assert _simulate(folder, tmp_path / "a.jsonl") == 0


# --- shards that say which they are -----------------------------------------------------------


def test_swapped_simulate_shards_are_run_again_not_merged_out_of_order(tmp_path, capsys):
    """Two shards' .out and .sha256 exchanged: each digest matches its file, but the file is the
    other shard's. The rerun put seed 10's games before seed 0's, exit 0; now both run again."""
    one = _reference(tmp_path)
    folder = tmp_path / "camp"
    assert _simulate(folder, tmp_path / "a.jsonl") == 0
    _swap(folder, SHARDS[0], SHARDS[1])
    capsys.readouterr()
    assert _simulate(folder, tmp_path / "b.jsonl") == 0
    assert (tmp_path / "b.jsonl").read_bytes() == one
    notes = [line for line in capsys.readouterr().err.splitlines()]
    assert notes == [f"hanamikoji simulate: note: --resume {folder}: shard {SHARDS[0]} runs "
                     f"again: {SHARDS[0]}.sha256 is the digest of another file, "
                     f'"{SHARDS[1]}.out"',
                     f"hanamikoji simulate: note: --resume {folder}: shard {SHARDS[1]} runs "
                     f"again: {SHARDS[1]}.sha256 is the digest of another file, "
                     f'"{SHARDS[0]}.out"']
    # the digest files fixed by hand to name their new files: the headers still tell
    assert _simulate(folder, tmp_path / "c.jsonl") == 0
    capsys.readouterr()
    _swap(folder, SHARDS[0], SHARDS[1])
    for name in SHARDS[:2]:
        text = (folder / f"{name}.out").read_bytes()
        (folder / f"{name}.sha256").write_text(f"{hashlib.sha256(text).hexdigest()}  {name}.out\n")
    assert _simulate(folder, tmp_path / "d.jsonl") == 0
    assert (tmp_path / "d.jsonl").read_bytes() == one
    err = capsys.readouterr().err
    assert f"shard {SHARDS[0]} runs again: it holds shard \"{SHARDS[1]}\"" in err
    assert f"shard {SHARDS[1]} runs again: it holds shard \"{SHARDS[0]}\"" in err


def test_swapped_validate_shards_are_run_again(tmp_path, capsys):
    """``validate --resume`` printed line 21's verdict before line 1's; now the verdicts are one
    process's."""
    records = tmp_path / "games.jsonl"
    assert main(["simulate", "--games", "30", "--seed", "4", "--records", str(records)]) == 0
    lines = records.read_text().splitlines()
    lines[3] = lines[3].replace('"standard"', '"nosuch"')  # one record not valid in each shard
    lines[23] = "{}"
    records.write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    code = main(["validate", "--json", str(records)])
    one = capsys.readouterr().out
    assert code != 0 and one.count('"valid"') == 28
    folder = tmp_path / "camp"
    argv = ["validate", "--json", "--shard-size", "10", "--resume", str(folder), str(records)]
    assert main(argv) == code
    assert capsys.readouterr().out == one
    a, b = "0001-lines-000000000001-000000000010", "0001-lines-000000000021-000000000030"
    _swap(folder, a, b)
    assert main(argv) == code
    out, err = capsys.readouterr()
    assert out == one
    assert [line.split(" runs again")[0] for line in err.splitlines()] == [
        f"hanamikoji validate: note: --resume {folder}: shard {a}",
        f"hanamikoji validate: note: --resume {folder}: shard {b}"]


def test_swapped_tournament_shards_are_run_again(tmp_path, capsys):
    folder = tmp_path / "camp"
    argv = ["tournament", "random", "random", "--deals", "2", "--seed", "5", "--json"]
    assert main(argv) == 0
    one = capsys.readouterr().out
    campaign = [*argv, "--shard-size", "1", "--resume", str(folder)]
    assert main(campaign) == 0
    assert capsys.readouterr().out == one
    _swap(folder, "games-000000000000-000000000000", "games-000000000003-000000000003")
    assert main(campaign) == 0
    out, err = capsys.readouterr()
    assert out == one and err.count("runs again") == 2


GARBAGE = ["", "hello", '{"games":500}', "[]", "null", "null\n", '{"games":500}\n']


@pytest.mark.parametrize("blob", GARBAGE)
def test_a_simulate_shard_that_is_not_one_is_run_again(tmp_path, capsys, blob):
    """Content with a matching digest that is no shard's output ended in an internal error
    (exit 3); now the shard runs again, with a line saying why."""
    one = _reference(tmp_path)
    folder = tmp_path / "camp"
    assert _simulate(folder, tmp_path / "a.jsonl") == 0
    for raw in (False, True):
        if raw:  # no header at all: the file is the garbage alone
            (folder / f"{SHARDS[1]}.out").write_text("")
        _forge(folder, SHARDS[1], blob)
        capsys.readouterr()
        assert _simulate(folder, tmp_path / "b.jsonl") == 0
        out, err = capsys.readouterr()
        assert (tmp_path / "b.jsonl").read_bytes() == one
        assert err.count("\n") == 1 and err.startswith(
            f"hanamikoji simulate: note: --resume {folder}: shard {SHARDS[1]} runs again: ")


def test_a_simulate_shard_whose_tally_claims_more_games_than_it_holds_is_run_again(tmp_path,
                                                                                   capsys):
    """A tally of ten games and no records was merged: 15 records instead of 25, exit 0."""
    one = _reference(tmp_path)
    folder = tmp_path / "camp"
    assert _simulate(folder, tmp_path / "a.jsonl") == 0
    blob = (folder / f"{SHARDS[1]}.out").read_text().split("\n", 1)[1]
    tally, rest = blob.split("\n", 1)
    for forged in (tally + "\n", tally + "\n" + rest.split("\n", 1)[1],
                   tally + "\n" + rest + rest.split("\n", 1)[0] + "\n",
                   tally.replace('"games":10', '"games":500') + "\n" + rest):
        _forge(folder, SHARDS[1], forged)
        capsys.readouterr()
        assert _simulate(folder, tmp_path / "b.jsonl") == 0
        assert (tmp_path / "b.jsonl").read_bytes() == one
        assert f"shard {SHARDS[1]} runs again" in capsys.readouterr().err


@pytest.mark.parametrize("blob", GARBAGE + ['{"clean": true, "records": 5}\n'])
def test_a_validate_shard_that_is_not_one_is_run_again(tmp_path, capsys, blob):
    """The last: a header that claims five verdicts and holds none."""
    records = tmp_path / "games.jsonl"
    assert main(["simulate", "--games", "20", "--seed", "4", "--records", str(records)]) == 0
    capsys.readouterr()
    assert main(["validate", "--json", str(records)]) == 0
    one = capsys.readouterr().out
    folder = tmp_path / "camp"
    argv = ["validate", "--json", "--shard-size", "10", "--resume", str(folder), str(records)]
    assert main(argv) == 0
    capsys.readouterr()
    _forge(folder, "0001-lines-000000000011-000000000020", blob)
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert out == one and "shard 0001-lines-000000000011-000000000020 runs again" in err


def test_a_validate_shard_is_named_by_the_lines_it_holds(tmp_path):
    """A shard's name is its range, which its check holds it to: the last shard of a file of
    three lines, two a shard, is line 3 alone (it was named lines 3 to 4)."""
    from hanamikoji.oracle.core.validate_campaign import slices

    for text, last in ((b"a\nb\nc\n", 3), (b"a\nb\nc", 3), (b"a\nb\nc\nd\n", 4)):
        (tmp_path / "f").write_bytes(text)
        got = [(s.first_line, s.last_line) for s in slices(str(tmp_path / "f"), 2)]
        assert got == [(1, 2), (3, last)]
        assert [text[s.start:s.end].count(b"\n") for s in slices(str(tmp_path / "f"), 2)][0] == 2


def test_a_diff_shard_that_is_not_one_is_run_again(tmp_path, capsys):
    folder = tmp_path / "camp"
    argv = ["diff", "--games", "2", "--shard-size", "1", "--seed", "2", "--json", "--resume",
            str(folder), "--", sys.executable, "-m", "hanamikoji.oracle.core.adapter"]

    def games() -> int:
        return json.loads(capsys.readouterr().out)["games"]

    assert main(argv) == 0 and games() == 2
    for blob in [*GARBAGE[:5], '{"games": 7, "divergence": null}\n']:
        _forge(folder, "games-000000000001-000000000001", blob)
        assert main(argv) == 0
        assert games() == 2
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["games"] == 2 and captured.err == ""


def test_a_folder_of_an_earlier_version_is_refused_as_another_campaign(tmp_path, capsys):
    folder = tmp_path / "camp"
    assert _simulate(folder, tmp_path / "a.jsonl") == 0
    description = json.loads((folder / "campaign.json").read_text())
    del description["version"]  # as the toolkit wrote it before shards named themselves
    (folder / "campaign.json").write_text(json.dumps(description, sort_keys=True) + "\n")
    capsys.readouterr()
    assert _simulate(folder, tmp_path / "b.jsonl") == 2
    assert capsys.readouterr().err == (
        f"hanamikoji simulate: error: --resume {folder}: it holds the shards of another campaign "
        "(its shards were made by an earlier version of the toolkit, whose shards do not say "
        "which they are); give a new folder\n")


def test_the_lines_campaigns_md_shows_are_the_command_s(tmp_path, monkeypatch, capsys):
    """docs/campaigns.md shows the refusal of a link and the note of a swapped shard: the
    command prints exactly those lines (2,000 games without records: two default shards)."""
    doc = " ".join((ROOT / "docs" / "campaigns.md").read_text().split())
    monkeypatch.chdir(tmp_path)
    argv = ["simulate", "--games", "2000", "--resume", "run1"]
    assert main(argv) == 0
    first, second = "seeds-000000000000-000000000999", "seeds-000000001000-000000001999"
    run1 = tmp_path / "run1"
    for name in (first, second):  # the files swapped, each digest made to match its new file
        (run1 / f"{name}.out").rename(run1 / f"{name}.was")
    (run1 / f"{first}.was").rename(run1 / f"{second}.out")
    (run1 / f"{second}.was").rename(run1 / f"{first}.out")
    for name in (first, second):
        text = (run1 / f"{name}.out").read_bytes()
        (run1 / f"{name}.sha256").write_text(f"{hashlib.sha256(text).hexdigest()}  {name}.out\n")
    capsys.readouterr()
    assert main(argv) == 0
    note = capsys.readouterr().err.splitlines()[0]
    assert note == (f"hanamikoji simulate: note: --resume run1: shard {first} runs again: it "
                    f'holds shard "{second}"') and note in doc
    (run1 / f"{second}.out").unlink()
    (run1 / f"{second}.out").symlink_to(tmp_path / "elsewhere")
    assert main(argv) == 2
    error = capsys.readouterr().err.strip()
    assert error.endswith("(remove it, or give a new folder)") and error in doc
    assert not (tmp_path / "elsewhere").exists()
