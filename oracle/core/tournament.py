"""Tournaments: bots against each other, a double round-robin judged by the referee
(docs/tournament.md; ``hanamikoji tournament``).

The schedule is a pure function of the bots, the game's seat count, the number of deals and one
seed. Every group of bots the game seats (every pair, for a 2-seat game; every set of ``k`` for
a ``k``-seat game) plays each deal from every seating: ``k!`` games per deal, so every bot of a
group meets each deal's cards from every seat. Deal ``d`` is the same chance outcomes for every
group (``game_rng(seed, d)``, the toolkit's seeded game ``d``). Game ``i`` of the schedule is an
independent unit (:func:`play_unit`, a function of the tournament and ``i`` only), so units may
run anywhere and in any order; the standings are merged from their results in schedule order.
With ``--workers N``, ``--resume DIR`` or a Dask scheduler the schedule is a campaign
(:mod:`hanamikoji.campaign`): shards of ``--shard-size`` consecutive games
(``games-000000000050-000000000099``), each played by :func:`tournament_shard` on a worker,
merged in schedule order, so the standings, the report and the files are the same bytes as in
one process.

Standings: per bot its games, wins, losses, draws (every seat of a game won: a shared victory)
and forfeits (games lost by a fault), the win rate ``(wins + draws / 2) / games`` with its 95%
Wilson score interval, and a Bradley-Terry rating on the Elo scale, fitted on each game's pairs
of seats (a winner beats a non-winner; two winners or two non-winners tie), with one tie against
each other bot as a prior so that a bot that never lost has a finite rating. Nothing depends on
the clock: the same bots, deals and seed give the same standings, byte for byte.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import shlex
from typing import Any, Generator, Iterable, Iterator, Sequence, overload

import attrs

from hanamikoji.engine.core.game import Game
from hanamikoji.engine.core.registry import get
from hanamikoji.oracle.core.bot import built_in
from hanamikoji.oracle.core.referee import BotSpec, Limits, Trace, play

__all__ = ["GameResult", "Schedule", "Standing", "Tally", "Tournament", "bradley_terry",
           "lined_up", "merged", "play_unit", "played_here", "standings", "table_lines",
           "tournament_shard", "wilson"]

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054

_TASK = "hanamikoji.oracle.core.tournament:tournament_shard"


@attrs.frozen
class Tournament:
    """Everything a tournament's games depend on."""

    game: str
    options: tuple[tuple[str, Any], ...]
    bots: tuple[BotSpec, ...]
    deals: int
    seed: int
    limits: Limits = Limits()

    def game_and_config(self) -> tuple[Game, Any]:
        game = get(self.game)
        return game, game.configure(dict(self.options))

    def seats(self) -> int:
        game, config = self.game_and_config()
        return game.num_players(config)

    def schedule(self) -> Schedule:
        """Each game's seating (bot indices, seat by seat) and deal, in schedule order: a lazy
        sequence, whose games are made as they are asked for."""
        return Schedule(len(self.bots), self.seats(), self.deals)


class Schedule(Sequence[tuple[tuple[int, ...], int]]):
    """The games of a double round-robin, in order: every group of ``seats`` of the ``bots``
    (in ``itertools.combinations`` order), then every deal, then every seating of the group
    (``itertools.permutations`` order). Game ``i`` is computed from ``i`` (:meth:`__getitem__`)
    and iterating makes one game at a time, so the schedule holds only its groups, whatever
    ``deals`` is: a tournament of 10**15 deals starts at once and its memory stays flat."""

    def __init__(self, bots: int, seats: int, deals: int) -> None:
        self.seats, self.deals = seats, deals
        self.groups = tuple(itertools.combinations(range(bots), seats))
        self.per_deal = math.factorial(seats)
        #: The number of games (``len``, which Python bounds by ``sys.maxsize``, for a size
        #: that fits).
        self.size = len(self.groups) * deals * self.per_deal

    def __len__(self) -> int:
        return self.size

    def __iter__(self) -> Iterator[tuple[tuple[int, ...], int]]:
        for group in self.groups:
            for deal in range(self.deals):
                for seating in itertools.permutations(group):
                    yield seating, deal

    @overload
    def __getitem__(self, index: int) -> tuple[tuple[int, ...], int]: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[tuple[tuple[int, ...], int]]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.size))]
        if index < 0:
            index += self.size
        if not 0 <= index < self.size:
            raise IndexError(f"game {index} of a schedule of {self.size}")
        group, within = divmod(index, self.deals * self.per_deal)
        deal, seating = divmod(within, self.per_deal)
        permutations = itertools.permutations(self.groups[group])
        return next(itertools.islice(permutations, seating, None)), deal


@attrs.frozen
class GameResult:
    """One game of the schedule: its seating and deal, the seats that won, why, the forfeit (if
    a bot faulted) and the game as JSON (its record; after a forfeit, the game so far as a
    position, which ``perft --history`` reads)."""

    index: int
    deal: int
    seating: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str
    forfeit: dict[str, Any] | None
    game: dict[str, Any]

    def unit_json(self) -> dict[str, Any]:
        """The whole result as JSON, for a unit played elsewhere (a worker, a shard's file):
        :meth:`from_unit_json` reads it back equal."""
        return {"index": self.index, "deal": self.deal, "seating": list(self.seating),
                "winners": list(self.winners), "reason": self.reason, "forfeit": self.forfeit,
                "game": self.game}

    @classmethod
    def from_unit_json(cls, obj: dict[str, Any]) -> GameResult:
        return cls(obj["index"], obj["deal"], tuple(obj["seating"]), tuple(obj["winners"]),
                   obj["reason"], obj["forfeit"], obj["game"])

    def to_json(self, names: Sequence[str]) -> dict[str, Any]:
        """The game's line of ``games.jsonl``, naming the bots."""
        out: dict[str, Any] = {"game": self.index, "deal": self.deal,
                               "bots": [names[b] for b in self.seating],
                               "winners": list(self.winners), "reason": self.reason}
        if self.forfeit is not None:
            out["forfeit"] = {"bot": names[self.seating[self.forfeit["seat"]]], **self.forfeit}
            out["position"] = self.game
        return out


def bot_seed(seed: int, index: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of game ``index`` of a tournament seeded ``seed``."""
    digest = hashlib.sha256(f"tournament/{seed}/{index}/{seat}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def play_unit(tournament: Tournament, index: int,
              schedule: Sequence[Any] | None = None, trace: Trace | None = None) -> GameResult:
    """Game ``index`` of ``tournament``'s schedule, played (``schedule``: the tournament's,
    when the caller has it already; ``trace``: told every request and answer, as
    :func:`.referee.play` says). Played alone (``tournament --only``), it is the same game as
    in the whole schedule: its deal and bot seeds are functions of ``index``."""
    game, config = tournament.game_and_config()
    seating, deal = (tournament.schedule() if schedule is None else schedule)[index]
    played = play(game, config, [tournament.bots[b] for b in seating],
                  deal_seed=tournament.seed, deal=deal,
                  bot_seeds=[bot_seed(tournament.seed, index, p) for p in range(len(seating))],
                  limits=tournament.limits, trace=trace)
    winners = played.winners(len(seating))
    if played.forfeit is not None:
        history = [game.decision_to_json(d) for d in game.history(played.state)]
        position = {"game": game.name, "options": game.options_of(config),
                    "first_player": game.first_player(played.state), "history": history}
        return GameResult(index, deal, seating, winners, "forfeit", played.forfeit.to_json(),
                          position)
    assert played.outcome is not None
    return GameResult(index, deal, seating, winners, played.outcome.reason, None,
                      game.to_record(played.state))


def tournament_shard(tournament: Tournament, first: int, count: int) -> str:
    """The blob of a tournament's shard (:mod:`hanamikoji.campaign`): games ``first ..
    first + count - 1`` of the schedule, played, one line of :meth:`GameResult.unit_json`
    each."""
    schedule = tournament.schedule()
    return "".join(json.dumps(play_unit(tournament, index, schedule).unit_json(),
                              separators=(",", ":")) + "\n"
                   for index in range(first, first + count))


def shard_problem(shard: Any, blob: str) -> str | None:
    """Why ``blob``, kept for the shard ``shard`` (:func:`tournament_shard`'s arguments), is
    not that shard's output, or None: one result line (:meth:`GameResult.unit_json`) per game
    of its range, in order, each forfeit with the request its bot got (a shard kept by an
    earlier toolkit, whose forfeits lack it, is played again: its games.jsonl lines would not
    be this toolkit's)."""
    first, count = shard.args[-2], shard.args[-1]
    lines = blob.split("\n")
    if lines.pop() != "" or len(lines) != count:
        return f"it holds {len(lines)} games, not {count}"
    for offset, line in enumerate(lines):
        data = json.loads(line)
        if not isinstance(data, dict) or GameResult.from_unit_json(data).index != first + offset:
            return f"its line {offset + 1} is not the result of game {first + offset}"
        if data["forfeit"] is not None and "request" not in data["forfeit"]:
            return (f"its forfeit of game {first + offset} has no request (a shard of an "
                    "earlier toolkit)")
    return None


def shards(tournament: Tournament, total: int, size: int) -> Iterator[Any]:
    """The shards of games ``0 .. total - 1`` of the schedule, ``size`` each, named by their
    games (``games-000000000050-000000000099``)."""
    from hanamikoji.campaign import seed_shards

    return seed_shards(_TASK, total, size, (tournament,), unit="games")


# --- standings -----------------------------------------------------------------------------------


@attrs.frozen
class Standing:
    name: str
    games: int
    wins: int
    losses: int
    draws: int
    forfeits: int
    win_rate: float
    low: float
    high: float
    rating: float

    def to_json(self) -> dict[str, Any]:
        return {"bot": self.name, "games": self.games, "wins": self.wins, "losses": self.losses,
                "draws": self.draws, "forfeits": self.forfeits,
                "win_rate": round(self.win_rate, 4),
                "win_rate_95": [round(self.low, 4), round(self.high, 4)],
                "rating": round(self.rating, 1) + 0.0}  # never -0.0


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n``.

    >>> [round(x, 4) for x in wilson(50, 100)]
    [0.4038, 0.5962]
    """
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def bradley_terry(wins: Sequence[Sequence[float]], iterations: int = 500) -> list[float]:
    """Bradley-Terry strengths from ``wins[i][j]`` (times ``i`` beat ``j``, a tie half each way),
    by Hunter's MM algorithm, with one tie between every two bots as a prior; on the Elo scale
    (400 log10, mean 0 over the bots: the strength ratio 10 is 400 points).

    >>> [round(r) for r in bradley_terry([[0, 3], [1, 0]])]
    [74, -74]
    """
    n = len(wins)
    w = [[wins[i][j] + (0.5 if i != j else 0.0) for j in range(n)] for i in range(n)]
    total = [sum(row) for row in w]
    p = [1.0] * n
    for _ in range(iterations):
        new = []
        for i in range(n):
            denominator = sum((w[i][j] + w[j][i]) / (p[i] + p[j]) for j in range(n) if j != i)
            new.append(total[i] / denominator if denominator else p[i])
        mean = sum(math.log(x) for x in new) / n
        p = [x / math.exp(mean) for x in new]
    return [400 * math.log10(x) for x in p]


class Tally:
    """The counts the standings are made of, added game by game (:meth:`add`), so that a
    tournament keeps no game once counted: per bot its games, wins, losses, draws and
    forfeits, and per pair of bots the wins of one over the other (a tie half each way)."""

    def __init__(self, bots: int) -> None:
        self.rows = [[0, 0, 0, 0, 0] for _ in range(bots)]  # games, wins, losses, draws, forfeits
        self.beat = [[0.0] * bots for _ in range(bots)]

    def add(self, result: GameResult) -> None:
        seats = len(result.seating)
        everyone = len(result.winners) == seats
        for seat, bot in enumerate(result.seating):
            row = self.rows[bot]
            row[0] += 1
            if everyone:
                row[3] += 1
            elif seat in result.winners:
                row[1] += 1
            else:
                row[2] += 1
            if result.forfeit is not None and result.forfeit["seat"] == seat:
                row[4] += 1
        for a, b in itertools.combinations(range(seats), 2):
            x, y = result.seating[a], result.seating[b]
            won_a, won_b = a in result.winners, b in result.winners
            if won_a == won_b:
                self.beat[x][y] += 0.5
                self.beat[y][x] += 0.5
            elif won_a:
                self.beat[x][y] += 1
            else:
                self.beat[y][x] += 1

    def standings(self, names: Sequence[str]) -> list[Standing]:
        """The standings so far, best rating first (then name)."""
        ratings = bradley_terry(self.beat)
        out = []
        for i, name in enumerate(names):
            games, wins, losses, draws, forfeits = self.rows[i]
            score = wins + draws / 2
            low, high = wilson(score, games)
            out.append(Standing(name, games, wins, losses, draws, forfeits,
                                score / games if games else 0.0, low, high, ratings[i]))
        return sorted(out, key=lambda s: (-round(s.rating, 1), s.name))


def standings(names: Sequence[str], results: Iterable[GameResult]) -> list[Standing]:
    """The standings of ``results`` (in schedule order), best rating first (then name)."""
    tally = Tally(len(names))
    for result in results:
        tally.add(result)
    return tally.standings(names)


# --- the bots, the report and the games, as the command and the library take them -------


class BotArgumentError(ValueError):
    """A bot on the command line that names no built-in bot and no command."""


def bot_specs(game: Game, words: Sequence[str]) -> tuple[BotSpec, ...]:
    """Each ``[NAME=]BOT`` of the command line: a built-in bot's name (run in this process) or a
    command (split as a shell splits it; always a process). Repeated names get ``#1``, ``#2``."""
    known = built_in(game)
    made: list[tuple[str, BotSpec]] = []
    for word in words:
        name, equals, what = word.partition("=")
        if not equals or " " in name or not name:
            name, what = word, word
        if what in known:
            made.append((name, BotSpec(name, make=known[what])))
            continue
        try:
            argv = tuple(shlex.split(what))
        except ValueError as error:
            raise BotArgumentError(f"bot {word!r}: {error}") from None
        if not argv:
            raise BotArgumentError(f"bot {word!r}: no command")
        _check_command(game, word, argv[0], known)
        made.append((name, BotSpec(name, argv=argv)))
    counts: dict[str, int] = {}
    for name, _ in made:
        counts[name] = counts.get(name, 0) + 1
    seen: dict[str, int] = {}
    out = []
    for name, spec in made:
        if counts[name] > 1:
            seen[name] = seen.get(name, 0) + 1
            name = f"{name}#{seen[name]}"
        out.append(attrs.evolve(spec, name=name))
    return tuple(out)


def lined_up(game: Game, config: Any, words: Sequence[str]) -> tuple[BotSpec, ...]:
    """The bots ``words`` (:func:`bot_specs`), at least as many as a game of ``config`` seats: a
    :class:`UsageError` otherwise, the one line of the command and of the library alike."""
    from hanamikoji.runtime.base import UsageError

    try:
        bots = bot_specs(game, words)
    except BotArgumentError as error:
        raise UsageError(str(error)) from None
    seats = game.num_players(config)
    if len(bots) < seats:
        raise UsageError(f"{game.name} with these options seats {seats} bots a game; "
                         f"{len(bots)} given")
    return bots


def _check_command(game: Game, word: str, program: str, known: Iterable[str]) -> None:
    """Refuse a bot that is no built-in bot of ``game`` and whose program cannot be run here
    (no such file, or not on the ``PATH``), before any game: run as a command it would only
    forfeit every game. The nearest built-in bot's name is suggested."""
    import difflib
    import os
    import shutil

    if os.sep in program or (os.altsep and os.altsep in program):
        if os.path.isfile(program) and os.access(program, os.X_OK):
            return
        problem = f"no program {program!r} can be run (no such file, or not executable)"
    elif shutil.which(program) is not None:
        return
    else:
        problem = f"no command {program!r} is on the PATH"
    nearest = difflib.get_close_matches(program, list(known), n=1, cutoff=0.0)
    hint = f"; did you mean {nearest[0]!r}?" if nearest else ""
    raise BotArgumentError(f"bot {word!r}: not a built-in bot of {game.name} (those are "
                           f"{', '.join(sorted(known))}) and {problem}{hint}")


#: The forfeits the text report lists (``--json`` lists every one).
FORFEITS_SHOWN = 10


def stderr_line(tail: str | None, limit: int = 200) -> str | None:
    r"""The line of a bot's standard error that says what went wrong, for the text report: the
    last one not indented (a Python traceback's ``RuntimeError: ...``, Node's ``Error: ...``
    above its indented stack; Node's closing ``Node.js v20.11.0`` skipped), cut to ``limit``
    characters; None if there is none.

    >>> stderr_line('Traceback (most recent call last):\n  File "b.py", line 3\nKeyError: 3\n')
    'KeyError: 3'
    >>> stderr_line("abort: at ~lib/rt/itcms.ts:128\n    at f (wasm://1)\n\nNode.js v20.11.0\n")
    'abort: at ~lib/rt/itcms.ts:128'
    """
    lines = [line.rstrip() for line in (tail or "").splitlines()]
    said = [line for line in lines if line and not line[0].isspace()
            and not line.startswith("Node.js v")]
    if not said:
        return None
    return said[-1] if len(said[-1]) <= limit else said[-1][:limit] + "..."


def table_lines(report: dict[str, Any], forfeits: int) -> Iterator[str]:
    deals = report["deals"]
    games = (f"{report['games']} games" if report.get("only") is None
             else f"game {report['only']} alone")
    yield (f"{report['game']}: {len(report['standings'])} bots, {deals} deal{'s' * (deals != 1)} "
           f"per group, {games}, seed {report['seed']}")
    width = max(len("bot"), *(len(s["bot"]) for s in report["standings"]))
    yield (f"{'bot':<{width}}  {'games':>6} {'wins':>6} {'losses':>6} {'draws':>6} "
           f"{'forfeits':>8}  {'win rate':>8}  {'95% interval':<15} {'rating':>7}")
    for s in report["standings"]:
        low, high = s["win_rate_95"]
        yield (f"{s['bot']:<{width}}  {s['games']:>6} {s['wins']:>6} {s['losses']:>6} "
               f"{s['draws']:>6} {s['forfeits']:>8}  {s['win_rate']:>8.3f}  "
               f"{low:.3f} .. {high:.3f}  {s['rating']:>7.1f}")
    for f in report["forfeits"][:FORFEITS_SHOWN]:
        rule = f" [{f['rule']}]" if f["rule"] else ""
        ended = f" ({f['exit']})" if f.get("exit") else ""
        yield f"forfeit: game {f['game']}, {f['bot']} (seat {f['seat']}): {f['kind']}{rule}: " \
              f"{f['message']}{ended}"
        said = stderr_line(f.get("stderr"))
        if said is not None:
            yield f"  stderr: {said}"
    if forfeits > FORFEITS_SHOWN:
        yield f"... and {forfeits - FORFEITS_SHOWN} more forfeits"


def report(tournament: Tournament, names: Sequence[str], tally: Tally, games: int,
           forfeits: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """What ``tournament --json`` prints: the tournament, its standings (of ``tally``, over
    ``games`` games) and the forfeits listed (:func:`forfeit_entry`)."""
    game, config = tournament.game_and_config()
    limits = tournament.limits
    return {
        "game": game.name, "options": game.options_of(config), "seed": tournament.seed,
        "deals": tournament.deals, "games": games,
        "limits": {"decision": limits.decision, "game": limits.game, "start": limits.start},
        "standings": [s.to_json() for s in tally.standings(names)],
        "forfeits": list(forfeits),
    }


def forfeit_entry(result: GameResult, names: Sequence[str]) -> dict[str, Any]:
    """A forfeit as the report lists it: the game's number, then the forfeit's fields."""
    return {"game": result.index, **result.to_json(names)["forfeit"]}


def played_here(tournament: Tournament, schedule: Schedule
            ) -> Generator[GameResult, None, None]:
    """The games of the schedule played one after another in this process."""
    from hanamikoji.runtime import interrupt

    for index in range(schedule.size):
        interrupt.check()
        yield play_unit(tournament, index, schedule)


def merged(blobs: Generator[tuple[Any, str], None, None]
            ) -> Generator[GameResult, None, None]:
    """The games of a campaign's shards, in schedule order (:func:`tournament_shard`)."""
    try:
        for _, blob in blobs:
            for line in blob.splitlines():
                yield GameResult.from_unit_json(json.loads(line))
    finally:
        blobs.close()
