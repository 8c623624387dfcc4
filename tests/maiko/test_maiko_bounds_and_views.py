"""Checks that the engine's shortcuts and bounds cannot drift unnoticed: views of a branching game
(sibling states, a shorter state after a longer one) equal views built without the log cache;
items are bounded at both ends in the engine and in JSON; ``Config.make`` takes colours as
members, numbers or names alike; tile codes split into item and colour; a layout inside a turn
is malformed, as the schema says.
"""

from __future__ import annotations

import json
import random

import pytest

from hanamikoji.engine.core.errors import InvalidActionError
from hanamikoji.engine.core.game import MalformedRecordError
from hanamikoji.engine.core.codec import dumps
from hanamikoji.engine.maiko import (
    FRIEND,
    Colour,
    Config,
    OkaSan,
    Sabanto,
    Sweep,
    apply,
    colour_of,
    item_of,
    legal_actions,
    observe,
    read_record,
    tile,
    to_record,
)
from hanamikoji.engine.maiko import view as view_module
from hanamikoji.engine.maiko.game import Phase, State
from hanamikoji.engine.maiko.record import decision_from_json
from hanamikoji.engine.maiko.view import View, view_text, view_to_json
from hanamikoji.properties.core.cite import checks
from hanamikoji.properties.maiko.scenarios import configure, play, random_game, start

# --- views of a branching game ----------------------------------------------------------------


def uncached(state: State, player: int) -> View:
    """``player``'s view of ``state`` built from the first step, with an empty log cache (the
    cache of the calls under test is left as it was)."""
    kept = view_module._LOGS
    view_module._LOGS = {}
    try:
        return observe(state, player)
    finally:
        view_module._LOGS = kept


def _tree(players: int, seed: int) -> list[State]:
    """States of one position's subtree, in an order that visits siblings, their children, and
    shorter states after longer ones: a root, two children, a grandchild of each, and back."""
    rng = random.Random(seed)
    state = start(Config.make(players), [], first_player=seed % players)
    while True:
        for _ in range(rng.randrange(3, 25)):
            if state.phase is Phase.OVER:
                break
            state = apply(state, rng.choice(legal_actions(state)))
        menu = legal_actions(state) if state.phase is not Phase.OVER else ()
        if len(menu) >= 2:
            break
        state = start(Config.make(players), [], first_player=seed % players)
    first, second = (apply(state, d) for d in rng.sample(menu, 2))
    grand = [apply(child, rng.choice(legal_actions(child))) for child in (first, second)
             if child.phase is not Phase.OVER]
    assert grand, "no child goes on"
    return [state, first, second, *grand, first, *grand[::-1], second, state, first]


@checks("MK-INFO-1", "MK-INFO-2", "MK-INFO-3")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_views_of_siblings_and_shorter_states_equal_uncached_views(players: int) -> None:
    """MK-INFO-1..3: in a branching game (two decisions from one position, their children, then
    back to the root), every player's view of every state, asked in that order, is the view
    built without the log cache, and its JSON text, asked twice, is the canonical text of that
    view."""
    for seed in range(4):
        states = _tree(players, seed)
        expected = {(id(s), p): uncached(s, p) for s in states for p in range(players)}
        for state in states:
            for player in range(players):
                view = observe(state, player)
                want = expected[id(state), player]
                assert view == want, (players, seed, player, len(state.steps))
                assert [s.decision for s in view.log] == [s.decision for s in state.steps]
                text = dumps(view_to_json(want))
                assert view_text(view) == text and view_text(view) == text  # again: cached


# --- item bounds ------------------------------------------------------------------------------


def _white_on_items_0_and_8() -> State:
    """Player 0 (white) with a white tile on item 0 and on item 8, its turn going on."""
    state = start(configure(2, "white,purple"), ["white-8", "purple-8", "white-0", "purple-0"])
    state = play(state, "flip 0", "flip 1", "flip 2", "flip 3")
    board = state.boards[0]
    assert state.current == 0 and board[8 * 4 + Colour.WHITE] and board[0 * 4 + Colour.WHITE]
    return state


@checks("MK-COMP-1")
@pytest.mark.parametrize("item", [-1, 9, -9, 10])
def test_an_item_outside_0_to_8_is_not_a_decision(item: int) -> None:
    """MK-COMP-1: items are 0 to 8; -1 is not item 8 (Python's negative index), for Sabanto
    and Oka-san alike, and nothing reaches the discard pile."""
    state = _white_on_items_0_and_8()
    for decision in (Sabanto(item, Colour.WHITE), OkaSan(1, item)):
        with pytest.raises(InvalidActionError) as caught:
            apply(state, decision)
        assert caught.value.rule == "MK-COMP-1", str(caught.value)


@checks("MK-COMP-1", "MK-TUTOR-SABANTO-1")
def test_items_0_and_8_are_decisions() -> None:
    """MK-COMP-1, MK-TUTOR-SABANTO-1: both end items are taken, and discard their own tile."""
    state = _white_on_items_0_and_8()
    for item in (0, 8):
        assert Sabanto(item, Colour.WHITE) in legal_actions(state)
        after = apply(state, Sabanto(item, Colour.WHITE))
        assert after.discarded == (tile(Colour.WHITE, item),)


@checks("MK-ROW-3")
def test_a_sweep_item_outside_0_to_8_is_not_a_decision() -> None:
    """MK-ROW-3, MK-COMP-1: in a row discard, items -1 and 9 are not decisions (not illegal
    items of the wrong space)."""
    rng = random.Random(7)
    state = start(Config.make(2), [])
    while state.phase is not Phase.SWEEP:
        if state.phase is Phase.OVER:
            state = start(Config.make(2), [])
        state = apply(state, rng.choice(legal_actions(state)))
    for item in (-1, 9):
        with pytest.raises(InvalidActionError) as caught:
            apply(state, Sweep(item, None))
        assert caught.value.rule == "MK-COMP-1"


@checks("MK-COMP-1")
@pytest.mark.parametrize("obj, path", [
    ({"kind": "sweep", "item": 9, "colour": None}, "$.item"),
    ({"kind": "sweep", "item": -1, "colour": None}, "$.item"),
    ({"kind": "sabanto", "item": 9, "colour": "white"}, "$.item"),
    ({"kind": "sabanto", "item": -1, "colour": "white"}, "$.item"),
    ({"kind": "oka-san", "owner": 0, "item": 9}, "$.item"),
    ({"kind": "oka-san", "owner": 0, "item": -1}, "$.item"),
    ({"kind": "oka-san", "owner": 4, "item": 0}, "$.owner"),
    ({"kind": "oka-san", "owner": -1, "item": 0}, "$.owner"),
    ({"kind": "flip", "space": -1}, "$.space"),
    ({"kind": "layout", "tiles": 5}, "$.tiles"),
    ({"kind": "layout", "tiles": "pink-0"}, "$.tiles"),
])
def test_json_bounds_and_types_at_both_ends(obj, path: str) -> None:
    """MK-COMP-1: JSON items are 0 to 8, owners 0 to 3, spaces from 0; ``tiles`` is a list."""
    with pytest.raises(InvalidActionError) as caught:
        decision_from_json(obj)
    assert caught.value.message.startswith(path + ":"), caught.value.message


@checks("MK-COMP-1")
def test_json_end_values_are_decisions() -> None:
    """MK-COMP-1: items 0 and 8, owners 0 and 3, spaces 0 and 80 read."""
    assert decision_from_json({"kind": "sweep", "item": 8, "colour": None}) == Sweep(8, None)
    assert decision_from_json({"kind": "sabanto", "item": 0, "colour": "green"}) == \
        Sabanto(0, Colour.GREEN)
    assert decision_from_json({"kind": "oka-san", "owner": 3, "item": 8}) == OkaSan(3, 8)
    assert decision_from_json({"kind": "oka-san", "owner": 0, "item": 0}) == OkaSan(0, 0)
    for space in (0, 80):
        assert decision_from_json({"kind": "flip", "space": space}).space == space


# --- configurations ---------------------------------------------------------------------------


@checks("MK-SETUP-1", "MK-SETUP-4")
@pytest.mark.parametrize("names, removed", [
    (["pink", "green"], "white"), (["white", "purple"], "green"), (["green", "white"], None),
    (["purple", "pink", "green"], None), (["green", "pink", "white", "purple"], None),
])
def test_config_from_members_numbers_and_names_is_the_same(names, removed) -> None:
    """MK-SETUP-1, MK-SETUP-4: colours given as Colour members, as numbers or as names make the
    same configuration; a 2-player game keeps its removed colour out (60 tiles)."""
    members = [Colour[n.upper()] for n in names]
    removed_member = None if removed is None else Colour[removed.upper()]
    by_name = Config.make(len(names), names, removed)
    by_member = Config.make(len(names), members, removed_member)
    by_number = Config.make(len(names), [int(c) for c in members],
                            None if removed_member is None else int(removed_member))
    assert by_member == by_name == by_number
    assert by_member.colours == tuple(members)
    assert all(type(c) is Colour for c in by_member.colours)
    if len(names) == 2:
        assert by_member.removed_colour is not None and by_member.removed_colour not in members
        if removed is not None:
            assert by_member.removed_colour is removed_member
        assert len(by_member.tiles) == 60
        assert not any(code != FRIEND and colour_of(code) is by_member.removed_colour
                       for code in by_member.tiles)
    else:
        assert by_member.removed_colour is None and len(by_member.tiles) == 81


@checks("MK-COMP-1")
def test_item_and_colour_of_every_item_tile() -> None:
    """MK-COMP-1: an item tile's code splits back into its colour and item."""
    for colour in Colour:
        for item in range(9):
            code = tile(colour, item)
            assert (item_of(code), colour_of(code)) == (item, colour)
    assert sorted(tile(c, i) for c in Colour for i in range(9)) == list(range(FRIEND))


# --- a layout inside a turn -------------------------------------------------------------------


@checks("MK-SETUP-5")
def test_a_layout_step_in_a_turn_is_malformed() -> None:
    """MK-SETUP-5: a well-formed layout decision as a step of a turn is malformed (the schema
    has no layout step; the layout is the record's ``layout``), not an illegal decision."""
    record = json.loads(json.dumps(to_record(random_game(Config.make(2), 3))))
    record["turns"][1]["steps"].insert(0, {"kind": "layout", "tiles": record["layout"]})
    with pytest.raises(MalformedRecordError) as caught:
        read_record(record)
    assert caught.value.path == "$.turns[1].steps[0].kind", str(caught.value)


def test_the_view_cache_stays_bounded():
    """The log cache keeps at most _LOGS_KEPT logs whatever the number of games viewed (one
    entry a layout and player): memory stays flat over a long validate or diff."""
    kept = view_module._LOGS
    view_module._LOGS = {}
    try:
        for seed in range(3 * view_module._LOGS_KEPT):
            state = start(Config.make(2), [], first_player=seed % 2)
            observe(state, 0)
            assert len(view_module._LOGS) <= view_module._LOGS_KEPT
    finally:
        view_module._LOGS = kept


def test_decisions_are_in_a_strict_order():
    """Decisions sort by their sort key, strictly: no decision is greater (or less) than
    itself, and a > b exactly when b < a (menus are sorted lists of them)."""
    rng = random.Random(3)
    state = start(Config.make(3), [], first_player=1)
    menus = []
    while state.phase is not Phase.OVER and len(menus) < 40:
        menu = legal_actions(state)
        menus.append(menu)
        state = apply(state, rng.choice(menu))
    decisions = [d for menu in menus for d in menu[:5]]
    assert len(decisions) > 50
    for a in decisions:
        assert not a > a and not a < a and a >= a and a <= a
    for a, b in zip(decisions, decisions[1:]):
        assert (a > b) == (b < a) and (a >= b) == (b <= a)
        assert (a > b) or (a < b) or a.sort_key() == b.sort_key()
