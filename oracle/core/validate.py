"""``hanamikoji validate``: a verdict for every game record in files of records, of any game.

A file holds one JSON record (pretty-printed or not) or JSON Lines (one record per line); ``-``
is standard input. Files are read a line at a time and each record is judged and printed before
the next is read, so memory stays flat however many records a file holds.

A record's game is recognised by its ``format`` field (:func:`registry.by_format`); ``--game``
forces one. An object whose format no registered game has is malformed at ``$.format`` (the
message lists the formats there are); a document that is not an object at all is left to the
default game's reader, which says so. Each record gets one verdict, in three layers
(python-chess style), decided by the game's :meth:`Game.read_record`:

* **malformed**: not UTF-8, not JSON, of no known format, or not a record of its game's format;
  the verdict names the JSON path at fault;
* **illegal**: a record of a game the rules forbid; the verdict names the first broken rule by
  its ID in the game's spec, with where it was broken (the game's :attr:`Game.record_where`
  keys: a round and a turn, a turn and a step);
* **valid**: the game replays to its end, with the result.

>>> judge({"format": "hanamikoji-record/1"}).path
'$'
>>> judge({"format": "other/1"}).path
'$.format'
>>> judge({"format": "hanamikoji-record/1", "variant": "standard", "first_player": 0,
...        "rounds": []}).rule
'UPDATE-5'
"""

from __future__ import annotations

import enum
import json
import re
import sys
from typing import IO, Any, Callable, Iterable, Iterator

import attrs

from hanamikoji.runtime.base import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from hanamikoji.engine.core.game import Game, IllegalRecordError, MalformedRecordError
from hanamikoji.engine.core.registry import available, by_format, get
from hanamikoji.engine.core.words import plural

#: A line longer than this is judged malformed without being held in memory.
LINE_LIMIT = 1 << 24
#: A file whose first line is not a JSON value is read as one document up to this size.
DOCUMENT_LIMIT = 1 << 24


class Status(enum.Enum):
    VALID = "valid"
    ILLEGAL = "illegal"
    MALFORMED = "malformed"

    def __repr__(self) -> str:
        return f"Status.{self.name}"


@attrs.frozen
class Judgement:
    """What one record is: valid with its result, illegal with the first broken rule (and
    where, in the game's own terms), or malformed with the JSON path at fault (None if not JSON
    at all). ``where`` pairs each of the game's :attr:`Game.record_where` keys with its value;
    ``result`` is the game's JSON form of the result."""

    status: Status
    message: str
    rule: str | None = None
    where: tuple[tuple[str, Any], ...] = ()
    path: str | None = None
    result: Any = None

    def at(self, key: str) -> Any:
        """The value of ``where`` key ``key`` (None if absent)."""
        return dict(self.where).get(key)


@attrs.frozen
class Verdict:
    """The judgement of record ``index`` (from 0, over all inputs), read from ``source`` at
    ``line`` (from 1)."""

    index: int
    source: str
    line: int
    judgement: Judgement

    def to_json(self) -> dict[str, Any]:
        j = self.judgement
        out = {"index": self.index, "source": self.source, "line": self.line,
               "status": j.status.value, "rule": j.rule}
        out.update(j.where)
        out.update({"path": j.path, "message": j.message, "result": j.result})
        return out

    def to_text(self) -> str:
        return verdict_text(self.source, self.line, self.index, judgement_text(self.judgement))


def judgement_text(judgement: Judgement) -> str:
    """What the text line of a verdict says after ``record N: ``."""
    rule = f" [{judgement.rule}]" if judgement.rule else ""
    return f"{judgement.status.value}{rule}: {where_text(judgement)}{judgement.message}"


def verdict_text(source: str, line: int, index: int, said: str) -> str:
    """The text line of the verdict on record ``index`` at ``source:line`` that says ``said``
    (:func:`judgement_text`)."""
    text = f"{source}:{line}: record {index}: {said}"
    # A message may quote a lone surrogate ("\ud800" is valid JSON), which no UTF-8 output
    # can print: it is written as its escape instead of failing the whole run.
    return text if text.isascii() else text.encode("utf-8", "backslashreplace").decode()


def where_text(judgement: Judgement) -> str:
    """Where an illegal record broke a rule, in the game's own terms (``turn 5, step 0: ``),
    for the text line; empty if the message already starts so or nothing is known. ``--json``
    gives the same keys as fields."""
    known = ", ".join(f"{key} {value}" for key, value in judgement.where if value is not None)
    if judgement.status is not Status.ILLEGAL or not known or judgement.message.startswith(known):
        return ""
    return known + ": "


# --- decoding ------------------------------------------------------------------------------


class NotJSONError(ValueError):
    """The bytes of a record are not UTF-8 JSON text."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        duplicate = next(k for k, _ in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]
        raise NotJSONError(f'the key "{duplicate}" appears twice in one object')
    return obj


def _number(text: str) -> int | float:
    # JSON has one number type: 2.0 is the integer 2, as JSON Schema's "integer" holds too.
    value = float(text)
    return int(value) if value.is_integer() and abs(value) <= 2 ** 53 else value


def _constant(name: str) -> float:
    raise NotJSONError(f"{name} is not a JSON value")


_DECODER = json.JSONDecoder(object_pairs_hook=_unique_keys, parse_float=_number,
                            parse_constant=_constant)


def decode(raw: bytes | str) -> Any:
    """Strict JSON (RFC 8259) from UTF-8 bytes: no NaN or Infinity, no key twice in an object.

    >>> decode(b'{"a": [1.0, 2]}')
    {'a': [1, 2]}
    >>> decode(b'{"a": 1, "a": 2}')
    Traceback (most recent call last):
    ...
    hanamikoji.oracle.core.validate.NotJSONError: not JSON: the key "a" appears twice in one object
    """
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise NotJSONError(f"not UTF-8 text: byte 0x{raw[error.start]:02x} at offset "
                               f"{error.start} cannot be decoded") from None
    else:
        text = raw
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        return _DECODER.decode(text)
    except json.JSONDecodeError as error:
        raise NotJSONError(f"not JSON: {error.msg} at line {error.lineno}, column "
                           f"{error.colno}") from None
    except NotJSONError as error:
        raise NotJSONError(f"not JSON: {error}") from None
    except RecursionError:
        raise NotJSONError("not JSON this reader accepts: arrays or objects nested too deeply") from None
    except ValueError as error:  # e.g. an integer of more digits than Python converts
        raise NotJSONError(f"not JSON this reader accepts: {error}") from None


# --- judging one record --------------------------------------------------------------------


def game_of(document: Any, forced: Game | None = None) -> Game | None:
    """The game that judges ``document``: ``forced``, else the one whose records carry its
    ``format``; None for an object of no known format; the default game for anything that is
    not an object (its reader then says what is wrong)."""
    if forced is not None:
        return forced
    if isinstance(document, dict):
        return by_format(document.get("format"))
    return get()


def known_formats() -> tuple[str, ...]:
    """The record formats of the games that can be loaded here, in the registry's order."""
    return tuple(dict.fromkeys(get(name).record_format for name in available()))


def _show(value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _unknown_format(document: dict[str, Any]) -> Judgement:
    """An object that is no registered game's record: malformed at ``$.format``, in one line
    that lists the formats ``validate`` knows. Its ``where`` keys are the default game's, as
    for text that is not JSON at all."""
    listed = ", ".join(f'"{f}"' for f in known_formats())
    got = _show(document["format"]) if "format" in document else "no format"
    return Judgement(Status.MALFORMED,
                     f"$.format: expected the record format of a registered game "
                     f"({listed}), got {got}",
                     where=_where(get(), {}), path="$.format")


def _where(game: Game, values: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple((key, values.get(key)) for key in game.record_where)


def judge(document: Any, game: Game | None = None) -> Judgement:
    """The verdict on one decoded JSON document (by ``game``, or by the game of its format)."""
    return replay(document, game)[0]


def replay(document: Any, game: Game | None = None) -> tuple[Judgement, Game | None, Any]:
    """The verdict on one decoded JSON document, with the game that judged it and, for a valid
    record, its final state (None otherwise)."""
    game = game_of(document, game)
    if game is None:
        return _unknown_format(document), None, None
    nowhere = _where(game, {})
    try:
        final = game.read_record(document)
    except MalformedRecordError as error:
        return Judgement(Status.MALFORMED, str(error), where=nowhere, path=error.path), game, None
    except IllegalRecordError as error:
        return Judgement(Status.ILLEGAL, error.message, rule=error.rule,
                         where=_where(game, error.where)), game, None
    except RecursionError:
        return (Judgement(Status.MALFORMED, "arrays or objects nested too deeply", where=nowhere),
                game, None)
    return (Judgement(Status.VALID, game.describe_end(final), where=nowhere,
                      result=game.record_result_json(final)), game, final)


def judge_bytes(raw: bytes | str, game: Game | None = None) -> Judgement:
    """The verdict on the text of one record."""
    try:
        document = decode(raw)
    except NotJSONError as error:
        return Judgement(Status.MALFORMED, str(error), where=_where(game or get(), {}))
    return judge(document, game)


# --- reading files of records --------------------------------------------------------------


_TOO_LONG = object()
_UNDECODED = object()


def _lines(stream: IO[bytes], first: int = 1) -> Iterator[tuple[int, Any]]:
    """(line number from ``first``, bytes) for each line; :data:`_TOO_LONG` for a line past
    :data:`LINE_LIMIT`, which is skipped without being held."""
    number = first - 1
    while True:
        line = stream.readline(LINE_LIMIT)
        if not line:
            return
        number += 1
        if len(line) == LINE_LIMIT and not line.endswith(b"\n"):
            while True:
                more = stream.readline(LINE_LIMIT)
                if not more or more.endswith(b"\n"):
                    break
            yield number, _TOO_LONG
        else:
            yield number, line


@attrs.frozen
class _Unit:
    """One record of a file: where it starts, and its decoded value, or why it is none
    (:data:`_TOO_LONG`, or the message of a :class:`NotJSONError`)."""

    line: int
    raw: Any  # _TOO_LONG, a NotJSONError, or None when ``document`` holds the value
    document: Any = _UNDECODED
    text: str = ""  # for a NotJSONError, the rest of its line (for :func:`notation.hint`)
    #: A line its game judged valid at a glance (:meth:`Game.quick_reader`): (the judgement,
    #: the game).
    judged: Any = None


_SPACE = re.compile(r"[ \t\n\r\ufeff]*")


def _after_space(text: str, pos: int) -> int:
    """The first position at or after ``pos`` that is not JSON's white space (or a BOM)."""
    return _SPACE.match(text, pos).end()  # type: ignore[union-attr]  # a * pattern always matches
_ARRAY_HINT = ("the file holds a JSON array; write one record per line (JSON Lines) or records "
               "one after another")


class _Buffer:
    """The text of whole lines not yet read as values; ``first`` is the number of its first
    line (the text always starts at a line's start and ends at one's end)."""

    def __init__(self) -> None:
        self.text = ""
        self.first = 1
        self.pos = 0

    def line_of(self, pos: int) -> tuple[int, int]:
        """(line, column), both from 1, of ``pos`` in the file."""
        line = self.first + self.text.count("\n", 0, pos)
        return line, pos - (self.text.rfind("\n", 0, pos) + 1) + 1

    def drop_read(self) -> None:
        """Forget the text before the line of ``pos`` once it is long (memory stays that of a
        few lines, and a buffer of many values is not copied once per value)."""
        if self.pos < 1 << 16:
            return
        cut = self.text.rfind("\n", 0, self.pos) + 1
        if cut:
            self.first += self.text.count("\n", 0, cut)
            self.text = self.text[cut:]
            self.pos -= cut

    def clear(self, next_line: int) -> None:
        self.text, self.first, self.pos = "", next_line, 0


def _not_utf8(raw: bytes, error: UnicodeDecodeError, line: int) -> str:
    column = len(raw[:error.start].decode("utf-8")) + 1
    return (f"not UTF-8 text: byte 0x{raw[error.start]:02x} at line {line}, column {column} "
            "cannot be decoded")


_SCALAR_END = re.compile(r"[^ \t\n\r]*")


def _glued(text: str, start: int, end: int, document: Any) -> str | None:
    """The word at ``start`` when the number, true, false or null read from it has more text
    glued to it (``1AB``, ``2: 2GG``): JSON ends such a value at a space or the line's end, so
    the word is one thing that is not JSON, not a value and then another thing. None when the
    value stands alone (an object or array, or a string, may be followed by anything)."""
    if isinstance(document, (dict, list, str)) or end >= len(text) or text[end] in " \t\n\r":
        return None
    return _SCALAR_END.match(text, start).group()  # type: ignore[union-attr]  # * always matches


def _units(stream: IO[bytes], first_line: int = 1,
           quick: Callable[[int, bytes], _Unit | None] | None = None) -> Iterator[_Unit]:
    """The records of a file: a stream of JSON values, whatever their layout (JSON Lines, one
    pretty-printed record, records one after another); blank lines are skipped.

    Lines are read one at a time, and a value is decoded as soon as the lines read hold it
    (:meth:`json.JSONDecoder.raw_decode`), so a file of JSON Lines is read a line per record.
    A value that needs more lines gets at least as many again before the next try (a long
    record costs a few tries, not one per line), up to :data:`DOCUMENT_LIMIT`. A value that
    is not JSON is one malformed record, with the line and column in the file (a number, true,
    false or null with text glued to it, such as ``1AB``, is one such value); reading goes on
    at the next line after its start that begins with ``{`` or ``[`` (the next record of JSON
    Lines, or of pretty-printed records). A line that cannot be text (not UTF-8, or longer than
    :data:`LINE_LIMIT`) ends the value before it and is a malformed record of its own.
    ``first_line``: the number of the stream's first line in its file (a stream may start
    part-way through a file). ``quick``: a line that starts a value is first given to it (with
    its number), and the unit it returns, if any, is that line's record.
    """
    lines = _lines(stream, first_line)
    pushed: list[tuple[int, Any]] = []  # a line ``quick`` did not judge, to be read as text
    buffer = _Buffer()
    eof = False
    barrier: tuple[int, Any] | None = None  # a line that cannot be text, held until its turn
    resync = False  # after a value that is not JSON: skip lines until one starts a record
    wanted = 0  # characters the buffer should hold from the value's start before trying again

    def fill() -> bool:
        """Append the next line of text to the buffer; False at the end or at a line that
        cannot be text (held in ``barrier``)."""
        nonlocal eof, barrier, resync
        if eof or barrier is not None:
            return False
        while True:
            found = pushed.pop() if pushed else next(lines, None)
            if found is None:
                break
            number, raw = found
            if raw is _TOO_LONG:
                barrier = (number, _TOO_LONG)
                return False
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                barrier = (number, NotJSONError(_not_utf8(raw, error, number)))
                return False
            if resync:
                if not text.lstrip("\ufeff").startswith(("{", "[")):
                    continue
                resync = False
            if not buffer.text:
                buffer.first = number
            buffer.text += text
            return True
        eof = True
        return False

    while True:
        buffer.pos = _after_space(buffer.text, buffer.pos)
        if buffer.pos >= len(buffer.text):  # nothing but blanks left: read on
            buffer.clear(buffer.first + buffer.text.count("\n"))
            if quick is not None and not (eof or resync or barrier is not None or pushed):
                # Each line a record its game judges at a glance, until one it does not.
                for number, raw in lines:
                    unit = None if raw is _TOO_LONG else quick(number, raw)
                    if unit is None:
                        pushed.append((number, raw))
                        break
                    yield unit
            if fill():
                continue
            if barrier is None:
                return
            yield _Unit(*barrier)
            buffer.clear(barrier[0] + 1)
            barrier, wanted = None, 0
            continue
        start = buffer.pos
        if len(buffer.text) - start < wanted and fill():
            continue
        line, _ = buffer.line_of(start)
        try:
            document, end = _DECODER.raw_decode(buffer.text, start)
        except json.JSONDecodeError as error:
            size = len(buffer.text) - start
            if (_after_space(buffer.text, error.pos) >= len(buffer.text)
                    and size < DOCUMENT_LIMIT and fill()):
                wanted = 2 * size  # it may go on in the next lines
                continue
            at_line, column = buffer.line_of(error.pos)
            unit = _Unit(line, NotJSONError(f"not JSON: {error.msg.removesuffix(' at')} at line "
                                            f"{at_line}, column {column}"))
        except NotJSONError as error:
            unit = _Unit(line, NotJSONError(f"not JSON: {error}"))
        except RecursionError:
            unit = _Unit(line, NotJSONError("not JSON this reader accepts: arrays or objects "
                                            "nested too deeply"))
        except ValueError as error:  # e.g. an integer of more digits than Python converts
            unit = _Unit(line, NotJSONError(f"not JSON this reader accepts: {error}"))
        else:
            glued = _glued(buffer.text, start, end, document)
            if glued is None:
                wanted = 0
                buffer.pos = end
                buffer.drop_read()
                yield _Unit(line, None, document)
                continue
            _, column = buffer.line_of(start)
            unit = _Unit(line, NotJSONError(f"not JSON: {glued!r} is not a value at line {line}, "
                                            f"column {column}"))
        # Not JSON: go on at the next line after its start that starts a record.
        cut = buffer.text.find("\n", start)
        yield attrs.evolve(unit, text=buffer.text[start:None if cut < 0 else cut])
        wanted = 0
        rest = "" if cut < 0 else buffer.text[cut + 1:]
        buffer.clear(line + 1)
        kept: list[str] = []
        for text in rest.splitlines(keepends=True):
            if kept or text.lstrip("\ufeff").startswith(("{", "[")):
                kept.append(text)
            else:
                buffer.first += 1
        buffer.text = "".join(kept)
        resync = not kept


def _judge_unit(unit: _Unit, game: Game | None) -> tuple[Judgement, Game | None, Any]:
    if unit.judged is not None:
        return unit.judged[0], unit.judged[1], None
    if unit.raw is _TOO_LONG:
        return Judgement(Status.MALFORMED, f"a line longer than {LINE_LIMIT} bytes is not a record",
                         where=_where(game or get(), {})), None, None
    if isinstance(unit.raw, NotJSONError):
        from hanamikoji.oracle.core.notation import hint  # only for text that is not JSON

        game = game or get()
        said = hint(game, unit.text.strip()) if unit.text else None
        message = str(unit.raw) + ("" if said is None else f" ({said})")
        return Judgement(Status.MALFORMED, message, where=_where(game, {})), None, None
    if isinstance(unit.document, list):
        return Judgement(Status.MALFORMED, f"$: {_ARRAY_HINT}", where=_where(game or get(), {}),
                         path="$"), None, None
    return replay(unit.document, game)


def verdicts(stream: IO[bytes], source: str, start: int = 0,
             game: Game | None = None) -> Iterator[Verdict]:
    """The verdict on every record of ``stream``, numbered from ``start``, in order."""
    for verdict, _, _ in replayed(stream, source, start, game):
        yield verdict


def quick_judge(forced: Game | None = None) -> Callable[[int, bytes], _Unit | None]:
    """A judge of lines at a glance for :func:`_units`: the line's game (``forced``, else the
    game of the format the line starts with, ``{"format":"...``) is asked by its
    :meth:`Game.quick_reader`, and a line it keys is a valid record, whose judgement is made
    once per outcome (so a verdict's JSON line is written from text kept for it,
    :func:`json_line`). None for any other line, judged the full way."""
    readers: dict[bytes, tuple[Game, Callable[[bytes], Any]] | None] = {}
    judgements: dict[tuple[str, Any], tuple[Judgement, Game]] = {}

    def reader(raw: bytes) -> tuple[Game, Callable[[bytes], Any]] | None:
        if forced is not None:
            name = b""
        elif raw.startswith(b'{"format":"'):
            name = raw[11:raw.find(b'"', 11)]
        else:
            return None
        if name not in readers:
            try:
                game = forced or by_format(name.decode("ascii"))
            except UnicodeDecodeError:
                game = None
            read = None if game is None else game.quick_reader()
            # A game of another format never matches: its reader checks the format it writes.
            readers[name] = None if game is None or read is None else (game, read)
        return readers[name]

    def judge(number: int, raw: bytes) -> _Unit | None:
        found = reader(raw)
        if found is None:
            return None
        game, read = found
        key = read(raw)
        if key is None:
            return None
        judged = judgements.get((game.name, key))
        if judged is None:
            message, result = game.quick_outcome(key)
            judgement = Judgement(Status.VALID, message, where=_where(game, {}), result=result)
            judged = (judgement, game)
            # Kept while there are few outcomes (Hanamikoji's are some dozens); a game whose
            # outcomes are as many as its records (Maiko's scores and lengths) stays flat.
            if len(judgements) < _KEPT:
                judgements[game.name, key] = judged
                _keep_json_tail(judgement)
        return _Unit(number, None, judged=judged)

    return judge


#: How many outcomes :func:`quick_judge` keeps, with their JSON text.
_KEPT = 2048
#: The JSON text of a kept judgement's verdict after its index, source and line
#: (:func:`json_line`), by the judgement's id; the judgement is held, so its id stays its own.
_TAILS: dict[int, tuple[Judgement, str]] = {}
_HEAD = '{"index": 0, "source": "", "line": 0, '
_SOURCES: dict[str, str] = {}


def _keep_json_tail(judgement: Judgement) -> None:
    if len(_TAILS) >= 2 * _KEPT:  # a judge per run: a long-lived process does not keep them all
        _TAILS.clear()
    text = json.dumps(Verdict(0, "", 0, judgement).to_json())
    assert text.startswith(_HEAD)
    _TAILS[id(judgement)] = (judgement, text[len(_HEAD):])


def json_line(verdict: Verdict) -> str:
    """``json.dumps(verdict.to_json())``, from the text kept for its judgement when there is
    one (:func:`quick_judge`'s)."""
    kept = _TAILS.get(id(verdict.judgement))
    if kept is None or kept[0] is not verdict.judgement:
        return json.dumps(verdict.to_json())
    source = _SOURCES.get(verdict.source)
    if source is None:
        if len(_SOURCES) > 4096:
            _SOURCES.clear()
        source = _SOURCES[verdict.source] = json.dumps(verdict.source)
    return f'{{"index": {verdict.index}, "source": {source}, "line": {verdict.line}, {kept[1]}'


def replayed(stream: IO[bytes], source: str, start: int = 0, game: Game | None = None,
             first_line: int = 1,
             quick: bool = False) -> Iterator[tuple[Verdict, Game | None, Any]]:
    """Each record of ``stream`` as (its verdict, the game that judged it, its final state when
    valid, else None), numbered from ``start``, in order; the stream's first line is line
    ``first_line`` of its file. ``quick``: a line its game judges valid at a glance
    (:func:`quick_judge`) has the same verdict, and None for its final state."""
    units = _units(stream, first_line, quick_judge(game) if quick else None)
    for offset, unit in enumerate(units):
        judgement, judged_by, final = _judge_unit(unit, game)
        yield Verdict(start + offset, source, unit.line, judgement), judged_by, final


def notation_replayed(stream: IO[bytes], source: str, start: int, game: Game | None,
                      name: str) -> Iterator[tuple[Verdict, Game | None, Any]]:
    """As :func:`replayed`, for a file of games in notation ``name`` (one a line) of ``game``
    (default: the registry's default); each line is decoded by the game's notation and judged
    by replaying it, so a line gets the verdict its record would."""
    from hanamikoji.oracle.core.notation import NotationError, lines, notation

    game = game or get()
    hooks = notation(game, name)
    for offset, (number, text) in enumerate(lines(stream, source)):
        try:
            final = hooks.read(name, text)
        except NotationError as error:
            # The message says where in the notation's own terms (its round and move from 1,
            # the column); the record's places would name a record the line never was.
            status = Status.MALFORMED if error.malformed else Status.ILLEGAL
            judgement = Judgement(status, error.message, rule=error.rule,
                                  where=_where(game, {}))
            yield Verdict(start + offset, source, number, judgement), game, None
            continue
        judgement = Judgement(Status.VALID, game.describe_end(final), where=_where(game, {}),
                              result=game.record_result_json(final))
        yield Verdict(start + offset, source, number, judgement), game, final


# --- the command ---------------------------------------------------------------------------


class _Unreadable(Exception):
    pass


def _open(path: str) -> IO[bytes]:
    if path == "-":
        return sys.stdin.buffer
    try:
        return open(path, "rb")
    except OSError as error:
        from hanamikoji.runtime.base import cannot_read  # only on failure: it brings simulate's imports

        raise _Unreadable(cannot_read(path, error)) from None


@attrs.define
class Tally:
    records: int = 0
    counts: dict[Status, int] = attrs.field(factory=lambda: {s: 0 for s in Status})
    unreadable: int = 0
    last: Verdict | None = None

    def add(self, verdict: Verdict) -> None:
        self.records += 1
        self.counts[verdict.judgement.status] += 1
        self.last = verdict

    def exit_code(self) -> int:
        if self.unreadable or self.counts[Status.MALFORMED]:
            return EXIT_USAGE
        return EXIT_FAILED if self.counts[Status.ILLEGAL] else EXIT_OK

    def summary(self) -> str:
        if not self.records:
            return "no records"
        if self.records == 1 and self.last is not None:
            j = self.last.judgement
            return f"1 record: {j.status.value}" + (
                f" ({j.message})" if j.status is Status.VALID else "")
        parts = ", ".join(f"{self.counts[s]} {s.value}" for s in Status)
        return f"{plural(self.records, 'record')}: {parts}"


#: How much of a file's start decides whether it is text at all.
_SNIFF = 512


def _binary(stream: IO[bytes]) -> str | None:
    """Why the first line of ``stream`` shows it is no text (bytes that are not UTF-8, or a NUL
    byte: an image, an archive), else None. Records are UTF-8 text, so such a file is one
    error, not a malformed record per line it happens to hold."""
    try:
        start = stream.peek(_SNIFF)[:_SNIFF]  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):
        return None
    # The first line only: a file of records that has one bad line further on is still a file
    # of records, each judged (that line is a malformed record).
    start = start[:start.find(b"\n") + 1 or len(start)]
    try:
        start.decode("utf-8")
    except UnicodeDecodeError as error:
        if error.reason != "unexpected end of data":  # not a character cut at the sniff's end
            return (f"byte 0x{start[error.start]:02x} at offset {error.start} is not UTF-8, so "
                    "it is binary, not text")
    if b"\x00" in start:
        return f"it holds a NUL byte (at offset {start.index(0)}), so it is binary, not text"
    return None


def records(paths: Iterable[str], tally: "Tally", command: str,
            forced: Game | None = None, notation: str | None = None,
            quick: bool = False) -> Iterator[tuple[Verdict, Game | None, Any]]:
    """Every record of the files ``paths`` (``-``: standard input), in order, as
    :func:`replayed` gives them (:func:`notation_replayed` with ``notation``: games in that
    notation, one a line), counted in ``tally``; a file that cannot be read, or holds no
    record, is one line on stderr (``hanamikoji COMMAND: error: ...``) and counted as
    unreadable. ``validate``, ``show`` and ``stats`` read their files with it. ``quick``: as
    for :func:`replayed` (``validate``, which needs no final state)."""
    for path in paths:
        source = "<stdin>" if path == "-" else path
        try:
            stream = _open(path)
        except _Unreadable as error:
            tally.unreadable += 1
            print(f"hanamikoji {command}: error: {error}", file=sys.stderr)
            continue
        before = tally.records
        # A file that begins as no text (an image) is one error, not a malformed record per
        # line it happens to hold: its verdicts are held back while every one is "not text /
        # not JSON", and given out as soon as a record shows it is a file of records after all.
        binary = _binary(stream)
        held: list[tuple[Verdict, Game | None, Any]] | None = [] if binary is not None else None
        try:
            found = (replayed(stream, source, tally.records, forced, quick=quick)
                     if notation is None else
                     notation_replayed(stream, source, tally.records, forced, notation))
            for verdict, game, final in found:
                if held is not None:
                    judgement = verdict.judgement
                    if judgement.status is Status.MALFORMED and judgement.path is None:
                        held.append((verdict, game, final))
                        continue
                    for item in held:
                        tally.add(item[0])
                        yield item
                    held = None
                tally.add(verdict)
                yield verdict, game, final
        except BrokenPipeError:
            raise  # the reader of our output went away (| head): hanamikoji.cli.main handles it
        except OSError as error:
            tally.unreadable += 1
            print(f"hanamikoji {command}: error: cannot read {source}: "
                  f"{error.strerror or error}", file=sys.stderr)
        else:
            if held is not None:
                tally.unreadable += 1
                print(f"hanamikoji {command}: error: {source} is not a record file: {binary}",
                      file=sys.stderr)
            elif tally.records == before:
                tally.unreadable += 1
                print(f"hanamikoji {command}: error: {source} holds no record (it is empty)",
                      file=sys.stderr)
        finally:
            if stream is not sys.stdin.buffer:
                stream.close()


# --- the schema ----------------------------------------------------------------------------


def schema_text(game: str | None = None) -> str:
    """The JSON Schema (draft 2020-12) of ``game``'s record format, as the game ships it."""
    return get(game).record_schema_text()
