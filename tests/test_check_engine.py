"""``hanamikoji check`` of an engine (oracle/core/check_engine.py, diff_groups.py): an engine
with two defects of different kinds gets both reported, each with a reproduction that, pasted
into a shell, makes the engine give the same wrong answer; the reference adapter passes every
check; the command's report agrees with its schema and its exit code with its verdict."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import jsonschema
import pytest

from hanamikoji.oracle.core import check_run
from hanamikoji.oracle.core.check import SCHEMA
from hanamikoji.oracle.core.diff import Divergence
from hanamikoji.oracle.core.diff_groups import kind_of

ROOT = pathlib.Path(__file__).resolve().parents[1]
ADAPTER = [sys.executable, str(ROOT / "docs" / "examples" / "adapter.py")]
TWO_DEFECTS = [*ADAPTER, "--engine", "broken_engines:TWO_DEFECTS"]
REFERENCE = [sys.executable, "-m", "hanamikoji.oracle.core.adapter"]
#: A per-answer limit no loaded machine comes near: no verdict depends on it.
LIMIT_MS = 600_000.0


@pytest.fixture(autouse=True)
def tests_on_the_path(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT / "tests"))


def _pasted(failure: dict) -> str:
    """The last answer line the reproduction's commands print."""
    run = subprocess.run(failure["reproduction"]["text"], shell=True, capture_output=True,
                         text=True, timeout=600, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    return run.stdout.strip().splitlines()[-1]


def test_both_defects_are_reported_each_with_a_reproduction_to_paste(tmp_path, monkeypatch,
                                                                      capsys):
    """diff stops at its first divergence (UPDATE-4, in game 0 of seed 0); check goes on and
    also meets VAR-IT-2 (first in game 23), shrinks a game of each kind within its kind, and
    gives each the request lines that, pasted into a shell, make the engine answer wrongly."""
    from hanamikoji.cli.main import main
    from hanamikoji.oracle.core import check_engine as module

    monkeypatch.setattr(module, "SHRINK", 10)  # the command's budget, cut for a cheap test
    monkeypatch.chdir(tmp_path)
    code = main(["check", "--games", "24", "--out", "card", "--limit", str(int(LIMIT_MS)),
                 "--engine", "two=" + " ".join(TWO_DEFECTS)])
    out = capsys.readouterr().out
    assert code == 1
    assert out.startswith("two (engine: ")
    assert "  diff, first failure: " in out and "  diff, also: " in out
    assert out.rstrip().endswith("0 of 1 implementations passed every check")
    document = json.loads((tmp_path / "card" / "report.json").read_text())
    jsonschema.validate(document, SCHEMA)
    checks = {c["check"]: c for c in document["cards"][0]["checks"]}
    assert list(checks) == ["vectors", "perft", "diff", "leaks"]
    diff = checks["diff"]
    assert diff["status"] == "fail" and diff["passed"] + diff["failed"] == 24
    first, second = diff["failures"]
    assert "(the first: game 0): current_player is 1, not 0" in first["message"]
    assert '(the first: game 23): the view of player 0 differs at "result"' in second["message"]
    assert "round-limit-charm" in second["expected"]
    for failure in (first, second):
        text = failure["reproduction"]["text"]
        assert text.startswith("printf '%s\\n' '{\"op\":\"new_game\"")
        assert "# found by: hanamikoji check --game hanamikoji --seed 0 --games 24 --" in text
        # pasted, the engine answers the last line as the report says, not as the reference
        assert json.loads(_pasted(failure)) == json.loads(failure["got"])
        assert json.loads(failure["got"]) != json.loads(failure["expected"])
        assert failure["minimized"] and failure["game"]["history"]
    for number, failure in enumerate((first, second), 1):  # the same lines, as a file to pipe
        lines = (tmp_path / "card" / f"two.diff.{number}.jsonl").read_text().splitlines()
        run = subprocess.run(TWO_DEFECTS, input="\n".join(lines) + "\n", capture_output=True,
                             text=True, timeout=600, cwd=ROOT)
        assert json.loads(run.stdout.splitlines()[-1]) == json.loads(failure["got"])
    assert checks["vectors"]["status"] == "fail"  # the corpus has games of both kinds


def test_the_kind_of_a_divergence_leaves_its_values_out():
    def kind(request, message):
        return kind_of(Divergence(None, 0, (), request, None, None, message))

    assert kind({"op": "current_player"}, "current_player is 1, not 0") == \
        kind({"op": "current_player"}, "current_player is 0, not 1")
    assert kind({"op": "apply"}, "accepts gift 1 2 3, which breaks ACT-GIFT-2") == \
        ("apply", "accepts ACT-GIFT-2")
    assert kind({"op": "observe", "player": 1}, 'the view of player 1 differs at "hand": '
                'reference [1], other [2]') == \
        ("observe", 'the view of player # differs at "hand"')


def test_the_reference_adapter_passes_every_check_and_the_json_agrees_with_the_schema(tmp_path):
    command = [sys.executable, "-m", "hanamikoji.cli.main", "check", "--games", "4",
               "--out", str(tmp_path / "card"), "--json", "--", *REFERENCE]
    run = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    document = json.loads(run.stdout)
    jsonschema.validate(document, SCHEMA)
    assert document["ok"] is True
    [card] = document["cards"]
    assert card["name"] == "adapter" and card["kind"] == "engine"
    assert [c["check"] for c in card["checks"]] == ["vectors", "perft", "diff", "leaks"]
    assert all(c["status"] == "pass" and c["passed"] > 0 for c in card["checks"])
    assert json.loads((tmp_path / "card" / "report.json").read_text()) == document
    assert not list(tmp_path.glob(".hypothesis"))


@pytest.mark.parametrize("words, said", [
    (["missing.mjs"], "missing.mjs: no such module (no such file)"),
    (["--engine", "no-such-program-here x"], "'no-such-program-here' cannot be run"),
    (["--bot", "python a.py", "--bot", "python a.py"], "two targets are named 'a'"),
    (["--"], "no engine command after --"),
    (["--frobnicate"], "unrecognized arguments: --frobnicate"),
    ([], "nothing to check"),
])
def test_bad_usage_is_one_line_and_exit_2_before_any_check(tmp_path, words, said):
    run = subprocess.run([sys.executable, "-m", "hanamikoji.cli.main", "check", *words],
                         capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert run.returncode == 2 and run.stdout == ""
    assert len(run.stderr.splitlines()) == 1 and said in run.stderr


def test_names_default_to_the_script_or_the_program():
    assert check_run._command_name(["node", "bots/buaa_bot.mjs", "m.js"]) == "buaa_bot"
    assert check_run._command_name(["/usr/bin/python3.11", "-m", "pkg.adapter"]) == "adapter"
    assert check_run._command_name(["./my-engine", "--fast"]) == "my-engine"


def test_schema_check_prints_the_report_schema():
    run = subprocess.run([sys.executable, "-m", "hanamikoji.cli.main", "schema", "--check"],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0 and json.loads(run.stdout) == SCHEMA


def test_the_cli_doc_check_commands_run_as_shown(tmp_path):
    """docs/cli.md's check section: its commands on a small budget (the third) exit 0 and write
    what it says; ``python`` is this interpreter."""
    import re
    import shlex

    text = (ROOT / "docs" / "cli.md").read_text()
    section = text[text.index("## check\n"):text.index("## The other commands")]
    [block] = re.findall(r"```sh\n(.*?)```", section, re.S)
    lines = block.splitlines()
    assert lines[0] == "hanamikoji check -- python -m hanamikoji.oracle.core.adapter"
    # The first two take the defaults' budget (seconds each): the tests above check the
    # same on smaller budgets.
    for line in lines[2:]:
        words = [sys.executable if w == "python" else w for w in shlex.split(line)]
        words = [w.replace("=python ", f"={sys.executable} ") for w in words]
        words = [w.replace("'python ", f"'{sys.executable} ") for w in words]
        run = subprocess.run([sys.executable, "-m", "hanamikoji.cli.main", *words[1:]],
                             capture_output=True, text=True, timeout=600, cwd=tmp_path)
        assert run.returncode == 0, (line, run.stderr)
    document = json.loads((tmp_path / "card" / "report.json").read_text())
    assert [card["name"] for card in document["cards"]] == ["reference", "random"]
    assert document["ok"] is True


def test_a_protocol_1_adapter_gets_a_decision_probed_where_the_deal_is_due():
    """The decisions vectors offer a player's decision where the deal is due: to an adapter of
    protocol 1 (docs/examples/adapter.py) it went out as a deal request, which cannot carry
    it, and the run failed with an AttributeError; it goes out as the decision it is."""
    from hanamikoji import oracle

    results = oracle.vectors().select(["decisions"]).check(ADAPTER)
    assert results.ok and results.counts()["pass"] == len(results) > 0


def test_a_module_target_goes_to_the_games_course_checker(tmp_path, monkeypatch):
    """A course module is dispatched, named, to ``check_module`` of the game's course checker
    (check_run._module_card), with the run's settings; its card takes its place in the
    report."""
    from types import SimpleNamespace

    from hanamikoji import oracle
    from hanamikoji.oracle.core.check import Card, Check

    module = tmp_path / "pair7.mjs"
    module.write_text("export default {};\n")
    calls = []

    def check_module(path, **settings):
        calls.append((path, settings))
        return Card(settings["name"], "module", path, [Check("t1", "T1", passed=1)])

    monkeypatch.setattr(check_run, "_course_checker",
                        lambda game, path: SimpleNamespace(check_module=check_module))
    report = oracle.check([f"p7={module}"], seed=4, calls=30, deals=2)
    assert [card.name for card in report.cards] == ["p7"] and report.ok
    [(path, settings)] = calls
    assert path == str(module) and settings["name"] == "p7" and settings["seed"] == 4
    assert (settings["calls"], settings["deals"], settings["limit_ms"]) == (30, 2, 2000.0)
    assert settings["cases"] == 0 and "options" not in settings  # the course's rules are its own


def test_a_module_of_a_game_without_a_course_is_a_usage_error_before_any_check(tmp_path):
    module = tmp_path / "m.mjs"
    module.write_text("export default {};\n")
    bot = f"{sys.executable} -m hanamikoji.oracle.core.bot random"
    run = subprocess.run([sys.executable, "-m", "hanamikoji.cli.main", "check", "--game",
                          "maiko", str(module), "--bot", bot], capture_output=True, text=True,
                         timeout=600, cwd=tmp_path)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr == (f"hanamikoji check: error: {module}: game maiko has no course "
                          "modules to check\n")
