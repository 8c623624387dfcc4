"""docs/viewer.md stays true: every ``hanamikoji`` command of the page runs, in the page's
order, in a folder of its own, with the exit code the page gives (``# exit N``, else 0), and
writes the page it says it writes. ``verify --out report`` is left out: it proves every query of
every game and takes minutes; its page is tested by tests/test_queries_cli.py and
tests/test_core_output.py."""

from __future__ import annotations

import os
import pathlib
import re
import shlex
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "viewer.md").read_text(encoding="utf-8")

#: Commands of the page this test does not run, and why.
SKIPPED = {"hanamikoji verify --out report": "proves every query of every game: minutes",
           "hanamikoji view dashboard/report.json --out dashboard.html":
               "its report comes from docs/compliance.md's check, which "
               "tests/test_compliance_docs.py runs with this command after it"}


def _commands() -> list[tuple[dict[str, str], list[str], int]]:
    """(environment additions, the words after ``hanamikoji``, the exit code) of each command
    in the page's code blocks, in order."""
    out = []
    for block in re.findall(r"```\w*\n(.*?)```", DOC, re.S):
        for line in block.splitlines():
            env = {}
            while re.match(r"^[A-Z_]+=\S+ ", line):
                name, _, line = line.partition(" ")
                key, _, value = name.partition("=")
                env[key] = value
            if not line.startswith("hanamikoji ") or line in SKIPPED:
                continue
            code = re.search(r"#\s*exit (\d+)", line)
            words = shlex.split(line, comments=True)
            out.append((env, words[1:], int(code.group(1)) if code else 0))
    return out


def test_every_command_of_the_page_runs_and_writes_its_page(tmp_path):
    (tmp_path / "docs").symlink_to(ROOT / "docs")
    (tmp_path / "tests").symlink_to(ROOT / "tests")
    bin_dir = os.path.dirname(sys.executable)
    commands = _commands()
    assert len(commands) >= 6
    for env, words, code in commands:
        done = subprocess.run(
            [sys.executable, "-m", "hanamikoji", *words], cwd=tmp_path, capture_output=True,
            text=True, timeout=600,
            env=dict(os.environ, **env, PATH=bin_dir + os.pathsep + os.environ.get("PATH", "")))
        assert done.returncode == code, (words, done.stderr[-2000:])
        assert "Traceback" not in done.stderr, (words, done.stderr[-2000:])
    for page in ("games.html", "maiko.html", "divergence/divergence.html", "so-far.html",
                 "stats.html"):
        text = (tmp_path / page).read_text(encoding="utf-8")
        assert 'id="hk-data"' in text and "<script src" not in text, page
