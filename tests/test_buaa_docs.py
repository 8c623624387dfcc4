"""docs/buaa.md: every command of its console blocks runs, from a scratch folder that sees the
repository's docs/ and tests/, and prints what the page shows."""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest


ROOT = pathlib.Path(__file__).parent.parent
DOC = (ROOT / "docs" / "buaa.md").read_text(encoding="utf-8")


def commands() -> list[tuple[str, str]]:
    """(command, the output the page shows for it) of each ``$`` line of a console block."""
    found = []
    for block in re.findall(r"```console\n(.*?)```", DOC, re.S):
        for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, _, output = chunk.partition("\n")
            found.append((command, output))
    return found


def test_the_page_has_commands():
    assert len(commands()) >= 7


@pytest.mark.skipif(shutil.which("node") is None,
                    reason="node is not installed: the page's node commands cannot run here")
def test_every_command_prints_what_the_page_shows(tmp_path):
    for name in ("docs", "tests"):
        (tmp_path / name).symlink_to(ROOT / name)
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
    for command, shown in commands():
        done = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=300)
        expected_code = 1 if any(word in command for word in ("wrong.mjs", "validate",
                                                              "crashes", "hanamikoji audit")) else 0
        assert (done.returncode, done.stdout, done.stderr) == (expected_code, shown, ""), command
