"""Maiko witnesses: games that show what a query claims, replayed in the reference engine.

A :class:`Witness` is a configuration, a first player and the decisions (the layout first), with
what the model or the search claims the game shows: named :data:`FACTS` of the final state and
their values. :meth:`Witness.confirm` replays the decisions from scratch in the engine and
compares every fact; any difference (or a decision the engine refuses) is a
:class:`~hanamikoji.spec.core.queries.WitnessError`, which makes the query's answer "error",
never an answer. ``to_json`` gives the game as a ``maiko-record/1`` record, which
``hanamikoji validate`` accepts.
"""

from __future__ import annotations

from typing import Any, Callable

import attrs

from hanamikoji.engine.core.errors import GameError
from hanamikoji.engine.maiko import Config, Decision, Flip, Phase, State, apply, is_static, new_game
from hanamikoji.engine.maiko import to_record
from hanamikoji.engine.maiko.game import board_full
from hanamikoji.spec.core.queries import WitnessError


def _result(state: State) -> Any:
    r = state.result
    return None if r is None else {"winners": list(r.winners), "reason": r.reason.value,
                                   "scores": list(r.scores), "own_colour": list(r.own)}


def _face_up_friends(state: State) -> int:
    from hanamikoji.engine.maiko.game import UP

    return sum(1 for s, v in enumerate(state.spaces) if v == UP and state.layout[s] == 36)


#: What a witness can claim about its final state, each computed from the engine's state.
FACTS: dict[str, Callable[[State], Any]] = {
    "over": lambda s: s.phase is Phase.OVER,
    "result": _result,
    "reason": lambda s: None if s.result is None else s.result.reason.value,
    "winners": lambda s: None if s.result is None else list(s.result.winners),
    "scores": lambda s: None if s.result is None else list(s.result.scores),
    "tiles_on_boards": lambda s: [sum(b) for b in s.boards],
    "full_boards": lambda s: [board_full(b) for b in s.boards],
    "hands": lambda s: list(s.hands),
    "pool": lambda s: s.pool,
    "cards": lambda s: list(s.cards),
    "turns": lambda s: s.turn + 1,
    "flips": lambda s: sum(1 for step in s.steps if isinstance(step.decision, Flip)),
    "static": is_static,
    "face_down": lambda s: len(s.face_down()),
    "face_up_friends": _face_up_friends,
    "phase": lambda s: s.phase.name,
    "own_colour": lambda s: None if s.result is None else list(s.result.own),
}


@attrs.frozen
class Witness:
    """A game and what it shows (``shows``: pairs of a :data:`FACTS` name and its value)."""

    label: str
    config: Config
    first_player: int
    decisions: tuple[Decision, ...]
    shows: tuple[tuple[str, Any], ...]

    def __attrs_post_init__(self) -> None:
        unknown = [name for name, _ in self.shows if name not in FACTS]
        if unknown:
            raise ValueError(f"unknown facts {unknown}; expected some of {sorted(FACTS)}")

    def replay(self) -> State:
        """Play the decisions in the reference engine from a new game."""
        state = new_game(self.config, self.first_player)
        for decision in self.decisions:
            state = apply(state, decision)
        return state

    def confirm(self) -> State:
        """Replay, and raise :class:`WitnessError` unless every claimed fact holds."""
        try:
            state = self.replay()
        except GameError as error:
            raise WitnessError(f"witness {self.label!r}: the engine refuses it: {error}") from None
        for name, claimed in self.shows:
            actual = FACTS[name](state)
            if actual != claimed:
                raise WitnessError(f"witness {self.label!r}: the model says {name} = {claimed!r}, "
                                   f"the engine reaches {actual!r}")
        return state

    def to_json(self) -> dict[str, Any]:
        """What the witness shows, and its game record (maiko-record/1)."""
        state = self.replay()
        return {"label": self.label, "shows": {name: value for name, value in self.shows},
                "record": to_record(state)}


# --- appended by spec/maiko/reach.py's author: facts about positions no board can fill ------


def _unfillable_items(state: State) -> list[list[int]]:
    """For each player, the items missing from their maiko board that no decision can ever bring
    to it: no tile of the item lies on the game board (face down, or face up as a first flip),
    and no tile of the item in the player's colour lies on another player's board. Tiles reach
    a maiko board only from the game board (a pair, MK-FLIP-3; Danna, MK-TUTOR-DANNA-2) or, in
    the owner's colour, from another board (Oka-san, MK-TUTOR-OKASAN-1), and never go back to
    the game board; so such an item space stays empty for the rest of the game and the board is
    never full (spec/maiko/reach.py proves the step by z3)."""
    from hanamikoji.engine.maiko.game import EMPTY, filled

    on_game_board = {state.layout[s] % 9 for s, v in enumerate(state.spaces)
                     if v != EMPTY and state.layout[s] != 36}
    out = []
    for p, board in enumerate(state.boards):
        colour = state.config.colours[p]
        missing = [item for item in range(9) if not filled(board, item)]
        out.append([item for item in missing if item not in on_game_board
                    and not any(other[item * 4 + colour]
                                for q, other in enumerate(state.boards) if q != p)])
    return out


FACTS["unfillable_items"] = _unfillable_items
