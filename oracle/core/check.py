"""The report card of ``hanamikoji check``: what every check of an implementation found, in
the implementer's terms.

``check`` runs, against one target or several (a course module, an engine behind its adapter
command, a bot), the checks that fit it: the conformance vectors, perft, ``diff``, the leak
check, long runs of calls in one process, a short tournament. Each check gives a
:class:`Check`: how many cases passed and failed, and its first failures (the first one
minimized where the check can), each a :class:`Failure` that says what failed, on which call,
with what message, and a :class:`Reproduction` to paste. A target's checks make its
:class:`Card`, and the cards of one run a :class:`Report`: printed as a short summary
(:meth:`Report.summary`), written as ``report.json`` (:meth:`Report.to_json`, described by
:data:`SCHEMA`) and ``report.html``.

Every count and verdict is deterministic (budgets are counted: calls, games, seeds); the only
readings of a clock are the :class:`Timing` of a check, which no verdict depends on except a
call over its stated limit, named as such.
"""

from __future__ import annotations

import math
from typing import Any, Iterable, Mapping

import attrs

__all__ = ["KINDS", "MAX_FAILURES", "SCHEMA", "STDERR_TAIL", "Card", "Check", "Failure",
           "Reproduction", "Report", "Timing", "tail"]

#: The kinds of target: a course module (its functions called in one Node process), an engine
#: behind an adapter command (the oracle protocol), a bot (the bot protocol).
KINDS = ("module", "engine", "bot")
#: Failures kept a check: the first is the one to act on; a few more show whether they differ.
MAX_FAILURES = 5
#: Bytes of a process's standard error kept with a failure: its end, where a crash says why.
STDERR_TAIL = 4096
#: Languages a reproduction is written in (``sh``: a command line).
LANGUAGES = ("sh", "javascript", "python")


def tail(text: str | bytes | None, limit: int = STDERR_TAIL) -> str | None:
    """The last ``limit`` bytes of ``text`` (a process's standard error), as text; None for
    nothing. A cut is said at the start (``…``), on a whole character."""
    if text is None:
        return None
    data = text.encode("utf-8", "replace") if isinstance(text, str) else text
    if not data:
        return None
    if len(data) <= limit:
        return data.decode("utf-8", "replace")
    return "…" + data[-limit:].decode("utf-8", "ignore")


@attrs.frozen
class Reproduction:
    """What to paste to make the failing call again: a command line (``sh``), or a few lines of
    JavaScript or Python. ``note`` says what it shows when run (``prints 1, expected -1``)."""

    language: str = attrs.field(validator=attrs.validators.in_(LANGUAGES))
    text: str
    note: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"language": self.language, "text": self.text, "note": self.note}


@attrs.frozen
class Failure:
    """One case that failed.

    ``message``: one line, what was wrong, in the implementer's terms (course letters for a
    course function, record JSON for an engine: never a Python repr). ``call``: the number of
    the call in the one long-lived process it was made in (1 is the first), when it matters (a
    fault that appears only after many calls). ``request``: the exact call or request (``
    hanamikoji_action("4BACD", ...)``, a JSON request line). ``expected`` and ``got``: the
    answers, as text. ``rule``: the rule ID the answer breaks, if one does. ``stderr`` (its
    last :data:`STDERR_TAIL` bytes) and ``exit`` (``exit code 1``, ``killed by SIGSEGV``): how a
    process that crashed ended. ``game``: a record or position the report's page replays.
    ``minimized``: the case was shrunk to a smallest one that still fails.
    """

    message: str
    call: int | None = None
    request: str | None = None
    expected: str | None = None
    got: str | None = None
    rule: str | None = None
    reproduction: Reproduction | None = None
    stderr: str | None = attrs.field(default=None, converter=tail)
    exit: str | None = None
    game: Any = None
    minimized: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"message": self.message, "call": self.call, "request": self.request,
                "expected": self.expected, "got": self.got, "rule": self.rule,
                "reproduction": None if self.reproduction is None else
                self.reproduction.to_json(),
                "stderr": self.stderr, "exit": self.exit, "game": self.game,
                "minimized": self.minimized}


def _failures(items: Iterable[Failure]) -> tuple[Failure, ...]:
    """A check's failures as a tuple (a typed converter: mypy's attrs plugin reads
    ``converter=tuple`` as a tuple of nothing it can check, and refuses a list)."""
    return tuple(items)


@attrs.frozen
class Timing:
    """Time per call of a check, in milliseconds, against the limit a call has (None: none):
    the median, the 90th and 99th percentiles and the longest, over ``calls`` calls. A reading
    of a clock: it varies from run to run, and no verdict depends on it."""

    calls: int
    median: float
    p90: float
    p99: float
    longest: float
    limit: float | None = None

    @classmethod
    def of(cls, milliseconds: Iterable[float], limit: float | None = None) -> Timing | None:
        """The timing of these calls (nearest-rank percentiles); None for no call."""
        times = sorted(milliseconds)
        if not times:
            return None

        def rank(fraction: float) -> float:
            return times[max(0, math.ceil(len(times) * fraction) - 1)]

        return cls(len(times), rank(0.5), rank(0.9), rank(0.99), times[-1], limit)

    def to_json(self) -> dict[str, Any]:
        return {"calls": self.calls, "median_ms": round(self.median, 3),
                "p90_ms": round(self.p90, 3), "p99_ms": round(self.p99, 3),
                "longest_ms": round(self.longest, 3), "limit_ms": self.limit}

    def __str__(self) -> str:
        limit = "" if self.limit is None else f", limit {self.limit:g} ms"
        return (f"{self.calls} calls: median {self.median:.2f} ms, 90% {self.p90:.2f} ms, "
                f"99% {self.p99:.2f} ms, longest {self.longest:.2f} ms{limit}")


@attrs.frozen
class Check:
    """One check of a target: ``name`` a stable ID (``vectors``, ``perft``, ``diff``, ``leaks``,
    ``t1``, ``t2``, ``t3``, ``calls``, ``tournament``...), ``title`` what it did in words
    (``T3 hanamikoji_action: 5,000 calls in one process``), the counts of cases that passed and
    failed, its first failures (at most :data:`MAX_FAILURES`), and ``skipped``: why it did not
    run, if it did not (the module does not export the function); a skipped check neither
    passes nor fails."""

    name: str
    title: str
    passed: int = 0
    failed: int = 0
    failures: tuple[Failure, ...] = attrs.field(default=(), converter=_failures)
    timing: Timing | None = None
    skipped: str | None = None

    def __attrs_post_init__(self) -> None:
        if self.passed < 0 or self.failed < 0:
            raise ValueError(f"check {self.name}: negative counts")
        if len(self.failures) > self.failed:
            raise ValueError(f"check {self.name}: {len(self.failures)} failures kept of "
                             f"{self.failed} failed")
        if self.failed and not self.failures:
            raise ValueError(f"check {self.name}: {self.failed} failed and none kept")

    @property
    def ok(self) -> bool:
        return self.failed == 0

    @property
    def status(self) -> str:
        """``pass``, ``fail`` or ``skip``."""
        return "skip" if self.skipped is not None else "pass" if self.ok else "fail"

    def to_json(self) -> dict[str, Any]:
        return {"check": self.name, "title": self.title, "status": self.status,
                "passed": self.passed, "failed": self.failed,
                "failures": [f.to_json() for f in self.failures],
                "timing": None if self.timing is None else self.timing.to_json(),
                "skipped": self.skipped}

    def line(self) -> str:
        """The check in one line: ``t3  FAIL  45 passed, 5679 failed: T3 ...``."""
        if self.skipped is not None:
            return f"{self.name:<10}  skip  {self.title}: {self.skipped}"
        word = "ok  " if self.ok else "FAIL"
        return f"{self.name:<10}  {word}  {self.passed} passed, {self.failed} failed: {self.title}"


def _checks(checks: Iterable[Check]) -> tuple[Check, ...]:
    """A card's checks as a tuple (a typed converter, as :func:`_failures`)."""
    return tuple(checks)


@attrs.frozen
class Card:
    """A target's report card: its ``name`` (a column of the side-by-side page), its ``kind``
    (:data:`KINDS`), what was given (``target``: a path or a command) and its checks, in the
    order they ran. ``ok``: no check failed."""

    name: str
    kind: str = attrs.field(validator=attrs.validators.in_(KINDS))
    target: str
    checks: tuple[Check, ...] = attrs.field(converter=_checks)

    @property
    def ok(self) -> bool:
        return all(check.ok for check in self.checks)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "target": self.target, "ok": self.ok,
                "checks": [c.to_json() for c in self.checks]}

    def summary(self, times: bool = False) -> list[str]:
        """The card as lines: a heading, a line a check, with ``times`` each check's time per
        call (a clock's reading, so left out unless asked for: the rest is the same every run),
        then each failed check's first failure with its reproduction."""
        failed = sum(1 for c in self.checks if c.status == "fail")
        verdict = "every check passed" if self.ok else f"{failed} of {len(self.checks)} " \
            "checks failed"
        lines = [f"{self.name} ({self.kind}: {self.target}): {verdict}"]
        lines += [f"  {check.line()}" for check in self.checks]
        lines += [f"  {check.name}, time per call: {check.timing}" for check in self.checks
                  if times and check.timing is not None]
        for check in self.checks:
            if not check.failures:
                continue
            first = check.failures[0]
            where = "" if first.call is None else f" (call {first.call})"
            lines.append(f"  {check.name}, first failure{where}: {first.message}")
            if first.exit is not None:
                lines.append(f"    the process ended: {first.exit}")
            if first.stderr:
                last = first.stderr.rstrip("\n").rsplit("\n", 1)[-1]
                lines.append(f"    its stderr ends: {last}")
            if first.reproduction is not None:
                lines.append(f"    to reproduce ({first.reproduction.language}):")
                lines += [f"      {line}" for line in first.reproduction.text.splitlines()]
            # The others in a line each (a check that keeps going, as diff's, may have found
            # several defects); report.json has each one's reproduction.
            for other in check.failures[1:]:
                where = "" if other.call is None else f" (call {other.call})"
                lines.append(f"  {check.name}, also{where}: {other.message}")
        return lines


def _cards(items: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(items)


@attrs.frozen
class Report:
    """The cards of one ``check`` run, and what they were checked under: the game, its options,
    the seed. ``ok``: every card is."""

    game: str
    options: Mapping[str, Any]
    seed: int
    toolkit: str
    cards: tuple[Card, ...] = attrs.field(converter=_cards)

    @property
    def ok(self) -> bool:
        return all(card.ok for card in self.cards)

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "toolkit": self.toolkit, "game": self.game,
                "options": dict(self.options), "seed": self.seed, "ok": self.ok,
                "cards": [card.to_json() for card in self.cards]}

    def summary(self, times: bool = False) -> str:
        """Every card's summary (:meth:`Card.summary`), then how many passed every check."""
        lines: list[str] = []
        for card in self.cards:
            lines += card.summary(times)
        passed = sum(1 for card in self.cards if card.ok)
        lines.append(f"{passed} of {len(self.cards)} implementations passed every check")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary()


#: The value of ``report.json``'s ``format``: a reader checks it before it reads the rest.
FORMAT = "urn:hanamikoji:check-report:1"

_NULLABLE_STRING = {"type": ["string", "null"]}

#: The JSON Schema (draft 2020-12) of ``report.json`` (``hanamikoji schema check``).
SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": FORMAT,
    "title": "The report card of check",
    "description": "The report card of `hanamikoji check`: a card per implementation, a check "
                   "per row, each failure with the call that failed and a reproduction.",
    "type": "object",
    "required": ["format", "toolkit", "game", "options", "seed", "ok", "cards"],
    "additionalProperties": False,
    "properties": {
        "format": {"const": FORMAT},
        "toolkit": {"type": "string", "description": "the toolkit's version"},
        "game": {"type": "string"},
        "options": {"type": "object"},
        "seed": {"type": "integer", "minimum": 0},
        "ok": {"type": "boolean", "description": "every check of every card passed"},
        "cards": {"type": "array", "items": {"$ref": "#/$defs/card"}},
    },
    "$defs": {
        "card": {
            "type": "object",
            "required": ["name", "kind", "target", "ok", "checks"],
            "additionalProperties": False,
            "properties": {
                "name": {"type": "string"},
                "kind": {"enum": list(KINDS)},
                "target": {"type": "string", "description": "the path or command given"},
                "ok": {"type": "boolean"},
                "checks": {"type": "array", "items": {"$ref": "#/$defs/check"}},
            },
        },
        "check": {
            "type": "object",
            "required": ["check", "title", "status", "passed", "failed", "failures", "timing",
                         "skipped"],
            "additionalProperties": False,
            "properties": {
                "check": {"type": "string", "description": "a stable ID: vectors, perft, "
                          "diff, leaks, t1, t2, t3, calls, tournament, ..."},
                "title": {"type": "string"},
                "status": {"enum": ["pass", "fail", "skip"]},
                "passed": {"type": "integer", "minimum": 0},
                "failed": {"type": "integer", "minimum": 0},
                "failures": {"type": "array", "maxItems": MAX_FAILURES,
                             "items": {"$ref": "#/$defs/failure"}},
                "timing": {"oneOf": [{"type": "null"}, {"$ref": "#/$defs/timing"}]},
                "skipped": _NULLABLE_STRING,
            },
        },
        "failure": {
            "type": "object",
            "required": ["message", "call", "request", "expected", "got", "rule",
                         "reproduction", "stderr", "exit", "game", "minimized"],
            "additionalProperties": False,
            "properties": {
                "message": {"type": "string"},
                "call": {"type": ["integer", "null"], "minimum": 1},
                "request": _NULLABLE_STRING,
                "expected": _NULLABLE_STRING,
                "got": _NULLABLE_STRING,
                "rule": _NULLABLE_STRING,
                "reproduction": {"oneOf": [{"type": "null"},
                                           {"$ref": "#/$defs/reproduction"}]},
                "stderr": {"type": ["string", "null"],
                           "description": f"the last {STDERR_TAIL} bytes"},
                "exit": _NULLABLE_STRING,
                "game": {"description": "a record or position the page replays, or null"},
                "minimized": {"type": "boolean"},
            },
        },
        "reproduction": {
            "type": "object",
            "required": ["language", "text", "note"],
            "additionalProperties": False,
            "properties": {
                "language": {"enum": list(LANGUAGES)},
                "text": {"type": "string"},
                "note": _NULLABLE_STRING,
            },
        },
        "timing": {
            "type": "object",
            "required": ["calls", "median_ms", "p90_ms", "p99_ms", "longest_ms", "limit_ms"],
            "additionalProperties": False,
            "properties": {
                "calls": {"type": "integer", "minimum": 1},
                "median_ms": {"type": "number", "minimum": 0},
                "p90_ms": {"type": "number", "minimum": 0},
                "p99_ms": {"type": "number", "minimum": 0},
                "longest_ms": {"type": "number", "minimum": 0},
                "limit_ms": {"type": ["number", "null"]},
            },
        },
    },
}
