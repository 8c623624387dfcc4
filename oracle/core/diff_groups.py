"""Every distinct divergence of a run of ``diff``'s games, not only the first (``check``'s
``diff`` row).

``diff`` stops at its first divergence: enough to fix one defect, not to see an engine's
defects at once. :func:`compare_all` plays each of the games asked for to its end or to its
divergence, groups the divergent games by what diverged (:func:`kind_of`: the request whose
answers differ and the kind of difference, its values left out), and shrinks one game of each
group, as ``diff`` shrinks its divergence, keeping the shrunk game in its group: an engine with
two defects gets two groups, each with a short game that shows it. Budgets are counted: the
games asked for, and ``shrink`` more games for each group shrunk.
"""

from __future__ import annotations

import re
import time
from typing import Any, Callable, Sequence

import attrs

from hanamikoji.engine.core.game import Game
from hanamikoji.runtime import interrupt

from .diff import (DiffGame, Divergence, DivergenceFound, Engine, _settled, _Stop,
                   _Unstarted, hooks, seed_only_draws)

__all__ = ["Findings", "Group", "compare_all", "kind_of"]

#: Values in a message (a number, a JSON text, a quoted word) are not its kind.
_VALUES = re.compile(r"\d+")


def kind_of(divergence: Divergence) -> tuple[str, str]:
    """What diverged, without the values: the request's ``op`` and the message's words up to
    its first value (``("current_player", "current_player is #, not #")``, ``("observe", "the
    view of player # differs at \\"hand\\"")``). A decision refused or accepted against the
    rules is one kind by its verb and the rule it breaks (``accepts ... which breaks
    ACT-GIFT-2``)."""
    request = divergence.request
    op = str(request.get("op")) if isinstance(request, dict) else "-"
    message = divergence.message
    if divergence.where is not None:
        return op, _VALUES.sub("#", message.split(":", 1)[0])
    first = message.split(" ", 1)[0]
    if first in ("rejects", "accepts"):
        rules = re.findall(r"\b[A-Z]+(?:-[A-Z]+)*-\d+\b", message)
        return op, " ".join([first, *rules])
    head = re.split(r"[:{\[]", message, maxsplit=1)[0]
    return op, _VALUES.sub("#", head).strip().rstrip(",")


@attrs.frozen
class Group:
    """The divergent games of one kind (:func:`kind_of`): how many, the first one's index, and
    one of them, shrunk (``shrunk``) or as first found."""

    kind: tuple[str, str]
    games: int
    first_game: int
    divergence: Divergence
    shrunk: bool


@attrs.frozen
class Findings:
    """A run of every game asked for: ``games`` compared (each to its end or to its
    divergence), ``failed`` of them divergent, their ``groups`` in the order first found
    (at most the ``groups`` asked for; ``more_kinds``: kinds found beyond them), games played
    to shrink, and the engine's starts."""

    games: int
    failed: int
    groups: tuple[Group, ...]
    more_kinds: int
    shrink_games: int
    engine_starts: int
    seconds: float

    @property
    def ok(self) -> bool:
        return self.failed == 0


def compare_all(engine: Engine, game: Game, configs: Sequence[Any], *, games: int, seed: int,
                shrink: int, groups: int) -> Findings:
    """Games ``0 .. games - 1`` of ``seed`` (each drawn from ``SeededDraws(seed, i)``, the
    games of ``diff --seed``) compared on ``engine``, step by step; every divergent game
    grouped, and one game of each of the first ``groups`` groups shrunk in at most ``shrink``
    more games. An engine that hangs or breaks the protocol is started again for the next
    game. :class:`~.diff.CannotStart` if it cannot start at all."""
    from hanamikoji.oracle.core.diff_draw import SeededDraws

    hook = hooks(game)

    def live(draws: Any) -> None:
        engine.ensure_started()
        hook.play_drawn(draws, lambda config, first: DiffGame(engine, game, config, first),
                        configs)

    start = time.perf_counter()
    found: dict[tuple[str, str], list[Any]] = {}  # kind: [games, first game, divergence, choices]
    failed = 0
    try:
        engine.ensure_started()
        for index in range(games):
            interrupt.check()
            draws = SeededDraws(seed, index)
            divergence: Divergence | None = None
            try:
                live(draws)
            except DivergenceFound as error:
                divergence = error.divergence
            except _Stop as stop:  # a hang or a protocol error: a fresh process for the next
                divergence = stop.divergence
                engine.stop()
            if divergence is None:
                continue
            failed += 1
            kind = kind_of(divergence)
            if kind in found:
                found[kind][0] += 1
            else:
                found[kind] = [1, index, divergence, list(draws.choices)]
        extra, _ = _settled(engine, game, None, False)
        if extra is not None:  # a line nobody asked for: the answers may be shifted
            failed = max(failed, 1)
            found.setdefault(kind_of(extra), [1, games - 1, extra, None])
        kept = list(found.items())[:groups]
        shrink_games = 0
        out = []
        for kind, (count, first, divergence, choices) in kept:
            shrunk = False
            if shrink > 0 and choices is not None and not divergence.message.startswith(
                    "the engine did not answer"):
                divergence, played = _shrunk_within(live, divergence, choices, seed, shrink,
                                                    kind)
                shrink_games += played
                shrunk = True
            out.append(Group(kind, count, first, divergence, shrunk))
    except _Unstarted as unstarted:
        raise unstarted.error from None
    finally:
        engine.stop()
    return Findings(games, failed, tuple(out), max(0, len(found) - groups), shrink_games,
                    engine.starts, time.perf_counter() - start)


def _shrunk_within(live: Callable[[Any], None], first: Divergence, choices: list[int],
                   seed: int, shrink: int, kind: tuple[str, str]) -> tuple[Divergence, int]:
    """The game of ``choices`` shrunk in at most ``shrink`` more games, as ``diff`` shrinks
    its divergence (whole stretches of steps cut, the last decision lowered, then Hypothesis),
    a game counting as failing only if it diverges in the same ``kind`` (another defect met on
    the way is not this one): the smallest divergence found, and the games played."""
    from hypothesis.errors import Flaky

    from hanamikoji.oracle.core.diff_draw import shrink_in_stages

    best = first
    played = 0

    def test(draws: Any) -> None:
        nonlocal best, played
        interrupt.check()
        if played >= shrink:
            raise _Stop(best)
        played += 1
        try:
            live(draws)
        except DivergenceFound as error:
            if kind_of(error.divergence) != kind:
                return  # another defect: not a smaller example of this one
            if error.divergence.size() < best.size():
                best = error.divergence
            raise
        except _Stop as stop:
            if kind_of(stop.divergence) == kind and stop.divergence.size() < best.size():
                best = stop.divergence
            raise _Stop(best) from None

    try:
        with seed_only_draws():
            shrink_in_stages(test, lambda: best, choices, seed, shrink, DivergenceFound)
    except (DivergenceFound, _Stop, Flaky):
        pass
    return best, played

