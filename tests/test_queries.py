"""The query catalogue: every query answers, every witness replays in the engine, every proof
names rules that exist, and the JSON answer has the promised shape."""

from __future__ import annotations

import functools
import json
import pathlib
import re

import attrs
import pytest

from hanamikoji.engine.hanamikoji.record import read_record
from hanamikoji.spec.hanamikoji import findings
from hanamikoji.spec.hanamikoji.queries import CATALOGUE, Answer, Finding, by_name
from hanamikoji.spec.hanamikoji.witness import WitnessError
from hanamikoji.properties.core.cite import checks

RULES_MD = pathlib.Path(__file__).parent.parent / "spec" / "hanamikoji" / "rules.md"
NAMES = [q.name for q in CATALOGUE]
REQUIRED = {
    "round-outcome-pairs": int, "round-favour-patterns": int, "marker-states": dict,
    "simultaneous-goals": dict, "both-eleven-charm": bool, "max-geisha-at-end": int,
    "unbounded-game": bool, "italian-round-limit": dict, "tiebreak-readings-agree": dict,
    "charm-wording-equivalent": bool, "rulebook-example": bool,
}


@functools.cache
def answer(name: str) -> Answer:
    return by_name(name).run()


@functools.cache
def rule_ids() -> frozenset[str]:
    return frozenset(re.findall(r"\*\*([A-Z]+(?:-[A-Z]+)*-\d+)\*\*", RULES_MD.read_text()))


def test_the_catalogue_has_the_required_queries_with_their_answer_types():
    for name, kind in REQUIRED.items():
        value = answer(name).answer_json()
        assert type(value) is kind, (name, value)
    assert set(answer("marker-states").answer_json()) == {"open", "final"}
    assert set(answer("simultaneous-goals").answer_json()) == {"reachable", "final_states"}
    assert set(answer("italian-round-limit").answer_json()) == {
        "charm", "highest-geisha", "shared", "reading (a)", "reading (b)", "reading (c)"}
    assert len(set(NAMES)) == len(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_every_query_answers_with_the_json_fields(name):
    a = answer(name)
    assert a.status == "answered", a.notes
    document = json.loads(json.dumps(a.to_json()))
    assert {"name", "question", "answer", "method", "seconds", "status"} <= set(document)
    assert document["name"] == name and document["answer"] == a.answer_json()
    assert ("witness" in document) == bool(a.witnesses)


@pytest.mark.parametrize("name", [n for n in NAMES if answer(n).witnesses])
def test_every_witness_replays_in_the_engine(name):
    """Model -> engine: the witness game reaches the marker row and result the model claims,
    both from its decisions and from its JSON record read back by the record reader."""
    for witness in answer(name).witnesses:
        state = witness.confirm()
        assert state.result is not None  # witnesses are whole games
        record = witness.to_json()["record"]
        again = read_record(json.loads(json.dumps(record)))
        assert again.scores[-1].markers == tuple(witness.markers)
        assert again.result == witness.result


def test_witnesses_show_what_their_query_claims():
    double = answer("simultaneous-goals").witnesses[0].confirm()
    assert double.result.reason.value == "charm-over-geisha"
    best = answer("max-geisha-at-end").answer
    end = answer("max-geisha-at-end").witnesses[0].confirm().markers
    assert max(end.count(0), end.count(1)) == best
    wins = answer("max-round-wins")
    first = wins.witnesses[0].confirm().scores[0]
    assert max(sum(1 for a, b in zip(mine, theirs) if a > b)
               for mine, theirs in (first.sides, first.sides[::-1])) == wins.answer
    still = answer("unbounded-game").witnesses[0].confirm().scores
    assert still[-3].markers == still[-2].markers == still[-4].markers
    reasons = {w.confirm().result.reason.value for w in answer("italian-round-limit").witnesses}
    assert reasons == {"round-limit-charm", "round-limit-highest-geisha", "shared"}
    assert all(len(w.confirm().scores) == 3 for w in answer("italian-round-limit").witnesses)


@pytest.mark.parametrize("name", [n for n in NAMES if answer(n).proofs])
def test_every_proof_names_rules_of_the_spec(name):
    for proof in answer(name).proofs:
        assert proof.rules, proof
        assert set(proof.rules) <= rule_ids(), proof
        # a query's own assumptions are labelled, never tracked under a rule ID
        assert not any(re.fullmatch(r"[A-Z]+(?:-[A-Z]+)*-\d+", h) for h in proof.hypotheses), proof


@checks("VAR-IT-2", "END-2", "VAR-IT-3")
def test_the_hypotheses_of_a_question_are_not_rules():
    """The tiebreak question assumes equal charm and no goal: those are its hypotheses, so the
    core does not name VAR-IT-2 or END-2 (no rule is used for them); VAR-IT-3, the rule compared
    with its other readings, is."""
    found = answer("tiebreak-readings-agree")
    for proof in found.proofs:
        assert "VAR-IT-3" in proof.rules and not {"VAR-IT-2", "END-2"} & set(proof.rules), proof
        assert any(h.startswith("hypothesis: equal charm") for h in proof.hypotheses), proof


@checks("COMP-1", "SCORE-4", "COMP-2", "DEAL-1")
def test_proofs_name_the_rules_that_forbid():
    """The unsat cores say why: charm needs the charm values (COMP-1) and their sums (SCORE-4);
    8 cards a side needs the action sizes; one round cannot win six geisha because of the
    deck (COMP-2, DEAL-1)."""
    assert set(answer("both-eleven-charm").proof) == {"COMP-1", "SCORE-4"}
    assert {"ACT-SECRET-1", "ACT-GIFT-1", "ACT-COMP-1", "SCORE-1"} <= set(
        answer("scored-cards-per-side").proof)
    assert {"COMP-2", "DEAL-1", "SCORE-1"} <= set(answer("max-round-wins").proof)
    assert "SCORE-3" in answer("unbounded-game").proof
    assert "END-4" in answer("charm-wording-equivalent").proof


def test_a_witness_the_engine_contradicts_is_an_error(monkeypatch):
    """The engine has the last word: a witness whose claimed row or result the engine does not
    reach fails to confirm, and the query reports status "error" with no answer."""
    good = answer("simultaneous-goals")
    bad = attrs.evolve(good.witnesses[0], markers=(None,) * 7)
    with pytest.raises(WitnessError):
        bad.confirm()
    monkeypatch.setattr(findings, "simultaneous_goals",
                        lambda deadline: Finding(answer=good.answer, witnesses=(bad,)))
    broken = by_name("simultaneous-goals").run()
    assert broken.status == "error" and broken.answer is None
    assert "engine reaches" in broken.notes[0]


def test_scored_cards_per_side_is_eight():
    assert answer("scored-cards-per-side").answer == 8


def test_unknown_query_name_lists_the_names():
    with pytest.raises(KeyError, match="round-outcome-pairs"):
        by_name("no-such-query")


def test_a_changed_answer_is_an_error_not_a_pass(monkeypatch):
    """Every query is confirmed by a second method without z3 (spec/hanamikoji/confirm.py): when
    the two disagree the answer is an error (so verify fails), and says both answers."""
    from hanamikoji.spec.hanamikoji import confirm

    assert all(q.confirm and q.confirm_method for q in CATALOGUE)
    good = by_name("max-round-wins").run()
    assert good.answered and good.confirmation.endswith("the same answer")
    assert good.to_json()["confirmed_by"] == good.confirmation
    monkeypatch.setattr(confirm, "max_round_wins", lambda: 6)
    changed = by_name("max-round-wins").run()
    assert changed.status == "error" and changed.answer is None
    assert "the model answers 5, the second method" in changed.notes[-1] and "6" in changed.notes[-1]


def test_a_yes_no_question_answers_yes_with_a_counterexample_row_and_a_game():
    """Yes/no questions answer either way: where z3 finds a row, the answer is yes, with the
    row and (when a game reaches it) a witness game, never an error."""
    from hanamikoji.spec.hanamikoji.findings import decide_row, row_problem
    from hanamikoji.spec.hanamikoji.model import Deadline

    rp = row_problem(Deadline())
    found = decide_row(
        rp, "no player holds 4+ geisha", rp.standing.geisha[0] >= 4, "player 0 holds 4+ geisha")
    (counterexample,) = found.counterexamples
    assert found.answer is True and found.proofs == () and counterexample.claim.startswith("no")
    row = counterexample.value("row")
    assert sum(1 for m in row if m == 0) == counterexample.value("geisha")[0] >= 4
    assert counterexample.reached == bool(found.witnesses)
    for witness in found.witnesses:
        state = witness.confirm()
        assert row in [score.markers for score in state.scores]
    rp = row_problem(Deadline())
    found = decide_row(
        rp, "nobody holds 8 geisha", rp.standing.geisha[0] >= 8, "player 0 holds 8 geisha")
    assert found.answer is False and found.proofs[0].rules
    assert found.witnesses == () and found.counterexamples == ()


def test_every_catalogue_entry_of_every_game_resolves_to_a_function():
    """A query whose module or function is missing would crash verify: each entry's compute
    and confirm name a function that exists."""
    import importlib

    from hanamikoji.spec.core.verify import catalogue

    for game in ("hanamikoji", "maiko"):
        for query in catalogue(game):
            for target in filter(None, (query.compute, query.confirm)):
                module, _, function = target.partition(":")
                assert callable(getattr(importlib.import_module(module), function)), target


def test_a_query_whose_function_is_missing_answers_error_not_a_crash():
    from hanamikoji.spec.core.queries import Query

    for compute in ("hanamikoji.spec.no_such_module:f", "hanamikoji.spec.maiko.findings:nothing"):
        found = Query("broken", "?", "none", compute).run()
        assert found.status == "error" and "cannot be loaded" in found.notes[0]
    broken = attrs.evolve(CATALOGUE[0], confirm="hanamikoji.spec.hanamikoji.confirm:missing")
    assert broken.run().status == "error"
