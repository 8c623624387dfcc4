"""Maiko's own questions: ``hanamikoji query --game maiko --where EXPR``.

Every "possible" is checked again from its record alone (read back, replayed in the engine, the
expression evaluated on the final state by a reading written here); every "impossible" has a
core whose every rule is needed (without it the question becomes satisfiable); the answers never
say "impossible" of an ending a real game reaches (random games, their own final values asked
back); and the documented examples answer as the docs say.
"""

from __future__ import annotations

import json
import random
import re
import shlex
from pathlib import Path

import pytest

from hanamikoji.cli.main import main
from hanamikoji.oracle.core.validate import Status as Judged
from hanamikoji.oracle.core.validate import judge_bytes
from hanamikoji.engine.maiko import Config, Phase, apply, legal_actions, new_game, random_layout
from hanamikoji.engine.maiko.record import read_record
from hanamikoji.properties.core.cite import checks
from hanamikoji.spec import ask as generic_ask
from hanamikoji.spec.core.expr import ExprError, evaluate, parse
from hanamikoji.spec.core.solver import Constraint, Deadline, Problem, Status
from hanamikoji.spec.maiko.model import Ending
from hanamikoji.spec.maiko.where import TERMS, _translate, ask

DOC = Path(__file__).parents[2] / "docs" / "queries.md"


def _reading(state):
    """The terms on a finished engine state, read here without the module's own reading."""
    result = state.result
    values = {"score": lambda p: result.scores[p], "own": lambda p: result.own[p],
              "tiles": lambda p: sum(state.boards[p]), "tokens": lambda p: state.hands[p],
              "winner": lambda p: 1 if p in result.winners else 0}

    def value(name, arg):
        if name in values:
            return values[name](arg)
        return {"winners": len(result.winners), "reason": result.reason.value,
                "players": state.config.players}[name]

    return value


def _replayed(witness):
    """The witness's record, judged valid, read back and replayed from scratch."""
    record = witness["record"]
    assert judge_bytes(json.dumps(record).encode()).status is Judged.VALID
    read = read_record(record)
    state = new_game(read.config, read.first_player)
    for decision in read.history:  # the layout, then every decision, applied again here
        state = apply(state, decision)
    assert state.result == read.result
    assert state.phase is Phase.OVER
    return state


@pytest.mark.parametrize("expression, players", [
    ("winners == 4 and score(0) < 0", 4),
    ("score(1) - score(0) >= 30", 3),
    ("winner(0) == 1 and score(0) < 0 and tokens(0) >= 2", 2),
    ("score(0) == -27 and winner(0) == 1", 2),
    ('reason == "static" and winners == 1', None),
    ('reason == "no-face-down-tile"', None),
    ("own(0) == 18 and tiles(0) == 18 and winners == 2", 3),
])
def test_a_possible_answer_has_a_witness_where_the_expression_holds(expression, players):
    found = ask(expression, players=players)
    # an "unknown" says why (a check out of budget, or no witness among the models z3 gave)
    assert found.answer == "possible" and found.core is None, (found.answer, found.note)
    state = _replayed(found.witness)
    assert evaluate(parse(expression), _reading(state))
    assert found.witness["players"] == state.config.players
    assert players in (None, state.config.players)
    assert found.witness["result"]["scores"] == list(state.result.scores)


@checks("MK-SCORE-4", "MK-COMP-2", "MK-STATIC-1")
@pytest.mark.parametrize("expression, players", [
    ("score(0) == 18 and winner(0) == 0", 3),
    ("winner(0) == 1 and score(0) < -27", 2),
    ("tokens(0) + tokens(1) > 16", 2),
    ('reason == "static" and tokens(0) >= 1', 4),
])
def test_an_impossible_answer_has_a_core_whose_every_rule_is_needed(expression, players):
    """The core names MK rules (the expression apart, under its own label), and dropping any one
    of them makes the question satisfiable: a core cannot name a rule it does not use."""
    found = ask(expression, players=players)
    assert found.answer == "impossible" and found.witness is None
    assert found.core and all(r.startswith("MK-") for r in found.core)
    assert found.hypotheses == ("question: the expression",)
    tree = parse(expression)
    ending = Ending(Config.make(players))

    def status(dropped):
        problem = Problem(Deadline(), cores=False)
        for rule, where, formula in ending.parts:
            if rule != dropped:
                problem.require([Constraint(rule, formula)], where)
        problem.require([Constraint("question", _translate(tree, ending))], "q")
        return problem.check().status

    assert status(None) is Status.UNSAT
    for rule in found.core:
        assert status(rule) is Status.SAT, rule


def test_never_impossible_for_an_ending_a_real_game_reaches():
    """Random games to their end; each one's own final values, asked back as an expression, are
    never answered "impossible" (the model is a relaxation of every real ending)."""
    for seed in range(6):
        players = 2 + seed % 3
        rng = random.Random(f"where/{seed}")
        config = Config.make(players)
        state = apply(new_game(config, 0), random_layout(config, rng))
        while state.phase is not Phase.OVER:
            state = apply(state, rng.choice(legal_actions(state)))
        value = _reading(state)
        expression = " and ".join(
            [f"score({p}) == {value('score', p)} and tokens({p}) == {value('tokens', p)} "
             f"and winner({p}) == {value('winner', p)}" for p in range(players)]
            + [f'reason == "{value("reason", None)}"', f"players == {players}"])
        found = ask(expression, players=players)
        assert found.answer != "impossible", (expression, found.core)


def test_unknown_is_never_an_answer():
    found = ask('reason == "static" and score(0) > 10')
    assert found.answer == "unknown" and found.witness is None and found.core is None
    assert "no game of the witness family" in found.note


def test_unknown_when_z3_cannot_decide(monkeypatch):
    from hanamikoji.spec.core import solver

    monkeypatch.setattr(solver.Problem, "check", lambda self, *a: solver.Verdict(
        solver.Status.TIMEOUT))
    found = ask("winners == 2", timeout=1)
    assert found.answer == "unknown" and "could not decide" in found.note


def test_errors_name_the_column_and_what_was_expected():
    with pytest.raises(ExprError, match="column 7: score takes a player from 0 to 1, not 3"):
        ask("score(3) > 1", players=2)
    with pytest.raises(ExprError, match="column 1"):
        ask("geisha(0) == 1")
    with pytest.raises(ValueError, match="2 to 4 players, not 5"):
        ask("winners == 1", players=5)
    with pytest.raises(ValueError, match="game maiko has no option .variant."):
        ask("winners == 1", variant="italian-three-rounds")
    # a player only 4 players seat: only 4-player games are asked
    assert ask("score(3) == 18 and winner(3) == 1").witness["players"] == 4


def test_the_python_api_and_the_command_line(capsys):
    assert generic_ask("winners == 3", game="maiko", players=3).answer == "possible"
    assert main(["query", "--game", "maiko", "--where", "winners == 3", "--players", "3",
                 "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["answer"] == "possible" and document["players"] == "3"
    assert main(["query", "--game", "maiko", "--where", "score(0) = 1"]) == 2
    assert "--where: column 10" in capsys.readouterr().err
    assert main(["query", "--game", "maiko", "--where", "winners == 1", "--players", "5"]) == 2
    assert "maiko is played by 2 to 4 players, not 5" in capsys.readouterr().err
    assert main(["query", "--where", "geisha(0) == 7", "--players", "3"]) == 2
    assert "hanamikoji is played by 2 players, not 3" in capsys.readouterr().err
    assert main(["query", "--game", "maiko", "score-range", "--players", "3"]) == 2
    assert "--players goes with --where" in capsys.readouterr().err
    assert main(["query", "--game", "maiko", "--where",
                 'reason == "static" and score(0) > 10']) == 1
    assert "answer:   unknown" in capsys.readouterr().out


def test_the_terms_and_the_documented_examples():
    """docs/queries.md, "Maiko's own questions": every term is documented, every row answers as
    written (with the core it names), and every pasted command runs."""
    section = DOC.read_text().split("### Maiko's own questions", 1)[1].split("\n## ", 1)[0]
    for term in TERMS:
        assert f"`{term.name}" in section, term.name
    rows = re.findall(r"^\| `(.+?)` \| ([0-9-]+) \| (possible|impossible|unknown)"
                      r"(?:: core ([A-Z0-9 -]+) \|)?", section, re.M)
    assert len(rows) >= 8
    for expression, players, expected, core in rows:
        found = ask(expression, players=None if "-" in players else int(players))
        assert found.answer == expected, expression
        if core:
            assert found.core == tuple(core.split()), (expression, found.core)
    commands = re.findall(r"^hanamikoji (query --game maiko --where .*)$", section, re.M)
    assert len(commands) == 3
    for command in commands:
        assert main(shlex.split(command)) == 0, command
