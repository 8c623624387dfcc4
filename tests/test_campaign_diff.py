"""diff as a campaign: the verdict (games compared, the divergence and its game) is the same for
any number of workers and any order the shards finish in; each worker runs its own adapter."""

from __future__ import annotations

import json
import os
import pathlib
import sys

import pytest

from hanamikoji import campaign
from hanamikoji.cli.main import main
from hanamikoji.oracle.core import diff_campaign as DC

ROOT = pathlib.Path(__file__).parent.parent
ADAPTER = ROOT / "docs" / "examples" / "adapter.py"
if str(ROOT / "tests") not in sys.path:  # campaign_backends is a module of tests/
    sys.path.insert(0, str(ROOT / "tests"))

from campaign_backends import LastFirst  # noqa: E402


@pytest.fixture(autouse=True)
def tests_on_the_path(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT / "tests"))


def _verdict(capsys, *argv):
    code = main(["diff", "--json", "--timeout", "600", *argv])
    report = json.loads(capsys.readouterr().out)
    report.pop("seconds")
    return code, report


def test_a_divergence_is_the_first_shards_whatever_the_workers(capsys, monkeypatch):
    engine = ["--", sys.executable, str(ADAPTER), "--engine", "broken_engines:gift-gives-two"]
    argv = ["--games", "12", "--shard-size", "3", "--shrink", "5", "--seed", "4"]
    one = _verdict(capsys, *argv, "--workers", "1", *engine)
    assert one[0] == 1 and one[1]["status"] == "divergence"
    assert _verdict(capsys, *argv, *engine) == one  # --shard-size alone: the same draw
    assert _verdict(capsys, *argv, "--workers", "2", *engine) == one
    assert _verdict(capsys, *argv, "--workers", "3", *engine) == one
    backend = LastFirst()
    monkeypatch.setattr(campaign, "backend_for", lambda workers, scheduler, **how: backend)
    assert _verdict(capsys, *argv, "--workers", "3", *engine) == one
    assert backend.order == sorted(backend.order, reverse=True)  # the first shard ran last


def _requests(folder: pathlib.Path) -> list[bytes]:
    """Every request the tap logged under ``folder``, in a canonical order (the processes
    that sent them are not the same for different numbers of workers)."""
    from protocol_messages import exchanges

    return sorted(request for _, request, _ in exchanges(folder))


def test_every_number_of_workers_compares_the_same_games(capsys, tmp_path):
    """The adapters of ``--workers 1`` and ``--workers 2`` are sent the same requests: the same
    games, decision by decision (a tap logs each adapter's traffic)."""
    folders = []
    for workers in ("1", "2"):
        folder = tmp_path / workers
        folder.mkdir()
        code, report = _verdict(capsys, "--game", "maiko", "--players", "3", "--games", "5",
                                "--shard-size", "2", "--seed", "3", "--workers", workers, "--",
                                sys.executable, str(ROOT / "tests" / "protocol_tap.py"),
                                str(folder), "--", sys.executable, "-m",
                                "hanamikoji.oracle.core.adapter")
        assert code == 0 and report["status"] == "agree"
        folders.append(folder)
    one, two = (_requests(folder) for folder in folders)
    assert len(one) > 50 and one == two


#: The source of a module of a program that runs diff shards: it holds integers (450, under
#: Hypothesis's limit of 1,024 per module), odd or even ones so that each test's are new to the
#: process. Hypothesis (6.170 here) drew integers now and then from the constants of every
#: module the process had imported from outside site-packages and the standard library (those
#: under 100 it adds itself), and never forgets one it has read.
PROGRAM = "SIZES = ({})\n"


# The shards: Hanamikoji draws an integer of 100 or more only from a legal list that long
# (about 3 draws in 20 games), so its shard is one of the few where the old draws changed.
@pytest.mark.parametrize("game, first, count, other, parity", [
    ("hanamikoji", 20, 10, "maiko", 0), ("maiko", 8, 4, "hanamikoji", 1)])
def test_a_shard_plays_the_same_games_whatever_its_process_did_before(
        game, first, count, other, parity, tmp_path, monkeypatch):
    """One process runs a shard, imports a module of its own and runs a shard of the other
    game, then runs the first shard again: its adapter is sent the same requests both times
    (its games depend on the seed and the shard alone, not on the process's history)."""
    import importlib

    from hanamikoji.engine.core.registry import get
    from hanamikoji.oracle.core import diff as D

    sent: list[str] = []
    write_request = D.Engine.write_request  # every request goes through it

    def tapped(engine, message, *text):
        sent.append(json.dumps(message, sort_keys=True))
        return write_request(engine, message, *text)

    monkeypatch.setattr(D.Engine, "write_request", tapped)
    adapter = [sys.executable, "-m", "hanamikoji.oracle.core.adapter"]

    def shard(name: str, first: int, count: int) -> list[str]:
        configs = tuple(D.hooks(get(name)).configs({"players": 3} if name == "maiko" else {}))
        sent.clear()
        blob = json.loads(DC.diff_shard(adapter, name, configs, 5, 600.0, 0, first, count))
        assert blob["divergence"] is None
        return list(sent)

    alone = shard(game, first, count)
    module = f"program_of_{game}"
    (tmp_path / f"{module}.py").write_text(
        PROGRAM.format(", ".join(str(n) for n in range(100 + parity, 1000, 2))))
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        importlib.import_module(module)
        shard(other, 0, 1)
        again = shard(game, first, count)
    finally:
        sys.modules.pop(module, None)
    requests = sum(len(json.loads(line).get("requests", [line])) for line in alone)
    assert requests > 50 and again == alone  # a batch counts its requests


def test_an_agreeing_engine_counts_every_shard(capsys):
    engine = ["--", sys.executable, "-m", "hanamikoji.oracle.core.adapter"]
    code, report = _verdict(capsys, "--game", "maiko", "--players", "2", "--games", "5",
                            "--shard-size", "2", "--workers", "2", *engine)
    assert code == 0 and report["games"] + report["cut_short"] == 5
    assert report["engine_starts"] >= 3  # one adapter per shard


def test_shard_seeds_are_the_runs_own_for_the_first_shard():
    assert DC.shard_seed(7, 0) == 7
    assert DC.shard_seed(7, 25) == DC.shard_seed(7, 25) != DC.shard_seed(8, 25)


def test_leaks_refuse_a_campaign(capsys):
    code = main(["diff", "--leaks", "--workers", "2", "--", "true"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "--leaks runs in one process" in err


def test_ctrl_c_keeps_the_finished_shards_and_stops_every_adapter(tmp_path):
    """A diff campaign whose later adapters never answer, interrupted once a shard is stored:
    exit 130, one line, no traceback from any process; the stored shards check against their
    digests, and no adapter is left running."""
    import hashlib
    import signal
    import subprocess
    import time

    folder, marks = tmp_path / "run", tmp_path / "marks"
    marks.mkdir()
    process = subprocess.Popen(
        [sys.executable, "-m", "hanamikoji", "diff", "--games", "1000", "--shard-size", "1",
         "--workers", "2", "--timeout", "600", "--resume", str(folder), "--",
         sys.executable, str(ROOT / "tests" / "campaign_adapter.py"), str(marks)],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True)
    deadline = time.monotonic() + 300  # generous bounds: events, not timings, decide
    while not list(folder.glob("*.sha256")):  # an event: a shard is stored
        assert process.poll() is None and time.monotonic() < deadline, process.communicate()
        time.sleep(0.05)
    (marks / "hang").touch()  # from now on the campaign cannot end on its own
    while not list(marks.glob("*.pid")):  # an event: an adapter hangs
        assert process.poll() is None and time.monotonic() < deadline, process.communicate()
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole group
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130, (out, err)
    assert out == "" and "Traceback" not in err and err == "hanamikoji: interrupted\n"
    # A shard is stored once its digest is (the .out first, then the .sha256): Ctrl-C between
    # the two leaves an .out a rerun redoes, which is no stored shard
    stored = sorted(path.with_suffix(".out") for path in folder.glob("*.sha256"))
    assert stored
    for path in stored:
        digest = (path.parent / (path.stem + ".sha256")).read_text().split()[0]
        assert hashlib.sha256(path.read_bytes()).hexdigest() == digest
        header, blob = path.read_text().split("\n", 1)  # which shard it is, then its report
        assert json.loads(header)["shard"] == path.stem
        assert json.loads(blob)["divergence"] is None
    hung = [int(p.stem) for p in marks.glob("*.pid")]  # named by its process id
    while True:  # each hung adapter ends (stopped by its worker, in its own session)
        alive = [pid for pid in hung if _running(pid)]
        if not alive:
            break
        assert time.monotonic() < deadline, f"adapters left running: {alive}"
        time.sleep(0.05)


def _running(pid: int) -> bool:
    """Whether process ``pid`` is still running: not gone, and not a zombie (ended, its exit
    status not yet collected: its worker was stopped first, and the process that inherits it,
    a container's first process say, may be slow to collect it)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:  # gone meanwhile, or no /proc: alive as far as kill tells
        return os.path.exists(f"/proc/{pid}") or not os.path.isdir("/proc")


@pytest.mark.parametrize("game, size", [("hanamikoji", 500), ("maiko", 25)])
def test_a_campaign_without_shard_size_takes_the_games_own(tmp_path, capsys, game, size):
    """A shard starts its own adapter process: a Hanamikoji shard is 500 games (some 2 s of
    work against the reference adapter), a Maiko shard 25 (a game lasts hundreds of steps)."""
    folder = tmp_path / "camp"
    argv = ["diff", "--game", game, "--games", "1", "--workers", "1", "--seed", "2", "--json",
            "--resume", str(folder), "--", sys.executable, "-m", "hanamikoji.oracle.core.adapter"]
    assert main(argv) == 0, capsys.readouterr()
    assert json.loads((folder / "campaign.json").read_text())["shard_size"] == size
