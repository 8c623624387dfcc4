"""``hanamikoji validate``: a verdict per record, every exit code, and no traceback whatever the
bytes. Rounds and turns in verdicts count from 0."""

from __future__ import annotations

import copy
import io
import itertools
import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanamikoji.engine.hanamikoji import ITALIAN_THREE_ROUNDS, STANDARD
from hanamikoji.cli.main import main
from hanamikoji.engine.hanamikoji.record import to_record
from hanamikoji.engine.hanamikoji.seeded import play_game
from hanamikoji.oracle.core import validate as V
from hanamikoji.oracle.core.validate import Status, judge, judge_bytes, verdicts
from hanamikoji.properties.core.cite import checks


def record(seed: int = 1, index: int = 0, rules=STANDARD) -> dict:
    return to_record(play_game(seed, index, rules))


def lines_of(*records: dict) -> bytes:
    return b"".join(json.dumps(r).encode() + b"\n" for r in records)


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["validate", *args])
    out, err = capsys.readouterr()
    return code, out, err


# --- verdicts ------------------------------------------------------------------------------


def test_valid_record_gives_its_result():
    final = play_game(1, 0, STANDARD)
    verdict = judge(to_record(final))
    assert verdict.status is Status.VALID
    assert verdict.result == {"winner": final.result.winner, "reason": final.result.reason.value}
    assert verdict.rule is None and verdict.path is None


@pytest.mark.parametrize("mutate, rule, where", [
    # DEAL-1: a deal that does not hold the 21 cards.
    (lambda r: r["rounds"][0]["hands"][0].__setitem__(0, (r["rounds"][0]["hands"][0][0] + 1) % 7),
     "DEAL-1", (0, None)),
    # TURN-1: a player out of turn.
    (lambda r: r["rounds"][0]["turns"][3].update(player=r["rounds"][0]["turns"][2]["player"]),
     "TURN-1", (0, 3)),
    # TURN-1: a record that stops before the game ended (mid-round).
    (lambda r: (r["rounds"][0]["turns"].pop(), r.pop("result")), "TURN-1", (0, 7)),
    # END-2: a game that goes on after it ended.
    (lambda r: r["rounds"].append(copy.deepcopy(r["rounds"][0])), "END-2", (2, None)),
])
def test_illegal_records_name_rule_round_and_turn(mutate, rule, where):
    doc = record()
    mutate(doc)
    verdict = judge(doc)
    assert verdict.status is Status.ILLEGAL
    assert (verdict.rule, verdict.at("round"), verdict.at("turn")) == (rule, *where)
    prefix = f"round {where[0]}" + (f", turn {where[1]}: " if where[1] is not None else ":")
    assert verdict.message.startswith(prefix)


@checks("ACT-GIFT-1")
def test_card_not_in_hand_message_names_player_card_and_hand():
    """ACT-GIFT-1: the message a person reads: who, which card, and the hand."""
    doc = record()
    turns = doc["rounds"][0]["turns"]
    t = next(i for i, turn in enumerate(turns) if turn["action"] == "gift")
    hand_before = set(doc["rounds"][0]["hands"][turns[t]["player"]])
    missing = next(g for g in range(7) if g not in hand_before and g not in doc["rounds"][0]["draws"][:t + 1])
    turns[t]["cards"] = sorted([missing] + turns[t]["cards"][1:])
    turns[t]["pick"] = turns[t]["cards"][0]
    verdict = judge(doc)
    assert verdict.rule == "ACT-GIFT-1" and (verdict.at("round"), verdict.at("turn")) == (0, t)
    assert (f"round 0, turn {t}: player {turns[t]['player']} plays a gift with a card of geisha "
            f"{missing} that is not in their hand (hand: [") in verdict.message


@checks("TURN-3", "ACT-GIFT-2")
def test_action_twice_and_pick_not_offered():
    """TURN-3 (an action used twice) and ACT-GIFT-2 (a pick that was not offered)."""
    doc = record()
    turns = doc["rounds"][0]["turns"]
    gift = next(t for t in turns if t["action"] == "gift")
    gift["pick"] = next(g for g in range(7) if g not in gift["cards"])
    assert judge(doc).rule == "ACT-GIFT-2"
    doc = record()
    turns = doc["rounds"][0]["turns"]
    first = turns[0]
    turns[2] = dict(turns[0])
    assert first["player"] == turns[2]["player"]
    assert judge(doc).rule == "TURN-3"


def test_declared_result_differs_from_the_computed_one():
    doc = record()
    doc["result"]["winner"] = 1 - doc["result"]["winner"]
    verdict = judge(doc)
    assert verdict.status is Status.ILLEGAL and verdict.rule == "END-4"  # this game: charm over geisha
    assert "declares" in verdict.message


@checks("VAR-IT-1", "UPDATE-4")
def test_refinements_cite_the_specific_rule():
    """VAR-IT-1 for a round after the Italian limit; UPDATE-4 for the wrong starter of a round."""
    from hanamikoji.oracle.hanamikoji.vectors import built_game

    italian = to_record(built_game(ITALIAN_THREE_ROUNDS, 0, ("1=====0", "=======", "=======")))
    italian["rounds"].append(copy.deepcopy(italian["rounds"][0]))
    verdict = judge(italian)
    assert (verdict.rule, verdict.at("round")) == ("VAR-IT-1", 3)
    goal = record()  # ends by a goal: a further round breaks END-2, not VAR-IT-1
    goal["variant"] = "italian-three-rounds"
    goal["rounds"].append(copy.deepcopy(goal["rounds"][0]))
    assert judge(goal).rule == "END-2"
    long_game = next(play_game(1, i, STANDARD) for i in itertools.count()
                     if len(play_game(1, i, STANDARD).scores) >= 2)
    doc = to_record(long_game)
    doc["rounds"][1]["turns"][0]["player"] ^= 1
    verdict = judge(doc)
    assert (verdict.rule, verdict.at("round"), verdict.at("turn")) == ("UPDATE-4", 1, 0)
    doc = to_record(long_game)
    doc["rounds"][1]["turns"][1]["player"] ^= 1
    assert judge(doc).rule == "TURN-1"


@pytest.mark.parametrize("raw, path", [
    (b"[1, 2]", "$"),
    (b'{"format": "hanamikoji-record/1"}', "$"),
    (b'{"format": "hanamikoji-record/1", "variant": [1], "first_player": 0, "rounds": []}',
     "$.variant"),
    (b"not json", None),
    (b'{"a": 1, "a": 2}', None),
    (b"NaN", None),
    (b"\xff\xfe", None),
    (b"[" * 100_000, None),
    (b"1" * 5000, None),
])
def test_malformed_names_the_json_path(raw, path):
    verdict = judge_bytes(raw)
    assert verdict.status is Status.MALFORMED and verdict.path == path and verdict.message


def test_integral_numbers_are_integers():
    text = json.dumps(record()).replace('"first_player": 0', '"first_player": 0.0')
    assert judge_bytes(text.encode()).status is Status.VALID
    text = json.dumps(record()).replace('"first_player": 0', '"first_player": 0.5')
    assert judge_bytes(text.encode()).path == "$.first_player"


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_get_a_verdict(raw):
    """Never an exception, whatever the bytes: each record is judged."""
    for verdict in verdicts(io.BytesIO(raw), "fuzz"):
        assert verdict.judgement.status in Status


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_truncated_and_spliced_records_get_a_verdict(data):
    text = json.dumps(record(1, data.draw(st.integers(0, 5)))).encode()
    cut = data.draw(st.integers(0, len(text)))
    junk = data.draw(st.binary(max_size=8))
    verdict = judge_bytes(text[:cut] + junk + text[cut:])
    assert verdict.status in Status


# --- reading files: streaming, one document or JSON Lines ----------------------------------


def test_pretty_printed_single_record(tmp_path, capsys):
    path = tmp_path / "game.json"
    assert main(["play", "--seed", "3", "--record", str(path)]) == 0
    capsys.readouterr()
    assert b"\n" in path.read_bytes().strip()  # indented over many lines
    code, out, _ = run_cli(capsys, str(path))
    assert code == 0 and out.startswith("1 record: valid (a win for player")


def test_json_lines_with_blank_lines_and_a_broken_first_line(tmp_path):
    data = b'{"broken\n\n' + lines_of(record(1, 0), record(1, 1)) + b"\n"
    got = list(verdicts(io.BytesIO(data), "x"))
    assert [v.judgement.status for v in got] == [Status.MALFORMED, Status.VALID, Status.VALID]
    assert [(v.index, v.line) for v in got] == [(0, 1), (1, 3), (2, 4)]


class EndlessRecords(io.RawIOBase):
    """A stream of records that never ends: only a reader that streams can judge it."""

    def __init__(self) -> None:
        self.line = json.dumps(record()).encode() + b"\n"
        self.served = 0

    def readline(self, limit: int = -1) -> bytes:
        self.served += 1
        return self.line


def test_validate_streams():
    stream = EndlessRecords()
    first = list(itertools.islice(verdicts(stream, "endless"), 5))
    assert [v.index for v in first] == [0, 1, 2, 3, 4]
    assert all(v.judgement.status is Status.VALID for v in first)
    assert stream.served <= 6


def test_a_line_over_the_limit_is_skipped_not_held(monkeypatch):
    monkeypatch.setattr(V, "LINE_LIMIT", 64)
    data = lines_of(record()) + b"x" * 1000 + b"\n" + b"[1]\n"
    got = list(verdicts(io.BytesIO(data), "x"))
    assert [v.judgement.status for v in got] == [Status.MALFORMED] * 3
    assert "longer than 64 bytes" in got[0].judgement.message


# --- the command: output and exit codes ------------------------------------------------------


def test_exit_0_when_every_record_is_valid(tmp_path, capsys):
    path = tmp_path / "ok.jsonl"
    path.write_bytes(lines_of(record(1, 0), record(1, 1), record(2, 0, ITALIAN_THREE_ROUNDS)))
    code, out, err = run_cli(capsys, str(path))
    assert (code, out, err) == (0, "3 records: 3 valid, 0 illegal, 0 malformed\n", "")


def test_exit_1_when_some_are_illegal_and_none_malformed(tmp_path, capsys):
    bad = record()
    bad["rounds"][0]["turns"][1]["player"] ^= 1
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(lines_of(record(), bad))
    code, out, _ = run_cli(capsys, str(path))
    assert code == 1
    assert out.splitlines() == [
        f"{path}:2: record 1: illegal [TURN-1]: round 0, turn 1: player 0 acts out of turn; "
        "turn 1 belongs to player 1",
        "2 records: 1 valid, 1 illegal, 0 malformed"]


def test_exit_2_when_any_is_malformed(tmp_path, capsys):
    bad = record()
    bad["rounds"][0]["turns"][1]["player"] ^= 1
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(lines_of(record(), bad) + b"{}\n")
    code, out, _ = run_cli(capsys, str(path))
    assert code == 2
    assert f"{path}:3: record 2: malformed: $.format: expected" in out


def test_json_output_one_object_per_record_in_input_order(tmp_path, capsys):
    bad = record()
    bad["result"]["reason"] = "luck"
    path = tmp_path / "in.jsonl"
    path.write_bytes(lines_of(record(1, 3), bad, record(1, 4)))
    code, out, _ = run_cli(capsys, "--json", str(path))
    objects = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and [o["index"] for o in objects] == [0, 1, 2]
    assert [o["status"] for o in objects] == ["valid", "malformed", "valid"]
    keys = {"index", "source", "line", "status", "rule", "round", "turn", "path", "message",
            "result"}
    assert all(set(o) == keys for o in objects)
    state = play_game(1, 3, STANDARD)
    assert objects[0]["result"] == {"winner": state.result.winner,
                                    "reason": state.result.reason.value}
    assert objects[1]["path"] == "$.result.reason" and objects[1]["result"] is None


def _file(name: str, content: bytes | None):
    def make(tmp):
        path = tmp / name
        if content is not None:
            path.write_bytes(content)
        return str(path)
    return make


@pytest.mark.parametrize("make, message", [
    (_file("missing.jsonl", None), "no such file"),
    (lambda tmp: str(tmp), "it is a directory"),
    (_file("empty.json", b""), "holds no record"),
    (_file("blank.json", b"\n \n"), "holds no record"),
])
def test_exit_2_when_a_file_cannot_be_read(tmp_path, capsys, make, message):
    good = tmp_path / "good.jsonl"
    good.write_bytes(lines_of(record()))
    code, out, err = run_cli(capsys, str(good), make(tmp_path))
    assert code == 2 and message in err and len(err.splitlines()) == 1
    assert "1 record: valid" in out


def test_stdin_and_no_traceback_from_a_real_process(tmp_path):
    junk = bytes(range(256)) * 4 + b"\n" + lines_of(record())
    done = subprocess.run([sys.executable, "-m", "hanamikoji.engine", "validate", "-", "--json"],
                          input=junk, capture_output=True, timeout=120,
                          env={**os.environ, "PYTHONHASHSEED": "0"})
    assert done.returncode == 2 and b"Traceback" not in done.stderr
    statuses = [json.loads(line)["status"] for line in done.stdout.splitlines()]
    assert statuses[-1] == "valid" and "malformed" in statuses
    assert all(json.loads(line)["source"] == "<stdin>" for line in done.stdout.splitlines())


def test_bad_arguments_exit_2(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["validate"])
    assert exit_.value.code == 2 and "PATH" in capsys.readouterr().err
