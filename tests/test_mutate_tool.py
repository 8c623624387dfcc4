"""tools/mutate.py, the mutation run, on a tiny module with a known killed mutant, a known
survivor and a known equivalent one: the verdicts, the score, the report's determinism, and that
the file on disk never changes."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import pathlib
import re
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("mutate_tool", ROOT / "tools" / "mutate.py")
assert _spec and _spec.loader
mutate = importlib.util.module_from_spec(_spec)
sys.modules["mutate_tool"] = mutate
_spec.loader.exec_module(mutate)

TINY = '''"""A tiny module."""


def clamp(x: int) -> int:
    if x < 0:
        return 0
    return x
'''
# clamp(-1) and clamp(5) are checked, clamp(0) is not: `x < 0` -> `x <= 0` and `x < 1` both
# return 0 for 0 (the first is listed as equivalent below, the second is left to survive);
# `x < -1` makes clamp(-1) return -1 and `return 0` -> `return 1` returns 1 (both killed).
TEST = '''import pathlib, sys
sys.path.insert(0, str(pathlib.Path(__file__).parent))
from tiny import clamp


def test_clamp():
    assert clamp(-1) == 0 and clamp(5) == 5
'''


@pytest.fixture()
def project(tmp_path: pathlib.Path) -> pathlib.Path:
    (tmp_path / "tiny.py").write_text(TINY)
    (tmp_path / "test_tiny.py").write_text(TEST)
    return tmp_path


def _by_change(report: dict) -> dict[tuple[str, str], str]:
    return {(m["before"], m["after"]): m["verdict"] for m in report["mutants"]}


def test_the_mutants_of_a_tiny_module_are_listed_in_order(project: pathlib.Path) -> None:
    """Every mutation point, in source order, with a key naming file, function and change
    (the docstring and the annotations are not mutated)."""
    listed = mutate.mutants(project / "tiny.py", project)
    changes = [(m["operator"], m["before"], m["after"]) for m in listed]
    assert changes == [
        ("guard", "if x < 0:", "if False:"),
        ("compare", "x < 0", "x <= 0"),
        ("constant", "0", "1"), ("constant", "0", "-1"),
        ("return", "return 0", "return None"),
        ("constant", "0", "1"), ("constant", "0", "-1"),
        ("return", "return x", "return None"),
    ]
    assert listed[1]["key"] == "tiny.py::clamp::compare::x < 0 -> x <= 0#1"
    assert listed[5]["key"].endswith("#2")  # the second `0 -> 1` of clamp


def test_a_run_kills_survives_and_triages(project: pathlib.Path) -> None:
    """Every mutant runs in its own pytest process: a failing test kills it, a passing suite
    lets it survive, a listed key makes a survivor equivalent; the score leaves equivalent
    mutants out; the file is never changed; the report is the same for the same seed."""
    equivalent = {"tiny.py::clamp::compare::x < 0 -> x <= 0#1": "clamp(0) is 0 either way"}
    report = mutate.run([project / "tiny.py"], ["test_tiny.py"], root=project, seed=1,
                        budget=8, timeout=600, equivalent=equivalent)
    verdicts = _by_change(report)
    assert verdicts[("x < 0", "x <= 0")] == "equivalent"
    assert verdicts[("if x < 0:", "if False:")] == "killed"
    assert verdicts[("return x", "return None")] == "killed"
    assert verdicts[("return 0", "return None")] == "killed"
    survivors = [m for m in report["mutants"] if m["verdict"] == "survived"]
    assert [(m["line"], m["before"], m["after"]) for m in survivors] == [(5, "0", "1")]
    assert [m["verdict"] for m in report["mutants"] if m["line"] == 6] == ["killed"] * 3
    assert report["counts"] == {"killed": 6, "timeout": 0, "survived": 1, "not-imported": 0,
                                "equivalent": 1}
    assert report["score"] == {"killed": 6, "of": 7, "percent": 85.7}
    assert (project / "tiny.py").read_text() == TINY
    assert "85.7%" in mutate.summary(report) and "clamp(0) is 0 either way" in mutate.summary(report)


def test_the_sample_is_drawn_by_the_seed(project: pathlib.Path, monkeypatch) -> None:
    """A budget smaller than the mutants draws a sample fixed by the seed, and the same seed
    gives the same report, byte for byte (the test runs are faked here)."""
    monkeypatch.setattr(mutate, "_run", lambda command, root, timeout: (0, False))
    picks = {seed: [m["index"] for m in mutate.run(
        [project / "tiny.py"], ["test_tiny.py"], root=project, seed=seed, budget=3,
        timeout=1, equivalent={})["mutants"]] for seed in (1, 2)}
    assert all(len(p) == 3 and p == sorted(p) for p in picks.values())
    assert picks[1] != picks[2]
    twice = [json.dumps(mutate.run([project / "tiny.py"], ["test_tiny.py"], root=project, seed=1,
                                   budget=3, timeout=1, equivalent={})) for _ in range(2)]
    assert twice[0] == twice[1]


def test_verdicts_of_exit_statuses() -> None:
    """A failing test, a broken collection or session kill, and so does pytest's usage error
    (its answer to a test named by node id whose module the mutant broke: the same arguments
    ran clean unmutated); the hang guard kills and is told apart; a clean pass survives; a run
    that never imported the file survives, told apart; no tests, or a file changed during the
    run, are faults of the run, not verdicts."""
    assert [mutate.verdict(code, False) for code in (0, 1, 2, 3, 4, mutate.NOT_IMPORTED)] == [
        "survived", "killed", "killed", "killed", "killed", "not-imported"]
    assert mutate.verdict(None, True) == "timeout"
    for code in (5, mutate.FILE_CHANGED):
        with pytest.raises(ValueError):
            mutate.verdict(code, False)


def test_unmutated_tests_must_pass(project: pathlib.Path) -> None:
    """A run whose tests fail on the unmutated code stops before any mutant."""
    (project / "test_tiny.py").write_text(TEST + "\n\ndef test_wrong():\n    assert clamp(0) == 1\n")
    with pytest.raises(RuntimeError, match="unmutated"):
        mutate.run([project / "tiny.py"], ["test_tiny.py"], root=project, seed=1, budget=2,
                   timeout=600, equivalent={})


def test_rescore_triages_a_saved_report_again(project: pathlib.Path, monkeypatch) -> None:
    """A saved report scored again with a longer equivalent list turns those survivors into
    equivalent mutants, and with an empty list turns them back (no test is run)."""
    monkeypatch.setattr(mutate, "_run", lambda command, root, timeout: (0, False))
    report = mutate.run([project / "tiny.py"], ["test_tiny.py"], root=project, seed=1, budget=8,
                        timeout=1, equivalent={})
    assert report["score"] == {"killed": 0, "of": 8, "percent": 0.0}
    key = report["mutants"][1]["key"]
    again = mutate.rescore(json.loads(json.dumps(report)), {key: "a reason"})
    assert again["counts"]["equivalent"] == 1 and again["score"]["of"] == 7
    assert again["mutants"][1]["why"] == "a reason"
    assert mutate.rescore(again, {}) == report


def test_retry_runs_only_the_mutants_not_killed(project: pathlib.Path, monkeypatch) -> None:
    """Retrying a report of the same sample runs only its survivors (tests were added since);
    its killed mutants stay killed; a report of another sample is refused."""
    def first(command, root, timeout):
        return (1 if "--child" in command and int(command[4]) % 2 else 0), False

    monkeypatch.setattr(mutate, "_run", first)
    report = mutate.run([project / "tiny.py"], ["test_tiny.py"], root=project, seed=1, budget=8,
                        timeout=1, equivalent={})
    survivors = {m["key"] for m in report["mutants"] if m["verdict"] == "survived"}
    assert 0 < len(survivors) < 8
    ran: list[str] = []

    def second(command, root, timeout):
        if "--child" in command:
            ran.append(command[4])
        return (1 if "--child" in command else 0), False

    monkeypatch.setattr(mutate, "_run", second)
    again = mutate.run([project / "tiny.py"], ["test_tiny.py"], root=project, seed=1, budget=8,
                       timeout=1, equivalent={}, retry=report)
    assert sorted(ran) == sorted(str(m["index"]) for m in report["mutants"]
                                 if m["key"] in survivors)
    assert again["score"] == {"killed": 8, "of": 8, "percent": 100.0}
    with pytest.raises(ValueError, match="not of this sample"):
        mutate.run([project / "tiny.py"], ["test_tiny.py"], root=project, seed=2, budget=8,
                   timeout=1, equivalent={}, retry=report)
    (project / "tiny.py").write_text(TINY + "\n# an edit that moves no mutant\n")
    with pytest.raises(ValueError, match="the files changed since the report"):
        mutate.run([project / "tiny.py"], ["test_tiny.py"], root=project, seed=1, budget=8,
                   timeout=1, equivalent={}, retry=report)


def test_a_report_records_the_code_it_was_made_on(project: pathlib.Path, monkeypatch) -> None:
    """The report holds the sha256 of each mutated file, so a saved report can be told stale
    (see :func:`stale`)."""
    monkeypatch.setattr(mutate, "_run", lambda command, root, timeout: (0, False))
    report = mutate.run([project / "tiny.py"], ["test_tiny.py"], root=project, seed=1, budget=2,
                        timeout=1, equivalent={})
    assert report["sha256"] == {"tiny.py": hashlib.sha256(TINY.encode()).hexdigest()}
    assert stale(report, project, "--game tiny") == []
    (project / "tiny.py").write_text(TINY.replace("x < 0", "x < 1"))
    assert stale(report, project, "--game tiny") == [
        "tiny.py changed since the mutation report was made: run `nice -n 19 python "
        "tools/mutate.py --game tiny` again (the saved report is of other code)"]


def stale(report: dict, root: pathlib.Path, arguments: str) -> list[str]:
    """A line for each file of ``report`` that differs from the file under ``root`` today."""
    if "sha256" not in report:
        return [f"the mutation report records no sha256 of its files: run `nice -n 19 python "
                f"tools/mutate.py {arguments}` again"]
    return [f"{name} changed since the mutation report was made: run `nice -n 19 python "
            f"tools/mutate.py {arguments}` again (the saved report is of other code)"
            for name, digest in sorted(report["sha256"].items())
            if hashlib.sha256((root / name).read_bytes()).hexdigest() != digest]


def _documented_commands(doc: str) -> dict[str, str]:
    """The arguments of each game's documented mutation command, by game."""
    section = doc[doc.index("## Proof that the tests bite: the mutation run"):]
    commands = re.findall(r"^nice -n 19 python tools/mutate.py (.*)$", section, re.M)
    return {re.search(r"--game (\w+)", c).group(1): c for c in commands}


def test_the_docs_give_the_last_result_of_each_engine() -> None:
    """docs/properties.md's table of results is the saved reports of tools/mutation-reports/,
    scored with today's equivalent list, and each engine keeps at least 90%. A report made on
    other code than today's engine files is stale: the test fails naming the command to run
    again (any change to an engine file, even one that moves no mutant)."""
    doc = (ROOT / "docs" / "properties.md").read_text(encoding="utf-8")
    lines = doc.splitlines()
    start = lines.index("| engine | seed | sampled (of all) | killed | can change behaviour "
                        "| score | equivalent |")
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split(" | ")])
    equivalent = json.loads((ROOT / "tools" / "mutate_equivalent.json").read_text())
    commands = _documented_commands(doc)
    engines = []
    for row in rows:
        engine = row[0].strip("`")
        engines.append(engine)
        saved = json.loads((ROOT / "tools" / "mutation-reports" / f"{engine}.json").read_text())
        assert f"--report tools/mutation-reports/{engine}.json" in commands[engine], engine
        changed = stale(saved, ROOT, commands[engine])
        assert not changed, "\n".join(changed)
        report = mutate.rescore(saved, equivalent)
        assert "partial" not in report and report["files"] == sorted(
            mutate.GAMES[engine]["files"]), engine
        score = report["score"]
        assert row[1:] == [str(report["seed"]), f"{report['sampled']} (of {report['candidates']})",
                           str(score["killed"]), str(score["of"]), f"{score['percent']}%",
                           str(report["counts"]["equivalent"])], engine
        assert score["percent"] >= 90, engine
    assert sorted(engines) == sorted(mutate.GAMES)


def test_the_docs_commands_use_options_the_tool_has(capsys) -> None:
    """Every option the mutation section of docs/properties.md names is one of the tool's, and
    its commands name a game the tool knows."""
    doc = (ROOT / "docs" / "properties.md").read_text(encoding="utf-8")
    section = doc[doc.index("## Proof that the tests bite: the mutation run"):]
    section = section[:section.index("\n## ", 1)]
    with pytest.raises(SystemExit):
        mutate.main(["--help"])
    helped = set(re.findall(r"--[a-z-]+", capsys.readouterr().out))
    named = set(re.findall(r"`(--[a-z][a-z-]*)", section)) | set(re.findall(r" (--[a-z][a-z-]*)", section))
    assert named and named <= helped, named - helped
    assert set(_documented_commands(doc)) == set(mutate.GAMES)
