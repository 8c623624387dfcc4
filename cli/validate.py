"""``hanamikoji validate`` and ``hanamikoji schema``: the command line over the record judge
(:mod:`hanamikoji.oracle.core.validate`).

The files are judged in this process unless ``--workers N`` (N > 1), ``--resume`` or a Dask
scheduler (``--scheduler``, or ``HANAMIKOJI_SCHEDULER``) asks for a campaign
(:mod:`hanamikoji.oracle.core.validate_campaign`). The campaign's module and its machinery are
imported only then: validating one record, as a bot arena does after each game, starts without
them.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO

from hanamikoji.runtime.base import EXIT_OK, OutputClosed, UsageError, scheduler_address
from hanamikoji.engine.core.registry import get
from hanamikoji.oracle.core import validate as V


def validate(args: argparse.Namespace) -> int:
    """The ``validate`` sub-command: exit 0 if every record is valid, 1 if some are illegal and
    none malformed, 2 if any is malformed, a file cannot be read, or there are no records."""
    if (getattr(args, "workers", 1) > 1 or getattr(args, "resume", None) is not None
            or scheduler_address(getattr(args, "scheduler", None))):
        if getattr(args, "notation", None) is not None:
            raise UsageError("--notation is read in one process: leave out --workers, --resume "
                             "and --scheduler (and HANAMIKOJI_SCHEDULER)")
        return _campaign(args)
    tally = V.Tally()
    out = sys.stdout
    forced = None if getattr(args, "game", None) is None else get(args.game)
    # From standard input, a program may be waiting for each verdict before it writes the next
    # record (a resident judge, docs/oracle.md): each is flushed as it is written, since Python
    # holds output to a pipe in a block until the end. The bytes are the same either way.
    live = "-" in args.paths
    try:
        for verdict, _, _ in V.records(args.paths, tally, "validate", forced,
                                       getattr(args, "notation", None), quick=True):
            if args.json:
                out.write(V.json_line(verdict) + "\n")
            elif verdict.judgement.status is not V.Status.VALID:
                out.write(verdict.to_text() + "\n")
            if live:
                out.flush()
        if not args.json:
            print(tally.summary())
        out.flush()
    except BrokenPipeError:  # the reader went away (| head): the records judged so far decide
        raise OutputClosed(tally.exit_code()) from None
    return tally.exit_code()


def _campaign(args: argparse.Namespace) -> int:
    """``validate --workers N`` (or ``--resume``, ``--scheduler``): the output of ``validate``
    in one process, from shards run anywhere."""
    from hanamikoji.campaign import Store, backend_for
    from hanamikoji.campaign import run as run_shards
    from hanamikoji.oracle.core.validate_campaign import (VALID_LINE, identity, plan, rest,
                                                          shard_problem)

    game_name = getattr(args, "game", None)
    forced = None if game_name is None else get(game_name)
    inputs = plan(list(args.paths), args.shard_size, game_name)
    store = None
    if args.resume is not None:
        pieces = {shard.name: piece for item in inputs
                  for shard, piece in zip(item.shards or (), item.slices)}
        store = Store(args.resume, {"command": "validate", "game": game_name,
                                    "shard_size": args.shard_size,
                                    "inputs": [identity(i.path) for i in inputs]},
                      lambda shard, blob: shard_problem(pieces[shard.name], blob))
    backend = backend_for(args.workers, scheduler_address(args.scheduler),
                          timeout=getattr(args, "scheduler_timeout", None))
    shards = [shard for item in inputs for shard in (item.shards or ())]
    blobs = run_shards(shards, backend, store)
    tally = V.Tally()
    out: IO[str] = sys.stdout

    quiet = not args.json  # text: a valid record is only counted
    unread: tuple[str, int, str] | None = None

    def write(verdict: V.Verdict) -> None:
        if args.json:
            out.write(json.dumps(verdict.to_json()) + "\n")
        elif verdict.judgement.status is not V.Status.VALID:
            out.write(verdict.to_text() + "\n")

    try:
        for item in inputs:
            if item.shards is None:
                unread = None
                for verdict, _, _ in V.records([item.path], tally, "validate", forced):
                    write(verdict)
                continue
            before = tally.records
            fallen = False
            for piece, (_, blob) in zip(item.slices, (next(blobs) for _ in item.shards)):
                if fallen:
                    continue  # judged in this process from the first shard that was not clean
                lines = blob.splitlines()
                if not json.loads(lines[0])["clean"]:
                    fallen = True
                    unread = None
                    try:
                        for verdict in rest(item.path, piece, tally, forced):
                            write(verdict)
                    except BrokenPipeError:
                        raise
                    except OSError as error:
                        tally.unreadable += 1
                        print(f"hanamikoji validate: error: cannot read {item.path}: "
                              f"{error.strerror or error}", file=sys.stderr)
                    continue
                base = tally.records
                for line in lines[1:]:
                    if quiet and line.startswith(VALID_LINE):
                        # a valid record prints nothing: counted, and read only if it is the
                        # last (the summary of one record says its result)
                        tally.records += 1
                        tally.counts[V.Status.VALID] += 1
                        unread = (line, base, item.path)
                        continue
                    unread = None
                    said, data = json.loads(line)
                    data["index"] += base
                    judgement = V.Judgement(V.Status(data["status"]), data["message"])
                    tally.add(V.Verdict(data["index"], item.path, data["line"], judgement))
                    if args.json:
                        out.write(json.dumps(data) + "\n")
                    elif judgement.status is not V.Status.VALID:
                        out.write(V.verdict_text(item.path, data["line"], data["index"], said)
                                  + "\n")
            if tally.records == before:
                tally.unreadable += 1
                print(f"hanamikoji validate: error: {item.path} holds no record (it is empty)",
                      file=sys.stderr)
        if unread is not None:
            line, base, path = unread
            _, data = json.loads(line)
            tally.last = V.Verdict(data["index"] + base, path, data["line"],
                                   V.Judgement(V.Status.VALID, data["message"]))
        if not args.json:
            print(tally.summary())
        out.flush()
    except BrokenPipeError:
        blobs.close()
        raise OutputClosed(tally.exit_code()) from None
    finally:
        blobs.close()
    return tally.exit_code()


def schema(args: argparse.Namespace) -> int:
    """The ``schema`` sub-command: the record schema, or with ``--protocol`` the schema of the
    diff protocol's messages (:mod:`hanamikoji.oracle.core.protocol_schema`), with ``--bot``
    of the bot protocol's (:mod:`hanamikoji.oracle.core.bot_schema`), with ``--check`` of
    ``check``'s ``report.json`` (:data:`hanamikoji.oracle.core.check.SCHEMA`)."""
    if getattr(args, "check", False):
        from hanamikoji.oracle.core.check import SCHEMA

        sys.stdout.write(json.dumps(SCHEMA, indent=2) + "\n")
        return EXIT_OK
    if getattr(args, "bot", False):
        from hanamikoji.oracle.core.bot_schema import bot_schema_text

        sys.stdout.write(bot_schema_text(get(getattr(args, "game", None))))
        return EXIT_OK
    if getattr(args, "protocol", False):
        from hanamikoji.oracle.core.protocol_schema import protocol_schema_text

        sys.stdout.write(protocol_schema_text(get(getattr(args, "game", None))))
        return EXIT_OK
    sys.stdout.write(V.schema_text(getattr(args, "game", None)))
    return EXIT_OK
