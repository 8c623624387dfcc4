"""``hanamikoji tournament`` as a campaign (hanamikoji.campaign): the standings, the report
and the files are the same bytes for any number of workers and any order the shards finish in;
``--resume`` takes the shards stored whole and plays only the others; Ctrl-C and a worker that
dies leave no bot process behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hanamikoji import campaign as C
from hanamikoji.cli.main import main
from hanamikoji.engine.core.registry import get
from hanamikoji.oracle.core.referee import Limits
from hanamikoji.oracle.core.tournament import (GameResult, Tournament, bot_specs, play_unit,
                                               shards)

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:  # campaign_backends and test_referee are modules of tests/
    sys.path.insert(0, str(TESTS))

from campaign_backends import Shuffled  # noqa: E402
from test_diff_hardening import processes_with  # noqa: E402
from test_referee import gone  # noqa: E402

HANAMIKOJI = [sys.executable, "-m", "hanamikoji"]
SERVED_RANDOM = f"served={sys.executable} -m hanamikoji.oracle.core.bot random"
#: A command bot that forfeits (a pick the gift does not hold: ACT-GIFT-2), from tests/.
PICKS_WRONG = f"wrong={sys.executable} -m hanamikoji.oracle.core.bot referee_bots:PickNotOffered"


def _tournament(capsys, tmp_path: Path, name: str, *argv: str) -> tuple[str, bytes, bytes]:
    """The report printed, records.jsonl and games.jsonl of a tournament."""
    out = tmp_path / name
    assert main(["tournament", *argv, "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    return printed, (out / "records.jsonl").read_bytes(), (out / "games.jsonl").read_bytes()


def test_one_two_three_workers_give_the_same_bytes(capsys, tmp_path, monkeypatch):
    """With built-in bots, a command bot and a command bot that forfeits (its forfeit, its
    position and the records without its games are merged like the rest)."""
    monkeypatch.setenv("PYTHONPATH", str(TESTS))  # referee_bots, for the workers' bots too
    argv = ["random", "heuristic", SERVED_RANDOM, PICKS_WRONG, "--deals", "1", "--seed", "3",
            "--shard-size", "2", "--json"]
    one = _tournament(capsys, tmp_path, "one", *argv)
    assert one[2].count(b"\n") == 12 and b'"forfeit"' in one[2] and b"ACT-GIFT-2" in one[2]
    assert b'"request":{"op":"decide","seat":' in one[2]  # the request its bot got, merged too
    assert one[1].count(b"\n") < 12  # a forfeited Hanamikoji game is a position, no record
    for workers in ("2", "3"):
        assert _tournament(capsys, tmp_path, workers, *argv, "--workers", workers) == one


def test_the_text_report_and_the_progress_on_a_terminal(tmp_path):
    """The table is the same bytes with workers; on a terminal the bar counts the games of the
    shards merged, of the whole schedule."""
    from test_cli_rough_edges import _on_a_terminal

    argv = ["tournament", "random", "heuristic", "b=random", "--deals", "10", "--seed", "2"]
    plain = subprocess.run([*HANAMIKOJI, *argv], capture_output=True, text=True)
    assert plain.returncode == 0 and plain.stderr == "" and "60 games" in plain.stdout
    code, out, terminal = _on_a_terminal([*argv, "--workers", "2", "--shard-size", "7"])
    assert code == 0 and out == plain.stdout
    assert "playing" in terminal and "/60" in terminal and "forfeits" in terminal, terminal


def test_shards_finishing_in_any_order_merge_in_schedule_order():
    game = get("hanamikoji")
    tournament = Tournament("hanamikoji", tuple(sorted(game.options_of(game.configure()).items())),
                            bot_specs(game, ["random", "heuristic", "b=random"]),
                            deals=4, seed=2, limits=Limits())
    schedule = tournament.schedule()
    backend = Shuffled(seed=4)
    merged = [GameResult.from_unit_json(json.loads(line))
              for _, blob in C.run(shards(tournament, len(schedule), 5), backend)
              for line in blob.splitlines()]
    assert backend.order != sorted(backend.order)  # they did finish out of order
    assert merged == [play_unit(tournament, i, schedule) for i in range(len(schedule))]
    assert len(merged) == 3 * 4 * 2


def test_resume_plays_only_the_shards_not_stored_whole(capsys, tmp_path):
    """A shard kept whole is not played again (its file is not rewritten); a shard whose file
    no longer matches its digest, whose digest is damaged, or that is missing is played again;
    the output is the one process's."""
    argv = ["random", "heuristic", "b=random", "--deals", "2", "--seed", "7", "--json"]
    one = _tournament(capsys, tmp_path, "one", *argv)
    folder = tmp_path / "run"
    campaign = [*argv, "--shard-size", "3", "--resume", str(folder)]
    assert _tournament(capsys, tmp_path, "first", *campaign, "--workers", "2") == one
    names = sorted(path.stem for path in folder.glob("*.out"))
    assert names == [f"games-{f:012d}-{f + 2:012d}" for f in (0, 3, 6, 9)]
    kept = {name: os.stat(folder / f"{name}.out") for name in names}
    true = {name: (folder / f"{name}.out").read_bytes() for name in names}
    damaged, bad_digest, missing = names[1], names[2], names[3]
    (folder / f"{damaged}.out").write_bytes(true[damaged].replace(b'"winners":[0]',
                                                                  b'"winners":[1]', 1))
    assert (folder / f"{damaged}.out").read_bytes() != true[damaged]
    (folder / f"{bad_digest}.sha256").write_text("0" * 64 + f"  {bad_digest}.out\n")
    (folder / f"{missing}.out").unlink()
    assert _tournament(capsys, tmp_path, "again", *campaign) == one
    after = {name: os.stat(folder / f"{name}.out") for name in names}
    assert (after[names[0]].st_ino, after[names[0]].st_mtime_ns) == (
        kept[names[0]].st_ino, kept[names[0]].st_mtime_ns)  # taken as it was, not played
    for name in (damaged, bad_digest, missing):
        assert (folder / f"{name}.out").read_bytes() == true[name]
        if name != missing:
            assert after[name].st_ino != kept[name].st_ino  # written again
    assert main(["tournament", *campaign, "--seed", "8"]) == 2
    assert "it holds the shards of another campaign (seed 7, not 8)" in capsys.readouterr().err


def _wait_for(path: Path, process: subprocess.Popen, bound: float = 120) -> None:
    stop = time.monotonic() + bound
    while not path.exists():  # an event: the file appears
        assert process.poll() is None and time.monotonic() < stop, process.communicate()
        time.sleep(0.02)


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="finds processes in Linux's /proc")
def test_ctrl_c_keeps_the_finished_shards_and_leaves_no_bot(tmp_path):
    """Two workers; the first shards (random against heuristic) finish, then each worker runs a
    game of a bot that hangs: Ctrl-C to the whole process group, as a terminal sends it."""
    pidfile = tmp_path / "pid"
    hang = f"{sys.executable} {TESTS / 'referee_bots.py'} hang {pidfile}"
    folder = tmp_path / "run"
    process = subprocess.Popen(
        [*HANAMIKOJI, "tournament", "random", "heuristic", hang, "--deals", "2",
         "--shard-size", "2", "--workers", "2", "--resume", str(folder),
         "--decision-time", "600", "--game-time", "600", "--out", str(tmp_path / "out")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    _wait_for(pidfile, process)
    _wait_for(folder / "games-000000000002-000000000003.sha256", process)
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert (process.returncode, err, out) == (130, "hanamikoji: interrupted\n", "")
    assert gone(int(pidfile.read_text()))
    assert all(gone(pid) for pid in processes_with(str(pidfile)))
    assert not (tmp_path / "out").exists()
    for name in ("games-000000000000-000000000001", "games-000000000002-000000000003"):
        header, *lines = (folder / f"{name}.out").read_text().splitlines()
        assert json.loads(header)["shard"] == name  # which shard it is, then its games
        assert [json.loads(line)["seating"] for line in lines] == [[0, 1], [1, 0]]


def _parent(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as file:
        return int(file.read().rsplit(")", 1)[1].split()[1])


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="finds processes in Linux's /proc")
def test_a_worker_killed_mid_game_leaves_no_bot_and_loses_no_game(tmp_path):
    """The worker playing against a bot that hangs is killed (as the out-of-memory killer
    would): no SIGTERM handler of its own ends the bot, so the main process ends its process
    group; the game is played again on a new worker (the bot loses on time) and the files are
    those of one process."""
    pidfile = tmp_path / "pid"
    hang = f"{sys.executable} {TESTS / 'referee_bots.py'} hang {pidfile}"
    argv = [*HANAMIKOJI, "tournament", "random", hang, "--deals", "1", "--shard-size", "1",
            "--decision-time", "1", "--json"]
    process = subprocess.Popen([*argv, "--workers", "2", "--out", str(tmp_path / "two")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_for(pidfile, process)
    bot = int(pidfile.read_text())
    worker = _parent(bot)
    if "keeper.py" in Path(f"/proc/{worker}/cmdline").read_text():
        worker = _parent(worker)  # the bot runs under its keeper, the worker's child
    os.kill(worker, signal.SIGKILL)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert gone(bot, bound=5)
    assert all(gone(pid, bound=5) for pid in processes_with(str(pidfile)))
    one = subprocess.run([*argv, "--out", str(tmp_path / "one")], capture_output=True,
                         text=True)
    assert one.stdout == out and json.loads(out)["standings"][1]["forfeits"] == 2
    for name in ("records.jsonl", "games.jsonl"):
        assert (tmp_path / "two" / name).read_bytes() == (tmp_path / "one" / name).read_bytes()
