"""``hanamikoji audit``: the p-values against tables and SciPy, the exact sums over distinct
outcomes against enumeration, the scale factors of the tests against exact expectations, the
verdicts on our own engine's games and on unfair dealers' (as records and as the course's
notation), the exit codes, and the power table of docs/audit.md at small sizes."""

from __future__ import annotations

import itertools
import json
import math
import pathlib
import random
import re
import sys
from collections import Counter
from fractions import Fraction

import pytest

from hanamikoji.cli.main import main
from hanamikoji.engine.hanamikoji import cards as C
from hanamikoji.engine.hanamikoji.game import random_deal
from hanamikoji.oracle.core.audit import (Collisions, Test as Judged, binomial_log_tails,
                                          each_place_test,
                                          chi_square_sf, collision_test, exact_multinomial,
                                          holm, place_test, poisson_at_least,
                                          shuffle_collisions)
from hanamikoji.oracle.hanamikoji.audit import deal_tests, fair_collisions
from hanamikoji.oracle.hanamikoji.buaa import notation_from_record
from hanamikoji.oracle.maiko.audit import layout_tests

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from unfair_dealers import DEALERS, FAIR, flagged, records_of  # noqa: E402


# --- the distributions ------------------------------------------------------------------------

#: Upper 5% and 1% points of chi-square (Pearson & Hartley's tables, to the digits printed).
TABLED = [(3.841, 1, 0.05), (6.635, 1, 0.01), (12.592, 6, 0.05), (16.812, 6, 0.01),
          (23.209, 10, 0.01), (79.082, 60, 0.05), (88.379, 60, 0.01), (124.342, 100, 0.05)]


@pytest.mark.parametrize("x, df, p", TABLED)
def test_chi_square_tail_matches_the_tables(x, df, p):
    assert chi_square_sf(x, df) == pytest.approx(p, abs=5e-5)


def test_chi_square_and_poisson_tails_match_scipy():
    stats = pytest.importorskip("scipy.stats")
    for df in (1, 6, 12, 60, 1593):
        for x in (0.5, df * 0.5, df, df + 3 * math.sqrt(2 * df), df * 3 + 40):
            assert chi_square_sf(x, df) == pytest.approx(stats.chi2.sf(x, df), rel=1e-9,
                                                         abs=1e-300)
    for mean in (1e-6, 0.3, 2.0, 37.1, 500.0):
        for k in (1, 2, 5, 40, 600):
            assert poisson_at_least(k, mean) == pytest.approx(stats.poisson.sf(k - 1, mean),
                                                              rel=1e-9, abs=1e-300)


def test_poisson_tail_is_the_sum_of_its_terms():
    for mean in (0.5, 3.0, 12.0):
        for k in (1, 3, 10):
            below = sum(math.exp(-mean) * mean ** i / math.factorial(i) for i in range(k))
            assert poisson_at_least(k, mean) == pytest.approx(1 - below, rel=1e-12)


def exact_binomial_tails(k, n, p):
    """P(X <= k) and P(X >= k) as exact fractions of the binomial's terms (``p`` a Fraction)."""
    terms = [math.comb(n, j) * p ** j * (1 - p) ** (n - j) for j in range(n + 1)]
    return float(sum(terms[:k + 1])), float(sum(terms[k:]))


@pytest.mark.parametrize("n, p", [(1, Fraction(1, 2)), (12, Fraction(2, 21)),
                                  (75, Fraction(5, 21)), (120, Fraction(1, 3))])
def test_binomial_tails_are_the_sums_of_their_terms(n, p):
    for k in range(n + 1):
        lower, upper = binomial_log_tails(k, n, float(p))
        want = exact_binomial_tails(k, n, p)
        for got, exact in zip((lower, upper), want):
            if exact > 1e-300:
                assert math.exp(got) == pytest.approx(exact, rel=1e-9)


def test_binomial_tails_match_scipy_far_out():
    stats = pytest.importorskip("scipy.stats")
    for n, p in ((1000, 5 / 21), (30_000, 2 / 21), (300_000, 0.3)):
        for z in (-30, -6, -2, 0, 2, 6, 30):
            k = min(n, max(0, round(n * p + z * math.sqrt(n * p * (1 - p)))))
            lower, upper = binomial_log_tails(k, n, p)
            assert lower == pytest.approx(stats.binom.logcdf(k, n, p), rel=1e-8, abs=1e-12)
            assert upper == pytest.approx(stats.binom.logsf(k - 1, n, p), rel=1e-8, abs=1e-12)


def every_outcome(n, kinds):
    """Every way to put ``n`` outcomes into ``kinds`` cells."""
    if kinds == 1:
        yield (n,)
        return
    for a in range(n + 1):
        for rest in every_outcome(n - a, kinds - 1):
            yield (a,) + rest


def rejection_by_level(p_value, n, shares):
    """P(p <= a) for every value ``a`` the p-value takes, by the exact multinomial
    probability of every outcome of ``n`` draws."""
    chance: dict = {}
    for outcome in every_outcome(n, len(shares)):
        prob = math.factorial(n) * math.prod(s ** a / math.factorial(a)
                                             for s, a in zip(shares, outcome))
        p = p_value([(i, float(a), n * s) for i, (s, a) in enumerate(zip(shares, outcome))])
        chance[p] = chance.get(p, 0.0) + prob
    levels, below = {}, 0.0
    for p in sorted(chance):
        below += chance[p]
        levels[p] = below
    return levels


@pytest.mark.parametrize("n, counts", [(10, C.FULL_DECK), (40, (2, 3, 5)), (9, (1, 1))])
def test_the_exact_multinomial_test_never_rejects_more_than_its_level(n, counts):
    """By every outcome's exact probability: P(p <= a) <= a at every level a the p-value
    takes (so at every a), where Pearson's chi-square, the test it replaced, breaks it."""
    shares = [c / sum(counts) for c in counts]
    exact = rejection_by_level(lambda cells: exact_multinomial(cells)[2], n, shares)
    assert all(rate <= a * (1 + 1e-9) for a, rate in exact.items())

    def pearson(cells):
        x2 = sum((o - e) ** 2 / e for _, o, e in cells)
        return chi_square_sf(x2, len(cells) - 1)

    assert any(rate > a * 1.05 for a, rate in rejection_by_level(pearson, n, shares).items()
               if a < 0.01)


def test_the_exact_multinomial_test_is_its_chain_of_binomials():
    """Each cell given the ones before it, by SciPy's binomial and normal quantile."""
    stats = pytest.importorskip("scipy.stats")
    cells = [("a", 30.0, 20.0), ("b", 5.0, 10.0), ("c", 25.0, 30.0)]
    statistic, df, p = exact_multinomial(cells)
    want, left, share_left = 0.0, 60, 1.0
    for _, o, e in sorted(cells, key=lambda c: -c[2])[:-1]:
        q = e / 60 / share_left
        dist = stats.binom(left, q)
        mean = left * q
        far = [j for j in range(left + 1) if abs(j - mean) >= abs(o - mean) - 1e-9]
        two_sided = min(1.0, sum(dist.pmf(j) for j in far))
        want += stats.chi2.isf(two_sided, 1)
        left, share_left = left - int(o), share_left - e / 60
    assert (df, statistic) == (2, pytest.approx(want, rel=1e-9))
    assert p == pytest.approx(stats.chi2.sf(want, 2), rel=1e-9)


def exact_pair_tail(shares, r):
    """P(X >= k) for every k, X the pairs of equal outcomes among ``r`` independent draws
    from ``shares``, by every sequence of draws."""
    chance: Counter = Counter()
    for seq in itertools.product(range(len(shares)), repeat=r):
        pairs = sum(m * (m - 1) // 2 for m in Counter(seq).values())
        chance[pairs] += math.prod(shares[i] for i in seq)
    return {k: sum(v for j, v in chance.items() if j >= k) for k in chance}


@pytest.mark.parametrize("shares, r", [((0.5, 0.3, 0.2), 6), ((0.7, 0.1, 0.1, 0.1), 5),
                                       ((0.1,) * 10, 4)])
def test_the_collision_p_value_is_never_below_the_exact_tail(shares, r):
    """The Poisson tail alone is below the exact one at some count (the p-value it gave was
    too small); the bound never is."""
    fair = Collisions(len(shares), sum(s * s for s in shares), sum(s ** 3 for s in shares))
    tail = exact_pair_tail(shares, r)
    for k, exact in tail.items():
        seq = _sequence_with_pairs(k, len(shares), r)
        found = collision_test("c", ["X"], [seq], fair, lambda f, m: "", "")
        assert found.statistic == k and found.p_value >= exact * (1 - 1e-12)
    mean = r * (r - 1) / 2 * fair.square
    assert any(poisson_at_least(k, mean) < exact * 0.95 for k, exact in tail.items())


def _sequence_with_pairs(k, kinds, r):
    """Some sequence of ``r`` draws of ``kinds`` values with exactly ``k`` equal pairs."""
    for seq in itertools.product(range(kinds), repeat=r):
        if sum(m * (m - 1) // 2 for m in Counter(seq).values()) == k:
            return seq
    raise AssertionError(k)


# --- exact sums over distinct outcomes ------------------------------------------------------


def brute_collisions(counts, places):
    """Every permutation of a small deck, cut into ``places`` (size, ordered)."""
    items = [k for k, c in enumerate(counts) for _ in range(c)]
    seen: Counter = Counter()
    for perm in itertools.permutations(range(len(items))):
        kinds, outcome, at = [items[i] for i in perm], [], 0
        for size, ordered in places:
            cut = kinds[at:at + size]
            outcome.append(tuple(cut) if ordered else tuple(sorted(cut)))
            at += size
        seen[tuple(outcome)] += 1
    total = math.factorial(len(items))
    ps = [v / total for v in seen.values()]
    return len(ps), sum(p * p for p in ps), sum(p ** 3 for p in ps)


@pytest.mark.parametrize("counts, places", [
    ([1, 2], [(1, False), (2, True)]),
    ([1, 2, 3], [(2, False), (1, True), (3, False)]),
    ([2, 2, 3], [(1, False), (2, False), (2, False), (2, True)]),
])
def test_collision_sums_match_enumeration(counts, places):
    distinct, square, cube = brute_collisions(counts, places)
    fair = shuffle_collisions(counts, places)
    assert fair.distinct == distinct
    assert fair.square == pytest.approx(square, rel=1e-12)
    assert fair.cube == pytest.approx(cube, rel=1e-12)


def test_notation_deals_match_enumeration():
    """The removed card and each player's ten cards: every (removed, player 0's ten) pair,
    with its hypergeometric probability."""
    total, square, distinct = math.comb(21, 10), 0.0, 0
    for removed in C.GEISHA:
        rest = list(C.FULL_DECK)
        rest[removed] -= 1
        for ten in itertools.product(*(range(c + 1) for c in rest)):
            if sum(ten) != 10:
                continue
            ways = math.prod(math.comb(c, a) for c, a in zip(rest, ten))
            p = C.FULL_DECK[removed] / 21 * ways / math.comb(20, 10)
            distinct += 1
            square += p * p
    assert total  # the deal's 21 cards
    fair = fair_collisions(True)
    assert (fair.distinct, fair.square) == (distinct, pytest.approx(square, rel=1e-12))


def test_full_deals_sum_to_one_and_count_as_documented():
    from hanamikoji.oracle.core.audit import _power_sum

    places = [(1, False), (6, False), (6, False), (8, True)]
    base = sum(math.lgamma(c + 1) for c in C.FULL_DECK) - math.lgamma(22)
    assert _power_sum(list(C.FULL_DECK), places, base, 1) == pytest.approx(1.0, rel=1e-12)
    # The same deals cut another way: each player's hand and the four cards they draw (in
    # order), so the sums are taken over another factorisation of the same outcomes.
    by_player = shuffle_collisions(list(C.FULL_DECK),
                                   [(1, False), (6, False), (4, True), (6, False), (4, True)])
    together = fair_collisions(False)
    assert by_player.distinct == together.distinct
    assert (by_player.square, by_player.cube) == pytest.approx((together.square, together.cube),
                                                               rel=1e-12)
    assert fair_collisions(False).distinct == 2_064_182_064
    assert "2,064,182,064" in (ROOT / "oracle" / "hanamikoji" / "audit.py").read_text()


def test_the_hand_test_scale_makes_its_mean_the_degrees_of_freedom():
    """One hand of 6 from 21: E[Pearson] = (K - 1)(N - R)/(N - 1), by every composition's
    exact probability, so the scaled statistic has the chi-square's mean."""
    n, r = 21, 6
    mean = 0.0
    for hand in itertools.product(*(range(min(c, r) + 1) for c in C.FULL_DECK)):
        if sum(hand) != r:
            continue
        p = math.prod(math.comb(c, a) for c, a in zip(C.FULL_DECK, hand)) / math.comb(n, r)
        mean += p * sum((a - r * c / n) ** 2 / (r * c / n) for a, c in zip(hand, C.FULL_DECK))
    assert mean * (n - 1) / (n - r) == pytest.approx(len(C.FULL_DECK) - 1, rel=1e-12)


def test_holm_steps_down_and_stops_at_the_first_pass():
    def test(p):
        return Judged("t", ("DEAL-1",), 0.0, "m", p, "f", "m", 10, 1)

    judged = holm([test(0.004), test(0.03), test(0.003), test(0.9), test(None)], 0.05)
    # m = 4: 0.003 <= 0.05/4, 0.004 <= 0.05/3, 0.03 > 0.05/2: stop.
    assert [t.failed for t in judged] == [True, False, True, False, False]


def test_a_place_test_says_how_many_outcomes_it_needs():
    counts = {"a": 1, "b": 20}
    found = place_test("p", ["DEAL-1"], 3, {"a": 3}, counts, 1, lambda k, o, e: f"{k} {o}", "x")
    assert found.p_value is None and found.needed == 105  # 105 * 1/21 = 5, the rarer cell


def test_collisions_use_the_exact_mean():
    fair = fair_collisions(False)
    found = collision_test("c", ["DEAL-1"], [["x", "x", "y"]], fair, lambda k, m: f"{k} {m}", "")
    assert found.statistic == 1 and found.p_value == pytest.approx(3 * fair.square, rel=1e-6)


# --- verdicts ---------------------------------------------------------------------------------


def rounds_of(deal, games, rounds):
    rng = random.Random(7)
    return [[(deal(rng), r % 2) for r in range(rounds)] for _ in range(games)]


def test_our_deals_pass():
    _, tests, _ = deal_tests(rounds_of(random_deal, 200, 3))
    assert not any(t.failed for t in holm(tests, 0.01))


def write_lines(path, lines):
    path.write_text("".join(line + "\n" for line in lines))
    return str(path)


@pytest.fixture(scope="module")
def course_records():
    """Games of the course's referee, which never shuffles, under the course's rules."""
    return records_of(DEALERS["never-shuffled"], 40, options={"variant": "italian-three-rounds"})


def test_audit_flags_the_course_referee_as_records_and_as_notation(tmp_path, capsys,
                                                                   course_records):
    records = write_lines(tmp_path / "course.jsonl", map(json.dumps, course_records))
    notation = write_lines(tmp_path / "course.txt", map(notation_from_record, course_records))
    assert main(["audit", records]) == 1
    out = capsys.readouterr().out
    rounds = sum(len(r["rounds"]) for r in course_records)
    assert (f"the removed card was G in {rounds} of {rounds} rounds (expected 23.8%): deals "
            "are not a uniform shuffle [DEAL-1, DEAL-2, UPDATE-1]") in out
    assert main(["audit", "--notation", "buaa", "--json", notation]) == 1
    verdict = json.loads(capsys.readouterr().out)
    failed = {t["name"] for g in verdict["groups"] for t in g["tests"] if t["failed"]}
    assert {"removed", "player 0's cards", "repeated deals in a game"} <= failed
    assert not any(t["name"].startswith("draw") for t in verdict["groups"][0]["tests"])


def test_our_games_pass_and_too_few_say_how_many(tmp_path, capsys):
    records = tmp_path / "ours.jsonl"
    assert main(["simulate", "--games", "150", "--seed", "5", "--records", str(records)]) == 0
    capsys.readouterr()
    assert main(["audit", str(records), "--html", str(tmp_path / "a.html")]) == 0
    assert capsys.readouterr().out.rstrip().endswith("(Holm)")
    page = (tmp_path / "a.html").read_text()
    assert 'class="expected"' in page and "removed" in page
    few = write_lines(tmp_path / "few.jsonl", records.read_text().splitlines()[:4])
    assert main(["audit", few]) == 2
    assert "too few outcomes to judge:" in capsys.readouterr().out


@pytest.mark.parametrize("alpha", ["0", "1", "-0.5", "nan", "one"])
def test_a_bad_alpha_is_a_usage_error(tmp_path, capsys, alpha):
    records = write_lines(tmp_path / "r.jsonl", [])
    with pytest.raises(SystemExit) as done:
        main(["audit", records, "--alpha", alpha])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"--alpha takes a number between 0 and 1, not '{alpha}'" in err


def test_maiko_layouts_are_as_many_as_documented():
    from hanamikoji.oracle.maiko.audit import fair_collisions as layouts

    # 60 spaces: 27 items of two tiles each, and 6 friends (MK-SETUP-4).
    distinct = layouts([2] * 27 + [6]).distinct
    assert distinct == math.factorial(60) // (2 ** 27 * math.factorial(6))
    assert f"about {float(distinct):.2g} with two players".replace("e+", "e") in (
        ROOT / "docs" / "audit.md").read_text()


def test_maiko_layouts_ours_pass_and_repeats_fail(tmp_path, capsys):
    records = tmp_path / "maiko.jsonl"
    assert main(["simulate", "--game", "maiko", "--games", "20", "--records", str(records)]) == 0
    capsys.readouterr()
    assert main(["audit", str(records)]) == 0
    assert "20 layouts of maiko" in capsys.readouterr().out
    rng = random.Random(3)
    layouts = [DEALERS["layout-repeats"].deal(random.Random(rng.getrandbits(64))).tiles
               for _ in range(60)]
    judged = holm(layout_tests(layouts)[1], 0.01)
    assert "repeated layouts" in [t.name for t in judged if t.failed]
    layouts = [FAIR["maiko"].deal(random.Random(seed)).tiles for seed in range(60)]
    assert not any(t.failed for t in holm(layout_tests(layouts)[1], 0.01))


# --- power: the table of docs/audit.md, at small sizes ---------------------------------------


def documented_power():
    text = (ROOT / "docs" / "audit.md").read_text()
    rows = re.findall(r"^\| `([a-z0-9-]+)` \| (\w+) \|.*\| (\d+) (?:rounds|layouts) \| (\d+) of "
                      r"100 \|$", text, re.M)
    return {name: int(size) for name, _, size, _ in rows}


def test_docs_give_every_unfair_dealer_its_size():
    assert set(documented_power()) == set(DEALERS)


@pytest.mark.parametrize("name", sorted(DEALERS))
def test_each_dealer_is_caught_at_its_documented_size(name):
    """The first five of the hundred seeded runs behind the docs' row."""
    assert flagged(DEALERS[name], documented_power()[name], trials=5) >= 4


def test_our_dealers_false_alarms_stay_rare():
    assert flagged(FAIR["hanamikoji"], 150, trials=20) <= 1
    assert flagged(FAIR["maiko"], 50, trials=10) <= 1


def test_stats_html_plots_chance_against_the_fair_shuffle(tmp_path, capsys, course_records):
    records = write_lines(tmp_path / "course.jsonl", map(json.dumps, course_records))
    assert main(["stats", records, "--html", str(tmp_path / "s.html")]) == 0
    page = (tmp_path / "s.html").read_text()
    assert "chance: " in page and "removed (FAIL)" in page
    # The removed card: every round's is G, where a fair shuffle puts 5 in 21.
    rounds = sum(len(r["rounds"]) for r in course_records)
    assert f'data-label="G" data-count="{rounds}"' in page
    assert f'data-expected="{rounds * 5 / 21:.3f}"' in page


def test_the_false_alarm_table_is_consistent_with_its_counts():
    """Each row's share, 95% upper bound (Clopper-Pearson: a beta quantile, where SciPy is
    installed) and chance of as many at 1% (the binomial tail) follow from its count."""
    stats = pytest.importorskip("scipy.stats")
    text = (ROOT / "docs" / "audit.md").read_text()
    rows = re.findall(r"^\| \w+ `reference` \| \d+ \w+ \| (\d+) of (\d+) \| ([\d.]+)% \| "
                      r"([\d.]+)% \| ([\d.]+) \|$", text, re.M)
    assert len(rows) == 4
    for count, trials, share, bound, tail in rows:
        k, n = int(count), int(trials)
        assert float(share) == pytest.approx(100 * k / n, abs=0.05)
        assert float(bound) == pytest.approx(100 * stats.beta.ppf(0.95, k + 1, n - k), abs=0.005)
        assert float(tail) == pytest.approx(stats.binom.sf(k - 1, n, 0.01), abs=0.005)


def test_each_place_is_judged_exactly_and_the_least_p_value_times_the_places():
    """Bonferroni over the places, each place's row pooled as one place of one item is."""
    rng = random.Random(3)
    counts = {"a": 2, "b": 2, "c": 6}
    observed: Counter = Counter()
    for _ in range(40):
        tiles = [k for k, c in counts.items() for _ in range(c)]
        rng.shuffle(tiles)
        observed.update((space, tile) for space, tile in enumerate(tiles))
    observed[(0, "a")] += 12  # space 0 favours a (an unfair corner), so the bound is below 1
    observed[(0, "c")] -= 12
    found = each_place_test("e", ["X"], 40, observed, range(10), counts,
                            lambda p, k, o, e: "", "")
    rows = [place_test("r", ["X"], 40, {k: observed[(s, k)] for k in counts}, counts, 1,
                       lambda k, o, e: "", "").p_value for s in range(10)]
    assert 0 < 10 * min(rows) < 1
    assert found.p_value == pytest.approx(10 * min(rows), rel=1e-12)
    assert "exact binomials" in found.method
