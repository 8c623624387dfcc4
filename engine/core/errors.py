"""Errors every game raises, one class per kind of wrong (python-chess style).

Every error is a ``ValueError`` that names the spec rule it concerns (``rule``) so that a caller,
the record validator or a test can say which rule of the game's spec was broken. The classes are
shared by every game, so the tools catch one hierarchy whatever the game.
"""

from __future__ import annotations


class GameError(ValueError):
    """Base class: something given to a game's engine is not acceptable."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule

    def __str__(self) -> str:
        return f"{self.message} [{self.rule}]" if self.rule else self.message


class InvalidActionError(GameError):
    """Malformed: wrong types, wrong sizes, numbers out of range, not a decision of this game."""


class IllegalActionError(GameError):
    """Well formed, but the rules forbid it in this state (the rule ID says which)."""


class OptionError(GameError):
    """An unknown option, or a value an option does not take."""
