"""``hanamikoji schema --protocol``: the JSON Schemas of every message of the diff protocol.

Every line the harness and the reference adapter exchange in real ``diff`` runs (both games,
every Maiko player count, protocol 1 through docs/examples/adapter.py and protocol 2 through the
reference adapter, the seeded-chance checks included) is captured by a tap on the adapter's
pipes (tests/protocol_tap.py) and validated against the schemas; malformed messages made from
real ones are refused; a decision's schema is the record schema's own definition.
"""

from __future__ import annotations

import copy
import json
import pathlib
import sys

import pytest
from jsonschema import Draft202012Validator

from hanamikoji.cli.main import main
from hanamikoji.engine.core.codec import dumps
from hanamikoji.engine.core.registry import get
from hanamikoji.engine.hanamikoji.codec import VIEW_FIELDS
from hanamikoji.engine.maiko.game_type import GAME as MAIKO
from hanamikoji.engine.maiko.view import view_to_json
from hanamikoji.oracle.core.adapter import Adapter
from hanamikoji.oracle.core.protocol_schema import protocol_schema, protocol_schema_text
from hanamikoji.properties.core.cite import checks

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from protocol_messages import (  # noqa: E402
    Messages,
    check_traffic,
    exchanges,
    itemwise,
)

ROOT = pathlib.Path(__file__).resolve().parents[1]
TAP = [sys.executable, str(ROOT / "tests" / "protocol_tap.py")]
REFERENCE = [sys.executable, "-m", "hanamikoji.oracle.core.adapter"]
EXAMPLE = [sys.executable, str(ROOT / "docs" / "examples" / "adapter.py")]


@pytest.mark.parametrize("game", ["hanamikoji", "maiko"])
def test_schema_protocol_prints_a_draft_2020_12_schema_of_the_games_messages(game, capsys):
    assert main(["schema", "--protocol", "--game", game]) == 0
    text = capsys.readouterr().out
    assert text == protocol_schema_text(get(game))
    printed = json.loads(text)
    Draft202012Validator.check_schema(printed)
    assert printed["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    # The game's record schema rides along whole, with its own $id, for the references into it.
    assert printed["$defs"]["record"] == get(game).record_schema()
    assert main(["schema", "--protocol"] + (["--game", game] if game == "maiko" else [])) == 0
    assert json.loads(capsys.readouterr().out)["$id"] == f"urn:hanamikoji:protocol:{game}"


def test_schema_without_protocol_is_still_the_record_schema(capsys):
    assert main(["schema"]) == 0
    shipped = ROOT / "spec" / "hanamikoji" / "record.schema.json"
    assert capsys.readouterr().out == shipped.read_text(encoding="utf-8")


def test_a_decision_is_the_record_schemas_own_definition():
    """Maiko's decision is the record's step; Hanamikoji's actions take the record's cards."""
    maiko = protocol_schema(get("maiko"))["$defs"]
    assert maiko["decision"] == {"$ref": "urn:hanamikoji:maiko-record:1#/$defs/decision"}
    assert maiko["result"] == {"$ref": "urn:hanamikoji:maiko-record:1#/properties/result"}
    hanamikoji = protocol_schema(get("hanamikoji"))["$defs"]
    assert hanamikoji["action-gift"]["properties"]["cards"] == {
        "$ref": "urn:hanamikoji:record:1#/$defs/gift/properties/cards"}
    assert hanamikoji["result"] == {"$ref": "urn:hanamikoji:record:1#/$defs/result"}


def test_the_views_schemas_have_the_codecs_keys():
    hanamikoji = protocol_schema(get("hanamikoji"))["$defs"]["view"]
    assert tuple(hanamikoji["properties"]) == VIEW_FIELDS
    assert hanamikoji["required"] == list(VIEW_FIELDS)
    config = MAIKO.configure({"players": 3})
    state = MAIKO.new_game(config)
    maiko = protocol_schema(get("maiko"))["$defs"]["view"]
    assert set(maiko["properties"]) == set(view_to_json(MAIKO.observe(state, 0)))


def test_the_lists_checked_item_by_item_are_the_long_ones():
    """The traffic's views are checked with their board and log item by item (each distinct
    item once): the same verdict, for these lists only."""
    assert {"board", "log"} <= set(itemwise(protocol_schema(get("maiko"))))
    assert "log" in itemwise(protocol_schema(get("hanamikoji")))
    messages = Messages("maiko")
    session = dict((r["op"], a) for r, a in _maiko_session())
    view = session["observe"]["view"]
    for bad in ({**view, "board": view["board"][:59]}, {**view, "board": ["gold-1"] * 60},
                {**view, "log": [{"turn": 0}]}):
        assert messages.answer_errors("observe", {"view": bad})
        assert messages.errors("/$defs/answer-observe", {"view": bad})
    legal = [{"kind": "flip", "space": 0}]
    assert not messages.answer_errors("legal_actions", {"legal_actions": legal})
    for bad in ({"legal_actions": legal + [{"kind": "flip"}]}, {"legal_actions": legal, "x": 1}):
        assert messages.answer_errors("legal_actions", bad)
        assert messages.errors("/$defs/answer-legal_actions", bad)


# Real diff runs, every line captured. Each run is (game, options, adapter, the requests that
# must have been seen): the reference adapter declares protocol 4 (so Hanamikoji's first
# new_game is protocol 1's and the rest general, and views come as view_changes) or, given
# --protocol, 3 (views whole, in batches) or 2; docs/examples/adapter.py speaks protocol 1.
RUNS = {
    "hanamikoji-protocol-4": ("hanamikoji", ["--games", "8"], REFERENCE,
                              {"new_game", "chance", "random_deal", "apply", "view_changes",
                               "legal_actions", "current_player", "result"}),
    "hanamikoji-protocol-3": ("hanamikoji", ["--games", "4"], [*REFERENCE, "--protocol", "3"],
                              {"new_game", "chance", "random_deal", "apply", "observe",
                               "legal_actions", "current_player", "result"}),
    "hanamikoji-protocol-1": ("hanamikoji", ["--games", "8"], EXAMPLE,
                              {"new_game", "deal", "random_deal", "apply", "observe",
                               "legal_actions", "current_player", "result"}),
    "maiko-2": ("maiko", ["--players", "2", "--games", "1"], REFERENCE,
                {"new_game", "chance", "random_chance", "apply", "view_changes"}),
    "maiko-3": ("maiko", ["--players", "3", "--games", "1"], [*REFERENCE, "--protocol", "3"],
                {"new_game", "chance", "random_chance", "apply", "observe"}),
    "maiko-4": ("maiko", ["--players", "4", "--games", "1"], REFERENCE,
                {"new_game", "chance", "random_chance", "apply", "view_changes"}),
    # The leak check's games, cut short at a random point: observe after a replay.
    "hanamikoji-leaks": ("hanamikoji", ["--leaks", "--games", "4"], REFERENCE,
                         {"new_game", "chance", "apply", "observe"}),
    "maiko-leaks": ("maiko", ["--leaks", "--games", "2"], REFERENCE,
                    {"new_game", "chance", "apply", "observe"}),
}


@checks("INFO-1", "MK-INFO-1")
@pytest.mark.parametrize("run", RUNS)
def test_every_message_of_a_diff_run_fits_the_schemas(run, tmp_path, capsys):
    game, options, adapter, expected = RUNS[run]
    argv = ["diff", "--game", game, *options, "--seed", "3", "--json", "--",
            *TAP, str(tmp_path), "--", *adapter]
    assert main(argv) == 0, capsys.readouterr()
    ops = check_traffic(game, tmp_path)
    assert expected <= set(ops), ops
    if "--leaks" not in options:
        # a game played to its end (its answer alone, or in a batch: protocol 3)
        assert any(b'{"current_player":"terminal"}' in answer
                   for _, _, answer in exchanges(tmp_path))
    if run == "hanamikoji-protocol-4":  # the first new_game in protocol 1's form, then general
        # (a game after the first may be sent as a batch, its new_game the batch's first
        # request: the batched loop sends a whole game at once where the engine answers them)
        sent = [json.loads(r) for _, r, _ in exchanges(tmp_path)]
        new_games = [m for r in sent for m in (r["requests"] if r["op"] == "batch" else [r])
                     if m["op"] == "new_game"]
        assert len(new_games) >= 8  # one a game
        assert "game" not in new_games[0] and any("game" in r for r in new_games[1:])


def _reference_session(game: str, requests: list[dict]) -> list[tuple[dict, dict]]:
    adapter = Adapter()
    return [(r, adapter.answer(dumps(r))) for r in requests]


def _maiko_session() -> list[tuple[dict, dict]]:
    import random

    config = MAIKO.configure({"players": 2})
    layout = MAIKO.decision_to_json(MAIKO.sample_chance(MAIKO.new_game(config),
                                                        random.Random(1)))
    new = {"op": "new_game", "game": "maiko", "players": 2,
           "options": MAIKO.options_of(config), "first_player": 0}
    return _reference_session("maiko", [
        new, {"op": "chance", "outcome": layout}, {"op": "current_player"},
        {"op": "apply", "decision": {"kind": "flip", "space": 3}},
        {"op": "observe", "player": 1}, {"op": "result"},
        {"op": "apply", "decision": {"kind": "flip", "space": 3}}])


def _hanamikoji_session() -> list[tuple[dict, dict]]:
    deal = Adapter().answer('{"op": "random_deal", "seed": 5}')["deal"]
    gift = sorted(deal["hands"][0] + deal["draws"][:1])[:3]
    return _reference_session("hanamikoji", [
        {"op": "new_game", "variant": "standard", "first_player": 0},
        {"op": "deal", "deal": deal}, {"op": "current_player"},
        {"op": "apply", "decision": {"action": "gift", "cards": gift}},
        {"op": "current_player"}, {"op": "legal_actions"},
        {"op": "apply", "decision": {"response": "gift", "pick": gift[0]}},
        {"op": "observe", "player": 1}, {"op": "result"},
        {"op": "apply", "decision": {"response": "gift", "pick": gift[0]}}])


def _mutations(message: dict) -> list[tuple[str, dict]]:
    """Each key of a message left out, and an unknown key added."""
    out = [(f"without {key!r}", {k: v for k, v in message.items() if k != key})
           for key in message]
    out.append(("with an unknown key", {**message, "x-unknown": 1}))
    return out


@pytest.mark.parametrize("game", ["hanamikoji", "maiko"])
def test_malformed_messages_made_from_real_ones_are_refused(game):
    messages = Messages(game)
    session = _maiko_session() if game == "maiko" else _hanamikoji_session()
    for request, answer in session:
        assert not messages.request_errors(request), request
        assert not messages.answer_errors(request["op"], answer), (request, answer)
        for what, bad in _mutations(request):
            if request["op"] in ("current_player", "legal_actions", "result") and what != \
                    "with an unknown key" and not bad:
                continue  # {"op"} alone has nothing to leave out but its op
            assert messages.request_errors(bad), (what, request)
        optional = {"protocol", "view_keys", "rule"}
        for what, bad in _mutations(answer):
            if any(what == f"without {key!r}" for key in optional):
                continue
            assert messages.answer_errors(request["op"], bad), (what, request, answer)


@pytest.mark.parametrize("game, bad", [
    ("hanamikoji", {"op": "apply", "decision": {"action": "secret", "cards": [7]}}),
    ("hanamikoji", {"op": "apply", "decision": {"action": "gift", "cards": [1, 2]}}),
    ("hanamikoji", {"op": "apply", "decision": {"response": "competition", "pick": 1}}),
    ("hanamikoji", {"op": "observe", "player": 2}),
    ("hanamikoji", {"op": "new_game", "variant": "italian", "first_player": 0}),
    ("hanamikoji", {"op": "steal"}),
    ("maiko", {"op": "apply", "decision": {"kind": "flip", "space": 81}}),
    ("maiko", {"op": "apply", "decision": {"kind": "sweep", "item": 3}}),
    ("maiko", {"op": "apply", "decision": {"kind": "oka-san", "owner": 4, "item": 0}}),
    ("maiko", {"op": "chance", "outcome": {"kind": "layout", "tiles": ["friend"] * 59}}),
    ("maiko", {"op": "new_game", "game": "maiko", "players": 5,
               "options": {"players": 5, "colours": "", "removed_colour": ""},
               "first_player": 0}),
    ("maiko", {"op": "new_game", "game": "hanamikoji", "players": 2,
               "options": {"players": 2, "colours": "", "removed_colour": ""},
               "first_player": 0}),
])
def test_malformed_requests_are_refused(game, bad):
    assert Messages(game).request_errors(bad)


def test_a_view_that_shows_more_or_less_is_refused():
    """INFO-2, MK-INFO-2: a key beyond the view's (the layout, say) or one missing is refused."""
    for game, session in (("maiko", _maiko_session()), ("hanamikoji", _hanamikoji_session())):
        messages = Messages(game)
        answer = next(a for r, a in session if r["op"] == "observe")
        assert not messages.answer_errors("observe", answer)
        leaky = copy.deepcopy(answer)
        leaky["view"]["layout" if game == "maiko" else "opponent_hand"] = []
        assert messages.answer_errors("observe", leaky)
        short = copy.deepcopy(answer)
        del short["view"]["log"]
        assert messages.answer_errors("observe", short)
        if game == "maiko":
            wrong_tile = copy.deepcopy(answer)
            wrong_tile["view"]["board"][0] = "gold-3"
            assert messages.answer_errors("observe", wrong_tile)
