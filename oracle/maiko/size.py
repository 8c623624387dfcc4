"""Maiko's size for ``hanamikoji size --game maiko`` (docs/game-size.md): the exact number of
layouts and sampling estimates of the game tree.

Nothing else is exact within reach. A layout (MK-SETUP-5) is the only chance outcome, and
there are about 10^88 to 10^110 of them; a game lasts hundreds of decisions (a game can even go
on for ever, MK-END-5), and after the layout almost every decision reveals or moves a tile the
next ones depend on, so no split into independent parts like Hanamikoji's two player trees, and
no small set of states to merge paths on, is known. Knuth's estimator still applies: a layout
drawn as the game draws it (every layout is equally likely, as each arises from the same number
of orders of the physical tiles) has weight the number of layouts.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from hanamikoji.engine.maiko.components import Config
from hanamikoji.oracle.core.size import SizeExtension, exact, knuth_tree, scientific


def layouts(config: Config) -> int:
    """MK-COMP-1, MK-SETUP-3..5: the distinct layouts: the orders of the tiles in play, tiles
    of one kind alike."""
    out = math.factorial(len(config.tiles))
    for count in Counter(config.tiles).values():
        out //= math.factorial(count)
    return out


class MaikoSize(SizeExtension):
    """The layouts, exactly, and Knuth's estimate of the tree, for the configured players."""

    def report(self, config: Config, samples: int, seed: int, compute: bool,
               workers: int) -> dict[str, Any] | None:
        del compute, workers  # nothing is computed ahead
        count = layouts(config)
        estimates = knuth_tree(self.game, config, samples, seed, lambda state, outcome: count)
        return {"game": "maiko", "players": config.players, "tiles": len(config.tiles),
                "layouts": count,
                "estimates": {name: e.to_json() for name, e in estimates.items()}}

    def text(self, report: dict[str, Any]) -> list[str]:
        lines = [f"Maiko, {report['players']} players: {report['tiles']} tiles in play",
                 f"layouts: {exact(report['layouts'])} ({scientific(report['layouts'])})",
                 "sampling estimates (Knuth's estimator, 99.9% interval; nothing exact is in "
                 "reach):"]
        for name, e in report["estimates"].items():
            low = "below 0" if e["low"] < 0 else scientific(e["low"])
            lines.append(f"  {name:<10} {scientific(e['mean'])} ({low} to "
                         f"{scientific(e['high'])}), {e['samples']} paths; one path's "
                         f"median {scientific(e['median'])}, largest {scientific(e['largest'])}")
        lines.append("  one path weighs most of each mean: the tail is heavy, and the interval "
                     "says only that the tree is at least this order of magnitude")
        return lines


EXTENSION = MaikoSize
