"""The test game with a query catalogue whose one query is a z3 check too hard to finish (no
resource limit): the command ``query`` and ``verify`` must take a Ctrl-C during it as an
interrupt (exit 130), never as a verdict. The query says "checking" on stderr as its check
begins, for the test to interrupt it then. Registered in another process as
``slow=testgame.slow:GAME``."""

from __future__ import annotations

import sys
from typing import ClassVar

import z3

from hanamikoji.spec.core.queries import Finding, Query
from hanamikoji.spec.core.solver import Constraint, Deadline, Problem, Status

from .game import TestGame



def pigeons(deadline: Deadline) -> Finding:
    """Twelve pigeons in eleven holes: unsat, and far beyond what z3 proves in minutes."""
    n = 12
    put = [[z3.Bool(f"p{i}h{j}") for j in range(n - 1)] for i in range(n)]
    problem = Problem(Deadline(rlimit=0))  # no budget: the check never ends by itself
    problem.require([Constraint("every pigeon sits", z3.And([z3.Or(row) for row in put]))], "pigeons")
    problem.require([Constraint("one pigeon a hole", z3.And([
        z3.Or(z3.Not(put[a][j]), z3.Not(put[b][j]))
        for j in range(n - 1) for a in range(n) for b in range(a + 1, n)]))], "holes")
    print("pigeons: checking", file=sys.stderr, flush=True)
    verdict = problem.check().decided()
    return Finding(answer=verdict.status is Status.SAT)


CATALOGUE = (Query("pigeons", "Can twelve pigeons sit in eleven holes, one a hole?",
                   "z3, for minutes", "testgame.slow:pigeons"),)


class SlowGame(TestGame):
    name: ClassVar[str] = "slow"
    queries_module: ClassVar[str | None] = "testgame.slow"
    sample_module: ClassVar[str | None] = None


GAME = SlowGame()
