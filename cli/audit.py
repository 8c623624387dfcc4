"""``audit FILE...``: the chance outcomes of game records judged against the exact
distribution the rules give (:mod:`hanamikoji.oracle.core.audit`, docs/audit.md).

Records are read as ``validate`` reads them (``--notation`` for games in a notation, whose
outcomes are rebuilt from the moves); a record that is not valid gets ``validate``'s line on
stderr and is left out. Exit 1 when a test rejects the fair shuffle (or a record is illegal),
2 when there are too few outcomes to judge (or a file is unreadable or a record malformed),
else 0.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
from typing import Any, Iterator

from hanamikoji.runtime.base import EXIT_FAILED, EXIT_OK
from hanamikoji.engine.core.game import Game
from hanamikoji.engine.core.registry import get
from hanamikoji.oracle.core.audit import audit as judge
from hanamikoji.oracle.core.validate import Status, Tally, records


def _finals(args: argparse.Namespace, tally: Tally) -> Iterator[tuple[Game, Any]]:
    forced = None if args.game is None else get(args.game)
    for verdict, game, final in records(args.paths, tally, "audit", forced, args.notation):
        if verdict.judgement.status is Status.VALID and game is not None:
            yield game, final
        else:
            print(verdict.to_text(), file=sys.stderr)


def audit(args: argparse.Namespace) -> int:
    """The ``audit`` sub-command."""
    tally = Tally()
    result = judge(_finals(args, tally), args.alpha, rebuilt=args.notation is not None)
    if args.html:
        from hanamikoji.runtime.output import write_text
        from hanamikoji.viewer.core.plots import audit_charts, stats_page

        write_text(pathlib.Path(args.html), stats_page(
            f"audit: {tally.records} records", audit_charts(result)))
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(result)
    read = tally.exit_code()
    if EXIT_FAILED in (result.exit_code, read):
        return EXIT_FAILED
    return max(read, result.exit_code, EXIT_OK)
