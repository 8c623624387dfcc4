"""The second method for Maiko's scoring queries: every number recomputed without z3, by plain
arithmetic over the tiles each configuration lays (``Config.tiles``): a final board holds at
most the tiles in play, and a board that was filled holds at most 3 tiles on the item space
filled last (MK-END-1: a pair filled it, one tutor tile may follow; :mod:`.findings` says why).

>>> score_range()["2 players"]
{'highest': 18, 'lowest': -35}
"""

from __future__ import annotations

from collections import Counter

from hanamikoji.engine.maiko import Config
from hanamikoji.engine.maiko.components import FRIEND, NUM_ITEMS

PLAYER_COUNTS = (2, 3, 4)


def _items(players: int, keep) -> list[int]:
    """Per item, the tiles in play whose colour ``keep`` accepts (player 0's view)."""
    config = Config.make(players)
    counts = Counter(code % NUM_ITEMS for code in config.tiles
                     if code != FRIEND and keep(code // NUM_ITEMS, int(config.colours[0])))
    return [counts[i] for i in range(NUM_ITEMS)]


def _fullest(per_item: list[int]) -> int:
    """The most tiles a final board can hold from ``per_item``: all of eight items and at most
    3 of the last-filled one, or all but one item's (a board never full)."""
    total = sum(per_item)
    filled = max(total - n + min(3, n) for n in per_item)
    never_full = max(total - n for n in per_item)
    return max(filled, never_full)


def score_range() -> dict:
    return {f"{n} players": {"highest": sum(_items(n, lambda c, own: c == own)),
                             "lowest": -_fullest(_items(n, lambda c, own: c != own))}
            for n in PLAYER_COUNTS}


def most_tiles_on_board() -> dict:
    return {f"{n} players": _fullest(_items(n, lambda c, own: True)) for n in PLAYER_COUNTS}


METHODS = {
    "score-range": "arithmetic over the tiles each configuration lays",
    "most-tiles-on-board": "arithmetic over the tiles each configuration lays",
}
