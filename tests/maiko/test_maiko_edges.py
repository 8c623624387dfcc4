"""Edges of Maiko's engine that whole random games do not reach or do not look at: what
``new_game`` and the options take, and the bounds their errors tell people."""

from __future__ import annotations

import json
import operator

import pytest

from hanamikoji.engine.core.errors import InvalidActionError, OptionError
from hanamikoji.engine.core.game import IllegalRecordError, MalformedRecordError
from hanamikoji.engine.maiko import (
    Colour,
    Config,
    Danna,
    Flip,
    Layout,
    Tutor,
    new_game,
    observe,
    read_record,
    to_record,
)
from hanamikoji.engine.maiko.record import make_config
from hanamikoji.properties.core.cite import checks
from hanamikoji.engine.maiko.view import view_to_json
from hanamikoji.properties.maiko.scenarios import configure, play, random_game, start


@pytest.mark.parametrize("config", [None, 2, "maiko", {"players": 2}])
def test_new_game_takes_only_a_config(config) -> None:
    """Anything but a Config is an InvalidActionError saying a Config was expected."""
    with pytest.raises(InvalidActionError) as caught:
        new_game(config)  # type: ignore[arg-type]
    assert "expected a maiko Config" in str(caught.value)


@checks("MK-SETUP-6")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_first_player_out_of_range_names_the_range(players: int) -> None:
    """MK-SETUP-6: the first player is 0 to N-1; the error says so for this N."""
    config = Config.make(players)
    for first in (-1, players, True, "0"):
        with pytest.raises(InvalidActionError) as caught:
            new_game(config, first)  # type: ignore[arg-type]
        assert caught.value.rule == "MK-SETUP-6"
        assert f"from 0 to {players - 1}, not {json.dumps(first)}" in str(caught.value)
    assert [new_game(config, p).first_player for p in range(players)] == list(range(players))


@checks("MK-SETUP-4")
@pytest.mark.parametrize("removed", [2, 3, True, ["pink"]])
def test_option_values_are_text(removed) -> None:
    """MK-SETUP-4: the removed_colour option is a colour's name (or ''), never a number that
    Config.make would take as a colour: 2 is not pink."""
    with pytest.raises(OptionError) as caught:
        make_config({"players": 2, "colours": "", "removed_colour": removed})
    assert "option removed_colour takes a colour name" in str(caught.value)
    with pytest.raises(OptionError) as caught:
        make_config({"players": 2, "colours": removed, "removed_colour": ""})
    assert "option colours takes names" in str(caught.value)
    assert make_config({"players": 2, "colours": "", "removed_colour": "pink"}) == Config.make(2)


@pytest.mark.parametrize("turns", [5, "ab", {"player": 0}, None])
def test_turns_that_are_not_a_list_are_malformed_at_turns(turns) -> None:
    """A record's ``turns`` that is not a list is malformed at ``$.turns`` (not at one of its
    characters, and never a TypeError), before or after the layout."""
    for players, seed in ((2, 1), (3, 2)):
        record = json.loads(json.dumps(to_record(random_game(Config.make(players), seed))))
        record["turns"] = turns
        with pytest.raises(MalformedRecordError) as caught:
            read_record(record)
        assert caught.value.path == "$.turns", str(caught.value)


@pytest.mark.parametrize("key, value", [("scores", ["3", 2]), ("own_colour", [True, 0]),
                                        ("winners", [0.5]), ("scores", [None, 1])])
def test_result_lists_hold_whole_numbers(key: str, value) -> None:
    """A recorded result's winners, scores and own-colour counts are lists of whole numbers:
    text, booleans, fractions and null are malformed there."""
    record = json.loads(json.dumps(to_record(random_game(Config.make(2), 1))))
    record["result"][key] = value
    with pytest.raises(MalformedRecordError) as caught:
        read_record(record)
    assert caught.value.path == f"$.result.{key}", str(caught.value)


def test_decisions_order_among_themselves_only() -> None:
    """Decisions compare by kind, then fields, under each of < <= > >=; against anything else
    the comparison is a TypeError, as for any two unrelated Python values."""
    small, large = Flip(2), Danna(0)
    assert small < large and small <= large and large > small and large >= small
    assert small <= Flip(2) and small >= Flip(2) and not small < Flip(2)
    layouts = [Layout((1, 0)), Layout((0, 2)), Layout((0, 1))]
    assert sorted(layouts) == [Layout((0, 1)), Layout((0, 2)), Layout((1, 0))]
    assert Layout((1, 0)) < small  # the layout, the chance outcome, sorts first
    for other in (3, "flip 2", None, (1, 2)):
        for compare in (operator.lt, operator.le, operator.gt, operator.ge):
            with pytest.raises(TypeError):
                compare(small, other)


def test_colour_and_tutor_reprs_are_python() -> None:
    """The reprs of colours and tutors are expressions that give them back."""
    for member in (*Colour, *Tutor):
        assert repr(member) == f"{type(member).__name__}.{member.name}"
        assert eval(repr(member), {"Colour": Colour, "Tutor": Tutor}) is member


@pytest.mark.parametrize("key", ["x", "variant", "Players"])
def test_an_unknown_option_is_malformed(key: str) -> None:
    """A record's options are players, colours and removed_colour; any other key is malformed
    at its path (the schema allows no other), not ignored."""
    record = json.loads(json.dumps(to_record(random_game(Config.make(3), 2))))
    record["options"][key] = 1
    with pytest.raises(MalformedRecordError) as caught:
        read_record(record)
    assert caught.value.path == f"$.options.{key}", str(caught.value)


@pytest.mark.parametrize("with_turns, with_result", [(True, False), (False, True), (True, True)])
def test_play_without_a_layout_is_illegal(with_turns: bool, with_result: bool) -> None:
    """MK-SETUP-5: the layout comes first: turns, or a result, with a null layout are illegal."""
    final = json.loads(json.dumps(to_record(random_game(Config.make(2), 1))))
    record = {**final, "layout": None, "turns": final["turns"] if with_turns else []}
    if not with_result:
        record.pop("result")
    with pytest.raises(IllegalRecordError) as caught:
        read_record(record)
    assert caught.value.rule == "MK-SETUP-5"


def test_a_views_maiko_boards_in_json_name_their_tiles() -> None:
    """A view's maiko boards in JSON: per player, nine lists (item 0 first) of the tile names on
    that item space, colours in the book's order."""
    state = play(start(configure(2, "white,purple"), ["purple-8", "white-8"]), "flip 0", "flip 1")
    boards = view_to_json(observe(state, 1))["maiko_boards"]
    assert boards[0] == [[]] * 8 + [["white-8", "purple-8"]] and boards[1] == [[]] * 9
    state = play(start(configure(2, "pink,green"), ["green-8", "pink-8"]), "flip 0", "flip 1")
    boards = view_to_json(observe(state, 0))["maiko_boards"]
    assert boards[0] == [[]] * 8 + [["pink-8", "green-8"]]  # green, the last colour, too


@pytest.mark.parametrize("obj", [[], 5, "maiko-record/1", None, ["format"]])
def test_a_record_that_is_not_an_object_is_malformed_at_the_root(obj) -> None:
    """Anything but a JSON object is malformed at ``$`` (never an AttributeError)."""
    with pytest.raises(MalformedRecordError) as caught:
        read_record(obj)
    assert caught.value.path == "$" and "expected a record object" in str(caught.value)


@checks("MK-SETUP-1")
def test_config_make_defaults_to_two_players() -> None:
    """MK-SETUP-1: ``Config.make()`` is the 2-player game, with its default colours."""
    assert Config.make() == Config.make(2) == Config.make(2, None, None)
    assert Config.make().players == 2 and len(Config.make().colours) == 2


def test_a_draft_refuses_what_is_not_a_decision() -> None:
    """``Draft.play`` refuses junk as ``apply`` does, with an InvalidActionError, and nothing
    changes."""
    from hanamikoji.engine.maiko.game import Draft

    state = random_game(Config.make(3), 4)
    draft = Draft.of(state)
    for junk in ("junk", None, 3, ("flip", 0)):
        with pytest.raises(InvalidActionError, match="not a maiko decision"):
            draft.play(junk)  # type: ignore[arg-type]
    assert draft.freeze() == state


@checks("MK-TURN-2")
def test_a_record_cutting_a_turn_or_running_one_on_says_which() -> None:
    """MK-TURN-2: a turn's steps split in two turns leave the first turn unfinished when the
    second starts; two turns' steps joined in one run past the end of the first."""
    record = json.loads(json.dumps(to_record(random_game(Config.make(2), 1))))
    t = next(i for i, turn in enumerate(record["turns"]) if len(turn["steps"]) >= 2)
    turn = record["turns"][t]
    split = json.loads(json.dumps(record))
    split["turns"][t:t + 1] = [{"player": turn["player"], "steps": turn["steps"][:1]},
                               {"player": turn["player"], "steps": turn["steps"][1:]}]
    with pytest.raises(IllegalRecordError) as caught:
        read_record(split)
    assert caught.value.rule == "MK-TURN-2"
    assert f"turn {t} is not over: the record starts turn {t + 1}" in str(caught.value)
    joined = json.loads(json.dumps(record))
    joined["turns"][t:t + 2] = [{"player": turn["player"],
                                 "steps": turn["steps"] + record["turns"][t + 1]["steps"]}]
    with pytest.raises(IllegalRecordError) as caught:
        read_record(joined)
    assert caught.value.rule == "MK-TURN-2"
    assert f"turn {t} ended before this step" in str(caught.value)


@checks("MK-COMP-1", "MK-COMP-5", "MK-SETUP-1")
@pytest.mark.parametrize("kind, key, others, high", [
    ("flip", "space", {}, 80), ("danna", "space", {}, 80), ("one-san", "space", {}, 80),
    ("oka-san", "owner", {"item": 0}, 3), ("oka-san", "item", {"owner": 0}, 8),
    ("sabanto", "item", {"colour": "white"}, 8), ("sweep", "item", {"colour": None}, 8)])
def test_a_decision_number_out_of_range_names_its_range(kind, key, others, high) -> None:
    """MK-COMP-5 spaces 0 to 80, MK-COMP-1 items 0 to 8, MK-SETUP-1 players 0 to 3: a number out
    of range in a decision's JSON is refused, the message giving the range it takes (from 0,
    whichever side it falls off); the range's ends are decisions."""
    from hanamikoji.engine.maiko.record import decision_from_json

    for bad in (-1, high + 1):
        with pytest.raises(InvalidActionError) as caught:
            decision_from_json({"kind": kind, key: bad, **others}, "$")
        assert f"$.{key}: expected a whole number from 0 to {high}, not {bad}" in str(caught.value)
    for good in (0, high):
        assert decision_from_json({"kind": kind, key: good, **others}, "$") is not None
