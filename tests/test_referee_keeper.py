"""No process a bot starts outlives its game, even one that left the bot's session: the referee
runs every command bot under the keeper (runtime/keeper.py), which ends every descendant of
the bot. The bots here start a real grandchild in a session of its own (a Python double fork
with ``setsid()``, Node's ``spawn(..., {detached: true})``) and write its process ID to a file;
after the tournament, with one worker and with two, none of them is left. A bot that dies while
its grandchild holds its output is a crash at once, not a bot out of time."""

from __future__ import annotations

import os
import pathlib
import shlex
import shutil
import sys

import pytest

from hanamikoji.cli.main import main
from hanamikoji.engine.core.registry import get
from hanamikoji.runtime import keeper
from hanamikoji.oracle.core.referee import BotSpec, Limits, play

TESTS = pathlib.Path(__file__).resolve().parent
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

from test_referee import RANDOM, ended, gone  # noqa: E402

pytestmark = pytest.mark.skipif(not keeper.AVAILABLE,
                                reason="the keeper needs Linux's child subreaper")
NODE = shutil.which("node")


def python_bot(mode: str, pidfile: pathlib.Path) -> str:
    return shlex.join([sys.executable, str(TESTS / "referee_bots.py"), mode, str(pidfile)])


def node_bot(pidfile: pathlib.Path) -> str:
    assert NODE is not None
    return shlex.join([NODE, str(TESTS / "js" / "detached_bot.mjs"), str(pidfile)])


def grandchildren(pidfile: pathlib.Path) -> list[int]:
    return [int(word) for word in pidfile.read_text().split()]


@pytest.fixture
def pidfile(tmp_path):
    """The file the bots list their grandchildren in; any left running (the test failed) are
    killed after the test, so that a failure leaves nothing behind either."""
    path = tmp_path / "pids"
    yield path
    if path.exists():
        for pid in grandchildren(path):
            if not ended(pid):
                os.kill(pid, 9)


@pytest.mark.parametrize("language, workers, game", [
    ("python", "1", "hanamikoji"), ("python", "2", "hanamikoji"),
    ("node", "1", "hanamikoji"), ("node", "2", "hanamikoji"), ("node", "2", "maiko")])
def test_a_detached_grandchild_does_not_outlive_the_tournament(language, workers, game,
                                                               pidfile, capsys):
    if language == "node" and NODE is None:
        pytest.skip("Node is not installed")
    bot = python_bot("detach", pidfile) if language == "python" else node_bot(pidfile)
    # 2 games on one worker; with two workers, 2 shards of 1 game, one on each
    assert main(["tournament", "--game", game, f"detached={bot}", "random", "--deals", "1",
                 "--json", "--workers", workers, "--shard-size", "1"]) == 0
    assert '"forfeits": 0' in capsys.readouterr().out  # it played, it did not lose by fault
    pids = grandchildren(pidfile)
    assert len(pids) == 2  # one grandchild a game
    # the keeper has killed every descendant when the referee has waited for it; the kernel
    # finishes a killed process in its own time (a loaded CI run saw one still there at once),
    # so each is waited for, within a bound far beyond that: one nobody killed sleeps an hour
    assert [pid for pid in pids if not gone(pid)] == []


def test_a_bot_that_died_while_its_grandchild_holds_its_output_crashed(pidfile):
    """Without the keeper the referee saw no end of the bot's output (the grandchild holds
    it) and waited for the decision's whole limit: a loss on time."""
    game = get("hanamikoji")
    dies = BotSpec("dies", argv=tuple(shlex.split(python_bot("detach-die", pidfile))))
    played = play(game, game.configure({}), [dies, RANDOM], deal_seed=7, deal=0,
                  bot_seeds=[0, 1], limits=Limits(decision=30, game=60))
    assert (played.forfeit.seat, played.forfeit.kind) == (0, "crash")
    assert "ended before answering decide" in played.forfeit.message
    assert [pid for pid in grandchildren(pidfile) if not gone(pid)] == []


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="reads thread masks in /proc")
def test_the_stderr_reader_leaves_ctrl_c_to_the_main_thread():
    """The thread that reads a bot's standard error blocks SIGINT, SIGTERM and SIGHUP: the
    kernel gives a signal to any thread that does not block it, and only the main thread runs
    Python's handler (a signal taken by a helper thread would leave the command running)."""
    import signal

    from hanamikoji.oracle.core.referee import _Tail

    read, write = os.pipe()
    tail = _Tail(os.fdopen(read, "rb"))
    try:
        with open(f"/proc/self/task/{tail.thread.native_id}/status") as status:
            blocked = int(next(line for line in status if line.startswith("SigBlk:")).split()[1],
                          16)
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            assert blocked & (1 << (signum - 1)), signal.Signals(signum).name
    finally:
        os.close(write)
        tail.finish()


def test_a_stop_that_comes_as_the_bot_ends_still_ends_what_the_bot_started(pidfile):
    """The referee closes a bot's input, then sends its keeper SIGTERM; a bot ends at once on
    the end of its input. A keeper that took the signal in a handler could take it after the
    bot had ended and before its clean-up began, and die there, leaving the bot's grandchild
    running: sending SIGTERM over and over while the bot ends did so in 110 of 200 runs. The
    keeper takes signals only when it waits for them (sigwaitinfo), so none is left and it
    exits as the bot did, with nothing on its standard error."""
    import signal
    import subprocess

    bot = ["sh", "-c", f"setsid sleep 3600 </dev/null >/dev/null 2>&1 & echo $! >> {pidfile}; "
           "exec cat"]
    for _ in range(40):
        status = os.pipe()
        process = subprocess.Popen(
            keeper.argv(status[1], bot, grace=0), stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
            pass_fds=(status[1],))
        os.close(status[1])
        assert keeper.started(status[0]) is None
        while not pidfile.exists() or len(grandchildren(pidfile)) <= _:
            pass  # the grandchild has started
        assert process.stdin is not None and process.stderr is not None
        process.stdin.close()
        while process.poll() is None:
            try:
                process.send_signal(signal.SIGTERM)
            except OSError:
                pass
        assert process.stderr.read() == b""
        process.stderr.close()
        assert process.returncode in (0, -signal.SIGKILL)  # cat ended, or was killed
    assert len(grandchildren(pidfile)) == 40
    assert [pid for pid in grandchildren(pidfile) if not gone(pid)] == []
