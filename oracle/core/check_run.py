"""One run of ``hanamikoji check``: its targets named and checked before any check runs, then
a card for each (:mod:`.check`), in the order given.

A target is a course module (``[NAME=]PATH`` of a ``.js``, ``.mjs`` or ``.cjs`` file: its card
is the game's course checker's, :func:`_module_card`), an engine behind its adapter command
(:mod:`.check_engine`) or a bot's command (:mod:`.check_bot`). Each is named on the report
(its column of the side-by-side page): by ``NAME=``, else by the file's stem or the command's
program (the script's stem for an interpreter's command: ``node bot.mjs`` is ``bot``); two
targets of one name are a usage error, as is a module path that cannot be read or a command
whose program cannot be run: all said before the first check, in one line.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import shlex
import shutil
from typing import Any, Iterable, Mapping, Sequence

import attrs

from hanamikoji.engine.core.game import Game
from hanamikoji.runtime.base import EngineError, UsageError

from .check import Card, Check, Failure, Report

__all__ = ["CALLS", "DEALS", "GAMES", "LIMIT_MS", "Target", "run", "targets_of"]

#: The defaults: checking the reference adapter, or a bot, takes some seconds.
GAMES = 100
CALLS = 2000
DEALS = 5
#: A call's limit, in milliseconds: an engine's answer (``diff --timeout``'s 10 s), a bot's
#: decision (the course's 2 s).
LIMIT_MS = {"engine": 10_000.0, "bot": 2_000.0, "module": 2_000.0}

MODULE_SUFFIXES = (".js", ".mjs", ".cjs")
#: Programs that run a script named after them: a command of one is named by its script.
INTERPRETERS = ("python", "node", "deno", "bun", "java", "ruby", "sh", "bash", "npx", "tsx",
                "ts-node", "env")


@attrs.frozen
class Target:
    """One target: its ``kind`` (module, engine, bot), ``name`` and what was given (a module's
    path, or a command's arguments)."""

    kind: str
    name: str
    path: str | None = None
    argv: tuple[str, ...] = ()

    @property
    def given(self) -> str:
        return self.path if self.path is not None else shlex.join(self.argv)


def _named(word: str) -> tuple[str | None, str]:
    """``NAME=WHAT`` split (None: no name; a ``NAME`` is one word without ``/``)."""
    name, equals, what = word.partition("=")
    if equals and name and not any(c in name for c in " /\\\"'") and what:
        return name, what
    return None, word


def _stem(path: str) -> str:
    base = os.path.basename(path.rstrip("/\\")) or path
    stem, _ = os.path.splitext(base)
    return stem or base


def _command_name(argv: Sequence[str]) -> str:
    """The program's name, or its script's stem for an interpreter."""
    program = _stem(argv[0])
    if program.rstrip("0123456789.") in INTERPRETERS:
        words = list(argv[1:])
        if words[:1] == ["-m"] and len(words) > 1:
            return words[1].rsplit(".", 1)[-1]
        script = next((w for w in words if not w.startswith("-") and "=" not in w), None)
        if script is not None:
            return _stem(script)
    return program


def _runnable(program: str) -> str | None:
    """Why ``program`` cannot be run here, or None."""
    if os.sep in program or (os.altsep and os.altsep in program):
        if os.path.isfile(program) and os.access(program, os.X_OK):
            return None
        return "no such file, or not executable"
    return None if shutil.which(program) is not None else "not found on the PATH"


def _command(kind: str, given: Any) -> tuple[str | None, tuple[str, ...]]:
    """A command given as ``[NAME=]COMMAND`` text or as a list of arguments: its name (None:
    none given) and its arguments; a :class:`UsageError` if its program cannot be run."""
    name: str | None = None
    if isinstance(given, str):
        name, text = _named(given)
        try:
            argv = tuple(shlex.split(text))
        except ValueError as error:
            raise UsageError(f"--{kind} {given!r}: {error}") from None
    elif isinstance(given, (list, tuple)) and all(isinstance(a, str) for a in given):
        argv = tuple(given)
    else:
        raise UsageError(f"--{kind} {given!r}: a command is a string or a list of arguments")
    if not argv:
        raise UsageError(f"--{kind} {given!r}: no command")
    why = _runnable(argv[0])
    if why is not None:
        raise UsageError(f"--{kind} {given if isinstance(given, str) else shlex.join(argv)}: "
                         f"{argv[0]!r} cannot be run ({why})")
    return name, argv


def _module(given: str) -> tuple[str | None, str]:
    name, path = _named(given)
    if not path.endswith(MODULE_SUFFIXES):
        raise UsageError(f"{given}: a target is a course module ({', '.join(MODULE_SUFFIXES)}); "
                         "give an engine as --engine COMMAND or after --, a bot as --bot "
                         "COMMAND")
    if not os.path.isfile(path):
        what = "not a file" if os.path.exists(path) else "no such file"
        raise UsageError(f"{given}: no such module ({what})")
    if not os.access(path, os.R_OK):
        raise UsageError(f"{given}: the module cannot be read")
    return name, path


def _commands(given: Any) -> list[Any]:
    """Commands as a mapping ``{name: command}`` or an iterable of commands."""
    if isinstance(given, Mapping):
        return [(name, command) for name, command in given.items()]
    if isinstance(given, str):
        return [(None, given)]
    return [(None, command) for command in given]


def targets_of(modules: Iterable[str] = (), engines: Any = (), bots: Any = ()) -> list[Target]:
    """Every target named and checked (:class:`UsageError` for the first that is wrong):
    modules, then engines, then bots, each in the order given."""
    out: list[Target] = []
    for given in modules:
        name, path = _module(given)
        out.append(Target("module", name or _stem(path), path=path))
    for kind, group in (("engine", engines), ("bot", bots)):
        for named, command in _commands(group):
            name, argv = _command(kind, command)
            out.append(Target(kind, named or name or _command_name(argv), argv=argv))
    if not out:
        raise UsageError("nothing to check: give a course module, --engine COMMAND (or -- "
                         "COMMAND), or --bot COMMAND")
    seen: dict[str, Target] = {}
    for target in out:
        if target.name in seen:
            raise UsageError(f"two targets are named {target.name!r} ({seen[target.name].given}"
                             f" and {target.given}): name them, NAME=...")
        seen[target.name] = target
    return out


def _course_checker(game: Game, path: str | None) -> Any:
    """The game's course checker, ``hanamikoji.oracle.<game>.course_check``; a
    :class:`UsageError` naming ``path`` for a game that has none (asked before any check)."""
    module = f"hanamikoji.oracle.{game.name}.course_check"
    try:
        found = importlib.util.find_spec(module) is not None
    except ImportError:
        found = False
    if not found:
        raise UsageError(f"{path}: game {game.name} has no course modules to check")
    return importlib.import_module(module)


def _module_card(target: Target, *, game: Game, seed: int, calls: int, cases: int, deals: int,
                 limit_ms: float) -> Card:
    """A course module's card, from ``check_module`` of
    the game's course checker (:func:`_course_checker`: the course's tasks detected from the
    module's exports; its bot played through the shim with :func:`~.check_bot.check_bot`).
    A course has its own rules (its variant), so the run's options are not the module's."""
    check_module = _course_checker(game, target.path).check_module
    return check_module(target.path, name=target.name, seed=seed, calls=calls, cases=cases,
                        deals=deals, limit_ms=limit_ms)


def run(targets: Sequence[Target], *, game: Game, options: Mapping[str, Any], seed: int,
        games: int, calls: int, deals: int, limit_ms: float | None, cases: int = 0) -> Report:
    """The report of ``targets``, a card each, in order."""
    from hanamikoji import __version__

    from .check_bot import check_bot
    from .check_engine import check_engine

    for target in targets:
        if target.kind == "module":
            _course_checker(game, target.path)  # a usage error before any check runs
    cards = []
    for target in targets:
        limit = LIMIT_MS[target.kind] if limit_ms is None else limit_ms
        if target.kind == "module":
            cards.append(_module_card(target, game=game, seed=seed, calls=calls, cases=cases,
                                      deals=deals, limit_ms=limit))
            continue
        if target.kind == "engine":
            try:
                checks = check_engine(target.argv, game=game, options=options, seed=seed,
                                      games=games, limit_ms=limit)
            except EngineError as error:  # it cannot start: its card says so, the others run
                checks = [Check("start", "the engine's process answers its first request",
                                failed=1, failures=(Failure(str(error)),))]
        else:
            checks = check_bot(target.argv, name=target.name, game=game, options=options,
                               seed=seed, calls=calls, deals=deals, limit_ms=limit)
        cards.append(Card(target.name, target.kind, target.given, tuple(checks)))
    return Report(game.name, dict(options), seed, __version__, tuple(cards))
