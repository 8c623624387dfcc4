"""The specs: the game-agnostic core (:mod:`.core`: rule traceability, the verify report) and
one sub-package per game with its normative rules, record schema and z3 model
(:mod:`.hanamikoji`, :mod:`.maiko`).

Importing this package does not import z3.
"""

from __future__ import annotations

from typing import Any


def ask(expression: str, *, game: str | None = None, **options: Any) -> Any:
    """Whether a game can end so that ``expression`` holds (``hanamikoji query --where``): an
    answer object with ``answer`` ("possible", "impossible" or "unknown"), ``witness`` (a record
    that ``hanamikoji validate`` accepts, and what it shows) or ``core`` (rule IDs), and
    ``to_json()``. ``game`` defaults to the registry's default game; ``options`` are the game's
    (Hanamikoji: ``variant``; every game: ``timeout``, a wall-clock bound in seconds on top
    of z3's resource budget, none by default). A syntax error or an unknown term raises
    :class:`hanamikoji.spec.core.expr.ExprError`, whose message gives the column.

    >>> ask("geisha(0) == 7").core
    ('SCORE-4',)
    """
    import importlib

    from hanamikoji.engine.core.registry import get

    chosen = get(game)
    if chosen.where_module is None:
        raise ValueError(f"game {chosen.name} takes no --where questions")
    return importlib.import_module(chosen.where_module).ask(expression, **options)
