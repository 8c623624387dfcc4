"""``hanamikoji diff``: every broken engine of tests/broken_engines.py, run through the example
adapter as a separate process, is reported; the reference is not; a crashing, hanging or
garbage-printing engine gets a clear report; and a report replays to the answers it shows.
The protocol for any game: an adapter of before the core gets the requests it knows, one that
declares protocol 2 gets the general ones (new_game with the game, players and options; op
chance), options not fixed are drawn per game, seeded chance is checked for any game, and
whatever an adapter answers is a divergence, never an internal error."""

from __future__ import annotations

import importlib.util
import json
import pathlib
import sys

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from hanamikoji.engine.hanamikoji import Rules, apply, new_game
from hanamikoji.cli.main import main
from hanamikoji.oracle.core.diff import compare_engines
from hanamikoji.oracle.core.diff import hooks as diff_hooks
from hanamikoji.engine.hanamikoji.errors import HanamikojiError
from hanamikoji.oracle.hanamikoji.adapter import EngineAdapter
from hanamikoji.engine.hanamikoji.codec import parse_deal, parse_decision
from hanamikoji.properties.core.cite import checks

ROOT = pathlib.Path(__file__).parent.parent
ADAPTER = ROOT / "docs" / "examples" / "adapter.py"
sys.path.insert(0, str(ROOT / "tests"))
from broken_engines import BROKEN  # noqa: E402  (tests/ is not a package)
from testgame.fixtures import testgame  # noqa: E402,F401  (the fixture, by name)


#: A per-request timeout (seconds) no loaded machine comes near: no verdict below depends on the
#: harness's timeout firing, or not firing, at a given moment (the hang test's engine never
#: answers at all).
T = 600.0
TIMEOUT = ["--timeout", "600"]


def adapter(engine: str | None = None) -> list[str]:
    return [sys.executable, str(ADAPTER)] + (["--engine", engine] if engine else [])


def test_the_example_adapter_is_the_packages():
    """docs/examples/adapter.py copies nothing: it runs the package's adapter, which the tests
    below exercise in this process."""
    from hanamikoji.oracle.hanamikoji import adapter as package

    spec = importlib.util.spec_from_file_location("oracle_adapter", ADAPTER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main is package.main
    assert not [name for name, value in vars(module).items()
                if callable(value) and getattr(value, "__module__", None) == "oracle_adapter"]


@pytest.fixture(autouse=True)
def tests_on_the_path(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT / "tests"))


def replay_answer(engine, divergence) -> object:
    """The answer ``engine`` gives to the divergent request after the reported decisions,
    computed in this process by the example adapter's own code."""
    wrapped = EngineAdapter(engine)
    wrapped.new_game({"variant": divergence.variant, "first_player": divergence.first_player})
    decisions = list(divergence.decisions)
    if divergence.request.get("op") in ("apply", "deal") and decisions and \
            decisions[-1] in (divergence.request.get("decision"), {"deal": divergence.request.get("deal")}):
        decisions.pop()  # the decision the request sends
    for decision in decisions:
        if "deal" in decision:
            wrapped.deal({"deal": decision["deal"]})
        else:
            wrapped.apply({"decision": decision})
    return wrapped.answer(json.dumps(divergence.request))


def test_the_reference_through_the_adapter_agrees():
    report = compare_engines(adapter(), games=12, seed=3, timeout=T)
    assert report.divergence is None and report.games >= 12 and report.engine_starts == 1


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_every_broken_engine_is_reported(name):
    engine = BROKEN[name]
    report = compare_engines(adapter(f"broken_engines:{name}"), games=60, seed=0, shrink=0,
                             timeout=T)
    d = report.divergence
    assert d is not None, f"{name} ({engine.bug}) was not caught"
    if d.variant is None:  # found by the check of seeded deals, before any game
        expected = {"deal-ignores-seed": "ignores its seed",
                    "biased-swap-shuffle": "are not a fair shuffle"}.get(name, "two processes")
        assert d.request["op"] == "random_deal" and expected in d.message, d.message
        return
    # The report replays: the reference and the broken engine give the answers it shows.
    import hanamikoji.engine as reference

    other = replay_answer(engine, d)
    if d.reference is not None and "error" not in d.reference:
        assert replay_answer(reference, d) == d.reference
    if d.other is not None:
        assert other == d.other


@checks("DEAL-1")
def test_seeded_deals_are_checked_for_legality_and_reproducibility(tmp_path):
    """DEAL-1: a seeded deal of 20 cards is reported before any game is played."""
    argv = script(tmp_path, "short.py", "for line in sys.stdin:\n"
                  "    print(json.dumps({'deal': {'removed': 0, 'hands': [[0] * 6, [1] * 6],"
                  " 'draws': [2] * 8}}), flush=True)\n")
    report = compare_engines(argv, games=5, timeout=T)
    assert report.games == 0 and "not give a legal deal" in report.divergence.message
    assert "DEAL-1" in report.divergence.message


def test_a_divergence_shrinks_and_stays_a_divergence():
    """Shrinking keeps the game failing and never makes it longer than the first one found."""
    engine = "broken_engines:tie-clears-old-marker"
    first = compare_engines(adapter(engine), games=60, seed=0, shrink=0, timeout=T).divergence
    shrunk = compare_engines(adapter(engine), games=60, seed=0, shrink=40, timeout=T)
    assert first is not None and shrunk.divergence is not None and shrunk.shrunk
    assert len(shrunk.divergence.decisions) <= len(first.decisions)
    assert replay_answer(BROKEN["tie-clears-old-marker"], shrunk.divergence) == \
        shrunk.divergence.other
    # A tie can only clear a marker won in an earlier round: two rounds at least.
    deals = [d for d in shrunk.divergence.decisions if "deal" in d]
    assert len(deals) >= 2


def test_the_reported_game_is_legal_for_the_reference():
    d = compare_engines(adapter("broken_engines:same-starter"), games=30, seed=1,
                        shrink=0, timeout=T).divergence
    state = new_game(Rules.named(d.variant), d.first_player)
    for decision in d.decisions:
        state = apply(state, parse_deal(decision["deal"]) if "deal" in decision
                      else parse_decision(decision))
    assert state.round == 1  # the second round's start is where the starters differ


def script(tmp_path, name: str, body: str) -> list[str]:
    path = tmp_path / name
    path.write_text("import sys, time, json\n" + body)
    return [sys.executable, str(path)]


def test_a_crashing_engine_is_reported_with_its_stderr(tmp_path):
    argv = script(tmp_path, "crash.py", "for line in sys.stdin:\n"
                  "    sys.stderr.write('boom: engine failed\\n'); sys.stderr.flush(); sys.exit(3)\n")
    # It exits before answering its very first request: it cannot start (exit 2), not a
    # divergence; the message still has its exit code and stderr.
    from hanamikoji.oracle.core.diff import CannotStart

    with pytest.raises(CannotStart) as error:
        compare_engines(argv, games=5, shrink=0, timeout=T)
    assert "exit code 3" in str(error.value) and "boom: engine failed" in str(error.value)


def test_a_hanging_engine_is_reported_without_waiting_for_every_game(tmp_path):
    # it never answers: the short timeout fires whenever the machine gets to it
    argv = script(tmp_path, "hang.py", "for line in sys.stdin:\n    time.sleep(10 ** 6)\n")
    report = compare_engines(argv, games=50, timeout=0.5)
    assert report.divergence is not None and "did not answer" in report.divergence.message
    assert report.games <= 1 and not report.shrunk


def test_a_garbage_printing_engine_is_reported(tmp_path):
    argv = script(tmp_path, "garbage.py", "for line in sys.stdin:\n"
                  "    print('\\x00\\x01 not json', flush=True)\n")
    d = compare_engines(argv, games=5, shrink=0, timeout=T).divergence
    assert d is not None and "not JSON" in d.message


def test_an_engine_that_rejects_everything_is_reported(tmp_path):
    argv = script(tmp_path, "no.py", "for line in sys.stdin:\n"
                  "    print(json.dumps({'error': 'no', 'rule': None}), flush=True)\n")
    d = compare_engines(argv, games=5, shrink=0, timeout=T).divergence
    assert d is not None and d.request["op"] == "new_game"


def test_cli_exit_codes_and_json(tmp_path, capsys):
    assert main(["diff", *TIMEOUT, "--games", "3", "--json", "--", *adapter()]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "agree" and out["divergence"] is None
    assert main(["diff", *TIMEOUT, "--games", "20", "--shrink", "0", "--variant", "standard",
                 "--",
                 *adapter("broken_engines:gift-gives-two")]) == 1
    text = capsys.readouterr().out
    assert text.startswith("DIVERGENCE:") and "first differing step:" in text
    assert "reference: {\"sides\"" in text
    assert main(["diff", *TIMEOUT, "--", str(tmp_path / "no-such-engine")]) == 2
    assert "cannot start" in capsys.readouterr().err
    assert main(["diff"]) == 2
    assert "no engine command" in capsys.readouterr().err
    assert main(["diff", "--timeout", "0", "--", *adapter()]) == 2
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        main(["diff", *TIMEOUT, "--games", "0", "--", *adapter()])
    assert exit_.value.code == 2


def test_adapter_answers_errors_with_the_rule():
    import hanamikoji.engine as reference

    wrapped = EngineAdapter(reference)
    assert wrapped.answer('{"op": "new_game", "variant": "standard", "first_player": 0}') == \
        {"ok": True}
    answer = wrapped.answer('{"op": "apply", "decision": {"action": "secret", "cards": [3]}}')
    assert answer["rule"] == "DEAL-1" and "not been dealt" in answer["error"]
    assert wrapped.answer('{"op": "nonsense"}')["rule"] is None
    assert wrapped.answer("not json")["error"].startswith("not a request")
    with pytest.raises(HanamikojiError):
        reference.apply(new_game(), parse_decision({"action": "secret", "cards": [3]}))


@checks("INFO-1")
def test_any_view_an_adapter_answers_is_judged_never_a_crash():
    """INFO-1: a view whose log holds sets of mixed types (which no sort can order) is a
    divergence at that step, never an internal error of the harness."""
    import random

    from hanamikoji.oracle.core.diff import DiffGame, DivergenceFound
    from hanamikoji.engine.core.registry import get

    game = get("hanamikoji")
    state = game.apply(game.new_game(game.configure()), game.sample_chance(
        game.new_game(game.configure()), random.Random(1)))
    answers = [{"view": {"log": [{"sets": [["a"], [1]]}], "hand": ["x", 1], "used": [[1, "a"]]}}]

    class Stub:
        def request(self, message):
            return answers[0]

    match = DiffGame(Stub(), game, game.configure(), 0)
    with pytest.raises(DivergenceFound) as found:
        match.compare_view(state, 0)
    assert "view of player 0" in found.value.divergence.message


# --- the protocol for any game: new_game's fields, op chance, protocol 1 still spoken ---------

CORE_ADAPTER = [sys.executable, "-m", "hanamikoji.oracle.core.adapter"]

TEE = """\
import subprocess, sys
log = open(sys.argv[1], "a")
child = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
for line in sys.stdin:
    log.write(line)
    log.flush()
    child.stdin.write(line)
    child.stdin.flush()
    sys.stdout.write(child.stdout.readline())
    sys.stdout.flush()
"""


def tee(tmp_path, argv: list[str]) -> tuple[list[str], pathlib.Path]:
    """``argv`` behind a wrapper that logs every request it is sent (one JSON per line)."""
    (tmp_path / "tee.py").write_text(TEE)
    log = tmp_path / "requests.jsonl"
    return [sys.executable, str(tmp_path / "tee.py"), str(log), *argv], log


def lines(log: pathlib.Path) -> list[dict]:
    """Every request line logged, as it was sent."""
    return [json.loads(line) for line in log.read_text().splitlines()]


def requests(log: pathlib.Path) -> list[dict]:
    """Every request sent, those of a batch (protocol 3) each in its place."""
    return [one for line in lines(log)
            for one in (line["requests"] if line["op"] == "batch" else [line])]


PROTOCOL_1 = {"new_game", "deal", "current_player", "legal_actions", "apply", "observe",
              "result", "random_deal"}


def test_an_adapter_of_before_the_core_gets_the_requests_it_knows(tmp_path):
    """The example adapter declares nothing: it gets Hanamikoji's new_game and deal requests,
    as before there were two games, and agrees with the reference."""
    argv, log = tee(tmp_path, adapter())
    report = compare_engines(argv, games=6, seed=2, timeout=T)
    assert report.divergence is None
    sent = requests(log)
    assert {r["op"] for r in sent} <= PROTOCOL_1 and {"new_game", "deal"} <= {r["op"] for r in sent}
    for request in sent:
        if request["op"] == "new_game":
            assert set(request) == {"op", "variant", "first_player"}


@checks("DEAL-1")
def test_a_declaring_adapter_gets_the_general_requests_for_hanamikoji(tmp_path):
    """The reference adapter answers new_game with "protocol": 2; from then on the harness sends
    it new_game with the game, its players and options, and chance outcomes as op chance
    (DEAL-1: the deal in its JSON form), even for Hanamikoji."""
    argv, log = tee(tmp_path, CORE_ADAPTER)
    report = compare_engines(argv, games=6, seed=2, timeout=T)
    assert report.divergence is None and report.engine_starts == 1
    sent = requests(log)
    new_games = [r for r in sent if r["op"] == "new_game"]
    assert set(new_games[0]) == {"op", "variant", "first_player"}  # before it declared
    for request in new_games[1:]:
        assert request["game"] == "hanamikoji" and request["players"] == 2
        assert request["options"]["variant"] in ("standard", "italian-three-rounds")
    chances = [r for r in sent if r["op"] == "chance"]
    assert chances and not [r for r in sent if r["op"] == "deal"]
    for request in chances:
        assert set(request) == {"op", "outcome"} and set(request["outcome"]) == {"deal"}
        parse_decision(request["outcome"])
    assert any(r["op"] == "random_deal" for r in sent)  # Hanamikoji's own seeded check


@checks("TG-SETUP-1", "TG-DEAL-1")
def test_new_game_names_the_game_its_players_and_options(testgame, tmp_path):
    """TG-SETUP-1, TG-DEAL-1: for a game other than the default, every new_game carries the game,
    the player count and the options; players not fixed are drawn per game (3 to 5); chance
    outcomes are sent as op chance in the game's JSON form; the seeded check asks
    random_chance."""
    argv, log = tee(tmp_path, CORE_ADAPTER)
    report = compare_engines(argv, games=12, seed=4, game=testgame, timeout=T)
    assert report.divergence is None, report.divergence
    sent = requests(log)
    new_games = [r for r in sent if r["op"] == "new_game"]
    assert new_games and not [r for r in sent if r["op"] in ("deal", "random_deal")]
    for request in new_games:
        assert request["game"] == "testgame"
        assert request["players"] == request["options"]["players"]
        assert 0 <= request["first_player"] < request["players"]
    assert len({r["players"] for r in new_games}) > 1  # drawn, not always the default
    chances = [r for r in sent if r["op"] == "chance"]
    assert chances
    for request in chances:
        testgame.decision_from_json(request["outcome"])
    observed = {r["player"] for r in sent if r["op"] in ("observe", "view_changes")}
    assert observed == set(range(max(r["players"] for r in new_games)))
    seeded = [r for r in sent if r["op"] == "random_chance"]
    assert seeded and {r["game"] for r in seeded} == {"testgame"}


def test_players_fixed_on_the_command_line_hold_for_every_game(testgame, tmp_path, capsys):
    argv, log = tee(tmp_path, CORE_ADAPTER)
    assert main(["diff", *TIMEOUT, "--game", "testgame", "--players", "4", "--games", "4",
                 "--json",
                 "--", *argv]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "agree"
    assert {r["players"] for r in requests(log) if r["op"] == "new_game"} == {4}


@checks("TG-SETUP-1")
def test_configurations_draw_every_choice_unless_fixed(testgame):
    """--variant both (or none) draws the variant per game, the default first; --variant or
    --option fixes it; a small players range is drawn the same way (TG-SETUP-1)."""
    import argparse

    from hanamikoji.oracle.core.diff import configurations
    from hanamikoji.engine.core.registry import get

    hanamikoji = get("hanamikoji")
    names = lambda configs: [hanamikoji.options_of(c)["variant"] for c in configs]  # noqa: E731
    assert names(configurations(hanamikoji, {})) == ["standard", "italian-three-rounds"]

    from hanamikoji.cli.diff import configs_of

    def args(**given):
        return argparse.Namespace(**{"variant": None, "players": None, "option": [], **given})

    assert names(configs_of(hanamikoji, args(variant="both"))) == \
        ["standard", "italian-three-rounds"]
    assert names(configs_of(hanamikoji, args(variant="italian-three-rounds"))) == \
        ["italian-three-rounds"]
    assert names(configs_of(hanamikoji, args(option=["variant=italian-three-rounds"]))) == \
        ["italian-three-rounds"]
    assert names(diff_hooks(hanamikoji).configs({"variant": "italian-three-rounds"})) == \
        ["italian-three-rounds"]
    assert [testgame.num_players(c) for c in diff_hooks(testgame).configs(None)] == [3, 4, 5]
    assert [testgame.num_players(c) for c in configs_of(testgame, args(players="5"))] == [5]


# --- the reference adapter, request by request ------------------------------------------------


def test_the_reference_adapter_answers_both_forms_of_new_game(testgame):
    from hanamikoji.oracle.core.adapter import Adapter

    adapter = Adapter()
    old = adapter.answer('{"op": "new_game", "variant": "italian-three-rounds", "first_player": 1}')
    assert old == {"ok": True, "protocol": 2}
    assert adapter.game.name == "hanamikoji" and adapter.state.rules.name == "italian-three-rounds"
    general = {"op": "new_game", "game": "testgame", "players": 4, "options": {"players": 4},
               "first_player": 3}
    assert adapter.answer(json.dumps(general))["ok"] is True
    assert adapter.answer('{"op": "current_player"}') == {"current_player": "chance"}
    deal = adapter.answer('{"op": "random_chance", "game": "testgame", "players": 4, '
                          '"options": {"players": 4}, "seed": 5}')["outcome"]
    assert adapter.answer(json.dumps({"op": "chance", "outcome": deal})) == {"ok": True}
    assert adapter.answer('{"op": "current_player"}') == {"current_player": 3}
    assert set(adapter.answer('{"op": "observe", "player": 2}')["view"]) >= {"card", "player"}
    for bad in ({**general, "players": 3}, {**general, "first_player": 4},
                {**general, "options": {"players": 9}}, {**general, "game": "no-such-game"},
                {**general, "options": [4]}):
        answer = adapter.answer(json.dumps(bad))
        assert set(answer) == {"error", "rule"}, bad
    assert "error" in adapter.answer('{"op": "observe", "player": 7}')
    assert "error" in adapter.answer('{"op": "chance", "outcome": {"deal": [0]}}')
    assert "error" in adapter.answer('{"op": "random_chance", "seed": "x"}')


# --- whatever an adapter answers is judged: a divergence (exit 1), never exit 3 ---------------

MANGLER = """\
import json, sys
from hanamikoji.oracle.core.adapter import Adapter

OP, VALUE = sys.argv[1], json.loads(sys.argv[2])
adapter = Adapter()
for line in sys.stdin:
    answer = adapter.answer(line)
    if json.loads(line)["op"] == OP:
        key = {"observe": "view", "legal_actions": "legal_actions", "result": "result",
               "current_player": "current_player", "random_chance": "outcome"}.get(OP)
        if isinstance(VALUE, dict) and isinstance(answer.get(key), dict) and VALUE.get("merge"):
            answer[key] = {**answer[key], **VALUE["merge"]}
        else:
            answer = VALUE if key is None else {key: VALUE}
    print(json.dumps(answer), flush=True)
"""

DEEP = "[" * 980 + "]" * 980
GARBAGE = [
    ("observe", {"merge": {"log": [{"player": 0, "action": "competition", "sets": [["a"], [1]]}]}}),
    ("observe", {"merge": {"hand": ["x", 1], "used": [[1, "a"], {"x": 1}]}}),
    ("observe", {"merge": {"sides": [[[2]], None], "pending": {"action": 5}}}),
    ("observe", {"merge": {"scores": [{"sides": [["a", 1], 2]}, 7], "log": {"x": []}}}),
    ("observe", {"merge": {"log": [None, [], {"cards": "abc", "pick": [[1], "a"]}]}}),
    ("observe", [1, 2]),
    ("observe", None),
    ("observe", "view"),
    ("observe", json.loads("[" * 400 + "]" * 400)),
    ("legal_actions", [{"action": 5}, [], None, {"response": "gift", "pick": [[]]}]),
    ("legal_actions", {"secret": 1}),
    ("result", {"winner": [0, 1], "reason": {}}),
    ("current_player", [0]),
]


@checks("INFO-1")
@pytest.mark.parametrize("op,value", GARBAGE,
                         ids=[f"{op}-{i}" for i, (op, _) in enumerate(GARBAGE)])
def test_garbage_answers_are_divergences_never_internal_errors(tmp_path, capsys, op, value):
    """INFO-1 and the protocol: an adapter answering views, decision lists, results or players
    of any shape gets a divergence (exit 1), never an internal error, in text and in JSON."""
    (tmp_path / "mangler.py").write_text(MANGLER)
    argv = [sys.executable, str(tmp_path / "mangler.py"), op, json.dumps(value)]
    assert main(["diff", *TIMEOUT, "--games", "2", "--shrink", "0", "--", *argv]) == 1
    out = capsys.readouterr().out
    assert out.startswith("DIVERGENCE:") and f'"op": "{op}"' in out
    assert main(["diff", *TIMEOUT, "--games", "2", "--shrink", "3", "--json", "--", *argv]) == 1
    assert json.loads(capsys.readouterr().out)["divergence"]["request"]["op"] == op


def test_a_view_nested_as_deep_as_the_reader_allows_is_a_divergence(tmp_path, capsys):
    """Hypothesis raises the recursion limit while a game runs: a view read then may be too
    deep to print afterwards; the report says so instead of failing."""
    script = tmp_path / "deep.py"
    script.write_text(
        "import json, sys\n"
        "from hanamikoji.oracle.core.adapter import Adapter\n"
        "adapter = Adapter()\n"
        "for line in sys.stdin:\n"
        "    text = json.dumps(adapter.answer(line))\n"
        "    if json.loads(line)['op'] == 'observe':\n"
        f"        text = '{{\"view\": {DEEP}}}'\n"
        "    print(text, flush=True)\n")
    for flags in ([], ["--json"]):
        assert main(["diff", *TIMEOUT, "--games", "1", "--shrink", "0", *flags, "--",
                     sys.executable,
                     str(script)]) == 1
        assert "not a JSON object" in capsys.readouterr().out


def test_garbage_views_of_another_game_are_divergences(testgame, tmp_path, capsys):
    (tmp_path / "mangler.py").write_text(MANGLER)
    for value in ({"merge": {"shown": [["a"], [1]], "card": {"x": None}}}, [None]):
        argv = [sys.executable, str(tmp_path / "mangler.py"), "observe", json.dumps(value)]
        assert main(["diff", *TIMEOUT, "--game", "testgame", "--games", "2", "--shrink", "0", "--",
                     *argv]) == 1
        assert "view of player" in capsys.readouterr().out


# --- the seeded-chance check, for any game ------------------------------------------------------

SEEDED = """\
import json, random, sys
from hanamikoji.oracle.core.adapter import Adapter

adapter = Adapter()
for line in sys.stdin:
    request = json.loads(line)
    answer = adapter.answer(line)
    if request["op"] == "random_chance":
        answer = {MODE}
    print(json.dumps(answer), flush=True)
"""


@checks("TG-DEAL-1")
@pytest.mark.parametrize("mode,message", [
    ('{"outcome": {"deal": [0] * request["players"]}}', "does not give a legal chance"),
    # a seed-ignoring engine: seen as another outcome when asked again, or (when its random
    # answer happens to repeat in one process: 1 in 24 with three players) as different
    # outcomes in two processes; either is the right diagnosis
    ('adapter.answer(json.dumps({**request, "seed": random.randrange(10**9)}))',
     "another outcome when asked again|different outcomes in two processes"),
    ('{"outcome": "deal"}', "does not give a legal chance"),
    ('[1]', "does not give a legal chance"),
])
def test_seeded_chance_is_checked_for_any_game(testgame, tmp_path, mode, message):
    """TG-DEAL-1: random_chance must give a legal deal (one card per player of distinct cards),
    the same one for the same seed; reported before any game."""
    (tmp_path / "seeded.py").write_text(SEEDED.replace("{MODE}", mode))
    report = compare_engines([sys.executable, str(tmp_path / "seeded.py")], games=3,
                             game=testgame, timeout=T)
    d = report.divergence
    assert report.games == 0 and d is not None and d.variant is None, d
    assert d.request["op"] == "random_chance" and any(m in d.message for m in message.split("|"))


def test_an_adapter_without_seeded_chance_is_not_asked_again(testgame, tmp_path):
    (tmp_path / "seeded.py").write_text(SEEDED.replace("{MODE}", '{"error": "no", "rule": None}'))
    argv, log = tee(tmp_path, [sys.executable, str(tmp_path / "seeded.py")])
    report = compare_engines(argv, games=2, game=testgame, timeout=T)
    assert report.divergence is None
    # the first seed only: asked of the first process, the second, the first again
    assert len([r for r in requests(log) if r["op"] == "random_chance"]) == 3


# --- never a crash, whatever the answers: in process, every shape Hypothesis draws ------------

JSONS = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=12)
KEYS = {"current_player": "current_player", "legal_actions": "legal_actions",
        "observe": "view", "result": "result"}


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_any_answer_is_judged_in_process(data):
    """The reference answers through the reference adapter, except that Hypothesis replaces one
    answer (whole, or the value under its key, or one key of a view) with any JSON: the
    comparison passes or reports a divergence, and nothing else."""
    import random

    from hanamikoji.oracle.core.adapter import Adapter
    from hanamikoji.oracle.core.diff import DiffGame, DivergenceFound, Report, render
    from hanamikoji.engine.core.registry import get

    game = get("hanamikoji")
    config = data.draw(st.sampled_from(diff_hooks(game).configs(None)))
    state = game.new_game(config)
    adapter = Adapter()
    adapter.answer(json.dumps(diff_hooks(game).new_game_request(config, 0)))
    rng = random.Random(data.draw(st.integers(0, 99)))
    for _ in range(data.draw(st.integers(0, 12))):
        if game.is_terminal(state):
            break
        decision = (game.sample_chance(state, rng) if game.current_player(state) < 0
                    else rng.choice(game.legal_actions(state)))
        adapter.answer(json.dumps({"op": "apply", "decision": game.decision_to_json(decision)}))
        state = game.apply(state, decision)
    op = data.draw(st.sampled_from(sorted(KEYS)))
    how = data.draw(st.sampled_from(["whole", "value", "key"]))
    value = data.draw(JSONS)

    class Stub:
        general = False

        def request(self, message):
            answer = adapter.answer(json.dumps(message))
            if message["op"] != op:
                return answer
            if how == "whole":
                return value
            if how == "key" and isinstance(answer.get(KEYS[op]), dict):
                inner = dict(answer[KEYS[op]])
                inner[data.draw(st.sampled_from(sorted(inner) + ["extra"]))] = value
                return {KEYS[op]: inner}
            return {KEYS[op]: value}

    match = DiffGame(Stub(), game, config, 0)
    try:
        match.compare(state)
    except DivergenceFound as found:  # and it prints, in text and in JSON
        json.dumps(found.divergence.to_json())
        assert list(render(Report(1, found.divergence, 1, 0.0, False), ["x"], game))


@checks("INFO-1")
@settings(max_examples=300, deadline=None)
@given(view=st.dictionaries(
    st.sampled_from(["hand", "secret", "trade_off", "sides", "used", "pending", "log", "scores"]),
    st.recursive(JSONS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["sides", "cards", "sets", "pick", "action", "response"]), inner,
        max_size=3), max_leaves=12)))
@example(view={"log": [{"sets": [[None], [False]]}]})  # lists JSON cannot order (None < False)
def test_the_view_normaliser_never_raises(view):
    """INFO-1: Hanamikoji's normaliser of views (multisets in any order) takes any JSON."""
    from hanamikoji.engine.core.registry import get

    diff_hooks(get("hanamikoji")).normal_view(view)
