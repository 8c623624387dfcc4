"""The bot protocol, and bots written in Python (docs/tournament.md).

A bot is any command that speaks the bot protocol: JSON Lines, one request from the referee on
the bot's standard input and one answer on its standard output. Protocol 1 has two requests:

* ``{"op": "new_game", "bot_protocol": 1, "game", "players", "options", "seat", "seed"}``,
  answered ``{"ok": true}`` (optionally with ``"name"``): a game starts, the bot plays ``seat``;
  ``seed`` is the bot's own seed for this game, for a bot that draws at random;
* ``{"op": "decide", "seat", "view", "legal"}`` and the game's own fields (Hanamikoji adds
  ``"buaa"``: the course's history, hand and board), answered ``{"decision": D}``. ``view`` is
  the game's view JSON of the engine's ``observe`` (INFO-1: nothing hidden from the seat is in
  it), ``legal`` every legal decision in the game's decision JSON; ``D`` is one of them, or,
  where the game reads one, its notation (a Hanamikoji bot may answer the course's ``"4ACBD"``).

When the game ends the referee closes the bot's standard input and ends its process group.
The JSON Schema of every message is :func:`bot_schema` (``hanamikoji schema --bot``).

A Python bot is a class with one method, ``decide(self, request) -> decision``: :class:`Request`
holds what the seat may know. :func:`serve` serves one over the protocol, making a new instance
for each game::

    python -m hanamikoji.oracle.core.bot mymodule:MyBot

Built-in bots (:data:`BUILT_IN`) are named ``random`` (every game: uniform over the legal
decisions, drawn from the game's seed) and the games' own (``heuristic`` for Hanamikoji).

>>> from hanamikoji.engine.core.registry import get
>>> game = get("hanamikoji")
>>> state = game.apply(game.new_game(game.configure()), game.sample_chance(
...     game.new_game(game.configure()), __import__("random").Random(1)))
>>> sorted(decide_request(game, state, 0, 0))
['buaa', 'legal', 'op', 'seat', 'view']
"""

from __future__ import annotations

import contextlib
import importlib
import json
import random
import sys
from typing import Any, Callable, Mapping, TextIO

import attrs

from hanamikoji.engine.core.game import Game
from hanamikoji.engine.core.registry import get
from hanamikoji.oracle.core.extension import extension

__all__ = ["BUILT_IN", "Bot", "BotExtension", "BotLoadError", "RandomBot", "Request",
           "bot_class", "decide_request", "hooks", "new_game_request", "serve"]

PROTOCOL = 1


@attrs.frozen
class Request:
    """What a seat may know when it decides: the game, its seat, its seed for this game, its
    view (the engine's ``observe``, as JSON), the legal decisions (JSON) and the game's own
    fields (``extra``: Hanamikoji's ``buaa``)."""

    game: str
    seat: int
    seed: int
    view: Any
    legal: tuple[Any, ...]
    extra: Mapping[str, Any] = attrs.field(factory=dict)


class Bot:
    """A bot: one instance per game; :meth:`decide` answers each decision of its seat."""

    def decide(self, request: Request) -> Any:  # pragma: no cover - the interface
        """The decision, as the game's decision JSON (or its notation, where it reads one)."""
        raise NotImplementedError


class RandomBot(Bot):
    """Uniform over the legal decisions, from a source seeded by the game's seed: the same
    game seed gives the same choices."""

    def __init__(self) -> None:
        self.rng: random.Random | None = None

    def decide(self, request: Request) -> Any:
        if self.rng is None:
            self.rng = random.Random(f"bot/{request.seed}")
        return self.rng.choice(request.legal)


class BotExtension:
    """A game's parts of the bot protocol; the defaults serve any game (a game's own subclass is
    ``EXTENSION`` of ``hanamikoji.oracle.<game>.bot``)."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def extra(self, state: Any, player: int) -> dict[str, Any]:
        """The game's own fields of a ``decide`` request (default: none). Built from the
        engine's ``observe`` only."""
        return {}

    def read_decision(self, state: Any, answer: Any) -> Any:
        """The decision an answer's ``decision`` stands for; the engine's
        :class:`InvalidActionError` (naming a rule where one applies) if it is none. Legality
        is the engine's ``apply``."""
        return self.game.decision_from_json(answer, "$.decision")

    def extra_schema(self) -> dict[str, Any]:
        """The JSON Schemas of :meth:`extra`'s fields, by key (default: none)."""
        return {}

    def decision_schema(self) -> dict[str, Any] | None:
        """Another form of an answer's decision this game reads (default: none)."""
        return None

    def bots(self) -> dict[str, Callable[[], Bot]]:
        """The game's own built-in bots, by name (default: none)."""
        return {}

    def fault_message(self, state: Any, player: int, answer: Any, error: Exception) -> str:
        """For a person, why ``player``'s ``answer`` in ``state`` is refused, in the terms the
        bot answered in (a game that reads its own notation explains a string in it); ``error``
        is what :meth:`read_decision` or the engine's ``apply`` raised (default: its
        message). The rule stays the engine's."""
        return str(getattr(error, "message", error))


def hooks(game: Game) -> BotExtension:
    """``game``'s hooks of the bot protocol (its own, or the defaults)."""
    return extension("bot", game, BotExtension)


def new_game_request(game: Game, config: Any, seat: int, seed: int) -> dict[str, Any]:
    """The request that starts a game for the bot of ``seat``."""
    return {"op": "new_game", "bot_protocol": PROTOCOL, "game": game.name,
            "players": game.num_players(config), "options": game.options_of(config),
            "seat": seat, "seed": seed}


def decide_request(game: Game, state: Any, player: int, seat: int) -> dict[str, Any]:
    """The request for ``player``'s decision in ``state``: its view and the legal decisions,
    nothing the engine's ``observe`` does not show it (the legal decisions of a seat follow
    from its view: the leak property checks that they are the same in every state it cannot
    tell apart)."""
    request = {"op": "decide", "seat": seat,
               "view": game.view_to_json(game.observe(state, player)),
               "legal": [game.decision_to_json(d) for d in game.legal_actions(state)]}
    request.update(hooks(game).extra(state, player))
    return request


#: The built-in bots every game has.
BUILT_IN: dict[str, Callable[[], Bot]] = {"random": RandomBot}


def built_in(game: Game) -> dict[str, Callable[[], Bot]]:
    """Every built-in bot of ``game``, by name."""
    return {**BUILT_IN, **hooks(game).bots()}


class BotLoadError(ValueError):
    """A ``module:Class`` that names no bot class."""


def bot_class(target: str) -> Callable[[], Bot]:
    """The class ``target`` (``module:Class``) names."""
    module, colon, name = target.partition(":")
    if not colon or not module or not name:
        raise BotLoadError(f"a bot is named module:Class, not {target!r}")
    try:
        found = getattr(importlib.import_module(module), name)
    except ImportError as error:
        raise BotLoadError(f"cannot import {module}: {error}") from None
    except AttributeError:
        raise BotLoadError(f"{module} has no {name}") from None
    if not callable(found):
        raise BotLoadError(f"{target} is not a class")
    return found


def request_of(hello: Mapping[str, Any], message: Mapping[str, Any]) -> Request:
    """A ``decide`` message as the :class:`Request` a Python bot receives."""
    extra = {k: v for k, v in message.items() if k not in ("op", "seat", "view", "legal")}
    return Request(game=hello["game"], seat=message["seat"], seed=hello["seed"],
                   view=message["view"], legal=tuple(message["legal"]), extra=extra)


def serve(make: Callable[[], Bot], stdin: TextIO, stdout: TextIO) -> None:
    """Answer the referee's requests on ``stdin`` with ``make``'s bots until it closes it: a new
    bot for each ``new_game``. ``stdout`` is the protocol's alone: while the bot's own code runs
    (``make`` and ``decide``), ``sys.stdout`` is standard error, so a ``print`` left in a bot is
    debug output, not a broken answer."""
    bot: Bot | None = None
    hello: Mapping[str, Any] = {}
    for line in stdin:
        message = json.loads(line)
        with contextlib.redirect_stdout(sys.stderr):
            if message.get("op") == "new_game":
                bot, hello = make(), message
                answer: dict[str, Any] = {"ok": True}
            else:
                assert bot is not None, "decide before new_game"
                answer = {"decision": bot.decide(request_of(hello, message))}
        stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
        stdout.flush()


def main(argv: list[str] | None = None) -> int:
    """``python -m hanamikoji.oracle.core.bot module:Class`` (or a built-in bot's name and
    ``--game G``): serve that bot on standard input and output."""
    words = list(sys.argv[1:] if argv is None else argv)
    game_name = None
    if len(words) == 3 and words[1] == "--game":
        game_name = words.pop(2)
        words.pop(1)
    if len(words) != 1:
        print("usage: python -m hanamikoji.oracle.core.bot module:Class | NAME [--game G]",
              file=sys.stderr)
        return 2
    protocol = sys.stdout  # the bot's module may print as it is imported: to standard error
    try:
        with contextlib.redirect_stdout(sys.stderr):
            make = built_in(get(game_name)).get(words[0]) or bot_class(words[0])
    except (BotLoadError, ValueError) as error:
        print(f"bot: {error}", file=sys.stderr)
        return 2
    try:
        serve(make, sys.stdin, protocol)
    except (BrokenPipeError, KeyboardInterrupt):
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
