"""Handlers of ``hanamikoji query`` and ``hanamikoji verify`` (declared in engine/cli.py).

``query --list`` imports no z3; running a query or ``verify`` does.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from hanamikoji.engine.core.cli import EXIT_FAILED, EXIT_OK, UsageError
from hanamikoji.engine.core.commands import atomic_output

from ..hanamikoji.queries import CATALOGUE, by_name


def query(args: argparse.Namespace) -> int:
    """``hanamikoji query NAME [--json]`` and ``hanamikoji query --list [--json]``."""
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
    try:
        chosen = by_name(args.name)
    except KeyError as error:
        raise UsageError(error.args[0]) from None
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
    report = run_verify(max_examples=args.max_examples, seed=args.seed)
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
