"""Implementations of the engine's sub-commands (``play``, ``simulate``); see :mod:`.cli`."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from contextlib import contextmanager
from typing import IO, Iterator

from .cli import EXIT_OK, UsageError
from ..hanamikoji.display import render_game
from ..hanamikoji.record import to_record
from ..hanamikoji.rules import Rules
from .simulate import Tally, chunks, play_chunk, play_game


def cannot_read(path: str, error: OSError) -> str:
    """One line saying why ``path`` cannot be read."""
    if isinstance(error, IsADirectoryError):
        return f"cannot read {path}: it is a directory"
    if isinstance(error, FileNotFoundError):
        return f"cannot read {path}: no such file"
    return f"cannot read {path}: {error.strerror or error}"


@contextmanager
def atomic_output(path: str) -> Iterator[IO[str]]:
    """Write ``path`` all at once: to a temporary file beside it, renamed on success, so that a
    failure leaves nothing half-written."""
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise UsageError(f"cannot write {path}: no such directory {directory}")
    if os.path.isdir(path):
        raise UsageError(f"cannot write {path}: it is a directory")
    try:
        handle, temporary = tempfile.mkstemp(dir=directory, prefix=".hanamikoji-", suffix=".tmp")
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror}") from None
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(temporary, 0o666 & ~umask)  # as open() would have made it, not mkstemp's 0600
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            yield out
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def play(args: argparse.Namespace) -> int:
    state = play_game(args.seed, 0, Rules.named(args.variant), args.first_player)
    if args.record:
        with atomic_output(args.record) as out:
            out.write(json.dumps(to_record(state), indent=1) + "\n")
    print(f"seed {args.seed}")
    print("\n".join(render_game(state)))
    return EXIT_OK


def _progress(total: int):
    """A rich progress bar on an interactive stderr, else nothing."""
    if not sys.stderr.isatty():
        return None
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    return Progress("[progress.description]{task.description}", BarColumn(),
                    MofNCompleteColumn(), TimeRemainingColumn(), transient=True,
                    console=__import__("rich.console").console.Console(stderr=True))


def summary(tally: Tally, seconds: float) -> dict:
    return {
        "games": tally.games,
        "seconds": round(seconds, 4),
        "games_per_second": round(tally.games / seconds, 1) if seconds > 0 else None,
        "reasons": dict(sorted(tally.reasons.items())),
        "winners": dict(sorted(tally.winners.items())),
        "rounds": {str(k): v for k, v in sorted(tally.rounds.items())},
    }


def simulate(args: argparse.Namespace) -> int:
    rules = Rules.named(args.variant)
    tally = Tally()
    pieces = chunks(args.games)
    workers = min(args.workers, len(pieces))
    pool = None
    if workers > 1:
        from concurrent.futures import ProcessPoolExecutor

        pool = ProcessPoolExecutor(workers)  # before the progress bar starts its thread
    progress = _progress(args.games)
    start = time.perf_counter()
    with (atomic_output(args.records) if args.records else _nothing()) as out, \
            (pool if pool is not None else _nothing()):
        task = None
        if progress is not None:
            progress.start()
            task = progress.add_task("simulating", total=args.games)
        try:
            jobs = [(args.seed, first, count, rules.name, out is not None)
                    for first, count in pieces]
            # Game i always uses its own seed (simulate.game_rng), and pieces come back in
            # order, so any number of workers gives the same games, tally and records.
            results = (pool.map(play_chunk, *zip(*jobs)) if pool is not None
                       else (play_chunk(*job) for job in jobs))
            done = 0
            for (first, count), (part, lines) in zip(pieces, results):
                tally.merge(part)
                if out is not None:
                    out.writelines(line + "\n" for line in lines)
                done += count
                if task is not None:
                    progress.update(task, completed=done)
        finally:
            if progress is not None:
                progress.stop()
    seconds = time.perf_counter() - start
    report = summary(tally, seconds)
    if args.json:
        print(json.dumps(report))
    else:
        print(f"{report['games']} games of {rules.name} in {report['seconds']:.2f} s "
              f"({report['games_per_second']} games/s), seed {args.seed}")
        print("results by reason: " + ", ".join(f"{k} {v}" for k, v in report["reasons"].items()))
        print("winners:           " + ", ".join(f"{k} {v}" for k, v in report["winners"].items()))
        print("rounds per game:   " + ", ".join(f"{k}: {v}" for k, v in report["rounds"].items()))
        if args.records:
            print(f"records written to {args.records}")
    return EXIT_OK


@contextmanager
def _nothing() -> Iterator[None]:
    yield None
