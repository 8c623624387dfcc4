"""docs/examples/buaa_bot.mjs: a BUAA T3 submission (a module exporting the course's
``hanamikoji_action``) plays in a tournament unchanged. These tests need Node (18 or later);
where ``node`` is missing they are skipped, and say so."""

from __future__ import annotations

import json
import pathlib
import shutil
import subprocess
import sys

import pytest

from hanamikoji.properties.core.cite import checks

ROOT = pathlib.Path(__file__).resolve().parents[1]
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(
    NODE is None, reason="node is not installed: the BUAA bot shim (docs/examples/buaa_bot.mjs) "
                         "is JavaScript")
SHIM = f"node {ROOT / 'docs' / 'examples' / 'buaa_bot.mjs'}"


def tournament(*bots: str) -> dict:
    done = subprocess.run([sys.executable, "-m", "hanamikoji", "tournament", *bots, "--deals",
                           "2", "--variant", "italian-three-rounds", "--json"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_course_module_plays_whole_games():
    """tests/buaa/correct.mjs answers every T3 vector; through the shim it plays every game of
    a tournament to its end in the course's notation, and never forfeits."""
    report = tournament("random", f"course={SHIM} {ROOT / 'tests' / 'buaa' / 'correct.mjs'}")
    course = next(s for s in report["standings"] if s["bot"] == "course")
    assert course["games"] == 4 and course["forfeits"] == 0 and report["forfeits"] == []


def test_a_webassembly_glue_module_plays_whole_games():
    """tests/js/t3-wasm-glue.mjs instantiates a WebAssembly module at import (top-level await)
    and calls it for each answer: the shim serves it as it is."""
    report = tournament("random", f"wasm={SHIM} {ROOT / 'tests' / 'js' / 't3-wasm-glue.mjs'}")
    wasm = next(s for s in report["standings"] if s["bot"] == "wasm")
    assert wasm["games"] == 4 and wasm["forfeits"] == 0 and report["forfeits"] == []


@checks("ACT-SECRET-1")
def test_a_course_module_that_plays_a_secret_of_two_cards_loses_each_game():
    """tests/buaa/wrong.mjs answers 1AB where a secret is one card, which the course's own
    referee plays: here it loses, citing the rule."""
    report = tournament("random", f"wrong={SHIM} {ROOT / 'tests' / 'buaa' / 'wrong.mjs'}")
    assert [f["rule"] for f in report["forfeits"]] == ["ACT-SECRET-1"] * 4
    assert all(f["bot"] == "wrong" and f["answer"].startswith("1") and len(f["answer"]) == 3
               for f in report["forfeits"])


def test_a_module_without_the_function_is_refused(tmp_path):
    empty = tmp_path / "empty.mjs"
    empty.write_text("export const nothing = 1;\n")
    done = subprocess.run(["node", str(ROOT / "docs" / "examples" / "buaa_bot.mjs"), str(empty)],
                          capture_output=True, text=True, input="")
    assert done.returncode == 2 and "exports none of hanamikoji_action" in done.stderr
