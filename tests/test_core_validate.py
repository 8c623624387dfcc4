"""``validate`` and ``schema`` for any game: a record's game found by its ``format``, an unknown
format malformed at ``$.format``, ``--game`` forcing one game, verdicts in the game's own terms
(its ``record_where`` keys, its result JSON, its end described).

The second game here is a stub registered for these tests only: three players count in turn,
each adding 1 or 2 (FC-MOVE-1), and whoever reaches 5 wins (FC-END-1).
"""

from __future__ import annotations

import doctest
import io
import json

import attrs
import pytest

from hanamikoji.engine.core import registry
from hanamikoji.oracle.core import validate as V
from hanamikoji.cli.main import main
from hanamikoji.engine.core.errors import IllegalActionError, InvalidActionError
from hanamikoji.engine.core.game import (TERMINAL, Game, IllegalRecordError,
                                         MalformedRecordError, Outcome)
from hanamikoji.oracle.core.validate import Status, judge, judge_bytes, verdicts
from hanamikoji.engine.hanamikoji import STANDARD
from hanamikoji.engine.hanamikoji.record import to_record
from hanamikoji.engine.hanamikoji.seeded import play_game

GOAL = 5
FORMAT = "count-record/1"


@attrs.frozen
class Count:
    first: int
    moves: tuple[int, ...] = ()

    @property
    def total(self) -> int:
        return sum(self.moves)


class Counting(Game):
    """Three players add 1 or 2 in turn; whoever brings the total to 5 wins."""

    name = "count-test"
    title = "Counting (a stub for the validate tests)"
    rulebooks = ()
    options = ()
    min_players = max_players = 3
    record_format = FORMAT
    rule_prefix = "FC-"
    spec_file = "tests/none.md"
    record_where = ("move",)

    def make_config(self, values):
        return None

    def options_of(self, config):
        return {}

    def num_players(self, config):
        return 3

    def new_game(self, config, first_player=0):
        return Count(first_player)

    def config_of(self, state):
        return None

    def first_player(self, state):
        return state.first

    def current_player(self, state):
        return TERMINAL if state.total >= GOAL else (state.first + len(state.moves)) % 3

    def legal_actions(self, state):
        if state.total >= GOAL:
            return ()
        return tuple(n for n in (1, 2) if state.total + n <= GOAL)

    def apply(self, state, decision):
        if type(decision) is not int:
            raise InvalidActionError(f"not a number: {decision!r}")
        if decision not in self.legal_actions(state):
            raise IllegalActionError(f"cannot add {decision} to {state.total}", "FC-MOVE-1")
        return attrs.evolve(state, moves=state.moves + (decision,))

    def sample_chance(self, state, rng):
        raise AssertionError("no chance in this game")

    def observe(self, state, player):
        return state

    def outcome(self, state):
        if state.total < GOAL:
            return None
        return Outcome(((state.first + len(state.moves) - 1) % 3,), "goal")

    def history(self, state):
        return state.moves

    def decision_to_json(self, decision):
        return decision

    def decision_from_json(self, obj, path="$"):
        if type(obj) is not int:
            raise InvalidActionError(f"{path}: expected a number")
        return obj

    def view_to_json(self, view):
        return {"total": view.total}

    def to_record(self, state):
        return {"format": FORMAT, "first_player": state.first, "moves": list(state.moves),
                "result": self.record_result_json(state)}

    def read_record(self, obj):
        if not isinstance(obj, dict) or obj.get("format") != FORMAT:
            raise MalformedRecordError("$.format", f'expected "{FORMAT}"')
        if obj.get("first_player") not in (0, 1, 2):
            raise MalformedRecordError("$.first_player", "expected a player: 0, 1 or 2")
        moves = obj.get("moves")
        if not isinstance(moves, list):
            raise MalformedRecordError("$.moves", "expected a list of numbers")
        state = self.new_game(None, obj["first_player"])
        for index, move in enumerate(moves):
            try:
                state = self.apply(state, self.decision_from_json(move, f"$.moves[{index}]"))
            except InvalidActionError as error:
                raise MalformedRecordError(f"$.moves[{index}]", str(error)) from None
            except IllegalActionError as error:
                raise IllegalRecordError(f"move {index}: {error.message}", error.rule,
                                         {"move": index}) from None
        if state.total < GOAL:
            raise IllegalRecordError("the record stops before the total is 5", "FC-END-1",
                                     {"move": len(moves)})
        return state

    def record_schema(self):
        return {"$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object", "required": ["format", "first_player", "moves"]}

    def render(self, state):
        return [f"total {state.total}"]

    def ledger(self, state):
        return {}

    def expected_ledger(self, config):
        return {}

    def resample(self, state, player, rng):
        return state


@pytest.fixture
def counting():
    game = registry.register(Counting())
    yield game
    registry.unregister(game.name)


def count_record(*moves: int, first: int = 1) -> dict:
    return {"format": FORMAT, "first_player": first, "moves": list(moves)}


def hanamikoji_record() -> dict:
    return to_record(play_game(1, 0, STANDARD))


def write_lines(path, *documents) -> str:
    path.write_bytes(b"".join(json.dumps(d).encode() + b"\n" for d in documents))
    return str(path)


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# --- the game of a record ------------------------------------------------------------------


def test_a_second_game_is_found_by_its_format(counting):
    final = counting.read_record(count_record(2, 2, 1))
    verdict = judge(count_record(2, 2, 1))
    assert verdict.status is Status.VALID
    assert verdict.message == counting.describe_end(final)
    assert verdict.message == "a win for player 0 by goal after 3 decisions"
    assert verdict.result == counting.record_result_json(final)
    assert verdict.result == {"winners": [0], "reason": "goal"}
    assert verdict.where == (("move", None),) and verdict.rule is None and verdict.path is None


def test_an_illegal_record_of_the_second_game_names_its_rule_and_its_where(counting):
    verdict = judge(count_record(2, 2, 2))
    assert (verdict.status, verdict.rule, verdict.at("move")) == (Status.ILLEGAL, "FC-MOVE-1", 2)
    verdict = judge(count_record(2, 2))
    assert (verdict.rule, verdict.where) == ("FC-END-1", (("move", 2),))
    verdict = judge(count_record(2, "x"))
    assert (verdict.status, verdict.path) == (Status.MALFORMED, "$.moves[1]")


def test_verdict_json_keys_are_the_games_where_keys_after_rule(counting, tmp_path, capsys):
    path = write_lines(tmp_path / "count.jsonl", count_record(2, 2, 1), count_record(2, 2, 2))
    code, out, err = run_cli(capsys, "validate", "--json", path)
    first, second = (json.loads(line) for line in out.splitlines())
    assert code == 1 and err == ""
    assert list(first) == ["index", "source", "line", "status", "rule", "move", "path",
                           "message", "result"]
    assert first["result"] == {"winners": [0], "reason": "goal"}
    assert (second["status"], second["rule"], second["move"]) == ("illegal", "FC-MOVE-1", 2)


def test_one_file_may_hold_records_of_two_games(counting, tmp_path, capsys):
    path = write_lines(tmp_path / "both.jsonl", hanamikoji_record(),
                       count_record(1, 2, 2, first=0), hanamikoji_record())
    code, out, _ = run_cli(capsys, "validate", "--json", path)
    objects = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [o["status"] for o in objects] == ["valid"] * 3
    assert "round" in objects[0] and "move" in objects[1] and "round" in objects[2]
    assert objects[1]["result"] == {"winners": [2], "reason": "goal"}


# --- unknown formats -----------------------------------------------------------------------


@pytest.mark.parametrize("document, got", [
    ({"format": "other/1", "moves": []}, 'got "other/1"'),
    ({"format": 3}, "got 3"),
    ({"format": None}, "got null"),
    ({"format": ["count-record/1"]}, 'got ["count-record/1"]'),
    ({}, "got no format"),
    ({"format": "x" * 100}, 'got "' + "x" * 36 + "..."),
])
def test_a_format_no_game_has_is_malformed_at_format(counting, document, got):
    verdict = judge(document)
    assert (verdict.status, verdict.path, verdict.rule) == (Status.MALFORMED, "$.format", None)
    assert verdict.message.startswith("$.format: expected the record format of a registered game")
    assert verdict.message.endswith(got) and "\n" not in verdict.message
    for record_format in ('"hanamikoji-record/1"', f'"{FORMAT}"'):
        assert record_format in verdict.message


def test_the_formats_listed_are_the_registered_games(counting):
    formats = V.known_formats()
    assert formats[0] == "hanamikoji-record/1" and FORMAT in formats
    assert len(formats) == len(set(formats))
    registry.unregister(counting.name)
    assert FORMAT not in V.known_formats()
    assert judge(count_record(2, 2, 1)).path == "$.format"  # no longer anyone's records


def test_a_document_that_is_not_an_object_is_left_to_the_default_game():
    default = registry.get()
    verdict = judge([1, 2])
    assert (verdict.status, verdict.path) == (Status.MALFORMED, "$")
    assert verdict.where == tuple((key, None) for key in default.record_where)


def test_unknown_format_exits_2_with_one_line_per_record(tmp_path, capsys):
    path = write_lines(tmp_path / "odd.jsonl", {"format": "other/1"}, hanamikoji_record())
    code, out, err = run_cli(capsys, "validate", path)
    assert code == 2 and err == ""
    assert out.splitlines() == [
        f'{path}:1: record 0: malformed: $.format: expected the record format of a registered '
        f'game ({", ".join(chr(34) + f + chr(34) for f in V.known_formats())}), got "other/1"',
        "2 records: 1 valid, 0 illegal, 1 malformed"]


# --- --game forces one game ------------------------------------------------------------------


def test_game_option_judges_every_record_as_that_games(counting, tmp_path, capsys):
    path = write_lines(tmp_path / "mixed.jsonl", count_record(2, 2, 1), hanamikoji_record())
    code, out, _ = run_cli(capsys, "validate", "--json", "--game", "count-test", path)
    objects = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and [o["status"] for o in objects] == ["valid", "malformed"]
    assert objects[1]["message"] == f'$.format: expected "{FORMAT}"'  # the game's own reader
    assert all("move" in o and "round" not in o for o in objects)


def test_game_option_gives_the_games_own_message_for_a_foreign_format():
    """Forced, Hanamikoji's reader speaks for itself, as before games were found by format."""
    forced = registry.get("hanamikoji")
    verdict = judge({"format": "other/1"}, forced)
    assert verdict.message == '$.format: expected "hanamikoji-record/1", got "other/1"'


def test_lines_that_are_not_json_carry_the_forced_games_where_keys(counting):
    got = list(verdicts(io.BytesIO(b"not json\n"), "x", game=counting))
    assert got[0].judgement.status is Status.MALFORMED
    assert list(got[0].to_json()) == ["index", "source", "line", "status", "rule", "move",
                                      "path", "message", "result"]
    assert judge_bytes(b"{", counting).where == (("move", None),)


def test_a_number_with_text_glued_to_it_is_one_value_that_is_not_json(counting):
    def said(raw: bytes) -> list[str]:
        return [v.judgement.message for v in verdicts(io.BytesIO(raw), "x", game=counting)]

    # one verdict for the line, where "1" then "AB" made two (a game without notations: no hint)
    assert said(b"1AB 2CD\n") == ["not JSON: '1AB' is not a value at line 1, column 1"]
    assert said(b"\n  null1\n") == ["not JSON: 'null1' is not a value at line 2, column 3"]
    # values that stand apart are read as before: each is a record of its own
    assert len(said(b"1 2\n")) == len(said(b'{}x\n')) == len(said(b'"a""b"\n')) == 2


def test_an_unknown_game_name_is_a_usage_error(tmp_path, capsys):
    path = write_lines(tmp_path / "one.jsonl", hanamikoji_record())
    code, out, err = run_cli(capsys, "validate", "--game", "no-such-game", path)
    assert code == 2 and out == ""
    assert err == ("hanamikoji validate: error: unknown game 'no-such-game'; expected one of: "
                   + ", ".join(registry.names()) + "\n")


# --- schema --------------------------------------------------------------------------------


def test_schema_prints_the_games_schema(counting, capsys):
    code, out, _ = run_cli(capsys, "schema", "--game", "count-test")
    assert code == 0 and out == json.dumps(counting.record_schema(), indent=2) + "\n"
    code, out, _ = run_cli(capsys, "schema")
    assert code == 0 and out == registry.get().record_schema_text()


def test_schema_of_an_unknown_game_is_a_usage_error(capsys):
    code, out, err = run_cli(capsys, "schema", "--game", "no-such-game")
    assert code == 2 and out == "" and len(err.splitlines()) == 1


def test_the_modules_examples_run():
    failures, tried = doctest.testmod(V, optionflags=doctest.ELLIPSIS)
    assert failures == 0 and tried >= 4


# --- output --------------------------------------------------------------------------------


def test_a_lone_surrogate_in_a_record_is_printed_escaped(tmp_path, capsys):
    """Regression: "\\ud800" is valid JSON that no UTF-8 output can print; quoted in a message
    it made text output an internal error (exit 3) before."""
    path = tmp_path / "odd.jsonl"
    path.write_bytes(b'{"format": "\\ud800"}\n'
                     b'{"format": "hanamikoji-record/1", "variant": "\\ud800", '
                     b'"first_player": 0, "rounds": []}\n')
    code, out, err = run_cli(capsys, "validate", str(path))
    assert code == 2 and err == ""
    out.encode("utf-8")  # printable
    lines = out.splitlines()
    assert lines[0].endswith('got "\\ud800"') and "$.variant" in lines[1] and "\\ud800" in lines[1]
