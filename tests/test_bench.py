"""hanamikoji bench prints figures (and asserts none: timings are measurements, not tests)."""

from __future__ import annotations

import json

from hanamikoji.engine.core.cli import main


def test_bench_prints_figures_as_json(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # not a checkout: the property section says it was not measured
    assert main(["bench", "--only", "rounds", "properties", "--repeat", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    figures = report["figures"]
    rounds = [f for f in figures if f["section"] == "rounds"]
    assert rounds and all(f["value"] > 0 and f["unit"] == "µs per game" for f in rounds)
    assert sum(f["games"] for f in rounds) <= 3000
    (skipped,) = [f for f in figures if f["section"] == "properties"]
    assert skipped["value"] is None and skipped["unit"].startswith("not measured: ")


def test_bench_refuses_an_unknown_section(capsys):
    assert main(["bench", "--only", "nope"]) == 2
    assert "unknown section 'nope'" in capsys.readouterr().err
