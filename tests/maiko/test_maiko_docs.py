"""docs/maiko.md stays true: every decision kind and end reason it lists is the engine's, the
record keys are those the engine writes, and each command it gives to paste runs."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from hanamikoji.engine.core import registry
from hanamikoji.engine.maiko.record import KIND_BY_LABEL
from hanamikoji.properties.core.cite import checks

DOC = (Path(__file__).resolve().parents[2] / "docs" / "maiko.md").read_text(encoding="utf-8")
MAIKO = registry.get("maiko")


def test_every_decision_kind_is_documented_and_nothing_else():
    documented = set(re.findall(r'\{"kind": "([a-z-]+)"', DOC))
    assert documented == set(KIND_BY_LABEL)


@checks("MK-END-2", "MK-END-4", "MK-STATIC-2")
def test_the_record_keys_and_end_reasons_are_the_engines(tmp_path):
    """MK-END-2, MK-END-4, MK-STATIC-2: the three reasons of the table are the engine's."""
    import random

    reasons = set()
    for seed in range(40):
        final = MAIKO.random_game(random.Random(seed), MAIKO.configure({"players": 4}))
        reasons.add(MAIKO.outcome(final).reason)
    table = set(re.findall(r"^\| `([a-z-]+)` \| MK-", DOC, re.M))
    assert table == {"full-board", "static", "no-face-down-tile"} and reasons <= table
    record = MAIKO.to_record(final)
    keys = re.findall(r"^\| `([a-z_]+)` \| ", DOC[DOC.index("## The record format"):], re.M)
    assert keys[:6] == list(record)
    assert list(record["result"]) == ["winners", "reason", "scores", "own_colour"]


COMMANDS = [line for line in DOC[DOC.index("## Commands to paste"):].split("```")[1].splitlines()
            if line.strip()]


@pytest.mark.parametrize("line", COMMANDS)
def test_each_command_to_paste_runs(line, tmp_path):
    args = shlex.split(line)
    assert args[0] == "hanamikoji"
    if args[1] == "validate":
        subprocess.run([sys.executable, "-m", "hanamikoji.engine", "simulate", "--game", "maiko",
                        "--games", "5", "--seed", "1", "--records", "maiko.jsonl"],
                       cwd=tmp_path, check=True, capture_output=True)
    if args[1] in ("simulate",):
        args = [a if a not in ("300", "200") else "20" for a in args]  # the same command, shorter
    cwd = Path(__file__).resolve().parents[2] if args[1] == "spec" else tmp_path
    done = subprocess.run([sys.executable, "-m", "hanamikoji.engine", *args[1:]], cwd=cwd,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / ".hypothesis").exists()  # a command leaves no cache in the user's folder
    if args[1] == "schema":
        assert json.loads(done.stdout)["$schema"].startswith("https://json-schema.org/")
