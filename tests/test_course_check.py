"""check_module, the course-module target of ``hanamikoji check``: a module's report card in the
course's terms, against modules that misbehave (a wrong judge, calculator and bot; a crash on
the 46th call; a stale string after 60 calls; a throw; debug output; a process that aborts; a
call that never returns; a module that does not load). Each reproduction is run as pasted, and
must make the failing call again. These tests need Node (18 or later)."""

from __future__ import annotations

import functools
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

from hanamikoji.oracle.core.check import SCHEMA, Report
from hanamikoji.oracle.hanamikoji import course_check
from hanamikoji.oracle.hanamikoji.course_check import check_module
from hanamikoji.runtime.base import UsageError

ROOT = pathlib.Path(__file__).resolve().parents[1]
NODE = shutil.which("node")
CORRECT = ROOT / "tests" / "buaa" / "correct.mjs"
JS = ROOT / "tests" / "js"
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed: a course module "
                                                     "is run with Node")


@pytest.fixture(autouse=True)
def committed_vectors(monkeypatch):
    """The committed vectors read from tests/vectors/buaa, not made again (two seconds of
    T1's reachable boards): test_buaa_tasks.py checks they are what buaa_tasks.files() writes,
    byte for byte."""
    made = course_check._documents

    def documents(cases, seed):
        if cases is None and seed is None:
            folder = ROOT / "tests" / "vectors" / "buaa"
            return {name: (folder / name).read_text(encoding="utf-8")
                    for name in ("t1.json", "t2.json", "t3.json")}
        return made(cases, seed)

    monkeypatch.setattr(course_check, "_documents", documents)


def checked(path: pathlib.Path | str, **options) -> dict:
    """The card of ``path``, its checks by ID (the bot's left out: helper chk's)."""
    options = {"calls": 100, "bot": False, **options}
    card = check_module(str(path), **options)
    return {"card": card, **{c.name: c for c in card.checks}}


@functools.lru_cache(maxsize=None)
def page_card(path: str):
    """The card of a module docs/buaa.md names by its path from the checkout, as the page
    makes it (``--calls 1000``); made once for the tests that read it."""
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        return check_module(path, calls=1000, bot=False)
    finally:
        os.chdir(cwd)


def module(tmp_path: pathlib.Path, body: str, name: str = "module.mjs") -> pathlib.Path:
    path = tmp_path / name
    path.write_text(f"import * as correct from {json.dumps(CORRECT.as_uri())};\n{body}",
                    encoding="utf-8")
    return path


def pasted(snippet: str, cwd: pathlib.Path) -> subprocess.CompletedProcess:
    """A JavaScript reproduction run as a user pastes it: a file of its own."""
    (cwd / "repro.mjs").write_text(snippet, encoding="utf-8")
    assert NODE is not None
    return subprocess.run([NODE, "repro.mjs"], cwd=cwd, capture_output=True, text=True,
                          timeout=60)


def committed(file: str) -> list:
    return json.loads((ROOT / "tests" / "vectors" / "buaa" / file).read_text())["tests"]


def counts(check) -> tuple[str, int, int]:
    return check.status, check.passed, check.failed


@needs_node
def test_a_correct_module_passes_every_check():
    card = page_card("tests/buaa/correct.mjs")
    found = {"card": card, **{c.name: c for c in card.checks}}
    assert found["card"].ok
    assert [c.name for c in found["card"].checks] == ["load", "t1", "t2", "t3", "calls-t1",
                                                      "calls-t2", "calls-t3"]
    for id, file in (("t1", "t1.json"), ("t2", "t2.json"), ("t3", "t3.json")):
        assert counts(found[id]) == ("pass", len(committed(file)), 0)
        assert counts(found[f"calls-{id}"]) == ("pass", 1000, 0)
        assert found[f"calls-{id}"].timing.calls == 1000
        assert found[f"calls-{id}"].timing.limit == 2000
    assert found["load"].title.endswith(": T1 hanamikoji_judge, T2 calc_current_state, "
                                        "T3 hanamikoji_action")


@needs_node
def test_the_cases_asked_for_come_after_the_committed_ones():
    """``cases`` more T2 and T3 cases of ``seed`` (``vectors --cases``), T1's file the same."""
    found = checked(CORRECT, cases=30, seed=5, calls=1)
    more = course_check._documents(30, 5)  # buaa_tasks.files(30, 5), as the check wrote it
    for id, file in (("t2", "t2.json"), ("t3", "t3.json")):
        assert found[id].passed == len(committed(file)) + len(json.loads(more[file])["tests"])
    assert found["t1"].passed == 6561


@needs_node
def test_a_wrong_module_fails_each_task_in_the_courses_terms(tmp_path):
    found = checked(CORRECT.parent / "wrong.mjs")
    assert not found["card"].ok
    assert [counts(found[id]) for id in ("t1", "t2", "t3")] == [
        ("fail", 6465, 96), ("fail", 0, 40), ("fail", 29, 19)]
    t1, t2, t3 = (found[id].failures[0] for id in ("t1", "t2", "t3"))
    assert t1.message == ("hanamikoji_judge(Int8Array.from([-1,-1,-1,-1,0,1,1]), 3): expected "
                          "-1 (the opponent wins), got 2 (a draw, after round 3)")
    assert t1.call == 4392
    assert re.fullmatch(r'calc_current_state\("[^"]+", Int8Array\.from\(\[[-01,]+\]\)\): '
                        r"\d+ cells? of 21 differ: \[0\]\[\d\] your cards of [A-G]: expected "
                        r"\d, got \d.*", t2.message), t2.message
    assert t3.message.endswith('returned "1AC", which is not legal: a secret takes exactly 1 '
                               'card, not 2 [ACT-SECRET-1]')
    assert (t3.rule, t3.got) == ("ACT-SECRET-1", '"1AC"')
    assert "Competition(" not in json.dumps(found["card"].to_json())
    # each reproduction, pasted, makes the call and prints what the card says it returned
    for failure in (t1, t2, t3):
        assert failure.reproduction.language == "javascript"
        done = pasted(failure.reproduction.text, tmp_path)
        assert done.returncode == 0, done.stderr
        printed = done.stdout.strip()
        assert failure.reproduction.note == f"prints {failure.got}; expected {failure.expected}"
    assert printed == "1AC"
    summary = "\n".join(found["card"].summary())
    assert "t3, first failure (call 6602): hanamikoji_action(" in summary


@needs_node
def test_a_crash_on_the_46th_call_is_named_with_its_message(tmp_path):
    """The real case: the module aborts from its 46th call on, in one long-lived process. The
    call alone, in a fresh process, passes: the reproduction is the commands that make all 46
    calls, and run as pasted they name call 46 with the abort."""
    card = page_card("tests/js/t3-crashes-at-call-46.mjs")  # as docs/buaa.md shows it
    found = {"card": card, **{c.name: c for c in card.checks}}
    calls = found["calls-t3"]
    assert counts(calls) == ("fail", 45, 955)
    first = calls.failures[0]
    assert first.call == 46
    assert first.message.startswith("hanamikoji_action(")
    assert first.message.endswith("): threw abort: at ~lib/rt/itcms.ts:128")
    assert [c.name for c in found["card"].checks if c.status == "skip"] == [
        "t1", "t2", "calls-t1", "calls-t2"]
    assert found["t1"].skipped == "not exported (nor as HanamikojiJudge, hanamikojiJudge)"
    reproduction = first.reproduction
    assert reproduction.language == "sh" and "--calls 1000" in reproduction.text
    (tmp_path / "buaa-vectors").symlink_to(ROOT / "tests" / "vectors" / "buaa")
    (tmp_path / "tests").symlink_to(ROOT / "tests")
    (last,) = [line for line in reproduction.text.splitlines() if line.startswith("node ")]
    done = subprocess.run(["bash", "-c", last], cwd=tmp_path, capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.startswith("FAIL T3: call 46 (seed 2027 "), done.stdout
    assert done.stdout.splitlines()[0].endswith("): threw abort: at ~lib/rt/itcms.ts:128")


@needs_node
def test_a_stale_string_is_found_by_the_long_run():
    """tests/js/t3-stale-string.mjs reads the previous call's history from its 61st call on:
    the 48 committed cases pass, the long run fails from a call after the 60th."""
    found = checked(JS / "t3-stale-string.mjs", calls=300)
    assert counts(found["t3"]) == ("pass", 48, 0)
    first = found["calls-t3"].failures[0]
    assert found["calls-t3"].status == "fail" and first.call > 60
    assert "which is not legal: " in first.message
    assert first.reproduction.language == "sh"
    assert first.reproduction.note == (f"this call fails only after the {first.call - 1} calls "
                                       f"before it, in one process; the runner prints it as "
                                       f"call {first.call}")


@needs_node
def test_debug_output_does_not_fail_a_module(tmp_path):
    chatty = module(tmp_path, "export function hanamikoji_action(h, c, b) {\n"
                              "  console.log('thinking'); process.stdout.write('{\\n');\n"
                              "  return correct.hanamikoji_action(h, c, b);\n}\n")
    found = checked(chatty)
    assert found["card"].ok and counts(found["calls-t3"]) == ("pass", 100, 0)


@needs_node
def test_a_thrown_error_is_shown_with_its_message(tmp_path):
    """Thrown on every call: the message, and a reproduction of the one call, which throws the
    same when pasted. Thrown from the 3rd call on (tests/js/t3-throws-at-call-3.mjs): the
    call alone does not throw, so the reproduction makes the calls before it."""
    throws = module(tmp_path, "export default { hanamikoji_action() { throw new "
                              "TypeError('no card left'); } };\n")
    found = checked(throws, calls=10)
    first = found["t3"].failures[0]
    assert first.message.endswith("): threw TypeError: no card left") and first.call == 1
    assert found["t3"].failed == 48 and len(found["t3"].failures) == 5
    assert first.reproduction.language == "javascript"
    assert first.reproduction.text.startswith("import course from ")  # the default export
    assert first.reproduction.note == "throws TypeError: no card left"
    done = pasted(first.reproduction.text, tmp_path)
    assert done.returncode == 1 and "TypeError: no card left" in done.stderr
    later = checked(JS / "t3-throws-at-call-3.mjs", calls=10)["t3"].failures[0]
    assert (later.call, later.reproduction.language) == (3, "sh")
    assert later.message.endswith("): threw no card left to choose from")


@needs_node
def test_a_process_that_dies_is_a_failure_at_its_call(tmp_path):
    """A WebAssembly abort that takes the process with it (process.abort here): the failure is
    the call it died in, with how it ended and its stderr's end; the calls after it are not
    made, and the tasks after it not run."""
    dies = module(tmp_path, "let calls = 0;\n"
                            "export const hanamikoji_judge = correct.hanamikoji_judge;\n"
                            "export function calc_current_state(h, b) {\n"
                            "  if (++calls === 7) { console.error('memory access out of "
                            "bounds'); process.abort(); }\n"
                            "  return correct.calc_current_state(h, b);\n}\n"
                            "export const hanamikoji_action = correct.hanamikoji_action;\n")
    found = checked(dies, calls=20)
    assert counts(found["t1"]) == ("pass", 6561, 0)
    assert counts(found["t2"]) == ("fail", 6, 1)
    died = found["t2"].failures[0]
    assert died.call == 6561 + 7 and died.exit == "killed by SIGABRT"
    assert died.message.startswith("calc_current_state(\"") and died.message.endswith(
        "): the process ended during the call (killed by SIGABRT)")
    assert "memory access out of bounds" in died.stderr
    assert found["t3"].skipped == "not run: the process ended during call 6568, of T2"
    assert counts(found["calls-t2"]) == ("fail", 6, 1)
    assert found["calls-t2"].failures[0].call == 20 + 7


@needs_node
def test_a_call_that_never_returns_is_stopped(tmp_path):
    """The process is stopped once it has been silent for longer than a call may take (three
    times the limit and a second: a safety net, never reached by a call that returns), and
    nothing it started is left running."""
    pidfile = tmp_path / "child.pid"
    hangs = module(tmp_path, (
        'import { spawn } from "node:child_process";\n'
        'import { writeFileSync } from "node:fs";\n'
        "let calls = 0;\n"
        "export function hanamikoji_action(h, c, b) {\n"
        "  if (++calls === 2) {\n"
        "    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'],\n"
        "                        { detached: true, stdio: 'ignore' });\n"
        f"    writeFileSync({json.dumps(str(pidfile))}, String(child.pid));\n"
        "    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);  // forever, idle\n"
        "  }\n"
        "  return correct.hanamikoji_action(h, c, b);\n}\n"))
    card = check_module(str(hangs), calls=1, limit_ms=100, bot=False)
    t3 = next(c for c in card.checks if c.name == "t3")
    assert counts(t3) == ("fail", 1, 1)
    stopped = t3.failures[0]
    assert stopped.call == 2 and stopped.exit == "stopped by the checker"
    assert stopped.message.endswith("): no answer within 1.3 s: the call does not return, the "
                                    "process was stopped")
    child = int(pidfile.read_text())
    assert not pathlib.Path(f"/proc/{child}").exists() or \
        "zombie" in pathlib.Path(f"/proc/{child}/status").read_text().lower()


@needs_node
def test_a_module_that_does_not_load_is_a_failed_load_check(tmp_path):
    (tmp_path / "broken.mjs").write_text("export const x = ;\n", encoding="utf-8")
    (tmp_path / "none.mjs").write_text("export const y = 1;\n", encoding="utf-8")
    for path, said in [(tmp_path / "missing.mjs", "cannot load it: Cannot find module"),
                       (tmp_path / "broken.mjs", "cannot load it: Unexpected token"),
                       (tmp_path / "none.mjs", "exports none of hanamikoji_judge, "
                                               "calc_current_state, hanamikoji_action")]:
        card = check_module(str(path), calls=5, bot=False)
        load = card.checks[0]
        assert (load.name, load.status) == ("load", "fail")
        assert said in load.failures[0].message and "\n" not in load.failures[0].message
        assert [c.status for c in card.checks[1:]] == ["skip"] * 3


@needs_node
def test_the_card_is_valid_report_json():
    jsonschema = pytest.importorskip("jsonschema")
    card = page_card("tests/js/t3-crashes-at-call-46.mjs")
    report = Report("hanamikoji", {"variant": "italian-three-rounds"}, 0, "test", [card])
    jsonschema.validate(report.to_json(), SCHEMA)


def test_without_node_it_says_so(monkeypatch):
    monkeypatch.setattr(course_check.shutil, "which", lambda name: None)
    with pytest.raises(UsageError, match="node is not installed"):
        check_module(str(CORRECT))


@needs_node
def test_the_module_plays_as_a_bot_through_the_shim():
    """A module exporting T3 gets the bot's rows (check_bot): the module played through the
    shim in one long-lived process, then in a short tournament."""
    card = check_module(str(CORRECT), calls=50, deals=1)
    names = [c.name for c in card.checks]
    assert names == ["load", "t1", "t2", "t3", "calls-t1", "calls-t2", "calls-t3", "calls",
                     "tournament"]
    assert card.ok and card.checks[-2].passed == 50


def test_the_runner_ships_with_the_package():
    """The JavaScript check_module runs is package data (pyproject.toml), beside the module."""
    for path in (course_check.RUNNER, course_check.SHIM, course_check.COURSE / "buaa_module.mjs"):
        assert path.is_file(), path
    assert sys.modules["hanamikoji.oracle.hanamikoji.course_check"].__file__ is not None


@needs_node
def test_a_module_that_ends_the_process_is_named_by_its_call(tmp_path):
    """process.exit(0) in the module's 7th call: the failure is that call, with the exit code
    the module gave (not the runner's 1)."""
    leaving = module(tmp_path, "let calls = 0;\nexport function hanamikoji_action(h, c, b) {\n"
                               "  if (++calls === 7) process.exit(0);\n"
                               "  return correct.hanamikoji_action(h, c, b);\n}\n")
    t3 = checked(leaving, calls=1)["t3"]
    assert counts(t3) == ("fail", 6, 1)
    assert (t3.failures[0].call, t3.failures[0].exit) == (7, "exit code 0")
    assert t3.failures[0].message.endswith("): the process ended during the call (exit code 0)")


@needs_node
def test_a_webassembly_trap_after_many_calls_is_named_with_its_call():
    found = checked(JS / "t3-wasm-traps-at-call-46.mjs", calls=60)
    first = found["calls-t3"].failures[0]
    assert counts(found["calls-t3"]) == ("fail", 45, 15)
    assert first.call == 46 and first.message.endswith("): threw RuntimeError: unreachable")


@needs_node
def test_nothing_the_module_starts_outlives_the_check(tmp_path):
    """A module that starts a detached child at import (a session of its own) and runs to the
    end: each run's child is ended with it."""
    pidfile = tmp_path / "children.pid"
    spawns = module(tmp_path, (
        'import { spawn } from "node:child_process";\n'
        'import { appendFileSync } from "node:fs";\n'
        "const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'],\n"
        "                    { detached: true, stdio: 'ignore' });\n"
        "child.unref();\n"
        f"appendFileSync({json.dumps(str(pidfile))}, `${{child.pid}}\\n`);\n"
        "export const hanamikoji_action = correct.hanamikoji_action;\n"))
    assert checked(spawns, calls=1)["card"].ok
    children = [int(pid) for pid in pidfile.read_text().split()]
    assert len(children) == 2  # the vectors' run and the long run
    for child in children:
        status = pathlib.Path(f"/proc/{child}/status")
        assert not status.exists() or "zombie" in status.read_text().lower(), child
