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
from hanamikoji.engine.maiko.components import FRIEND, NUM_ITEMS, PLAYER_COUNTS



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




# --- the ending queries (spec/maiko/model.py) ---------------------------------------------------


def _item_tiles(players: int) -> int:
    return sum(1 for code in Config.make(players).tiles if code != FRIEND)


def winner_nonpositive() -> dict:
    """The lowest score a winner can have: the scores add up to at least minus the item tiles
    in play (T), so the best of N is at least their average, -T/N, rounded up; it is reached
    when the tiles are shared evenly, none of its owner's colour, which needs each player's
    share within what a board can hold of the other colours (checked)."""
    out = {}
    for n in PLAYER_COUNTS:
        share = _item_tiles(n) // n
        assert share <= _fullest(_items(n, lambda c, own: c != own))
        lowest = -share
        out[f"{n} players"] = {"possible": lowest <= 0, "lowest": lowest}
    return out


def _ranked_first(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """MK-SCORE-2, MK-SCORE-3: (score, own-colour tiles) ``a`` beats ``b``."""
    return a[0] > b[0] or (a[0] == b[0] and a[1] > b[1])


def loser_highest_score() -> dict:
    """Enumeration: every (own, other) count a board can hold (own up to the 18 tiles of a
    colour, other up to the fullest board), ranked by points then own tiles; the highest score
    of a board some other board beats (a player who does not win: MK-SCORE-4 names every
    player nobody beats). The other players can always score 0 (an empty board), below both."""
    out = {}
    for n in PLAYER_COUNTS:
        own_most = sum(_items(n, lambda c, own: c == own))
        other_most = _fullest(_items(n, lambda c, own: c != own))
        boards = {(own - other, own) for own in range(own_most + 1)
                  for other in range(other_most + 1)}
        best = max(score for score, own in boards
                   if any(_ranked_first(a, (score, own)) for a in boards))
        out[f"{n} players"] = best
    return out


def largest_lead() -> dict:
    """Enumeration: the leader takes, item by item, 0, 1 or 2 tiles of their colour (every one
    of the 3^9 ways); the other player's lowest is the fullest board they can fill with every
    tile left that is not of their colour (:func:`_fullest`); the largest difference. The leader
    taking a tile of another colour costs them a point and the other at most the same tile, and
    the other taking one of their own colour gains them one, so neither is needed."""
    from itertools import product

    out = {}
    for n in PLAYER_COUNTS:
        config = Config.make(n)
        lead_colour, other_colour = int(config.colours[0]), int(config.colours[1])
        others = Counter(code % NUM_ITEMS for code in config.tiles
                         if code != FRIEND and code // NUM_ITEMS not in (lead_colour,
                                                                         other_colour))
        best = None
        for taken in product(range(3), repeat=NUM_ITEMS):
            left = [others[i] + 2 - taken[i] for i in range(NUM_ITEMS)]
            lead = sum(taken) + _fullest(left)
            best = lead if best is None else max(best, lead)
        out[f"{n} players"] = best
    return out
