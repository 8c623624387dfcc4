"""Checks of a game's oracle artefacts that do not trust the code that wrote them, for any game:
the committed conformance corpus (tests/vectors/, tests/vectors/<game>/) and the agreement of a
record schema with the record validator.

The corpus was written by ``hanamikoji vectors`` from the core's ``expected_*`` functions; these
helpers check it by other roads: the record cases through the ``validate --json`` command as a
user runs it, the perft counts by a plain recursive walk written here (not
oracle/core/perft.py), the citations against the spec's bullets. The near-miss strategy makes
records of engine games with a few changes each, for the schema/validator agreement property.

Nothing here names a game: a test passes its game (``registry.get(NAME)``), its corpus folder
and its record strategy.
"""

from __future__ import annotations

import copy
import json
import pathlib
from typing import Any, Callable, Iterator

from hypothesis import strategies as st

from hanamikoji.cli.main import main
from hanamikoji.engine.core.game import Game
from hanamikoji.oracle.core.vectors import FILES
from hanamikoji.spec.core.coverage import rule_ids_in

__all__ = ["FILES", "load", "cases", "cited", "spec_rules", "record_line", "validate_json",
           "walk", "containers", "near_misses", "look_alikes", "string_groups", "string_leaves",
           "replaced", "documents_with_look_alikes"]


# --- the corpus ---------------------------------------------------------------------------


def load(folder: pathlib.Path, name: str) -> dict[str, Any]:
    return json.loads((folder / name).read_text(encoding="utf-8"))


def cases(folder: pathlib.Path, name: str) -> list[dict[str, Any]]:
    return load(folder, name)["tests"]


def cited(folder: pathlib.Path) -> set[str]:
    """Every rule ID some case of the corpus cites."""
    return {rule for name in FILES for case in cases(folder, name) for rule in case["rules"]}


def spec_rules(path: pathlib.Path) -> list[str]:
    """The rule IDs of a spec file, in order (its ``- **ID** Title.`` bullets)."""
    return [rule for rule, _ in rule_ids_in(path.read_text(encoding="utf-8"))]


def record_line(given: dict[str, Any]) -> bytes:
    """A record case's input as one line of a JSON Lines file: the record, or its raw text."""
    if "record" in given:
        return json.dumps(given["record"]).encode()
    if "text" in given:
        return given["text"].encode()
    return bytes.fromhex(given["hex"])


def validate_json(record_cases: list[dict[str, Any]], folder: pathlib.Path, capsys: Any,
                  game: str | None = None) -> tuple[int, list[dict[str, Any]]]:
    """The exit code of ``hanamikoji validate --json`` on every record case, one per line of a
    file in ``folder``, and its verdicts in input order; ``--game`` if ``game`` is given (text
    that is not JSON names no game, so only ``--game`` gives its verdict the game's keys)."""
    path = folder / "cases.jsonl"
    path.write_bytes(b"\n".join(record_line(c["input"]) for c in record_cases) + b"\n")
    capsys.readouterr()
    code = main(["validate", "--json", *(["--game", game] if game else []), str(path)])
    return code, [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def walk(game: Game, state: Any, depth: int) -> list[int]:
    """perft by its definition, and nothing else: the number of sequences of ``k`` legal
    decisions from ``state`` for each ``k`` to ``depth``; chance nodes and the end are leaves."""
    counts = [0] * (depth + 1)

    def visit(node: Any, level: int) -> None:
        counts[level] += 1
        if level < depth and game.current_player(node) >= 0:
            for decision in game.legal_actions(node):
                visit(game.apply(node, decision), level + 1)

    visit(state, 0)
    return counts


# --- near-misses of records ------------------------------------------------------------------


def containers(doc: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every (path, container) of a JSON document, the document itself first."""
    yield path, doc
    items = (doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list)
             else ())
    for key, value in items:
        if isinstance(value, (dict, list)):
            yield from containers(value, path + (key,))


def near_misses(records: st.SearchStrategy[Any], values: st.SearchStrategy[Any],
                keys: list[str], *, mutations: int = 2,
                where: Callable[[tuple[Any, ...]], bool] = lambda path: True
                ) -> st.SearchStrategy[Any]:
    """A record drawn from ``records`` with up to ``mutations`` changes, each in a drawn
    container whose path passes ``where``: a value replaced by one of ``values``, a key
    removed or added (one of ``keys``), an item removed, added or duplicated."""

    @st.composite
    def build(draw: Any) -> Any:
        doc = copy.deepcopy(draw(records))
        for _ in range(draw(st.integers(0, mutations))):
            places = [c for p, c in containers(doc) if where(p)]
            if not places:
                break
            container = draw(st.sampled_from(places))
            slots = list(container) if isinstance(container, dict) else list(range(len(container)))
            kind = draw(st.sampled_from(["replace", "remove", "add", "duplicate"]))
            if kind in ("replace", "remove", "duplicate") and not slots:
                kind = "add"
            if kind == "replace":
                container[draw(st.sampled_from(slots))] = draw(values)
            elif kind == "remove":
                del container[draw(st.sampled_from(slots))]
            elif kind == "duplicate" and isinstance(container, list):
                container.append(copy.deepcopy(container[draw(st.sampled_from(slots))]))
            elif isinstance(container, dict):
                container[draw(st.sampled_from(keys))] = draw(values)
            else:
                container.append(draw(values))
        return doc

    return build()


# --- look-alikes of the strings a record format enumerates -----------------------------------

#: Characters that read (or case-map) like an ASCII one: dotless and dotted i, Cyrillic and Greek
#: letters, the Kelvin sign and long s (which upper- or lower-case to ASCII), a non-breaking
#: hyphen and a minus sign, fullwidth and superscript digits.
_LOOK_ALIKES = {"i": "\u0131", "a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440",
                "c": "\u0441", "k": "\u212a", "s": "\u017f", "n": "\u03b7", "-": "\u2011",
                "/": "\u2215", "0": "\uff10", "1": "\u00b9", "g": "\u0261", "t": "\u03c4"}
_SPACES = (" ", "\t", "\n", "\r", "\u00a0", "\u2003", "\ufeff", "\x00")


def look_alikes(text: str) -> list[str]:
    """Strings that are not ``text`` but that a lenient reader might take for it: other cases,
    white space (ASCII and not) before, after or inside, and one character swapped for a
    look-alike; every one of them differs from ``text``."""
    out = [text.upper(), text.title(), text.swapcase(), text.casefold() + "\u0307",
           "\uff21" if not text else "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c
                                                for c in text)]
    for space in _SPACES:
        out += [space + text, text + space, text.replace(",", "," + space) if "," in text
                else text[:1] + space + text[1:]]
    out += [text[:i] + _LOOK_ALIKES[c] + text[i + 1:] for i, c in enumerate(text)
            if c in _LOOK_ALIKES]
    return list(dict.fromkeys(v for v in out if v != text))


def string_groups(schema: Any) -> list[frozenset[str]]:
    """The closed sets of strings a schema enumerates: each ``enum`` list, and the ``const``
    strings of one property name taken together (every ``kind`` of a decision, say)."""
    groups: list[frozenset[str]] = []
    consts: dict[str, set[str]] = {}

    def visit(node: Any, name: str | None) -> None:
        if isinstance(node, dict):
            strings = frozenset(v for v in node.get("enum", ()) if isinstance(v, str))
            if strings:
                groups.append(strings)
            if isinstance(node.get("const"), str):
                consts.setdefault(name or "", set()).add(node["const"])
            for key, value in node.items():
                if key == "properties" and isinstance(value, dict):
                    for prop, sub in value.items():
                        visit(sub, prop)
                else:
                    visit(value, name)
        elif isinstance(node, list):
            for item in node:
                visit(item, name)

    visit(schema, None)
    return list(dict.fromkeys(groups + [frozenset(v) for v in consts.values()]))


def string_leaves(doc: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], str]]:
    """Every (path, string) of a JSON document that is a value (not a key)."""
    items = (doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list)
             else ())
    for key, value in items:
        if isinstance(value, str):
            yield path + (key,), value
        else:
            yield from string_leaves(value, path + (key,))


def replaced(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    """A copy of ``doc`` with the value at ``path`` replaced."""
    out = copy.deepcopy(doc)
    container = out
    for key in path[:-1]:
        container = container[key]
    container[path[-1]] = value
    return out


def documents_with_look_alikes(records: list[Any], schema: Any) -> Iterator[Any]:
    """Each record (shortest first) with one string replaced: at the first place of each kind
    (the path with indices left out) whose string belongs to an enumerated set of ``schema``,
    every member of that set and every look-alike of each; at a place whose string belongs to
    no set (a pattern's, say), every look-alike of that string. Every set must have a place in
    some record (else the check would skip it)."""
    groups = string_groups(schema)
    done: set[Any] = set()
    for record in records:
        for path, value in string_leaves(record):
            kind = tuple(k for k in path if isinstance(k, str))
            owners = [g for g in groups if value in g] or [frozenset({value})]
            for group in owners:
                if (kind, group) in done:
                    continue
                done.add((kind, group))
                for member in sorted(group):
                    for text in [member, *look_alikes(member)]:
                        yield replaced(record, path, text)
    missing = [sorted(g) for g in groups if not any(group == g for _, group in done)]
    assert not missing, f"no record has a place for these strings: {missing}"
