"""``hanamikoji verify``: every game's query catalogue and a short sample of its property suite,
as one report with a section per game (a table on the terminal; Markdown and JSON with
``--out DIR``).

The report passes when every query is answered (no z3 timeout or unknown, every witness replayed
in the engine) and every sampled property passes. A property sample that cannot run (for example
if the game's sample module is missing) makes the report fail, with that reason. Games are
reached through the registry; each names its catalogue and sample (:attr:`Game.queries_module`,
:attr:`Game.sample_module`).
"""

from __future__ import annotations

import importlib
import os
import time
from typing import Any, Callable, Mapping, Sequence

import attrs

from hanamikoji.engine.core.registry import available, get
from hanamikoji.engine.core.words import plural

FORMAT = "hanamikoji-verify/2"
DEFAULT_EXAMPLES = 10
DEFAULT_SEED = 0
#: A query's wall-clock budget when its game names none.
DEFAULT_BUDGET_SECONDS: float | None = None  # no wall-clock bound (solver.RLIMIT_PER_CHECK)


@attrs.frozen
class PropertyRun:
    """One sampled property (from the game's ``run_sample``)."""

    name: str
    rules: tuple[str, ...]
    passed: bool
    examples: int
    seconds: float
    message: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "rules": list(self.rules), "passed": self.passed,
                "examples": self.examples, "seconds": round(self.seconds, 3),
                "message": self.message}


@attrs.frozen
class Section:
    """One game's part of the report: its catalogue's answers and its property sample
    (``sample_error`` if it could not run)."""

    game: str
    title: str
    answers: tuple[Any, ...]
    properties: tuple[PropertyRun, ...]
    sample_error: str | None

    @property
    def ok(self) -> bool:
        return (all(a.answered for a in self.answers) and self.sample_error is None
                and all(p.passed for p in self.properties))

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "ok": self.ok,
                "queries": [a.to_json() for a in self.answers],
                "properties": {"error": self.sample_error,
                               "results": [p.to_json() for p in self.properties]}}


@attrs.frozen
class Report:
    """Every game's section, with the sample's settings and the time the whole run took."""

    sections: tuple[Section, ...]
    max_examples: int
    seed: int
    seconds: float
    #: What produced the report: the toolkit's version (and commit, in a checkout), z3,
    #: Hypothesis and Python versions, and when (:func:`provenance`).
    produced_by: tuple[tuple[str, str], ...] = ()

    @property
    def ok(self) -> bool:
        return all(section.ok for section in self.sections)

    @property
    def answers(self) -> tuple[Any, ...]:
        return tuple(a for section in self.sections for a in section.answers)

    @property
    def properties(self) -> tuple[PropertyRun, ...]:
        return tuple(p for section in self.sections for p in section.properties)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT, "ok": self.ok, "seconds": round(self.seconds, 3),
            "max_examples": self.max_examples, "seed": self.seed,
            "produced_by": dict(self.produced_by),
            "games": [section.to_json() for section in self.sections],
        }

    def to_markdown(self, witness_files: Mapping[tuple[str, str], str] | None = None,
                    folder: str | None = None) -> str:
        """The report in Markdown. ``witness_files`` (by (game, query)) are the witness files
        written beside it, relative to ``folder``, the report's folder, so the report names
        them and says how to display one."""
        files = dict(witness_files or {})
        lines = ["# hanamikoji verify", "",
                 f"Result: **{'pass' if self.ok else 'FAIL'}** in {self.seconds:.1f} s "
                 f"({', '.join(s.game for s in self.sections)}).", ""]
        if self.produced_by:
            lines += ["Produced by " + ", ".join(f"{k} {v}" for k, v in self.produced_by) + ".",
                      ""]
        if files:
            shown = "/".join(filter(None, (folder, next(iter(files.values())))))
            lines += [f"The witness games are records in `{_witness_folder(files, folder)}`, one "
                      "JSON Lines file per query (named in the tables): "
                      f"`hanamikoji show {shown}` displays one game by game, "
                      "`hanamikoji validate` replays them.", ""]
        for section in self.sections:
            lines += [f"## {section.title}", "", "### Queries", ""]
            tables: list[str] = []
            if section.answers:
                lines += ["| query | question | answer | proof or witness | second method "
                          "| seconds |", "| --- | --- | --- | --- | --- | ---: |"]
                for a in section.answers:
                    table = answer_table(a)
                    shown_answer = (f"in the table [{a.name}](#{a.name})" if table
                                    else answer_text(a))
                    evidence = evidence_text(a)
                    if (section.game, a.name) in files:
                        evidence += f": `{files[section.game, a.name]}`"
                    lines.append(f"| {a.name} | {_escape(a.question)} "
                                 f"| {_escape(shown_answer)} | {_escape(evidence)} "
                                 f"| {_escape(a.confirmation or 'none')} | {a.seconds:.2f} |")
                    if table:
                        tables += ["", f"#### {a.name}", "", *table]
            else:
                lines.append("No query catalogue.")
            lines += tables
            lines += ["", f"### Property sample (max_examples={self.max_examples}, "
                          f"seed={self.seed})", ""]
            if section.sample_error is not None:
                lines.append(f"Not run: {section.sample_error}")
            else:
                lines += ["| property | rules | result | examples | seconds |",
                          "| --- | --- | --- | ---: | ---: |"]
                for p in section.properties:
                    result = "pass" if p.passed else f"FAIL: {p.message}"
                    lines.append(f"| {p.name} | {', '.join(p.rules)} | {_escape(result)} "
                                 f"| {p.examples} | {p.seconds:.2f} |")
            lines.append("")
        return "\n".join(lines)


def _witness_folder(files: Mapping[tuple[str, str], str], folder: str | None) -> str:
    parents = {os.path.dirname(path) for path in files.values()}
    inner = parents.pop() if len(parents) == 1 else "witnesses"
    return "/".join(filter(None, (folder, inner))) + "/"


def answer_table(a: Any) -> list[str]:
    """An answer of objects in objects (per player count, per end...) as a small Markdown
    table: a row per inner object (its keys joined), a column per key of the innermost; empty
    for any other answer (it reads well on one line)."""
    if not a.answered:
        return []
    rows: list[tuple[str, dict[str, Any]]] = []

    def collect(label: str, value: dict[str, Any]) -> None:
        if value and all(isinstance(v, dict) for v in value.values()):
            for key, inner in value.items():
                collect(f"{label} · {key}" if label else key, inner)
        else:
            rows.append((label, value))

    value = a.answer_json()
    if not (isinstance(value, dict) and value
            and all(isinstance(v, dict) for v in value.values())):
        return []
    collect("", value)
    columns = list(dict.fromkeys(k for _, row in rows for k in row))
    table = ["| | " + " | ".join(map(_escape, columns)) + " |",
             "| --- |" + " --- |" * len(columns)]
    for label, row in rows:
        cells = [_escape(_plain(row[c])) if c in row else "" for c in columns]
        table.append(f"| {_escape(label)} | " + " | ".join(cells) + " |")
    return table


def _escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def answer_text(a: Any) -> str:
    """The answer in one line, or the status when there is none."""
    if not a.answered:
        return f"{a.status.upper()}: {'; '.join(a.notes)}"
    value = a.answer_json()
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_plain(v)}" for k, v in value.items())
    return _plain(value)


def _plain(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return "(" + ", ".join(f"{k}: {_plain(v)}" for k, v in value.items()) + ")"
    if isinstance(value, list):
        return "[" + ", ".join(_plain(v) for v in value) + "]"
    return str(value)


def evidence_text(a: Any) -> str:
    """The proofs' rule IDs (the side of the claims that hold), the counterexamples (the side
    of the claims that fail) and the witnesses, in one line."""
    parts = []
    if a.proofs:
        parts.append("unsat core: " + " ".join(a.proof))
    # Claims checked two ways (on reachable rows, on any row) may fail by the same model:
    # each counterexample is said once, with how many claims it refutes.
    refuted: dict[str, int] = {}
    for counterexample in getattr(a, "counterexamples", ()):
        text = counterexample.text()
        refuted[text] = refuted.get(text, 0) + 1
    for text, claims in refuted.items():
        parts.append("counterexample: " + text + (f" ({claims} claims)" if claims > 1 else ""))
    if a.witnesses:
        parts.append(f"{len(a.witnesses)} witness game(s), replayed in the engine")
    if not parts:
        parts.append(a.method.split(":")[0])
    return "; ".join(parts)


def catalogue(game: str) -> tuple[Any, ...]:
    """The game's query catalogue (empty when it names none)."""
    module = get(game).queries_module
    return () if module is None else tuple(importlib.import_module(module).CATALOGUE)


def query_budget(game: str) -> float | None:
    """The game's wall-clock bound on one query (None: none, only z3's resource budget)."""
    module = get(game).queries_module
    if module is None:
        return DEFAULT_BUDGET_SECONDS
    budget = getattr(importlib.import_module(module), "QUERY_BUDGET_SECONDS",
                     DEFAULT_BUDGET_SECONDS)
    return None if budget is None else float(budget)


def sample_properties(game: str, max_examples: int,
                      seed: int) -> tuple[tuple[PropertyRun, ...], str | None]:
    """Run the game's property sample; (runs, None), or ((), why it could not run)."""
    module = get(game).sample_module
    if module is None:
        return (), f"game {game} names no property sample"
    try:
        run_sample = importlib.import_module(module).run_sample
    except (ImportError, AttributeError) as error:
        return (), f"property sample unavailable ({error})"
    try:
        outcomes = run_sample(max_examples=max_examples, seed=seed)
    except Exception as error:  # a crash of the suite is a failed verification, reported
        return (), f"property sample crashed: {type(error).__name__}: {error}"
    return tuple(PropertyRun(o.name, tuple(o.rules), bool(o.passed), int(o.examples),
                             float(o.seconds), str(o.message or "")) for o in outcomes), None


def run_verify(*, max_examples: int = DEFAULT_EXAMPLES, seed: int = DEFAULT_SEED,
               games: Sequence[str] | None = None, names: Sequence[str] | None = None,
               budget_seconds: float | None = None,
               progress: Callable[[str, str, Any], None] | None = None) -> Report:
    """Answer each game's catalogue (or only the queries ``names``) and sample its property
    suite; ``games`` narrows the games (default: every available one). ``progress``, if
    given, is called as each part finishes: ``(game, "query", answer)`` after each query,
    ``(game, "property", run)`` for each sampled property (once the sample has run), and
    ``(game, "sample", error)`` when the sample could not run."""
    start = time.perf_counter()
    sections = []
    for name in (list(available()) if games is None else list(games)):
        game = get(name)
        queries = [q for q in catalogue(name) if names is None or q.name in names]
        budget = query_budget(name) if budget_seconds is None else budget_seconds
        answers = []
        for q in queries:
            answers.append(q.run(budget))
            if progress is not None:
                progress(name, "query", answers[-1])
        properties, error = sample_properties(name, max_examples, seed)
        if progress is not None:
            for run in properties:
                progress(name, "property", run)
            if error is not None:
                progress(name, "sample", error)
        sections.append(Section(name, game.title, tuple(answers), properties, error))
    return Report(tuple(sections), max_examples, seed, time.perf_counter() - start,
                  provenance())


def provenance() -> tuple[tuple[str, str], ...]:
    """The toolkit's version (with the commit when it runs from a git checkout), the versions
    of z3, Hypothesis and Python, and the date (UTC)."""
    import datetime
    import platform
    import subprocess
    from importlib import metadata
    from pathlib import Path

    def version(package: str) -> str:
        try:
            return metadata.version(package)
        except metadata.PackageNotFoundError:
            return "unknown"

    toolkit = version(__name__.split(".")[0])  # the toolkit's distribution
    root = Path(__file__).resolve().parents[2]
    if (root / ".git").exists():
        try:
            commit = subprocess.run(["git", "-C", str(root), "rev-parse", "--short=12", "HEAD"],
                                    capture_output=True, text=True, timeout=10).stdout.strip()
            dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain",
                                    "--untracked-files=no"], capture_output=True, text=True,
                                   timeout=10).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            commit, dirty = "", ""
        if commit:
            toolkit += f" (commit {commit}{', with local changes' if dirty else ''})"
    return ((__name__.split(".")[0], toolkit), ("z3-solver", version("z3-solver")),
            ("hypothesis", version("hypothesis")), ("Python", platform.python_version()),
            ("date", datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")))


def render(report: Report) -> Any:
    """The report as rich renderables (per game, a table of queries and one of properties; then
    a verdict)."""
    from rich.console import Group
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    parts: list[Any] = []
    for section in report.sections:
        queries = Table(title=escape(f"{section.title}: queries"), title_justify="left")
        for column, justify in (("query", "left"), ("answer", "left"),
                                ("proof or witness", "left"), ("seconds", "right")):
            queries.add_column(column, justify=justify, overflow="fold")  # type: ignore[arg-type]
        for a in section.answers:
            style = None if a.answered else "bold red"
            # Every cell escaped: a row such as "[none, 1]" is text, not Rich markup.
            queries.add_row(escape(a.name), escape(answer_text(a)), escape(evidence_text(a)),
                            f"{a.seconds:.2f}", style=style)
        parts.append(queries)
        if section.sample_error is not None:
            parts.append(Text(f"{section.title}: {section.sample_error}", style="bold red"))
            continue
        props = Table(title=escape(f"{section.title}: property sample (max_examples="
                                   f"{report.max_examples}, seed={report.seed})"),
                      title_justify="left")
        for column in ("property", "rules", "result", "examples", "seconds"):
            props.add_column(column, overflow="fold")
        for p in section.properties:
            props.add_row(escape(p.name), escape(", ".join(p.rules)),
                          escape("pass" if p.passed else f"FAIL: {p.message}"), str(p.examples),
                          f"{p.seconds:.2f}", style=None if p.passed else "bold red")
        parts.append(props)
    verdict = "pass" if report.ok else "FAIL"
    parts.append(Text(f"{verdict}: {plural(len(report.sections), 'game')}, "
                      f"{plural(len(report.answers), 'query', 'queries')}, "
                      f"{plural(len(report.properties), 'property', 'properties')} in "
                      f"{report.seconds:.1f} s",
                      style="bold green" if report.ok else "bold red"))
    return Group(*parts)
