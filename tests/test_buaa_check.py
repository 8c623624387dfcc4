"""docs/examples/buaa_check.mjs over long runs and in the course's terms: every call is made in
one process and counted, so a module that breaks only after many calls is named by its call
number with its message; a T3 answer that is not legal is told with the rule it breaks (the
same rule the engine cites, checked here on hundreds of wrong answers); a T2 answer is marked
cell by cell; a slow call is told against the limit. Each Node run is one process of a few
hundred calls. These tests need Node (18 or later)."""

from __future__ import annotations

import json
import pathlib
import random
import re
import shutil
import subprocess

import pytest

from hanamikoji.engine.core.errors import GameError
from hanamikoji.engine.core.registry import get
from hanamikoji.engine.hanamikoji.game import apply, legal_actions
from hanamikoji.oracle.core.bot import hooks
from hanamikoji.oracle.hanamikoji import buaa_tasks
from hanamikoji.oracle.hanamikoji.bot import why_illegal
from hanamikoji.properties.core.cite import checks

ROOT = pathlib.Path(__file__).resolve().parents[1]
RUNNER = ROOT / "docs" / "examples" / "buaa_check.mjs"
VECTORS = ROOT / "tests" / "vectors" / "buaa"
CORRECT = (ROOT / "tests" / "buaa" / "correct.mjs").as_uri()
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed: the JavaScript "
                                                     "checker of docs/examples cannot run here")


def check(module: pathlib.Path, *args: str, vectors: pathlib.Path = VECTORS
          ) -> subprocess.CompletedProcess:
    assert NODE is not None
    return subprocess.run([NODE, str(RUNNER), str(module), str(vectors), *args],
                          capture_output=True, text=True, timeout=120)


def module(tmp_path: pathlib.Path, body: str, name: str = "module.mjs") -> pathlib.Path:
    path = tmp_path / name
    path.write_text(f"import * as correct from {json.dumps(CORRECT)};\n{body}",
                    encoding="utf-8")
    return path


def test_a_module_that_crashes_on_its_46th_call_is_named_with_its_message():
    """The real case: a module whose collector freed memory it still used aborts from its 46th
    call on, in one long-lived process. The committed 48 cases would reach it; --calls goes on
    as long as asked, and the checker names call 46 and shows the abort's message."""
    crashing = ROOT / "tests" / "js" / "t3-crashes-at-call-46.mjs"
    done = check(crashing, "--calls", "200")
    assert (done.returncode, done.stderr) == (1, "")
    lines = done.stdout.splitlines()
    assert re.fullmatch(r'FAIL T3: call 46 \(seed 2027 [^)]*\): hanamikoji_action\("[^"]*", '
                        r'"[A-G]*", Int8Array\.from\(\[[-01,]*\]\)\): threw abort: at '
                        r'~lib/rt/itcms\.ts:128', lines[0]), lines[0]
    assert "T3: 45 passed, 155 failed of 200 calls; the first failure at call 46" in lines
    assert any(line.startswith("T3 time per call (200 calls): median ") for line in lines)
    assert lines[-1] == "45 passed, 155 failed"


def test_a_webassembly_trap_after_many_calls_is_named_with_its_call():
    """The same in WebAssembly: tests/js/t3-wasm-traps-at-call-46.mjs keeps a counter in a
    WebAssembly global and traps from its 46th call on; the trap is named as Node names it."""
    done = check(ROOT / "tests" / "js" / "t3-wasm-traps-at-call-46.mjs", "--calls", "100",
                 "--show", "1")
    assert (done.returncode, done.stderr) == (1, "")
    lines = done.stdout.splitlines()
    assert lines[0].startswith("FAIL T3: call 46 (")
    assert lines[0].endswith("): threw RuntimeError: unreachable")
    assert "T3: 45 passed, 55 failed of 100 calls; the first failure at call 46" in lines


def test_a_module_that_ends_the_process_is_named_by_its_call(tmp_path):
    leaving = module(tmp_path, "let calls = 0;\nexport function hanamikoji_action(h, c, b) {\n"
                               "  if (++calls === 7) process.exit(0);\n"
                               "  return correct.hanamikoji_action(h, c, b);\n}\n")
    done = check(leaving)
    assert (done.returncode, done.stdout) == (
        1, "FAIL: the process ended (exit code 0) during call 7\n")


def test_a_stale_string_after_many_calls_is_caught():
    """An unpinned string, simulated in JavaScript: the glue's copy of the history is freed
    after 60 calls and the function reads the previous call's string in its place. The 48
    committed cases pass; a long run in one process finds the first call that goes wrong."""
    stale = ROOT / "tests" / "js" / "t3-stale-string.mjs"
    assert check(stale).returncode == 0
    done = check(stale, "--calls", "300")
    assert (done.returncode, done.stderr) == (1, "")
    summary = next(line for line in done.stdout.splitlines() if line.startswith("T3: "))
    first = int(summary.rsplit(" ", 1)[1])
    assert first > 60
    assert done.stdout.startswith(f"FAIL T3: call {first} ")
    assert "which is not legal: " in done.stdout.splitlines()[0]


def test_a_default_export_is_checked_as_the_shim_plays_it(tmp_path):
    both = module(tmp_path, "export default { hanamikoji_judge: correct.hanamikoji_judge, "
                            "hanamikoji_action: correct.hanamikoji_action };\n")
    done = check(both)
    total = sum(len(json.loads((VECTORS / n).read_text())["tests"]) for n in ("t1.json",
                                                                              "t3.json"))
    assert (done.returncode, done.stdout, done.stderr) == (0, f"{total} passed, 0 failed\n", "")


def test_what_a_module_prints_goes_to_stderr(tmp_path):
    """As in the bot shim: the report on stdout is the checker's alone."""
    chatty = module(tmp_path, "export function hanamikoji_action(h, c, b) {\n"
                              "  console.log('thinking'); console.table([h]);\n"
                              "  return correct.hanamikoji_action(h, c, b);\n}\n")
    done = check(chatty)
    assert (done.returncode, done.stdout) == (0, "48 passed, 0 failed\n")
    assert done.stderr.count("thinking") == 48


def test_a_t2_answer_is_marked_cell_by_cell(tmp_path):
    """One cell off (the opponent's A): each failure names it, with the expected and the
    returned count, and only it."""
    off = module(tmp_path, (
        "export function calc_current_state(history, board) {\n"
        "  const [mine, theirs, after] = correct.calc_current_state(history, board);\n"
        "  return [mine, [theirs[0] + 1, ...theirs.slice(1)], after];\n"
        "}\n"))
    done = check(off, "--show", "1000")
    cases = json.loads((VECTORS / "t2.json").read_text())["tests"]
    failures = done.stdout.splitlines()[:-2]
    assert len(failures) == len(cases)
    for line, case in zip(failures, cases):
        a = case["expected"][1][0]
        assert line.endswith(f"): 1 cell of 21 differ: [1][0] the opponent's cards of A: "
                             f"expected {a}, got {a + 1}"), line


def test_a_t1_code_is_told_with_its_meaning(tmp_path):
    draw = module(tmp_path, "export const hanamikoji_judge = (board, round) => "
                            "round === 3 ? 2 : correct.hanamikoji_judge(board, round);\n")
    lines = check(draw, "--show", "1").stdout.splitlines()
    cases = json.loads((VECTORS / "t1.json").read_text())["tests"]
    call, case = next((i + 1, c) for i, c in enumerate(cases)
                      if c["round"] == 3 and c["expected"] != 2)
    meaning = {1: "you win", -1: "the opponent wins"}[case["expected"]]
    assert lines[0] == (f"FAIL T1: call {call}: hanamikoji_judge(Int8Array.from("
                        f"{json.dumps(case['board'], separators=(',', ':'))}), 3): expected "
                        f"{case['expected']} ({meaning}), got 2 (a draw, after round 3)")


def test_a_slow_call_is_told_against_the_limit(tmp_path):
    """The first call spins for 200 ms (counted by the clock, inside the module); with --limit
    20 it fails, saying the time taken and the limit."""
    slow = module(tmp_path, (
        "let first = true;\n"
        "export function hanamikoji_action(history, cards, board) {\n"
        "  if (first) { first = false; const t = Date.now(); while (Date.now() - t < 200); }\n"
        "  return correct.hanamikoji_action(history, cards, board);\n"
        "}\n"))
    done = check(slow, "--limit", "20")
    assert done.returncode == 1
    line = done.stdout.splitlines()[0]
    assert re.fullmatch(r"FAIL T3: call 1 \(.*\): took \d+\.\d ms, over the limit of 20 ms",
                        line), line
    assert float(line.split("took ")[1].split()[0]) > 190  # Date.now() counts whole ms


# --- T3: the reason of an illegal answer is the engine's ---------------------------------------


def wrong_answers(legal: list[str], hand: str, rng: random.Random) -> list[str]:
    """Answers near the legal ones: a card more or less, another card, another digit, an action
    already used, a pick where an action is due (and the other way round), and strings that
    are no answer."""
    found = {digit + hand[:int(digit)] for digit in "1234"}
    found |= {"1FA", "5A", "1Z", "-Z", "-ABC", "", "2AB-CD", "4ABCD-AB", "3ABC-", "-", "1",
              "3ABC-A", "4ABCDE", "1X", "-AG"}
    for answer in legal:
        head, cards = answer[0], answer[1:]
        found.update({answer + "A", answer + "G", answer[:-1]})
        found.update(head + letter + cards[1:] for letter in "ABCDEFG")
        found.update(digit + cards for digit in "1234-")
        if head != "-":
            found.add("-" + cards[:2])
    return rng.sample(sorted(found), 10)


def engine_rule(point, answer: str) -> str | None:
    """The rule the toolkit cites when ``answer`` is given at ``point`` (None: legal)."""
    extension = hooks(get("hanamikoji"))
    try:
        decision = extension.read_decision(point, answer)
        apply(point, decision)
    except GameError as error:
        return error.rule
    assert decision in legal_actions(point)
    return None


CITED = ("TURN-3", "TURN-4", "ACT-SECRET-1", "ACT-TRADE-1", "ACT-GIFT-1", "ACT-GIFT-2",
         "ACT-COMP-1", "ACT-COMP-2", "COMP-2", "COMP-3")


@checks(*CITED)
def test_an_illegal_answer_is_told_with_the_rule_the_engine_cites(tmp_path):
    """Hundreds of wrong answers at the committed decision points, in one process: for each,
    the checker's reason cites the rule the engine's own reading (the referee's) cites."""
    rng = random.Random(34)
    cases, answers, rules = [], [], []
    for id, point in buaa_tasks.t3_points():
        case = buaa_tasks.t3_case(id, point)
        for answer in wrong_answers(case["legal"], case["hand"], rng):
            rule = engine_rule(point, answer)
            if rule is not None:
                cases.append(case)
                answers.append(answer)
                rules.append(rule)
    assert set(rules) == set(CITED) and len(answers) > 300
    (tmp_path / "t3.json").write_text(json.dumps({"tests": cases}), encoding="utf-8")
    (tmp_path / "answers.json").write_text(json.dumps(answers), encoding="utf-8")
    replay = tmp_path / "replay.mjs"
    replay.write_text(
        'import { readFileSync } from "node:fs";\n'
        'const answers = JSON.parse(readFileSync(new URL("./answers.json", import.meta.url)));\n'
        "let calls = 0;\n"
        "export const hanamikoji_action = () => answers[calls++];\n", encoding="utf-8")
    done = check(replay, "--show", "100000", vectors=tmp_path)
    failures = done.stdout.splitlines()[:-2]
    assert len(failures) == len(answers)
    for line, case, answer, rule in zip(failures, cases, answers, rules):
        assert f"returned {json.dumps(answer)}, which is not legal: " in line, line
        # the same reason as the toolkit's own reading in Python, the engine's rule
        reason = why_illegal(case["history"], case["hand"], answer)
        assert reason is not None and reason[1] == rule, (answer, reason, rule)
        assert line.endswith(f": {reason[0]} [{rule}]"), (line, reason)
    first = failures[answers.index("1FA")]
    assert first.endswith('returned "1FA", which is not legal: a secret takes exactly 1 card, '
                          'not 2 [ACT-SECRET-1]')


def test_a_forfeits_message_for_an_action_string_is_in_the_courses_terms():
    """The bot protocol's hook for a forfeit's message: an action string's fault as the
    course writes moves (no engine value in it), a JSON answer's the engine's message."""
    extension = hooks(get("hanamikoji"))
    id, point = next((id, p) for id, p in buaa_tasks.t3_points() if id.endswith("pick")
                     and p.pending.kind.value == "competition")
    seen = buaa_tasks.t3_case(id, point)
    try:
        apply(point, extension.read_decision(point, "1" + seen["hand"][0]))
    except GameError as error:
        message = extension.fault_message(point, point.active ^ 1, "1" + seen["hand"][0],
                                          error)
        engine_terms = '{"action":"competition","sets":'  # the record's JSON, not the course's
        assert engine_terms in error.message and engine_terms not in message
    pending = seen["history"].split()[-1]
    assert message == (f"the opponent's competition {pending} waits for your pick: answer '-' "
                       "and the set you take")


def test_the_report_is_whole_when_its_reader_is_slow(tmp_path):
    """process.exit() drops what a full pipe has not yet taken: a loaded machine lost the end of
    a 435-line report, and a reader that waits (``| less``, a slow CI log) lost most of 3,000.
    The checker exits once its report is written; the reader here starts reading only after
    the checker has filled the pipe many times over (3,000 failures, some 600 kB)."""
    wrong = module(tmp_path, 'export const hanamikoji_action = () => "9ZZ";\n')
    done = subprocess.run(
        ["bash", "-c", '"$@" | (sleep 1; wc -l)', "bash", NODE, str(RUNNER), str(wrong),
         str(VECTORS), "--calls", "3000", "--show", "100000"],
        capture_output=True, text=True, timeout=120)
    # every call fails and is listed, then the task's summary, its time per call (--calls) and
    # the closing count
    assert int(done.stdout) == 3000 + 3, done.stderr
