"""Maiko's part of ``hanamikoji audit``: every game's layout against a uniform shuffle of the
tiles in play (MK-SETUP-5), laid one on each space (60 with two players, MK-SETUP-4; 81 with
three or four, MK-SETUP-3).

The tests (:mod:`hanamikoji.oracle.core.audit` for their statistics): each tile's position
(every space a place of one tile, each judged exactly, the least p-value times the spaces);
pairs of tiles (how far apart, in space numbers, the two copies of an item lie: game ``i``
looks at the ``i``-th item in turn, so that the games are independent, against
``2 (S - d) / (S (S - 1))`` for ``d`` apart); and repeated layouts (all of the
``S! / prod(c!)`` distinct layouts are equally likely).
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any, Sequence

from hanamikoji.engine.maiko.actions import Layout
from hanamikoji.engine.maiko.components import tile_name
from hanamikoji.oracle.core.audit import (AuditExtension, Collisions, Test, collision_test,
                                          each_place_test, place_test)

UNFAIR = "layouts are not a uniform shuffle"
RULES = ("MK-SETUP-5",)


def fair_collisions(counts: Sequence[int]) -> Collisions:
    """Every layout of the tiles ``counts`` is equally likely: ``S! / prod(c!)`` of them."""
    distinct = math.factorial(sum(counts))
    for c in counts:
        distinct //= math.factorial(c)
    return Collisions(distinct, 1.0 / distinct, 1.0 / distinct ** 2)


class MaikoAudit(AuditExtension):
    """Maiko's audit: the layout of every game."""

    unit = "layout"

    def outcomes(self, final: Any) -> tuple[int, ...]:
        """The game's layout: the tile code on every space."""
        return next(d.tiles for d in self.game.history(final) if isinstance(d, Layout))

    def tests(self, outcomes: Sequence[Any], rebuilt: bool = False) -> tuple[int, list[Test],
                                                                             list[str]]:
        n, tests = layout_tests(outcomes)
        return n, tests, []


def layout_tests(layouts: Sequence[Sequence[int]]) -> tuple[int, list[Test]]:
    """The tests of ``layouts`` (each the tile code on every space, one set of options): the
    number of layouts and the tests."""
    n = len(layouts)
    name = _Names()
    counts = Counter(name[t] for t in layouts[0]) if layouts else Counter()
    spaces = len(layouts[0]) if layouts else 0
    table: Counter = Counter()
    for tiles in layouts:
        for space, tile in enumerate(tiles):
            table[(space, name[tile])] += 1
    tests = [each_place_test(
        "each tile's position", RULES, n, table, range(spaces), counts,
        lambda space, tile, o, e: (f"of all spaces and tiles, the farthest from a fair "
                                   f"shuffle: space {space} held {tile} in {o} of {n} "
                                   f"layouts (expected {e:.1f})"), UNFAIR)]
    pairs = sorted(k for k, c in counts.items() if c == 2)
    if pairs and spaces > 1:
        apart: Counter = Counter()
        for index, tiles in enumerate(layouts):
            item = pairs[index % len(pairs)]
            where = [s for s, t in enumerate(tiles) if name[t] == item]
            apart[where[1] - where[0]] += 1
        chances = {d: 2 * (spaces - d) for d in range(1, spaces)}
        tests.append(place_test(
            "pairs of tiles", RULES, n, apart, chances, 1,
            lambda d, o, e: (f"the two copies of an item lay {d} spaces apart in {o} of "
                             f"{n} layouts (expected {e:.1f})"), UNFAIR))
    fair = fair_collisions(list(counts.values()))
    tests.append(collision_test(
        "repeated layouts", RULES, [[tuple(t) for t in layouts]], fair,
        lambda found, mean: (f"{found} pairs of games had the same layout (expected "
                             f"{mean:.3g} under a fair shuffle of {float(fair.distinct):.3g}"
                             " distinct layouts)"),
        "layouts repeat far more often than a fair shuffle's"))
    return n, tests


class _Names(dict[int, str]):
    """Each tile code's name (:func:`tile_name`), made once: a thousand layouts of 60 tiles
    (``diff``'s check of seeded chance) ask for 60,000, about half the time of the tests."""

    def __missing__(self, code: int) -> str:
        self[code] = tile_name(code)
        return self[code]


EXTENSION = MaikoAudit
