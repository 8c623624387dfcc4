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
           "walk", "containers", "near_misses"]


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
