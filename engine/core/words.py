"""Words for people: counts with their nouns, articles, and values written without Python's
reprs (no ``None``, no ``{'key': ...}``), for every command's text output.

>>> plural(1, "game"), plural(2000, "game"), plural(0, "query", "queries")
('1 game', '2000 games', '0 queries')
>>> article("italian-three-rounds"), article("standard")
('an', 'a')
>>> plain([None, 1, "shared"]), plain({"winner": 0, "reason": None}), plain(None)
('[none, 1, shared]', 'winner 0, reason none', 'none')
"""

from __future__ import annotations

from typing import Any


def plural(count: int, word: str, many: str | None = None) -> str:
    """``count`` and ``word``, in the plural (``many``, else ``word + "s"``) unless it is 1."""
    return f"{count} {word if count == 1 else many or word + 's'}"


def article(word: str) -> str:
    """"a" or "an" before ``word`` (by its first letter: enough for the toolkit's names)."""
    return "an" if word[:1].lower() in "aeiou" and word[:1] else "a"


def plain(value: Any) -> str:
    """``value`` as plain words: ``none`` for None, lists in brackets, a mapping as
    ``key value`` pairs, anything else as ``str`` gives it."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ", ".join(f"{key} {plain(item)}" for key, item in value.items())
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(plain(item) for item in value) + "]"
    return str(value)


def options_text(options: Any) -> str:
    """A game's option values for a title: ``players 3, colours white,purple,pink``; an empty
    value (an option left to its default) is left out, not printed as nothing.

    >>> options_text({"players": 3, "colours": "", "removed_colour": ""})
    'players 3'
    """
    return ", ".join(f"{key} {value}" for key, value in options.items() if value != "")


def value_text(value: Any) -> str:
    """An option's value on a command line: ``""`` for the empty text, which typed bare would
    read as nothing at all.

    >>> value_text(""), value_text(2)
    ('""', '2')
    """
    return '""' if value == "" else str(value)
