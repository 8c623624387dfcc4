"""Errors the engine raises, one class per kind of wrong (python-chess style).

Every error is a ``ValueError`` that names the spec rule it concerns (``rule``) so that a caller,
the record validator or a test can say which rule of spec/rules.md was broken.
"""

from __future__ import annotations


class HanamikojiError(ValueError):
    """Base class: something given to the engine is not acceptable."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule

    def __str__(self) -> str:
        return f"{self.message} [{self.rule}]" if self.rule else self.message


class InvalidActionError(HanamikojiError):
    """Malformed: wrong types, wrong number of cards, a geisha number outside 0..6."""


class IllegalActionError(HanamikojiError):
    """Well formed, but the rules forbid it in this state (the rule ID says which)."""
