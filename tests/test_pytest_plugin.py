"""The pytest plugin (oracle/pytest_plugin.py, docs/oracle.md "The oracle in your own test
suite"): off and light until asked for; asked for, the committed vectors become items with the
cases' ids, which the reference passes (as a command and as a Python engine) and a broken engine
of the zoo (tests/broken_engines.py) fails with the text of diff's report, no traceback.

Each run is a pytest of its own (pytester: in this process, but for the one that looks at what
is imported), in a folder that holds only the files a test writes there, as an implementer's
project would.
"""

from __future__ import annotations

import json
import re
import shutil
import pathlib
import sys

import pytest

pytest_plugins = ["pytester"]

ROOT = pathlib.Path(__file__).resolve().parents[1]
VECTORS = ROOT / "tests" / "vectors"
ADAPTER = f"{sys.executable} -m hanamikoji.oracle.core.adapter"

#: A conftest.py whose fixture gives a Python engine: the broken engine NAME of the zoo, or the
#: reference when NAME is None.
PYTHON_ENGINE = """
import sys
import pytest
sys.path.insert(0, {tests!r})

@pytest.fixture(scope="session")
def hanamikoji_engine():
    name = {name!r}
    if name is None:
        from hanamikoji.oracle.core.adapter import Adapter
        return Adapter(protocol=3)
    from broken_engines import BROKEN
    from hanamikoji.oracle.hanamikoji.adapter import EngineAdapter
    return EngineAdapter(BROKEN[name], protocol=3)
"""


def case_ids(*files: str) -> list[str]:
    return [case["id"] for name in files
            for case in json.loads((VECTORS / name).read_text())["tests"]]


def test_the_plugin_is_an_entry_point_of_the_package():
    from importlib.metadata import entry_points

    text = (ROOT / "pyproject.toml").read_text()
    assert '[project.entry-points.pytest11]\n' in text
    assert 'hanamikoji = "hanamikoji.oracle.pytest_plugin"' in text
    found = [e for e in entry_points(group="pytest11") if e.name == "hanamikoji"]
    assert [e.value for e in found] == ["hanamikoji.oracle.pytest_plugin"]


def test_off_until_asked_and_light(pytester):
    pytester.makepyfile(test_mine="""
        import sys

        def test_mine():
            loaded = sorted(m for m in sys.modules if m.startswith("hanamikoji"))
            assert loaded == ["hanamikoji", "hanamikoji.oracle",
                              "hanamikoji.oracle.pytest_plugin"], loaded
    """)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    assert "hanamikoji-oracle.py" not in result.stdout.str()


def test_the_items_are_the_cases_with_their_ids(pytester):
    result = pytester.runpytest(
        "-p", "no:cacheprovider", "--collect-only", "-q", "--hanamikoji-engine", ADAPTER,
        f"--hanamikoji-vectors={VECTORS}")
    collected = [line for line in result.stdout.lines if line.startswith("hanamikoji-oracle.py")]
    vectors = case_ids("records.json", "decisions.json", "views.json")
    assert collected == ([f"hanamikoji-oracle.py::test_vectors[{i}]" for i in vectors] +
                         [f"hanamikoji-oracle.py::test_perft[{i}]" for i in case_ids("perft.json")]
                         + ["hanamikoji-oracle.py::test_diff"])


def test_the_reference_as_a_command_passes_the_committed_vectors(pytester):
    result = pytester.runpytest(
        "-p", "no:cacheprovider", "--hanamikoji-engine", ADAPTER,
        f"--hanamikoji-vectors={VECTORS}", "--hanamikoji-every", "4", "--hanamikoji-diff-games", "3")
    outcomes = result.parseoutcomes()
    assert result.ret == 0 and "failed" not in outcomes
    assert outcomes["passed"] > 15 and outcomes["skipped"] > 0  # the refused records


def test_the_reference_as_a_python_engine_passes_every_committed_vector(pytester):
    pytester.makeconftest(PYTHON_ENGINE.format(tests=str(ROOT / "tests"), name=None))
    result = pytester.runpytest(
        "-p", "no:cacheprovider", "-ra", "--hanamikoji", f"--hanamikoji-vectors={VECTORS}",
        "--hanamikoji-diff-games", "0", "-rs")
    outcomes = result.parseoutcomes()
    every = case_ids("records.json", "decisions.json", "views.json", "perft.json")
    assert result.ret == 0 and "failed" not in outcomes
    assert outcomes["passed"] + outcomes["skipped"] == len(every)
    assert "the record reader's case (validate)" in result.stdout.str()  # the skips say why


def test_a_broken_engine_fails_with_readable_items(pytester):
    pytester.makeconftest(PYTHON_ENGINE.format(tests=str(ROOT / "tests"),
                                               name="tie-moves-marker"))
    result = pytester.runpytest(
        "-p", "no:cacheprovider", "-ra", "--hanamikoji", f"--hanamikoji-vectors={VECTORS}",
        "--hanamikoji-kinds", "decisions,views", "--hanamikoji-diff-games", "0")
    outcomes = result.parseoutcomes()
    assert result.ret == 1 and outcomes["failed"] > 0 and outcomes["passed"] > 0
    out = result.stdout.str()
    assert "FAILED hanamikoji-oracle.py::test_vectors[decision/" in out
    assert "DIVERGENCE: <EngineAdapter object>" in out and "first differing step: " in out
    assert "Traceback" not in out and "def test_vectors" not in out  # the report, no code


def test_a_broken_command_fails_the_diff_item_with_diff_s_report(pytester, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT / "tests"))
    broken = (f"{sys.executable} -m hanamikoji.oracle.hanamikoji.adapter --protocol 3 "
              "--engine broken_engines:VIEW_SHOWS_DECK")
    result = pytester.runpytest(
        "-p", "no:cacheprovider", "-ra", "--hanamikoji-engine", broken,
        f"--hanamikoji-vectors={VECTORS}", "--hanamikoji-kinds", "views", "--hanamikoji-every", "10",
        "--hanamikoji-diff-games", "5")
    result.assert_outcomes(failed=3)
    out = result.stdout.str()
    assert "FAILED hanamikoji-oracle.py::test_diff" in out
    assert "DIVERGENCE: " + broken in out


def test_an_engine_that_cannot_start_is_one_line_per_item(pytester):
    result = pytester.runpytest(
        "-p", "no:cacheprovider", "--hanamikoji-engine", str(ROOT / "no-such-engine"),
        f"--hanamikoji-vectors={VECTORS}", "--hanamikoji-kinds", "views",
        "--hanamikoji-every", "10", "--hanamikoji-diff-games", "0")
    result.assert_outcomes(failed=2)
    assert "cannot start" in result.stdout.str() and "Traceback" not in result.stdout.str()


@pytest.mark.parametrize("option,message", [
    (["--hanamikoji-kinds", "moves"], "no vectors file 'moves'"),
    (["--hanamikoji-vectors=nowhere"], "cannot read nowhere"),
])
def test_bad_options_are_usage_errors(pytester, option, message):
    result = pytester.runpytest("-p", "no:cacheprovider", "--hanamikoji-engine",
                                           ADAPTER, *option)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert message in result.stderr.str()


# --- docs/oracle.md's two suites, run as shown ---------------------------------------------------


def section_blocks() -> list[tuple[str, str]]:
    """The fenced blocks of docs/oracle.md's "The oracle in your own test suite", in order, as
    (language, text)."""
    text = (ROOT / "docs" / "oracle.md").read_text()
    section = text.split("### The oracle in your own test suite", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```(\w+)\n(.*?)```", section, re.S)


def test_the_docs_python_suite_runs_as_shown(pytester):
    (_, js_ini), (_, conftest), (_, ini) = section_blocks()
    pytester.makeconftest(conftest)
    pytester.makefile(".ini", pytest=ini)
    result = pytester.runpytest("-p", "no:cacheprovider", f"--hanamikoji-vectors={VECTORS}",
                                "--hanamikoji-every", "3", "--hanamikoji-diff-games", "2")
    outcomes = result.parseoutcomes()
    assert result.ret == 0 and outcomes["passed"] > 20 and "failed" not in outcomes


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_docs_javascript_suite_runs_as_shown(pytester, monkeypatch):
    (_, js_ini), _, _ = section_blocks()
    assert "node docs/examples/adapter.mjs" in js_ini
    pytester.makefile(".ini", pytest=js_ini.replace("docs/examples/",
                                                    f"{ROOT / 'docs' / 'examples'}/"))
    monkeypatch.setenv("PYTHON", sys.executable)  # the interpreter the example engine asks
    result = pytester.runpytest("-p", "no:cacheprovider", f"--hanamikoji-vectors={VECTORS}",
                                "--hanamikoji-kinds", "decisions,views", "--hanamikoji-every",
                                "4", "--hanamikoji-diff-games", "2")
    outcomes = result.parseoutcomes()
    assert result.ret == 0 and outcomes["passed"] > 8 and "failed" not in outcomes
