"""Games written as what happens, the layout chosen to make it so: how Maiko's witnesses are built.

A Maiko witness is a game that shows something (a score, a shared victory, a static position).
Writing one by hand means choosing a layout of 60 or 81 tiles and every decision; a
:class:`Script` lets the author say instead what each flip shows ("player 0 flips a white-3, then
another white-3"), and chooses the layout as it goes.

How: the script plays the reference engine from a provisional layout. A space whose tile nobody
has seen yet (never flipped, revealed, looked at or taken) is *unseen*; when the script asks for a
tile on an unseen space, it swaps that space's provisional tile with the tile of another unseen
space. Unseen tiles have had no effect on anything (MK-STATIC-3: even the static test reads only
their multiset), so the game so far is exactly the game the new layout plays. At the end the
witness is the final layout and the decisions, and :meth:`.witness.Witness.confirm` replays them
from scratch in the engine: the script is a convenience, the replay is the proof.

>>> from hanamikoji.engine.maiko import Config
>>> s = Script(Config.make(2))
>>> s.pair("white-0", "white-0")          # player 0: a pair of their own colour (MK-FLIP-3)
>>> s.mismatch("purple-1", "white-2")     # then a mismatch ends the turn (MK-FLIP-4)
>>> s.state.boards[0][0], s.state.current
(2, 1)
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

import attrs

from hanamikoji.engine.maiko import (
    FRIEND,
    Colour,
    Config,
    Danna,
    Decision,
    EndTurn,
    Flip,
    Layout,
    OkaSan,
    OneSan,
    OneSanStop,
    Phase,
    Sabanto,
    State,
    Sweep,
    apply,
    legal_actions,
    new_game,
    parse_tile,
)
from hanamikoji.engine.maiko.game import DOWN

from .witness import Witness


class ScriptError(ValueError):
    """The script asks for something the engine or the tiles left cannot give."""


def _code(tile: int | str) -> int:
    return parse_tile(tile) if isinstance(tile, str) else tile


class Script:
    """A game under construction: decisions applied to the engine as the script says, the
    layout fixed lazily for the spaces nobody has seen."""

    def __init__(self, config: Config, first_player: int = 0,
                 layout: Iterable[int] | None = None) -> None:
        self.config = config
        self.first_player = first_player
        tiles = tuple(config.tiles) if layout is None else tuple(layout)
        self._state = apply(new_game(config, first_player), Layout(tiles))
        self._seen: set[int] = set()
        self._decisions: list[Decision] = []

    # --- reading

    @property
    def state(self) -> State:
        return self._state

    @property
    def decisions(self) -> tuple[Decision, ...]:
        """The layout (as it stands now) and every decision so far."""
        return (Layout(self._state.layout),) + tuple(self._decisions)

    def unseen(self) -> list[int]:
        """The face-down spaces whose tile nobody has seen, in space order."""
        return [s for s, v in enumerate(self._state.spaces) if v == DOWN and s not in self._seen]

    def unseen_tiles(self) -> Counter[int]:
        """The multiset of the tiles on unseen spaces (the tiles a script may still ask for)."""
        return Counter(self._state.layout[s] for s in self.unseen())

    def space_of(self, tile: int | str) -> int:
        """An unseen face-down space made to hold ``tile`` (the first unseen space, its tile
        swapped with an unseen ``tile``); :class:`ScriptError` if no unseen tile is one."""
        code = _code(tile)
        unseen = self.unseen()
        if not unseen:
            raise ScriptError("no unseen face-down tile is left")
        target = unseen[0]
        layout = list(self._state.layout)
        if layout[target] != code:
            donor = next((s for s in unseen if layout[s] == code), None)
            if donor is None:
                name = tile if isinstance(tile, str) else repr(tile)
                raise ScriptError(f"no unseen {name} is left")
            layout[target], layout[donor] = layout[donor], layout[target]
            self._state = attrs.evolve(self._state, layout=tuple(layout))
        self._seen.add(target)
        return target

    # --- playing

    def play(self, decision: Decision) -> None:
        """Apply one decision (any kind); the engine's own error if it is illegal."""
        if isinstance(decision, (Flip, Danna, OneSan)):
            self._seen.add(decision.space)
        self._state = apply(self._state, decision)
        self._decisions.append(decision)

    def flip(self, tile: int | str) -> int:
        """Flip an unseen tile that is ``tile``; the space flipped."""
        space = self.space_of(tile)
        self.play(Flip(space))
        return space

    def flip_at(self, space: int) -> None:
        self.play(Flip(space))

    def pair(self, first: int | str, second: int | str) -> None:
        """MK-FLIP-3: two flips of one item (the script checks it is one)."""
        a, b = _code(first), _code(second)
        if a == FRIEND or b == FRIEND or a % 9 != b % 9:
            raise ScriptError(f"{first} and {second} are not a pair")
        self.flip(a)
        self.flip(b)

    def mismatch(self, first: int | str, second: int | str) -> None:
        """MK-FLIP-4: two flips of different items, which ends the turn."""
        a, b = _code(first), _code(second)
        if a == FRIEND or b == FRIEND or a % 9 == b % 9:
            raise ScriptError(f"{first} and {second} are not a mismatch")
        self.flip(a)
        self.flip(b)

    def end_by_mismatch(self) -> None:
        """End the turn with two flips of different items, known or not: re-flipping two
        face-down tiles already seen if there are such, else unseen ones. The turn must be at a
        first flip."""
        if self._state.phase is not Phase.FIRST:
            raise ScriptError(f"end_by_mismatch at {self._state.phase}, not at a first flip")
        down = [s for s, v in enumerate(self._state.spaces) if v == DOWN]
        layout = self._state.layout
        for a in down:
            for b in down:
                if a < b and FRIEND not in (layout[a], layout[b]) and layout[a] % 9 != layout[b] % 9 \
                        and a in self._seen and b in self._seen:
                    self.flip_at(a)
                    self.flip_at(b)
                    return
        left = self.unseen_tiles()
        items = [c for c in sorted(left) if c != FRIEND]
        for a in items:
            for b in items:
                if a % 9 != b % 9:
                    self.mismatch(a, b)
                    return
        raise ScriptError("no two face-down tiles of different items are left")

    def friend(self) -> None:
        """Flip an unseen friend (MK-FLIP-5: a token, and the turn ends)."""
        self.flip(FRIEND)

    def danna(self, tile: int | str) -> None:
        """MK-TUTOR-DANNA-1: visit Danna and reveal an unseen ``tile``."""
        self.play(Danna(self.space_of(tile)))

    def oka_san(self, owner: int, item: int) -> None:
        self.play(OkaSan(owner, item))

    def look(self, tile: int | str) -> None:
        """MK-TUTOR-ONESAN-1: one One-san look, at an unseen ``tile``."""
        self.play(OneSan(self.space_of(tile)))

    def stop_looking(self) -> None:
        self.play(OneSanStop())

    def sabanto(self, item: int, colour: Colour | int) -> None:
        self.play(Sabanto(item, Colour(colour)))

    def sweep(self, item: int, colour: Colour | int | None) -> None:
        self.play(Sweep(item, None if colour is None else Colour(colour)))

    def keep_row(self) -> None:
        """A row discard that discards nothing (every item space of the row kept)."""
        while self._state.phase is Phase.SWEEP:
            row, index = self._state.sweep_row, self._state.sweep_index
            assert row is not None
            self.sweep(3 * row + index, None)

    def end_turn(self) -> None:
        self.play(EndTurn())

    def finish_by_mismatches(self, limit: int = 1_000) -> None:
        """Play out the game with turns that change nothing a board holds: a visit-free ending
        step (:class:`EndTurn`) or a mismatch (a friend when no two face-down tiles of
        different items are left), until the game is over."""
        for _ in range(limit):
            state = self._state
            if state.phase is Phase.OVER:
                return
            if state.phase is Phase.ENDING:
                self.end_turn()
            elif state.phase is Phase.SWEEP:
                self.keep_row()
            elif state.phase is Phase.FIRST:
                self.end_quietly()
            else:
                raise ScriptError(f"finish_by_mismatches cannot go on from {state.phase}")
        raise ScriptError(f"the game did not end within {limit} turns")

    def legal(self) -> tuple[Decision, ...]:
        return legal_actions(self._state)

    # --- the witness

    def witness(self, label: str, **shows: Any) -> Witness:
        """The game so far as a witness that shows ``shows`` (names of :data:`.witness.FACTS`
        and the values the model claims); nothing is checked until ``confirm()``."""
        return Witness(label, self.config, self.first_player, self.decisions,
                       tuple(sorted(shows.items())))

    # --- for the witness plans (spec/maiko/findings.py) ---------------------------------------

    def pairs(self, tiles: Iterable[tuple[int | str, int | str]]) -> None:
        """MK-FLIP-3: flip each pair in turn, keeping every row discard a pair opens
        (:meth:`keep_row`); the turn goes on after each."""
        for first, second in tiles:
            self.pair(first, second)
            self.keep_row()

    def end_filling_turn(self, danna: int | str | None = None) -> None:
        """MK-END-1: the ending step after a board is filled: a last Danna visit revealing an
        unseen ``danna`` (if given; its row discard kept), else the end of the turn without a
        visit (the turn ends by itself when no visit is open)."""
        if self._state.phase is not Phase.ENDING:
            raise ScriptError(f"end_filling_turn at {self._state.phase}, not in an ending step")
        if danna is None:
            self.end_turn()
            return
        self.danna(danna)
        self.keep_row()
        if self._state.phase is Phase.ENDING:
            self.end_turn()

    def end_quietly(self) -> None:
        """End the turn at a first flip without changing any maiko board: a mismatch
        (:meth:`end_by_mismatch`), or a friend when no two face-down tiles of different items
        are left (which turns the friend face up and gains a token, MK-FLIP-5)."""
        try:
            self.end_by_mismatch()
        except ScriptError:
            if not self.unseen_tiles()[FRIEND]:
                raise
            self.friend()
