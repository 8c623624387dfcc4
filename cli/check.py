"""``hanamikoji check``: one report card per implementation (:mod:`hanamikoji.oracle.core.check`),
over :func:`hanamikoji.oracle.core.api.check`: the summary printed (or report.json's document
with ``--json``), ``--out DIR`` written through :class:`~hanamikoji.runtime.output.Folder`
(report.json and the page, report.html), the exit code 0 when every check passed, 1 when one
failed. Every target is checked before the first check runs (exit 2, one line)."""

from __future__ import annotations

import argparse
import json
import re
import shlex
from typing import Any, Iterator

from hanamikoji.cli.options import game_and_config, option_values
from hanamikoji.runtime import interrupt
from hanamikoji.runtime.base import EXIT_FAILED, EXIT_OK, UsageError

FILES = ("report.json", "report.html")


def check(args: argparse.Namespace) -> int:
    """The ``check`` sub-command."""
    from hanamikoji.oracle.core.api import check as check_all

    game, _ = game_and_config(args)
    options = option_values(game, args)
    engines: list[Any] = list(args.engine)
    command = getattr(args, "engine_command", None)
    if command is not None:
        if not command:
            raise UsageError("no engine command after --: give it as diff takes it, e.g. "
                             "hanamikoji check -- python docs/examples/adapter.py")
        engines.append(command)
    folder = None
    if args.out is not None:
        from hanamikoji.runtime.output import Folder

        folder = Folder(args.out, make=True)  # refused now, before any check runs
    try:
        if folder is not None:
            for name in FILES:
                folder.check(name)
        report = check_all(args.targets, engines=engines, bots=list(args.bot), game=game,
                           options=options, seed=args.seed, games=args.games,
                           calls=args.calls, deals=args.deals, cases=args.cases,
                           limit_ms=None if args.limit is None else float(args.limit))
        interrupt.check()  # a Ctrl-C swallowed on the way: no verdict
        document = report.to_json()
        if folder is not None:
            pasted = dict(_requests(document))
            for name in pasted:
                folder.check(name)
            with folder.file("report.json") as out:
                out.write(json.dumps(document, indent=1, ensure_ascii=False) + "\n")
            for name, lines in pasted.items():
                with folder.file(name) as out:
                    out.write("".join(line + "\n" for line in lines))
            _write_page(folder, document)
    finally:
        if folder is not None:
            folder.close()
    if args.json:
        print(json.dumps(document, ensure_ascii=False))
    else:
        print(report.summary(args.times))
    return EXIT_OK if report.ok else EXIT_FAILED


def _write_page(folder: Any, document: dict[str, Any]) -> None:
    """report.html: the cards side by side, each failure with its reproduction and its game
    replayed (:func:`hanamikoji.viewer.core.card.card_page`)."""
    from hanamikoji.viewer.core.card import card_page

    page = card_page(document)
    with folder.file("report.html") as out:
        out.write(page)


def _requests(document: dict[str, Any]) -> Iterator[tuple[str, list[str]]]:
    """Each failure's request lines, from its reproduction (``printf '%s\\n' LINE ... |
    COMMAND``), as a file of ``--out`` to pipe in instead (``COMMAND < FILE``): named
    ``CARD.CHECK.N.jsonl``, N the failure's place in its check from 1."""
    for card in document["cards"]:
        stem = re.sub(r"[^A-Za-z0-9_.-]", "_", card["name"])
        for check in card["checks"]:
            for number, failure in enumerate(check["failures"], 1):
                reproduction = failure["reproduction"]
                if reproduction is None or not reproduction["text"].startswith("printf "):
                    continue
                try:
                    words = shlex.split(reproduction["text"].splitlines()[0])
                except ValueError:
                    continue
                if "|" not in words[2:]:
                    continue
                yield f"{stem}.{check['check']}.{number}.jsonl", words[2:words.index("|")]
