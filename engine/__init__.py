"""The engines: the game-agnostic core (:mod:`.core`) and one sub-package per game
(:mod:`.hanamikoji`, :mod:`.maiko`).

For compatibility with code written before the core, ``from hanamikoji.engine import apply``
still gives Hanamikoji's engine: names not defined here are looked up, lazily, in
:mod:`hanamikoji.engine.hanamikoji`. Nothing in the core depends on this; new code imports the
game's package directly.

>>> from hanamikoji.engine import STANDARD
>>> STANDARD.name
'standard'
"""

from __future__ import annotations

import importlib
from typing import Any


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    game = importlib.import_module("hanamikoji.engine.hanamikoji")
    try:
        return getattr(game, name)
    except AttributeError:
        raise AttributeError(f"module 'hanamikoji.engine' has no attribute {name!r}") from None


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(importlib.import_module("hanamikoji.engine.hanamikoji").__all__))
