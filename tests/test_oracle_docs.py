"""docs/oracle.md and the oracle modules' docstrings: their examples run and their figures are
the ones the tools compute."""

from __future__ import annotations

import contextlib
import doctest
import importlib
import io
import json
import os
import pathlib
import re

import pytest

from hanamikoji.oracle.hanamikoji.vectors import SMALL_DEAL

ROOT = pathlib.Path(__file__).parent.parent
DOC = (ROOT / "docs" / "oracle.md").read_text()


@pytest.mark.parametrize("name", ["hanamikoji.engine.hanamikoji.codec", "hanamikoji.oracle.core.validate",
                                  "hanamikoji.oracle.hanamikoji.perft",
                                  "hanamikoji.oracle.hanamikoji.adapter",
                                  "hanamikoji.oracle.hanamikoji.buaa"])
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried and failures == 0


#: A block to paste into a file of one's own (it serves standard input): run by its own test.
PASTE = "<!-- adapter-paste -->\n"
#: A block that talks to a judge it starts: run by tests/test_resident_judge.py.
RESIDENT = "<!-- resident-judge -->\n"


def test_python_blocks_run_and_the_reference_passes_its_own_vectors():
    blocks = [block for marker, block in re.findall(rf"({PASTE}|{RESIDENT})?```python\n(.*?)```", DOC, re.S)
              if not marker]
    assert blocks
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(out):
            for block in blocks:
                exec(compile(block, "docs/oracle.md", "exec"), {})
    finally:
        os.chdir(cwd)
    count = json.loads((ROOT / "tests" / "vectors" / "decisions.json").read_text())["numberOfTests"]
    assert out.getvalue().strip() == f"{count} of {count} cases agree"


@pytest.mark.parametrize("engine, code", [
    ("from hanamikoji.engine.hanamikoji import *", 0),
    ("import broken_engines\nglobals().update(attrs.asdict(broken_engines.BROKEN['gift-gives-two'], recurse=False))",
     1)])
def test_the_adapter_to_paste_serves_an_engine_to_diff(tmp_path, engine, code):
    """The block docs/oracle.md gives to paste into my_adapter.py, run as written by diff with
    my_engine the reference (no divergence) or a broken engine (a divergence)."""
    import subprocess
    import sys

    (block,) = re.findall(rf"{PASTE}```python\n(.*?)```", DOC, re.S)
    (tmp_path / "my_adapter.py").write_text(block)
    (tmp_path / "my_engine.py").write_text("import attrs\n" + engine + "\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT / "tests")])}
    done = subprocess.run([sys.executable, "-m", "hanamikoji.engine", "diff", "--games", "30",
                           "--shrink", "0", "--", sys.executable, "my_adapter.py"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == code, done.stdout + done.stderr
    assert done.stdout.startswith("no divergence" if code == 0 else "DIVERGENCE"), done.stdout


def test_the_small_deal_file_is_the_vectors_small_deal():
    assert json.loads((ROOT / "docs" / "examples" / "deal-small.json").read_text()) == SMALL_DEAL


def test_the_docs_deal_table_is_the_vectors_deals():
    vectors = {c["id"]: c["input"] for c in
               json.loads((ROOT / "tests" / "vectors" / "perft.json").read_text())["tests"]}
    rows = re.findall(r"^\| `(perft/[^`]+)` \| (\d) \| (\d) \| `(\[[^`]*\])`, `(\[[^`]*\])` \| "
                      r"`(\[[^`]*\])` \|$", DOC, re.M)
    assert len(rows) == 5
    for case, first, removed, hand0, hand1, draws in rows:
        given = vectors[case]
        assert (int(first), int(removed)) == (given["first_player"], given["removed"])
        assert [json.loads(hand0), json.loads(hand1)] == given["hands"]
        assert json.loads(draws) == given["draws"]


def test_every_subcommand_is_documented():
    for command in ("validate", "schema", "vectors", "perft", "diff"):
        assert f"hanamikoji {command}" in DOC


def test_the_oracle_commands_never_import_z3(tmp_path):
    """validate, schema, vectors, perft and diff need no solver: they must not load z3."""
    import subprocess
    import sys

    game = tmp_path / "game.json"
    script = f"""
import sys
from hanamikoji.cli.main import main
main(["play", "--seed", "1", "--record", {str(game)!r}])
for argv in (["validate", {str(game)!r}], ["schema"], ["perft", "--seed", "0", "--depth", "2"],
             ["vectors", "--out", {str(tmp_path / "v")!r}],
             ["diff", "--games", "1", "--", sys.executable, {str(ROOT / "docs/examples/adapter.py")!r}]):
    main(argv)
assert "z3" not in sys.modules, "z3 was imported"
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-500:]
