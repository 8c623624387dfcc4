"""The course-module target of ``hanamikoji check``: a BUAA 2026 course module (its T1, T2 and T3
functions, docs/buaa.md) checked in one Node process at a time, its report card in the course's
terms.

:func:`check_module` loads the module through the bot shim's loader (``course/buaa_module.mjs``:
the functions found under any of the course's names, named exports or fields of the default
export), then runs the course's runner (``course/buaa_check.mjs --json``, a line a call) twice:
once over the course vectors (each case once: the committed ones, those ``vectors --tasks buaa``
writes, then ``cases`` more of ``vectors --tasks buaa --cases N --seed S``, histories spelled as
players write them), and once for the long run (``calls`` calls of each function in one
process, going round the cases), where a fault that appears only after many calls is named by
its call number. A process that dies mid-run (a WebAssembly abort, ``process.exit``) is a
failure at the call it died in, with its stderr's end and how it ended; one that stops answering
is stopped and said so. Each failure comes with what to paste: the few lines of JavaScript that
make the one call, when that call fails alone in a fresh process (the checker tries it), else the
commands that make every call before it too. A module exporting T3 is then played as a bot,
through the shim (:func:`bot_checks`).

Every verdict is counted (calls, cases, seeds); the clock gives only each check's time per call
and fails a call over the course's limit of :data:`LIMIT_MS`.
"""

from __future__ import annotations

import functools
import json
import os
import pathlib
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from typing import IO, Any, Sequence

import attrs

from hanamikoji.oracle.core.check import MAX_FAILURES, STDERR_TAIL, Card, Check, Failure, \
    Reproduction, Timing, tail
from hanamikoji.oracle.hanamikoji import buaa_tasks
from hanamikoji.runtime import keeper
from hanamikoji.runtime.base import UsageError
from hanamikoji.runtime.processes import exit_status, signal_group, sigint_deferred

__all__ = ["LIMIT_MS", "RUNNER", "SHIM", "bot_checks", "check_module"]

#: The course's runner, loader and bot shim, shipped with the package.
COURSE = pathlib.Path(__file__).resolve().parent / "course"
RUNNER = COURSE / "buaa_check.mjs"
SHIM = COURSE / "buaa_bot.mjs"
#: The course's referee allows a decision 2000 ms.
LIMIT_MS = 2000.0
#: Seconds a module has to load before its first word (a safety net: a WebAssembly module
#: compiles at import, on a loaded machine too).
LOAD_BOUND = 60.0
#: Seconds between two looks at a run's report, to see that it grows.
POLL = 0.05
#: The course's tasks: (check ID, the course's name, the function's first name).
TASKS = (("t1", "T1", "hanamikoji_judge"), ("t2", "T2", "calc_current_state"),
         ("t3", "T3", "hanamikoji_action"))
#: The other names the course's tests accept for each function (buaa_module.mjs's NAMES).
OTHER_NAMES = {"T1": ("HanamikojiJudge", "hanamikojiJudge"),
               "T2": ("calcCurrentState", "CalcCurrentState"),
               "T3": ("HanamikojiAction", "hanamikojiAction")}
FILES = {"T1": "t1.json", "T2": "t2.json", "T3": "t3.json"}


def check_module(path: str, *, name: str | None = None, seed: int = 0, calls: int = 1000,
                 cases: int = 0, limit_ms: float = LIMIT_MS, deals: int = 2,
                 bot: bool = True) -> Card:
    """The report card of the course module at ``path`` (kind ``module``): its ``load``, then
    ``t1``, ``t2``, ``t3`` over the course vectors (with ``cases`` more T2 and T3 cases from
    ``seed``), ``calls-t1``... for ``calls`` calls of each function in one process, each
    against ``limit_ms`` a call, and with ``bot`` (and T3 exported) the module played as a bot
    (``deals`` deals a pairing, :func:`bot_checks`). A function the module does not export is
    a skipped check. Raises :class:`UsageError` when Node is not installed."""
    node = shutil.which("node")
    if node is None:
        raise UsageError("node is not installed (or not on PATH): a course module is run with "
                         "Node 18 or later")
    label = name or pathlib.Path(path).name
    with tempfile.TemporaryDirectory(prefix="hanamikoji-check-") as scratch:
        folders = _write_vectors(pathlib.Path(scratch), cases, seed)
        plan = _Plan(node, path, folders, cases, seed, limit_ms)
        checks = _run_checks(plan, calls)
        if bot and _exports(checks, "T3"):
            checks += bot_checks(path, name=label, seed=seed, calls=calls, deals=deals,
                                 limit_ms=limit_ms)
    return Card(label, "module", str(path), tuple(checks))


def bot_checks(path: str, *, name: str, seed: int, calls: int, deals: int,
               limit_ms: float) -> list[Check]:
    """The module's T3 played as a bot through the shim (``node buaa_bot.mjs MODULE``): the bot
    target's checks (legality in one long-lived process, then a short tournament), in the
    course's rules."""
    from hanamikoji.engine.core.registry import get
    from hanamikoji.oracle.core.check_bot import check_bot

    return check_bot(["node", str(SHIM), str(path)], name=name, game=get("hanamikoji"),
                     options={"variant": "italian-three-rounds"}, seed=seed, calls=calls,
                     deals=deals, limit_ms=limit_ms)


# --- the plan of a check: the vectors and the commands that run them ------------------------------


@functools.lru_cache(maxsize=4)
def _documents(cases: int | None, seed: int | None) -> dict[str, str]:
    """The vector files of ``vectors --tasks buaa`` (``--cases``, ``--seed``), as text."""
    return {name: json.dumps(document)
            for name, document in buaa_tasks.files(cases, seed).items()}


def _write_vectors(folder: pathlib.Path, cases: int, seed: int) -> list[pathlib.Path]:
    """The committed vectors, then (with ``cases``) those of ``--cases cases --seed seed``,
    each in a folder of its own, as ``vectors`` writes them."""
    sets = [(folder / "buaa-vectors", _documents(None, None))]
    if cases:
        sets.append((folder / f"buaa-vectors-{seed}", _documents(cases, seed)))
    for where, documents in sets:
        where.mkdir()
        for file, text in documents.items():
            (where / file).write_text(text, encoding="utf-8")
    return [where for where, _ in sets]


@attrs.frozen
class _Plan:
    node: str
    path: str
    folders: Sequence[pathlib.Path]
    cases: int
    seed: int
    limit_ms: float
    #: What the module exports, as the runner said it (the name and where of each function).
    exported: dict[str, Any] = attrs.field(factory=dict)
    #: Whether a call (its task and case) failed alone in a fresh process, as found so far.
    tried: dict[tuple[str, str], bool] = attrs.field(factory=dict, eq=False)

    def argv(self, calls: int | None) -> list[str]:
        more = [] if calls is None else ["--calls", str(calls)]
        return [self.node, str(RUNNER), self.path, *map(str, self.folders), "--json", "--show",
                str(MAX_FAILURES), "--limit", f"{self.limit_ms:g}", *more]

    def command(self, calls: int | None) -> str:
        """The commands that make every call of a run, to paste: the vectors, then the
        runner (its first failure printed)."""
        lines = ["hanamikoji vectors --tasks buaa --out buaa-vectors"]
        folders = ["buaa-vectors"]
        if self.cases:
            folders.append(f"buaa-vectors-{self.seed}")
            lines.append(f"hanamikoji vectors --tasks buaa --cases {self.cases} --seed "
                         f"{self.seed} --out {folders[-1]}")
        more = "" if calls is None else f" --calls {calls}"
        lines.append(f"node {shlex.quote(str(RUNNER))} {shlex.quote(self.path)} "
                     f"{' '.join(folders)}{more} --limit {self.limit_ms:g} --show 1")
        return "\n".join(lines)


# --- one run of the runner ----------------------------------------------------------------------


@attrs.define
class _Task:
    """What a run said of one task: its function, its cases and calls, the calls' times, the
    failures it detailed, the count of the others."""

    task: str
    function: str
    cases: int
    calls: int
    first_call: int
    times: list[float] = attrs.Factory(list)
    passed: int = 0
    failed: int = 0
    details: list[dict[str, Any]] = attrs.Factory(list)


@attrs.define
class _Run:
    """A run of the runner: the module's exports, each task's calls, and how it ended: ``end``
    (the runner finished), ``error`` (its planned stop: the module or vectors unreadable),
    else the process died (``ended``: the exit code the module ended it with, ``stopped``: it
    stopped answering and was stopped), with its exit status and stderr's end."""

    exported: dict[str, Any] | None = None
    tasks: list[_Task] = attrs.Factory(list)
    end: bool = False
    error: str | None = None
    status: str | None = None
    stderr: str | None = None
    stopped: float | None = None
    ended: int | None = None
    last_call: int = 0

    def take(self, event: dict[str, Any]) -> None:
        if "module" in event:
            self.exported = event["exported"]
        elif "task" in event:
            self.tasks.append(_Task(event["task"], event["function"], event["cases"],
                                    event["calls"], self.last_call + 1))
        elif "ended" in event:
            self.ended = int(event["ended"])
        elif "call" in event:
            self.last_call = event["call"]
            task = self.tasks[-1]
            task.times.append(float(event["ms"]))
            if event.get("failed"):
                task.failed += 1
                if "message" in event:
                    task.details.append(event)
            else:
                task.passed += 1
        elif "end" in event:
            self.end = True
        elif "error" in event:
            self.error = str(event["error"])

    @property
    def died(self) -> bool:
        return not self.end and self.error is None

    def dying_task(self) -> _Task | None:
        """The task whose call the process died in, if it died in one."""
        if not self.died or not self.tasks:
            return None
        task = self.tasks[-1]
        return task if task.passed + task.failed < task.calls else None


def _run(argv: Sequence[str], limit_ms: float) -> _Run:
    """Run the runner, its report going to a file: Node writes to a file at once, where it
    queues what a busy pipe has not taken, and a process that aborts loses its queue (a loaded
    machine lost a hundred calls' lines before a crash). A process whose report has not grown
    for longer than a call may take (three times the limit, and a second) is stopped."""
    run = _Run()
    call_bound = 3 * limit_ms / 1000 + 1
    with tempfile.TemporaryFile() as report, tempfile.TemporaryFile() as errors:
        process = _launch(argv, report, errors)
        finished = False  # ended by itself (else stopped, or interrupted: Ctrl-C)
        try:
            stopped = _watch(process, report, call_bound)
            finished = stopped is None
        finally:
            code = _end(process, stop=not finished)
        report.seek(0)
        for line in report.read().split(b"\n"):
            try:
                event = json.loads(line)
            except ValueError:  # a line cut short, or none
                continue
            if isinstance(event, dict):
                run.take(event)
        run.stopped = stopped
        errors.seek(max(0, errors.seek(0, os.SEEK_END) - STDERR_TAIL))
        run.stderr = tail(errors.read())
    if run.stopped is not None:
        run.status = "stopped by the checker"
    elif run.ended is not None:  # the module ended the process itself (process.exit)
        run.status = f"exit code {run.ended}"
    elif run.died:
        run.status = exit_status(code)
    return run


def _launch(argv: Sequence[str], report: IO[bytes], errors: IO[bytes]
            ) -> subprocess.Popen[bytes]:
    """Start the runner in a session of its own, under the keeper where there is one, so
    nothing the module starts outlives the run."""
    status = os.pipe() if keeper.AVAILABLE else None
    command = list(argv) if status is None else keeper.argv(status[1], argv, grace=0)
    with sigint_deferred():
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=report,
                                   stderr=errors, start_new_session=True,
                                   pass_fds=() if status is None else (status[1],))
    if status is not None:
        os.close(status[1])
        reason = keeper.started(status[0])
        if reason is not None:
            process.wait()
            raise UsageError(f"cannot start {argv[0]}: {reason}")
    return process


def _watch(process: subprocess.Popen[bytes], report: IO[bytes],
           call_bound: float) -> float | None:
    """Wait for the process to end; the bound it missed (None: none), when its report did not
    grow for ``call_bound`` seconds (:data:`LOAD_BOUND` before its first line)."""
    size, grew = 0, time.monotonic()
    while True:
        try:
            process.wait(timeout=POLL)
            return None
        except subprocess.TimeoutExpired:
            pass
        now, seen = time.monotonic(), os.fstat(report.fileno()).st_size
        if seen != size:
            size, grew = seen, now
        bound = call_bound if size else LOAD_BOUND
        if now - grew > bound:
            return bound


def _end(process: subprocess.Popen[bytes], *, stop: bool) -> int:
    """End the run's process and all it started (at once when ``stop``), and its return code:
    the runner's (the keeper ends as it did). The keeper is asked with SIGTERM, and ends every
    descendant, even one that left the group; without it, the group is killed."""
    if stop:
        if keeper.AVAILABLE:
            try:
                process.send_signal(signal.SIGTERM)
            except OSError:
                pass
        else:
            signal_group(process.pid, signal.SIGKILL)
    try:
        code = process.wait(timeout=LOAD_BOUND)
    except subprocess.TimeoutExpired:
        signal_group(process.pid, signal.SIGKILL)
        code = process.wait()
    signal_group(process.pid, signal.SIGKILL)  # whatever the module left in the group
    return code


# --- from runs to checks ------------------------------------------------------------------------


def _run_checks(plan: _Plan, calls: int) -> list[Check]:
    vectors = _run(plan.argv(None), plan.limit_ms)
    load = _load_check(plan, vectors)
    if load.status == "fail":
        return [load, *(Check(id, _title(course, None, None), skipped="the module did not load")
                        for id, course, _ in TASKS)]
    plan = attrs.evolve(plan, exported=vectors.exported or {})
    checks = [load, *_task_checks(plan, vectors, None)]
    long = _run(plan.argv(calls), plan.limit_ms)
    checks += _task_checks(plan, long, calls)
    return checks


def _exports(checks: Sequence[Check], course: str) -> bool:
    id = course.lower()
    return any(c.name == id and c.skipped is None for c in checks)


def _load_check(plan: _Plan, run: _Run) -> Check:
    title = "loads as the bot shim does (named exports, or fields of the default export)"
    if run.exported is not None:
        found = [f"{t} {v['name']}" + (" (default export)" if v["from"] == "default" else "")
                 for t, v in run.exported.items() if v]
        return Check("load", f"loads as the bot shim does: {', '.join(found)}", passed=1)
    if run.error is not None:
        message = run.error
    elif run.stopped is not None:
        message = f"{plan.path} did not finish loading within {run.stopped:g} s"
    else:
        message = f"the process ended while loading {plan.path}: {run.status}"
    reproduction = Reproduction("sh", f"node {shlex.quote(str(RUNNER))} "
                                      f"{shlex.quote(plan.path)} buaa-vectors")
    return Check("load", title, failed=1, failures=(Failure(
        message, stderr=None if run.error else run.stderr,
        exit=None if run.error else run.status, reproduction=reproduction),))


def _title(course: str, task: _Task | None, calls: int | None) -> str:
    function = task.function if task else dict((c, f) for _, c, f in TASKS)[course]
    if calls is None:
        cases = "" if task is None else f"{task.cases:,} "
        return f"{course} {function}: the {cases}course vectors, each once"
    return f"{course} {function}: {calls:,} calls in one process, going round the vectors"


def _task_checks(plan: _Plan, run: _Run, calls: int | None) -> list[Check]:
    checks = []
    ran = {task.task: task for task in run.tasks}
    dying = run.dying_task()
    for id, course, _ in TASKS:
        check_id = id if calls is None else f"calls-{id}"
        if run.exported is not None and not run.exported.get(course):
            others = ", ".join(OTHER_NAMES[course])
            checks.append(Check(check_id, _title(course, None, calls), skipped=(
                f"not exported (nor as {others})")))
            continue
        task = ran.get(course)
        if task is None:
            checks.append(Check(check_id, _title(course, None, calls), skipped=(
                f"not run: the process ended during call {run.last_call + 1}, of "
                f"{run.tasks[-1].task if run.tasks else 'loading'}")))
            continue
        alone: list[bool] = []  # whether the check's first failure fails alone
        failures = [_failure(plan, task, d, calls, alone) for d in task.details]
        failed = task.failed
        if task is dying:
            failed += 1
            if len(failures) < MAX_FAILURES:
                failures.append(_death(plan, run, task, calls, alone))
        checks.append(Check(check_id, _title(course, task, calls), passed=task.passed,
                            failed=failed, failures=tuple(failures[:MAX_FAILURES]),
                            timing=Timing.of(task.times, plan.limit_ms)))
    return checks


def _failure(plan: _Plan, task: _Task, detail: dict[str, Any], calls: int | None,
             alone: list[bool]) -> Failure:
    request = str(detail["request"])
    return Failure(f"{request}: {detail['message']}", call=int(detail["call"]), request=request,
                   expected=detail.get("expected"), got=detail.get("got"),
                   rule=detail.get("rule"),
                   reproduction=_reproduction(plan, task, detail, calls, alone))


def _death(plan: _Plan, run: _Run, task: _Task, calls: int | None,
           alone: list[bool]) -> Failure:
    """The call a process died in (or stopped answering in): the call after the last it
    finished, the case after."""
    made = task.passed + task.failed
    case = _case(task.task, made % task.cases, plan)
    request = f"{task.function}({_arguments(task.task, case)})"
    if run.stopped is not None:
        what = f"no answer within {run.stopped:g} s: the call does not return, the process " \
               "was stopped"
    else:
        what = f"the process ended during the call ({run.status})"
    detail = {"call": run.last_call + 1, "case": made % task.cases, "request": request}
    return Failure(f"{request}: {what}", call=run.last_call + 1, request=request,
                   stderr=run.stderr, exit=run.status,
                   reproduction=_reproduction(plan, task, detail, calls, alone))


# --- reproductions ------------------------------------------------------------------------------


def _cases(plan: _Plan, course: str) -> list[dict[str, Any]]:
    """A task's cases as the runner reads them: each folder's in turn, less those an earlier
    folder holds."""
    found: list[dict[str, Any]] = []
    seen: set[str] = set()
    for folder in plan.folders:
        tests = json.loads((folder / FILES[course]).read_text(encoding="utf-8"))["tests"]
        keys = [json.dumps(c, sort_keys=True) for c in tests]
        found += [c for c, key in zip(tests, keys) if key not in seen]
        seen.update(keys)
    return found


def _case(course: str, index: int, plan: _Plan) -> dict[str, Any]:
    return _cases(plan, course)[index]


def _board(board: Sequence[int]) -> str:
    return f"Int8Array.from({json.dumps(list(board), separators=(',', ':'))})"


def _arguments(course: str, case: dict[str, Any]) -> str:
    if course == "T1":
        return f"{_board(case['board'])}, {case['round']}"
    if course == "T2":
        return f"{json.dumps(case['history'])}, {_board(case['board'])}"
    return f"{json.dumps(case['history'])}, {json.dumps(case['hand'])}, {_board(case['board'])}"


def _reproduction(plan: _Plan, task: _Task, detail: dict[str, Any], calls: int | None,
                  alone: list[bool]) -> Reproduction:
    """The lines of JavaScript that make the one call, if it fails alone in a fresh process;
    else the commands that make every call of the run up to it. The check's first failure is
    tried alone (a fresh process for that one call; a first call needs no try); the others of
    the check are taken to be of the same kind, as faults of one module mostly are."""
    case = _case(task.task, int(detail["case"]), plan)
    call = int(detail["call"])
    if not alone:
        alone.append(call == 1 or _fails_alone(plan, task.task, case))
    if alone[0]:
        return Reproduction("javascript", _snippet(plan, task, case),
                            note=_note(detail))
    return Reproduction("sh", plan.command(calls), note=(
        f"this call fails only after the {call - 1:,} calls before it, in one process; "
        f"the runner prints it as call {call}"))


def _note(detail: dict[str, Any]) -> str | None:
    if detail.get("thrown"):
        return f"throws {detail['thrown']}"
    if detail.get("got") is not None:
        return f"prints {detail['got']}; expected {detail.get('expected')}"
    return None


def _snippet(plan: _Plan, task: _Task, case: dict[str, Any]) -> str:
    """Import the module and make the call (the function under the name it was found, from
    where it was found), printing what it returns."""
    where = json.dumps(str(pathlib.Path(plan.path).resolve()))
    function = task.function
    if (plan.exported.get(task.task) or {}).get("from") == "default":
        head, callee = f"import course from {where};", f"course.{function}"
    else:
        head, callee = f"import {{ {function} }} from {where};", function
    made = f"{callee}({_arguments(task.task, case)})"
    if task.task == "T2":
        shown = (f"JSON.stringify(Array.from({made}, (row) => "
                 "(typeof row === \"object\" ? Array.from(row) : row)))")
    else:
        shown = made
    return f"{head}\nconsole.log({shown});"



def _fails_alone(plan: _Plan, course: str, case: dict[str, Any]) -> bool:
    """Whether the call fails in a fresh process, as the first and only call of the run
    (asked once a check of the module: the vectors' run and the long run often fail first on
    the same case)."""
    key = (course, json.dumps(case, sort_keys=True))
    if key not in plan.tried:
        with tempfile.TemporaryDirectory(prefix="hanamikoji-call-") as scratch:
            folder = pathlib.Path(scratch)
            for task, file in FILES.items():
                tests = [case] if task == course else []
                (folder / file).write_text(json.dumps({"tests": tests}), encoding="utf-8")
            alone = attrs.evolve(plan, folders=[folder])
            run = _run(alone.argv(None), plan.limit_ms)
        plan.tried[key] = run.died or any(task.failed for task in run.tasks)
    return plan.tried[key]
