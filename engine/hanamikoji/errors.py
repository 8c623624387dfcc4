"""Errors the engine raises, one class per kind of wrong (python-chess style).

Every error is a ``ValueError`` that names the spec rule it concerns (``rule``) so that a caller,
the record validator or a test can say which rule of spec/hanamikoji/rules.md was broken. The
classes are the core's (:mod:`hanamikoji.engine.core.errors`), shared by every game;
``HanamikojiError`` is this game's name for their base class.
"""

from __future__ import annotations

from hanamikoji.engine.core.errors import GameError as HanamikojiError
from hanamikoji.engine.core.errors import IllegalActionError, InvalidActionError

__all__ = ["HanamikojiError", "IllegalActionError", "InvalidActionError"]
