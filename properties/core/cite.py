"""How a check cites the rules it checks: one mechanism for tests, invariants and state machines.

A test, an invariant or a state-machine rule says which spec rules it checks with the
:func:`checks` decorator::

    @checks("MK-FLIP-3", "MK-TURN-2")
    def test_a_pair_keeps_the_turn(): ...

``hanamikoji spec coverage`` counts these citations and nothing else: a rule ID in a comment, a
docstring, a string or a fixture is a mention, never a check. The decorator only records the IDs
(:func:`cited` reads them back, and an invariant's :class:`Violation` names them); it changes
nothing about how the function runs.

>>> @checks("SCORE-2", "SCORE-3")
... def markers_move():
...     pass
>>> cited(markers_move)
('SCORE-2', 'SCORE-3')
>>> checks("not a rule")
Traceback (most recent call last):
...
ValueError: checks() takes rule IDs such as 'MK-FLIP-3', not 'not a rule'
"""

from __future__ import annotations

import re
from typing import Any, Callable, TypeVar

__all__ = ["checks", "cited", "ATTRIBUTE"]

#: The attribute the decorator sets on what it decorates.
ATTRIBUTE = "__rules__"
_RULE_ID = re.compile(r"^[A-Z]+(?:-[A-Z]+)*-[0-9]+$")

F = TypeVar("F", bound=Callable[..., Any])


def checks(*rules: str) -> Callable[[F], F]:
    """Declare that the decorated test, invariant or rule checks ``rules`` (spec rule IDs)."""
    for rule in rules:
        if not isinstance(rule, str) or not _RULE_ID.match(rule):
            raise ValueError(f"checks() takes rule IDs such as 'MK-FLIP-3', not {rule!r}")
    if not rules:
        raise ValueError("checks() needs at least one rule ID")

    def mark(function: F) -> F:
        setattr(function, ATTRIBUTE, tuple(dict.fromkeys(
            getattr(function, ATTRIBUTE, ()) + tuple(rules))))
        return function

    return mark


def cited(function: Any) -> tuple[str, ...]:
    """The rule IDs ``function`` cites with :func:`checks` (empty if none), in order."""
    return tuple(getattr(function, ATTRIBUTE, ()))
