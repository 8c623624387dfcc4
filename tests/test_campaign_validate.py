"""validate as a campaign: the same output and exit code as in one process, for any shard size,
number of workers, or order the shards finish in; pretty-printed records cut by a shard's edge
and text that is not JSON are read as one process reads them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from hanamikoji import campaign
from hanamikoji.cli.main import main
from hanamikoji.oracle.core import validate_campaign as VC

TESTS = Path(__file__).parent
if str(TESTS) not in sys.path:  # campaign_backends is a module of tests/ (not a package)
    sys.path.insert(0, str(TESTS))

from campaign_backends import Shuffled  # noqa: E402


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("records")
    maiko, hanamikoji = folder / "maiko.jsonl", folder / "hanamikoji.jsonl"
    assert main(["simulate", "--game", "maiko", "--players", "3", "--games", "12", "--seed", "1",
                 "--records", str(maiko)]) == 0
    assert main(["simulate", "--games", "40", "--seed", "1", "--records", str(hanamikoji)]) == 0
    lines = hanamikoji.read_text().splitlines()
    record = json.loads(lines[3])
    record["rounds"][0]["actions"] = record["rounds"][0]["actions"][:1] if isinstance(
        record.get("rounds"), list) and record["rounds"] and isinstance(
        record["rounds"][0], dict) and "actions" in record["rounds"][0] else record.get("rounds")
    mixed = folder / "mixed.jsonl"
    mixed.write_text("\n".join([
        lines[0], lines[1][:200], '{"format": "x"}',
        json.dumps(json.loads(maiko.read_text().splitlines()[0]), indent=1),
        "", *lines[5:12], "garbage", json.dumps(json.loads(lines[2]), indent=2), lines[13],
        '{"a": 1, "a": 2}', *maiko.read_text().splitlines()[1:4]]) + "\n")
    empty = folder / "empty.jsonl"
    empty.write_text("")
    return [str(maiko), str(hanamikoji), str(mixed), str(empty)]


def _run(argv, capsys):
    code = main(["validate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("size", ["1", "3", "7", "1000"])
@pytest.mark.parametrize("as_json", [[], ["--json"]])
def test_workers_give_the_output_of_one_process(files, capsys, size, as_json):
    alone = _run([*as_json, *files], capsys)
    assert alone[0] == 2 and "malformed" in alone[1] and "holds no record" in alone[2]
    assert _run([*as_json, "--workers", "2", "--shard-size", size, *files], capsys) == alone
    if size == "3":
        assert _run([*as_json, "--workers", "3", "--shard-size", size, *files], capsys) == alone


def test_a_shuffled_finish_gives_the_output_of_one_process(files, capsys, monkeypatch):
    alone = _run(["--json", *files], capsys)
    backend = Shuffled(seed=3)
    # run_campaign imports the campaign machinery when it runs (validate alone starts without it)
    monkeypatch.setattr(campaign, "backend_for", lambda workers, scheduler, **how: backend)
    assert _run(["--json", "--resume", str(files[0]) + ".run", "--shard-size", "2", *files],
                capsys) == alone
    assert backend.order != sorted(backend.order)


def test_only_clean_shards_are_judged_on_workers(files):
    """The mixed file's shards that hold a cut record or garbage say so."""
    pieces = list(VC.slices(files[2], 3))
    clean = [json.loads(VC.validate_shard(files[2], files[2], p.start, p.end, p.first_line,
                                          None).splitlines()[0])["clean"] for p in pieces]
    assert False in clean and True in clean


def test_slices_cover_the_file_at_line_starts(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"a\nbb\n\nccc\nd")
    cut = list(VC.slices(str(path), 2))
    assert [(s.start, s.end, s.first_line, s.last_line) for s in cut] == [
        (0, 5, 1, 2), (5, 10, 3, 4), (10, 11, 5, 5)]


def test_a_notation_is_read_in_one_process(files, capsys):
    code, out, err = _run(["--notation", "buaa", "--workers", "2", files[0]], capsys)
    assert code == 2 and out == "" and err == (
        "hanamikoji validate: error: --notation is read in one process: leave out --workers, "
        "--resume and --scheduler (and HANAMIKOJI_SCHEDULER)\n")


@pytest.mark.parametrize("last", ["valid", "illegal"])
def test_one_record_through_shards_says_its_result_as_one_process_does(files, tmp_path, capsys,
                                                                       last):
    """A valid record's verdict travels as a line the merge counts without reading it; the
    summary of a single record still gives its result, as in one process, and a valid record
    after the others is the one the summary of one record would name."""
    lines = Path(files[1]).read_text().splitlines()
    one = tmp_path / "one.jsonl"
    if last == "valid":
        one.write_text(lines[0] + "\n")
    else:
        record = json.loads(lines[0])
        record["first_player"] = 1 - record["first_player"]  # replays otherwise: illegal
        one.write_text(json.dumps(record) + "\n")
    alone = _run([str(one)], capsys)
    assert alone[1].splitlines()[-1].startswith(f"1 record: {last}")
    assert _run(["--workers", "2", "--shard-size", "1", str(one)], capsys) == alone
    assert _run(["--resume", str(tmp_path / "run"), str(one)], capsys) == alone
