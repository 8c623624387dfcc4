"""Geisha, item cards and multisets of cards.

A card is written as its geisha's number, 0..6 from left to right (COMP-1, COMP-2). A multiset of
cards is a 7-tuple of counts per geisha (``Cards``): canonical, hashable, and one-to-one with a
row of z3 integers.

>>> counts((6, 0, 6))
(1, 0, 0, 0, 0, 0, 2)
>>> cards_of((1, 0, 0, 0, 0, 0, 2))
(0, 6, 6)
"""

from __future__ import annotations

import operator
from itertools import combinations

NUM_GEISHA = 7
GEISHA = tuple(range(NUM_GEISHA))
#: COMP-1: charm of each geisha, left to right.
CHARM: tuple[int, ...] = (2, 2, 2, 3, 3, 4, 5)
#: COMP-2: geisha g has CHARM[g] item cards, 21 in all.
FULL_DECK: tuple[int, ...] = CHARM
NUM_CARDS = sum(FULL_DECK)
TOTAL_CHARM = sum(CHARM)

Cards = tuple[int, ...]
EMPTY: Cards = (0,) * NUM_GEISHA


def counts(cards: tuple[int, ...] | list[int]) -> Cards:
    """The multiset of a sequence of geisha numbers, as counts per geisha."""
    row = [0] * NUM_GEISHA
    for card in cards:
        row[card] += 1
    return tuple(row)


def cards_of(multiset: Cards) -> tuple[int, ...]:
    """The sorted geisha numbers of a multiset (the inverse of :func:`counts`)."""
    return tuple(g for g in GEISHA for _ in range(multiset[g]))


def size(multiset: Cards) -> int:
    return sum(multiset)


def add(a: Cards, b: Cards) -> Cards:
    return tuple(map(operator.add, a, b))


def sub(a: Cards, b: Cards) -> Cards:
    """``a - b``; the caller guarantees ``b <= a`` (see :func:`contains`)."""
    return tuple(map(operator.sub, a, b))


def contains(a: Cards, b: Cards) -> bool:
    """Whether multiset ``b`` is part of multiset ``a``."""
    return all(map(operator.ge, a, b))


def sub_multisets(multiset: Cards, k: int) -> tuple[tuple[int, ...], ...]:
    """Every distinct sorted ``k``-card selection from ``multiset``, in sorted order.

    >>> sub_multisets(counts((0, 0, 3)), 2)
    ((0, 0), (0, 3))
    """
    return tuple(sorted(set(combinations(cards_of(multiset), k))))


def describe(multiset: Cards) -> str:
    """A short human form, e.g. ``[0 6 6]``."""
    return "[" + " ".join(str(g) for g in cards_of(multiset)) + "]"
