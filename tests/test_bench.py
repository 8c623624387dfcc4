"""hanamikoji bench prints figures next to their targets, and exits 1 when one is missed.

Timings are measurements, not tests: nothing here depends on this machine's speed. The targets'
mechanics are checked with figures the test chooses: a section of its own plugged into the
table, or the bench's clock replaced by a fake one that says how long each run took.
"""

from __future__ import annotations

import itertools
import json
import pathlib
import re

import pytest

from hanamikoji.cli import bench as B
from hanamikoji.cli.main import build_parser, main

DOC = (pathlib.Path(__file__).parent.parent / "docs" / "performance.md").read_text()


def test_bench_prints_figures_as_json(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # not a checkout: the property section says it was not measured
    assert main(["bench", "--only", "rounds", "properties", "--repeat", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    figures = report["figures"]
    rounds = [f for f in figures if f["section"] == "rounds"]
    assert rounds and all(f["value"] > 0 and f["unit"] == "µs per game" for f in rounds)
    assert sum(f["games"] for f in rounds) <= 3000
    assert all(f["target"] is None and f["met"] is None for f in rounds)  # growth figures
    (skipped,) = [f for f in figures if f["section"] == "properties"]
    assert skipped["value"] is None and skipped["unit"].startswith("not measured: ")
    assert skipped["met"] is None  # not measured is neither met nor missed
    assert report["targets_met"] == report["targets_missed"] == 0


def test_bench_refuses_an_unknown_section(capsys):
    assert main(["bench", "--only", "nope"]) == 2
    assert "unknown section 'nope'" in capsys.readouterr().err


# --- targets: met, missed, exit 1 -------------------------------------------------------------


@pytest.fixture
def plugged(monkeypatch):
    """A section of the test's own, plugged into the table as a new benchmark would be: a rate
    with an any-game target of 100/s, a time with a default-game target of at most 1 s, and a
    figure with no target. ``plugged[...]`` sets the figures it measures."""
    figures = {"rate": 150.0, "time": 0.5}

    def section(ctx):
        return [{"figure": "a rate", "value": figures["rate"], "unit": "things/s",
                 "target": "test-rate"},
                {"figure": "a time", "value": figures["time"], "unit": "s",
                 "target": "test-time", "runs": ctx.repeat},
                {"figure": "a growth", "value": 7.0, "unit": "ms", "target": None}]

    monkeypatch.setitem(B.SECTIONS, "plugged", section)
    monkeypatch.setitem(B.TARGETS, "test-rate", B.Target(100, "things/s", any_game=True))
    monkeypatch.setitem(B.TARGETS, "test-time", B.Target(1, "s", at_most=True))
    return figures


def test_every_target_met_exits_0_and_says_met(plugged, capsys):
    assert main(["bench", "--only", "plugged", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    rate, time, growth = report["figures"]
    assert rate["met"] is True and rate["target"] == {
        "name": "test-rate", "bound": 100, "unit": "things/s", "at_most": False,
        "any_game": True, "text": "≥ 100 things/s"}
    assert time["met"] is True and time["target"]["text"] == "≤ 1 s" and time["runs"] == 3
    assert growth["met"] is None and growth["target"] is None
    assert (report["targets_met"], report["targets_missed"]) == (2, 0)


@pytest.mark.parametrize("rate, time, missed", [(99.0, 0.5, ["a rate"]), (150.0, 1.01, ["a time"]),
                                                 (0.0, 9.0, ["a rate", "a time"])])
def test_a_missed_target_exits_1_and_says_missed(plugged, capsys, rate, time, missed):
    plugged.update(rate=rate, time=time)
    assert main(["bench", "--only", "plugged", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert [f["figure"] for f in report["figures"] if f["met"] is False] == missed
    assert report["targets_missed"] == len(missed)
    assert main(["bench", "--only", "plugged"]) == 1
    out = capsys.readouterr().out
    table = [line.split("│") for line in out.splitlines() if line.startswith("│")]
    verdicts = {cells[2].strip(): cells[6].strip() for cells in table}
    assert verdicts == {"a rate": "missed" if "a rate" in missed else "met",
                        "a time": "missed" if "a time" in missed else "met", "a growth": ""}
    assert f"targets: {2 - len(missed)} met, {len(missed)} missed" in out
    for figure in missed:
        assert re.search(rf"^missed: {figure}: ", out, re.M)


def test_a_target_set_for_the_default_game_is_not_judged_on_another(plugged, capsys):
    plugged.update(time=9.0)  # would miss its target, which is the default game's
    assert main(["bench", "--only", "plugged", "--game", "maiko", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    rate, time, _ = report["figures"]
    assert report["game"] == "maiko" and time["target"] is None and time["met"] is None
    assert rate["met"] is True  # an any-game target still is


def test_a_row_naming_an_unknown_target_is_a_bug_of_the_bench(plugged, monkeypatch, capsys):
    monkeypatch.setitem(B.SECTIONS, "plugged", lambda ctx: [
        {"figure": "x", "value": 1.0, "unit": "s", "target": "no-such-target"}])
    assert main(["bench", "--only", "plugged"]) == 3
    assert "names no target of TARGETS: 'no-such-target'" in capsys.readouterr().err


class FakeClock:
    """A clock on which every reading is ``step`` seconds after the one before: each timed
    run takes ``step`` seconds."""

    def __init__(self, step: float) -> None:
        self.ticks = itertools.count()
        self.step = step

    def __call__(self) -> float:
        return next(self.ticks) * self.step


@pytest.mark.parametrize("slower", [1.0, 1.5])
def test_the_simulate_target_judges_the_figure_the_clock_gives(capsys, slower):
    """Real runs of ``simulate``, timed by a fake clock: a run that takes exactly games/bound
    seconds meets the target, one that takes half as long again misses it."""
    target = B.TARGETS["simulate"]
    seconds = 3000 / target.bound * slower  # bench_simulate plays 3000 games
    args = build_parser().parse_args(["bench", "--only", "simulate", "--repeat", "1", "--json"])
    code = B.bench(args, clock=FakeClock(seconds))
    report = json.loads(capsys.readouterr().out)
    row = next(f for f in report["figures"] if f["target"] is not None)
    assert row["figure"] == "simulate --games 3000 --workers 1"
    assert row["value"] == pytest.approx(target.bound / slower, rel=1e-3)
    assert row["met"] is (slower == 1.0) and code == (0 if slower == 1.0 else 1)


# --- the targets in docs/performance.md are TARGETS -------------------------------------------


def test_the_performance_doc_lists_every_target_as_the_code_sets_it_and_says_why():
    """Its table of targets has a row per target of TARGETS (key, figure, target, game,
    measured), with the bound and scope the code sets, and a paragraph on why."""
    from hanamikoji.engine.core.registry import DEFAULT

    rows = re.findall(r"^\| `([a-z-]+)` \| [^|]+ \| ([^|]+) \| ([^|]+) \| [^|]+ \|$", DOC, re.M)
    documented = {name: (text.strip(), scope.strip()) for name, text, scope in rows}
    assert set(documented) == set(B.TARGETS)
    for name, target in B.TARGETS.items():
        text, scope = documented[name]
        assert text == str(target), name
        assert scope == ("any" if target.any_game else DEFAULT), name
        assert re.search(rf"^- \*\*`{name}`\*\*: \S", DOC, re.M), f"why {name}?"


# --- --baseline: each figure old against new, in one run ----------------------------------------


def test_a_baseline_runs_the_section_again_under_another_interpreter(monkeypatch, capsys):
    """``--baseline PYTHON`` runs a section of other processes again with ``ctx.python`` set to
    PYTHON and puts each figure beside its own: new/old for a rate, old/new for a time."""
    seen = []

    def section(ctx):
        seen.append(ctx.python)
        slow = ctx.python == "/old/python"
        return [{"figure": "a rate", "value": 50.0 if slow else 150.0, "unit": "games/s",
                 "target": None},
                {"figure": "a time", "value": 40.0 if slow else 10.0, "unit": "ms",
                 "target": None}]

    monkeypatch.setitem(B.SECTIONS, "startup", section)
    assert main(["bench", "--only", "startup", "--json", "--baseline", "/old/python"]) == 0
    rate, time = json.loads(capsys.readouterr().out)["figures"]
    assert seen == [B.sys.executable, "/old/python"]
    assert (rate["value"], rate["baseline"], rate["speedup"]) == (150.0, 50.0, 3.0)
    assert (time["value"], time["baseline"], time["speedup"]) == (10.0, 40.0, 4.0)
    # a section that runs in this process is never run "under" another interpreter
    monkeypatch.setitem(B.SECTIONS, "rounds", section)
    assert main(["bench", "--only", "rounds", "--json", "--baseline", "/old/python"]) == 0
    assert "baseline" not in json.loads(capsys.readouterr().out)["figures"][0]


def _old_install(tmp_path: pathlib.Path, modules: tuple[str, ...]) -> str:
    """An interpreter whose install has only ``modules`` (empty files), as an install from
    before a module moved has only its old name: this Python, without site-packages."""
    root = tmp_path / "old"
    root.mkdir(parents=True)
    for name in modules:
        parts = name.split(".")
        for depth in range(1, len(parts)):
            folder = root.joinpath(*parts[:depth])
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "__init__.py").touch()
        root.joinpath(*parts[:-1], parts[-1] + ".py").touch()
    script = tmp_path / "python"
    script.write_text(f'#!/bin/sh\nPYTHONPATH={root} exec {B.sys.executable} -S "$@"\n')
    script.chmod(0o755)
    return str(script)


def test_the_diff_row_of_a_baseline_runs_the_adapter_module_that_install_has(tmp_path,
                                                                             monkeypatch):
    """An install older than the oracle's room has its adapter at
    ``hanamikoji.engine.core.adapter`` only: the baseline's diff row runs that one."""
    old = _old_install(tmp_path, ("hanamikoji.engine.core.adapter",))
    assert B.adapter_module(old) == "hanamikoji.engine.core.adapter"
    assert B.adapter_module(B.sys.executable) == "hanamikoji.oracle.core.adapter"
    newer = _old_install(tmp_path / "newer", ("hanamikoji.oracle.core.adapter",
                                              "hanamikoji.engine.core.adapter"))
    assert B.adapter_module(newer) == "hanamikoji.oracle.core.adapter"
    with pytest.raises(RuntimeError, match="none of the adapter modules"):
        B.adapter_module(_old_install(tmp_path / "none", ()))
    ran = []

    def timed(ctx, argv, repeat=None):
        ran.append(argv)
        return 2.0, json.dumps({"status": "agree"})

    monkeypatch.setattr(B, "_timed", timed)
    ctx = B.Context(1, tmp_path, (), tmp_path, None, python=old)
    (row,) = B.bench_diff(ctx)
    assert ran[0][0] == old and ran[0][-2:] == ["-m", "hanamikoji.engine.core.adapter"]
    assert row["value"] == 20.0  # 40 games in 2 s


def test_simulate_and_validate_of_a_baseline_run_the_old_install_s_commands(tmp_path,
                                                                            monkeypatch):
    """With ``--baseline``, every process the simulate and validate sections start is the old
    install's (the records validate reads are its own simulate's), so their figures are old
    against new too."""
    started = []

    def timed(ctx, argv, repeat=None):
        started.append(argv)
        return 1.0, ""

    def made(argv, **kwargs):
        started.append(argv)
        pathlib.Path(argv[argv.index("--records") + 1]).write_text("{}\n")
        return B.subprocess.CompletedProcess(argv, 0, "", "")

    monkeypatch.setattr(B, "_timed", timed)
    monkeypatch.setattr(B, "_peak_memory", lambda argv: (started.append(argv), (1.0, 10.0))[1])
    monkeypatch.setattr(B.subprocess, "run", made)
    ctx = B.Context(1, tmp_path, (1000,), tmp_path, "maiko", python="/old/python")
    B.bench_simulate(ctx, games=10)
    B.bench_validate(ctx)
    assert started and {argv[0] for argv in started} == {"/old/python"}
    assert {argv[3] for argv in started} == {"simulate", "validate"}
    assert all(argv[4:6] == ["--game", "maiko"] for argv in started)
    assert set(B.BASELINE_SECTIONS) >= {"simulate", "validate"}


def test_the_start_up_of_a_baseline_runs_the_command_that_install_has(tmp_path):
    """An install from before the package had a ``__main__`` runs as ``python -m
    hanamikoji.engine``: its start-up figures time that command, never the one-line error of
    ``python -m hanamikoji`` (exit 1, which a start-up figure does not accept)."""
    old = _old_install(tmp_path, ("hanamikoji.engine.__main__",))
    assert B.command_module(old) == "hanamikoji.engine"
    assert B.command_module(B.sys.executable) == "hanamikoji"
    ran = []

    def timed(ctx, argv, repeat=None, codes=(0, 1)):
        ran.append((argv, codes))
        return 0.05, ""

    (tmp_path / "one-record.jsonl").write_text("{}\n")
    ctx = B.Context(1, tmp_path, (), tmp_path, None, python=old)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(B, "_timed", timed)
        B.bench_startup(ctx, runs=1)
    timed_commands = [(argv[1:3], codes) for argv, codes in ran if argv[1] == "-m"]
    assert timed_commands and all(command == (["-m", "hanamikoji.engine"], (0,))
                                  for command in timed_commands)
    # a command that fails to start is an error, not a fast figure
    with pytest.raises(RuntimeError, match="failed"):
        B._timed(ctx, [B.sys.executable, "-c", "raise SystemExit(1)"], 1, codes=(0,))


# --- against plain mutable code (issue 36) ------------------------------------------------------


def test_the_plain_section_times_the_command_against_the_checkout_s_plain_code(tmp_path,
                                                                             monkeypatch):
    """``bench --only plain`` runs ``dev/plain_GAME.py`` of the checkout under this interpreter
    and the command under the measured install (``--baseline``: the old one), on the records
    of that install's simulate, and gives the yardstick's CPU over the command's, judged by a
    least bound: a baseline's figure is new over old."""
    (tmp_path / "dev").mkdir()
    (tmp_path / "dev" / "plain_hanamikoji.py").touch()
    runs = []

    def made(argv, **kwargs):
        runs.append(argv)
        pathlib.Path(argv[argv.index("--records") + 1]).write_text("{}\n")
        return B.subprocess.CompletedProcess(argv, 0, "", "")

    def interleaved(ctx, commands, cpu):
        runs.extend(commands.values())
        cpu.update({"plain": 3.0, "toolkit": 1.0 if ctx.python == "/new/python" else 2.0})
        return dict.fromkeys(commands, 1.0)

    monkeypatch.setattr(B.subprocess, "run", made)
    monkeypatch.setattr(B, "_interleaved", interleaved)
    ctx = B.Context(1, tmp_path, (), tmp_path, None, python="/new/python")
    simulate, validate = B.bench_plain(ctx)
    assert (simulate["value"], simulate["target"]) == (3.0, "simulate-plain")
    assert (validate["value"], validate["target"]) == (3.0, "validate-plain")
    records = runs[0][runs[0].index("--records") + 1]
    assert runs[0][:4] == ["/new/python", "-m", "hanamikoji.engine", "simulate"]
    assert runs[1] == [B.sys.executable, str(tmp_path / "dev" / "plain_hanamikoji.py"),
                       "simulate", "20000", "0"]
    assert runs[4][-1] == records and runs[3][-2:] == ["validate", records]
    assert runs[2][0] == runs[4][0] == "/new/python"
    old = B._against([simulate], "plain", B.attrs.evolve(ctx, python="/old/python"))
    assert (old[0]["baseline"], old[0]["speedup"]) == (1.5, 2.0)  # 3.0 over 1.5
    # outside a checkout it says why it was not measured
    with pytest.raises(RuntimeError, match="dev/plain_hanamikoji.py"):
        B.bench_plain(B.Context(1, tmp_path, (), tmp_path / "elsewhere", None))
