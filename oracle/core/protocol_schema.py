"""JSON Schemas (draft 2020-12) of every message of the oracle's line protocol, for one game
(docs/oracle.md, "The protocol"; ``hanamikoji schema --protocol [--game G]``).

One document per game describes both directions of both protocol versions: every request the
harness may send (protocol 2's general requests; for the registry's default game also protocol
1's, the requests of before the core) and, for each, the answers an adapter may give (its value,
or ``{"error", "rule"}``). The game's own parts (decisions, chance outcomes, views, results,
options) come from the game's hooks of this tool, ``EXTENSION`` of
``hanamikoji.oracle.<game>.protocol`` (:class:`ProtocolSchemaExtension`), which build them on
the game's record schema: that schema is embedded whole under ``$defs/record`` (it keeps its own
``$id``) and a decision refers to its definitions there, so a decision of the protocol and a
step of a record cannot drift apart. A game without hooks gets what its interface tells (its
options, player count and name) and accepts any JSON for the rest.

Which definition an answer is checked against depends on the request: ``answer-<op>`` for the
request's ``op``; the document's root accepts any request or any answer.

>>> from hanamikoji.engine.core.registry import get
>>> schema = protocol_schema(get("maiko"))
>>> schema["$defs"]["request-apply"]["properties"]["decision"]
{'$ref': '#/$defs/decision'}
>>> sorted(schema["$defs"]["request"]["oneOf"], key=str)[0]
{'$ref': '#/$defs/request-apply'}
"""

from __future__ import annotations

import json
from typing import Any

from hanamikoji.engine.core.game import Game
from hanamikoji.oracle.core.extension import extension

__all__ = ["ProtocolSchemaExtension", "answer_definition", "protocol_schema",
           "protocol_schema_text"]

DRAFT = "https://json-schema.org/draft/2020-12/schema"

#: The requests every game's adapter answers in protocol 2, in the order the docs list them.
GENERAL_OPERATIONS = ("new_game", "chance", "current_player", "legal_actions", "apply",
                      "observe", "result", "random_chance")


def ref(name: str) -> dict[str, str]:
    """A reference to a definition of the protocol document."""
    return {"$ref": f"#/$defs/{name}"}


def closed(properties: dict[str, Any], description: str = "",
           optional: tuple[str, ...] = ()) -> dict[str, Any]:
    """An object with exactly these keys (those in ``optional`` may be left out)."""
    out: dict[str, Any] = {"type": "object"}
    if description:
        out["description"] = description
    out["required"] = [k for k in properties if k not in optional]
    out["additionalProperties"] = False
    out["properties"] = properties
    return out


def request(op: str, description: str, **properties: Any) -> dict[str, Any]:
    """A request object: ``op`` and the given keys, no other."""
    return closed({"op": {"const": op}, **properties}, description)


OK = closed({"ok": {"const": True}}, "Done.")


class ProtocolSchemaExtension:
    """The game's parts of the protocol's messages; the defaults serve any game (a game's own
    subclass is ``EXTENSION`` of ``hanamikoji.oracle.<game>.protocol``)."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def record(self) -> dict[str, Any] | None:
        """The game's record schema, embedded under ``$defs/record`` (None: none)."""
        try:
            return self.game.record_schema()
        except NotImplementedError:
            return None

    def options(self) -> dict[str, Any]:
        """Every option of the game, as ``new_game`` gives them: made from the game's
        ``Option`` values (a closed option's choices, a whole number's range)."""
        properties: dict[str, Any] = {}
        for option in self.game.options:
            if option.choices is not None:
                value: dict[str, Any] = {"enum": list(option.choices)}
            elif option.low is not None or option.high is not None:
                value = {"type": "integer"}
                if option.low is not None:
                    value["minimum"] = option.low
                if option.high is not None:
                    value["maximum"] = option.high
            else:
                value = {"type": {bool: "boolean", int: "integer", str: "string"}.get(
                    type(option.default), "string")}
            if option.help:
                value = {"description": option.help, **value}
            properties[option.name] = value
        return closed(properties, "Every option of the game, with its value.")

    def decision(self) -> dict[str, Any]:
        """A player's decision in the game's JSON form (default: any JSON value)."""
        return {"description": "A decision, in the game's JSON form."}

    def chance_outcome(self) -> dict[str, Any]:
        """A chance outcome in the game's JSON form (default: any JSON value)."""
        return {"description": "A chance outcome, in the game's JSON form."}

    def view(self) -> dict[str, Any]:
        """What one player sees (default: any object)."""
        return {"description": "What one player sees, in the game's JSON form.",
                "type": "object"}

    def result(self) -> dict[str, Any]:
        """How a finished game ended (default: any object)."""
        return {"description": "How the game ended, in the game's JSON form.", "type": "object"}

    def definitions(self) -> dict[str, Any]:
        """Further definitions the game's parts refer to (``#/$defs/NAME``; default: none)."""
        return {}

    def legacy(self) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
        """Protocol 1: the game's requests of before the core, by definition name, each with
        its answer (default: none; only the registry's default game has them)."""
        return {}


def hooks(game: Game) -> ProtocolSchemaExtension:
    """``game``'s hooks of this tool (its own, or the defaults)."""
    return extension("protocol", game, ProtocolSchemaExtension)


def protocol_schema(game: Game) -> dict[str, Any]:
    """The JSON Schema of every message of the protocol for ``game``."""
    parts = hooks(game)
    low, high = game.min_players, game.max_players
    players = {"type": "integer", "minimum": low, "maximum": high}
    seed = {"description": "The seed of the random source.", "type": "integer"}
    general = {"game": {"const": game.name}, "players": ref("players"),
               "options": ref("options")}
    requests: dict[str, dict[str, Any]] = {
        "new_game": request(
            "new_game", "Protocol 2: start a new game, forgetting any other; the game, its player "
            "count, every option, and the player of the first turn.",
            **general, first_player=ref("player")),
        "chance": request("chance", "Protocol 2: the chance outcome that happens now.",
                          outcome=ref("chance-outcome")),
        "current_player": request(
            "current_player", "Whose decision it is."),
        "legal_actions": request(
            "legal_actions", "Every legal decision, each distinct one once."),
        "apply": request("apply", "Play this decision.", decision=ref("decision")),
        "observe": request("observe", "What this player sees now.", player=ref("player")),
        "view_changes": request(
            "view_changes", "Protocol 4: what changed in this player's view since the view "
            "view_changes last gave them in this game (the first of a game: the whole view, "
            "set).", player=ref("player")),
        "result": request("result", "How the game ended, if it has."),
        "random_chance": request(
            "random_chance", "Protocol 2, optional: the first chance outcome of a new game of "
            "these options (first player 0) drawn from a random source seeded with seed; the "
            "same seed must give the same outcome, in any process.", **general, seed=seed),
    }
    answers: dict[str, dict[str, Any]] = {
        "new_game": closed(
            {"ok": {"const": True},
             "protocol": {"description": "Optional: 2 declares the general requests (protocol "
                                         "2) for every later request of this process; 3, "
                                         "those and batch (protocol 3); 4, those and "
                                         "view_changes (protocol 4).",
                          "enum": [1, 2, 3, 4]},
             "view_keys": {"description": "Optional: the view keys this adapter gives; views "
                                          "are then compared on those keys only.",
                           "type": "array", "items": {"type": "string"}, "uniqueItems": True}},
            "Started.", optional=("protocol", "view_keys")),
        "chance": OK,
        "current_player": closed({"current_player": {"oneOf": [
            ref("player"), {"description": "A chance outcome is due.", "const": "chance"},
            {"description": "The game is over.", "const": "terminal"}]}}),
        "legal_actions": closed({"legal_actions": {
            "description": "Empty at a chance node and at the end.",
            "type": "array", "items": ref("decision")}}),
        "apply": OK,
        "observe": closed({"view": ref("view")}),
        "view_changes": closed({"view_changes": view_changes(parts.view())}),
        "result": closed({"result": {"oneOf": [
            {"description": "The game goes on.", "type": "null"}, ref("result")]}}),
        "random_chance": closed({"outcome": ref("chance-outcome")}),
    }
    defs: dict[str, Any] = {
        "player": {"description": "A player, numbered from 0.", "type": "integer",
                   "minimum": 0, "maximum": high - 1},
        "players": {"description": "The number of players.", **players},
        "options": parts.options(),
        "decision": parts.decision(),
        "chance-outcome": parts.chance_outcome(),
        "view": parts.view(),
        "result": parts.result(),
        "error": closed(
            {"error": {"description": "What is wrong, for a person.", "type": "string"},
             "rule": {"description": "The rule ID the request breaks, if any (shown, not "
                                     "compared).", "type": ["string", "null"]}},
            "A request the rules forbid (the game is left as it was), or one this adapter "
            "does not offer.", optional=("rule",)),
    }
    defs.update(parts.definitions())
    for op, schema in requests.items():
        defs[f"request-{op}"] = schema
    names = [f"request-{op}" for op in requests]
    answered = dict(answers)
    for name, (legacy_request, legacy_answer) in parts.legacy().items():
        defs[f"request-{name}"] = legacy_request
        names.append(f"request-{name}")
        op = legacy_request["properties"]["op"]["const"]
        answered.setdefault(op, legacy_answer)
    # Protocol 3: several requests in one line, their answers in one line. Each answer of a
    # batch is the answer its request gets alone (answer-<op> of that request), which a JSON
    # Schema cannot pair by position: the list is described, each answer checked by its op.
    defs["request-batch"] = request(
        "batch", "Protocol 3: these requests, answered in turn in one line.",
        requests={"type": "array", "items": ref("request")})
    names.append("request-batch")
    answered["batch"] = closed({"answers": {
        "description": "One answer per request, in order: each the answer its request gets "
                       "alone (answer-<op> of that request's op), a refusal included.",
        "type": "array", "items": ref("answer")}})
    for op, schema in answered.items():
        defs[f"answer-{op}"] = {"anyOf": [schema, ref("error")]}
    defs["request"] = {"description": "Any request of the harness.",
                       "oneOf": [ref(name) for name in names]}
    defs["answer"] = {"description": "Any answer of an adapter (which one depends on the "
                                     "request: answer-<op>).",
                      "anyOf": [ref(f"answer-{op}") for op in answered]}
    record = parts.record()
    if record is not None:
        defs["record"] = record
    return {
        "$schema": DRAFT,
        "$id": f"urn:hanamikoji:protocol:{game.name}",
        "title": f"the oracle protocol for {game.name}",
        "description": (
            "Every message of the line protocol of `hanamikoji diff` for this game: one JSON "
            "object per line each way, a request from the harness on the adapter's standard "
            "input and one answer on its standard output. The root accepts any request or "
            "answer; the answer to a request of op X is checked against $defs/answer-X. "
            "Protocol 2 is the general requests; protocol 1, the requests of before there were "
            "two games, is the registry's default game's only; protocol 3 adds batch, "
            "several requests in one line; protocol 4 adds view_changes, a view as what "
            "changed since the one before (docs/oracle.md)."),
        "anyOf": [ref("request"), ref("answer")],
        "$defs": defs,
    }


def view_changes(view: dict[str, Any]) -> dict[str, Any]:
    """The schema of a ``view_changes`` answer's object for views of the schema ``view``: what
    is set is checked against that key's schema, what is appended against its items'."""
    properties = view.get("properties")
    if view.get("type") != "object" or not isinstance(properties, dict):
        return {"type": "object"}  # a game that describes its views otherwise
    lists = {key: {"type": "array", **({"items": schema["items"]} if "items" in schema else {})}
             for key, schema in properties.items()
             if isinstance(schema, dict) and schema.get("type") == "array"}
    return closed(
        {"append": {"description": "Lists that grew at their end: the items after those the "
                                   "list had.",
                    "type": "object", "properties": lists, "additionalProperties": False},
         "drop": {"description": "The keys the view had and has no longer.", "type": "array",
                  "items": {"enum": sorted(properties)}, "uniqueItems": True},
         "set": {"description": "Every other key whose value is new or differs, with its value.",
                 "type": "object", "properties": properties, "additionalProperties": False}},
        "What changed in the view since the one before (an empty object: nothing); a member "
        "with nothing in it is left out.", optional=("append", "drop", "set"))


def answer_definition(op: str) -> str:
    """The name of the definition an answer to a request of ``op`` is checked against."""
    return f"answer-{op}"


def protocol_schema_text(game: Game) -> str:
    """:func:`protocol_schema` as ``hanamikoji schema --protocol`` prints it."""
    return json.dumps(protocol_schema(game), indent=2) + "\n"
