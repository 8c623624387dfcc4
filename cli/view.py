"""``hanamikoji view``: game records of any game as one self-contained HTML page.

``view FILE... [--out PAGE.html]`` reads records as ``validate`` does and writes one page that
replays each game a step at a time, with a list of the games when there are several
(:mod:`hanamikoji.viewer.core.page`). A record that is not valid is reported on stderr as
``validate`` reports it and listed on the page with its verdict; the exit code is
``validate``'s (1 if some are illegal, 2 if any is malformed or a file cannot be read), and the
page is written all the same. Without ``--out`` the page is written beside the first file,
named after it (``games.jsonl`` gives ``games.html``).

A FILE may also be a position (``{"game", "options", "first_player", "history"}``, as
``diff --save`` writes ``position.json`` and ``perft --history`` reads it): the game so far,
replayed by the engine and listed as unfinished; a position the engine refuses is one line on
stderr naming the JSON path, and exit code 2.

A FILE may also be the ``report.json`` of ``check`` (its ``format`` is
:data:`hanamikoji.oracle.core.check.FORMAT`), viewed alone: the page is the one ``check --out``
writes as ``report.html`` (:func:`hanamikoji.viewer.core.card.card_page`), exit code 0; a
report that is not of its schema's shape is one line naming the JSON path, and exit code 2.
A FILE may also be a tournament's ``games.jsonl`` (:mod:`.tournament_games`): each game with
the bots of its seats; a forfeited one replayed to the forfeit, with the forfeit (who, kind,
rule, message, the bot's standard error and the request it got); a finished one from its record
in the ``records.jsonl`` beside it. ``--only N`` keeps record N, or game N of a tournament.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import stat
import sys
from typing import Any

from hanamikoji.runtime.base import UsageError
from hanamikoji.runtime.output import write_text
from hanamikoji.engine.core.registry import get
from hanamikoji.oracle.core.validate import Status, Tally, records


def default_out(paths: list[str]) -> pathlib.Path:
    if paths[0] == "-":
        raise UsageError("--out PAGE.html is needed when the records come from stdin")
    return pathlib.Path(paths[0]).with_suffix(".html")


#: A position file is small; a larger file is read as records.
_POSITION_LIMIT = 1 << 20


def _head(path: str, limit: int, marker: bytes) -> Any:
    """The JSON value of the whole of ``path`` if it is a regular file of at most ``limit``
    bytes holding ``marker``, else None (the file is then read as records). Only a regular file
    is looked into: what is read of a pipe would be gone for ``records``."""
    from hanamikoji.oracle.core.validate import NotJSONError, decode

    if path == "-":
        return None
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        with open(path, "rb") as handle:
            raw = handle.read(limit + 1)
    except OSError:
        return None  # ``records`` says why it cannot be read
    if len(raw) > limit or marker not in raw:
        return None
    try:
        return decode(raw)
    except NotJSONError:
        return None


def _position(path: str) -> Any:
    """The JSON object in ``path`` if the file is a position (one small JSON object with a
    ``history`` and no record ``format``), else None (the file is read as records)."""
    obj = _head(path, _POSITION_LIMIT, b'"history"')
    return obj if isinstance(obj, dict) and "history" in obj and "format" not in obj else None


#: A check report is read whole; a larger file is read as records.
_REPORT_LIMIT = 1 << 26


def _check_report(path: str) -> Any:
    """The JSON object in ``path`` if the file is a check report (one JSON object whose
    ``format`` is the check report's), else None (the file is read as records)."""
    from hanamikoji.oracle.core.check import FORMAT

    obj = _head(path, _REPORT_LIMIT, FORMAT.encode())
    return obj if isinstance(obj, dict) and obj.get("format") == FORMAT else None


def _view_check_report(path: str, document: Any, out: pathlib.Path, named: bool) -> int:
    """The page of the check report ``document`` (read from ``path``), written to ``out``."""
    from hanamikoji.viewer.core.card import card_page

    try:
        text = card_page(document)
    except ValueError as error:
        raise UsageError(f"{path}: not a check report this toolkit can show: {error}") from None
    write_text(out, text, in_folder=not named)
    cards = len(document["cards"])
    print(f"wrote {out} (the check report of {cards} implementation{'s' if cards != 1 else ''})")
    return 0


def _position_entry(path: str, obj: Any, forced: Any) -> tuple[Any, dict[str, Any]]:
    """The game so far of the position ``obj`` (read from ``path``) as a page's entry, with its
    game; a :class:`UsageError` naming the file and the JSON path when it is no position of a
    known game, or the engine refuses a decision in it."""
    from hanamikoji.engine.core.errors import GameError
    from hanamikoji.oracle.core.perft import read_position
    from hanamikoji.viewer.core.page import game_entry

    try:
        game = forced if forced is not None else get(obj.get("game"))
        state = read_position(game, obj)
    except GameError as error:
        raise UsageError(f"{path}: {error}") from None
    decisions = len(game.history(state))
    return game, game_entry(game, state, f"{path}: the game so far ({decisions} decisions)")


def _played_entries(path: str, forced: Any, only: int | None,
                    tally: Tally) -> list[tuple[Any, dict[str, Any]]]:
    """The games of the tournament's ``games.jsonl`` at ``path`` as a page's entries, with
    their games: each names its bots, and a forfeit its forfeit; a game that cannot be replayed
    is one line on stderr and listed with why (exit code 2)."""
    from hanamikoji.oracle.core.tournament import stderr_line
    from hanamikoji.oracle.core.tournament_games import GamesFileError, played_games
    from hanamikoji.viewer.core.page import game_entry, unreadable_entry

    out: list[tuple[Any, dict[str, Any]]] = []
    try:
        for played in played_games(path, forced, only):
            tally.records += 1
            label = f"{path}:{played.line}: game {played.number}: " + " v ".join(played.bots)
            if played.problem is not None or played.game is None:
                tally.unreadable += 1
                print(f"hanamikoji view: error: {played.problem}", file=sys.stderr)
                out.append((None, unreadable_entry(label, str(played.problem))))
                continue
            entry = game_entry(played.game, played.final, label)
            entry["bots"] = list(played.bots)
            f = played.forfeit
            if f is not None:
                tail = f.get("stderr")
                entry["forfeit"] = {
                    "bot": f.get("bot"), "seat": f.get("seat"), "kind": f.get("kind"),
                    "rule": f.get("rule"), "message": f.get("message"), "exit": f.get("exit"),
                    "answer": f.get("answer"),
                    "stderr_line": stderr_line(tail) if isinstance(tail, str) else None,
                    "request": f.get("request")}
            out.append((played.game, entry))
    except (GamesFileError, OSError) as error:
        tally.unreadable += 1
        said = (str(error) if isinstance(error, GamesFileError)
                else f"cannot read {path}: {error.strerror or error}")
        print(f"hanamikoji view: error: {said}", file=sys.stderr)
        out.append((None, unreadable_entry(f"{path}: a tournament's games", said)))
    return out


def view(args: argparse.Namespace) -> int:
    """The ``view`` sub-command."""
    from hanamikoji.oracle.core.tournament_games import is_games_file
    from hanamikoji.viewer.core.page import game_entry, page, unreadable_entry

    out = pathlib.Path(args.out) if args.out else default_out(args.paths)
    forced = None if getattr(args, "game", None) is None else get(args.game)
    reports = [(path, found) for path in args.paths
               if (found := _check_report(path)) is not None]
    if reports:
        if len(args.paths) > 1:
            raise UsageError(f"{reports[0][0]} is a check report: view it alone, not with "
                             "other files")
        return _view_check_report(reports[0][0], reports[0][1], out, bool(args.out))
    tally = Tally()
    entries: list[dict[str, Any]] = []
    games = set()
    only = getattr(args, "only", None)
    for path in args.paths:
        if is_games_file(path):
            for game, entry in _played_entries(path, forced, only, tally):
                entries.append(entry)
                if game is not None:
                    games.add(game)
            continue
        position = _position(path)
        if position is not None:
            try:
                game, entry = _position_entry(path, position, forced)
            except UsageError as error:
                tally.unreadable += 1
                print(f"hanamikoji view: error: {error}", file=sys.stderr)
                entries.append(unreadable_entry(f"{path}: a position", str(error)))
            else:
                entries.append(entry)
                games.add(game)
            continue
        for verdict, game, final in records([path], tally, "view", forced):
            valid = verdict.judgement.status is Status.VALID and game is not None
            if only is not None and verdict.index != only:
                if not valid:  # judged all the same, as show judges it
                    print(verdict.to_text(), file=sys.stderr)
                continue
            label = f"{verdict.source}:{verdict.line}: record {verdict.index}"
            if valid and game is not None:
                entries.append(game_entry(game, final, label))
                games.add(game)
            else:
                print(verdict.to_text(), file=sys.stderr)
                entries.append(unreadable_entry(label, verdict.to_text()))
    if not entries:
        if only is not None and not tally.unreadable:
            raise UsageError(f"--only {only}: no record {only} and no game {only} of a "
                             f"tournament in {', '.join(args.paths)}")
        return tally.exit_code()
    names = ", ".join(sorted({e["title"] for e in entries if e.get("game")})) or "records"
    title = (f"{names}: {entries[0]['label']}" if len(entries) == 1
             else f"{names}: {len(entries)} records")
    write_text(out, page("games", title, {"kind": "games", "games": entries}, sorted(
        games, key=lambda g: g.name)), in_folder=not args.out)
    print(f"wrote {out} ({len(entries)} record{'s' if len(entries) != 1 else ''})")
    return tally.exit_code()
