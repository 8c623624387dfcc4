"""Hanamikoji's part of ``hanamikoji audit``: every round's deal against a uniform shuffle of
the 21 item cards (DEAL-1 to DEAL-4, UPDATE-1).

A deal cuts the shuffled deck into the removed card (1 card, DEAL-2), player 0's and player 1's
hands (6 cards each, known by the cards they hold, DEAL-3) and the draw pile (8 cards in order,
DEAL-4). The tests (:mod:`hanamikoji.oracle.core.audit` for their statistics): the removed
card; each seat's hand; the card at each draw position; every place at once; and repeated deals,
among the rounds of one game (a deal reused, UPDATE-1) and among all rounds (a seed ignored),
against the exact mean a fair shuffle gives (2,064,182,064 distinct deals).

Games read from the course's notation (``--notation buaa``) hold no deal: decoding rebuilds
one from the moves, and of it only what a finished round shows is the game's own: the removed
card (the one card no move shows) and the ten cards each player held (six dealt, four drawn);
which were dealt and in what order the rest were drawn is decoding's choice. So those records
are judged on the removed card and on each player's ten cards only.

The seat that starts is no chance outcome: the first round's starter is chosen outside the
rules (SETUP-1) and the starters then alternate (UPDATE-4), which ``validate`` checks.
"""

from __future__ import annotations

import functools
from collections import Counter
from typing import Any, Sequence

from hanamikoji.engine.hanamikoji import cards as C
from hanamikoji.engine.hanamikoji.actions import Deal
from hanamikoji.oracle.core.audit import (AuditExtension, Collisions, Test, collision_test,
                                          place_test, shuffle_collisions, table_test)

LETTERS = "ABCDEFG"
#: The shuffled cards: how many of each geisha (COMP-2).
COUNTS = {LETTERS[g]: C.FULL_DECK[g] for g in C.GEISHA}
#: What a failure says.
UNFAIR = "deals are not a uniform shuffle"
HAND = 6
DRAWS = 8


@functools.cache
def fair_collisions(rebuilt: bool) -> Collisions:
    """A fair shuffle's distinct deals and the sums of their probabilities squared and cubed:
    a deal as a record holds it (removed card, the two hands, the draw pile in order), or as
    a notation shows it (removed card, each player's ten cards)."""
    counts = list(C.FULL_DECK)
    if rebuilt:
        return shuffle_collisions(counts, [(1, False), (10, False), (10, False)])
    return shuffle_collisions(counts, [(1, False), (HAND, False), (HAND, False), (DRAWS, True)])


def _share(expected: float, n: int) -> str:
    return f"{100 * expected / n:.1f}%" if n else "-"


def cards_of(deal: Deal | bytes) -> bytes:
    """A deal as its 21 cards: the removed card, player 0's hand, player 1's hand, the draws
    in order (what :meth:`HanamikojiAudit.outcomes` keeps of a round)."""
    if isinstance(deal, bytes):
        return deal
    return bytes([deal.removed, *deal.hands[0], *deal.hands[1], *deal.draws])


def _places(cards: bytes, starter: int, rebuilt: bool) -> dict[str, bytes]:
    """Where each card of a deal (:func:`cards_of`) lies: the removed card, each hand (with its
    draws when ``rebuilt``: the ten cards a player held), and each draw position. Draw ``t``
    goes to the starter when ``t`` is even (TURN-2)."""
    removed, hands, draws = cards[:1], (cards[1:1 + HAND], cards[1 + HAND:1 + 2 * HAND]), \
        cards[1 + 2 * HAND:]
    if rebuilt:
        mine, theirs = draws[0::2], draws[1::2]
        held = (hands[0] + (mine if starter == 0 else theirs),
                hands[1] + (theirs if starter == 0 else mine))
        return {"removed": removed, "player 0's cards": held[0], "player 1's cards": held[1]}
    places = {"removed": removed, "player 0's hand": hands[0], "player 1's hand": hands[1]}
    for t in range(DRAWS):
        places[f"draw {t + 1}"] = draws[t:t + 1]
    return places


class HanamikojiAudit(AuditExtension):
    """Hanamikoji's audit: the deal of every round."""

    unit = "round"

    def outcomes(self, final: Any) -> list[tuple[bytes, int]]:
        """Each round's deal as its 21 cards (:func:`cards_of`) and the round's starter
        (UPDATE-4)."""
        first = self.game.first_player(final)
        deals = [d for d in self.game.history(final) if isinstance(d, Deal)]
        return [(cards_of(d), first if r % 2 == 0 else 1 - first) for r, d in enumerate(deals)]

    def tests(self, outcomes: Sequence[Any], rebuilt: bool = False) -> tuple[int, list[Test],
                                                                             list[str]]:
        return deal_tests(outcomes, rebuilt)


def deal_tests(games: Sequence[Sequence[tuple[Deal | bytes, int]]],
               rebuilt: bool = False) -> tuple[int, list[Test], list[str]]:
    """The tests of the deals of ``games``, each a list of (deal, the round's starter) in
    round order, a deal a :class:`Deal` or its 21 cards (:func:`cards_of`): the number of
    rounds, the tests and notes (:meth:`AuditExtension.tests`)."""
    rounds = [pair for game in games for pair in game]
    n = len(rounds)
    sizes: dict[str, int] = {}
    table: Counter = Counter()
    for deal, starter in rounds:
        for place, cards in _places(cards_of(deal), starter, rebuilt).items():
            sizes[place] = len(cards)
            for card in cards:
                table[(place, LETTERS[card])] += 1
    if not sizes:
        sizes = {p: len(c) for p, c in _places(bytes(21), 0, rebuilt).items()}
    tests = []
    for place, size in sizes.items():
        observed = {k: table[(place, k)] for k in COUNTS}
        tests.append(place_test(f"{place}", _rules(place), n, observed, COUNTS, size,
                                _finding(place, size, n), UNFAIR))
    tests.append(table_test(
        "every place", ["DEAL-1", "DEAL-2", "DEAL-3", "DEAL-4"], n, table, sizes, COUNTS,
        lambda place, kind, o, e: (f"of all places, the farthest from a fair shuffle: {_of(place)} "
                                   f"held {kind} {o} times in {n} rounds (expected {e:.1f})"),
        UNFAIR))
    fair = fair_collisions(rebuilt)
    keys = [[_key(deal, starter, rebuilt) for deal, starter in game] for game in games]
    tests.append(collision_test(
        "repeated deals in a game", ["DEAL-1", "UPDATE-1"], keys, fair,
        lambda pairs, mean: (f"{pairs} pairs of rounds of the same game had the same deal "
                             f"(expected {mean:.3g} under a fair shuffle)"),
        "rounds of a game do not each get a new shuffle"))
    tests.append(collision_test(
        "repeated deals", ["DEAL-1"], [[k for game in keys for k in game]], fair,
        lambda pairs, mean: (f"{pairs} pairs of rounds had the same deal (expected "
                             f"{mean:.3g} under a fair shuffle of {fair.distinct:,} "
                             "distinct deals)"),
        "deals repeat far more often than a fair shuffle's"))
    notes = ["the seat that starts is no chance outcome: the first starter is chosen "
             "outside the rules [SETUP-1], then the starters alternate [UPDATE-4], which "
             "'validate' checks"]
    if rebuilt:
        notes.append("the notation holds no deal: of the deals rebuilt from the moves "
                     "only the removed card and each player's ten cards are judged, not "
                     "which were dealt or the order of the draws")
    return n, tests, notes


def _key(deal: Deal | bytes, starter: int, rebuilt: bool) -> bytes:
    """The deal as a value equal for equal deals: each unordered place's cards sorted."""
    places = _places(cards_of(deal), starter, rebuilt)
    return b"".join(cards if place.startswith("draw") else bytes(sorted(cards))
                    for place, cards in places.items())


def _rules(place: str) -> list[str]:
    if place == "removed":
        return ["DEAL-1", "DEAL-2", "UPDATE-1"]
    if place.startswith("draw"):
        return ["DEAL-1", "DEAL-4"]
    return ["DEAL-1", "DEAL-3"] if place.endswith("hand") else ["DEAL-1", "DEAL-3", "DEAL-4"]


def _of(place: str) -> str:
    if place == "removed":
        return "the removed card"
    if place.startswith("draw"):
        return f"the card of {place}"
    return place


def _finding(place: str, size: int, n: int) -> Any:
    def finding(kind: str, observed: int, expected: float) -> str:
        if size == 1:
            what = ("the removed card was" if place == "removed"
                    else f"the card drawn at turn {place.split()[1]} was")
            return (f"{what} {kind} in {observed} of {n} rounds (expected "
                    f"{_share(expected, n)})")
        return (f"{place} held {observed} {kind} cards in all of {n} rounds (expected "
                f"{expected:.1f})")
    return finding


EXTENSION = HanamikojiAudit
