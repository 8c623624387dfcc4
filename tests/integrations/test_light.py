"""The core install stays light: the toolkit, its command and the integrations' encodings never
import numpy, OpenSpiel or PettingZoo unless a bridge is asked for, and a bridge asked for
without its extra says which extra to install. Runs without the extras too."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("numpy", "pyspiel", "open_spiel", "pettingzoo", "gymnasium")


def _imported_after(code: str) -> list[str]:
    probe = (f"import sys\n{code}\nprint([m for m in {HEAVY!r} if m in sys.modules])")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return eval(done.stdout.strip().splitlines()[-1])


def test_the_toolkit_and_its_command_import_nothing_heavy():
    code = ("import hanamikoji, hanamikoji.engine, hanamikoji.integrations\n"
            "import hanamikoji.integrations.encoding.hanamikoji\n"
            "import hanamikoji.integrations.encoding.maiko\n"
            "from hanamikoji.cli.main import main\n"
            "import contextlib, io\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    main(['games']); main(['simulate', '--games', '3', '--game', 'maiko'])")
    assert _imported_after(code) == []


@pytest.mark.parametrize("module,extra", [("openspiel", "openspiel"),
                                          ("pettingzoo_env", "pettingzoo")])
def test_a_bridge_without_its_extra_names_it(module, extra):
    """Without the extra, importing a bridge fails with one line naming the extra (simulated
    here by hiding the framework's modules)."""
    hide = {"openspiel": ("pyspiel", "numpy"), "pettingzoo_env": ("pettingzoo", "gymnasium")}
    code = ("import sys\n"
            + "".join(f"sys.modules[{name!r}] = None\n" for name in hide[module])
            + "try:\n"
            f"    import hanamikoji.integrations.{module}\n"
            "except ImportError as error:\n"
            "    print(error)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert f"pip install '.[{extra}]' in a clone of hanamikoji" in done.stdout
    assert len(done.stdout.strip().splitlines()) == 1


def test_bench_measures_each_bridge_or_says_it_is_not_installed(monkeypatch):
    """``hanamikoji bench --only integrations``: a row per bridge, with a figure when its extra is
    installed and a "not installed" line naming the extra when it is not."""
    import importlib.util

    from hanamikoji.integrations import bench

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: (
        None if name in ("pyspiel", "pettingzoo") else real(name, *a)))
    rows = bench.measure("maiko", budget=0.01)
    assert rows[0]["figure"] == "engine alone: random games (maiko)" and rows[0]["value"] > 0
    assert [r["unit"] for r in rows[1:]] == ["not installed: pip install '.[openspiel]' in the clone",
                                            "not installed: pip install '.[pettingzoo]' in the clone"]
    monkeypatch.undo()
    pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    rows = bench.measure("hanamikoji", budget=0.01)
    assert len(rows) == 4 and all(r["value"] > 0 and r["unit"] == "decisions/s (in process)"
                                  for r in rows)


def test_ci_installs_the_integrations_extra():
    """CI runs the README's test command (.ci/run reads it between the markers): it must install
    the integrations extra, or every OpenSpiel and PettingZoo test would skip unseen."""
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- test-command -->\n```\n(.*)\n```\n<!-- /test-command -->", readme)
    extras = block and re.search(r"pip install -e '\.\[([a-z,]+)\]'", block.group(1))
    assert extras and {"test", "integrations"} <= set(extras.group(1).split(","))
    assert "test-command" in (root / ".ci" / "run").read_text(encoding="utf-8")


def test_the_bench_table_prints_the_extra_to_install(monkeypatch, capsys):
    """The not-installed row reaches the terminal whole: rich would read ``[openspiel]`` as
    markup and drop it."""
    import functools
    import importlib.util

    from hanamikoji.cli.main import main
    from hanamikoji.integrations import bench

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: (
        None if name in ("pyspiel", "pettingzoo") else real(name, *a)))
    monkeypatch.setattr(bench, "measure", functools.partial(bench.measure, budget=0.01))
    assert main(["bench", "--only", "integrations", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert "'.[openspiel]'" in out and "'.[pettingzoo]'" in out
