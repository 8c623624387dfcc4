"""``hanamikoji diff``: every broken engine of tests/broken_engines.py, run through the example
adapter as a separate process, is reported; the reference is not; a crashing, hanging or
garbage-printing engine gets a clear report; and a report replays to the answers it shows."""

from __future__ import annotations

import importlib.util
import json
import pathlib
import sys

import pytest

from hanamikoji.engine.hanamikoji import Rules, apply, new_game
from hanamikoji.engine.core.cli import main
from hanamikoji.engine.core.diff import compare_engines
from hanamikoji.engine.hanamikoji.errors import HanamikojiError
from hanamikoji.engine.hanamikoji.protocol import parse_deal, parse_decision

ROOT = pathlib.Path(__file__).parent.parent
ADAPTER = ROOT / "docs" / "examples" / "adapter.py"
sys.path.insert(0, str(ROOT / "tests"))
from broken_engines import BROKEN  # noqa: E402  (tests/ is not a package)


def adapter(engine: str | None = None) -> list[str]:
    return [sys.executable, str(ADAPTER)] + (["--engine", engine] if engine else [])


def adapter_module():
    spec = importlib.util.spec_from_file_location("oracle_adapter", ADAPTER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True)
def tests_on_the_path(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT / "tests"))


def replay_answer(engine, divergence) -> object:
    """The answer ``engine`` gives to the divergent request after the reported decisions,
    computed in this process by the example adapter's own code."""
    module = adapter_module()
    wrapped = module.Adapter(engine)
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
    report = compare_engines(adapter(), games=12, seed=3)
    assert report.divergence is None and report.games >= 12 and report.engine_starts == 1


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_every_broken_engine_is_reported(name):
    engine = BROKEN[name]
    report = compare_engines(adapter(f"broken_engines:{name}"), games=60, seed=0, shrink=0,
                             timeout=30)
    d = report.divergence
    assert d is not None, f"{name} ({engine.bug}) was not caught"
    if d.variant is None:  # found by the check of seeded deals, before any game
        assert d.request["op"] == "random_deal" and "two processes" in d.message
        return
    # The report replays: the reference and the broken engine give the answers it shows.
    import hanamikoji.engine as reference

    other = replay_answer(engine, d)
    if d.reference is not None and "error" not in d.reference:
        assert replay_answer(reference, d) == d.reference
    if d.other is not None:
        assert other == d.other


def test_seeded_deals_are_checked_for_legality_and_reproducibility(tmp_path):
    """DEAL-1: a seeded deal of 20 cards is reported before any game is played."""
    argv = script(tmp_path, "short.py", "for line in sys.stdin:\n"
                  "    print(json.dumps({'deal': {'removed': 0, 'hands': [[0] * 6, [1] * 6],"
                  " 'draws': [2] * 8}}), flush=True)\n")
    report = compare_engines(argv, games=5)
    assert report.games == 0 and "not give a legal deal" in report.divergence.message
    assert "DEAL-1" in report.divergence.message


def test_a_divergence_shrinks_and_stays_a_divergence():
    """Shrinking keeps the game failing and never makes it longer than the first one found."""
    engine = "broken_engines:tie-clears-old-marker"
    first = compare_engines(adapter(engine), games=60, seed=0, shrink=0).divergence
    shrunk = compare_engines(adapter(engine), games=60, seed=0, shrink=40)
    assert first is not None and shrunk.divergence is not None and shrunk.shrunk
    assert len(shrunk.divergence.decisions) <= len(first.decisions)
    assert replay_answer(BROKEN["tie-clears-old-marker"], shrunk.divergence) == \
        shrunk.divergence.other
    # A tie can only clear a marker won in an earlier round: two rounds at least.
    deals = [d for d in shrunk.divergence.decisions if "deal" in d]
    assert len(deals) >= 2


def test_the_reported_game_is_legal_for_the_reference():
    d = compare_engines(adapter("broken_engines:same-starter"), games=30, seed=1,
                        shrink=0).divergence
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
    d = compare_engines(argv, games=5, shrink=0).divergence
    assert d is not None and "exit code 3" in d.message and "boom: engine failed" in d.message


def test_a_hanging_engine_is_reported_without_waiting_for_every_game(tmp_path):
    argv = script(tmp_path, "hang.py", "for line in sys.stdin:\n    time.sleep(60)\n")
    report = compare_engines(argv, games=50, timeout=0.5)
    assert report.divergence is not None and "did not answer" in report.divergence.message
    assert report.games <= 1 and not report.shrunk


def test_a_garbage_printing_engine_is_reported(tmp_path):
    argv = script(tmp_path, "garbage.py", "for line in sys.stdin:\n"
                  "    print('\\x00\\x01 not json', flush=True)\n")
    d = compare_engines(argv, games=5, shrink=0).divergence
    assert d is not None and "not JSON" in d.message


def test_an_engine_that_rejects_everything_is_reported(tmp_path):
    argv = script(tmp_path, "no.py", "for line in sys.stdin:\n"
                  "    print(json.dumps({'error': 'no', 'rule': None}), flush=True)\n")
    d = compare_engines(argv, games=5, shrink=0).divergence
    assert d is not None and d.request["op"] == "new_game"


def test_cli_exit_codes_and_json(tmp_path, capsys):
    assert main(["diff", "--games", "3", "--json", "--", *adapter()]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "agree" and out["divergence"] is None
    assert main(["diff", "--games", "20", "--shrink", "0", "--variant", "standard", "--",
                 *adapter("broken_engines:gift-gives-two")]) == 1
    text = capsys.readouterr().out
    assert text.startswith("DIVERGENCE:") and "first differing step:" in text
    assert "reference: {\"sides\"" in text
    assert main(["diff", "--", str(tmp_path / "no-such-engine")]) == 2
    assert "cannot start" in capsys.readouterr().err
    assert main(["diff"]) == 2
    assert "no engine command" in capsys.readouterr().err
    assert main(["diff", "--timeout", "0", "--", *adapter()]) == 2
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        main(["diff", "--games", "0", "--", *adapter()])
    assert exit_.value.code == 2


def test_adapter_answers_errors_with_the_rule():
    module = adapter_module()
    import hanamikoji.engine as reference

    wrapped = module.Adapter(reference)
    assert wrapped.answer('{"op": "new_game", "variant": "standard", "first_player": 0}') == \
        {"ok": True}
    answer = wrapped.answer('{"op": "apply", "decision": {"action": "secret", "cards": [3]}}')
    assert answer["rule"] == "DEAL-1" and "not been dealt" in answer["error"]
    assert wrapped.answer('{"op": "nonsense"}')["rule"] is None
    assert wrapped.answer("not json")["error"].startswith("not a request")
    with pytest.raises(HanamikojiError):
        reference.apply(new_game(), parse_decision({"action": "secret", "cards": [3]}))


def test_any_view_an_adapter_answers_is_judged_never_a_crash():
    """INFO-1: a view whose log holds sets of mixed types (which no sort can order) is a
    divergence at that step, never an internal error of the harness."""
    import random

    from hanamikoji.engine.core.diff import DiffGame, DivergenceFound
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
