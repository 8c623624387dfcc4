"""Checking lines of the diff protocol against ``hanamikoji schema --protocol`` (the tests' helper).

:class:`Messages` validates a request against ``$defs/request`` and its answer against
``$defs/answer-<op>`` of one game's document. A view's log grows by a step at each decision and
``diff`` asks every player's view after every decision, so a Maiko game's traffic holds the same
log entries, board spaces and legal decisions thousands of times; each distinct item of such a
list is validated once against the schema of its items, the list's length against the rest of
its schema, and the answer around it with the list emptied. That is the same verdict as
validating the answer whole because those lists' schemas say nothing else of their items
(:func:`itemwise`).
"""

from __future__ import annotations

import json
import pathlib
from typing import Any, Iterator

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from hanamikoji.engine.core.codec import dumps
from hanamikoji.engine.core.registry import get
from hanamikoji.oracle.core.protocol_schema import answer_definition, protocol_schema


class Messages:
    """The validators of one game's protocol document."""

    def __init__(self, game: str) -> None:
        self.schema = protocol_schema(get(game))
        Draft202012Validator.check_schema(self.schema)
        self.uri = self.schema["$id"]
        self.registry = (Resource.from_contents(self.schema) @ Registry()).crawl()
        self._validators: dict[str, Draft202012Validator] = {}
        self._known: set[tuple[str, str]] = set()
        #: The view's lists whose items are checked one by one (:func:`itemwise`).
        self.lists = itemwise(self.schema)

    def errors(self, pointer: str, value: Any) -> list[str]:
        """What is wrong with ``value`` for the definition at ``pointer`` (none: it fits)."""
        return [f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message[:300]}"
                for e in self.validator(pointer).iter_errors(value)]

    def _once(self, pointer: str, value: Any) -> list[str]:
        key = (pointer, dumps(value))
        if key in self._known:
            return []
        found = self.errors(pointer, value)
        if not found:
            self._known.add(key)
        return found

    def request_errors(self, request: Any) -> list[str]:
        return self._once("/$defs/request", request)

    def answer_errors(self, op: str, answer: Any) -> list[str]:
        """What is wrong with ``answer`` as the answer to a request of ``op``."""
        pointer = f"/$defs/{answer_definition(op)}"
        listed = answer.get("legal_actions") if isinstance(answer, dict) else None
        if op == "legal_actions" and isinstance(listed, list):
            # A list of decisions, nothing more: each distinct decision checked once.
            found = self._once(pointer, {**answer, "legal_actions": []})
            for index, entry in enumerate(listed):
                found += [f"legal_actions/{index}/{e}"
                          for e in self._once("/$defs/decision", entry)]
            return found
        view = answer.get("view") if isinstance(answer, dict) else None
        if op != "observe" or not isinstance(view, dict):
            return self._once(pointer, answer)
        found: list[str] = []
        rest = dict(view)
        for key in self.lists:
            if not isinstance(view.get(key), list):
                continue
            rest[key] = []
            found += [f"view/{key}/{e}" for e in self._once(
                f"/$defs/view/properties/{key}/$without-items", view[key])]
            for index, entry in enumerate(view[key]):
                found += [f"view/{key}/{index}/{e}" for e in self._once(
                    f"/$defs/view/properties/{key}/items", entry)]
        return self._once(pointer, {**answer, "view": rest}) + found


    def validator(self, pointer: str) -> Draft202012Validator:
        """The validator of the definition at ``pointer`` in the document; ``P/$without-items``
        is the definition at P without its ``items`` (what it says of the list itself)."""
        found = self._validators.get(pointer)
        if found is None:
            if pointer.endswith("/$without-items"):
                node = self.schema
                for part in pointer[1:-len("/$without-items")].split("/"):
                    node = node[part]
                found = Draft202012Validator({k: v for k, v in node.items() if k != "items"})
            else:
                found = Draft202012Validator({"$ref": f"{self.uri}#{pointer}"},
                                             registry=self.registry)
            self._validators[pointer] = found
        return found


#: What a list's schema may say besides ``items`` for its items to be checked one by one: none
#: of these keywords looks at the items (``contains``, ``uniqueItems``, ``prefixItems`` would).
_LIST_ONLY = {"description", "type", "minItems", "maxItems", "anyOf"}


def itemwise(schema: dict[str, Any]) -> tuple[str, ...]:
    """The view's lists (Maiko's board, any game's log) whose items are checked one by one, each
    distinct item once, by :meth:`Messages.answer_errors`: those whose schema puts on the list
    nothing but its items and its length, and accepts an empty list (so the view around it can
    be checked with the list emptied). The verdict is that of validating the view whole."""
    out = []
    for key, node in schema["$defs"]["view"].get("properties", {}).items():
        if node.get("type") != "array" or "items" not in node or not set(node) - {"items"} <= \
                _LIST_ONLY | {"items"}:
            continue
        lengths = node.get("anyOf", [])
        if all(set(option) <= {"minItems", "maxItems"} for option in lengths) and \
                node.get("minItems", 0) == 0 and any(o.get("minItems", 0) == 0 for o in lengths
                                                     or [{}]):
            out.append(key)
    return tuple(out)


def exchanges(directory: pathlib.Path) -> Iterator[tuple[str, bytes, bytes]]:
    """Every (file, request line, answer line) the protocol tap logged under ``directory``."""
    for path in sorted(directory.glob("*.log")):
        lines = path.read_bytes().split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        assert len(lines) % 2 == 0, f"{path}: a request without its answer"
        for at in range(0, len(lines), 2):
            request, answer = lines[at], lines[at + 1]
            assert request.startswith(b"> ") and answer.startswith(b"< "), path
            yield path.name, request[2:], answer[2:]


def check_traffic(game: str, directory: pathlib.Path) -> dict[str, int]:
    """Validate every exchange logged under ``directory``; the number of requests by ``op``.
    Raises AssertionError naming the first message that does not fit."""
    messages = Messages(game)
    ops: dict[str, int] = {}
    for name, request_line, answer_line in exchanges(directory):
        request, answer = json.loads(request_line), json.loads(answer_line)
        pairs = [(request, answer)]
        if request.get("op") == "batch":  # protocol 3: each answer is its request's own
            assert isinstance(answer.get("answers"), list) and \
                len(answer["answers"]) == len(request["requests"]), (name, answer_line[:200])
            ops["batch"] = ops.get("batch", 0) + 1
            pairs = list(zip(request["requests"], answer["answers"]))
        for one, reply in pairs:
            problems = messages.request_errors(one)
            assert not problems, f"{name}: request {request_line[:200]!r}: {problems}"
            problems = messages.answer_errors(one["op"], reply)
            assert not problems, (f"{name}: the answer to {request_line[:200]!r}: "
                                  f"{answer_line[:200]!r}: {problems[:3]}")
            ops[one["op"]] = ops.get(one["op"], 0) + 1
    return ops


# --- a view's fields, for the docs ----------------------------------------------------------


def _nested(node: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """The object whose fields a field holds, with the path's joint: ``.`` for an object (or
    an object or null), ``[].`` for a list of objects; None for a leaf."""
    if "properties" in node:
        return ".", node
    for option in node.get("oneOf", ()):
        if "properties" in option:
            return ".", option
    items = node.get("items")
    if isinstance(items, dict) and "properties" in items:
        return "[].", items
    return None


def fields(node: dict[str, Any], prefix: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Every field of an object schema, nested ones as ``tokens.pool`` and ``log[].tile``."""
    out = []
    for name, value in node["properties"].items():
        out.append((prefix + name, value))
        nested = _nested(value)
        if nested is not None:
            out += fields(nested[1], prefix + name + nested[0])
    return out


_NAMED = {"player": "player", "tile": "tile", "space": "space", "decision": "decision",
          "options": "options", "result": "result"}


def kind(node: dict[str, Any]) -> str:
    """A field's JSON type, in a few words."""
    if "$ref" in node:
        return _NAMED.get(node["$ref"].rsplit("/", 1)[-1], node["$ref"])
    if "const" in node:
        return json.dumps(node["const"])
    if "enum" in node:
        return "one of " + ", ".join(json.dumps(v) for v in node["enum"])
    for key in ("oneOf", "anyOf"):
        if key in node and "type" not in node:
            return " or ".join(kind(option) for option in node[key])
    kinds = {"integer": "integer", "boolean": "boolean", "string": "string", "null": "null",
             "object": "object"}
    if node.get("type") == "array":
        return "list of " + (kind(node["items"]) if "items" in node else "anything")
    if node.get("type") in kinds:
        text = kinds[node["type"]]
        if "minimum" in node and "maximum" in node:
            text += f" {node['minimum']} to {node['maximum']}"
        elif "minimum" in node:
            text += f" from {node['minimum']}"
        return text
    return "anything"


def view_table(schema: dict[str, Any]) -> str:
    """The Markdown table of a game's view, field by field, from its protocol schema."""
    rows = ["| field | JSON | what it holds |", "|---|---|---|"]
    for path, node in fields(schema["$defs"]["view"]):
        description = node.get("description", "").replace("|", "\\|")
        rows.append(f"| `{path}` | {kind(node)} | {description} |")
    return "\n".join(rows)
