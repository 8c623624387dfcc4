"""The checks of an engine behind its adapter command (``hanamikoji check --engine``): the
conformance vectors, perft, ``diff``'s games (every distinct divergence, :mod:`.diff_groups`)
and the leak check, each a :class:`~.check.Check` row of the engine's card.

Every failure is in record JSON terms: the request whose answer was wrong, the reference's
answer and the engine's, and a reproduction to paste: the request lines that lead to it,
piped into the adapter (``printf '%s\\n' '{...}' '{...}' | COMMAND``, the last answer the wrong
one), and the command that finds it again.
"""

from __future__ import annotations

import json
import shlex
from typing import Any, Mapping, Sequence

from hanamikoji.engine.core.game import Game

from .check import MAX_FAILURES, Check, Failure, Reproduction
from .diff import Divergence

__all__ = ["check_engine", "pasted", "reproduction_of"]

#: Games spent shrinking each kind of divergence found.
SHRINK = 100

#: The toolkit's command, as a reproduction names it.
PROGRAM = "hanamikoji"


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def pasted(lines: Sequence[Any], argv: Sequence[str]) -> str:
    """``printf '%s\\n' LINE ... | COMMAND``: each request (a JSON value) on a line of the
    command's input, quoted for a POSIX shell."""
    words = " ".join(shlex.quote(_json(line)) for line in lines)
    return f"printf '%s\\n' {words} | {shlex.join(argv)}"


def again(argv: Sequence[str], game: Game, options: Mapping[str, Any], seed: int,
          more: Sequence[str] = ()) -> str:
    """The ``check`` command that runs the same check of this engine again."""
    words = [PROGRAM, "check", "--game", game.name]
    for key, value in options.items():
        words += ["--option", f"{key}={value}"]
    words += ["--seed", str(seed), *more, "--", *argv]
    return shlex.join(words)


def reproduction_of(divergence: Divergence, argv: Sequence[str], found_by: str) -> Reproduction:
    """The lines that make ``divergence`` again in a fresh process of the engine, and the
    command that finds it again; the note says what the reference answers."""
    text = pasted(divergence.lines(), argv) + f"\n# found by: {found_by}"
    expected = divergence.reference
    note = ("the last line is answered differently"
            + ("" if expected is None else f": the reference answers {_json(expected)}"))
    return Reproduction("sh", text, note)


def failure_of(divergence: Divergence, argv: Sequence[str], found_by: str, *,
               what: str = "", minimized: bool = False) -> Failure:
    """A divergence as a failure of the card: ``what`` says where it was found."""
    where = f"{what}: " if what else ""
    return Failure(
        f"{where}{divergence.message}",
        request=None if divergence.request is None else _json(divergence.request),
        expected=None if divergence.reference is None else _json(divergence.reference),
        got=None if divergence.other is None else _json(divergence.other),
        reproduction=reproduction_of(divergence, argv, found_by), minimized=minimized,
        game={"game": divergence.game, "options": dict(divergence.options),
              "first_player": divergence.first_player, "history": list(divergence.decisions)}
        if divergence.game is not None and divergence.first_player is not None else None)


def _vectors_checks(argv: Sequence[str], game: Game, timeout: float,
                    found_by: str) -> list[Check]:
    """The game's conformance vectors: the records, decisions and views files as ``vectors``,
    the perft file as ``perft``. A skipped case neither passes nor fails."""
    from .conformance import PERFT_DEPTH, run_cases
    from .diff import Engine
    from .vectors import corpus

    documents = corpus(game)
    rows = []
    for name, files, title in (
            ("vectors", [f for f in documents if f != "perft.json"],
             "the conformance vectors: records, decisions, views"),
            ("perft", [f for f in documents if f == "perft.json"],
             "perft: decision sequences counted from positions")):
        if not files:
            rows.append(Check(name, title, skipped=f"{game.name} has no {name} vectors"))
            continue
        cases = [(f.removesuffix(".json"), case) for f in files
                 for case in documents[f]["tests"]]
        outcomes = list(run_cases(Engine(list(argv), timeout), game, cases,
                                  perft_depth=PERFT_DEPTH))
        counts = {"pass": 0, "fail": 0, "skip": 0}
        for outcome in outcomes:
            counts[outcome.status] += 1
        failures: list[Failure] = []
        for outcome in outcomes:
            if outcome.status != "fail" or len(failures) == MAX_FAILURES:
                continue
            if outcome.divergence is not None:
                failures.append(failure_of(outcome.divergence, argv, found_by,
                                           what=f"case {outcome.id}"))
            else:
                failures.append(Failure(f"case {outcome.id}: {outcome.message}"))
        skipped = f", {counts['skip']} skipped" if counts["skip"] else ""
        rows.append(Check(name, f"{title} ({len(outcomes)} cases{skipped})", counts["pass"],
                          counts["fail"], tuple(failures)))
    return rows


def _diff_check(argv: Sequence[str], game: Game, configs: Sequence[Any],
                options: Mapping[str, Any], seed: int, games: int, timeout: float,
                shrink: int) -> Check:
    """``games`` games against the reference, every distinct divergence shrunk."""
    from hanamikoji.runtime.progress import no_hypothesis_litter

    from .diff import Engine
    from .diff_groups import compare_all

    with no_hypothesis_litter():
        found = compare_all(Engine(list(argv), timeout), game, configs, games=games, seed=seed,
                            shrink=shrink, groups=MAX_FAILURES)
    by = again(argv, game, options, seed, ["--games", str(games)])
    failures: list[Failure] = []
    for group in found.groups:
        what = (f"{group.games} of {games} games diverge so (the first: game "
                f"{group.first_game})")
        failures.append(failure_of(group.divergence, argv, by, what=what,
                                   minimized=group.shrunk))
    more = f"; {found.more_kinds} more kinds of divergence" if found.more_kinds else ""
    title = (f"diff: {games} seeded games against the reference, every kind of divergence "
             f"shown{more}")
    return Check("diff", title, games - found.failed, found.failed, tuple(failures))


def _leaks_check(argv: Sequence[str], game: Game, configs: Sequence[Any], seed: int,
                 pairs: int, timeout: float) -> Check:
    """The black-box leak check: ``pairs`` pairs of games a player cannot tell apart."""
    from .diff import check_leaks

    report = check_leaks(list(argv), game=game, configs=configs, pairs=pairs, seed=seed,
                         timeout=timeout)
    title = f"leaks: {pairs} pairs of games a player cannot tell apart, the same views"
    leak = report.leak
    if leak is None:
        return Check("leaks", title, report.pairs, 0)
    command = shlex.join([PROGRAM, "diff", "--leaks", "--games", str(pairs), "--seed",
                          str(seed), "--game", game.name, "--", *argv])
    failure = Failure(f"{leak.message} (player {leak.player}, after "
                      f"{len(leak.decisions[0])} decisions)",
                      request=_json({"op": "observe", "player": leak.player}),
                      expected=_json(leak.answers[0]), got=_json(leak.answers[1]),
                      reproduction=Reproduction("sh", command, "shows both games and the "
                                                "answers that differ"))
    return Check("leaks", title, max(0, report.pairs - 1), 1, (failure,))


def check_engine(argv: Sequence[str], *, game: Game, options: Mapping[str, Any], seed: int,
                 games: int, limit_ms: float, shrink: int | None = None) -> list[Check]:
    """An engine's rows: ``vectors``, ``perft``, ``diff`` (``games`` seeded games, the game's
    ``options`` fixed and the others drawn per game; each kind of divergence shrunk in at
    most ``shrink`` more games, default :data:`SHRINK`) and ``leaks`` (``games`` pairs). Each
    answer is waited for ``limit_ms`` milliseconds. An engine that cannot start at all is
    :class:`~.diff.CannotStart` (an :class:`~hanamikoji.runtime.base.EngineError`)."""
    from .diff import configurations

    timeout = limit_ms / 1000
    configs = configurations(game, dict(options))
    found_by = again(argv, game, options, seed)
    rows = _vectors_checks(argv, game, timeout, found_by)
    rows.append(_diff_check(argv, game, configs, options, seed, games, timeout,
                            SHRINK if shrink is None else shrink))
    rows.append(_leaks_check(argv, game, configs, seed, games, timeout))
    return rows
