"""``hanamikoji size``: every figure counted two ways.

- One deal: the per-player tables against perft (itself checked against a plain walk), the
  decision nodes of each player against a plain walk, the information sets against OpenSpiel's
  own tree walk (distinct information-state strings).
- Every deal: the own-deal sums against the sum of one-deal tables; the number of deals against
  every order of a small deck's cards; the committed figures against Knuth's estimator and
  closed forms.
- The whole game: the programme over the markers against a plain one that scores every marker
  state with every pattern through the engine.
- The page: docs/game-size.md shows what the command prints.
"""

from __future__ import annotations

import collections
import itertools
import math
import pathlib
import re

import pytest

from hanamikoji.cli.main import main
from hanamikoji.engine.hanamikoji import cards as C
from hanamikoji.engine.hanamikoji.game import (
    Phase,
    apply,
    current_player,
    legal_actions,
    score_markers,
)
from hanamikoji.engine.hanamikoji.rules import ITALIAN_THREE_ROUNDS, STANDARD
from hanamikoji.oracle.hanamikoji import size as S
from hanamikoji.oracle.hanamikoji.perft import perft, round_start, seeded_deal

ROOT = pathlib.Path(__file__).parent.parent
SAMPLES = 2000  # the command's default, as the page runs it


@pytest.fixture(scope="module")
def record():
    return S.load_record()


@pytest.fixture(scope="module")
def reports(record):
    return {rules.name: S.report(rules, SAMPLES, 0, record)
            for rules in (STANDARD, ITALIAN_THREE_ROUNDS)}


# --- one deal --------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 3])
def test_one_deal_is_perft(seed):
    """TURN-1..4: the interleaved own tables give perft's count at every depth to 12."""
    deal = seeded_deal(seed)
    counts = S.round_counts(*S.deal_tables(deal.removed, deal.hands, deal.draws))
    assert tuple(counts.nodes) == perft(round_start(deal), 12)
    for d in range(12):  # every node above the leaves is someone's decision
        assert counts.decisions[0][d] + counts.decisions[1][d] == counts.nodes[d]


def test_decisions_by_player_are_a_walk():
    """Who decides at each node, walked with legal_actions/apply to depth 3."""
    deal = seeded_deal(3)
    state = round_start(deal)
    counts = S.round_counts(*S.deal_tables(deal.removed, deal.hands, deal.draws))
    found = [[0] * 4, [0] * 4]

    def walk(s, d):
        found[current_player(s)][d] += 1
        if d < 3 and s.phase in (Phase.ACTION, Phase.RESPONSE):
            for decision in legal_actions(s):
                walk(apply(s, decision), d + 1)

    walk(state, 0)
    assert found == [counts.decisions[0][:4], counts.decisions[1][:4]]


def test_infosets_are_openspiel_information_states():
    """The information sets of one deal are OpenSpiel's: its own tree walk from seed 3's deal,
    through our integration, counting distinct information-state strings per player."""
    pytest.importorskip("pyspiel", reason="needs the openspiel extra")
    from hanamikoji.integrations import openspiel as O

    deal = seeded_deal(3)
    root = O.state_from_engine(O.load("hanamikoji"), round_start(deal))
    depth = 2
    seen = [[set() for _ in range(depth + 1)] for _ in range(2)]

    def walk(state, d):
        player = state.current_player()
        seen[player][d].add(state.information_state_string(player))
        if d < depth:
            for action in state.legal_actions():
                walk(state.child(action), d + 1)

    walk(root, 0)
    counted = S.deal_infosets(deal.removed, deal.hands, deal.draws)
    assert [[len(s) for s in row] for row in seen] == [counted[0][:3], counted[1][:3]]
    nodes = S.round_counts(*S.deal_tables(deal.removed, deal.hands, deal.draws)).nodes
    assert counted[0][2] < nodes[2]  # the secret's card is hidden: some nodes look alike


# --- every deal ------------------------------------------------------------------------------


def test_own_tables_sum_the_own_deals():
    """own_tables(M) is the sum of the one-deal tables over every (hand, draws in order) of M,
    enumerated here from every order of M's cards."""
    multiset = (2, 0, 0, 3, 0, 0, 5)  # ten cards of three geisha: few orders
    cards = C.cards_of(multiset)
    deals = {(C.counts(hand), draws) for hand in itertools.combinations(cards, 6)
             for draws in itertools.permutations(
                 C.cards_of(C.sub(multiset, C.counts(hand))))}
    total = S.own_tables(multiset)
    assert total.deals == len(deals)
    full, pending, ends = collections.Counter(), collections.Counter(), collections.Counter()
    for hand, draws in deals:
        one = S.own_tables_of(hand, draws)
        full.update(one.full)
        pending.update(one.pending)
        ends.update(one.ends)
    assert {k: v for k, v in total.full.items() if v} == dict(full)
    assert {k: v for k, v in total.pending.items() if v} == dict(pending)
    assert total.ends == dict(ends)


def test_deal_census_is_every_shuffle():
    """DEAL-1..4 on an eight-card deck: the deals and the shuffles of each, against every
    order of the physical cards."""
    deck = (3, 2, 1, 1, 1, 0, 0)
    found = S.brute_deals(deck, hand=2)
    count, by_shuffles = S.deal_census(deck, hand=2, draws=3)
    assert count == len(found)
    assert by_shuffles == dict(collections.Counter(found.values()))


def test_full_deck_deals(record):
    """Every shuffle of the 21 cards gives one deal; the deals counted directly and by the
    own-deal programme (the committed figures) agree."""
    count, by_shuffles = S.deal_census()
    assert sum(s * n for s, n in by_shuffles.items()) == math.factorial(21)
    assert record["round"]["deals"] == count
    deal = seeded_deal(3)
    assert S.shuffles(deal.hands) in by_shuffles


def test_round_record_is_consistent(record):
    """The committed round: every terminal history ends in one pattern; the decision nodes are
    the nodes above the leaves; the information sets at depth 0 are the starter's seven-card
    hands, counted here from the deck's cards."""
    rnd = record["round"]
    assert sum(rnd["patterns"].values()) == rnd["nodes"][12]
    for d in range(12):
        assert rnd["decisions"][0][d] + rnd["decisions"][1][d] == rnd["nodes"][d]
    hands = {tuple(sorted(h)) for h in itertools.combinations(C.cards_of(C.FULL_DECK), 7)}
    assert record["infosets"][0][0] == len(hands)
    assert record["infosets"][1][0] == 0
    for p in (0, 1):  # a player tells apart no more than the nodes where they decide
        assert all(i <= n for i, n in zip(record["infosets"][p], rnd["decisions"][p]))


# --- the whole game --------------------------------------------------------------------------


def naive_game(patterns, rules, rounds):
    """Every marker state with every pattern, scored by the engine (SCORE-2, SCORE-3) and ended
    by its rules (END-*, VAR-IT-*)."""
    reach = {(None,) * 7: 1}
    ending = []
    for k in range(rounds):
        starter = k % 2
        nxt = collections.Counter()
        end = 0
        for markers, weight in reach.items():
            for pattern, n in patterns.items():
                sides = [[0] * 7, [0] * 7]
                for g in range(7):
                    digit = pattern // 3 ** g % 3
                    if digit:
                        sides[starter if digit == 1 else 1 - starter][g] = 1
                after = score_markers(markers, tuple(sides[0]), tuple(sides[1]))
                if rules.round_result(after, k) is None:
                    nxt[after] += weight * n
                else:
                    end += weight * n
        ending.append(end)
        reach = nxt
        if not reach:
            break
    return ending


@pytest.mark.parametrize("rules", [STANDARD, ITALIAN_THREE_ROUNDS])
def test_game_programme_is_plain_scoring(rules):
    """The marginal programme over the markers against pairing every state with every
    pattern, on patterns of one deal's round (seed 3), thinned to keep it quick."""
    deal = seeded_deal(3)
    first, second = S.deal_tables(deal.removed, deal.hands, deal.draws)
    patterns = [0] * S.PATTERNS
    S._pattern_products(first.ends, second.ends, patterns)
    kept = {p: n for p, n in enumerate(patterns) if n and p % 61 == 0}
    kept[0] = patterns[0]
    thinned = [kept.get(p, 0) for p in range(S.PATTERNS)]
    counts = S.round_counts(first, second)
    game = S.game_size(S.RoundSize(1, counts, thinned), rules, 3)
    assert game.ending == naive_game(kept, rules, game.rounds)


def test_standard_game_is_unbounded(reports):
    """UPDATE-5: some deal and history tie all seven geisha, so the markers can stay in the
    centre round after round: the length of a standard game is unbounded."""
    game = reports["standard"]["game"]
    assert not game["bounded"]
    assert game["cycle"]["markers"] == [None] * 7
    assert game["cycle"]["patterns"] == [0, 0]
    assert reports["standard"]["round"]["all_tied"] > 0


def test_italian_game_ends_by_round_three(reports):
    """VAR-IT-1..4: every history ends by round 3, and the terminal histories add up."""
    game = reports["italian-three-rounds"]["game"]
    assert len(game["rounds"]) == 3 and game["rounds"][-1]["going_on"] == 0
    assert game["terminal"] == sum(r["ending"] for r in game["rounds"])
    assert game["rounds"][1]["entering"] == game["rounds"][0]["entering"] * \
        reports["italian-three-rounds"]["round"]["terminal"] - game["rounds"][0]["ending"]


# --- the sampling estimate -------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["standard", "italian-three-rounds"])
def test_estimates_hold_the_exact_figures(reports, variant):
    """Every sampling estimate holds its exact figure in its interval: the deals and one round
    (Knuth's estimator through one round, played by the engine), the deals with all seven
    geisha tied, and every round of the whole game (the exact programme over the estimated
    patterns, with the jackknife's interval). Seeded, so deterministic; a path through five
    rounds instead (the estimator before) missed from round 3 on."""
    out = reports[variant]
    pairs = S._estimated(out)
    assert set(out["estimates"]) == {name for name, _ in pairs}
    for name, figure in pairs:
        e = out["estimates"][name]
        assert e["low"] <= figure <= e["high"], (name, figure, e)
    assert len(pairs) == (16 if variant == "standard" else 14)


def test_estimated_patterns_are_a_lower_bound(reports):
    """The patterns the paths saw are among those that occur (the exact count), and each
    path's pattern is one the exact tables give a non-zero count."""
    out = reports["standard"]
    assert 0 < out["sampling"]["patterns_seen"] <= out["round"]["patterns"]
    exact_patterns = S.round_from_json(S.load_record()["round"]).patterns
    assert all(exact_patterns[path[5]] for path in S.round_paths(50, 0))


def test_jackknife_quantile():
    """T_19 is the two-sided 99.9% quantile of Student's t with 19 degrees of freedom: the
    density integrated (Simpson's rule) from -T_19 to T_19 is 0.999."""
    from hanamikoji.oracle.core.size import T_19

    nu = 19
    c = math.gamma((nu + 1) / 2) / (math.sqrt(nu * math.pi) * math.gamma(nu / 2))
    n = 2000
    h = 2 * T_19 / n
    f = [c * (1 + (-T_19 + i * h) ** 2 / nu) ** (-(nu + 1) / 2) for i in range(n + 1)]
    mass = h / 3 * (f[0] + f[-1] + 4 * sum(f[1:-1:2]) + 2 * sum(f[2:-1:2]))
    assert abs(mass - 0.999) < 2e-5


def test_jackknife_of_a_mean_is_its_standard_error():
    """For a mean whose figures take both signs (its own scale), the delete-a-group jackknife's
    half-width is T_19 times the standard error of the 20 group means."""
    from hanamikoji.oracle.core.size import T_19, jackknife

    values = [float(i * i % 17) - 8.0 for i in range(200)]  # means of both signs
    mean, interval = jackknife(lambda idx: {"m": math.fsum(values[i] for i in idx) / len(idx)},
                               len(values))
    groups = [[values[i] for i in range(200) if i % 20 == g] for g in range(20)]
    means = [math.fsum(g) / len(g) for g in groups]
    centre = math.fsum(means) / 20
    se = math.sqrt(math.fsum((m - centre) ** 2 for m in means) / (20 * 19))
    assert mean["m"] == pytest.approx(math.fsum(values) / 200)
    assert interval["m"][1] - mean["m"] == pytest.approx(T_19 * se)


def test_measured_says_what_a_part_cost():
    """measured gives the processor seconds and the peak of traced memory of its work: a
    list of 200,000 integers is at least 1.6 MB while it lives. (Times are never compared.)"""
    from hanamikoji.oracle.core.size import measured

    result, cost = measured(lambda: len(list(range(200_000))))
    assert result == 200_000
    assert cost["peak_traced_kib"] >= 1_600_000 // 1024
    assert cost["peak_worker_rss_kib"] is None and cost["cpu_seconds"] >= 0


# --- the command and the page ----------------------------------------------------------------


def test_page_shows_the_command(reports, capsys):
    """Each block of docs/game-size.md that starts with a ``hanamikoji size`` line is what that
    command prints, byte for byte."""
    page = (ROOT / "docs" / "game-size.md").read_text()
    blocks = re.findall(r"```\n\$ hanamikoji (size[^\n]*)\n(.*?)```", page, re.S)
    assert len(blocks) == 5
    for command, shown in blocks:
        args = command.split()
        if "maiko" in args:
            assert main(args) == 0
            printed = capsys.readouterr().out
        else:  # the same report as the fixture's (reading the committed figures)
            assert "--samples" not in args  # the default, SAMPLES
            variant = "italian-three-rounds" if "italian-three-rounds" in args else "standard"
            printed = "\n".join(S.text(reports[variant])) + "\n"
        assert shown == printed, command


def test_a_game_with_no_counter(capsys):
    """A game with no size counter is a usage error in one line."""
    from hanamikoji.oracle.core import extension
    from hanamikoji.oracle.core.size import SizeExtension

    extension.register("size", "maiko", SizeExtension)
    try:
        assert main(["size", "--game", "maiko", "--samples", "2"]) == 2
    finally:
        extension._REGISTERED.pop(("size", "maiko"))
        extension._MADE.clear()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no count" in err


def test_equal_geisha_trade_places():
    """Geisha of equal charm have as many cards, so a player's tables over ten cards, moved to
    other geisha of the same charm, are the tables over the moved cards."""
    orders = S._symmetries(C.FULL_DECK)
    assert len(orders) == 12  # 0, 1, 2 among themselves; 3 with 4
    cards = (2, 1, 0, 2, 0, 0, 5)
    table = S.own_tables(cards)
    for order in (orders[1], orders[-1]):
        moved = S.own_tables(S._moved(cards, order))
        assert S._moved_tables(table, order).ends == moved.ends
        assert (moved.full, moved.pending, moved.deals) == (table.full, table.pending,
                                                            table.deals)


def test_generic_estimator_holds_the_italian_game(reports):
    """The core's Knuth estimator, through the game interface alone (a deal weighs the deals
    per shuffle), holds the Italian game's exact histories, terminal histories and decision
    nodes."""
    from hanamikoji.engine.hanamikoji.game_type import GAME
    from hanamikoji.oracle.core.size import knuth_tree

    total = math.factorial(21)
    found = knuth_tree(GAME, ITALIAN_THREE_ROUNDS, 300, 1,
                       lambda state, deal: total // S.shuffles(deal.hands))
    game = reports["italian-three-rounds"]["game"]
    for name, figure in (("nodes", game["histories"]), ("terminal", game["terminal"]),
                         ("decisions", sum(game["decisions"]))):
        assert found[name].low <= figure <= found[name].high, (name, figure)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_maiko_layouts(players):
    """MK-COMP-1, MK-SETUP-3..5: 81 tiles (9 friends alike, 36 kinds of two) with 3 or 4
    players; with 2, 6 friends and 27 kinds of two (a colour and 3 friends in the box)."""
    from hanamikoji.engine.core.registry import get
    from hanamikoji.oracle.maiko.size import layouts

    config = get("maiko").configure({"players": players})
    friends, kinds = (6, 27) if players == 2 else (9, 36)
    tiles = friends + 2 * kinds
    assert layouts(config) == math.factorial(tiles) // (math.factorial(friends) * 2 ** kinds)


def test_maiko_command(capsys):
    """``size --game maiko`` prints the layouts exactly and the estimates."""
    assert main(["size", "--game", "maiko", "--players", "2", "--samples", "3"]) == 0
    out = capsys.readouterr().out
    assert "layouts: 86,105,812," in out and "nothing exact is in reach" in out


def test_page_counts_of_the_work():
    """The counts of work the page quotes: the ten-card multisets a player can hold, their
    classes under equal-charm geisha trading places, and the multisets a player may have seen."""
    page = (ROOT / "docs" / "game-size.md").read_text()
    tens = S.sub_multisets(C.FULL_DECK, 10)
    orders = S._symmetries(C.FULL_DECK)
    classes = {min(S._moved(m, o) for o in orders) for m in tens}
    seen = sum(len(S.sub_multisets(C.FULL_DECK, k)) for k in range(6, 11))
    assert f"({len(tens):,})" in page and f"({len(classes)} classes" in page
    assert f"({seen:,} of 6 to 10 cards)" in page
    assert "There are 1,610 possible `M`" in page and len(tens) == 1610


def _subs(cards, k):
    return {tuple(sorted(s)) for s in itertools.combinations(cards, k)}


def _offers_from(cards):
    """Every gift and competition that can be offered from ``cards``, as the opponent sees it."""
    gifts = _subs(cards, 3)
    competitions = set()
    for four in _subs(cards, 4):
        for pair in itertools.combinations(range(4), 2):
            a = tuple(sorted(four[i] for i in pair))
            b = tuple(sorted(four[i] for i in range(4) if i not in pair))
            competitions.add(tuple(sorted((a, b))))
    return len(gifts) + len(competitions)


def _without(deck, cards):
    rest = list(deck)
    for c in cards:
        rest.remove(c)
    return rest


def test_infosets_near_the_root_by_hand(record):
    """The committed information sets over every deal at depths 1 and 2, enumerated here with
    itertools from what each view holds: depth 1, the other player after a face-down action
    (their seven cards, which kind) or answering an offer (their six cards, the offer, which
    fits in the rest of the deck); depth 2, the starter after two face-down actions (their
    eight cards, their own action with its cards, the other's kind) or answering the other's
    offer after their own face-down action."""
    deck = C.cards_of(C.FULL_DECK)
    sevens = _subs(deck, 7)
    other = 2 * len(sevens) + sum(_offers_from(_without(deck, h)) for h in _subs(deck, 6))
    assert record["infosets"][1][1] == other

    def own_hidden(cards):  # a secret or a trade-off, with its cards
        return len(_subs(cards, 1)) + len(_subs(cards, 2))

    starter = sum(own_hidden(s) * 2 for s in _subs(deck, 8))
    starter += sum(own_hidden(s) * _offers_from(_without(deck, s)) for s in sevens)
    assert record["infosets"][0][2] == starter


def test_one_sample_is_no_interval(capsys):
    """An interval needs two paths: ``--samples 1`` is a usage error in one line."""
    with pytest.raises(SystemExit) as stop:
        main(["size", "--game", "maiko", "--samples", "1"])
    assert stop.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_fewer_paths_than_groups(capsys):
    """The jackknife deals the paths into 20 groups: ``--samples 19`` is a usage error in one
    line."""
    assert main(["size", "--samples", "19"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "at least 20" in err
