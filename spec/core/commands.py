"""Handlers of ``hanamikoji query`` and ``hanamikoji verify`` (declared in engine/core/cli.py).

``query --list`` imports no z3; running a query or ``verify`` does. A game's catalogue is found
through the registry (:attr:`Game.queries_module`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from hanamikoji.engine.core.cli import EXIT_FAILED, EXIT_OK, UsageError
from hanamikoji.engine.core.commands import atomic_output, no_hypothesis_litter

from hanamikoji.engine.core.registry import get

from .verify import catalogue


def query(args: argparse.Namespace) -> int:
    """``hanamikoji query [--game G] NAME [--json]`` and ``hanamikoji query --list [--json]``."""
    game = get(getattr(args, "game", None))
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
    if args.json:
        print(json.dumps(answer.to_json()))
    else:
        from .verify import answer_text

        print(f"{answer.name}: {answer.question}")
        print(f"answer:  {answer_text(answer)}")
        print(f"method:  {answer.method}")
        for proof in answer.proofs:
            print(f"proof:   {proof.claim}; unsat core: {' '.join(proof.rules)}"
                  + (f" (with: {'; '.join(proof.hypotheses)})" if proof.hypotheses else ""))
        for witness in answer.witnesses:
            print(f"witness: {witness.label}; replayed in the engine "
                  "(the game record is in --json)")
        for note in answer.notes:
            print(f"note:    {note}")
        print(f"seconds: {answer.seconds:.2f}")
    return EXIT_OK if answer.answered else EXIT_FAILED


def verify(args: argparse.Namespace) -> int:
    """``hanamikoji verify [--out DIR] [--json] [--max-examples N] [--seed S]``."""
    from .verify import render, run_verify

    if args.out is not None and not os.path.isdir(args.out):
        if os.path.exists(args.out):
            raise UsageError(f"cannot write into {args.out}: not a directory")
        try:
            os.makedirs(args.out)
        except OSError as error:
            raise UsageError(f"cannot create {args.out}: {error.strerror}") from None
    games = None if getattr(args, "game", None) is None else [get(args.game).name]
    with no_hypothesis_litter():
        report = run_verify(max_examples=args.max_examples, seed=args.seed, games=games)
    document = report.to_json()
    if args.out is not None:
        with atomic_output(os.path.join(args.out, "report.json")) as out:
            out.write(json.dumps(document, indent=1) + "\n")
        with atomic_output(os.path.join(args.out, "report.md")) as out:
            out.write(report.to_markdown())
    if args.json:
        print(json.dumps(document))
    else:
        from rich.console import Console

        Console(file=sys.stdout, width=max(100, Console().width)).print(render(report))
        if args.out is not None:
            print(f"report written to {os.path.join(args.out, 'report.md')} and report.json")
    return EXIT_OK if report.ok else EXIT_FAILED
