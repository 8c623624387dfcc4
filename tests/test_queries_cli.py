"""``hanamikoji query`` and ``hanamikoji verify``."""

from __future__ import annotations

import json
import platform
import subprocess
import sys

import attrs
import pytest

from hanamikoji.cli.main import main
from hanamikoji.oracle.core.validate import Status as Verdict
from hanamikoji.oracle.core.validate import judge_bytes
from hanamikoji.spec.core import verify as verify_module
from hanamikoji.spec.hanamikoji.queries import CATALOGUE
from hanamikoji.spec.core.verify import PropertyRun, Report, run_verify


def test_query_list_needs_no_z3():
    code = ("import sys; from hanamikoji.cli.main import main; "
            "rc = main(['query', '--list']); assert 'z3' not in sys.modules; sys.exit(rc)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert [line.split()[0] for line in done.stdout.splitlines()] == [q.name for q in CATALOGUE]


def test_query_list_json(capsys):
    assert main(["query", "--list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [q["name"] for q in listed] == [q.name for q in CATALOGUE]


def test_query_json_prints_one_object(capsys):
    assert main(["query", "simultaneous-goals", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["name"] == "simultaneous-goals"
    assert document["answer"]["reachable"] is True
    assert document["witness"]["format"] == "hanamikoji-record/1"
    assert {"question", "method", "seconds", "status"} <= set(document)


def test_query_text_names_the_proof(capsys):
    assert main(["query", "rulebook-example"]) == 0
    out = capsys.readouterr().out
    assert "answer:  no" in out and "SCORE-4" in out


@pytest.mark.parametrize("argv", [["query", "no-such-query"], ["query"],
                                  ["query", "marker-states", "--list"]])
def test_query_usage_errors_are_one_line(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error" in err


def _with_sample(monkeypatch, runs, error=None):
    monkeypatch.setattr(verify_module, "sample_properties", lambda game, n, seed: (runs, error))


def test_verify_writes_markdown_and_json(tmp_path, monkeypatch, capsys):
    _with_sample(monkeypatch, (PropertyRun("a-property", ("SCORE-2",), True, 3, 0.1),))
    out = tmp_path / "report"
    assert main(["verify", "--game", "hanamikoji", "--out", str(out)]) == 0
    document = json.loads((out / "report.json").read_text())
    assert document["ok"] is True and [g["game"] for g in document["games"]] == ["hanamikoji"]
    assert [q["name"] for q in document["games"][0]["queries"]] == [q.name for q in CATALOGUE]
    markdown = (out / "report.md").read_text()
    assert "| query | question | answer | proof or witness | second method | seconds |" in markdown
    row = next(line for line in markdown.splitlines() if line.startswith("| round-outcome-pairs |"))
    question = next(q.question for q in CATALOGUE if q.name == "round-outcome-pairs")
    assert f"| {question} | 122597 |" in row and "plain enumeration" in row
    assert "a-property" in capsys.readouterr().out
    # what produced it
    produced = document["produced_by"]
    assert set(produced) == {"hanamikoji", "z3-solver", "hypothesis", "Python", "date"}
    assert produced["Python"] == platform.python_version()
    assert "Produced by hanamikoji " in markdown and produced["z3-solver"] in markdown
    # every query with witnesses has its games as records beside the report, which validate
    with_witnesses = [q for q in document["games"][0]["queries"] if q.get("witnesses")]
    assert with_witnesses
    for query in with_witnesses:
        path = out / query["witness_file"]
        records = [json.loads(line) for line in path.read_text().splitlines()]
        assert len(records) == len(query["witnesses"])
        for record in records:
            assert judge_bytes(json.dumps(record).encode()).status is Verdict.VALID
    assert main(["validate", str(out / with_witnesses[0]["witness_file"])]) == 0


def test_verify_fails_when_a_property_fails_or_cannot_run(monkeypatch, capsys):
    monkeypatch.setattr(verify_module, "catalogue", lambda game: CATALOGUE[:1])
    _with_sample(monkeypatch, (PropertyRun("a-property", ("SCORE-2",), False, 3, 0.1, "boom"),))
    assert main(["verify", "--game", "hanamikoji", "--json"]) == 1
    document = json.loads(capsys.readouterr().out)
    section = document["games"][0]
    assert document["ok"] is False and section["properties"]["results"][0]["passed"] is False
    _with_sample(monkeypatch, (), "property sample unavailable (test)")
    assert main(["verify", "--game", "hanamikoji"]) == 1
    assert "property sample unavailable" in capsys.readouterr().out


def test_verify_fails_when_a_query_is_undecided():
    report = run_verify(games=["hanamikoji"], names=["both-eleven-charm"], budget_seconds=0)
    assert not report.ok
    assert report.answers[0].status == "timeout"
    assert "TIMEOUT" in report.to_markdown()
    fine = attrs.evolve(report, sections=())
    assert fine.ok and isinstance(fine, Report)
