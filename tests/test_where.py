"""Ad-hoc questions: ``ask`` / ``query --where`` answer possible (with a witness
game that validates and in which the expression holds), impossible (with a core of rule IDs) or
unknown; each answer is checked against an independent enumeration of the search's rows."""

from __future__ import annotations

import functools
import json

import pytest

from hanamikoji.oracle.core.validate import Status as Verdict
from hanamikoji.oracle.core.validate import judge_bytes
from hanamikoji.engine.hanamikoji import ITALIAN_THREE_ROUNDS, STANDARD, charm, geisha_count
from hanamikoji.spec import ask
from hanamikoji.spec.core.expr import ExprError, evaluate, parse
from hanamikoji.spec.hanamikoji.where import TERMS

from hanamikoji.spec.hanamikoji.confirm import search
from hanamikoji.properties.core.cite import checks

#: The issue's four examples and what they must answer.
EXAMPLES = [
    ("geisha(1) >= 4 and charm(0) >= 11", "standard", "possible"),
    ("geisha(0) == 7", "standard", "impossible"),
    ('rounds == 3 and reason == "round-limit-highest-geisha"', "italian-three-rounds", "possible"),
    ("winner == 0 and geisha(0) == 3", "standard", "possible"),
]
MORE = [
    ("rounds >= 4", "italian-three-rounds"),
    ('reason == "shared"', "standard"),
    ('reason == "shared"', "italian-three-rounds"),
    ("charm(0) - charm(1) >= 10 and rounds == 1", "standard"),
    ("marker(6) == none and winner == 1 and rounds == 2", "standard"),
    ("geisha(0) + geisha(1) == 7 and not reason == \"charm\"", "standard"),
    ("charm(0) == charm(1) and winner != none", "italian-three-rounds"),
]


@functools.cache
def ends(variant: str, most_rounds: int = 6) -> list[tuple]:
    """Every (final row, rounds, winner, reason) a game can end with, from the search written in
    the tests (tests/test_model_reach.py) and the engine's own Rules, with rounds up to
    ``most_rounds`` for a standard game: independent of the z3 model."""
    rules = STANDARD if variant == "standard" else ITALIAN_THREE_ROUNDS
    opened, final = search()
    out = []
    limit = rules.max_rounds or most_rounds
    for row, first in final.items():
        for rounds in range(first, limit + 1):
            result = rules.goal_result(row)
            out.append((row, rounds, result.winner, result.reason.value))
    if rules.max_rounds is not None:
        for row, first in opened.items():
            if first <= rules.max_rounds:
                result = rules.round_result(row, rules.max_rounds - 1)
                out.append((row, rules.max_rounds, result.winner, result.reason.value))
    return out


def holds_somewhere(expression: str, variant: str) -> bool:
    tree = parse(expression)
    for row, rounds, winner, reason in ends(variant):
        values = {"geisha": lambda p: geisha_count(row, p), "charm": lambda p: charm(row, p),
                  "marker": lambda g: "none" if row[g] is None else row[g],
                  "winner": lambda _: "none" if winner is None else winner,
                  "reason": lambda _: reason, "rounds": lambda _: rounds}
        if evaluate(tree, lambda name, arg: values[name](arg)):
            return True
    return False


@pytest.mark.parametrize("expression, variant, expected", EXAMPLES)
def test_the_issue_examples_answer_as_stated(expression, variant, expected):
    found = ask(expression, variant=variant)
    assert found.answer == expected
    assert (found.answer == "possible") == holds_somewhere(expression, variant)


@pytest.mark.parametrize("expression, variant", [(e, v) for e, v, _ in EXAMPLES] + MORE)
def test_answers_agree_with_an_independent_enumeration(expression, variant):
    found = ask(expression, variant=variant)
    assert found.answer in ("possible", "impossible")
    assert (found.answer == "possible") == holds_somewhere(expression, variant), found


@pytest.mark.parametrize("expression, variant", [(e, v) for e, v, _ in EXAMPLES] + MORE)
def test_a_possible_answer_has_a_witness_that_validates_and_an_impossible_one_a_core(
        expression, variant):
    found = ask(expression, variant=variant)
    document = found.to_json()
    assert set(document) >= {"answer", "witness", "core"}
    if found.answer == "possible":
        record = found.witness["record"]
        verdict = judge_bytes(json.dumps(record).encode())
        assert verdict.status is Verdict.VALID, verdict
        assert record["rules"] == variant if "rules" in record else True
        assert found.witness["rounds"] == len(record["rounds"])
        assert document["core"] is None
    else:
        assert document["witness"] is None and document["core"] is not None
        assert all(c.replace("-", "").isalnum() and c.upper() == c for c in found.core)


@checks("SCORE-4", "VAR-IT-1", "END-2")
def test_cores_name_the_rules_that_forbid_and_nothing_else():
    """Seven geisha is forbidden by how geisha are counted (SCORE-4) over the rows a game can
    end at; four rounds of an Italian game by VAR-IT-1 alone; a shared standard game by the
    results END-2..4. The question and the derived rows are hypotheses, not rules."""
    assert ask("geisha(0) == 7").core == ("SCORE-4",)
    assert ask("rounds >= 4", variant="italian-three-rounds").core == ("VAR-IT-1",)
    shared = ask('reason == "shared"')
    assert set(shared.core) <= {"END-2", "END-3", "END-4"} and shared.core
    assert "the question" in shared.hypotheses


@pytest.mark.parametrize("expression, column, words", [
    ("charm(0) >", 11, "expected a number"),
    ("geisha(2) > 1", 8, "from 0 to 1, not 2"),
    ("foo(1) == 2", 1, "unknown term 'foo'"),
    ("winner < 1", 1, "compared only with == or !="),
    ('reason == "draw"', 11, "reason is one of"),
    ("1 < 2 < 3", 7, "do not chain"),
    ("charm(0)", 1, "must be a condition"),
    ("rounds == 3 and", 16, "the end of the expression"),
    ("marker(3) == 2", 14, "marker is one of none, 0, 1"),
    ("geisha(0) @ 1", 11, "unexpected character '@'"),
    ("", 1, "empty"),
])
def test_errors_name_the_column(expression, column, words):
    with pytest.raises(ExprError) as caught:
        ask(expression)
    assert caught.value.column == column and words in str(caught.value), str(caught.value)
    assert str(caught.value).startswith(f"column {column}: ")


def test_an_undecided_check_is_unknown_never_an_answer(monkeypatch):
    from hanamikoji.spec.core import solver

    monkeypatch.setattr(solver.Problem, "check", lambda self, *a: solver.Verdict(
        solver.Status.TIMEOUT))
    found = ask("geisha(0) >= 4", timeout=1)
    assert found.answer == "unknown" and found.witness is None and found.core is None
    assert "could not decide" in found.note


def test_the_terms_are_documented():
    doc = (__import__("pathlib").Path(__file__).parents[1] / "docs" / "queries.md").read_text()
    for term in TERMS:
        assert f"`{term.name}" in doc, term.name


def test_the_documented_examples_answer_as_the_table_says():
    """docs/queries.md, "Your own questions": each row of the table answers as written (with the
    core it names), and each pasted command runs with the exit code its answer gives."""
    import re
    import shlex
    from pathlib import Path

    from hanamikoji.cli.main import main

    doc = (Path(__file__).parents[1] / "docs" / "queries.md").read_text()
    section = doc.split("## Your own questions", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(.+?)` \| ([a-z-]+) \| (possible|impossible)(?:: core ([A-Z0-9 -]+))?",
                      section, re.M)
    assert len(rows) >= 6
    for expression, variant, expected, core in rows:
        found = ask(expression, variant=variant)
        assert found.answer == expected, expression
        if core:
            assert found.core == tuple(core.split()), (expression, found.core)
    commands = re.findall(r"^hanamikoji (query --where .*)$", section, re.M)
    assert len(commands) == 4
    for command in commands:
        assert main(shlex.split(command)) == 0, command


def test_the_command_line(capsys):
    from hanamikoji.cli.main import main

    assert main(["query", "--where", "geisha(0) = 7"]) == 2
    err = capsys.readouterr().err
    assert err == "hanamikoji query: error: --where: column 11: unexpected character '='\n"
    assert main(["query", "--where", "geisha(0) == 7", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["answer"] == "impossible" and document["core"] == ["SCORE-4"]
    assert document["witness"] is None
    assert main(["query", "--variant", "standard", "both-eleven-charm"]) == 2
    assert "--variant goes with --where" in capsys.readouterr().err
    assert main(["query", "--where", "rounds == 1", "--list"]) == 2
    assert main(["query", "--where", "rounds == 1", "--variant", "french"]) == 2
    assert "unknown variant 'french'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stopped:  # argparse refuses it before any handler
        main(["query", "--where", "rounds == 1", "--timeout", "0"])
    assert stopped.value.code == 2
    assert "must be from 0.1 to 3600 seconds, not 0" in capsys.readouterr().err
