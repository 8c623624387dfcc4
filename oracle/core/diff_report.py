"""What ``hanamikoji diff`` finds, and how it says it: the divergence and the reports.

:class:`Divergence` is the first step where the other engine's answer differs from the reference's
(with the game that led to it and the requests that make it again), :class:`Report` a run of
``diff`` and :func:`render` its human report; :class:`Leak`, :class:`LeakReport` and
:func:`render_leaks` are the same for ``diff --leaks``. :func:`_canonical` and :func:`_printable`
are an answer as compared and as printed: any JSON an adapter wrote, never an error of ours. Part of
the harness of :mod:`hanamikoji.oracle.core.diff`, where the names other modules import are still
found.
"""

from __future__ import annotations

import json
from typing import Any, Iterator, Sequence

import attrs

from hanamikoji.engine.core.errors import GameError
from hanamikoji.engine.core.game import Game
from hanamikoji.oracle.core.diff_engine import CannotStart
from hanamikoji.oracle.core.protocol import dumps


# --- what a divergence is ------------------------------------------------------------------


@attrs.frozen
class Divergence:
    """The first step where the other engine's answer differs from the reference's."""

    variant: str | None  # the game's options as a label; None for a check outside any game
    first_player: int | None
    decisions: tuple[Any, ...]  # the JSON of every decision sent, in order: the game so far
    request: Any  # the request whose answers differ
    reference: Any  # the reference's answer (None when the other engine failed)
    other: Any  # the other engine's answer (None when it failed)
    message: str  # one line: what differs
    game: str | None = None  # the game compared (None: a check outside any game)
    options: tuple[tuple[str, Any], ...] = ()  # its options, to replay the game
    #: Where a divergence outside any game was found (None: the check of seeded chance).
    where: str | None = None
    #: Each decision as the report shows it, from the reference's state before it
    #: (:meth:`DiffExtension.decision_text`: Maiko names the tile at a space).
    texts: tuple[str, ...] = ()
    #: The requests that brought the other engine to where it diverged, in order, as they were
    #: sent: its ``new_game`` and every decision and chance outcome it accepted (the questions
    #: between them change nothing). With ``request``, the lines that make the divergence
    #: again in a fresh process (``check``'s reproduction); empty outside a game.
    sent: tuple[Any, ...] = attrs.field(default=(), eq=False)

    def lines(self) -> tuple[Any, ...]:
        """The requests to send a fresh process of the other engine, in order, the last
        answered differently: :attr:`sent`, then ``request`` unless it is the last sent."""
        if self.sent and self.sent[-1] is self.request:
            return self.sent
        return (*self.sent, self.request)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "options": dict(self.options), "variant": self.variant,
                "first_player": self.first_player, "decisions": list(self.decisions),
                "decisions_text": list(self.texts),
                "request": self.request, "reference": _printable(self.reference),
                "other": _printable(self.other), "message": self.message}

    def size(self) -> tuple[int, int]:
        return (len(self.decisions), len(dumps(self.decisions)))


class DivergenceFound(Exception):
    def __init__(self, divergence: Divergence) -> None:
        super().__init__(divergence.message)
        self.divergence = divergence


class _Stop(BaseException):
    """Ends the search at once (Hypothesis does not catch a BaseException): a hanging engine
    (``hang``), or the shrinking budget spent."""

    def __init__(self, divergence: Divergence, hang: bool = False) -> None:
        super().__init__(divergence.message)
        self.divergence = divergence
        self.hang = hang


class _Unstarted(BaseException):
    """Ends the search at once: the engine exited before answering its first request."""

    def __init__(self, error: CannotStart) -> None:
        super().__init__(str(error))
        self.error = error


@attrs.frozen
class Report:
    #: Games compared: each played to its end, or to the divergence found in it; with no
    #: divergence, exactly the games asked for (``--games``).
    games: int
    divergence: Divergence | None
    engine_starts: int
    seconds: float
    shrunk: bool
    #: The view keys compared, when the adapter declared a partial view (``view_keys`` in its
    #: answer to ``new_game``); None: whole views (then the JSON has no ``view_keys``).
    view_keys: tuple[str, ...] | None = None
    #: Games replayed while shrinking a divergence, not counted in ``games``.
    shrink_games: int = 0
    #: Games Hypothesis cut short (its budget of draws for one game ran out), compared as far
    #: as they went, not counted in ``games``.
    cut_short: int = 0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": "agree" if self.divergence is None else "divergence",
               "games": self.games, "shrink_games": self.shrink_games,
               "cut_short": self.cut_short, "engine_starts": self.engine_starts,
               "seconds": round(self.seconds, 3), "shrunk": self.shrunk,
               "divergence": None if self.divergence is None else self.divergence.to_json()}
        if self.view_keys is not None:
            out["view_keys"] = list(self.view_keys)
        return out


# --- an answer as compared and as printed --------------------------------------------------


def _canonical(value: Any) -> str:
    """The canonical text of anything an adapter answered (never an error: a value that JSON
    cannot print canonically gets a text no JSON has, and so differs)."""
    try:
        return dumps(value)
    except (TypeError, ValueError, RecursionError):
        return "<not printable as JSON>"


def _printable(value: Any) -> Any:
    """``value`` if JSON can print it here, else a note saying why not: Hypothesis raises the
    recursion limit while a game runs, so an answer read then may be nested too deeply to print
    once it has returned."""
    try:
        json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        return "<an answer JSON cannot print back: nested too deeply>"
    return value


# --- the leak check's finding --------------------------------------------------------------


@attrs.frozen
class Leak:
    """Two games that ``player`` cannot tell apart (the second is the first's hidden
    information drawn again, :meth:`Game.resample`) on which the other engine's ``observe``
    answers for ``player`` differ."""

    game: str
    options: tuple[tuple[str, Any], ...]
    label: str
    first_player: int
    player: int
    decisions: tuple[tuple[Any, ...], tuple[Any, ...]]  # the JSON of each game's decisions
    answers: tuple[Any, Any]  # the other engine's answers to observe, in each game
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "options": dict(self.options), "label": self.label,
                "first_player": self.first_player, "player": self.player,
                "decisions": [list(d) for d in self.decisions],
                "answers": [_printable(a) for a in self.answers], "message": self.message}


@attrs.frozen
class LeakReport:
    pairs: int  # pairs of games compared
    leak: Leak | None
    seconds: float

    def to_json(self) -> dict[str, Any]:
        return {"status": "no-leak" if self.leak is None else "leak", "pairs": self.pairs,
                "seconds": round(self.seconds, 3),
                "leak": None if self.leak is None else self.leak.to_json()}


def render_leaks(report: LeakReport, argv: Sequence[str], game: Game) -> Iterator[str]:
    """The human report of ``diff --leaks``."""
    command = " ".join(argv)
    if report.leak is None:
        yield (f"no leak: {command} answers observe the same in {_plural(report.pairs, 'pair')} "
               f"of games its player cannot tell apart ({report.seconds:.1f} s)")
        return
    leak = report.leak
    yield f"LEAK: {command}"
    yield f"  {leak.message}"
    yield (f"game: {leak.label}, first player {leak.first_player}; "
           f"{len(leak.decisions[0])} decisions, then {{\"op\": \"observe\", \"player\": "
           f"{leak.player}}} ({_plural(report.pairs, 'pair')}, {report.seconds:.1f} s)")
    if leak.decisions[1]:
        first, second = leak.decisions
        differ = [i for i in range(max(len(first), len(second)))
                  if i >= len(first) or i >= len(second) or
                  _canonical(first[i]) != _canonical(second[i])]
        shown = ", ".join(str(i) for i in differ[:8]) + (", ..." if len(differ) > 8 else "")
        yield (f"the two games differ in {_plural(len(differ), 'decision')} hidden from player "
               f"{leak.player} (--json has both): {shown}")
        a, b = leak.answers
        if isinstance(a, dict) and isinstance(b, dict) and \
                isinstance(a.get("view"), dict) and isinstance(b.get("view"), dict):
            keys = [k for k in sorted(set(a["view"]) | set(b["view"]))
                    if _canonical(a["view"].get(k)) != _canonical(b["view"].get(k))]
            a, b = _narrowed(a["view"], b["view"], keys)
            yield "  (the view's keys that differ; --json shows both answers whole)"
        yield f"  first game:  {_brief(a, 300)}"
        yield f"  second game: {_brief(b, 300)}"


def _narrowed(a: dict[str, Any], b: dict[str, Any],
              keys: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The keys of two views that differ; of a list (a log), its first differing entry."""
    left: dict[str, Any] = {}
    right: dict[str, Any] = {}
    for key in keys:
        x, y = a.get(key), b.get(key)
        if isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
            i = next(i for i in range(len(x)) if _canonical(x[i]) != _canonical(y[i]))
            key = f"{key}[{i}]"
            x, y = x[i], y[i]
        left[key], right[key] = x, y
    return left, right


def _brief(value: Any, limit: int = 70) -> str:
    """``value`` as JSON for a message, cut to ``limit`` characters."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = str(_printable(value))
    return text if len(text) <= limit else text[:limit - 3] + "..."


# --- the report of a run -------------------------------------------------------------------


def render(report: Report, argv: Sequence[str], game: Game | None = None) -> Iterator[str]:
    """The human report."""
    from hanamikoji.engine.core.registry import get

    game = get() if game is None else game
    command = " ".join(argv)
    if report.divergence is None:
        yield (f"no divergence: {command} agrees with the reference in "
               f"{_plural(report.games, 'game')} ({report.seconds:.1f} s)")
        if report.cut_short:
            yield (f"and in {_plural(report.cut_short, 'more game')} as far as they went: "
                   "Hypothesis cut them short, its budget of draws for one game spent")
        if report.view_keys is not None:
            yield f"views compared on the declared keys only: {', '.join(report.view_keys)}"
        return
    d = report.divergence
    yield f"DIVERGENCE: {command}"
    yield f"  {d.message}"
    if report.view_keys is not None:
        yield f"  views compared on the declared keys only: {', '.join(report.view_keys)}"
    how = "after shrinking" if report.shrunk else "as first found"
    if d.variant is None:
        yield f"found {d.where or 'by the check of seeded chance outcomes, before any game'}"
    else:
        found = f"found in game {report.games}"
        if report.shrink_games:
            found += f", shrunk in {_plural(report.shrink_games, 'more game')}"
        yield (f"game: {d.variant}, first player {d.first_player}; {len(d.decisions)} decisions "
               f"{how} ({found}, {report.seconds:.1f} s)")
        yield 'decisions sent after {"op": "new_game"}:' if d.decisions else "no decision sent yet"
    for i, decision in enumerate(d.decisions):
        if i < len(d.texts):
            text = d.texts[i]
        else:
            try:
                text = game.decision_text(game.decision_from_json(decision))
            except (GameError, TypeError, ValueError, RecursionError):
                text = json.dumps(decision)
        first, *more = text.splitlines() or [""]
        yield f"  {i:>3}  {first}"
        for line in more:
            yield f"       {line}"
    yield f"first differing step: {json.dumps(d.request)}"
    reference, other = _printable(d.reference), _printable(d.other)
    if isinstance(reference, dict) and isinstance(other, dict) and \
            isinstance(reference.get("view"), dict) and isinstance(other.get("view"), dict):
        reference, other = reference["view"], other["view"]
        keys = [k for k in sorted(set(reference) | set(other))
                if _canonical(reference.get(k)) != _canonical(other.get(k))]
        yield "  (the view's keys that differ; --json shows both views whole)"
        reference = {k: reference.get(k) for k in keys}
        other = {k: other.get(k) for k in keys}
    if reference is not None or other is not None:
        yield f"  reference: {json.dumps(reference)}"
        yield f"  other:     {json.dumps(other)}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"
