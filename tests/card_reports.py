"""Check reports made here, from the report card's model (oracle/core/check.py), for the tests
of the check report's page (tests/test_viewer_card.py, tests/test_viewer_card_browser.py) and
its screenshot (dev/screenshots.py check): what ``hanamikoji check`` reports of a course module
that crashes on its 46th call, an engine with two rule defects and a bot that throws, with the
games their failures keep."""

from __future__ import annotations

import random
from typing import Any

from hanamikoji.engine.core.registry import get
from hanamikoji.oracle.core.check import Card, Check, Failure, Report, Reproduction, Timing

#: The strings a hostile implementation could put in a report, each one way out of its place.
HOSTILE = ("</script><script>alert(1)</script>", "\"'><img src=x onerror=alert(2)>",
           "<svg onload=alert(3)>", "lone \ud800 surrogate", "nul \x00 and escape \x1b[31m",
           "&lt;not an entity&gt; & <!-- a comment")


def record(seed: int = 1) -> dict[str, Any]:
    """A whole Hanamikoji game's record, played by the engine from ``seed``."""
    game = get("hanamikoji")
    return game.to_record(game.random_game(random.Random(seed), game.configure({})))


def position(name: str = "hanamikoji", seed: int = 3, decisions: int = 9,
             **options: Any) -> dict[str, Any]:
    """The first ``decisions`` decisions of a game of ``name`` as a position."""
    game = get(name)
    state = game.random_game(random.Random(seed), game.configure(options),
                             max_decisions=decisions)
    return game.position_to_json(state)


def module_card(name: str = "pair1", calls: int = 5724) -> Card:
    """A course module that crashes on its 46th call in one process."""
    crash = Failure(
        "T3 hanamikoji_action crashed on call 46: the process ended before answering",
        call=46, request='hanamikoji_action("2A", "ABCDEFG", [0,0,0,0,0,0,0])',
        expected="an action string", got="(no answer)",
        reproduction=Reproduction("javascript", "import { hanamikoji_action } from "
                                  "'./pair1/t3.js';\nfor (let i = 1; i <= 46; i++) "
                                  "console.log(i, hanamikoji_action('2A', 'ABCDEFG', "
                                  "[0,0,0,0,0,0,0]));", note="call 46 aborts"),
        stderr="abort: at ~lib/rt/itcms.ts:128\n", exit="exit code 134", minimized=True)
    illegal = Failure('T3 answer "1FA" is illegal: a secret takes one card',
                      call=47, request='hanamikoji_action("2A", "BCDEFGA", [0,0,0,0,0,0,0])',
                      expected="a legal action", got='"1FA"', rule="ACT-SECRET-1",
                      game=position())
    return Card(name, "module", f"{name}/t3.js", [
        Check("t1", "T1 hanamikoji_judge: 48 vectors", passed=48),
        Check("t2", "T2 calc_current_state", skipped="the module does not export "
              "calc_current_state"),
        Check("t3", f"T3 hanamikoji_action: {calls:,} calls in one process", passed=45,
              failed=calls - 45, failures=[crash, illegal],
              timing=Timing.of([0.4, 0.5, 0.5, 0.7, 1.2, 9.0], limit=2000))])


def engine_card(name: str = "ts-engine") -> Card:
    """An engine with the two defects of the TypeScript engine: a draw after round 3
    (VAR-IT-2), and the second player starting round 2 (UPDATE-4)."""
    draw = Failure("the result of the game differs: expected {\"winner\": 0, \"reason\": "
                   "\"charm\"}, got {\"winner\": null}", request='{"op": "result"}',
                   expected='{"winner": 0, "reason": "charm"}', got='{"winner": null}',
                   rule="VAR-IT-2", reproduction=Reproduction(
                       "sh", "hanamikoji diff --games 1 --seed 4 -- node engine.js"),
                   game=record(2), minimized=True)
    starter = Failure("round 2 is started by player 1, expected player 0",
                      request='{"op": "observe", "player": 0}', rule="UPDATE-4",
                      game=position(decisions=15))
    return Card(name, "engine", "node engine.js", [
        Check("vectors", "the conformance vectors", passed=120),
        Check("perft", "perft to depth 3", passed=3),
        Check("diff", "diff: 200 games against the reference", passed=198, failed=2,
              failures=[draw, starter], timing=Timing.of([0.1, 0.2, 0.3], limit=None)),
        Check("leaks", "the leak check", passed=40)])


def bot_card(name: str = "py-bot") -> Card:
    """A bot that throws in one game of the tournament."""
    thrown = Failure("the bot's process ended before answering decide",
                     request='{"op": "decide", "view": {"hand": "AABCD"}}',
                     stderr="Traceback (most recent call last):\nValueError: no card\n",
                     exit="exit code 1", game=position(decisions=12),
                     reproduction=Reproduction("sh", "hanamikoji tournament --game-number 7 "
                                               "'python bot.py' random"))
    return Card(name, "bot", "python bot.py", [
        Check("calls", "legality at 5,000 decision points in one process", passed=5000,
              timing=Timing.of([0.2] * 10 + [2100.0], limit=2000)),
        Check("tournament", "20 games against the built-ins", passed=19, failed=1,
              failures=[thrown])])


def three() -> Report:
    return Report("hanamikoji", {"variant": "standard"}, 0, "test",
                  [module_card(), engine_card(), bot_card()])


def one() -> Report:
    return Report("hanamikoji", {}, 0, "test", [module_card()])
