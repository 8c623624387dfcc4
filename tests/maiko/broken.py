"""Five deliberately broken versions of Maiko, to prove that the checks of the toolkit bite on it.

Each is a small subclass of the reference :class:`~hanamikoji.engine.maiko.MaikoGame` with one
rule broken: what is broken in ``bug``, the MK rules it breaks in ``rules``, and the check that
must catch it in ``caught_by``: either a generic property of properties/core/suite.py
(``views-leak-nothing``) or a Maiko invariant of properties/maiko/invariants.py
(``tokens_follow_friends_and_columns``...). Each broken game goes wrong only through its own
methods (``apply``, ``observe``), so a check sees the bug only by playing that game.
Load one in another process as ``maiko.broken:PEEK_LEAKS`` (with tests/ on the import path).

The five of the Maiko issue: :data:`PEEK_LEAKS`, :data:`PAIR_ENDS_TURN`,
:data:`COLUMN_PAID_TWICE`, :data:`FRIEND_KEEPS_TURN` and :data:`TIE_BREAK_IGNORES_OWN`.

>>> sorted(BROKEN)  # doctest: +NORMALIZE_WHITESPACE
['maiko-column-paid-twice', 'maiko-friend-keeps-turn', 'maiko-pair-ends-turn',
 'maiko-peek-leaks', 'maiko-tie-break-ignores-own']
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from hanamikoji.engine.maiko import FRIEND, Flip, MaikoGame, OneSan, Phase, State, View
from hanamikoji.engine.maiko.game import Draft  # the engine's own token gain and turn passing

__all__ = ["BrokenMaiko", "PeekLeaks", "PairEndsTurn", "ColumnPaidTwice", "FriendKeepsTurn",
           "TieBreakIgnoresOwn", "PEEK_LEAKS", "PAIR_ENDS_TURN", "COLUMN_PAID_TWICE",
           "FRIEND_KEEPS_TURN", "TIE_BREAK_IGNORES_OWN", "BROKEN"]

COLOURS = 4
COLUMNS = ((0, 3, 6), (1, 4, 7), (2, 5, 8))


def _filled(board: tuple[int, ...], item: int) -> bool:
    return sum(board[item * COLOURS:(item + 1) * COLOURS]) > 0


class BrokenMaiko(MaikoGame):
    """A Maiko game with one rule broken (a base class: the reference rules as they are)."""

    bug: ClassVar[str] = ""
    rules: ClassVar[tuple[str, ...]] = ()
    caught_by: ClassVar[str] = ""


class PeekLeaks(BrokenMaiko):
    """MK-TUTOR-ONESAN-2, MK-INFO-2 broken: a player's view shows the tile of every One-san look,
    another player's included."""

    name = "maiko-peek-leaks"
    bug: ClassVar[str] = "a view shows the tile another player looked at with One-san"
    rules: ClassVar[tuple[str, ...]] = ("MK-TUTOR-ONESAN-2", "MK-INFO-2")
    caught_by: ClassVar[str] = "views-leak-nothing"

    def observe(self, state: State, player: int) -> View:
        view = super().observe(state, player)
        log = tuple(attrs.evolve(seen, tile=state.layout[seen.decision.space])
                    if isinstance(seen.decision, OneSan) else seen for seen in view.log)
        return attrs.evolve(view, log=log)


class PairEndsTurn(BrokenMaiko):
    """MK-FLIP-3, MK-TURN-2 broken: after a pair the turn passes to the next player instead of
    going on with two more flips."""

    name = "maiko-pair-ends-turn"
    bug: ClassVar[str] = "the turn ends after a pair"
    rules: ClassVar[tuple[str, ...]] = ("MK-FLIP-3", "MK-TURN-2")
    caught_by: ClassVar[str] = "turn_goes_on_exactly_after_a_pair_or_a_danna_item"

    def apply(self, state: State, decision: Any) -> State:
        after = super().apply(state, decision)
        pair = (isinstance(decision, Flip) and state.phase is Phase.SECOND
                and sum(after.boards[state.current]) == sum(state.boards[state.current]) + 2)
        if pair and after.phase is Phase.FIRST and after.turn == state.turn:
            draft = Draft.of(after)
            draft.end_turn()
            after = draft.freeze()
        return after


class ColumnPaidTwice(BrokenMaiko):
    """MK-COL-2, MK-TOKEN-1 broken: a tile placed on a filled item space of a complete column
    (a second layer) pays the column token again."""

    name = "maiko-column-paid-twice"
    bug: ClassVar[str] = "a column token is paid again for a second layer"
    rules: ClassVar[tuple[str, ...]] = ("MK-COL-2", "MK-TOKEN-1")
    caught_by: ClassVar[str] = "tokens_follow_friends_and_columns"

    def apply(self, state: State, decision: Any) -> State:
        after = super().apply(state, decision)
        if state.phase in (Phase.LAYOUT, Phase.OVER):
            return after
        p = state.current
        old, new = state.boards[p], after.boards[p]
        for item in range(9):
            layered = _filled(old, item) and sum(new[item * COLOURS:(item + 1) * COLOURS]) > sum(
                old[item * COLOURS:(item + 1) * COLOURS])
            if layered and all(_filled(new, i) for i in COLUMNS[item % 3]):
                draft = Draft.of(after)
                draft.gain_token(p)
                after = draft.freeze()
        return after


class FriendKeepsTurn(BrokenMaiko):
    """MK-FLIP-5, MK-TURN-2 broken: a flipped friend stays face up and pays its token, but the
    same player goes on with a new pair of flips instead of passing the turn."""

    name = "maiko-friend-keeps-turn"
    bug: ClassVar[str] = "a flipped friend does not end the turn"
    rules: ClassVar[tuple[str, ...]] = ("MK-FLIP-5", "MK-TURN-2")
    caught_by: ClassVar[str] = "turn_goes_on_exactly_after_a_pair_or_a_danna_item"

    def apply(self, state: State, decision: Any) -> State:
        after = super().apply(state, decision)
        friend = (isinstance(decision, Flip) and state.phase in (Phase.FIRST, Phase.SECOND)
                  and state.layout[decision.space] == FRIEND)
        if friend and after.phase is Phase.FIRST and after.turn != state.turn:
            after = attrs.evolve(after, current=state.current, turn=state.turn,
                                 visited=state.visited)
        return after


class TieBreakIgnoresOwn(BrokenMaiko):
    """MK-SCORE-3, MK-SCORE-4 broken: players tied on points share the victory whatever their
    own-colour tile counts."""

    name = "maiko-tie-break-ignores-own"
    bug: ClassVar[str] = "the tie-break ignores own-colour tiles"
    rules: ClassVar[tuple[str, ...]] = ("MK-SCORE-3", "MK-SCORE-4")
    caught_by: ClassVar[str] = "result_follows_the_boards"

    def apply(self, state: State, decision: Any) -> State:
        after = super().apply(state, decision)
        if after.result is not None and state.result is None:
            top = max(after.result.scores)
            winners = tuple(p for p, s in enumerate(after.result.scores) if s == top)
            after = attrs.evolve(after, result=attrs.evolve(after.result, winners=winners))
        return after


PEEK_LEAKS = PeekLeaks()
PAIR_ENDS_TURN = PairEndsTurn()
COLUMN_PAID_TWICE = ColumnPaidTwice()
FRIEND_KEEPS_TURN = FriendKeepsTurn()
TIE_BREAK_IGNORES_OWN = TieBreakIgnoresOwn()
BROKEN: dict[str, BrokenMaiko] = {game.name: game for game in (
    PEEK_LEAKS, PAIR_ENDS_TURN, COLUMN_PAID_TWICE, FRIEND_KEEPS_TURN, TIE_BREAK_IGNORES_OWN)}
