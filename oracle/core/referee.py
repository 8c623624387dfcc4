"""The referee: one game between bots, every decision checked by the reference engine.

Each seat is a bot (:class:`BotSpec`): a command speaking the bot protocol
(:mod:`hanamikoji.oracle.core.bot`), started for the game in a session of its own under the
keeper (:mod:`.keeper`, on Linux) and ended, with every process it started, even one that left
its session, when the game ends or the referee stops for any reason; or a built-in
bot run in this process (trusted code: no process, no clock). The chance outcomes come from
their own seeded source (the deal's), so every seating of a deal is dealt the same cards.

A bot that faults loses the game (:class:`Forfeit`): it crashed (its process ended or closed its
output), it ran out of time (the per-decision limit, or the per-game limit on all its
decisions), it answered what is not an answer (not one JSON object of at most
:data:`MAX_LINE` bytes, not the answer its request asks for, a decision of the wrong form:
``malformed``), or a decision the rules forbid (``illegal``, with the rule the engine cites).
The forfeit says which seat, why, the rule, the answer (cut short), the request the bot was
answering (whole: the call to make again to reproduce the fault) and the game so far; for a
command bot's crash, time or malformed answer also the end of what it wrote to its standard
error (the last :data:`STDERR_TAIL` bytes) and how its process ended, if it had: a thrown
error's message, a runtime's ``abort``, a mistyped module path, said where the bot said it.
A caller may also watch every request and answer as they pass (``trace``: a game replayed to
see the call its bot failed on).

The referee reads a bot's bytes and never trusts them: a line is read up to its limit in
chunks as they come, against the clock; its standard error is read as it comes by a thread of
its own, which keeps only the last bytes, so a bot that writes megabytes there neither blocks
nor fills anything.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import threading
import time
from typing import Any, Callable, Sequence

import attrs

from hanamikoji.runtime.processes import (exit_status, group_ended, group_started,
                                         signal_group)
from hanamikoji.runtime.processes import sigint_deferred, sigint_to_main_thread
from hanamikoji.engine.core.errors import GameError, InvalidActionError
from hanamikoji.engine.core.game import CHANCE, Game, Outcome
from hanamikoji.engine.core.seeded import game_rng
from hanamikoji.runtime import keeper
from hanamikoji.oracle.core.bot import (Bot, decide_request, hooks, new_game_request,
                                        request_of)

__all__ = ["BotSpec", "Forfeit", "Limits", "Played", "Trace", "play"]

#: Seconds a keeper has to end a bot and what it started (it kills them at once; a bound only
#: in case it cannot).
END_BOUND = 30.0

#: The longest line a bot may answer, in bytes (a Maiko view is a few kilobytes; an answer is
#: a decision).
MAX_LINE = 64 * 1024

#: The bytes of a command bot's standard error a forfeit keeps: the last ones written.
STDERR_TAIL = 4 * 1024

#: Seconds the referee waits, after a bot's output has ended, for its process's exit status
#: (the keeper exits as soon as the bot's processes have: a bound only in case a bot closed its
#: output and lives on; the referee then ends it, and says nothing of its status).
EXIT_BOUND = 2.0


@attrs.frozen
class BotSpec:
    """A bot of a tournament: its name in the standings, and either a command (``argv``) or a
    built-in bot's maker (``make``), run in this process."""

    name: str
    argv: tuple[str, ...] = ()
    make: Callable[[], Bot] | None = attrs.field(default=None, eq=False)


@attrs.frozen
class Limits:
    """The time limits: each decision (the course's 2 s), all of one bot's decisions in a game,
    and a process's start (its answer to ``new_game``)."""

    decision: float = 2.0
    game: float = 60.0
    start: float = 10.0


@attrs.frozen
class Forfeit:
    """Why a seat lost: ``kind`` is ``crash``, ``time``, ``malformed`` or ``illegal``; ``rule``
    the rule ID the engine cites (None where none applies); ``answer`` what it answered (cut
    short); ``message`` for a person; for a command bot's ``crash``, ``time`` or ``malformed``,
    ``stderr`` the end of its standard error (at most :data:`STDERR_TAIL` bytes, decoded with
    undecodable bytes replaced; None when it wrote nothing) and ``exit`` how its process ended
    on its own (``exit code 1``, ``killed by SIGSEGV``; None when it had not, or the referee
    ended it); ``request`` the request the bot was answering, whole, as it was sent
    (``new_game`` for a fault at the start, ``decide`` for a decision; for a game's time spent
    before it was asked, the ``decide`` that was due)."""

    seat: int
    kind: str
    message: str
    rule: str | None = None
    answer: str | None = None
    stderr: str | None = None
    exit: str | None = None
    request: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "rule": self.rule,
                "message": self.message, "answer": self.answer, "stderr": self.stderr,
                "exit": self.exit, "request": self.request}


@attrs.frozen
class Played:
    """A game played: its final state (the game so far, after a forfeit), its outcome (None
    after a forfeit) and the forfeit."""

    state: Any
    outcome: Outcome | None
    forfeit: Forfeit | None

    def winners(self, players: int) -> tuple[int, ...]:
        """The seats that won: the outcome's, or after a forfeit every other seat."""
        if self.forfeit is not None:
            return tuple(p for p in range(players) if p != self.forfeit.seat)
        assert self.outcome is not None
        return self.outcome.winners


class _Fault(Exception):
    def __init__(self, kind: str, message: str, rule: str | None = None,
                 answer: str | None = None) -> None:
        super().__init__(message)
        self.kind, self.message, self.rule, self.answer = kind, message, rule, answer
        self.request: dict[str, Any] | None = None  # set by :func:`play`, which made it


#: Who watches a game's exchanges (:func:`play`'s ``trace``): called with the seat, ``"request"``
#: or ``"answer"``, and the line as it passed (an answer's bytes decoded, undecodable ones
#: replaced; a built-in bot's request and answer as the protocol would carry them).
Trace = Callable[[int, str, str], None]


def _line_of(message: Any) -> str:
    """A message as the protocol carries it: compact JSON, one line."""
    return json.dumps(message, separators=(",", ":"))


def _cut(data: bytes | str, limit: int = 200) -> str:
    text = data if isinstance(data, str) else data.decode("utf-8", "replace")
    return text if len(text) <= limit else text[:limit] + "..."


class _InProcess:
    """A built-in bot, called directly."""

    def __init__(self, spec: BotSpec, seat: int = 0, trace: Trace | None = None) -> None:
        assert spec.make is not None
        self.make = spec.make
        self.seat, self.trace = seat, trace
        self.bot: Bot | None = None
        self.hello: dict[str, Any] = {}

    def start(self, hello: dict[str, Any], limits: Limits) -> None:
        self.bot, self.hello = self.make(), hello
        self._traced(hello, {"ok": True})

    def ask(self, request: dict[str, Any], seconds: float) -> tuple[Any, float]:
        assert self.bot is not None
        if self.trace is not None:
            self.trace(self.seat, "request", _line_of(request))
        decision = self.bot.decide(request_of(self.hello, request))
        if self.trace is not None:
            self.trace(self.seat, "answer", json.dumps({"decision": decision},
                                                       separators=(",", ":"), default=repr))
        return decision, 0.0

    def _traced(self, request: dict[str, Any], answer: dict[str, Any]) -> None:
        if self.trace is not None:
            self.trace(self.seat, "request", _line_of(request))
            self.trace(self.seat, "answer", _line_of(answer))

    def close(self) -> None:
        self.bot = None

    def fault_ended(self, fault: _Fault) -> None:
        """Nothing to note: a built-in bot has no process."""

    def said(self) -> tuple[str | None, str | None]:
        return None, None


class _Process:
    """A command bot: its own session, under the keeper; its answers read against the clock.
    A bot that ends is a crash as soon as it has ended: the keeper then ends whatever it
    started, and with them every holder of the bot's output, whose end the referee reads."""

    def __init__(self, spec: BotSpec, seat: int = 0, trace: Trace | None = None) -> None:
        self.argv = spec.argv
        self.seat, self.trace = seat, trace
        self.process: subprocess.Popen[bytes] | None = None
        self.buffer = b""
        self.stderr: _Tail | None = None
        self.exit: str | None = None

    def start(self, hello: dict[str, Any], limits: Limits) -> None:
        # Ctrl-C held back while the process starts, so that it is ours to end once started.
        with sigint_deferred():
            self.process = _launch(self.argv)
            group_started(self.process.pid)  # ended by the main process if this worker dies
            assert self.process.stderr is not None
            self.stderr = _Tail(self.process.stderr)
        self.greet(hello, limits.start)

    def greet(self, hello: dict[str, Any], seconds: float) -> None:
        """Send ``new_game`` to the running bot (a game starts, in the same process as the
        games before it, as ``check``'s long run of calls does) and check its answer."""
        answer, _ = self._exchange(hello, seconds, "new_game")
        if not (isinstance(answer, dict) and answer.get("ok") is True
                and set(answer) <= {"ok", "name"} and isinstance(answer.get("name", ""), str)):
            raise _Fault("malformed", 'the answer to new_game is not {"ok": true}',
                         answer=_cut(json.dumps(answer)))

    def ask(self, request: dict[str, Any], seconds: float) -> tuple[Any, float]:
        answer, spent = self._exchange(request, seconds, "decide")
        if not (isinstance(answer, dict) and set(answer) == {"decision"}):
            raise _Fault("malformed", 'the answer to decide is not {"decision": ...}',
                         answer=_cut(json.dumps(answer)))
        return answer["decision"], spent

    def _exchange(self, message: dict[str, Any], seconds: float, op: str) -> tuple[Any, float]:
        assert self.process is not None and self.process.stdin is not None
        begun = time.monotonic()
        sent = _line_of(message)
        if self.trace is not None:
            self.trace(self.seat, "request", sent)
        self._send(sent.encode() + b"\n", begun, seconds, op)
        line = self._line(begun, seconds, op)
        spent = time.monotonic() - begun
        if self.trace is not None:
            self.trace(self.seat, "answer", line.decode("utf-8", "replace"))
        try:
            return json.loads(line, parse_constant=_no_constant), spent
        except (ValueError, RecursionError):
            raise _Fault("malformed", f"the answer to {op} is not one JSON value",
                         answer=_cut(line)) from None

    def _send(self, data: bytes, begun: float, seconds: float, op: str) -> None:
        """Write ``data`` to the bot's input as it reads it, against the clock: a bot that
        does not read its input cannot block the referee once the pipe is full."""
        assert self.process is not None and self.process.stdin is not None
        fd = self.process.stdin.fileno()
        deadline = begun + seconds
        os.set_blocking(fd, False)
        view = memoryview(data)
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_WRITE)
            while view:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    raise _Fault("time", f"the bot did not read the {op} request "
                                 f"{_within(seconds)}")
                try:
                    view = view[os.write(fd, view):]
                except BlockingIOError:
                    continue
                except OSError:  # EPIPE: the process has gone, or closed its input
                    raise _Fault("crash", f"the bot's process ended before {op}") from None

    def _line(self, begun: float, seconds: float, op: str) -> bytes:
        assert self.process is not None and self.process.stdout is not None
        fd = self.process.stdout.fileno()
        deadline = begun + seconds
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while b"\n" not in self.buffer:
                if len(self.buffer) > MAX_LINE:
                    raise _Fault("malformed", f"the answer to {op} is longer than {MAX_LINE} "
                                 "bytes", answer=_cut(self.buffer))
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    raise _Fault("time", f"no answer to {op} {_within(seconds)}")
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise _Fault("crash", f"the bot's process ended before answering {op}",
                                 answer=_cut(self.buffer) or None)
                self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        if len(line) > MAX_LINE:
            raise _Fault("malformed", f"the answer to {op} is longer than {MAX_LINE} bytes",
                         answer=_cut(line))
        return line

    def close(self) -> None:
        """End the bot and every process it started, and reap the bot's process."""
        process, self.process = self.process, None
        if process is None:
            return
        for stream in (process.stdin, process.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        _end(process)
        group_ended(process.pid)
        if self.stderr is not None:
            self.stderr.finish()

    def fault_ended(self, fault: _Fault) -> None:
        """Note how the bot's process ended, if it has on its own: after a crash (its output
        ended), once the keeper has exited as the bot did (within :data:`EXIT_BOUND`); else
        only if it already has."""
        process = self.process
        if process is None:
            return
        try:
            code = process.wait(EXIT_BOUND) if fault.kind == "crash" else process.poll()
        except subprocess.TimeoutExpired:
            code = None
        self.exit = None if code is None else exit_status(code)

    def said(self) -> tuple[str | None, str | None]:
        """The end of the bot's standard error (after :meth:`close`), and how it ended."""
        return (None if self.stderr is None else self.stderr.text()), self.exit


class _Tail:
    """A stream read to its end by a thread of its own, keeping its last :data:`STDERR_TAIL`
    bytes: a writer is never blocked by a full pipe, and memory stays bounded whatever it
    writes."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.kept = b""
        self.thread = threading.Thread(target=self._read, daemon=True,
                                       name="referee-stderr")
        with sigint_to_main_thread():  # a Ctrl-C (SIGTERM, SIGHUP) is the main thread's to take
            self.thread.start()

    def _read(self) -> None:
        fd = self.stream.fileno()
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.kept = (self.kept + chunk)[-STDERR_TAIL:]

    def finish(self) -> None:
        """Wait for the end of the stream (every writer has ended with the bot: the keeper
        sees to it), then let go of it. A writer that outlived the bot (no keeper, elsewhere
        than Linux) is not waited for beyond :data:`EXIT_BOUND`; its stream is then left to the
        thread."""
        self.thread.join(EXIT_BOUND)
        if not self.thread.is_alive():
            self.stream.close()

    def text(self) -> str | None:
        """What was kept, decoded (undecodable bytes replaced), None if nothing was."""
        kept = self.kept
        return kept.decode("utf-8", "replace") if kept.strip() else None


def _within(seconds: float) -> str:
    """The limit a bot missed: ``within the limit of 2 s``. The time it took is not stated:
    it is the limit, read off a clock, and a record holds no clock reading (the same campaign
    gives the same bytes, on a quiet machine or a loaded one)."""
    return f"within the limit of {seconds:g} s"


def _launch(argv: Sequence[str]) -> subprocess.Popen[bytes]:
    """Start a command bot in a session of its own, under the keeper where there is one
    (:mod:`.keeper`, Linux): the keeper's process is the one returned, the bot its child."""
    status = os.pipe() if keeper.AVAILABLE else None
    command = list(argv) if status is None else keeper.argv(status[1], argv, grace=0)
    try:
        process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            start_new_session=True, pass_fds=() if status is None else (status[1],))
    except OSError as error:
        reason: str | None = str(error.strerror or error)
    else:
        reason = None
    if status is not None:
        os.close(status[1])
        if reason is None:
            reason = keeper.started(status[0])
            if reason is not None:
                process.wait()
                assert process.stderr is not None
                process.stderr.close()
        else:
            os.close(status[0])
    if reason is not None:
        raise _Fault("crash", f"cannot start {argv[0]!r}: {reason}")
    return process


def _end(process: subprocess.Popen[bytes]) -> None:
    """End a bot's process (:func:`_launch`) and everything it started, and reap it. Under the
    keeper: a SIGTERM to the keeper, which kills every descendant of the bot at once (its grace
    is 0), whatever session it moved to, then exits; a keeper that does not is killed with its
    group after :data:`END_BOUND` seconds. Without a keeper: the bot's process group is
    killed."""
    if not keeper.AVAILABLE:
        signal_group(process.pid, signal.SIGKILL)
        process.wait()
        return
    try:
        process.send_signal(signal.SIGTERM)
    except OSError:
        pass
    try:
        process.wait(timeout=END_BOUND)
    except subprocess.TimeoutExpired:
        signal_group(process.pid, signal.SIGKILL)
        process.wait()


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _seat(spec: BotSpec, seat: int, trace: Trace | None) -> _InProcess | _Process:
    return (_InProcess(spec, seat, trace) if spec.make is not None
            else _Process(spec, seat, trace))


def play(game: Game, config: Any, bots: Sequence[BotSpec], *, deal_seed: int, deal: int,
         bot_seeds: Sequence[int], limits: Limits = Limits(),
         trace: Trace | None = None) -> Played:
    """Play one game: ``bots[p]`` in seat ``p``, chance drawn from deal ``deal`` of
    ``deal_seed``, seat ``p``'s bot seeded ``bot_seeds[p]``; ``trace``, if given, is told every
    request and answer as it passes. Every bot process is ended before this returns or raises
    (Ctrl-C included)."""
    players = game.num_players(config)
    if len(bots) != players:
        raise ValueError(f"{game.name} with these options has {players} seats, not {len(bots)}")
    rng = game_rng(deal_seed, deal)
    extension = hooks(game)
    seats = [_seat(spec, p, trace) for p, spec in enumerate(bots)]
    spent = [0.0] * players
    state = game.new_game(config, 0)
    faulted: tuple[int, _Fault] | None = None
    try:
        for p, seat in enumerate(seats):
            hello = new_game_request(game, config, p, bot_seeds[p])
            try:
                seat.start(hello, limits)
            except _Fault as fault:
                fault.request = hello
                faulted = (p, fault)
                break
        while faulted is None and not game.is_terminal(state):
            player = game.current_player(state)
            if player == CHANCE:
                state = game.apply(state, game.sample_chance(state, rng))
                continue
            try:
                state = _turn(game, extension, state, player, seats[player], spent, limits)
            except _Fault as fault:
                faulted = (player, fault)
        if faulted is not None:
            seats[faulted[0]].fault_ended(faulted[1])
    finally:
        # Ctrl-C held back until every seat is closed: an interrupt in the first close must
        # not leave the others' processes running.
        with sigint_deferred():
            for seat in seats:
                seat.close()
    if faulted is None:
        return Played(state, game.outcome(state), None)
    # A command bot's words and end go with a fault of its process, not with a decision the
    # rules forbid (its process was well).
    at, why = faulted
    stderr, ended = seats[at].said() if why.kind != "illegal" else (None, None)
    return Played(state, None, Forfeit(at, why.kind, why.message, why.rule, why.answer, stderr,
                                       ended, why.request))


def _turn(game: Game, extension: Any, state: Any, player: int, seat: Any, spent: list[float],
          limits: Limits) -> Any:
    """``player``'s decision, asked of its bot and applied by the engine; a fault carries
    the request."""
    request = decide_request(game, state, player, player)
    try:
        return _decided(game, extension, state, player, seat, spent, limits, request)
    except _Fault as fault:
        fault.request = request
        raise


def _decided(game: Game, extension: Any, state: Any, player: int, seat: Any,
             spent: list[float], limits: Limits, request: dict[str, Any]) -> Any:
    left = limits.game - spent[player]
    seconds = min(limits.decision, left)
    if seconds <= 0:
        raise _Fault("time", f"its time for the game is spent (the limit of {limits.game:g} s "
                     "on all its decisions)")
    try:
        answer, took = seat.ask(request, seconds)
    except _Fault as fault:
        if fault.kind == "time" and seconds < limits.decision:  # the game's time ran out
            fault.message += f": the rest of its {limits.game:g} s for the game"
        raise
    spent[player] += took
    return judged(game, extension, state, player, answer)


def judged(game: Game, extension: Any, state: Any, player: int, answer: Any) -> Any:
    """The state after ``player``'s ``answer`` (the ``decision`` of its answer) in ``state``,
    read and applied by the engine; a :class:`_Fault` if it is no decision (``malformed``) or
    one the rules forbid (``illegal``, with the rule the engine cites)."""
    shown = _cut(answer if isinstance(answer, str) else json.dumps(answer, default=repr))
    try:
        decision = extension.read_decision(state, answer)
    except GameError as error:
        raise _Fault("malformed", extension.fault_message(state, player, answer, error),
                     error.rule, shown) from None
    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as error:
        raise _Fault("malformed", f"not a decision: {error}", None, shown) from None
    try:
        after = game.apply(state, decision)
    except GameError as error:
        kind = "malformed" if isinstance(error, InvalidActionError) else "illegal"
        raise _Fault(kind, extension.fault_message(state, player, answer, error), error.rule,
                     shown) from None
    if decision not in game.legal_actions(state):  # the engine's apply and menu agree
        raise _Fault("illegal", "not one of the legal decisions", None, shown)
    return after

