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
    # the page: every query, a replay of each witness game; report.md links to it
    assert "[report.html](report.html)" in markdown and "hanamikoji view witnesses/" in markdown
    page = (out / "report.html").read_text()
    witnessed = sum(len(q.get("witnesses") or []) for q in document["games"][0]["queries"])
    assert page.count("<details class=\"witness\">") == witnessed > 0
    assert all(f'id="hanamikoji-{q.name}"' in page for q in CATALOGUE)
    row = next(line for line in markdown.splitlines() if line.startswith("| round-outcome-pairs |"))
    question = next(q.question for q in CATALOGUE if q.name == "round-outcome-pairs")
    assert f"| {question} | 122597 |" in row and "plain enumeration" in row
    printed = capsys.readouterr().out
    assert "a-property" in printed
    # the witness folder, named with the command that displays a game of it
    assert f"hanamikoji show {out / 'witnesses'}/hanamikoji-" in printed
    assert f"`{out}/witnesses/`" in markdown and f"`hanamikoji show {out}/witnesses/" in markdown
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


def _nested_report() -> Report:
    """A report of one Maiko-like query (an answer per player count and per end) whose two
    claims fail by the same model, and one Hanamikoji-like count."""
    from hanamikoji.spec.core.queries import Answer, Counterexample

    per_end = (("full-board", (("turns", 2), ("flips", 14))), ("static", (("turns", 8),
                                                                        ("flips", 46))))
    same = dict(hypothesis="readings (a) and (c) differ",
                values=(("row", (None, 1)), ("reading (a)", "player 1")), reached=True)
    nested = Answer("fastest-end", "how fast can each end come?", "z3", "answered",
                    (("2 players", per_end), ("3 players", per_end)), 0.5,
                    counterexamples=(Counterexample("on every reachable row", **same),
                                     Counterexample("on every row", **same)))
    count = Answer("a-count", "how many?", "z3", "answered", 8, 0.1)
    return Report((verify_module.Section("maiko", "Maiko", (nested, count), (), None),),
                  10, 0, 1.0)


def test_the_verify_markdown_lays_nested_answers_out_as_tables():
    """An answer of objects in objects is a small table (a row per player count and end, a
    column per figure), not nested parentheses; a plain answer stays on its row."""
    markdown = _nested_report().to_markdown()
    row = next(line for line in markdown.splitlines() if line.startswith("| fastest-end |"))
    cell = row.split("|")[3]
    assert "turns" not in cell and "[fastest-end](#fastest-end)" in cell, row
    table = markdown.split("#### fastest-end\n\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert table[0] == "| | turns | flips |"
    assert table[2:] == ["| 2 players · full-board | 2 | 14 |", "| 2 players · static | 8 | 46 |",
                         "| 3 players · full-board | 2 | 14 |", "| 3 players · static | 8 | 46 |"]
    assert "| a-count | how many? | 8 |" in markdown


def test_the_verify_report_says_a_counterexample_once():
    """Two claims refuted by the same model (checked on reachable rows and on any row) show
    the counterexample once, saying it refutes both."""
    markdown = _nested_report().to_markdown()
    assert markdown.count("readings (a) and (c) differ") == 1
    assert "a game reaches it (2 claims)" in markdown


def test_the_verify_report_names_its_witness_folder_and_how_to_show_one():
    """With witness files beside it, the report names the folder, each query's file, and the
    command that displays one."""
    files = {("maiko", "fastest-end"): "witnesses/maiko-fastest-end.jsonl"}
    markdown = _nested_report().to_markdown(files, "report")
    assert "`report/witnesses/`" in markdown
    assert "`hanamikoji show report/witnesses/maiko-fastest-end.jsonl`" in markdown
    row = next(line for line in markdown.splitlines() if line.startswith("| fastest-end |"))
    assert "`witnesses/maiko-fastest-end.jsonl`" in row


def test_every_maiko_property_of_the_sample_names_its_rules(monkeypatch):
    """The generic properties in Maiko's sample carry the Maiko rules their counterparts cite
    (``@checks``), each a rule of spec/maiko/rules.md; those with no counterpart check the
    core's contract alone."""
    import pathlib
    import re

    from hanamikoji.properties.core.sample import SampleOutcome
    from hanamikoji.properties.core.suite import PROPERTIES_BY_NAME
    from hanamikoji.properties.maiko import sample

    spec = (pathlib.Path(__file__).parent.parent / "spec" / "maiko" / "rules.md").read_text()
    known = set(re.findall(r"\bMK-[A-Z]+(?:-[A-Z]+)*-\d+\b", spec))
    assert set(sample.COUNTERPARTS) <= set(PROPERTIES_BY_NAME)
    fake = [SampleOutcome(name, (), True, 1, 0.0, "") for name in PROPERTIES_BY_NAME]
    monkeypatch.setattr(sample, "run_generic_sample", lambda *a, **k: list(fake))
    monkeypatch.setattr(sample, "_games", lambda players, seeds: 0)
    outcomes = {o.name: o.rules for o in sample.run_sample(max_examples=1)}
    for name in sample.COUNTERPARTS:
        assert outcomes[name] and set(outcomes[name]) <= known, (name, outcomes[name])
    assert outcomes["views-leak-nothing"][:3] == ("MK-INFO-1", "MK-INFO-2", "MK-INFO-3")


def test_the_verify_terminal_tables_show_the_cells_of_the_markdown():
    """Rich read bracketed text as markup and dropped it: "counterexample: row , reading (a)
    player 1" and "full_boards: ," on the terminal, while report.md was right. Every cell
    the two share is the same text in both."""
    import io

    from rich.console import Console

    nested = _nested_report()
    failing = PropertyRun("full_boards", ("MK-END-1",), False, 3, 0.2,
                          "full_boards: [no, no], [yes]")
    report = attrs.evolve(nested, sections=(attrs.evolve(nested.sections[0],
                                                         properties=(failing,)),))
    console = Console(width=1000, record=True, file=io.StringIO())
    console.print(verify_module.render(report))
    terminal = {line.split("│")[1].strip(): [cell.strip() for cell in line.split("│")[1:-1]]
                for line in console.export_text().splitlines() if line.count("│") > 2}
    shared = {"query": (0, 3, 5), "property": (0, 1, 2, 3, 4)}  # markdown columns on both
    rows = 0
    for line in report.to_markdown().splitlines():
        cells = [c.strip().replace("\\|", "|") for c in line.strip("|").split(" | ")]
        if cells[0] not in terminal:
            continue
        for i in shared["query" if len(cells) == 6 else "property"]:
            assert cells[i] in terminal[cells[0]], (cells[i], terminal[cells[0]])
        rows += 1
    assert rows == 3 and "[none, 1]" in " ".join(terminal["fastest-end"])
