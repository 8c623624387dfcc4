"""The test game with a short catalogue of real queries, for ``verify``'s interrupt test
(tests/test_interrupt_moments.py): Maiko's ``score-range`` (z3's optimiser, then solver checks)
and Hanamikoji's ``both-four-geisha`` (a solver check with its unsat core), run as ``verify``
runs any game's catalogue, its report written. No property sample: the report says so, and the
verdict is FAIL; what the test needs is a verdict that an interrupt must never give. Registered
in another process as ``few=testgame.few:GAME``."""

from __future__ import annotations

from typing import ClassVar

from hanamikoji.spec.hanamikoji import queries as hanamikoji_queries
from hanamikoji.spec.maiko import queries as maiko_queries

from .game import TestGame

CATALOGUE = (maiko_queries.by_name("score-range"),
             hanamikoji_queries.by_name("both-four-geisha"))


class FewQueries(TestGame):
    name: ClassVar[str] = "few"
    queries_module: ClassVar[str | None] = "testgame.few"
    sample_module: ClassVar[str | None] = None


GAME = FewQueries()
