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
count faster (:meth:`Game.fast_perft`, e.g. with transposition tables); :func:`perft` uses that
count when the game gives one, else :func:`count`, and the tests check both against :func:`walk`.

The command takes its starting position from ``--seed S`` (the first chance outcome of game 0 of
seed S, drawn as ``hanamikoji play --seed S`` draws it), from ``--history FILE`` (a position as
:meth:`Game.position_to_json` writes it) or from ``--deal FILE``, a game's own start file
(:meth:`Game.start_from_json`).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from .cli import EXIT_OK, UsageError
from .errors import GameError, IllegalActionError, InvalidActionError
from .game import CHANCE, Game


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
    fast = game.fast_perft(state, depth)
    return count(game, state, depth) if fast is None else tuple(fast)


def divide(game: Game, state: Any, depth: int) -> tuple[tuple[Any, int], ...]:
    """``perft(game, state, depth)[depth]`` split by the first decision, in ``legal_actions``
    order (empty at a leaf); the game's fast split if it has one here."""
    if depth < 1:
        raise ValueError(f"divide needs a depth >= 1, not {depth}")
    fast = game.fast_divide(state, depth)
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
    from .simulate import game_rng

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


# --- the command ---------------------------------------------------------------------------


def _read_json(path: str) -> Any:
    from .commands import cannot_read
    from .validate import NotJSONError, decode

    try:
        with open(path, "rb") as handle:
            raw = handle.read(1 << 20)
    except OSError as error:
        raise UsageError(cannot_read(path, error)) from None
    try:
        return decode(raw)
    except NotJSONError as error:
        raise UsageError(f"{path}: {error}") from None


def start(game: Game, config: Any, args: argparse.Namespace) -> tuple[Any, str]:
    """The position the command counts from, and where it came from (for people)."""
    from .options import option_values

    if args.deal is not None or args.history is not None:
        flag, path = ("--deal", args.deal) if args.deal is not None else ("--history", args.history)
        if args.first_player is not None:
            raise UsageError(f"--first-player goes with --seed; a {flag} file names its own "
                             "first_player")
        if flag == "--history" and option_values(game, args):
            raise UsageError("the game's options go with --seed or --deal; a --history file "
                             "names its own options")
        obj = _read_json(path)
        try:
            state = (read_position(game, obj) if flag == "--history"
                     else game.start_from_json(obj, config))
        except GameError as error:
            raise UsageError(f"{path}: {error}") from None
        if state is None:
            raise UsageError(f"--deal: game {game.name} has no start files; use --seed or "
                             "--history")
        return state, path
    first = args.first_player or 0
    players = game.num_players(config)
    if not 0 <= first < players:
        raise UsageError(f"--first-player {first}: the players are 0 to {players - 1}")
    return seeded_start(game, config, args.seed, first), f"seed {args.seed} (game 0)"


def run(args: argparse.Namespace) -> int:
    """The ``perft`` sub-command."""
    from .options import game_and_config

    game, config = game_and_config(args)
    limit = game.perft_max_depth()
    if limit is not None and args.depth > limit[0]:
        raise UsageError(f"--depth {args.depth}: {limit[1]}; use 1 to {limit[0]}")
    state, where = start(game, config, args)
    counts = perft(game, state, args.depth)
    split = divide(game, state, args.depth) if args.divide else ()
    header, summary = game.perft_header(state)
    if args.json:
        out: dict[str, Any] = {**header,
                               "depths": {str(d): counts[d] for d in range(1, args.depth + 1)}}
        if args.divide:
            out["divide"] = [{"decision": game.decision_to_json(d), "count": n}
                             for d, n in split]
        print(json.dumps(out))
        return EXIT_OK
    print(f"perft of {where}: {summary}")
    if args.divide:
        texts = [game.decision_text(d) for d, _ in split]
        width = max(map(len, texts), default=0)
        for text, (_, count) in zip(texts, split):
            print(f"{text:<{width}}  {count}")
        print(f"{len(split)} first decisions, {sum(n for _, n in split)} sequences of "
              f"{args.depth} decisions")
    print("depth  leaves")
    for d in range(1, args.depth + 1):
        print(f"{d:>5}  {counts[d]}")
    return EXIT_OK
