"""A campaign on a real Dask cluster (two worker processes on 127.0.0.1): the same bytes as in
one process, and a worker killed mid-campaign loses no shard."""

from __future__ import annotations

import json
import os
import pathlib
import signal
import sys

import pytest

distributed = pytest.importorskip(
    "distributed", reason="Dask distributed is not installed (pip install '.[dask]' in a clone of hanamikoji)")

from hanamikoji import campaign as C  # noqa: E402
from hanamikoji.cli.main import main  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None,
                                  worker_dashboard_address=None) as local:
        yield local


def _shards():
    return list(C.seed_shards("hanamikoji.cli.simulate:simulate_shard", 40, 3,
                              ("maiko", {"players": 2}, 8, 0, True, None, False)))


def test_the_cluster_gives_the_bytes_of_one_process(cluster, tmp_path, capsys):
    one = tmp_path / "one.jsonl"
    argv = ["simulate", "--game", "maiko", "--players", "2", "--games", "40", "--seed", "8",
            "--shard-size", "3"]
    assert main([*argv, "--records", str(one)]) == 0
    on_dask = tmp_path / "dask.jsonl"
    assert main([*argv, "--records", str(on_dask), "--scheduler", cluster.scheduler_address]) == 0
    assert on_dask.read_bytes() == one.read_bytes() and one.read_bytes().count(b"\n") == 40


def test_the_scheduler_may_come_from_the_environment(cluster, tmp_path, monkeypatch):
    one = tmp_path / "one.jsonl"
    assert main(["simulate", "--games", "30", "--shard-size", "7", "--records", str(one)]) == 0
    monkeypatch.setenv(C.SCHEDULER_VARIABLE, cluster.scheduler_address)
    backend = C.backend_for(1)
    assert isinstance(backend, C.Dask) and backend.workers == 2
    backend.close()
    env = tmp_path / "env.jsonl"
    assert main(["simulate", "--games", "30", "--shard-size", "7", "--records", str(env)]) == 0
    assert env.read_bytes() == one.read_bytes()


def test_a_diff_on_the_cluster_compares_the_games_of_one_worker(cluster, tmp_path, capsys):
    """The adapters of a diff campaign on the cluster are sent the requests of ``--workers 1``
    (a tap logs each adapter's traffic): the same games, decision by decision."""
    tests = pathlib.Path(__file__).parent
    if str(tests) not in sys.path:
        sys.path.insert(0, str(tests))
    from protocol_messages import exchanges

    requests = []
    for name, where in (("one", ["--workers", "1"]),
                        ("dask", ["--scheduler", cluster.scheduler_address])):
        folder = tmp_path / name
        folder.mkdir()
        code = main(["diff", "--json", "--timeout", "600", "--game", "maiko", "--players", "3",
                     "--games", "6", "--shard-size", "2", "--seed", "3", *where, "--",
                     sys.executable, str(tests / "protocol_tap.py"), str(folder), "--",
                     sys.executable, "-m", "hanamikoji.oracle.core.adapter"])
        assert code == 0 and json.loads(capsys.readouterr().out)["status"] == "agree"
        requests.append(sorted(request for _, request, _ in exchanges(folder)))
    assert len(requests[0]) > 50 and requests[1] == requests[0]


def test_a_worker_killed_mid_campaign_loses_no_shard(cluster):
    shards = _shards()
    whole = "".join(blob for _, blob in C.run(shards, C.Serial()))
    with distributed.Client(cluster.scheduler_address, set_as_default=False) as client:
        backend = C.Dask(client=client)
        killed = []

        def kill_a_busy_worker(shard, blob):
            if killed:
                return
            # a worker that is running a shard right now: the scheduler must run it again
            busy = [address for address, keys in client.processing().items() if keys]
            if not busy:
                return
            pid = client.run(os.getpid, workers=[busy[0]])[busy[0]]
            os.kill(pid, signal.SIGKILL)
            killed.append(busy[0])

        merged = "".join(blob for _, blob in C.run(shards, backend, window=12,
                                                   finished=kill_a_busy_worker))
        assert killed, "no worker was busy when the first shard came back"
        assert merged == whole
        client.wait_for_workers(2, timeout=60)  # the nanny restarts it for the next test


def test_a_tournament_on_the_cluster_gives_the_bytes_of_one_process(cluster, tmp_path, capsys):
    """Built-in bots and a command bot (started on the Dask workers): the same report,
    records.jsonl and games.jsonl as one process."""
    import sys

    served = f"served={sys.executable} -m hanamikoji.oracle.core.bot random"
    argv = ["tournament", "random", "heuristic", served, "--deals", "1", "--seed", "4",
            "--shard-size", "2", "--json"]
    assert main([*argv, "--out", str(tmp_path / "one")]) == 0
    one = capsys.readouterr().out
    assert main([*argv, "--out", str(tmp_path / "dask"), "--scheduler",
                 cluster.scheduler_address]) == 0
    assert capsys.readouterr().out == one and json.loads(one)["games"] == 6
    for name in ("records.jsonl", "games.jsonl"):
        assert (tmp_path / "dask" / name).read_bytes() == (tmp_path / "one" / name).read_bytes()


def test_a_worker_address_is_not_a_scheduler(cluster, capsys):
    """A Dask server that is not the scheduler (a worker) is told apart before any client is
    made: one line, exit 2."""
    worker = next(iter(cluster.scheduler_info["workers"]))
    assert main(["simulate", "--games", "10", "--scheduler", worker,
                 "--scheduler-timeout", "5"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a Dask worker answers there, not a scheduler" in err, err
