"""``hanamikoji diff`` against adapters that break the process contract or the protocol:
nothing an adapter started outlives the run (even a process that left its group with
``setsid``), one answer line per request (a line nobody asked for is a protocol error, read to
the end of the engine's output, so a flood cannot grow the harness and a request answered twice
is named as such), answer lines have a documented length limit, ``--games N`` compares N
games, ``--variant`` is refused for a game without variants as every command refuses it, and a
Maiko divergence names the tiles its decisions concern.

No verdict here waits on the clock: processes are found by PID and polled with a generous
bound, and the harness's per-request timeout is never what a test relies on firing."""

from __future__ import annotations

import json
import os
import pathlib
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from hanamikoji.oracle.core import diff as harness
from hanamikoji.oracle.core.diff import LINE_LIMIT, Engine, EngineFailure, compare_engines
from hanamikoji.properties.core.cite import checks

ROOT = pathlib.Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-c", "from hanamikoji.cli.main import run; run()"]
REFERENCE = [sys.executable, "-m", "hanamikoji.oracle.core.adapter"]
#: A per-request timeout no loaded machine comes near: the tests below never rely on it.
GENEROUS = "600"
#: How long a test waits for something that is certain to happen (a killed process gone).
BOUND = 120.0


def hanamikoji(*argv: str, cwd: pathlib.Path, env: dict | None = None
               ) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *argv], capture_output=True, text=True, cwd=cwd, timeout=900,
                          env=env)


def script(tmp_path: pathlib.Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return str(path)


# --- nothing an adapter started is left --------------------------------------------------------

#: An adapter whose child leaves the process group (setsid) and starts two more, all holding
#: the adapter's standard output; each writes its PID and start time to the file argv[1].
SETSID = """
    import os, signal, sys
    from hanamikoji.oracle.core.adapter import Adapter

    def note():
        with open("/proc/self/stat") as stat:
            start = stat.read().rsplit(")", 1)[1].split()[19]
        with open(sys.argv[1], "a") as out:
            out.write(f"{os.getpid()} {start}\\n")

    noted, told = os.pipe()
    if os.fork() == 0:
        os.setsid()
        for _ in range(2):
            if os.fork() == 0:
                break
        note()
        os.write(told, b"x")
        while True:  # holds stdout, ignores its end of input, never exits by itself
            signal.pause()
    got = b""
    while len(got) < 3:  # the three have written their PIDs before any answer
        got += os.read(noted, 3)
    Adapter().serve()
"""


def alive(pid: int, start: str) -> bool:
    """The process ``pid`` that started at ``start`` (clock ticks since boot) is still alive:
    neither gone nor a zombie (a PID reused by another process is not it)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[19] == start and fields[0] != "Z"


@pytest.mark.skipif(not harness.KEEPER, reason="the keeper needs Linux's child subreaper")
@pytest.mark.parametrize("game", ["hanamikoji", "maiko"])
def test_no_process_an_adapter_started_outlives_diff_even_after_setsid(tmp_path, game):
    pids = tmp_path / "pids"
    adapter = script(tmp_path, "setsid.py", SETSID)
    try:
        done = hanamikoji("diff", "--game", game, "--games", "2", "--timeout", GENEROUS, "--",
                          sys.executable, adapter, str(pids), cwd=tmp_path)
        assert done.returncode == 0, (done.stdout, done.stderr)
        started = [line.split() for line in pids.read_text().splitlines()]
        # three processes in each of the three adapter processes (the run's and the two of
        # the seeded check), each written before its adapter answered a request
        assert len(started) == 9
        deadline = time.monotonic() + BOUND
        while any(alive(int(pid), start) for pid, start in started) and \
                time.monotonic() < deadline:
            time.sleep(0.05)
        assert [pid for pid, start in started if alive(int(pid), start)] == []
    finally:  # what this test started, by the PIDs it wrote
        for line in pids.read_text().splitlines() if pids.exists() else ():
            pid, start = line.split()
            if alive(int(pid), start):
                os.kill(int(pid), signal.SIGKILL)


# --- one line per request --------------------------------------------------------------------

FLOOD = """
    import sys
    sys.stdin.readline()
    while True:  # answers, and answers, and answers
        sys.stdout.write("{}\\n" * 1000)
"""


@pytest.mark.parametrize("game", ["hanamikoji", "maiko"])
def test_a_flooding_adapter_is_a_protocol_error_not_a_growing_harness(tmp_path, game):
    """An adapter writing ``{}`` lines without end: the first answers the first request, the
    second is a line nobody asked for, and the reader stops there (so memory stays bounded)."""
    flood = script(tmp_path, "flood.py", FLOOD)
    done = hanamikoji("diff", "--game", game, "--games", "3", "--timeout", GENEROUS, "--",
                      sys.executable, flood, cwd=tmp_path)
    assert done.returncode == 1, (done.stdout, done.stderr)
    lines = done.stdout.splitlines()
    assert lines[0].startswith("DIVERGENCE:")
    assert lines[1].startswith("  protocol error: the engine wrote a line nobody asked for ('{}')")
    assert "answered one twice, or wrote something else on its standard output" in lines[1]


TWICE = """
    import sys
    from hanamikoji.oracle.core.adapter import Adapter
    adapter = Adapter()
    for line in sys.stdin:
        answer = adapter.answer_line(line)
        print(answer, flush=True)
        if '"{OP}"' in line:
            print(answer, flush=True)
"""


@checks("DEAL-1")
@pytest.mark.parametrize("op", ["random_deal", "current_player"])
def test_an_adapter_that_answers_twice_is_told_so(tmp_path, op):
    """DEAL-1's seeded check and a game: a request answered twice is a line nobody asked for,
    whatever the shifted answers after it look like (not 'another deal when asked again')."""
    twice = script(tmp_path, "twice.py", TWICE.replace("{OP}", op))
    for flags in ([], ["--json"]):
        done = hanamikoji("diff", "--games", "3", "--timeout", GENEROUS, *flags, "--",
                          sys.executable, twice, cwd=tmp_path)
        assert done.returncode == 1, (done.stdout, done.stderr)
        message = (json.loads(done.stdout)["divergence"]["message"] if flags
                   else done.stdout.splitlines()[1])
        assert "wrote a line nobody asked for" in message and "answered one twice" in message
        assert "when asked again" not in message


def test_the_leak_check_names_an_answer_given_twice_not_a_leak(tmp_path):
    """Answers shifted by a request answered twice would differ between the two games of a
    pair: the leak check names the protocol error instead of a leak."""
    twice = script(tmp_path, "twice.py", TWICE.replace("{OP}", "observe"))
    done = hanamikoji("diff", "--leaks", "--games", "5", "--timeout", GENEROUS, "--",
                      sys.executable, twice, cwd=tmp_path)
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "wrote a line nobody asked for" in done.stdout.splitlines()[1]
    assert "cannot see" not in done.stdout


def test_a_line_written_at_exit_nobody_asked_for_is_found_when_the_engine_stops(tmp_path):
    """Read to the end: an adapter that agrees on every answer but prints once more when its
    input ends breaks the protocol too, found whatever the reader thread's timing."""
    bye = script(tmp_path, "bye.py", """
        import sys
        from hanamikoji.oracle.core.adapter import Adapter
        Adapter().serve()
        print("bye", flush=True)
    """)
    report = compare_engines([sys.executable, bye], games=2, timeout=float(GENEROUS))
    assert report.divergence is not None
    assert report.divergence.message.startswith(
        "protocol error: the engine wrote a line nobody asked for ('bye')")


ANSWER_OF = """
    import sys
    size = int(sys.argv[1])
    sys.stdin.readline()
    head = '{"current_player":"chance","pad":"'
    sys.stdout.write(head + "x" * (size - len(head) - 2) + '"}\\n')
    sys.stdout.flush()
    sys.stdin.readline()
"""


def test_an_answer_line_may_be_line_limit_bytes_and_no_more(tmp_path):
    """LINE_LIMIT bytes, the newline not counted, is an answer; one byte more is a protocol
    error, and the line is never read whole."""
    answer = script(tmp_path, "answer.py", ANSWER_OF)
    engine = Engine([sys.executable, answer, str(LINE_LIMIT)], float(GENEROUS))
    engine.ensure_started()
    try:
        assert engine.request({"op": "current_player"})["current_player"] == "chance"
    finally:
        engine.stop()
    engine = Engine([sys.executable, answer, str(LINE_LIMIT + 1)], float(GENEROUS))
    engine.ensure_started()
    with pytest.raises(EngineFailure) as failure:
        engine.request({"op": "current_player"})
    assert failure.value.kind == "protocol"
    assert f"with a line longer than {LINE_LIMIT} bytes" in failure.value.message
    engine.stop()


# --- --games N compares N games ----------------------------------------------------------------

TEE = """\
import subprocess, sys
log = open(sys.argv[1], "a")
child = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
for line in sys.stdin:
    log.write(line)
    log.flush()
    child.stdin.write(line)
    child.stdin.flush()
    sys.stdout.write(child.stdout.readline())
    sys.stdout.flush()
"""


def new_games(log: pathlib.Path) -> int:
    """The new_game requests in ``log``, those inside batches too."""
    requests = []
    for line in log.read_text().splitlines():
        request = json.loads(line)
        requests.extend(request["requests"] if request["op"] == "batch" else [request])
    return sum(request["op"] == "new_game" for request in requests)


def test_games_n_compares_n_games_and_counts_the_others_apart(tmp_path):
    """With no divergence, exactly the games asked are compared, each to its end: games are
    drawn from a seeded source, which no budget of draws cuts short (Hypothesis cut about a
    quarter of them), and every new_game the adapter was sent is one of them."""
    (tmp_path / "tee.py").write_text(TEE)
    log = tmp_path / "requests.jsonl"
    report = compare_engines([sys.executable, str(tmp_path / "tee.py"), str(log), *REFERENCE],
                             games=20, seed=0, timeout=float(GENEROUS))
    assert report.divergence is None
    assert report.games == 20 and report.shrink_games == 0 and report.cut_short == 0
    assert new_games(log) == report.games


def test_the_shrinkers_games_are_reported_apart(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT / "tests"))
    (tmp_path / "tee.py").write_text(TEE)
    log = tmp_path / "requests.jsonl"
    argv = [sys.executable, str(tmp_path / "tee.py"), str(log), sys.executable,
            str(ROOT / "docs" / "examples" / "adapter.py"), "--engine",
            "broken_engines:tie-clears-old-marker"]
    report = compare_engines(argv, games=60, seed=0, shrink=20, timeout=float(GENEROUS))
    assert report.divergence is not None and report.shrunk
    assert 1 <= report.games <= 60 and 0 < report.shrink_games <= 21
    assert new_games(log) == report.games + report.cut_short + report.shrink_games
    text = "\n".join(harness.render(report, argv))
    assert f"found in game {report.games}, shrunk in {report.shrink_games} more games" in text


# --- options a game does not have ---------------------------------------------------------------


@pytest.mark.parametrize("command", [
    ["diff", "--game", "maiko", "--variant", "both", "--", "true"],
    ["diff", "--game", "maiko", "--variant", "standard", "--", "true"],
    ["simulate", "--game", "maiko", "--variant", "both", "--games", "1"],
    ["play", "--game", "maiko", "--variant", "both", "--seed", "1"],
    ["perft", "--game", "maiko", "--variant", "both", "--seed", "0", "--depth", "1"],
    ["query", "--game", "maiko", "--where", "winners == 2", "--variant", "both"],
])
def test_variant_is_refused_for_a_game_without_variants_by_every_command(tmp_path, command):
    done = hanamikoji(*command, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (f"hanamikoji {command[0]}: error: --variant: game maiko has no option "
                           "'variant'; its options: players, colours, removed_colour\n")


# --- a Maiko divergence names its tiles ----------------------------------------------------------


@checks("MK-SETUP-5", "MK-FLIP-3")
def test_a_maiko_divergence_says_which_tile_lay_where(tmp_path):
    """MK-SETUP-5, MK-FLIP-3: the report of a broken pair rule shows every space's tile under
    the layout and the tile of each flip, in text and in JSON; the tiles are those the
    layout's own JSON puts at those spaces."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "tests")}
    argv = ["diff", "--game", "maiko", "--players", "3", "--games", "20", "--shrink", "0",
            "--timeout", GENEROUS]
    adapter = [*REFERENCE, "--engine", "maiko=maiko.broken:PAIR_ENDS_TURN"]
    text = hanamikoji(*argv, "--", *adapter, cwd=tmp_path, env=env)
    data = hanamikoji(*argv, "--json", "--", *adapter, cwd=tmp_path, env=env)
    assert text.returncode == data.returncode == 1, (text.stderr, data.stderr)
    d = json.loads(data.stdout)["divergence"]
    tiles = d["decisions"][0]["tiles"]
    flips = [(i, step["space"]) for i, step in enumerate(d["decisions"])
             if step["kind"] == "flip"]
    assert flips
    lines = text.stdout.splitlines()
    at = lines.index('decisions sent after {"op": "new_game"}:')
    assert lines[at + 1] == "    0  layout of 81 tiles, by space:"
    shown = " ".join(lines[at + 2:at + 11]).split()
    assert [word for word in shown if not word[0].isdigit()] == tiles
    for i, space in flips:
        expected = f"flip space={space}: {tiles[space]}"
        assert d["decisions_text"][i] == expected
        assert f"  {i:>3}  {expected}" in lines
    assert d["decisions_text"][0].splitlines()[0] == "layout of 81 tiles, by space:"
