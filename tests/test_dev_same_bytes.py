"""dev/same_bytes.py, the byte-for-byte comparison of two installs' outputs: it says "same" for
an install against itself, and finds a difference where there is one."""

from __future__ import annotations

import importlib.util
import os
import re
import pathlib
import subprocess
import sys

SCRIPT = pathlib.Path(__file__).resolve().parents[1] / "dev" / "same_bytes.py"


def _module():
    spec = importlib.util.spec_from_file_location("same_bytes", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_an_install_against_itself_is_the_same(tmp_path):
    done = subprocess.run([sys.executable, str(SCRIPT), sys.executable, "--only", "schema",
                           "--work", str(tmp_path / "work")],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert [line.split()[0] for line in lines[:-1]] == ["same", "same"]
    assert lines[-1].startswith("0 different")


def test_an_install_that_writes_other_bytes_is_different(tmp_path):
    # a "new" interpreter whose hanamikoji prints a schema with its first quote changed (line 2)
    fake = tmp_path / "fake"
    (fake / "hanamikoji" / "engine").mkdir(parents=True)
    (fake / "hanamikoji" / "__init__.py").write_text("")
    (fake / "hanamikoji" / "engine" / "__init__.py").write_text("")
    (fake / "hanamikoji" / "engine" / "__main__.py").write_text(
        "import subprocess, sys\n"
        f"out = subprocess.run([{sys.executable!r}, '-m', 'hanamikoji.engine', *sys.argv[1:]],"
        " capture_output=True, env={**__import__('os').environ, 'PYTHONPATH': ''}).stdout\n"
        "sys.stdout.buffer.write(out.replace(b'\"', b\"'\", 1))\n")
    wrapper = tmp_path / "python"
    wrapper.write_text(f"#!/bin/sh\nPYTHONPATH={fake} exec {sys.executable} \"$@\"\n")
    wrapper.chmod(0o755)
    done = subprocess.run([sys.executable, str(SCRIPT), sys.executable, str(wrapper),
                           "--only", "schema-hanamikoji", "--work", str(tmp_path / "work")],
                          capture_output=True, text=True, timeout=600, env={**os.environ, "PYTHONPATH": ""})
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout.startswith("DIFFERENT  schema-hanamikoji: stdout: line 2:")


def test_the_verify_report_is_compared_without_what_names_the_run():
    stable = _module()._stable({"ok": True, "seconds": 3.2, "games": [
        {"answer": 8, "seconds": 0.5, "produced_by": {"date": "today"},
         "confirmed_by": "341 z3 checks in 2.14 s; 60 games"}]})
    assert stable == {"ok": True, "games": [
        {"answer": 8, "confirmed_by": "341 z3 checks in <seconds> s; 60 games"}]}


def test_the_architecture_doc_shows_options_the_script_has():
    doc = (SCRIPT.parents[1] / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = doc.split("## Checking that a change changed nothing", 1)[1].split("\n## ", 1)[0]
    blocks = "".join(re.findall(r"```\n(.*?)```", section, re.S))
    shown = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", blocks))
    parser_options = set(re.findall(r'add_argument\("(--[a-z-]+)"', SCRIPT.read_text()))
    assert shown and shown <= parser_options, shown - parser_options
