"""docs/examples/buaa_bot.mjs: a BUAA T3 submission (a module exporting the course's
``hanamikoji_action``) plays in a tournament unchanged. These tests need Node (18 or later);
where ``node`` is missing they are skipped, and say so."""

from __future__ import annotations

import json
import os
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


def tournament(*bots: str, env: dict | None = None) -> dict:
    done = subprocess.run([sys.executable, "-m", "hanamikoji", "tournament", *bots, "--deals",
                           "2", "--variant", "italian-three-rounds", "--json"],
                          capture_output=True, text=True, timeout=300, env=env)
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


CORRECT = (ROOT / "tests" / "buaa" / "correct.mjs").as_uri()


def test_a_module_that_prints_plays_every_game(tmp_path):
    """A student's console.log (or any console method, or a raw write to stdout) in the
    function, and at import, goes to stderr: stdout is the protocol's, and the bot plays every
    game."""
    chatty = tmp_path / "chatty.mjs"
    chatty.write_text(
        f"import {{ hanamikoji_action as play }} from {json.dumps(CORRECT)};\n"
        "console.log('loading');\n"
        "export function hanamikoji_action(history, cards, board) {\n"
        "  console.log('history', history); console.info('hand', cards);\n"
        "  console.debug(board); console.warn('w'); console.error('e'); console.trace('t');\n"
        "  console.dir({ cards }); console.table([[1, 2]]);\n"
        "  process.stdout.write('raw\\n');\n"
        "  return play(history, cards, board);\n"
        "}\n", encoding="utf-8")
    report = tournament("random", f"chatty={SHIM} {chatty}")
    bot = next(s for s in report["standings"] if s["bot"] == "chatty")
    assert bot["games"] == 4 and bot["forfeits"] == 0 and report["forfeits"] == []


def test_a_python_bot_that_prints_plays_every_game(tmp_path):
    """The Python bot helper sends print to stderr while the bot's code runs (import, making
    the bot, each decide); the protocol keeps the real stdout."""
    (tmp_path / "printer.py").write_text(
        "from hanamikoji.oracle.core.bot import RandomBot\n"
        "print('importing')\n"
        "class Printer(RandomBot):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        print('new game')\n"
        "    def decide(self, request):\n"
        "        print('deciding', request.legal[:1])\n"
        "        return super().decide(request)\n", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(tmp_path), *filter(None, [os.environ.get("PYTHONPATH")])]))
    report = tournament("random", f"printer={sys.executable} -m hanamikoji.oracle.core.bot "
                                  "printer:Printer", env=env)
    bot = next(s for s in report["standings"] if s["bot"] == "printer")
    assert bot["games"] == 4 and bot["forfeits"] == 0 and report["forfeits"] == []


def test_a_module_with_a_default_export_plays(tmp_path):
    """``export default { hanamikoji_action }``: the shim and the checker share one loader."""
    module = tmp_path / "default.mjs"
    module.write_text(f"import {{ hanamikoji_action }} from {json.dumps(CORRECT)};\n"
                      "export default { hanamikoji_action };\n", encoding="utf-8")
    report = tournament("random", f"default={SHIM} {module}")
    assert report["forfeits"] == []


@pytest.mark.parametrize("program", ["buaa_bot.mjs", "buaa_check.mjs"])
def test_a_glue_without_the_assemblyscript_loader_is_one_line(tmp_path, program):
    """A hand-over glue that imports @assemblyscript/loader, where it is not installed: one line
    that says which package to install, not a stack trace."""
    (tmp_path / "release.js").write_text('import loader from "@assemblyscript/loader";\n'
                                         "export const hanamikoji_action = () => loader;\n",
                                         encoding="utf-8")
    (tmp_path / "package.json").write_text('{"type": "module"}\n', encoding="utf-8")
    (tmp_path / "release.cjs").write_text('const loader = require("@assemblyscript/loader");\n'
                                          "exports.hanamikoji_action = () => loader;\n",
                                          encoding="utf-8")
    for glue in ("release.js", "release.cjs"):  # an ES module's import, a CommonJS require
        done = subprocess.run(["node", str(ROOT / "docs" / "examples" / program), glue],
                              capture_output=True, text=True, input="", cwd=tmp_path)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr == (f"{program}: {glue}: cannot load it: its glue imports "
                               "@assemblyscript/loader, which is not installed: run npm install "
                               "@assemblyscript/loader in the module's folder (docs/buaa.md)\n")


def test_a_function_that_throws_ends_the_bot_with_its_message(tmp_path):
    module = tmp_path / "throws.mjs"
    module.write_text("export function hanamikoji_action() { throw new Error('abort: at "
                      "~lib/rt/itcms.ts:128'); }\n", encoding="utf-8")
    request = {"op": "decide", "buaa": {"history": "", "hand": "ABCDEFG",
                                        "board": [0] * 7}}
    done = subprocess.run(["node", str(ROOT / "docs" / "examples" / "buaa_bot.mjs"),
                           str(module)], capture_output=True, text=True,
                          input=json.dumps(request) + "\n")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == ('buaa_bot.mjs: call 1 of hanamikoji_action("", "ABCDEFG", '
                           '[0,0,0,0,0,0,0]) threw: abort: at ~lib/rt/itcms.ts:128\n')
