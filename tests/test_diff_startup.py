"""What a short ``hanamikoji diff`` costs before its games: Hypothesis is imported only to shrink
a divergence (its cache folder still kept out of the user's folder whenever it runs), and the
check of seeded chance writes its thousand requests ahead in chunks, with every verdict and
message it gave asking them one at a time: the first failing seed, a crash, garbage, a hang and
a request answered twice in the middle of the thousand."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

from hanamikoji.oracle.core import diff_engine, diff_seeded
from hanamikoji.oracle.core.diff import Engine, EngineFailure, compare_engines

ROOT = pathlib.Path(__file__).resolve().parent.parent
REFERENCE = [sys.executable, "-m", "hanamikoji.oracle.core.adapter"]
#: A per-request timeout no loaded machine comes near (the hang test alone waits for one).
T = 600.0


def run_python(code: str, cwd: pathlib.Path, env: dict[str, str] | None = None) -> list[str]:
    """``code`` in a fresh process (this one has imported Hypothesis): its output's lines."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, cwd=cwd, timeout=600,
                          env=None if env is None else {**os.environ, **env})
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


# --- Hypothesis only to shrink ---------------------------------------------------------------


@pytest.mark.parametrize("game, games", [("hanamikoji", "3"), ("maiko", "1")])
def test_a_diff_of_agreeing_engines_never_imports_hypothesis(tmp_path, game, games):
    out = run_python(f"""
        import sys
        from hanamikoji.cli.main import main
        code = main(["diff", "--game", {game!r}, "--games", {games!r}, "--timeout", "600",
                     "--json", "--", *{REFERENCE!r}])
        print(code, "hypothesis" in sys.modules)
    """, tmp_path)
    assert json.loads(out[0])["status"] == "agree"
    assert out[-1] == "0 False"
    assert list(tmp_path.iterdir()) == []


def test_the_litter_guard_points_hypothesis_home_when_it_is_imported_inside(tmp_path):
    """Two guards, one inside the other, begun before Hypothesis is imported: a property run
    inside keeps its caches in the inner guard's folder, the outer one's is back when the inner
    ends, Hypothesis's own choice when both have, and nothing is left in the folder."""
    out = run_python("""
        import sys
        from hanamikoji.runtime.progress import _hypothesis_home, no_hypothesis_litter

        with no_hypothesis_litter():
            with no_hypothesis_litter():
                print("hypothesis" in sys.modules)
                from hypothesis import configuration, given, settings, strategies as st

                @settings(max_examples=3, database=None)
                @given(st.integers())
                def check(n):
                    pass

                check()
                inner = _hypothesis_home(configuration)
                print(inner.name.startswith("hanamikoji-hypothesis-"), inner.exists())
            outer = _hypothesis_home(configuration)
            print(outer.name.startswith("hanamikoji-hypothesis-"), outer != inner)
        print(_hypothesis_home(configuration), inner.exists() or outer.exists())
        print(any(type(finder).__module__ == "hanamikoji.runtime.progress"
                  for finder in sys.meta_path))
    """, tmp_path)
    assert out == ["False", "True True", "True True", f"{tmp_path / '.hypothesis'} False",
                   "False"]
    assert list(tmp_path.iterdir()) == []


def test_a_divergence_is_shrunk_with_hypothesis_home_out_of_the_folder(tmp_path):
    """The guard holds around the shrinking, which imports Hypothesis itself."""
    out = run_python(f"""
        import sys
        from hanamikoji.oracle.core import diff_draw
        from hanamikoji.cli.main import main

        shrink, homes = diff_draw.shrink, []

        def watched(*args):
            from hypothesis import configuration
            from hanamikoji.runtime.progress import _hypothesis_home

            homes.append(_hypothesis_home(configuration))
            return shrink(*args)

        diff_draw.shrink = watched
        code = main(["diff", "--games", "30", "--shrink", "5", "--timeout", "600", "--json",
                     "--", sys.executable, {str(ROOT / "docs" / "examples" / "adapter.py")!r},
                     "--engine", "broken_engines:same-starter"])
        print(code, [home.name.startswith("hanamikoji-hypothesis-") for home in homes],
              any(home.exists() for home in homes))
    """, tmp_path, env={"PYTHONPATH": str(ROOT / "tests")})
    report = json.loads(out[0])
    assert report["status"] == "divergence" and report["shrink_games"] > 0
    assert out[-1] == "1 [True] False"
    assert list(tmp_path.iterdir()) == []


# --- the seeded check: its requests written ahead ----------------------------------------------


def test_the_seeded_check_writes_its_thousand_requests_ahead_in_chunks(monkeypatch):
    """The thousand seeds go in a few writes of whole chunks, none over a pipe's least
    capacity: the adapter answers a chunk without waiting for the harness."""
    writes: list[list[dict]] = []
    write_requests = Engine.write_requests

    def tapped(engine, messages, *texts):
        writes.append(list(messages))
        return write_requests(engine, messages, *texts)

    monkeypatch.setattr(Engine, "write_requests", tapped)
    report = compare_engines(REFERENCE, games=1, timeout=T)
    assert report.divergence is None
    deals = [chunk for chunk in writes if chunk[0]["op"] == "random_deal"]
    seeds = [request["seed"] for chunk in deals for request in chunk]
    # The four seeds asked three times each, one at a time, then 0 .. 999 in order.
    assert seeds[:12] == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]
    assert seeds[12:] == list(range(diff_seeded.SPREAD))
    ahead = deals[12:]
    assert len(ahead) == -(-diff_seeded.SPREAD // diff_seeded.AHEAD)
    assert all(len("".join(json.dumps(r) + "\n" for r in chunk)) <= diff_engine.AHEAD_BYTES
               for chunk in ahead)


def test_the_chunks_keep_to_their_count_and_bytes():
    small = [{"op": "random_deal", "seed": n} for n in range(130)]
    assert [len(c) for c in diff_seeded._chunks(small)] == [64, 64, 2]
    big = [{"op": "random_chance", "pad": "x" * 1500, "seed": n} for n in range(5)]
    assert [len(c) for c in diff_seeded._chunks(big)] == [2, 2, 1]
    huge = [{"op": "random_chance", "pad": "x" * 5000, "seed": n} for n in range(2)]
    assert [len(c) for c in diff_seeded._chunks(huge)] == [1, 1]  # alone, as before


#: A legal deal (the reference's for seed 0), the answer to every seed but ``BAD``: the four
#: seeds of the first part of the check agree in both processes, and the thousand are judged
#: one by one up to ``BAD``, in the middle of a chunk.
SEEDED = """
    import sys, time
    DEAL = '{"deal":{"draws":[6,3,5,6,3,0,5,5],"hands":[[0,4,5,6,6,6],[1,1,2,2,3,4]],"removed":4}}'
    BAD, HOW = int(sys.argv[1]), sys.argv[2]
    asked = 0
    for line in sys.stdin:
        asked += 1
        if asked > 8 and '"seed": %d}' % BAD in line:  # the thousand's request, not the four's
            if HOW == "crash":
                sys.exit(3)
            if HOW == "hang":
                time.sleep(3600)
            if HOW == "illegal":
                print('{"deal":{"draws":[2,2,2,2,2,2,2,2],"hands":[[0,0,0,0,0,0],[1,1,1,1,1,1]],'
                      '"removed":0}}', flush=True)
                continue
            if HOW == "garbage":
                print("not json", flush=True)
                continue
            if HOW == "twice":  # both lines in one write: the harness reads them together
                print(DEAL + "\\n" + DEAL, flush=True)
                continue
        print(DEAL, flush=True)
"""


def seeded(tmp_path: pathlib.Path, bad: int, how: str) -> list[str]:
    path = tmp_path / "seeded.py"
    path.write_text(textwrap.dedent(SEEDED))
    return [sys.executable, str(path), str(bad), how]


@pytest.mark.parametrize("bad", [700, 640, 999])
@pytest.mark.parametrize("how, says", [
    ("crash", "the engine closed its output (exit code 3) instead of answering {request}"),
    ("illegal", "random_deal does not give a legal deal: "),
    ("garbage", "the engine answered {request} with a line that is not JSON ("),
])
def test_the_first_failing_seed_and_its_message_are_those_of_one_request_at_a_time(
        tmp_path, bad, how, says):
    """Seed 700 is in the middle of a chunk, 640 its first, 999 the last of all."""
    report = compare_engines(seeded(tmp_path, bad, how), games=3, timeout=T)
    d = report.divergence
    assert report.games == 0 and d is not None and d.variant is None
    request = {"op": "random_deal", "seed": bad}
    assert d.request == request
    assert d.message.startswith(says.format(request=json.dumps(request))), d.message


def test_a_hang_in_the_middle_of_the_thousand_names_the_seed_it_hung_on(tmp_path):
    report = compare_engines(seeded(tmp_path, 700, "hang"), games=3, timeout=2.0)
    request = {"op": "random_deal", "seed": 700}
    assert report.divergence.request == request
    assert report.divergence.message == f"the engine did not answer {json.dumps(request)} within 2 s"


@pytest.mark.parametrize("bad", [700, 999])
def test_a_request_answered_twice_in_the_middle_of_the_thousand_is_told_where(tmp_path, bad):
    """A line nobody asked for, whatever the shifted answers after it look like; and where it
    came, as one request at a time says it: after the answer to seed 700 (in the middle of a
    chunk), the first engine having been asked the four seeds twice and then seeds 0 to 700."""
    report = compare_engines(seeded(tmp_path, bad, "twice"), games=3, timeout=T)
    d = report.divergence
    request = {"op": "random_deal", "seed": bad}
    assert d.message.startswith("protocol error: the engine wrote a line nobody asked for ")
    assert "answered one twice" in d.message
    asked = 2 * len(diff_seeded.SEEDS) + bad + 1
    assert f"after answering every request sent ({asked}, the last {json.dumps(request)})" \
        in d.message
    assert d.request == request


def test_a_process_that_took_none_of_a_chunk_fails_before_its_first_request(tmp_path):
    """Written all at once, a chunk is taken whole or not at all: an engine gone before it is
    a crash before the chunk's first request, as one request at a time."""
    path = tmp_path / "once.py"
    path.write_text("import sys\nsys.stdin.readline()\nprint('{}', flush=True)\n")
    engine = Engine([sys.executable, str(path)], T)
    engine.ensure_started()
    try:
        assert engine.request({"op": "current_player"}) == {}
        engine.process.wait(timeout=T)  # it has exited: its input is closed
        chunk = [{"op": "random_deal", "seed": n} for n in (5, 6, 7)]
        with pytest.raises(EngineFailure) as failed:
            engine.write_requests(chunk)
        assert failed.value.kind == "crash"
        assert failed.value.message.startswith(
            f"the engine exited (code 0) before {json.dumps(chunk[0])}")
    finally:
        engine.stop()
