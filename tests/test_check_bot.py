"""``check`` of a bot (oracle/core/check_bot.py): a long run of calls in ONE process, started
again after a crash or a hang, each misbehaviour named by its call number with its message
(tests/long_run_bots.py); a short tournament whose forfeits keep their message, stderr and
exit; the built-in random bot run as a command passes both."""

from __future__ import annotations

import pathlib
import sys

import pytest

from hanamikoji.engine.core.registry import get
from hanamikoji.oracle.core.check_bot import check_bot, positions

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import long_run_bots as bots  # noqa: E402  (tests/ is not a package)

ROOT = pathlib.Path(__file__).resolve().parents[1]
#: A limit no loaded machine comes near (but the hang's, which must wait it out once).
SAFE_MS = 600_000.0


def rows(mode: str, *extra: str, calls: int = 60, deals: int = 1,
         limit_ms: float = SAFE_MS) -> dict:
    argv = [sys.executable, str(ROOT / "tests" / "long_run_bots.py"), mode, *extra]
    checks = check_bot(argv, name=mode, game=get(), options={}, seed=0, calls=calls,
                       deals=deals, limit_ms=limit_ms)
    return {check.name: check for check in checks}


def test_a_crash_on_the_46th_call_of_one_process_is_named_and_the_run_goes_on():
    """Every call of the run goes to one process: a bot that crashes at its 46th call
    crashes once in 60 (a process a game would never reach a 46th call); it is started again
    and the other 59 calls are made and counted."""
    calls = rows("crash-46")["calls"]
    assert (calls.passed, calls.failed) == (59, 1)
    [failure] = calls.failures
    assert failure.call == 46 and failure.message.startswith("the bot's process ended")
    assert "ended before answering decide" in failure.message
    assert bots.ABORT in failure.stderr and failure.exit == "exit code 134"
    assert failure.reproduction.text.startswith("printf '%s\\n' '{\"op\":\"new_game\"")
    assert "--calls 46" in failure.reproduction.text
    assert calls.timing is not None and calls.timing.calls == 59
    assert calls.timing.limit == SAFE_MS


def test_a_thrown_error_is_kept_with_its_message_and_forfeits_its_games():
    checks = rows("throw-5", calls=12)
    calls = checks["calls"]
    assert [f.call for f in calls.failures] == [5, 10]  # the new process throws at its 5th
    assert bots.THROWN in calls.failures[0].stderr and calls.failures[0].exit == "exit code 1"
    tournament = checks["tournament"]
    assert tournament.failed == tournament.passed + tournament.failed == 4
    first = tournament.failures[0]
    assert first.message.startswith("game 0 (seat 0): crash: ")
    assert bots.THROWN in first.stderr and first.exit == "exit code 1"
    assert first.game["history"] and first.game["game"] == "hanamikoji"


def test_debug_text_on_standard_output_is_named_at_each_call():
    """A bot that writes debug text before every answer fails every call, each named at its
    own call: it is started again after each, so no answer is read as a later call's."""
    calls = rows("debug", calls=10)["calls"]
    assert (calls.passed, calls.failed) == (0, 10)
    assert [f.call for f in calls.failures] == [1, 2, 3, 4, 5]
    for failure in calls.failures:
        assert "the answer to decide is not one JSON value" in failure.message
        assert bots.DEBUG in failure.got


def test_an_illegal_answer_now_and_then_names_each_call_and_the_rule():
    calls = rows("illegal-7", calls=60)["calls"]
    assert calls.failed >= 2 and calls.passed + calls.failed == 60
    assert all(f.call % 7 == 0 for f in calls.failures)
    assert all(f.rule == "ACT-SECRET-1" for f in calls.failures)
    assert all(f.stderr is None and f.exit is None for f in calls.failures)  # it ran on


def test_a_hang_once_is_a_time_out_with_its_limit_and_the_run_goes_on(tmp_path):
    # The one test that waits out a limit: 2 s once (the course's), at the 10th call.
    calls = rows("hang-once", str(tmp_path / "hung"), calls=20, deals=1,
                 limit_ms=2000.0)["calls"]
    assert (calls.passed, calls.failed) == (19, 1)
    [failure] = calls.failures
    assert failure.call == 10 and "within the limit of 2 s" in failure.message


def test_the_built_in_random_bot_as_a_command_passes():
    argv = [sys.executable, "-m", "hanamikoji.oracle.core.bot", "random"]
    checks = check_bot(argv, name="random", game=get(), options={}, seed=0, calls=80, deals=1,
                       limit_ms=SAFE_MS)
    assert [c.status for c in checks] == ["pass", "pass"]
    assert checks[0].passed == 80 and checks[1].passed == 4


def test_the_positions_are_seeded_and_take_both_seats():
    game = get()
    config = game.configure()
    first = [(i, s, game.history(st)) for (i, s, st), _ in zip(positions(game, config, 3),
                                                                range(40))]
    again = [(i, s, game.history(st)) for (i, s, st), _ in zip(positions(game, config, 3),
                                                                range(40))]
    assert first == again and {s for _, s, _ in first} == {0, 1}


@pytest.mark.parametrize("mode", ["crash-46"])
def test_the_command_exits_1_and_names_the_call(mode, tmp_path, monkeypatch, capsys):
    from hanamikoji.cli.main import main

    monkeypatch.chdir(tmp_path)
    code = main(["check", "--calls", "50", "--deals", "1", "--limit", str(int(SAFE_MS)), "--times",
                 "--bot", f"{sys.executable} {ROOT / 'tests' / 'long_run_bots.py'} {mode}"])
    out = capsys.readouterr().out
    assert code == 1
    assert out.startswith("long_run_bots (bot: ")
    assert "  calls, first failure (call 46): the bot's process ended" in out
    assert f"    its stderr ends: {bots.ABORT}" in out
    assert "  calls, time per call: 49 calls: median " in out


def test_ctrl_c_while_a_bot_hangs_is_exit_130_and_no_bot_is_left(tmp_path):
    """Ctrl-C while the run waits on a hung bot: "interrupted", exit 130, and the bot's
    process ended with the command (it is in a session of its own: the keeper ends it)."""
    import os
    import signal
    import subprocess
    import time

    marker = tmp_path / "hung"
    command = [sys.executable, "-m", "hanamikoji.cli.main", "check", "--calls", "50",
               "--limit", str(int(SAFE_MS)), "--bot",
               f"{sys.executable} {ROOT / 'tests' / 'long_run_bots.py'} hang-once {marker}"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, cwd=tmp_path)
    deadline = time.monotonic() + 120  # a bound only: the bot hangs at its 10th call
    while not marker.exists() and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
    bot = int(marker.read_text())
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130 and err == "hanamikoji: interrupted\n" and out == ""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            os.kill(bot, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        pytest.fail(f"the hung bot {bot} outlived the command")
