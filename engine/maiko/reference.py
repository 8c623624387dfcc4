"""Maiko's plain transitions: the reference the fast engine of :mod:`.game` is checked against.

Every transition copies the whole state into a fresh draft, changes it and freezes it again;
``legal_actions`` rescans every space. Slow and obviously right: a property
(tests/properties/test_fast_engines.py) plays games drawn by Hypothesis through both and
requires the same states, legal decisions, views and results at every step. Rules as in
:mod:`.game` (MK-SETUP-3..5, MK-FLIP-*, MK-TUTOR-*, MK-COL-*, MK-ROW-*, MK-END-*, MK-STATIC-2).
"""

from __future__ import annotations

import bisect
from typing import Any

import attrs

from hanamikoji.engine.core.codec import value_text
from hanamikoji.engine.core.errors import IllegalActionError, InvalidActionError

from .actions import (
    DECISION_TYPES,
    Danna,
    Decision,
    EndTurn,
    Flip,
    Layout,
    OkaSan,
    OneSan,
    OneSanStop,
    Sabanto,
    Sweep,
    json_text,
)
from .components import COLUMNS, FRIEND, NUM_COLOURS, NUM_ITEMS, ROWS, Colour, Tutor
from .game import (
    DOWN,
    EMPTY,
    MAX_LOOKS,
    MAX_SPACES,
    UP,
    Phase,
    Reason,
    State,
    Step,
    board_full,
    decide,
    filled,
)


def _static_tiles(hands: Any, spaces: Any, layout: tuple[int, ...]) -> bool:
    """MK-STATIC-1 on the tiles: no token in any hand, no face-down friend, no two face-down
    tiles of one item."""
    if any(hands):
        return False
    seen = 0
    for s, v in enumerate(spaces):
        if v == DOWN:
            code = layout[s]
            if code == FRIEND:
                return False
            bit = 1 << (code % NUM_ITEMS)
            if seen & bit:
                return False
            seen |= bit
    return True


# --- legal decisions ------------------------------------------------------------------------

_FLIPS = tuple(Flip(s) for s in range(MAX_SPACES))
_DANNAS = tuple(Danna(s) for s in range(MAX_SPACES))
_LOOKS = tuple(OneSan(s) for s in range(MAX_SPACES))
_OKASANS = tuple(tuple(OkaSan(p, i) for i in range(NUM_ITEMS)) for p in range(4))
_SABANTOS = tuple(Sabanto(i, Colour(c)) for i in range(NUM_ITEMS) for c in range(NUM_COLOURS))
_SWEEPS = tuple(tuple(Sweep(i, None if c < 0 else Colour(c)) for c in range(-1, NUM_COLOURS))
                for i in range(NUM_ITEMS))
_STOP = OneSanStop()
_END_TURN = EndTurn()


def _visits(state: State, down: list[int]) -> list[Decision]:
    """MK-TUTOR-1..3: every tutor visit open to the player now, in menu order."""
    p = state.current
    if state.visited or not state.hands[p]:
        return []
    colour = state.config.colours[p]
    menu: list[Decision] = [_DANNAS[s] for s in down]
    for owner, board in enumerate(state.boards):
        if owner != p:
            menu.extend(_OKASANS[owner][i] for i in range(NUM_ITEMS)
                        if board[i * NUM_COLOURS + colour])
    menu.extend(_LOOKS[s] for s in down)
    own = state.boards[p]
    menu.extend(_SABANTOS[k] for k in range(len(own)) if own[k])
    return menu


def legal_actions(state: State) -> tuple[Decision, ...]:
    """The decisions the current player may take, sorted, one per distinct outcome; empty at the
    layout (chance) and at the end."""
    phase = state.phase
    if phase is Phase.FIRST or phase is Phase.SECOND:
        down = [s for s, v in enumerate(state.spaces) if v == DOWN]
        return tuple([_FLIPS[s] for s in down] + _visits(state, down))
    if phase is Phase.LOOK:
        looks = state.looks
        return tuple([_LOOKS[s] for s, v in enumerate(state.spaces) if v == DOWN and s not in looks]
                     + [_STOP])
    if phase is Phase.SWEEP:
        assert state.sweep_row is not None  # a sweep is of a row
        item = ROWS[state.sweep_row][state.sweep_index]
        board = state.boards[state.current]
        base = item * NUM_COLOURS
        options = _SWEEPS[item]
        return (options[0],) + tuple(options[c + 1] for c in range(NUM_COLOURS) if board[base + c])
    if phase is Phase.ENDING:
        down = [s for s, v in enumerate(state.spaces) if v == DOWN]
        return tuple(_visits(state, down) + [_END_TURN])
    return ()


# --- transitions ----------------------------------------------------------------------------


class _Draft:
    """A mutable copy of a state for one transition (then frozen into a new State)."""

    __slots__ = ("config", "first_player", "phase", "layout", "spaces", "boards", "hands",
                 "pool", "cards", "discarded", "current", "turn", "pending", "visited", "looks",
                 "resume", "sweep_row", "sweep_index", "triggered_by", "result", "steps")

    def __init__(self, s: State) -> None:
        self.config = s.config
        self.first_player = s.first_player
        self.phase = s.phase
        self.layout = s.layout
        self.spaces = list(s.spaces)
        self.boards = [list(b) for b in s.boards]
        self.hands = list(s.hands)
        self.pool = s.pool
        self.cards = list(s.cards)
        self.discarded = list(s.discarded)
        self.current = s.current
        self.turn = s.turn
        self.pending = s.pending
        self.visited = s.visited
        self.looks = s.looks
        self.resume = s.resume
        self.sweep_row = s.sweep_row
        self.sweep_index = s.sweep_index
        self.triggered_by = s.triggered_by
        self.result = s.result
        self.steps = s.steps

    def freeze(self) -> State:
        return State(self.config, self.first_player, self.phase, self.layout, tuple(self.spaces),
                     tuple(map(tuple, self.boards)), tuple(self.hands), self.pool,
                     tuple(self.cards), tuple(self.discarded), self.current, self.turn,
                     self.pending, self.visited, self.looks, self.resume, self.sweep_row,
                     self.sweep_index, self.triggered_by, self.result, self.steps)

    # -- tokens

    def gain_token(self, player: int) -> None:
        """MK-TOKEN-2: from the pool, else from the first tutor card holding one, else none."""
        if self.pool:
            self.pool -= 1
            self.hands[player] += 1
            return
        for tutor in Tutor:
            if self.cards[tutor]:
                self.cards[tutor] -= 1
                self.hands[player] += 1
                return

    # -- the flow of a turn

    def end_turn(self) -> None:
        """MK-TURN-1, MK-END-2: the next player's turn, or the end after the last turns."""
        if self.pending is not None:
            self.spaces[self.pending] = DOWN
            self.pending = None
        self.visited = False
        self.looks = ()
        nxt = (self.current + 1) % self.config.players
        if self.triggered_by is not None and nxt == self.first_player:
            self.finish(Reason.FULL_BOARD)
            return
        self.current = nxt
        self.turn += 1
        self.enter(Phase.FIRST)

    def enter(self, phase: Phase) -> None:
        """Go to ``phase``: MK-END-4 when a flip is due and none can be made, MK-STATIC-2 at a
        static first flip, and an ending step with nothing left to choose ends the turn."""
        if phase is Phase.FIRST or phase is Phase.SECOND:
            if DOWN not in self.spaces:
                self.finish(Reason.NO_FACE_DOWN)
                return
            if (phase is Phase.FIRST and self.triggered_by is None
                    and _static_tiles(self.hands, self.spaces, self.layout)):
                self.finish(Reason.STATIC)
                return
            self.phase = phase
            return
        if phase is Phase.ENDING:
            self.phase = Phase.ENDING
            if not self.can_visit():
                self.end_turn()
            return
        self.phase = phase

    def can_visit(self) -> bool:
        """MK-TUTOR-1..3: a visit is still open to the current player."""
        p = self.current
        if self.visited or not self.hands[p]:
            return False
        if DOWN in self.spaces or any(self.boards[p]):
            return True
        colour = self.config.colours[p]
        return any(board[i * NUM_COLOURS + colour] for owner, board in enumerate(self.boards)
                   if owner != p for i in range(NUM_ITEMS))

    def finish(self, reason: Reason) -> None:
        self.phase = Phase.OVER
        self.resume = None
        frozen = self.freeze()
        self.result = decide(frozen, reason)

    def place(self, tiles: tuple[int, ...], back_to: Phase) -> None:
        """Put ``tiles`` (one item) on the current player's board, then MK-COL-1, MK-END-1 and
        MK-ROW-1 in that order (MK-ROW-4), and go on to ``back_to``."""
        p = self.current
        board = self.boards[p]
        item = tiles[0] % NUM_ITEMS
        was_empty = not filled(board, item)
        for code in tiles:
            board[item * NUM_COLOURS + code // NUM_ITEMS] += 1
        row_done = False
        if was_empty:  # MK-COL-2, MK-ROW-2: only filling an empty item space completes a line
            column = COLUMNS[item % 3]
            if all(filled(board, i) for i in column if i != item):
                self.gain_token(p)
            row = ROWS[item // 3]
            row_done = all(filled(board, i) for i in row if i != item)
        nxt = back_to
        if board_full(board):
            if self.triggered_by is None:
                self.triggered_by = p
            nxt = Phase.ENDING  # MK-END-1, MK-END-3: flip no more
            if self.pending is not None:
                self.spaces[self.pending] = DOWN
                self.pending = None
        if row_done:
            self.phase = Phase.SWEEP
            self.sweep_row = item // 3
            self.sweep_index = 0
            self.resume = nxt
            return
        self.enter(nxt)

    def pay(self, tutor: Tutor) -> None:
        """MK-TUTOR-2: one of the player's tokens onto the tutor's card; MK-TUTOR-1: once."""
        self.hands[self.current] -= 1
        self.cards[tutor] += 1
        self.visited = True

    def friend(self, space: int) -> None:
        """MK-FLIP-5, MK-TUTOR-DANNA-3: the friend stays face up, a token, the turn ends."""
        self.spaces[space] = UP
        self.gain_token(self.current)
        self.end_turn()


def _illegal(message: str, rule: str) -> IllegalActionError:
    return IllegalActionError(message, rule)


def _check_space(state: State, space: Any, what: str) -> int:
    if not isinstance(space, int) or isinstance(space, bool) or not 0 <= space < len(state.spaces):
        raise InvalidActionError(f"{what}: space must be from 0 to {len(state.spaces) - 1}, "
                                 f"not {value_text(space)}", "MK-COMP-5")
    return space


def _check_item(item: Any) -> int:
    if not isinstance(item, int) or isinstance(item, bool) or not 0 <= item < NUM_ITEMS:
        raise InvalidActionError(f"item must be from 0 to 8, not {value_text(item)}", "MK-COMP-1")
    return item


def _check_colour(colour: Any, optional: bool) -> None:
    if colour is None and optional:
        return
    if not isinstance(colour, Colour):
        raise InvalidActionError(f"colour must be a Colour{' or None' if optional else ''}, "
                                 f"not {value_text(colour)}", "MK-COMP-1")


def _check_visit(state: State) -> None:
    """MK-TUTOR-1, MK-TUTOR-2."""
    if state.visited:
        raise _illegal(f"player {state.current} has already visited a tutor this turn",
                       "MK-TUTOR-1")
    if not state.hands[state.current]:
        raise _illegal(f"player {state.current} holds no kamon token to pay a tutor",
                       "MK-TUTOR-2")


def _require_face_down(state: State, space: int, rule: str, what: str) -> None:
    if state.spaces[space] != DOWN:
        if DOWN not in state.spaces:
            raise _illegal(f"{what}: no face-down tile is left", "MK-TUTOR-3")
        status = "empty" if state.spaces[space] == EMPTY else "face up"
        raise _illegal(f"{what}: space {space} is {status}, not face down", rule)


def _apply_layout(state: State, layout: Layout) -> State:
    """MK-SETUP-3..5: the tiles in play, one face down on each space."""
    tiles = layout.tiles
    if not isinstance(tiles, tuple) or not all(
            isinstance(t, int) and not isinstance(t, bool) and 0 <= t <= FRIEND for t in tiles):
        raise InvalidActionError("a layout is a tuple of tile codes 0 to 36", "MK-SETUP-5")
    expected = state.config.tiles
    if len(tiles) != len(expected):
        raise _illegal(f"a {state.config.players}-player layout has {len(expected)} tiles, "
                       f"not {len(tiles)}", "MK-SETUP-4" if state.config.players == 2 else "MK-SETUP-3")
    if tuple(sorted(tiles)) != expected:
        raise _illegal("the layout is not the tiles in play of this game",
                       "MK-SETUP-4" if state.config.players == 2 else "MK-SETUP-3")
    d = _Draft(state)
    d.layout = tiles
    d.spaces = [DOWN] * len(tiles)
    d.current = state.first_player
    d.enter(Phase.FIRST)
    return d.freeze()


def apply(state: State, decision: Decision) -> State:
    """The state after ``decision``; never changes ``state``.

    :class:`InvalidActionError` for something that is not a Maiko decision (or names a space,
    item or player that does not exist); :class:`IllegalActionError` naming the MK rule for a
    decision the rules forbid here.
    """
    if not isinstance(decision, DECISION_TYPES):
        raise InvalidActionError(f"not a maiko decision: {value_text(decision)}")
    phase = state.phase
    if phase is Phase.OVER:
        raise _illegal("the game is over", "MK-END-5")
    if phase is Phase.LAYOUT:
        if not isinstance(decision, Layout):
            raise _illegal(f"the layout comes first, not {json_text(decision)}", "MK-SETUP-5")
        return _apply_layout(state, decision)
    if isinstance(decision, Layout):
        raise _illegal("the layout is already made", "MK-SETUP-5")
    step = Step(state.turn, state.current, decision)
    if phase is Phase.LOOK:
        new = _apply_look(state, decision)
    elif phase is Phase.SWEEP:
        new = _apply_sweep(state, decision)
    else:
        new = _apply_turn(state, decision)
    return attrs.evolve(new, steps=state.steps + (step,))


def _apply_turn(state: State, decision: Decision) -> State:
    """A decision at a first flip, a second flip or the ending step."""
    phase = state.phase
    p = state.current
    if isinstance(decision, Flip):
        space = _check_space(state, decision.space, "flip")
        if phase is Phase.ENDING:
            raise _illegal(f"player {p} has filled their board and flips no more", "MK-END-1")
        if state.spaces[space] != DOWN:
            status = ("the first tile of this flip" if space == state.pending else
                      "empty" if state.spaces[space] == EMPTY else "a face-up friend")
            raise _illegal(f"space {space} is {status}; only a face-down tile may be flipped",
                           "MK-FLIP-2")
        d = _Draft(state)
        code = state.layout[space]
        if code == FRIEND:
            d.friend(space)  # MK-FLIP-5 (a pending first tile goes back in end_turn)
            return d.freeze()
        if phase is Phase.FIRST:
            d.spaces[space] = UP
            d.pending = space
            d.enter(Phase.SECOND)  # MK-END-4 if that was the last face-down tile
            return d.freeze()
        first = state.pending
        assert first is not None
        other = state.layout[first]
        if other % NUM_ITEMS == code % NUM_ITEMS:  # MK-FLIP-3
            d.spaces[first] = EMPTY
            d.spaces[space] = EMPTY
            d.pending = None
            d.place((other, code), Phase.FIRST)
            return d.freeze()
        d.end_turn()  # MK-FLIP-4: both go back face down
        return d.freeze()
    if isinstance(decision, EndTurn):
        if phase is not Phase.ENDING:
            raise _illegal("a turn ends only by a mismatch, a friend or the ending step",
                           "MK-TURN-2")
        d = _Draft(state)
        d.end_turn()
        return d.freeze()
    if isinstance(decision, OneSanStop):
        raise _illegal("no One-san visit is in progress", "MK-TUTOR-ONESAN-1")
    if isinstance(decision, Sweep):
        raise _illegal("no row discard is pending", "MK-ROW-3")
    # A tutor visit.
    if isinstance(decision, Danna):
        space = _check_space(state, decision.space, "Danna")
        _check_visit(state)
        _require_face_down(state, space, "MK-TUTOR-DANNA-1", "Danna")
        d = _Draft(state)
        d.pay(Tutor.DANNA)
        code = state.layout[space]
        if code == FRIEND:
            d.friend(space)  # MK-TUTOR-DANNA-3
            return d.freeze()
        d.spaces[space] = EMPTY
        d.place((code,), phase)  # MK-TUTOR-DANNA-2: the turn goes on where it was
        return d.freeze()
    if isinstance(decision, OkaSan):
        owner, item = decision.owner, decision.item
        if not isinstance(owner, int) or isinstance(owner, bool) or not 0 <= owner < state.config.players:
            raise InvalidActionError(f"Oka-san: no player {value_text(owner)}", "MK-SETUP-1")
        _check_item(item)
        _check_visit(state)
        colour = state.config.colours[p]
        if owner == p:
            raise _illegal("Oka-san takes from another player's board, not one's own",
                           "MK-TUTOR-OKASAN-1")
        if not state.boards[owner][item * NUM_COLOURS + colour]:
            if not any(b[i * NUM_COLOURS + colour] for o, b in enumerate(state.boards) if o != p
                       for i in range(NUM_ITEMS)):
                raise _illegal(f"Oka-san: no {colour.label} tile on another player's board",
                               "MK-TUTOR-3")
            raise _illegal(f"Oka-san: player {owner} has no {colour.label} tile on item {item}",
                           "MK-TUTOR-OKASAN-1")
        d = _Draft(state)
        d.pay(Tutor.OKASAN)
        d.boards[owner][item * NUM_COLOURS + colour] -= 1
        d.place((colour * NUM_ITEMS + item,), phase)
        return d.freeze()
    if isinstance(decision, OneSan):
        space = _check_space(state, decision.space, "One-san")
        _check_visit(state)
        _require_face_down(state, space, "MK-TUTOR-ONESAN-1", "One-san")
        d = _Draft(state)
        d.pay(Tutor.ONESAN)
        d.resume = phase
        d.looks = (space,)
        d.phase = Phase.LOOK
        return d.freeze()
    if isinstance(decision, Sabanto):
        item = _check_item(decision.item)
        _check_colour(decision.colour, optional=False)
        _check_visit(state)
        own = state.boards[p]
        if not own[item * NUM_COLOURS + decision.colour]:
            if not any(own):
                raise _illegal("Sabanto: the player's board is empty", "MK-TUTOR-3")
            raise _illegal(f"Sabanto: no {decision.colour.label} tile on item {item} of "
                           f"player {p}'s board", "MK-TUTOR-SABANTO-1")
        d = _Draft(state)
        d.pay(Tutor.SABANTO)
        d.boards[p][item * NUM_COLOURS + decision.colour] -= 1
        bisect.insort(d.discarded, decision.colour * NUM_ITEMS + item)
        d.enter(phase)
        return d.freeze()
    raise InvalidActionError(f"not a maiko decision: {value_text(decision)}")  # pragma: no cover


def _apply_look(state: State, decision: Decision) -> State:
    """MK-TUTOR-ONESAN-1: another look, or stop."""
    if isinstance(decision, OneSanStop):
        d = _Draft(state)
        d.looks = ()
        resume, d.resume = state.resume, None
        assert resume is not None
        d.enter(resume)
        return d.freeze()
    if not isinstance(decision, OneSan):
        raise _illegal(f"during a One-san visit only looks and the stop, not {json_text(decision)}",
                       "MK-TUTOR-ONESAN-1")
    space = _check_space(state, decision.space, "One-san")
    if state.spaces[space] != DOWN or space in state.looks:
        raise _illegal(f"One-san: space {space} is not a face-down tile not yet looked at in "
                       "this visit", "MK-TUTOR-ONESAN-1")
    d = _Draft(state)
    d.looks = state.looks + (space,)
    if len(d.looks) == MAX_LOOKS:  # the visit stops by itself after the sixth look
        d.looks = ()
        resume, d.resume = state.resume, None
        assert resume is not None
        d.enter(resume)
    return d.freeze()


def _apply_sweep(state: State, decision: Decision) -> State:
    """MK-ROW-1, MK-ROW-3: the row discard, one item space at a time."""
    assert state.sweep_row is not None
    item = ROWS[state.sweep_row][state.sweep_index]
    if not isinstance(decision, Sweep):
        raise _illegal(f"a row discard is pending on item space {item}: decide it first, not "
                       f"{json_text(decision)}", "MK-ROW-3")
    _check_item(decision.item)
    _check_colour(decision.colour, optional=True)
    if decision.item != item:
        raise _illegal(f"the row discard decides item space {item} now, not {decision.item}",
                       "MK-ROW-3")
    d = _Draft(state)
    if decision.colour is not None:
        index = item * NUM_COLOURS + decision.colour
        if not state.boards[state.current][index]:
            raise _illegal(f"no {decision.colour.label} tile on item space {item}", "MK-ROW-1")
        d.boards[state.current][index] -= 1
        bisect.insort(d.discarded, decision.colour * NUM_ITEMS + item)
    if state.sweep_index == 2:
        resume = state.resume
        assert resume is not None
        d.sweep_row, d.sweep_index, d.resume = None, 0, None
        d.enter(resume)
    else:
        d.sweep_index += 1
    return d.freeze()
