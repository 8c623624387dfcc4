"""The oracle as a library (``hanamikoji.oracle``, docs/api.md): each function's result agrees
with what its command prints (the same JSON, the same text), ``ok`` agrees with the command's
exit code, errors are typed exceptions, and importing the package stays light.

The commands run here in this process through ``hanamikoji.cli.main.main``, as a user's shell
would run them; the functions do not go through them, so each comparison checks one road
against the other.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

import hanamikoji.oracle as oracle
from hanamikoji.cli.main import main
from hanamikoji.oracle.core.adapter import Adapter

ROOT = pathlib.Path(__file__).resolve().parents[1]
VECTORS = ROOT / "tests" / "vectors"
TESTS = ROOT / "tests"
if str(TESTS) not in sys.path:  # broken_engines is a module of tests/, as other tools load it
    sys.path.insert(0, str(TESTS))

from broken_engines import BROKEN  # noqa: E402

from hanamikoji.oracle.hanamikoji.adapter import EngineAdapter  # noqa: E402

ADAPTER = [sys.executable, "-m", "hanamikoji.oracle.core.adapter"]


def command(capsys, *args: str) -> tuple[int, str]:
    code = main(list(args))
    out, _ = capsys.readouterr()
    return code, out


def test_the_surface_is_stable_and_every_name_resolves():
    assert oracle.__all__ == sorted(oracle.__all__)
    assert set(oracle.__all__) == {
        "Cases", "Counts", "DiffReport", "EngineError", "LeakReport", "OracleError", "Results",
        "Standings", "UsageError", "Verdicts", "check", "diff", "leaks", "perft", "tournament",
        "validate", "vectors"}
    for name in oracle.__all__:
        assert getattr(oracle, name) is not None
    assert issubclass(oracle.UsageError, oracle.OracleError)
    assert issubclass(oracle.EngineError, oracle.OracleError)
    with pytest.raises(AttributeError):
        oracle.no_such_tool  # noqa: B018


def test_importing_the_oracle_imports_neither_hypothesis_nor_z3():
    code = ("import sys, hanamikoji.oracle; "
            "print(sorted(m for m in ('hypothesis', 'z3', 'hanamikoji.oracle.core.api', "
            "'hanamikoji.oracle.core.diff') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


# --- validate --------------------------------------------------------------------------------


def test_validate_gives_what_the_command_prints(capsys, tmp_path):
    cases = json.loads((VECTORS / "records.json").read_text())["tests"]
    given = [c for c in cases if "record" in c["input"]]
    records = [c["input"]["record"] for c in (
        [c for c in given if c["expected"]["status"] == "valid"][:4] +
        [c for c in given if c["expected"]["status"] != "valid"][:8])]
    path = tmp_path / "records.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    verdicts = oracle.validate(str(path))
    code, out = command(capsys, "validate", "--json", str(path))
    assert [json.dumps(v) for v in verdicts.to_json()] == out.splitlines()
    code, out = command(capsys, "validate", str(path))
    assert str(verdicts) + "\n" == out
    assert verdicts.ok == (code == 0)
    assert not verdicts.ok  # the corpus's near-misses are there: some are not valid
    # The same records as Python values: the same verdicts, read from no file.
    in_memory = oracle.validate(records, source=str(path))
    assert [v.judgement for v in in_memory] == [v.judgement for v in verdicts]


def test_validate_of_valid_records_is_ok_and_an_unreadable_file_raises(tmp_path):
    cases = json.loads((VECTORS / "records.json").read_text())["tests"]
    valid = [c["input"]["record"] for c in cases
             if c["expected"]["status"] == "valid" and "record" in c["input"]][:3]
    assert oracle.validate(valid).ok
    assert not oracle.validate([]).ok  # no record: nothing was shown valid
    with pytest.raises(oracle.UsageError, match="cannot read"):
        oracle.validate(str(tmp_path / "missing.jsonl"))


# --- perft -----------------------------------------------------------------------------------


def test_perft_gives_what_the_command_prints(capsys):
    deal = json.loads((ROOT / "docs" / "examples" / "deal-small.json").read_text())
    counts = oracle.perft(deal, 3, divide=True)
    code, out = command(capsys, "perft", "--deal", "docs/examples/deal-small.json", "--depth", "3",
                        "--divide", "--json")
    assert code == 0 and counts.to_json() == json.loads(out)
    code, out = command(capsys, "perft", "--deal", "docs/examples/deal-small.json", "--depth", "3",
                        "--divide")
    assert out.split("\n", 1)[1] == str(counts) + "\n"  # after its first line, "perft of ..."
    assert counts.depths[0] == 1 and counts.ok


def test_perft_of_a_position_and_its_errors():
    position = {"game": "maiko", "options": {"players": 2}, "first_player": 0, "history": []}
    counts = oracle.perft(position, 1)
    from hanamikoji.engine.core.registry import get

    game = get("maiko")
    state = game.position_from_json(position)
    assert counts.depths == (1, len(game.legal_actions(state)))
    with pytest.raises(oracle.UsageError, match="depth -1"):
        oracle.perft(position, -1)
    with pytest.raises(oracle.UsageError, match="not a position"):
        oracle.perft({"history": "x"}, 1)


# --- vectors ---------------------------------------------------------------------------------


def test_vectors_are_the_files_the_command_writes(capsys, tmp_path):
    cases = oracle.vectors()
    code, out = command(capsys, "vectors", "--out", str(tmp_path))
    assert code == 0
    for name, document in cases.to_json().items():
        assert json.loads((tmp_path / name).read_text()) == document
    assert str(cases) == "\n".join(f"{tmp_path / n}: {d['numberOfTests']} cases".replace(
        f"{tmp_path}/", "") for n, d in cases.to_json().items())
    assert len(oracle.Cases.load(VECTORS)) == len(cases)


def test_the_reference_passes_every_committed_vector_and_a_broken_engine_fails():
    cases = oracle.Cases.load(VECTORS)
    results = cases.check(Adapter(protocol=3))
    assert results.ok and len(results) == len(cases)
    counts = results.counts()
    assert counts["fail"] == 0 and counts["pass"] > 60
    # A record the rules refuse is the validator's case: skipped, and said why.
    skipped = [r for r in results if r.outcome.status == "skip"]
    assert skipped and all("record reader" in r.outcome.message for r in skipped)
    broken = cases.select(["decisions"]).check(EngineAdapter(BROKEN["tie-moves-marker"],
                                                             protocol=3))
    assert not broken.ok
    failed = [r for r in broken if not r.ok]
    assert str(failed[0]).startswith(f"FAIL  {failed[0].outcome.id}\nDIVERGENCE: ")
    assert broken.to_json()["failed"] == len(failed)


def test_vectors_run_against_a_command_too():
    results = oracle.Cases.load(VECTORS).select(every=10).check(ADAPTER)
    assert results.ok and results.counts()["pass"] > 0
    with pytest.raises(oracle.EngineError, match="cannot start"):
        oracle.Cases.load(VECTORS).select(["views"]).check([str(ROOT / "no-such-engine")])
    with pytest.raises(oracle.UsageError, match="not an engine"):
        oracle.Cases.load(VECTORS).check(object())


# --- diff, leaks, tournament -----------------------------------------------------------------


def test_diff_gives_the_report_of_the_command(capsys):
    report = oracle.diff(ADAPTER, games=3, seed=4)
    code, out = command(capsys, "diff", "--games", "3", "--seed", "4", "--json", "--", *ADAPTER)
    printed = json.loads(out)
    assert code == 0 and report.ok
    assert {**report.to_json(), "seconds": 0} == {**printed, "seconds": 0}
    assert str(report).startswith(f"no divergence: {' '.join(ADAPTER)} agrees with the "
                                  "reference in 3 games")


def test_diff_of_a_python_engine_finds_the_broken_rule():
    report = oracle.diff(EngineAdapter(BROKEN["view-shows-deck"], protocol=3), games=5,
                         shrink=0)
    assert not report.ok and report.to_json()["status"] == "divergence"
    assert str(report).startswith("DIVERGENCE: <EngineAdapter object>")


def test_leaks_gives_the_report_of_the_command(capsys):
    report = oracle.leaks(ADAPTER, pairs=3)
    code, out = command(capsys, "diff", "--leaks", "--games", "3", "--json", "--", *ADAPTER)
    assert code == 0 and report.ok
    assert {**report.to_json(), "seconds": 0} == {**json.loads(out), "seconds": 0}
    with pytest.raises(oracle.UsageError, match="engine command"):
        oracle.leaks(Adapter())


def test_tournament_gives_the_standings_of_the_command(capsys):
    standings = oracle.tournament(["random", "heuristic"], deals=2, seed=3)
    code, out = command(capsys, "tournament", "random", "heuristic", "--deals", "2", "--seed", "3",
                        "--json")
    assert code == 0 and standings.to_json() == json.loads(out)
    code, out = command(capsys, "tournament", "random", "heuristic", "--deals", "2", "--seed", "3")
    assert str(standings) + "\n" == out and standings.ok
    with pytest.raises(oracle.UsageError, match="seats 2 bots"):
        oracle.tournament(["random"])


def test_the_vectors_of_another_game_run_the_same_way():
    """Maiko's committed vectors (a few of them): the reference passes, and Maiko's broken game
    whose pair ends the turn (tests/maiko/broken.py), served by the generic adapter, fails."""
    from maiko.broken import PAIR_ENDS_TURN

    cases = oracle.Cases.load(VECTORS / "maiko").select(["decisions", "views"], every=20)
    assert cases.game == "maiko" and len(cases) > 4
    assert cases.check(Adapter(protocol=3)).ok
    broken = cases.check(Adapter({"maiko": PAIR_ENDS_TURN}, protocol=3))
    assert not broken.ok and broken.counts()["pass"] > 0


def test_a_folder_of_some_vector_files_loads_those(tmp_path):
    (tmp_path / "perft.json").write_text((VECTORS / "perft.json").read_text())
    cases = oracle.Cases.load(tmp_path)
    assert list(cases.to_json()) == ["perft.json"] and {c.kind for c in cases} == {"perft"}
    with pytest.raises(oracle.UsageError, match="cannot read .*records.json"):
        oracle.Cases.load(tmp_path / "empty")
