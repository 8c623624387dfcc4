"""``hanamikoji bench``: the performance figures, each measured as a user meets it.

Every figure that has a target is a whole process (``python -m hanamikoji.engine ...``), timed
from the outside, start-up included, best of ``--repeat`` runs. The growth figures (time per
game against rounds per game; validate time and peak memory against file size; perft time
against depth) show how the cost scales. Nothing here asserts a time: it prints figures.
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

from .cli import EXIT_OK, UsageError

_MAXRSS = ("import resource, subprocess, sys, time; start = time.perf_counter(); "
           "code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode; "
           "print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, "
           "time.perf_counter() - start)")


@attrs.frozen
class Context:
    """What every section may use: runs per figure, a scratch folder, the validate file sizes,
    and the checkout the property suite is run from."""

    repeat: int
    scratch: pathlib.Path
    sizes: tuple[int, ...]
    root: pathlib.Path
    game: str | None = None


def _command(*args: str) -> list[str]:
    return [sys.executable, "-m", "hanamikoji.engine", *args]


def _game(ctx: Context) -> tuple[str, ...]:
    """``--game NAME`` when the bench is of a game other than the default."""
    return () if ctx.game is None else ("--game", ctx.game)


def _timed(argv: list[str], repeat: int, env: dict | None = None) -> tuple[float, str]:
    """Best wall time of ``repeat`` runs of ``argv``, and its standard output."""
    best, out = float("inf"), ""
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, text=True, env=env)
        seconds = time.perf_counter() - start
        if done.returncode not in (0, 1):
            raise RuntimeError(f"{' '.join(argv[2:])} failed: {done.stderr.strip()[:200]}")
        if seconds < best:
            best, out = seconds, done.stdout
    return best, out


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
        seconds, _ = _timed(_command("simulate", *_game(ctx), "--games", str(games), "--seed", "0",
                                     "--workers", str(workers)), ctx.repeat)
        rows.append({"figure": f"simulate --games {games} --workers {workers}",
                     "value": round(games / seconds, 1), "unit": "games/s (whole process)",
                     "target": "3000 games/s" if workers == 1 else "",
                     "seconds": round(seconds, 3)})
        if workers == 1 and (os.cpu_count() or 1) == 1:
            break
    return rows


def bench_rounds(ctx: Context, games: int = 3000) -> list[dict[str, Any]]:
    """Time per game against its length in the game's unit (in process, after a warm-up)."""
    from .registry import get
    from .simulate import play_game

    game = get(ctx.game)
    config = game.configure()
    for index in range(500):
        play_game(game, config, 99, index)
    by_length: dict[int, list[float]] = {}
    unit = game.length_unit
    for index in range(games):
        start = time.perf_counter()
        state = play_game(game, config, 1, index)
        unit, length = game.length(state)
        by_length.setdefault(length, []).append(time.perf_counter() - start)
    return [{"figure": f"games of {length} {unit}", "value": round(statistics.mean(times) * 1e6),
             "unit": "µs per game", "target": "", "games": len(times)}
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
                                   "--records",
                                   str(base)), capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"simulate failed: {done.stderr.strip()}")
    rows = []
    for count in ctx.sizes:
        path = _records_file(ctx.scratch, count, base)
        seconds, memory = _peak_memory(_command("validate", str(path), "--json"))
        if count <= 10_000 and ctx.repeat > 1:
            seconds = min(seconds,
                          _timed(_command("validate", str(path), "--json"), ctx.repeat - 1)[0])
        rows.append({"figure": f"validate {count:,} records",
                     "value": round(count / seconds, 1), "unit": "records/s (whole process)",
                     "target": "2500 records/s" if count == 1000 else "",
                     "seconds": round(seconds, 3), "peak_mib": round(memory, 1),
                     "megabytes": round(path.stat().st_size / 1e6, 1)})
        path.unlink()
    return rows


def _perft_depths(ctx: Context) -> tuple[int, ...]:
    from .registry import get

    limit = get(ctx.game).perft_max_depth()
    deepest = limit[0] if limit is not None else 4
    return tuple(sorted({max(1, deepest // 3), max(1, 2 * deepest // 3), deepest}))


def bench_perft(ctx: Context, seeds: tuple[int, ...] = (0, 1, 2)) -> list[dict[str, Any]]:
    rows = []
    depths = _perft_depths(ctx)
    for seed in seeds:
        for depth in depths:
            seconds, out = _timed(_command("perft", *_game(ctx), "--seed", str(seed),
                                           "--depth", str(depth), "--json"), ctx.repeat)
            leaves = json.loads(out)["depths"][str(depth)]
            rows.append({"figure": f"perft --seed {seed} --depth {depth}",
                         "value": round(seconds, 3), "unit": "s (whole process)",
                         "target": "< 2 s" if depth == depths[-1] else "", "leaves": leaves})
    return rows


def bench_perft_growth(ctx: Context, seed: int = 0, naive_depth: int = 4) -> list[dict[str, Any]]:
    """perft time against depth, in process: the game's count (transposition-aware where the
    game offers one), and the core's plain walk of legal_actions/apply (which visits every node)
    for contrast."""
    from .perft import perft, seeded_start, walk
    from .registry import get

    game = get(ctx.game)
    state = seeded_start(game, game.configure(), seed)
    rows = []
    for depth in range(1, _perft_depths(ctx)[-1] + 1):
        start = time.perf_counter()
        leaves = perft(game, state, depth)[depth]
        seconds = time.perf_counter() - start
        row = {"figure": f"perft depth {depth} (seed {seed}, in process)",
               "value": round(seconds * 1000, 1), "unit": "ms", "target": "", "leaves": leaves}
        if depth <= naive_depth:
            start = time.perf_counter()
            assert walk(game, state, depth)[depth] == leaves
            row["plain_walk_ms"] = round((time.perf_counter() - start) * 1000, 1)
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
        seconds, out = _timed(_command("query", *_game(ctx), name, "--json"), ctx.repeat)
        answer = json.loads(out)
        rows.append({"figure": f"query {name}", "value": round(seconds, 2),
                     "unit": "s (whole process)", "target": "< 10 s",
                     "solver_seconds": answer.get("seconds")})
    seconds, _ = _timed(_command("verify", *_game(ctx)), 1)
    rows.append({"figure": "verify", "value": round(seconds, 1), "unit": "s (whole process)",
                 "target": "< 120 s"})
    return rows


def bench_properties(ctx: Context) -> list[dict[str, Any]]:
    import importlib.util

    if not (ctx.root / "tests" / "properties").is_dir() \
            or importlib.util.find_spec("pytest") is None:
        raise RuntimeError("run it in a checkout with the test extra (pip install -e '.[test]')")
    env = {**os.environ, "HYPOTHESIS_PROFILE": "ci"}
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(ctx.root / "tests" / "properties")], capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError("the property suite failed; run pytest tests/properties to see why")
    return [{"figure": "pytest tests/properties (ci profile)", "value": round(seconds, 1),
             "unit": "s (whole process)", "target": "< 300 s"}]


def bench_integrations(ctx: Context) -> list[dict[str, Any]]:
    """Decisions per second through each framework bridge (docs/integrations.md), or a "not
    installed" row for a bridge whose extra is missing; imported only for this section."""
    from hanamikoji.integrations.bench import measure

    return measure(ctx.game)


SECTIONS: dict[str, Callable[..., list[dict[str, Any]]]] = {
    "simulate": bench_simulate, "rounds": bench_rounds, "validate": bench_validate,
    "perft": bench_perft, "perft-growth": bench_perft_growth, "queries": bench_queries,
    "properties": bench_properties, "integrations": bench_integrations,
}


def bench(args: argparse.Namespace) -> int:
    chosen = args.only or list(SECTIONS)
    unknown = [name for name in chosen if name not in SECTIONS]
    if unknown:
        raise UsageError(f"unknown section {unknown[0]!r}; expected some of: {', '.join(SECTIONS)}")
    sizes = (1_000, 10_000, 100_000) + ((1_000_000,) if args.large else ())
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="hanamikoji-bench-") as tmp:
        ctx = Context(args.repeat, pathlib.Path(tmp), sizes, pathlib.Path.cwd(),
                      getattr(args, "game", None))
        for name in chosen:
            print(f"bench: {name} ...", file=sys.stderr, flush=True)
            try:
                part = SECTIONS[name](ctx)
            except (RuntimeError, OSError, ValueError, KeyError) as error:
                part = [{"figure": name, "value": None, "unit": f"not measured: {error}",
                         "target": ""}]
            for row in part:
                row["section"] = name
            rows.extend(part)
    if args.json:
        print(json.dumps({"python": sys.version.split()[0], "cpus": os.cpu_count(),
                          "figures": rows}, ensure_ascii=False))
        return EXIT_OK
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=f"hanamikoji bench · Python {sys.version.split()[0]} · "
                        f"{os.cpu_count()} cores · best of {args.repeat}")
    for column in ("section", "figure", "value", "unit", "target", "detail"):
        table.add_column(column, justify="right" if column == "value" else "left")
    for row in rows:
        detail = ", ".join(f"{k}={v}" for k, v in row.items()
                           if k not in ("section", "figure", "value", "unit", "target"))
        # Figures are plain text: "pip install 'hanamikoji[openspiel]'" is not rich markup.
        table.add_row(*map(escape, (row["section"], row["figure"],
                                    "-" if row["value"] is None else str(row["value"]),
                                    row["unit"], row["target"], detail)))
    Console(width=max(120, shutil.get_terminal_size().columns)).print(table)
    return EXIT_OK
