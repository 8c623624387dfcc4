"""A tournament's ``games.jsonl``, read back for people: each game of the schedule with the
bots of its seats, replayed by the engine (``view`` and ``show``; docs/tournament.md, "Looking
at a forfeit").

A line of ``games.jsonl`` (:meth:`.tournament.GameResult.to_json`) names the game's number,
deal, bots, winners and reason. A forfeited game holds the game so far (``position``), which the
engine replays up to the forfeit; a game played to its end holds no record: its record is the
next line of the ``records.jsonl`` that ``tournament --out`` writes beside it (both files are in
schedule order), and is taken from there only if it ends as the line says (the same winners
and reason). The forfeit itself (who, kind, rule, message, the bot's standard error and exit,
the request it got) is shown as :func:`forfeit_lines` says, and only to whom may see it.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
from typing import IO, Any, Generator, Iterator

import attrs

from hanamikoji.engine.core.errors import GameError
from hanamikoji.engine.core.game import Game
from hanamikoji.engine.core.registry import get

__all__ = ["PlayedGame", "forfeit_lines", "is_games_file", "played_games"]

#: How a line of games.jsonl begins, as the tournament writes it (these keys first): what
#: tells the file from one of records, read off its first bytes.
_BEGINS = re.compile(rb'\s*\{\s*"game"\s*:\s*\d+\s*,\s*"deal"\s*:\s*\d+\s*,\s*"bots"\s*:\s*\[')


@attrs.frozen
class PlayedGame:
    """One game of a tournament's ``games.jsonl``: where its line is, its number in the
    schedule, deal, bots (seat by seat), winners, reason and forfeit (the line's, or None),
    and, replayed, its game and final state (the game so far, after a forfeit); ``problem``
    says why it could not be replayed (then ``final`` is None)."""

    source: str
    line: int
    number: int
    deal: int
    bots: tuple[str, ...]
    winners: tuple[int, ...]
    reason: str
    forfeit: dict[str, Any] | None
    game: Game | None = attrs.field(default=None, eq=False)
    final: Any = attrs.field(default=None, eq=False)
    problem: str | None = None

    def heading(self) -> str:
        """``games.jsonl:2: game 1 (deal 0): buggy (seat 0), random (seat 1)``."""
        seats = ", ".join(f"{name} (seat {seat})" for seat, name in enumerate(self.bots))
        return f"{self.source}:{self.line}: game {self.number} (deal {self.deal}): {seats}"


def _shape_problem(obj: Any) -> str | None:
    """Why ``obj`` is not a line of a tournament's games.jsonl, or None."""
    if not isinstance(obj, dict):
        return "not a JSON object"
    for key, what, ok in (
            ("game", "a whole number", lambda v: type(v) is int and v >= 0),
            ("deal", "a whole number", lambda v: type(v) is int and v >= 0),
            ("bots", "a list of names", lambda v: isinstance(v, list) and v
             and all(isinstance(b, str) for b in v)),
            ("winners", "a list of seats", lambda v: isinstance(v, list)
             and all(type(w) is int for w in v)),
            ("reason", "a string", lambda v: isinstance(v, str)),
            ("forfeit", "an object or nothing", lambda v: v is None or isinstance(v, dict))):
        if not ok(obj.get(key)):
            return f"$.{key}: expected {what}, got {json.dumps(obj.get(key))[:40]}"
    forfeit = obj.get("forfeit")
    if forfeit is not None:
        if type(forfeit.get("seat")) is not int or not 0 <= forfeit["seat"] < len(obj["bots"]):
            return "$.forfeit.seat: expected a seat of the game"
        if not isinstance(obj.get("position"), dict):
            return "$.position: expected the game so far (a position object)"
    return None


def is_games_file(path: str) -> bool:
    """Whether ``path`` is a regular file that begins as a tournament's ``games.jsonl`` does
    (only its first bytes are read; standard input is never one)."""
    if path == "-":
        return False
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False
        with open(path, "rb") as handle:
            start = handle.read(256)
    except OSError:
        return False
    return _BEGINS.match(start) is not None


class GamesFileError(ValueError):
    """A line of a games.jsonl that is not a tournament's game: one line, naming the file, the
    line and the JSON path."""


def _records(path: str) -> Generator[tuple[str, int, Game | None, Any, str | None], None, None]:
    """The records of the ``records.jsonl`` beside ``path``: (source, line, game, final state,
    why it is not valid or None); nothing if there is none."""
    from hanamikoji.oracle.core.validate import Status, replayed

    beside = os.path.join(os.path.dirname(path), "records.jsonl")
    try:
        if not stat.S_ISREG(os.stat(beside).st_mode):
            return
        stream: IO[bytes] = open(beside, "rb")
    except OSError:
        return
    with stream:
        for verdict, game, final in replayed(stream, beside):
            valid = verdict.judgement.status is Status.VALID and game is not None
            yield beside, verdict.line, game, final, None if valid else verdict.to_text()


def played_games(path: str, forced: Game | None = None,
                 only: int | None = None) -> Iterator[PlayedGame]:
    """Every game of the ``games.jsonl`` at ``path`` (only game ``only``, if given), replayed:
    a forfeit's position by the engine, a finished game's record from the ``records.jsonl``
    beside it. A line that is not a tournament's game raises :class:`GamesFileError`; a game
    that cannot be replayed says why in its ``problem``."""
    from hanamikoji.oracle.core.perft import read_position
    from hanamikoji.oracle.core.validate import NotJSONError, decode

    records = _records(path)
    with contextlib.closing(records), open(path, "rb") as handle:
        for number, raw in enumerate(handle, 1):
            where = f"{path}:{number}"
            if not raw.strip():
                continue
            try:
                obj = decode(raw)
            except NotJSONError as error:
                raise GamesFileError(f"{where}: not JSON ({error})") from None
            problem = _shape_problem(obj)
            if problem is not None:
                raise GamesFileError(f"{where}: not a game of a tournament's games.jsonl: "
                                     f"{problem}")
            index = obj["game"]
            forfeit = obj.get("forfeit")
            base = dict(source=path, line=number, number=index, deal=obj["deal"],
                        bots=tuple(obj["bots"]), winners=tuple(obj["winners"]),
                        reason=obj["reason"], forfeit=forfeit)
            if forfeit is None:
                record = next(records, None)
                if only is not None and index != only:
                    continue
                yield _finished(base, record, where)
                continue
            if only is not None and index != only:
                continue
            position = obj["position"]
            try:
                named = position.get("game")
                game = forced if forced is not None else get(
                    named if isinstance(named, str) else None)
                state = read_position(game, position)
            except GameError as error:
                yield PlayedGame(**base, problem=f"{where}: $.position: {error}")
                continue
            yield PlayedGame(**base, game=game, final=state)


def _finished(base: dict[str, Any], record: Any, where: str) -> PlayedGame:
    """A game played to its end, with its record (the next of records.jsonl), if that record
    ends as the game's line says."""
    if record is None:
        return PlayedGame(**base, problem=f"{where}: game {base['number']} was played to its "
                          "end; its record is not here (the records.jsonl that tournament "
                          "--out writes beside games.jsonl is missing or shorter)")
    source, line, game, final, invalid = record
    if invalid is not None or game is None:
        return PlayedGame(**base, problem=f"{where}: its record is not valid: {invalid}")
    outcome = game.outcome(final)
    if (outcome is None or list(outcome.winners) != list(base["winners"])
            or outcome.reason != base["reason"]
            or len(game.players(final)) != len(base["bots"])):
        return PlayedGame(**base, problem=f"{where}: {source}:{line}, the record in its place, "
                          "does not end as the game does (not this tournament's records.jsonl)")
    return PlayedGame(**base, game=game, final=final)


def forfeit_lines(forfeit: dict[str, Any], player: int | None = None) -> list[str]:
    """The forfeit for a person: who, kind, rule, message and how its process ended; then the
    last line of its standard error that says what went wrong and the request it got, as it was
    sent. Seen as ``player`` (not the forfeiting seat), only who and why in a word (kind and
    rule): the message, the answer, the bot's words and its request (its own view) are its
    own."""
    from hanamikoji.oracle.core.tournament import stderr_line

    seat = forfeit.get("seat")
    rule = f" [{forfeit['rule']}]" if forfeit.get("rule") else ""
    who = f"forfeit: {forfeit.get('bot')} (seat {seat}): {forfeit.get('kind')}{rule}"
    if player is not None and player != seat:
        return [who]
    ended = f" ({forfeit['exit']})" if forfeit.get("exit") else ""
    lines = [f"{who}: {forfeit.get('message')}{ended}"]
    if forfeit.get("answer") is not None:
        lines.append(f"  answer: {forfeit['answer']}")
    tail = forfeit.get("stderr")
    said = stderr_line(tail) if isinstance(tail, str) else None
    if said is not None:
        lines.append(f"  stderr: {said}")
    if forfeit.get("request") is not None:
        lines.append("  request: " + json.dumps(forfeit["request"], separators=(",", ":")))
    return lines
