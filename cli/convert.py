"""``hanamikoji convert``: records as a game's notation, and a notation's games as records
(:mod:`hanamikoji.oracle.core.notation`)."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from typing import IO, Iterator

from hanamikoji.runtime.base import UsageError
from hanamikoji.engine.core.registry import get
from hanamikoji.oracle.core.notation import NotationError, notation
from hanamikoji.oracle.core.validate import Status, Tally, records


@contextlib.contextmanager
def _output(path: str | None) -> Iterator[IO[str]]:
    if path is None:
        yield sys.stdout
        return
    from hanamikoji.runtime.output import output_file

    with output_file(path) as out:  # whole or not at all (runtime/output.py)
        yield out


def convert(args: argparse.Namespace) -> int:
    """The ``convert`` sub-command: ``--to NAME`` writes each record of the files as a line of
    notation ``NAME``; ``--from NAME`` writes each line of notation as a record (JSON Lines).
    An input that is not valid gets ``validate``'s line on stderr and is not converted, and the
    exit code is ``validate``'s; a valid record the notation cannot write (a game of another
    variant than the notation's) ends the command: one line, exit 2, no ``--out`` file."""
    forced = None if args.game is None else get(args.game)
    if args.to is not None:
        notation(forced or get(), args.to)  # a game without it: one line, before any output
    tally = Tally()
    with _output(args.out) as out:
        for verdict, game, final in records(args.paths, tally, "convert", forced, args.source):
            if verdict.judgement.status is not Status.VALID or game is None:
                print(verdict.to_text(), file=sys.stderr)
            elif args.to is not None:
                try:
                    line = notation(game, args.to).write(args.to, final)
                except NotationError as error:
                    # A notation that cannot write a valid record cannot write its like
                    # either (a game of another variant: often the whole file). One line,
                    # not one per record, and no output file (nothing half-written).
                    raise UsageError(f"{verdict.source}:{verdict.line}: record "
                                     f"{verdict.index}: {error}") from None
                out.write(line + "\n")
            else:
                out.write(json.dumps(game.to_record(final)) + "\n")
    return tally.exit_code()
