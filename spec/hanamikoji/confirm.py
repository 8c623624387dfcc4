"""The second method: every answer of Hanamikoji's catalogue recomputed without z3.

Each function here takes no argument and returns the answer its query must give (as JSON), from
plain Python over the engine's own rules: the side pairs a round can produce enumerated by
recursion (knowing only the deck, COMP-2, and that each side holds 8 cards, which engine play
shows), a breadth-first search over marker rows with the engine's ``score_markers`` and
``Rules.goal_result``, and the 3^7 marker rows. :meth:`Query.run` compares the two answers, so a
changed model answer is an error of ``verify``, never a quiet pass.

>>> len(enumerated_pairs())
122597
"""

from __future__ import annotations

import functools
import itertools
from typing import Any, Iterator

from hanamikoji.engine.hanamikoji import (
    CHARM,
    ITALIAN_THREE_ROUNDS,
    STANDARD,
    Markers,
    Reason,
    Result,
    charm,
    geisha_count,
    held_values,
    score_markers,
)
from hanamikoji.engine.hanamikoji.seeded import play_game

START: Markers = (None,) * 7
ROWS = tuple(itertools.product((None, 0, 1), repeat=7))


def _vectors(total: int, caps: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every vector v with 0 <= v[g] <= caps[g] and sum v == total, by plain recursion."""
    if not caps:
        if total == 0:
            yield ()
        return
    for x in range(min(total, caps[0]) + 1):
        for rest in _vectors(total - x, caps[1:]):
            yield (x,) + rest


@functools.cache
def side_size() -> int:
    """The cards on a side at scoring, from engine play (30 seeded games of each variant)."""
    sizes = {sum(side) for rules in (STANDARD, ITALIAN_THREE_ROUNDS) for i in range(30)
             for score in play_game(11, i, rules).scores for side in score.sides}
    if len(sizes) != 1:
        raise AssertionError(f"engine play puts {sorted(sizes)} cards on a side")
    return sizes.pop()


@functools.cache
def enumerated_pairs() -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Every (A, B) with A + B within the deck and ``side_size()`` cards a side."""
    side = side_size()
    return tuple((a, b) for a in _vectors(side, CHARM)
                 for b in _vectors(side, tuple(c - x for c, x in zip(CHARM, a))))


@functools.cache
def patterns() -> tuple[tuple[int | None, ...], ...]:
    """The favour rows one round can produce from the centre (SCORE-2, SCORE-3)."""
    return tuple(sorted({score_markers(START, a, b) for a, b in enumerated_pairs()},
                        key=lambda r: tuple(-1 if m is None else m for m in r)))


@functools.cache
def search() -> tuple[dict[Markers, int], dict[Markers, int]]:
    """Open rows and final rows of a standard game, each with the fewest rounds to reach it."""
    opened = {START: 0}
    final: dict[Markers, int] = {}
    frontier = [START]
    moves = [tuple((g, m) for g, m in enumerate(p) if m is not None) for p in patterns()]
    rounds = 0
    while frontier:
        rounds += 1
        found = []
        for row in frontier:
            for move in moves:
                after = list(row)
                for g, m in move:
                    after[g] = m
                key = tuple(after)
                if key in opened or key in final:
                    continue
                if STANDARD.goal_result(key) is not None:
                    final[key] = rounds
                else:
                    opened[key] = rounds
                    found.append(key)
        frontier = found
    return opened, final


def limit_rows() -> list[Markers]:
    """VAR-IT-1: the rows after three rounds with no goal (one round can tie every geisha, so
    they are the open rows reached in at most three)."""
    if START not in patterns():
        raise AssertionError("no round ties every geisha")
    return [row for row, rounds in search()[0].items() if rounds <= 3]


def _ended(result: Result | None, row: Markers) -> Result:
    """``result``, of a row that ends the game (a final row of the search, END-2..4, or a row
    at the round limit, VAR-IT-1)."""
    if result is None:
        raise AssertionError(f"the row {row} ends no game")
    return result


def _highest(row: Any, player: int) -> int:
    return max((c for c, m in zip(CHARM, row) if m == player), default=0)


def _sign(x: Any, y: Any) -> int:
    return (x > y) - (x < y)


#: VAR-IT-3's three readings, from the spec's words (+1 player 0 wins the tiebreak, -1 player 1,
#: 0 neither).
READINGS = {
    "a": lambda row: _sign(_highest(row, 0), _highest(row, 1)),
    "b": lambda row: _sign(held_values(row, 0), held_values(row, 1)),
    "c": lambda row: next((1 if m == 0 else -1 for c, m in zip(CHARM, row)
                           if c == max(CHARM) and m is not None), 0),
}


# --- the answers -----------------------------------------------------------------------------


def scored_cards_per_side() -> int:
    return side_size()


def round_outcome_pairs() -> int:
    return len(enumerated_pairs())


def round_favour_patterns() -> int:
    return len(patterns())


def max_round_wins() -> int:
    return max(sum(1 for x, y in zip(a, b) if x > y) for a, b in enumerated_pairs())


def marker_states() -> dict:
    opened, final = search()
    return {"open": len(opened), "final": len(final)}


def simultaneous_goals() -> dict:
    double = [row for row in search()[1]
              if _ended(STANDARD.goal_result(row), row).reason is Reason.CHARM_OVER_GEISHA]
    return {"reachable": bool(double), "final_states": len(double)}


def both_eleven_charm() -> bool:
    return any(charm(r, 0) >= 11 and charm(r, 1) >= 11 for r in ROWS)


def both_four_geisha() -> bool:
    return any(geisha_count(r, 0) >= 4 and geisha_count(r, 1) >= 4 for r in ROWS)


def rulebook_example() -> bool:
    return any(geisha_count(r, p) == 3 and charm(r, p) == 8 and geisha_count(r, 1 - p) == 4
               and charm(r, 1 - p) == 11 for r in ROWS for p in (0, 1))


def max_geisha_at_end() -> int:
    return max(max(geisha_count(row, 0), geisha_count(row, 1)) for row in search()[1])


def win_every_geisha() -> bool:
    return any(geisha_count(r, p) == 7 for r in search()[1] for p in (0, 1))


def fastest_finish() -> dict:
    fastest: dict[str, int] = {}
    for row, rounds in search()[1].items():
        reason = _ended(STANDARD.goal_result(row), row).reason.value
        fastest[reason] = min(rounds, fastest.get(reason, rounds))
    return dict(sorted(fastest.items()))


def unbounded_game() -> bool:
    """A round can tie every geisha (the all-centre pattern), and such a round moves nothing."""
    return START in patterns()


def italian_round_limit() -> dict:
    rows = limit_rows()
    counts = {"charm": 0, "highest-geisha": 0, "shared": 0}
    names = {Reason.ROUND_LIMIT_CHARM: "charm",
             Reason.ROUND_LIMIT_HIGHEST_GEISHA: "highest-geisha", Reason.SHARED: "shared"}
    for row in rows:
        counts[names[_ended(ITALIAN_THREE_ROUNDS.round_result(row, 2), row).reason]] += 1
    readings = {}
    for name, order in READINGS.items():
        by = {"charm": 0, "highest-geisha": 0, "shared": 0}
        for row in rows:
            by["charm" if charm(row, 0) != charm(row, 1) else
               "highest-geisha" if order(row) else "shared"] += 1
        readings[f"reading ({name})"] = by
    return {**counts, **readings}


def tiebreak_readings_agree() -> dict:
    reachable = [r for r in limit_rows() if charm(r, 0) == charm(r, 1)]
    every = [r for r in ROWS if charm(r, 0) == charm(r, 1) and STANDARD.goal_result(r) is None]
    out = {}
    for scope, rows in (("reachable", reachable), ("any", every)):
        for x, y in (("a", "b"), ("a", "c"), ("b", "c")):
            out[f"({x})=({y}) {scope}"] = all(READINGS[x](r) == READINGS[y](r) for r in rows)
    return out


def charm_wording_equivalent() -> bool:
    agree = True
    for row in ROWS:
        for p in (0, 1):
            if geisha_count(row, p) >= 4 and charm(row, 1 - p) >= 11:
                c0, c1 = charm(row, 0), charm(row, 1)
                more = 0 if c0 > c1 else 1 if c1 > c0 else None
                agree = agree and more == 1 - p
    return agree


#: How each answer is recomputed, in words (the report's "second method").
METHODS = {
    "scored-cards-per-side": "engine play: the cards on every side of 60 seeded games",
    "round-outcome-pairs": "plain enumeration of the side pairs within the deck",
    "round-favour-patterns": "the favour rows of the enumerated side pairs",
    "max-round-wins": "the maximum over the enumerated side pairs",
    "marker-states": "a breadth-first search over marker rows with the engine's scoring",
    "simultaneous-goals": "the search's final rows, with the engine's goal_result",
    "both-eleven-charm": "every one of the 3^7 marker rows",
    "both-four-geisha": "every one of the 3^7 marker rows",
    "rulebook-example": "every one of the 3^7 marker rows",
    "max-geisha-at-end": "the search's final rows",
    "win-every-geisha": "the search's final rows",
    "fastest-finish": "the search's final rows and their depths",
    "unbounded-game": "the enumerated side pairs hold a round that ties every geisha",
    "italian-round-limit": "the engine's round_result on the search's rows, and each reading "
                           "in Python",
    "tiebreak-readings-agree": "each reading in Python on the reachable rows and on the 3^7",
    "charm-wording-equivalent": "every one of the 3^7 marker rows",
}
