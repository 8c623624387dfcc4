"""The invariants of Maiko: one named function per invariant, each citing its MK rule IDs.

Each raises :class:`Violation` (an ``AssertionError``) with a one-line message saying where
(turn) and what was expected. State invariants take a state; step invariants take the state
before a decision, the decision and the state after. Expectations are restated here from the
rules text (counts, columns and rows, scores and tie-breaks), not read from the engine's helpers.

>>> from hanamikoji.properties.maiko.scenarios import configure, random_game
>>> final = random_game(configure(3), seed=1)
>>> tiles_are_conserved(final) is None and result_follows_the_boards(final) is None
True
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Callable

from hanamikoji.engine.maiko import (
    FRIEND,
    Danna,
    Decision,
    EndTurn,
    Flip,
    OkaSan,
    OneSan,
    OneSanStop,
    Sabanto,
    State,
    Sweep,
    legal_actions,
    observe,
    resample,
)
from hanamikoji.engine.maiko.actions import json_text
from hanamikoji.engine.maiko.game import DOWN, EMPTY, UP, Phase, Reason
from hanamikoji.properties.core.cite import checks

__all__ = [
    "Violation",
    "STATE_INVARIANTS",
    "STEP_INVARIANTS",
    "check_state",
    "check_step",
    "tiles_are_conserved",
    "tokens_are_conserved",
    "turn_order_is_clockwise",
    "one_tutor_per_turn",
    "legal_actions_are_sorted_distinct_and_face_down",
    "every_open_state_has_a_decision",
    "no_open_position_is_static",
    "static_test_is_public",
    "result_follows_the_boards",
    "last_turns_are_equal",
    "turn_goes_on_exactly_after_a_pair_or_a_danna_item",
    "tokens_follow_friends_and_columns",
    "row_discard_fires_once_per_fill",
    "full_board_ends_the_flipping",
    "views_do_not_leak",
    "looks_reach_only_the_looker",
]

ITEMS, COLOURS = 9, 4
ROWS = ((0, 1, 2), (3, 4, 5), (6, 7, 8))
COLUMNS = ((0, 3, 6), (1, 4, 7), (2, 5, 8))


class Violation(AssertionError):
    """An invariant does not hold."""


def _fail(state: State, message: str) -> Violation:
    return Violation(f"turn {state.turn}: {message}")


def _filled(board: tuple[int, ...], item: int) -> bool:
    return sum(board[item * COLOURS:(item + 1) * COLOURS]) > 0


def _full(board: tuple[int, ...]) -> bool:
    return all(_filled(board, i) for i in range(ITEMS))


def _tile_counts(state: State) -> Counter[int]:
    """Every tile by code over every place, counted from the state's own fields."""
    counts: Counter[int] = Counter(state.config.box)
    if state.phase is Phase.LAYOUT:
        counts.update(state.config.tiles)
    else:
        counts.update(code for code, v in zip(state.layout, state.spaces) if v != EMPTY)
    for board in state.boards:
        for index, n in enumerate(board):
            counts[(index % COLOURS) * ITEMS + index // COLOURS] += n
    counts.update(state.discarded)
    return counts


# --- state invariants -----------------------------------------------------------------------


@checks("MK-COMP-1", "MK-SETUP-3", "MK-SETUP-4")
def tiles_are_conserved(state: State) -> None:
    """MK-COMP-1, MK-SETUP-3, MK-SETUP-4: every tile is face down, face up, on a maiko board,
    discarded or in the box: 81, two of each item tile, nine friends."""
    counts = _tile_counts(state)
    for code in range(FRIEND):
        if counts[code] != 2:
            raise _fail(state, f"tile code {code} counted {counts[code]} times, expected 2")
    if counts[FRIEND] != 9 or sum(counts.values()) != 81:
        raise _fail(state, f"{counts[FRIEND]} friends and {sum(counts.values())} tiles, "
                           "expected 9 and 81")
    box = len(state.config.box)
    if box != (21 if state.config.players == 2 else 0):
        raise _fail(state, f"{box} tiles in the box with {state.config.players} players")
    if state.phase is not Phase.LAYOUT and len(state.layout) != 81 - box:
        raise _fail(state, f"{len(state.layout)} spaces, expected {81 - box}")


@checks("MK-COMP-2", "MK-SETUP-2")
def tokens_are_conserved(state: State) -> None:
    """MK-COMP-2, MK-SETUP-2: 16 tokens, each in the pool, a hand or on a tutor card, none negative."""
    places = [state.pool, *state.hands, *state.cards]
    if min(places) < 0 or sum(places) != 16 or len(state.cards) != 4:
        raise _fail(state, f"tokens pool {state.pool}, hands {state.hands}, cards "
                           f"{state.cards}: expected 16 in all, none negative, 4 cards")


@checks("MK-TURN-1", "MK-SETUP-6")
def turn_order_is_clockwise(state: State) -> None:
    """MK-TURN-1, MK-SETUP-6: turn t is played by player (first + t) mod N."""
    n = state.config.players
    for step in state.steps:
        if step.player != (state.first_player + step.turn) % n:
            raise _fail(state, f"turn {step.turn} played by player {step.player}")


def _visits_per_turn(state: State) -> Counter[int]:
    visits: Counter[int] = Counter()
    previous: Decision | None = None
    previous_turn = -1
    for step in state.steps:
        d = step.decision
        if isinstance(d, (Danna, OkaSan, Sabanto)):
            visits[step.turn] += 1
        elif isinstance(d, OneSan) and not (isinstance(previous, OneSan) and previous_turn == step.turn):
            visits[step.turn] += 1  # the first look of a visit pays for it
        previous, previous_turn = d, step.turn
    return visits


@checks("MK-TUTOR-1")
def one_tutor_per_turn(state: State) -> None:
    """MK-TUTOR-1: at most one tutor visit in each turn."""
    for turn, count in _visits_per_turn(state).items():
        if count > 1:
            raise _fail(state, f"{count} tutor visits in turn {turn}")


@checks("MK-FLIP-2", "MK-TUTOR-3", "MK-TUTOR-ONESAN-1")
def legal_actions_are_sorted_distinct_and_face_down(state: State) -> None:
    """MK-FLIP-2, MK-TUTOR-3, MK-TUTOR-ONESAN-1: legal decisions are sorted and distinct; every
    flip, Danna and look names a face-down tile."""
    menu = legal_actions(state)
    if list(menu) != sorted(menu) or len(set(menu)) != len(menu):
        raise _fail(state, "legal decisions not sorted or not distinct")
    for d in menu:
        if isinstance(d, (Flip, Danna, OneSan)) and state.spaces[d.space] != DOWN:
            raise _fail(state, f"{json_text(d)} offered on a space that is not face down")
        if isinstance(d, OneSan) and d.space in state.looks:
            raise _fail(state, f"{json_text(d)} looks twice at one space")


@checks("MK-END-4", "MK-END-5")
def every_open_state_has_a_decision(state: State) -> None:
    """MK-END-4, MK-END-5: a state that is not the end has a legal decision, and a flip is due only
    while a face-down tile is left."""
    if state.phase in (Phase.LAYOUT, Phase.OVER):
        return
    if not legal_actions(state):
        raise _fail(state, f"no legal decision in phase {state.phase.value}")
    if state.phase in (Phase.FIRST, Phase.SECOND) and DOWN not in state.spaces:
        raise _fail(state, "a flip is due but no face-down tile is left")


def _public_face_down(state: State) -> Counter[int]:
    """The face-down multiset from what everybody sees (MK-STATIC-3)."""
    counts = Counter(state.config.tiles)
    for code, v in zip(state.layout, state.spaces):
        if v == UP:
            counts[code] -= 1
    for board in state.boards:
        for index, n in enumerate(board):
            counts[(index % COLOURS) * ITEMS + index // COLOURS] -= n
    counts.subtract(state.discarded)
    return +counts


def _static(state: State) -> bool:
    """MK-STATIC-1, restated from public information."""
    if state.phase is not Phase.FIRST or state.triggered_by is not None or any(state.hands):
        return False
    face_down = _public_face_down(state)
    if face_down[FRIEND]:
        return False
    per_item = Counter(code % ITEMS for code in face_down.elements())
    return all(n <= 1 for n in per_item.values())


@checks("MK-STATIC-1", "MK-STATIC-2")
def no_open_position_is_static(state: State) -> None:
    """MK-STATIC-1, MK-STATIC-2: no state that is not the end is static; a static end is one."""
    if state.phase is not Phase.OVER and _static(state):
        raise _fail(state, "the position is static but the game goes on")
    if state.result is not None and state.result.reason is Reason.STATIC:
        if any(state.hands) or state.triggered_by is not None:
            raise _fail(state, "a static end with a token in hand or after the trigger")


@checks("MK-STATIC-3")
def static_test_is_public(state: State) -> None:
    """MK-STATIC-3: the face-down tiles, as a multiset, are the tiles of the game minus every tile on view."""
    if state.phase is Phase.LAYOUT:
        return
    actual = Counter(code for code, v in zip(state.layout, state.spaces) if v == DOWN)
    if actual != _public_face_down(state):
        raise _fail(state, "the face-down multiset differs from what public information gives")


@checks("MK-SCORE-1", "MK-SCORE-2", "MK-SCORE-3", "MK-SCORE-4")
def result_follows_the_boards(state: State) -> None:
    """MK-SCORE-1, MK-SCORE-2, MK-SCORE-3, MK-SCORE-4: +1 per own tile, -1 per other; most points,
    then most own tiles, then every player still tied wins."""
    result = state.result
    if result is None:
        return
    scores, own = [], []
    for board, colour in zip(state.boards, state.config.colours):
        mine = sum(board[item * COLOURS + colour] for item in range(ITEMS))
        own.append(mine)
        scores.append(mine - (sum(board) - mine))
    if list(result.scores) != scores or list(result.own) != own:
        raise _fail(state, f"scores {result.scores} / own {result.own}, expected {scores} / {own}")
    top = max(scores)
    tied = [p for p, s in enumerate(scores) if s == top]
    most_own = max(own[p] for p in tied)
    winners = tuple(p for p in tied if own[p] == most_own)
    if result.winners != winners:
        raise _fail(state, f"winners {result.winners}, expected {winners}")


@checks("MK-END-1", "MK-END-2")
def last_turns_are_equal(state: State) -> None:
    """MK-END-1, MK-END-2: a full-board end comes after the triggering turn and one last turn for
    each later player, so every player has had as many turns."""
    result = state.result
    if result is None or result.reason is not Reason.FULL_BOARD:
        return
    if state.triggered_by is None:
        raise _fail(state, "a full-board end without a trigger")
    turns = Counter(step.player for step in {(s.turn, s.player): s for s in state.steps}.values())
    counts = {turns[p] for p in range(state.config.players)}
    if len(counts) != 1:
        raise _fail(state, f"turns per player {dict(turns)}: expected equal")
    last = state.steps[-1]
    if (last.player + 1) % state.config.players != state.first_player:
        raise _fail(state, f"the game ended after player {last.player}'s turn, not the turn of "
                           "the player before the first player")


# --- step invariants ------------------------------------------------------------------------


def _revealed_friend(before: State, decision: Decision) -> bool:
    return (isinstance(decision, (Flip, Danna)) and before.phase is not Phase.OVER
            and before.layout[decision.space] == FRIEND)


def _pays(before: State, decision: Decision) -> bool:
    return isinstance(decision, (Danna, OkaSan, Sabanto)) or (
        isinstance(decision, OneSan) and before.phase is not Phase.LOOK)


@checks("MK-TURN-2", "MK-FLIP-3", "MK-FLIP-4", "MK-FLIP-5", "MK-TUTOR-DANNA-2", "MK-TUTOR-DANNA-3")
def turn_goes_on_exactly_after_a_pair_or_a_danna_item(before: State, decision: Decision, after: State) -> None:
    """MK-TURN-2, MK-FLIP-3, MK-FLIP-4, MK-FLIP-5, MK-TUTOR-DANNA-2, MK-TUTOR-DANNA-3: a turn ends
    at a mismatch, a friend or the ending step, and goes on after a pair, a Danna item and any other
    visit."""
    if before.phase in (Phase.LAYOUT, Phase.OVER):
        return
    p = before.current
    passed = after.phase is Phase.OVER or after.turn != before.turn
    mismatch = (isinstance(decision, Flip) and before.phase is Phase.SECOND
                and before.layout[decision.space] != FRIEND
                and before.layout[decision.space] % ITEMS
                != before.layout[before.pending] % ITEMS)  # type: ignore[index]
    if _revealed_friend(before, decision) or mismatch or isinstance(decision, EndTurn):
        if not passed:
            raise _fail(before, f"{json_text(decision)} should end player {p}'s turn")
        return
    if not passed:
        if after.current != p:
            raise _fail(before, f"{json_text(decision)}: the turn goes on but player "
                                f"{after.current} decides")
        return
    ending = (before.phase is Phase.ENDING or before.resume is Phase.ENDING
              or _full(after.boards[p]))
    early_end = after.phase is Phase.OVER and after.result is not None and after.result.reason in (
        Reason.STATIC, Reason.NO_FACE_DOWN)
    if not (ending or early_end):
        raise _fail(before, f"{json_text(decision)} ended player {p}'s turn, which should go on")


@checks("MK-TOKEN-1", "MK-TOKEN-2", "MK-COL-1", "MK-COL-2", "MK-TUTOR-2", "MK-ROW-4")
def tokens_follow_friends_and_columns(before: State, decision: Decision, after: State) -> None:
    """MK-TOKEN-1, MK-TOKEN-2, MK-COL-1, MK-COL-2, MK-TUTOR-2, MK-ROW-4: the player's tokens change
    by one per friend revealed and per column completed (while tokens remain outside hands), less
    one per visit; nobody else's change."""
    if before.phase in (Phase.LAYOUT, Phase.OVER):
        return
    p = before.current
    old, new = before.boards[p], after.boards[p]
    columns = sum(1 for item in range(ITEMS)
                  if not _filled(old, item) and _filled(new, item)
                  and all(_filled(new, i) for i in COLUMNS[item % 3]))
    paid = 1 if _pays(before, decision) else 0
    gains = columns + (1 if _revealed_friend(before, decision) else 0)
    available = before.pool + sum(before.cards) + paid
    expected = min(gains, available) - paid
    if after.hands[p] - before.hands[p] != expected:
        raise _fail(before, f"{json_text(decision)}: player {p}'s tokens {before.hands[p]} -> "
                            f"{after.hands[p]}, expected a change of {expected} "
                            f"({columns} column(s), paid {paid})")
    for q in range(len(before.hands)):
        if q != p and before.hands[q] != after.hands[q]:
            raise _fail(before, f"{json_text(decision)} changed player {q}'s tokens")
    if gains and before.pool and after.pool != before.pool - min(gains, before.pool):
        raise _fail(before, "a token gained did not come from the pool first")


@checks("MK-ROW-1", "MK-ROW-2", "MK-ROW-3")
def row_discard_fires_once_per_fill(before: State, decision: Decision, after: State) -> None:
    """MK-ROW-1, MK-ROW-2, MK-ROW-3: a row discard begins exactly when a placement fills the last
    empty item space of a row, and decides the row's item spaces in order."""
    if before.phase in (Phase.LAYOUT, Phase.OVER):
        return
    p = before.current
    if before.phase is Phase.SWEEP:
        if not isinstance(decision, Sweep):
            raise _fail(before, f"{json_text(decision)} inside a row discard")
        row = ROWS[before.sweep_row]  # type: ignore[index]
        if decision.item != row[before.sweep_index]:
            raise _fail(before, f"the row discard decided item {decision.item} out of order")
        return
    old, new = before.boards[p], after.boards[p]
    rows = [r for r, row in enumerate(ROWS)
            if any(not _filled(old, i) and _filled(new, i) for i in row)
            and all(_filled(new, i) for i in row)]
    started = after.phase is Phase.SWEEP
    if rows and not (started and after.sweep_row == rows[0] and after.sweep_index == 0):
        raise _fail(before, f"{json_text(decision)} completed row {rows[0]} but no row discard "
                            "began")
    if started and not rows:
        raise _fail(before, f"{json_text(decision)} began a row discard without completing a row")


@checks("MK-END-1", "MK-END-3")
def full_board_ends_the_flipping(before: State, decision: Decision, after: State) -> None:
    """MK-END-1, MK-END-3: the end is triggered once, by the first board filled in its own turn, and
    a player whose board fills flips no more this turn."""
    if before.phase in (Phase.LAYOUT, Phase.OVER):
        return
    p = before.current
    if before.triggered_by is not None and after.triggered_by != before.triggered_by:
        raise _fail(before, "the end was triggered twice")
    became_full = not _full(before.boards[p]) and _full(after.boards[p])
    if before.triggered_by is None and after.triggered_by is not None:
        if after.triggered_by != p or not became_full:
            raise _fail(before, f"the end was triggered by player {after.triggered_by} "
                                "without filling a board")
    if before.triggered_by is None and became_full and after.triggered_by is None:
        raise _fail(before, f"player {p} filled their board but the end is not triggered")
    if became_full and after.phase in (Phase.FIRST, Phase.SECOND) and after.current == p \
            and after.turn == before.turn:
        raise _fail(before, f"player {p} filled their board and may still flip")


# --- hidden information ---------------------------------------------------------------------


@checks("MK-INFO-1", "MK-INFO-2", "MK-INFO-3", "MK-STATIC-3")
def views_do_not_leak(state: State, rng: random.Random | None = None) -> None:
    """MK-INFO-1, MK-INFO-2, MK-INFO-3, MK-STATIC-3: redrawing every tile a player has not seen
    leaves their view and the legal decisions unchanged."""
    rng = rng or random.Random(0)
    for player in range(state.config.players):
        other = resample(state, player, rng)
        if observe(other, player) != observe(state, player):
            raise _fail(state, f"player {player}'s view changed when hidden tiles were redrawn")
        if legal_actions(other) != legal_actions(state):
            raise _fail(state, f"the legal decisions changed when player {player}'s hidden "
                               "tiles were redrawn")


@checks("MK-TUTOR-ONESAN-2", "MK-INFO-2")
def looks_reach_only_the_looker(state: State) -> None:
    """MK-TUTOR-ONESAN-2, MK-INFO-2: a view shows the tile of a One-san look to the player who
    looked and to nobody else."""
    for player in range(state.config.players):
        for seen in observe(state, player).log:
            if isinstance(seen.decision, OneSan):
                if (seen.tile is not None) != (seen.player == player):
                    raise _fail(state, f"player {player}'s view of a look by player "
                                       f"{seen.player} shows {seen.tile!r}")
            elif isinstance(seen.decision, (OneSanStop, OkaSan, Sabanto, Sweep, EndTurn)):
                if seen.tile is not None:
                    raise _fail(state, f"{seen.decision!r} shows a tile")


STATE_INVARIANTS: tuple[Callable[[State], None], ...] = (
    tiles_are_conserved, tokens_are_conserved, turn_order_is_clockwise, one_tutor_per_turn,
    legal_actions_are_sorted_distinct_and_face_down, every_open_state_has_a_decision,
    no_open_position_is_static, static_test_is_public, result_follows_the_boards,
    last_turns_are_equal,
)
STEP_INVARIANTS: tuple[Callable[[State, Any, State], None], ...] = (
    turn_goes_on_exactly_after_a_pair_or_a_danna_item, tokens_follow_friends_and_columns,
    row_discard_fires_once_per_fill, full_board_ends_the_flipping,
)


def check_state(state: State) -> None:
    """Every state invariant on ``state``."""
    for invariant in STATE_INVARIANTS:
        invariant(state)


def check_step(before: State, decision: Decision, after: State) -> None:
    """Every step invariant on one transition."""
    for invariant in STEP_INVARIANTS:
        invariant(before, decision, after)
