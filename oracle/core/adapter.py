"""The reference engine of any registered game behind the oracle protocol of ``hanamikoji diff``.

``python -m hanamikoji.oracle.core.adapter`` reads one JSON request per line on standard input
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

    {"op": "batch", "requests": [{...}, ...]}  several requests in one line (protocol 3): answered
                                              {"answers": [...]}, one answer each, in order

Every answer is ``{"ok": true}`` or the value asked for; a request the rules forbid gets
``{"error": "...", "rule": "ID"}`` and leaves the game as it was. Its answer to ``new_game``
declares ``"protocol": 3``, so the harness sends it the general requests (``new_game`` with the
game, ``chance``) for every game from then on, and asks each step in one ``batch`` (a decision,
whose turn it is, the legal decisions, every player's view, the result); ``--protocol 2``
declares 2 instead, and the harness asks one request per line (``Adapter()`` in a script of
your own declares 2 unless given ``protocol=3``). Games added through ``HANAMIKOJI_GAMES`` are
served too, so this is the adapter of every game the registry knows.

The loop itself is :class:`ProtocolAdapter`: a request's ``op`` names the method that answers
it, and an engine's refusal becomes ``{"error", "rule"}``. Wrap another engine by subclassing it
with one method per operation, and :meth:`~ProtocolAdapter.serve` runs the loop on standard
input and output (:class:`hanamikoji.oracle.hanamikoji.adapter.EngineAdapter` is one, for an
engine with the reference Hanamikoji engine's API; docs/oracle.md).

``--engine NAME=MODULE:ATTRIBUTE`` makes a Game object of your own (a subclass with a rule
changed, say) answer the requests for game NAME, a built-in game's name included: the way to
diff a modified engine written against the toolkit's Game interface, e.g.
``--engine maiko=maiko.broken:PEEK_LEAKS`` with tests/ on ``PYTHONPATH``.

Answers are printed as canonical JSON (sorted keys, no spaces), which ``diff`` compares without
parsing when it is the reference's own text; a game may write its views' text faster than by
encoding them whole (Maiko's views, with perfect recall, grow at every step).
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any, Iterable, Mapping, Sequence, TextIO

from hanamikoji.engine.core.codec import ViewChanges, value_text
from hanamikoji.engine.core.errors import GameError
from hanamikoji.engine.core.game import Game
from hanamikoji.oracle.core.protocol import (BATCH_PROTOCOL, CHANGES_PROTOCOL, GENERAL_PROTOCOL,
                                              answer_text, dumps, legal_actions_text,
                                              player_json, refusal)
from hanamikoji.engine.core.registry import DEFAULT, get, load


def _reason(error: Exception) -> str:
    """Why a request could not be answered, for the adapter's author: a missing key by its JSON
    name (most often one the request lacks), anything else as its class and message, never a
    Python repr."""
    if isinstance(error, KeyError) and len(error.args) == 1:
        return f"no {value_text(error.args[0])} key"
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


class ProtocolAdapter:
    """The adapter loop of the diff protocol: one JSON request per line in, one JSON answer per
    line out. A subclass lists its ``OPERATIONS`` and answers each with the method of that name
    (the request as a dict in, the answer as a dict out)."""

    #: The requests answered, by ``op``; any other is "not a request of the protocol".
    OPERATIONS: tuple[str, ...] = ()
    #: The exceptions that are the engine refusing a request (a decision the rules forbid):
    #: answered ``{"error": message, "rule": its rule attribute or null}``.
    REFUSALS: tuple[type[Exception], ...] = (GameError,)

    def answer(self, line: str) -> dict:
        """The answer to one request line, as a dict; never raises for what the line holds."""
        try:
            request = json.loads(line)
        except ValueError:
            return {"error": f"not a request of the protocol: {line.strip()[:80]}", "rule": None}
        return self.answer_request(request, line)

    #: Protocol 4: each player's views of this game as :meth:`view_changes` gave them, by the
    #: player's JSON text; emptied by every ``new_game``.
    _changes_of: dict[str, ViewChanges]

    def answer_request(self, request: Any, line: str | None = None) -> dict:
        """The answer to one request (decoded JSON; ``line``, its text, for a message)."""
        try:
            if request["op"] not in self.OPERATIONS:
                raise KeyError(request["op"])
            operation = getattr(self, request["op"])
        except (KeyError, TypeError):
            text = json.dumps(request) if line is None else line
            return {"error": f"not a request of the protocol: {text.strip()[:80]}", "rule": None}
        if request["op"] == "new_game" or not hasattr(self, "_changes_of"):
            self._changes_of = {}  # a new game: its first views are set whole
        try:
            return operation(request)
        except self.REFUSALS as error:
            return refusal(error)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
            return {"error": f"cannot answer {request['op']}: {_reason(error)}", "rule": None}

    def view_changes(self, request: dict) -> dict:
        """Protocol 4, for any adapter that answers ``observe``: the view it gives now as what
        changed since the one this request last gave for that player in this game
        (:class:`hanamikoji.engine.core.codec.ViewChanges`, over the views' JSON)."""
        # a subclass that offers view_changes answers observe
        asked = {"op": "observe", "player": request["player"]}
        view = self.observe(asked)["view"]  # type: ignore[attr-defined]
        key = dumps(request["player"])
        changes = self._changes_of.get(key)
        if changes is None:
            changes = self._changes_of[key] = ViewChanges(_same)
        return {"view_changes": json.loads(changes.text(view))}

    def batch(self, request: dict) -> dict:
        """Protocol 3: ``{"op": "batch", "requests": [...]}`` is answered ``{"answers": [...]}``,
        each request answered in turn as if it had come alone (a refused one included)."""
        requests = request["requests"]
        if not isinstance(requests, list):
            raise TypeError(f"requests must be a list, not {requests!r}")
        return {"answers": [self.answer_request(one) for one in requests]}

    def answer_line(self, line: str) -> str:
        """:meth:`answer` as one line of canonical JSON (sorted keys, no spaces: the harness
        compares an answer that is the reference's own text without parsing it)."""
        try:
            request = json.loads(line)
        except ValueError:
            return dumps(self.answer(line))
        if isinstance(request, dict) and request.get("op") == "batch" and \
                "batch" in self.OPERATIONS and isinstance(request.get("requests"), list):
            return ('{"answers":[' + ",".join(self.request_text(one)
                                              for one in request["requests"]) + "]}")
        return self.request_text(request, line)

    def request_text(self, request: Any, line: str | None = None) -> str:
        """:meth:`answer_request` as canonical JSON; a subclass may write some answers'
        text faster (the same text). An answer of one key and a small value (``{"ok": true}``,
        whose turn it is, no result yet) is written once (:func:`.protocol.answer_text`)."""
        answer = self.answer_request(request, line)
        if type(answer) is dict and len(answer) == 1:
            for key, value in answer.items():
                if type(key) is str:
                    return answer_text(key, value)
        return dumps(answer)

    def serve(self, requests: Iterable[str] | None = None, out: TextIO | None = None) -> None:
        """Answer every request line of ``requests`` (default: standard input) on ``out``
        (default: standard output), each answer flushed at once, until the input ends or the
        harness goes away."""
        out = sys.stdout if out is None else out
        try:
            for line in sys.stdin if requests is None else requests:
                if line.strip():
                    out.write(self.answer_line(line) + "\n")
                    out.flush()
        except (BrokenPipeError, KeyboardInterrupt):  # the harness has gone: nothing to answer
            pass


class Adapter(ProtocolAdapter):
    """The protocol's operations on the reference engine of one game at a time."""

    OPERATIONS = ("new_game", "chance", "apply", "current_player", "legal_actions", "observe",
                  "view_changes", "result", "random_chance", "deal", "random_deal", "batch")

    def __init__(self, engines: Mapping[str, Game] | None = None,
                 protocol: int = GENERAL_PROTOCOL) -> None:
        #: Games that answer for a name instead of the registered game of that name.
        self.engines: dict[str, Game] = dict(engines or {})
        #: The protocol declared in the answer to ``new_game``: 2, as before there was a third
        #: (a script that rewrites this class's answers line by line sees every request
        #: alone), or 3, which ``python -m hanamikoji.oracle.core.adapter`` declares: the
        #: harness then asks each step in one ``batch``. ``batch`` is answered either way.
        self.protocol = protocol
        self.game: Game = self.get()
        self.state: Any = None
        #: Each player's views of this game as ``view_changes`` gave them (protocol 4): a
        #: :meth:`Game.view_changes` per player, made anew by ``new_game``.
        self.changes: dict[int, Any] = {}

    def get(self, name: Any = None) -> Game:
        """The game that answers for ``name`` (None: the default game)."""
        engine = self.engines.get(DEFAULT if name is None else name)
        return get(name) if engine is None else engine

    def configure(self, request: dict) -> tuple[Game, Any]:
        """The game a request names (none: the default game) and its configuration; the
        protocol-1 form gives ``variant`` (and ``players``) at the top level."""
        game = self.get(request.get("game"))
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
        self.changes = {}
        return {"ok": True, "protocol": self.protocol}

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
        return {"view": self.game.view_to_json(self._view(request))}

    def _view(self, request: dict) -> Any:
        return self.game.observe(self.state, self._player(request))

    def _player(self, request: dict) -> int:
        player = request["player"]
        if type(player) is not int or player not in self.game.players(self.state):
            raise GameError(f"no player {value_text(player)} in this game")
        return player

    #: The requests that ask about the game under way: refused before any ``new_game``.
    IN_A_GAME = ("chance", "deal", "apply", "current_player", "legal_actions", "observe",
                 "view_changes", "result")

    def answer_request(self, request: Any, line: str | None = None) -> dict:
        if self.state is None and isinstance(request, dict) and \
                request.get("op") in self.IN_A_GAME:
            return {"error": f"no game under way to answer {request['op']}: new_game first",
                    "rule": None}
        return super().answer_request(request, line)

    def view_changes(self, request: dict) -> dict:
        """Protocol 4: the view of ``player`` as what changed since the view this request
        last gave them in this game (the first: the view whole, as ``set``)."""
        return {"view_changes": json.loads(self._changes_text(request))}

    def _changes_text(self, request: dict) -> str:
        player = self._player(request)
        changes = self.changes.get(player)
        if changes is None:
            changes = self.changes[player] = self.game.view_changes()
        return changes.text_at(self.state, player)

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
        game = self.get()
        return self._first_outcome(game, game.configure(), request["seed"])

    def request_text(self, request: Any, line: str | None = None) -> str:
        """:meth:`ProtocolAdapter.request_text`; a view comes from the game's own
        :meth:`~Game.view_text` when it has one, and the legal decisions from
        :func:`.protocol.legal_actions_text`: the same texts, built faster."""
        op = request.get("op") if isinstance(request, dict) else None
        if op == "view_changes" and self.state is not None and \
                type(self).view_changes is Adapter.view_changes:  # not a subclass's own
            try:
                return '{"view_changes":' + self._changes_text(request) + "}"
            except Exception:  # as below: answer_request() says it as the protocol says
                pass
        elif op == "observe" and type(self.game).view_text is not Game.view_text:
            try:
                return '{"view":' + self.game.view_text(self._view(request)) + "}"
            except Exception:  # whatever it was, answer_request() says it as the protocol says
                pass
        elif op == "legal_actions" and self.state is not None and \
                type(self).legal_actions is Adapter.legal_actions:  # not a subclass's own
            try:
                return legal_actions_text(self.game, self.game.legal_actions(self.state))
            except Exception:  # as above
                pass
        return super().request_text(request, line)


def _same(view: Any) -> Any:
    return view


def engines_from(specs: Sequence[str]) -> dict[str, Game]:
    """The games of ``--engine NAME=MODULE:ATTRIBUTE`` options, by the name each answers for;
    :class:`ValueError` with a message for a person when one cannot be loaded."""
    engines: dict[str, Game] = {}
    for spec in specs:
        name, equals, target = spec.partition("=")
        module, colon, attribute = target.partition(":")
        if not (equals and colon and name.strip() and module.strip() and attribute.strip()):
            raise ValueError(f"--engine {spec}: expected NAME=MODULE:ATTRIBUTE, e.g. "
                             "maiko=maiko.broken:PEEK_LEAKS")
        try:
            game = load(target)
        except (ImportError, AttributeError) as error:
            raise ValueError(f"--engine {spec}: cannot load {target}: {error}") from None
        if not isinstance(game, Game):
            raise ValueError(f"--engine {spec}: {target} is not a Game but {game!r}")
        engines[name.strip()] = game
    return engines


def main(argv: Sequence[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m hanamikoji.oracle.core.adapter",
        description="The reference engine of every registered game behind the protocol of "
                    "hanamikoji diff: one JSON request per line on standard input, one JSON "
                    "answer per line on standard output.")
    parser.add_argument("--engine", action="append", default=[],
                        metavar="NAME=MODULE:ATTRIBUTE",
                        help="answer the requests for game NAME with the Game object "
                             "MODULE:ATTRIBUTE (your own subclass, a modified engine) instead "
                             "of the registered one; may be repeated")
    parser.add_argument("--protocol", type=int,
                        choices=(GENERAL_PROTOCOL, BATCH_PROTOCOL, CHANGES_PROTOCOL),
                        default=CHANGES_PROTOCOL,
                        help="the protocol declared in the answer to new_game: 4 (the default) "
                             "lets diff ask a whole step in one line and each view as what "
                             "changed; 3, a whole step with every view whole; 2, request by "
                             "request")
    args = parser.parse_args(argv)
    try:
        engines = engines_from(args.engine)
    except ValueError as error:
        parser.exit(2, f"{parser.prog}: {error}\n")
    Adapter(engines, protocol=args.protocol).serve()


if __name__ == "__main__":
    main()
