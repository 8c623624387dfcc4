"""The engine protocol: what the property suite needs from an implementation.

Every strategy and invariant takes a keyword-only ``engine=`` option, any object with these six
functions, with the signatures of the reference engine (:mod:`hanamikoji.engine`, the default,
which satisfies the protocol as a module). States must expose the attributes of the reference
:class:`~hanamikoji.engine.State` (``rules``, ``first_player``, ``round``, ``phase``, ``turn``,
``markers``, ``removed``, ``hands``, ``deck``, ``used``, ``secrets``, ``trade_offs``, ``sides``,
``pending``, ``scores``, ``result``, ``history``) and decisions must be the reference decision
values: the invariants read those to check the rules. Another implementation plugs in through a
thin adapter that converts its own state into that shape (see docs/properties.md).

>>> import hanamikoji.engine.hanamikoji
>>> isinstance(hanamikoji.engine.hanamikoji, Engine)
True
>>> load_engine("hanamikoji.engine.hanamikoji") is REFERENCE
True
"""

from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable

import hanamikoji.engine.hanamikoji as REFERENCE
from hanamikoji.engine.core.registry import load

__all__ = ["Engine", "REFERENCE", "load_engine", "engine_spec"]


@runtime_checkable
class Engine(Protocol):
    """The six functions the property suite calls; :mod:`hanamikoji.engine` is one."""

    def new_game(self, rules: Any = ..., first_player: int = 0) -> Any:
        """SETUP-1, COMP-4: a game before its first deal."""

    def apply(self, state: Any, decision: Any) -> Any:
        """The state after ``decision``; never changes ``state``; raises a ``ValueError``
        subclass with a ``rule`` attribute for a decision the rules forbid."""

    def legal_actions(self, state: Any) -> tuple:
        """The decisions the current player may take, one per distinct outcome, sorted."""

    def observe(self, state: Any, player: int) -> Any:
        """INFO-1, INFO-2: what ``player`` may know (a value compared with ``==``)."""

    def current_player(self, state: Any) -> int:
        """0 or 1; -1 at a chance node (a deal is due); -4 at the end of the game."""

    def random_deal(self, rng: random.Random) -> Any:
        """DEAL-1..4: a uniformly random :class:`~hanamikoji.engine.Deal` from ``rng``."""


def load_engine(spec: str) -> Engine:
    """The engine named by ``"package.module"`` or ``"package.module:attribute"``.

    The attribute may be any string the module answers (``getattr``), so a registry module can
    serve names such as ``broken_engines:tie-moves-marker``.
    """
    engine = load(spec)
    missing = [name for name in ("new_game", "apply", "legal_actions", "observe",
                                 "current_player", "random_deal") if not hasattr(engine, name)]
    if missing:
        raise TypeError(f"{spec} is not an engine: it lacks {', '.join(missing)}")
    return engine


def engine_spec(engine: Engine) -> str | None:
    """The ``load_engine`` spec of ``engine`` if it can be named so, else None.

    An engine names itself with an ``engine_spec`` attribute; a module is named by its
    ``__name__``.
    """
    spec = getattr(engine, "engine_spec", None)
    if isinstance(spec, str):
        return spec
    if isinstance(engine, type(REFERENCE)):
        return engine.__name__
    return None
