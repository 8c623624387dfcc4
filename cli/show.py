"""``hanamikoji show`` and ``hanamikoji stats``: game records for a person, for any game.

``show FILE...`` prints each record turn by turn as ``play`` prints a game (the game's own
:meth:`Game.render`); ``show --player P`` prints the same display as player P saw the game
(:meth:`Game.render_seen`, built from their :meth:`Game.observe` views), so nothing the rules
hide from P is shown; for a game without that display, P's view at the start and, after each
decision, what changed in it. ``stats FILE...`` summarises the records, in the spirit of
pgn-extract: the results by reason, the winners by seat, who started and how often the starter
won, and the lengths of the games in each game's own unit (:attr:`Game.length_unit`).

Both read files as ``validate`` does (:func:`.validate.records`: JSON Lines, pretty-printed
records, records one after another, ``-`` for standard input); a record that is not valid gets
the line ``validate`` prints for it, on stderr, and the exit code is ``validate``'s (1 if some
are illegal, 2 if any is malformed or a file cannot be read). ``show`` also prints the games of
a tournament's ``games.jsonl`` (:mod:`.tournament_games`): each with its bots, a forfeit up to
the forfeit and then the forfeit itself.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from typing import Any, Iterator

from hanamikoji.runtime.base import UsageError
from hanamikoji.engine.core.game import CHANCE, Game
from hanamikoji.engine.core.registry import get
from hanamikoji.cli.simulate import winners_key
from hanamikoji.oracle.core.notation import notation
from hanamikoji.oracle.core.validate import Status, Tally, records
from hanamikoji.engine.core.words import options_text, plural


def _forced(args: argparse.Namespace) -> Game | None:
    return None if getattr(args, "game", None) is None else get(args.game)


def _valid(args: argparse.Namespace, tally: Tally, command: str,
           paths: list[str] | None = None) -> Iterator[tuple[Any, Game, Any]]:
    """(verdict, game, final state) of each valid record of ``paths`` (default: every path
    given); the others are reported on stderr as ``validate`` reports them."""
    for verdict, game, final in records(args.paths if paths is None else paths, tally, command,
                                        _forced(args), getattr(args, "notation", None)):
        if verdict.judgement.status is Status.VALID and game is not None:
            yield verdict, game, final
        else:
            print(verdict.to_text(), file=sys.stderr)


def _exit_code(tally: Tally) -> int:
    return tally.exit_code()


# --- show ------------------------------------------------------------------------------------


def show(args: argparse.Namespace) -> int:
    """The ``show`` sub-command: records, and the games of a tournament's ``games.jsonl``
    (:func:`show_played`); ``--only N`` shows record N, or game N of a tournament."""
    from hanamikoji.oracle.core.tournament_games import is_games_file

    tally = Tally()
    shown = 0
    only = getattr(args, "only", None)
    for path in args.paths:
        if getattr(args, "notation", None) is None and is_games_file(path):
            shown = show_played(args, path, tally, shown)
        else:
            shown = _show_records(args, path, tally, shown, only)
    if only is not None and not shown and not tally.unreadable:
        raise UsageError(f"--only {only}: no record {only} and no game {only} of a "
                         f"tournament in {', '.join(args.paths)}")
    return _exit_code(tally)


def _show_records(args: argparse.Namespace, path: str, tally: Tally, shown: int,
                  only: int | None) -> int:
    """Each valid record of ``path`` (record ``only`` alone, if given) as ``show`` prints it;
    the number shown so far."""
    name = getattr(args, "notation", None)
    for verdict, game, final in _valid(args, tally, "show", [path]):
        if only is not None and verdict.index != only:
            continue
        if shown:
            print()
        shown += 1
        # A file in a notation is shown in the notation's terms, where the game has them.
        written = None if name is None else notation(game, name).render(name, final, args.player)
        if args.player is None:
            print(f"{verdict.source}:{verdict.line}: record {verdict.index}")
            lines: Iterator[str] = iter(game.render(final) if written is None else written)
        else:
            players = len(game.players(final))
            if args.player >= players:
                raise UsageError(f"--player {args.player}: record {verdict.index} is a game of "
                                 f"{players} players, numbered 0 to {players - 1}")
            print(f"{verdict.source}:{verdict.line}: record {verdict.index}, as player "
                  f"{args.player} saw it")
            seen = game.render_seen(final, args.player) if written is None else written
            lines = seen_by(game, final, args.player) if seen is None else iter(seen)
        for line in lines:
            print(line)
    return shown


def show_played(args: argparse.Namespace, path: str, tally: Tally, shown: int) -> int:
    """Each game of the tournament's ``games.jsonl`` at ``path`` (game ``--only N`` alone):
    its bots, the game (so far, after a forfeit) as ``show`` prints a record, then the
    forfeit; ``--player P`` shows P's view, and of another seat's forfeit only who and why
    (:func:`.tournament_games.forfeit_lines`). The number shown so far."""
    from hanamikoji.oracle.core.tournament_games import (GamesFileError, forfeit_lines,
                                                         played_games)

    player = args.player
    try:
        for played in played_games(path, _forced(args), getattr(args, "only", None)):
            tally.records += 1
            if played.problem is not None or played.game is None:
                tally.unreadable += 1
                print(f"hanamikoji show: error: {played.problem}", file=sys.stderr)
                continue
            game, final = played.game, played.final
            if shown:
                print()
            shown += 1
            if player is None:
                print(played.heading())
                lines: Iterator[str] = iter(game.render(final))
            else:
                players = len(game.players(final))
                if player >= players:
                    raise UsageError(f"--player {player}: game {played.number} is a game of "
                                     f"{players} players, numbered 0 to {players - 1}")
                print(f"{played.heading()}, as player {player} saw it")
                seen = game.render_seen(final, player)
                lines = seen_by(game, final, player) if seen is None else iter(seen)
            for line in lines:
                print(line)
            if played.forfeit is not None:
                for line in forfeit_lines(played.forfeit, player):
                    print(line)
    except GamesFileError as error:
        tally.unreadable += 1
        print(f"hanamikoji show: error: {error}", file=sys.stderr)
    except BrokenPipeError:
        raise  # the reader of our output went away (| head): hanamikoji.cli.main handles it
    except OSError as error:
        tally.unreadable += 1
        print(f"hanamikoji show: error: cannot read {path}: {error.strerror or error}",
              file=sys.stderr)
    return shown


def seen_by(game: Game, final: Any, player: int) -> Iterator[str]:
    """The game ``final`` ends, as ``player`` saw it: their view at the start, then after each
    decision who made it (a player, or chance) and what changed in the view; then the end.
    Only :meth:`Game.observe` is shown, so nothing hidden from ``player`` appears."""
    title = options_text(game.options_of(game.config_of(final)))
    yield f"{game.title} ({title}); player {game.first_player(final)} starts"
    before: Any = None
    step, actor = 0, ""
    for state in game.states(final):
        view = game.view_to_json(game.observe(state, player))
        if before is None:
            yield "start:"
            yield from _changes(None, view)
        else:
            changes = list(_changes(before, view))
            if changes:
                yield f"step {step}: {actor}"
                yield from changes
            step += 1
        before = view
        mover = game.current_player(state)
        actor = "chance" if mover == CHANCE else (
            "you" if mover == player else f"player {mover}")
    yield f"end: {game.describe_end(final)}"


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(", ", ": "), ensure_ascii=False)


def _changes(before: Any, after: Any) -> Iterator[str]:
    """What changed from view ``before`` to view ``after`` (JSON), a line per key: a list that
    grew by its end shows only what was added (``+``), anything else (a list that was empty
    too) its new value."""
    if not isinstance(after, dict) or not isinstance(before, (dict, type(None))):
        if after != before:
            yield f"  {_compact(after)}"
        return
    for key, value in after.items():
        if before is not None and key in before and before[key] == value:
            continue
        old = None if before is None else before.get(key)
        if (isinstance(old, list) and isinstance(value, list) and old
                and len(value) > len(old) and value[:len(old)] == old):
            for item in value[len(old):]:
                yield f"  {key} + {_compact(item)}"
        else:
            yield f"  {key}: {_compact(value)}"


# --- stats -----------------------------------------------------------------------------------


class _Stats:
    """The counts of one game under one set of options."""

    def __init__(self, game: Game, options: dict[str, Any], plots: bool = False) -> None:
        self.game, self.options = game, options
        self.plots = plots  # count what only the plots show (the standing at the end)
        self.standing: dict[str, list[Counter]] = {}
        self.games = 0
        self.reasons: Counter = Counter()
        self.winners: Counter = Counter()
        self.starters: Counter = Counter()
        self.starter_won = 0
        self.lengths: Counter = Counter()
        #: Whether every record came from a tournament, which seats each bot in every seat:
        #: that every game began with one player is then no unfairness to note.
        self.tournament = True
        self.unit = game.length_unit
        self.seat_wins: Counter = Counter()
        self.scores: list[Counter] = []

    def add(self, final: Any, tournament: bool = False) -> None:
        game = self.game
        outcome = game.outcome(final)
        self.games += 1
        self.tournament = self.tournament and tournament
        self.unit, length = game.length(final)
        self.lengths[length] += 1
        first = game.first_player(final)
        self.starters[str(first)] += 1
        if outcome is not None:
            self.reasons[outcome.reason] += 1
            self.winners[winners_key(outcome.winners, len(game.players(final)))] += 1
            self.starter_won += first in outcome.winners
            for seat in outcome.winners:
                self.seat_wins[seat] += 1
            for seat, score in enumerate(outcome.scores or ()):
                while len(self.scores) <= seat:
                    self.scores.append(Counter())
                self.scores[seat][score] += 1
            if self.plots:
                from hanamikoji.viewer.core.page import standing

                for what, values in (standing(game, final) or {}).items():
                    seats = self.standing.setdefault(what, [])
                    for seat, value in enumerate(values):
                        while len(seats) <= seat:
                            seats.append(Counter())
                        seats[seat][value] += 1

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game.name, "options": self.options, "games": self.games,
                "reasons": dict(sorted(self.reasons.items())),
                "winners": dict(sorted(self.winners.items())),
                "first_player": dict(sorted(self.starters.items())),
                "first_player_won": self.starter_won,
                self.unit: {str(k): v for k, v in sorted(self.lengths.items())}}

    def charts(self) -> tuple[str, list[tuple[str, str, dict[str, int]]]]:
        """The group's plots for ``stats --html``: a heading, and (caption, x label, counts)."""
        described = ", ".join(f"{k} {v}" for k, v in self.options.items())
        lengths = {str(k): self.lengths.get(k, 0)
                   for k in range(min(self.lengths, default=0), max(self.lengths, default=0) + 1)}
        players = max([len(self.scores)] + [s + 1 for s in self.seat_wins])
        charts = [(f"game lengths ({self.unit})", self.unit, lengths),
                  ("ends by reason", "reason", dict(sorted(self.reasons.items()))),
                  ("wins by seat (a shared win counts for each winner)", "player",
                   {str(p): self.seat_wins.get(p, 0) for p in range(players)})]
        for seat, counts in enumerate(self.scores):
            charts.append((f"scores of player {seat}", "score", _spread(counts)))
        for what, seats in self.standing.items():  # Hanamikoji: geisha won, charm
            for seat, counts in enumerate(seats):
                charts.append((f"{what} of player {seat} at the end", what, _spread(counts)))
        return f"{self.games} games of {self.game.name} ({described})", charts

    def lines(self) -> Iterator[str]:
        described = options_text(self.options)
        yield f"{plural(self.games, 'game')} of {self.game.name} ({described})"
        for label, counts in (("results by reason", self.reasons), ("winners", self.winners),
                              ("first player", self.starters)):
            yield f"{label}:".ljust(19) + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
        yield f"first player won:  {self.starter_won} of {self.games}"
        if self.games > 1 and len(self.starters) == 1 and not self.tournament:
            (only,) = self.starters
            yield (f"note:              every game began with player {only}, so the seats are "
                   "not compared fairly ('simulate' begins with player 0 unless --rotate)")
        yield f"{self.unit} per game:".ljust(19) + _lengths(self.lengths)


def _from_tournament(source: str) -> bool:
    """Whether ``source`` is the ``records.jsonl`` of a ``tournament --out`` folder: the
    ``games.jsonl`` beside it (a regular file; nothing else is opened) names each game's bots."""
    import os
    import pathlib
    import stat

    from hanamikoji.oracle.core.tournament_games import is_games_file

    path = pathlib.Path(source)
    games = path.parent / "games.jsonl"
    try:
        if path.name != "records.jsonl" or not stat.S_ISREG(os.lstat(games).st_mode):
            return False
    except OSError:
        return False
    # told by how it begins: a first line holding a forfeit (its request, its stderr, the
    # game so far) may be longer than any bound a whole line would be read to
    return is_games_file(str(games))


def _spread(counts: Counter) -> dict[str, int]:
    """``counts`` of whole numbers as a chart's bars: every value from the least to the most,
    none left out (a value no game had is a bar of 0)."""
    return {str(k): counts.get(k, 0) for k in range(min(counts), max(counts) + 1)}


def _lengths(lengths: Counter) -> str:
    """Each length with its count, or, when there are many, their range, median and mean."""
    if len(lengths) <= 12:
        return ", ".join(f"{k}: {v}" for k, v in sorted(lengths.items()))
    values = sorted(lengths.elements())
    mean = sum(values) / len(values)
    return (f"from {values[0]} to {values[-1]}, median {values[len(values) // 2]}, "
            f"mean {mean:.1f} (--json has each)")


def stats(args: argparse.Namespace) -> int:
    """The ``stats`` sub-command."""
    tally = Tally()
    groups: dict[tuple[str, str], _Stats] = {}
    tournaments: dict[str, bool] = {}
    finals: list[tuple[Game, Any]] = []  # for the page's plots of chance (audit)
    for verdict, game, final in _valid(args, tally, "stats"):
        if getattr(args, "html", None):
            finals.append((game, final))
        options = game.options_of(game.config_of(final))
        key = (game.name, json.dumps(options, sort_keys=True, default=str))
        group = groups.get(key)
        if group is None:
            group = groups[key] = _Stats(game, options, plots=bool(getattr(args, "html", None)))
        if verdict.source not in tournaments:
            tournaments[verdict.source] = _from_tournament(verdict.source)
        group.add(final, tournaments[verdict.source])
    counts = {status.value: tally.counts[status] for status in Status}
    if getattr(args, "html", None):
        from hanamikoji.oracle.core.audit import audit
        from hanamikoji.runtime.output import write_text
        from hanamikoji.viewer.core.plots import audit_charts, stats_page

        import pathlib

        chance = audit_charts(audit(finals, rebuilt=getattr(args, "notation", None) is not None))
        write_text(pathlib.Path(args.html), stats_page(
            f"hanamikoji stats: {tally.records} records",
            [group.charts() for group in groups.values()] + chance))
    if args.json:
        print(json.dumps({"records": tally.records, **counts,
                          "groups": [g.to_json() for g in groups.values()]}))
    else:
        print(f"{plural(tally.records, 'record')}: "
              + ", ".join(f"{v} {k}" for k, v in counts.items()))
        for group in groups.values():
            print()
            for line in group.lines():
                print(line)
    return _exit_code(tally)
