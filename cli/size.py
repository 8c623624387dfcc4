"""The ``size`` command: a thin handler over :mod:`hanamikoji.oracle.core.size`, whose game
extension does the counting."""

from __future__ import annotations

import argparse
import json

from hanamikoji.runtime.base import EXIT_OK, UsageError
from hanamikoji.cli.options import game_and_config
from hanamikoji.oracle.core.size import hooks


def run(args: argparse.Namespace) -> int:
    """Print the game's size (``--json``: one JSON object)."""
    game, config = game_and_config(args)
    size = hooks(game)
    report = size.report(config, samples=args.samples, seed=args.seed, compute=args.compute,
                         workers=args.workers)
    if report is None:
        raise UsageError(f"size has no count for the game {game.name}; it counts: see "
                         f"docs/game-size.md")
    if args.json:
        print(json.dumps(report))
    else:
        print("\n".join(size.text(report)))
    return EXIT_OK
