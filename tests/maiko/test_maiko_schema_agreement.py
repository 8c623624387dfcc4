"""spec/maiko/record.schema.json and the record validator agree on which documents are malformed,
as tests/test_oracle_schema.py checks for Hanamikoji: documents are records of engine games (2,
3 and 4 players, finished or stopped early) and near-misses made from them (types, ranges,
missing and extra keys, lengths), written as JSON text and judged as ``hanamikoji validate``
reads it. Whether a game is legal is for the rules, so a document may pass the schema and still
be illegal; what the two must agree on is "malformed or not".

Six classes of documents on which they once disagreed (found by this test: a winner outside
the schema's range, a missing option, colour names the schema refuses, a layout of the wrong
length, turns without a layout, and a record illegal early and malformed later) are kept as
regression examples; the reader now checks the whole shape first, as the schema does.
"""

from __future__ import annotations

import copy
import functools
import json
import pathlib
import sys
from typing import Any, Callable

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from hanamikoji.engine.core.seeded import play_game
from hanamikoji.oracle.core.validate import Judgement, Status, judge_bytes
from hanamikoji.engine.maiko import GAME, State

TESTS = pathlib.Path(__file__).resolve().parents[1]
if str(TESTS) not in sys.path:  # the shared checks are the module oracle_checks of tests/
    sys.path.insert(0, str(TESTS))

from oracle_checks import cases, documents_with_look_alikes, near_misses  # noqa: E402

SCHEMA = GAME.record_schema()
VALIDATOR = Draft202012Validator(SCHEMA)
VECTORS = TESTS / "vectors" / "maiko"


def judged(doc: Any) -> Judgement:
    return judge_bytes(json.dumps(doc).encode())


@functools.cache
def _states(players: int, seed: int) -> tuple[State, ...]:
    """Every state of game 0 of ``seed`` with ``players`` (first player: the last one)."""
    final = play_game(GAME, GAME.configure({"players": players}), seed, 0, players - 1)
    return tuple(GAME.states(final))


def _record(players: int, seed: int, cut: int | None) -> dict[str, Any]:
    """The record of the game after ``cut`` decisions (None: finished; 0: before the layout)."""
    states = _states(players, seed)
    return GAME.to_record(states[-1 if cut is None else min(cut, len(states) - 1)])


RECORDS = st.builds(_record, st.integers(2, 4), st.integers(0, 2),
                    st.one_of(st.none(), st.integers(0, 40)))
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 90),
                    st.sampled_from([0.0, 1.0, 0.5, 6.0, 1e20, -0.0]),
                    st.sampled_from(["", "maiko-record/1", "flip", "sweep", "end-turn", "layout",
                                     "pink-3", "friend", "gold-1", "white", "pink,green",
                                     "full-board", "static", "x"]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=9), st.dictionaries(st.sampled_from(
        ["kind", "space", "item", "colour", "owner", "player", "steps", "winners", "reason",
         "x"]), inner, max_size=4)), max_leaves=12)
ADDED = ["result", "extra", "kind", "space", "colour", "item", "owner", "steps", "player",
         "layout", "turns"]


# Every key of every decision kind, each with values in range and out of it, of other types,
# and look-alikes (names the schema does not take, floats, numbers as text), written into a
# step of a recorded turn (a layout step too: the schema has none).
TILES_IN_PLAY = _record(3, 0, 1)["layout"]
DECISION_KEYS: dict[str, tuple[str, ...]] = {
    "layout": ("tiles",), "flip": ("space",), "danna": ("space",), "one-san": ("space",),
    "oka-san": ("owner", "item"), "one-san-stop": (), "sabanto": ("item", "colour"),
    "sweep": ("item", "colour"), "end-turn": ()}
FIELD_VALUES: dict[str, dict[str, list[Any]]] = {
    "kind": {"in-range": list(DECISION_KEYS), "out-of-range": ["jump", ""],
             "wrong-type": [1, None, ["flip"]], "look-alike": ["Flip", "one_san", "oka san"]},
    "space": {"in-range": [0, 1, 59, 80], "out-of-range": [-1, 81, 10**9],
              "wrong-type": ["3", None, True, [3]], "look-alike": [3.0, 3.5, "0"]},
    "item": {"in-range": [0, 4, 8], "out-of-range": [-1, 9, 36],
             "wrong-type": ["8", None, False, {"item": 1}], "look-alike": [8.0, 0.5, "4"]},
    "owner": {"in-range": [0, 1, 3], "out-of-range": [-1, 4],
              "wrong-type": ["1", None, True], "look-alike": [1.0, 2.5]},
    "colour": {"in-range": ["white", "purple", "pink", "green", None],
               "out-of-range": ["gold", ""], "wrong-type": [0, 2, True, ["pink"]],
               "look-alike": ["Pink", "pink ", "WHITE", "pink-0", "friend"]},
    "tiles": {"in-range": [TILES_IN_PLAY, ["pink-0"]],
              "out-of-range": [["pink-9"], ["gold-1"], TILES_IN_PLAY[:-1] + ["white-9"]],
              "wrong-type": [5, "pink-0", None, {"pink-0": 1}, [36], [None]],
              "look-alike": [["Pink-0"], ["friends"], [" friend"], ["pink-00"]]},
}
ALL_DECISION_KEYS = sorted({key for keys in DECISION_KEYS.values() for key in keys})


@st.composite
def tagged_decisions(draw: Any) -> tuple[dict[str, Any], set[tuple[str, str]]]:
    """A decision object near a well-formed one, with the (key, class of value) pairs it holds:
    its fields in range but, mostly, one of them (the kind too) out of range, of another type or
    a look-alike; sometimes a key missing or one of another kind added."""
    kind = draw(st.sampled_from(sorted(DECISION_KEYS)))
    obj: dict[str, Any] = {"kind": kind}
    tags = {("kind", "in-range")}
    for key in DECISION_KEYS[kind]:
        obj[key] = draw(st.sampled_from(FIELD_VALUES[key]["in-range"]))
        tags.add((key, "in-range"))
    if kind != "sweep" and obj.get("colour", "") is None:
        obj["colour"] = "pink"
    if draw(st.integers(0, 4)):
        key = draw(st.sampled_from(["kind", *DECISION_KEYS[kind]]))
        cls = draw(st.sampled_from(["out-of-range", "wrong-type", "look-alike"]))
        obj[key] = draw(st.sampled_from(FIELD_VALUES[key][cls]))
        tags = {tag for tag in tags if tag[0] != key} | {(key, cls)}
    if draw(st.integers(0, 5)) == 0:
        del obj[draw(st.sampled_from(sorted(obj)))]
    if draw(st.integers(0, 5)) == 0:
        key = draw(st.sampled_from(ALL_DECISION_KEYS))
        cls = draw(st.sampled_from(sorted(FIELD_VALUES[key])))
        obj[key] = draw(st.sampled_from(FIELD_VALUES[key][cls]))
        tags.add((key, cls))
    return obj, tags


@st.composite
def records_with_a_drawn_step(draw: Any) -> dict[str, Any]:
    """A record of a game in play with one step replaced by, or one inserted as, a drawn
    decision."""
    doc = copy.deepcopy(_record(draw(st.integers(2, 4)), draw(st.integers(0, 2)),
                                draw(st.one_of(st.none(), st.integers(2, 40)))))
    obj, _ = draw(tagged_decisions())
    turn = doc["turns"][draw(st.integers(0, len(doc["turns"]) - 1))]
    at = draw(st.integers(0, len(turn["steps"])))
    if at < len(turn["steps"]) and draw(st.booleans()):
        turn["steps"][at] = obj
    else:
        turn["steps"].insert(at, obj)
    return doc


# --- the checks ---------------------------------------------------------------------------


def _agree(doc: Any) -> None:
    """The document as JSON text: the schema's answer on it, and the validator's, agree
    (judged on the text as the validator reads it, where 2.0 is the integer 2)."""
    text = json.dumps(doc)
    schema = VALIDATOR.is_valid(json.loads(text))
    verdict = judge_bytes(text.encode())
    assert schema == (verdict.status is not Status.MALFORMED), (
        f"schema {'accepts' if schema else 'refuses'}, validator says "
        f"{verdict.status.value} ({verdict.message}): {text[:300]}")


@settings(max_examples=200, deadline=None)
@given(near_misses(RECORDS, VALUES, ADDED))
@example(_record(2, 1, None))
@example({**_record(3, 1, None), "first_player": 1.0})
@example({**_record(3, 1, None), "first_player": True})
@example({**_record(3, 1, None), "first_player": 1e20})
@example({**_record(4, 1, 0), "turns": [{"player": 0, "steps": []}]})
@example({**_record(2, 1, 5), "options": {"players": 2, "colours": "pink,pink",
                                           "removed_colour": ""}})
def test_schema_and_validator_agree_on_malformed(doc):
    """Outside the known classes, the schema accepts a document exactly when the validator does
    not call it malformed."""
    _agree(doc)


def _with_step(step: dict[str, Any], turn: int = 1, at: int = 0) -> dict[str, Any]:
    doc = copy.deepcopy(_record(2, 1, None))
    doc["turns"][turn]["steps"].insert(at, step)
    return doc


@settings(max_examples=200, deadline=None)
@given(records_with_a_drawn_step())
@example(_with_step({"kind": "layout", "tiles": 5}))
@example(_with_step({"kind": "layout", "tiles": TILES_IN_PLAY}))
@example(_with_step({"kind": "sweep", "item": 9, "colour": None}))
@example(_with_step({"kind": "sweep", "item": -1, "colour": None}))
@example(_with_step({"kind": "sabanto", "item": 9, "colour": "white"}))
@example(_with_step({"kind": "oka-san", "owner": 1, "item": -1}))
@example(_with_step({"kind": "oka-san", "owner": 4, "item": 0}))
def test_schema_and_validator_agree_on_every_decision_key(doc):
    """A recorded turn holding a decision of any kind, each key's value in range, out of range,
    of another type or a look-alike (``tiles`` included), is malformed for the validator exactly
    when the schema refuses it."""
    _agree(doc)


def test_drawn_decisions_reach_every_key_with_every_class_of_value():
    """The decisions drawn above hold every key of Maiko's decisions with values of every class
    (so the property checks each key's bounds and types)."""
    reached: set[tuple[str, str]] = set()

    # Derandomized: which classes 400 draws reach is then a fact of the strategy, the same under
    # every profile (a random run could miss one by chance and fail for no fault).
    @settings(max_examples=400, deadline=None, database=None, derandomize=True)
    @given(tagged_decisions())
    def collect(drawn):
        reached.update(drawn[1])

    collect()
    assert reached == {(key, cls) for key, classes in FIELD_VALUES.items() for cls in classes}


def test_engine_records_and_the_corpus_pass_or_fail_the_schema_as_judged():
    """Every engine record (2, 3, 4 players; before the layout, in play, finished) passes the
    schema; so do the valid and illegal records of tests/vectors/maiko, and every malformed one
    there fails it."""
    for players in (2, 3, 4):
        for seed in range(3):
            for cut in (0, 1, 17, None):
                assert VALIDATOR.is_valid(_record(players, seed, cut)), (players, seed, cut)
    for case in cases(VECTORS, "records.json"):
        if "record" in case["input"]:
            ok = VALIDATOR.is_valid(case["input"]["record"])
            assert ok == (case["expected"]["status"] != "malformed"), case["id"]


def test_near_misses_reach_both_answers():
    """The generator makes malformed documents and well-formed ones (so the property is not
    vacuous)."""
    outcomes: set[bool] = set()

    @settings(max_examples=100, deadline=None, database=None)
    @given(near_misses(RECORDS, VALUES, ADDED, mutations=1))
    def collect(doc):
        outcomes.add(VALIDATOR.is_valid(doc))

    collect()
    assert outcomes == {True, False}


def _record_2p() -> dict[str, Any]:
    return copy.deepcopy(_record(2, 1, None))


def _illegal_then_malformed() -> dict[str, Any]:
    doc = _record_2p()
    doc["turns"][0]["player"] = 1 - doc["turns"][0]["player"]  # illegal at turn 0: not their turn
    doc["turns"][3]["steps"][0] = {"kind": "flip"}  # malformed at turn 3: no space
    return doc


def _edit(change: Callable[[dict[str, Any]], Any]) -> Callable[[], dict[str, Any]]:
    def build() -> dict[str, Any]:
        doc = _record_2p()
        change(doc)
        return doc
    return build


REPRODUCTIONS = {
    "winners-outside-the-schema": _edit(lambda d: d["result"].update(winners=[7])),
    "option-missing": _edit(lambda d: d["options"].pop("removed_colour")),
    "colour-names-outside-the-schema": _edit(lambda d: d["options"].update(
        colours="WHITE,PURPLE")),
    "layout-length-outside-the-schema": _edit(lambda d: d["layout"].pop()),
    "null-layout-with-play": _edit(lambda d: d.update(layout=None)),
    "illegal-before-malformed": _illegal_then_malformed,
}


@pytest.mark.parametrize("name", sorted(REPRODUCTIONS))
def test_the_classes_they_once_disagreed_on_now_agree(name):
    """One document of each class on which the schema and the validator once disagreed."""
    doc = REPRODUCTIONS[name]()
    assert not VALIDATOR.is_valid(doc) or name == "null-layout-with-play"
    _agree(doc)


# --- every enumerated string, and its look-alikes --------------------------------------------


def _look_alike_documents() -> list[Any]:
    records = sorted((_record(players, 1, cut) for players in (2, 3) for cut in (3, None)),
                     key=lambda r: len(json.dumps(r)))
    return list(documents_with_look_alikes(records, SCHEMA))


def test_every_enumerated_string_and_its_look_alikes_are_judged_as_the_schema_judges_them():
    """Every string the schema enumerates (colours, tiles, kinds, reasons, the format) in its
    place in a record, and each of its look-alikes (case, white space, Unicode letters that
    read or case-map alike, as ``"whıte"``), and look-alikes of the colours option: the
    validator calls a document malformed exactly when the schema refuses it."""
    for doc in _look_alike_documents():
        _agree(doc)


def _with_sweep_colour(text: str) -> dict[str, Any]:
    doc = _record_2p()
    for turn in doc["turns"]:
        for step in turn["steps"]:
            if step["kind"] == "sweep" and step["colour"] is not None:
                step["colour"] = text
                return doc
    raise AssertionError("the record has no sweep that keeps a colour")


@pytest.mark.parametrize("doc", [
    _with_sweep_colour("wh\u0131te"), _with_sweep_colour("p\u0131nk"),
    _edit(lambda d: d["options"].update(colours="\n"))(),
    _edit(lambda d: d["options"].update(colours="white,purple\n"))(),
], ids=["dotless-i-white", "dotless-i-pink", "newline-colours", "colours-then-newline"])
def test_validate_calls_the_look_alikes_the_schema_refuses_malformed(doc, tmp_path, capsys):
    """``validate`` once passed these (exit 0): a colour read through upper() ("whıte" upper-
    cases to WHITE), and a colours option that ends in a newline, which "$" let through."""
    from hanamikoji.cli.main import main

    path = tmp_path / "r.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert not VALIDATOR.is_valid(doc)
    assert main(["validate", str(path)]) == 2
    out = capsys.readouterr().out
    assert "malformed" in out and "$." in out, out


def test_a_colour_option_is_a_name_in_ascii_never_a_look_alike():
    """``--option colours=...`` takes a name in any ASCII case, but not a Unicode look-alike
    that case-maps to one (Colour.parse upper-cased "whıte" to WHITE)."""
    from hanamikoji.engine.core.errors import OptionError
    from hanamikoji.engine.maiko.components import Colour

    assert Colour.parse("WHITE") is Colour.WHITE
    for text in ("wh\u0131te", "\u212aink", "pin\u212a", "whit\u0435"):
        with pytest.raises(OptionError, match="unknown colour"):
            Colour.parse(text)
