"""Compare what two installs of the toolkit write, byte for byte: ``python dev/same_bytes.py OLD
[NEW]``, each a Python interpreter with ``hanamikoji`` installed (NEW: this one).

A refactoring or a speed-up must not change an output. This runs the same commands with both
interpreters, each in a folder of its own, and compares every stdout and every file written:

- the records of ``simulate --records`` of both games: Hanamikoji in each variant, Maiko with 2, 3 and 4
  players, and with ``--workers 2``;
- ``validate --json`` of each of those record files;
- ``vectors`` of both games (every file);
- ``perft --json`` of both games from seeded deals;
- ``schema`` of both games;
- with ``--verify``, the answers and witnesses of ``verify --json`` (the report without its
  timings and its ``produced_by``, which name the run, not the answer).

Prints one line a comparison, ``same`` or ``DIFFERENT`` (with the first differing line), and
exits 1 if any differs. ``--only WORD`` keeps the comparisons whose name holds WORD.
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
from typing import Any

SIMULATIONS = [
    ("hanamikoji-standard", ["--game", "hanamikoji", "--games", "300", "--seed", "7"]),
    ("hanamikoji-italian", ["--game", "hanamikoji", "--variant", "italian-three-rounds",
                            "--games", "300", "--seed", "7"]),
    ("hanamikoji-workers2", ["--game", "hanamikoji", "--games", "300", "--seed", "7",
                             "--workers", "2"]),
    ("maiko-2", ["--game", "maiko", "--players", "2", "--games", "40", "--seed", "7"]),
    ("maiko-3", ["--game", "maiko", "--players", "3", "--games", "30", "--seed", "7"]),
    ("maiko-4", ["--game", "maiko", "--players", "4", "--games", "30", "--seed", "7"]),
    ("maiko-workers2", ["--game", "maiko", "--players", "3", "--games", "30", "--seed", "7",
                        "--workers", "2"]),
]
PERFT = [
    ("perft-hanamikoji", ["perft", "--game", "hanamikoji", "--seed", "3", "--depth", "3",
                          "--json"]),
    ("perft-hanamikoji-divide", ["perft", "--game", "hanamikoji", "--seed", "5", "--depth", "2",
                                 "--divide", "--json"]),
    ("perft-maiko", ["perft", "--game", "maiko", "--seed", "3", "--depth", "2", "--json"]),
]
VOLATILE = {"seconds", "produced_by", "date"}
DURATION = re.compile(r"\b\d+(?:\.\d+)? s\b")


def _run(python: str, argv: list[str], cwd: pathlib.Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([python, "-m", "hanamikoji.engine", *argv], cwd=cwd,
                          capture_output=True, timeout=3600)


def _first_difference(a: bytes, b: bytes) -> str:
    for number, (left, right) in enumerate(zip(a.splitlines(), b.splitlines()), 1):
        if left != right:
            at = next((i for i, (x, y) in enumerate(zip(left, right)) if x != y),
                      min(len(left), len(right)))
            start = max(0, at - 30)
            return f"line {number}: {left[start:at + 50]!r} / {right[start:at + 50]!r}"
    return f"lengths {len(a)} / {len(b)} bytes"


def _stable(report: Any) -> Any:
    """The verify report without what names the run rather than the answer: its timings, as
    fields and inside notes ("341 z3 checks in 2.14 s")."""
    if isinstance(report, dict):
        return {key: _stable(value) for key, value in report.items() if key not in VOLATILE}
    if isinstance(report, list):
        return [_stable(item) for item in report]
    if isinstance(report, str):
        return DURATION.sub("<seconds> s", report)
    return report


class Comparison:
    def __init__(self, old: str, new: str, only: str | None, work: str | None) -> None:
        self.old, self.new, self.only = old, new, only
        self.differ = 0
        self.work = pathlib.Path(work or tempfile.mkdtemp(prefix="same-bytes-"))
        self.work.mkdir(parents=True, exist_ok=True)

    def wanted(self, name: str) -> bool:
        return self.only is None or self.only in name

    def say(self, name: str, a: bytes, b: bytes, size: int | None = None) -> None:
        if a == b:
            print(f"same       {name} ({len(a) if size is None else size} bytes)")
        else:
            self.differ += 1
            print(f"DIFFERENT  {name}: {_first_difference(a, b)}")

    def both(self, name: str, argv: list[str], stdout: bool = True
             ) -> tuple[pathlib.Path, pathlib.Path]:
        """Run ``argv`` with each interpreter in a folder of its own; compare the stdouts (if
        ``stdout``) and exits; return the two folders."""
        folders = []
        outputs = []
        for side, python in (("old", self.old), ("new", self.new)):
            folder = self.work / name / side
            folder.mkdir(parents=True, exist_ok=True)
            done = _run(python, argv, folder)
            outputs.append(done.stdout + f"\nexit {done.returncode}\n".encode())
            folders.append(folder)
        if stdout:
            self.say(f"{name}: stdout", outputs[0], outputs[1])
        return folders[0], folders[1]

    def files(self, name: str, old: pathlib.Path, new: pathlib.Path) -> None:
        match = filecmp.dircmp(old, new)
        if match.left_only or match.right_only:
            self.differ += 1
            print(f"DIFFERENT  {name}: only old {match.left_only}, only new {match.right_only}")
        for path in sorted(old.rglob("*")):
            if path.is_file():
                other = new / path.relative_to(old)
                if other.is_file():
                    self.say(f"{name}: {path.relative_to(old)}", path.read_bytes(),
                             other.read_bytes())


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", help="the old install's Python")
    parser.add_argument("new", nargs="?", default=sys.executable, help="the new one's (default: this)")
    parser.add_argument("--verify", action="store_true", help="compare verify --json too (minutes)")
    parser.add_argument("--only", metavar="WORD", help="only comparisons whose name holds WORD")
    parser.add_argument("--work", metavar="DIR", help="where the outputs go (default: a new "
                        "temporary folder, kept to look at)")
    args = parser.parse_args(argv)
    run = Comparison(args.old, args.new, args.only, args.work)
    for name, options in SIMULATIONS:
        if run.wanted(name):
            old, new = run.both(name, ["simulate", *options, "--records", "games.jsonl"],
                                stdout=False)  # a summary for a person, with its timing
            run.files(name, old, new)
            game = options[options.index("--game") + 1]
            for side in (old, new):  # validate the side's own records with the side's own tool
                python = run.old if side is old else run.new
                done = _run(python, ["validate", "--game", game, "--json", "games.jsonl"], side)
                (side / "validate.json").write_bytes(done.stdout)
            run.say(f"{name}: validate --json", (old / "validate.json").read_bytes(),
                    (new / "validate.json").read_bytes())
    for game in ("hanamikoji", "maiko"):
        if run.wanted(f"vectors-{game}"):
            old, new = run.both(f"vectors-{game}", ["vectors", "--game", game, "--out", "v"])
            run.files(f"vectors-{game}", old / "v", new / "v")
        if run.wanted(f"schema-{game}"):
            run.both(f"schema-{game}", ["schema", "--game", game])
    for name, options in PERFT:
        if run.wanted(name):
            run.both(name, options)
    if args.verify and run.wanted("verify"):
        reports = []
        for side, python in (("old", run.old), ("new", run.new)):
            done = _run(python, ["verify", "--json"], run.work)
            reports.append(json.dumps(_stable(json.loads(done.stdout)), indent=1,
                                      sort_keys=True).encode())
            (run.work / f"verify-{side}.json").write_bytes(reports[-1])
        run.say("verify --json: answers and witnesses", reports[0], reports[1])
    print(f"{run.differ} different; outputs kept in {run.work}")
    return 1 if run.differ else 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main(sys.argv[1:]))
