"""``hanamikoji perft``: count the decision sequences from a position, as chess programmers count
moves, for any game.

The tree is the tree of legal decisions: its nodes are states, the children of a node are
``game.apply(state, d)`` for each ``d`` in ``game.legal_actions(state)``. Chance nodes and the
end of the game are leaves: chance is fixed by the starting position, and perft counts the
players' decisions only. ``perft(game, state, d)[k]`` is the number of nodes at depth ``k``, that
is, of distinct sequences of ``k`` decisions; the counting convention is the game's
``legal_actions`` (one entry per distinct outcome).

:func:`walk` is the definition, a plain recursive walk; :func:`count` is the same walk with
its last ply counted in bulk (``len(legal_actions)``, not one ``apply`` per decision). A game may
count faster (:meth:`PerftExtension.count`, e.g. with transposition tables, in the game's
``hanamikoji.oracle.<game>.perft``); :func:`perft` uses that count when the game gives one, else
:func:`count`, and the tests check both against :func:`walk`.

The command (:mod:`hanamikoji.cli.perft`) takes its starting position from ``--seed S`` (the
first chance outcome of game 0 of seed S, drawn as ``hanamikoji play --seed S`` draws it), from
``--history FILE`` (a position as :meth:`Game.position_to_json` writes it) or from ``--deal
FILE``, a game's own start file (:meth:`PerftExtension.start_from_json`).
"""

from __future__ import annotations

import json
import re
from typing import Any, Iterator

from hanamikoji.runtime.base import UsageError
from hanamikoji.engine.core.errors import GameError, IllegalActionError, InvalidActionError
from hanamikoji.engine.core.game import CHANCE, Game
from hanamikoji.oracle.core.extension import extension


class PerftExtension:
    """What perft can know of one game beyond its interface; the defaults serve any game. A
    game's own subclass is ``EXTENSION`` of ``hanamikoji.oracle.<game>.perft``
    (:mod:`hanamikoji.oracle.core.extension`)."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def count(self, state: Any, depth: int) -> tuple[int, ...] | None:
        """The perft counts at depths ``0..depth`` from ``state`` (chance nodes and the end are
        leaves), counted faster than a plain walk, or None where the game has no faster count
        (then :func:`count` counts). The tests check it against :func:`walk`."""
        return None

    def divide(self, state: Any, depth: int) -> tuple[tuple[Any, int], ...] | None:
        """``count(state, depth)[depth]`` split by the first decision, in ``legal_actions``
        order (one count shared by every child), or None as for :meth:`count`."""
        return None

    def max_depth(self) -> tuple[int, str] | None:
        """The deepest ``perft --depth`` the game allows and why, or None for any depth."""
        return None

    def header(self, state: Any) -> tuple[dict[str, Any], str]:
        """How ``perft`` names its starting position: the JSON fields before ``depths`` and the
        text after ``perft of SOURCE:``. By default the position itself."""
        game = self.game
        player = game.current_player(state)
        made = len(game.history(state))
        return ({"position": game.position_to_json(state)},
                f"{made} decision{'' if made == 1 else 's'} from the start, "
                + (f"player {player} to decide" if player >= 0 else "no player to decide"))

    def start_from_json(self, obj: Any, config: Any) -> Any:
        """The state a game's own start file describes (``perft --deal FILE``), under
        ``config`` unless the file says otherwise; :class:`GameError` naming the JSON path when it
        is not one. None when the game has no start files (the default)."""
        return None


def hooks(game: Game) -> PerftExtension:
    """``game``'s perft hooks (its own, or the defaults)."""
    return extension("perft", game, PerftExtension)


#: How deep perft counts for a game whose rules set no bound on its tree (Maiko's games can go
#: on for ever, MK-END-5): the walkers recurse once per level, so this keeps them far from
#: Python's recursion limit; a count this deep is out of any machine's reach anyway.
MAX_DEPTH = 100


def depth_limit(game: Game) -> tuple[int, str]:
    """The deepest ``perft --depth`` for ``game`` and why: the game's own bound
    (:meth:`PerftExtension.max_depth`) when it has one, else :data:`MAX_DEPTH`."""
    own = hooks(game).max_depth()
    if own is not None and own[0] <= MAX_DEPTH:
        return own
    return MAX_DEPTH, (f"perft counts at most {MAX_DEPTH} decisions deep (the rules of "
                       f"{game.name} set no bound on a game's length)")


def walk(game: Game, state: Any, depth: int) -> tuple[int, ...]:
    """The number of nodes at each depth ``0..depth`` below ``state``: every legal decision
    applied, nothing memoised."""
    if depth < 0:
        raise ValueError(f"depth must be >= 0, not {depth}")
    counts = [0] * (depth + 1)

    def visit(node: Any, level: int) -> None:
        counts[level] += 1
        # A player's number is >= 0; CHANCE and TERMINAL are negative: both are leaves.
        if level < depth and game.current_player(node) >= 0:
            for decision in game.legal_actions(node):
                visit(game.apply(node, decision), level + 1)

    visit(state, 0)
    return tuple(counts)


def count(game: Game, state: Any, depth: int) -> tuple[int, ...]:
    """What :func:`walk` counts, with the last ply counted in bulk: a node one decision above
    the deepest level adds ``len(legal_actions)`` instead of applying each decision (each
    decision is one node at the deepest level, whatever it leads to). Nothing is memoised; the
    walk's cost drops by the branching factor (chess programmers' bulk counting)."""
    if depth < 0:
        raise ValueError(f"depth must be >= 0, not {depth}")
    counts = [0] * (depth + 1)
    last = depth - 1

    def visit(node: Any, level: int) -> None:
        counts[level] += 1
        if level < depth and game.current_player(node) >= 0:
            decisions = game.legal_actions(node)
            if level == last:
                counts[depth] += len(decisions)
                return
            for decision in decisions:
                visit(game.apply(node, decision), level + 1)

    visit(state, 0)
    return tuple(counts)


def perft(game: Game, state: Any, depth: int) -> tuple[int, ...]:
    """The number of decision sequences of each length ``0..depth`` from ``state``: the game's
    fast count if it has one here, else :func:`count` (the plain walk, last ply in bulk)."""
    if depth < 0:
        raise ValueError(f"depth must be >= 0, not {depth}")
    fast = hooks(game).count(state, depth)
    return count(game, state, depth) if fast is None else tuple(fast)


def divide(game: Game, state: Any, depth: int) -> tuple[tuple[Any, int], ...]:
    """``perft(game, state, depth)[depth]`` split by the first decision, in ``legal_actions``
    order (empty at a leaf); the game's fast split if it has one here."""
    if depth < 1:
        raise ValueError(f"divide needs a depth >= 1, not {depth}")
    fast = hooks(game).divide(state, depth)
    if fast is not None:
        return tuple(fast)
    if game.current_player(state) < 0:
        return ()
    return tuple((decision, perft(game, game.apply(state, decision), depth - 1)[depth - 1])
                 for decision in game.legal_actions(state))


def seeded_start(game: Game, config: Any, seed: int, first_player: int = 0) -> Any:
    """The start of game 0 of seed ``seed`` with its first chance outcome drawn, as ``play``
    and ``simulate`` draw it (the same random source); a game that does not begin with chance
    starts as :meth:`Game.new_game` leaves it."""
    from hanamikoji.engine.core.seeded import game_rng

    state = game.new_game(config, first_player)
    if game.current_player(state) == CHANCE:
        state = game.apply(state, game.sample_chance(state, game_rng(seed, 0)))
    return state


def read_position(game: Game, obj: Any) -> Any:
    """The state a position names (``{"game", "options", "first_player", "history"}``, as
    :meth:`Game.position_to_json` writes it), replayed by the engine. Every error names the JSON
    path at fault: :class:`InvalidActionError` for a value that is not a position, and
    :class:`IllegalActionError` with the rule for a decision the rules refuse."""
    if not isinstance(obj, dict):
        raise InvalidActionError('$: expected a position object {"game", "options", '
                                 '"first_player", "history"}')
    unknown = sorted(set(obj) - {"game", "options", "first_player", "history"})
    if unknown:
        raise InvalidActionError(f"$.{unknown[0]}: not a key of a position")
    if obj.get("game", game.name) != game.name:
        raise InvalidActionError(f"$.game: a position of {json.dumps(obj['game'])}, not of "
                                 f"{game.name} (see --game)")
    options = obj.get("options", {})
    if not isinstance(options, dict):
        raise InvalidActionError("$.options: expected an object of option values")
    try:
        config = game.configure(options)
    except GameError as error:
        raise InvalidActionError(f"$.options: {error}") from None
    first = obj.get("first_player", 0)
    players = game.num_players(config)
    if type(first) is not int or not 0 <= first < players:
        raise InvalidActionError(f"$.first_player: expected a player from 0 to {players - 1}, "
                                 f"got {json.dumps(first)}")
    history = obj.get("history")
    if not isinstance(history, list):
        raise InvalidActionError("$.history: expected a list of decisions")
    state = game.new_game(config, first)
    for index, item in enumerate(history):
        path = f"$.history[{index}]"
        decision = game.decision_from_json(item, path)  # its errors name the path
        try:
            state = game.apply(state, decision)
        except GameError as error:
            raise IllegalActionError(f"{path}: {error.message}", error.rule) from None
    return state


# --- the files the command reads ------------------------------------------------------------


def read_json(path: str, limit: int = 1 << 20) -> Any:
    """The JSON document in ``path``, at most ``limit`` bytes (a start or position file is
    small; a suite of perft cases may be large); a UsageError naming the file otherwise."""
    from hanamikoji.runtime.base import cannot_read
    from hanamikoji.oracle.core.validate import NotJSONError, decode

    try:
        with open(path, "rb") as handle:
            raw = handle.read(limit + 1)
    except OSError as error:
        raise UsageError(cannot_read(path, error)) from None
    if len(raw) > limit:
        raise UsageError(f"{path}: larger than {limit:,} bytes; expected one JSON document "
                         "of at most that size")
    try:
        return decode(raw)
    except NotJSONError as error:
        raise UsageError(f"{path}: {error}") from None


# --- a position in a record: --record FILE --at WHERE ---------------------------------------


def _first_record(path: str) -> Any:
    """The first record of a file as ``validate`` reads them: one JSON document, or the first
    non-blank line of JSON Lines."""
    from hanamikoji.runtime.base import cannot_read
    from hanamikoji.oracle.core.validate import NotJSONError, decode

    try:
        with open(path, "rb") as handle:
            raw = handle.read(1 << 24)
    except OSError as error:
        raise UsageError(cannot_read(path, error)) from None
    try:
        return decode(raw)
    except NotJSONError:
        pass
    line = next((line for line in raw.splitlines() if line.strip()), b"")
    try:
        return decode(line)
    except NotJSONError as error:
        raise UsageError(f"{path}: the first record is not JSON: {error}") from None


def _changed_paths(before: Any, after: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple]:
    """The JSON paths (tuples of keys and indices) where ``after`` differs from ``before``,
    as deep as the difference goes (an array that grew: the index of its first new item)."""
    if isinstance(before, dict) and isinstance(after, dict):
        for key in sorted(set(before) | set(after)):
            if key not in before or key not in after:
                yield from _added_paths(after.get(key), path + (key,))
            elif before[key] != after[key]:
                yield from _changed_paths(before[key], after[key], path + (key,))
    elif isinstance(before, list) and isinstance(after, list):
        for i in range(max(len(before), len(after))):
            if i >= len(before) or i >= len(after):
                yield from _added_paths(after[i] if i < len(after) else None, path + (i,))
                return
            if before[i] != after[i]:
                yield from _changed_paths(before[i], after[i], path + (i,))
    else:
        yield path


def _added_paths(value: Any, path: tuple[Any, ...]) -> Iterator[tuple]:
    """``path`` of a value that is new, and the paths to the first item of each array in it
    (a new turn of steps is written at its first step)."""
    yield path
    if isinstance(value, dict):
        for key in sorted(value):
            yield from _added_paths(value[key], path + (key,))
    elif isinstance(value, list) and value:
        yield from _added_paths(value[0], path + (0,))


def record_places(game: Game, final: Any) -> list[tuple[Any, tuple[Any, ...]]]:
    """Every state of a record's game before a decision (chance outcomes included), with where
    that decision is written in the record, in the game's :attr:`Game.record_where` terms: the
    key ``k`` is the index in the record's array named ``k + "s"`` (``round``: ``rounds[r]``,
    ``turn``: ``turns[t]``, ``step``: ``steps[k]``; None where the decision is not inside such
    an array, as a round's deal is not inside a turn)."""
    keys = game.record_where
    states = list(game.states(final))
    records = [game.to_record(state) for state in states]
    places = []
    for i in range(len(states) - 1):
        best: tuple[Any, ...] = tuple(None for _ in keys)
        for changed in _changed_paths(records[i], records[i + 1]):
            values = []
            for key in keys:
                found = None
                for name, index in zip(changed, changed[1:]):
                    if name == key + "s" and type(index) is int:
                        found = index
                values.append(found)
            if sum(v is not None for v in values) > sum(v is not None for v in best):
                best = tuple(values)
        places.append((states[i], best))
    return places


def _parse_at(game: Game, text: str | None) -> tuple[int, ...]:
    keys = game.record_where
    shape = ":".join(key.upper() for key in keys)
    if not keys:
        raise UsageError(f"--at: game {game.name} names no places in its records; use --history")
    if text is None:
        raise UsageError(f"--record needs --at {shape}: where in the record to count from")
    parts = text.split(":")
    if len(parts) != len(keys) or not all(_PLACE.fullmatch(p) for p in parts):
        raise UsageError(f"--at takes {shape} (whole numbers from 0, in ASCII digits, at most "
                         f"9 each), not {_shown(text)}")
    return tuple(int(p) for p in parts)


#: A number of --at: ASCII digits (isdigit() takes "²", which int() refuses, and "٣", which it
#: reads) and ASCII blanks around; nine digits, more than any record holds.
_PLACE = re.compile(r"[ \t]*[0-9]{1,9}[ \t]*")


def _shown(text: str) -> str:
    return repr(text) if len(text) <= 40 else repr(text[:37]) + "..."


def record_position(game: Game, path: str, at: str | None) -> tuple[Game, Any, str]:
    """The state just before the first decision written at ``at`` in the first record of
    ``path`` (Hanamikoji ``ROUND:TURN``: before that turn's action; Maiko ``TURN:STEP``), with
    the record's game (found by its format) and a description. The record must be valid: it is
    replayed by the game's record reader."""
    from hanamikoji.engine.core.registry import by_format

    obj = _first_record(path)
    own = by_format(obj.get("format")) if isinstance(obj, dict) else None
    if own is not None and own.name != game.name:
        from hanamikoji.engine.core.registry import DEFAULT

        if game.name != DEFAULT:
            raise UsageError(f"{path}: a record of {own.name}, not of {game.name} (see --game)")
        game = own
    where = _parse_at(game, at)
    try:
        final = game.read_record(obj)
    except GameError as error:
        raise UsageError(f"{path}: the first record is not a valid game: {error}") from None
    places = record_places(game, final)
    for state, place in places:
        if place == where:
            names = ", ".join(f"{key} {value}" for key, value in zip(game.record_where, where))
            return game, state, f"{path} at {names}"
    known = [place for _, place in places if None not in place]
    last = (":".join(map(str, known[-1])) if known else None)
    raise UsageError(f"--at {at}: no decision of the record is at {at}"
                     + (f" (the last is at {last})" if last else ""))


# --- a file of perft cases: --suite FILE ----------------------------------------------------

#: The keys of a perft case's input that are not part of its position or start.
_CASE_KEYS = ("depth", "divide")


_DEPTH_KEY = re.compile(r"[1-9][0-9]{0,8}")  # ASCII: "²".isdigit() holds, and int() fails


def suite_case(game: Game, case: Any) -> tuple[bool, str, dict[str, Any]]:
    """Run one perft case of a vectors file (``{"id", "input", "expected"}``): the input is a
    position (``history``) or the game's own start (Hanamikoji's deal), with ``depth`` (else
    the deepest depth expected) and optionally ``divide``; the expected ``depths`` (and
    ``divide``) are compared with the counts. (passed, message, counts as JSON)."""
    if not isinstance(case, dict) or not isinstance(case.get("input"), dict) or \
            not isinstance(case.get("expected"), dict):
        raise ValueError('a case is {"id", "input": {...}, "expected": {...}}')
    given, expected = case["input"], case["expected"]
    wanted = expected.get("depths")
    if not isinstance(wanted, dict) or not wanted or \
            not all(_DEPTH_KEY.fullmatch(k) for k in wanted):
        raise ValueError('its expected has no "depths": {"1": n, ...}')
    depth = given.get("depth", max(int(k) for k in wanted))
    limit, why = depth_limit(game)
    if type(depth) is not int or not 1 <= depth <= limit:
        raise ValueError(f"its depth must be a whole number from 1 to {limit} ({why}), "
                         f"not {depth!r}")
    rest = {k: v for k, v in given.items() if k not in _CASE_KEYS}
    if "history" in rest:
        state = read_position(game, rest)
    else:
        state = hooks(game).start_from_json(rest, game.configure())
        if state is None:
            raise ValueError(f"game {game.name} has no start files: the input needs a history")
    counts = perft(game, state, depth)
    got: dict[str, Any] = {"depths": {str(d): counts[d] for d in range(1, depth + 1)}}
    wrong = [k for k in sorted(wanted, key=int) if int(k) > depth or got["depths"][k] != wanted[k]]
    problems = [f"depth {k}: {got['depths'].get(k)} instead of {wanted[k]}" for k in wrong]
    if "divide" in expected and given.get("divide"):
        split = divide(game, state, given["divide"])
        got["divide"] = [{"decision": game.decision_to_json(d), "count": n} for d, n in split]
        if got["divide"] != expected["divide"]:
            problems.append(f"divide at depth {given['divide']} differs")
    return not problems, "; ".join(problems), got
