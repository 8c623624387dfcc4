"""Mutation testing for the engines: do the tests notice a small change to the code?

Usage (from the repository root, in the project's virtual environment)::

    nice -n 19 python tools/mutate.py --game maiko --seed 1 --budget 60
    python tools/mutate.py --files pkg/mod.py --tests tests/test_mod.py --seed 3 --budget 20

Every *mutation point* of the chosen files is listed in one fixed order: a comparison flipped
(``<`` and ``<=``, ``==`` and ``!=``, ``in`` and ``not in``, ``is`` and ``is not``), ``and``
and ``or`` swapped, ``not`` dropped, ``+`` and ``-`` swapped, a whole number made one more and
one less, a ``raise`` removed, an ``if`` guard made ``False``, a returned ``True``/``False``
swapped or a returned value made ``None``. ``--budget`` points are drawn with
``random.Random(--seed)``, so one seed and one budget always name the same mutants of the same
code. Each mutant runs the chosen tests in a fresh ``python -m pytest`` process that imports the
mutated module in place of the file (the files on disk never change, so an interrupted run
leaves nothing behind, and any package layout works): killed when a test fails, survived when
all pass. A run longer than ``--timeout`` seconds is stopped and counted as killed (a mutant
that loops), and listed apart; the timeout only guards against hangs. The unmutated code is run
first and must pass.

A survivor is a test gap, or an *equivalent* mutant that no test could kill because it does
not change behaviour. ``tools/mutate_equivalent.json`` lists the equivalent ones by key, each
with the reason; the score is killed / (sampled - equivalent). The report (``--report``,
JSON) lists every mutant with its key, place, change and verdict; it holds no times, so the same
seed, budget, code and tests give the same bytes. It records the sha256 of each mutated file:
a report is of that code only (``--retry`` refuses a report of other code, and the tests
check that the saved reports are of today's engines).

Exit: 0 done; 1 the unmutated tests fail, or the score is under ``--min-score``; 2 bad usage;
130 interrupted.
"""

from __future__ import annotations

import argparse
import ast
import copy
import hashlib
import importlib.abc
import importlib.machinery
import json
import os
import pathlib
import random
import signal
import subprocess
import sys
from typing import Any, Iterator

ROOT = pathlib.Path(__file__).resolve().parents[1]

#: The engines, each with its files and a fast subset of tests that covers them.
GAMES: dict[str, dict[str, list[str]]] = {
    "maiko": {
        "files": [f"engine/maiko/{m}.py" for m in ("game", "record", "view", "actions",
                                                    "components")],
        "tests": ["tests/maiko/test_maiko_bounds_and_views.py", "tests/maiko/test_maiko_edges.py",
                  "tests/maiko/test_maiko_rules.py", "tests/maiko/test_maiko_records.py",
                  "tests/maiko/test_maiko_tokens.py", "tests/maiko/test_maiko_examples.py",
                  "tests/maiko/test_maiko_play.py",
                  *[f"tests/maiko/test_maiko_doctests.py::test_docstring_examples"
                    f"[hanamikoji.engine.maiko.{m}]"
                    for m in ("components", "actions", "game", "record", "view")],
                  *[f"tests/properties/test_fast_engines.py::test_maiko_{t}" for t in (
                      "draft_agrees_with_the_reference_at_every_step",
                      "random_game_is_the_generic_loop_over_the_reference",
                      "decisions_parse_the_same_by_the_quick_and_the_checked_path")],
                  *[f"tests/maiko/test_maiko_schema_agreement.py::test_schema_and_validator_{t}"
                    for t in ("agree_on_malformed", "agree_on_every_decision_key")]],
    },
    "hanamikoji": {
        "files": [f"engine/hanamikoji/{m}.py" for m in ("cards", "rules", "actions", "game",
                                                         "record", "construct", "resample")],
        "tests": ["tests/test_engine_edges.py", "tests/test_engine_game.py",
                  "tests/test_engine_record.py",
                  "tests/test_engine_menu.py", "tests/test_doctests.py",
                  "tests/properties/test_resample.py",
                  *[f"tests/properties/test_fast_engines.py::test_hanamikoji_{t}" for t in (
                      "draft_agrees_with_apply_at_every_step",
                      "checked_deals_are_the_deals_the_converters_build",
                      "turns_parse_the_same_looked_up_and_checked")],
                  "tests/test_oracle_schema.py::test_schema_and_validator_agree_on_malformed"],
    },
}
EQUIVALENT_FILE = ROOT / "tools" / "mutate_equivalent.json"
#: The child's exit status when the mutated module was never imported by the tests.
NOT_IMPORTED = 97
#: The child's exit status when the file changed since the mutants were listed.
FILE_CHANGED = 98

_COMPARE_SWAP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
                 ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In,
                 ast.Is: ast.IsNot, ast.IsNot: ast.Is}


# --- mutation points --------------------------------------------------------------------------


def _annotations(tree: ast.AST) -> set[int]:
    """The ids of every node inside an annotation or a docstring (never mutated)."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        parts: list[ast.AST | None] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            parts.append(node.returns)
        if isinstance(node, ast.arg):
            parts.append(node.annotation)
        if isinstance(node, ast.AnnAssign):
            parts.append(node.annotation)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                parts.append(body[0])
        for part in parts:
            if part is not None:
                skip.update(id(n) for n in ast.walk(part))
    return skip


def _points(tree: ast.Module) -> Iterator[tuple[ast.AST, str, Any, str]]:
    """Every (node, operator, argument, qualname) of ``tree``, in source order."""
    skip = _annotations(tree)
    found: list[tuple[tuple[int, int, int], ast.AST, str, Any, str]] = []

    def visit(node: ast.AST, qualname: str) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            qualname = f"{qualname}.{node.name}" if qualname else node.name
        if id(node) not in skip:
            for op, arg in _operators(node):
                order = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0), len(found))
                found.append((order, node, op, arg, qualname or "<module>"))
        for child in ast.iter_child_nodes(node):
            visit(child, qualname)

    visit(tree, "")
    for _, node, op, arg, qualname in sorted(found, key=lambda f: f[0]):
        yield node, op, arg, qualname


def _operators(node: ast.AST) -> Iterator[tuple[str, Any]]:
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            if type(op) in _COMPARE_SWAP:
                yield "compare", i
    elif isinstance(node, ast.BoolOp):
        yield "boolean", None
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield "not", None
    elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        yield "arithmetic", None
    elif (isinstance(node, ast.Constant) and isinstance(node.value, int)
          and not isinstance(node.value, bool)):
        yield "constant", +1
        yield "constant", -1
    elif isinstance(node, ast.Raise):
        yield "raise", None
    elif isinstance(node, ast.If):
        yield "guard", None
    elif isinstance(node, ast.Return) and node.value is not None:
        value = node.value
        if isinstance(value, ast.Constant) and value.value is None:
            return
        yield "return", None


def _mutate(node: ast.AST, op: str, arg: Any) -> ast.AST:
    """The mutated copy of ``node`` (statements keep their place and line)."""
    new = copy.deepcopy(node)
    if op == "compare":
        assert isinstance(new, ast.Compare)
        new.ops[arg] = _COMPARE_SWAP[type(new.ops[arg])]()
    elif op == "boolean":
        assert isinstance(new, ast.BoolOp)
        new.op = ast.Or() if isinstance(new.op, ast.And) else ast.And()
    elif op == "not":
        assert isinstance(new, ast.UnaryOp)
        return new.operand
    elif op == "arithmetic":
        assert isinstance(new, ast.BinOp)
        new.op = ast.Sub() if isinstance(new.op, ast.Add) else ast.Add()
    elif op == "constant":
        assert isinstance(new, ast.Constant)
        new.value = new.value + arg
    elif op == "raise":
        return ast.copy_location(ast.Pass(), node)
    elif op == "guard":
        assert isinstance(new, ast.If)
        new.test = ast.copy_location(ast.Constant(False), new.test)
    elif op == "return":
        assert isinstance(new, ast.Return) and new.value is not None
        value = new.value
        if isinstance(value, ast.Constant) and isinstance(value.value, bool):
            new.value = ast.copy_location(ast.Constant(not value.value), value)
        else:
            new.value = ast.copy_location(ast.Constant(None), value)
    return new


def _text(node: ast.AST) -> str:
    """A one-line form of ``node`` for the report (a statement by its first line)."""
    if isinstance(node, ast.If):
        return f"if {ast.unparse(node.test)}:"
    text = ast.unparse(node).splitlines()[0] if not isinstance(node, ast.Pass) else "pass"
    return text if len(text) <= 100 else text[:97] + "..."


class _Replace(ast.NodeTransformer):
    def __init__(self, target: ast.AST, replacement: ast.AST) -> None:
        self.target, self.replacement = target, replacement

    def visit(self, node: ast.AST) -> Any:
        if node is self.target:
            return self.replacement
        return super().visit(node)


def mutants(path: pathlib.Path, root: pathlib.Path) -> list[dict[str, Any]]:
    """Every mutant of the file ``path``, in a fixed order: its key (file, function, operator,
    change, and a count among equal ones), line and change."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source, str(path))
    rel = path.resolve().relative_to(root.resolve()).as_posix()
    out: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    for index, (node, op, arg, qualname) in enumerate(_points(tree)):
        before, after = _text(node), _text(_mutate(node, op, arg))
        base = f"{rel}::{qualname}::{op}::{before} -> {after}"
        seen[base] = seen.get(base, 0) + 1
        out.append({"key": f"{base}#{seen[base]}", "file": rel, "index": index,
                    "line": getattr(node, "lineno", 0), "operator": op,
                    "before": before, "after": after})
    return out


def mutated_code(path: pathlib.Path, index: int) -> Any:
    """The code object of the file ``path`` with mutant number ``index`` applied."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source, str(path))
    node, op, arg, _ = list(_points(tree))[index]
    tree = _Replace(node, _mutate(node, op, arg)).visit(tree)
    ast.fix_missing_locations(tree)
    return compile(tree, str(path), "exec", dont_inherit=True)


# --- the child: one mutant, one test run ------------------------------------------------------


class _MutantFinder(importlib.abc.MetaPathFinder):
    """Finds modules as the other finders do, but loads the target file's mutated code."""

    def __init__(self, target: pathlib.Path, index: int) -> None:
        self.target, self.index, self.loaded = target.resolve(), index, False

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                break
        else:
            return None
        if spec.origin and pathlib.Path(spec.origin).resolve() == self.target:
            spec.loader = _MutantLoader(name, spec.origin, self)
        return spec


class _MutantLoader(importlib.machinery.SourceFileLoader):
    def __init__(self, name: str, path: str, finder: _MutantFinder) -> None:
        super().__init__(name, path)
        self.finder = finder

    def get_code(self, fullname: str) -> Any:
        self.finder.loaded = True
        return mutated_code(self.finder.target, self.finder.index)


def _child(target: str, index: int, digest: str, pytest_args: list[str]) -> int:
    import pytest

    path = pathlib.Path(target)
    if hashlib.sha256(path.read_bytes()).hexdigest() != digest:
        return FILE_CHANGED
    finder = _MutantFinder(path, index)
    sys.meta_path.insert(0, finder)
    code = int(pytest.main(pytest_args))
    if code == 0 and not finder.loaded:
        return NOT_IMPORTED
    return code


# --- the parent: sample, run, report ----------------------------------------------------------


def verdict(code: int | None, timed_out: bool) -> str:
    """What a test run's exit status says of a mutant: ``killed`` (a test failed, or collection
    or the session broke on the mutant), ``timeout`` (stopped by the hang guard: killed too),
    ``survived`` (every test passed), ``not-imported`` (the tests never loaded the file: survived
    too). Status 4 is pytest's usage error, which is also its answer when a test named by node
    id (``file::test``) cannot be collected because its module failed to import: the same
    arguments ran clean on the unmutated code first, so on a mutant it is the mutant's doing,
    and killed. Anything else is a fault of the run, not a verdict (ValueError)."""
    if timed_out:
        return "timeout"
    if code == 0:
        return "survived"
    if code == NOT_IMPORTED:
        return "not-imported"
    if code in (1, 2, 3, 4):
        return "killed"
    raise ValueError(f"the test run ended with status {code} (5: no tests, "
                     f"{FILE_CHANGED}: the file changed during the run)")


def _run(command: list[str], root: pathlib.Path, timeout: float) -> tuple[int | None, bool]:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1",
               HYPOTHESIS_PROFILE=os.environ.get("HYPOTHESIS_PROFILE", "ci"))
    process = subprocess.Popen(command, cwd=root, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        return process.wait(timeout=timeout), False
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        return None, True
    except BaseException:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        raise


def run(files: list[pathlib.Path], tests: list[str], *, root: pathlib.Path, seed: int,
        budget: int, timeout: float, equivalent: dict[str, str],
        progress: Any = None, retry: dict[str, Any] | None = None,
        save: Any = None) -> dict[str, Any]:
    """Sample ``budget`` mutants of ``files`` with ``seed``, run ``tests`` on each, and return
    the report (see the module docstring). With ``retry`` (a report of the same sample, or of
    part of it), only the mutants it did not kill run; its killed ones stay killed, which holds
    while tests are only added (the engine's files must be unchanged: each mutant is matched by
    key). ``save`` is called with the report so far after each mutant (``"partial": true``)."""
    pytest_args = ["-q", "-x", "-p", "no:cacheprovider", "--import-mode=importlib", *tests]
    base, timed_out = _run([sys.executable, "-m", "pytest", *pytest_args], root, timeout)
    if base != 0 or timed_out:
        raise RuntimeError(f"the unmutated tests do not pass (status {base}); fix them first")
    every = [m for path in files for m in mutants(path, root)]
    chosen = sorted(random.Random(seed).sample(range(len(every)), min(budget, len(every))))
    digests = {p.resolve().relative_to(root.resolve()).as_posix():
               hashlib.sha256(p.read_bytes()).hexdigest() for p in files}
    before: dict[str, dict[str, Any]] = {}
    if retry is not None:
        before = {m["key"]: m for m in retry["mutants"]}
        if retry["seed"] != seed or not set(before) <= {every[at]["key"] for at in chosen}:
            raise ValueError("the report to retry is not of this sample of these files")
        if retry.get("sha256", digests) != digests:
            raise ValueError("the files changed since the report to retry was made: its verdicts "
                             "are not of this code; run the whole sample again")
    results = []
    for number, at in enumerate(chosen, 1):
        mutant = dict(every[at])
        if before.get(mutant["key"], {}).get("verdict") in ("killed", "timeout"):
            mutant["verdict"] = before[mutant["key"]]["verdict"]
            results.append(mutant)
            continue
        command = [sys.executable, str(pathlib.Path(__file__).resolve()), "--child",
                   str(root / mutant["file"]), str(mutant["index"]), digests[mutant["file"]],
                   "--", *pytest_args]
        code, timed_out = _run(command, root, timeout)
        mutant["verdict"] = verdict(code, timed_out)
        if mutant["key"] in equivalent and mutant["verdict"] in ("survived", "not-imported"):
            mutant["ran"], mutant["verdict"] = mutant["verdict"], "equivalent"
            mutant["why"] = equivalent[mutant["key"]]
        results.append(mutant)
        if progress:
            progress(f"[{number}/{len(chosen)}] {mutant['verdict']:<12} {mutant['file']}:"
                     f"{mutant['line']} {mutant['before']}  ->  {mutant['after']}")
        if save:
            save(_scored({"seed": seed, "budget": budget, "files": sorted(digests),
                          "sha256": dict(sorted(digests.items())), "tests": tests,
                          "candidates": len(every), "sampled": len(results),
                          "partial": True, "mutants": results}))
    return _scored({"seed": seed, "budget": budget, "files": sorted(digests),
                    "sha256": dict(sorted(digests.items())), "tests": tests,
                    "candidates": len(every), "sampled": len(results), "mutants": results})


def _scored(report: dict[str, Any]) -> dict[str, Any]:
    results = report["mutants"]
    counts = {v: sum(m["verdict"] == v for m in results)
              for v in ("killed", "timeout", "survived", "not-imported", "equivalent")}
    scored = len(results) - counts["equivalent"]
    killed = counts["killed"] + counts["timeout"]
    return {**report, "counts": counts,
            "score": {"killed": killed, "of": scored,
                      "percent": round(100 * killed / scored, 1) if scored else None},
            "mutants": results}


def rescore(report: dict[str, Any], equivalent: dict[str, str]) -> dict[str, Any]:
    """``report`` with its survivors triaged again by the ``equivalent`` list (after a survivor
    was found equivalent, or a listed one was found not to be)."""
    mutants = []
    for mutant in report["mutants"]:
        mutant = {k: v for k, v in mutant.items() if k != "why"}
        if mutant["verdict"] == "equivalent":
            mutant["verdict"] = mutant.pop("ran", "survived")
        if mutant["key"] in equivalent and mutant["verdict"] in ("survived", "not-imported"):
            mutant["ran"], mutant["verdict"] = mutant["verdict"], "equivalent"
            mutant["why"] = equivalent[mutant["key"]]
        mutants.append(mutant)
    return _scored({**report, "mutants": mutants})


def summary(report: dict[str, Any]) -> str:
    """The report for people: the score, then the survivors and the equivalent mutants."""
    score, counts = report["score"], report["counts"]
    lines = [f"{report['sampled']} of {report['candidates']} mutants (seed {report['seed']}): "
             f"{score['killed']} of {score['of']} that can change behaviour killed "
             f"({score['percent']}%); {counts['timeout']} of them by the hang guard; "
             f"{counts['equivalent']} equivalent"]
    for label, verdicts in (("survived", ("survived", "not-imported")), ("equivalent", ("equivalent",))):
        chosen = [m for m in report["mutants"] if m["verdict"] in verdicts]
        if chosen:
            lines.append(f"{label}:")
            for m in chosen:
                why = f"  ({m['why']})" if "why" in m else ""
                lines.append(f"  {m['file']}:{m['line']} {m['before']}  ->  {m['after']}{why}")
                lines.append(f"    key: {m['key']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        target, index, digest, sep, *rest = argv[1:]
        return _child(target, int(index), digest, rest)
    parser = argparse.ArgumentParser(prog="tools/mutate.py", description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), help="an engine's files and tests")
    parser.add_argument("--files", nargs="+", help="files to mutate (instead of --game's)")
    parser.add_argument("--tests", nargs="+", help="pytest arguments (instead of --game's)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=int, default=80, help="how many mutants (default 80)")
    parser.add_argument("--timeout", type=float, default=600.0,
                        help="hang guard per mutant, in seconds (default 600): counted as killed")
    parser.add_argument("--root", type=pathlib.Path, default=ROOT)
    parser.add_argument("--equivalent", type=pathlib.Path, default=EQUIVALENT_FILE,
                        help="JSON object: mutant key -> why it is equivalent")
    parser.add_argument("--report", type=pathlib.Path, help="write the JSON report here")
    parser.add_argument("--min-score", type=float, default=0.0,
                        help="exit 1 when the percentage killed is under this")
    parser.add_argument("--retry", type=pathlib.Path, metavar="REPORT",
                        help="run only the mutants this report of the same sample did not kill")
    parser.add_argument("--rescore", type=pathlib.Path, metavar="REPORT",
                        help="score a saved report again with the equivalent list (no runs)")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, _terminate)
    if args.rescore:
        try:
            report = rescore(json.loads(args.rescore.read_text(encoding="utf-8")),
                             _equivalent(args.equivalent))
        except (OSError, ValueError, KeyError, TypeError) as error:
            print(f"mutate: {args.rescore}: not a report of this tool ({error})", file=sys.stderr)
            return 2
        return _finish(report, args)
    if args.game is None and not (args.files and args.tests):
        parser.error("give --game, or --files and --tests")
    if args.budget < 1:
        parser.error("--budget must be at least 1")
    root = args.root.resolve()
    game = GAMES.get(args.game or "", {})
    files = [root / f for f in (args.files or game["files"])]
    tests = args.tests or game["tests"]
    for path in files:
        if not path.is_file():
            parser.error(f"no file {path}")
    try:
        equivalent = _equivalent(args.equivalent)
    except (OSError, ValueError) as error:
        parser.error(f"{args.equivalent}: not a JSON object of keys and reasons ({error})")
    try:
        report = run(files, tests, root=root, seed=args.seed, budget=args.budget,
                     timeout=args.timeout, equivalent=equivalent,
                     progress=lambda line: print(line, file=sys.stderr, flush=True),
                     retry=json.loads(args.retry.read_text(encoding="utf-8")) if args.retry
                     else None,
                     save=(lambda partial: args.report.write_text(
                         json.dumps(partial, indent=2) + "\n", encoding="utf-8"))
                     if args.report else None)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except (RuntimeError, ValueError) as error:
        print(f"mutate: {error}", file=sys.stderr)
        return 1
    return _finish(report, args)


def _terminate(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt  # stops the test process of the mutant under way too


def _equivalent(path: pathlib.Path) -> dict[str, str]:
    """The equivalent-mutant list: a JSON object of mutant keys and reasons (none if absent)."""
    if not path.is_file():
        return {}
    listed = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(listed, dict) or not all(isinstance(v, str) for v in listed.values()):
        raise ValueError("expected an object of mutant keys and reasons")
    return listed


def _finish(report: dict[str, Any], args: argparse.Namespace) -> int:
    if args.report:
        args.report.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(summary(report))
    percent = report["score"]["percent"]
    return 1 if percent is not None and percent < args.min_score else 0


if __name__ == "__main__":
    sys.exit(main())
