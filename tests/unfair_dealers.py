"""A catalogue of unfair dealers, and how many outcomes ``audit`` needs to catch each.

Each dealer is a game's chance step with one bug, in the manner of tests/broken_engines.py: it
takes the game's random source (``random.Random``, one per game, as ``simulate`` gives) and
returns one chance outcome, a Hanamikoji :class:`Deal` per round or a Maiko :class:`Layout`
per game. :func:`flagged` deals ``trials`` seeded runs of a number of outcomes and counts the
runs ``audit``'s tests reject (Holm at ``alpha``); :func:`power` finds, on the grid
:data:`SIZES`, the fewest outcomes at which at least 95 of 100 runs are rejected. A Hanamikoji
run is games of :data:`ROUNDS` rounds each (the starters alternating, player 0 first), a Maiko
run games of two players with the default colours.

``python dev/audit_power.py`` prints the tables of docs/audit.md; tests/test_audit.py checks
them at small sizes. This module imports neither pytest nor hypothesis, so that it loads alone.
"""

from __future__ import annotations

import random
from typing import Any, Callable

import attrs

from broken_engines import COURSE_DEAL, biased_swap_deal
from hanamikoji.engine.hanamikoji import cards as C
from hanamikoji.engine.hanamikoji.actions import Deal
from hanamikoji.engine.hanamikoji.game import random_deal
from hanamikoji.engine.maiko.actions import Layout
from hanamikoji.engine.maiko.components import FRIEND
from hanamikoji.engine.maiko.game_type import GAME as MAIKO
from hanamikoji.oracle.core.audit import holm
from hanamikoji.oracle.hanamikoji.audit import deal_tests
from hanamikoji.oracle.maiko.audit import layout_tests

#: Rounds of each Hanamikoji game of a run.
ROUNDS = 3
#: The numbers of outcomes (rounds, layouts) tried, in order.
SIZES = (10, 20, 30, 50, 75, 100, 150, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000)
#: Runs at each size, and how many must be rejected.
TRIALS, CAUGHT = 100, 95


@attrs.frozen
class Dealer:
    """One game's chance step with one bug: ``bug`` says how, ``rules`` which rule it breaks."""

    name: str
    game: str
    bug: str
    rules: tuple[str, ...]
    deal: Callable[[random.Random], Any]


def _per_game(make: Callable[[random.Random, random.Random], Any]) -> Callable[[random.Random],
                                                                              Any]:
    """A dealer that remembers the game it deals for: ``make(rng, memory)`` with ``memory`` a
    random source of its own made when a new game's ``rng`` first asks."""
    last: list[Any] = [None, None]

    def deal(rng: random.Random) -> Any:
        if last[0] is not rng:
            last[0], last[1] = rng, _Memory(rng)
        return make(rng, last[1])
    return deal


class _Memory(random.Random):
    """The random source of a game's dealer: seeded 0 whatever the game's seed, and holding
    the game's first outcome."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(0)
        self.first: Any = None


def _reused(rng: random.Random, memory: Any) -> Deal:
    if memory.first is None:
        memory.first = random_deal(rng)
    return memory.first


def _seed_ignored(rng: random.Random, memory: Any) -> Deal:
    return random_deal(memory)


def _never_g_removed(rng: random.Random) -> Deal:
    deck = list(C.cards_of(C.FULL_DECK))
    rng.shuffle(deck)
    if deck[0] == 6:  # G is put back into the deck at the first card that is not a G
        other = next(i for i, card in enumerate(deck) if card != 6)
        deck[0], deck[other] = deck[other], deck[0]
    return Deal(deck[0], (deck[1:7], deck[7:13]), deck[13:])


_MAIKO_CONFIG = MAIKO.configure()


def fair_layout(rng: random.Random) -> Layout:
    return MAIKO.sample_chance(MAIKO.new_game(_MAIKO_CONFIG, 0), rng)


def _layout_repeats(rng: random.Random) -> Layout:
    return fair_layout(random.Random(rng.randrange(16)))


def _corner_friend(rng: random.Random) -> Layout:
    tiles = list(fair_layout(rng).tiles)
    if tiles[0] != FRIEND and rng.random() < 0.5:
        friends = [s for s, t in enumerate(tiles) if t == FRIEND]
        other = rng.choice(friends)
        tiles[0], tiles[other] = tiles[other], tiles[0]
    return Layout(tuple(tiles))


#: Our own dealers: what every false-alarm rate is measured on.
FAIR = {"hanamikoji": Dealer("reference", "hanamikoji", "none: the reference's random_deal",
                             (), random_deal),
        "maiko": Dealer("reference", "maiko", "none: the reference's random_layout", (),
                        fair_layout)}

#: Every unfair dealer by name.
DEALERS: dict[str, Dealer] = {d.name: d for d in (
    Dealer("never-shuffled", "hanamikoji", "every round is the BUAA course referee's one deal "
           "(removed G; hands EEFFGG and DEFFGG; draws D D C C B B A A)", ("DEAL-1",),
           lambda rng: COURSE_DEAL),
    Dealer("biased-swap-shuffle", "hanamikoji", "a sorted deck shuffled by swapping each "
           "position with any position (for i: swap(i, random(0..n-1)))", ("DEAL-1",),
           biased_swap_deal),
    Dealer("deal-reused-in-game", "hanamikoji", "the first round's deal is dealt again in every "
           "round of the game", ("UPDATE-1", "DEAL-1"), _per_game(_reused)),
    Dealer("seed-ignored", "hanamikoji", "every game's deals come from a random source seeded "
           "0, whatever the game's seed", ("DEAL-1",), _per_game(_seed_ignored)),
    Dealer("removed-never-g", "hanamikoji", "a G is never the removed card (put back into "
           "the deck for the next card)", ("DEAL-2",), _never_g_removed),
    Dealer("layout-repeats", "maiko", "every layout is one of 16 (a shuffle seeded by 4 bits "
           "of the game's random source)", ("MK-SETUP-5",), _layout_repeats),
    Dealer("layout-favours-a-corner", "maiko", "after the shuffle, half the time a friend tile "
           "is swapped onto space 0", ("MK-SETUP-5",), _corner_friend),
)}


def run_tests(dealer: Dealer, size: int, seed: int, alpha: float) -> list[Any]:
    """``audit``'s tests, judged at ``alpha``, of ``size`` outcomes of ``dealer`` from the
    random sources of games seeded ``seed``, ``seed + 1``, ... (a run's games are its own)."""
    rng = random.Random(seed)
    if dealer.game == "hanamikoji":
        games = []
        for start in range(0, size, ROUNDS):
            game_rng = random.Random(rng.getrandbits(64))
            games.append([(dealer.deal(game_rng), r % 2)
                          for r in range(min(ROUNDS, size - start))])
        _, tests, _ = deal_tests(games)
    else:
        layouts = [dealer.deal(random.Random(rng.getrandbits(64))).tiles for _ in range(size)]
        _, tests = layout_tests(layouts)
    return holm(tests, alpha)


def flagged(dealer: Dealer, size: int, trials: int = TRIALS, alpha: float = 0.01,
            first_seed: int = 0) -> int:
    """How many of ``trials`` seeded runs of ``size`` outcomes ``audit`` rejects."""
    return sum(any(t.failed for t in run_tests(dealer, size, first_seed + trial, alpha))
               for trial in range(trials))


def power(dealer: Dealer, trials: int = TRIALS, caught: int = CAUGHT,
          alpha: float = 0.01) -> tuple[int | None, int]:
    """The fewest outcomes of :data:`SIZES` at which ``audit`` rejects at least ``caught`` of
    ``trials`` runs, and how many it rejects there (None, 0: none of the sizes)."""
    for size in SIZES:
        count = flagged(dealer, size, trials, alpha)
        if count >= caught:
            return size, count
    return None, 0


def records_of(dealer: Dealer, games: int, seed: int = 0,
               options: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """``games`` records of games (of ``options``) whose chance steps ``dealer`` makes, every
    decision drawn uniformly from the legal ones (seeded): records as ``simulate --records``
    writes them."""
    from hanamikoji.engine.core.game import CHANCE
    from hanamikoji.engine.core.registry import get

    game = get(dealer.game)
    config = game.configure(options)
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        game_rng = random.Random(rng.getrandbits(64))
        state = game.new_game(config, 0)
        while not game.is_terminal(state):
            if game.current_player(state) == CHANCE:
                state = game.apply(state, dealer.deal(game_rng))
            else:
                state = game.apply(state, game_rng.choice(game.legal_actions(state)))
        out.append(game.to_record(state))
    return out


def main(argv: list[str] | None = None) -> int:
    """``python tests/unfair_dealers.py NAME [--games N] [--seed S] [--variant V]``: records
    of games dealt by the dealer ``NAME`` (or ``reference``), as JSON Lines on stdout."""
    import argparse
    import json

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("name", choices=sorted(DEALERS) + ["reference"])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variant", default=None)
    args = parser.parse_args(argv)
    dealer = DEALERS.get(args.name) or FAIR["hanamikoji"]
    options = None if args.variant is None else {"variant": args.variant}
    for record in records_of(dealer, args.games, args.seed, options):
        print(json.dumps(record, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
