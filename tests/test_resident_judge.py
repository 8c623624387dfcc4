"""``hanamikoji validate --json -`` as a resident judge (docs/oracle.md, "A resident judge"): each
verdict comes out while standard input is still open, so a program writes a record, reads its
verdict, then writes the next; and the documented examples (Python, Node) run as shown.

The judge is a real process, started without ``PYTHONUNBUFFERED`` (which would hide Python's
block-buffered output to a pipe). A judge that holds its verdicts back makes a read wait forever:
a watchdog kills it after :data:`PATIENCE` seconds, so that fails as an empty answer instead of
hanging; no test measures time.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import threading

import pytest

ROOT = pathlib.Path(__file__).parent.parent
DOC = (ROOT / "docs" / "oracle.md").read_text()
NODE_EXAMPLE = ROOT / "docs" / "examples" / "resident_judge.mjs"

#: Seconds before a judge that does not answer is killed (a failure, never a measurement).
PATIENCE = 30

BIN = pathlib.Path(sys.executable).parent
HANAMIKOJI = shutil.which("hanamikoji", path=str(BIN)) or shutil.which("hanamikoji")
ENV = {**{k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"},
       "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}

pytestmark = pytest.mark.skipif(HANAMIKOJI is None, reason="the hanamikoji command is not installed")


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> pathlib.Path:
    """The five seeded games of the doc, made by the command the doc gives."""
    (command,) = re.findall(r"`(hanamikoji simulate [^`]*--records\s+games\.jsonl)`", DOC)
    folder = tmp_path_factory.mktemp("resident")
    subprocess.run(command.split(), cwd=folder, env=ENV, check=True, capture_output=True,
                   timeout=PATIENCE)
    return folder / "games.jsonl"


def batch(path: pathlib.Path) -> tuple[list[dict], int]:
    """The verdicts of ``validate --json`` on a whole file, and its exit code: the second
    method, with no resident process."""
    done = subprocess.run([HANAMIKOJI, "validate", "--json", str(path)], env=ENV,
                          capture_output=True, text=True, timeout=PATIENCE)
    return [json.loads(line) for line in done.stdout.splitlines()], done.returncode


def printed(path: pathlib.Path) -> str:
    """What the doc's examples print for the records of ``path``, from :func:`batch`."""
    verdicts, code = batch(path)
    return "".join(f"{v['index']} {v['status']} {v['message']}\n" for v in verdicts) + f"exit {code}\n"


class Judge:
    """A resident ``validate --json -``, asked one line at a time."""

    def __init__(self) -> None:
        self.process = subprocess.Popen([HANAMIKOJI, "validate", "--json", "-"], env=ENV,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)
        self.watchdog = threading.Timer(PATIENCE, self.process.kill)
        self.watchdog.start()
        self.asked = 0

    def ask(self, line: str) -> dict:
        """Write one line, then read one verdict, standard input left open."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        assert answer, f"no verdict for line {self.asked + 1} while standard input is open"
        self.asked += 1
        return json.loads(answer)

    def close(self) -> tuple[str, str, int]:
        """End standard input: what else the judge printed, and its exit code."""
        assert self.process.poll() is None, "the judge ended before its input did"
        try:
            out, err = self.process.communicate(timeout=PATIENCE)
        finally:
            self.watchdog.cancel()
        return out, err, self.process.returncode


def without_source(verdict: dict) -> dict:
    return {k: v for k, v in verdict.items() if k != "source"}


def test_each_verdict_comes_before_the_next_record_is_written(games):
    expected, code = batch(games)
    records = [line for line in games.read_text().splitlines() if line.strip()]
    assert len(records) == len(expected) >= 2
    judge = Judge()
    answers = [judge.ask(record) for record in records]
    assert judge.close() == ("", "", code)
    assert [v["source"] for v in answers] == ["<stdin>"] * len(records)
    assert list(map(without_source, answers)) == list(map(without_source, expected))


def test_a_line_that_is_no_record_is_answered_and_the_judge_goes_on(games):
    record = json.loads(games.read_text().splitlines()[0])
    judge = Judge()
    not_json = judge.ask("not a record")
    unknown = judge.ask(json.dumps({"format": "other/1"}))
    illegal = judge.ask(json.dumps({**record, "rounds": []}))
    valid = judge.ask(json.dumps(record))
    out, err, code = judge.close()
    assert [(v["index"], v["line"], v["status"], v["path"])
            for v in (not_json, unknown, illegal, valid)] == [
        (0, 1, "malformed", None), (1, 2, "malformed", "$.format"),
        (2, 3, "illegal", None), (3, 4, "valid", None)]
    assert not_json["message"].startswith("not JSON")
    assert illegal["rule"] == "UPDATE-5"
    assert (out, err, code) == ("", "", 2)  # a malformed record: exit 2, as for a file


def test_the_python_example_runs_as_shown(games):
    (block,) = re.findall(r"<!-- resident-judge -->\n```python\n(.*?)```", DOC, re.S)
    (shown,) = re.findall(r"<!-- resident-judge-output -->\n```\n(.*?)```", DOC, re.S)
    done = subprocess.run([sys.executable, "-c", block], cwd=games.parent, env=ENV,
                          capture_output=True, text=True, timeout=PATIENCE)
    assert (done.stderr, done.returncode) == ("", 0)
    assert done.stdout == shown == printed(games)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_node_example_runs_as_shown(games):
    assert "](examples/resident_judge.mjs)" in DOC
    (shown,) = re.findall(r"<!-- resident-judge-output -->\n```\n(.*?)```", DOC, re.S)
    done = subprocess.run(["node", str(NODE_EXAMPLE), games.name], cwd=games.parent, env=ENV,
                          capture_output=True, text=True, timeout=PATIENCE)
    assert (done.stderr, done.returncode) == ("", 0)
    assert done.stdout == shown == printed(games)
