"""``hanamikoji size``: how big a game is, as exact counts where a game can count them and
sampling estimates where it cannot (docs/game-size.md).

What a game can count of itself is its own: a game's :class:`SizeExtension` is ``EXTENSION`` of
``hanamikoji.oracle.<game>.size`` (:mod:`hanamikoji.oracle.core.extension`); by default a game
has none, and the command says so in one line. The core holds what serves every game: the
confidence intervals of sampling estimates, Knuth's estimator through the game interface, the
measure of a computation's cost, and the way big integers are written.
"""

from __future__ import annotations

import math
from typing import Any, Callable, TypeVar

from hanamikoji.engine.core.game import Game
from hanamikoji.oracle.core.extension import extension


T = TypeVar("T")


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


class BigEstimate:
    """The mean of independent samples of an unbiased estimator, with the interval
    ``mean +- z * sd / sqrt(n)`` (z = 3.29: two-sided 99.9% under the normal approximation),
    for figures too big for a float (a game tree's size): exact integer samples, the mean and
    the interval's ends rounded down to integers, written as ``1.234e+567``."""

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


def measured(work: Callable[[], T]) -> tuple[T, dict[str, float | None]]:
    """Run ``work`` and say what it cost: the processor seconds of this process and of the
    worker processes it waited for (``resource.getrusage``), this process's peak of memory
    allocated by Python while it ran (``tracemalloc``: the tables a computation keeps, not the
    interpreter), and, when workers ran, the largest resident size any worker reached. Times
    vary from run to run and machine to machine; they are shown, never compared by a test."""
    import resource
    import tracemalloc

    def cpu(who: int) -> float:
        usage = resource.getrusage(who)
        return usage.ru_utime + usage.ru_stime

    self_before, children_before = cpu(resource.RUSAGE_SELF), cpu(resource.RUSAGE_CHILDREN)
    tracing = tracemalloc.is_tracing()
    if not tracing:
        tracemalloc.start()
    tracemalloc.reset_peak()
    try:
        result = work()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        if not tracing:
            tracemalloc.stop()
    children = cpu(resource.RUSAGE_CHILDREN) - children_before
    worker_peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if children else None
    return result, {"cpu_seconds": round(cpu(resource.RUSAGE_SELF) - self_before + children, 1),
                    "worker_cpu_seconds": round(children, 1),
                    "peak_traced_kib": peak // 1024,
                    "peak_worker_rss_kib": worker_peak}


#: t quantile for a two-sided 99.9% interval with 19 degrees of freedom: the jackknife's
#: standard error from 20 groups has 19 (tests/test_size.py integrates the t density).
T_19 = 3.883


def jackknife(statistic: Callable[[list[int]], dict[str, float]], samples: int,
              groups: int = 20) -> tuple[dict[str, float], dict[str, tuple[float, float]]]:
    """Each figure of ``statistic`` (a smooth function of the means of ``samples`` independent
    samples, given the indices of the samples to use) and a 99.9% interval from the
    delete-a-group jackknife (Quenouille, Tukey; Efron and Stein 1981): the samples are dealt
    into ``groups`` groups by index, the figure is recomputed without each group, and the
    spread of those figures is its standard error, with ``groups - 1`` degrees of freedom.
    A figure that is a product of several estimated quantities is skewed, so the interval is
    made on its logarithm (positive figures), where a product is a sum; a figure with a zero
    anywhere is given the interval on its own scale."""
    assert groups == 20, "T_19 is the t quantile for 20 groups"
    everything = list(range(samples))
    full = statistic(everything)
    without = [statistic([i for i in everything if i % groups != g]) for g in range(groups)]
    out: dict[str, tuple[float, float]] = {}
    for name, value in full.items():
        values = [w[name] for w in without]
        positive = value > 0 and all(v > 0 for v in values)
        scaled = [math.log(v) for v in values] if positive else values
        mean = math.fsum(scaled) / groups
        half = T_19 * math.sqrt((groups - 1) / groups * math.fsum((v - mean) ** 2
                                                                  for v in scaled))
        if positive:
            out[name] = (math.exp(math.log(value) - half), math.exp(math.log(value) + half))
        else:
            out[name] = (value - half, value + half)
    return full, out
