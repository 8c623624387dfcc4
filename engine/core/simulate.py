"""Uniform random play: the games behind ``hanamikoji play`` and ``hanamikoji simulate``.

Game ``i`` of seed ``s`` draws from its own ``random.Random`` seeded with the string ``"s/i"``
(hashed with SHA-512 by ``random``, so independent of PYTHONHASHSEED and of the process): the same
seed gives the same games in any process, in any order, on any number of workers.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Iterator

import attrs

from ..hanamikoji.game import State, random_game
from ..hanamikoji.rules import Rules


def game_rng(seed: int, index: int) -> random.Random:
    """The random source of game ``index`` of a run seeded ``seed``."""
    return random.Random(f"{seed}/{index}")


def play_game(seed: int, index: int, rules: Rules, first_player: int = 0) -> State:
    """Game ``index`` of seed ``seed``: every decision uniform over the legal ones."""
    return random_game(game_rng(seed, index), rules, first_player)


def games(seed: int, count: int, rules: Rules, start: int = 0) -> Iterator[State]:
    for index in range(start, start + count):
        yield play_game(seed, index, rules)


@attrs.define
class Tally:
    """Counts of results by reason and winner, and of rounds per game."""

    games: int = 0
    reasons: Counter = attrs.field(factory=Counter)
    winners: Counter = attrs.field(factory=Counter)
    rounds: Counter = attrs.field(factory=Counter)

    def add(self, state: State) -> None:
        assert state.result is not None
        self.games += 1
        self.reasons[state.result.reason.value] += 1
        winner = state.result.winner
        self.winners["shared" if winner is None else str(winner)] += 1
        self.rounds[state.round + 1] += 1

    def merge(self, other: "Tally") -> None:
        self.games += other.games
        self.reasons.update(other.reasons)
        self.winners.update(other.winners)
        self.rounds.update(other.rounds)


CHUNK = 200  # games per task handed to a worker process


def play_chunk(seed: int, start: int, count: int, rules_name: str,
               with_records: bool) -> tuple[Tally, list[str]]:
    """Games ``start .. start + count - 1`` of ``seed``: their tally and, if asked, their records
    as JSON lines. Runs in a worker process; everything in and out is picklable."""
    import json

    from ..hanamikoji.record import to_record

    rules = Rules.named(rules_name)
    tally = Tally()
    lines: list[str] = []
    for state in games(seed, count, rules, start):
        tally.add(state)
        if with_records:
            lines.append(json.dumps(to_record(state), separators=(",", ":")))
    return tally, lines


def chunks(total: int, size: int = CHUNK) -> list[tuple[int, int]]:
    """``(start, count)`` pieces covering ``range(total)`` in order."""
    return [(start, min(size, total - start)) for start in range(0, total, size)]
