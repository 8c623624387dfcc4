"""The referee and the bot protocol: a bot that breaks a rule loses with the rule's ID, one that
hangs loses on time, one that crashes or answers garbage loses, no bot process outlives its
game, and every request holds only what the seat may see."""

from __future__ import annotations

import json
import os
import pathlib
import random
import sys

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from hanamikoji.engine.core.game import CHANCE
from hanamikoji.engine.core.registry import get
from hanamikoji.oracle.core.bot import RandomBot, decide_request, new_game_request
from hanamikoji.oracle.core.bot_schema import bot_schema
from hanamikoji.oracle.core.referee import BotSpec, Limits, play
from hanamikoji.oracle.hanamikoji.bot import HeuristicBot
from hanamikoji.properties.core.cite import checks

TESTS = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(TESTS))
import referee_bots as B  # noqa: E402

ENV = dict(os.environ, PYTHONPATH=str(TESTS))
RANDOM = BotSpec("random", make=RandomBot)


def served(cls: type) -> BotSpec:
    """``cls`` as a process, served by the package's helper."""
    return BotSpec(cls.__name__, argv=(sys.executable, "-m", "hanamikoji.oracle.core.bot",
                                       f"referee_bots:{cls.__name__}"))


def raw(mode: str, *more: str) -> BotSpec:
    return BotSpec(mode, argv=(sys.executable, str(TESTS / "referee_bots.py"), mode, *more))


def judge(game_name: str, bots: list[BotSpec], options: dict | None = None, deal: int = 0,
          limits: Limits | None = None):
    game = get(game_name)
    config = game.configure(options or {})
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = str(TESTS)
    try:
        return play(game, config, bots, deal_seed=7, deal=deal,
                    bot_seeds=list(range(len(bots))), limits=limits or Limits())
    finally:
        if old is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = old


def replays(game_name: str, played, options: dict | None = None) -> None:
    """The game so far is legal: its decisions replay in the engine."""
    game = get(game_name)
    game.replay(game.history(played.state), game.configure(options or {}))


# --- illegal decisions ------------------------------------------------------------------------

HANAMIKOJI_WAYS = [
    (B.ExtraCards, "malformed", "ACT-SECRET-1"),
    (B.ExtraCardsCourse, "malformed", "ACT-SECRET-1"),
    (B.UsedAction, "illegal", "TURN-3"),
    (B.NotInHand, "illegal", "ACT-SECRET-1"),
    (B.PickNotOffered, "illegal", "ACT-GIFT-2"),
    (B.SetNotOffered, "illegal", "ACT-COMP-2"),
    (B.WrongSizePick, "malformed", "ACT-GIFT-2"),
    (B.WrongSizePickJSON, "malformed", "ACT-GIFT-2"),
    (B.Garbage, "malformed", "COMP-3"),
    (B.NotADecision, "malformed", None),
    (B.PlayerKey, "malformed", None),
    (B.PickWhenActing, "illegal", "TURN-3"),
    (B.PickWhenActingCourse, "illegal", "TURN-3"),
]


@pytest.mark.parametrize("cls, kind, rule", HANAMIKOJI_WAYS, ids=lambda x: getattr(x, "__name__", str(x)))
@pytest.mark.parametrize("seat", [0, 1])
@checks("ACT-SECRET-1", "TURN-3", "ACT-GIFT-2", "ACT-COMP-2", "COMP-3")
def test_hanamikoji_illegal_bot_loses_with_the_rule(cls, kind, rule, seat):
    bots = [RANDOM, RANDOM]
    bots[seat] = BotSpec(cls.__name__, make=cls)
    for deal in range(20):  # a deal in which the moment comes (a gift or competition to answer)
        played = judge("hanamikoji", bots, deal=deal)
        if played.forfeit is not None:
            break
    assert played.forfeit is not None and played.outcome is None
    assert (played.forfeit.seat, played.forfeit.kind, played.forfeit.rule) == (seat, kind, rule)
    assert played.forfeit.answer and played.forfeit.message
    assert played.winners(2) == (1 - seat,)
    replays("hanamikoji", played)


MAIKO_WAYS = [
    (B.FlipNotFaceDown, "illegal", "MK-FLIP-2"),
    (B.EndsTurnEarly, "illegal", "MK-TURN-2"),
    (B.StopsNoVisit, "illegal", "MK-TUTOR-ONESAN-1"),
    (B.SweepsNoRow, "illegal", "MK-ROW-3"),
    (B.SabantoEmpty, "illegal", "MK-TUTOR-3"),
    (B.FlipOffTheBoard, "malformed", "MK-COMP-5"),
    (B.MaikoGarbage, "malformed", None),
    (B.MaikoPlayerKey, "malformed", None),
]


@pytest.mark.parametrize("cls, kind, rule", MAIKO_WAYS, ids=lambda x: getattr(x, "__name__", str(x)))
@pytest.mark.parametrize("players, seat", [(2, 1), (3, 2), (4, 0)])
@checks("MK-FLIP-2", "MK-TURN-2", "MK-TUTOR-ONESAN-1", "MK-ROW-3", "MK-TUTOR-3", "MK-COMP-5")
def test_maiko_illegal_bot_loses_with_the_rule(cls, kind, rule, players, seat):
    bots = [RANDOM] * players
    bots[seat] = BotSpec(cls.__name__, make=cls)
    played = judge("maiko", bots, {"players": players})
    assert played.forfeit is not None
    assert (played.forfeit.seat, played.forfeit.kind, played.forfeit.rule) == (seat, kind, rule)
    assert played.winners(players) == tuple(p for p in range(players) if p != seat)
    replays("maiko", played, {"players": players})


@pytest.mark.parametrize("game_name, cls, rule", [
    ("hanamikoji", B.ExtraCardsCourse, "ACT-SECRET-1"),
    ("hanamikoji", B.PickNotOffered, "ACT-GIFT-2"),
    ("maiko", B.FlipNotFaceDown, "MK-FLIP-2"),
])
@checks("ACT-SECRET-1", "ACT-GIFT-2", "MK-FLIP-2")
def test_a_bot_process_gets_the_same_verdict(game_name, cls, rule):
    """Through the pipes, served by the package's helper, as in this process."""
    for deal in range(20):
        played = judge(game_name, [served(cls), RANDOM], deal=deal)
        if played.forfeit is not None:
            break
    assert (played.forfeit.seat, played.forfeit.rule) == (0, rule)


# --- faults of the process --------------------------------------------------------------------


def ended(pid: int) -> bool:
    """The process has ended (a zombie waiting for its reaper counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


def gone(pid: int, bound: float = 20.0) -> bool:
    """The process ends: SIGKILL is sent to the whole group before the game returns, but the
    kernel finishes a killed process in its own time, so wait for it (a bound far beyond that
    time: a process nobody killed sleeps an hour)."""
    import time

    stop = time.monotonic() + bound
    while not ended(pid):
        if time.monotonic() > stop:
            return False
        time.sleep(0.01)
    return True


@pytest.mark.parametrize("game_name", ["hanamikoji", "maiko"])
def test_a_bot_that_hangs_loses_on_time(game_name, tmp_path):
    pidfile = str(tmp_path / "pid")
    played = judge(game_name, [RANDOM, raw("hang", pidfile)], limits=Limits(decision=0.3))
    assert (played.forfeit.seat, played.forfeit.kind) == (1, "time")
    assert gone(int(open(pidfile).read()))


@pytest.mark.parametrize("mode, kind", [("crash", "crash"), ("not-json", "malformed"),
                                        ("huge", "malformed"), ("wrong-answer", "malformed"),
                                        ("bad-utf8", "malformed"), ("deep", "malformed"),
                                        ("bad-hello", "malformed")])
@pytest.mark.parametrize("game_name", ["hanamikoji", "maiko"])
def test_a_bot_that_crashes_or_answers_garbage_loses(game_name, mode, kind):
    played = judge(game_name, [raw(mode), RANDOM])
    assert (played.forfeit.seat, played.forfeit.kind, played.forfeit.rule) == (0, kind, None)


def test_a_python_bot_that_raises_loses_as_a_crash():
    played = judge("hanamikoji", [RANDOM, served(B.Raises)])
    assert (played.forfeit.seat, played.forfeit.kind) == (1, "crash")


def test_a_command_that_cannot_start_loses():
    played = judge("hanamikoji", [BotSpec("none", argv=(str(TESTS / "no-such-bot"),)), RANDOM])
    assert (played.forfeit.seat, played.forfeit.kind) == (0, "crash")
    assert "cannot start" in played.forfeit.message


def test_no_process_of_a_bot_is_left_behind(tmp_path):
    """The bot's whole process group ends with the game: its child too."""
    pidfile = str(tmp_path / "pid")
    played = judge("hanamikoji", [raw("spawn", pidfile), RANDOM], limits=Limits(decision=0.3))
    assert played.forfeit.kind == "time"
    bot, child = map(int, open(pidfile).read().split())
    assert gone(bot) and gone(child)


def test_the_game_limit_counts_every_decision():
    """A per-game limit shorter than a decision: the first decision already has too little."""
    played = judge("hanamikoji", [RANDOM, raw("hang")],
                   limits=Limits(decision=0.3, game=0.2))
    assert (played.forfeit.seat, played.forfeit.kind) == (1, "time")


# --- what a bot is told ----------------------------------------------------------------------


def _requests(game_name: str, options: dict, seed: int):
    game = get(game_name)
    config = game.configure(options)
    rng = random.Random(seed)
    state = game.new_game(config, 0)
    while not game.is_terminal(state):
        player = game.current_player(state)
        if player == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
            continue
        yield game, state, player, decide_request(game, state, player, player)
        state = game.apply(state, rng.choice(game.legal_actions(state)))


@checks("INFO-1", "ACT-SECRET-2", "ACT-TRADE-2")
def test_a_hanamikoji_bot_never_receives_the_other_hand_or_the_deck():
    """The request is the engine's observe and what follows from it: nothing in it changes when
    what the seat cannot see is drawn again (the engine's resampler)."""
    rng = random.Random(5)
    for game, state, player, request in _requests("hanamikoji", {}, 3):
        other = game.resample(state, player, rng)
        assert decide_request(game, other, player, player) == request
        assert request["view"] == game.view_to_json(game.observe(state, player))
        hand = "".join("ABCDEFG"[g] for g in request["view"]["hand"])
        assert request["buaa"]["hand"] == hand


@checks("MK-INFO-1")
@pytest.mark.parametrize("players", [2, 4])
def test_a_maiko_bot_never_receives_what_is_face_down(players):
    rng = random.Random(5)
    for n, (game, state, player, request) in enumerate(_requests("maiko", {"players": players}, 2)):
        if n % 7:
            continue
        other = game.resample(state, player, rng)
        assert decide_request(game, other, player, player) == request


@pytest.mark.parametrize("game_name, options", [("hanamikoji", {}), ("maiko", {"players": 2}),
                                                ("maiko", {"players": 3})])
def test_every_message_fits_the_schema(game_name, options):
    schema = bot_schema(get(game_name))
    registry = Resource.from_contents(schema) @ Registry()

    validators: dict[str, Draft202012Validator] = {}

    def errors(definition, message):
        if definition not in validators:
            validators[definition] = Draft202012Validator(
                {"$ref": f"{schema['$id']}#/$defs/{definition}"}, registry=registry)
        return [e.message for e in validators[definition].iter_errors(message)]

    game = get(game_name)
    assert errors("request-new_game", new_game_request(game, game.configure(options), 1, 9)) == []
    assert errors("answer-new_game", {"ok": True, "name": "x"}) == []
    assert errors("answer-new_game", {"ok": False})
    for n, (_, _, _, request) in enumerate(_requests(game_name, options, 1)):
        if game_name == "maiko" and n % 40:
            continue  # a Maiko view takes a second to check: a sample of the requests
        if game_name == "maiko" and n > 80:
            break
        assert errors("request-decide", request) == []
        for decision in request["legal"][:3]:
            assert errors("answer-decide", {"decision": decision}) == []
        assert errors("request-decide", {**request, "hand": [0]})  # a key more: refused
    if game_name == "hanamikoji":
        assert errors("answer-decide", {"decision": "4ACBD"}) == []
        assert errors("answer-decide", {"decision": 5})


@checks("ACT-SECRET-1")
def test_a_course_bot_answer_is_read_as_the_notation():
    """The course's spellings of one decision are one decision; the course's referee plays
    1AB, the rules refuse it."""
    game = get("hanamikoji")
    from hanamikoji.oracle.core.bot import hooks

    read = hooks(game).read_decision
    assert read(None, "4BDAC") == read(None, "4ACBD") == read(None, " 4CADB")
    assert read(None, "3GCB") == read(None, {"action": "gift", "cards": [1, 2, 6]})
    with pytest.raises(ValueError, match="ACT-SECRET-1"):
        read(None, "1AB")


# --- the built-in bots -------------------------------------------------------------------------


def test_the_random_bot_is_seeded():
    game = get("hanamikoji")
    config = game.configure()
    first = [play(game, config, [RANDOM, RANDOM], deal_seed=1, deal=0, bot_seeds=[s, s + 1])
             for s in (3, 3, 4)]
    assert game.history(first[0].state) == game.history(first[1].state)
    assert game.history(first[0].state) != game.history(first[2].state)


def test_the_heuristic_bot_beats_random_clearly():
    """Over 100 deals from both seats (200 games), at least 70% of the points: measured at 86%
    (docs/tournament.md)."""
    game = get("hanamikoji")
    config = game.configure()
    heuristic = BotSpec("heuristic", make=HeuristicBot)
    points = 0.0
    for deal in range(100):
        for seat in (0, 1):
            bots = [RANDOM, RANDOM]
            bots[seat] = heuristic
            winners = play(game, config, bots, deal_seed=11, deal=deal,
                           bot_seeds=[deal, deal + 1]).winners(2)
            points += (seat in winners) / len(winners)
    assert points / 200 >= 0.7


def test_the_helper_serves_a_game_after_another():
    """One helper process, two games: a new bot for each new_game."""
    import subprocess

    game = get("hanamikoji")
    config = game.configure()
    state = game.apply(game.new_game(config), game.sample_chance(game.new_game(config),
                                                                 random.Random(1)))
    lines = []
    for seed in (1, 1):
        lines.append(json.dumps(new_game_request(game, config, 0, seed)))
        lines.append(json.dumps(decide_request(game, state, 0, 0)))
    out = subprocess.run([sys.executable, "-m", "hanamikoji.oracle.core.bot", "random"],
                         input="\n".join(lines) + "\n", capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert [json.loads(x) for x in out[::2]] == [{"ok": True}] * 2
    assert out[1] == out[3]  # the same seed, the same choice: a fresh bot each game


@pytest.mark.parametrize("module", ["hanamikoji.oracle.core.bot", "hanamikoji.oracle.core.bot_schema",
                                    "hanamikoji.oracle.hanamikoji.bot", "hanamikoji.oracle.maiko.bot",
                                    "hanamikoji.oracle.core.tournament"])
def test_docstring_examples(module):
    import doctest
    import importlib

    failures, tried = doctest.testmod(importlib.import_module(module))
    assert tried and failures == 0


def test_a_bot_that_reads_nothing_cannot_block_the_referee():
    """A request larger than the pipe holds, to a bot that never reads: lost on time, not a
    referee stuck in its write."""
    from hanamikoji.oracle.core import referee

    seat = referee._Process(BotSpec("deaf", argv=(sys.executable, "-c",
                                                  "import time; time.sleep(3600)")))
    game = get("hanamikoji")
    with pytest.raises(referee._Fault) as fault:
        try:
            seat.start({**new_game_request(game, game.configure(), 0, 1), "pad": "x" * 2_000_000},
                       Limits(start=0.3))
        finally:
            seat.close()
    assert fault.value.kind == "time"


def test_ctrl_c_while_one_bot_is_ended_still_ends_the_others(monkeypatch):
    """Ctrl-C pressed as the first seat's process is being ended: the interrupt comes once every
    seat is closed, so the second bot's process is ended too."""
    import signal

    from hanamikoji.oracle.core import referee

    pids: list[int] = []
    close = referee._Process.close

    def pressed_during_close(self):
        if self.process is not None:
            pids.append(self.process.pid)
        if len(pids) == 1:
            os.kill(os.getpid(), signal.SIGINT)
        close(self)

    monkeypatch.setattr(referee._Process, "close", pressed_during_close)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            judge("hanamikoji", [raw("hang"), raw("hang")], limits=Limits(decision=0.3))
    finally:
        signal.signal(signal.SIGINT, previous)
    assert len(pids) == 2 and all(gone(pid) for pid in pids)


@checks("MK-INFO-1", "MK-END-5")
def test_the_bot_schema_states_the_bounds_the_referee_keeps():
    """The schema said every message was at most 65536 bytes; seeded Maiko requests reach far
    more. The bound on an answer is the referee's own (MAX_LINE); a request has none, and the
    schema says so: a Maiko view holds every step so far (MK-INFO-1, perfect recall), so a
    request is at least the steps times the shortest step's JSON, and a game may go on for
    ever by the players' choice (MK-END-5)."""
    from hanamikoji.engine.core.codec import dumps
    from hanamikoji.oracle.core.referee import MAX_LINE

    game = get("maiko")
    description = bot_schema(game)["description"]
    assert f"An answer is at most {MAX_LINE} bytes" in description
    assert "A request has no bound" in description
    largest = 0
    for seed in range(3):
        final = game.random_game(random.Random(seed), game.configure({"players": 4}))
        states = [s for s in game.states(final) if game.current_player(s) >= 0]
        shortest = min(len(dumps(entry)) for entry in
                       game.view_to_json(game.observe(final, 0))["log"])
        for state in states[::40] + states[-1:]:
            size = len(json.dumps(decide_request(game, state, game.current_player(state), 0)))
            assert size >= len(game.view_to_json(game.observe(state, 0))["log"]) * shortest
            largest = max(largest, size)
    assert largest > MAX_LINE  # a bound of MAX_LINE on requests would be false


# --- what a forfeit says ---------------------------------------------------------------------


def test_a_bot_that_raises_says_why_and_how_it_ended():
    """A Python bot that raises at its 3rd decision: its traceback's message and exit code 1."""
    played = judge("hanamikoji", [RANDOM, raw("raise-3")])
    forfeit = played.forfeit
    assert (forfeit.seat, forfeit.kind) == (1, "crash")
    assert forfeit.message == "the bot's process ended before answering decide"
    assert forfeit.exit == "exit code 1"
    assert f"RuntimeError: {B.RAISED}" in forfeit.stderr
    assert forfeit.stderr.startswith("Traceback")
    assert forfeit.to_json()["stderr"] == forfeit.stderr
    assert forfeit.to_json()["exit"] == "exit code 1"


def test_a_bot_killed_by_a_signal_says_which():
    played = judge("hanamikoji", [raw("segfault"), RANDOM])
    assert (played.forfeit.kind, played.forfeit.exit) == ("crash", "killed by SIGSEGV")
    assert played.forfeit.stderr is None


@pytest.mark.parametrize("mode", ["chatty", "chatty-3"])
def test_a_bot_that_writes_megabytes_to_stderr_is_not_blocked(mode):
    """1 MB on its standard error before each of its first two answers (the pipe holds 64 KiB):
    its answers are still read, and the forfeit keeps only the last bytes."""
    from hanamikoji.oracle.core.referee import STDERR_TAIL

    played = judge("hanamikoji", [raw(mode), RANDOM])
    if mode == "chatty":
        assert played.forfeit is None and played.outcome is not None
        return
    forfeit = played.forfeit
    assert (forfeit.seat, forfeit.kind) == (0, "malformed")  # its 3rd answer: not on time
    assert forfeit.answer == "not JSON"
    assert len(forfeit.stderr.encode()) <= STDERR_TAIL
    assert forfeit.stderr.endswith("x\nanswer 2\ngiving up at answer 3\n")  # its own, last
    assert forfeit.stderr.startswith("x")
    assert forfeit.exit is None  # it had not ended: the referee ended it


def test_a_node_bot_that_throws_says_why(tmp_path):
    """The Node shim serving a course module that throws at its 3rd call: the shim's line
    naming the call and the error's message, and exit code 1."""
    import shutil

    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    bot = BotSpec("throws", argv=("node", str(TESTS.parent / "docs" / "examples" / "buaa_bot.mjs"),
                                  str(TESTS / "js" / "t3-throws-at-call-3.mjs")))
    played = judge("hanamikoji", [bot, RANDOM], {"variant": "italian-three-rounds"})
    forfeit = played.forfeit
    assert (forfeit.seat, forfeit.kind, forfeit.exit) == (0, "crash", "exit code 1")
    assert forfeit.stderr.startswith("buaa_bot.mjs: call 3 of hanamikoji_action(")
    assert forfeit.stderr.endswith(" threw: no card left to choose from\n")


def test_a_time_forfeit_states_the_limit_and_no_clock_reading():
    """The limit, and no time read off a clock: the game's record is the same bytes on a
    loaded machine (a message that said "waited 1.01 s" made a campaign's files differ)."""
    played = judge("hanamikoji", [RANDOM, raw("hang")], limits=Limits(decision=0.3))
    assert played.forfeit.message == "no answer to decide within the limit of 0.3 s"
    played = judge("hanamikoji", [RANDOM, raw("hang")], limits=Limits(decision=0.3, game=0.2))
    assert played.forfeit.message.startswith("no answer to decide within the limit of 0.2 s")
    assert played.forfeit.message.endswith(": the rest of its 0.2 s for the game")


def test_an_illegal_course_answer_is_explained_in_the_course_terms():
    """A second secret in a round, ``1D``: the forfeit says why in the course's letters, with
    the move it already played (the game's ``fault_message`` hook, :func:`why_illegal`), and the
    engine's rule."""
    from hanamikoji.oracle.hanamikoji.bot import why_illegal

    for deal in range(20):
        played = judge("hanamikoji", [BotSpec("x", make=B.UsedAction), RANDOM], deal=deal)
        if played.forfeit is not None:
            break
    forfeit = played.forfeit
    assert (forfeit.kind, forfeit.rule) == ("illegal", "TURN-3")
    # the position it answered in is the game so far: its request's course arguments
    seen = decide_request(get("hanamikoji"), played.state, 0, 0)["buaa"]
    assert why_illegal(seen["history"], seen["hand"], forfeit.answer) == (forfeit.message,
                                                                          "TURN-3")
    assert forfeit.message.startswith("you have already played your secret this round (1")
    assert forfeit.stderr is None and forfeit.exit is None  # a built-in bot has no process
