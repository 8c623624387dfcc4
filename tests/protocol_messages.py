"""Checking lines of the diff protocol against ``hanamikoji schema --protocol`` (the tests' helper).

:class:`Messages` validates a request against ``$defs/request`` and its answer against
``$defs/answer-<op>`` of one game's document. A view's log grows by a step at each decision and
``diff`` asks every player's view after every decision, so a Maiko game's traffic holds the same
log entries thousands of times; each distinct entry is validated once against the schema of a
log entry, and the view around it with an empty log. That is the same verdict as validating the
view whole because the log's schema puts nothing on the list but its items
(:func:`log_schema_is_items_only`, checked by the tests).
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

    def validator(self, pointer: str) -> Draft202012Validator:
        """The validator of the definition at ``pointer`` (``/$defs/request``) in the document."""
        found = self._validators.get(pointer)
        if found is None:
            found = self._validators[pointer] = Draft202012Validator(
                {"$ref": f"{self.uri}#{pointer}"}, registry=self.registry)
        return found

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
        view = answer.get("view") if isinstance(answer, dict) else None
        if op == "observe" and isinstance(view, dict) and isinstance(view.get("log"), list):
            found = self._once(pointer, {**answer, "view": {**view, "log": []}})
            for index, entry in enumerate(view["log"]):
                found += [f"view/log/{index}/{e}"
                          for e in self._once("/$defs/view/properties/log/items", entry)]
            return found
        return self._once(pointer, answer)


def log_schema_is_items_only(schema: dict[str, Any]) -> bool:
    """Whether the view's log schema constrains only its items (so entries may be checked one
    by one, as :meth:`Messages.answer_errors` does)."""
    log = schema["$defs"]["view"]["properties"]["log"]
    return set(log) <= {"description", "type", "items"} and log.get("type") == "array"


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
        problems = messages.request_errors(request)
        assert not problems, f"{name}: request {request_line[:200]!r}: {problems}"
        problems = messages.answer_errors(request["op"], answer)
        assert not problems, (f"{name}: the answer to {request_line[:200]!r}: "
                              f"{answer_line[:200]!r}: {problems[:3]}")
        ops[request["op"]] = ops.get(request["op"], 0) + 1
    return ops
