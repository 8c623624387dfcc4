"""Every forfeit can be replayed and looked at: the request a forfeit keeps is what its bot read,
byte for byte; ``tournament --only N`` plays game N alone, writing the same games.jsonl line, and
``--trace`` shows each exchange; ``view`` and ``show`` open a tournament's games.jsonl, naming the
bots, replaying a forfeit to its position and a finished game from its record, and keeping the
forfeit's details to whom may see them (docs/tournament.md, "Looking at a forfeit")."""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

from hanamikoji.engine.core.registry import get
from hanamikoji.oracle.core.bot import decide_request
from hanamikoji.oracle.core.referee import BotSpec, Limits, play
from hanamikoji.oracle.core.tournament import (Tournament, play_unit, shard_problem,
                                               tournament_shard)

TESTS = pathlib.Path(__file__).resolve().parent
ROOT = TESTS.parent
sys.path.insert(0, str(TESTS))
import referee_bots as B  # noqa: E402

ENV = dict(os.environ, PYTHONPATH=str(TESTS),
           PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))


def heard(log: pathlib.Path, fault: str) -> BotSpec:
    return BotSpec("heard", argv=(sys.executable, str(TESTS / "referee_bots.py"), "heard",
                                  str(log), fault))


def compact(value) -> str:
    return json.dumps(value, separators=(",", ":"))


def hanamikoji(*words: str, cwd: pathlib.Path) -> subprocess.CompletedProcess:
    """The command run in this process (in ``cwd``, bots finding ``python`` and tests/ as
    :data:`ENV` says): its exit code and what it printed, as a finished process gives them."""
    import contextlib
    import io

    from hanamikoji.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    environ, folder = dict(os.environ), os.getcwd()
    os.environ.update(ENV)
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(words))
            except SystemExit as stopped:  # argparse's refusal
                code = stopped.code
    finally:
        os.chdir(folder)
        os.environ.clear()
        os.environ.update(environ)
    return subprocess.CompletedProcess(list(words), code, out.getvalue(), err.getvalue())


# --- the request a forfeit keeps -------------------------------------------------------------


@pytest.mark.parametrize("fault, kind, op", [
    ("start", "crash", "new_game"), ("crash", "crash", "decide"), ("hang", "time", "decide"),
    ("malformed", "malformed", "decide"), ("throw", "crash", "decide"),
    ("illegal", "illegal", "decide")])
def test_a_forfeit_keeps_the_request_its_bot_read(tmp_path, fault, kind, op):
    """The last line the bot read is the forfeit's request, byte for byte (the referee's compact
    JSON), for every kind of fault; a decision's request is the seat's view of the game so far,
    as the engine's observe gives it."""
    log = tmp_path / "heard.log"
    tournament = Tournament("hanamikoji", (), (BotSpec("random", make=_random()),
                                               heard(log, fault)), 1, 0, Limits(decision=0.5))
    result = play_unit(tournament, 0)
    forfeit = result.forfeit
    assert forfeit is not None and (forfeit["kind"], forfeit["seat"]) == (kind, 1)
    lines = log.read_bytes().splitlines()
    assert compact(forfeit["request"]).encode() == lines[-1]
    assert forfeit["request"]["op"] == op
    if op == "decide":
        game = get("hanamikoji")
        from hanamikoji.oracle.core.perft import read_position

        state = read_position(game, result.game)
        assert forfeit["request"] == decide_request(game, state, 1, 1)
    if fault == "throw":
        assert B.HEARD_THROWS in forfeit["stderr"]


def _random():
    from hanamikoji.oracle.core.bot import RandomBot

    return RandomBot


def test_a_built_in_bots_illegal_decision_keeps_its_request():
    """A bot in the referee's process has no process and no stderr, but its request is kept:
    the decide of the game so far."""
    game = get("hanamikoji")
    config = game.configure({})
    played = play(game, config, [BotSpec("bad", make=B.NotInHand), BotSpec("r", make=_random())],
                  deal_seed=0, deal=0, bot_seeds=[1, 2])
    forfeit = played.forfeit
    assert forfeit is not None and forfeit.kind == "illegal" and forfeit.stderr is None
    assert forfeit.request == decide_request(game, played.state, 0, 0)
    assert forfeit.to_json()["request"] == forfeit.request


def test_a_stored_shard_whose_forfeit_has_no_request_is_played_again():
    """A shard kept by a toolkit before forfeits kept their request would give other
    games.jsonl bytes than playing it now: --resume plays it again."""
    tournament = Tournament("hanamikoji", (), (BotSpec("bad", make=B.NotInHand),
                                               BotSpec("r", make=_random())), 1, 0)

    class Shard:
        args = (tournament, 0, 2)

    blob = tournament_shard(tournament, 0, 2)
    assert shard_problem(Shard, blob) is None
    old = []
    for line in blob.splitlines():
        data = json.loads(line)
        if data["forfeit"] is not None:
            del data["forfeit"]["request"]
        old.append(json.dumps(data) + "\n")
    assert shard_problem(Shard, "".join(old)) == ("its forfeit of game 0 has no request (a "
                                                  "shard of an earlier toolkit)")


def test_the_bot_schema_describes_the_forfeit_and_its_request(tmp_path):
    """The forfeits games.jsonl holds (a command bot's crash at the start, and a built-in
    bot's illegal decision) check against the bot schema's $defs/forfeit, their requests
    against the protocol's requests; a forfeit without its request does not."""
    import jsonschema

    from hanamikoji.oracle.core.bot_schema import bot_schema

    schema = bot_schema(get("hanamikoji"))
    assert "whole" in schema["$defs"]["forfeit"]["properties"]["request"]["description"]
    forfeit = {**schema, "$ref": "#/$defs/forfeit"}
    del forfeit["anyOf"]
    illegal = Tournament("hanamikoji", (), (BotSpec("bad", make=B.NotInHand),
                                            BotSpec("random", make=_random())), 1, 0)
    start = Tournament("hanamikoji", (), (BotSpec("random", make=_random()),
                                          heard(tmp_path / "log", "start")), 1, 0)
    lines = [play_unit(t, 0).to_json(["a", "b"])["forfeit"] for t in (illegal, start)]
    assert [f["kind"] for f in lines] == ["illegal", "crash"]
    assert [f["request"]["op"] for f in lines] == ["decide", "new_game"]
    for line in lines:
        jsonschema.validate(line, forfeit)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({k: v for k, v in lines[0].items() if k != "request"}, forfeit)


# --- tournament --only N and --trace ---------------------------------------------------------


def test_only_n_plays_game_n_alone_with_the_same_line_and_trace_shows_its_calls(tmp_path):
    """``--only 1`` writes game 1's games.jsonl line of the whole tournament, byte for byte,
    and lists the same forfeit in --json; ``--trace`` shows every request the bot read (its
    own log, in order) and the last is the forfeit's request."""
    whole, alone = tmp_path / "whole.log", tmp_path / "alone.log"
    bot = f"heard=python {TESTS / 'referee_bots.py'} heard {{}} throw"
    done = hanamikoji("tournament", "random", bot.format(whole), "--deals", "1", "--out",
                      "all", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    full = (tmp_path / "all" / "games.jsonl").read_text().splitlines()
    assert len(full) == 2
    one = hanamikoji("tournament", "random", bot.format(alone), "--deals", "1", "--out", "one",
                     "--json", "--only", "1", "--trace", cwd=tmp_path)
    assert one.returncode == 0, one.stderr
    assert (tmp_path / "one" / "games.jsonl").read_text() == full[1] + "\n"
    report = json.loads(one.stdout)
    assert report["only"] == 1 and report["games"] == 1
    assert report["forfeits"] == [f for f in json.loads(done.stdout)["forfeits"]
                                  if f["game"] == 1]
    sent = [line.split(": ", 1)[1] for line in one.stderr.splitlines()
            if line.startswith("referee > heard (seat 0): ")]
    assert [line.encode() for line in sent] == alone.read_bytes().splitlines()
    assert sent[-1] == compact(json.loads(full[1])["forfeit"]["request"])
    assert b'"request":' + alone.read_bytes().splitlines()[-1] in full[1].encode()  # verbatim
    answers = [line for line in one.stderr.splitlines() if line.startswith("heard (seat 0) > ")]
    assert len(answers) == len(sent) - 1  # every request answered but the last
    # every line of the trace is one of the four shapes
    for line in one.stderr.splitlines():
        assert line.startswith(("referee > heard (seat 0): ", "heard (seat 0) > referee: ",
                                "referee > random (seat 1): ", "random (seat 1) > referee: "))


@pytest.mark.parametrize("fault", ["hang", "illegal", "start"])
def test_only_n_reproduces_each_kind_of_forfeit_byte_for_byte(tmp_path, capsys, monkeypatch,
                                                              fault):
    """A time forfeit (its message states the limit, no clock reading), a decision the rules
    forbid, and a crash at the start: game 1 alone writes game 1's line of the whole
    tournament."""
    from hanamikoji.cli.main import main

    monkeypatch.setenv("PATH", ENV["PATH"])
    bot = f"heard=python {TESTS / 'referee_bots.py'} heard {tmp_path / 'log'} {fault}"
    words = ["tournament", "random", bot, "--deals", "1", "--decision-time", "0.3"]
    assert main([*words, "--out", str(tmp_path / "all")]) == 0
    assert main([*words, "--out", str(tmp_path / "one"), "--only", "1"]) == 0
    capsys.readouterr()
    whole = (tmp_path / "all" / "games.jsonl").read_text().splitlines()
    assert json.loads(whole[1])["forfeit"]["kind"] == {"hang": "time", "illegal": "illegal",
                                                       "start": "crash"}[fault]
    assert (tmp_path / "one" / "games.jsonl").read_text() == whole[1] + "\n"


@pytest.mark.parametrize("words, said", [
    (["--only", "2"], "--only 2: the schedule has 2 games, numbered 0 to 1"),
    (["--trace"], "--trace needs --only N: it prints the exchanges of one game"),
    (["--only", "0", "--workers", "2"], "--only plays one game in this process; it takes no "
                                        "--workers")])
def test_only_and_trace_refuse_what_they_cannot_do(tmp_path, words, said):
    done = hanamikoji("tournament", "random", "random", "--deals", "1", *words, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"hanamikoji tournament: error: {said}\n"


# --- view and show of a games.jsonl ----------------------------------------------------------


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """A tournament of random, a bot that throws at its 3rd decision and another random: 6
    games, 4 forfeits (games 0, 1, 4 and 5), 2 games played to their end (2 and 3)."""
    folder = tmp_path_factory.mktemp("results")
    log = folder / "heard.log"
    done = hanamikoji("tournament", "random", f"heard=python {TESTS / 'referee_bots.py'} heard "
                      f"{log} throw", "random", "--deals", "1", "--out", "out", cwd=folder)
    assert done.returncode == 0, done.stderr
    return folder


def test_show_names_the_bots_and_replays_a_forfeit_to_its_position(results):
    lines = (results / "out" / "games.jsonl").read_text().splitlines()
    forfeit = json.loads(lines[0])["forfeit"]
    done = hanamikoji("show", "out/games.jsonl", "--only", "0", cwd=results)
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    assert out[0] == "out/games.jsonl:1: game 0 (deal 0): random#1 (seat 0), heard (seat 1)"
    # the game so far, as perft --history's position replays it, then the forfeit
    game = get("hanamikoji")
    from hanamikoji.oracle.core.perft import read_position

    state = read_position(game, json.loads(lines[0])["position"])
    assert out[1:1 + len(game.render(state))] == list(game.render(state))
    assert out[-3:] == [
        "forfeit: heard (seat 1): crash: the bot's process ended before answering decide "
        "(exit code 1)", f"  stderr: RuntimeError: {B.HEARD_THROWS}",
        "  request: " + compact(forfeit["request"])]


def test_show_as_the_other_player_keeps_the_forfeits_details_hidden(results):
    """Player 0's view: who forfeited and the kind, not the message, the bot's words or its
    request (player 1's own view, its hand)."""
    done = hanamikoji("show", "out/games.jsonl", "--only", "0", "--player", "0", cwd=results)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "forfeit: heard (seat 1): crash"
    assert "request" not in done.stdout and "stderr" not in done.stdout
    own = hanamikoji("show", "out/games.jsonl", "--only", "0", "--player", "1", cwd=results)
    assert own.stdout.splitlines()[-1].startswith("  request: ")


def test_show_replays_a_finished_game_from_its_record(results):
    """Game 2 (random#1 against random#2) ended: shown as its record in records.jsonl is (the
    first record: games 0 and 1 were forfeited)."""
    game2 = hanamikoji("show", "out/games.jsonl", "--only", "2", cwd=results)
    record = hanamikoji("show", "out/records.jsonl", "--only", "0", cwd=results)
    assert game2.returncode == record.returncode == 0, game2.stderr + record.stderr
    assert game2.stdout.splitlines()[0] == ("out/games.jsonl:3: game 2 (deal 0): random#1 "
                                            "(seat 0), random#2 (seat 1)")
    assert game2.stdout.splitlines()[1:] == record.stdout.splitlines()[1:]
    assert len(record.stdout.splitlines()) > 10


def test_a_records_file_that_does_not_go_with_the_games_is_refused(results, tmp_path):
    """records.jsonl missing, or of another tournament: one line each, exit 2; the forfeits
    are still shown."""
    folder = tmp_path / "alone"
    folder.mkdir()
    shutil.copy(results / "out" / "games.jsonl", folder)
    done = hanamikoji("show", "alone/games.jsonl", cwd=tmp_path)
    assert done.returncode == 2
    assert [line[:15] for line in done.stdout.splitlines()
            if line.startswith("forfeit:")] == ["forfeit: heard "] * 4
    errors = done.stderr.splitlines()
    assert len(errors) == 2 and errors[0].startswith(
        "hanamikoji show: error: alone/games.jsonl:3: game 2 was played to its end; its "
        "record is not here")
    records = (results / "out" / "records.jsonl").read_text().splitlines()
    lines = [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]
    assert lines[2]["winners"] != lines[3]["winners"]  # so the records cannot be swapped
    (folder / "records.jsonl").write_text("\n".join(records[1:] + records[:1]) + "\n")
    swapped = hanamikoji("show", "alone/games.jsonl", "--only", "2", cwd=tmp_path)
    assert swapped.returncode == 2 and swapped.stdout == ""
    assert swapped.stderr.startswith("hanamikoji show: error: alone/games.jsonl:3: "
                                     "alone/records.jsonl:1, the record in its place, does not "
                                     "end as the game does")


@pytest.mark.parametrize("line, said", [
    ('{"game": 1}', "$.deal: expected a whole number, got null"),
    ('{"game": 1, "deal": 0, "bots": ["a"], "winners": 5, "reason": "x"}',
     "$.winners: expected a list of seats, got 5"),
    ('{"game": 1, "deal": 0, "bots": ["a"], "winners": [], "reason": "forfeit", '
     '"forfeit": {"seat": 3}}', "$.forfeit.seat: expected a seat of the game"),
    ('{"game": 1, "deal": 0, "bots": ["a"], "winners": [], "reason": "forfeit", '
     '"forfeit": {"seat": 0}}', "$.position: expected the game so far (a position object)"),
    ("[1, 2]", "not a JSON object")])
def test_a_line_that_is_no_tournament_game_is_one_line(tmp_path, line, said):
    """The first line makes the file a tournament's; a later line that is not one of its games
    is one line naming the file, the line and the JSON path, exit 2, never a traceback."""
    first = '{"game": 0, "deal": 0, "bots": ["a", "b"], "winners": [0], "reason": "x"}'
    (tmp_path / "games.jsonl").write_text(first + "\n" + line + "\n")
    for command in ("show", "view"):
        done = hanamikoji(command, "games.jsonl", cwd=tmp_path)
        assert done.returncode == 2
        assert done.stderr.splitlines()[-1] == (
            f"hanamikoji {command}: error: games.jsonl:2: not a game of a tournament's "
            f"games.jsonl: {said}")


def test_a_forfeits_position_the_engine_refuses_is_one_line(tmp_path):
    line = {"game": 0, "deal": 0, "bots": ["a", "b"], "winners": [0], "reason": "forfeit",
            "forfeit": {"seat": 1, "kind": "crash"},
            "position": {"game": "hanamikoji", "history": [{"action": "secret"}]}}
    (tmp_path / "games.jsonl").write_text(json.dumps(line) + "\n")
    done = hanamikoji("show", "games.jsonl", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    (said,) = done.stderr.splitlines()
    assert said.startswith("hanamikoji show: error: games.jsonl:1: $.position: $.history[0]")


def test_view_writes_every_game_with_its_bots_and_forfeit(results, tmp_path):
    from hanamikoji.viewer.core.page import unpack

    done = hanamikoji("view", "out/games.jsonl", "--out", str(tmp_path / "page.html"),
                      cwd=results)
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "page.html").read_text()
    data = json.loads(page.split('id="hk-data">', 1)[1].split("</script>", 1)[0])
    entries = data["games"]
    lines = [json.loads(line) for line in (results / "out" / "games.jsonl").read_text()
             .splitlines()]
    assert [e["bots"] for e in entries] == [line["bots"] for line in lines]
    assert [e.get("forfeit", {}).get("request") for e in entries] == [
        (line.get("forfeit") or {}).get("request") for line in lines]
    assert entries[0]["forfeit"]["stderr_line"] == f"RuntimeError: {B.HEARD_THROWS}"
    assert [e["end"] is None for e in entries] == [line["reason"] == "forfeit" for line in lines]
    # a forfeit replayed to its position: as many steps as the position's history
    steps = unpack(entries[1]["z"])["steps"]
    assert len(steps) == len(lines[1]["position"]["history"])


def test_a_node_bots_forfeit_keeps_the_call_its_module_threw_on(tmp_path):
    """The Node shim serving a course module that throws at its 3rd call names the call's
    arguments on its stderr; the forfeit's request holds the same three (its ``buaa``), and
    ``--only`` with ``--trace`` shows that request as the last sent to the bot."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    bot = (f"course=node {ROOT / 'docs' / 'examples' / 'buaa_bot.mjs'} "
           f"{TESTS / 'js' / 't3-throws-at-call-3.mjs'}")
    done = hanamikoji("tournament", "--variant", "italian-three-rounds", "random", bot,
                      "--deals", "1", "--only", "1", "--json", "--trace", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    (forfeit,) = json.loads(done.stdout)["forfeits"]
    buaa = forfeit["request"]["buaa"]
    said = (f"call 3 of hanamikoji_action({json.dumps(buaa['history'])}, "
            f"{json.dumps(buaa['hand'])}, {compact(buaa['board'])}) threw")
    assert said in forfeit["stderr"]
    sent = [line for line in done.stderr.splitlines()
            if line.startswith("referee > course (seat 0): ")]
    assert sent[-1] == "referee > course (seat 0): " + compact(forfeit["request"])


def test_only_a_game_the_file_does_not_hold_is_one_line(results):
    for command in ("show", "view"):
        done = hanamikoji(command, "out/games.jsonl", "--only", "6", cwd=results)
        assert (done.returncode, done.stdout) == (2, "")
        assert done.stderr == (f"hanamikoji {command}: error: --only 6: no record 6 and no game "
                               "6 of a tournament in out/games.jsonl\n")


def test_only_n_of_a_file_of_records_is_record_n(tmp_path):
    """``--only N`` of records: record N alone, as the file shows it among the rest."""
    done = hanamikoji("simulate", "--games", "3", "--records", "games.jsonl", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    every = hanamikoji("show", "games.jsonl", cwd=tmp_path).stdout
    alone = hanamikoji("show", "games.jsonl", "--only", "1", cwd=tmp_path).stdout
    assert alone.startswith("games.jsonl:2: record 1\n") and "\n\n" + alone + "\n" in every
    assert "record 0" not in alone and "record 2" not in alone
    page = hanamikoji("view", "games.jsonl", "--only", "2", cwd=tmp_path)
    assert page.stdout == "wrote games.html (1 record)\n"


def test_stats_knows_a_tournaments_records_whose_first_forfeit_is_long(results, tmp_path):
    """A first line of games.jsonl longer than 64 KiB (a forfeit's request, stderr and
    position grow with the game) still marks records.jsonl as a tournament's: no note that
    'simulate' begins with player 0."""
    folder = tmp_path / "long"
    folder.mkdir()
    lines = (results / "out" / "games.jsonl").read_text().splitlines()
    first = json.loads(lines[0])
    first["forfeit"]["stderr"] = "x" * 70_000
    (folder / "games.jsonl").write_text("\n".join([json.dumps(first, separators=(",", ":")),
                                                   *lines[1:]]) + "\n")
    shutil.copy(results / "out" / "records.jsonl", folder)
    done = hanamikoji("stats", "long/records.jsonl", cwd=tmp_path)
    assert done.returncode == 0 and "2 games of" in done.stdout, done.stderr
    assert "note:" not in done.stdout


def test_a_maiko_tournaments_forfeits_are_shown_too(tmp_path):
    """Nothing of this is Hanamikoji's: a three-seat Maiko tournament's games.jsonl (written as
    the command writes it) is shown and viewed, each forfeit with its request, the seat's view
    of the game so far, and kept from the other seats' views."""
    from hanamikoji.oracle.core.perft import read_position

    bots = (BotSpec("random", make=_random()), BotSpec("early", make=B.EndsTurnEarly),
            BotSpec("random2", make=_random()))
    tournament = Tournament("maiko", (("players", 3),), bots, 1, 0)
    names = [b.name for b in bots]
    lines = [play_unit(tournament, i).to_json(names) for i in range(6)]
    assert all(line["forfeit"]["bot"] == "early" for line in lines)
    (tmp_path / "games.jsonl").write_text("".join(compact(line) + "\n" for line in lines))
    (tmp_path / "records.jsonl").write_text("")
    game = get("maiko")
    for line in lines[:2]:
        seat = line["forfeit"]["seat"]
        state = read_position(game, line["position"])
        assert line["forfeit"]["request"] == decide_request(game, state, seat, seat)
        done = hanamikoji("show", "games.jsonl", "--only", str(line["game"]), cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines()[-1] == "  request: " + compact(line["forfeit"]["request"])
        other = (seat + 1) % 3
        seen = hanamikoji("show", "games.jsonl", "--only", str(line["game"]), "--player",
                          str(other), cwd=tmp_path)
        assert seen.stdout.splitlines()[-1] == (f"forfeit: early (seat {seat}): illegal "
                                                "[MK-TURN-2]")
    page = hanamikoji("view", "games.jsonl", cwd=tmp_path)
    assert (page.returncode, page.stdout) == (0, "wrote games.html (6 records)\n")
