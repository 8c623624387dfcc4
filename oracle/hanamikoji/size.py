"""How big Hanamikoji is: the exact size of one round and of the whole game, counted by dynamic
programming, with a second method for every figure (``hanamikoji size``, docs/game-size.md).

The conventions are perft's (:mod:`hanamikoji.oracle.hanamikoji.perft`): card identities are not
told apart; an action is its kind and the multiset of its cards (a competition the unordered pair
of its two sets); an answer is the geisha taken from a gift or the set taken from a competition,
once per distinct one (COMP-2). A *deal* is the removed card, the two hands as multisets and the
eight draws in order (DEAL-1..4); a round's *histories* are the nodes of its tree after the deal,
perft's nodes at depths 0 to 12.

Why it can be counted at all. Perft's two facts (a player's legal actions depend only on their
own hand and unused actions, and their hand at their turn only on their own earlier actions and
draws) make a round the interleaving of two player trees. A player's tree depends only on their
*own deal*: their six cards and their four draws in order. Every one of a player's ten cards is
played (1 + 2 + 3 + 4 = 10), so the ten cards ``M`` they hold in a round are exactly the cards of
their four actions, and the other player's ten are the deck less ``M`` and the removed card. So a
sum over all deals is a sum over (removed card, ``M``) of products of two per-player sums, each
over the ways to split ``M`` into a hand and an ordered draw: :func:`own_tables` counts those by a
forward dynamic programme over the player's turns whose state is their hand, their cards still to
come (as a multiset), the actions they used and what their cards did to the board, merging every
path that reaches the same state.

The outcome pattern of a round (for each geisha: the starting player has more of her cards, the
other player has, or a tie; 3^7 patterns) depends only on the sum of what each player's own
actions and the answers to them put on the two sides, so the number of (deal, history) pairs of a
round that end in each pattern follows from the same tables. The markers after a round depend
only on the markers before and the pattern (SCORE-2, SCORE-3), and the game's end only on the
markers (END-2..4, VAR-IT-1..4), so the whole game is counted by a programme over the markers
(:func:`game_size`).
"""

from __future__ import annotations

import math
from collections import defaultdict
from functools import cache
from itertools import product
from typing import Iterable, Iterator

from hanamikoji.engine.hanamikoji import cards as C
from hanamikoji.engine.hanamikoji.cards import CHARM, FULL_DECK, NUM_GEISHA
from hanamikoji.engine.hanamikoji.rules import Markers, Rules
from hanamikoji.oracle.core.size import SizeExtension, exact, jackknife

Cards = tuple[int, ...]
Vector = tuple[int, ...]

#: Cards in a hand after the deal (DEAL-3) and actions (turns) per player in a round (TURN-1).
HAND = 6
TURNS = 4
#: Kinds in the order of their sizes: secret 1, trade-off 2, gift 3, competition 4 (ACT-*-1).
KIND_SIZES = (1, 2, 3, 4)
SECRET, TRADE_OFF, GIFT, COMPETITION = range(4)
#: Patterns as integers: geisha g's outcome is digit g in base 3 (0 tie, 1 starter, 2 other).
TIE, STARTER, OTHER = 0, 1, 2
PATTERNS = 3 ** NUM_GEISHA


def _minus(a: Cards, b: Cards) -> Cards:
    return tuple(x - y for x, y in zip(a, b))


def _plus(a: Vector, b: Vector) -> Vector:
    return tuple(x + y for x, y in zip(a, b))


@cache
def sub_multisets(multiset: Cards, k: int) -> tuple[Cards, ...]:
    """Every distinct ``k``-card part of ``multiset``, as counts."""
    return tuple(C.counts(s) for s in C.sub_multisets(multiset, k))


@cache
def multinomial(multiset: Cards) -> int:
    """The number of distinct orders of ``multiset``'s cards."""
    out = math.factorial(sum(multiset))
    for n in multiset:
        out //= math.factorial(n)
    return out


@cache
def _splits(four: Cards) -> tuple[tuple[Cards, Cards], ...]:
    """ACT-COMP-1: the distinct unordered splits of four cards into two sets of two."""
    found = set()
    for a in sub_multisets(four, 2):
        b = _minus(four, a)
        found.add((min(a, b), max(a, b)))
    return tuple(sorted(found))


@cache
def moves(hand: Cards, kind: int) -> tuple[tuple[Cards, bool, tuple[Vector, ...]], ...]:
    """The distinct actions of ``kind`` from ``hand``: for each, the hand left, whether it is an
    offer (answered by the opponent), and for each distinct answer what the action puts on the
    board as ``own side - opponent's side`` (a secret counts for its owner at the scoring,
    SCORE-1; a trade-off counts for no one, ACT-TRADE-2; ACT-GIFT-2; ACT-COMP-2)."""
    out: list[tuple[Cards, bool, tuple[Vector, ...]]] = []
    for cards in sub_multisets(hand, KIND_SIZES[kind]):
        left = _minus(hand, cards)
        if kind == SECRET:
            out.append((left, False, (cards,)))
        elif kind == TRADE_OFF:
            out.append((left, False, ((0,) * NUM_GEISHA,)))
        elif kind == GIFT:
            answers = []
            for g in range(NUM_GEISHA):
                if cards[g]:
                    taken = tuple(int(i == g) for i in range(NUM_GEISHA))
                    answers.append(_minus(_minus(cards, taken), taken))
            out.append((left, True, tuple(answers)))
        else:
            for a, b in _splits(cards):
                answers = [_minus(b, a)] if a == b else [_minus(b, a), _minus(a, b)]
                out.append((left, True, tuple(answers)))
    return tuple(out)


class OwnTables:
    """What one player's tree holds, summed over the own deals counted (see :func:`own_tables`).

    ``full[(j, r)]`` counts the sequences of the player's first ``j`` actions, ``r`` of them
    offers, with the answers to those offers; ``pending[(j, r)]`` those whose ``j``-th action is
    an offer (counted in ``r``) not yet answered; ``ends[v]`` the complete sequences by what they
    put on the board, ``own side - opponent's side`` per geisha; ``deals`` the own deals
    counted; ``states`` the most states one turn of the programme held (what its memory and
    time grow with)."""

    __slots__ = ("full", "pending", "ends", "deals", "states")

    def __init__(self, full: dict[tuple[int, int], int], pending: dict[tuple[int, int], int],
                 ends: dict[Vector, int], deals: int, states: int = 0) -> None:
        self.full, self.pending, self.ends, self.deals = full, pending, ends, deals
        self.states = states

    def complete(self) -> int:
        """The player's complete sequences (all four actions, every offer answered)."""
        return sum(self.ends.values())


def _draws(undrawn: Cards, fixed: bool) -> Iterator[tuple[int, Cards]]:
    """The next draw and what is left: the next card of a fixed order, or each distinct card of
    a multiset (every order of the draws is one own deal)."""
    if fixed:
        yield undrawn[0], undrawn[1:]
        return
    for g in range(NUM_GEISHA):
        if undrawn[g]:
            yield g, undrawn[:g] + (undrawn[g] - 1,) + undrawn[g + 1:]


def _orders(undrawn: Cards, fixed: bool) -> int:
    return 1 if fixed else multinomial(undrawn)


#: The offers among the used kinds of an unused-kinds mask (gift and competition answer).
_OFFERS = tuple(((~mask) >> GIFT & 1) + ((~mask) >> COMPETITION & 1) for mask in range(16))


def _run(starts: Iterable[tuple[Cards, Cards]], fixed: bool) -> OwnTables:
    """The forward programme over one player's four turns from the given (hand, undrawn) starts.

    A state is (hand, undrawn, unused kinds as a bit mask, board vector); its weight is the
    number of (own deal prefix, action prefix with answers) reaching it. A prefix of ``j``
    actions is part of as many own deals as there are orders of the cards still undrawn; the
    kinds used say how many of them were offers."""
    zero = (0,) * NUM_GEISHA
    layer: dict[tuple, int] = defaultdict(int)
    for hand, undrawn in starts:
        layer[(hand, undrawn, 0b1111, zero)] += 1
    full: dict[tuple[int, int], int] = defaultdict(int)
    pending: dict[tuple[int, int], int] = defaultdict(int)
    deals = sum(w * _orders(u, fixed) for (_, u, _, _), w in layer.items())
    full[(0, 0)] = deals
    states = len(layer)
    for turn in range(1, TURNS + 1):
        nxt: dict[tuple, int] = defaultdict(int)
        for (hand, undrawn, unused, board), weight in layer.items():
            for card, rest in _draws(undrawn, fixed):
                drawn = hand[:card] + (hand[card] + 1,) + hand[card + 1:]
                orders = _orders(rest, fixed)
                for kind in range(4):
                    if not unused >> kind & 1:
                        continue
                    left_kinds = unused & ~(1 << kind)
                    for left, offer, answers in moves(drawn, kind):
                        if offer:
                            pending[(turn, _OFFERS[left_kinds])] += weight * orders
                        for vector in answers:
                            nxt[(left, rest, left_kinds, _plus(board, vector))] += weight
        layer = nxt
        states = max(states, len(layer))
        for (_, undrawn, unused, _), weight in layer.items():
            full[(turn, _OFFERS[unused])] += weight * _orders(undrawn, fixed)
    ends: dict[Vector, int] = defaultdict(int)
    for (_, _, _, board), weight in layer.items():
        ends[board] += weight
    return OwnTables(dict(full), dict(pending), dict(ends), deals, states)


def own_tables(cards: Cards) -> OwnTables:
    """One player's tables summed over every own deal of the ten ``cards``: each six-card hand
    from them with each distinct order of the other four as draws."""
    starts = [(hand, _minus(cards, hand)) for hand in sub_multisets(cards, HAND)]
    return _run(starts, fixed=False)


def own_tables_of(hand: Cards, draws: tuple[int, ...]) -> OwnTables:
    """One player's tables for one own deal: ``hand`` (counts) and ``draws`` in order."""
    return _run([(hand, tuple(draws))], fixed=True)


class RoundCounts:
    """The nodes of a round's tree (or their sums over deals), by depth after the deal:
    ``nodes[d]``, ``decisions[p][d]`` the nodes where player ``p`` decides (``p`` 0 is the
    round's starting player), ``nodes[12]`` the terminal histories."""

    __slots__ = ("nodes", "decisions")

    def __init__(self) -> None:
        self.nodes = [0] * 13
        self.decisions = ([0] * 13, [0] * 13)

    def add(self, other: "RoundCounts", times: int = 1) -> None:
        for d in range(13):
            self.nodes[d] += times * other.nodes[d]
            for p in (0, 1):
                self.decisions[p][d] += times * other.decisions[p][d]


def _products(out: RoundCounts, done: int, a: dict[tuple[int, int], int],
              b: dict[tuple[int, int], int], j: tuple[int, int], player: int | None) -> None:
    for (ja, ra), ca in a.items():
        if ja != j[0]:
            continue
        for (jb, rb), cb in b.items():
            if jb != j[1]:
                continue
            depth = done + ra + rb
            out.nodes[depth] += ca * cb
            if player is not None:
                out.decisions[player][depth] += ca * cb


def round_counts(starter: OwnTables, other: OwnTables) -> RoundCounts:
    """Interleave the two players' tables as the turns alternate (TURN-1): after ``done`` turns
    the starter made ``ceil(done/2)`` actions and the other ``floor(done/2)``; a node is a
    state between turns (the next mover decides) or an offer awaiting its answer (the other
    player decides). Summed over deals, the tables are sums too, and the products stay exact
    because each is a sum over the pairs of own deals that make one deal."""
    out = RoundCounts()
    for done in range(2 * TURNS + 1):
        j = ((done + 1) // 2, done // 2)
        mover = None if done == 2 * TURNS else done % 2
        _products(out, done, starter.full, other.full, j, mover)
        if mover is not None:
            if mover == 0:
                _products(out, done, starter.pending, other.full, (j[0] + 1, j[1]), 1)
            else:
                _products(out, done, starter.full, other.pending, (j[0], j[1] + 1), 0)
    return out


def deal_tables(removed: int, hands: tuple[tuple[int, ...], tuple[int, ...]],
                draws: tuple[int, ...], starter: int = 0) -> tuple[OwnTables, OwnTables]:
    """The starter's and the other player's tables for one deal (DEAL-1..4, TURN-2: the starter
    draws the even draws, the other the odd ones)."""
    del removed  # no player sees it or plays it
    first = own_tables_of(C.counts(hands[starter]), tuple(draws[0::2]))
    second = own_tables_of(C.counts(hands[1 - starter]), tuple(draws[1::2]))
    return first, second


# --- the deals -------------------------------------------------------------------------------


@cache
def deal_census(deck: Cards = FULL_DECK, hand: int = HAND,
                draws: int = 2 * TURNS) -> tuple[int, dict[int, int]]:
    """DEAL-1..4 counted directly: the distinct deals (removed card, two hands as multisets,
    the draws in order) and how many deals each number of shuffles gives. A deal is given by
    ``prod(c!) * orders(hand 0) * orders(hand 1)`` of the ``n!`` orders of the ``n`` physical
    cards (the positions within a hand do not matter; those of the draws do)."""
    assert sum(deck) == 1 + 2 * hand + draws, "every card is removed, in a hand or drawn"
    base = math.prod(math.factorial(c) for c in deck)
    count = 0
    by_shuffles: dict[int, int] = defaultdict(int)
    for g in range(len(deck)):
        if not deck[g]:
            continue
        rest = deck[:g] + (deck[g] - 1,) + deck[g + 1:]
        for first in sub_multisets(rest, hand):
            after = _minus(rest, first)
            for second in sub_multisets(after, hand):
                orders = multinomial(_minus(after, second))
                count += orders
                by_shuffles[base * multinomial(first) * multinomial(second)] += orders
    return count, dict(sorted(by_shuffles.items()))


def brute_deals(deck: Cards, hand: int) -> dict[tuple, int]:
    """Every order of the physical cards of a small ``deck``, each taken to its deal; the
    shuffles per deal (a test's second method for :func:`deal_census`)."""
    from itertools import permutations

    cards = [g for g in range(len(deck)) for _ in range(deck[g])]
    found: dict[tuple, int] = defaultdict(int)
    for order in permutations(range(len(cards))):
        types = [cards[i] for i in order]
        found[(types[0], tuple(sorted(types[1:1 + hand])),
               tuple(sorted(types[1 + hand:1 + 2 * hand])), tuple(types[1 + 2 * hand:]))] += 1
    return dict(found)


# --- one round over every deal ---------------------------------------------------------------


def _pattern_products(first: dict[Vector, int], second: dict[Vector, int],
                      into: list[int]) -> None:
    """Add to ``into[P]`` the pairs of complete sequences whose boards make pattern ``P``: the
    starter's own-minus-opponent vector less the other player's. numpy does the pairs; each
    product is below 2**63 (checked), and the sums per pattern are made in Python integers."""
    import numpy as np

    v0 = np.array(list(first), dtype=np.int64)
    w0 = np.array(list(first.values()), dtype=np.int64)
    v1 = np.array(list(second), dtype=np.int64)
    w1 = np.array(list(second.values()), dtype=np.int64)
    if int(w0.sum()) * int(w1.sum()) >= 2 ** 63:
        raise OverflowError("a pair of own tables too large for 64-bit sums")
    digits = np.sign(v0[:, None, :] - v1[None, :, :])  # +1 starter, -1 other, 0 tie
    digits = np.where(digits < 0, OTHER, digits)
    index = (digits * (3 ** np.arange(NUM_GEISHA))).sum(axis=2).ravel()
    sums = np.zeros(PATTERNS, dtype=np.int64)
    np.add.at(sums, index, np.outer(w0, w1).ravel())
    for p in np.nonzero(sums)[0].tolist():
        into[p] += int(sums[p])


class RoundSize:
    """One round summed over every deal: the deals, the nodes (:class:`RoundCounts`) and the
    (deal, terminal history) pairs by outcome pattern (starter's point of view)."""

    __slots__ = ("deals", "counts", "patterns")

    def __init__(self, deals: int, counts: RoundCounts, patterns: list[int]) -> None:
        self.deals, self.counts, self.patterns = deals, counts, patterns


def _own_tables_task(cards: Cards) -> tuple[Cards, OwnTables, float]:
    """One class's tables and the processor seconds they took (the growth of the work)."""
    import time

    start = time.process_time()
    table = own_tables(cards)
    return cards, table, time.process_time() - start


def _symmetries(deck: Cards) -> tuple[tuple[int, ...], ...]:
    """The orders of the geisha that keep the deck and the charm: geisha of equal charm have
    as many cards (COMP-1, COMP-2) and the goals count only charm and geisha (END-2), so such
    geisha can trade places in every rule. For the full deck: 0, 1, 2 among themselves, and 3
    with 4 (12 orders)."""
    from itertools import permutations

    return tuple(order for order in permutations(range(NUM_GEISHA))
                 if all(deck[order[g]] == deck[g] and CHARM[order[g]] == CHARM[g]
                        for g in range(NUM_GEISHA)))


def _moved(cards: Cards, order: tuple[int, ...]) -> Cards:
    """``cards`` with geisha g's count moved to geisha ``order[g]``."""
    out = [0] * NUM_GEISHA
    for g, n in enumerate(cards):
        out[order[g]] = n
    return tuple(out)


def _moved_tables(table: OwnTables, order: tuple[int, ...]) -> OwnTables:
    return OwnTables(table.full, table.pending,
                     {_moved(v, order): n for v, n in table.ends.items()}, table.deals,
                     table.states)


def round_size(deck: Cards = FULL_DECK, workers: int = 1, progress=None,
               growth: list | None = None) -> RoundSize:
    """Every deal of ``deck`` summed: for each removed card and each ten cards ``M`` of the
    starter, the starter's tables over ``M`` times the other player's over the rest. The
    tables of one ten cards per class under :func:`_symmetries` are made first, on ``workers``
    processes (the sums do not depend on the order they come back in), and moved to the rest of
    the class; ``progress(done, total)`` is told as they come, and ``growth`` (a list) is given
    each class's largest layer of states and processor seconds."""
    removable = [g for g in range(len(deck)) if deck[g]]
    rests = {g: deck[:g] + (deck[g] - 1,) + deck[g + 1:] for g in removable}
    needed = sorted({m for rest in rests.values() for m in sub_multisets(rest, HAND + TURNS)}
                    | {_minus(rest, m) for rest in rests.values()
                       for m in sub_multisets(rest, HAND + TURNS)})
    orders = _symmetries(deck)
    canonical = {m: min(((_moved(m, o), o) for o in orders), key=lambda x: x[0])
                 for m in needed}
    classes = sorted({c for c, _ in canonical.values()})
    made: dict[Cards, OwnTables] = {}
    if workers > 1:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            tasks = pool.imap_unordered(_own_tables_task, classes, chunksize=1)
            for cards, table, seconds in tasks:
                made[cards] = table
                if growth is not None:
                    growth.append((table.states, seconds))
                if progress is not None:
                    progress(len(made), len(classes))
    else:
        for cards in classes:
            _, made[cards], seconds = _own_tables_task(cards)
            if growth is not None:
                growth.append((made[cards].states, seconds))
            if progress is not None:
                progress(len(made), len(classes))
    tables: dict[Cards, OwnTables] = {}
    for m, (c, order) in canonical.items():
        # order moved m to c; its inverse moves c's tables back to m
        back = tuple(order.index(g) for g in range(NUM_GEISHA))
        tables[m] = _moved_tables(made[c], back)
    counts = RoundCounts()
    patterns = [0] * PATTERNS
    deals = 0
    for g in removable:
        for mine in sub_multisets(rests[g], HAND + TURNS):
            first, second = tables[mine], tables[_minus(rests[g], mine)]
            deals += first.deals * second.deals
            counts.add(round_counts(first, second))
            _pattern_products(first.ends, second.ends, patterns)
    return RoundSize(deals, counts, patterns)


# --- the whole game --------------------------------------------------------------------------


# Markers as integers too: digit g (base 3) is 0 for geisha g's marker in the centre, 1 on player
# 0's side, 2 on player 1's; an absolute pattern likewise (0 a tie, 1 player 0 has more, 2 player
# 1). A starter's-view pattern is absolute when player 0 starts; digits 1 and 2 swap otherwise.
_CODES = range(PATTERNS)
_POWERS = tuple(3 ** g for g in range(NUM_GEISHA))


@cache
def _digits(code: int) -> tuple[int, ...]:
    return tuple(code // _POWERS[g] % 3 for g in range(NUM_GEISHA))


@cache
def _keep(mask: int) -> tuple[int, ...]:
    """Every code with its digits outside ``mask`` (a set of geisha) set to 0."""
    return tuple(sum(d * _POWERS[g] for g, d in enumerate(_digits(code)) if mask >> g & 1)
                 for code in _CODES)


def _markers(code: int) -> Markers:
    return tuple(None if d == 0 else d - 1 for d in _digits(code))


def _swap(code: int) -> int:
    return sum((0, 2, 1)[d] * _POWERS[g] for g, d in enumerate(_digits(code)))


def _absolute(patterns: list[int], starter: int) -> list[int]:
    """The (deal, history) pairs of a round by absolute pattern, when ``starter`` starts."""
    if starter == 0:
        return list(patterns)
    out = [0] * PATTERNS
    for code, n in enumerate(patterns):
        if n:
            out[_swap(code)] = n
    return out


def _step(weights: dict[int, int], absolute: list[int]) -> dict[int, int]:
    """The marker states after one more round, with the pairs leading to each: a marker moves
    to the side with more cards and stays on a tie (SCORE-2, SCORE-3), so the state after a
    pattern tied on the geisha ``T`` is the pattern off ``T`` and the state before on ``T``.
    So for each pattern that occurs, the states before count only by their digits on its ``T``
    (a marginal, made once per ``T``): at most 3^|T| products a pattern, 5^7 in all for every
    pattern, where pairing every state with every pattern would be 3^7 * 3^7."""
    out: dict[int, int] = defaultdict(int)
    marginals: dict[int, dict[int, int]] = {}
    for pattern, n in enumerate(absolute):
        if not n:
            continue
        tied = _tied(pattern)
        marginal = marginals.get(tied)
        if marginal is None:
            keep_tied = _keep(tied)
            marginal = marginals[tied] = defaultdict(int)
            for code, w in weights.items():
                marginal[keep_tied[code]] += w
        for key, before in marginal.items():
            out[pattern + key] += before * n  # the pattern's digits are 0 where key's are not
    return dict(out)


@cache
def _tied(pattern: int) -> int:
    """The set of geisha a pattern ties, as a bit mask."""
    return sum(1 << g for g, d in enumerate(_digits(pattern)) if d == 0)


class GameSize:
    """The whole game counted round by round (rounds from 1 here; the engine counts from 0):
    ``entering[k]`` the histories that reach round k's deal, ``nodes[k]`` the nodes of round
    k's trees after its deals (every depth 0..12), ``ending[k]`` the terminal histories that end
    in round k, ``decisions[k]`` the decision nodes of each player (0 and 1 as in the record,
    player 0 starting round 1), ``live_states[k]`` the marker states with no goal after round k.
    ``cycle``: for a game with no round limit, marker states that can come back to themselves
    without a goal (see :func:`_cycle`), or None if there are none."""

    __slots__ = ("rounds", "entering", "nodes", "ending", "decisions", "cycle", "live_states")

    def __init__(self) -> None:
        self.rounds = 0
        self.entering: list[int] = []
        self.nodes: list[int] = []
        self.ending: list[int] = []
        self.decisions: list[tuple[int, int]] = []
        self.cycle: tuple[Markers, tuple[int, ...]] | None = None
        self.live_states: list[int] = []


@cache
def _goal(rules: Rules, round_index: int) -> tuple[bool, ...]:
    """Whether the game ends after round ``round_index`` (from 0) with each marker state."""
    return tuple(rules.round_result(_markers(code), round_index) is not None for code in _CODES)


def game_size(size: RoundSize, rules: Rules, rounds: int, cycle: bool = True) -> GameSize:
    """The first ``rounds`` rounds of the game under ``rules`` (all of them when the rules end
    the game sooner, VAR-IT-1), from the number of (deal, history) pairs of a round by
    pattern. The starting player alternates (UPDATE-4): round k (from 1) is started by player
    0 when k is odd. Each (deal, history) pair of a round is a pair whatever the markers were
    (the actions do not depend on them), so the counts multiply."""
    nodes_per_round = sum(size.counts.nodes)
    decisions = (sum(size.counts.decisions[0]), sum(size.counts.decisions[1]))
    out = GameSize()
    reach: dict[int, int] = {0: 1}
    k = 0
    while reach and k < rounds:
        k += 1
        starter = (k - 1) % 2
        entering = sum(reach.values())
        out.entering.append(entering)
        out.nodes.append(entering * nodes_per_round)
        mine, theirs = decisions if starter == 0 else decisions[::-1]
        out.decisions.append((entering * mine, entering * theirs))
        after = _step(reach, _absolute(size.patterns, starter))
        ends = _goal(rules, k - 1)
        out.ending.append(sum(n for code, n in after.items() if ends[code]))
        reach = {code: n for code, n in after.items() if not ends[code]}
        out.live_states.append(len(reach))
    out.rounds = k
    if rules.max_rounds is None and cycle:
        out.cycle = _cycle(size.patterns, rules)
    return out


def _cycle(patterns: list[int], rules: Rules) -> tuple[Markers, tuple[int, int]] | None:
    """Why a game with no round limit can go on for ever, if it can: a marker state with no
    goal, reachable from the start, that one round started by each player (UPDATE-4 alternates
    them) brings back to itself, and the two patterns that do. The start itself comes first:
    if some deal and history tie every geisha, the markers never move. Raises when the game
    can last for ever only by a longer cycle (no witness of this form)."""
    ends = _goal(rules, 0)  # with no round limit the goal test is the same after every round
    by_starter = (_absolute(patterns, 0), _absolute(patterns, 1))
    start = _returns(0, by_starter)
    if start is not None:
        return _markers(0), start
    seen = {(0, 0)}
    frontier = {0: 1}
    starter = 0
    reached: list[set[int]] = [{0}, set()]
    while frontier:  # every (markers, starter) reachable with no goal on the way
        after = _step(frontier, by_starter[starter])
        starter = 1 - starter
        frontier = {}
        for code in after:
            if not ends[code] and (code, starter) not in seen:
                seen.add((code, starter))
                reached[starter].add(code)
                frontier[code] = 1
    for code in sorted(reached[0] & reached[1]):
        back = _returns(code, by_starter)
        if back is not None:
            return _markers(code), back
    if _has_cycle(seen, by_starter, ends):
        raise NotImplementedError("the game can go on for ever, but by no two-round cycle: "
                                  "no witness of this form to show")
    return None


def _returns(code: int, by_starter: tuple[list[int], list[int]]) -> tuple[int, int] | None:
    """A pattern of a round started by player 0 and one of a round started by player 1 (each
    from its starter's view) that leave the markers ``code`` where they are, or None: such a
    pattern ties where a marker is central and agrees with the markers elsewhere."""
    back = []
    for s in (0, 1):
        table = by_starter[s]
        found = [p for p in _CODES if table[p] and all(
            d == 0 or d == m for d, m in zip(_digits(p), _digits(code)))]
        if not found:
            return None
        back.append(_starter_view(found[0], s))
    return back[0], back[1]


def _starter_view(code: int, starter: int) -> int:
    return code if starter == 0 else _swap(code)


def _has_cycle(states: set[tuple[int, int]], by_starter: tuple[list[int], list[int]],
               ends: tuple[bool, ...]) -> bool:
    """Whether the graph of reachable marker states with no goal (and who starts) has a cycle:
    remove states with no successor left until none is left (Kahn) or some remain (a cycle)."""
    succ = {}
    for code, starter in states:
        after = _step({code: 1}, by_starter[starter])
        succ[(code, starter)] = {(a, 1 - starter) for a in after if not ends[a]}
    alive = set(succ)
    changed = True
    while changed:
        changed = False
        for node in list(alive):
            if not succ[node] & alive:
                alive.discard(node)
                changed = True
    return bool(alive)


# --- information sets ------------------------------------------------------------------------
#
# The OpenSpiel game's information state (integrations/encoding, ``info_state_string``) is the
# player's last view of each earlier round and their view now, each the engine's ``observe``:
# within a round, the view now. It holds the player's hand now, their own actions with their
# cards, the opponent's actions with the cards shown (a gift, a competition; a secret or a
# trade-off face down), every pick, and the opponent's hidden cards as counts. It does not
# hold which of the player's cards came in which draw: two deals whose draws came in another
# order but leave the same hand are one information state.


def _projection(kind: int, cards: Cards) -> tuple:
    """An action as the opponent sees it (INFO-2): a secret or a trade-off face down."""
    return (kind,) if kind in (SECRET, TRADE_OFF) else (kind, cards)


@cache
def _offers(hand: Cards, kind: int) -> tuple[tuple[tuple, Cards, tuple[tuple, ...]], ...]:
    """The distinct actions of ``kind`` from ``hand`` as (what everyone sees of the cards, the
    hand left, the distinct picks): a secret's or trade-off's cards are hidden from the
    opponent, so several actions can look alike."""
    out: list[tuple[tuple, Cards, tuple[tuple, ...]]] = []
    for cards in sub_multisets(hand, KIND_SIZES[kind]):
        left = _minus(hand, cards)
        if kind in (SECRET, TRADE_OFF):
            out.append(((cards,), left, ((),)))
        elif kind == GIFT:
            out.append(((cards,), left, tuple((g,) for g in range(NUM_GEISHA) if cards[g])))
        else:
            for a, b in _splits(cards):
                out.append((((a, b),), left, ((a,),) if a == b else ((a,), (b,))))
    return tuple(out)


def opponent_views(hand: Cards, draws: tuple[int, ...]) -> tuple[dict[tuple[int, int], int],
                                                                  dict[tuple[int, int], int]]:
    """For one own deal, the distinct sequences of the player's first ``j`` actions (``r`` of
    them offers) as the opponent sees them, with the picks: (complete, ending with an offer
    still to be answered), like :class:`OwnTables`' ``full`` and ``pending``. Prefixes that
    look alike are one; the programme keeps, for each class of such prefixes, the set of hands
    the player can hold (the kinds used are seen, so they are the class's), and counts the
    prefixes per class: two classes with the same hands have the same futures."""
    full: dict[tuple[int, int], int] = defaultdict(int)
    pending: dict[tuple[int, int], int] = defaultdict(int)
    layer: dict[tuple[frozenset, int], int] = {(frozenset({hand}), 0b1111): 1}
    full[(0, 0)] = 1
    for turn in range(1, TURNS + 1):
        card = draws[turn - 1]
        nxt: dict[tuple[frozenset, int], int] = defaultdict(int)
        for (hands, unused), count in layer.items():
            seen: dict[tuple, set] = defaultdict(set)
            shown_offers = set()
            for held in hands:
                drawn = held[:card] + (held[card] + 1,) + held[card + 1:]
                for kind in range(4):
                    if not unused >> kind & 1:
                        continue
                    for (cards,), left, picks in _offers(drawn, kind):
                        shown = _projection(kind, cards)
                        if kind in (GIFT, COMPETITION):
                            shown_offers.add(shown)
                        for pick in picks:
                            seen[(shown, pick)].add(left)
            for (shown, _pick), lefts in seen.items():
                after = unused & ~(1 << shown[0])
                nxt[(frozenset(lefts), after)] += count
                full[(turn, _OFFERS[after])] += count
            for shown in shown_offers:
                pending[(turn, _OFFERS[unused & ~(1 << shown[0])])] += count
        layer = nxt
    return dict(full), dict(pending)


def deal_infosets(removed: int, hands: tuple[tuple[int, ...], tuple[int, ...]],
                  draws: tuple[int, ...], starter: int = 0) -> tuple[list[int], list[int]]:
    """Each player's information sets in one deal's round by depth (``[0]`` the starter's, as
    :class:`RoundCounts`). Within one deal a player's view is their own sequence (every one
    distinct: they see their cards) and the opponent's as seen; the two trees do not affect
    each other, so every pair occurs, and the count is a product (:func:`interleave_views`)."""
    first, second = deal_tables(removed, hands, draws, starter)
    seen_first = opponent_views(C.counts(hands[starter]), tuple(draws[0::2]))
    seen_second = opponent_views(C.counts(hands[1 - starter]), tuple(draws[1::2]))
    return interleave_views(((first.full, first.pending), (second.full, second.pending)),
                            (seen_first, seen_second))


_Tables = tuple[dict[tuple[int, int], int], dict[tuple[int, int], int]]


def interleave_views(own: tuple[_Tables, _Tables], seen: tuple[_Tables, _Tables]
                     ) -> tuple[list[int], list[int]]:
    """A player's information sets by depth: at their action after ``done`` turns, their own
    complete sequences times the opponent's as seen; at their answer to an offer, their own
    times the opponent's seen sequences ending with that offer. ``own[p]``/``seen[p]`` are
    player ``p``'s (full, pending) tables, own and as the other player sees them."""
    out = ([0] * 13, [0] * 13)
    for done in range(2 * TURNS):
        j = ((done + 1) // 2, done // 2)
        mover = done % 2
        other = 1 - mover
        for (jm, rm), cm in own[mover][0].items():
            if jm != j[mover]:
                continue
            for (jo, ro), co in seen[other][0].items():
                if jo == j[other]:
                    out[mover][done + rm + ro] += cm * co
        for (ja, ra), ca in own[other][0].items():
            if ja != j[other]:
                continue
            for (jm, rm), cm in seen[mover][1].items():
                if jm == j[mover] + 1:
                    out[other][done + ra + rm] += ca * cm
    return out


def _sequences(deck: Cards, shown_only: bool) -> tuple[dict[Cards, dict[tuple[int, int], int]],
                                                     dict[Cards, dict[tuple[int, int], int]]]:
    """Over every deal: a player's distinct sequences of ``j`` actions (``r`` offers) by the
    cards they use, as (complete, ending with an offer not yet answered), keyed by those cards
    (their own view: every card they played) or, with ``shown_only``, by the cards the opponent
    sees (a secret's or trade-off's cards are hidden; it is one sequence whatever they were)."""
    full: dict[Cards, dict[tuple[int, int], int]] = defaultdict(lambda: defaultdict(int))
    pending: dict[Cards, dict[tuple[int, int], int]] = defaultdict(lambda: defaultdict(int))
    empty = (0,) * NUM_GEISHA
    layer: dict[tuple[Cards, int], int] = {(empty, 0b1111): 1}
    full[empty][(0, 0)] = 1
    for turn in range(1, TURNS + 1):
        nxt: dict[tuple[Cards, int], int] = defaultdict(int)
        for (used, unused), count in layer.items():
            left_deck = _minus(deck, used)
            for kind in range(4):
                if not unused >> kind & 1:
                    continue
                after = unused & ~(1 << kind)
                r = _OFFERS[after]
                if shown_only and kind in (SECRET, TRADE_OFF):
                    if sum(left_deck) >= KIND_SIZES[kind]:
                        nxt[(used, after)] += count
                        full[used][(turn, r)] += count
                    continue
                for (cards,), _left, picks in _offers(left_deck, kind):
                    spent = _plus(used, _plus(cards[0], cards[1]) if kind == COMPETITION else cards)
                    if kind in (GIFT, COMPETITION):
                        pending[spent][(turn, r)] += count
                    nxt[(spent, after)] += count * len(picks)
                    full[spent][(turn, r)] += count * len(picks)
        layer = nxt
    return full, pending


def _dominated(table: dict[Cards, dict[tuple[int, int], int]], within: Cards) -> dict[tuple[int, int], int]:
    """The sum of ``table[u]`` over every ``u`` that is part of ``within``."""
    out: dict[tuple[int, int], int] = defaultdict(int)
    for part in product(*(range(n + 1) for n in within)):
        row = table.get(part)
        if row:
            for key, count in row.items():
                out[key] += count
    return out


def round_infosets(deck: Cards = FULL_DECK) -> tuple[list[int], list[int]]:
    """Each player's information sets of one round over every deal, by depth (``[0]`` the
    starter's): at a decision of player p who has seen the cards ``S`` (six and a draw per turn
    begun) and played ``j`` actions, their distinct own sequences with cards within ``S`` times
    the opponent's distinct seen sequences whose shown cards fit in the rest of the deck. Every
    such pair is the view of some deal: order the cards of each player's actions by use into
    hand then draws (the first k actions use at most 6 + k cards: 4 + 3 + 2 + 1 in the worst
    order), and give the hidden roles (the opponent's hidden cards, the removed card, the
    undrawn) the cards left, which are exactly as many as those roles hold."""
    own_full, own_pending = _sequences(deck, shown_only=False)
    seen_full, seen_pending = _sequences(deck, shown_only=True)
    del own_pending
    out = ([0] * 13, [0] * 13)
    for size in range(HAND, HAND + TURNS + 1):
        for cards in sub_multisets(deck, size):
            mine = _dominated(own_full, cards)
            rest = _minus(deck, cards)
            theirs = _dominated(seen_full, rest)
            theirs_pending = _dominated(seen_pending, rest)
            draws = size - HAND
            for done in range(2 * TURNS):
                j = ((done + 1) // 2, done // 2)
                mover = done % 2
                # the mover, at their action: their draws are their turns begun, j + 1
                if draws == j[mover] + 1:
                    _pairs(out[mover], done, mine, j[mover], theirs, j[1 - mover])
                # the other, answering the mover's offer: draws are their turns so far
                if draws == j[1 - mover]:
                    _pairs(out[1 - mover], done, mine, j[1 - mover], theirs_pending, j[mover] + 1)
    return out


def _pairs(out: list[int], done: int, a: dict[tuple[int, int], int], ja: int,
           b: dict[tuple[int, int], int], jb: int) -> None:
    for (j1, r1), c1 in a.items():
        if j1 != ja:
            continue
        for (j2, r2), c2 in b.items():
            if j2 == jb:
                out[done + r1 + r2] += c1 * c2


# --- the sampling estimate -------------------------------------------------------------------


def shuffles(hands: tuple[tuple[int, ...], tuple[int, ...]], deck: Cards = FULL_DECK) -> int:
    """The orders of the 21 physical cards that give a deal with these hands (DEAL-1..4): the
    cards of one geisha are alike, and the order within a hand does not matter."""
    return (math.prod(math.factorial(c) for c in deck)
            * multinomial(C.counts(hands[0])) * multinomial(C.counts(hands[1])))


#: One path of Knuth's estimator through one round: the deal's weight (the deals per shuffle),
#: the weights of the round's nodes summed, of the starter's and the other's decision nodes,
#: the terminal weight, and the round's outcome pattern (the starter's view).
Path = tuple[float, float, float, float, float, int]


@cache
def round_paths(samples: int, seed: int) -> tuple[Path, ...]:
    """Knuth's estimator (1975) of one round, played by the engine itself: a deal drawn as the
    game draws it (a shuffle), weighted by the deals per shuffle (``21!/shuffles``), then
    uniform decisions, each node weighing the product of the deal's weight and the branching
    factors above it. Summed over a path, a figure's weights are an unbiased sample of it: the
    deals, the nodes, each player's decision nodes, the terminal histories, and the terminal
    histories of each outcome pattern (the path's terminal weight on its pattern, zero on the
    others). Path ``i`` is game ``i`` of seed ``seed`` (engine/core/seeded.py); kept, since
    both variants' estimates use the same paths."""
    from hanamikoji.engine.core.seeded import game_rng
    from hanamikoji.engine.hanamikoji.game import (
        Phase,
        apply,
        current_player,
        legal_actions,
        new_game,
        random_deal,
    )
    from hanamikoji.engine.hanamikoji.rules import STANDARD

    total = math.factorial(sum(FULL_DECK))
    out: list[Path] = []
    for i in range(samples):
        rng = game_rng(seed, i)
        deal = random_deal(rng)
        weight = total / shuffles(deal.hands)
        deals = weight
        state = apply(new_game(STANDARD, 0), deal)  # player 0 starts; one round's tree
        nodes, decisions = 0.0, [0.0, 0.0]
        while state.phase in (Phase.ACTION, Phase.RESPONSE):
            nodes += weight
            decisions[current_player(state)] += weight
            choices = legal_actions(state)
            weight *= len(choices)
            state = apply(state, choices[rng.randrange(len(choices))])
        side0, side1 = state.scores[-1].sides
        pattern = sum((STARTER if a > b else OTHER if b > a else TIE) * 3 ** g
                      for g, (a, b) in enumerate(zip(side0, side1)))
        out.append((deals, nodes + weight, decisions[0], decisions[1], weight, pattern))
    return tuple(out)


def _estimated_round(paths: tuple[Path, ...], indices: list[int]) -> RoundSize:
    """The one-round figures estimated from the given paths: each the mean of its samples."""
    n = len(indices)
    sums = [0.0] * 5
    patterns = [0.0] * PATTERNS
    for i in indices:
        path = paths[i]
        for f in range(5):
            sums[f] += path[f]
        patterns[path[5]] += path[4]
    deals, nodes, first, second, terminal = (x / n for x in sums)
    counts = RoundCounts()  # only the sums over depths are estimated: put them at the ends
    # floats where the exact figures are integers: game_size only adds and multiplies them
    counts.nodes = [nodes - terminal] + [0] * 11 + [terminal]  # type: ignore[assignment]
    counts.decisions = ([first], [second])  # type: ignore[list-item]
    return RoundSize(deals, counts, [p / n for p in patterns])  # type: ignore[arg-type, misc]


def estimate(samples: int, seed: int, rules: Rules,
             rounds: int) -> tuple[dict[str, dict], int]:
    """Every estimated figure, from ``samples`` paths through one round (:func:`round_paths`).
    The round's figures are means of the paths; the whole game's are the same exact programme
    over the marker states (:func:`game_size`) applied to the estimated patterns: the rounds of
    a game are independent given their patterns, so a game's figures are sums of products of
    one round's, and sampling one round and combining exactly keeps the estimate's error that
    of one round, where a path through several rounds multiplies several heavy-tailed weights.
    The intervals are the delete-a-group jackknife's (:func:`jackknife`), which carries the
    uncertainty of the patterns through the programme. Also: how many patterns the paths
    saw."""
    paths = round_paths(samples, seed)

    def statistic(indices: list[int]) -> dict[str, float]:
        size = _estimated_round(paths, indices)
        figures = {"deals": float(size.deals), "nodes": float(sum(size.counts.nodes)),
                   "decisions-0": float(size.counts.decisions[0][0]),
                   "decisions-1": float(size.counts.decisions[1][0]),
                   "terminal": float(size.counts.nodes[-1]),
                   "all-tied": float(size.patterns[0])}
        game = game_size(size, rules, rounds, cycle=False)
        for k in range(game.rounds):
            figures[f"nodes-{k + 1}"] = float(game.nodes[k])
            figures[f"ending-{k + 1}"] = float(game.ending[k])
        if rules.max_rounds is not None:
            figures["game-histories"] = float(1 + sum(game.nodes))
            figures["game-terminal"] = float(sum(game.ending))
        return figures

    means, intervals = jackknife(statistic, samples)
    figures = {name: {"mean": means[name], "low": intervals[name][0],
                      "high": intervals[name][1]} for name in means}
    return figures, len({path[5] for path in paths})


def round_json(size: RoundSize) -> dict:
    """The one-round sums in the committed file's form (every later figure follows from it)."""
    return {"deals": size.deals, "nodes": size.counts.nodes,
            "decisions": [size.counts.decisions[0], size.counts.decisions[1]],
            "patterns": {str(p): n for p, n in enumerate(size.patterns) if n}}


def round_from_json(obj: dict) -> RoundSize:
    """The one-round sums back from :func:`round_json`'s form."""
    counts = RoundCounts()
    counts.nodes = list(obj["nodes"])
    counts.decisions = (list(obj["decisions"][0]), list(obj["decisions"][1]))
    patterns = [0] * PATTERNS
    for p, n in obj["patterns"].items():
        patterns[int(p)] = n
    return RoundSize(obj["deals"], counts, patterns)


# --- the report ------------------------------------------------------------------------------

#: The committed figures of record: one round summed over every deal (``round_size`` and
#: ``round_infosets``), with what the computation cost. Everything else is computed from them.
RECORD = "size.json"
#: The deal of the worked example: seed 3's, whose round perft counts to depth 12.
EXAMPLE_SEED = 3
#: Rounds shown for a game with no round limit (UPDATE-5).
SHOWN_ROUNDS = 5


#: The parts of the computation whose cost ``--compute`` measures, in the order it runs them.
PARTS = ("deals", "round", "infosets", "game", "sampling")
#: The groups of paths of the jackknife (:func:`hanamikoji.oracle.core.size.jackknife`).
GROUPS = 20
#: The paths of the sampling estimate by default (``--samples``).
SAMPLES = 2000


def compute_record(workers: int = 1, progress=None) -> dict:
    """The figures of record, computed (the documented full computation), with what each part
    cost (:func:`hanamikoji.oracle.core.size.measured`): the deals counted directly, one round
    over every deal (on ``workers`` processes), its information sets, the whole game's
    programme (the standard game to round 5 and the Italian game) and the sampling estimate
    (the default paths, both variants). ``growth``: for each class of ten cards a player can
    hold, the largest layer of the per-player programme and the processor seconds it took."""
    from hanamikoji.engine.hanamikoji.rules import ITALIAN_THREE_ROUNDS, STANDARD
    from hanamikoji.oracle.core.size import measured

    cost: dict = {"workers": workers}
    growth: list = []
    _, cost["deals"] = measured(deal_census)
    size, cost["round"] = measured(lambda: round_size(workers=workers, progress=progress,
                                                      growth=growth))
    infosets, cost["infosets"] = measured(round_infosets)
    _, cost["game"] = measured(lambda: [game_size(size, rules, rules.max_rounds or SHOWN_ROUNDS)
                                        for rules in (STANDARD, ITALIAN_THREE_ROUNDS)])
    _, cost["sampling"] = measured(lambda: [estimate(SAMPLES, 0, rules,
                                                     rules.max_rounds or SHOWN_ROUNDS)
                                            for rules in (STANDARD, ITALIAN_THREE_ROUNDS)])
    cost["growth"] = [[states, round(seconds, 2)] for states, seconds in sorted(growth)]
    return {"round": round_json(size), "infosets": [infosets[0], infosets[1]], "cost": cost}


def load_record() -> dict:
    """The committed figures of record."""
    import json
    from importlib.resources import files

    return json.loads(files(__package__).joinpath(RECORD).read_text())


@cache
def _deal_example() -> dict:
    from hanamikoji.engine.hanamikoji.codec import deal_json
    from hanamikoji.oracle.hanamikoji.perft import seeded_deal

    deal = seeded_deal(EXAMPLE_SEED)
    first, second = deal_tables(deal.removed, deal.hands, deal.draws)
    counts = round_counts(first, second)
    infosets = deal_infosets(deal.removed, deal.hands, deal.draws)
    return {"seed": EXAMPLE_SEED, "deal": deal_json(deal), "nodes": counts.nodes,
            "histories": sum(counts.nodes), "terminal": counts.nodes[-1],
            "decisions": [sum(counts.decisions[0]), sum(counts.decisions[1])],
            "infosets": [sum(infosets[0]), sum(infosets[1])],
            "infosets_by_depth": [infosets[0], infosets[1]],
            "shuffles": shuffles(deal.hands)}


def report(rules: Rules, samples: int, seed: int, record: dict) -> dict:
    """Every figure of ``hanamikoji size`` for ``rules``, from the figures of record."""
    size = round_from_json(record["round"])
    infosets = record["infosets"]
    distinct, by_shuffles = deal_census()
    if distinct != size.deals:
        raise AssertionError(f"the deals counted two ways differ: {distinct} and {size.deals}")
    rounds = rules.max_rounds or SHOWN_ROUNDS
    game = game_size(size, rules, rounds)
    estimates, seen = estimate(samples, seed, rules, rounds)
    live = sum(1 for n in size.patterns if n)
    out: dict = {
        "variant": rules.name,
        "deals": {"distinct": distinct, "shuffles": math.factorial(sum(FULL_DECK)),
                  "by_shuffles": [[s, n] for s, n in by_shuffles.items()]},
        "deal": _deal_example(),
        "round": {"histories": sum(size.counts.nodes), "terminal": size.counts.nodes[-1],
                  "decisions": [sum(size.counts.decisions[0]), sum(size.counts.decisions[1])],
                  "infosets": [sum(infosets[0]), sum(infosets[1])],
                  "nodes": size.counts.nodes,
                  "decisions_by_depth": [size.counts.decisions[0], size.counts.decisions[1]],
                  "infosets_by_depth": infosets,
                  "patterns": live, "all_tied": size.patterns[0]},
        "game": {"rounds": [{"round": k + 1, "entering": game.entering[k],
                             "histories": game.nodes[k], "decisions": list(game.decisions[k]),
                             "ending": game.ending[k], "going_on": game.live_states[k]}
                            for k in range(game.rounds)],
                 "round_limit": rules.max_rounds},
        "estimates": estimates,
        "sampling": {"paths": samples, "seed": seed, "patterns_seen": seen},
        "cost": record["cost"],
    }
    if rules.max_rounds is not None:
        out["game"].update(histories=1 + sum(game.nodes), terminal=sum(game.ending),
                           decisions=[sum(d[0] for d in game.decisions),
                                      sum(d[1] for d in game.decisions)],
                           bounded=True)
    else:
        cycle = game.cycle
        out["game"]["bounded"] = cycle is None
        if cycle is not None:
            out["game"]["cycle"] = {"markers": list(cycle[0]), "patterns": list(cycle[1])}
    return out


def _pattern_text(pattern: int) -> str:
    """A pattern as seven letters, geisha 0 first: S the starter has more, O the other, = tie."""
    out = ""
    for _ in range(NUM_GEISHA):
        out += "=SO"[pattern % 3]
        pattern //= 3
    return out


def text(out: dict) -> list[str]:
    """The report for people: every big integer exact, with thousands separators."""
    deals, deal, rnd, game = out["deals"], out["deal"], out["round"], out["game"]
    low, high = deals["by_shuffles"][0][0], deals["by_shuffles"][-1][0]
    lines = [f"Hanamikoji, variant {out['variant']}: card identities are not told apart, an "
             "action is a kind and a multiset of cards (perft's counts)",
             "",
             f"deals: {exact(deals['distinct'])} distinct (removed card, two hands, the draws "
             f"in order), from {exact(deals['shuffles'])} shuffles; each is given by "
             f"{exact(low)} to {exact(high)} shuffles",
             "",
             f"one round of one deal (seed {deal['seed']}):",
             f"  histories            {exact(deal['histories'])}",
             f"  terminal histories   {exact(deal['terminal'])}",
             f"  decision nodes       {exact(deal['decisions'][0])} (starter), "
             f"{exact(deal['decisions'][1])} (other)",
             f"  information sets     {exact(deal['infosets'][0])} (starter), "
             f"{exact(deal['infosets'][1])} (other)",
             "",
             "one round, every deal:",
             f"  histories            {exact(rnd['histories'])}",
             f"  terminal histories   {exact(rnd['terminal'])}",
             f"  decision nodes       {exact(rnd['decisions'][0])} (starter), "
             f"{exact(rnd['decisions'][1])} (other)",
             f"  information sets     {exact(rnd['infosets'][0])} (starter), "
             f"{exact(rnd['infosets'][1])} (other)",
             f"  outcome patterns     {rnd['patterns']} of {PATTERNS} occur; all seven tied: "
             f"{exact(rnd['all_tied'])} (deal, history) pairs",
             "",
             "the whole game, round by round (players 0 and 1; player 0 starts round 1):",
             "  round  entering  histories  decisions (player 0, player 1)  ending"]
    for row in game["rounds"]:
        lines.append(f"  {row['round']}  {exact(row['entering'])}  {exact(row['histories'])}  "
                     f"{exact(row['decisions'][0])}, {exact(row['decisions'][1])}  "
                     f"{exact(row['ending'])}")
    if game["round_limit"] is not None:
        lines += [f"  in all: {exact(game['histories'])} histories, {exact(game['terminal'])} "
                  f"terminal, {exact(game['decisions'][0])} and {exact(game['decisions'][1])} "
                  f"decision nodes; at most {game['round_limit']} rounds"]
    elif "cycle" in game:
        cycle = game["cycle"]
        shown = " ".join("-" if m is None else str(m) for m in cycle["markers"])
        lines += [f"  unbounded: the markers {shown} (geisha 0 to 6; - in the centre) reach no "
                  f"goal, are reachable, and come back after a round with the pattern "
                  f"{_pattern_text(cycle['patterns'][0])} started by player 0 and one with "
                  f"{_pattern_text(cycle['patterns'][1])} started by player 1 (S the starter "
                  "has more, O the other, = a tie), for ever"]
    else:
        lines += ["  bounded: no cycle of marker states without a goal"]
    lines += ["", f"sampling estimates (Knuth's estimator through one round, "
              f"{out['sampling']['paths']} paths; the whole game by the same programme over "
              "the estimated patterns; 99.9% jackknife interval) against the exact figure:"]
    for name, exact_figure in _estimated(out):
        e = out["estimates"][name]
        inside = "holds" if e["low"] <= exact_figure <= e["high"] else "MISSES"
        lines.append(f"  {name:<14} {e['mean']:.3e} ({e['low']:.3e} to {e['high']:.3e}): "
                     f"{inside} {exact(exact_figure)}")
    lines += [f"  outcome patterns: {out['sampling']['patterns_seen']} seen on the paths, a lower "
              f"bound only (on the {rnd['patterns']} that occur): no sample tells how many "
              "patterns too rare to be drawn there are",
              "  information sets: not estimated (a sampled history does not tell how many "
              "histories share its view)"]
    return lines + [""] + cost_text(out["cost"])


def cost_text(cost: dict) -> list[str]:
    """What each part of ``--compute`` cost, and how the round's work grows."""
    lines = ["cost of each part, measured on this machine by 'size --compute --workers "
             f"{cost['workers']}' (processor seconds with memory tracing on, workers "
             "included; peak of memory allocated by Python; each worker's largest resident "
             "size):"]
    names = {"deals": "the deals", "round": "one round, every deal",
             "infosets": "its information sets", "game": "the whole game (both variants)",
             "sampling": "the sampling (both variants)"}
    for part in PARTS:
        c = cost[part]
        line = (f"  {names[part]:<31} {c['cpu_seconds']:>8.1f} s  "
                f"{c['peak_traced_kib'] / 1024:>6.1f} MiB")
        if c["peak_worker_rss_kib"] is not None:
            line += (f"  ({c['worker_cpu_seconds']:.1f} s in the workers, each at most "
                     f"{c['peak_worker_rss_kib'] / 1024:.1f} MiB resident)")
        lines.append(line)
    growth = cost["growth"]  # (largest layer, seconds) per class, by layer
    quarter = len(growth) // 4
    lines.append(f"  how the round grows: the per-player programme ran once per class of ten "
                 f"cards ({len(growth)}); by the largest layer of states it held, in quarters:")
    for q in range(4):
        part = growth[q * quarter:(q + 1) * quarter if q < 3 else len(growth)]
        seconds = sum(t for _, t in part)
        states = sum(n for n, _ in part)
        lines.append(f"    {part[0][0]:>9,} to {part[-1][0]:>9,} states: {seconds:>7.1f} s in "
                     f"all, {1e6 * seconds / states:.1f} s per million states")
    return lines


def _estimated(out: dict) -> list[tuple[str, int]]:
    """Each estimated figure and its exact value."""
    rnd, game = out["round"], out["game"]
    pairs = [("deals", out["deals"]["distinct"]), ("nodes", rnd["histories"]),
             ("decisions-0", rnd["decisions"][0]), ("decisions-1", rnd["decisions"][1]),
             ("terminal", rnd["terminal"]), ("all-tied", rnd["all_tied"])]
    for row in game["rounds"]:
        pairs += [(f"nodes-{row['round']}", row["histories"]),
                  (f"ending-{row['round']}", row["ending"])]
    if game["round_limit"] is not None:
        pairs += [("game-histories", game["histories"]), ("game-terminal", game["terminal"])]
    return pairs


class HanamikojiSize(SizeExtension):
    """Hanamikoji's size: the figures of record for one round, the game over the patterns."""

    def report(self, config: Rules, samples: int, seed: int, compute: bool,
               workers: int) -> dict | None:
        if samples < GROUPS:
            from hanamikoji.runtime.base import UsageError

            raise UsageError(f"size --samples: {samples} paths, but the jackknife deals them into "
                             f"{GROUPS} groups; give at least {GROUPS}")
        if compute:
            try:
                import numpy  # noqa: F401  (the pattern products)
            except ImportError:
                from hanamikoji.runtime.base import UsageError

                raise UsageError("size --compute needs numpy: pip install '.[openspiel]' in a "
                                 "clone of hanamikoji") from None
        record = compute_record(workers) if compute else load_record()
        return report(config, samples, seed, record)

    def text(self, report: dict) -> list[str]:
        return text(report)


EXTENSION = HanamikojiSize
