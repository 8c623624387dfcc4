"""What every game's JSON codecs share: the canonical text the oracle compares, the error for a
JSON value that is not the form expected."""

from __future__ import annotations

import json
from typing import Any

from .errors import InvalidActionError


class MalformedJSONError(InvalidActionError):
    """Not the JSON form expected, at JSON path ``path``."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path


def dumps(value: Any) -> str:
    """Canonical text: sorted keys, no spaces; what the oracle's comparisons compare."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)


def value_text(value: Any) -> str:
    """A value as a message shows it: its JSON text (a tuple as a list, keys sorted) when it has
    one, else the name of its type, never a Python repr (a message speaks the record's
    language).

    >>> value_text((0, "a", None)), value_text({1, 2})
    ('[0,"a",null]', 'a set object')
    """
    for sort_keys in (True, False):  # keys sorted as dumps sorts them, where they sort
        try:
            return json.dumps(value, sort_keys=sort_keys, separators=(",", ":"), allow_nan=False)
        except (TypeError, ValueError):
            pass
    return f"a {type(value).__name__} object"
