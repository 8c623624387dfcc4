"""``hanamikoji bench``: the performance figures, each measured as a user meets it, next to
its target.

Every figure that has a target is a whole process (``python -m hanamikoji.engine ...``), timed
from the outside, start-up included, best of ``--repeat`` runs. The growth figures (time per
game against rounds per game; validate time and peak memory against file size; perft time
against depth) show how the cost scales. The targets are :data:`TARGETS` (docs/performance.md
says why each is what it is); a figure that misses its target makes the command exit 1. No test
asserts a time: targets are checked here, in a benchmark, never in a unit test.

The bench is a table: :data:`SECTIONS` maps each section's name to a function of the
:class:`Context` that returns its rows, ``{"figure", "value", "unit", "target", ...}`` where
``target`` is a key of :data:`TARGETS` or None and any other key is a detail. A new figure is a
new row (and, if it has one, a new target), nothing else.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable

import attrs

from hanamikoji.runtime.base import EXIT_FAILED, EXIT_OK, UsageError

_MAXRSS = ("import resource, subprocess, sys, time; start = time.perf_counter(); "
           "code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode; "
           "print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, "
           "time.perf_counter() - start)")


@attrs.frozen
class Target:
    """What a figure should be, in ``unit``: at least ``bound`` (a rate) or, ``at_most``, at
    most (a time, a ratio). ``any_game``: it holds whatever ``--game``; else only for the
    registry's default game, the game the bound was set for (a rate or a perft time depends on
    how long the game's games are)."""

    bound: float
    unit: str
    at_most: bool = False
    any_game: bool = False

    def met(self, value: float) -> bool:
        return value <= self.bound if self.at_most else value >= self.bound

    def __str__(self) -> str:
        return f"{'≤' if self.at_most else '≥'} {self.bound:,g} {self.unit}"

    def to_json(self, name: str) -> dict[str, Any]:
        return {"name": name, "bound": self.bound, "unit": self.unit, "at_most": self.at_most,
                "any_game": self.any_game, "text": str(self)}


#: Every target, in one place; docs/performance.md has them with why each is what it is (a
#: test checks that its table says these). A row names its target by key.
TARGETS: dict[str, Target] = {
    "simulate": Target(3000, "games/s"),
    "validate": Target(2500, "records/s"),
    "validate-memory": Target(1.25, "×", at_most=True, any_game=True),
    "perft": Target(2, "s", at_most=True),
    "query": Target(10, "s", at_most=True, any_game=True),
    "verify": Target(120, "s", at_most=True, any_game=True),
    "properties": Target(300, "s", at_most=True, any_game=True),
    "workers": Target(1.7, "×", any_game=True),
    "workers-share": Target(0.85, "of the ceiling", any_game=True),
    "dask": Target(1.5, "×", any_game=True),
    "startup-version": Target(30, "ms", at_most=True, any_game=True),
    "startup-validate": Target(50, "ms", at_most=True),
    "diff-batch": Target(2, "×", any_game=True),
    "diff-speedup": Target(5, "×", any_game=True),
    "diff-harness": Target(1, "×", at_most=True, any_game=True),
    "simulate-plain": Target(2, "×", any_game=True),
    "validate-plain": Target(2, "×", any_game=True),
}


@attrs.frozen
class Context:
    """What every section may use: runs per figure, a scratch folder, the validate file sizes,
    the checkout the property suite is run from, the game, and the clock that times what this
    process times (a test gives a fake one)."""

    repeat: int
    scratch: pathlib.Path
    sizes: tuple[int, ...]
    root: pathlib.Path
    game: str | None = None
    clock: Callable[[], float] = time.perf_counter
    #: Games of the campaign run on a two-worker Dask cluster (``--campaign-games``).
    campaign_games: int = 100_000
    #: The interpreter whose install is measured (``--baseline``: another install's).
    python: str = sys.executable

    @property
    def baseline(self) -> bool:
        """Whether this is the run of another install (``--baseline``)."""
        return self.python != sys.executable


def _command(*args: str, python: str = sys.executable) -> list[str]:
    return [python, "-m", "hanamikoji.engine", *args]


def _game(ctx: Context) -> tuple[str, ...]:
    """``--game NAME`` when the bench is of a game other than the default."""
    return () if ctx.game is None else ("--game", ctx.game)


def _timed(ctx: Context, argv: list[str], repeat: int | None = None,
           codes: tuple[int, ...] = (0, 1)) -> tuple[float, str]:
    """Best wall time of ``repeat`` runs of ``argv`` (default: ``ctx.repeat``), and its
    standard output; an exit code not in ``codes`` is an error (1 is a verdict of a check)."""
    best, out = float("inf"), ""
    for _ in range(ctx.repeat if repeat is None else repeat):
        start = ctx.clock()
        done = subprocess.run(argv, capture_output=True, text=True)
        seconds = ctx.clock() - start
        if done.returncode not in codes:
            raise RuntimeError(f"{' '.join(argv[2:])} failed: {done.stderr.strip()[:200]}")
        if seconds < best:
            best, out = seconds, done.stdout
    return best, out


def _interleaved(ctx: Context, runs: dict[str, list[str]],
                 cpu: dict[str, float] | None = None) -> dict[str, float]:
    """The best wall time of each command of ``runs`` over ``ctx.repeat`` rounds, each round
    running every command once in turn: on a shared machine a burst of load then weighs on
    all of them alike, not on whichever ran during it. ``cpu``, if given, is filled with the
    CPU time (user and system) of each command's best run, with the processes it started and
    waited for."""
    import resource

    best = dict.fromkeys(runs, float("inf"))
    for _ in range(ctx.repeat):
        for label, argv in runs.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            seconds = _timed(ctx, argv, repeat=1)[0]
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if seconds < best[label]:
                best[label] = seconds
                if cpu is not None:
                    cpu[label] = (after.ru_utime - before.ru_utime
                                  + after.ru_stime - before.ru_stime)
    return best


def _peak_memory(argv: list[str]) -> tuple[float, float]:
    """Wall seconds and peak resident memory (MiB) of one run of ``argv``, measured by a fresh
    parent process so that nothing else counts towards the peak."""
    done = subprocess.run([sys.executable, "-c", _MAXRSS, *argv], capture_output=True, text=True)
    code, kib, seconds = done.stdout.split()
    if code not in ("0", "1"):
        raise RuntimeError(f"{' '.join(argv[2:])} exited {code}")
    return float(seconds), int(kib) / 1024


def bench_simulate(ctx: Context, games: int = 3000) -> list[dict[str, Any]]:
    rows = []
    for workers in (1, os.cpu_count() or 1):
        seconds, _ = _timed(ctx, _command("simulate", *_game(ctx), "--games", str(games),
                                          "--seed", "0", "--workers", str(workers),
                                          python=ctx.python))
        rows.append({"figure": f"simulate --games {games} --workers {workers}",
                     "value": round(games / seconds, 1), "unit": "games/s (whole process)",
                     "target": "simulate" if workers == 1 else None,
                     "seconds": round(seconds, 3)})
        if workers == 1 and (os.cpu_count() or 1) == 1:
            break
    return rows


def bench_rounds(ctx: Context, games: int = 3000) -> list[dict[str, Any]]:
    """Time per game against its length in the game's unit (in process, after a warm-up)."""
    from hanamikoji.engine.core.registry import get
    from hanamikoji.engine.core.seeded import play_game

    game = get(ctx.game)
    config = game.configure()
    for index in range(500):
        play_game(game, config, 99, index)
    by_length: dict[int, list[float]] = {}
    unit = game.length_unit
    for index in range(games):
        start = ctx.clock()
        state = play_game(game, config, 1, index)
        unit, length = game.length(state)
        by_length.setdefault(length, []).append(ctx.clock() - start)
    return [{"figure": f"games of {length} {unit}", "value": round(statistics.mean(times) * 1e6),
             "unit": "µs per game", "target": None, "games": len(times)}
            for length, times in sorted(by_length.items()) if len(times) >= 5]


def _records_file(directory: pathlib.Path, count: int, base: pathlib.Path) -> pathlib.Path:
    """A JSON Lines file of ``count`` records, made by repeating the 1,000 of ``base``."""
    path = directory / f"records-{count}.jsonl"
    lines = base.read_bytes().splitlines(keepends=True)
    with path.open("wb") as out:
        for index in range(count):
            out.write(lines[index % len(lines)])
    return path


def bench_validate(ctx: Context) -> list[dict[str, Any]]:
    base = ctx.scratch / "records-base.jsonl"
    done = subprocess.run(_command("simulate", *_game(ctx), "--games", "1000", "--seed", "0",
                                   "--records", str(base), python=ctx.python),
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"simulate failed: {done.stderr.strip()}")
    rows = []
    peaks = []
    for count in ctx.sizes:
        path = _records_file(ctx.scratch, count, base)
        argv = _command("validate", *_game(ctx), str(path), "--json", python=ctx.python)
        seconds, memory = _peak_memory(argv)
        peaks.append(memory)
        if count <= 10_000:  # cheap: timed apart, by the bench's clock, best of --repeat
            seconds = _timed(ctx, argv)[0]
        rows.append({"figure": f"validate {count:,} records",
                     "value": round(count / seconds, 1), "unit": "records/s (whole process)",
                     "target": "validate" if count == 1000 else None,
                     "seconds": round(seconds, 3), "peak_mib": round(memory, 1),
                     "megabytes": round(path.stat().st_size / 1e6, 1)})
        path.unlink()
    if len(peaks) > 1:
        rows.append({"figure": f"validate peak memory, {ctx.sizes[0]:,} → {ctx.sizes[-1]:,} "
                               "records", "value": round(peaks[-1] / peaks[0], 2),
                     "unit": f"× the peak of {ctx.sizes[0]:,}", "target": "validate-memory"})
    return rows


def _perft_depths(ctx: Context) -> tuple[int, ...]:
    from hanamikoji.engine.core.registry import get
    from hanamikoji.oracle.core.perft import hooks as perft_hooks

    limit = perft_hooks(get(ctx.game)).max_depth()
    deepest = limit[0] if limit is not None else 4
    return tuple(sorted({max(1, deepest // 3), max(1, 2 * deepest // 3), deepest}))


def bench_perft(ctx: Context, seeds: tuple[int, ...] = (0, 1, 2)) -> list[dict[str, Any]]:
    rows = []
    depths = _perft_depths(ctx)
    for seed in seeds:
        for depth in depths:
            seconds, out = _timed(ctx, _command("perft", *_game(ctx), "--seed", str(seed),
                                                "--depth", str(depth), "--json"))
            leaves = json.loads(out)["depths"][str(depth)]
            rows.append({"figure": f"perft --seed {seed} --depth {depth}",
                         "value": round(seconds, 3), "unit": "s (whole process)",
                         "target": "perft" if depth == depths[-1] else None, "leaves": leaves})
    return rows


def bench_perft_growth(ctx: Context, seed: int = 0, naive_depth: int = 4) -> list[dict[str, Any]]:
    """perft time against depth, in process: the game's count (transposition-aware where the
    game offers one), and the core's plain walk of legal_actions/apply (which visits every node)
    for contrast."""
    from hanamikoji.oracle.core.perft import perft, seeded_start, walk
    from hanamikoji.engine.core.registry import get

    game = get(ctx.game)
    state = seeded_start(game, game.configure(), seed)
    rows = []
    for depth in range(1, _perft_depths(ctx)[-1] + 1):
        start = ctx.clock()
        leaves = perft(game, state, depth)[depth]
        seconds = ctx.clock() - start
        row = {"figure": f"perft depth {depth} (seed {seed}, in process)",
               "value": round(seconds * 1000, 1), "unit": "ms", "target": None, "leaves": leaves}
        if depth <= naive_depth:
            start = ctx.clock()
            assert walk(game, state, depth)[depth] == leaves
            row["plain_walk_ms"] = round((ctx.clock() - start) * 1000, 1)
        rows.append(row)
    return rows


def bench_queries(ctx: Context) -> list[dict[str, Any]]:
    done = subprocess.run(_command("query", *_game(ctx), "--list", "--json"), capture_output=True,
                          text=True)
    if done.returncode != 0:
        raise RuntimeError(f"query --list failed: {done.stderr.strip()}")
    names = [q["name"] for q in json.loads(done.stdout)]
    rows = []
    for name in names:
        seconds, out = _timed(ctx, _command("query", *_game(ctx), name, "--json"))
        answer = json.loads(out)
        rows.append({"figure": f"query {name}", "value": round(seconds, 2),
                     "unit": "s (whole process)", "target": "query",
                     "solver_seconds": answer.get("seconds")})
    seconds, _ = _timed(ctx, _command("verify", *_game(ctx)), 1)
    rows.append({"figure": "verify", "value": round(seconds, 1), "unit": "s (whole process)",
                 "target": "verify"})
    return rows


def bench_properties(ctx: Context) -> list[dict[str, Any]]:
    import importlib.util

    if not (ctx.root / "tests" / "properties").is_dir() \
            or importlib.util.find_spec("pytest") is None:
        raise RuntimeError("run it in a checkout with the test extra (pip install -e '.[test]')")
    env = {**os.environ, "HYPOTHESIS_PROFILE": "ci"}
    start = ctx.clock()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(ctx.root / "tests" / "properties")], capture_output=True, text=True, env=env)
    seconds = ctx.clock() - start
    if done.returncode != 0:
        raise RuntimeError("the property suite failed; run pytest tests/properties to see why")
    return [{"figure": "pytest tests/properties (ci profile)", "value": round(seconds, 1),
             "unit": "s (whole process)", "target": "properties"}]


#: The command's package, run as ``python -m`` (the package alone: ``--version`` imports nothing
#: else, where ``python -m hanamikoji.engine`` would import the engine first).
TOOLKIT = __name__.split(".")[0]


def bench_startup(ctx: Context, runs: int = 10) -> list[dict[str, Any]]:
    """How long the command takes to answer what needs next to nothing: ``--version``, and
    ``validate`` of one record (whole processes, best of ``runs`` after a warm-up)."""
    record = ctx.scratch / "one-record.jsonl"
    if not record.exists():
        done = subprocess.run(_command("simulate", *_game(ctx), "--games", "1", "--records",
                                       str(record)), capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"simulate failed: {done.stderr.strip()[:200]}")
    rows = []
    module = command_module(ctx.python)
    for figure, argv, target in (
            (f"python -m {TOOLKIT} --version", [ctx.python, "-m", module, "--version"],
             "startup-version"),
            (f"python -m {TOOLKIT} validate (one record)",
             [ctx.python, "-m", module, "validate", *_game(ctx), str(record)],
             "startup-validate")):
        # warm: the byte code is compiled, the files are cached; both answers are exit 0 (a
        # command that failed to start is timed as nothing, never as fast)
        _timed(ctx, argv, 1, codes=(0,))
        seconds, _ = _timed(ctx, argv, max(runs, ctx.repeat), codes=(0,))
        rows.append({"figure": figure, "value": round(seconds * 1000, 1),
                     "unit": "ms (whole process)", "target": target})
    seconds, _ = _timed(ctx, [ctx.python, "-S", "-c", "pass"], max(runs, ctx.repeat))
    rows.append({"figure": "python -S -c pass (the interpreter alone)",
                 "value": round(seconds * 1000, 1), "unit": "ms (whole process)",
                 "target": None})
    return rows


#: The reference adapter's module, newest name first: installs from before the oracle had a room
#: of its own have only the second (newer ones keep it, as a shim of the first).
ADAPTER_MODULES = ("hanamikoji.oracle.core.adapter", "hanamikoji.engine.core.adapter")
#: The command's ``__main__`` modules, newest first.
COMMAND_MODULES = (f"{TOOLKIT}.__main__", f"{TOOLKIT}.engine.__main__")
_FIND_ADAPTER = ("import importlib.util, sys\n"
                 "for name in sys.argv[1:]:\n"
                 "    try:\n"
                 "        found = importlib.util.find_spec(name) is not None\n"
                 "    except ImportError:\n"
                 "        found = False\n"
                 "    if found:\n"
                 "        print(name)\n"
                 "        break\n")


def _first_module(python: str, names: tuple[str, ...], what: str) -> str:
    """The first of ``names`` that the install of ``python`` has (asked of that interpreter:
    another install, ``--baseline``, may be older than this one)."""
    if python == sys.executable:
        return names[0]
    done = subprocess.run([python, "-c", _FIND_ADAPTER, *names], capture_output=True,
                          text=True)
    name = done.stdout.strip()
    if done.returncode != 0 or name not in names:
        raise RuntimeError(f"{python} has none of the {what} {', '.join(names)}")
    return name


def adapter_module(python: str) -> str:
    """The first of :data:`ADAPTER_MODULES` that the install of ``python`` has."""
    return _first_module(python, ADAPTER_MODULES, "adapter modules")


def command_module(python: str) -> str:
    """The module ``python -m`` runs as the command in the install of ``python``: the package
    itself, or in an install from before it had a ``__main__`` of its own (40ea841),
    ``hanamikoji.engine``."""
    found = _first_module(python, COMMAND_MODULES, "command modules")
    return found.removesuffix(".__main__")


def bench_diff(ctx: Context) -> list[dict[str, Any]]:
    """``diff`` against the reference adapter, games per second (whole process): as the
    adapter declares (protocol 3 asks each step in one line), and asked request by request
    (``--protocol 2``), with the ratio of the two."""
    from hanamikoji.engine.core.registry import DEFAULT, get

    games = 40 if get(ctx.game).name == DEFAULT else 10  # a game of the others lasts longer
    adapter = [ctx.python, "-m", adapter_module(ctx.python)]
    variants = [("", adapter)]
    if not ctx.baseline:  # another install's adapter may not take --protocol
        variants.append((", --protocol 2", [*adapter, "--protocol", "2"]))
    rows = []
    rates = []
    for label, argv in variants:
        seconds, out = _timed(ctx, _command("diff", *_game(ctx), "--games", str(games),
                                            "--seed", "0", "--timeout", "600", "--json", "--",
                                            *argv, python=ctx.python))
        report = json.loads(out)
        if report["status"] != "agree":
            raise RuntimeError(f"diff found a divergence in the reference: {out[:200]}")
        rates.append(games / seconds)
        rows.append({"figure": f"diff --games {games}, the reference adapter{label}",
                     "value": round(games / seconds, 2), "unit": "games/s (whole process)",
                     "target": None, "seconds": round(seconds, 2)})
    if len(rates) == 2:
        rows.append({"figure": "diff: one batch per step against request by request",
                     "value": round(rates[0] / rates[1], 2), "unit": "×",
                     "target": "diff-batch"})
    return rows


#: ``diff-speed``: games of the long run, and the two runs whose difference gives the CPU of a
#: game, for the default game and for another (whose games last hundreds of decisions).
_DIFF_SPEED_GAMES = {True: (300, 20, 220), False: (20, 2, 42)}
#: Runs the command after ``sys.argv[1]`` (the adapter), then writes the CPU time it used to
#: ``sys.argv[1]`` and its process number: each adapter process of a diff, apart.
_ADAPTER_CPU = ("import os, resource, subprocess, sys\n"
                "code = subprocess.call(sys.argv[2:])\n"
                "used = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
                "with open(f'{sys.argv[1]}.{os.getpid()}', 'w') as out:\n"
                "    out.write(repr(used.ru_utime + used.ru_stime))\n"
                "sys.exit(code)\n")


def _diff_cpu(ctx: Context, games: int, adapter: list[str]) -> tuple[float, float]:
    """CPU seconds of ``diff --games N`` against ``adapter`` outside the adapter processes
    (the harness, and what starts them) and in them, each the least of ``ctx.repeat`` runs
    (as every CPU figure of the bench is its best run's: the harness's and the adapter's are
    two processes, each slowed apart by what else the machine does)."""
    import resource

    harness = engine = float("inf")
    for run in range(ctx.repeat):
        prefix = ctx.scratch / f"adapter-cpu-{games}-{run}"
        argv = _command("diff", *_game(ctx), "--games", str(games), "--seed", "0", "--timeout",
                        "600", "--json", "--", ctx.python, "-c", _ADAPTER_CPU, str(prefix),
                        *adapter, python=ctx.python)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        _timed(ctx, argv, repeat=1)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        total = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        files = list(ctx.scratch.glob(prefix.name + ".*"))
        if not files:
            raise RuntimeError("the adapter's CPU time was not written")
        used = sum(float(f.read_text()) for f in files)
        for f in files:
            f.unlink()
        harness, engine = min(harness, total - used), min(engine, used)
    return harness, engine


#: ``diff-speed``'s campaign rate: the games of its shorter and its longer run, whose
#: difference in time is what the games between them cost (start-up left out), for the default
#: game and for another.
_DIFF_RATE_GAMES = {True: (100, 600), False: (2, 22)}


def bench_diff_speed(ctx: Context) -> list[dict[str, Any]]:
    """``diff`` against the reference adapter, one worker: games per second of a whole run of
    a few hundred games (start-up included); games per second at campaign length, from two
    runs of different lengths (start-up and the seeded-chance check, paid once a campaign,
    cancel out; with ``--baseline``, also over the baseline's: the target); and the CPU of one
    game in the harness against that in the adapter, by the same difference."""
    from hanamikoji.engine.core.registry import DEFAULT, get

    default = get(ctx.game).name == DEFAULT
    long, short, longer = _DIFF_SPEED_GAMES[default]
    adapter = [ctx.python, "-m", adapter_module(ctx.python)]

    def diff(games: int) -> list[str]:
        return _command("diff", *_game(ctx), "--games", str(games), "--seed", "0", "--timeout",
                        "600", "--json", "--", *adapter, python=ctx.python)

    seconds, out = _timed(ctx, diff(long))
    if json.loads(out)["status"] != "agree":
        raise RuntimeError(f"diff found a divergence in the reference: {out[:200]}")
    rows: list[dict[str, Any]] = [{
        "figure": f"diff --games {long}, the reference adapter, one worker",
        "value": round(long / seconds, 2), "unit": "games/s (whole process)", "target": None,
        "seconds": round(seconds, 2)}]
    first, last = _DIFF_RATE_GAMES[default]
    timed = _interleaved(ctx, {"first": diff(first), "last": diff(last)})
    rate = (last - first) / (timed["last"] - timed["first"])
    rows.append({
        "figure": f"diff at campaign length, the reference adapter, one worker: games "
                  f"{first + 1} to {last}",
        "value": round(rate, 2), "unit": "games/s (start-up left out)", "target": None,
        "seconds": f"{timed['last']:.2f} - {timed['first']:.2f}",
        "over_baseline": "diff-speedup"})
    (harness_1, adapter_1), (harness_2, adapter_2) = (_diff_cpu(ctx, short, adapter),
                                                      _diff_cpu(ctx, longer, adapter))
    games = longer - short
    harness = (harness_2 - harness_1) / games
    engine = (adapter_2 - adapter_1) / games
    rows.append({"figure": "diff: the harness's CPU per game over the reference adapter's",
                 "value": round(harness / engine, 2) if engine > 0 else None, "unit": "×",
                 "target": "diff-harness", "harness_ms": round(harness * 1000, 2),
                 "adapter_ms": round(engine * 1000, 2),
                 "games": f"{longer} - {short}"})
    return rows


#: Games simulated, and records validated, against plain code: the default game's, and another
#: game's (whose games last some hundred times as many decisions).
_PLAIN_SIZES = (20_000, 2_000)


def bench_plain(ctx: Context) -> list[dict[str, Any]]:
    """``simulate`` and ``validate`` against plain mutable code of the same game's rules
    (``dev/plain_GAME.py`` of the checkout: dicts and lists changed in place, ``json.loads``,
    no caching), the yardstick issue 36 sets: how many times the yardstick's CPU time the
    command's is, whole processes, the runs interleaved, each the CPU of its best run. The
    records are the command's own simulate's, the same file for both; the yardstick runs under
    this interpreter, whichever install is measured (``--baseline``)."""
    from hanamikoji.engine.core.registry import DEFAULT, get

    name = get(ctx.game).name
    plain = ctx.root / "dev" / f"plain_{name}.py"
    if not plain.is_file():
        raise RuntimeError(f"run it in a checkout (it needs dev/plain_{name}.py)")
    count = _PLAIN_SIZES[name != DEFAULT]
    records = ctx.scratch / f"plain-{count}.jsonl"
    done = subprocess.run(_command("simulate", *_game(ctx), "--games", str(count), "--seed",
                                   "0", "--records", str(records), python=ctx.python),
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"simulate failed: {done.stderr.strip()[:200]}")
    rows = []
    for command, plain_argv, argv, unit in (
            ("simulate", ["simulate", str(count), "0"],
             ["simulate", *_game(ctx), "--games", str(count), "--seed", "0"], "games"),
            ("validate", ["validate", str(records)],
             ["validate", *_game(ctx), "--json", str(records)], "records")):
        cpu: dict[str, float] = {}
        _interleaved(ctx, {"plain": [sys.executable, str(plain), *plain_argv],
                           "toolkit": _command(*argv, python=ctx.python)}, cpu)
        rows.append({"figure": f"{command} of {count:,} {unit}: plain code's CPU over the "
                               "command's", "value": round(cpu["plain"] / cpu["toolkit"], 2),
                     "unit": "×", "target": f"{command}-plain",
                     "cpu_s": round(cpu["toolkit"], 3), "plain_cpu_s": round(cpu["plain"], 3)})
    records.unlink()
    return rows


def bench_integrations(ctx: Context) -> list[dict[str, Any]]:
    """Decisions per second through each framework bridge (docs/integrations.md), or a "not
    installed" row for a bridge whose extra is missing; imported only for this section."""
    from hanamikoji.integrations.bench import measure

    return measure(ctx.game)


#: The campaign sizes of the default game and of the others (whose games last longer): games
#: simulated (and records validated), games diffed, shard size of the diff. Big enough that the
#: start of the processes weighs little (the fork server and its workers take some 0.3 s to
#: start, and each diff shard its adapter: 50,000 Hanamikoji games now take some 4 s in one
#: process, a tenth of which two workers spent starting; 120 diffed games, 3.4 s), small enough
#: for a bench.
_CAMPAIGN_SIZES = ((200000, 240, 20), (4000, 48, 4))


def _speedup(rows: list[dict[str, Any]], what: str, unit: str, amount: int,
             timed: dict[str, float], target: str | None) -> None:
    """A rate per worker count, then the ratio of two workers to one, judged by ``target``."""
    for label, seconds in timed.items():
        rows.append({"figure": f"{what} {label}", "value": round(amount / seconds, 1),
                     "unit": unit, "target": None, "seconds": round(seconds, 3)})
    one, two = list(timed.values())
    rows.append({"figure": f"{what}: {list(timed)[1]} over {list(timed)[0]}",
                 "value": round(one / two, 2), "unit": "×", "target": target})


def bench_campaigns(ctx: Context) -> list[dict[str, Any]]:
    """``--workers 2`` against one worker for simulate, validate and diff on both games, and
    a campaign on a two-worker local Dask cluster against one process."""
    rows: list[dict[str, Any]] = []
    from hanamikoji.engine.core.registry import DEFAULT, available

    for game in available():
        games, diffed, shard = _CAMPAIGN_SIZES[game != DEFAULT]
        records = ctx.scratch / f"campaign-{game}.jsonl"
        simulate = _command("simulate", "--game", game, "--games", str(games), "--seed", "0")
        subprocess.run([*simulate, "--records", str(records)], capture_output=True, check=True)
        _speedup(rows, f"{game}: simulate --games {games}", "games/s", games, _interleaved(
            ctx, {f"--workers {w}": [*simulate, "--workers", str(w)] for w in (1, 2)}),
            "workers")
        validate = _command("validate", str(records), "--shard-size", str(max(1, games // 20)))
        _speedup(rows, f"{game}: validate {games:,} records", "records/s", games, _interleaved(
            ctx, {f"--workers {w}": [*validate, "--workers", str(w)] for w in (1, 2)}),
            "workers")
        rows.extend(_diff_campaign(ctx, game, diffed, shard))
    rows.extend(_bench_dask(ctx))
    return rows


def _diff_campaign(ctx: Context, game: str, games: int, shard: int) -> list[dict[str, Any]]:
    """``diff --workers 2`` against one worker, the same sharded games, with the reference
    adapter asked request by request (``--protocol 2``) and one batch per step (as it
    declares). Request by request, the harness and the adapter take turns, so one worker keeps
    one core busy and two workers should give nearly two: that ratio is judged by ``workers``.
    A batch per step lets them work at once, so one worker already keeps more than one core
    busy (its CPU time over its wall time) and two workers can give at most the cores over
    that: its ratio is judged as a share of that ceiling (``workers-share``, 1.7 of 2 as for
    ``workers``)."""
    diff = _command("diff", "--game", game, "--games", str(games), "--shard-size", str(shard))
    adapter = ["--", sys.executable, "-m", "hanamikoji.oracle.core.adapter"]
    rows: list[dict[str, Any]] = []
    what = f"{game}: diff --games {games}"
    _speedup(rows, f"{what}, request by request (--protocol 2)", "games/s", games, _interleaved(
        ctx, {f"--workers {w}": [*diff, "--workers", str(w), *adapter, "--protocol", "2"]
              for w in (1, 2)}), "workers")
    cpu: dict[str, float] = {}
    timed = _interleaved(ctx, {f"--workers {w}": [*diff, "--workers", str(w), *adapter]
                               for w in (1, 2)}, cpu)
    _speedup(rows, f"{what}, one batch per step", "games/s", games, timed, None)
    busy = cpu["--workers 1"] / timed["--workers 1"]
    cores = os.cpu_count() or 1
    ceiling = min(2.0, cores / max(busy, 1.0))
    rows.append({"figure": f"{what}, one batch per step: cores one worker keeps busy",
                 "value": round(busy, 2), "unit": "cores (CPU time over wall time)",
                 "target": None})
    rows.append({"figure": f"{what}, one batch per step: --workers 2 over --workers 1, as a "
                           f"share of the {ceiling:.2f} × that {cores} cores allow",
                 "value": round(timed["--workers 1"] / timed["--workers 2"] / ceiling, 2),
                 "unit": "of the ceiling", "target": "workers-share"})
    return rows


#: The tournament the issue's figure is of: four bots (three random, one heuristic) over 200
#: deals per pair, 2,400 games of the default game.
_TOURNAMENT = ("random", "random", "heuristic", "random", "--deals", "200")


def bench_tournament(ctx: Context) -> list[dict[str, Any]]:
    """The tournament campaign: ``tournament`` of :data:`_TOURNAMENT` with one and two
    workers, games per second, the runs interleaved (the default game's built-in bots; no
    target for the ratio: the figures are docs/tournament.md's)."""
    from hanamikoji.engine.core.registry import DEFAULT, get
    from hanamikoji.oracle.core.tournament import Tournament, bot_specs

    *bots, _, deals = _TOURNAMENT
    games = len(Tournament(DEFAULT, (), bot_specs(get(DEFAULT), bots), int(deals),
                           0).schedule())
    tournament = _command("tournament", *_TOURNAMENT, "--seed", "0")
    rows: list[dict[str, Any]] = []
    _speedup(rows, f"{DEFAULT}: tournament {' '.join(_TOURNAMENT)}", "games/s", games,
             _interleaved(ctx, {f"--workers {w}": [*tournament, "--workers", str(w)]
                                for w in (1, 2)}), None)
    return rows


def _bench_dask(ctx: Context) -> list[dict[str, Any]]:
    """A simulate campaign of ``ctx.campaign_games`` games on a two-worker local cluster
    (started beforehand, as an existing cluster would be) against one process."""
    try:
        import distributed
    except ImportError:
        return [{"figure": "dask", "value": None, "target": None,
                 "unit": "not measured: Dask is not installed (pip install '.[dask]' in a clone of this toolkit)"}]
    games = ctx.campaign_games
    simulate = _command("simulate", *_game(ctx), "--games", str(games), "--seed", "0",
                        "--shard-size", str(max(100, games // 40)))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        timed = _interleaved(ctx, {
            "in one process": simulate,
            "on a 2-worker local Dask cluster": [*simulate, "--scheduler",
                                                 cluster.scheduler_address]})
    rows: list[dict[str, Any]] = []
    _speedup(rows, f"simulate --games {games:,}", "games/s", games, timed, "dask")
    return rows


SECTIONS: dict[str, Callable[..., list[dict[str, Any]]]] = {
    "simulate": bench_simulate, "rounds": bench_rounds, "validate": bench_validate,
    "perft": bench_perft, "perft-growth": bench_perft_growth, "queries": bench_queries,
    "properties": bench_properties, "integrations": bench_integrations,
    "startup": bench_startup, "diff": bench_diff, "diff-speed": bench_diff_speed,
    "campaigns": bench_campaigns, "tournament": bench_tournament, "plain": bench_plain,
}
#: The sections that time other processes only, which ``--baseline PYTHON`` runs again under
#: another interpreter (another install) for a figure old against new in the same run.
BASELINE_SECTIONS = ("simulate", "validate", "startup", "diff", "diff-speed", "plain")


def _against(rows: list[dict[str, Any]], name: str, ctx: Context) -> list[dict[str, Any]]:
    """``rows`` with the same figures measured under ``ctx.python`` (``--baseline``): each
    row gains ``baseline`` (that value) and ``speedup`` (how many times faster this install
    is: new/old for a rate or a figure with a least bound, old/new for a time)."""
    try:
        old = {row["figure"]: row["value"] for row in SECTIONS[name](ctx)}
    except (RuntimeError, OSError, ValueError, KeyError) as error:
        return [{**row, "baseline": f"not measured: {error}"} for row in rows]
    out = []
    for row in rows:
        then, now = old.get(row["figure"]), row["value"]
        if then is not None and now:
            target = TARGETS.get(row.get("target") or "")
            # More is better for a rate, and for a figure whose target is a least bound.
            rate = "/s" in row["unit"] if target is None else not target.at_most
            row = {**row, "baseline": then,
                   "speedup": round(now / then if rate else then / now, 2)}
        out.append(row)
    return out


def _over_baseline(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A row per figure that names a target for its ``speedup`` (``over_baseline``): that
    speedup as the figure, judged against it."""
    return [{"figure": f"{row['figure']}: over the baseline", "value": row["speedup"],
             "unit": "× the baseline's", "target": row["over_baseline"]}
            for row in rows if row.get("over_baseline") and "speedup" in row]


def judged(row: dict[str, Any], default_game: bool) -> dict[str, Any]:
    """``row`` with its target resolved, ``{"name", "bound", "unit", "at_most", "any_game",
    "text"}`` or None (no target, or one set for the default game only), and ``met``: True,
    False, or None when there is no target or no figure."""
    name = row.get("target") or None
    if name is not None and name not in TARGETS:
        raise ValueError(f"the figure {row['figure']!r} names no target of TARGETS: {name!r}")
    target = None if name is None else TARGETS[name]
    if target is not None and not (target.any_game or default_game):
        target = None
    met = None if target is None or row["value"] is None else target.met(row["value"])
    return {**row, "target": None if target is None or name is None else target.to_json(name),
            "met": met}


def bench(args: argparse.Namespace, *, clock: Callable[[], float] = time.perf_counter) -> int:
    """``hanamikoji bench``: exit 0 when every figure with a target meets it, 1 when one
    misses it. ``clock`` times what this process times (a test passes a fake one)."""
    from hanamikoji.engine.core.registry import DEFAULT, get

    chosen = args.only or list(SECTIONS)
    unknown = [name for name in chosen if name not in SECTIONS]
    if unknown:
        raise UsageError(f"unknown section {unknown[0]!r}; expected some of: {', '.join(SECTIONS)}")
    game = getattr(args, "game", None)
    default_game = get(game).name == DEFAULT
    sizes = (1_000, 10_000, 100_000) + ((1_000_000,) if args.large else ())
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="hanamikoji-bench-") as tmp:
        ctx = Context(args.repeat, pathlib.Path(tmp), sizes, pathlib.Path.cwd(), game, clock,
                      getattr(args, "campaign_games", 100_000))
        for name in chosen:
            print(f"bench: {name} ...", file=sys.stderr, flush=True)
            try:
                part = SECTIONS[name](ctx)
            except (RuntimeError, OSError, ValueError, KeyError) as error:
                part = [{"figure": name, "value": None, "unit": f"not measured: {error}",
                         "target": None}]
            baseline = getattr(args, "baseline", None)
            if baseline and name in BASELINE_SECTIONS:
                part = _against(part, name, attrs.evolve(ctx, python=baseline))
                part += _over_baseline(part)
            rows.extend(judged({**row, "section": name}, default_game) for row in part)
    missed = [row for row in rows if row["met"] is False]
    met = sum(row["met"] is True for row in rows)
    code = EXIT_FAILED if missed else EXIT_OK
    if args.json:
        print(json.dumps({"python": sys.version.split()[0], "cpus": os.cpu_count(),
                          "game": get(game).name, "figures": rows, "targets_met": met,
                          "targets_missed": len(missed)}, ensure_ascii=False))
        return code
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=f"hanamikoji bench · Python {sys.version.split()[0]} · "
                        f"{os.cpu_count()} cores · best of {args.repeat}")
    shown = ("section", "figure", "value", "unit", "target", "met")
    for column in shown + ("detail",):
        table.add_column(column, justify="right" if column == "value" else "left")
    for row in rows:
        detail = ", ".join(f"{k}={v}" for k, v in row.items() if k not in shown)
        verdict = "" if row["met"] is None else "met" if row["met"] else "missed"
        # Figures are plain text: "pip install '.[openspiel]'" is not rich markup.
        table.add_row(*map(escape, (row["section"], row["figure"],
                                    "-" if row["value"] is None else str(row["value"]),
                                    row["unit"],
                                    "" if row["target"] is None else row["target"]["text"],
                                    verdict, detail)))
    Console(width=max(120, shutil.get_terminal_size().columns)).print(table)
    print(f"targets: {met} met, {len(missed)} missed"
          + "".join(f"\nmissed: {row['figure']}: {row['value']} {row['unit']}, target "
                    f"{row['target']['text']}" for row in missed))
    return code
