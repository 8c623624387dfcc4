"""The oracle: the tools that check another implementation against the reference, as a
library (docs/api.md) and as the commands' machinery.

Each tool is a function that returns a value: :func:`validate`, :func:`vectors` (with
``Cases.check(engine)``), :func:`perft`, :func:`diff`, :func:`leaks`, :func:`tournament` and
:func:`check` (every check of each implementation: its report card).
Every result has ``ok``, a readable ``str`` and ``to_json()``; errors are :class:`OracleError`
(:class:`UsageError`, :class:`EngineError`), never exit codes. They live in
:mod:`.core.api` and are loaded on first use, so ``import hanamikoji.oracle`` imports neither
Hypothesis nor z3.

``core/`` holds the game-agnostic tools, each working through the :class:`~hanamikoji.engine.core.game.Game`
interface only: the record validator (:mod:`.core.validate`), the conformance vectors
(:mod:`.core.vectors`, run against an engine by :mod:`.core.conformance`), perft
(:mod:`.core.perft`), the differential harness (:mod:`.core.diff`), its line protocol
(:mod:`.core.protocol`) and the reference adapter (:mod:`.core.adapter`). One sub-package per
game holds what a tool needs of that game beyond the interface: Hanamikoji's planned-round diff
driver, fast perft counter and hand-built vectors; Maiko's vectors.
"""

from __future__ import annotations

#: typing.TYPE_CHECKING without importing typing: importing the package stays light.
TYPE_CHECKING = False
__all__ = ["Cases", "Counts", "DiffReport", "EngineError", "LeakReport", "OracleError",
           "Results", "Standings", "UsageError", "Verdicts", "check", "diff", "leaks", "perft",
           "tournament", "validate", "vectors"]

if TYPE_CHECKING:
    from hanamikoji.oracle.core.api import (Cases, Counts, DiffReport, EngineError, LeakReport,
                                            OracleError, Results, Standings, UsageError,
                                            Verdicts, check, diff, leaks, perft, tournament,
                                            validate, vectors)


def __getattr__(name: str) -> object:
    """The API's names, imported when first asked for (PEP 562)."""
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    # Not kept in this module's globals: always the one of the api module now imported (a
    # test runner that unloads modules between runs, as pytester does, gets matching classes).
    import importlib

    return getattr(importlib.import_module("hanamikoji.oracle.core.api"), name)


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
