"""``validate`` as a campaign (:mod:`hanamikoji.campaign`): files of records cut into shards
of lines, judged on workers, merged into the output ``validate`` prints in one process.

A file is cut at line starts every ``--shard-size`` lines; a shard is named by its file and its
lines (``0001-lines-000000001001-000000002000``). A worker reads its slice and judges its records
with the same reader and judge as ``validate`` in one process. A shard whose
every value is whole JSON is *clean*: the one-process reader, which starts afresh after a whole
value, would have read the same records there. A shard that is not (a pretty-printed record cut
by a shard's edge, text that is not JSON) says so, and from its first line to the end of its
file the records are judged in this process, one after another, exactly as without workers; so
is standard input, and a file whose start is not text. Records are numbered across all files
and shards in input order, as without workers.

A shard's blob is a header line (``{"clean": true, "records": N}``) and one JSON line per
record: the text of its verdict after ``record N:`` and its ``--json`` object, numbered from 0
in the shard. Its lines are the file's own.
"""

from __future__ import annotations

import io
import json
import os
import stat
from typing import TYPE_CHECKING, Any, Iterator

import attrs

from hanamikoji.engine.core.registry import get
from hanamikoji.oracle.core import validate as V

if TYPE_CHECKING:
    from hanamikoji.campaign import Shard

# The campaign machinery (hashlib, the backends) is imported by the campaign alone: validate in
# one process, what a bot arena runs after each game, starts without it.

_TASK = "hanamikoji.oracle.core.validate_campaign:validate_shard"
#: How a shard's line of a valid record starts (its verdict's text, ``valid: ...``, first).
VALID_LINE = '["valid: '
_BLOCK = 1 << 20


def validate_shard(path: str, source: str, start: int, end: int, first_line: int,
                   game_name: str | None) -> str:
    """The blob of the shard of ``path`` from byte ``start`` to ``end``, whose first line is
    line ``first_line`` of the file (see the module docstring)."""
    game = None if game_name is None else get(game_name)
    try:
        with open(path, "rb") as file:
            file.seek(start)
            data = file.read(end - start)
    except OSError:
        return json.dumps({"clean": False}) + "\n"  # read again in order, where it is reported
    lines = []
    # A record its game reads at a glance (V.quick_judge) is valid: it has no document.
    quick = V.quick_judge(game)
    for offset, unit in enumerate(V._units(io.BytesIO(data), first_line, quick)):
        if unit.document is V._UNDECODED and unit.judged is None:
            return json.dumps({"clean": False}) + "\n"
        judgement, _, _ = V._judge_unit(unit, game)
        verdict = V.Verdict(offset, source, unit.line, judgement)
        lines.append(json.dumps([V.judgement_text(judgement), verdict.to_json()]) + "\n")
    return "".join([json.dumps({"clean": True, "records": len(lines)}) + "\n", *lines])


@attrs.frozen
class _Slice:
    start: int
    end: int
    first_line: int
    last_line: int


def slices(path: str, size: int) -> Iterator[_Slice]:
    """``path`` cut at line starts every ``size`` lines (a last line without a newline counts)."""
    with open(path, "rb") as file:
        start, first, lines, position = 0, 1, 0, 0
        ended = True  # whether the file read so far ends with a newline
        while True:
            block = file.read(_BLOCK)
            if not block:
                break
            ended = block.endswith(b"\n")
            at = 0
            while True:
                wanted = size - lines
                if block.count(b"\n", at) < wanted:
                    lines += block.count(b"\n", at)
                    break
                for _ in range(wanted):
                    at = block.index(b"\n", at) + 1
                yield _Slice(start, position + at, first, first + size - 1)
                start, first, lines = position + at, first + size, 0
            position += len(block)
        if position > start:  # the last lines: a last one without a newline counts too
            yield _Slice(start, position, first, first + lines - ended)


@attrs.frozen
class _Input:
    """One input in the campaign's order: a path read in this process (``shards`` None), or a
    regular file cut into shards."""

    path: str
    shards: tuple[Shard, ...] | None
    slices: tuple[_Slice, ...] = ()


def plan(paths: list[str], size: int, game_name: str | None) -> list[_Input]:
    """The inputs ``paths`` in order, each regular file of text cut into shards of ``size``
    lines."""
    from hanamikoji.campaign import Shard

    inputs = []
    for number, path in enumerate(paths, start=1):
        shards = None
        cut: tuple[_Slice, ...] = ()
        if path != "-":
            try:
                regular = stat.S_ISREG(os.stat(path).st_mode)
                if regular:
                    with open(path, "rb") as file:
                        binary = V._binary(file)
                    if binary is None:
                        cut = tuple(slices(path, size))
                        shards = tuple(
                            Shard(f"{number:04d}-lines-{s.first_line:012d}-{s.last_line:012d}",
                                  _TASK, (os.path.abspath(path), path, s.start, s.end,
                                          s.first_line, game_name)) for s in cut)
            except OSError:
                shards = None  # reported in its turn, as without workers
        inputs.append(_Input(path, shards, cut))
    return inputs


def shard_problem(piece: _Slice, blob: str) -> str | None:
    """Why ``blob``, kept for the shard of lines ``piece``, is not that shard's output, or None:
    a header line (``{"clean": false}`` alone, or ``{"clean": true, "records": N}``) and then
    exactly N verdict lines, numbered 0 to N - 1, each on a line of the shard's range after the
    one before (N is at most the range's lines)."""
    lines = blob.split("\n")
    if lines.pop() != "" or not lines:
        return "it is not a shard's output (cut short)"
    head = json.loads(lines[0])
    if head == {"clean": False}:
        return None if len(lines) == 1 else "it holds verdicts after saying it holds none"
    if (not isinstance(head, dict) or set(head) != {"clean", "records"} or head["clean"] is not True
            or type(head["records"]) is not int):
        return "its first line is not a shard's header"
    count, room = head["records"], piece.last_line - piece.first_line + 1
    if not 0 <= count <= room or len(lines) - 1 != count:
        return (f"its header says {count} records and it holds {len(lines) - 1} "
                f"(its {room} lines hold at most {room})")
    last = piece.first_line - 1
    for index, line in enumerate(lines[1:]):
        said, data = json.loads(line)
        if (not isinstance(said, str) or not isinstance(data, dict) or data.get("index") != index
                or type(data.get("line")) is not int
                or not last < data["line"] <= piece.last_line
                or not isinstance(data.get("message"), str)
                or data.get("status") not in {status.value for status in V.Status}):
            return f"its verdict {index} is not a verdict of its lines"
        last = data["line"]
    return None


def identity(path: str) -> list[Any]:
    """What a store resumed later must find unchanged of the input ``path``."""
    try:
        status = os.stat(path)
    except OSError:
        return [path]
    return [os.path.abspath(path), status.st_size, status.st_mtime_ns]


def rest(path: str, piece: _Slice, tally: V.Tally,
         forced: Any) -> Iterator[V.Verdict]:
    """The records of ``path`` from ``piece``'s start to the end, read as in one process."""
    with open(path, "rb") as file:
        file.seek(piece.start)
        for verdict, _, _ in V.replayed(file, path, tally.records, forced, piece.first_line):
            tally.add(verdict)
            yield verdict
