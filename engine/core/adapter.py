"""The reference engine of any registered game behind the oracle protocol of ``hanamikoji diff``.

``python -m hanamikoji.engine.core.adapter`` reads one JSON request per line on standard input
and writes one JSON answer per line on standard output (docs/oracle.md, "The diff protocol"):

    {"op": "new_game", "game": "maiko", "players": 3, "options": {...}, "first_player": 0}
    {"op": "new_game", "variant": "standard", "first_player": 0}   (no "game": the default game)
    {"op": "chance", "outcome": {...}}        a chance outcome, in the game's JSON form
    {"op": "deal", "deal": {...}}             Hanamikoji's chance step, as before the core
    {"op": "apply", "decision": {...}}
    {"op": "current_player"} {"op": "legal_actions"} {"op": "observe", "player": P} {"op": "result"}
    {"op": "random_deal", "seed": S}          the first chance outcome of a seeded random source

Every answer is ``{"ok": true}`` or the value asked for; a request the rules forbid gets
``{"error": "...", "rule": "ID"}`` and leaves the game as it was. Games added through
``HANAMIKOJI_GAMES`` are served too, so this is the adapter of every game the registry knows.
It is also the shortest example of an adapter: another engine keeps this loop and replaces the
calls to the game.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

from .errors import GameError
from .game import Game
from .protocol import player_json
from .registry import get


class Adapter:
    """The protocol's operations on the reference engine of one game at a time."""

    OPERATIONS = ("new_game", "chance", "deal", "apply", "current_player", "legal_actions",
                  "observe", "result", "random_deal")

    def __init__(self) -> None:
        self.game: Game = get()
        self.state: Any = None

    def new_game(self, request: dict) -> dict:
        game = get(request.get("game"))
        options = dict(request.get("options") or {})
        for key in ("variant", "players"):
            if key in request and any(o.name == key for o in game.options):
                options.setdefault(key, request[key])
        config = game.configure(options)
        players = request.get("players", game.num_players(config))
        if players != game.num_players(config):
            return {"error": f"{game.name} with these options seats {game.num_players(config)} "
                             f"players, not {players}", "rule": None}
        self.game, self.state = game, game.new_game(config, request.get("first_player", 0))
        return {"ok": True}

    def chance(self, request: dict) -> dict:
        return self._apply(request["outcome"], "$.outcome")

    def deal(self, request: dict) -> dict:
        return self._apply({"deal": request["deal"]}, "$.deal")

    def apply(self, request: dict) -> dict:
        return self._apply(request["decision"], "$.decision")

    def _apply(self, obj: Any, path: str) -> dict:
        decision = self.game.decision_from_json(obj, path)
        self.state = self.game.apply(self.state, decision)
        return {"ok": True}

    def current_player(self, request: dict) -> dict:
        return {"current_player": player_json(self.game.current_player(self.state))}

    def legal_actions(self, request: dict) -> dict:
        return {"legal_actions": [self.game.decision_to_json(d)
                                  for d in self.game.legal_actions(self.state)]}

    def observe(self, request: dict) -> dict:
        return {"view": self.game.view_to_json(self.game.observe(self.state, request["player"]))}

    def result(self, request: dict) -> dict:
        return {"result": self.game.record_result_json(self.state)}

    def random_deal(self, request: dict) -> dict:
        start = self.game.new_game(self.game.configure())
        outcome = self.game.decision_to_json(
            self.game.sample_chance(start, random.Random(request["seed"])))
        return outcome if isinstance(outcome, dict) and "deal" in outcome else {"outcome": outcome}

    def answer(self, line: str) -> dict:
        try:
            request = json.loads(line)
            if request["op"] not in self.OPERATIONS:
                raise KeyError(request["op"])
            operation = getattr(self, request["op"])
        except (ValueError, KeyError, TypeError):
            return {"error": f"not a request of the protocol: {line.strip()[:80]}", "rule": None}
        try:
            return operation(request)
        except GameError as error:
            return {"error": str(error), "rule": error.rule}
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            return {"error": f"cannot answer {request['op']}: {error!r}", "rule": None}


def main() -> None:
    adapter = Adapter()
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(adapter.answer(line)), flush=True)


if __name__ == "__main__":
    main()
