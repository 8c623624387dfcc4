"""``diff`` as a campaign (:mod:`hanamikoji.campaign`): the games cut into shards, each
compared on a worker against an adapter process of its own.

Shard ``games-F-L`` plays ``L - F + 1`` games drawn from a source seeded by the run's seed and ``F``
(the first shard by the seed itself), and only the first shard checks the engine's seeded chance
outcomes. Its games depend on those, the engine's answers and the options alone, never on what
its worker process ran before (:func:`hanamikoji.oracle.core.diff.seed_only_draws`): the games
compared are the same for any number of workers, on any backend. The shards are merged in order:
the divergence reported is that of the first shard that found one (shrunk there), and its game
is counted from the first game of the run, so the verdict is the same for any number of workers
and any order the shards finish in. The games are a different draw from ``diff`` without
campaign options (one Hypothesis run of ``--games``); ``--workers 1`` (or ``--shard-size``)
gives the sharded draw in this process.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from typing import Any, Sequence

from hanamikoji.runtime.base import EXIT_FAILED, EXIT_OK, UsageError
from hanamikoji.campaign import Store, backend_for, scheduler_address, seed_shards
from hanamikoji.campaign import run as run_shards
from hanamikoji.oracle.core import diff as D

#: Games per shard when ``--shard-size`` is not given.
SHARD = 25
_TASK = "hanamikoji.oracle.core.diff_campaign:diff_shard"


def shard_seed(seed: int, first: int) -> int:
    """The Hypothesis seed of the shard whose first game is ``first``: the run's own for the
    first shard, else one drawn from both by SHA-256 (independent of the process)."""
    if first == 0:
        return seed
    return int.from_bytes(hashlib.sha256(f"{seed}/{first}".encode()).digest()[:8], "big")


def diff_shard(argv: Sequence[str], game_name: str, configs: Sequence[Any], seed: int,
               timeout: float, shrink: int, first: int, count: int) -> str:
    """The blob of a ``diff`` shard: its report as one JSON object (see :func:`_report_json`)."""
    from hanamikoji.runtime.progress import no_hypothesis_litter
    from hanamikoji.engine.core.registry import get

    try:
        with no_hypothesis_litter():
            report = D.compare_engines(argv, games=count, seed=shard_seed(seed, first),
                                       variants=configs, timeout=timeout, shrink=shrink,
                                       game=get(game_name), seeded_check=first == 0)
    except D.CannotStart as error:
        return json.dumps({"cannot_start": str(error)}) + "\n"
    return json.dumps(_report_json(report)) + "\n"


def _report_json(report: D.Report) -> dict[str, Any]:
    d = report.divergence
    divergence = None if d is None else {
        "variant": d.variant, "first_player": d.first_player, "decisions": list(d.decisions),
        "request": d.request, "reference": D._printable(d.reference),
        "other": D._printable(d.other), "message": d.message, "game": d.game,
        "options": [list(pair) for pair in d.options], "where": d.where, "texts": list(d.texts)}
    return {"games": report.games, "divergence": divergence,
            "engine_starts": report.engine_starts, "shrunk": report.shrunk,
            "view_keys": None if report.view_keys is None else list(report.view_keys),
            "shrink_games": report.shrink_games, "cut_short": report.cut_short}


def _divergence(data: dict[str, Any]) -> D.Divergence:
    return D.Divergence(data["variant"], data["first_player"], tuple(data["decisions"]),
                        data["request"], data["reference"], data["other"], data["message"],
                        data["game"], tuple(tuple(pair) for pair in data["options"]),
                        data["where"], tuple(data["texts"]))


#: The keys of a shard's report (:func:`_report_json`), and the types of the counts.
_COUNTS = ("games", "engine_starts", "shrink_games", "cut_short")
_KEYS = {*_COUNTS, "divergence", "shrunk", "view_keys"}


def shard_problem(shard: Any, blob: str) -> str | None:
    """Why ``blob``, kept for the ``diff`` shard ``shard`` (:func:`diff_shard`'s arguments), is
    not that shard's output, or None: one JSON line, the report of its games (every game of its
    range compared, or a divergence in one of them) or the adapter's failure to start."""
    count = shard.args[-1]
    text, newline, rest = blob.partition("\n")
    data = json.loads(text)
    if not newline or rest or not isinstance(data, dict):
        return "it is not one JSON object on one line"
    if set(data) == {"cannot_start"}:
        return None if isinstance(data["cannot_start"], str) else "it is not a shard's report"
    keys = data.get("view_keys")
    if (set(data) != _KEYS or any(type(data[key]) is not int or data[key] < 0 for key in _COUNTS)
            or type(data["shrunk"]) is not bool or not (keys is None or (
                isinstance(keys, list) and all(isinstance(key, str) for key in keys)))):
        return "it is not a shard's report"
    if data["divergence"] is None and data["games"] != count:
        return f"its report is of {data['games']} games, not {count}"
    if data["divergence"] is not None:
        if not 1 <= data["games"] <= count:
            return f"its divergence is in game {data['games']}, not one of its {count}"
        _divergence(data["divergence"])  # a KeyError or a TypeError if it is not one
    return None


def campaign_asked(args: argparse.Namespace) -> bool:
    """Whether ``diff`` runs as a campaign: ``--workers`` given (any number, 1 too, so that
    the games compared are the same for every number), ``--shard-size``, ``--resume`` or a
    Dask scheduler."""
    return (getattr(args, "workers", None) is not None
            or getattr(args, "resume", None) is not None
            or getattr(args, "shard_size", None) is not None
            or scheduler_address(getattr(args, "scheduler", None)) is not None)


def run(args: argparse.Namespace) -> int:
    """The ``diff`` sub-command: in this process (:func:`hanamikoji.oracle.core.diff.run`)
    unless ``--workers N``, ``--shard-size``, ``--resume`` or a Dask scheduler asks for a
    campaign (:func:`campaign_asked`)."""
    if not campaign_asked(args):
        return D.run(args)
    if getattr(args, "leaks", False):
        raise UsageError("--leaks runs in one process: leave out --workers, --shard-size, "
                         "--resume and --scheduler (and HANAMIKOJI_SCHEDULER)")
    argv = D.engine_command(args)
    from hanamikoji.runtime.options import game_and_config, option_values

    game, _ = game_and_config(D._without_variant(args))
    if getattr(args, "variant", None) == "both" and \
            not any(option.name == "variant" for option in game.options):
        option_values(game, args)  # raises the one-line error of every command
    configs = tuple(D.hooks(game).configs(args))
    size = args.shard_size or SHARD
    shards = seed_shards(_TASK, args.games, size, (argv, game.name, configs, args.seed,
                                                   args.timeout, args.shrink), unit="games")
    store = None
    if args.resume is not None:
        store = Store(args.resume, {"command": "diff", "engine": argv, "game": game.name,
                                    "configs": [repr(c) for c in configs], "seed": args.seed,
                                    "timeout": args.timeout, "shrink": args.shrink,
                                    "shard_size": size}, shard_problem)
    start = time.perf_counter()
    backend = backend_for(args.workers or 1, scheduler_address(args.scheduler),
                          timeout=getattr(args, "scheduler_timeout", None))
    games = starts = shrink_games = cut_short = 0
    view_keys: tuple[str, ...] | None = None
    found: dict[str, Any] | None = None
    blobs = run_shards(shards, backend, store)
    try:
        for _, blob in blobs:
            data = json.loads(blob)
            if "cannot_start" in data:
                raise UsageError(data["cannot_start"])
            games += data["games"]
            starts += data["engine_starts"]
            shrink_games += data["shrink_games"]
            cut_short += data["cut_short"]
            if view_keys is None and data["view_keys"] is not None:
                view_keys = tuple(data["view_keys"])
            if data["divergence"] is not None:
                found = data
                break
    finally:
        blobs.close()
    report = D.Report(games, None if found is None else _divergence(found["divergence"]), starts,
                      time.perf_counter() - start, bool(found and found["shrunk"]), view_keys,
                      shrink_games, cut_short)
    if args.json:
        print(json.dumps(report.to_json()))
    else:
        for line in D.render(report, argv, game):
            print(line)
    sys.stdout.flush()
    if getattr(args, "save", None) is not None and report.divergence is not None:
        from hanamikoji.oracle.core.diff_save import save_divergence

        save_divergence(args.save, report.divergence, game, argv)
    return EXIT_OK if report.divergence is None else EXIT_FAILED
