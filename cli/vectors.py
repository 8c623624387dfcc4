"""``hanamikoji vectors``: a game's conformance corpus, or a task set, written as a folder
(:mod:`hanamikoji.oracle.core.vectors`)."""

from __future__ import annotations

import argparse
import json

from hanamikoji.runtime.base import EXIT_OK, UsageError
from hanamikoji.engine.core.registry import get
from hanamikoji.oracle.core.vectors import write, write_tasks


def vectors(args: argparse.Namespace) -> int:
    """The ``vectors`` sub-command: the files written, each with its number of cases."""
    game = get(getattr(args, "game", None))
    tasks = getattr(args, "tasks", None)
    cases, seed = getattr(args, "cases", None), getattr(args, "seed", None)
    if tasks is None and (cases is not None or seed is not None):
        raise UsageError("--cases and --seed go with --tasks: the conformance corpus is one "
                         "fixed set")
    paths = (write(args.out, game) if tasks is None
             else write_tasks(args.out, game, tasks, cases=cases, seed=seed))
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            count = json.load(handle)["numberOfTests"]
        print(f"{path}: {count} cases")
    return EXIT_OK
