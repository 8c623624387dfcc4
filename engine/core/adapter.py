"""The reference engine of any registered game behind the oracle protocol of ``hanamikoji diff``.

``python -m hanamikoji.engine.core.adapter`` reads one JSON request per line on standard input
and writes one JSON answer per line on standard output (docs/oracle.md, "The protocol"):

    {"op": "new_game", "game": "maiko", "players": 3, "options": {...}, "first_player": 0}
    {"op": "new_game", "variant": "standard", "first_player": 0}   (no "game": the default game)
    {"op": "chance", "outcome": {...}}        a chance outcome, in the game's JSON form
    {"op": "apply", "decision": {...}}
    {"op": "current_player"} {"op": "legal_actions"} {"op": "observe", "player": P} {"op": "result"}
    {"op": "random_chance", "game": ..., "players": ..., "options": {...}, "seed": S}
                                              the first chance outcome of a seeded random source
    {"op": "deal", "deal": {...}}             the default game's chance request of protocol 1
    {"op": "random_deal", "seed": S}          the default game's seeded request of protocol 1

Every answer is ``{"ok": true}`` or the value asked for; a request the rules forbid gets
``{"error": "...", "rule": "ID"}`` and leaves the game as it was. Its answer to ``new_game``
declares ``"protocol": 2``, so the harness sends it the general requests (``new_game`` with the
game, ``chance``) for every game from then on. Games added through ``HANAMIKOJI_GAMES`` are
served too, so this is the adapter of every game the registry knows. It is also the shortest
example of an adapter for any game: another engine keeps this loop and replaces the calls to
the game.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

from .errors import GameError
from .game import Game
from .protocol import GENERAL_PROTOCOL, player_json
from .registry import get


class Adapter:
    """The protocol's operations on the reference engine of one game at a time."""

    OPERATIONS = ("new_game", "chance", "apply", "current_player", "legal_actions", "observe",
                  "result", "random_chance", "deal", "random_deal")

    def __init__(self) -> None:
        self.game: Game = get()
        self.state: Any = None

    @staticmethod
    def configure(request: dict) -> tuple[Game, Any]:
        """The game a request names (none: the default game) and its configuration; the
        protocol-1 form gives ``variant`` (and ``players``) at the top level."""
        game = get(request.get("game"))
        options = request.get("options") or {}
        if not isinstance(options, dict):
            raise TypeError(f"options must be an object, not {options!r}")
        options = dict(options)
        for key in ("variant", "players"):
            if key in request and any(o.name == key for o in game.options):
                options.setdefault(key, request[key])
        config = game.configure(options)
        players = request.get("players", game.num_players(config))
        if players != game.num_players(config):
            raise GameError(f"{game.name} with these options seats {game.num_players(config)} "
                            f"players, not {players!r}")
        return game, config

    def new_game(self, request: dict) -> dict:
        game, config = self.configure(request)
        first = request.get("first_player", 0)
        if type(first) is not int or not 0 <= first < game.num_players(config):
            raise GameError(f"first_player must be a player 0 to {game.num_players(config) - 1}, "
                            f"not {first!r}")
        self.game, self.state = game, game.new_game(config, first)
        return {"ok": True, "protocol": GENERAL_PROTOCOL}

    def chance(self, request: dict) -> dict:
        return self._apply(request["outcome"], "$.outcome")

    def deal(self, request: dict) -> dict:
        # Protocol 1's chance request: {"deal": D} is the chance outcome's JSON form.
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
        player = request["player"]
        if type(player) is not int or player not in self.game.players(self.state):
            raise GameError(f"no player {player!r} in this game")
        return {"view": self.game.view_to_json(self.game.observe(self.state, player))}

    def result(self, request: dict) -> dict:
        return {"result": self.game.record_result_json(self.state)}

    @staticmethod
    def _first_outcome(game: Game, config: Any, seed: Any) -> Any:
        if type(seed) is not int:
            raise TypeError(f"seed must be an integer, not {seed!r}")
        start = game.new_game(config)
        return game.decision_to_json(game.sample_chance(start, random.Random(seed)))

    def random_chance(self, request: dict) -> dict:
        game, config = self.configure(request)
        return {"outcome": self._first_outcome(game, config, request["seed"])}

    def random_deal(self, request: dict) -> dict:
        # Protocol 1's seeded request, for the default game: answered with the outcome's JSON
        # form itself ({"deal": D}).
        game = get()
        return self._first_outcome(game, game.configure(), request["seed"])

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
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
            return {"error": f"cannot answer {request['op']}: {error!r}", "rule": None}


def main() -> None:
    adapter = Adapter()
    try:
        for line in sys.stdin:
            if line.strip():
                print(json.dumps(adapter.answer(line)), flush=True)
    except (BrokenPipeError, KeyboardInterrupt):  # the harness has gone: nothing to answer
        pass


if __name__ == "__main__":
    main()
