"""The power of ``hanamikoji audit`` and its false-alarm rate, as the tables of docs/audit.md:
``python dev/audit_power.py`` (about ten minutes on one core).

- For each unfair dealer of tests/unfair_dealers.py, the fewest outcomes (rounds, layouts) of
  its grid at which ``audit`` rejects at least 95 of 100 seeded runs (Holm, family rate 1%).
- For our own dealers, how many of 1,000 seeded runs ``audit`` rejects at each of a few sizes,
  with the exact (Clopper-Pearson) 95% upper bound on the rate: the rate must be at most the
  family's 1%, which a share of runs can only estimate.

Deterministic: every run is seeded (run ``i`` of a size deals from ``random.Random(i)``), so the
tables print the same on any machine. ``--trials N`` runs fewer (a quick look; the docs' tables
are of the defaults). tests/test_audit.py checks the tables' rows at small sizes.
"""

from __future__ import annotations

import argparse
import math
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests"))

from unfair_dealers import CAUGHT, DEALERS, FAIR, TRIALS, flagged, power  # noqa: E402

#: The sizes at which our own dealers' false alarms are counted, and how many runs each.
FALSE_ALARM_SIZES = {"hanamikoji": (100, 1000), "maiko": (100, 1000)}
FALSE_ALARM_TRIALS = 1000


def upper_bound(count: int, trials: int, confidence: float = 0.95) -> float:
    """The exact one-sided upper confidence bound of a binomial rate (Clopper-Pearson): the
    rate p at which seeing ``count`` or fewer of ``trials`` has probability 1 - confidence,
    found by bisection on the binomial distribution function."""
    def at_most(p: float) -> float:
        return sum(math.comb(trials, k) * p ** k * (1 - p) ** (trials - k)
                   for k in range(count + 1))

    low, high = count / trials, 1.0
    for _ in range(60):
        middle = (low + high) / 2
        if at_most(middle) > 1 - confidence:
            low = middle
        else:
            high = middle
    return high


def at_least(count: int, trials: int, rate: float) -> float:
    """The chance of ``count`` or more rejections in ``trials`` runs at exactly ``rate``: how
    surprising the count would be if the false-alarm rate were the family's."""
    return 1 - sum(math.comb(trials, k) * rate ** k * (1 - rate) ** (trials - k)
                   for k in range(count))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=TRIALS)
    parser.add_argument("--fair-trials", type=int, default=FALSE_ALARM_TRIALS)
    parser.add_argument("--only", choices=("unfair", "fair"), help="print one of the tables")
    args = parser.parse_args(argv)
    caught = -(-CAUGHT * args.trials // TRIALS)
    if args.only != "fair":
        unfair(args.trials, caught)
    if args.only != "unfair":
        fair(args.fair_trials)
    return 0


UNIT = {"hanamikoji": "rounds", "maiko": "layouts"}


def unfair(trials: int, caught: int) -> None:
    print("| dealer | game | rule | the bug | caught at | runs rejected |")
    print("| --- | --- | --- | --- | --- | --- |")
    for dealer in DEALERS.values():
        size, count = power(dealer, trials, caught)
        where = "not on the grid" if size is None else f"{size} {UNIT[dealer.game]}"
        print(f"| `{dealer.name}` | {dealer.game} | {', '.join(dealer.rules)} | {dealer.bug} "
              f"| {where} | {count} of {trials} |", flush=True)
    print()


def fair(trials: int) -> None:
    print("| dealer | outcomes | runs rejected | share | 95% upper bound | as many or more at 1% |")
    print("| --- | --- | --- | --- | --- | --- |")
    for game, dealer in FAIR.items():
        for size in FALSE_ALARM_SIZES[game]:
            count = flagged(dealer, size, trials)
            print(f"| {game} `{dealer.name}` | {size} {UNIT[game]} | {count} of {trials} | "
                  f"{100 * count / trials:.1f}% | {100 * upper_bound(count, trials):.2f}% | "
                  f"{at_least(count, trials, 0.01):.2f} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
