"""Every example of the Maiko rulebook (004), played as positions built by decisions.

Four players with the default colours: 0 white, 1 purple, 2 pink, 3 green. Items: 0 kimono,
1 comb, 2 bonsai (spec conventions); the other items stand for the tiles the lost pictures
showed. A maiko board is indexed ``item * 4 + colour``.
"""

from __future__ import annotations

from hanamikoji.engine.maiko import (
    Colour,
    Flip,
    OneSan,
    Reason,
    Sweep,
    Tutor,
    legal_actions,
    observe,
    parse_tile,
)
from hanamikoji.engine.maiko.game import DOWN, UP, Phase
from hanamikoji.properties.maiko.invariants import check_state
from hanamikoji.properties.maiko.scenarios import BONSAI, KIMONO, configure, play, start
from hanamikoji.properties.core.cite import checks

WHITE, PURPLE, PINK, GREEN = 0, 1, 2, 3
FOUR = configure(4)


def at(item: int, colour: int) -> int:
    return item * 4 + colour


@checks("MK-FLIP-3", "MK-FLIP-5", "MK-ROW-1", "MK-ROW-2", "MK-COMP-4")
def test_pink_maikos_turn() -> None:
    """MK-FLIP-3, MK-FLIP-5, MK-ROW-1, MK-ROW-2, MK-COMP-4: the pink maiko's turn. Two kimono
    pairs (the first completes her top row, whose discard sweeps the green kimono; the second is
    a second layer and completes nothing), then a white comb and a friend: a token, the comb goes
    back face down, the friend stays face up, the turn ends."""
    state = start(FOUR, ["purple-1", "green-1", "purple-2", "green-2", "pink-0", "green-0",
                         "pink-0", "purple-0", "white-1", "friend"], first_player=PINK)
    # Comb and bonsai first, so that the kimono pair fills the last item space of the row.
    state = play(state, "flip 0", "flip 1", "flip 2", "flip 3")
    assert (state.current, state.phase) == (PINK, Phase.FIRST)
    state = play(state, "flip 4", "flip 5")  # pink kimono + green kimono
    assert state.phase is Phase.SWEEP and state.sweep_row == 0
    assert legal_actions(state) == (Sweep(KIMONO, None), Sweep(KIMONO, Colour.PINK),
                                    Sweep(KIMONO, Colour.GREEN))
    state = play(state, "sweep 0 green", "sweep 1 -", "sweep 2 -")
    assert state.discarded == (parse_tile("green-0"),)
    state = play(state, "flip 6", "flip 7")  # pink kimono + purple kimono: a second layer
    assert (state.current, state.phase) == (PINK, Phase.FIRST)  # MK-ROW-2: no new discard
    board = state.boards[PINK]
    assert (board[at(KIMONO, PINK)], board[at(KIMONO, PURPLE)], board[at(KIMONO, GREEN)]) == (2, 1, 0)
    state = play(state, "flip 8", "flip 9")  # a white comb, then a friend
    assert state.hands[PINK] == 2
    assert state.spaces[8] == DOWN and state.spaces[9] == UP
    assert (state.current, state.turn, state.phase) == (GREEN, 1, Phase.FIRST)
    check_state(state)


@checks("MK-TUTOR-DANNA-1", "MK-TUTOR-DANNA-2", "MK-TUTOR-2")
def test_danna_example() -> None:
    """MK-TUTOR-DANNA-1, MK-TUTOR-DANNA-2, MK-TUTOR-2: the purple maiko visits Danna, reveals a
    white tile (for all to see), places it at once on her board and keeps playing."""
    state = start(FOUR, ["white-4", "green-5", "pink-6"], first_player=PURPLE)
    state = play(state, "danna 0")
    assert state.boards[PURPLE][at(4, WHITE)] == 1
    assert state.hands[PURPLE] == 0 and state.cards[Tutor.DANNA] == 1
    assert (state.current, state.phase, state.turn) == (PURPLE, Phase.FIRST, 0)
    assert observe(state, GREEN).log[-1].tile == parse_tile("white-4")
    state = play(state, "flip 1", "flip 2")
    assert state.current == PINK


@checks("MK-TUTOR-OKASAN-1")
def test_oka_san_example() -> None:
    """MK-TUTOR-OKASAN-1: the white maiko visits Oka-san, takes a white tile from the pink
    maiko's board and keeps playing."""
    state = start(FOUR, ["white-3", "pink-3", "green-5", "pink-6", "green-7", "purple-8",
                         "white-0", "white-1"], first_player=PINK)
    state = play(state, "flip 0", "flip 1", "flip 2", "flip 3")  # pink: a pair, a mismatch
    state = play(state, "flip 4", "flip 5")  # green: a mismatch
    assert state.current == WHITE and state.boards[PINK][at(3, WHITE)] == 1
    state = play(state, "oka-san 2 3")
    assert state.boards[WHITE][at(3, WHITE)] == 1
    assert state.boards[PINK][at(3, WHITE)] == 0 and state.boards[PINK][at(3, PINK)] == 1
    assert (state.current, state.phase, state.cards[Tutor.OKASAN]) == (WHITE, Phase.FIRST, 1)
    state = play(state, "flip 6", "flip 7")
    assert state.current == PURPLE


@checks("MK-TUTOR-ONESAN-1", "MK-TUTOR-ONESAN-2", "MK-INFO-2")
def test_one_san_example() -> None:
    """MK-TUTOR-ONESAN-1, MK-TUTOR-ONESAN-2, MK-INFO-2: the green maiko flips a green kimono,
    visits One-san and secretly looks at six tiles (the other green kimono and a friend among
    them), then reveals the green kimono for a pair, plays again and flips the friend: a token,
    and her turn ends. Nobody else learns what she saw."""
    state = start(FOUR, ["green-0", "white-5", "pink-6", "green-0", "purple-7", "friend",
                         "white-8"], first_player=GREEN)
    state = play(state, "flip 0", *[f"one-san {s}" for s in range(1, 7)])
    assert state.phase is Phase.SECOND and state.looks == ()  # stopped by itself after six
    assert state.hands[GREEN] == 0 and state.cards[Tutor.ONESAN] == 1
    assert all(state.spaces[s] == DOWN for s in range(1, 7))
    mine = observe(state, GREEN).known()
    assert mine[3] == parse_tile("green-0") and mine[5] == parse_tile("friend")
    for other in (WHITE, PURPLE, PINK):
        view = observe(state, other)
        assert 3 not in view.known() and 5 not in view.known()
        assert [s.decision for s in view.log if s.tile is None] == [OneSan(s) for s in range(1, 7)]
    state = play(state, "flip 3")  # the pair of green kimonos
    assert state.boards[GREEN][at(KIMONO, GREEN)] == 2
    assert (state.current, state.phase) == (GREEN, Phase.FIRST)
    state = play(state, "flip 5")  # the friend she saw
    assert state.hands[GREEN] == 1 and state.current == WHITE


@checks("MK-TUTOR-SABANTO-1")
def test_sabanto_example() -> None:
    """MK-TUTOR-SABANTO-1: the pink maiko visits Sabanto and sweeps a green bonsai from her
    board; it leaves the game and she keeps playing."""
    state = start(FOUR, ["green-2", "pink-2", "white-0", "purple-1"], first_player=PINK)
    state = play(state, "flip 0", "flip 1", "sabanto 2 green")
    assert state.boards[PINK][at(BONSAI, GREEN)] == 0 and state.boards[PINK][at(BONSAI, PINK)] == 1
    assert state.discarded == (parse_tile("green-2"),)
    assert (state.current, state.phase, state.cards[Tutor.SABANTO]) == (PINK, Phase.FIRST, 1)
    state = play(state, "flip 2", "flip 3")
    assert state.current == GREEN


@checks("MK-ROW-1", "MK-ROW-3")
def test_green_maikos_row() -> None:
    """MK-ROW-1, MK-ROW-3: the green maiko fills her second row with pairs and sweeps one tile in
    each item space: the purple and the pink tile, keeping her own."""
    state = start(FOUR, ["green-3", "purple-3", "green-4", "pink-4", "green-5", "green-5",
                         "white-0", "white-1"], first_player=GREEN)
    state = play(state, "flip 0", "flip 1", "flip 2", "flip 3", "flip 4", "flip 5")
    assert state.phase is Phase.SWEEP and state.sweep_row == 1
    assert legal_actions(state) == (Sweep(3, None), Sweep(3, Colour.PURPLE), Sweep(3, Colour.GREEN))
    state = play(state, "sweep 3 purple", "sweep 4 pink", "sweep 5 -")
    board = state.boards[GREEN]
    assert sum(board) == 4 == board[at(3, GREEN)] + board[at(4, GREEN)] + board[at(5, GREEN)]
    assert (state.current, state.phase) == (GREEN, Phase.FIRST)


@checks("MK-SCORE-1", "MK-SCORE-2", "MK-END-1", "MK-END-2", "MK-ROW-4", "MK-COL-1")
def test_final_score_ten_minus_three() -> None:
    """MK-SCORE-1, MK-SCORE-2, MK-END-1, MK-END-2, MK-ROW-4, MK-COL-1: the pink maiko ends with
    10 pink tiles and 3 others: 10 - 3 = 7. She fills her board in one turn of nine pairs (three
    column tokens on the way; the last placement completes a row and a column, the token comes
    first), sweeps five other tiles, ends her turn, and as the player before the first player
    she ends the game."""
    two = configure(2, "pink,green")  # pink is player 0, green player 1, white in the box
    pairs = ["pink-0", "pink-0", "pink-1", "pink-1", "pink-2", "pink-2", "pink-3", "pink-3",
             "pink-4", "purple-4", "pink-5", "purple-5", "purple-6", "purple-6",
             "purple-7", "purple-7", "purple-8", "green-8"]
    state = start(two, ["green-0", "green-1", *pairs], first_player=1)
    state = play(state, "flip 0", "flip 1")  # green's turn: a mismatch
    state = play(state, "flip 2", "flip 3", "flip 4", "flip 5", "flip 6", "flip 7")
    state = play(state, "sweep 0 -", "sweep 1 -", "sweep 2 -")
    state = play(state, "flip 8", "flip 9", "flip 10", "flip 11", "flip 12", "flip 13")
    state = play(state, "sweep 3 -", "sweep 4 purple", "sweep 5 purple")
    state = play(state, "flip 14", "flip 15")  # column 0 complete
    assert state.hands[0] == 2
    state = play(state, "flip 16", "flip 17", "flip 18", "flip 19")
    assert state.hands[0] == 4 and state.phase is Phase.SWEEP and state.triggered_by == 0
    state = play(state, "sweep 6 purple", "sweep 7 purple", "sweep 8 green")
    assert state.phase is Phase.ENDING and Flip(20) not in legal_actions(state)
    state = play(state, "end")
    assert state.result is not None
    assert state.result.reason is Reason.FULL_BOARD
    assert state.result.scores == (7, 0) and state.result.own == (10, 0)
    assert state.result.winners == (0,)
    check_state(state)
