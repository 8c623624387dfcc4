"""What a tool needs of one game beyond the game interface, found per tool and per game.

The game interface (:class:`~hanamikoji.engine.core.game.Game`) holds the rules and their codecs
and nothing about any tool. A tool that can do better for one game (a faster perft counter,
hand-built conformance vectors, a diff driver that plans whole rounds) declares a class of hooks
whose defaults serve any game; a game's own version subclasses it and lives with the tool, in the
game's sub-package of the oracle: module ``hanamikoji.oracle.<game name>.<tool>``, attribute
``EXTENSION``. A game from elsewhere (``HANAMIKOJI_GAMES``) registers its own with
:func:`register`, or gets the defaults. So a new tool widens no game, and a game's author reads
an interface shaped by the rules only.

>>> class Counter:
...     def __init__(self, game): self.game = game
>>> from hanamikoji.engine.core.registry import get
>>> type(extension("no-such-tool", get("maiko"), Counter)).__name__
'Counter'
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any, TypeVar

from hanamikoji.engine.core.game import Game

T = TypeVar("T")

_REGISTERED: dict[tuple[str, str], type[Any]] = {}
#: Each game's extension of each tool, made once: (tool, game) -> extension. Games are few and
#: live as long as the process (the registry holds them).
_MADE: dict[tuple[str, int], tuple[Game, Any]] = {}


def register(tool: str, game_name: str, extension_class: type[Any]) -> None:
    """Make ``extension_class(game)`` the ``tool`` hooks of the game named ``game_name``."""
    _REGISTERED[(tool, game_name)] = extension_class
    _MADE.clear()


def _declared(tool: str, game_name: str) -> type[Any] | None:
    """``EXTENSION`` of ``hanamikoji.oracle.<game_name>.<tool>``, or None when there is none."""
    if not game_name.isidentifier() or game_name == "core":
        return None
    module = f"hanamikoji.oracle.{game_name}.{tool}"
    try:
        found = importlib.util.find_spec(module)
    except ImportError:  # no sub-package for this game
        return None
    if found is None:
        return None
    return getattr(importlib.import_module(module), "EXTENSION", None)


def extension(tool: str, game: Game, default: type[T]) -> T:
    """The ``tool`` hooks of ``game``: registered, declared by the game's module of the tool,
    or ``default(game)``."""
    key = (tool, id(game))
    made = _MADE.get(key)
    if made is not None and made[0] is game:
        return made[1]
    cls: Any = _REGISTERED.get((tool, game.name)) or _declared(tool, game.name) or default
    value = cls(game)
    _MADE[key] = (game, value)
    return value
