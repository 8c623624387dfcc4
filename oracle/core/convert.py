"""``hanamikoji convert``: records as a game's notation, and a notation's games as records
(:mod:`.notation`)."""

from __future__ import annotations

import argparse
import json
import sys

from hanamikoji.engine.core.registry import get
from hanamikoji.oracle.core.notation import notation
from hanamikoji.oracle.core.validate import Status, Tally, records


def run(args: argparse.Namespace) -> int:
    """The ``convert`` sub-command: ``--to NAME`` writes each record of the files as a line of
    notation ``NAME``; ``--from NAME`` writes each line of notation as a record (JSON Lines).
    An input that is not valid gets ``validate``'s line on stderr and is not converted; the
    exit code is ``validate``'s."""
    forced = None if args.game is None else get(args.game)
    if args.to is not None:
        notation(forced or get(), args.to)  # a game without it: one line, before any output
    tally = Tally()
    for verdict, game, final in records(args.paths, tally, "convert", forced, args.source):
        if verdict.judgement.status is not Status.VALID or game is None:
            print(verdict.to_text(), file=sys.stderr)
        elif args.to is not None:
            print(notation(game, args.to).write(args.to, final))
        else:
            print(json.dumps(game.to_record(final)))
    return tally.exit_code()
