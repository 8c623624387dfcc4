"""docs/compliance.md stays true: its ``hanamikoji`` commands run in the page's order, in a
folder of their own, with the exit code the page gives (``# exit N``, else 0); the report they
write agrees with its schema, names the implementations the command gives, and its page is
``view``'s page of it. docs/viewer.md's command that views a check report is one of them.

The commands need ``hanamikoji check``: where this toolkit has no such command yet, the test
that runs them is skipped, saying so."""

from __future__ import annotations

import json
import os
import pathlib
import re
import shlex
import subprocess
import sys


sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))  # tests/: the viewer's doc test

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "compliance.md").read_text(encoding="utf-8")


def _commands(text: str) -> list[tuple[list[str], int]]:
    """(the words after ``hanamikoji``, the exit code) of each command in the page's plain code
    blocks (not its YAML), in order."""
    out = []
    for block in re.findall(r"```\n(.*?)```", text, re.S):
        for line in block.splitlines():
            if line.startswith("hanamikoji "):
                code = re.search(r"#\s*exit (\d+)", line)
                out.append((shlex.split(line, comments=True)[1:],
                            int(code.group(1)) if code else 0))
    return out


def test_the_viewer_page_views_the_report_this_page_makes():
    from test_viewer_docs import SKIPPED

    ours = [words for words, _ in _commands(DOC)]
    skipped = [shlex.split(line)[1:] for line in SKIPPED if " view " in line]
    assert skipped and all(words in ours for words in skipped)
    assert any(words[0] == "check" for words in ours)


def test_every_command_of_the_page_runs_and_writes_its_report(tmp_path):
    import jsonschema

    from hanamikoji.oracle.core.check import SCHEMA
    from hanamikoji.viewer.core.card import card_page

    (tmp_path / "docs").symlink_to(ROOT / "docs")
    (tmp_path / "tests").symlink_to(ROOT / "tests")
    bin_dir = os.path.dirname(sys.executable)
    commands = _commands(DOC)
    assert [words[0] for words, _ in commands] == ["check", "view"]
    for words, code in commands:
        done = subprocess.run(
            [sys.executable, "-m", "hanamikoji", *words], cwd=tmp_path, capture_output=True,
            text=True, timeout=900,
            env=dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", "")))
        assert done.returncode == code, (words, done.stderr[-2000:])
        assert "Traceback" not in done.stderr, (words, done.stderr[-2000:])
    document = json.loads((tmp_path / "dashboard" / "report.json").read_text(encoding="utf-8"))
    jsonschema.validate(document, SCHEMA)
    check = commands[0][0]
    # NAME=WHAT: a module as a word of its own, an engine or a bot after its option
    given = [w.split("=", 1)[0] for k, w in enumerate(check)
             if "=" in w and not w.startswith("-") and (k == 0 or check[k - 1] != "--out")]
    assert sorted(card["name"] for card in document["cards"]) == sorted(given)
    page = card_page(document)
    assert (tmp_path / "dashboard" / "report.html").read_text(encoding="utf-8") == page
    assert (tmp_path / "dashboard.html").read_text(encoding="utf-8") == page
