"""The page of a ``check`` report (``report.html``, and ``hanamikoji view report.json``).

With several implementations, the page opens on a table in the manner of a conformance
dashboard (Bowtie's report for JSON Schema validators): a column per implementation, a row per
check, each cell the check's verdict with its counts, a failed cell a link to its failures.
Below it (alone with one implementation) each report card: its checks, the time per call, and
every kept failure with its message, call number, exact call, expected and got answers, rule,
the reproduction to paste (with a copy button), the end of the process's standard error and
how it ended. A failure's game (a record, or a position: the game so far) is replayed by the
engine as every page replays a game; one the engine does not replay is shown as its JSON.

Every string of a report comes from the implementation checked (its name, its command, its
standard error, its messages): all of it is escaped, lone surrogates and control characters
included, so nothing in a report can run on the page.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any, Mapping, Sequence

from hanamikoji.engine.core.game import Game
from hanamikoji.engine.core.registry import by_format, get

from .page import game_entry, page

__all__ = ["card_page", "problem"]

#: What no page should hold as text: lone surrogates (they cannot be written as UTF-8) and the
#: control characters other than tab and the line ends.
_UNWRITABLE = re.compile("[\ud800-\udfff\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _clean(value: Any) -> str:
    return _UNWRITABLE.sub("\ufffd", value if isinstance(value, str) else str(value))


def _e(value: Any) -> str:
    """``value`` as HTML text (quotes included: it may sit in an attribute)."""
    return html.escape(_clean(value), quote=True)


# --- the shape of a report ----------------------------------------------------------------

_TIMING = {"calls": "integer", "median_ms": "number", "p90_ms": "number", "p99_ms": "number",
           "longest_ms": "number", "limit_ms": "number?"}
_REPRODUCTION = {"language": "string", "text": "string", "note": "string?"}
_FAILURE = {"message": "string", "call": "integer?", "request": "string?",
            "expected": "string?", "got": "string?", "rule": "string?",
            "reproduction": ("nullable", _REPRODUCTION), "stderr": "string?", "exit": "string?",
            "game": None, "minimized": "boolean"}
_CHECK = {"check": "string", "title": "string", "status": frozenset({"pass", "fail", "skip"}),
          "passed": "integer", "failed": "integer", "failures": [_FAILURE],
          "timing": ("nullable", _TIMING), "skipped": "string?"}
_CARD = {"name": "string", "kind": "string", "target": "string", "ok": "boolean",
         "checks": [_CHECK]}
_REPORT = {"format": "string", "toolkit": "string", "game": "string", "options": "object",
           "seed": "integer", "ok": "boolean", "cards": [_CARD]}


def _is(value: Any, kind: str) -> bool:
    if kind.endswith("?"):
        return value is None or _is(value, kind[:-1])
    if kind in ("integer", "number"):
        numeric = (int,) if kind == "integer" else (int, float)
        return isinstance(value, numeric) and not isinstance(value, bool)
    return isinstance(value, {"string": str, "boolean": bool, "object": dict}[kind])


def _problem(value: Any, shape: Any, path: str) -> str | None:
    """The first place where ``value`` is not of ``shape``, in one line, or None."""
    if shape is None:
        return None
    if isinstance(shape, tuple):  # ("nullable", shape)
        return None if value is None else _problem(value, shape[1], path)
    if isinstance(shape, frozenset):
        if value in shape and isinstance(value, str):
            return None
        return f"{path}: expected one of {', '.join(sorted(shape))}, got {_shown(value)}"
    if isinstance(shape, str):
        return None if _is(value, shape) else (
            f"{path}: expected {_a(shape)}, got {_shown(value)}")
    if isinstance(shape, list):
        if not isinstance(value, list):
            return f"{path}: expected an array, got {_shown(value)}"
        for index, item in enumerate(value):
            found = _problem(item, shape[0], f"{path}[{index}]")
            if found:
                return found
        return None
    if not isinstance(value, dict):
        return f"{path}: expected an object, got {_shown(value)}"
    for key, inner in shape.items():
        if key not in value:
            return f"{path}: the key {json.dumps(key)} is missing"
        found = _problem(value[key], inner, f"{path}.{key}")
        if found:
            return found
    return None


def _a(kind: str) -> str:
    base = kind.rstrip("?")
    text = {"integer": "an integer", "number": "a number", "string": "a string",
            "boolean": "true or false", "object": "an object"}[base]
    return f"{text} or null" if kind.endswith("?") else text


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=True, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


def problem(document: Any) -> str | None:
    """Where ``document`` is not a report this page can show (a JSON path and what was
    expected, in one line), or None. It checks the keys and types the page reads, as
    ``report.json``'s schema gives them; a failure's ``game`` may be anything.

    >>> problem({"format": "x"})
    '$: the key "toolkit" is missing'
    """
    return _problem(document, _REPORT, "$")


# --- a failure's game ---------------------------------------------------------------------


def replayed(value: Any, default_game: str) -> tuple[Game, Any] | str:
    """The game ``value`` holds, replayed by the engine: a record (its game by its ``format``),
    or a position (``{"game", "options", "first_player", "history"}``; without ``game``, the
    report's). Else one line saying why it does not replay."""
    if isinstance(value, str):  # a game kept as JSON text
        try:
            value = json.loads(value)
        except ValueError:
            return "it is text, not a record or a position"
    if not isinstance(value, dict):
        return "it is not a record or a position (a JSON object)"
    try:
        if "format" in value:
            game = by_format(value["format"])
            if game is None:
                return f"no game here writes records of format {_shown(value['format'])}"
            return game, game.read_record(value)
        if "history" in value:
            game = get(value.get("game", default_game))
            return game, game.position_from_json(value)
    # Whatever the implementation kept, the page is written: a game the engine refuses (its
    # error says why) or that is too strange to read is shown as its JSON.
    except (ValueError, TypeError, LookupError, AttributeError, RecursionError) as error:
        return f"the engine does not replay it: {error}"
    return "it is neither a record (no \"format\") nor a position (no \"history\")"


# --- the page -----------------------------------------------------------------------------

_WORD = {"pass": "pass", "fail": "FAIL", "skip": "skip"}


class _Builder:
    """The page's body, and the games it replays, built card by card."""

    def __init__(self, document: Mapping[str, Any]) -> None:
        self.document = document
        self.cards: list[Mapping[str, Any]] = document["cards"]
        self.entries: list[dict[str, Any]] = []
        self.games: set[Game] = set()

    def body(self) -> str:
        parts = [self.heading()]
        if len(self.cards) > 1:
            parts.append(self.dashboard())
        parts += [self.card(i, card) for i, card in enumerate(self.cards)]
        return "\n".join(parts)

    def heading(self) -> str:
        doc = self.document
        passed = sum(1 for card in self.cards if card["ok"])
        ok = bool(doc["ok"])
        options = ", ".join(f"{k} {json.dumps(v, ensure_ascii=False, default=str)}"
                            for k, v in doc["options"].items())
        return (f'<p class="status-{"holds" if ok else "fails"} verdict"><b>Result: '
                f'{"pass" if ok else "FAIL"}</b>: {passed} of {len(self.cards)} '
                f'implementation{"" if len(self.cards) == 1 else "s"} passed every check.</p>\n'
                f'<p class="under">game <b>{_e(doc["game"])}</b>'
                f'{f" ({_e(options)})" if options else ""}, seed {_e(doc["seed"])}, '
                f'toolkit {_e(doc["toolkit"])}</p>')

    def dashboard(self) -> str:
        """The table: a column per implementation, a row per check ID (in the order first
        seen), each cell that card's check or "not run"."""
        rows: dict[str, str] = {}
        for card in self.cards:
            for check in card["checks"]:
                rows.setdefault(check["check"], check["title"])
        head = "".join(
            f'<th scope="col" class="impl"><span class="name">{_e(card["name"])}</span>'
            f'<span class="kind">{_e(card["kind"])}</span>'
            f'<code class="target">{_e(card["target"])}</code>'
            f'<span class="status-{"holds" if card["ok"] else "fails"}">'
            f'{_e(_verdict(card))}</span></th>' for card in self.cards)
        body = []
        for name, title in rows.items():
            cells = []
            for i, card in enumerate(self.cards):
                found = [(j, c) for j, c in enumerate(card["checks"]) if c["check"] == name]
                cells.append(self.cell(i, *found[0]) if found else
                             '<td class="cell none">not run</td>')
            body.append(f'<tr><th scope="row"><code>{_e(name)}</code>'
                        f'<span class="title">{_e(title)}</span></th>{"".join(cells)}</tr>')
        # In a box of its own that scrolls sideways: a course may have dozens of columns.
        return (f'<div class="dashboard-box"><table class="dashboard"><caption>Every check of '
                f'every implementation: a failed cell links to its failures</caption>\n'
                f'<thead><tr><th scope="col">check</th>{head}</tr></thead>\n'
                f'<tbody>\n{chr(10).join(body)}\n</tbody></table></div>')

    def cell(self, i: int, j: int, check: Mapping[str, Any]) -> str:
        status = check["status"]
        tip = check["title"] if check["skipped"] is None else \
            f'{check["title"]}: {check["skipped"]}'
        if status == "skip":
            text = "skip"
        else:
            text = f"{_WORD[status]} <small>{_counts(check)}</small>"
        if status == "fail":
            text = f'<a href="#{_anchor(i, j)}">{text}</a>'
        return f'<td class="cell {status}" title="{_e(tip)}">{text}</td>'

    def card(self, i: int, card: Mapping[str, Any]) -> str:
        checks = card["checks"]
        rows = "".join(
            f'<tr class="{c["status"]}"><th scope="row">'
            + (f'<a href="#{_anchor(i, j)}"><code>{_e(c["check"])}</code></a>'
               if c["status"] == "fail" else f'<code>{_e(c["check"])}</code>')
            + f'</th><td class="status">{_WORD[c["status"]]}</td><td>{c["passed"]:,}</td>'
            f'<td>{c["failed"]:,}</td><td>{_e(c["title"])}'
            + ("" if c["skipped"] is None else f': <i>{_e(c["skipped"])}</i>') + "</td></tr>"
            for j, c in enumerate(checks))
        parts = [f'<section class="card" id="card-{i}" aria-label="{_e(card["name"])}">',
                 f'<h2>{_e(card["name"])} <small class="status-'
                 f'{"holds" if card["ok"] else "fails"}">{_e(_verdict(card))}</small></h2>',
                 f'<p class="target">{_e(card["kind"])}: <code>{_e(card["target"])}</code></p>',
                 '<table class="checks"><caption>The checks, in the order they ran</caption>'
                 '<thead><tr><th scope="col">check</th><th scope="col">result</th>'
                 '<th scope="col">passed</th><th scope="col">failed</th>'
                 f'<th scope="col">what it did</th></tr></thead><tbody>{rows}</tbody></table>']
        timed = [c for c in checks if c["timing"] is not None]
        if timed:
            parts.append(_timings(timed))
        parts += [self.failures(i, j, card, c) for j, c in enumerate(checks)
                  if c["failures"] or c["status"] == "fail"]
        parts.append("</section>")
        return "\n".join(parts)

    def failures(self, i: int, j: int, card: Mapping[str, Any],
                 check: Mapping[str, Any]) -> str:
        kept = check["failures"]
        shown = ("none kept" if not kept else f"the first {len(kept)} kept"
                 if len(kept) < check["failed"] else "")
        head = (f'<h3><code>{_e(check["check"])}</code>: {_e(check["title"])} '
                f'<small>{_counts(check)}{f"; {shown}" if shown else ""}</small></h3>')
        items = [self.failure(f"{_anchor(i, j)}-{k}", card, check, k, failure)
                 for k, failure in enumerate(kept)]
        return (f'<section class="failed-check" id="{_anchor(i, j)}" '
                f'aria-label="{_e(card["name"])}: {_e(check["check"])} failures">\n{head}\n'
                + "\n".join(items) + "\n</section>")

    def failure(self, anchor: str, card: Mapping[str, Any], check: Mapping[str, Any], k: int,
                failure: Mapping[str, Any]) -> str:
        facts = []
        if failure["call"] is not None:
            facts.append(("call", f'number {failure["call"]:,} of the process'))
        for key, label in (("request", "the call"), ("expected", "expected"), ("got", "got")):
            if failure[key] is not None:
                facts.append((label, f'<pre class="{key}">{_e(failure[key])}</pre>'))
        if failure["rule"] is not None:
            facts.append(("rule", f'<span class="rule">{_e(failure["rule"])}</span>'))
        if failure["exit"] is not None:
            facts.append(("the process ended", f'<span class="exit">{_e(failure["exit"])}</span>'))
        facts.append(("minimized", "yes: the smallest case found that still fails"
                      if failure["minimized"] else "no: the case as it was found"))
        parts = [f'<article class="failure" id="{anchor}" aria-label="failure {k + 1}">',
                 f'<p class="message"><b>{k + 1}.</b> {_e(failure["message"])}</p>',
                 '<dl class="facts">' + "".join(f"<dt>{label}</dt><dd>{value}</dd>"
                                                for label, value in facts) + "</dl>"]
        repro = failure["reproduction"]
        if repro is not None:
            note = f': {_e(repro["note"])}' if repro["note"] else ""
            parts.append(
                f'<div class="reproduction"><p>To reproduce ({_e(repro["language"])}){note}'
                f' <button type="button" class="copy" data-copy="{anchor}-repro">Copy</button>'
                f'</p><pre id="{anchor}-repro" class="repro language-{_e(repro["language"])}">'
                f'{_e(repro["text"])}</pre></div>')
        if failure["stderr"] is not None:
            parts.append(f'<p>Its standard error ends:</p><pre class="stderr">'
                         f'{_e(failure["stderr"])}</pre>')
        if failure["game"] is not None:
            parts.append(self.game(card, check, k, failure["game"]))
        parts.append("</article>")
        return "\n".join(parts)

    def game(self, card: Mapping[str, Any], check: Mapping[str, Any], k: int,
             value: Any) -> str:
        found = replayed(value, self.document["game"])
        if isinstance(found, str):
            text = json.dumps(value, indent=1, ensure_ascii=False, default=str)
            return (f'<div class="game-json"><p>Its game, as JSON ({_e(found)}):</p>'
                    f'<pre class="json">{_e(text)}</pre></div>')
        game, final = found
        label = _clean(f'{card["name"]}: {check["check"]}, failure {k + 1}')
        index = len(self.entries)
        self.entries.append(game_entry(game, final, label))
        self.games.add(game)
        steps = len(game.history(final))
        return (f'<details class="failure-game"><summary>Its game, replayed '
                f'({_e(game.title)}, {steps} decision{"" if steps == 1 else "s"}; '
                f'{"finished" if game.is_terminal(final) else "unfinished"})</summary>'
                f'<div data-replay="{index}" data-step="{steps}"></div></details>')


def _anchor(i: int, j: int) -> str:
    return f"card-{i}-check-{j}"


def _counts(check: Mapping[str, Any]) -> str:
    if check["status"] == "fail":
        return f'{check["failed"]:,} failed, {check["passed"]:,} passed'
    return f'{check["passed"]:,} passed'


def _verdict(card: Mapping[str, Any]) -> str:
    failed = sum(1 for c in card["checks"] if c["status"] == "fail")
    return "every check passed" if card["ok"] else \
        f'{failed} of {len(card["checks"])} checks failed'


def _timings(checks: Sequence[Mapping[str, Any]]) -> str:
    """The time per call of each timed check: median, 90%, 99%, longest and the limit; a
    longest call over the limit is marked."""
    rows = []
    for check in checks:
        t = check["timing"]
        limit = t["limit_ms"]
        over = limit is not None and t["longest_ms"] > limit
        rows.append(f'<tr><th scope="row"><code>{_e(check["check"])}</code></th>'
                    f'<td>{t["calls"]:,}</td>'
                    + "".join(f'<td>{t[key]:.2f} ms</td>'
                              for key in ("median_ms", "p90_ms", "p99_ms"))
                    + f'<td class="{"over" if over else "within"}">{t["longest_ms"]:.2f} ms</td>'
                    f'<td>{"none" if limit is None else f"{limit:g} ms"}</td></tr>')
    return ('<table class="timing"><caption>Time per call (a clock\'s reading: it varies from '
            'run to run)</caption><thead><tr><th scope="col">check</th><th scope="col">calls'
            '</th><th scope="col">median</th><th scope="col">90%</th><th scope="col">99%</th>'
            '<th scope="col">longest</th><th scope="col">limit</th></tr></thead><tbody>'
            + "".join(rows) + "</tbody></table>")


def card_page(document: Mapping[str, Any]) -> str:
    """The page of the report ``document`` (``report.json``'s object, as
    ``Report.to_json()`` gives it): one self-contained HTML file. A :class:`ValueError` (a
    JSON path and what was expected) when ``document`` is not of that shape."""
    found = problem(document)
    if found is not None:
        raise ValueError(found)
    builder = _Builder(document)
    body = builder.body()
    cards = document["cards"]
    title = (f"hanamikoji check: {_clean(cards[0]['name'])}" if len(cards) == 1 else
             f"hanamikoji check: {len(cards)} implementations")
    return page("check", title, {"kind": "check", "games": builder.entries},
                sorted(builder.games, key=lambda g: g.name), body)
