"""Maiko's components and its configuration value (spec/maiko/rules.md, MK-COMP-*, MK-SETUP-*).

A tile is a small int (a *tile code*): ``colour * 9 + item`` for an item tile (0 to 35) and
:data:`FRIEND` (36) for a friend. Tiles of one colour and item are interchangeable (MK-COMP-1),
so a code names a kind of tile, and a multiset of tiles is a tuple of codes or of counts.

>>> tile(Colour.PINK, 0), tile_name(18), item_of(18), colour_of(18)
(18, 'pink-0', 0, Colour.PINK)
>>> Config.make(3).tiles_in_play == 81, Config.make(2).tiles_in_play == 60
(True, True)
"""

from __future__ import annotations

import enum
from typing import Iterable

import attrs

from hanamikoji.engine.core.errors import OptionError


class Colour(enum.IntEnum):
    """MK-COMP-1: the four colours, numbered in the book's order."""

    WHITE = 0
    PURPLE = 1
    PINK = 2
    GREEN = 3

    def __repr__(self) -> str:
        return f"Colour.{self.name}"

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> "Colour":
        """The colour named ``text``, in any ASCII case (an option a person types); never a
        look-alike that case-maps to a name ("whıte" upper-cases to WHITE).

        >>> Colour.parse("Pink"), Colour.parse(" green")
        (Colour.PINK, Colour.GREEN)
        """
        try:
            if not text.isascii():
                raise KeyError(text)
            return cls[text.strip().upper()]
        except KeyError:
            raise OptionError(f"unknown colour {text!r}; expected one of: "
                              + ", ".join(c.label for c in cls)) from None


class Tutor(enum.IntEnum):
    """MK-COMP-2: the four tutor cards, in the order MK-TOKEN-2 takes tokens from them."""

    DANNA = 0
    OKASAN = 1
    ONESAN = 2
    SABANTO = 3

    def __repr__(self) -> str:
        return f"Tutor.{self.name}"

    @property
    def label(self) -> str:
        return ("danna", "oka-san", "one-san", "sabanto")[self]


NUM_COLOURS = 4
NUM_ITEMS = 9
COPIES = 2
FRIEND = NUM_COLOURS * NUM_ITEMS  # 36
NUM_FRIENDS = 9
NUM_TILE_KINDS = FRIEND + 1
TOTAL_TILES = NUM_COLOURS * NUM_ITEMS * COPIES + NUM_FRIENDS  # 81
TOTAL_TOKENS = 16
#: MK-SETUP-1: the player counts the game takes.
PLAYER_COUNTS = (2, 3, 4)
TWO_PLAYER_FRIENDS_REMOVED = 3

#: MK-COMP-3: the item spaces of row r and of column c.
ROWS: tuple[tuple[int, int, int], ...] = tuple((3 * r, 3 * r + 1, 3 * r + 2) for r in range(3))
COLUMNS: tuple[tuple[int, int, int], ...] = tuple((c, c + 3, c + 6) for c in range(3))


def tile(colour: int, item: int) -> int:
    """The code of the item tile of ``colour`` and ``item``."""
    return colour * NUM_ITEMS + item


def item_of(code: int) -> int:
    """The item of an item tile (call only on item tiles)."""
    return code % NUM_ITEMS


def colour_of(code: int) -> Colour:
    return Colour(code // NUM_ITEMS)


def tile_name(code: int) -> str:
    """``pink-0`` or ``friend`` (the spec's way of writing a tile)."""
    if code == FRIEND:
        return "friend"
    return f"{Colour(code // NUM_ITEMS).label}-{code % NUM_ITEMS}"


def parse_tile(text: str) -> int:
    """The code of a tile written ``colour-item`` or ``friend``; ValueError otherwise."""
    if text == "friend":
        return FRIEND
    colour, sep, item = text.partition("-")
    if not sep or colour.upper() not in Colour.__members__ or item not in "012345678" or len(item) != 1:
        raise ValueError(f"not a tile: {text!r} (expected 'colour-item' such as 'pink-0', or 'friend')")
    return tile(Colour[colour.upper()], int(item))


@attrs.frozen
class Config:
    """The options of a game (MK-SETUP-1, MK-SETUP-4): how many players, each player's colour,
    and the unplayed colour that goes back to the box in a 2-player game (None otherwise).

    Build it with :meth:`make`, which checks it and fills the defaults.
    """

    players: int = 2
    colours: tuple[Colour, ...] = (Colour.WHITE, Colour.PURPLE)
    removed_colour: Colour | None = Colour.PINK

    @classmethod
    def make(cls, players: int = 2, colours: Iterable[Colour | int | str] | None = None,
             removed_colour: Colour | int | str | None = None) -> "Config":
        """MK-SETUP-1, MK-SETUP-4: a checked configuration; :class:`OptionError` if it is not one.

        >>> Config.make(2, ["pink", "green"])
        Config(players=2, colours=(Colour.PINK, Colour.GREEN), removed_colour=Colour.WHITE)
        """
        if not isinstance(players, int) or isinstance(players, bool) or players not in PLAYER_COUNTS:
            raise OptionError(f"players must be from 2 to 4, not {players!r}", "MK-SETUP-1")
        if colours is None:
            chosen = tuple(Colour(c) for c in range(players))
        else:
            chosen = tuple(_colour(c) for c in colours)
        if len(chosen) != players:
            raise OptionError(f"{players} players need {players} colours, not {len(chosen)}",
                              "MK-SETUP-1")
        if len(set(chosen)) != players:
            raise OptionError("each player needs a different colour", "MK-SETUP-1")
        unplayed = [c for c in Colour if c not in chosen]
        if players == 2:
            removed = unplayed[0] if removed_colour is None else _colour(removed_colour)
            if removed in chosen:
                raise OptionError(f"the removed colour {removed.label} is played; it must be "
                                  "one of: " + ", ".join(c.label for c in unplayed), "MK-SETUP-4")
        else:
            if removed_colour is not None:
                raise OptionError("only a 2-player game removes a colour", "MK-SETUP-3")
            removed = None
        return cls(players, chosen, removed)

    @property
    def box(self) -> tuple[int, ...]:
        """MK-SETUP-4: the tiles out of the game (sorted codes): none with 3 or 4 players."""
        if self.removed_colour is None:
            return ()
        base = tile(self.removed_colour, 0)
        return tuple(sorted([base + i for i in range(NUM_ITEMS) for _ in range(COPIES)]
                            + [FRIEND] * TWO_PLAYER_FRIENDS_REMOVED))

    @property
    def tiles(self) -> tuple[int, ...]:
        """MK-SETUP-3, MK-SETUP-4: the tiles laid on the board, as sorted codes."""
        counts = [COPIES] * FRIEND + [NUM_FRIENDS]
        for code in self.box:
            counts[code] -= 1
        return tuple(code for code in range(NUM_TILE_KINDS) for _ in range(counts[code]))

    @property
    def tiles_in_play(self) -> int:
        return TOTAL_TILES - len(self.box)


def _colour(value: Colour | int | str) -> Colour:
    if isinstance(value, Colour):
        return value
    if isinstance(value, str):
        return Colour.parse(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < NUM_COLOURS:
        return Colour(value)
    raise OptionError(f"not a colour: {value!r}")
