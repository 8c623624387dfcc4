"""Other notations of a game's records, found per game: read a file of lines in a notation, and
write records in it.

A game's notations are a tool's extension (:mod:`.extension`): ``EXTENSION`` of
``hanamikoji.oracle.<game>.notation``, a subclass of :class:`NotationExtension` naming its
notations in :attr:`NotationExtension.names`. The default has none, and asking for one is a
usage error of one line: ``game maiko has no notation 'buaa' (it has none)``. ``validate``,
``show`` and ``stats`` read such files with ``--notation NAME``; ``convert`` writes records as
notation and notation as records.

A file in a notation holds one game a line; a blank line, or one whose first character is
``#``, holds none. A byte order mark (U+FEFF) at the start of the file is skipped.
"""

from __future__ import annotations

from typing import IO, Any, Iterator

from hanamikoji.runtime.base import UsageError
from hanamikoji.engine.core.errors import GameError
from hanamikoji.engine.core.game import Game
from hanamikoji.oracle.core.extension import extension


class NotationError(GameError):
    """A line the notation or the rules do not accept: ``malformed`` when it is not notation at
    all; ``round`` and ``move`` (from 1, None where they do not apply) say where."""

    malformed: bool = False
    round: int | None = None
    move: int | None = None


class NotationExtension:
    """A game's notations: by default none."""

    #: The notations this game reads and writes.
    names: tuple[str, ...] = ()

    def __init__(self, game: Game) -> None:
        self.game = game

    def read(self, name: str, line: str) -> Any:
        """The final state of the game written on ``line``; :class:`NotationError` if the
        notation or the rules do not accept it."""
        raise NotImplementedError

    def write(self, name: str, state: Any) -> str:
        """The line of the game that led to ``state``."""
        raise NotImplementedError

    def render(self, name: str, state: Any, player: int | None) -> list[str] | None:
        """``show --notation NAME``: the game that led to ``state`` in the notation's terms
        (as ``player`` saw it, if given); None for the game's own display. By default, None."""
        return None

    def looks_like(self, name: str, line: str) -> bool:
        """Whether ``line`` has the shape of notation ``name`` (its rules may still refuse
        it): ``validate`` without ``--notation`` then says to add it. By default, never."""
        return False

    def title(self, name: str) -> str:
        """What a person calls notation ``name``, in that hint."""
        return f"the {name} notation"


def notation(game: Game, name: str) -> NotationExtension:
    """``game``'s notation hooks, once they are known to read and write ``name``."""
    hooks = extension("notation", game, NotationExtension)
    if name not in hooks.names:
        has = ", ".join(repr(n) for n in hooks.names) or "none"
        raise UsageError(f"game {game.name} has no notation {name!r} (it has {has})")
    return hooks


def hint(game: Game, line: str) -> str | None:
    """For a line that is not JSON, the option that reads it, if it looks like one of
    ``game``'s notations: ``for the course's notation, add --notation buaa``; else None."""
    hooks = extension("notation", game, NotationExtension)
    for name in hooks.names:
        if hooks.looks_like(name, line):
            return f"for {hooks.title(name)}, add --notation {name}"
    return None


def lines(stream: IO[bytes], source: str) -> Iterator[tuple[int, str]]:
    """(line number from 1, text) of each line of ``stream`` that holds a game."""
    for number, raw in enumerate(stream, 1):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise UsageError(f"{source}:{number}: not UTF-8 text (byte {error.start + 1})") from None
        if number == 1:
            text = text.removeprefix("\ufeff")  # a byte order mark, as some editors write
        # Only the line's end is taken off: what white space a notation allows is its own
        # (the course's history strings allow the space alone), and columns are the file's.
        text = text.rstrip("\r\n")
        if text.strip() and not text.lstrip().startswith("#"):
            yield number, text

