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
