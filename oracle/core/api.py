"""The oracle as a library: each tool a function that returns a value (docs/api.md).

The commands and these functions share their machinery (:mod:`.validate`, :mod:`.vectors`,
:mod:`.perft`, :mod:`.diff`, :mod:`.tournament`); a function here adds no check of its own. It
takes Python values instead of options, returns a result instead of printing, and raises an
:class:`OracleError` instead of returning an exit code. Every result has ``ok`` (the check
passed), a readable ``str`` and ``to_json()``, the JSON its command prints with ``--json``.

An *engine* is the other implementation: a command that speaks the oracle protocol (a list of
arguments, or one string split as a shell splits it), or a Python object of the adapter's shape
(:class:`~hanamikoji.oracle.core.adapter.ProtocolAdapter`: ``answer_line(str) -> str``), asked
in this process.
"""

from __future__ import annotations

import collections
import json
import os
import shlex
from typing import IO, Any, Iterable, Iterator, Mapping, Sequence

import attrs

from hanamikoji.runtime.base import EngineError, OracleError, UsageError
from hanamikoji.engine.core.game import Game

__all__ = ["Cases", "Counts", "DiffReport", "EngineError", "LeakReport", "OracleError",
           "Results", "Standings", "UsageError", "Verdicts", "check", "diff", "leaks", "perft",
           "tournament", "validate", "vectors"]


def _game(game: Game | str | None) -> Game:
    """A game by value or by name (None: the default game); an unknown name is a usage error."""
    if isinstance(game, Game):
        return game
    from hanamikoji.engine.core.errors import OptionError
    from hanamikoji.engine.core.registry import get

    try:
        return get(game)
    except OptionError as error:
        raise UsageError(str(error)) from None


# --- engines --------------------------------------------------------------------------------


def _argv(engine: Any) -> list[str] | None:
    """A command's arguments, or None for a Python engine."""
    if isinstance(engine, str):
        argv = shlex.split(engine)
    elif isinstance(engine, (list, tuple)) and all(isinstance(a, str) for a in engine):
        argv = list(engine)
    else:
        if not callable(getattr(engine, "answer_line", None)):
            raise UsageError(f"not an engine: {engine!r} is neither a command (a list of "
                             "arguments) nor an object with answer_line(request) -> answer "
                             "(hanamikoji.oracle.core.adapter.ProtocolAdapter)")
        return None
    if not argv:
        raise UsageError("no engine command: an empty one was given")
    return argv


def engine_of(engine: Any, timeout: float = 10.0) -> Any:
    """The harness's :class:`~hanamikoji.oracle.core.diff.Engine` for ``engine``: a process
    for a command, or the Python object asked in this process."""
    from hanamikoji.oracle.core.diff import Engine

    if not 0 < timeout <= 3600:
        raise UsageError(f"timeout must be from 0 to 3600 seconds, not {timeout:g}")
    argv = _argv(engine)
    if argv is not None:
        return Engine(argv, timeout)
    return _python_engine(engine, timeout)


def _python_engine(adapter: Any, timeout: float) -> Any:
    from hanamikoji.oracle.core.diff import Engine, EngineFailure, _short

    class PythonEngine(Engine):
        """An adapter object answering in this process: a request is a call of its
        ``answer_line``; an exception it raises is a crash of the engine, reported as one."""

        def __init__(self) -> None:
            super().__init__([f"<{type(adapter).__name__} object>"], timeout)
            self.adapter = adapter
            self.running = False
            self.pending: collections.deque[bytes] = collections.deque()

        def ensure_started(self) -> None:
            if not self.running:
                self.running = True
                self.starts += 1
                self.answers = 0
                self.general = self.batched = self.changes = False

        def launch(self) -> None:
            self.ensure_started()

        def write_request(self, message: dict[str, Any], text: str | None = None) -> None:
            """Answer ``message`` (``text``: its JSON, written already) at once, the answer
            kept for :meth:`read_answer` (the harness may write the next request before it
            reads: its answers come in order)."""
            self.ensure_started()
            try:
                line = self.adapter.answer_line(json.dumps(message) if text is None else text)
            except Exception as error:  # whatever the engine does is judged, never our crash
                raise EngineFailure("crash", f"the engine raised {type(error).__name__}: "
                                             f"{error} on {_short(message)}") from None
            self.pending.append((line.rstrip("\n") + "\n").encode("utf-8"))

        def read_answer(self, message: dict[str, Any], decisions: int | None = None) -> bytes:
            line = self.pending.popleft()
            self.counted(message, decisions)
            return line

        def settle(self) -> None:
            self.stop()

        def stop(self) -> None:
            self.running = False
            self.pending.clear()

        def close_input(self) -> None:
            pass

        def stderr_tail(self) -> str:
            return ""

    return PythonEngine()


# --- validate --------------------------------------------------------------------------------


@attrs.frozen
class Verdicts:
    """The verdict on every record, in order (:class:`~hanamikoji.oracle.core.validate.Verdict`).
    ``ok``: at least one record, and every one valid (``validate`` exits 0)."""

    verdicts: tuple[Any, ...]

    @property
    def ok(self) -> bool:
        from hanamikoji.oracle.core.validate import Status

        return bool(self.verdicts) and all(v.judgement.status is Status.VALID
                                           for v in self.verdicts)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.verdicts)

    def __len__(self) -> int:
        return len(self.verdicts)

    def __getitem__(self, index: int) -> Any:
        return self.verdicts[index]

    def to_json(self) -> list[dict[str, Any]]:
        """One object per record: the lines of ``validate --json``."""
        return [v.to_json() for v in self.verdicts]

    def __str__(self) -> str:
        """What ``validate`` prints: a line per record that is not valid, then the count."""
        from hanamikoji.oracle.core.validate import Status, Tally

        tally = Tally()
        lines = []
        for verdict in self.verdicts:
            tally.add(verdict)
            if verdict.judgement.status is not Status.VALID:
                lines.append(verdict.to_text())
        return "\n".join([*lines, tally.summary()])


def validate(records: Any, *, game: Game | str | None = None,
             source: str | None = None) -> Verdicts:
    """The verdict on every record of ``records``: a path (``str`` or path-like) to a file of
    records as ``validate`` reads it, a binary stream, or an iterable of records (each a JSON
    value, or one record's JSON text as ``str`` or ``bytes``). ``game`` forces the game (else
    each record's ``format`` names it). A file that cannot be read is a :class:`UsageError`."""
    from hanamikoji.oracle.core.validate import Verdict, judge, judge_bytes, replayed

    forced = None if game is None else _game(game)
    if isinstance(records, (str, os.PathLike)):
        path = os.fspath(records)
        try:
            stream: IO[bytes] = open(path, "rb")
        except OSError as error:
            raise UsageError(f"cannot read {path}: {error.strerror or error}") from None
        with stream:
            return Verdicts(tuple(v for v, _, _ in replayed(stream, source or path, 0, forced)))
    if hasattr(records, "read"):
        return Verdicts(tuple(v for v, _, _ in replayed(records, source or "<stream>", 0,
                                                          forced)))
    out = []
    for index, record in enumerate(records):
        judgement = (judge_bytes(record, forced) if isinstance(record, (str, bytes))
                     else judge(record, forced))
        out.append(Verdict(index, source or "<records>", index + 1, judgement))
    return Verdicts(tuple(out))


# --- vectors ---------------------------------------------------------------------------------


@attrs.frozen
class Result:
    """One case against an engine (:class:`~hanamikoji.oracle.core.conformance.Outcome`)."""

    outcome: Any

    @property
    def ok(self) -> bool:
        return self.outcome.status != "fail"

    def to_json(self) -> dict[str, Any]:
        return self.outcome.to_json()

    def __str__(self) -> str:
        o = self.outcome
        if o.status == "fail":
            return f"FAIL  {o.id}\n{o.text}"
        return f"{o.status}  {o.id}" + (f": {o.message}" if o.message else "")


@attrs.frozen
class Results:
    """Every case against an engine, in order; ``ok``: none failed (skipped cases do not)."""

    game: str
    results: tuple[Result, ...]

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.results)

    def __iter__(self) -> Iterator[Result]:
        return iter(self.results)

    def __len__(self) -> int:
        return len(self.results)

    def counts(self) -> dict[str, int]:
        out = {"pass": 0, "fail": 0, "skip": 0}
        for r in self.results:
            out[r.outcome.status] += 1
        return out

    def to_json(self) -> dict[str, Any]:
        counts = self.counts()
        return {"game": self.game, "cases": len(self.results), "passed": counts["pass"],
                "failed": counts["fail"], "skipped": counts["skip"],
                "results": [r.to_json() for r in self.results]}

    def __str__(self) -> str:
        counts = self.counts()
        return "\n".join([*(str(r) for r in self.results),
                          f"{len(self.results)} cases: {counts['pass']} passed, "
                          f"{counts['fail']} failed, {counts['skip']} skipped"])


@attrs.frozen
class Case:
    """One case of a vectors file: ``kind`` is the file's name without ``.json``."""

    kind: str
    id: str
    data: Mapping[str, Any] = attrs.field(repr=False, eq=False)

    def check(self, engine: Any, *, timeout: float = 10.0, perft_depth: int | None = None,
              game: Game | str | None = None) -> Result:
        """This case against ``engine`` (a command or a Python adapter object)."""
        from hanamikoji.oracle.core.conformance import PERFT_DEPTH, run_cases

        the_game = _game(game)
        outcomes = run_cases(engine_of(engine, timeout), the_game, [(self.kind, self.data)],
                             perft_depth=PERFT_DEPTH if perft_depth is None else perft_depth)
        return _checked(outcomes)[0]


def _checked(outcomes: Iterator[Any]) -> list[Result]:
    from hanamikoji.oracle.core.diff import CannotStart

    try:
        return [Result(o) for o in outcomes]
    except CannotStart as error:
        raise EngineError(str(error)) from None


@attrs.frozen
class Cases:
    """A game's conformance vectors: its four files (``records``, ``decisions``, ``views``,
    ``perft``), each a JSON document of cases, as ``vectors`` writes them. ``ok``: always (a
    corpus is not a check until :meth:`check` runs it against an engine)."""

    game: str
    documents: Mapping[str, Any] = attrs.field(repr=False, eq=False)

    ok = True

    @classmethod
    def load(cls, folder: str | os.PathLike[str]) -> Cases:
        """The corpus committed or written in ``folder`` (``tests/vectors``): its four files, or
        those of them it holds (a folder of perft cases alone, say)."""
        from hanamikoji.engine.core.registry import DEFAULT
        from hanamikoji.oracle.core.vectors import FILES

        documents = {}
        present = [n for n in FILES if os.path.exists(os.path.join(os.fspath(folder), n))]
        for name in present or FILES:  # none there: the error names the first missing
            path = os.path.join(os.fspath(folder), name)
            try:
                with open(path, encoding="utf-8") as handle:
                    documents[name] = json.load(handle)
            except OSError as error:
                raise UsageError(f"cannot read {path}: {error.strerror or error}") from None
            except ValueError as error:
                raise UsageError(f"{path}: not a vectors file ({error})") from None
        games = {doc.get("game", DEFAULT) for doc in documents.values()}
        if len(games) != 1:
            raise UsageError(f"{folder}: files of more than one game ({', '.join(sorted(games))})")
        return cls(games.pop(), documents)

    def __iter__(self) -> Iterator[Case]:
        for name, document in self.documents.items():
            kind = name.removesuffix(".json")
            for case in document["tests"]:
                yield Case(kind, case["id"], case)

    def __len__(self) -> int:
        return sum(len(doc["tests"]) for doc in self.documents.values())

    def select(self, kinds: Iterable[str] = (), every: int = 1) -> Cases:
        """These cases of the files ``kinds`` only (none: all), every ``every``-th case of
        each file (1: all): a smaller run, still of every file asked for."""
        wanted = set(kinds)
        unknown = wanted - {n.removesuffix(".json") for n in self.documents}
        if unknown:
            raise UsageError(f"no vectors file {sorted(unknown)[0]!r}: the files are "
                             + ", ".join(n.removesuffix(".json") for n in self.documents))
        if every < 1:
            raise UsageError(f"every must be at least 1, not {every}")
        return Cases(self.game, {
            name: {**doc, "tests": doc["tests"][::every]}
            for name, doc in self.documents.items()
            if not wanted or name.removesuffix(".json") in wanted})

    def check(self, engine: Any, *, timeout: float = 10.0,
              perft_depth: int | None = None) -> Results:
        """Every case against ``engine`` (:mod:`~hanamikoji.oracle.core.conformance`)."""
        from hanamikoji.oracle.core.conformance import PERFT_DEPTH, run_cases

        game = _game(self.game)
        outcomes = run_cases(engine_of(engine, timeout), game,
                             [(case.kind, case.data) for case in self],
                             perft_depth=PERFT_DEPTH if perft_depth is None else perft_depth)
        return Results(game.name, tuple(_checked(outcomes)))

    def to_json(self) -> dict[str, Any]:
        """Each file's name and document, as ``vectors --out`` writes them."""
        return dict(self.documents)

    def __str__(self) -> str:
        return "\n".join(f"{name}: {doc['numberOfTests']} cases"
                         for name, doc in self.documents.items())


def vectors(game: Game | str | None = None) -> Cases:
    """The conformance vectors of ``game`` (default: the default game), computed by the
    reference as ``hanamikoji vectors`` computes them."""
    from hanamikoji.oracle.core.vectors import corpus

    the_game = _game(game)
    return Cases(the_game.name, corpus(the_game))


# --- perft -----------------------------------------------------------------------------------


@attrs.frozen
class Counts:
    """The perft counts of a position: ``depths[d]`` sequences of ``d`` decisions, ``d`` from 0
    (always 1) to the depth asked; ``divide``, if asked, the count at that depth by the first
    decision. ``ok``: always (a count is not a check; compare it with yours)."""

    game: Game = attrs.field(repr=False)
    state: Any = attrs.field(repr=False)
    depths: tuple[int, ...]
    divide: tuple[tuple[Any, int], ...] | None = None

    ok = True

    def to_json(self) -> dict[str, Any]:
        """What ``perft --json`` prints."""
        from hanamikoji.oracle.core.perft import hooks

        header, _ = hooks(self.game).header(self.state)
        depth = len(self.depths) - 1
        out: dict[str, Any] = {**header,
                               "depths": {str(d): self.depths[d] for d in range(1, depth + 1)}}
        if self.divide is not None:
            out["divide"] = [{"decision": self.game.decision_to_json(d), "count": n}
                             for d, n in self.divide]
        return out

    def __str__(self) -> str:
        """What ``perft`` prints after its first line."""
        from hanamikoji.engine.core.words import plural

        lines = []
        if self.divide is not None:
            texts = [self.game.decision_text(d) for d, _ in self.divide]
            width = max(map(len, texts), default=0)
            lines += [f"{text:<{width}}  {count}" for text, (_, count) in zip(texts, self.divide)]
            depth = len(self.depths) - 1
            lines.append(f"{plural(len(self.divide), 'first decision')}, "
                         f"{plural(sum(n for _, n in self.divide), 'sequence')} of "
                         f"{plural(depth, 'decision')}")
        lines.append("depth  leaves")
        lines += [f"{d:>5}  {self.depths[d]}" for d in range(1, len(self.depths))]
        return "\n".join(lines)


def perft(position: Any, depth: int, *, game: Game | str | None = None,
          divide: bool = False) -> Counts:
    """The perft counts from ``position`` to ``depth``: a position as JSON (``{"game",
    "options", "first_player", "history"}``, as ``perft --history`` reads it), the game's own
    start as JSON (Hanamikoji's deal: ``{"first_player", "removed", "hands", "draws"}``), or a
    state of the game's engine."""
    from hanamikoji.engine.core.errors import GameError
    from hanamikoji.oracle.core.perft import depth_limit, divide as split, hooks
    from hanamikoji.oracle.core.perft import perft as count
    from hanamikoji.oracle.core.perft import read_position

    if isinstance(position, dict):
        the_game = _game(position.get("game", game))
        try:
            if "history" in position:
                state = read_position(the_game, position)
            else:
                state = hooks(the_game).start_from_json(position, the_game.configure())
                if state is None:
                    raise UsageError(f"game {the_game.name} has no start files: give a "
                                     "position with a history")
        except GameError as error:
            raise UsageError(f"not a position: {error}") from None
    else:
        the_game, state = _game(game), position
    limit, why = depth_limit(the_game)
    if type(depth) is not int or not 0 <= depth <= limit:
        raise UsageError(f"depth {depth!r}: {why}; use 0 to {limit}")
    if divide and depth < 1:
        raise UsageError("divide needs a depth of at least 1")
    return Counts(the_game, state, count(the_game, state, depth),
                  split(the_game, state, depth) if divide else None)


# --- diff and the leak check -----------------------------------------------------------------


@attrs.frozen
class DiffReport:
    """A differential run (:class:`~hanamikoji.oracle.core.diff.Report`); ``ok``: no
    divergence. ``str`` is the report of ``diff``, ``to_json()`` that of ``diff --json``."""

    report: Any
    argv: tuple[str, ...]
    game: Game = attrs.field(repr=False)

    @property
    def ok(self) -> bool:
        return self.report.divergence is None

    @property
    def divergence(self) -> Any:
        return self.report.divergence

    @property
    def games(self) -> int:
        return int(self.report.games)

    def to_json(self) -> dict[str, Any]:
        return dict(self.report.to_json())

    def __str__(self) -> str:
        from hanamikoji.oracle.core.diff import render

        return "\n".join(render(self.report, self.argv, self.game))


@attrs.frozen
class LeakReport:
    """The black-box leak check (:class:`~hanamikoji.oracle.core.diff.LeakReport`); ``ok``: no
    leak. ``str`` and ``to_json()`` are those of ``diff --leaks``."""

    report: Any
    argv: tuple[str, ...]
    game: Game = attrs.field(repr=False)

    @property
    def ok(self) -> bool:
        return self.report.leak is None

    @property
    def leak(self) -> Any:
        return self.report.leak

    def to_json(self) -> dict[str, Any]:
        return dict(self.report.to_json())

    def __str__(self) -> str:
        from hanamikoji.oracle.core.diff import render_leaks

        return "\n".join(render_leaks(self.report, self.argv, self.game))


def _configs(game: Game, options: Mapping[str, Any] | None) -> tuple[Any, ...]:
    """The configurations a run draws from: ``options`` fixed (the others drawn per game, as
    ``diff`` draws those not given on its command line)."""
    from hanamikoji.engine.core.errors import OptionError
    from hanamikoji.oracle.core.diff import configurations

    try:
        return configurations(game, dict(options or {}))
    except OptionError as error:
        raise UsageError(str(error)) from None


def _engine_error(run: Any) -> Any:
    from hanamikoji.oracle.core.diff import CannotStart

    try:
        return run()
    except CannotStart as error:
        raise EngineError(str(error)) from None


def diff(engine: Any, *, games: int = 100, seed: int = 0, game: Game | str | None = None,
         options: Mapping[str, Any] | None = None, timeout: float = 10.0,
         shrink: int = 200) -> DiffReport:
    """Compare ``engine`` with the reference in ``games`` games drawn from ``seed``, as
    ``hanamikoji diff`` does: the first divergence, shrunk with up to ``shrink`` more games.
    ``options`` fixes some of the game's options (the others are drawn per game). The check of
    seeded chance outcomes before the games needs more processes of the engine: it runs for a
    command, not for a Python engine."""
    from hanamikoji.oracle.core.diff import compare_engines
    from hanamikoji.runtime.progress import no_hypothesis_litter

    if type(games) is not int or games < 1:
        raise UsageError(f"games must be at least 1, not {games!r}")
    the_game = _game(game)
    configs = _configs(the_game, options)
    harness = engine_of(engine, timeout)
    with no_hypothesis_litter():  # as the command: no .hypothesis/ left in the caller's folder
        report = _engine_error(lambda: compare_engines(
            harness.argv, games=games, seed=seed, variants=configs, timeout=timeout,
            shrink=shrink, game=the_game, engine=harness,
            seeded_check=_argv(engine) is not None))
    return DiffReport(report, tuple(harness.argv), the_game)


def leaks(engine: Any, *, pairs: int = 100, seed: int = 0, game: Game | str | None = None,
          options: Mapping[str, Any] | None = None, timeout: float = 10.0) -> LeakReport:
    """The black-box leak check of ``diff --leaks``: ``pairs`` pairs of games that differ only
    in what one player cannot see, on which ``engine``'s views must be the same. A command
    only (the check starts its engine itself)."""
    from hanamikoji.oracle.core.diff import check_leaks

    argv = _argv(engine)
    if argv is None:
        raise UsageError("leaks takes an engine command (a list of arguments), not a Python "
                         "object")
    if type(pairs) is not int or pairs < 1:
        raise UsageError(f"pairs must be at least 1, not {pairs!r}")
    engine_of(argv, timeout)  # the timeout's check
    the_game = _game(game)
    configs = _configs(the_game, options)
    return LeakReport(_engine_error(lambda: check_leaks(
        argv, game=the_game, configs=configs, pairs=pairs, seed=seed, timeout=timeout)),
        tuple(argv), the_game)


# --- tournament ------------------------------------------------------------------------------


@attrs.frozen
class Standings:
    """A tournament's report (``tournament --json``) and its games; ``ok``: no bot forfeited."""

    report: Mapping[str, Any] = attrs.field(eq=False)
    results: tuple[Any, ...] = attrs.field(repr=False, eq=False)

    @property
    def ok(self) -> bool:
        return not self.report["forfeits"]

    def to_json(self) -> dict[str, Any]:
        return dict(self.report)

    def __str__(self) -> str:
        from hanamikoji.oracle.core.tournament import table_lines

        return "\n".join(table_lines(dict(self.report), len(self.report["forfeits"])))


def tournament(bots: Sequence[str], *, deals: int = 10, seed: int = 0,
               game: Game | str | None = None, options: Mapping[str, Any] | None = None,
               decision_time: float = 2.0, game_time: float = 60.0,
               start_time: float = 10.0) -> Standings:
    """Every bot of ``bots`` against every other, as ``hanamikoji tournament`` plays them, in
    this process: each ``[NAME=]BOT`` a built-in bot's name or a bot's command."""
    from hanamikoji.engine.core.errors import OptionError
    from hanamikoji.oracle.core.referee import Limits
    from hanamikoji.oracle.core.tournament import (Tally, Tournament, forfeit_entry, lined_up,
                                                   played_here, report)

    the_game = _game(game)
    try:
        config = the_game.configure(dict(options or {}))
    except OptionError as error:
        raise UsageError(str(error)) from None
    specs = lined_up(the_game, config, bots)
    if type(deals) is not int or deals < 1:
        raise UsageError(f"deals must be at least 1, not {deals!r}")
    limits = Limits(decision=decision_time, game=game_time, start=start_time)
    if game_time < decision_time:
        raise UsageError(f"game_time ({game_time:g} s) is shorter than decision_time "
                         f"({decision_time:g} s)")
    played = Tournament(the_game.name, tuple(sorted(the_game.options_of(config).items())),
                        specs, deals, seed, limits)
    results = tuple(played_here(played, played.schedule()))
    names = [s.name for s in specs]
    tally = Tally(len(names))
    for result in results:
        tally.add(result)
    forfeits = [forfeit_entry(r, names) for r in results if r.forfeit is not None]
    return Standings(report(played, names, tally, len(results), forfeits), results)


# --- check -----------------------------------------------------------------------------------


def check(modules: Iterable[str] = (), *, engines: Any = (), bots: Any = (),
          game: Game | str | None = None, options: Mapping[str, Any] | None = None,
          seed: int = 0, games: int | None = None, calls: int | None = None,
          deals: int | None = None, limit_ms: float | None = None, cases: int = 0) -> Any:
    """The report card of each implementation, as ``hanamikoji check`` makes it
    (:class:`~hanamikoji.oracle.core.check.Report`: ``ok``, ``str`` the summary, ``to_json()``
    report.json's document). ``modules``: course modules, ``[NAME=]PATH`` each; ``engines``
    and ``bots``: commands (each a string split as a shell splits it, ``NAME=`` first to name
    it, or a list of arguments), or a mapping of names to commands. ``games``: an engine's
    games against the reference (and pairs of the leak check); ``calls``: decisions asked of
    one bot process; ``deals``: its tournament's; ``limit_ms``: a call's limit (default 10 s
    for an engine, 2 s for a bot or a course function); ``cases``: a course module's vectors
    generated from ``seed`` beyond the committed ones. Every target is named and checked first: a
    :class:`UsageError` before any check runs."""
    from hanamikoji.engine.core.errors import OptionError
    from hanamikoji.oracle.core.check_run import CALLS, DEALS, GAMES, run, targets_of

    the_game = _game(game)
    try:
        config = the_game.configure(dict(options or {}))
    except OptionError as error:
        raise UsageError(str(error)) from None
    counts = {"games": GAMES if games is None else games,
              "calls": CALLS if calls is None else calls,
              "deals": DEALS if deals is None else deals}
    for what, count in counts.items():
        if type(count) is not int or count < 1:
            raise UsageError(f"{what} must be at least 1, not {count!r}")
    if type(cases) is not int or cases < 0:
        raise UsageError(f"cases must be 0 or more, not {cases!r}")
    if limit_ms is not None and not 0 < limit_ms <= 3_600_000:
        raise UsageError(f"limit_ms must be from 0 to 3600000, not {limit_ms!r}")
    targets = targets_of(modules, engines, bots)
    fixed = {k: v for k, v in the_game.options_of(config).items() if k in (options or {})}
    return run(targets, game=the_game, options=fixed, seed=seed, limit_ms=limit_ms, cases=cases,
               **counts)
