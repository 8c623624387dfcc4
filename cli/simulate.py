"""Uniform random play of any game: the games behind ``hanamikoji play`` and ``simulate``.

Game ``i`` of seed ``s`` draws from its own ``random.Random`` seeded with the string ``"s/i"``
(hashed with SHA-512 by ``random``, so independent of PYTHONHASHSEED and of the process): the same
seed gives the same games in any process, in any order, on any number of workers. Chance is
drawn through the game (:meth:`Game.sample_chance`), every decision uniformly from
:meth:`Game.legal_actions`.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, Mapping

import attrs

from hanamikoji.engine.core.game import Game
from hanamikoji.engine.core.seeded import game_rng as game_rng  # named here too, as before
from hanamikoji.engine.core.seeded import play_game


def winners_key(winners: tuple[int, ...], players: int) -> str:
    """``"1"`` for a win, ``"shared"`` for a victory shared by every player, ``"0+2"`` for one
    shared by some."""
    if len(winners) == 1:
        return str(winners[0])
    if len(winners) == players:
        return "shared"
    return "+".join(map(str, winners))


@attrs.define
class Tally:
    """Counts of results by reason and winners, of game lengths, and of unfinished games."""

    games: int = 0
    unit: str = "decisions"
    reasons: Counter = attrs.field(factory=Counter)
    winners: Counter = attrs.field(factory=Counter)
    lengths: Counter = attrs.field(factory=Counter)
    unfinished: int = 0

    def add(self, game: Game, state: Any) -> None:
        self.games += 1
        self.unit, length = game.length(state)
        outcome = game.outcome(state)
        if outcome is None:
            self.unfinished += 1
            return
        self.reasons[outcome.reason] += 1
        self.winners[winners_key(outcome.winners, len(game.players(state)))] += 1
        self.lengths[length] += 1

    def merge(self, other: "Tally") -> None:
        self.games += other.games
        self.unit = other.unit
        self.reasons.update(other.reasons)
        self.winners.update(other.winners)
        self.lengths.update(other.lengths)
        self.unfinished += other.unfinished


def play_chunk(game_name: str, options: Mapping[str, Any], seed: int, start: int, count: int,
               first_player: int, with_records: bool,
               max_turns: int | None = None, rotate: bool = False) -> tuple[Tally, list[str]]:
    """Games ``start .. start + count - 1`` of ``seed``: their tally and, if asked, the records
    of the finished ones as JSON lines. With ``rotate``, game i begins with player
    ``i % players`` (:func:`first_of`) instead of ``first_player``. Runs in a worker process;
    everything in and out is picklable (the game travels by name)."""
    from hanamikoji.engine.core.registry import get

    game = get(game_name)
    config = game.configure(options)
    tally = Tally()
    lines: list[str] = []
    for index in range(start, start + count):
        first = first_of(game, config, index) if rotate else first_player
        state = play_game(game, config, seed, index, first, max_turns)
        tally.add(game, state)
        if with_records and game.is_terminal(state):
            lines.append(json.dumps(game.to_record(state), separators=(",", ":")))
    return tally, lines


#: Games per shard of a ``simulate`` campaign (``--shard-size``): small enough that two workers
#: share even a thousand Maiko games evenly (a shard is under a second of work), large enough
#: that handing a shard out costs little beside playing it.
SHARD = 100


def tally_json(tally: Tally) -> str:
    """A tally as one JSON line (a shard's first line): it merges back with :func:`tally_of`."""
    return json.dumps({"games": tally.games, "unit": tally.unit, "unfinished": tally.unfinished,
                       "reasons": sorted(tally.reasons.items()),
                       "winners": sorted(tally.winners.items()),
                       "lengths": sorted(tally.lengths.items())}, separators=(",", ":"))


def tally_of(line: str) -> Tally:
    """The tally :func:`tally_json` wrote."""
    data = json.loads(line)
    return Tally(games=data["games"], unit=data["unit"], unfinished=data["unfinished"],
                 reasons=Counter(dict(map(tuple, data["reasons"]))),
                 winners=Counter(dict(map(tuple, data["winners"]))),
                 lengths=Counter({int(k): v for k, v in data["lengths"]}))


def simulate_shard(game_name: str, options: Mapping[str, Any], seed: int, first_player: int,
                   with_records: bool, max_turns: int | None, rotate: bool, start: int,
                   count: int) -> str:
    """The blob of a ``simulate`` shard (:mod:`hanamikoji.campaign`): games ``start ..
    start + count - 1`` of ``seed``, as their tally's JSON line followed by the records of the
    finished ones, one JSON line each (the lines ``simulate --records`` writes)."""
    tally, lines = play_chunk(game_name, options, seed, start, count, first_player,
                              with_records, max_turns, rotate)
    return "".join([tally_json(tally), "\n"] + [line + "\n" for line in lines])


def simulate_shard_problem(shard: Any, blob: str) -> str | None:
    """Why ``blob``, kept for the ``simulate`` shard ``shard`` (:func:`simulate_shard`'s
    arguments), is not that shard's output, or None: its first line must be a tally, written as
    :func:`tally_json` writes it, of exactly the shard's games, and the lines after it one
    record (a JSON object) per finished game when records are asked for, none otherwise. Some
    12 ms of CPU for 1,000 Hanamikoji games, a seventh of the time to play them."""
    with_records, count = shard.args[4], shard.args[-1]
    head, newline, rest = blob.partition("\n")
    try:
        tally = tally_of(head)
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return "its first line is not the tally of its games"
    if not newline or tally_json(tally) != head:
        return "its first line is not the tally of its games"
    finished = tally.games - tally.unfinished
    if (tally.games != count or not 0 <= tally.unfinished <= tally.games
            or any(sum(c.values()) != finished for c in (tally.reasons, tally.winners,
                                                          tally.lengths))):
        return f"its tally is of {tally.games} games, {tally.unfinished} unfinished, not {count}"
    lines = rest.split("\n")
    if lines.pop() != "":
        return "its last record is cut short"
    wanted = finished if with_records else 0
    if len(lines) != wanted:
        return f"it holds {len(lines)} records, not the {wanted} of its finished games"
    for number, line in enumerate(lines, start=1):
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):
            record = None
        if not isinstance(record, dict):  # decoded, not re-encoded: that would cost 3 times
            return f"its record {number} is not a JSON object"
    return None


def first_of(game: Game, config: Any, index: int) -> int:
    """``simulate --rotate``: game ``index`` begins with player ``index % players``, so every
    seat begins as often (give or take one), and game i is the same game whatever the workers."""
    return index % game.num_players(config)
