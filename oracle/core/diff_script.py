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

import gc
import json
import sys
import threading
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Sequence

from hanamikoji.engine.core.errors import GameError
from hanamikoji.engine.core.game import CHANCE
from hanamikoji.oracle.core.diff_engine import DECISION_OPS
from hanamikoji.oracle.core.diff_report import _canonical
from hanamikoji.oracle.core.protocol import (BATCH_PROTOCOL, CHANGES_PROTOCOL, batch_request,
                                              decision_json, decision_text, dumps,
                                              new_game_request, refusal_text)

#: A game's requests are sent once the reference's answers to them reach this many characters
#: (64 KiB, a pipe's capacity: an answer line about that long is written whole while the
#: harness writes down the next batch). A long game goes in several batches, so the harness and
#: the adapter take turns on parts of a game rather than on whole games, whose lengths differ
#: (a Maiko game lasts a hundred steps or five hundred): neither waits long for the other.
BATCH_CHARS = 1 << 16


class Mismatch(Exception):
    """The other engine's answer line to a batch of game ``index`` is not the reference's
    answers, byte for byte: ``line``, the answer to ``requests``, whose reference answers are
    ``expected``; ``last``: the game's last batch."""

    def __init__(self, index: int, line: bytes = b"", requests: Sequence[Any] = (),
                 expected: Sequence[Any] = (), last: bool = True) -> None:
        super().__init__(index)
        self.index = index
        self.line = line
        self.requests = requests
        self.expected = expected
        self.last = last


class Failed(Exception):
    """The other engine failed (crashed, hung, broke the protocol) while a batch of game
    ``index`` was written or its answer read: ``failure``, its :class:`~.diff.EngineFailure`."""

    def __init__(self, index: int, failure: Any) -> None:
        super().__init__(index)
        self.index = index
        self.failure = failure


class Refused(str):
    """In a game's expected answers: the answer to a probe, which any JSON object with an
    ``"error"`` is. Its text is the reference adapter's own answer (the refusal's words and
    rule, :func:`.protocol.refusal_text`): a line that has it agrees without being read."""


class Started(str):
    """In a game's expected answers: the answer to ``new_game`` of an adapter that answers
    batches and compares whole views, which any answer :meth:`~.diff.DiffGame.start` accepts as
    that is. Its text is the reference adapter's own answer under the protocol the adapter
    declared."""


class Pipeline:
    """The batches sent to the other engine, one in flight at a time: a batch is written, and
    its answer read only when the next is ready to go (or at the end), so the other engine
    answers one while the harness writes down the next. ``done(index)`` is told as the last
    batch of game ``index`` is answered as the reference answers it."""

    def __init__(self, engine: Any, done: Callable[[int], None],
                 failures: type[Exception]) -> None:
        self.engine = engine  # a diff.Engine: write_request, read_answer
        self.done = done
        self.failures = failures  # what the engine raises when it fails: diff.EngineFailure
        self.flight: tuple[dict[str, Any], list[Any], int, bool, int | None] | None = None

    def send(self, requests: list[dict[str, Any]], expected: list[Any], index: int,
             last: bool, texts: list[str] | None = None, decisions: int | None = None) -> None:
        """Write a batch of game ``index`` (``last``: its last), once the one in flight is
        answered; ``texts``: the requests' JSON, written already; ``decisions``: how many
        decisions and chance outcomes it sends, counted already."""
        self.land()
        message = batch_request(requests)
        try:
            self.engine.write_request(message, None if texts is None else
                                      '{"op":"batch","requests":[' + ",".join(texts) + "]}")
        except self.failures as failure:
            raise Failed(index, failure) from None
        self.flight = (message, expected, index, last, decisions)

    def land(self) -> None:
        """Read and judge the answer of the batch in flight, if any: :class:`Mismatch` or
        :class:`Failed` for its game."""
        if self.flight is None:
            return
        message, expected, index, last, decisions = self.flight
        self.flight = None
        try:
            line = self.engine.read_answer(message, decisions)
        except self.failures as failure:
            raise Failed(index, failure) from None
        if not agrees(line, expected):
            raise Mismatch(index, line, message["requests"], expected, last)
        if last:
            self.done(index)


class ScriptedGame:
    """Game ``index`` played on the reference alone by ``match`` (a :class:`~.diff.DiffGame`,
    which makes the requests and the reference's answers), each request written down with the
    reference's answer as canonical text (a :class:`Refused` or :class:`Started` one where
    other answers are right too), and sent to the other engine in batches through
    ``pipeline``. The first game of an engine's process is
    started alone (its answer to ``new_game`` declares what it answers); once it has declared
    batches, ``new_game`` goes in the batch too, and a whole game is one line. An engine that
    does not answer batches, or compares only some keys of a view, has the game played step by
    step by ``match`` itself (``live``)."""

    def __init__(self, match: Any, pipeline: Pipeline, index: int) -> None:
        self.match = match
        self.pipeline = pipeline
        self.index = index
        self.requests: list[dict[str, Any]] = []
        self.written: list[str] = []  # the requests' JSON
        self.decisions = 0  # the decisions and chance outcomes among them (probes too)
        self.expected: list[str] = []
        self.chars = 0
        #: Requests sent in earlier batches of this game.
        self.sent = 0
        #: The earlier batches of this game: their requests and the reference's answers.
        self.batches: list[tuple[list[dict[str, Any]], list[Any]]] = []
        self.live = False

    def start(self) -> Any:
        match = self.match
        engine = match.engine
        if engine.batched:  # this process declared batches: new_game goes in one too
            request = (new_game_request(match.game, match.config, match.first_player)
                       if engine.general else
                       match.hooks.new_game_request(match.config, match.first_player))
            declared = CHANGES_PROTOCOL if engine.changes else BATCH_PROTOCOL
            self._add(request, None, Started(dumps({"ok": True, "protocol": declared})))
            return match.game.new_game(match.config, match.first_player)
        self.pipeline.land()
        state = match.start()  # new_game, asked alone: its answer declares the protocol
        self.live = not engine.batched or match.view_keys is not None
        return state

    def _add(self, request: dict[str, Any], written: str | None, text: str) -> None:
        """Write down ``request`` (its JSON ``written``, if known) and the reference's answer
        ``text`` (a :class:`Refused` or :class:`Started` text where other answers are right
        too)."""
        self.requests.append(request)
        self.written.append(json.dumps(request) if written is None else written)
        self.expected.append(text)
        self.chars += len(text)
        if self.chars >= BATCH_CHARS:
            self.flush(last=False)

    def legal_actions(self, state: Any) -> Any:
        return self.match.legal_actions(state)

    def current_player(self, state: Any) -> int:
        return self.match.current_player(state)

    def compare(self, state: Any) -> None:
        if self.live:
            self.match.compare(state)
            return
        requests, written, texts = self.match.scripted_answers(state)  # whole views: start()
        self.requests += requests
        self.written += written
        self.expected += texts
        self.chars += sum(map(len, texts))
        if self.chars >= BATCH_CHARS:
            self.flush(last=False)

    def send(self, state: Any, decision: Any) -> Any:
        match = self.match
        if self.live:
            return match.send(state, decision)
        after = match.game.apply(state, decision)
        self._add(*self._request(state, decision), '{"ok":true}')
        return after

    def probe(self, state: Any, decision: Any) -> None:
        match = self.match
        if self.live:
            match.probe(state, decision)
            return
        try:
            match.game.apply(state, decision)
        except GameError as error:
            self._add(*self._request(state, decision), Refused(refusal_text(error)))

    def _request(self, state: Any, decision: Any) -> tuple[dict[str, Any], str | None]:
        """:meth:`~.diff.DiffGame.request_for` ``decision`` at ``state``, counted among the
        decisions, and its JSON where a decision's text is kept (:func:`.protocol.decision_text`)
        or None."""
        match = self.match
        game = match.game
        if match.current_player(state) != CHANCE:  # a player's decision: request_for's apply
            self.decisions += 1
            return ({"op": "apply", "decision": decision_json(game, decision)},
                    f'{{"op":"apply","decision":{decision_text(game, decision)}}}')
        request = match.request_for(state, decision)
        op = request["op"]
        self.decisions += op in DECISION_OPS
        if op == "chance" and "outcome" in request:  # the general form: the outcome's JSON
            return request, f'{{"op":"chance","outcome":{decision_text(game, decision)}}}'
        return request, None

    def flush(self, last: bool = True) -> None:
        """Send the requests written down since the last batch, in one batch (the answer is
        judged when the next batch goes, or at the end: :meth:`Pipeline.land`)."""
        if self.live:
            return
        requests, expected, written = self.requests, self.expected, self.written
        decisions, self.decisions = self.decisions, 0
        self.requests, self.expected, self.written, self.chars = [], [], [], 0
        self.sent += len(requests)
        self.pipeline.send(requests, expected, self.index, last, written, decisions)
        if not last:  # kept while the game goes on: a later batch is judged from them
            self.batches.append((requests, expected))

    def judged(self, wrong: Mismatch) -> bool:
        """Whether the answers of the batch ``wrong`` names, which are not the reference's own
        text, are the reference's answers all the same: each judged as it would be alone (a
        view in the game's own order, JSON written another way, the legal decisions in
        another order, a view's changes that make the same view). Every batch of this game
        before it was the reference's text."""
        try:
            answers = json.loads(wrong.line)["answers"]
        except (ValueError, TypeError, KeyError, RecursionError):
            return False
        if not isinstance(answers, list) or len(answers) != len(wrong.expected):
            return False
        views = _Views(self.match)
        for requests, expected in self.batches:  # answered as the reference answers them
            for request, text in zip(requests, expected):
                if type(text) is str and request.get("op") == "view_changes":
                    changes = json.loads(text)["view_changes"]
                    views.take(request["player"], changes, changes)
        try:
            return all(_same_answer(self.match, views, request, text, answer)
                       for request, text, answer in zip(wrong.requests, wrong.expected, answers))
        except RecursionError:
            return False


class _Views:
    """Protocol 4: each player's view as the reference's ``view_changes`` make it and as the
    other engine's make it."""

    def __init__(self, match: Any) -> None:
        self.match = match
        self.reference: dict[Any, Any] = {}
        self.other: dict[Any, Any] = {}

    def take(self, player: Any, mine: Any, theirs: Any) -> bool:
        """Apply both engines' changes; whether the two views are then the same (the other's
        put in the reference's order first)."""
        from hanamikoji.engine.core.codec import apply_view_changes

        key = json.dumps(player)
        self.reference[key] = apply_view_changes(self.reference.get(key), mine)
        try:
            self.other[key] = apply_view_changes(self.other.get(key), theirs)
        except ValueError:
            return False
        return _same_view(self.match, self.reference[key], self.other[key])


def _same_view(match: Any, reference: Any, other: Any) -> bool:
    try:
        other = match.hooks.normal_view(other)
    except Exception:  # whatever an adapter answers is judged, never a crash of ours
        pass
    return _canonical(other) == dumps(reference)


def _same_answer(match: Any, views: _Views, request: dict[str, Any], text: Any,
                 answer: Any) -> bool:
    """Whether ``answer`` to ``request`` is the reference's answer ``text`` (or, for
    :class:`Refused` and :class:`Started`, what those accept), judged as :class:`~.diff.DiffGame`
    judges an answer alone."""
    if type(text) is Refused:
        return isinstance(answer, dict) and "error" in answer
    if type(text) is Started:
        return _started(answer)
    if not isinstance(answer, dict):
        return False
    op = request.get("op")
    expected = json.loads(text)
    # Only the key asked for is looked at, as step by step (an answer may say more).
    if op == "observe":
        return isinstance(answer.get("view"), dict) and _same_view(match, expected["view"],
                                                                   answer["view"])
    if op == "view_changes":
        return "view_changes" in answer and views.take(
            request.get("player"), expected["view_changes"], answer["view_changes"])
    if op == "legal_actions":
        got = answer.get("legal_actions")
        if not isinstance(got, list):
            return False
        game = match.game
        try:
            mine = sorted(dumps(game.decision_to_json(game.decision_from_json(d)))
                          for d in got)
        except Exception:  # not a decision: judged step by step
            return False
        return mine == sorted(dumps(d) for d in expected["legal_actions"])
    if op in ("apply", "chance", "deal"):
        return answer.get("ok") is True
    return all(key in answer and _canonical(answer[key]) == dumps(value)
               for key, value in expected.items())


_DECODER = json.JSONDecoder()
_END = object()


def agrees(line: bytes, expected: Sequence[str]) -> bool:
    """Whether ``line`` is ``{"answers": [...]}`` with the texts ``expected`` in order, where
    a :class:`Refused` text is any JSON object with an ``"error"`` (the answer to a probe) and
    a :class:`Started` text any answer to ``new_game`` that declares batches and whole views.
    The reference's own line is the texts joined, compared as bytes; only another line is
    read."""
    answers = ",".join(expected).encode()
    if len(line) == len(answers) + 15 and line.startswith(b'{"answers":[') and \
            line.startswith(answers, 12) and line.endswith(b"]}\n"):
        return True
    if all(type(part) is str for part in expected):  # nothing but texts: those bytes or none
        return False
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return False
    head = '{"answers":['
    if not text.startswith(head):
        return False
    at = len(head)
    count = 0  # the answers read
    texts: list[str] = []  # the answers that are text since the last that is not
    for part in [*expected, _END]:  # the end, not text, ends the last run
        if type(part) is str:
            texts.append(part)
            continue
        if texts:  # a run of texts is compared as one
            run = ",".join(texts)
            if count:
                run = "," + run
            if not text.startswith(run, at):
                return False
            at += len(run)
            count += len(texts)
            texts = []
        if part is _END:
            break
        if count:
            if not text.startswith(",", at):
                return False
            at += 1
        try:
            value, at = _DECODER.raw_decode(text, at)
        except (ValueError, RecursionError):
            return False
        if not (_started(value) if type(part) is Started else
                isinstance(value, dict) and "error" in value):
            return False
        count += 1
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


#: The collector's thresholds while games are played (:func:`collector_for_games`).
GAMES_THRESHOLDS = (100_000, 100, 100)
_collector_users = 0
_collector_saved: tuple[int, int, int] = (700, 10, 10)


@contextmanager
def collector_for_games() -> Iterator[None]:
    """The cycle collector kept out of the way of the games: what the process held before them
    (its modules, the engines' tables and menus) is frozen out of every collection
    (``gc.freeze``), and the youngest generation is looked at every 100,000 new containers
    rather than 700. A game makes and drops a great many small lists, tuples and states,
    which reference counting frees at once; the collector only looks for cycles, and at the
    default pace the harness spent about twice as long in it as the reference adapter did in
    a Maiko run. Nests, and holds across threads (the collector is the interpreter's); the
    thresholds and the frozen objects are given back at the end."""
    global _collector_users, _collector_saved
    with _limit_lock:
        if _collector_users == 0:
            _collector_saved = gc.get_threshold()
            gc.freeze()
            gc.set_threshold(*GAMES_THRESHOLDS)
        _collector_users += 1
    try:
        yield
    finally:
        with _limit_lock:
            _collector_users -= 1
            if _collector_users == 0:
                gc.set_threshold(*_collector_saved)
                gc.unfreeze()


def _started(answer: Any) -> bool:
    """An answer to ``new_game`` that :meth:`~.diff.DiffGame.start` takes as accepted, with
    batches (protocol 3 or later) and whole views."""
    if not isinstance(answer, dict) or answer.get("ok") is not True:
        return False
    declared = answer.get("protocol")
    return (type(declared) is int and declared >= BATCH_PROTOCOL
            and answer.get("view_keys") in (None, []))
