"""Maiko's reference engine: an immutable state and pure transitions (spec/maiko/rules.md).

``apply(state, decision)`` returns a new :class:`State` and never changes its input. The layout
is a chance outcome (:class:`~.actions.Layout`, drawn by :func:`random_layout` from a seeded
``random.Random``); every other decision is a player's. Scoring, the end of a turn, the tokens of
columns and the end of the game are automatic.

>>> import random
>>> state = apply(new_game(Config.make(3)), random_layout(Config.make(3), random.Random(1)))
>>> current_player(state), state.phase, len(legal_actions(state))
(0, Phase.FIRST, 243)
"""

from __future__ import annotations

import bisect
import enum
import random
from itertools import compress
from operator import not_
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
from .components import (
    COLUMNS,
    FRIEND,
    NUM_COLOURS,
    NUM_ITEMS,
    ROWS,
    TOTAL_TILES,
    TOTAL_TOKENS,
    Colour,
    Config,
    Tutor,
)

#: ``current_player`` at a chance node and at the end (the core's values, OpenSpiel's).
CHANCE = -1
TERMINAL = -4

#: The status of a space of the game board.
DOWN, UP, EMPTY = 0, 1, 2
#: MK-TUTOR-ONESAN-1: the most looks in one visit.
MAX_LOOKS = 6
MAX_SPACES = TOTAL_TILES
BOARD_SIZE = NUM_ITEMS * NUM_COLOURS  # a maiko board: counts at [item * 4 + colour]
EMPTY_BOARD = (0,) * BOARD_SIZE


class Phase(enum.Enum):
    """Which decision the game waits for."""

    LAYOUT = "layout"          # chance: the layout (MK-SETUP-5)
    FIRST = "first-flip"       # the first flip of a pair, or a visit (MK-FLIP-1, MK-TUTOR-1)
    SECOND = "second-flip"     # the second flip, or a visit
    LOOK = "one-san"           # inside a One-san visit (MK-TUTOR-ONESAN-1)
    SWEEP = "row-discard"      # inside a row discard (MK-ROW-3)
    ENDING = "ending"          # the ending step of a full board (MK-END-1)
    OVER = "over"

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


class Reason(enum.Enum):
    """Why the game ended (MK-END-2, MK-END-4, MK-STATIC-2)."""

    FULL_BOARD = "full-board"
    NO_FACE_DOWN = "no-face-down-tile"
    STATIC = "static"

    def __repr__(self) -> str:
        return f"Reason.{self.name}"


@attrs.frozen
class Result:
    """The end of a game: the winners (every one of a shared victory), why, each player's score
    and own-colour tile count (MK-SCORE-1..4)."""

    winners: tuple[int, ...]
    reason: Reason
    scores: tuple[int, ...]
    own: tuple[int, ...]


@attrs.frozen
class Step:
    """One decision of a player, in the turn it was taken (the record of play)."""

    turn: int
    player: int
    decision: Decision


@attrs.frozen
class State:
    """The full state of a game (hidden information included).

    ``layout[s]`` is the tile code on space ``s`` (fixed once laid: tiles never move between
    spaces) and ``spaces[s]`` its status (:data:`DOWN`, :data:`UP`, :data:`EMPTY`). A maiko board
    is a tuple of counts at ``item * 4 + colour``. ``hands`` holds each player's tokens,
    ``cards`` the tokens on the tutor cards (in :class:`Tutor` order). ``pending`` is the space
    of a first flip lying face up; ``visited`` whether this turn's tutor visit was used;
    ``looks`` the spaces of the One-san visit in progress; ``resume`` the phase a One-san visit
    or a row discard returns to. ``turn`` counts turns from 0 (a simulator's limit reads it).
    """

    config: Config
    first_player: int = 0
    phase: Phase = Phase.LAYOUT
    layout: tuple[int, ...] = ()
    spaces: tuple[int, ...] = ()
    boards: tuple[tuple[int, ...], ...] = ()
    hands: tuple[int, ...] = ()
    pool: int = 0
    cards: tuple[int, ...] = (0, 0, 0, 0)
    discarded: tuple[int, ...] = ()
    current: int = 0
    turn: int = 0
    pending: int | None = None
    visited: bool = False
    looks: tuple[int, ...] = ()
    resume: Phase | None = None
    sweep_row: int | None = None
    sweep_index: int = 0
    triggered_by: int | None = None
    result: Result | None = None
    steps: tuple[Step, ...] = ()

    @property
    def history(self) -> tuple[Decision, ...]:
        """Every decision from the start, the layout first."""
        if self.phase is Phase.LAYOUT:
            return ()
        return (Layout(self.layout),) + tuple(step.decision for step in self.steps)

    def is_terminal(self) -> bool:
        return self.phase is Phase.OVER

    def face_down(self) -> tuple[int, ...]:
        """The spaces whose tile lies face down."""
        return tuple(s for s, v in enumerate(self.spaces) if v == DOWN)


# --- building ------------------------------------------------------------------------------


def new_game(config: Config, first_player: int = 0) -> State:
    """MK-SETUP-1..2, MK-SETUP-6: a game before its layout; one token per player, the rest in
    the pool, tutor cards empty."""
    if not isinstance(config, Config):
        raise InvalidActionError(f"expected a maiko Config, not {value_text(config)}")
    n = config.players
    if not isinstance(first_player, int) or isinstance(first_player, bool) or not 0 <= first_player < n:
        raise InvalidActionError(f"first_player must be from 0 to {n - 1}, "
                                 f"not {value_text(first_player)}",
                                 "MK-SETUP-6")
    return State(config=config, first_player=first_player, boards=(EMPTY_BOARD,) * n,
                 hands=(1,) * n, pool=TOTAL_TOKENS - n, current=first_player)


def random_layout(config: Config, rng: random.Random) -> Layout:
    """MK-SETUP-5: the tiles in play shuffled with ``rng``, one per space."""
    tiles = list(config.tiles)
    rng.shuffle(tiles)
    return Layout(tuple(tiles))


def current_player(state: State) -> int:
    if state.phase is Phase.LAYOUT:
        return CHANCE
    if state.phase is Phase.OVER:
        return TERMINAL
    return state.current


# --- reading a state ------------------------------------------------------------------------


def filled(board: tuple[int, ...] | list[int], item: int) -> bool:
    """MK-COMP-4: an item space is filled while it holds a tile."""
    base = item * NUM_COLOURS
    return bool(board[base] or board[base + 1] or board[base + 2] or board[base + 3])


def board_full(board: tuple[int, ...] | list[int]) -> bool:
    """MK-END-1: every item space filled."""
    return all(filled(board, item) for item in range(NUM_ITEMS))


def own_count(board: tuple[int, ...], colour: int) -> int:
    return sum(board[colour::NUM_COLOURS])


def score(board: tuple[int, ...], colour: int) -> int:
    """MK-SCORE-1: +1 per tile of the player's colour, -1 per other tile."""
    own = own_count(board, colour)
    return own - (sum(board) - own)


def decide(state: State, reason: Reason) -> Result:
    """MK-SCORE-1..4: scores, then the winners: most points, then most own-colour tiles, then
    every player still tied."""
    return _decide(state.config, state.boards, reason)


def _decide(config: Config, boards: Any, reason: Reason) -> Result:
    colours = config.colours
    scores = tuple(score(b, c) for b, c in zip(boards, colours))
    own = tuple(own_count(b, c) for b, c in zip(boards, colours))
    best = max(zip(scores, own))
    winners = tuple(p for p in range(len(scores)) if (scores[p], own[p]) == best)
    return Result(winners, reason, scores, own)


def is_static(state: State) -> bool:
    """MK-STATIC-1: at a first flip before the end is triggered, no token in any hand, no
    face-down friend, no two face-down tiles of one item."""
    if state.phase is not Phase.FIRST or state.triggered_by is not None:
        return False
    return _static_tiles(state.hands, _face_down(state.spaces), state.layout)


def _face_down(spaces: Any) -> list[int]:
    """The face-down spaces in order (DOWN is 0: ``not v`` picks them, in C)."""
    return list(compress(range(len(spaces)), map(not_, spaces)))


def _static_tiles(hands: Any, down: Any, layout: tuple[int, ...]) -> bool:
    """MK-STATIC-1 on the tiles, given the face-down spaces ``down``."""
    if any(hands):
        return False
    seen = 0
    for s in down:
        code = layout[s]
        if code == FRIEND:
            return False
        bit = 1 << (code % NUM_ITEMS)
        if seen & bit:
            return False
        seen |= bit
    return True


def face_down_multiset(state: State) -> tuple[int, ...]:
    """MK-STATIC-3: the face-down tiles as a multiset (sorted codes), computed from public
    information only: the tiles of the game minus every tile on view."""
    counts = [0] * (FRIEND + 1)
    for code in state.config.tiles:
        counts[code] += 1
    for s, v in enumerate(state.spaces):
        if v == UP:
            counts[state.layout[s]] -= 1
    for board in state.boards:
        for index, n in enumerate(board):
            counts[(index % NUM_COLOURS) * NUM_ITEMS + index // NUM_COLOURS] -= n
    for code in state.discarded:
        counts[code] -= 1
    return tuple(code for code, n in enumerate(counts) for _ in range(n))


# Enum members read as attributes cost a lookup each time (about 9x a global): the hot paths
# below name them once.
_LAYOUT, _FIRST, _SECOND, _LOOK, _SWEEP, _ENDING, _OVER = (
    Phase.LAYOUT, Phase.FIRST, Phase.SECOND, Phase.LOOK, Phase.SWEEP, Phase.ENDING, Phase.OVER)
_DANNA, _OKASAN, _ONESAN, _SABANTO = Tutor.DANNA, Tutor.OKASAN, Tutor.ONESAN, Tutor.SABANTO
_FULL_BOARD, _NO_FACE_DOWN, _STATIC = Reason.FULL_BOARD, Reason.NO_FACE_DOWN, Reason.STATIC
_TUTORS = tuple(Tutor)

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


def _add_visits(menu: list[Decision], s: Any, down: list[int]) -> None:
    """MK-TUTOR-1..3: every tutor visit open to the player now, in menu order (``s`` is a
    State or a Draft)."""
    p = s.current
    if s.visited or not s.hands[p]:
        return
    colour = s.config.colours[p]
    menu.extend(map(_DANNAS.__getitem__, down))
    for owner, board in enumerate(s.boards):
        if owner != p:
            menu.extend(compress(_OKASANS[owner], board[colour::NUM_COLOURS]))
    menu.extend(map(_LOOKS.__getitem__, down))
    menu.extend(compress(_SABANTOS, s.boards[p]))


def _menu(s: Any, down: list[int]) -> list[Decision]:
    """The legal decisions of ``s`` (a State or a Draft) whose face-down spaces are ``down``."""
    phase = s.phase
    menu: list[Decision]
    if phase is _FIRST or phase is _SECOND:
        menu = list(map(_FLIPS.__getitem__, down))
        _add_visits(menu, s, down)
        return menu
    if phase is _LOOK:
        looks = s.looks
        menu = [_LOOKS[x] for x in down if x not in looks]
        menu.append(_STOP)
        return menu
    if phase is _SWEEP:
        item = ROWS[s.sweep_row][s.sweep_index]
        base = item * NUM_COLOURS
        options = _SWEEPS[item]
        return [options[0], *compress(options[1:], s.boards[s.current][base:base + NUM_COLOURS])]
    if phase is _ENDING:
        menu = []
        _add_visits(menu, s, down)
        menu.append(_END_TURN)
        return menu
    return []


def legal_actions(state: State) -> tuple[Decision, ...]:
    """The decisions the current player may take, sorted, one per distinct outcome; empty at the
    layout (chance) and at the end."""
    return tuple(_menu(state, _face_down(state.spaces)))


# --- transitions ----------------------------------------------------------------------------


class Draft:
    """A game being played, mutable, for the length of a replay or a playout; frozen into a
    :class:`State` only when one is asked for (:meth:`freeze`). Nothing a caller holds changes:
    :meth:`of` copies the state's fields, and :meth:`freeze` copies them out again.

    ``down`` lists the face-down spaces in order, kept up to date by every transition instead
    of rescanned; the decisions of the game so far are ``base_steps`` (a State's, shared) then
    ``steps`` (this draft's). :meth:`play` checks and applies one decision exactly as
    :func:`apply` does (it is :func:`apply`), raising before it changes anything.
    """

    __slots__ = ("config", "first_player", "phase", "layout", "spaces", "boards", "hands",
                 "pool", "cards", "discarded", "current", "turn", "pending", "visited", "looks",
                 "resume", "sweep_row", "sweep_index", "triggered_by", "result", "base_steps",
                 "steps", "down")

    # The fields of a State, the tuples the draft changes in place as lists.
    config: Config
    first_player: int
    phase: Phase
    layout: tuple[int, ...]
    spaces: list[int]
    boards: list[list[int]]
    hands: list[int]
    pool: int
    cards: list[int]
    discarded: list[int]
    current: int
    turn: int
    pending: int | None
    visited: bool
    looks: tuple[int, ...]
    resume: Phase | None
    sweep_row: int | None
    sweep_index: int
    triggered_by: int | None
    result: Result | None
    base_steps: tuple[Step, ...]
    steps: list[Step]
    down: list[int]

    @classmethod
    def of(cls, s: State) -> "Draft":
        d = cls.__new__(cls)
        d.config = s.config
        d.first_player = s.first_player
        d.phase = s.phase
        d.layout = s.layout
        d.spaces = list(s.spaces)
        d.boards = [list(b) for b in s.boards]
        d.hands = list(s.hands)
        d.pool = s.pool
        d.cards = list(s.cards)
        d.discarded = list(s.discarded)
        d.current = s.current
        d.turn = s.turn
        d.pending = s.pending
        d.visited = s.visited
        d.looks = s.looks
        d.resume = s.resume
        d.sweep_row = s.sweep_row
        d.sweep_index = s.sweep_index
        d.triggered_by = s.triggered_by
        d.result = s.result
        d.base_steps = s.steps
        d.steps = []
        d.down = _face_down(s.spaces)
        return d

    def freeze(self) -> State:
        steps = self.base_steps + tuple(self.steps) if self.steps else self.base_steps
        return State(self.config, self.first_player, self.phase, self.layout, tuple(self.spaces),
                     tuple(map(tuple, self.boards)), tuple(self.hands), self.pool,
                     tuple(self.cards), tuple(self.discarded), self.current, self.turn,
                     self.pending, self.visited, self.looks, self.resume, self.sweep_row,
                     self.sweep_index, self.triggered_by, self.result, steps)

    def legal(self) -> list[Decision]:
        """``legal_actions`` of the state this draft stands for (a fresh list)."""
        return _menu(self, self.down)

    def choose(self, rng: random.Random) -> Decision:
        """``rng.choice(legal_actions(state))``, with the same draw from ``rng``: at a flip with
        no visit open the menu is the flips of ``down`` in order, so one index into ``down``
        picks the same entry without building the menu."""
        phase = self.phase
        if (phase is _FIRST or phase is _SECOND) and (self.visited
                                                      or not self.hands[self.current]):
            return _FLIPS[rng.choice(self.down)]
        return rng.choice(_menu(self, self.down))

    # -- the spaces (``down`` follows every change between face down and not)

    def reveal(self, space: int, status: int) -> None:
        """A face-down tile goes face up or leaves its space."""
        self.spaces[space] = status
        down = self.down
        del down[bisect.bisect_left(down, space)]

    def cover(self, space: int) -> None:
        """A face-up tile goes back face down."""
        self.spaces[space] = DOWN
        bisect.insort(self.down, space)

    # -- tokens

    def gain_token(self, player: int) -> None:
        """MK-TOKEN-2: from the pool, else from the first tutor card holding one, else none."""
        if self.pool:
            self.pool -= 1
            self.hands[player] += 1
            return
        for tutor in _TUTORS:
            if self.cards[tutor]:
                self.cards[tutor] -= 1
                self.hands[player] += 1
                return

    # -- the flow of a turn

    def end_turn(self) -> None:
        """MK-TURN-1, MK-END-2: the next player's turn, or the end after the last turns."""
        if self.pending is not None:
            self.cover(self.pending)
            self.pending = None
        self.visited = False
        self.looks = ()
        nxt = (self.current + 1) % self.config.players
        if self.triggered_by is not None and nxt == self.first_player:
            self.finish(_FULL_BOARD)
            return
        self.current = nxt
        self.turn += 1
        self.enter(_FIRST)

    def enter(self, phase: Phase) -> None:
        """Go to ``phase``: MK-END-4 when a flip is due and none can be made, MK-STATIC-2 at a
        static first flip, and an ending step with nothing left to choose ends the turn."""
        if phase is _FIRST or phase is _SECOND:
            if not self.down:
                self.finish(_NO_FACE_DOWN)
                return
            if (phase is _FIRST and self.triggered_by is None
                    and _static_tiles(self.hands, self.down, self.layout)):
                self.finish(_STATIC)
                return
            self.phase = phase
            return
        if phase is _ENDING:
            self.phase = _ENDING
            if not self.can_visit():
                self.end_turn()
            return
        self.phase = phase

    def can_visit(self) -> bool:
        """MK-TUTOR-1..3: a visit is still open to the current player."""
        p = self.current
        if self.visited or not self.hands[p]:
            return False
        if self.down or any(self.boards[p]):
            return True
        colour = self.config.colours[p]
        return any(board[i * NUM_COLOURS + colour] for owner, board in enumerate(self.boards)
                   if owner != p for i in range(NUM_ITEMS))

    def finish(self, reason: Reason) -> None:
        self.phase = _OVER
        self.resume = None
        self.result = _decide(self.config, self.boards, reason)

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
            nxt = _ENDING  # MK-END-1, MK-END-3: flip no more
            if self.pending is not None:
                self.cover(self.pending)
                self.pending = None
        if row_done:
            self.phase = _SWEEP
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
        self.reveal(space, UP)
        self.gain_token(self.current)
        self.end_turn()

    # -- decisions

    def play(self, decision: Decision) -> None:
        """Apply ``decision`` in place (the rules of :func:`apply`, which raises the same
        errors; on an error nothing has changed)."""
        if not isinstance(decision, DECISION_TYPES):
            raise InvalidActionError(f"not a maiko decision: {value_text(decision)}")
        phase = self.phase
        if phase is _OVER:
            raise _illegal("the game is over", "MK-END-5")
        if phase is _LAYOUT:
            if not isinstance(decision, Layout):
                raise _illegal(f"the layout comes first, not {json_text(decision)}", "MK-SETUP-5")
            self.play_layout(decision)
            return
        if isinstance(decision, Layout):
            raise _illegal("the layout is already made", "MK-SETUP-5")
        step = Step(self.turn, self.current, decision)
        if phase is _LOOK:
            self.play_look(decision)
        elif phase is _SWEEP:
            self.play_sweep(decision)
        else:
            self.play_turn(decision)
        self.steps.append(step)

    def play_layout(self, layout: Layout) -> None:
        """MK-SETUP-3..5: the tiles in play, one face down on each space."""
        tiles = layout.tiles
        if not isinstance(tiles, tuple) or not all(
                isinstance(t, int) and not isinstance(t, bool) and 0 <= t <= FRIEND for t in tiles):
            raise InvalidActionError("a layout is a tuple of tile codes 0 to 36", "MK-SETUP-5")
        config = self.config
        expected = config.tiles
        rule = "MK-SETUP-4" if config.players == 2 else "MK-SETUP-3"
        if len(tiles) != len(expected):
            raise _illegal(f"a {config.players}-player layout has {len(expected)} tiles, "
                           f"not {len(tiles)}", rule)
        if tuple(sorted(tiles)) != expected:
            raise _illegal("the layout is not the tiles in play of this game", rule)
        self.layout = tiles
        self.spaces = [DOWN] * len(tiles)
        self.down = list(range(len(tiles)))
        self.current = self.first_player
        self.enter(_FIRST)

    def play_turn(self, decision: Decision) -> None:
        """A decision at a first flip, a second flip or the ending step."""
        phase = self.phase
        p = self.current
        spaces = self.spaces
        if isinstance(decision, Flip):
            space = _check_space(self, decision.space, "flip")
            if phase is _ENDING:
                raise _illegal(f"player {p} has filled their board and flips no more", "MK-END-1")
            if spaces[space] != DOWN:
                status = ("the first tile of this flip" if space == self.pending else
                          "empty" if spaces[space] == EMPTY else "a face-up friend")
                raise _illegal(f"space {space} is {status}; only a face-down tile may be flipped",
                               "MK-FLIP-2")
            code = self.layout[space]
            if code == FRIEND:
                self.friend(space)  # MK-FLIP-5 (a pending first tile goes back in end_turn)
                return
            if phase is _FIRST:
                self.reveal(space, UP)
                self.pending = space
                self.enter(_SECOND)  # MK-END-4 if that was the last face-down tile
                return
            first = self.pending
            assert first is not None
            other = self.layout[first]
            if other % NUM_ITEMS == code % NUM_ITEMS:  # MK-FLIP-3
                spaces[first] = EMPTY  # face up until now: not in ``down``
                self.reveal(space, EMPTY)
                self.pending = None
                self.place((other, code), _FIRST)
                return
            self.end_turn()  # MK-FLIP-4: both go back face down
            return
        if isinstance(decision, EndTurn):
            if phase is not _ENDING:
                raise _illegal("a turn ends only by a mismatch, a friend or the ending step",
                               "MK-TURN-2")
            self.end_turn()
            return
        if isinstance(decision, OneSanStop):
            raise _illegal("no One-san visit is in progress", "MK-TUTOR-ONESAN-1")
        if isinstance(decision, Sweep):
            raise _illegal("no row discard is pending", "MK-ROW-3")
        # A tutor visit.
        if isinstance(decision, Danna):
            space = _check_space(self, decision.space, "Danna")
            _check_visit(self)
            _require_face_down(self, space, "MK-TUTOR-DANNA-1", "Danna")
            self.pay(_DANNA)
            code = self.layout[space]
            if code == FRIEND:
                self.friend(space)  # MK-TUTOR-DANNA-3
                return
            self.reveal(space, EMPTY)
            self.place((code,), phase)  # MK-TUTOR-DANNA-2: the turn goes on where it was
            return
        if isinstance(decision, OkaSan):
            owner, item = decision.owner, decision.item
            if not isinstance(owner, int) or isinstance(owner, bool) or not 0 <= owner < self.config.players:
                raise InvalidActionError(f"Oka-san: no player {value_text(owner)}", "MK-SETUP-1")
            _check_item(item)
            _check_visit(self)
            colour = self.config.colours[p]
            if owner == p:
                raise _illegal("Oka-san takes from another player's board, not one's own",
                               "MK-TUTOR-OKASAN-1")
            if not self.boards[owner][item * NUM_COLOURS + colour]:
                if not any(b[i * NUM_COLOURS + colour] for o, b in enumerate(self.boards) if o != p
                           for i in range(NUM_ITEMS)):
                    raise _illegal(f"Oka-san: no {colour.label} tile on another player's board",
                                   "MK-TUTOR-3")
                raise _illegal(f"Oka-san: player {owner} has no {colour.label} tile on item "
                               f"{item}", "MK-TUTOR-OKASAN-1")
            self.pay(_OKASAN)
            self.boards[owner][item * NUM_COLOURS + colour] -= 1
            self.place((colour * NUM_ITEMS + item,), phase)
            return
        if isinstance(decision, OneSan):
            space = _check_space(self, decision.space, "One-san")
            _check_visit(self)
            _require_face_down(self, space, "MK-TUTOR-ONESAN-1", "One-san")
            self.pay(_ONESAN)
            self.resume = phase
            self.looks = (space,)
            self.phase = _LOOK
            return
        if isinstance(decision, Sabanto):
            item = _check_item(decision.item)
            _check_colour(decision.colour, optional=False)
            _check_visit(self)
            own = self.boards[p]
            if not own[item * NUM_COLOURS + decision.colour]:
                if not any(own):
                    raise _illegal("Sabanto: the player's board is empty", "MK-TUTOR-3")
                raise _illegal(f"Sabanto: no {decision.colour.label} tile on item {item} of "
                               f"player {p}'s board", "MK-TUTOR-SABANTO-1")
            self.pay(_SABANTO)
            own[item * NUM_COLOURS + decision.colour] -= 1
            bisect.insort(self.discarded, decision.colour * NUM_ITEMS + item)
            self.enter(phase)
            return
        raise InvalidActionError(  # pragma: no cover
            f"not a maiko decision: {value_text(decision)}")

    def play_look(self, decision: Decision) -> None:
        """MK-TUTOR-ONESAN-1: another look, or stop."""
        if isinstance(decision, OneSanStop):
            self.stop_looking()
            return
        if not isinstance(decision, OneSan):
            raise _illegal("during a One-san visit only looks and the stop, not "
                           f"{json_text(decision)}",
                           "MK-TUTOR-ONESAN-1")
        space = _check_space(self, decision.space, "One-san")
        if self.spaces[space] != DOWN or space in self.looks:
            raise _illegal(f"One-san: space {space} is not a face-down tile not yet looked at "
                           "in this visit", "MK-TUTOR-ONESAN-1")
        self.looks += (space,)
        if len(self.looks) == MAX_LOOKS:  # the visit stops by itself after the sixth look
            self.stop_looking()

    def stop_looking(self) -> None:
        self.looks = ()
        resume, self.resume = self.resume, None
        assert resume is not None
        self.enter(resume)

    def play_sweep(self, decision: Decision) -> None:
        """MK-ROW-1, MK-ROW-3: the row discard, one item space at a time."""
        assert self.sweep_row is not None
        item = ROWS[self.sweep_row][self.sweep_index]
        if not isinstance(decision, Sweep):
            raise _illegal(f"a row discard is pending on item space {item}: decide it first, "
                           f"not {json_text(decision)}", "MK-ROW-3")
        _check_item(decision.item)
        _check_colour(decision.colour, optional=True)
        if decision.item != item:
            raise _illegal(f"the row discard decides item space {item} now, not "
                           f"{decision.item}", "MK-ROW-3")
        if decision.colour is not None:
            index = item * NUM_COLOURS + decision.colour
            board = self.boards[self.current]
            if not board[index]:
                raise _illegal(f"no {decision.colour.label} tile on item space {item}",
                               "MK-ROW-1")
            board[index] -= 1
            bisect.insort(self.discarded, decision.colour * NUM_ITEMS + item)
        if self.sweep_index == 2:
            resume = self.resume
            assert resume is not None
            self.sweep_row, self.sweep_index, self.resume = None, 0, None
            self.enter(resume)
        else:
            self.sweep_index += 1


def _illegal(message: str, rule: str) -> IllegalActionError:
    return IllegalActionError(message, rule)


def _check_space(s: Draft, space: Any, what: str) -> int:
    if type(space) is int and 0 <= space < len(s.spaces):
        return space
    if not isinstance(space, int) or isinstance(space, bool) or not 0 <= space < len(s.spaces):
        raise InvalidActionError(f"{what}: space must be from 0 to {len(s.spaces) - 1}, "
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


def _check_visit(s: Draft) -> None:
    """MK-TUTOR-1, MK-TUTOR-2."""
    if s.visited:
        raise _illegal(f"player {s.current} has already visited a tutor this turn",
                       "MK-TUTOR-1")
    if not s.hands[s.current]:
        raise _illegal(f"player {s.current} holds no kamon token to pay a tutor",
                       "MK-TUTOR-2")


def _require_face_down(s: Draft, space: int, rule: str, what: str) -> None:
    if s.spaces[space] != DOWN:
        if not s.down:
            raise _illegal(f"{what}: no face-down tile is left", "MK-TUTOR-3")
        status = "empty" if s.spaces[space] == EMPTY else "face up"
        raise _illegal(f"{what}: space {space} is {status}, not face down", rule)


def apply(state: State, decision: Decision) -> State:
    """The state after ``decision``; never changes ``state``.

    :class:`InvalidActionError` for something that is not a Maiko decision (or names a space,
    item or player that does not exist); :class:`IllegalActionError` naming the MK rule for a
    decision the rules forbid here.
    """
    d = Draft.of(state)
    d.play(decision)
    return d.freeze()


def random_game(config: Config, rng: random.Random, first_player: int = 0,
                max_decisions: int | None = None) -> State:
    """A whole game played in one draft: the layout drawn by :func:`random_layout`, every
    decision uniform over the legal ones, as :meth:`Game.random_game` plays any game (the same
    draws from ``rng``, so the same game). Stops after ``max_decisions`` decisions if given."""
    d = Draft.of(new_game(config, first_player))
    count = 0
    while d.phase is not _OVER:
        if max_decisions is not None and count >= max_decisions:
            break
        if d.phase is _LAYOUT:
            d.play(random_layout(config, rng))
        else:
            d.play(d.choose(rng))
        count += 1
    return d.freeze()
