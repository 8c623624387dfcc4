"""The JSON Schema (draft 2020-12) of every message of the bot protocol for one game
(docs/tournament.md, "The bot protocol"; ``hanamikoji schema --bot [--game G]``).

The game's decisions, views and options are the oracle protocol's own definitions
(:mod:`hanamikoji.oracle.core.protocol_schema`, built on the game's record schema), so a
decision a bot answers is a decision of a record; the game's own fields of a request and the
other form of a decision it reads come from its hooks of the bot tool
(:class:`hanamikoji.oracle.core.bot.BotExtension`).

>>> from hanamikoji.engine.core.registry import get
>>> schema = bot_schema(get("hanamikoji"))
>>> schema["$defs"]["request-decide"]["required"]
['op', 'seat', 'view', 'legal', 'buaa']
>>> sorted(schema["$defs"]["answer-decide"]["properties"])
['decision']
"""

from __future__ import annotations

import json
from typing import Any

from hanamikoji.engine.core.game import Game
from hanamikoji.oracle.core.bot import PROTOCOL, hooks
from hanamikoji.oracle.core.protocol_schema import DRAFT, closed, protocol_schema, ref

__all__ = ["bot_schema", "bot_schema_text"]

#: The oracle protocol's definitions a bot's messages use.
_SHARED = ("player", "players", "options", "decision", "view")


def bot_schema(game: Game) -> dict[str, Any]:
    """The JSON Schema of every message of the bot protocol for ``game``."""
    oracle = protocol_schema(game)["$defs"]
    parts = hooks(game)
    defs: dict[str, Any] = {name: oracle[name] for name in _SHARED}
    for name, value in oracle.items():  # what the shared definitions refer to
        if name not in defs and not name.startswith(("request", "answer")) and name != "error":
            defs[name] = value
    extra = parts.extra_schema()
    defs["request-new_game"] = closed({
        "op": {"const": "new_game"},
        "bot_protocol": {"description": "The protocol version.", "const": PROTOCOL},
        "game": {"const": game.name},
        "players": ref("players"),
        "options": ref("options"),
        "seat": {"description": "The seat this bot plays in this game.", **ref("player")},
        "seed": {"description": "The bot's own seed for this game (a bot that draws at "
                                "random draws from it, so a tournament replays).",
                 "type": "integer"}},
        "A game starts: forget any other.")
    defs["request-decide"] = closed({
        "op": {"const": "decide"},
        "seat": ref("player"),
        "view": {"description": "What the seat sees: the engine's observe, as the game's view "
                                "JSON.", **ref("view")},
        "legal": {"description": "Every legal decision, each distinct one once.",
                  "type": "array", "minItems": 1, "items": ref("decision")},
        **extra},
        "The seat's decision is due.")
    defs["answer-new_game"] = closed(
        {"ok": {"const": True},
         "name": {"description": "Optional: the bot's name, for people.", "type": "string",
                  "maxLength": 200}},
        "Ready.", optional=("name",))
    other = parts.decision_schema()
    decision = ref("decision") if other is None else {"anyOf": [ref("decision"), other]}
    defs["answer-decide"] = closed({"decision": {
        "description": "One of the legal decisions (the referee reads any card order)"
                       + ("" if other is None else ", or the game's notation of one") + ".",
        **decision}})
    from hanamikoji.oracle.core.referee import MAX_LINE  # only here: the referee's imports

    defs["request"] = {"oneOf": [ref("request-new_game"), ref("request-decide")]}
    defs["answer"] = {"anyOf": [ref("answer-new_game"), ref("answer-decide")]}
    defs["forfeit"] = _forfeit()
    return {
        "$schema": DRAFT,
        "$id": f"urn:hanamikoji:bot-protocol:{game.name}",
        "title": f"the bot protocol for {game.name}",
        "description": (
            "Every message of the bot protocol of `hanamikoji tournament` for this game: one "
            "JSON object per line each way, a request from the referee on the bot's standard "
            f"input and its answer on its standard output. An answer is at most {MAX_LINE} "
            "bytes, its newline not counted (a longer one is malformed). A request has no "
            "bound: it holds the seat's view, which may grow with the game (a view with "
            "perfect recall holds every step so far, and a game may have no limit on its "
            "length), so read lines of any length. The answer to a request of op X is checked "
            "against $defs/answer-X. The referee closes the bot's standard input when the game "
            "ends (docs/tournament.md). A bot that faults loses the game: $defs/forfeit is "
            "what its game's line of games.jsonl (and tournament --json) says of it, with the "
            "request it was answering, whole: bounded as a request is, by the game so far."),
        "anyOf": [ref("request"), ref("answer")],
        "$defs": defs,
    }


def _forfeit() -> dict[str, Any]:
    """A forfeit as a tournament's games.jsonl and ``--json`` give it."""
    from hanamikoji.oracle.core.referee import STDERR_TAIL

    text = {"type": ["string", "null"]}
    return closed({
        "bot": {"description": "The bot's name in the standings.", "type": "string"},
        "seat": ref("player"),
        "kind": {"enum": ["crash", "time", "malformed", "illegal"]},
        "rule": {"description": "The rule ID the engine cites, or null.", **text},
        "message": {"description": "Why, for a person.", "type": "string"},
        "answer": {"description": "What the bot answered, cut to 200 characters, or null.",
                   **text},
        "stderr": {"description": f"The last {STDERR_TAIL} bytes of the bot's standard error "
                                  "(a command bot's crash, time or malformed answer), or null.",
                   **text},
        "exit": {"description": "How its process ended on its own (exit code 1, killed by "
                                "SIGSEGV), or null.", **text},
        "request": {"description": "The request the bot was answering, whole, as it was sent "
                                   "(new_game for a fault at the start, decide for a "
                                   "decision): bounded as a request is, by the game so far, "
                                   "not cut short as an answer is.",
                    "anyOf": [ref("request"), {"type": "null"}]}},
        "A bot's fault that lost it the game (docs/tournament.md, \"When a bot forfeits\").")


def bot_schema_text(game: Game) -> str:
    """:func:`bot_schema` as ``hanamikoji schema --bot`` prints it."""
    return json.dumps(bot_schema(game), indent=2) + "\n"
