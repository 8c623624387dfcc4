"""What every game's query catalogue is made of: a :class:`Query` (a name, a question in plain
words, a method, and the function that computes a :class:`Finding`), and the :class:`Answer` it
gives when run.

:meth:`Query.run` times the computation and returns an :class:`Answer` whose ``status`` is
"answered", or "unknown" / "timeout" when z3 could not decide a check, or "error" when the model
contradicts itself or the engine; in those cases there is no answer at all. A satisfiable answer
carries witnesses: concrete games, replayed in the reference engine before the answer is given
(each witness's ``confirm()``, which raises :class:`WitnessError` if the engine disagrees). An
unsatisfiable one carries proofs: the rule IDs of the unsat core.

Every claim a query checks can fail: z3 answers it either way. Unsat: the claim holds, and its
:class:`Proof` is the unsat core. Sat: the claim fails, and its :class:`Counterexample` holds
the values decoded from z3's model (with a witness game where the engine can reach them).
:attr:`Answer.side` says which: "proof", "counterexample", or "both" when a query checks
several claims and some hold while others fail.

A game names its catalogue module in :attr:`Game.queries_module`; the module has ``CATALOGUE``
(a tuple of :class:`Query`) and may set ``QUERY_BUDGET_SECONDS`` (a wall-clock bound in
seconds). This module does not import z3 (``hanamikoji query --list`` needs none); running a
query does.
"""

from __future__ import annotations

import importlib
import time
from typing import Any, Protocol, Sequence

import attrs

from hanamikoji.engine.core.words import plain

#: The default wall-clock bound of one query's checks: none. Each check has z3's deterministic
#: resource budget (:data:`.solver.RLIMIT_PER_CHECK`), so an answer never depends on the load.
QUERY_BUDGET_SECONDS: float | None = None


class ModelInconsistency(Exception):
    """Two computations from the model disagree, or the engine refuses a witness: a bug."""


class WitnessError(Exception):
    """A witness the engine does not confirm: the model and the engine disagree (a bug)."""


class Witness(Protocol):
    """A game that shows a "possible": ``confirm()`` replays it in the engine (raising
    :class:`WitnessError` unless it shows what the model says) and ``to_json()`` gives a JSON
    object with at least ``label`` and ``record`` (a game record that ``validate`` accepts)."""

    # Read-only: the games' witnesses are frozen values.
    @property
    def label(self) -> str: ...

    def confirm(self) -> Any: ...

    def to_json(self) -> dict[str, Any]: ...


@attrs.frozen
class Proof:
    """An unsatisfiable check: ``claim`` holds because of the rules in its unsat core; the
    hypotheses that frame the question (not rules) are listed apart."""

    claim: str
    rules: tuple[str, ...]
    hypotheses: tuple[str, ...] = ()

    @classmethod
    def of(cls, claim: str, verdict: Any) -> "Proof":
        """The proof of ``claim`` from an unsat :class:`.solver.Verdict`: its rule IDs, and its
        hypotheses by label (without the ``@ where`` of their tracking literal)."""
        return cls(claim, verdict.rules, tuple(h.split(" @ ")[0] for h in verdict.hypotheses))

    def to_json(self) -> dict[str, Any]:
        return {"claim": self.claim, "holds": True, "rules": list(self.rules),
                "hypotheses": list(self.hypotheses)}


@attrs.frozen
class Counterexample:
    """A satisfiable check: ``claim`` fails, because z3 found a model of ``hypothesis`` (its
    negation). ``values`` are what the model says, decoded (marker rows, sides, counts), as
    (name, value) pairs; ``reached`` says whether a game of the engine reaches them (then a
    witness game shows one), None where the model is not of positions a game stands in.
    ``without`` lists the rules left out of the model (a weakened rule set), if any."""

    claim: str
    hypothesis: str
    values: tuple[tuple[str, Any], ...]
    reached: bool | None = None
    without: tuple[str, ...] = ()

    def value(self, name: str) -> Any:
        return dict(self.values)[name]

    def text(self) -> str:
        """One line: what z3 found, and whether a game reaches it."""
        shown = ", ".join(f"{k} {plain(_json_answer(v))}" for k, v in self.values)
        where = {True: "; a game reaches it", False: "; no game reaches it", None: ""}
        dropped = f" (without {', '.join(self.without)})" if self.without else ""
        return f"{self.hypothesis}{dropped}: {shown}{where[self.reached]}"

    def to_json(self) -> dict[str, Any]:
        return {"claim": self.claim, "holds": False, "hypothesis": self.hypothesis,
                "values": _json_answer(self.values), "reached": self.reached,
                "without": list(self.without)}


@attrs.frozen
class Finding:
    """What a query's computation found. ``answer`` is an int, a bool, or a tuple of
    (key, value) pairs (a JSON object)."""

    answer: Any
    proofs: tuple[Proof, ...] = ()
    witnesses: tuple[Witness, ...] = ()
    notes: tuple[str, ...] = ()
    counterexamples: tuple[Counterexample, ...] = ()

    def merged(self, other: "Finding", answer: Any) -> "Finding":
        """This finding's evidence and ``other``'s, under ``answer``."""
        return Finding(answer, self.proofs + other.proofs, self.witnesses + other.witnesses,
                       self.notes + other.notes, self.counterexamples + other.counterexamples)

    def answer_json(self) -> Any:
        """The answer as JSON, as :meth:`Answer.answer_json` gives it."""
        return _json_answer(self.answer)


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
    witnesses: tuple[Witness, ...] = ()
    notes: tuple[str, ...] = ()
    #: How the answer was confirmed by a second method, independent of z3 (None: there is none).
    confirmation: str | None = None
    counterexamples: tuple[Counterexample, ...] = ()

    @property
    def answered(self) -> bool:
        return self.status == "answered"

    @property
    def side(self) -> str | None:
        """Which side of its claims the answer is on: "proof" (every claim checked holds, by
        an unsat core), "counterexample" (every claim checked fails: z3 found a model),
        "both", or None for an answer that checks no claim (a count)."""
        if self.proofs and self.counterexamples:
            return "both"
        if self.counterexamples:
            return "counterexample"
        return "proof" if self.proofs else None

    @property
    def proof(self) -> tuple[str, ...]:
        """Every rule ID in the unsat cores of the proofs, sorted."""
        return tuple(sorted({rule for p in self.proofs for rule in p.rules}))

    def answer_json(self) -> Any:
        """The answer as JSON: a tuple of (key, value) pairs is an object, at any depth."""
        return _json_answer(self.answer)

    def to_json(self) -> dict[str, Any]:
        """At least name, question, answer, method, seconds, status; "side" (see
        :attr:`side`) where a claim was checked; "proof" (rule IDs) and "proofs" where there
        are proofs; "counterexamples" where a claim fails; "witness" (the first witness's game
        record) and "witnesses" where there are witnesses."""
        out: dict[str, Any] = {
            "name": self.name, "question": self.question, "answer": self.answer_json(),
            "method": self.method, "seconds": round(self.seconds, 3), "status": self.status,
        }
        if self.side is not None:
            out["side"] = self.side
        if self.proofs:
            out["proof"] = list(self.proof)
            out["proofs"] = [p.to_json() for p in self.proofs]
        if self.counterexamples:
            out["counterexamples"] = [c.to_json() for c in self.counterexamples]
        if self.witnesses:
            shown = [w.to_json() for w in self.witnesses]
            out["witness"] = shown[0]["record"]
            out["witnesses"] = shown
        if self.notes:
            out["notes"] = list(self.notes)
        if self.confirmation is not None:
            out["confirmed_by"] = self.confirmation
        return out


@attrs.frozen
class Query:
    """One question of the catalogue; ``compute`` names its function as ``"module:function"``."""

    name: str
    question: str
    method: str
    compute: str = attrs.field(repr=False)
    #: The second method: ``"module:function"`` returning, without z3, the answer (as JSON)
    #: the query must give, and its description; :meth:`run` compares the two.
    confirm: str | None = attrs.field(default=None, repr=False)
    confirm_method: str | None = None

    def run(self, budget_seconds: float | None = QUERY_BUDGET_SECONDS) -> Answer:
        """Answer the question (``budget_seconds``: a wall-clock bound on top of each check's
        resource budget; None: none); a check z3 cannot decide gives status "unknown" or
        "timeout" (only with ``budget_seconds``),
        and a disagreement between two computations, or between the model and the engine on a
        witness, gives status "error" (a bug to report)."""
        from .solver import Deadline, Status, Undecided, fresh_context

        start = time.perf_counter()
        try:
            compute = _load(self.compute)
            confirm = None if self.confirm is None else _load(self.confirm)
        except (ImportError, AttributeError) as error:
            return Answer(self.name, self.question, self.method, "error", None,
                          time.perf_counter() - start,
                          notes=(f"the query's functions cannot be loaded: {error}",))
        try:
            with fresh_context():  # the same answer and witness, whatever was asked before
                found = compute(Deadline(budget_seconds))
        except Undecided as undecided:
            status = undecided.status
            return Answer(self.name, self.question, self.method,
                          (status if isinstance(status, Status) else Status.UNKNOWN).value, None,
                          time.perf_counter() - start, notes=(undecided.detail,))
        except (ModelInconsistency, WitnessError) as error:
            return Answer(self.name, self.question, self.method, "error", None,
                          time.perf_counter() - start, notes=(str(error),))
        try:
            for witness in found.witnesses:
                witness.confirm()
        except WitnessError as error:
            return Answer(self.name, self.question, self.method, "error", None,
                          time.perf_counter() - start, notes=(str(error),))
        answer = Answer(self.name, self.question, self.method, "answered", found.answer,
                        time.perf_counter() - start, found.proofs, found.witnesses, found.notes,
                        counterexamples=found.counterexamples)
        if confirm is None:
            return answer
        expected = confirm()
        if answer.answer_json() != expected:
            return attrs.evolve(answer, status="error", answer=None, seconds=(
                time.perf_counter() - start), notes=found.notes + (
                f"the model answers {answer.answer_json()!r}, the second method "
                f"({self.confirm_method}) {expected!r}",))
        return attrs.evolve(answer, seconds=time.perf_counter() - start,
                            confirmation=f"{self.confirm_method}: the same answer")


@attrs.frozen
class WhereAnswer:
    """The answer to an ad-hoc question (``query --where``) of any game: "possible"
    (``witness``: a JSON object with the record, which ``hanamikoji validate`` accepts, and what
    the game shows), "impossible" (``core``: rule IDs; ``hypotheses``: the rest of the unsat
    core) or "unknown" (``note`` says why). ``variant`` is the game's setting asked about,
    named ``setting_key`` in the JSON (Hanamikoji's variant, Maiko's player counts)."""

    expression: str
    variant: str
    answer: str
    seconds: float
    witness: dict[str, Any] | None = None
    core: tuple[str, ...] | None = None
    hypotheses: tuple[str, ...] | None = None
    note: str | None = None
    setting_key: str = "variant"

    def to_json(self) -> dict[str, Any]:
        return {"expression": self.expression, self.setting_key: self.variant,
                "answer": self.answer, "witness": self.witness,
                "core": None if self.core is None else list(self.core),
                "hypotheses": None if self.hypotheses is None else list(self.hypotheses),
                "note": self.note, "seconds": round(self.seconds, 3)}


def _load(target: str) -> Any:
    """The function ``"module:function"`` names (ImportError, AttributeError if there is none)."""
    module, _, function = target.partition(":")
    return getattr(importlib.import_module(module), function)


def by_name(catalogue: Sequence[Query], name: str) -> Query:
    """The query of ``catalogue`` called ``name``; KeyError (listing the names) if there is
    none."""
    for query in catalogue:
        if query.name == name:
            return query
    raise KeyError(f"no query named {name!r}; expected one of: "
                   + ", ".join(q.name for q in catalogue))


def _json_answer(value: Any) -> Any:
    if isinstance(value, tuple) and value and all(
            isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], str) for v in value):
        return {key: _json_answer(item) for key, item in value}
    if isinstance(value, tuple):
        return [_json_answer(v) for v in value]
    return value
