"""spec/hanamikoji/record.schema.json and the validator's malformed check agree on every document.

The schema checks shape, types and ranges; the rules (a 21-card deal, turn order, ...) are not
its business, so "malformed or not" is what the two must agree on. Documents are valid records
of engine games and near-misses made from them (types, ranges, missing and extra keys, lengths),
written as JSON text and judged as ``hanamikoji validate`` reads it.
"""

from __future__ import annotations

import copy
import json
import pathlib
import sys

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from hanamikoji.engine.hanamikoji import ITALIAN_THREE_ROUNDS, STANDARD
from hanamikoji.cli.main import main
from hanamikoji.engine.hanamikoji.record import to_record
from hanamikoji.engine.hanamikoji.seeded import play_game
from hanamikoji.engine.core import registry
from hanamikoji.oracle.core.validate import Status, judge_bytes

TESTS = pathlib.Path(__file__).resolve().parent
if str(TESTS) not in sys.path:  # the shared checks are the module oracle_checks of tests/
    sys.path.insert(0, str(TESTS))

from oracle_checks import documents_with_look_alikes  # noqa: E402

SCHEMA = registry.get("hanamikoji").record_schema()
VALIDATOR = Draft202012Validator(SCHEMA)


def schema_accepts(text: str) -> bool:
    return VALIDATOR.is_valid(json.loads(text))


def validator_accepts(text: str) -> bool:
    return judge_bytes(text.encode()).status is not Status.MALFORMED


def test_schema_command_prints_a_draft_2020_12_schema(capsys):
    assert main(["schema"]) == 0
    text = capsys.readouterr().out
    shipped = pathlib.Path(__file__).parents[1] / "spec" / "hanamikoji" / "record.schema.json"
    assert text == shipped.read_text(encoding="utf-8")  # the file's bytes, not a re-dump
    printed = json.loads(text)
    assert printed == SCHEMA
    assert printed["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(printed)


def games():
    return st.builds(play_game, st.integers(0, 3), st.integers(0, 30),
                     st.sampled_from([STANDARD, ITALIAN_THREE_ROUNDS]))


SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 10),
                    st.sampled_from([0.0, 1.0, 0.5, 6.0, 1e20, -0.0]),
                    st.sampled_from(["", "standard", "gift", "hanamikoji-record/1", "charm", "x"]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=9), st.dictionaries(st.sampled_from(
        ["player", "action", "cards", "pick", "sets", "winner", "reason", "turns", "x"]),
        inner, max_size=4)), max_leaves=12)


def _containers(doc, path=()):
    """Every (path, container) of a document, the document itself first."""
    yield path, doc
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else ()
    for key, value in items:
        if isinstance(value, (dict, list)):
            yield from _containers(value, path + (key,))


@st.composite
def near_misses(draw, *, mutations: int = 2):
    """A record of an engine game with up to ``mutations`` changes, each at a drawn place: a
    value replaced, a key removed or added, an item removed, added or duplicated."""
    doc = to_record(draw(games()))
    for _ in range(draw(st.integers(0, mutations))):
        places = list(_containers(doc))
        _, container = draw(st.sampled_from(places))
        keys = list(container) if isinstance(container, dict) else list(range(len(container)))
        kind = draw(st.sampled_from(["replace", "remove", "add", "duplicate"]))
        if kind in ("replace", "remove", "duplicate") and not keys:
            kind = "add"
        if kind == "replace":
            container[draw(st.sampled_from(keys))] = draw(VALUES)
        elif kind == "remove":
            del container[draw(st.sampled_from(keys))]
        elif kind == "duplicate" and isinstance(container, list):
            container.append(copy.deepcopy(container[draw(st.sampled_from(keys))]))
        elif isinstance(container, dict):
            container[draw(st.sampled_from(["result", "pick", "extra", "sets", "cards",
                                            "winner", "turns"]))] = draw(VALUES)
        else:
            container.append(draw(VALUES))
    return doc


@settings(max_examples=400, deadline=None)
@given(near_misses())
@example(to_record(play_game(1, 0, STANDARD)))
@example({**to_record(play_game(1, 0, STANDARD)), "first_player": 1.0})
@example({**to_record(play_game(1, 0, STANDARD)), "variant": ["standard"]})
@example({**to_record(play_game(1, 0, STANDARD)), "first_player": True})
@example({**to_record(play_game(1, 0, STANDARD)), "first_player": 1e20})
@example({**to_record(play_game(1, 0, STANDARD)), "rounds": []})
def test_schema_and_validator_agree_on_malformed(doc):
    text = json.dumps(doc)
    assert schema_accepts(text) == validator_accepts(text), text[:300]


@pytest.mark.parametrize("seed", range(5))
def test_every_engine_record_passes_the_schema(seed):
    for rules in (STANDARD, ITALIAN_THREE_ROUNDS):
        for index in range(20):
            assert VALIDATOR.is_valid(to_record(play_game(seed, index, rules)))


def test_near_misses_reach_both_answers():
    """The generator of the agreement test makes malformed documents and well-formed ones."""
    outcomes = set()

    @settings(max_examples=100, deadline=None, database=None)
    @given(near_misses(mutations=1))
    def collect(doc):
        outcomes.add(schema_accepts(json.dumps(doc)))

    collect()
    assert outcomes == {True, False}


def test_every_enumerated_string_and_its_look_alikes_are_judged_as_the_schema_judges_them():
    """Every string the schema enumerates (variants, actions, reasons, the format) in its place
    in a record, and each of its look-alikes (case, white space, Unicode letters that read or
    case-map alike): the validator calls a document malformed exactly when the schema refuses
    it."""
    records = [to_record(play_game(1, 0, STANDARD)), to_record(play_game(2, 3, ITALIAN_THREE_ROUNDS))]
    for doc in documents_with_look_alikes(records, SCHEMA):
        text = json.dumps(doc)
        assert schema_accepts(text) == validator_accepts(text), text[:300]
