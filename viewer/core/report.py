"""The page of a ``verify`` report (``verify --out DIR`` writes it as ``report.html``): each
game's queries with their answer as a small table (nested answers as nested tables), the
evidence in a line, the property sample, and a replay of each witness game inline (opened when
its section is opened).
"""

from __future__ import annotations

import html
import json
from typing import Any, Mapping, Sequence

from hanamikoji.engine.core.game import Game

from .page import game_entry, page

_E = html.escape


def value_html(value: Any) -> str:
    """A JSON answer for people: an object as a table of its keys, a list of objects as a
    table with a row each, anything else as text.

    >>> value_html({"a": 1, "b": True})
    '<table class="answer"><tr><th scope="row">a</th><td>1</td></tr><tr><th scope="row">b</th><td>yes</td></tr></table>'
    """
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        rows = "".join(f'<tr><th scope="row">{_E(str(k))}</th><td>{value_html(v)}</td></tr>'
                       for k, v in value.items())
        return f'<table class="answer">{rows}</table>'
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        keys = list(dict.fromkeys(k for v in value for k in v))
        head = "".join(f'<th scope="col">{_E(str(k))}</th>' for k in keys)
        rows = "".join("<tr>" + "".join(f"<td>{value_html(v.get(k))}</td>" for k in keys)
                       + "</tr>" for v in value)
        return f'<table class="answer"><tr>{head}</tr>{rows}</table>'
    if isinstance(value, list):
        return _E(", ".join(json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else v
                            for v in value)) or "none"
    if value is None:
        return "none"
    return _E(str(value))


def report_page(document: Mapping[str, Any], witnesses: Mapping[tuple[str, str], Sequence[
        tuple[str, Game, Any]]], lines: Mapping[tuple[str, str], tuple[str, str]]) -> str:
    """The page of the report ``document`` (``report.json``'s object); ``witnesses`` gives, for
    (game, query), each witness game as (label, game, final state); ``lines`` the answer and the
    evidence in one line each, as report.md writes them."""
    entries: list[dict[str, Any]] = []
    games: set[Game] = set()
    parts = [f'<p class="status-{"holds" if document.get("ok") else "fails"}"><b>Result: '
             f'{"pass" if document.get("ok") else "FAIL"}</b> in {document.get("seconds")} s. '
             f'Produced by ' + _E(", ".join(f"{k} {v}" for k, v in
                                            (document.get("produced_by") or {}).items()))
             + "</p>"]
    for section in document.get("games", []):
        name = section["game"]
        parts.append(f'<h2 id="game-{_E(name)}">{_E(name)}</h2><h3>Queries</h3>')
        for query in section.get("queries", []):
            key = (name, query["name"])
            answer_line, evidence = lines.get(key, ("", ""))
            parts.append(f'<section class="query" id="{_E(name)}-{_E(query["name"])}" '
                         f'aria-label="{_E(query["name"])}">')
            parts.append(f'<h4>{_E(query["name"])} <small class="status-{_E(str(query.get("status")))}">'
                         f'{_E(str(query.get("status")))}</small></h4>')
            parts.append(f'<p>{_E(query.get("question", ""))}</p>')
            answer = query.get("answer")
            parts.append(f'<div class="answer-value">{value_html(answer)}</div>')
            if evidence:
                parts.append(f'<p class="evidence">{_E(evidence)}</p>')
            for label, game, final in witnesses.get(key, ()):
                index = len(entries)
                entries.append(game_entry(game, final, label))
                games.add(game)
                parts.append(f'<details class="witness"><summary>witness: {_E(label)}</summary>'
                             f'<div data-replay="{index}"></div></details>')
            if query.get("witness_file"):
                file = _E(query["witness_file"])
                parts.append(f'<p class="how">the witness games as records: <code>{file}</code> '
                             f'(<code>hanamikoji show {file}</code>, '
                             f'<code>hanamikoji view {file}</code>)</p>')
            parts.append("</section>")
        props = section.get("properties") or {}
        parts.append("<h3>Property sample</h3>")
        if props.get("error"):
            parts.append(f"<p>Not run: {_E(props['error'])}</p>")
        else:
            parts.append(value_html(props.get("results") or []))
    return page("report", "hanamikoji verify", {"kind": "report", "games": entries},
                sorted(games, key=lambda g: g.name), "\n".join(parts))
