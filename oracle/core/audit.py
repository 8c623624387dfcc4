"""``audit``: are the chance outcomes of game records the ones the rules' shuffle gives?

The rules make every chance outcome of the games here a uniform shuffle of a known multiset
(a deck of cards, a box of tiles) cut into places (a removed card, hands, a draw pile, the
spaces of a board). So the exact distribution of what lies in each place follows from the
counts in the spec, by combinatorics alone, and records can be judged against it: this module
holds the statistics that serve any game, and each game's part
(``hanamikoji.oracle.<game>.audit``, :class:`AuditExtension`) says which places its outcomes
have and which rule each test checks.

The tests, all one-sided against the fair shuffle:

- **goodness of fit of one place** (:func:`place_test`): the kinds found in a place of ``R``
  of the ``N`` items, summed over ``n`` outcomes, against ``n R c_k / N``. One outcome's counts
  are multivariate hypergeometric, whose covariance is ``(N - R) / (N - 1)`` times the
  multinomial's, so Pearson's statistic times ``(N - 1) / (N - R)`` is chi-square with
  ``K - 1`` degrees of freedom (an approximation, close for a hand of 6: as measured by
  dev/audit_calibration.py); for ``R = 1`` the exact test below;
- **all places at once** (:func:`table_test`): the places-by-kinds table of a shuffle has the
  covariance of a contingency table with fixed margins (rows: the places' sizes; columns: the
  kinds' counts) times one; Pearson's statistic times ``(N - 1) / N`` is chi-square with
  ``(rows - 1)(kinds - 1)`` degrees of freedom;
- **repeated outcomes** (:func:`collision_test`): the number of pairs of equal outcomes, whose
  mean under the fair shuffle is exact (``pairs x sum p^2``, the sum taken by the game over
  every distinct outcome), with its exact variance; the p-value is the least of three upper
  bounds on its exact tail (:func:`collision_tail`: Markov's, Cantelli's, and the Poisson
  tail plus Stein-Chen's bound on its error).

A place of one item (``R = 1``) is judged by an exact test instead of Pearson's chi-square
(:func:`exact_multinomial`: a chain of exact binomials, valid at every level), and places of one
item each, all at once, by :func:`each_place_test` (each exactly, Bonferroni over the places).
Kinds are pooled, the rarest first, until every expected count is at least 5 (Cochran's rule),
and a test with fewer than two cells left has too few outcomes to judge: it says how many it
needs. The family has one false-alarm rate, kept by Holm's method (:func:`holm`). The p-values
use the standard library only (:func:`chi_square_sf`, the regularized incomplete gamma
function); the tests check them against tabulated values and, where installed, SciPy.
"""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from statistics import NormalDist
from typing import Any, Callable, Hashable, Iterable, Mapping, Sequence

import attrs

from hanamikoji.engine.core.game import Game
from hanamikoji.engine.core.words import options_text

#: The family's false-alarm rate unless ``--alpha`` says otherwise.
ALPHA = 0.01
#: Cochran's rule: the least expected count of a cell of a chi-square test.
MIN_EXPECTED = 5.0


# --- the distributions ----------------------------------------------------------------------


def _gamma_series(a: float, x: float) -> float:
    """The regularized lower incomplete gamma function P(a, x) by its series (x < a + 1)."""
    term = total = 1.0 / a
    n = a
    for _ in range(100_000):
        n += 1.0
        term *= x / n
        total += term
        if abs(term) < abs(total) * 1e-16:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gamma_fraction(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x) by Lentz's continued fraction
    (x >= a + 1)."""
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 100_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        step = d * c
        h *= step
        if abs(step - 1.0) < 1e-16:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def gamma_p(a: float, x: float) -> float:
    """P(a, x), the regularized lower incomplete gamma function.

    >>> round(gamma_p(1.0, 1.0), 12) == round(1 - math.exp(-1), 12)
    True
    """
    if x <= 0:
        return 0.0
    return _gamma_series(a, x) if x < a + 1 else 1.0 - _gamma_fraction(a, x)


def gamma_q(a: float, x: float) -> float:
    """Q(a, x) = 1 - P(a, x), computed without cancellation in either tail."""
    if x <= 0:
        return 1.0
    return 1.0 - _gamma_series(a, x) if x < a + 1 else _gamma_fraction(a, x)


def chi_square_sf(x: float, df: float) -> float:
    """P(X >= x) for X chi-square with ``df`` degrees of freedom.

    >>> round(chi_square_sf(3.841458820694124, 1), 6)
    0.05
    """
    return gamma_q(df / 2.0, x / 2.0)


def poisson_at_least(k: int, mean: float) -> float:
    """P(X >= k) for X Poisson with ``mean``: P(k, mean), the lower incomplete gamma.

    >>> round(poisson_at_least(1, 2.0), 12) == round(1 - math.exp(-2), 12)
    True
    """
    if k <= 0:
        return 1.0
    if mean <= 0:
        return 0.0
    return gamma_p(float(k), mean)


def _log_binomial_pmf(k: int, n: int, p: float) -> float:
    return (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
            + (k * math.log(p) if k else 0.0) + ((n - k) * math.log1p(-p) if n - k else 0.0))


def _log_tail(k: int, n: int, p: float, step: int) -> float:
    """log P(X = k) + log of the sum of P(X = j) / P(X = k) for j = k, k + step, ... to the
    end of the support, X binomial (``n``, ``p``): exact to rounding when the terms fall from
    ``k`` on (``k`` at or past the mode in the direction ``step``), summed until they are too
    small to change the total."""
    total = term = 1.0
    j = k
    while 0 <= j + step <= n:
        # P(X = j + 1) / P(X = j) = (n - j) p / ((j + 1)(1 - p)), and its inverse downwards.
        term *= ((n - j) * p / ((j + 1) * (1 - p)) if step > 0
                 else j * (1 - p) / ((n - j + 1) * p))
        j += step
        total += term
        if term < total * 1e-17:
            break
    return _log_binomial_pmf(k, n, p) + math.log(total)


def binomial_log_tails(k: int, n: int, p: float) -> tuple[float, float]:
    """(log P(X <= k), log P(X >= k)) for X binomial (``n``, ``p``), exact to rounding: each
    tail is summed from ``k`` outwards where its terms fall, and is one minus the other tail
    where they do not (then it is at least about a half, so nothing cancels).

    >>> [round(math.exp(t), 12) for t in binomial_log_tails(1, 2, 0.5)]
    [0.75, 0.75]
    """
    if p <= 0.0 or p >= 1.0:
        below, above = (k >= 0, k <= 0) if p <= 0.0 else (k >= n, k <= n)
        return (0.0 if below else -math.inf), (0.0 if above else -math.inf)
    mode = math.floor((n + 1) * p)
    if k <= mode:
        lower = _log_tail(k, n, p, -1)
        upper = math.log1p(-math.exp(_log_tail(k - 1, n, p, -1))) if k > 0 else 0.0
    else:
        upper = _log_tail(k, n, p, 1)
        lower = math.log1p(-math.exp(_log_tail(k + 1, n, p, 1))) if k < n else 0.0
    return min(lower, 0.0), min(upper, 0.0)


# --- the tests ------------------------------------------------------------------------------


@attrs.frozen
class Test:
    """One test of the family: what it found, against which rule, and how sure.

    ``finding`` is the sentence a person reads (``the removed card was G in 973 of 973 rounds
    (expected 23.8%)``), ``meaning`` what a failure says (``deals are not a uniform shuffle``);
    ``p_value`` is None when there are too few outcomes to judge, and ``needed`` is how many
    the test needs. ``failed`` is set by :func:`holm`."""

    name: str
    rules: tuple[str, ...]
    statistic: float
    method: str
    p_value: float | None
    finding: str
    meaning: str
    have: int
    needed: int
    failed: bool = False
    #: What a plot shows: (label, observed, expected) of each cell before pooling.
    cells: tuple[tuple[str, float, float], ...] = ()

    def sentence(self) -> str:
        tail = f": {self.meaning}" if self.failed else ""
        return f"{self.finding}{tail} [{', '.join(self.rules)}]"

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "rules": list(self.rules), "statistic": self.statistic,
                "method": self.method, "p_value": self.p_value, "failed": self.failed,
                "judged": self.p_value is not None, "outcomes": self.have,
                "needed": self.needed, "sentence": self.sentence()}


def _pooled(cells: Sequence[tuple[Any, float, float]]) -> list[tuple[list[Any], float, float]]:
    """``cells`` (label, observed, expected) merged, the smallest expected into the next
    smallest, until every expected count is at least :data:`MIN_EXPECTED` (or one is left)."""
    groups = sorted(([label], float(obs), float(exp)) for label, obs, exp in cells)
    groups.sort(key=lambda g: g[2])
    while len(groups) > 1 and groups[0][2] < MIN_EXPECTED:
        first, second = groups[0], groups[1]
        merged = (first[0] + second[0], first[1] + second[1], first[2] + second[2])
        groups = sorted([merged] + groups[2:], key=lambda g: g[2])
    return groups


def _cells_enough(expected_one: Sequence[float], n: int) -> bool:
    """Whether ``n`` outcomes give at least two cells once pooled."""
    return len(_pooled([(i, 0.0, e * n) for i, e in enumerate(expected_one)])) >= 2


def outcomes_needed(expected_one: Sequence[float]) -> int:
    """The fewest outcomes at which a test whose cells expect ``expected_one`` each per
    outcome has at least two cells after pooling."""
    low, high = 1, 1
    while not _cells_enough(expected_one, high):
        low, high = high + 1, high * 2
    while low < high:
        middle = (low + high) // 2
        if _cells_enough(expected_one, middle):
            high = middle
        else:
            low = middle + 1
    return high


def _worst(cells: Sequence[tuple[Any, float, float]]) -> tuple[Any, float, float]:
    """The cell farthest from its expected count, in standard units (the first of equals)."""
    return max(cells, key=lambda c: abs(c[1] - c[2]) / math.sqrt(c[2]) if c[2] > 0 else 0.0)


#: Below this a p-value is taken as this, for :func:`chi_square_one`: a smaller chi-square
#: value than the exact one only makes a test more cautious.
TINY = 1e-300


def chi_square_one(log_p: float) -> float:
    """The value of a chi-square with 1 df whose upper tail is ``exp(log_p)`` (``z^2`` for the
    two-sided normal p-value), from the standard library's normal quantile; a p-value below
    :data:`TINY` is taken as :data:`TINY`, so the value is never more than the exact one (to rounding)."""
    if log_p >= 0.0:
        return 0.0
    z = NormalDist().inv_cdf(max(math.exp(log_p), TINY) / 2)
    return z * z


def binomial_two_sided(k: int, n: int, p: float) -> float:
    """log P(|X - n p| >= |k - n p|) for X binomial (``n``, ``p``): the exact two-sided
    p-value of ``k`` by its distance from the mean (the mirror point counted in, which can
    only make it larger)."""
    mean = n * p
    lower, upper = binomial_log_tails(k, n, p)
    if k >= mean:
        mirror = math.floor(2 * mean - k + 1e-9)
        other = binomial_log_tails(mirror, n, p)[0] if mirror >= 0 else -math.inf
        near = upper
    else:
        mirror = math.ceil(2 * mean - k - 1e-9)
        other = binomial_log_tails(mirror, n, p)[1] if mirror <= n else -math.inf
        near = lower
    high = max(near, other)
    if high == -math.inf:
        return -math.inf
    return min(0.0, high + math.log1p(math.exp(min(near, other) - high)))


def exact_multinomial(cells: Sequence[tuple[Any, float, float]]) -> tuple[float, int, float]:
    """A test of counts ``cells`` (label, observed, expected) against the multinomial whose
    shares are the expected counts over their sum, valid at every level: its statistic, its
    degrees of freedom and its p-value.

    The multinomial is a chain of binomials: the first cell (the likeliest) holds
    ``Bin(n, pi_1)`` of the ``n`` outcomes, the next ``Bin(n - o_1, pi_2 / (1 - pi_1))`` of the
    rest, and so on to the last, which holds what is left. ``p_j`` is the exact two-sided
    p-value of cell ``j`` given the cells before it (:func:`binomial_two_sided`): whatever
    those hold, ``P(p_j <= a) <= a`` for every ``a``, so ``T_j``, the chi-square (1 df) value
    whose tail is ``p_j`` (:func:`chi_square_one`), is stochastically at most chi-square with
    1 df given the ones before, and their sum at most chi-square with ``cells - 1`` df. So
    ``P(p <= a) <= a`` at every level and any number of outcomes (a discrete count only makes
    the test more cautious); with many outcomes ``T_j`` is the chain's squared standard score
    and the sum is Pearson's statistic. Pearson's statistic read against the chi-square
    itself rejects too often in the far tail: at 100 outcomes of the 7 kinds of a removed
    card, 1.16 times the nominal rate at 0.001 and 1.25 times at 0.0002
    (dev/audit_calibration.py)."""
    ordered = sorted(cells, key=lambda c: -c[2])
    left = int(sum(c[1] for c in ordered))
    statistic = 0.0
    for j, (_, observed, expected) in enumerate(ordered[:-1]):
        rest = sum(c[2] for c in ordered[j:])
        if left > 0:
            statistic += chi_square_one(
                binomial_two_sided(int(observed), left, min(1.0, expected / rest)))
        left -= int(observed)
    df = len(ordered) - 1
    return statistic, df, chi_square_sf(statistic, df)


def place_test(name: str, rules: Sequence[str], n: int, observed: Mapping[Any, int],
               counts: Mapping[Any, int], size: int,
               finding: Callable[[Any, int, float], str], meaning: str) -> Test:
    """The kinds found in one place of ``size`` of the shuffled items, over ``n`` outcomes,
    against the shuffle: ``observed[kind]`` is how many items of that kind lay there in all,
    ``counts[kind]`` how many of the kind are shuffled. ``finding(kind, observed, expected)``
    is the sentence about the kind farthest from its expected count."""
    total = sum(counts.values())
    share = {k: size * c / total for k, c in counts.items()}
    needed = outcomes_needed(list(share.values()))
    cells = [(k, float(observed.get(k, 0)), n * share[k]) for k in counts]
    kind, obs, exp = _worst(cells) if n else (next(iter(counts)), 0.0, 0.0)
    if n < needed:
        return Test(name, tuple(rules), 0.0, "chi-square", None, finding(kind, int(obs), exp),
                    "", n, needed)
    pooled = _pooled(cells)
    if size == 1:
        statistic, df, p = exact_multinomial(pooled)
        method = f"exact binomials, chi-square, {df} df"
    else:
        x2 = sum((o - e) ** 2 / e for _, o, e in pooled)
        scale = (total - 1) / (total - size) if size < total else 1.0
        df = len(pooled) - 1
        statistic, method = x2 * scale, f"chi-square, {df} df"
        p = chi_square_sf(statistic, df)
    return Test(name, tuple(rules), statistic, method, p, finding(kind, int(obs), exp), meaning,
                n, needed, cells=tuple((str(k), o, e) for k, o, e in cells))


def table_test(name: str, rules: Sequence[str], n: int,
               observed: Mapping[tuple[Any, Any], int], sizes: Mapping[Any, int],
               counts: Mapping[Any, int], finding: Callable[[Any, Any, int, float], str],
               meaning: str) -> Test:
    """Every place at once: ``observed[(place, kind)]`` items of a kind found in a place over
    ``n`` outcomes, the places of ``sizes`` and the kinds of ``counts`` (the same total). Kinds
    are pooled until every cell expects at least :data:`MIN_EXPECTED`; ``finding(place, kind,
    observed, expected)`` describes the cell farthest from its expected count."""
    total = sum(counts.values())
    least = min(sizes.values())
    needed = outcomes_needed([least * c / total for c in counts.values()])
    cells = [((p, k), float(observed.get((p, k), 0)), n * r * c / total)
             for p, r in sizes.items() for k, c in counts.items()]
    (place, kind), obs, exp = _worst(cells) if n else ((next(iter(sizes)), next(iter(counts))),
                                                      0.0, 0.0)
    text = finding(place, kind, int(obs), exp)
    if n < needed or len(sizes) < 2:
        return Test(name, tuple(rules), 0.0, "chi-square", None, text, "", n, needed)
    # Pool kinds as a whole column, by the least place's expected count.
    columns = _pooled([(k, 0.0, n * least * c / total) for k, c in counts.items()])
    x2 = 0.0
    for place_, r in sizes.items():
        for labels, _, _ in columns:
            o = sum(observed.get((place_, k), 0) for k in labels)
            e = n * r * sum(counts[k] for k in labels) / total
            x2 += (o - e) ** 2 / e
    df = (len(sizes) - 1) * (len(columns) - 1)
    statistic = x2 * (total - 1) / total
    return Test(name, tuple(rules), statistic, f"chi-square, {df} df",
                chi_square_sf(statistic, df), text, meaning, n, needed)


def each_place_test(name: str, rules: Sequence[str], n: int,
                    observed: Mapping[tuple[Any, Any], int], places: Sequence[Any],
                    counts: Mapping[Any, int], finding: Callable[[Any, Any, int, float], str],
                    meaning: str) -> Test:
    """Places of one item each (a board's spaces), every one at once: ``observed[(place,
    kind)]`` items of a kind found in a place over ``n`` outcomes, against ``n c_k / N``.

    Each place is its own multinomial, judged exactly (:func:`exact_multinomial`, kinds
    pooled to :data:`MIN_EXPECTED`), and the test's p-value is the least of them times the
    number of places (Bonferroni's bound, at most 1): valid at every level whatever the
    dependence between the places of one shuffle. Pearson's statistic over the whole
    places-by-kinds table is only approximately chi-square (with 60 spaces and 28 tiles, 1,593
    df), and no bound makes it valid at every level."""
    total = sum(counts.values())
    share = {k: c / total for k, c in counts.items()}
    needed = outcomes_needed(list(share.values()))
    cells = [((p, k), float(observed.get((p, k), 0)), n * share[k]) for p in places
             for k in counts]
    (place, kind), obs, exp = _worst(cells) if n else ((places[0], next(iter(counts))),
                                                      0.0, 0.0)
    text = finding(place, kind, int(obs), exp)
    if n < needed or not places:
        return Test(name, tuple(rules), 0.0, "exact", None, text, "", n, needed)
    columns = _pooled([(k, 0.0, n * share[k]) for k in counts])
    # The statistic shown is that of the place with the least p-value.
    statistic, least = 0.0, 2.0
    for place_ in places:
        row = [(labels, float(sum(observed.get((place_, k), 0) for k in labels)), e)
               for labels, _, e in columns]
        fisher, _, p = exact_multinomial(row)
        if p < least:
            statistic, least = fisher, p
    method = (f"exact binomials, chi-square, {len(columns) - 1} df, the least p of "
              f"{len(places)} places times {len(places)}")
    return Test(name, tuple(rules), statistic, method, min(1.0, least * len(places)), text,
                meaning, n, needed)


@attrs.frozen
class Collisions:
    """What a fair shuffle says of repeated outcomes: ``distinct`` outcomes, ``square`` the sum
    of their probabilities squared (two outcomes equal), ``cube`` cubed (three equal)."""

    distinct: int
    square: float
    cube: float


def collision_test(name: str, rules: Sequence[str], groups: Iterable[Sequence[Hashable]],
                   fair: Collisions, finding: Callable[[int, float], str], meaning: str) -> Test:
    """Pairs of equal outcomes within each of ``groups`` (all outcomes as one group: every
    pair), against their exact mean under the fair shuffle. ``finding(pairs, expected)``.

    The p-value is :func:`collision_tail`, an upper bound on the exact chance of as many
    pairs or more, so it is valid at every level."""
    q, s3 = fair.square, fair.cube
    pairs = mean = variance = stein = 0.0
    count = 0
    for group in groups:
        r = len(group)
        count += r
        pairs += sum(m * (m - 1) // 2 for m in Counter(group).values())
        mean += r * (r - 1) / 2 * q
        variance += r * (r - 1) / 2 * (q - q * q) + r * (r - 1) * (r - 2) * (s3 - q * q)
        # Stein-Chen's b1 + b2: a pair's neighbours are itself and the 2 (r - 2) pairs that
        # share one outcome with it (both equal to it: three equal outcomes, ``s3``).
        stein += r * (r - 1) / 2 * ((2 * r - 3) * q * q + 2 * (r - 2) * s3)
    found = int(pairs)
    text = finding(found, mean)
    if mean <= 0:
        return Test(name, tuple(rules), float(found), "pairs", None if count < 2 else
                    (1.0 if found == 0 else 0.0), text, meaning, count, 2)
    p = collision_tail(found, mean, variance, stein)
    method = f"pairs, mean {mean:.4g}, sd {math.sqrt(variance):.4g}"
    return Test(name, tuple(rules), float(found), method, p, text, meaning, count, 2,
                cells=(("pairs of equal outcomes", float(found), mean),))


def collision_tail(found: int, mean: float, variance: float, stein: float) -> float:
    """An upper bound on P(X >= found) for X the number of pairs of equal outcomes, from its
    exact ``mean`` and ``variance`` and Stein-Chen's ``b1 + b2`` (``stein``): the least of

    - Markov's ``mean / found`` (X is never negative);
    - Cantelli's ``variance / (variance + (found - mean)^2)`` when ``found > mean``;
    - the Poisson tail at ``mean`` plus the bound on the distance between X's distribution
      and that Poisson's, ``stein * (1 - exp(-mean)) / mean`` (Arratia, Goldstein and Gordon
      1989, Theorem 1: a pair's indicator is independent of every pair not sharing an
      outcome with it, so their ``b3`` is 0).

    Each is at least the exact tail, so their least is too, and P(p <= a) <= a at every
    level: the Poisson tail alone is short of the exact tail at some counts (the pairs are not
    independent: three equal outcomes make three pairs at once)."""
    if found <= 0:
        return 1.0
    bounds = [mean / found,
              poisson_at_least(found, mean) + stein * -math.expm1(-mean) / mean]
    if found > mean:
        bounds.append(variance / (variance + (found - mean) ** 2))
    return min(1.0, *bounds)


def holm(tests: Sequence[Test], alpha: float) -> list[Test]:
    """``tests`` with ``failed`` set by Holm's step-down method at family rate ``alpha``: the
    smallest p-value against alpha/m, the next against alpha/(m-1), ..., stopping at the first
    that passes. Tests with too few outcomes are not in the family."""
    judged = sorted((t.p_value, i) for i, t in enumerate(tests) if t.p_value is not None)
    failed: set[int] = set()
    for rank, (p, index) in enumerate(judged):
        if p > alpha / (len(judged) - rank):
            break
        failed.add(index)
    return [attrs.evolve(t, failed=i in failed) for i, t in enumerate(tests)]


# --- allocations: the exact sums over every distinct outcome --------------------------------


def allocation_sum(counts: Sequence[int], sizes: Sequence[int],
                   weight: Callable[[int, int], float]) -> float:
    """The sum, over every way to put ``counts[k]`` items of each kind into places of
    ``sizes`` (``sum(counts) == sum(sizes)``), of the product of ``weight(place, a)`` over
    places and kinds, ``a`` the items of that kind in that place. Kind by kind, keeping the
    filling of every place but the last (which takes the rest). Each kind's splits over those
    places come in lexicographic order and every product is taken place by place, so the sum
    is the same to the last bit however it is computed; the weights are looked up in a table
    (``diff``'s check of seeded chance waits for this sum: Hanamikoji's deal takes about
    0.02 s)."""
    head = tuple(sizes[:-1])
    states: dict[tuple[int, ...], float] = {(0,) * len(head): 1.0}
    last = len(sizes) - 1
    most = max(counts, default=0)
    tables = [[weight(place, a) for a in range(most + 1)] for place in range(len(sizes))]
    ends, heads = tables[last], tables[:last]
    for c in counts:
        nxt: dict[tuple[int, ...], float] = {}
        for filled, value in states.items():
            # every split with at most c items, at most its room in each place
            for split in itertools.product(*(range(min(c, s - f) + 1)
                                             for s, f in zip(head, filled))):
                rest = c - sum(split)
                if rest < 0:
                    continue
                w = value * ends[rest]
                for table, a in zip(heads, split):
                    w *= table[a]
                key = tuple(f + a for f, a in zip(filled, split))
                nxt[key] = nxt.get(key, 0.0) + w
        states = nxt
    return states.get(head, 0.0)


def shuffle_collisions(counts: Sequence[int], places: Sequence[tuple[int, bool]]) -> Collisions:
    """The fair shuffle's :class:`Collisions` for outcomes that cut a shuffle of ``counts``
    items of each kind into ``places`` (size, ordered): an unordered place is known by the
    kinds it holds, an ordered one (a draw pile) by their order. The probability of an outcome
    is ``prod(c_k!) / N!`` times ``|P|! / prod(a_Pk!)`` for each unordered place ``P``; an
    ordered place of kinds ``a_P`` is ``|P|! / prod(a_Pk!)`` distinct outcomes of that
    probability each."""
    total = sum(counts)
    sizes = [s for s, _ in places]
    base = sum(math.lgamma(c + 1) for c in counts) - math.lgamma(total + 1)

    def distinct() -> int:
        def weight(place: int, a: int) -> float:
            return 1.0 / math.factorial(a) if places[place][1] else 1.0

        shape = math.prod(math.factorial(s) for s, o in places if o)
        return round(shape * allocation_sum(counts, sizes, weight))

    return Collisions(distinct(), _power_sum(counts, places, base, 2),
                      _power_sum(counts, places, base, 3))


def _power_sum(counts: Sequence[int], places: Sequence[tuple[int, bool]], base: float,
               power: int) -> float:
    """The sum of p^power over every distinct outcome: each allocation of kinds to places
    is prod(|P|! / prod a!) outcomes over the ordered places, each of probability
    exp(base) * prod(|P|! / prod a!) over the unordered ones."""
    sizes = [s for s, _ in places]

    def weight(place: int, a: int) -> float:
        return (1.0 / math.factorial(a)) if places[place][1] else math.factorial(a) ** -power

    shape = sum(math.lgamma(s + 1) * (1 if o else power) for s, o in places)
    return math.exp(power * base + shape) * allocation_sum(counts, sizes, weight)


# --- the audit ------------------------------------------------------------------------------


@attrs.frozen
class Group:
    """The outcomes of one game under one set of options, as its extension judged them."""

    game: str
    options: tuple[tuple[str, Any], ...]
    unit: str  # what one outcome is called: "round", "layout"
    outcomes: int
    tests: tuple[Test, ...]
    notes: tuple[str, ...] = ()


@attrs.frozen
class Audit:
    """The verdict on every chance outcome of some records: ``.ok`` when no test failed and
    every test had enough outcomes to judge; ``exit_code`` 1 when a test failed, 2 when none
    did but some had too few outcomes, else 0."""

    alpha: float
    groups: tuple[Group, ...]

    @property
    def tests(self) -> list[Test]:
        return [t for g in self.groups for t in g.tests]

    @property
    def failed(self) -> list[Test]:
        return [t for t in self.tests if t.failed]

    @property
    def unjudged(self) -> list[Test]:
        return [t for t in self.tests if t.p_value is None]

    @property
    def ok(self) -> bool:
        return not self.failed and not self.unjudged and bool(self.groups)

    @property
    def exit_code(self) -> int:
        if self.failed:
            return 1
        return 0 if self.ok else 2

    def verdict(self) -> str:
        judged = len(self.tests) - len(self.unjudged)
        if self.failed:
            return (f"FAIL: {len(self.failed)} of {judged} tests reject the fair shuffle at a "
                    f"family false-alarm rate of {self.alpha:g} (Holm)")
        if not self.groups:
            return "too few outcomes to judge: the records hold no chance outcome"
        if self.unjudged:
            most = max(self.unjudged, key=lambda t: t.needed)
            group = next(g for g in self.groups if most in g.tests)
            return (f"too few outcomes to judge: {most.name} needs at least {most.needed} "
                    f"{group.unit}s, and there are {most.have}")
        return (f"pass: none of {judged} tests rejects the fair shuffle at a family false-alarm "
                f"rate of {self.alpha:g} (Holm)")

    def __str__(self) -> str:
        lines = []
        for group in self.groups:
            described = options_text(dict(group.options))
            lines.append(f"{group.outcomes} {group.unit}s of {group.game} ({described})")
            for test in group.tests:
                mark = "FAIL" if test.failed else ("    " if test.p_value is not None else "n/a ")
                lines.append(f"{mark} {test.name}: {test.sentence()} ({_judged(test)})")
            for note in group.notes:
                lines.append(f"note: {note}")
            lines.append("")
        lines.append(self.verdict())
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {"alpha": self.alpha, "ok": self.ok, "exit_code": self.exit_code,
                "verdict": self.verdict(),
                "groups": [{"game": g.game, "options": dict(g.options), "unit": g.unit,
                            "outcomes": g.outcomes, "tests": [t.to_json() for t in g.tests],
                            "notes": list(g.notes)} for g in self.groups]}


def _judged(test: Test) -> str:
    if test.p_value is None:
        return f"needs {test.needed}, has {test.have}"
    p = "p < 1e-300" if test.p_value < 1e-300 else f"p = {test.p_value:.3g}"
    return f"{test.method}, statistic {test.statistic:.4g}, {p}"


class AuditExtension:
    """A game's part of ``audit``: the default knows no chance outcome of the game.

    :meth:`outcomes` takes from each record, as it is read, only what the tests need (so that
    a hundred thousand records are not held as states), and :meth:`tests` judges them."""

    unit = "outcome"

    def __init__(self, game: Game) -> None:
        self.game = game

    def outcomes(self, final: Any) -> Any:
        """What the tests need of the final state ``final``: its chance outcomes, compactly."""
        return None

    def tests(self, outcomes: Sequence[Any], rebuilt: bool = False) -> tuple[int, list[Test],
                                                                             list[str]]:
        """The number of outcomes in ``outcomes`` (:meth:`outcomes` of each record of one set
        of options), the tests of them and notes. ``rebuilt``: the records came from a
        notation whose outcomes were rebuilt from the moves, so only what the moves show may
        be tested."""
        return 0, [], [f"audit knows no chance outcome of {self.game.name}"]


def hooks(game: Game) -> AuditExtension:
    from hanamikoji.oracle.core.extension import extension

    return extension("audit", game, AuditExtension)


def audit(finals: Iterable[tuple[Game, Any]], alpha: float = ALPHA,
          rebuilt: bool = False) -> Audit:
    """Judge the chance outcomes of the final states ``finals`` ((game, state) pairs), grouped
    by game and options, as one family of tests at false-alarm rate ``alpha``."""
    grouped: dict[tuple[str, str], tuple[Game, dict[str, Any], list[Any]]] = {}
    for game, final in finals:
        options = game.options_of(game.config_of(final))
        key = (game.name, json.dumps(options, sort_keys=True, default=str))
        grouped.setdefault(key, (game, options, []))[2].append(hooks(game).outcomes(final))
    groups = []
    for game, options, outcomes in grouped.values():
        ext = hooks(game)
        count, tests, notes = ext.tests(outcomes, rebuilt)
        groups.append(Group(game.name, tuple(options.items()), ext.unit, count, tuple(tests),
                            tuple(notes)))
    family = holm([t for g in groups for t in g.tests], alpha)
    judged = iter(family)
    return Audit(alpha, tuple(attrs.evolve(g, tests=tuple(next(judged) for _ in g.tests))
                              for g in groups))
