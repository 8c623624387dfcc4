"""Implementations of ``play`` and ``simulate`` for any game; see :mod:`.cli`."""

from __future__ import annotations

import argparse
import json
import sys
import time
from contextlib import contextmanager, redirect_stdout
from typing import Any, Iterator

from hanamikoji.cli.simulate import Tally, first_of, play_game, simulate_shard_problem, tally_of
from hanamikoji.runtime import interrupt
from hanamikoji.runtime.base import EXIT_OK, UsageError
from hanamikoji.cli.options import game_and_config
from hanamikoji.runtime.output import is_stdout, output_file, shown, streams
from hanamikoji.runtime.progress import progress_bar
from hanamikoji.engine.core.words import options_text, plural



def play(args: argparse.Namespace) -> int:
    game, config = game_and_config(args)
    players = game.num_players(config)
    if args.first_player >= players:
        raise UsageError(f"--first-player {args.first_player}: {game.name} with {players} players "
                         f"numbers them 0 to {players - 1}")
    state = play_game(game, config, args.seed, 0, args.first_player,
                      getattr(args, "max_turns", None))
    if args.record and game.is_terminal(state):
        with output_file(args.record) as out:
            out.write(json.dumps(game.to_record(state), indent=1) + "\n")
    # With the record on standard output (--record -), the game is shown on stderr.
    shown_on = sys.stderr if args.record and is_stdout(args.record) else sys.stdout
    print(f"seed {args.seed}", file=shown_on)
    print("\n".join(game.render(state)), file=shown_on)
    if not game.is_terminal(state):
        unit, length = game.length(state)
        print(f"unfinished after {length} {unit} (--max-turns {args.max_turns}); no record written",
              file=shown_on)
    return EXIT_OK


def summary(tally: Tally, seconds: float) -> dict:
    report = {
        "games": tally.games,
        "seconds": round(seconds, 4),
        "games_per_second": round(tally.games / seconds, 1) if seconds > 0 else None,
        "reasons": dict(sorted(tally.reasons.items())),
        "winners": dict(sorted(tally.winners.items())),
        tally.unit: {str(k): v for k, v in sorted(tally.lengths.items())},
    }
    if tally.unfinished:
        report["unfinished"] = tally.unfinished
    return report


def simulate(args: argparse.Namespace) -> int:
    """``simulate``: in this process a game at a time, or, with ``--workers N`` (N > 1),
    ``--resume DIR`` or a Dask scheduler, as a campaign of shards of ``--shard-size`` games
    (:mod:`hanamikoji.campaign`) merged in seed order. Either way memory does not grow with
    ``--games``, the records and the tally are the same bytes, and Ctrl-C stops the run and
    reports the games finished so far (exit 130)."""
    from hanamikoji.campaign import scheduler_address

    game, config = game_and_config(args)
    options = game.options_of(config)
    max_turns = getattr(args, "max_turns", None)
    rotate = getattr(args, "rotate", False)
    tally = Tally()
    streamed = bool(args.records) and streams(args.records)
    resume = getattr(args, "resume", None)
    scheduler = scheduler_address(getattr(args, "scheduler", None))
    campaign = args.workers > 1 or resume is not None or scheduler is not None
    shard_size = args.shard_size or game.simulate_shard
    backend = store = None
    if campaign:
        from hanamikoji.campaign import Store, backend_for

        store = None if resume is None else Store(resume, {
            "command": "simulate", "game": game.name, "options": options, "seed": args.seed,
            "records": bool(args.records), "max_turns": max_turns, "rotate": rotate,
            "shard_size": shard_size}, simulate_shard_problem)
        # Before the progress bar starts its thread; workers leave Ctrl-C to this process.
        backend = backend_for(args.workers, scheduler,
                              timeout=getattr(args, "scheduler_timeout", None))
    progress = progress_bar()
    start = time.perf_counter()
    interrupted = False
    try:
        with (output_file(args.records) if args.records else _nothing()) as out:
            task = None
            if progress is not None:
                progress.start()
                task = progress.add_task("simulating", total=args.games)
            try:
                if backend is None:
                    for index in range(args.games):
                        first = first_of(game, config, index) if rotate else 0
                        state = play_game(game, config, args.seed, index, first, max_turns)
                        tally.add(game, state)
                        if out is not None and game.is_terminal(state):
                            out.write(json.dumps(game.to_record(state), separators=(",", ":"))
                                      + "\n")
                        if task is not None:
                            progress.update(task, completed=tally.games)
                else:
                    from hanamikoji.campaign import run, seed_shards

                    shards = seed_shards("hanamikoji.cli.simulate:simulate_shard", args.games,
                                         shard_size, (game.name, options, args.seed, 0,
                                                           out is not None, max_turns, rotate))
                    # Game i always uses its own seed (seeded.game_rng), and shards come back
                    # in order, so any number of workers gives the same games, tally, records.
                    for _, blob in run(shards, backend, store):
                        head, _, lines = blob.partition("\n")
                        tally.merge(tally_of(head))
                        if out is not None:
                            out.write(lines)
                        if task is not None:
                            progress.update(task, completed=tally.games)
            finally:
                if progress is not None:
                    progress.stop()
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if backend is not None:
            backend.close(interrupted=interrupted)
    seconds = time.perf_counter() - start
    report = summary(tally, seconds)
    if interrupted:
        report["interrupted"] = True
        kept = ("" if not args.records else
                f"; the records of those went to {shown(args.records)}" if streamed else
                "; no records written")
        if store is not None:
            kept += f"; the finished shards are kept in {resume} for --resume"
        print(f"hanamikoji simulate: interrupted after {tally.games:,} of {args.games:,} games "
              f"(the summary is of those{kept})", file=sys.stderr)
    # With the records on standard output (--records -), the summary goes to stderr.
    with redirect_stdout(sys.stderr) if args.records and is_stdout(args.records) else _nothing():
        _print_summary(args, game, options, tally, report, interrupted)
    return interrupt.exit_code() if interrupted else EXIT_OK


def _print_summary(args: argparse.Namespace, game: Any, options: dict, tally: Tally,
                   report: dict, interrupted: bool) -> None:
    max_turns = getattr(args, "max_turns", None)
    if args.json:
        print(json.dumps(report))
    elif interrupted and not tally.games:
        pass  # nothing finished: no summary of nothing (the line above says so)
    else:
        described = options_text(options)
        print(f"{plural(report['games'], 'game')} of {game.name} ({described}) in "
              f"{report['seconds']:.2f} s "
              f"({report['games_per_second']} games/s), seed {args.seed}")
        print("results by reason: " + ", ".join(f"{k} {v}" for k, v in report["reasons"].items()))
        print("winners:           " + ", ".join(f"{k} {v}" for k, v in report["winners"].items()))
        print(f"{tally.unit} per game:".ljust(19) + _lengths(tally))
        if tally.unfinished:
            print(f"unfinished:        {tally.unfinished} (stopped at --max-turns {max_turns}; "
                  "not counted as results, no records written)")
        if args.records and not interrupted:
            print(f"records written to {shown(args.records)}")


def _lengths(tally: Tally) -> str:
    """Each length with its count, or, when there are many, their range, median and mean (the
    whole table is in --json)."""
    if len(tally.lengths) <= 12:
        return ", ".join(f"{k}: {v}" for k, v in sorted(tally.lengths.items()))
    values = sorted(tally.lengths.elements())
    mean = sum(values) / len(values)
    return (f"from {values[0]} to {values[-1]}, median {values[len(values) // 2]}, "
            f"mean {mean:.1f} (--json has each)")


@contextmanager
def _nothing() -> Iterator[None]:
    yield None
