"""Handlers of the commands of the spec room: ``hanamikoji query``, ``hanamikoji verify`` and
``hanamikoji spec coverage`` (declared in cli/main.py).

``query --list`` imports no z3; running a query or ``verify`` does. A game's catalogue is found
through the registry (:attr:`Game.queries_module`).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from pathlib import Path
from typing import Any

from hanamikoji.runtime import interrupt
from hanamikoji.runtime.base import EXIT_FAILED, EXIT_OK, UsageError
from hanamikoji.runtime.progress import no_hypothesis_litter
from hanamikoji.runtime.output import OutputFolder, output_folder
from hanamikoji.engine.core.registry import get
from hanamikoji.engine.core.words import article, plain, plural

from hanamikoji.spec.core.verify import catalogue


#: How ``query`` says which side of its claims an answer is on (:attr:`Answer.side`).
SIDES = {"proof": "proof (the claims hold: unsat cores)",
         "counterexample": "counterexample (the claims fail: z3 found a model)",
         "both": "both (some claims hold, by unsat cores; some fail, by counterexamples)"}


def query(args: argparse.Namespace) -> int:
    """``hanamikoji query [--game G] NAME [--json]`` and ``hanamikoji query --list [--json]``."""
    game = get(getattr(args, "game", None))
    if getattr(args, "where", None) is not None:
        return _where(args, game)
    if getattr(args, "variant", None) is not None:
        raise UsageError("--variant goes with --where (a catalogue query names its variants)")
    if getattr(args, "players", None) is not None:
        raise UsageError("--players goes with --where (a catalogue query answers for every "
                         "player count)")
    CATALOGUE = catalogue(game.name)
    if not CATALOGUE:
        raise UsageError(f"game {game.name} has no query catalogue")
    if args.list:
        if args.name is not None:
            raise UsageError("give a query NAME or --list, not both")
        if args.json:
            print(json.dumps([{"name": q.name, "question": q.question, "method": q.method}
                              for q in CATALOGUE]))
        else:
            width = max(len(q.name) for q in CATALOGUE)
            for q in CATALOGUE:
                print(f"{q.name:<{width}}  {q.question}")
        return EXIT_OK
    if args.name is None:
        raise UsageError("expected a query NAME or --list (see 'hanamikoji query --list')")
    chosen = next((q for q in CATALOGUE if q.name == args.name), None)
    if chosen is None:
        raise UsageError(f"unknown query {args.name!r} of {game.name} "
                         f"(see 'hanamikoji query --game {game.name} --list')")
    answer = chosen.run()
    interrupt.check()  # a Ctrl-C that something swallowed: no answer after it
    if args.json:
        print(json.dumps(answer.to_json()))
    else:
        from hanamikoji.spec.core.verify import answer_text

        print(f"{answer.name}: {answer.question}")
        print(f"answer:  {answer_text(answer)}")
        if answer.side is not None:
            print(f"side:    {SIDES[answer.side]}")
        print(f"method:  {answer.method}")
        for proof in answer.proofs:
            print(f"proof:   {proof.claim}; unsat core: {' '.join(proof.rules)}"
                  + (f" (with: {'; '.join(proof.hypotheses)})" if proof.hypotheses else ""))
        for counterexample in answer.counterexamples:
            print(f"fails:   {counterexample.claim}; counterexample: {counterexample.text()}")
        for witness in answer.witnesses:
            print(f"witness: {witness.label}; replayed in the engine "
                  "(the game record is in --json)")
        for note in answer.notes:
            print(f"note:    {note}")
        print(f"seconds: {answer.seconds:.2f}")
    return EXIT_OK if answer.answered else EXIT_FAILED


def verify(args: argparse.Namespace) -> int:
    """``hanamikoji verify [--out DIR] [--json] [--max-examples N] [--seed S]``."""
    from hanamikoji.spec.core.verify import render, run_verify

    games = None if getattr(args, "game", None) is None else [get(args.game).name]
    # The report folder is written aside and swapped in whole when the report is complete: an
    # error or an interrupt leaves the old one as it was, and nothing of an older report (the
    # witnesses of another game) stays beside the new one.
    with (output_folder(args.out, ours=REPORT_FILES, command="verify")
          if args.out is not None else contextlib.nullcontext()) as folder:
        with no_hypothesis_litter():
            report = run_verify(max_examples=args.max_examples, seed=args.seed, games=games,
                                progress=_progress_lines() if sys.stderr.isatty() else None)
        # A Ctrl-C that something swallowed (a library's callback) is still an interrupt: no
        # report is swapped in and no verdict printed after it.
        interrupt.check()
        document = report.to_json()
        if folder is not None:
            written = write_witnesses(report, folder)
            for game in document["games"]:
                for query in game["queries"]:
                    if (game["game"], query["name"]) in written:
                        query["witness_file"] = written[game["game"], query["name"]]
            with folder.file("report.json") as out:
                out.write(json.dumps(document, indent=1) + "\n")
            with folder.file("report.md") as out:
                out.write(report.to_markdown(written, args.out) + REPORT_HTML_NOTE)
            with folder.file("report.html") as out:
                out.write(report_html(report, document))
    if args.json:
        print(json.dumps(document))
    else:
        from rich.console import Console

        Console(file=sys.stdout, width=max(100, Console().width)).print(render(report))
        if args.out is not None:
            print(f"report written to {os.path.join(args.out, 'report.md')}, report.html and "
                  "report.json")
            if written:
                example = os.path.join(args.out, next(iter(written.values())))
                print(f"witness games in {os.path.join(args.out, 'witnesses')}{os.sep}: "
                      f"hanamikoji show {example} displays one")
    return EXIT_OK if report.ok else EXIT_FAILED


#: What report.md says of report.html and of the witness games.
REPORT_HTML_NOTE = """
## As a page, and the witness games

[report.html](report.html) is this report as one page (it opens from disk in any browser, with
no server): each answer as a table and a replay of each witness game. The witness games are
records under `witnesses/`: `hanamikoji show witnesses/FILE.jsonl` prints one turn by turn,
`hanamikoji view witnesses/FILE.jsonl` writes it as a page that replays it.
"""


def report_html(report: Any, document: dict[str, Any]) -> str:
    """``report.html``: the report as a page, with each witness game replayed in the engine."""
    from hanamikoji.spec.core.verify import answer_text, evidence_text
    from hanamikoji.viewer.core.report import report_page

    witnesses: dict[tuple[str, str], list[tuple[str, Any, Any]]] = {}
    lines: dict[tuple[str, str], tuple[str, str]] = {}
    for section in report.sections:
        for answer in section.answers:
            key = (section.game, answer.name)
            lines[key] = (answer_text(answer), evidence_text(answer))
            for witness in answer.witnesses:
                record = witness.to_json()["record"]
                game = by_format(record)
                witnesses.setdefault(key, []).append(
                    (witness.label, game, game.read_record(record)))
    return report_page(document, witnesses, lines)


def by_format(record: dict[str, Any]) -> Any:
    from hanamikoji.engine.core.registry import by_format as find

    return find(record["format"])


def _progress_lines() -> Any:
    """``verify``'s progress on a terminal: a line on stderr as each query and each sampled
    property finishes (the queries take from a fraction of a second to a minute each)."""
    import time

    start = time.perf_counter()

    def show(game: str, kind: str, item: Any) -> None:
        elapsed = time.perf_counter() - start
        if kind == "query":
            verdict = "answered" if item.answered else item.status.upper()
            line = f"query {item.name}: {verdict} in {item.seconds:.2f} s"
        elif kind == "property":
            verdict = "pass" if item.passed else "FAIL"
            line = f"property {item.name}: {verdict} in {item.seconds:.2f} s"
        else:
            line = f"property sample: not run: {item}"
        print(f"[{elapsed:6.1f} s] {game}: {line}", file=sys.stderr, flush=True)

    return show


def _where(args: argparse.Namespace, game: Any) -> int:
    """``hanamikoji query --where EXPR [--variant V] [--timeout S] [--json]``: exit 0 when z3
    decides (possible or impossible), 1 when it cannot (unknown), 2 for a bad expression."""
    import importlib

    from hanamikoji.spec.core.expr import ExprError

    if args.list or args.name is not None:
        raise UsageError("give --where EXPR, or a query NAME, or --list: one of them")
    if game.where_module is None:
        raise UsageError(f"game {game.name} takes no --where questions")
    options: dict[str, Any] = {"timeout": args.timeout}
    if args.variant is not None:
        options["variant"] = args.variant
    players = getattr(args, "players", None)
    if players is not None:
        if not game.min_players <= players <= game.max_players:
            seats = (str(game.min_players) if game.min_players == game.max_players
                     else f"{game.min_players} to {game.max_players}")
            raise UsageError(f"{game.name} is played by {seats} players, not {players}")
        if game.min_players != game.max_players:
            options["players"] = players
    try:
        found = importlib.import_module(game.where_module).ask(args.where, **options)
    except ExprError as error:
        raise UsageError(f"--where: {error}") from None
    except ValueError as error:  # an unknown variant
        raise UsageError(str(error)) from None
    interrupt.check()
    if args.json:
        print(json.dumps(found.to_json()))
    else:
        setting = (f"{article(found.variant)} {found.variant} game"
                   if game.min_players == game.max_players
                   else f"a game of {found.variant} players")
        print(f"question: can {setting} end so that {found.expression}?")
        print(f"answer:   {found.answer}")
        if found.witness is not None:
            shown = found.witness
            what = shown.get("summary") or (
                f"a game of {plural(shown['rounds'], 'round')} ending at markers "
                f"{plain(shown['markers'])}, {plain(shown['result'])}")
            print(f"witness:  {what}; replayed in the engine (the record is in --json)")
        if found.core is not None:
            print(f"core:     {' '.join(found.core) or '(no rule: the hypotheses alone)'}"
                  + (f" (with: {'; '.join(found.hypotheses)})" if found.hypotheses else ""))
        if found.note:
            print(f"note:     {found.note}")
        print(f"seconds:  {found.seconds:.2f}")
    return EXIT_OK if found.answer != "unknown" else EXIT_FAILED


#: What ``verify --out DIR`` writes in DIR (:func:`~hanamikoji.runtime.output.foreign`).
REPORT_FILES = ("report.json", "report.md", "report.html", "witnesses/", "witnesses/*.jsonl")


def write_witnesses(report: Any, folder: OutputFolder) -> dict[tuple[str, str], str]:
    """Every witness game of the report as records, one JSON Lines file per query under
    ``witnesses/`` of the report's folder (``hanamikoji validate`` reads them); the paths,
    relative to the folder, by (game, query)."""
    written: dict[tuple[str, str], str] = {}
    for section in report.sections:
        for answer in section.answers:
            if not answer.witnesses:
                continue
            relative = os.path.join("witnesses", f"{section.game}-{answer.name}.jsonl")
            with folder.file(relative) as out:
                for witness in answer.witnesses:
                    out.write(json.dumps(witness.to_json()["record"]) + "\n")
            written[section.game, answer.name] = relative
    return written


def coverage(args: argparse.Namespace) -> int:
    """``hanamikoji spec coverage``: 0 when every rule is checked and every cited ID exists."""
    from hanamikoji.engine.core.registry import get
    from hanamikoji.spec.core.coverage import find_root, game_specs, render, scan

    only = getattr(args, "game", None)
    spec = get(only).spec_file
    if args.root is not None:
        root = Path(args.root)
        if not (root / spec).is_file():
            raise UsageError(f"--root {args.root}: no {spec} there; expected the folder of "
                             "a checkout of this toolkit")
    else:
        found = find_root(Path.cwd().resolve())
        if found is None:
            raise UsageError(f"no checkout of this toolkit at or above {Path.cwd()}: expected a "
                             f"folder with {spec}, tests/ and properties/ (or give --root DIR)")
        root = found
    coverage = scan(root, game_specs(root, only))
    if not coverage.rules:
        raise UsageError(f"{root / spec}: no rule bullets '- **ID** Title.' found")
    if args.json:
        print(json.dumps(coverage.to_json(), indent=1))
    else:
        print(render(coverage))
    return EXIT_OK if coverage.ok else EXIT_FAILED
