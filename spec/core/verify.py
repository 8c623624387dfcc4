"""``hanamikoji verify``: the whole query catalogue and a short sample of the property suite, as
one report (a table on the terminal; Markdown and JSON with ``--out DIR``).

The report passes when every query is answered (no z3 timeout or unknown, every witness replayed
in the engine) and every sampled property passes. A property sample that cannot run (for example
if :mod:`hanamikoji.properties.hanamikoji.sample` is missing) makes the report fail, with that reason.
"""

from __future__ import annotations

import time
from typing import Any, Sequence

import attrs

from ..hanamikoji.queries import CATALOGUE, QUERY_BUDGET_SECONDS, Answer

FORMAT = "hanamikoji-verify/1"
DEFAULT_EXAMPLES = 10
DEFAULT_SEED = 0


@attrs.frozen
class PropertyRun:
    """One sampled property (from ``hanamikoji.properties.hanamikoji.sample.run_sample``)."""

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
class Report:
    """The catalogue's answers and the property sample (``sample_error`` if it could not run)."""

    answers: tuple[Answer, ...]
    properties: tuple[PropertyRun, ...]
    sample_error: str | None
    max_examples: int
    seed: int
    seconds: float

    @property
    def ok(self) -> bool:
        return (all(a.answered for a in self.answers) and self.sample_error is None
                and all(p.passed for p in self.properties))

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT, "ok": self.ok, "seconds": round(self.seconds, 3),
            "queries": [a.to_json() for a in self.answers],
            "properties": {"max_examples": self.max_examples, "seed": self.seed,
                           "error": self.sample_error,
                           "results": [p.to_json() for p in self.properties]},
        }

    def to_markdown(self) -> str:
        lines = ["# hanamikoji verify", "",
                 f"Result: **{'pass' if self.ok else 'FAIL'}** in {self.seconds:.1f} s.", "",
                 "## Queries", "",
                 "| query | answer | proof or witness | seconds |",
                 "| --- | --- | --- | ---: |"]
        for a in self.answers:
            lines.append(f"| {a.name} | {_escape(answer_text(a))} | {_escape(evidence_text(a))} "
                         f"| {a.seconds:.2f} |")
        lines += ["", f"## Property sample (max_examples={self.max_examples}, seed={self.seed})",
                  ""]
        if self.sample_error is not None:
            lines.append(f"Not run: {self.sample_error}")
        else:
            lines += ["| property | rules | result | examples | seconds |",
                      "| --- | --- | --- | ---: | ---: |"]
            for p in self.properties:
                result = "pass" if p.passed else f"FAIL: {p.message}"
                lines.append(f"| {p.name} | {', '.join(p.rules)} | {_escape(result)} "
                             f"| {p.examples} | {p.seconds:.2f} |")
        return "\n".join(lines) + "\n"


def _escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def answer_text(a: Answer) -> str:
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
    return str(value)


def evidence_text(a: Answer) -> str:
    """The proofs' rule IDs and the witnesses' labels, in one line."""
    parts = []
    if a.proofs:
        parts.append("unsat core: " + " ".join(a.proof))
    if a.witnesses:
        parts.append(f"{len(a.witnesses)} witness game(s), replayed in the engine")
    if not parts:
        parts.append(a.method.split(":")[0])
    return "; ".join(parts)


def sample_properties(max_examples: int, seed: int) -> tuple[tuple[PropertyRun, ...], str | None]:
    """Run the property sample; (runs, None), or ((), why it could not run)."""
    try:
        from hanamikoji.properties.hanamikoji.sample import run_sample
    except ImportError as error:
        return (), f"property sample unavailable ({error})"
    try:
        outcomes = run_sample(max_examples=max_examples, seed=seed)
    except Exception as error:  # a crash of the suite is a failed verification, reported
        return (), f"property sample crashed: {type(error).__name__}: {error}"
    return tuple(PropertyRun(o.name, tuple(o.rules), bool(o.passed), int(o.examples),
                             float(o.seconds), str(o.message or "")) for o in outcomes), None


def run_verify(*, max_examples: int = DEFAULT_EXAMPLES, seed: int = DEFAULT_SEED,
               names: Sequence[str] | None = None,
               budget_seconds: float = QUERY_BUDGET_SECONDS) -> Report:
    """Answer the catalogue (or the queries ``names``) and sample the property suite."""
    start = time.perf_counter()
    queries = [q for q in CATALOGUE if names is None or q.name in names]
    answers = tuple(q.run(budget_seconds) for q in queries)
    properties, error = sample_properties(max_examples, seed)
    return Report(answers, properties, error, max_examples, seed, time.perf_counter() - start)


def render(report: Report) -> Any:
    """The report as rich renderables (a table of queries, a table of properties, a verdict)."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    queries = Table(title="hanamikoji verify: queries", title_justify="left")
    for column, justify in (("query", "left"), ("answer", "left"),
                            ("proof or witness", "left"), ("seconds", "right")):
        queries.add_column(column, justify=justify, overflow="fold")  # type: ignore[arg-type]
    for a in report.answers:
        style = None if a.answered else "bold red"
        queries.add_row(a.name, answer_text(a), evidence_text(a), f"{a.seconds:.2f}",
                        style=style)
    parts: list[Any] = [queries]
    if report.sample_error is not None:
        parts.append(Text(report.sample_error, style="bold red"))
    else:
        props = Table(title=f"property sample (max_examples={report.max_examples}, "
                            f"seed={report.seed})", title_justify="left")
        for column in ("property", "rules", "result", "examples", "seconds"):
            props.add_column(column, overflow="fold")
        for p in report.properties:
            props.add_row(p.name, ", ".join(p.rules),
                          "pass" if p.passed else f"FAIL: {p.message}", str(p.examples),
                          f"{p.seconds:.2f}", style=None if p.passed else "bold red")
        parts.append(props)
    verdict = "pass" if report.ok else "FAIL"
    parts.append(Text(f"{verdict}: {len(report.answers)} queries, {len(report.properties)} "
                      f"properties in {report.seconds:.1f} s",
                      style="bold green" if report.ok else "bold red"))
    return Group(*parts)
