"""The registry of games: the only way the tools reach a game.

Games are named here by the module that builds them, and imported only when asked for, so the
core never imports a game and ``hanamikoji games`` costs no game's import until one is used.
Three ways add a game: :func:`register` at run time; the environment variable
``HANAMIKOJI_GAMES`` (``name=module:attribute``, several separated by commas), which reaches
every process a command starts, adapters included (the test game of tests/ uses it); and the
built-in table below.

>>> [name for name in names()][:1]
['hanamikoji']
"""

from __future__ import annotations

import importlib
import os
from typing import Any, Iterator

from .errors import OptionError
from .game import Game

#: The game every command plays when not told otherwise (so every command of before the core
#: keeps working as it was).
DEFAULT = "hanamikoji"

#: Built-in games: name -> "module:attribute" of the registered instance.
_BUILT_IN: dict[str, str] = {
    "hanamikoji": "hanamikoji.engine.hanamikoji.game_type:GAME",
    "maiko": "hanamikoji.engine.maiko.game_type:GAME",
}
#: Added from the environment: the same form as the built-in table.
ENVIRONMENT = "HANAMIKOJI_GAMES"
_LOADED: dict[str, Game] = {}
_ADDED: dict[str, Game] = {}


class UnknownGameError(OptionError):
    """No game of that name (or record format) is registered."""


class GameEntryError(OptionError):
    """An entry of ``HANAMIKOJI_GAMES`` that does not give a game: not ``name=module:attribute``,
    a module that cannot be imported, no such attribute, or not a :class:`Game`. Never skipped
    silently: the user asked for that game."""


def register(game: Game) -> Game:
    """Add ``game`` under ``game.name`` (replacing an earlier one of that name); returns it."""
    if not isinstance(game, Game):
        raise TypeError(f"{game!r} is not a Game")
    _ADDED[game.name] = game
    return game


def unregister(name: str) -> None:
    """Remove a game added by :func:`register` (built-in games stay)."""
    _ADDED.pop(name, None)


def _from_environment() -> dict[str, str]:
    """The entries of ``HANAMIKOJI_GAMES`` (blank ones, as a trailing comma leaves, are none);
    :class:`GameEntryError` for one that is not ``name=module:attribute``."""
    table: dict[str, str] = {}
    for item in os.environ.get(ENVIRONMENT, "").split(","):
        item = item.strip()
        if not item:
            continue
        name, equals, target = item.partition("=")
        module, colon, attribute = target.partition(":")
        if not (equals and colon and name.strip() and module.strip() and attribute.strip()):
            raise GameEntryError(f"{ENVIRONMENT}: entry {item!r} is not NAME=MODULE:ATTRIBUTE "
                                 "(several are separated by commas)")
        table[name.strip()] = f"{module.strip()}:{attribute.strip()}"
    return table


def _entry_game(name: str, target: str) -> Game:
    """The game an entry of ``HANAMIKOJI_GAMES`` names; :class:`GameEntryError` saying what is
    wrong with it otherwise."""
    module, _, attribute = target.partition(":")
    entry = f"{ENVIRONMENT}: entry {name}={target}"
    try:
        loaded = importlib.import_module(module)
    except ModuleNotFoundError as error:
        raise GameEntryError(f"{entry}: no module named {error.name or module!r}") from None
    except Exception as error:  # the module's own code failed: say so, in one line
        raise GameEntryError(f"{entry}: importing {module} failed: "
                             f"{type(error).__name__}: {error}") from None
    try:
        game = getattr(loaded, attribute)
    except AttributeError:
        raise GameEntryError(f"{entry}: module {module} has no attribute {attribute!r}") from None
    if not isinstance(game, Game):
        raise GameEntryError(f"{entry}: {target} is a {type(game).__name__}, not a Game")
    return game


def _targets() -> dict[str, str]:
    return {**_BUILT_IN, **{k: v for k, v in _from_environment().items() if k not in _BUILT_IN}}


def names() -> Iterator[str]:
    """Every registered game's name: built-in ones first, in their order, then those of the
    environment, then those added by :func:`register`."""
    targets = _targets()
    yield from targets
    yield from (name for name in _ADDED if name not in targets)


def available() -> Iterator[str]:
    """The names of the games that can be loaded here (a built-in game whose module is not
    installed is left out; an entry of ``HANAMIKOJI_GAMES`` that gives no game is an error,
    :class:`GameEntryError`)."""
    for name in names():
        try:
            get(name)
        except UnknownGameError:
            continue
        yield name


def get(name: str | None = None) -> Game:
    """The game called ``name`` (default :data:`DEFAULT`)."""
    name = DEFAULT if name is None else name
    if name in _ADDED:
        return _ADDED[name]
    targets = _targets()  # first: a malformed HANAMIKOJI_GAMES is an error whatever is asked
    if name in _LOADED:
        return _LOADED[name]
    target = targets.get(name)
    if target is None:
        raise UnknownGameError(f"unknown game {name!r}; expected one of: "
                               + ", ".join(names()))
    if name not in _BUILT_IN:
        game = _entry_game(name, target)
        _LOADED[name] = game
        return game
    module, _, attribute = target.partition(":")
    try:
        game = getattr(importlib.import_module(module), attribute)
    except ModuleNotFoundError as error:
        if error.name is not None and module.startswith(error.name):
            raise UnknownGameError(f"game {name!r} is not installed here") from None
        raise
    _LOADED[name] = game
    return game


def by_format(record_format: object) -> Game | None:
    """The game whose records carry ``"format": record_format``, or None."""
    if not isinstance(record_format, str):
        return None
    key = (record_format, tuple(_ADDED.items()), os.environ.get(ENVIRONMENT, ""))
    if _FORMATS.get("key") != key[1:]:  # a game was added or removed: look again
        _FORMATS.clear()
        _FORMATS["key"] = key[1:]
    if record_format not in _FORMATS:
        _FORMATS[record_format] = next(
            (get(name) for name in available() if get(name).record_format == record_format), None)
    return _FORMATS[record_format]


#: by_format's answers, for as long as the set of games stays the same.
_FORMATS: dict = {}


def load(target: str) -> Any:
    """The object ``MODULE:ATTRIBUTE`` names, or the module ``MODULE``; the attribute may be
    any name the module answers (a module ``__getattr__`` may serve names with dashes). An
    import that fails or a missing attribute raises :class:`ImportError` or
    :class:`AttributeError`."""
    module, _, attribute = target.partition(":")
    loaded = importlib.import_module(module.strip())
    return getattr(loaded, attribute.strip()) if attribute.strip() else loaded
