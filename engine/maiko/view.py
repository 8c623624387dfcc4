"""What a player may know (MK-INFO-1..3), the resampler of what they may not, and the ledger.

A view has perfect recall: it holds every step of the game as the player saw it, with every tile
shown face up (MK-INFO-1) and the player's own One-san looks (MK-TUTOR-ONESAN-2), and the public
position now. It never holds the layout or another player's looks.

>>> import random
>>> from .game import apply, new_game, random_layout
>>> from .actions import OneSan
>>> config = Config.make(2)
>>> state = apply(new_game(config), random_layout(config, random.Random(4)))
>>> state = apply(state, OneSan(5))
>>> observe(state, 0).log[-1].tile is not None, observe(state, 1).log[-1].tile
(True, None)
"""

from __future__ import annotations

import random
from typing import Any

import attrs

from hanamikoji.engine.core.codec import dumps

from .actions import Danna, Decision, Flip, Layout, OneSan
from .components import (
    COPIES,
    FRIEND,
    NUM_COLOURS,
    NUM_FRIENDS,
    NUM_ITEMS,
    Config,
    tile_name,
)
from .game import (
    DOWN,
    EMPTY,
    Phase,
    Result,
    State,
    Step,
    apply,
    current_player,
    new_game,
)
from .record import decision_to_json, options_of, result_to_json

#: In :attr:`View.board`: a face-down tile, an empty space.
HIDDEN, GONE = -1, -2


@attrs.frozen
class Seen:
    """One step as a player saw it: whose turn, who decided, what, and the tile it showed them
    (a flip, a Danna reveal, their own One-san look), else None."""

    turn: int
    player: int
    decision: Decision
    tile: int | None


@attrs.frozen
class View:
    """What ``player`` may know (MK-INFO-1..3).

    ``board[s]`` is :data:`HIDDEN` for a face-down tile, :data:`GONE` for an empty space, else
    the code of the tile lying face up (a friend, or the first tile of a flip in progress).
    The other fields are the state's public fields; ``log`` is the whole game as seen.
    """

    player: int
    config: Config
    first_player: int
    current_player: int
    phase: Phase
    turn: int
    board: tuple[int, ...]
    boards: tuple[tuple[int, ...], ...]
    hands: tuple[int, ...]
    pool: int
    cards: tuple[int, ...]
    discarded: tuple[int, ...]
    box: tuple[int, ...]
    pending: int | None
    visited: bool
    looks: tuple[int, ...]
    sweep_row: int | None
    sweep_index: int
    triggered_by: int | None
    result: Result | None
    log: tuple[Seen, ...]

    def known(self) -> dict[int, int]:
        """Every space whose tile this player has seen, with the tile (their memory, perfect)."""
        out: dict[int, int] = {}
        for seen in self.log:
            if seen.tile is not None:
                out[seen.decision.space] = seen.tile  # type: ignore[union-attr]
        return out


def _shown(decision: Decision) -> bool:
    return isinstance(decision, (Flip, Danna))


def observe(state: State, player: int) -> View:
    """MK-INFO-1..3, MK-TUTOR-ONESAN-2: ``player``'s view of ``state``."""
    layout = state.layout
    board = tuple(HIDDEN if v == DOWN else GONE if v == EMPTY else layout[s]
                  for s, v in enumerate(state.spaces))
    return View(player, state.config, state.first_player, current_player(state), state.phase,
                state.turn, board, state.boards, state.hands, state.pool, state.cards,
                state.discarded, state.config.box, state.pending, state.visited, state.looks,
                state.sweep_row, state.sweep_index, state.triggered_by, state.result,
                _log(state, player))


def _seen(layout: tuple[int, ...], steps: tuple[Step, ...], player: int) -> tuple[Seen, ...]:
    """``steps`` as ``player`` saw them: the tile of every flip and Danna reveal, and of their
    own One-san looks."""
    return tuple(
        Seen(step.turn, step.player, step.decision,
             layout[step.decision.space] if _shown(step.decision)  # type: ignore[union-attr]
             or (isinstance(step.decision, OneSan) and step.player == player) else None)
        for step in steps)


# A view has perfect recall, so its log grows by a step at each decision; ``diff`` asks every
# player's view after every decision. The last log built for each (layout, player) is kept and
# extended by the steps that follow it, instead of being rebuilt from the first step. A log is
# a function of the layout, the steps and the player alone, and a hit needs the very layout
# object and the same steps, so the cache never changes what a view holds.
_LOGS: dict[tuple[int, int], tuple[tuple[int, ...], tuple[Step, ...], tuple[Seen, ...]]] = {}
_LOGS_KEPT = 32


def _log(state: State, player: int) -> tuple[Seen, ...]:
    layout, steps = state.layout, state.steps
    key = (id(layout), player)
    hit = _LOGS.get(key)
    if hit is not None and hit[0] is layout:
        _, known, log = hit
        n = len(known)
        if steps is known:
            return log
        if len(steps) > n and steps[:n] == known:
            log = log + _seen(layout, steps[n:], player)
            _LOGS[key] = (layout, steps, log)
            return log
    log = _seen(layout, steps, player)
    if len(_LOGS) >= _LOGS_KEPT:
        _LOGS.clear()
    _LOGS[key] = (layout, steps, log)
    return log


# --- a view as canonical JSON text, for diff --------------------------------------------------

# The entries of a view's log as canonical JSON text: the last log written for each player,
# extended by the entries that follow it (entries are compared by value, so a view built
# otherwise, a broken engine's say, gets the same text as a fresh one would).
_LOG_TEXTS: dict[int, tuple[tuple[Seen, ...], str]] = {}


# --- the view as JSON --------------------------------------------------------------------------


def _seen_to_json(seen: Seen) -> dict[str, Any]:
    out = {"turn": seen.turn, "player": seen.player, "decision": decision_to_json(seen.decision)}
    if seen.tile is not None:
        out["tile"] = tile_name(seen.tile)
    return out


def view_to_json(view: View) -> dict[str, Any]:
    """A view as JSON: the board as ``"down"``, ``"empty"`` or the face-up tile per space."""
    board = ["down" if v == -1 else "empty" if v == -2 else tile_name(v) for v in view.board]
    return {
        "player": view.player, "options": options_of(view.config),
        "first_player": view.first_player, "current_player": view.current_player,
        "phase": view.phase.value, "turn": view.turn, "board": board,
        "maiko_boards": [_board_json(b) for b in view.boards],
        "tokens": {"hands": list(view.hands), "pool": view.pool, "tutor_cards": list(view.cards)},
        "discarded": [tile_name(t) for t in view.discarded],
        "box": [tile_name(t) for t in view.box],
        "pending": view.pending, "visited": view.visited, "looks": list(view.looks),
        "row_discard": None if view.sweep_row is None else
        {"row": view.sweep_row, "next": view.sweep_index},
        "end_triggered_by": view.triggered_by,
        "result": None if view.result is None else result_to_json(view.result),
        "log": [_seen_to_json(s) for s in view.log],
    }


def _board_json(board: tuple[int, ...]) -> list[list[str]]:
    """A maiko board as nine lists of tile names, item 0 first."""
    return [[tile_name(c * NUM_ITEMS + item) for c in range(4) for _ in range(board[item * 4 + c])]
            for item in range(NUM_ITEMS)]



def view_text(view: View) -> str:
    """``view`` as the canonical JSON text of the oracle (``protocol.dumps`` of
    ``view_to_json(view)``: sorted keys, no spaces), byte for byte: the text of the view
    without its log and maiko boards, with the text of each put in its place (the log's is
    extended step by step, a board's is kept while the board stays as it is)."""
    text = dumps(view_to_json(attrs.evolve(view, log=(), boards=())))
    # The keys of a view are sorted and unique and no string in it holds a quote, so each
    # empty list below appears once, in its key's place.
    for key, value in (("log", _log_text(view.player, view.log)),
                       ("maiko_boards", "[" + ",".join(map(_board_text, view.boards)) + "]")):
        marker = f',"{key}":[],'
        at = text.index(marker)
        text = f'{text[:at]},"{key}":{value},{text[at + len(marker):]}'
    return text


_BOARD_TEXTS: dict[tuple[int, ...], str] = {}


def _board_text(board: tuple[int, ...]) -> str:
    text = _BOARD_TEXTS.get(board)
    if text is None:
        if len(_BOARD_TEXTS) >= 4096:
            _BOARD_TEXTS.clear()
        text = _BOARD_TEXTS[board] = dumps(_board_json(board))
    return text


def _log_text(player: int, log: tuple[Seen, ...]) -> str:
    hit = _LOG_TEXTS.get(player)
    if hit is not None:
        known, text = hit
        n = len(known)
        if log is known:
            return text
        if len(log) > n and log[:n] == known:
            more = ",".join(dumps(_seen_to_json(seen)) for seen in log[n:])
            text = f"{text[:-1]},{more}]" if n else f"[{more}]"
            _LOG_TEXTS[player] = (log, text)
            return text
    text = "[" + ",".join(dumps(_seen_to_json(seen)) for seen in log) + "]"
    _LOG_TEXTS[player] = (log, text)
    return text


def seen_spaces(state: State, player: int) -> frozenset[int]:
    """The spaces whose tile ``player`` has seen: every flip and Danna reveal, and their own
    One-san looks."""
    return frozenset(step.decision.space for step in state.steps  # type: ignore[union-attr]
                     if _shown(step.decision)
                     or (isinstance(step.decision, OneSan) and step.player == player))


def resample(state: State, player: int, rng: random.Random) -> State:
    """A state ``player`` cannot tell from ``state``: the tiles of every space they have never
    seen (all face down) shuffled among those spaces with ``rng``, then the same decisions
    replayed. Public tiles and the player's own looks keep their places; other players' looks
    may now see other tiles. The face-down multiset is unchanged, so the static test
    (MK-STATIC-3) and every legal decision are too."""
    if state.phase is Phase.LAYOUT:
        return state
    known = seen_spaces(state, player)
    unseen = [s for s in range(len(state.layout)) if s not in known]
    tiles = [state.layout[s] for s in unseen]
    rng.shuffle(tiles)
    layout = list(state.layout)
    for s, code in zip(unseen, tiles):
        layout[s] = code
    new = apply(new_game(state.config, state.first_player), Layout(tuple(layout)))
    for step in state.steps:
        new = apply(new, step.decision)
    return new


# --- the ledger -----------------------------------------------------------------------------


def ledger(state: State) -> dict[str, int]:
    """Components counted over every place: each kind of tile (face down, face up, on maiko
    boards, discarded, in the box, or still to be laid before the layout), all tiles, the
    tokens (pool, hands, tutor cards) and the tutor cards (MK-COMP-1, MK-COMP-2)."""
    counts = [0] * (FRIEND + 1)
    if state.phase is Phase.LAYOUT:
        for code in state.config.tiles:
            counts[code] += 1
    else:
        for s, v in enumerate(state.spaces):
            if v != EMPTY:
                counts[state.layout[s]] += 1
    for code in state.config.box:
        counts[code] += 1
    for board in state.boards:
        for index, n in enumerate(board):
            counts[(index % NUM_COLOURS) * NUM_ITEMS + index // NUM_COLOURS] += n
    for code in state.discarded:
        counts[code] += 1
    out = {f"tile:{tile_name(code)}": n for code, n in enumerate(counts)}
    out["tiles"] = sum(counts)
    out["tokens"] = state.pool + sum(state.hands) + sum(state.cards)
    out["tutor-cards"] = len(state.cards)
    return out


def expected_ledger(config: Config) -> dict[str, int]:
    """MK-COMP-1, MK-COMP-2: two of each item tile, nine friends, 81 tiles, 16 tokens, 4 cards."""
    out = {f"tile:{tile_name(code)}": COPIES for code in range(FRIEND)}
    out["tile:friend"] = NUM_FRIENDS
    out["tiles"] = FRIEND * COPIES + NUM_FRIENDS
    out["tokens"] = 16
    out["tutor-cards"] = 4
    return out
