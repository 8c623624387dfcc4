"""``hanamikoji diff`` against adapters that misbehave as processes: a hang ends the
adapter's whole process group, a flood of standard error keeps the harness's memory flat, an
adapter that cannot start is exit 2 (not a divergence), and partial views (``view_keys``)."""

from __future__ import annotations

import json
import os
import pathlib
import signal
import subprocess
import sys
import textwrap
import time
import uuid

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-c", "from hanamikoji.cli.main import run; run()"]


def hanamikoji(*argv: str, cwd: pathlib.Path, timeout: float = 300) -> subprocess.CompletedProcess:
    """The CLI; a ``diff`` without ``--timeout`` gets a per-request timeout no loaded machine
    comes near, so that no verdict depends on how busy the machine is."""
    if argv[0] == "diff" and "--timeout" not in argv:
        argv = ("diff", "--timeout", "600", *argv[1:])
    return subprocess.run([*CLI, *argv], capture_output=True, text=True, cwd=cwd,
                          timeout=timeout + 600)


def script(tmp_path: pathlib.Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return str(path)


def processes_with(marker: str) -> list[int]:
    """The processes whose command line holds ``marker`` (read from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                if marker.encode() in handle.read():
                    found.append(int(entry))
        except OSError:
            continue
    return found


# --- a hang ends the adapter's whole process group -----------------------------------------


def test_a_hanging_adapter_leaves_no_child_behind(tmp_path):
    marker = f"hanamikoji-diff-test-{uuid.uuid4().hex}"
    hang = script(tmp_path, "hang.py", """
        import subprocess, sys, time
        subprocess.Popen(["sh", "-c", "sleep 100000 # " + sys.argv[1]])
        for line in sys.stdin:
            time.sleep(100000)
    """)
    try:
        # it never answers: the short timeout fires whenever the machine gets to it
        done = hanamikoji("diff", "--timeout", "1", "--", sys.executable, hang, marker,
                          cwd=tmp_path)
        assert done.returncode == 1, done.stderr
        assert "did not answer" in done.stdout
        # a killed process may take a moment to go: polled, with a generous bound
        deadline = time.monotonic() + 120
        while processes_with("sleep 100000 # " + marker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert processes_with("sleep 100000 # " + marker) == []
    finally:  # what this test started, found by its own unique marker
        for pid in processes_with(marker):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


# --- standard error: a bounded tail ----------------------------------------------------------


def test_a_flood_on_stderr_does_not_grow_the_harness(tmp_path):
    flood = script(tmp_path, "flood.py", """
        import os, sys
        chunk = b"x" * (1 << 20)
        for _ in range(300):  # 300 MB, no newline
            os.write(2, chunk)
        os.write(2, b"\\nthe last line of the flood\\n")
        os.execvp(sys.executable, [sys.executable, "-m", "hanamikoji.oracle.core.adapter"])
    """)
    measure = textwrap.dedent(f"""
        import resource, subprocess, sys
        done = subprocess.run({CLI!r} + ["diff", "--games", "2", "--timeout", "600", "--",
                              sys.executable,
                              {flood!r}], capture_output=True, text=True)
        print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    """)
    done = subprocess.run([sys.executable, "-c", measure], capture_output=True, text=True,
                          cwd=tmp_path, timeout=300)
    code, maxrss_kib = map(int, done.stdout.split())
    assert code == 0, done.stderr
    assert maxrss_kib < 200 * 1024


def test_the_stderr_tail_is_the_last_lines(tmp_path):
    chatty = script(tmp_path, "chatty.py", """
        import sys
        sys.stderr.write("y" * 3_000_000 + "\\n" + "\\n".join(f"line {i}" for i in range(1000))
                         + "\\n")
        sys.stderr.flush()
        sys.stdin.readline()
        print("not json", flush=True)
    """)
    done = hanamikoji("diff", "--games", "1", "--", sys.executable, chatty, cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "its stderr ends: line 997 | line 998 | line 999" in done.stdout
    assert "yyyy" not in done.stdout


# --- an adapter that cannot start ----------------------------------------------------------


@pytest.mark.parametrize("command, says", [
    ([sys.executable, "missing.py"], "missing.py"),
    ([sys.executable, "-c", "import nonexistent_module"],
     "No module named 'nonexistent_module'"),
    (["./no-such-adapter-command"], "No such file or directory"),
])
def test_an_adapter_that_cannot_start_is_exit_2(tmp_path, command, says):
    done = hanamikoji("diff", "--games", "2", "--", *command, cwd=tmp_path)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("hanamikoji diff: error: cannot start")
    assert says in lines[0]


@pytest.mark.parametrize("game", ["hanamikoji", "maiko"])
def test_a_crash_later_in_the_run_stays_a_divergence(tmp_path, game):
    crash = script(tmp_path, "crash.py", """
        import sys
        from hanamikoji.oracle.core.adapter import Adapter
        adapter = Adapter()
        for i, line in enumerate(sys.stdin):
            if i == 40:
                sys.exit("boom at request 40")
            print(adapter.answer_line(line), flush=True)
    """)
    done = hanamikoji("diff", "--game", game, "--games", "3", "--shrink", "0", "--",
                      sys.executable, crash, cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert done.stdout.startswith("DIVERGENCE:")
    assert "boom at request 40" in done.stdout


# --- partial views: view_keys ----------------------------------------------------------------

PARTIAL = """
import json, sys
from hanamikoji.oracle.core.adapter import Adapter
from hanamikoji.oracle.core.protocol import dumps

mode = sys.argv[1]
adapter = Adapter()
keep = []
for line in sys.stdin:
    request = json.loads(line)
    answer = adapter.answer(line)
    if request.get("op") == "new_game" and answer.get("ok"):
        game = adapter.game
        keep = sorted(game.view_to_json(game.observe(adapter.state, 0)))[::2]  # every other key
        answer["view_keys"] = keep + (["x-ray"] if mode == "unknown" else [])
    if request.get("op") == "observe" and "view" in answer:
        view = {k: v for k, v in answer["view"].items() if k in keep}
        if mode == "wrong":
            view[keep[-1]] = "wrong"
        answer["view"] = view
    print(dumps(answer), flush=True)
"""


def declared_keys(game: str) -> list[str]:
    from hanamikoji.engine.core.registry import get

    g = get(game)
    return sorted(g.view_to_json(g.observe(g.new_game(g.configure()), 0)))[::2]


@pytest.mark.parametrize("game", ["hanamikoji", "maiko"])
def test_a_partial_view_is_compared_on_its_declared_keys(tmp_path, game):
    partial = script(tmp_path, "partial.py", PARTIAL)
    keys = declared_keys(game)
    done = hanamikoji("diff", "--game", game, "--games", "3", "--", sys.executable, partial,
                      "good", cwd=tmp_path)
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert done.stdout.splitlines()[1] == ("views compared on the declared keys only: "
                                           + ", ".join(keys))
    done = hanamikoji("diff", "--game", game, "--games", "3", "--json", "--", sys.executable,
                      partial, "good", cwd=tmp_path)
    report = json.loads(done.stdout)
    assert report["status"] == "agree" and report["view_keys"] == keys


@pytest.mark.parametrize("game", ["hanamikoji", "maiko"])
def test_a_partial_view_still_differs_on_a_declared_key(tmp_path, game):
    partial = script(tmp_path, "partial.py", PARTIAL)
    done = hanamikoji("diff", "--game", game, "--games", "3", "--shrink", "0", "--",
                      sys.executable, partial, "wrong", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert f'differs at "{declared_keys(game)[-1]}"' in done.stdout.splitlines()[1]


def test_unknown_declared_view_keys_are_a_divergence_naming_them(tmp_path):
    partial = script(tmp_path, "partial.py", PARTIAL)
    done = hanamikoji("diff", "--games", "3", "--shrink", "0", "--", sys.executable, partial,
                      "unknown", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines()[1] == \
        '  view_keys declares keys the game\'s views do not have: "x-ray"'


def test_whole_views_report_no_view_keys(tmp_path):
    done = hanamikoji("diff", "--games", "2", "--json", "--", sys.executable, "-m",
                      "hanamikoji.oracle.core.adapter", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "view_keys" not in json.loads(done.stdout)
