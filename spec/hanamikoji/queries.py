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

from hanamikoji.spec.core.queries import (  # noqa: F401  (shared by every game's catalogue)
    Answer,
    Counterexample,
    Finding,
    ModelInconsistency,
    Proof,
    Query,
    WitnessError,
)
from hanamikoji.spec.core.queries import by_name as _by_name

#: No wall-clock bound on a query: every check has z3's deterministic resource budget
#: (:data:`hanamikoji.spec.core.solver.RLIMIT_PER_CHECK`), the shared derivations too.
QUERY_BUDGET_SECONDS: float | None = None


#: How the yes/no questions about marker rows are answered.
ROW_METHOD = ("decided either way over every marker row: an unsat core, or the row z3 finds "
              "(and a game through it when a game reaches it)")


def _q(name: str, question: str, method: str) -> Query:
    from .confirm import METHODS  # no z3: the second methods are plain Python

    function = name.replace('-', '_')
    return Query(name, question, method, f"hanamikoji.spec.hanamikoji.findings:{function}",
                 f"hanamikoji.spec.hanamikoji.confirm:{function}", METHODS[name])


CATALOGUE: tuple[Query, ...] = (
    _q("scored-cards-per-side",
       "How many item cards lie on each player's side at a round's scoring (secret included)?",
       "z3 enumerates the side totals the round model allows; then 'each side holds that many' "
       "is decided either way: an unsat core, or a round z3 finds with another total and a "
       "game that plays it"),
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
       "maximum over the z3-enumerated favour patterns, decided either way over the full round "
       "model: an unsat core for one more (or the round z3 finds: 'at least'), and a witness "
       "round at the maximum (or an unsat core: 'at most' one fewer)"),
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
       ROW_METHOD),
    _q("both-four-geisha", "Can both players hold 4+ geisha at once?",
       ROW_METHOD),
    _q("rulebook-example",
       "Can the marker row of the example in rulebooks 000 and 003 occur: 3 geisha and 8 charm "
       "against 4 geisha and 11 charm?",
       ROW_METHOD + ", for either player on top"),
    _q("max-geisha-at-end",
       "What is the most geisha one player can hold when a standard game ends?",
       "maximum over the search's final rows, decided either way over one round of the full "
       "model: an unsat core for one more (or the round z3 finds: 'at least'), and a witness "
       "game at the maximum from a row a game reaches (or an unsat core: 'at most' one fewer)"),
    _q("win-every-geisha", "Can a player ever hold all seven geisha?",
       "decided either way over one round of the full model from any row without a goal: an "
       "unsat core, or the round z3 finds (and a game through it when a game reaches it)"),
    _q("fastest-finish",
       "In how few rounds can a standard game end, for each way of winning?",
       "minimum over the search's final rows, by z3 result; a witness game for each"),
    _q("unbounded-game",
       "Can a standard game go on forever (from every open marker row, some round ends no game "
       "and moves no marker)?",
       "z3 finds a round in which every geisha ties, and an unsat core proves that such a round "
       "leaves any open row in place; a witness game. Either may fail: no tie round (a core), "
       "or a tie round that moves a marker (the round z3 finds), and the answer is then no"),
    _q("italian-round-limit",
       "Over the marker rows in which a game can stand after its third round with no goal "
       "reached, how many does the limit decide by charm, by highest geisha, and as shared, "
       "under the engine's reading of VAR-IT-3 and under each reading?",
       "count: z3 enumerates those rows (the search's open rows, each kept by tie rounds) with "
       "their VAR-IT-2..4 result; a witness game for each way"),
    _q("tiebreak-readings-agree",
       "Do the three readings of the Italian tiebreak (VAR-IT-3) decide alike: (a) 'compare the "
       "single highest geisha each player holds', (b) 'compare the charm values each player "
       "holds, from the highest down' (the engine's), (c) 'whoever holds the geisha of charm 5, "
       "else shared'? Each pair, on the reachable rows where the tiebreak is consulted and on "
       "every such row",
       "each pair: an unsat core where they agree; where they differ, the row z3 finds (a "
       "counterexample) and a witness game when a game reaches it"),
    _q("charm-wording-equivalent",
       "In a simultaneous finish, do 'the player with 11+ charm wins' (rulebooks 000, 001, 003) "
       "and 'the player with more charm wins' (002) always name the same winner?",
       ROW_METHOD),
)


def by_name(name: str) -> Query:
    """The query called ``name``; KeyError (listing the names) if there is none."""
    return _by_name(CATALOGUE, name)


def run_all(budget_seconds: float | None = QUERY_BUDGET_SECONDS) -> tuple[Answer, ...]:
    """Every query of the catalogue, in order (the derivations they share are computed once)."""
    return tuple(query.run(budget_seconds) for query in CATALOGUE)
