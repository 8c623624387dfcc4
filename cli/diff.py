"""``hanamikoji diff``: the reference and another engine compared, game by game, through the
protocol (:mod:`hanamikoji.oracle.core.diff`); ``--leaks`` checks the other engine's views. The
games are compared in this process unless ``--workers N``, ``--shard-size``, ``--resume`` or a
Dask scheduler asks for a campaign (:mod:`hanamikoji.oracle.core.diff_campaign`)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, Sequence

from hanamikoji.runtime import interrupt
from hanamikoji.runtime.base import EXIT_FAILED, EXIT_OK, UsageError, scheduler_address
from hanamikoji.cli.options import game_and_config, option_values
from hanamikoji.engine.core.game import CHANCE, Game
from hanamikoji.oracle.core import diff as D


def engine_command(args: argparse.Namespace) -> list[str]:
    """The other engine's command line given after ``--``, and ``--timeout`` checked: usage
    errors of ``diff`` whether it runs in one process or as a campaign."""
    argv = list(args.engine)
    if argv and argv[0] == "--":
        argv = argv[1:]
    if not argv:
        raise UsageError("no engine command: give it after --, e.g. "
                         "hanamikoji diff -- python docs/examples/adapter.py")
    if not 0 < args.timeout <= 3600:
        raise UsageError(f"--timeout must be from 0 to 3600 seconds, not {args.timeout:g}")
    return argv


def configs_of(game: Game, args: argparse.Namespace) -> tuple[Any, ...]:
    """The configurations the games are drawn from (:meth:`DiffExtension.configs`): the game's
    options fixed on the command line, ``--variant both`` (diff's default) fixing none."""
    given = argparse.Namespace(**vars(args))
    if getattr(given, "variant", None) == "both":  # the harness's default, for any game
        given.variant = None
    if getattr(given, "players", None) is not None:
        given.players = str(given.players)
    return D.hooks(game).configs(option_values(game, given))


def _game_and_configs(args: argparse.Namespace) -> tuple[Game, tuple[Any, ...]]:
    """The game ``--game`` names and the configurations its games are drawn from."""
    without_variant = argparse.Namespace(**vars(args))  # --variant may say 'both'
    without_variant.variant = None
    players = getattr(args, "players", None)
    without_variant.players = None if players is None else str(players)
    game, _ = game_and_config(without_variant)
    if getattr(args, "variant", None) == "both" and \
            not any(option.name == "variant" for option in game.options):
        # 'both' is diff's word for drawing a variant per game: only for a game with variants,
        # and refused as every command refuses an option its game does not have.
        option_values(game, args)  # raises the one-line error of every command
    return game, configs_of(game, args)


def campaign_asked(args: argparse.Namespace) -> bool:
    """Whether ``diff`` runs as a campaign: ``--workers`` given (any number, 1 too, so that
    the games compared are the same for every number), ``--shard-size``, ``--resume`` or a
    Dask scheduler."""
    return (getattr(args, "workers", None) is not None
            or getattr(args, "resume", None) is not None
            or getattr(args, "shard_size", None) is not None
            or scheduler_address(getattr(args, "scheduler", None)) is not None)


def diff(args: argparse.Namespace) -> int:
    """The ``diff`` sub-command: exit 0 if no divergence (or leak) is found, 1 if one is; in
    this process unless a campaign is asked for (:func:`campaign_asked`)."""
    if not campaign_asked(args):
        return _here(args)
    if getattr(args, "leaks", False):
        raise UsageError("--leaks runs in one process: leave out --workers, --shard-size, "
                         "--resume and --scheduler (and HANAMIKOJI_SCHEDULER)")
    return _campaign(args)


def _here(args: argparse.Namespace) -> int:
    """``diff`` in this process: one Hypothesis run of ``--games`` games (or ``--leaks``
    pairs), with a progress bar."""
    argv = engine_command(args)
    game, configs = _game_and_configs(args)
    from hanamikoji.runtime.progress import no_hypothesis_litter, progress_bar

    leaks = getattr(args, "leaks", False)
    bar = progress_bar("pairs" if leaks else "games", counted=("decisions",))
    show = None if bar is None else _shown_on(bar)
    engine = None if leaks else D.Engine(argv, args.timeout)
    try:
        if engine is not None:  # the adapters start while the harness gets ready
            engine.launch()
            if _starts_with_chance(game, configs):
                D.seeded_engines(argv, args.timeout, ahead=True)
        if leaks:
            report: Any = D.check_leaks(argv, game=game, configs=configs, pairs=args.games,
                                        seed=args.seed, timeout=args.timeout, progress=show)
        else:
            with no_hypothesis_litter():
                report = D.compare_engines(argv, games=args.games, seed=args.seed,
                                           variants=configs, timeout=args.timeout,
                                           shrink=args.shrink, game=game, progress=show,
                                           engine=engine)
    except D.CannotStart as error:
        raise UsageError(str(error)) from None
    finally:  # Ctrl-C too: the bar is gone before the command says "interrupted"
        if engine is not None:
            engine.stop()  # ended already, unless the run never began
            D.end_ahead(argv, args.timeout)  # likewise
        if bar is not None:
            bar.stop()
    interrupt.check()  # a Ctrl-C swallowed on the way (by Hypothesis or a callback): no verdict
    found = report.leak if leaks else report.divergence
    if getattr(args, "save", None) is not None and not leaks and found is not None:
        # Saved before the report is printed: a standard output closed early (`| head`)
        # ends the command at the first print, and the divergence found is then not lost.
        from hanamikoji.oracle.core.diff_save import save_divergence

        save_divergence(args.save, found, game, argv)
    if args.json:
        print(json.dumps(report.to_json()))
    else:
        for line in (D.render_leaks if leaks else D.render)(report, argv, game):
            print(line)
    return EXIT_OK if found is None else EXIT_FAILED


def _starts_with_chance(game: Game, configs: Sequence[Any]) -> bool:
    """Whether a game of ``configs`` starts with a chance node: the seeded-chance check of
    :func:`hanamikoji.oracle.core.diff.check_seeded` then starts two more engines."""
    try:
        return any(game.current_player(game.new_game(config, 0)) == CHANCE
                   for config in configs[:1])
    except Exception:  # whatever it is, the check itself meets it in its turn
        return False


def _shown_on(bar: Any) -> D.Progress:
    """A :data:`~hanamikoji.oracle.core.diff.Progress` that draws on ``bar``
    (:func:`hanamikoji.runtime.progress.progress_bar`), started at its first call, after the
    engine has started (an engine that cannot start draws none)."""
    task: list[Any] = []

    def show(description: str, done: int, total: int, decisions: int) -> None:
        if not task:
            bar.start()
            task.append(bar.add_task(description, total=total, decisions=decisions))
        bar.update(task[0], description=description, completed=done, total=total,
                   decisions=decisions)

    return show


def _campaign(args: argparse.Namespace) -> int:
    """``diff`` as a campaign: shards of ``--shard-size`` games on workers, merged in order."""
    from hanamikoji.campaign import Store, backend_for
    from hanamikoji.campaign import run as run_shards
    from hanamikoji.oracle.core.diff_campaign import divergence_of, game_shards, shard_problem

    argv = engine_command(args)
    game, configs = _game_and_configs(args)
    size = args.shard_size or D.hooks(game).shard_size
    shards = game_shards(argv, game.name, configs, args.seed, args.timeout, args.shrink,
                         args.games, size)
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
    report = D.Report(games, None if found is None else divergence_of(found["divergence"]),
                      starts, time.perf_counter() - start, bool(found and found["shrunk"]),
                      view_keys, shrink_games, cut_short)
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
