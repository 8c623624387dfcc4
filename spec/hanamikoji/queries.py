"""The query catalogue: questions a rules analyst asks, each answered by the z3 model.

A :class:`Query` has a name, a question in plain words, a method, and the function (in
:mod:`.findings`) that computes a :class:`Finding` from the model. :meth:`Query.run` times it and
returns an :class:`Answer` whose ``status`` is "answered", or "unknown" / "timeout" when z3 could
not decide a check, or "error" when the model contradicts itself or the engine; in those cases
there is no answer at all. A satisfiable answer carries
witnesses: concrete games, replayed in the reference engine before the answer is given
(:meth:`.witness.Witness.confirm`). An unsatisfiable one carries proofs: the rule IDs of the
unsat core.

This module does not import z3 (``hanamikoji query --list`` needs none); running a query does.

>>> [q.name for q in CATALOGUE][:3]
['scored-cards-per-side', 'round-outcome-pairs', 'round-favour-patterns']
>>> answer = by_name("both-eleven-charm").run()
>>> answer.status, answer.answer, answer.proof
('answered', False, ('COMP-1', 'SCORE-4'))
"""

from __future__ import annotations

import importlib
import time
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from .witness import Witness

#: The wall-clock budget of one query's own checks; the derivations it shares with other
#: queries (:mod:`.derive`) are bounded by the per-check timeout instead.
QUERY_BUDGET_SECONDS = 60.0


class ModelInconsistency(Exception):
    """Two computations from the model disagree, or the engine refuses a witness: a bug."""


@attrs.frozen
class Proof:
    """An unsatisfiable check: ``claim`` holds because of the rules in its unsat core; the
    hypotheses that frame the question (not rules) are listed apart."""

    claim: str
    rules: tuple[str, ...]
    hypotheses: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"claim": self.claim, "rules": list(self.rules),
                "hypotheses": list(self.hypotheses)}


@attrs.frozen
class Finding:
    """What a query's computation found. ``answer`` is an int, a bool, or a tuple of
    (key, value) pairs (a JSON object)."""

    answer: Any
    proofs: tuple[Proof, ...] = ()
    witnesses: "tuple[Witness, ...]" = ()
    notes: tuple[str, ...] = ()


@attrs.frozen
class Answer:
    """A query's answer, or why there is none (``status`` "unknown" or "timeout")."""

    name: str
    question: str
    method: str
    status: str
    answer: Any
    seconds: float
    proofs: tuple[Proof, ...] = ()
    witnesses: "tuple[Witness, ...]" = ()
    notes: tuple[str, ...] = ()

    @property
    def answered(self) -> bool:
        return self.status == "answered"

    @property
    def proof(self) -> tuple[str, ...]:
        """Every rule ID in the unsat cores of the proofs, sorted."""
        return tuple(sorted({rule for p in self.proofs for rule in p.rules}))

    def answer_json(self) -> Any:
        if isinstance(self.answer, tuple):
            return {key: value for key, value in self.answer}
        return self.answer

    def to_json(self) -> dict[str, Any]:
        """At least name, question, answer, method, seconds, status; "proof" (rule IDs) and
        "proofs" where there are proofs; "witness" (the first witness's game record) and
        "witnesses" where there are witnesses."""
        out: dict[str, Any] = {
            "name": self.name, "question": self.question, "answer": self.answer_json(),
            "method": self.method, "seconds": round(self.seconds, 3), "status": self.status,
        }
        if self.proofs:
            out["proof"] = list(self.proof)
            out["proofs"] = [p.to_json() for p in self.proofs]
        if self.witnesses:
            shown = [w.to_json() for w in self.witnesses]
            out["witness"] = shown[0]["record"]
            out["witnesses"] = shown
        if self.notes:
            out["notes"] = list(self.notes)
        return out


@attrs.frozen
class Query:
    """One question of the catalogue; ``compute`` names its function as ``"module:function"``."""

    name: str
    question: str
    method: str
    compute: str = attrs.field(repr=False)

    def run(self, budget_seconds: float = QUERY_BUDGET_SECONDS) -> Answer:
        """Answer the question; a check z3 cannot decide gives status "unknown" or "timeout",
        and a disagreement between two computations, or between the model and the engine on a
        witness, gives status "error" (a bug to report)."""
        from . import derive, model
        from .witness import WitnessError

        module, _, function = self.compute.partition(":")
        compute = getattr(importlib.import_module(module), function)
        start = time.perf_counter()
        try:
            found = compute(model.Deadline(budget_seconds))
        except model.Undecided as undecided:
            return Answer(self.name, self.question, self.method, undecided.status.value, None,
                          time.perf_counter() - start, notes=(undecided.detail,))
        except derive.Uncertified as error:
            return Answer(self.name, self.question, self.method, model.Status.UNKNOWN.value,
                          None, time.perf_counter() - start, notes=(str(error),))
        except ModelInconsistency as error:
            return Answer(self.name, self.question, self.method, "error", None,
                          time.perf_counter() - start, notes=(str(error),))
        try:
            for witness in found.witnesses:
                witness.confirm()
        except WitnessError as error:
            return Answer(self.name, self.question, self.method, "error", None,
                          time.perf_counter() - start, notes=(str(error),))
        return Answer(self.name, self.question, self.method, "answered", found.answer,
                      time.perf_counter() - start, found.proofs, found.witnesses, found.notes)


def _q(name: str, question: str, method: str) -> Query:
    return Query(name, question, method,
                 f"hanamikoji.spec.hanamikoji.findings:{name.replace('-', '_')}")


CATALOGUE: tuple[Query, ...] = (
    _q("scored-cards-per-side",
       "How many item cards lie on each player's side at a round's scoring (secret included)?",
       "z3 enumerates the side totals the round model allows; an unsat core proves no other "
       "total is possible"),
    _q("round-outcome-pairs",
       "How many distinct pairs (A, B) can lie on the table at a round's scoring, where A[g] and "
       "B[g] count the items of geisha g on player 0's and player 1's side (secrets included)?",
       "count: the round model decomposed by geisha (z3 enumerates each geisha's local piece and "
       "the side totals, and proves that a construction completes every candidate), then a "
       "dynamic programme over the geisha"),
    _q("round-favour-patterns",
       "How many distinct rows R can one round's scoring produce, where R[g] says whether player "
       "0 has more items of geisha g, player 1 has more, or they are equal?",
       "count: z3 enumeration over the certified round relation, blocking each pattern found"),
    _q("max-round-wins",
       "What is the most geisha one player can win in a single round's scoring?",
       "maximum over the z3-enumerated favour patterns; a witness round at the maximum, and an "
       "unsat core over the full round model for one more"),
    _q("marker-states",
       "How many distinct marker rows can a standard game be in at the start of a round (the "
       "initial row included), and at its end?",
       "count: breadth-first search over marker rows, each layer's successors enumerated by z3 "
       "(SCORE-2, SCORE-3 and END-2..4 over the certified round relation)"),
    _q("simultaneous-goals",
       "Can a game end with one player at 4+ geisha and the other at 11+ charm, and in how many "
       "distinct final marker rows?",
       "the search's final rows whose z3 result is charm-over-geisha (END-4); a witness game"),
    _q("both-eleven-charm", "Can both players hold 11+ charm at once?",
       "proof: unsat core over every marker row"),
    _q("both-four-geisha", "Can both players hold 4+ geisha at once?",
       "proof: unsat core over every marker row"),
    _q("rulebook-example",
       "Can the marker row of the example in rulebooks 000 and 003 occur: 3 geisha and 8 charm "
       "against 4 geisha and 11 charm?",
       "proof: unsat core over every marker row, for either player on top"),
    _q("max-geisha-at-end",
       "What is the most geisha one player can hold when a standard game ends?",
       "maximum over the search's final rows; a witness game at the maximum, and an unsat core "
       "over one round of the full model for one more"),
    _q("win-every-geisha", "Can a player ever hold all seven geisha?",
       "proof: unsat core over one round of the full model from any row without a goal"),
    _q("fastest-finish",
       "In how few rounds can a standard game end, for each way of winning?",
       "minimum over the search's final rows, by z3 result; a witness game for each"),
    _q("unbounded-game",
       "Can a standard game go on forever (from every open marker row, some round ends no game "
       "and moves no marker)?",
       "z3 finds a round in which every geisha ties, and an unsat core proves that such a round "
       "leaves any open row in place; a witness game"),
    _q("italian-round-limit",
       "Over the marker rows in which a game can stand after its third round with no goal "
       "reached, how many does the limit decide by charm, by highest geisha, and as shared?",
       "count: z3 enumerates those rows (the search's open rows, each kept by tie rounds) with "
       "their VAR-IT-2..4 result; a witness game for each way"),
    _q("tiebreak-readings-agree",
       "Do the Italian tiebreak read as 'compare the single highest geisha each player holds' "
       "and read as 'compare the charm values each player holds, from the highest down' decide "
       "the same way on every reachable row?",
       "proof: unsat core over the reachable rows where the tiebreak is consulted; and over "
       "every row"),
    _q("charm-wording-equivalent",
       "In a simultaneous finish, do 'the player with 11+ charm wins' (rulebooks 000, 001, 003) "
       "and 'the player with more charm wins' (002) always name the same winner?",
       "proof: unsat core over every marker row"),
)


def by_name(name: str) -> Query:
    """The query called ``name``; KeyError (listing the names) if there is none."""
    for query in CATALOGUE:
        if query.name == name:
            return query
    raise KeyError(f"no query named {name!r}; expected one of: "
                   + ", ".join(q.name for q in CATALOGUE))


def run_all(budget_seconds: float = QUERY_BUDGET_SECONDS) -> tuple[Answer, ...]:
    """Every query of the catalogue, in order (the derivations they share are computed once)."""
    return tuple(query.run(budget_seconds) for query in CATALOGUE)
