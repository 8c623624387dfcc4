"""Implementations of ``play`` and ``simulate`` for any game; see :mod:`.cli`."""

from __future__ import annotations

import argparse
import inspect
import json
import os
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, Iterator

from .cli import EXIT_OK, UsageError
from .options import game_and_config
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
    game, config = game_and_config(args)
    players = game.num_players(config)
    if args.first_player >= players:
        raise UsageError(f"--first-player {args.first_player}: {game.name} with {players} players "
                         f"numbers them 0 to {players - 1}")
    state = play_game(game, config, args.seed, 0, args.first_player,
                      getattr(args, "max_turns", None))
    if args.record and game.is_terminal(state):
        with atomic_output(args.record) as out:
            out.write(json.dumps(game.to_record(state), indent=1) + "\n")
    print(f"seed {args.seed}")
    print("\n".join(game.render(state)))
    if not game.is_terminal(state):
        unit, length = game.length(state)
        print(f"unfinished after {length} {unit} (--max-turns {args.max_turns}); no record written")
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
    game, config = game_and_config(args)
    options = game.options_of(config)
    max_turns = getattr(args, "max_turns", None)
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
            jobs = [(game.name, options, args.seed, first, count, 0, out is not None, max_turns)
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
        described = ", ".join(f"{k} {v}" for k, v in options.items())
        print(f"{report['games']} games of {game.name} ({described}) in {report['seconds']:.2f} s "
              f"({report['games_per_second']} games/s), seed {args.seed}")
        print("results by reason: " + ", ".join(f"{k} {v}" for k, v in report["reasons"].items()))
        print("winners:           " + ", ".join(f"{k} {v}" for k, v in report["winners"].items()))
        print(f"{tally.unit} per game:".ljust(19) + _lengths(tally))
        if tally.unfinished:
            print(f"unfinished:        {tally.unfinished} (stopped at --max-turns {max_turns}; "
                  "not counted as results, no records written)")
        if args.records:
            print(f"records written to {args.records}")
    return EXIT_OK


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
def no_hypothesis_litter() -> Iterator[None]:
    """Hypothesis keeps caches in ``.hypothesis/`` of the current folder (its constants cache,
    even with no example database): a command must not leave it in the user's folder, so while
    a command runs Hypothesis it points to a temporary folder, removed afterwards."""
    from hypothesis import configuration

    with tempfile.TemporaryDirectory(prefix="hanamikoji-hypothesis-") as home:
        before = _hypothesis_home(configuration)
        configuration.set_hypothesis_home_dir(home)
        try:
            yield
        finally:
            configuration.set_hypothesis_home_dir(before)


def _hypothesis_home(configuration: Any) -> Path:
    """Hypothesis's home folder now: ``storage_directory()`` returns a path in older versions
    and an object holding it (``home_directory``) in newer ones."""
    where = configuration.storage_directory(intent_to_write=False) if "intent_to_write" in (
        inspect.signature(configuration.storage_directory).parameters) else (
        configuration.storage_directory())
    return Path(getattr(where, "home_directory", where))


@contextmanager
def _nothing() -> Iterator[None]:
    yield None
