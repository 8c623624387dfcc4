"""Campaigns (hanamikoji.campaign): shards merged in order are the same bytes whatever runs
them, in whatever order they finish; --resume takes the shards already done and only those."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from hanamikoji import campaign as C
from hanamikoji.cli.main import main
from hanamikoji.cli.simulate import play_chunk, simulate_shard, tally_of

TESTS = Path(__file__).parent
ROOT = TESTS.parent
if str(TESTS) not in sys.path:  # campaign_backends is a module of tests/ (not a package)
    sys.path.insert(0, str(TESTS))

from campaign_backends import Shuffled  # noqa: E402


def _records(tmp_path, name: str, *argv: str) -> bytes:
    path = tmp_path / name
    assert main(["simulate", "--seed", "5", "--records", str(path), *argv]) == 0
    return path.read_bytes()


def _merged(shards, backend, store=None) -> str:
    return "".join(blob for _, blob in C.run(shards, backend, store))


@pytest.mark.parametrize("game,options", [("hanamikoji", {"variant": "standard"}),
                                          ("maiko", {"players": 3})])
def test_one_worker_two_workers_and_a_shuffled_finish_give_the_same_records(tmp_path, game,
                                                                            options):
    argv = ["--game", game, "--games", "23", "--shard-size", "4"]
    if game == "maiko":
        argv += ["--players", "3"]
    one = _records(tmp_path, "one.jsonl", *argv)
    two = _records(tmp_path, "two.jsonl", *argv, "--workers", "2")
    three = _records(tmp_path, "three.jsonl", *argv, "--workers", "3")
    assert one.count(b"\n") == 23 and two == one and three == one
    args = (game, options, 5, 0, True, None, False)
    shards = list(C.seed_shards("hanamikoji.cli.simulate:simulate_shard", 23, 4, args))
    backend = Shuffled(seed=1)
    merged = _merged(shards, backend)
    assert backend.order != sorted(backend.order)  # they did finish out of order
    lines = [line for blob in merged.split("\n") if blob and not blob.startswith('{"games"')
             for line in [blob]]
    assert ("\n".join(lines) + "\n").encode() == one


def test_a_shard_blob_is_its_tally_then_its_records():
    blob = simulate_shard("hanamikoji", {"variant": "standard"}, 9, 0, True, None, False, 10, 3)
    head, _, rest = blob.partition("\n")
    tally, lines = play_chunk("hanamikoji", {"variant": "standard"}, 9, 10, 3, 0, True)
    assert tally_of(head) == tally and rest == "".join(line + "\n" for line in lines)


def test_shards_are_named_by_their_seed_range_and_made_one_at_a_time():
    shards = C.seed_shards("m:f", 10 ** 20, 100, ("a",))
    first = next(shards)
    assert first == C.Shard("seeds-000000000000-000000000099", "m:f", ("a", 0, 100))
    assert [s.args for s in C.seed_shards("m:f", 250, 100, ())] == [(0, 100), (100, 100),
                                                                     (200, 50)]


class Counting(C.Serial):
    def __init__(self) -> None:
        self.ran: list[str] = []

    def submit(self, shard):
        self.ran.append(shard.name)
        return super().submit(shard)


def _simulate_shards(total=30, size=4):
    return list(C.seed_shards("hanamikoji.cli.simulate:simulate_shard", total, size,
                              ("hanamikoji", {"variant": "standard"}, 2, 0, True, None, False)))


def test_resume_runs_only_the_shards_not_yet_stored(tmp_path):
    shards = _simulate_shards()
    whole = _merged(shards, C.Serial())
    store = C.Store(str(tmp_path / "run"), {"what": "test"})
    got = []

    def stop_after_three(shard, blob):
        got.append(shard.name)
        if len(got) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        for _ in C.run(shards, Counting(), store, finished=stop_after_three):
            pass
    # every shard finished by the interrupt is kept (the serial backend runs one ahead)
    kept = sorted(p.name.removesuffix(".out") for p in (tmp_path / "run").glob("*.out"))
    assert set(got) <= set(kept) and len(kept) < len(shards)
    # one stored blob is damaged: its digest no longer matches, so it is run again
    (tmp_path / "run" / f"{kept[0]}.out").write_text("damaged\n")
    again = Counting()
    assert _merged(shards, again, C.Store(str(tmp_path / "run"), {"what": "test"})) == whole
    assert again.ran == [kept[0]] + [s.name for s in shards if s.name not in kept]
    # everything stored: nothing runs
    idle = Counting()
    assert _merged(shards, idle, C.Store(str(tmp_path / "run"), {"what": "test"})) == whole
    assert idle.ran == []


def test_the_digest_file_checks_with_sha256sum(tmp_path):
    import hashlib

    shards = _simulate_shards(8, 4)
    _merged(shards, C.Serial(), C.Store(str(tmp_path), {"what": "test"}))
    for shard in shards:
        text = (tmp_path / f"{shard.name}.sha256").read_text()
        blob = (tmp_path / f"{shard.name}.out").read_bytes()
        assert text == f"{hashlib.sha256(blob).hexdigest()}  {shard.name}.out\n"


def test_a_worker_killed_mid_shard_loses_no_shard(tmp_path):
    """Two shards kill their worker process the first time they run: the pool notices, starts
    new workers and runs them again, and the merged blobs are those of one process (a
    ``multiprocessing.Pool`` waits for ever for the shard a dead worker held)."""
    shards = [C.Shard(f"s{i:02d}", "campaign_backends:dies_once",
                      (str(tmp_path / f"ran-{i}") if i in (2, 5) else str(tmp_path / "x"),
                       f"blob {i}\n")) for i in range(8)]
    (tmp_path / "x").touch()  # the other shards never die
    backend = C.Local(2)
    assert _merged(shards, backend) == "".join(f"blob {i}\n" for i in range(8))
    assert 1 <= backend.restarts <= 2


def test_a_worker_that_always_dies_is_an_error_not_a_hang(tmp_path, monkeypatch):
    monkeypatch.setattr(C.Local, "RESTARTS", 1)
    shards = [C.Shard(f"s{i}", "campaign_backends:dies_once", (str(tmp_path / f"m{i}"), "b\n"))
              for i in range(3)]
    with pytest.raises(C.WorkersLost, match="worker processes ended 2 times"):
        _merged(shards, C.Local(1))


def test_resume_refuses_a_folder_of_another_campaign(tmp_path, capsys):
    folder = str(tmp_path / "run")
    assert main(["simulate", "--games", "5", "--seed", "1", "--resume", folder]) == 0
    capsys.readouterr()
    assert main(["simulate", "--games", "5", "--seed", "2", "--resume", folder]) == 2
    err = capsys.readouterr().err
    assert err == (f"hanamikoji simulate: error: --resume {folder}: it holds the shards of another "
                   "campaign (seed 1, not 2); give a new folder\n")
    assert json.loads((tmp_path / "run" / "campaign.json").read_text())["seed"] == 1


@pytest.mark.parametrize("game", ["hanamikoji", "maiko"])
def test_simulate_cuts_the_game_s_own_shards_unless_told_and_the_docs_say_how_many(
        tmp_path, capsys, game):
    """Without --shard-size a shard is the game's simulate_shard games (a cheap Hanamikoji game
    gets ten times as many as a Maiko game), as docs/campaigns.md and docs/cli.md say."""
    from hanamikoji.engine.core.registry import get

    size = get(game).simulate_shard
    games = 2 * size + size // 2
    assert main(["simulate", "--game", game, "--games", str(games), "--max-turns", "1",
                 "--resume", str(tmp_path / "run")]) == 0
    capsys.readouterr()
    names = sorted(path.stem for path in (tmp_path / "run").glob("seeds-*.out"))
    assert names == [C.seed_range_name(first, min(size, games - first))
                     for first in range(0, games, size)]
    said = f"{size:,} {get(game).title} games"
    for doc in ("campaigns.md", "cli.md"):
        assert said in " ".join((ROOT / "docs" / doc).read_text().split()), (doc, said)


def test_a_resumed_simulate_gives_the_same_records_and_tally(tmp_path, capsys):
    argv = ["--game", "maiko", "--players", "2", "--games", "12", "--shard-size", "5", "--json"]
    one = _records(tmp_path, "one.jsonl", *argv)
    first = json.loads(capsys.readouterr().out)
    folder = str(tmp_path / "run")
    assert _records(tmp_path, "a.jsonl", *argv, "--resume", folder) == one
    (tmp_path / "run" / "seeds-000000000005-000000000009.out").unlink()
    assert _records(tmp_path, "b.jsonl", *argv, "--resume", folder) == one
    reports = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    for report in reports:
        for key in ("games", "reasons", "winners", "turns"):
            assert report[key] == first[key]


def test_an_unreachable_scheduler_is_one_line(monkeypatch, capsys):
    pytest.importorskip("distributed", reason="Dask distributed is not installed "
                                              "(pip install '.[dask]' in a clone of hanamikoji)")
    code = main(["simulate", "--games", "3", "--scheduler", "tcp://127.0.0.1:9",
                 "--scheduler-timeout", "1"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert "--scheduler 'tcp://127.0.0.1:9': cannot reach a Dask scheduler there within 1 s" in err


def test_ctrl_c_keeps_the_finished_shards_and_stops_the_workers(tmp_path):
    """A campaign that would never end, interrupted once a shard is stored: exit 130, no
    traceback from any process, and every stored shard is the shard's true output."""
    import os
    import signal
    import subprocess
    import time

    folder = tmp_path / "run"
    process = subprocess.Popen(
        [sys.executable, "-m", "hanamikoji", "simulate", "--games", "9" * 20, "--workers", "2",
         "--shard-size", "20", "--resume", str(folder)], cwd=tmp_path,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 300
    while not list(folder.glob("*.sha256")):  # an event: a shard is stored
        assert process.poll() is None and time.monotonic() < deadline, process.communicate()
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole group
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130, (out, err)
    assert "Traceback" not in err and err.count("\n") == 1
    assert err.startswith("hanamikoji simulate: interrupted after ")
    assert f"the finished shards are kept in {folder} for --resume" in err
    stored = sorted(folder.glob("*.out"))
    assert stored
    for path in stored:
        first, last = (int(n) for n in path.stem.split("-")[1:])
        header, _, blob = path.read_text().partition("\n")
        assert json.loads(header)["shard"] == path.stem
        assert blob == simulate_shard("hanamikoji", {"variant": "standard"}, 0, 0,
                                      False, None, False, first, last - first + 1)


def test_the_readme_test_command_installs_dask_so_ci_runs_the_dask_tests():
    """CI runs the README's test command (.ci/run reads it): with the [dask] extra installed,
    the LocalCluster tests run there instead of skipping."""
    import re

    readme = (TESTS.parent / "README.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- test-command -->\n```\n(.*)\n```\n<!-- /test-command -->", readme)
    extras = block and re.search(r"pip install -e '\.\[([a-z,]+)\]'", block.group(1))
    assert extras and "dask" in extras.group(1).split(",")


def test_the_commands_of_the_campaigns_doc_parse():
    """Every ``hanamikoji`` command in docs/campaigns.md is one the command line takes."""
    import shlex

    from hanamikoji.cli.main import build_parser

    doc = (TESTS.parent / "docs" / "campaigns.md").read_text()
    commands = [line.split("#")[0] for block in doc.split("```")[1::2]
                for line in block.splitlines()
                if line.startswith("hanamikoji ") and ": error: " not in line]  # not an output
    assert len(commands) >= 6
    for command in commands:
        build_parser().parse_args(shlex.split(command)[1:])


def test_a_local_workers_blob_comes_back_in_a_message_a_pipe_takes_whole(tmp_path):
    """A worker of ``--workers N`` writes its shard's blob to a file and sends back only the
    file's name, a message shorter than ``PIPE_BUF``, which a pipe takes whole: a blob sent
    through the pool's pipe goes in pieces, and a worker stopped by Ctrl-C's SIGTERM between two
    of them left the pool's reader, and the command, waiting for ever (2 Ctrl-Cs in 40 of
    ``simulate --workers 2`` on a loaded machine)."""
    import pickle
    import select

    blob = "x" * (4 << 20)
    message = C.run_shard_to_file(C.Shard("big", "campaign_backends:echo", (blob,)),
                                  str(tmp_path))
    assert len(pickle.dumps(message)) < select.PIPE_BUF
    assert message[0] == "file" and Path(message[1]).read_text() == blob


def test_local_blobs_are_the_shards_and_leave_no_file(tmp_path):
    shards = [C.Shard(f"s{i}", "campaign_backends:echo", (f"{i}" * (100_000 + i),))
              for i in range(5)]
    backend = C.Local(2)
    assert _merged(shards, backend) == "".join(f"{i}" * (100_000 + i) for i in range(5))
    assert backend.folder is not None and not Path(backend.folder).exists()
