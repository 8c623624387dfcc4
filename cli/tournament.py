"""``hanamikoji tournament``: bots against each other, a double round-robin judged by the
referee (docs/tournament.md), over :mod:`hanamikoji.oracle.core.tournament`: the games are played
here or as a campaign, counted as they come, written to ``--out``, and the standings printed."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from typing import Any, Generator, Sequence

from hanamikoji.runtime.base import EXIT_OK, UsageError
from hanamikoji.cli.options import game_and_config
from hanamikoji.oracle.core.referee import Limits
from hanamikoji.oracle.core.tournament import (FORFEITS_SHOWN, GameResult, Schedule, Tally,
                                               Tournament, forfeit_entry, lined_up, merged,
                                               played_here, report, shard_problem, shards,
                                               table_lines)


def tournament(args: argparse.Namespace) -> int:
    """The ``tournament`` sub-command: in this process, one game after another, or with
    ``--workers N`` (N > 1), ``--resume DIR`` or a Dask scheduler, as a campaign of shards of
    ``--shard-size`` games; the same bytes either way. With ``--only N``, game N alone, here
    (``--trace``: its exchanges on stderr)."""
    from hanamikoji.campaign import Store, backend_for, scheduler_address
    from hanamikoji.campaign import run as run_shards
    from hanamikoji.runtime.progress import progress_bar
    from hanamikoji.runtime.output import output_folder

    game, config = game_and_config(args)
    bots = lined_up(game, config, args.bots)
    if args.game_time < args.decision_time:
        raise UsageError(f"--game-time ({args.game_time:g} s) is shorter than --decision-time "
                         f"({args.decision_time:g} s)")
    tournament = Tournament(game.name, tuple(sorted(game.options_of(config).items())), bots,
                            args.deals, args.seed,
                            Limits(decision=args.decision_time, game=args.game_time,
                                   start=args.start_time))
    names = [b.name for b in bots]
    schedule = tournament.schedule()
    only = getattr(args, "only", None)
    _check_only(args, only, schedule)
    resume = getattr(args, "resume", None)
    scheduler = None if only is not None else scheduler_address(getattr(args, "scheduler", None))
    backend = store = None
    if only is None and (args.workers > 1 or resume is not None or scheduler is not None):
        if resume is not None:
            store = Store(resume, {
                "command": "tournament", "game": game.name, "options": game.options_of(config),
                "bots": list(args.bots), "deals": args.deals, "seed": args.seed,
                "limits": [args.decision_time, args.game_time, args.start_time],
                "shard_size": args.shard_size}, shard_problem)
        # Before the progress bar starts its thread; workers leave Ctrl-C to this process.
        backend = backend_for(args.workers, scheduler,
                              timeout=getattr(args, "scheduler_timeout", None))
    # Each game is counted (tally) and written as it comes, then dropped: memory stays flat
    # at any --deals, but for the forfeits the report lists (all with --json, else the first
    # ten and a count).
    tally = Tally(len(names))
    played_games = 0
    listed: list[dict[str, Any]] = []
    progress = progress_bar(counted=("forfeits",)) if only is None else None
    forfeits = 0
    with contextlib.ExitStack() as stack:
        if backend is not None:  # closed here if the campaign never started (else a no-op)
            stack.callback(backend.close, True)
        records = games = None
        if args.out:
            folder = stack.enter_context(output_folder(
                args.out, ours=("records.jsonl", "games.jsonl"), command="tournament"))
            records = stack.enter_context(folder.file("records.jsonl"))
            games = stack.enter_context(folder.file("games.jsonl"))
        task = None
        if progress is not None:
            stack.callback(progress.stop)
            progress.start()
            task = progress.add_task("playing", total=schedule.size, forfeits=0)
        if only is not None:
            played: Generator[GameResult, None, None] = _alone(
                tournament, schedule, only, names if args.trace else None)
        elif backend is None:
            played = played_here(tournament, schedule)
        else:
            played = merged(run_shards(shards(tournament, schedule.size, args.shard_size),
                                       backend, store))
            stack.callback(played.close)  # Ctrl-C: the workers stopped, finished shards kept
        for result in played:
            tally.add(result)
            played_games += 1
            if result.forfeit is not None:
                forfeits += 1
                if args.json or len(listed) < FORFEITS_SHOWN:
                    listed.append(forfeit_entry(result, names))
            if records is not None and games is not None:
                if result.forfeit is None:
                    records.write(json.dumps(result.game, separators=(",", ":")) + "\n")
                games.write(json.dumps(result.to_json(names), separators=(",", ":")) + "\n")
            if task is not None and progress is not None:
                progress.update(task, completed=played_games, forfeits=forfeits)
    summary = report(tournament, names, tally, played_games, listed)
    if only is not None:
        summary["only"] = only
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        for line in table_lines(summary, forfeits):
            print(line)
    return EXIT_OK


def _check_only(args: argparse.Namespace, only: int | None, schedule: Schedule) -> None:
    """Refuse ``--only`` with a game the schedule does not have, or with a campaign's options
    (the one game is played here), and ``--trace`` without ``--only``."""
    if only is None:
        if getattr(args, "trace", False):
            raise UsageError("--trace needs --only N: it prints the exchanges of one game")
        return
    if only >= schedule.size:
        raise UsageError(f"--only {only}: the schedule has {schedule.size} games, numbered 0 "
                         f"to {schedule.size - 1}")
    given = [option for option, value in (("--workers", args.workers > 1),
                                          ("--resume", getattr(args, "resume", None)),
                                          ("--scheduler", getattr(args, "scheduler", None)))
             if value]
    if given:
        raise UsageError(f"--only plays one game in this process; it takes no {given[0]}")


def _alone(tournament: Tournament, schedule: Schedule, index: int,
           names: Sequence[str] | None) -> Generator[GameResult, None, None]:
    """Game ``index`` alone; with ``names``, each request and answer on stderr as it passes,
    one line each: ``referee > NAME (seat S): REQUEST``, ``NAME (seat S) > referee: ANSWER``."""
    from hanamikoji.oracle.core import tournament as units  # its play_unit, as played_here's

    trace = None
    if names is not None:
        seating = schedule[index][0]

        def trace(seat: int, what: str, line: str) -> None:
            who = f"{names[seating[seat]]} (seat {seat})"
            said = f"referee > {who}: " if what == "request" else f"{who} > referee: "
            print(said + line, file=sys.stderr, flush=True)

    yield units.play_unit(tournament, index, schedule, trace)
