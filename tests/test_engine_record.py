"""The record format hanamikoji-record/1: exact round trips and layered errors."""

from __future__ import annotations

import copy
import json
import random

import pytest

from hanamikoji.engine.hanamikoji import ITALIAN_THREE_ROUNDS, STANDARD, random_game
from hanamikoji.engine.hanamikoji.record import (
    FORMAT,
    IllegalRecordError,
    MalformedRecordError,
    parse_record,
    read_record,
    replay_record,
    to_record,
)
from hanamikoji.properties.core.cite import checks


def game(seed: int = 5, rules=STANDARD, first_player: int = 0):
    return random_game(random.Random(seed), rules, first_player)


@pytest.mark.parametrize("rules", [STANDARD, ITALIAN_THREE_ROUNDS])
@pytest.mark.parametrize("first_player", [0, 1])
def test_round_trip_is_exact(rules, first_player):
    """Record -> JSON -> state -> record gives the same bytes and the same final state."""
    for seed in range(30):
        state = game(seed, rules, first_player)
        record = to_record(state)
        text = json.dumps(record)
        again = read_record(json.loads(text))
        assert again == state
        assert json.dumps(to_record(again)) == text


@checks("TURN-1", "UPDATE-4")
def test_record_shape():
    """TURN-1: 8 turns per round in play order; UPDATE-4: round r started by the right player."""
    state = game(11, first_player=1)
    record = to_record(state)
    assert record["format"] == FORMAT and record["variant"] == "standard"
    assert record["result"] == {"winner": state.result.winner, "reason": state.result.reason.value}
    for r, rnd in enumerate(record["rounds"]):
        assert len(rnd["turns"]) == 8 and len(rnd["draws"]) == 8
        starter = 1 if r % 2 == 0 else 0
        assert [t["player"] for t in rnd["turns"]] == [starter, 1 - starter] * 4


def test_result_is_optional_when_read():
    record = to_record(game())
    del record["result"]
    assert read_record(record) == game()


def mutated(fn):
    record = copy.deepcopy(to_record(game()))
    fn(record)
    return record


@pytest.mark.parametrize("mutate, path", [
    (lambda r: r.update(format="other"), "$.format"),
    (lambda r: r.update(variant="french"), "$.variant"),
    (lambda r: r.update(first_player=2), "$.first_player"),
    (lambda r: r.update(first_player=-1), "$.first_player"),
    (lambda r: r.update(first_player=0.5), "$.first_player"),
    (lambda r: r["rounds"][0].update(removed=7), "$.rounds[0].removed"),
    (lambda r: r["rounds"][0]["hands"][1].pop(), "$.rounds[0].hands[1]"),
    (lambda r: r["rounds"][0]["draws"].__setitem__(3, "x"), "$.rounds[0].draws[3]"),
    (lambda r: r["rounds"][0]["turns"][2].update(action="steal"), "$.rounds[0].turns[2].action"),
    (lambda r: r["rounds"][0]["turns"][2].update(extra=1), "$.rounds[0].turns[2].extra"),
    (lambda r: r["result"].update(winner=3), "$.result.winner"),
    (lambda r: r.update(rounds={}), "$.rounds"),
])
def test_malformed_records_name_the_json_path(mutate, path):
    with pytest.raises(MalformedRecordError) as error:
        parse_record(mutated(mutate))
    assert error.value.path == path


def first_turn(record, kind):
    for r, rnd in enumerate(record["rounds"]):
        for t, turn in enumerate(rnd["turns"]):
            if turn["action"] == kind:
                return r, t, turn
    raise AssertionError(kind)


@checks("DEAL-1", "TURN-1", "TURN-3", "ACT-GIFT-1", "ACT-GIFT-2", "ACT-COMP-2", "END-3",
       "UPDATE-5", "END-2")
def test_illegal_records_name_rule_round_and_turn():
    """DEAL-1, TURN-1, TURN-3, ACT-GIFT-1, ACT-GIFT-2, ACT-COMP-2, END-3, UPDATE-5, END-2."""
    cases = []

    def bad_deal(r):
        r["rounds"][0]["removed"] = (r["rounds"][0]["removed"] + 1) % 7
    cases.append((bad_deal, "DEAL-1", 0, None))

    def out_of_turn(r):
        r["rounds"][0]["turns"][1]["player"] = r["rounds"][0]["turns"][0]["player"]
    cases.append((out_of_turn, "TURN-1", 0, 1))

    def twice(r):
        turns = r["rounds"][0]["turns"]
        secret = next(t for t in turns if t["action"] == "secret")
        later = [t for t in turns if t["player"] == secret["player"] and t is not secret]
        later[-1].clear()
        later[-1].update(player=secret["player"], action="secret", cards=secret["cards"])
    cases.append((twice, "TURN-3", 0, None))

    def gift_not_in_hand(r):
        _, t, turn = first_turn(r, "gift")
        hand = r["rounds"][0]["hands"][turn["player"]] + r["rounds"][0]["draws"]
        missing = next(g for g in range(7) if g not in hand) if len(set(hand)) < 7 else None
        if missing is None:
            turn["cards"] = [6, 6, 6]
            turn["pick"] = 6
        else:
            turn["cards"][0] = missing
            turn["pick"] = missing
    cases.append((gift_not_in_hand, "ACT-GIFT-1", 0, None))

    def pick_not_offered(r):
        _, _, turn = first_turn(r, "gift")
        turn["pick"] = next(g for g in range(7) if g not in turn["cards"])
    cases.append((pick_not_offered, "ACT-GIFT-2", 0, None))

    def wrong_result(r):
        r["result"]["winner"] = 1 - r["result"]["winner"]
    cases.append((wrong_result, None, None, None))

    def stops_early(r):
        r["rounds"][-1]["turns"].pop()
        r.pop("result")
    cases.append((stops_early, "TURN-1", None, 7))

    def missing_round(r):
        r["rounds"].pop()
        r.pop("result")
    cases.append((missing_round, "UPDATE-5", None, None))

    def goes_on(r):
        r["rounds"].append(copy.deepcopy(r["rounds"][0]))
    cases.append((goes_on, "END-2", None, None))

    def round_0_started_by_the_other(r):  # the first player is the record's: out of turn
        for turn in r["rounds"][0]["turns"]:
            turn["player"] = 1 - turn["player"]
    cases.append((round_0_started_by_the_other, "TURN-1", 0, 0))

    def round_1_started_by_its_first_player(r):  # the starter alternates between rounds
        for turn in r["rounds"][1]["turns"]:
            turn["player"] = 1 - turn["player"]
    cases.append((round_1_started_by_its_first_player, "UPDATE-4", 1, 0))

    state = game(5)
    assert len(state.scores) >= 2  # the cases above need a game of two rounds or more
    for mutate, rule, rnd, turn in cases:
        record = mutated(mutate)
        with pytest.raises(IllegalRecordError) as error:
            replay_record(parse_record(record))
        if rule is not None:
            assert error.value.rule == rule, (mutate.__name__, str(error.value))
        else:
            assert error.value.rule.startswith(("END-", "VAR-IT-")), str(error.value)
        if rnd is not None:
            assert error.value.round == rnd
        if turn is not None:
            assert error.value.turn == turn
        assert str(error.value).startswith("round "), str(error.value)


def test_integral_floats_read_as_the_integers_they_equal():
    """JSON has one number type and the schema's "integer" holds 1.0: a record with integral
    floats for its numbers (first player, each turn's player and pick) reads as the same game,
    however many turns hold them."""
    record = to_record(game())

    def floats(r):
        r["first_player"] = float(r["first_player"])
        for rnd in r["rounds"]:
            rnd["removed"] = float(rnd["removed"])
            rnd["hands"] = [[float(card) for card in hand] for hand in rnd["hands"]]
            rnd["draws"] = [float(card) for card in rnd["draws"]]
            for turn in rnd["turns"]:
                turn["player"] = float(turn["player"])
                if "pick" in turn:
                    turn["pick"] = float(turn["pick"])

    assert read_record(mutated(floats)) == read_record(record) == game()


@pytest.mark.parametrize("value, shown", [(0.5, "0.5"), ("1", '"1"'), (True, "true")])
def test_a_number_that_is_no_integer_is_shown_as_given(value, shown):
    """A number of the wrong kind is refused with the value the record holds."""
    with pytest.raises(MalformedRecordError) as error:
        parse_record(mutated(lambda r: r.update(first_player=value)))
    assert str(error.value).endswith(f"expected a player (an integer from 0 to 1), got {shown}")


def test_a_ninth_turn_is_named_as_one_too_many():
    """TURN-1: a round is eight turns; a ninth is said as such (not as a turn out of order)."""
    def nine(r):
        r["rounds"][0]["turns"].append(copy.deepcopy(r["rounds"][0]["turns"][0]))
    with pytest.raises(IllegalRecordError) as error:
        replay_record(parse_record(mutated(nine)))
    assert (error.value.rule, error.value.round, error.value.turn) == ("TURN-1", 0, 8)
    assert "a round has 8 turns; this one has 9" in str(error.value)


def test_a_wrong_declared_result_names_the_last_round():
    """END-2: the result is decided in the last round, so a record declaring another one names
    that round."""
    record = mutated(lambda r: r["result"].update(winner=1 - r["result"]["winner"]))
    with pytest.raises(IllegalRecordError) as error:
        read_record(record)
    assert error.value.round == len(record["rounds"]) - 1 >= 1
    assert "the record declares" in str(error.value)


def test_illegal_message_reads_well():
    record = mutated(lambda r: r["rounds"][0]["turns"][1].update(
        player=r["rounds"][0]["turns"][0]["player"]))
    with pytest.raises(IllegalRecordError) as error:
        read_record(record)
    assert str(error.value).startswith("round 0, turn 1: player ")
    assert "[TURN-1]" in str(error.value)


def test_the_example_in_the_docs_is_a_real_game():
    """docs/record-format.md shows the first round of `hanamikoji play --seed 3`."""
    import pathlib
    import re

    from hanamikoji.engine.hanamikoji.seeded import play_game

    text = (pathlib.Path(__file__).parent.parent / "docs" / "record-format.md").read_text()
    example = json.loads(re.search(r"```json\n(.*?)```", text, re.S).group(1))
    real = to_record(play_game(3, 0, STANDARD))
    assert example["rounds"][0] == real["rounds"][0]
    assert example["result"] == real["result"]
    assert {k: v for k, v in example.items() if k != "rounds"} == \
        {k: v for k, v in real.items() if k != "rounds"}
