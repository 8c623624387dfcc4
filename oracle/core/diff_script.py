"""``diff``'s hot loop: each game drawn from a plain seeded source, played on the reference
alone and written down, then sent to the other engine in as few lines as the protocol allows.

The harness draws every choice of a game itself (:class:`.diff_draw.SeededDraws`) and never
needs the other engine's answers to go on, so with an adapter that declares protocol 3 a whole
game is one ``batch``: every decision, chance outcome and probe, each followed by the requests
of the step it reaches, exactly the requests :class:`~.diff.DiffGame` sends, in its order. Its
answer line is compared as text with the reference's answers (a probe's answer, whatever its
words, must be an error): the same verdict as judging each answer alone, for the reference's
own text. A game whose answers are anything else is played again on the other engine the
way it always was, step by step from the same choices (:class:`~.diff.DiffGame`): the
divergence and its report are then the same as before. Hypothesis comes in only then, to shrink
the choices of that game (:func:`.diff_draw.shrink`).
"""

from __future__ import annotations

import json
import sys
import threading
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Sequence

from hanamikoji.engine.core.errors import GameError
from hanamikoji.engine.core.game import Game
from hanamikoji.oracle.core import diff as _diff
from hanamikoji.oracle.core.diff import (
    DiffGame,
    Divergence,
    DivergenceFound,
    Engine,
    EngineFailure,
    Progress,
    Report,
    _Stop,
    _Unstarted,
    cannot_start,
    hooks,
    seed_only_draws,
)
from hanamikoji.oracle.core.diff_draw import SeededDraws, shrink as shrink_choices
from hanamikoji.oracle.core.protocol import BATCH_PROTOCOL, batch_request, new_game_request

#: A game's requests are sent once the reference's answers to them reach this many characters
#: (a long game is sent in several batches, each far below the harness's line limit).
BATCH_CHARS = 1 << 20


class Mismatch(Exception):
    """The other engine's answer line to a batch of game ``index`` is not the reference's
    answers."""

    def __init__(self, index: int) -> None:
        super().__init__(index)
        self.index = index


class Failed(Exception):
    """The other engine failed (crashed, hung, broke the protocol) while a batch of game
    ``index`` was written or its answer read."""

    def __init__(self, index: int, failure: EngineFailure) -> None:
        super().__init__(index)
        self.index = index
        self.failure = failure


#: In a game's expected answers: the answer to a probe, any JSON object with an ``"error"``.
REFUSED = None
#: In a game's expected answers: the answer to ``new_game`` of an adapter that answers
#: batches and compares whole views (what :meth:`~.diff.DiffGame.start` accepts as that).
STARTED = object()


class Pipeline:
    """The batches sent to the other engine, one in flight at a time: a batch is written, and
    its answer read only when the next is ready to go (or at the end), so the other engine
    answers one while the harness writes down the next. ``done(index)`` is told as the last
    batch of game ``index`` is answered as the reference answers it."""

    def __init__(self, engine: Engine, done: Callable[[int], None]) -> None:
        self.engine = engine
        self.done = done
        self.flight: tuple[dict[str, Any], list[Any], int, bool] | None = None

    def send(self, requests: list[dict[str, Any]], expected: list[Any], index: int,
             last: bool) -> None:
        """Write a batch of game ``index`` (``last``: its last), once the one in flight is
        answered."""
        self.land()
        message = batch_request(requests)
        try:
            self.engine.write_request(message)
        except EngineFailure as failure:
            raise Failed(index, failure) from None
        self.flight = (message, expected, index, last)

    def land(self) -> None:
        """Read and judge the answer of the batch in flight, if any: :class:`Mismatch` or
        :class:`Failed` for its game."""
        if self.flight is None:
            return
        message, expected, index, last = self.flight
        self.flight = None
        try:
            line = self.engine.read_answer(message)
        except EngineFailure as failure:
            raise Failed(index, failure) from None
        if not agrees(line, expected):
            raise Mismatch(index)
        if last:
            self.done(index)


class ScriptedGame(DiffGame):
    """Game ``index`` played on the reference alone, each request written down with the
    reference's answer as canonical text (or :data:`REFUSED`, :data:`STARTED`), and sent to
    the other engine in batches through ``pipeline``. The first game of an engine's process is
    started alone (its answer to ``new_game`` declares what it answers); once it has declared
    batches, ``new_game`` goes in the batch too, and a whole game is one line."""

    def __init__(self, engine: Engine, game: Game, config: Any, first_player: int,
                 pipeline: Pipeline, index: int) -> None:
        super().__init__(engine, game, config, first_player)
        self.pipeline = pipeline
        self.index = index
        self.requests: list[dict[str, Any]] = []
        self.expected: list[Any] = []
        self.chars = 0
        #: Requests sent in earlier batches of this game.
        self.sent = 0
        #: The game is played step by step, as a :class:`~.diff.DiffGame` plays it: the
        #: engine does not answer batches, or compares only some keys of a view.
        self.live = False

    def start(self) -> Any:
        if self.engine.batched:  # this process declared batches: new_game goes in one too
            request = (new_game_request(self.game, self.config, self.first_player)
                       if self.engine.general else
                       self.hooks.new_game_request(self.config, self.first_player))
            self._add([request], (STARTED,))
            return self.game.new_game(self.config, self.first_player)
        self.pipeline.land()
        state = super().start()  # new_game, asked alone: its answer declares the protocol
        self.live = not self.engine.batched or self.view_keys is not None
        return state

    def _add(self, requests: list[dict[str, Any]], texts: Sequence[Any]) -> None:
        self.requests.extend(requests)
        self.expected.extend(texts)
        for text in texts:
            if type(text) is str:
                self.chars += len(text)
        if self.chars >= BATCH_CHARS:
            self.flush(last=False)

    def compare(self, state: Any) -> None:
        if self.live:
            super().compare(state)
            return
        texts = self.step_texts(state)
        assert texts is not None  # whole views: start() saw to it
        self._add(self.step_requests(state), texts)

    def send(self, state: Any, decision: Any) -> Any:
        if self.live:
            return super().send(state, decision)
        after = self.game.apply(state, decision)
        self._add([self.request_for(state, decision)], ('{"ok":true}',))
        return after

    def probe(self, state: Any, decision: Any) -> None:
        if self.live:
            super().probe(state, decision)
            return
        try:
            self.game.apply(state, decision)
        except GameError:
            self._add([self.request_for(state, decision)], (REFUSED,))

    def flush(self, last: bool = True) -> None:
        """Send the requests written down since the last batch, in one batch (the answer is
        judged when the next batch goes, or at the end: :meth:`Pipeline.land`)."""
        if self.live:
            return
        requests, expected = self.requests, self.expected
        self.requests, self.expected, self.chars = [], [], 0
        self.sent += len(requests)
        self.pipeline.send(requests, expected, self.index, last)


_DECODER = json.JSONDecoder()


def agrees(line: bytes, expected: Sequence[Any]) -> bool:
    """Whether ``line`` is ``{"answers": [...]}`` with the texts ``expected`` in order, where
    :data:`REFUSED` is any JSON object with an ``"error"`` (the answer to a probe) and
    :data:`STARTED` an answer to ``new_game`` that declares batches and whole views."""
    if all(type(part) is str for part in expected):
        return line == ('{"answers":[' + ",".join(expected) + "]}\n").encode()
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return False
    head = '{"answers":['
    if not text.startswith(head):
        return False
    at = len(head)
    for index, part in enumerate(expected):
        if index:
            if not text.startswith(",", at):
                return False
            at += 1
        if type(part) is not str:
            try:
                value, at = _DECODER.raw_decode(text, at)
            except (ValueError, RecursionError):
                return False
            if not (_started(value) if part is STARTED else
                    isinstance(value, dict) and "error" in value):
                return False
        else:
            if not text.startswith(part, at):
                return False
            at += len(part)
    return text[at:] == "]}\n"


_limit_lock = threading.Lock()
_limit_users = 0
_limit_saved = 0


@contextmanager
def free_stackframes() -> Iterator[None]:
    """Room for 2,000 more frames while games are played, as Hypothesis makes while a test
    runs (``ensure_free_stackframes``): an answer nested deeply is then read the same in a game
    played here as in one Hypothesis replays while shrinking. Nests, and holds across threads
    (the limit is the interpreter's)."""
    global _limit_users, _limit_saved
    depth = 0
    frame: Any = sys._getframe()
    while frame is not None:
        depth += 1
        frame = frame.f_back
    with _limit_lock:
        if _limit_users == 0:
            _limit_saved = sys.getrecursionlimit()
        _limit_users += 1
        sys.setrecursionlimit(max(sys.getrecursionlimit(), depth + 2000))
    try:
        yield
    finally:
        with _limit_lock:
            _limit_users -= 1
            if _limit_users == 0:
                sys.setrecursionlimit(_limit_saved)


def _started(answer: Any) -> bool:
    """An answer to ``new_game`` that :meth:`~.diff.DiffGame.start` takes as accepted, with
    batches (protocol 3 or later) and whole views."""
    if not isinstance(answer, dict) or answer.get("ok") is not True:
        return False
    declared = answer.get("protocol")
    return (type(declared) is int and declared >= BATCH_PROTOCOL
            and answer.get("view_keys") in (None, []))


def compare_drawn(engine: Engine, game: Game, configs: Sequence[Any], *, games: int, seed: int,
                  shrink: int, progress: Progress | None, start: float) -> Report:
    """:func:`~.diff.compare_engines` after its check of seeded chance: ``games`` games, game
    ``i`` drawn from ``SeededDraws(seed, i)``, each sent as batches where the engine answers
    them; the first divergence, shrunk by Hypothesis from that game's choices in at most
    ``shrink`` more games."""
    hook = hooks(game)

    def live(draws: Any) -> None:
        engine.ensure_started()
        hook.play_drawn(draws, lambda config, first: DiffGame(engine, game, config, first),
                        configs)

    compared = 0

    def done(index: int) -> None:  # games end in order: the count is the next game's index
        nonlocal compared
        compared = index + 1
        if progress is not None:
            progress("comparing", compared, games, engine.decisions)

    pipeline = Pipeline(engine, done)
    made: dict[int, ScriptedGame] = {}  # the games that may still be in flight, by index

    def one(index: int) -> tuple[Divergence, list[int], bool] | None:
        """Game ``index``, written down and sent (its answers are judged later, as the next
        batch goes): None, or a divergence found in it step by step, the choices that led to
        it and whether it ended the search (a hang, a protocol error)."""
        def match_for(config: Any, first: int) -> ScriptedGame:
            made[index] = ScriptedGame(engine, game, config, first, pipeline, index)
            made.pop(index - 2, None)
            return made[index]

        draws = SeededDraws(seed, index)
        if pipeline.flight is None:
            engine.ensure_started()
        try:
            hook.play_drawn(draws, match_for, configs)
            made[index].flush()
            if made[index].live:
                done(index)
            return None
        except DivergenceFound as found:
            if index in made and made[index].live:
                return found.divergence, draws.choices, False
        except _Stop as stop:
            if index in made and made[index].live:
                return stop.divergence, draws.choices, stop.hang
        return _replayed(live, seed, index, made.get(index))

    def first_found() -> tuple[Divergence, list[int], bool] | None:
        """The games in order until one diverges: what was found in it, or None."""
        try:
            for index in range(games):
                _diff.interrupt.check()
                found = one(index)
                if found is not None:
                    done(index)
                    return found
            pipeline.land()
            return None
        except (Mismatch, Failed) as wrong:  # a game's batch: that game step by step
            if isinstance(wrong, Failed) and wrong.failure.unstarted:
                raise _Unstarted(cannot_start(engine.argv, wrong.failure)) from None
            pipeline.flight = None
            found = _replayed(live, seed, wrong.index, made.get(wrong.index))
            done(wrong.index)
            return found

    if progress is not None:
        progress("comparing", 0, games, engine.decisions)
    found: tuple[Divergence, list[int], bool] | None = None
    try:
        with free_stackframes():
            found = first_found()
        divergence = None if found is None else found[0]
        hung = found is not None and found[2]
        shrinking = 0
        if found is not None and shrink > 0 and not hung:
            divergence, hung, shrinking = _shrunk(live, found[0], found[1], seed, shrink,
                                                  engine, progress)
    except _Unstarted as unstarted:
        engine.stop()
        raise unstarted.error from None
    except BaseException:
        engine.stop()
        raise
    # Read the engine's output to its end: a line nobody asked for is the diagnosis, whatever
    # the answers before it looked like (a request answered twice shifts every later answer).
    extra = engine.settle()
    if extra is not None and not (divergence is not None and hung and
                                  divergence.message == extra.message):
        divergence = Divergence(None, None, (), extra.request, None, None, extra.message,
                                game.name, where="when the engine was stopped after the games")
        hung = True
    return Report(compared, divergence, engine.starts, time.perf_counter() - start,
                  shrink > 0 and divergence is not None and not hung,
                  getattr(engine, "view_keys", None), shrinking, 0)


def _replayed(live: Callable[[Any], None], seed: int, index: int,
              scripted: Any) -> tuple[Divergence, list[int], bool] | None:
    """Game ``index`` played again step by step on the other engine: its divergence, the
    choices that led to it and whether it ended the search (a hang, a protocol error), or
    None when it agrees. ``scripted``: the game as sent in batches (None: it never began)."""
    draws = SeededDraws(seed, index)
    try:
        live(draws)
    except DivergenceFound as found:
        return found.divergence, draws.choices, False
    except _Stop as stop:
        return stop.divergence, draws.choices, stop.hang
    if not isinstance(scripted, ScriptedGame):
        return None
    # Step by step it agreed, but not in batches: the batches are what differs.
    return (Divergence(scripted.label, scripted.first_player, (),
                       {"op": "batch", "requests": len(scripted.requests) + scripted.sent},
                       None, None, "the answers to the requests of a game sent in batches "
                       "differ from the answers to the same requests sent one step at a time",
                       game=scripted.game.name,
                       options=tuple(scripted.game.options_of(scripted.config).items())),
            draws.choices, True)


def _shrunk(live: Callable[[Any], None], first: Divergence, choices: list[int], seed: int,
            shrink: int, engine: Engine,
            progress: Progress | None) -> tuple[Divergence, bool, int]:
    """Hypothesis shrinks the game of ``choices`` (which diverged as ``first``) in at most
    ``shrink`` more games: the smallest divergence, whether the search ended on a hang, and
    the games played."""
    from hypothesis.errors import Flaky

    best = first
    played = 0

    def test(draws: Any) -> None:
        nonlocal best, played
        _diff.interrupt.check()  # the one Ctrl-C check of the harness (through its module)
        if played >= shrink:
            raise _Stop(best)
        played += 1
        try:
            live(draws)
        except DivergenceFound as found:
            if found.divergence.size() < best.size():
                best = found.divergence
            raise
        finally:
            if progress is not None:
                progress("shrinking", played, shrink, engine.decisions)

    hung = False
    divergence = best
    try:
        with seed_only_draws():
            shrink_choices(test, choices, seed, shrink + 1)
    except DivergenceFound as found:
        divergence = found.divergence
    except _Stop as stop:
        divergence, hung = stop.divergence, stop.hang
    except Flaky:
        divergence = best
    if best.size() < divergence.size():
        divergence = best
    return divergence, hung, played
