"""How often each of ``audit``'s tests rejects a fair shuffle at a fixed nominal level: the
evidence behind the choice of each test's p-value (docs/audit.md, "How the p-values are
computed"). ``python dev/audit_calibration.py MODE`` (NumPy, for the sampling only):

- ``single``: a place of one card (the removed card, a draw) over 100 and 1,000 rounds,
  400,000 samples each: Pearson's chi-square against the exact test (``--exact``, slow);
- ``pairs``: Maiko's pairs of tiles over 100 and 1,000 layouts, 400,000 samples each (likewise);
- ``hand``: a hand of 6 of the 21 cards, 100 and 300 rounds, 100,000 samples;
- ``table``: Hanamikoji's ``every place`` at 100 rounds, 30,000 samples;
- ``runs``: each test of the product, as ``audit`` runs it, on the seeded fair runs of
  dev/audit_power.py (``--game``, ``--size``, ``--runs``), counted at each level.

Each line gives, for each level ``a``, the share of samples with ``p <= a`` over ``a``: a valid
test stays at or below 1 (up to the sampling error: about ``1 / sqrt(a x samples)``).
Deterministic: NumPy's generator is seeded 12345 for each mode.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from hanamikoji.oracle.core.audit import _pooled, chi_square_sf, exact_multinomial  # noqa: E402

LEVELS = (0.01, 0.001, 0.0002)
KINDS = (2, 2, 2, 3, 3, 4, 5)


def line(name: str, ps: list[float]) -> str:
    return f"{name}, {len(ps)} samples: " + ", ".join(
        f"at {a}: {sum(p <= a for p in ps) / len(ps) / a:.3f}" for a in LEVELS)


def multinomial(np, rng, name: str, shares: list[float], sizes: tuple[int, ...], samples: int,
                exact: bool) -> None:
    for n in sizes:
        groups = _pooled([(i, 0.0, n * q) for i, q in enumerate(shares)])
        drawn = rng.multinomial(n, shares, size=samples)
        pearson, exact_ps = [], []
        for row in drawn:
            cells = [(g, float(sum(row[i] for i in g)), e) for g, _, e in groups]
            x2 = sum((o - e) ** 2 / e for _, o, e in cells)
            pearson.append(chi_square_sf(x2, len(cells) - 1))
            if exact:
                exact_ps.append(exact_multinomial(cells)[2])
        print(line(f"{name}, {n} outcomes, {len(groups)} cells, Pearson's chi-square", pearson),
              flush=True)
        if exact:
            print(line(f"{name}, {n} outcomes, the exact test", exact_ps), flush=True)


def hand(np, rng, samples: int) -> None:
    kinds = np.array(KINDS)
    for n in (100, 300):
        total = np.zeros((samples, len(KINDS)))
        for _ in range(n):
            total += rng.multivariate_hypergeometric(kinds, 6, size=samples)
        expected = n * 6 * kinds / 21
        x2 = ((total - expected) ** 2 / expected).sum(1) * 20 / 15
        print(line(f"a hand, {n} rounds", [chi_square_sf(x, 6) for x in x2]), flush=True)


def table(np, rng, samples: int) -> None:
    kinds = np.array(KINDS)
    deck = np.repeat(np.arange(len(KINDS)), kinds)
    sizes = [1, 6, 6] + [1] * 8
    bounds = np.cumsum([0] + sizes)
    n, ps = 100, []
    chunk = 2000
    for start in range(0, samples, chunk):
        b = min(chunk, samples - start)
        cut = deck[np.argsort(rng.random((b, n, 21)), axis=2)]
        observed = np.stack([np.stack([(cut[:, :, bounds[i]:bounds[i + 1]] == k).sum((1, 2))
                                       for k in range(len(KINDS))], 1)
                             for i in range(len(sizes))], 1)
        expected = n * np.array(sizes)[:, None] * kinds[None, :] / 21
        x2 = ((observed - expected) ** 2 / expected).sum((1, 2)) * 20 / 21
        ps.extend(chi_square_sf(x, 60) for x in x2)
    print(line(f"every place, {n} rounds", ps), flush=True)


def runs(game: str, size: int, count: int) -> None:
    from unfair_dealers import FAIR, run_tests

    found: dict[str, list[float]] = {}
    for seed in range(count):
        for test in run_tests(FAIR[game], size, seed, 0.01):
            if test.p_value is not None:
                found.setdefault(test.name, []).append(test.p_value)
    for name, ps in found.items():
        print(line(f"{game}, {size} outcomes, {name}", ps), flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("single", "pairs", "hand", "table", "runs"))
    parser.add_argument("--samples", type=int)
    parser.add_argument("--exact", action="store_true")
    parser.add_argument("--game", default="hanamikoji")
    parser.add_argument("--size", type=int, default=100)
    parser.add_argument("--runs", type=int, default=1000)
    args = parser.parse_args(argv)
    if args.mode == "runs":
        runs(args.game, args.size, args.runs)
        return 0
    import numpy as np

    rng = np.random.default_rng(12345)
    if args.mode == "single":
        multinomial(np, rng, "one card", [k / 21 for k in KINDS], (100, 1000),
                    args.samples or 400_000, args.exact)
    elif args.mode == "pairs":
        spaces = 60
        shares = [2 * (spaces - d) / (spaces * (spaces - 1)) for d in range(1, spaces)]
        multinomial(np, rng, "pairs of tiles", shares, (100, 1000), args.samples or 400_000,
                    args.exact)
    elif args.mode == "hand":
        hand(np, rng, args.samples or 100_000)
    else:
        table(np, rng, args.samples or 30_000)
    return 0


if __name__ == "__main__":
    sys.exit(main())
