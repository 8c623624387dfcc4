"""``hanamikoji perft``: count the decision sequences from a position given by ``--seed``,
``--history``, ``--deal`` or ``--record``/``--at``, or run a file of perft cases (``--suite``).
The counting and the reading of the files are :mod:`hanamikoji.oracle.core.perft`'s; what the
command prints of the counts is :class:`hanamikoji.oracle.core.api.Counts`'."""

from __future__ import annotations

import argparse
import json
from typing import Any

from hanamikoji.runtime.base import EXIT_FAILED, EXIT_OK, UsageError
from hanamikoji.cli.options import game_and_config, option_values
from hanamikoji.engine.core.errors import GameError
from hanamikoji.engine.core.game import Game
from hanamikoji.oracle.core.perft import (depth_limit, divide, hooks, read_json,
                                          read_position, record_position, seeded_start,
                                          suite_case)
from hanamikoji.oracle.core.perft import perft as count


def _record_start(game: Game, args: argparse.Namespace) -> tuple[Game, Any, str]:
    if args.first_player is not None:
        raise UsageError("--first-player goes with --seed; a --record file names its own "
                         "first_player")
    if option_values(game, args):
        raise UsageError("the game's options go with --seed or --deal; a --record file "
                         "names its own options")
    return record_position(game, args.record, args.at)


def start(game: Game, config: Any, args: argparse.Namespace) -> tuple[Any, str]:
    """The position the command counts from, and where it came from (for people)."""
    if getattr(args, "at", None) is not None and getattr(args, "record", None) is None:
        raise UsageError("--at goes with --record")
    if getattr(args, "record", None) is not None:
        _, state, where = _record_start(game, args)
        return state, where
    if args.deal is not None or args.history is not None:
        flag, path = ("--deal", args.deal) if args.deal is not None else ("--history", args.history)
        if args.first_player is not None:
            raise UsageError(f"--first-player goes with --seed; a {flag} file names its own "
                             "first_player")
        if flag == "--history" and option_values(game, args):
            raise UsageError("the game's options go with --seed or --deal; a --history file "
                             "names its own options")
        obj = read_json(path)
        try:
            state = (read_position(game, obj) if flag == "--history"
                     else hooks(game).start_from_json(obj, config))
        except GameError as error:
            raise UsageError(f"{path}: {error}") from None
        if state is None:
            raise UsageError(f"--deal: game {game.name} has no start files; use --seed or "
                             "--history")
        return state, path
    first = args.first_player or 0
    players = game.num_players(config)
    if not 0 <= first < players:
        raise UsageError(f"--first-player {first}: the players are 0 to {players - 1}")
    return seeded_start(game, config, args.seed, first), f"seed {args.seed} (game 0)"


def _check_depth(game: Game, depth: int) -> None:
    limit, why = depth_limit(game)
    if depth > limit:
        raise UsageError(f"--depth {depth}: {why}; use 1 to {limit}")


def perft(args: argparse.Namespace) -> int:
    """The ``perft`` sub-command."""
    from hanamikoji.oracle.core.api import Counts

    if getattr(args, "suite", None) is not None:
        return suite(args)
    if args.depth is None:
        raise UsageError("the following arguments are required: --depth "
                         "(see 'hanamikoji perft --help')")
    game, config = game_and_config(args)
    _check_depth(game, args.depth)
    if getattr(args, "record", None) is not None:  # the record's own game
        game, state, where = _record_start(game, args)
        _check_depth(game, args.depth)
    else:
        state, where = start(game, config, args)
    counts = Counts(game, state, count(game, state, args.depth),
                    divide(game, state, args.depth) if args.divide else None)
    if args.json:
        print(json.dumps(counts.to_json()))
        return EXIT_OK
    _, summary = hooks(game).header(state)
    print(f"perft of {where}: {summary}")
    print(counts)
    return EXIT_OK


def suite(args: argparse.Namespace) -> int:
    """``perft --suite FILE``: every case of a perft vectors file, pass or fail; exit 1 if one
    fails."""
    from hanamikoji.engine.core.registry import DEFAULT, get

    if args.depth is not None or args.divide or getattr(args, "at", None) is not None or \
            args.first_player is not None:
        raise UsageError("--suite takes its depths from the file: no --depth, --divide, --at "
                         "or --first-player")
    doc = read_json(args.suite, limit=1 << 26)
    if not isinstance(doc, dict) or not isinstance(doc.get("tests"), list):
        raise UsageError(f'{args.suite}: not a file of perft cases ({{"tests": [...]}}, as '
                         "tests/vectors/perft.json)")
    name = doc.get("game", DEFAULT)
    if getattr(args, "game", DEFAULT) not in (DEFAULT, name):
        raise UsageError(f"{args.suite}: cases of {name}, not of {args.game} (see --game)")
    game = get(name)
    results = []
    for index, case in enumerate(doc["tests"]):
        case_id = case.get("id", f"#{index}") if isinstance(case, dict) else f"#{index}"
        try:
            passed, message, got = suite_case(game, case)
        except (GameError, ValueError, TypeError, KeyError) as error:
            passed, message, got = False, f"cannot run: {error}", {}
        results.append({"id": case_id, "status": "pass" if passed else "fail",
                        "message": message or None, **got})
        if not args.json:
            print(f"{'pass' if passed else 'FAIL'}  {case_id}" + (f": {message}" if message else ""))
    failed = sum(r["status"] == "fail" for r in results)
    if args.json:
        print(json.dumps({"suite": args.suite, "game": game.name, "cases": len(results),
                          "passed": len(results) - failed, "failed": failed,
                          "results": results}))
    else:
        print(f"{len(results)} cases: {len(results) - failed} passed, {failed} failed")
    return EXIT_OK if failed == 0 else EXIT_FAILED
