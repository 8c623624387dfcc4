"""Protocol 3 of ``hanamikoji diff``: an adapter that declares it is asked each step in one
``batch`` line (the decision, whose turn it is, the legal decisions, every view, the result),
and finds exactly what it finds request by request. Every broken engine of both catalogues
(tests/broken_engines.py through the example adapter, tests/maiko/broken.py through the
reference adapter) gives the same report, divergence and all, with batches as without; an
adapter that declares nothing is never sent a batch."""

from __future__ import annotations

import json
import pathlib
import sys

import pytest

from hanamikoji.engine.core.registry import get
from hanamikoji.oracle.core.adapter import Adapter
from hanamikoji.oracle.core.diff import compare_engines
from hanamikoji.oracle.hanamikoji.adapter import EngineAdapter

ROOT = pathlib.Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
if str(TESTS) not in sys.path:  # the catalogues are modules of tests/
    sys.path.insert(0, str(TESTS))

from broken_engines import BROKEN  # noqa: E402

#: No verdict below depends on a timeout firing (a generous per-answer bound).
T = 600.0
EXAMPLE = [sys.executable, str(ROOT / "docs" / "examples" / "adapter.py")]
CORE = [sys.executable, "-m", "hanamikoji.oracle.core.adapter"]


@pytest.fixture(autouse=True)
def tests_on_the_path(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(TESTS))


def same_report(argv: list[str], protocols: tuple[int, ...], **options) -> dict:
    """The reports of ``argv`` declaring each of ``protocols`` (``--protocol P``), which must
    be equal but for the time taken; the first, as JSON."""
    reports = []
    for protocol in protocols:
        report = compare_engines([*argv, "--protocol", str(protocol)], timeout=T, **options)
        reports.append({k: v for k, v in report.to_json().items() if k != "seconds"})
    for protocol, report in zip(protocols[1:], reports[1:]):
        assert report == reports[0], f"protocol {protocol} against {protocols[0]}"
    return reports[0]


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_every_broken_engine_is_reported_the_same_with_batches(name):
    report = same_report([*EXAMPLE, "--engine", f"broken_engines:{name}"], (2, 3, 4),
                         games=60, seed=0, shrink=0)
    assert report["status"] == "divergence", f"{name} was not caught"


def test_a_shrunk_divergence_is_the_same_with_batches():
    report = same_report([*EXAMPLE, "--engine", "broken_engines:tie-clears-old-marker"], (2, 3, 4),
                         games=60, seed=0, shrink=40)
    assert report["status"] == "divergence" and report["shrunk"]


#: tests/maiko/broken.py's engines, by name and attribute (imported by each test, so that the
#: Hanamikoji cases above are collected whatever that module imports).
MAIKO_ATTRIBUTE = {"maiko-column-paid-twice": "COLUMN_PAID_TWICE",
                   "maiko-friend-keeps-turn": "FRIEND_KEEPS_TURN",
                   "maiko-pair-ends-turn": "PAIR_ENDS_TURN",
                   "maiko-peek-leaks": "PEEK_LEAKS",
                   "maiko-tie-break-ignores-own": "TIE_BREAK_IGNORES_OWN"}


def test_the_maiko_cases_are_the_whole_catalogue():
    from maiko import broken

    assert {name: getattr(broken, attribute).name for name, attribute in
            MAIKO_ATTRIBUTE.items()} == {name: name for name in broken.BROKEN}


@pytest.mark.parametrize("name", sorted(MAIKO_ATTRIBUTE))
def test_every_broken_maiko_engine_is_reported_the_same_with_batches(name):
    from hanamikoji.oracle.core.diff import hooks

    game = get("maiko")
    players = 2 if name == "maiko-tie-break-ignores-own" else 3
    configs = tuple(c for c in hooks(game).configs(None) if game.num_players(c) == players)
    report = same_report([*CORE, "--engine", f"maiko=maiko.broken:{MAIKO_ATTRIBUTE[name]}"],
                         (2, 3, 4), games=30, seed=0, shrink=0, game=game, variants=configs)
    assert report["status"] == "divergence", f"{name} was not caught"


@pytest.mark.parametrize("protocol", [3, 4])
def test_the_reference_agrees_with_batches_and_is_sent_them(tmp_path, protocol):
    """The reference adapter declaring protocol 3 (or 4): its first new_game comes alone, then
    each game is sent in batches (one, unless its answers pass 64 KiB): its new_game (but the
    first), its first step, then each decision with the requests of the step it reaches, and
    the probes (decisions the rules forbid) in their places; with protocol 4 every view is
    asked as view_changes."""
    from test_oracle_diff import lines, tee

    argv, log = tee(tmp_path, [*CORE, "--protocol", str(protocol)])
    report = compare_engines(argv, games=6, seed=2, timeout=T)
    assert report.divergence is None
    # the seeded check's random_deal requests (two more processes of the same command) apart
    sent = [r for r in lines(log) if r["op"] != "random_deal"]
    assert sent[0]["op"] == "new_game" and {r["op"] for r in sent[1:]} == {"batch"}
    # a game's requests, in one batch or (a long game: answers over 64 KiB) several in a row
    games: list[list[str]] = [[]]
    for batch in sent[1:]:
        for request in batch["requests"]:
            if request["op"] == "new_game":
                assert batch["requests"][0] is request  # a game starts a batch
                games.append([])
            games[-1].append(request["op"])
    assert len(games) == 6 and len(sent) - 1 >= 6
    view = "observe" if protocol == 3 else "view_changes"
    step = ["current_player", "legal_actions", view, view, "result"]
    for index, ops in enumerate(games):
        if index:
            assert ops.pop(0) == "new_game"
        assert ops[:5] == step
        at, decisions = 5, 0
        while at < len(ops):
            assert ops[at] in ("apply", "chance"), ops[at:]
            if ops[at + 1:at + 6] == step:  # a decision and the step it reaches
                at, decisions = at + 6, decisions + 1
            else:  # a probe: the next is the decision played
                at += 1
        assert decisions > 0


@pytest.mark.parametrize("protocol", [1, 2])
def test_an_adapter_that_does_not_declare_batches_is_never_sent_one(tmp_path, protocol):
    from test_oracle_diff import lines, tee

    argv, log = tee(tmp_path, [*EXAMPLE, "--protocol", str(protocol)])
    report = compare_engines(argv, games=6, seed=2, timeout=T)
    assert report.divergence is None
    ops = {r["op"] for r in lines(log)}
    assert "batch" not in ops and {"current_player", "observe"} <= ops
    assert ("deal" in ops) == (protocol == 1) and ("chance" in ops) == (protocol == 2)


def test_a_batch_is_answered_as_its_requests_would_be_alone():
    """Each answer of a batch is the answer its request gets alone, a refusal included, each
    request answered after the one before it."""
    for make in (lambda: Adapter(protocol=3), lambda: EngineAdapter(protocol=3)):
        alone, batched = make(), make()
        start = '{"op": "new_game", "variant": "standard", "first_player": 1}'
        assert alone.answer(start)["ok"] and batched.answer(start)["protocol"] == 3
        deal = {"op": "random_deal", "seed": 4}
        outcome = alone.answer(json.dumps(deal))
        step = [{"op": "chance", "outcome": outcome}, {"op": "current_player"},
                {"op": "apply", "decision": {"action": "gift", "cards": [0]}},
                {"op": "legal_actions"}, {"op": "observe", "player": 0},
                {"op": "observe", "player": 1}, {"op": "result"}, {"op": "nope"}, [1]]
        answers = [alone.answer(json.dumps(r)) for r in step]
        line = batched.answer_line(json.dumps({"op": "batch", "requests": step}))
        assert json.loads(line) == {"answers": answers}
        assert "error" in answers[2] and "error" in answers[-1]  # refused, answered in place
        assert line == json.dumps({"answers": answers}, sort_keys=True, separators=(",", ":"))


def test_a_batch_answered_wrongly_is_a_divergence(tmp_path):
    """An adapter that declares protocol 3 and answers a batch with the wrong number of answers
    is reported at that batch (exit 1), never an error of the harness."""
    script = tmp_path / "short.py"
    script.write_text(
        "import json, sys\n"
        "from hanamikoji.oracle.core.adapter import Adapter\n"
        "adapter = Adapter(protocol=3)\n"
        "for line in sys.stdin:\n"
        "    answer = adapter.answer(line)\n"
        "    if 'answers' in answer:\n"
        "        answer['answers'].pop()\n"
        "    print(json.dumps(answer), flush=True)\n")
    d = compare_engines([sys.executable, str(script)], games=3, seed=0, shrink=0,
                        timeout=T).divergence
    assert d is not None and d.request["op"] == "batch"
    assert d.message.startswith(f"the answer to a batch of {len(d.request['requests'])} "
                                f"requests has {len(d.request['requests']) - 1} answers")
