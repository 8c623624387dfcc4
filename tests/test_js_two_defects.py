"""The JavaScript engine of tests/js/two-defects-engine.mjs, with the two rule defects diff found
in a public TypeScript engine (VAR-IT-2, UPDATE-4): ``hanamikoji diff`` finds each, and names
what diverged in the protocol's JSON; with neither defect the engine agrees with the reference;
and the way it plays UPDATE-4 over the reference changes who starts round 1 and nothing else.

These tests need Node (18 or later); where ``node`` is missing they are skipped, and say so.
"""

from __future__ import annotations

import json
import pathlib
import random
import shutil
import subprocess
import sys

import pytest

from hanamikoji.cli.main import main
from hanamikoji.engine.hanamikoji import codec
from hanamikoji.engine.hanamikoji import game as G
from hanamikoji.engine.hanamikoji.game import Phase
from hanamikoji.engine.hanamikoji.rules import ITALIAN_THREE_ROUNDS, STANDARD
from hanamikoji.properties.core.cite import checks

ROOT = pathlib.Path(__file__).resolve().parents[1]
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(
    NODE is None, reason="node is not installed: the JavaScript engine with two defects "
                         "(tests/js/two-defects-engine.mjs) is not run")

ENGINE = str(ROOT / "tests" / "js" / "two-defects-engine.mjs")


def adapter(defects: str) -> list[str]:
    """The adapter command of the engine with ``defects`` (DEFECTS, comma-separated)."""
    return ["env", f"DEFECTS={defects}", "node", str(ROOT / "docs" / "examples" / "adapter.mjs"),
            "--engine", ENGINE]


@pytest.fixture(autouse=True)
def this_python(monkeypatch):
    """The reference engine underneath starts $PYTHON: this interpreter, with the toolkit."""
    monkeypatch.setenv("PYTHON", sys.executable)


def diverges(capsys, *options: str, defects: str) -> dict:
    """The divergence ``diff --json`` reports (exit 1) between the engine and the reference."""
    assert main(["diff", "--shrink", "0", "--json", *options, "--", *adapter(defects)]) == 1
    divergence = json.loads(capsys.readouterr().out)["divergence"]
    assert divergence is not None
    return divergence


def rounds_dealt(divergence: dict) -> int:
    return sum("deal" in d for d in divergence["decisions"])


@checks("UPDATE-4")
def test_diff_finds_the_second_player_starting_round_one_again(capsys):
    divergence = diverges(capsys, "--games", "3", defects="UPDATE-4")
    assert divergence["first_player"] == 1, divergence
    assert divergence["request"] == {"op": "current_player"}
    assert (divergence["reference"], divergence["other"]) == (
        {"current_player": 0}, {"current_player": 1})
    assert rounds_dealt(divergence) == 2 and "deal" in divergence["decisions"][-1]
    assert divergence["message"] == "current_player is 1, not 0 (the reference follows UPDATE-4)"


@checks("VAR-IT-2")
def test_diff_finds_a_draw_where_more_charm_wins_at_the_round_limit(capsys):
    divergence = diverges(capsys, "--games", "5", "--variant", "italian-three-rounds",
                          defects="VAR-IT-2")
    assert divergence["variant"] == "italian-three-rounds" and rounds_dealt(divergence) == 3
    request = divergence["request"]
    key = "view" if request["op"] == "observe" else "result"
    assert request["op"] in ("observe", "result"), request
    reference, other = divergence["reference"][key], divergence["other"][key]
    if key == "view":
        reference, other = reference["result"], other["result"]
    assert reference["reason"] == "round-limit-charm" and reference["winner"] in (0, 1)
    assert other == {"winner": None, "reason": "shared"}
    # Named in the protocol's JSON, the key that differs and both values.
    assert '"result"' in divergence["message"] and '"round-limit-charm"' in divergence["message"]
    assert '"shared"' in divergence["message"]
    assert divergence["message"].endswith("(the reference follows VAR-IT-2)")


def test_without_its_defects_the_engine_agrees_with_the_reference(capsys):
    assert main(["diff", "--games", "4", "--variant", "both", "--json", "--",
                 *adapter("none")]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "agree"


def ask(defects: str, requests: list[dict]) -> list[dict]:
    lines = "".join(json.dumps(r) + "\n" for r in requests)
    done = subprocess.run(adapter(defects), input=lines, capture_output=True, text=True,
                          timeout=120, check=True)
    return [json.loads(line) for line in done.stdout.splitlines()]


def round_one_dealt(rules, seed: int) -> list:
    """The decisions of a game player 1 starts, played at random up to round 1's deal."""
    rng = random.Random(seed)
    state = G.new_game(rules, first_player=1)
    decisions = []
    while not (state.round == 1 and state.phase is Phase.ACTION):
        if state.phase is Phase.OVER:
            return []
        decision = (G.random_deal(rng) if state.phase is Phase.DEAL
                    else rng.choice(G.legal_actions(state)))
        decisions.append(decision)
        state = G.apply(state, decision)
    return decisions


@checks("UPDATE-4")
@pytest.mark.parametrize("rules", [STANDARD, ITALIAN_THREE_ROUNDS], ids=["standard", "italian"])
def test_the_defect_changes_who_starts_round_one_and_nothing_else(rules):
    """After round 1's deal, each player's view from the engine is the reference's in every key
    but who is to play and the hands the starter's draw lands in: the replayed round 0 that
    stands under it leaves the same markers, scores and first player."""
    decisions = next(d for seed in range(50) if (d := round_one_dealt(rules, seed)))
    state = G.replay(decisions, rules=rules, first_player=1)
    requests = [{"op": "new_game", "game": "hanamikoji", "players": 2,
                 "options": {"variant": rules.name}, "first_player": 1}]
    for decision in decisions:
        body = codec.decision_json(decision)
        requests.append({"op": "chance", "outcome": body} if "deal" in body
                        else {"op": "apply", "decision": body})
    requests += [{"op": "current_player"}, {"op": "observe", "player": 0},
                 {"op": "observe", "player": 1}]
    answers = ask("UPDATE-4", requests)
    played, current, views = answers[:-3], answers[-3], answers[-2:]
    assert all(answer.get("ok") for answer in played), played
    assert G.current_player(state) == 0 and current == {"current_player": 1}
    for player, answer in enumerate(views):
        view, reference = answer["view"], codec.view_json(G.observe(state, player))
        same = {"player", "variant", "first_player", "round", "phase", "turn", "markers",
                "secret", "trade_off", "sides", "used", "pending", "log", "scores", "result",
                "opponent_secret_size", "opponent_trade_off_size", "deck_size"}
        assert {k: view[k] for k in same} == {k: reference[k] for k in same}
        assert view["current_player"] == 1 and reference["current_player"] == 0
    # The first draw of the round went to player 1, not to player 0.
    assert [len(v["view"]["hand"]) for v in views] == [6, 7]
    assert [len(codec.view_json(G.observe(state, p))["hand"]) for p in (0, 1)] == [7, 6]


@checks("UPDATE-4")
def test_the_docs_show_what_diff_prints_for_the_engine(monkeypatch, capsys):
    """docs/oracle.md's run of this engine: the first lines of the report, as written."""
    import re
    import shlex

    doc = (ROOT / "docs" / "oracle.md").read_text(encoding="utf-8")
    command, shown = re.search(r"```\n\$ (hanamikoji diff [^\n]*two-defects-engine\.mjs)"
                               r"   # exit 1\n(.*?)\n```", doc, re.S).groups()
    monkeypatch.chdir(ROOT)
    assert main(shlex.split(command)[1:]) == 1
    printed = capsys.readouterr().out.splitlines()
    assert printed[:len(shown.splitlines())] == shown.splitlines()
    # Both defects on (the default): the first met is named in the protocol's JSON.
    assert '  reference: {"current_player": 0}' in printed
    assert '  other:     {"current_player": 1}' in printed
    assert not any("Deal(" in line or "Competition(" in line for line in printed)


def test_check_reports_both_defects_of_the_javascript_engine_each_to_paste(monkeypatch, tmp_path):
    """The done-test of check on an engine: one JavaScript engine with both defects; check goes
    on past the first divergence (UPDATE-4, game 0) to the second kind (VAR-IT-2, first in game
    28 of seed 0 in the Italian variant) and gives each the request lines that, pasted into a
    shell, make this engine give the wrong answer the card reports."""
    from hanamikoji import oracle
    from hanamikoji.oracle.core import check_engine

    monkeypatch.setattr(check_engine, "SHRINK", 10)  # the command's budget, cut for a cheap test
    report = oracle.check(engines=["two=" + " ".join(adapter("UPDATE-4,VAR-IT-2"))], games=30,
                          options={"variant": "italian-three-rounds"}, limit_ms=600_000)
    [card] = report.cards
    diff = next(check for check in card.checks if check.name == "diff")
    assert not report.ok and (diff.passed + diff.failed) == 30
    rules = [failure.message.rsplit("(the reference follows ", 1)[1] for failure in diff.failures]
    assert rules == ["UPDATE-4)", "VAR-IT-2)"]
    for failure in diff.failures:
        assert failure.reproduction is not None and failure.got != failure.expected
        pasted = subprocess.run(failure.reproduction.text, shell=True, capture_output=True,
                                text=True, timeout=600, cwd=ROOT)
        assert pasted.returncode == 0, pasted.stderr
        assert json.loads(pasted.stdout.splitlines()[-1]) == json.loads(failure.got)
