"""The JavaScript adapter of docs/examples/adapter.mjs: its loop answers as the reference adapter
does, byte for byte; ``diff`` finds no divergence when its engine is the reference
(docs/examples/reference-engine.mjs) and reports the rule bug planted in
tests/js/forgets-pair-trade-off.mjs.

These tests need Node (18 or later); where ``node`` is missing they are skipped, and say so.
"""

from __future__ import annotations

import json
import pathlib
import shutil
import subprocess
import sys

import pytest

from hanamikoji.cli.main import main
from hanamikoji.properties.core.cite import checks

ROOT = pathlib.Path(__file__).resolve().parents[1]
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(
    NODE is None, reason="node is not installed: the JavaScript adapter example "
                         "(docs/examples/adapter.mjs) is not run")

JS_ADAPTER = ["node", str(ROOT / "docs" / "examples" / "adapter.mjs")]
BROKEN = str(ROOT / "tests" / "js" / "forgets-pair-trade-off.mjs")
#: The reference adapter declaring protocol 2, the protocol the JavaScript example speaks (by
#: default it declares 3, which adds batch).
REFERENCE = [sys.executable, "-m", "hanamikoji.oracle.core.adapter", "--protocol", "2"]


@pytest.fixture(autouse=True)
def this_python(monkeypatch):
    """The reference engine of the example starts $PYTHON: this interpreter, with the toolkit."""
    monkeypatch.setenv("PYTHON", sys.executable)


def answers(argv: list[str], requests: list[str]) -> list[str]:
    done = subprocess.run(argv, input="".join(r + "\n" for r in requests), capture_output=True,
                          text=True, timeout=120, check=True)
    return done.stdout.splitlines()


def test_node_is_recent_enough():
    version = subprocess.run([NODE, "--version"], capture_output=True, text=True).stdout
    assert int(version.lstrip("v").split(".")[0]) >= 18, version


@checks("ACT-SECRET-1")
def test_the_loop_answers_as_the_reference_adapter_byte_for_byte():
    """Requests of both protocols, a refusal with its rule, lines that are no request."""
    requests = [
        '{"op": "random_deal", "seed": 3}',
        '{"op": "new_game", "variant": "standard", "first_player": 1}',
        '{"op": "current_player"}',
        '{"op": "deal", "deal": {"removed": 0, "hands": [[0,1,1,2,2,3],[3,3,4,4,4,5]], '
        '"draws": [5,5,5,6,6,6,6,6]}}',
        '{"op": "legal_actions"}',
        '{"op": "apply", "decision": {"action": "secret", "cards": [0]}}',
        '{"op": "apply", "decision": {"action": "secret", "cards": [3]}}',
        '{"op": "observe", "player": 0}',
        '{"op": "result"}',
        '{"op": "random_chance", "game": "maiko", "players": 2, "options": {"players": 2, '
        '"colours": "", "removed_colour": ""}, "seed": 1}',
        '{"op": "steal"}',
        'not json',
        '[1, 2]',
    ]
    expected = answers(REFERENCE, requests)
    assert len(expected) == len(requests)
    assert json.loads(expected[5])["rule"] == "ACT-SECRET-1"  # player 1 holds no geisha 0
    assert answers(JS_ADAPTER, requests) == expected


def test_an_engine_without_seeded_chance_refuses_it(tmp_path):
    engine = tmp_path / "no-seed.mjs"
    engine.write_text(
        f'import {{ createEngine as reference }} from '
        f'{json.dumps((ROOT / "docs" / "examples" / "reference-engine.mjs").as_uri())};\n'
        'export function createEngine() {\n'
        '  const engine = reference();\n  delete engine.randomChance;\n  return engine;\n}\n')
    out = answers([*JS_ADAPTER, "--engine", str(engine)], ['{"op": "random_deal", "seed": 3}'])
    assert json.loads(out[0]) == {"error": "this engine draws no seeded chance outcomes",
                                  "rule": None}


@pytest.mark.parametrize("game, options", [
    ("hanamikoji", ["--games", "6"]),
    ("maiko", ["--players", "3", "--games", "1"]),
])
def test_diff_finds_the_reference_behind_the_js_adapter_in_agreement(game, options, capsys):
    assert main(["diff", "--game", game, *options, "--json", "--", *JS_ADAPTER]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["status"] == "agree" and report["divergence"] is None, report


@checks("ACT-TRADE-1")
def test_diff_catches_the_rule_bug_planted_in_a_js_engine(capsys):
    assert main(["diff", "--games", "30", "--shrink", "0", "--json", "--",
                 *JS_ADAPTER, "--engine", BROKEN]) == 1
    report = json.loads(capsys.readouterr().out)
    divergence = report["divergence"]
    assert divergence["request"] == {"op": "legal_actions"}, divergence
    missed = [d for d in divergence["reference"]["legal_actions"]
              if d not in divergence["other"]["legal_actions"]]
    assert missed and all(d["action"] == "trade-off" and d["cards"][0] == d["cards"][1]
                          for d in missed), missed
    assert "legal_actions misses" in divergence["message"]


def test_the_reported_divergence_of_the_docs_is_what_diff_prints(monkeypatch, capsys):
    """docs/oracle.md's run of the broken JS engine, as written (its timings aside)."""
    import re
    import shlex

    doc = (ROOT / "docs" / "oracle.md").read_text(encoding="utf-8")
    command, shown = re.search(r"```\n\$ (hanamikoji diff [^\n]*forgets-pair-trade-off\.mjs)"
                               r"   # exit 1\n(.*?)\n\.\.\.\n```", doc, re.S).groups()
    monkeypatch.chdir(ROOT)
    assert main(shlex.split(command)[1:]) == 1
    printed = capsys.readouterr().out.splitlines()

    def untimed(line: str) -> str:
        return re.sub(r"\d+\.\d+ s\)", "T s)", line)

    expected = shown.splitlines()
    assert list(map(untimed, printed[:len(expected)])) == list(map(untimed, expected))
