"""Maiko's JSON forms and the record format maiko-record/1: exact round trips for 2, 3 and 4
players, the schema, and records that are malformed or illegal (with the rule and where)."""

from __future__ import annotations

import copy
import json
import pathlib

import pytest

from hanamikoji.engine.core.errors import InvalidActionError
from hanamikoji.engine.core.game import IllegalRecordError, MalformedRecordError
from hanamikoji.engine.maiko import GAME, Config, legal_actions, read_record, to_record
from hanamikoji.engine.maiko.record import record_schema, schema_text
from hanamikoji.properties.maiko.scenarios import configure, play, random_game, random_states, start
from hanamikoji.properties.core.cite import checks

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _json(obj):
    return json.loads(json.dumps(obj))


@checks("MK-SETUP-5", "MK-SETUP-6", "MK-SCORE-1")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_record_round_trip_is_exact(players: int) -> None:
    """MK-SETUP-5, MK-SETUP-6, MK-SCORE-1: a record (options, first player, layout, every
    decision, the result with scores, own-colour counts and winners) reads back to the same
    state and writes again to the same JSON, finished or not."""
    for seed in range(3):
        states = list(random_states(Config.make(players), seed))
        for state in states[::97] + [states[-1]]:
            record = _json(to_record(state))
            again = read_record(record)
            assert again == state
            assert _json(to_record(again)) == record
        final = states[-1]
        record = to_record(final)
        assert record["result"]["scores"] == list(final.result.scores)
        assert record["result"]["own_colour"] == list(final.result.own)
        assert len(record["turns"]) == GAME.length(final)[1]


@checks("MK-SETUP-1", "MK-SETUP-4")
def test_record_options_round_trip() -> None:
    """MK-SETUP-1, MK-SETUP-4: the options of a record are those of the game."""
    config = configure(2, "green,pink", "purple")
    state = play(start(config, []), "flip 0", "flip 5")
    record = to_record(state)
    assert record["options"] == {"players": 2, "colours": "green,pink", "removed_colour": "purple"}
    assert read_record(_json(record)).config == config
    assert GAME.configure(record["options"]) == config
    for config in (Config.make(3), Config.make(4, ["green", "pink", "white", "purple"])):
        assert GAME.configure(GAME.options_of(config)) == config


@checks("MK-SETUP-5")
def test_schema_file_is_current_and_records_validate() -> None:
    """MK-SETUP-5: spec/maiko/record.schema.json is the engine's schema, and written records
    (and only well-shaped ones) validate against it."""
    jsonschema = pytest.importorskip("jsonschema")
    assert (ROOT / "spec" / "maiko" / "record.schema.json").read_text(encoding="utf-8") == schema_text()
    validator = jsonschema.Draft202012Validator(record_schema())
    jsonschema.Draft202012Validator.check_schema(record_schema())
    for players in (2, 3, 4):
        validator.validate(_json(to_record(random_game(Config.make(players), players))))
    bad = _json(to_record(random_game(Config.make(2), 1)))
    bad["turns"][0]["steps"][0] = {"kind": "flip", "space": "3"}
    assert not validator.is_valid(bad)


@checks("MK-ROW-3", "MK-TUTOR-1")
def test_decisions_round_trip_through_json() -> None:
    """MK-ROW-3, MK-TUTOR-1: every legal decision of random games writes to JSON and reads back."""
    for players in (2, 4):
        for state in list(random_states(Config.make(players), 11))[1::5]:
            for decision in legal_actions(state):
                assert GAME.decision_from_json(_json(GAME.decision_to_json(decision))) == decision


@checks("MK-COMP-1", "MK-COMP-5")
@pytest.mark.parametrize("obj, path", [
    ([], "$"),
    ({"kind": "jump"}, "$.kind"),
    ({"kind": "flip"}, "$.space"),
    ({"kind": "flip", "space": 81}, "$.space"),
    ({"kind": "flip", "space": 3, "x": 1}, "$.x"),
    ({"kind": "sabanto", "item": 2, "colour": None}, "$.colour"),
    ({"kind": "sweep", "item": 2, "colour": "Pink"}, "$.colour"),
    ({"kind": "oka-san", "owner": 1, "item": True}, "$.item"),
    ({"kind": "layout", "tiles": ["pink-9"]}, "$.tiles[0]"),
])
def test_malformed_decisions_name_their_json_path(obj, path: str) -> None:
    """MK-COMP-1, MK-COMP-5: a malformed decision is an InvalidActionError naming its path."""
    with pytest.raises(InvalidActionError) as caught:
        GAME.decision_from_json(obj)
    assert caught.value.message.startswith(path + ":") or caught.value.message.startswith(path + " "), \
        caught.value.message


def _record() -> dict:
    return _json(to_record(random_game(Config.make(3), 5)))


@checks("MK-SETUP-1")
@pytest.mark.parametrize("change, path", [
    (lambda r: r.update(format="maiko-record/2"), "$.format"),
    (lambda r: r.pop("layout"), "$.layout"),
    (lambda r: r.update(extra=1), "$.extra"),
    (lambda r: r["options"].update(players=5), "$.options.players"),
    (lambda r: r["options"].update(colours=7), "$.options.colours"),
    (lambda r: r["options"].update(colours="WHITE,PURPLE,PINK"), "$.options.colours"),
    (lambda r: r["options"].pop("removed_colour"), "$.options.removed_colour"),
    (lambda r: r.update(layout=r["layout"][:59]), "$.layout"),
    (lambda r: r["result"].update(winners=[7]), "$.result.winners"),
    # the whole shape first: a later malformed turn wins over an earlier illegal one
    (lambda r: (r["turns"][0].update(player=(r["turns"][0]["player"] + 1) % 3),
                r["turns"][3]["steps"].__setitem__(0, {"kind": "flip"})), "$.turns[3].steps[0]"),
    (lambda r: r["layout"].__setitem__(4, "gold-1"), "$.layout[4]"),
    (lambda r: r["turns"][2].update(player="1"), "$.turns[2].player"),
    (lambda r: r["turns"][1].update(steps=[]), "$.turns[1].steps"),
    (lambda r: r["turns"][1]["steps"].__setitem__(0, {"kind": "flip"}), "$.turns[1].steps[0]"),
    (lambda r: r["result"].pop("scores"), "$.result"),
])
def test_malformed_records(change, path: str) -> None:
    """MK-SETUP-1: a record of the wrong shape is malformed, at a JSON path."""
    record = _record()
    change(record)
    with pytest.raises(MalformedRecordError) as caught:
        read_record(record)
    assert caught.value.path == path, str(caught.value)


def _illegal(record: dict) -> IllegalRecordError:
    with pytest.raises(IllegalRecordError) as caught:
        read_record(record)
    return caught.value


@checks("MK-TURN-1", "MK-TURN-2", "MK-FLIP-2", "MK-END-5", "MK-SETUP-3", "MK-SETUP-4",
       "MK-SETUP-6", "MK-STATIC-2", "MK-SCORE-1", "MK-SCORE-2", "MK-SCORE-3")
def test_illegal_records_name_the_rule_and_where() -> None:
    """MK-TURN-1, MK-TURN-2, MK-FLIP-2, MK-END-5, MK-SETUP-3, MK-SETUP-4, MK-SETUP-6,
    MK-STATIC-2, MK-SCORE-1, MK-SCORE-2, MK-SCORE-3: a well-shaped record of something the
    rules forbid names the first broken rule and its turn and step."""
    record = _record()
    assert GAME.record_where == ("turn", "step")

    wrong_player = copy.deepcopy(record)
    wrong_player["turns"][3]["player"] = (wrong_player["turns"][3]["player"] + 1) % 3
    error = _illegal(wrong_player)
    assert (error.rule, error.where) == ("MK-TURN-1", {"turn": 3, "step": 0})

    merged = copy.deepcopy(record)
    merged["turns"][0]["steps"] += merged["turns"][1]["steps"]
    del merged["turns"][1]
    error = _illegal(merged)
    assert error.rule == "MK-TURN-2" and error.where["turn"] == 0

    head = {key: value for key, value in record.items() if key != "result"}
    last_start = read_record({**head, "turns": record["turns"][:-1]})
    taken = last_start.spaces.index(2)  # a space emptied before the last turn
    late = copy.deepcopy(record)
    late["turns"][-1]["steps"].insert(0, {"kind": "flip", "space": taken})
    error = _illegal(late)
    assert error.rule == "MK-FLIP-2", error
    assert error.where == {"turn": len(record["turns"]) - 1, "step": 0}

    after_end = copy.deepcopy(record)
    after_end["turns"].append({"player": 0, "steps": [{"kind": "flip", "space": 0}]})
    assert _illegal(after_end).rule == "MK-END-5"

    scores = copy.deepcopy(record)
    scores["result"]["scores"][0] += 1
    assert _illegal(scores).rule == "MK-SCORE-1"

    reason = copy.deepcopy(record)
    reason["result"]["reason"] = "no-face-down-tile" if record["result"]["reason"] != \
        "no-face-down-tile" else "static"
    assert _illegal(reason).rule in ("MK-END-2", "MK-END-4", "MK-STATIC-2")

    winners = copy.deepcopy(record)
    winners["result"]["winners"] = [p for p in range(3) if p not in record["result"]["winners"]][:1]
    assert _illegal(winners).rule in ("MK-SCORE-2", "MK-SCORE-3", "MK-SCORE-4")

    outsider = copy.deepcopy(record)  # player 3 is no player of a 3-player game: illegal
    outsider["result"]["winners"] = [0, 3]
    assert _illegal(outsider).rule in ("MK-SCORE-2", "MK-SCORE-3", "MK-SCORE-4")

    own = copy.deepcopy(record)
    own["result"]["own_colour"][1] += 1
    assert _illegal(own).rule == "MK-SCORE-3"

    layout = copy.deepcopy(record)
    layout["layout"][0] = "friend" if layout["layout"][0] != "friend" else "white-0"
    error = _illegal(layout)
    assert error.rule == "MK-SETUP-3" and error.where == {"turn": None, "step": None}

    two = _json(to_record(random_game(Config.make(2), 3)))
    two["options"]["removed_colour"] = "white"
    assert _illegal(two).rule == "MK-SETUP-4"
    two = _json(to_record(random_game(Config.make(2), 3)))
    two["first_player"] = 3
    assert _illegal(two).rule == "MK-SETUP-6"


@checks("MK-END-5")
def test_unfinished_record_with_a_result_is_illegal() -> None:
    """MK-END-5: a record that claims a result for a game that is not over is illegal."""
    record = _record()
    del record["turns"][-1]
    assert _illegal(record).rule == "MK-END-5"
    del record["result"]
    assert read_record(record).result is None


@checks("MK-INFO-1", "MK-INFO-2")
def test_view_json_is_json_and_hides_the_layout() -> None:
    """MK-INFO-1, MK-INFO-2: a view's JSON holds the public board (face down as "down"), never
    the layout, and another player's look without its tile."""
    state = play(start(configure(2), ["white-0", "purple-5"]), "one-san 0", "one-san 1", "stop")
    mine, theirs = (GAME.view_to_json(GAME.observe(state, p)) for p in (0, 1))
    json.dumps(mine)
    assert "layout" not in mine and set(mine["board"]) == {"down"}
    assert [e.get("tile") for e in mine["log"]] == ["white-0", "purple-5", None]
    assert [e.get("tile") for e in theirs["log"]] == [None, None, None]
