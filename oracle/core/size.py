"""``hanamikoji size``: how big a game is, as exact counts where a game can count them and
sampling estimates where it cannot (docs/game-size.md).

What a game can count of itself is its own: a game's :class:`SizeExtension` is ``EXTENSION`` of
``hanamikoji.oracle.<game>.size`` (:mod:`hanamikoji.oracle.core.extension`); by default a game
has none, and the command says so in one line. The core holds what serves every game: the
confidence interval of a sampling estimate and the way big integers are written.
"""

from __future__ import annotations

import math
from typing import Any

from hanamikoji.engine.core.game import Game
from hanamikoji.oracle.core.extension import extension


class SizeExtension:
    """What ``size`` can count of one game; the defaults count nothing."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def report(self, config: Any, samples: int, seed: int, compute: bool,
               workers: int) -> dict[str, Any] | None:
        """The figures as one JSON object, or None when the game has no size counter.
        ``samples`` paths of the sampling estimate from seed ``seed``; ``compute`` recomputes
        the figures of record (on ``workers`` processes) instead of reading the committed
        ones."""
        return None

    def text(self, report: dict[str, Any]) -> list[str]:
        """The report for people, one line a string."""
        return []


def hooks(game: Game) -> SizeExtension:
    """``game``'s size hooks (its own, or the defaults)."""
    return extension("size", game, SizeExtension)


def exact(n: int) -> str:
    """A big integer written exactly, with thousands separators: ``5,457,986,456``."""
    return f"{n:,}"


class Estimate:
    """The mean of independent samples of an unbiased estimator, with the interval
    ``mean +- z * sd / sqrt(n)`` (z = 3.29: two-sided 99.9% under the normal approximation,
    which the tests check holds the exact figure wherever one is known)."""

    Z = 3.29
    __slots__ = ("mean", "low", "high", "samples")

    def __init__(self, values: list[float]) -> None:
        n = len(values)
        mean = math.fsum(values) / n
        var = math.fsum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else math.inf
        half = self.Z * math.sqrt(var / n)
        self.mean, self.low, self.high, self.samples = mean, mean - half, mean + half, n

    def holds(self, figure: int) -> bool:
        """Whether the interval holds ``figure``."""
        return self.low <= figure <= self.high

    def to_json(self) -> dict[str, Any]:
        return {"mean": self.mean, "low": self.low, "high": self.high, "samples": self.samples}

    def text(self) -> str:
        """``1.29e+19 (9.21e+18 to 1.67e+19)``."""
        return f"{self.mean:.3e} ({self.low:.3e} to {self.high:.3e})"


class BigEstimate:
    """:class:`Estimate` for figures too big for a float (a game tree's size): exact integer
    samples, the mean and the interval's ends rounded down to integers, written as
    ``1.234e+567``."""

    __slots__ = ("mean", "low", "high", "samples", "median", "largest")

    def __init__(self, values: list[int]) -> None:
        from fractions import Fraction

        ordered = sorted(values)
        #: The middle and the largest sample: a heavy tail shows as a mean near largest / n.
        self.median, self.largest = ordered[len(ordered) // 2], ordered[-1]

        n = len(values)
        total = sum(values)
        mean = Fraction(total, n)
        var = (Fraction(sum(v * v for v in values)) - mean * total) / (n - 1) if n > 1 else None
        half = (Fraction(329, 100) * math.isqrt(int(var / n))) if var is not None else None
        self.mean = int(mean)
        self.low = int(mean - half) if half is not None else None
        self.high = int(mean + half) if half is not None else None
        self.samples = n

    def to_json(self) -> dict[str, Any]:
        return {"mean": self.mean, "low": self.low, "high": self.high, "samples": self.samples,
                "median": self.median, "largest": self.largest}


def scientific(n: int) -> str:
    """An integer of any size in scientific notation, three decimals: ``1.294e+19``."""
    from decimal import Decimal

    return f"{Decimal(n):.3e}"


def knuth_tree(game: Game, config: Any, samples: int, seed: int,
               chance_weight: Any) -> dict[str, BigEstimate]:
    """Knuth's estimator (1975) of a game's tree through the game interface: uniform
    decisions, each node's estimate the product of the branching factors above it and, at a
    chance node, ``chance_weight(state, outcome)`` (the inverse of the outcome's probability:
    the game's own sampler draws it). Estimates ``nodes`` (every history), ``terminal`` and
    ``decisions``; path ``i`` plays game ``i`` of seed ``seed``."""
    from hanamikoji.engine.core.seeded import game_rng

    names = ("nodes", "terminal", "decisions")
    values: dict[str, list[int]] = {name: [] for name in names}
    for i in range(samples):
        rng = game_rng(seed, i)
        state = game.new_game(config)
        weight = 1
        nodes = decisions = 0
        while not game.is_terminal(state):
            nodes += weight
            if game.current_player(state) < 0:
                outcome = game.sample_chance(state, rng)
                weight *= chance_weight(state, outcome)
                state = game.apply(state, outcome)
                continue
            decisions += weight
            choices = game.legal_actions(state)
            weight *= len(choices)
            state = game.apply(state, choices[rng.randrange(len(choices))])
        values["nodes"].append(nodes + weight)
        values["terminal"].append(weight)
        values["decisions"].append(decisions)
    return {name: BigEstimate(v) for name, v in values.items()}
