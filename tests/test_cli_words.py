"""What a person reads: counts agree with their nouns, no Python reprs (None, {'k': v},
colour=None), no empty option values printed as nothing, errors that say what an argument
names, a binary file is one "not a record file" line, and seats that simulate can rotate."""

from __future__ import annotations

import io
import json

import pytest

from hanamikoji.engine.core import registry
from hanamikoji.cli.main import main
from hanamikoji.engine.core.words import article, plain


def _out(capsys, argv, code=0):
    assert main(argv) == code
    captured = capsys.readouterr()
    return captured.out, captured.err


@pytest.fixture(scope="module")
def one_game(tmp_path_factory):
    folder = tmp_path_factory.mktemp("words")
    for game in ("hanamikoji", "maiko"):
        assert main(["simulate", "--game", game, "--games", "1", "--records",
                     str(folder / f"{game}.jsonl")]) == 0
    return folder


def test_one_of_a_thing_is_singular(one_game, capsys):
    """'1 games', '1 records', '1 first decisions ... of 1 decisions'."""
    out, _ = _out(capsys, ["simulate", "--games", "1"])
    assert out.startswith("1 game of hanamikoji")
    out, _ = _out(capsys, ["stats", str(one_game / "maiko.jsonl")])
    assert "1 record:" in out and "1 game of maiko" in out and "1 records" not in out
    out, _ = _out(capsys, ["perft", "--seed", "0", "--depth", "1", "--divide"])
    assert "sequences of 1 decision\n" in out and " 1 decisions" not in out
    out, _ = _out(capsys, ["perft", "--game", "maiko", "--seed", "0", "--depth", "1", "--divide"])
    assert "1 first decisions" not in out


def test_verify_counts_agree_with_their_nouns():
    """'pass: 1 games, 0 queries, 1 properties'."""
    from rich.console import Console

    from hanamikoji.spec.core.verify import PropertyRun, Report, Section, render

    run = PropertyRun("p", ("R-1",), True, 1, 0.0)
    report = Report((Section("g", "G", (), (run,), None),), 1, 0, 0.0)
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(render(report))
    text = console.export_text()
    assert "pass: 1 game, 0 queries, 1 property in 0.0 s" in text, text


def test_the_where_question_has_the_right_article(capsys):
    """'can a italian-three-rounds game end so that ...' (the answer itself does not matter
    here: a short z3 budget)."""
    main(["query", "--where", "rounds == 3", "--variant", "italian-three-rounds",
          "--timeout", "0.1"])
    out = capsys.readouterr().out
    assert out.startswith("question: can an italian-three-rounds game end so that"), out
    assert article("standard") == "a"


def test_no_python_reprs_in_maiko_decisions_and_counterexamples():
    """'sweep item=3 colour=None'; a tiebreak row printed as '[None, 1, None, ...]'."""
    from hanamikoji.engine.maiko.actions import Sweep
    from hanamikoji.spec.core.queries import Counterexample

    maiko = registry.get("maiko")
    assert maiko.decision_text(Sweep(3, None)) == "sweep item=3 colour=none"
    found = Counterexample("c", "h", (("row", (None, 1, None)), ("who", None)), True)
    assert found.text() == "h: row [none, 1, none], who none; a game reaches it"
    assert plain({"winner": 0, "reason": None}) == "winner 0, reason none"


def test_empty_option_values_are_shown(capsys):
    """'(default ; one of: , white, ...)' in 'hanamikoji games'; 'removed_colour )' in titles."""
    out, _ = _out(capsys, ["games"])
    assert "(default ;" not in out and "one of: ," not in out
    assert '(default ""; one of: "", white, purple, pink, green)' in out
    out, _ = _out(capsys, ["simulate", "--game", "maiko", "--players", "3", "--games", "1"])
    assert "removed_colour )" not in out and "colours white,purple,pink)" in out


def test_an_argument_out_of_range_says_what_it_names(capsys):
    """'geisha(9)': "geisha takes an argument from 0 to 1" did not say it is a player."""
    _, err = _out(capsys, ["query", "--where", "geisha(9) == 1"], 2)
    assert "geisha takes a player from 0 to 1, not 9" in err
    _, err = _out(capsys, ["query", "--where", "marker(9) == 1"], 2)
    assert "marker takes a geisha from 0 to 6, not 9" in err
    _, err = _out(capsys, ["query", "--game", "maiko", "--where", "score(7) == 1"], 2)
    assert "score takes a player from 0 to 3, not 7" in err


@pytest.mark.parametrize("content", [
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 3 + b"\n",
    b"PK\x03\x04\x14\x00\x00\x00" + b"\n" * 3, b"\xff\xfe{\x00}\x00\n\x00"])
def test_a_binary_file_is_not_a_record_file(content, tmp_path, capsys):
    """A PNG was '2 records: 0 valid, 0 illegal, 2 malformed'."""
    path = tmp_path / "picture.png"
    path.write_bytes(content)
    out, err = _out(capsys, ["validate", str(path)], 2)
    assert err.count("\n") == 1 and f"{path} is not a record file" in err, err
    assert "malformed" not in out
    out, err = _out(capsys, ["validate", "--json", str(path)], 2)
    assert out == ""


def test_a_text_file_that_goes_wrong_later_is_still_judged_per_record(tmp_path, capsys):
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"{}\n\xff\xff\n")
    out, _ = _out(capsys, ["validate", str(path)], 2)
    assert "2 records" in out and "not UTF-8" in out


def test_simulate_rotate_gives_every_seat_its_turn_and_stays_deterministic(tmp_path, capsys):
    plain_run = tmp_path / "plain.jsonl"
    rotated = tmp_path / "rotated.jsonl"
    again = tmp_path / "again.jsonl"
    _out(capsys, ["simulate", "--games", "6", "--records", str(plain_run)])
    _out(capsys, ["simulate", "--games", "6", "--rotate", "--records", str(rotated)])
    _out(capsys, ["simulate", "--games", "6", "--rotate", "--records", str(again)])
    firsts = [json.loads(line)["first_player"] for line in rotated.read_text().splitlines()]
    assert firsts == [i % 2 for i in range(6)]
    assert rotated.read_bytes() == again.read_bytes()
    assert {json.loads(line)["first_player"] for line in plain_run.read_text().splitlines()} == {0}
    out, _ = _out(capsys, ["stats", str(plain_run)])
    assert "every game began with player 0" in out and "--rotate" in out
    out, _ = _out(capsys, ["stats", str(rotated)])
    assert "every game began" not in out
    maiko = tmp_path / "maiko.jsonl"
    _out(capsys, ["simulate", "--game", "maiko", "--players", "3", "--games", "4", "--rotate",
                  "--records", str(maiko)])
    assert [json.loads(line)["first_player"] for line in maiko.read_text().splitlines()] == \
        [0, 1, 2, 0]


def test_junk_first_then_records_is_still_a_file_of_records(tmp_path, capsys):
    """Held back only while nothing in the file is a record: a file that begins with junk and
    goes on with records gets every verdict, the junk's included."""
    from hanamikoji.cli.simulate import play_game

    game = registry.get("hanamikoji")
    record = json.dumps(game.to_record(play_game(game, game.configure({}), 0, 0)))
    path = tmp_path / "junk-then-record.jsonl"
    path.write_bytes(bytes(range(256)) + b"\n" + record.encode() + b"\n")
    out, _ = _out(capsys, ["validate", "--json", str(path)], 2)
    assert [json.loads(line)["status"] for line in out.splitlines()][-1] == "valid"


def test_a_where_witness_is_written_in_plain_words(monkeypatch, capsys):
    """A Hanamikoji witness printed 'markers [0, None, ...], {'winner': 0, 'reason': ...}' and
    'a game of 1 round(s)'."""
    import types

    import hanamikoji.spec.hanamikoji.where as where

    answer = types.SimpleNamespace(
        variant="standard", expression="winner == 0", answer="possible", core=None,
        hypotheses=(), note="", seconds=0.0,
        witness={"rounds": 1, "markers": [0, None, 1], "result": {"winner": 0, "reason": "charm"}})
    monkeypatch.setattr(where, "ask", lambda expression, **options: answer)
    out, _ = _out(capsys, ["query", "--where", "winner == 0"])
    assert ("witness:  a game of 1 round ending at markers [0, none, 1], winner 0, reason charm;"
            in out), out
    assert "None" not in out and "{" not in out


def test_validate_text_shows_values_as_json_never_python_reprs(tmp_path, capsys):
    """A Hanamikoji malformed message said 'got None', 'got True', "got {'a': 1}"."""
    from hanamikoji.cli.simulate import play_game

    game = registry.get("hanamikoji")
    record = game.to_record(play_game(game, game.configure({}), 0, 0))
    for value, shown in ((None, "got null"), (True, "got true"), ({"a": 1}, 'got {"a": 1}')):
        path = tmp_path / "r.json"
        path.write_text(json.dumps({**record, "first_player": value}))
        out, _ = _out(capsys, ["validate", str(path)], 2)
        assert shown in out and "None" not in out and "True" not in out, out
