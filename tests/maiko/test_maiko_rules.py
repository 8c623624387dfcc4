"""Maiko's rules one by one: setup, flips, tutors, tokens, lines, the end and the score, with the
errors that name the rule a decision breaks. Positions are built by decisions
(hanamikoji.properties.maiko.scenarios), except where a test says why not.
"""

from __future__ import annotations

import pathlib
import random

import attrs
import pytest

from hanamikoji.engine.core.errors import IllegalActionError, InvalidActionError, OptionError
from hanamikoji.engine.maiko import (
    CHANCE,
    FRIEND,
    Colour,
    Config,
    Danna,
    EndTurn,
    Flip,
    Layout,
    OkaSan,
    OneSan,
    OneSanStop,
    Reason,
    Sabanto,
    Sweep,
    Tutor,
    apply,
    current_player,
    legal_actions,
    new_game,
    observe,
    parse_tile,
    random_layout,
    tile,
    tile_name,
)
from hanamikoji.engine.maiko.components import COLUMNS, ROWS
from hanamikoji.engine.maiko.game import DOWN, EMPTY, UP, Draft, Phase, filled, is_static
from hanamikoji.engine.maiko.view import HIDDEN
from hanamikoji.properties.maiko import invariants as inv
from hanamikoji.properties.maiko.scenarios import configure, play, random_game, start
from hanamikoji.properties.core.cite import checks

PINK_GREEN = configure(2, "pink,green")
RULES_TEXT = (pathlib.Path(__file__).resolve().parents[2] / "spec" / "maiko" / "rules.md").read_text(
    encoding="utf-8")  # pink is player 0, green 1; white goes to the box


def at(item: int, colour: int) -> int:
    return item * 4 + colour


def illegal(state, decision, rule: str) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        apply(state, decision)
    assert caught.value.rule == rule, str(caught.value)
    return caught.value


# --- components and setup -------------------------------------------------------------------


@checks("MK-COMP-1")
def test_MK_COMP_1_tiles() -> None:
    """MK-COMP-1: 81 tiles: two of each colour and item, nine friends; tiles are codes."""
    tiles = Config.make(4).tiles
    assert len(tiles) == 81 and tiles.count(FRIEND) == 9
    assert all(tiles.count(tile(c, i)) == 2 for c in Colour for i in range(9))
    assert parse_tile("pink-0") == tile(Colour.PINK, 0) and tile_name(FRIEND) == "friend"
    assert all(parse_tile(tile_name(code)) == code for code in range(37))


@checks("MK-COMP-2")
def test_MK_COMP_2_tokens_and_tutor_cards() -> None:
    """MK-COMP-2: 16 tokens in the pool, the hands and on four tutor cards."""
    state = new_game(Config.make(3))
    assert state.pool + sum(state.hands) + sum(state.cards) == 16 and len(state.cards) == 4
    assert [t.label for t in Tutor] == ["danna", "oka-san", "one-san", "sabanto"]


@checks("MK-COMP-3")
def test_MK_COMP_3_rows_and_columns() -> None:
    """MK-COMP-3: item i sits in row i // 3 and column i % 3: three rows and three columns, the
    lines read from the rule's text (the reference engine shares the tables, so they are checked
    against the text, not against it)."""
    text = RULES_TEXT.split("**MK-COMP-3**")[1].split("\n")[0]
    assert "three rows and three columns" in text
    assert "item i sits in row i // 3 and column i % 3" in text
    assert ROWS == tuple(tuple(i for i in range(9) if i // 3 == r) for r in range(3))
    assert COLUMNS == tuple(tuple(i for i in range(9) if i % 3 == c) for c in range(3))


@checks("MK-COMP-4")
def test_MK_COMP_4_item_space_filled_by_one_tile_and_public() -> None:
    """MK-COMP-4: an item space with one tile is filled like one with two (a row of a Danna single
    and two pairs completes); every tile on a maiko board, lower layers included, is public."""
    state = start(PINK_GREEN, ["pink-0", "green-0", "pink-1", "purple-1", "purple-2"])
    state = play(state, "flip 0", "flip 1", "flip 2", "flip 3", "danna 4")
    assert state.phase is Phase.SWEEP
    assert observe(state, 1).boards[0] == state.boards[0]


@checks("MK-COMP-5")
def test_MK_COMP_5_spaces_are_numbers() -> None:
    """MK-COMP-5: the spaces are 0 to S-1; a space out of range is not a decision."""
    state = start(PINK_GREEN, [])
    assert len(state.spaces) == 60
    with pytest.raises(InvalidActionError):
        apply(state, Flip(60))
    with pytest.raises(InvalidActionError):
        apply(state, Flip(-1))
    with pytest.raises(InvalidActionError):
        apply(state, "flip 3")  # type: ignore[arg-type]


@checks("MK-SETUP-1")
def test_MK_SETUP_1_players_and_colours() -> None:
    """MK-SETUP-1: 2 to 4 players with different colours; by default the book's order."""
    assert Config.make(3).colours == (Colour.WHITE, Colour.PURPLE, Colour.PINK)
    assert Config.make(2, ["green", "white"]).colours == (Colour.GREEN, Colour.WHITE)
    for bad in (dict(players=1), dict(players=5), dict(players=2, colours=["pink", "pink"]),
                dict(players=3, colours=["pink", "green"])):
        with pytest.raises(OptionError) as caught:
            Config.make(**bad)
        assert caught.value.rule == "MK-SETUP-1"


@checks("MK-SETUP-2")
def test_MK_SETUP_2_starting_tokens() -> None:
    """MK-SETUP-2: one token per player, 16 - N in the pool, no token on a tutor card."""
    for n in (2, 3, 4):
        state = new_game(Config.make(n))
        assert state.hands == (1,) * n and state.pool == 16 - n and state.cards == (0, 0, 0, 0)


@checks("MK-SETUP-3")
def test_MK_SETUP_3_three_and_four_players() -> None:
    """MK-SETUP-3: 81 tiles on 81 spaces; with 3 players the unplayed colour stays."""
    three = Config.make(3)
    assert len(three.tiles) == 81 and three.box == ()
    assert three.tiles.count(tile(Colour.GREEN, 4)) == 2
    with pytest.raises(OptionError) as caught:
        Config.make(3, removed_colour="green")
    assert caught.value.rule == "MK-SETUP-3"


@checks("MK-SETUP-4")
def test_MK_SETUP_4_two_players() -> None:
    """MK-SETUP-4: 3 friends and the 18 tiles of one unplayed colour go to the box (by default
    the first unplayed colour in the book's order); 60 tiles on 60 spaces."""
    config = Config.make(2, ["white", "pink"])
    assert config.removed_colour is Colour.PURPLE
    assert len(config.tiles) == 60 and len(config.box) == 21
    assert config.box.count(FRIEND) == 3 and config.tiles.count(FRIEND) == 6
    assert all(config.box.count(tile(Colour.PURPLE, i)) == 2 for i in range(9))
    assert Config.make(2, ["white", "pink"], "green").tiles.count(tile(Colour.PURPLE, 0)) == 2
    with pytest.raises(OptionError) as caught:
        Config.make(2, ["white", "pink"], "pink")
    assert caught.value.rule == "MK-SETUP-4"
    with pytest.raises(IllegalActionError) as error:
        apply(new_game(config), Layout(Config.make(2).tiles))  # white-purple's tiles
    assert error.value.rule == "MK-SETUP-4"


@checks("MK-SETUP-5")
def test_MK_SETUP_5_layout_is_a_hidden_chance_outcome() -> None:
    """MK-SETUP-5: the layout is a chance node (drawn from a seeded rng), the tiles lie face
    down, no player sees them, and it comes first and once."""
    config = Config.make(3)
    state = new_game(config)
    assert current_player(state) == CHANCE and legal_actions(state) == ()
    illegal(state, Flip(0), "MK-SETUP-5")
    layout = random_layout(config, random.Random(9))
    assert layout == random_layout(config, random.Random(9))
    assert sorted(layout.tiles) == list(config.tiles)
    state = apply(state, layout)
    assert state.spaces == (DOWN,) * 81
    assert all(v == HIDDEN for v in observe(state, 0).board)
    assert not hasattr(observe(state, 0), "layout")
    illegal(state, layout, "MK-SETUP-5")
    with pytest.raises(IllegalActionError) as caught:
        apply(new_game(config), Layout(layout.tiles[:-1] + (layout.tiles[0],)))
    assert caught.value.rule == "MK-SETUP-3"


@checks("MK-SETUP-6")
def test_MK_SETUP_6_first_player() -> None:
    """MK-SETUP-6: the first player is a parameter; the first turn is theirs."""
    state = start(Config.make(4), [], first_player=3)
    assert state.current == 3 and state.first_player == 3
    with pytest.raises(InvalidActionError) as caught:
        new_game(Config.make(2), 2)
    assert caught.value.rule == "MK-SETUP-6"


# --- turns and flips ------------------------------------------------------------------------


@checks("MK-TURN-1")
def test_MK_TURN_1_clockwise() -> None:
    """MK-TURN-1: after player p comes player (p + 1) mod N."""
    state = start(Config.make(3), ["white-0", "white-1", "white-2", "white-3", "white-4",
                                   "white-5", "white-6", "white-7"], first_player=2)
    seen = []
    for first in range(0, 8, 2):
        seen.append(state.current)
        state = play(state, f"flip {first}", f"flip {first + 1}")
    assert seen == [2, 0, 1, 2]


@checks("MK-TURN-2")
def test_MK_TURN_2_turn_goes_on_until_a_mismatch_or_a_friend() -> None:
    """MK-TURN-2: no decision ends a turn at will: after a pair the player must flip again, and
    ending a turn is a decision only in the ending step."""
    state = start(PINK_GREEN, ["pink-0", "green-0"])
    state = play(state, "flip 0", "flip 1")
    assert state.current == 0 and state.phase is Phase.FIRST
    assert not any(isinstance(d, EndTurn) for d in legal_actions(state))
    illegal(state, EndTurn(), "MK-TURN-2")


@checks("MK-FLIP-1")
def test_MK_FLIP_1_two_flips_seen_by_all() -> None:
    """MK-FLIP-1: a turn flips one face-down tile and then a second; a flipped tile is seen by
    every player, and the first flip's menu is every face-down space."""
    state = start(PINK_GREEN, ["pink-0", "green-4"])
    assert [d.space for d in legal_actions(state) if isinstance(d, Flip)] == list(range(60))
    state = play(state, "flip 0")
    assert state.phase is Phase.SECOND and state.pending == 0
    for player in (0, 1):
        assert observe(state, player).board[0] == parse_tile("pink-0")
    state = play(state, "flip 1")
    assert observe(state, 1).known() == {0: parse_tile("pink-0"), 1: parse_tile("green-4")}


@checks("MK-FLIP-2")
def test_MK_FLIP_2_only_face_down_tiles() -> None:
    """MK-FLIP-2: the first tile of the flip in progress, an empty space and a face-up friend
    cannot be flipped."""
    state = start(PINK_GREEN, ["pink-0", "green-0", "friend", "pink-1", "green-3", "green-5"])
    state = play(state, "flip 0", "flip 1", "flip 3")
    illegal(state, Flip(3), "MK-FLIP-2")  # the first tile, face up
    illegal(state, Flip(0), "MK-FLIP-2")  # empty: taken as a pair
    state = play(state, "flip 2")  # a friend: the turn ends
    illegal(state, Flip(2), "MK-FLIP-2")
    assert Flip(2) not in legal_actions(state) and Flip(0) not in legal_actions(state)


@checks("MK-FLIP-3")
def test_MK_FLIP_3_pair_of_any_colours() -> None:
    """MK-FLIP-3: two tiles of one item, whatever their colours, go onto that item space and the
    turn goes on."""
    state = start(Config.make(4), ["white-7", "green-7"], first_player=1)
    state = play(state, "flip 0", "flip 1")
    board = state.boards[1]
    assert board[at(7, 0)] == 1 and board[at(7, 3)] == 1 and sum(board) == 2
    assert state.spaces[0] == state.spaces[1] == EMPTY
    assert (state.current, state.turn, state.phase) == (1, 0, Phase.FIRST)


@checks("MK-FLIP-4")
def test_MK_FLIP_4_mismatch() -> None:
    """MK-FLIP-4: two different items go back face down and the turn ends."""
    state = play(start(PINK_GREEN, ["pink-0", "pink-1"]), "flip 0", "flip 1")
    assert state.spaces[0] == state.spaces[1] == DOWN
    assert (state.current, state.turn) == (1, 1) and sum(state.boards[0]) == 0


@checks("MK-FLIP-5")
def test_MK_FLIP_5_friend_as_first_or_second_tile() -> None:
    """MK-FLIP-5: a friend stays face up, gives a token and ends the turn at once: as the first
    tile no second flip follows; as the second the first goes back face down."""
    state = play(start(PINK_GREEN, ["friend", "pink-3", "friend"]), "flip 0")
    assert state.spaces[0] == UP and state.hands == (2, 1) and state.pool == 13
    assert (state.current, state.phase) == (1, Phase.FIRST)
    state = play(state, "flip 1", "flip 2")
    assert state.spaces[1] == DOWN and state.spaces[2] == UP and state.hands == (2, 2)
    assert state.current == 0


# --- tutors ---------------------------------------------------------------------------------


@checks("MK-TUTOR-1")
def test_MK_TUTOR_1_once_per_turn_at_any_moment() -> None:
    """MK-TUTOR-1: one visit per turn: before the first flip, between the flips or after a pair;
    a second visit in the turn is illegal, in the next turn it is open again."""
    state = start(PINK_GREEN, ["friend", "pink-4", "pink-5", "pink-6", "green-7", "pink-4"])
    state = play(state, "flip 0", "flip 1", "flip 2")  # pink: a friend (2 tokens); green: mismatch
    assert state.hands[0] == 2
    state = play(state, "flip 3", "danna 4")  # between the flips
    assert state.phase is Phase.SECOND and state.pending == 3
    illegal(state, Danna(5), "MK-TUTOR-1")
    assert not any(isinstance(d, (Danna, OneSan, Sabanto, OkaSan)) for d in legal_actions(state))


@checks("MK-TUTOR-2")
def test_MK_TUTOR_2_a_visit_costs_a_token() -> None:
    """MK-TUTOR-2: a visit puts one of the player's tokens on that tutor's card; without a
    token there is no visit."""
    state = start(PINK_GREEN, ["pink-0", "green-1", "pink-2", "green-3", "pink-4", "green-5"])
    state = play(state, "one-san 0", "stop", "flip 1", "flip 2")
    assert state.hands == (0, 1) and state.cards[Tutor.ONESAN] == 1
    state = play(state, "flip 3", "flip 4")
    assert state.current == 0
    illegal(state, Danna(5), "MK-TUTOR-2")
    assert all(isinstance(d, Flip) for d in legal_actions(state))


@checks("MK-TUTOR-3")
def test_MK_TUTOR_3_a_visit_needs_something_to_act_on() -> None:
    """MK-TUTOR-3: Sabanto with an empty board, Oka-san with no tile of one's colour on another
    board are illegal and never offered."""
    state = start(PINK_GREEN, [])
    illegal(state, Sabanto(0, Colour.PINK), "MK-TUTOR-3")
    illegal(state, OkaSan(1, 0), "MK-TUTOR-3")
    assert not any(isinstance(d, (Sabanto, OkaSan)) for d in legal_actions(state))


@checks("MK-TUTOR-DANNA-1")
def test_MK_TUTOR_DANNA_1_reveals_a_face_down_tile() -> None:
    """MK-TUTOR-DANNA-1: Danna reveals a face-down tile, never the first tile of a flip in
    progress or a face-up friend."""
    state = start(PINK_GREEN, ["pink-0", "friend", "green-2", "pink-3"])
    state = play(state, "flip 0")
    illegal(state, Danna(0), "MK-TUTOR-DANNA-1")
    state = play(state, "flip 1", "flip 2", "flip 3")  # pink's friend; green's mismatch
    illegal(state, Danna(1), "MK-TUTOR-DANNA-1")
    assert Danna(1) not in legal_actions(state) and Danna(2) in legal_actions(state)


@checks("MK-TUTOR-DANNA-2")
def test_MK_TUTOR_DANNA_2_item_between_the_flips() -> None:
    """MK-TUTOR-DANNA-2: a Danna item goes onto the board at once and the turn goes on where it
    was: between the flips, the second flip is still due."""
    state = start(PINK_GREEN, ["pink-0", "green-6", "pink-0"])
    state = play(state, "flip 0", "danna 1")
    assert state.boards[0][at(6, 3)] == 1 and state.spaces[1] == EMPTY
    assert (state.phase, state.pending, state.current) == (Phase.SECOND, 0, 0)
    state = play(state, "flip 2")
    assert state.boards[0][at(0, 2)] == 2 and state.phase is Phase.FIRST


@checks("MK-TUTOR-DANNA-3")
def test_MK_TUTOR_DANNA_3_friend_ends_the_turn() -> None:
    """MK-TUTOR-DANNA-3: a Danna friend stays face up, gives a token and ends the turn; the first
    tile of the flip goes back face down."""
    state = start(PINK_GREEN, ["pink-0", "friend"])
    state = play(state, "flip 0", "danna 1")
    assert state.spaces[0] == DOWN and state.spaces[1] == UP
    assert state.hands == (1, 1) and state.cards[Tutor.DANNA] == 1 and state.current == 1


@checks("MK-TUTOR-OKASAN-1")
def test_MK_TUTOR_OKASAN_1_only_ones_colour_from_another_board() -> None:
    """MK-TUTOR-OKASAN-1: Oka-san takes a tile of the player's colour from another player's
    board, never from their own and never a tile that is not there."""
    state = start(PINK_GREEN, ["pink-3", "green-3", "pink-5", "green-6", "green-1", "pink-2"])
    state = play(state, "flip 0", "flip 1", "flip 2", "flip 3")  # pink: a pair, a mismatch
    illegal(state, OkaSan(1, 3), "MK-TUTOR-OKASAN-1")  # green takes from herself
    illegal(state, OkaSan(0, 4), "MK-TUTOR-OKASAN-1")  # no green tile on pink's item 4
    assert [d for d in legal_actions(state) if isinstance(d, OkaSan)] == [OkaSan(0, 3)]
    state = play(state, "oka-san 0 3")
    assert state.boards[1][at(3, 3)] == 1 and state.boards[0][at(3, 3)] == 0


@checks("MK-TUTOR-ONESAN-1")
def test_MK_TUTOR_ONESAN_1_one_to_six_different_looks() -> None:
    """MK-TUTOR-ONESAN-1: looks are one at a time at different face-down tiles, at least one,
    then a stop (after the sixth the visit stops by itself); nothing else happens meanwhile, and
    the turn goes on where it was."""
    state = start(PINK_GREEN, ["pink-0"])
    illegal(state, OneSanStop(), "MK-TUTOR-ONESAN-1")
    state = play(state, "flip 0", "one-san 3")
    assert state.phase is Phase.LOOK and OneSanStop() in legal_actions(state)
    illegal(state, OneSan(3), "MK-TUTOR-ONESAN-1")
    illegal(state, OneSan(0), "MK-TUTOR-ONESAN-1")
    illegal(state, Flip(5), "MK-TUTOR-ONESAN-1")
    state = play(state, "stop")
    assert (state.phase, state.pending) == (Phase.SECOND, 0)
    six = play(start(PINK_GREEN, []), *[f"one-san {s}" for s in range(6)])
    assert six.phase is Phase.FIRST and six.cards[Tutor.ONESAN] == 1


@checks("MK-TUTOR-ONESAN-2")
def test_MK_TUTOR_ONESAN_2_private_looks_and_friends_give_nothing() -> None:
    """MK-TUTOR-ONESAN-2: only the looker learns the tiles; the others see the spaces; a friend
    seen this way stays face down and gives nothing."""
    state = play(start(PINK_GREEN, ["friend", "green-2"]), "one-san 0", "one-san 1", "stop")
    assert state.spaces[0] == DOWN and state.hands == (0, 1)
    assert observe(state, 0).known() == {0: FRIEND, 1: parse_tile("green-2")}
    assert observe(state, 1).known() == {}
    assert [s.decision for s in observe(state, 1).log] == [OneSan(0), OneSan(1), OneSanStop()]
    inv.looks_reach_only_the_looker(state)


@checks("MK-TUTOR-SABANTO-1")
def test_MK_TUTOR_SABANTO_1_discards_a_tile_of_ones_board() -> None:
    """MK-TUTOR-SABANTO-1: Sabanto discards a tile that is on the player's board, and only one."""
    state = play(start(PINK_GREEN, ["pink-3", "green-3"]), "flip 0", "flip 1")
    illegal(state, Sabanto(3, Colour.PURPLE), "MK-TUTOR-SABANTO-1")
    illegal(state, Sabanto(4, Colour.PINK), "MK-TUTOR-SABANTO-1")
    assert [d for d in legal_actions(state) if isinstance(d, Sabanto)] == [
        Sabanto(3, Colour.PINK), Sabanto(3, Colour.GREEN)]
    state = play(state, "sabanto 3 pink")
    assert state.boards[0][at(3, 2)] == 0 and state.boards[0][at(3, 3)] == 1


# --- tokens and lines -----------------------------------------------------------------------


@checks("MK-TOKEN-1")
def test_MK_TOKEN_1_tokens_only_from_friends_and_columns() -> None:
    """MK-TOKEN-1: over whole random games, every change of a hand is a friend, a column or a
    visit (checked at every step)."""
    for n in (2, 3, 4):
        state = start(Config.make(n), [])
        rng = random.Random(n)
        while state.phase is not Phase.OVER and state.turn < 1500:
            decision = rng.choice(legal_actions(state))
            after = apply(state, decision)
            inv.tokens_follow_friends_and_columns(state, decision, after)
            state = after


@checks("MK-TOKEN-2")
def test_MK_TOKEN_2_pool_then_tutor_cards_then_nothing() -> None:
    """MK-TOKEN-2: a gained token comes from the pool; when it is empty, from the first tutor
    card (Danna, Oka-san, One-san, Sabanto) holding one; when all 16 are in hands, none.

    The positions are built with attrs.evolve: emptying the pool by decisions takes a long game,
    and the rule reads only the token counts."""
    state = start(PINK_GREEN, ["friend", "friend"])
    empty_pool = attrs.evolve(state, pool=0, cards=(0, 3, 11, 0))
    after = play(empty_pool, "flip 0")
    assert after.hands[0] == 2 and after.cards == (0, 2, 11, 0)
    inv.tokens_are_conserved(after)
    all_in_hands = attrs.evolve(state, pool=0, hands=(15, 1))
    after = play(all_in_hands, "flip 0")
    assert after.hands == (15, 1) and after.spaces[0] == UP and after.current == 1


def _column_game():
    """Pink fills column 0 (items 0, 3, 6) with a Danna single on item 6; green takes that tile
    with Oka-san; pink fills item 6 again, then lays a second layer on it."""
    state = start(PINK_GREEN, ["pink-0", "pink-0", "pink-3", "pink-3", "green-6", "purple-1",
                               "purple-2", "green-1", "green-2", "pink-6", "purple-6", "green-6",
                               "purple-6", "pink-1", "pink-2"])
    return play(state, "flip 0", "flip 1", "flip 2", "flip 3")


@checks("MK-COL-1")
def test_MK_COL_1_column_token() -> None:
    """MK-COL-1: filling the last empty item space of a column gives a token."""
    state = play(_column_game(), "danna 4")
    assert state.hands[0] == 1 and state.cards[Tutor.DANNA] == 1 and state.pool == 13


@checks("MK-COL-1")
def test_MK_COL_1_only_a_column_pays() -> None:
    """MK-COL-1: items 0, 3 and 6 are a column (a token when the last is filled by a pair);
    items 0, 4 and 6 are not (no token for filling the last of them)."""
    for items, gains in (((0, 3, 6), 1), ((0, 4, 6), 0)):
        state = start(PINK_GREEN, [f"pink-{i}" for i in items for _ in range(2)])
        state = play(state, "flip 0", "flip 1", "flip 2", "flip 3", "flip 4")
        before = state.hands[0]
        state = play(state, "flip 5")
        assert state.current == 0 and [filled(state.boards[0], i) for i in items] == [True] * 3
        assert state.hands[0] - before == gains, items


@checks("MK-COL-2")
def test_MK_COL_2_once_per_fill() -> None:
    """MK-COL-2: no token for a second layer; another token after the column was emptied and
    filled again (here emptied by the other player's Oka-san)."""
    state = play(_column_game(), "danna 4", "flip 5", "flip 6")
    state = play(state, "oka-san 0 6", "flip 7", "flip 8")  # green empties pink's item 6
    assert state.boards[0][at(6, 3)] == 0 and state.hands == (1, 0)
    state = play(state, "flip 9", "flip 10")  # pink-6 + purple-6: filled again
    assert state.hands[0] == 2
    state = play(state, "flip 11", "flip 12")  # a second layer
    assert state.hands[0] == 2 and sum(state.boards[0][at(6, 0):at(7, 0)]) == 4
    state = play(state, "flip 13", "flip 14")
    assert state.current == 1


@checks("MK-ROW-1")
def test_MK_ROW_1_row_discard_is_optional_per_item_space() -> None:
    """MK-ROW-1: completing a row offers, for each of its item spaces, to discard one tile of
    any colour present there, or none; one decision per distinct outcome."""
    state = start(PINK_GREEN, ["pink-0", "pink-0", "pink-1", "green-1", "purple-2", "purple-2"])
    state = play(state, "flip 0", "flip 1", "flip 2", "flip 3", "flip 4", "flip 5")
    assert legal_actions(state) == (Sweep(0, None), Sweep(0, Colour.PINK))
    illegal(state, Sweep(0, Colour.GREEN), "MK-ROW-1")
    state = play(state, "sweep 0 -")
    assert legal_actions(state) == (Sweep(1, None), Sweep(1, Colour.PINK), Sweep(1, Colour.GREEN))


@checks("MK-ROW-2", "MK-ROW-3")
def test_MK_ROW_2_and_ROW_3_refire_after_a_discard_empties_a_space() -> None:
    """MK-ROW-2, MK-ROW-3: a discard may empty an item space (paying nothing); filling it again
    completes the row again; a second layer does not."""
    state = start(PINK_GREEN, ["pink-0", "pink-0", "pink-1", "pink-1", "green-2", "pink-2",
                               "pink-2", "purple-2", "green-2"])
    state = play(state, "flip 0", "flip 1", "flip 2", "flip 3", "danna 4")
    assert state.phase is Phase.SWEEP
    state = play(state, "sweep 0 -", "sweep 1 -", "sweep 2 green")
    assert state.boards[0][at(2, 3)] == 0 and state.hands == (0, 1)
    assert state.phase is Phase.FIRST
    state = play(state, "flip 5", "flip 6")  # item 2 filled again
    assert state.phase is Phase.SWEEP and state.sweep_row == 0
    state = play(state, "sweep 0 -", "sweep 1 -", "sweep 2 -", "flip 7", "flip 8")
    assert state.phase is Phase.FIRST  # a second layer: no discard


@checks("MK-ROW-3")
def test_MK_ROW_3_decided_at_once_in_item_order() -> None:
    """MK-ROW-3: while a row discard is pending only its next item space may be decided."""
    state = start(PINK_GREEN, ["pink-3", "pink-3", "pink-4", "pink-4", "pink-5", "pink-5"])
    state = play(state, "flip 0", "flip 1", "flip 2", "flip 3", "flip 4", "flip 5")
    illegal(state, Sweep(4, None), "MK-ROW-3")
    illegal(state, Flip(10), "MK-ROW-3")
    illegal(state, Danna(10), "MK-ROW-3")
    illegal(play(start(PINK_GREEN, []), "flip 0"), Sweep(0, None), "MK-ROW-3")


@checks("MK-ROW-4")
def test_MK_ROW_4_row_and_column_together() -> None:
    """MK-ROW-4: one placement completes a row and a column: the token first, then the discard."""
    state = start(PINK_GREEN, ["pink-2", "pink-2", "pink-5", "pink-5", "pink-6", "pink-6",
                               "pink-7", "pink-7", "pink-8", "pink-8"])
    state = play(state, *[f"flip {s}" for s in range(10)])
    assert state.hands[0] == 2 and state.phase is Phase.SWEEP and state.sweep_row == 2


# --- the end --------------------------------------------------------------------------------


def _both_fill(b_sweeps: tuple[str, str, str] = ("-", "-", "-")):
    """Two players, pink first: pink fills her board (nine pink + purple pairs), then green fills
    hers in her last turn (nine green + purple pairs), sweeping row 0 as told."""
    pink = [t for i in range(9) for t in (f"pink-{i}", f"purple-{i}")]
    green = [t for i in range(9) for t in (f"green-{i}", f"purple-{i}")]
    state = start(PINK_GREEN, pink + green)
    for player, base, sweeps in ((0, 0, ("-",) * 3), (1, 18, b_sweeps)):
        for i in range(9):
            state = play(state, f"flip {base + 2 * i}", f"flip {base + 2 * i + 1}")
            if i % 3 == 2:
                row = ROWS[i // 3]
                chosen = sweeps if i == 2 else ("-", "-", "-")
                state = play(state, *[f"sweep {item} {c}" for item, c in zip(row, chosen)])
        if player == 0:
            assert state.triggered_by == 0
            illegal(state, Flip(40), "MK-END-1")
        assert state.phase is Phase.ENDING and state.current == player
        state = play(state, "end")
    return state


@checks("MK-END-1")
def test_MK_END_1_full_board_flips_no_more_and_stands() -> None:
    """MK-END-1: a full board triggers the end: no more flips, a last tutor visit is offered,
    and the end stands when that visit empties an item space."""
    two = configure(2, "pink,green")
    state = start(two, [t for i in range(9) for t in (f"pink-{i}", f"green-{i}")], first_player=1)
    state = play(state, "one-san 0", "stop", "flip 30", "flip 32")  # green: a look, a mismatch
    for i in range(9):
        state = play(state, f"flip {2 * i}", f"flip {2 * i + 1}")
        if i % 3 == 2:
            state = play(state, *[f"sweep {item} -" for item in ROWS[i // 3]])
    assert state.phase is Phase.ENDING and state.triggered_by == 0 and state.hands[0] == 4
    assert any(isinstance(d, Sabanto) for d in legal_actions(state))
    assert legal_actions(state)[-1] == EndTurn()
    state = play(state, "sabanto 0 green")
    assert state.boards[0][at(0, 3)] == 0  # item space 0 still holds the pink tile
    assert state.result is not None and state.result.reason is Reason.FULL_BOARD


@checks("MK-TURN-2", "MK-END-1", "MK-END-2")
def test_MK_END_1_the_ending_step_ends_the_turn_in_one_draft() -> None:
    """MK-TURN-2, MK-END-1: the explicit ending step ("end") ends the turn: the next player's
    first flip, no visit made and no look yet, or, after the turn of the player before the
    first (MK-END-2), the end of the game. Played in one :class:`Draft`, as random games and
    record replays play a whole game, and compared with ``apply``: a draft whose "end" does
    nothing fails here at once, not only in the agreement tests' games that fill a board."""
    three = Config.make(3)
    pairs = [t for i in range(9) for t in (f"white-{i}", f"green-{i}")]
    state = start(three, ["pink-0", "pink-1", *pairs, "pink-2", "pink-3"])
    state = play(state, "flip 0", "flip 1")  # player 0: a mismatch
    draft = Draft.of(state)
    for i in range(9):  # player 1 fills her board
        draft.play(Flip(2 + 2 * i))
        draft.play(Flip(3 + 2 * i))
        if i % 3 == 2:
            for item in ROWS[i // 3]:
                draft.play(Sweep(item, None))
    before = draft.freeze()
    assert before.phase is Phase.ENDING and before.current == 1 and before.triggered_by == 1
    assert EndTurn() in legal_actions(before)
    draft.play(EndTurn())
    after = draft.freeze()
    assert (after.current, after.turn, after.phase, after.visited, after.looks) == \
        (2, before.turn + 1, Phase.FIRST, False, ())
    assert after.steps[-1].decision == EndTurn() and after.steps[-1].player == 1
    assert apply(before, EndTurn()) == after
    # Two players, player 1 first: player 0's ending step is the last of the game.
    two = configure(2, "pink,green")
    state = start(two, [t for i in range(9) for t in (f"pink-{i}", f"green-{i}")],
                  first_player=1)
    state = play(state, "flip 30", "flip 32")  # green: a mismatch
    draft = Draft.of(state)
    for i in range(9):
        draft.play(Flip(2 * i))
        draft.play(Flip(2 * i + 1))
        if i % 3 == 2:
            for item in ROWS[i // 3]:
                draft.play(Sweep(item, None))
    before = draft.freeze()
    assert before.phase is Phase.ENDING and before.current == 0 and before.result is None
    draft.play(EndTurn())
    after = draft.freeze()
    assert after.phase is Phase.OVER and after.result is not None
    assert after.result.reason is Reason.FULL_BOARD and apply(before, EndTurn()) == after


@checks("MK-END-2")
def test_MK_END_2_last_turns_up_to_the_player_before_the_first() -> None:
    """MK-END-2: after the triggering turn, each later player up to the one before the first
    player takes one last turn; then the game ends (full-board), with equal turns for all."""
    three = Config.make(3)
    pairs = [t for i in range(9) for t in (f"white-{i}", f"green-{i}")]
    state = start(three, ["pink-0", "pink-1", *pairs, "pink-2", "pink-3"])
    state = play(state, "flip 0", "flip 1")  # player 0: a mismatch
    for i in range(9):  # player 1 fills her board
        state = play(state, f"flip {2 + 2 * i}", f"flip {3 + 2 * i}")
        if i % 3 == 2:
            state = play(state, *[f"sweep {item} -" for item in ROWS[i // 3]])
    state = play(state, "end")
    assert state.triggered_by == 1 and state.current == 2 and state.result is None
    state = play(state, "flip 20", "flip 21")  # player 2's last turn
    assert state.result is not None and state.result.reason is Reason.FULL_BOARD
    inv.last_turns_are_equal(state)


@checks("MK-END-3")
def test_MK_END_3_full_board_in_a_last_turn() -> None:
    """MK-END-3: a player who fills her board in her last turn also flips no more."""
    state = _both_fill()
    assert state.result is not None and state.result.reason is Reason.FULL_BOARD
    assert state.steps[-1].decision == EndTurn() and state.steps[-1].player == 1


@checks("MK-END-4")
def test_MK_END_4_no_face_down_tile_ends_the_game() -> None:
    """MK-END-4: when a flip is due and no face-down tile is left, the game ends at once and is
    scored (found in seeded random games, as the first flip and as the second)."""
    found = {}
    for seed in range(400):
        final = random_game(Config.make(2), seed)
        if final.result.reason is Reason.NO_FACE_DOWN:
            found.setdefault(final.pending is None, final)
        if len(found) == 2:
            break
    assert set(found) == {True, False}
    for final in found.values():
        assert DOWN not in final.spaces and final.phase is Phase.OVER
        assert final.result.scores == tuple(
            2 * sum(b[c::4]) - sum(b) for b, c in zip(final.boards, final.config.colours))
        last = final.steps[-1].decision
        assert isinstance(last, (Flip, Danna, Sweep, OneSanStop, Sabanto, OkaSan))


@checks("MK-END-5")
def test_MK_END_5_no_other_end_and_nothing_after_it() -> None:
    """MK-END-5: a player who mismatches on purpose while pairs lie face down keeps the game
    going for ever (a turn limit is a tool's); after the end no decision is accepted."""
    state = start(PINK_GREEN, [])
    for _ in range(300):
        down = state.face_down()
        if state.phase is Phase.FIRST:
            state = apply(state, Flip(down[0]))
        else:
            first = state.layout[state.pending] % 9
            space = next(s for s in down if state.layout[s] != FRIEND
                         and state.layout[s] % 9 != first)
            state = apply(state, Flip(space))
    assert state.result is None and state.turn == 150 and not is_static(state)
    final = random_game(Config.make(2), 1)
    illegal(final, Flip(0), "MK-END-5")


# --- the static position --------------------------------------------------------------------


def _static_games() -> list:
    return [g for g in (random_game(Config.make(n), seed) for n in (2, 3, 4) for seed in range(8))
            if g.result.reason is Reason.STATIC]


@checks("MK-STATIC-1")
def test_MK_STATIC_1_definition_holds_at_a_static_end() -> None:
    """MK-STATIC-1: at a static end nobody holds a token, no face-down tile is a friend, no two
    share an item, the end is not triggered; the state before was not static."""
    games = _static_games()
    assert len(games) >= 5
    for final in games:
        down = [final.layout[s] for s in final.face_down()]
        assert not any(final.hands) and FRIEND not in down and final.triggered_by is None
        assert len({c % 9 for c in down}) == len(down)
        before = apply(new_game(final.config, final.first_player), Layout(final.layout))
        for step in final.steps[:-1]:
            before = apply(before, step.decision)
        assert not is_static(before)


@checks("MK-STATIC-2")
def test_MK_STATIC_2_every_random_state_that_goes_on_is_not_static() -> None:
    """MK-STATIC-2: no state reached by play that goes on is static; the static end is scored
    like any other."""
    for n in (2, 3, 4):
        state = start(Config.make(n), [], first_player=n - 1)
        rng = random.Random(100 + n)
        while state.phase is not Phase.OVER and state.turn < 1500:
            inv.no_open_position_is_static(state)
            state = apply(state, rng.choice(legal_actions(state)))
        assert state.phase is Phase.OVER
        inv.result_follows_the_boards(state)


@checks("MK-STATIC-3")
def test_MK_STATIC_3_static_test_uses_public_information_only() -> None:
    """MK-STATIC-3: the face-down multiset is the game's tiles minus what is on view, in every
    state of a game, so the static test is the same for every resampled layout."""
    final = random_game(Config.make(3), 7)
    state = apply(new_game(final.config, final.first_player), Layout(final.layout))
    for step in final.steps:
        inv.static_test_is_public(state)
        state = apply(state, step.decision)


# --- scoring --------------------------------------------------------------------------------


@checks("MK-SCORE-1")
def test_MK_SCORE_1_points() -> None:
    """MK-SCORE-1: +1 per tile of one's colour, -1 per other tile, every layer."""
    state = _both_fill(("-", "-", "-"))
    assert state.result.scores == (0, 0) and state.result.own == (9, 9)


@checks("MK-SCORE-2")
def test_MK_SCORE_2_most_points_wins() -> None:
    """MK-SCORE-2: the most points wins."""
    state = _both_fill(("purple", "-", "-"))
    assert state.result.scores == (0, 1) and state.result.winners == (1,)


@checks("MK-SCORE-3")
def test_MK_SCORE_3_own_colour_breaks_a_tie() -> None:
    """MK-SCORE-3: on equal points, the most tiles of one's own colour wins."""
    state = _both_fill(("green", "purple", "-"))
    assert state.result.scores == (0, 0) and state.result.own == (9, 8)
    assert state.result.winners == (0,)


@checks("MK-SCORE-4")
def test_MK_SCORE_4_shared_victory() -> None:
    """MK-SCORE-4: players still tied share the victory, and the result names them all."""
    state = _both_fill()
    assert state.result.winners == (0, 1)
    inv.result_follows_the_boards(state)


# --- hidden information ---------------------------------------------------------------------


@checks("MK-INFO-1")
def test_MK_INFO_1_public_information() -> None:
    """MK-INFO-1: flips, friends, boards, tokens, discards, the box and every decision are in
    every player's view."""
    state = start(PINK_GREEN, ["pink-0", "green-0", "friend", "purple-4", "purple-5"])
    state = play(state, "flip 0", "flip 1", "sabanto 0 green", "flip 2", "flip 3", "flip 4")
    view = observe(state, 0)
    other = observe(state, 1)
    assert view.boards == other.boards == state.boards
    assert view.hands == state.hands and view.cards == state.cards and view.pool == state.pool
    assert view.discarded == (parse_tile("green-0"),) and len(view.box) == 21
    assert view.board[2] == FRIEND and [s.decision for s in view.log] == \
        [s.decision for s in other.log] == [step.decision for step in state.steps]
    assert view.known() == other.known()


@checks("MK-INFO-2")
def test_MK_INFO_2_face_down_tiles_hidden() -> None:
    """MK-INFO-2: face-down tiles are hidden from both players; resampling what a player has not
    seen never changes their view (nor the legal decisions)."""
    state = play(start(PINK_GREEN, ["pink-1", "green-2"]), "flip 0", "flip 1", "one-san 7")
    view = observe(state, 0)  # green looked at space 7, pink did not
    assert view.board[0] == HIDDEN and view.board[7] == HIDDEN and 7 not in view.known()
    inv.views_do_not_leak(state, random.Random(3))


@checks("MK-INFO-3")
def test_MK_INFO_3_perfect_recall() -> None:
    """MK-INFO-3: tiles flipped and turned back stay in the view with their spaces, for ever."""
    state = start(PINK_GREEN, ["pink-1", "green-2", "pink-3", "green-4"])
    state = play(state, "flip 0", "flip 1", "flip 2", "flip 3")
    for player in (0, 1):
        assert observe(state, player).known() == {
            0: parse_tile("pink-1"), 1: parse_tile("green-2"), 2: parse_tile("pink-3"),
            3: parse_tile("green-4")}
    assert all(v == HIDDEN for v in observe(state, 0).board)


@checks("MK-COMP-5", "MK-COMP-1")
def test_invalid_decisions_are_not_illegal_ones() -> None:
    """MK-COMP-5, MK-COMP-1: malformed decisions raise InvalidActionError, not the illegal one."""
    state = start(Config.make(4), [])
    for bad in (OkaSan(7, 0), OkaSan(1, 9), Sabanto(9, Colour.PINK), Sabanto(0, 2),
                Danna(81), OneSan(True)):
        with pytest.raises(InvalidActionError):
            apply(state, bad)  # type: ignore[arg-type]
    assert not isinstance(InvalidActionError("x"), IllegalActionError)
