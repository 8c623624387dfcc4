"""Maiko through the oracle's perft and diff, and the Maiko section of docs/oracle.md.

perft: the counts of ``hanamikoji perft --game maiko`` (from a seeded layout, and from a position
given as a history) equal a plain recursive walk written here with nothing but the game's
``legal_actions``, ``apply`` and ``is_terminal``; ``--divide`` splits the deepest count by the
first decision. The layout is fixed by the starting position; every decision after it counts
(MK-FLIP-1, MK-TUTOR-1, MK-TUTOR-ONESAN-1: each look and the stop, MK-ROW-3: each item space of a
row discard, MK-END-1: the ending step).

diff: the reference adapter, a separate process, agrees with the reference for 2, 3 and 4
players, over requests that carry Maiko's options, layout, decisions and every player's view;
each broken engine of tests/maiko/broken.py, served by that adapter (``--engine
maiko=maiko.broken:NAME``), is reported at a step where its broken rule shows, and the report
replays. The fast comparison (a view's text built step by step, an answer line equal to the
reference's own text) says what the full one says.

docs/oracle.md, section "6. Maiko": every command runs as pasted, the outputs shown are the
commands' outputs, and the tables are what the tools compute.
"""

from __future__ import annotations

import functools
import json
import os
import random
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hanamikoji.oracle.core.adapter import Adapter
from hanamikoji.cli.main import main
from hanamikoji.oracle.core.protocol import dumps
from hanamikoji.engine.maiko import GAME, Flip, Phase
from hanamikoji.engine.maiko.components import FRIEND, NUM_ITEMS
from hanamikoji.engine.maiko.game import DOWN
from hanamikoji.oracle.maiko import diff as maiko_diff
from hanamikoji.properties.core.cite import checks

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
if str(TESTS) not in sys.path:  # the broken games are the module maiko.broken of tests/
    sys.path.insert(0, str(TESTS))

from maiko.broken import BROKEN  # noqa: E402
from testgame.fixtures import subprocess_env  # noqa: E402

DOC = (ROOT / "docs" / "oracle.md").read_text(encoding="utf-8")
SECTION = DOC[DOC.index("\n## 6. Maiko\n"):]
ADAPTER = [sys.executable, "-m", "hanamikoji.oracle.core.adapter"]
#: The attribute of tests/maiko/broken.py that holds each broken game.
ATTRIBUTE = {game.name: name for name, game in vars(sys.modules["maiko.broken"]).items()
             if name.isupper() and name != "BROKEN" and game in BROKEN.values()}


@pytest.fixture(autouse=True)
def tests_on_the_path(monkeypatch):
    """Every process a test starts (an adapter serving a broken game) imports from tests/."""
    monkeypatch.setenv("PYTHONPATH", subprocess_env()["PYTHONPATH"])


# --- perft ---------------------------------------------------------------------------------


def plain_walk(state: Any, depth: int, bulk: bool = False) -> list[int]:
    """The number of decision sequences of each length 0..depth from ``state``: every legal
    decision applied, nothing memoised, the end of the game a leaf (after the layout Maiko has
    no other chance). ``bulk``: the deepest level counted as the number of legal decisions of
    each node above it."""
    counts = [0] * (depth + 1)

    def visit(node: Any, level: int) -> None:
        counts[level] += 1
        if level == depth or GAME.is_terminal(node):
            return
        legal = GAME.legal_actions(node)
        if bulk and level == depth - 1:
            counts[depth] += len(legal)
            return
        for decision in legal:
            visit(GAME.apply(node, decision), level + 1)

    visit(state, 0)
    return counts


def perft_json(capsys, *args: str) -> dict[str, Any]:
    assert main(["perft", "--game", "maiko", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def depths(out: dict[str, Any]) -> list[int]:
    return [1] + [out["depths"][str(d)] for d in range(1, len(out["depths"]) + 1)]


@checks("MK-SETUP-5", "MK-FLIP-1", "MK-TUTOR-1")
@pytest.mark.parametrize("players, seed, first", [(2, 0, 0), (3, 1, 2), (4, 2, 1)])
def test_perft_from_a_seeded_layout_is_the_plain_walk(capsys, players, seed, first):
    """MK-SETUP-5, MK-FLIP-1, MK-TUTOR-1: from the layout of game 0 of the seed (the JSON output
    names it), depths 1 to 3 are the walk's; --divide lists every first decision in
    legal_actions order and sums to the total; each part is the walk below that decision."""
    out = perft_json(capsys, "--players", str(players), "--seed", str(seed), "--first-player",
                     str(first), "--depth", "3", "--divide")
    start = GAME.position_from_json(out["position"])
    assert GAME.history(start)[0].kind.label == "layout" and len(GAME.history(start)) == 1
    assert GAME.options_of(GAME.config_of(start))["players"] == players
    assert GAME.current_player(start) == first
    assert depths(out)[:3] == plain_walk(start, 2)  # every decision applied
    assert depths(out) == plain_walk(start, 3, bulk=True)
    # At the start each player holds a token: a flip, a Danna reveal or a One-san look of
    # every space (MK-SETUP-2, MK-TUTOR-3).
    assert out["depths"]["1"] == 3 * len(start.spaces)
    legal = GAME.legal_actions(start)
    assert [GAME.decision_from_json(item["decision"]) for item in out["divide"]] == list(legal)
    assert sum(item["count"] for item in out["divide"]) == out["depths"]["3"]
    for item in out["divide"][:: len(legal) // 5]:
        child = GAME.apply(start, GAME.decision_from_json(item["decision"]))
        assert item["count"] == plain_walk(child, 2, bulk=True)[2]


@functools.lru_cache(maxsize=None)
def positions() -> dict[str, Any]:
    """Positions of seeded random games where the decisions are of each kind: inside a One-san
    visit, inside a row discard, in the ending step of a full board, two decisions before the
    end (the walk meets the end), and late in a 4-player game."""
    found: dict[str, Any] = {}
    for players in (2, 3, 4):
        for seed in range(12):
            final = GAME.random_game(random.Random(seed), GAME.configure({"players": players}),
                                     first_player=seed % players)
            states = list(GAME.states(final))
            for state in states:
                for name, phase in (("one-san", Phase.LOOK), ("row-discard", Phase.SWEEP),
                                    ("ending", Phase.ENDING)):
                    if state.phase is phase and len(state.looks) < 3:
                        found.setdefault(name, state)
            found.setdefault("before-the-end", states[-3])
            if players == 4:
                found.setdefault("late", states[len(states) * 3 // 4])
            if len(found) == len(POSITIONS):
                return found
    raise AssertionError(f"not every kind of position was found: {sorted(found)}")


POSITIONS = ("before-the-end", "ending", "late", "one-san", "row-discard")


@checks("MK-TUTOR-ONESAN-1", "MK-ROW-3", "MK-END-1", "MK-END-2")
@pytest.mark.parametrize("name", POSITIONS)
def test_perft_from_a_history_is_perft_from_the_state_it_reaches(capsys, tmp_path, name):
    """MK-TUTOR-ONESAN-1 (each look and the stop), MK-ROW-3 (each item space of a discard),
    MK-END-1 (the ending step), MK-END-2: --history FILE, a position as position_to_json
    writes it, counts what the walk counts from the state that history reaches."""
    state = positions()[name]
    path = tmp_path / "position.json"
    path.write_text(json.dumps(GAME.position_to_json(state)))
    out = perft_json(capsys, "--history", str(path), "--depth", "3", "--divide")
    assert out["position"] == GAME.position_to_json(state)
    assert GAME.position_from_json(out["position"]) == state
    assert depths(out) == plain_walk(state, 3, bulk=True)
    assert [GAME.decision_from_json(item["decision"]) for item in out["divide"]] == \
        list(GAME.legal_actions(state))
    assert sum(item["count"] for item in out["divide"]) == out["depths"]["3"]
    # The same counts from the text output, whose lines sum as they say.
    assert main(["perft", "--game", "maiko", "--history", str(path), "--depth", "2",
                 "--divide"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2:] == [f"    1  {out['depths']['1']}", f"    2  {out['depths']['2']}"]
    parts = [int(line.rsplit(None, 1)[1]) for line in lines[1:-4]]
    assert sum(parts) == out["depths"]["2"] and len(parts) == out["depths"]["1"]


@checks("MK-FLIP-2")
def test_a_history_the_rules_refuse_is_exit_2_with_its_path_and_rule(capsys, tmp_path):
    """MK-FLIP-2: a flip of the first tile again is refused; the message names the decision."""
    position = GAME.position_to_json(positions()["late"])
    first = next(i for i, d in enumerate(position["history"]) if d["kind"] == "flip")
    position["history"].insert(first + 1, position["history"][first])
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position))
    assert main(["perft", "--game", "maiko", "--history", str(path), "--depth", "1"]) == 2
    err = capsys.readouterr().err
    assert f"$.history[{first + 1}]" in err and "MK-FLIP-2" in err and err.count("\n") == 1


# --- diff: the reference adapter -------------------------------------------------------------


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


def diff(capsys, *args: str, adapter: list[str] = ADAPTER) -> tuple[int, dict[str, Any]]:
    # a per-request timeout no loaded machine comes near: no verdict depends on it
    code = main(["diff", "--game", "maiko", "--timeout", "600", *args, "--json", "--", *adapter])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("players", [2, 4])
def test_the_reference_adapter_agrees_with_the_reference(capsys, players):
    code, report = diff(capsys, "--players", str(players), "--games", "2")
    assert code == 0 and report["status"] == "agree" and report["games"] >= 2, report


@checks("MK-SETUP-1", "MK-SETUP-5", "MK-INFO-1")
def test_the_protocol_carries_maikos_options_layout_decisions_and_views(capsys, tmp_path):
    """MK-SETUP-1, MK-SETUP-5, MK-INFO-1..3: with 3 players every request of the protocol is
    Maiko's: new_game names the game and its options, the layout is a chance outcome of every
    space, every decision sent is a Maiko decision, every player's view is asked for after every
    decision, and the seeded layout is checked."""
    (tmp_path / "tee.py").write_text(TEE)
    log = tmp_path / "requests.jsonl"
    # One request a line, as protocol 2 sends them (protocol 3's batches carry the same
    # requests: tests/test_diff_batch.py).
    code, report = diff(capsys, "--players", "3", "--games", "2",
                        adapter=[sys.executable, str(tmp_path / "tee.py"), str(log), *ADAPTER,
                                 "--protocol", "2"])
    assert code == 0 and report["status"] == "agree", report
    sent = [json.loads(line) for line in log.read_text().splitlines()]
    new_games = [r for r in sent if r["op"] == "new_game"]
    assert len(new_games) >= 2
    for request in new_games:
        assert request["game"] == "maiko" and request["players"] == 3
        assert GAME.configure(request["options"]) == GAME.configure({"players": 3})
    chances = [r["outcome"] for r in sent if r["op"] == "chance"]
    assert len(chances) == len(new_games)
    for outcome in chances:
        assert outcome["kind"] == "layout" and len(outcome["tiles"]) == 81
    kinds = {GAME.decision_from_json(r["decision"]).kind.label for r in sent if r["op"] == "apply"}
    assert {"flip"} <= kinds <= {"flip", "danna", "one-san", "one-san-stop", "oka-san",
                                 "sabanto", "sweep", "end-turn"}
    # Each step compared: whose turn, the legal decisions, each player's view, the result.
    ops = [r["op"] if r["op"] != "observe" else f"observe {r['player']}" for r in sent]
    compares = [i for i, op in enumerate(ops) if op == "current_player"]
    assert len(compares) > 2 * len(chances)
    for i in compares:
        assert ops[i:i + 6] == ["current_player", "legal_actions", "observe 0", "observe 1",
                                "observe 2", "result"]
    assert all(ops[i + 1] == "current_player" for i, op in enumerate(ops) if op == "chance")
    seeded = [r for r in sent if r["op"] == "random_chance"]
    assert seeded and {r["game"] for r in seeded} == {"maiko"}


#: An adapter that prints its answers as Python's json.dumps does (spaces, keys in its order),
#: not as the reference adapter does: diff parses and compares every answer in full.
SPACED = """\
import json, sys
from hanamikoji.oracle.core.adapter import Adapter
adapter = Adapter()
for line in sys.stdin:
    answer = adapter.answer(line)
    if json.loads(line)["op"] == "observe" and {CHANGE}:
        answer["view"]["log"][-1]["turn"] += 1
    print(json.dumps(answer), flush=True)
"""


@checks("MK-INFO-3")
@pytest.mark.parametrize("change", [False, True])
def test_an_adapter_printing_json_its_own_way_is_compared_in_full(capsys, tmp_path, change):
    """MK-INFO-3: the answers are parsed and compared when they are not the reference's own
    text: an adapter spacing its JSON otherwise agrees; one whose log misdates a step is
    reported at that view."""
    script = tmp_path / "spaced.py"
    script.write_text(SPACED.replace("{CHANGE}", "len(answer['view']['log']) > 5" if change
                                     else "False"))
    code, report = diff(capsys, "--players", "2", "--games", "1", "--shrink", "0",
                        adapter=[sys.executable, str(script)])
    if not change:
        assert code == 0 and report["status"] == "agree", report
        return
    d = report["divergence"]
    assert code == 1 and d["request"]["op"] == "observe"
    assert d["message"].startswith(f'the view of player {d["request"]["player"]} differs at "log"')
    assert d["other"]["view"]["log"][-1]["turn"] == d["reference"]["view"]["log"][-1]["turn"] + 1


# --- diff: the broken engines ----------------------------------------------------------------


def replay(d: dict[str, Any]) -> tuple[Any, Any]:
    """The reference's states before and after the last decision of a reported game."""
    state = GAME.new_game(GAME.configure(d["options"]), d["first_player"])
    before = state
    for item in d["decisions"]:
        before, state = state, GAME.apply(state, GAME.decision_from_json(item))
    return before, state


def answer_after(game: Any, d: dict[str, Any]) -> Any:
    """What ``game``, served by the reference adapter, answers to the reported request after
    the reported decisions."""
    adapter = Adapter({"maiko": game})
    new_game = {"op": "new_game", "game": "maiko", "options": d["options"],
                "first_player": d["first_player"]}
    assert adapter.answer(json.dumps(new_game))["ok"] is True
    for item in d["decisions"]:
        op = {"op": "chance", "outcome": item} if item["kind"] == "layout" else \
            {"op": "apply", "decision": item}
        assert adapter.answer(json.dumps(op)) == {"ok": True}
    return adapter.answer(json.dumps(d["request"]))


def shows_peek_leaks(d: dict[str, Any], before: Any, after: Any) -> None:
    """MK-TUTOR-ONESAN-2: the other engine shows a player the tile of someone else's look."""
    viewer = d["request"]["player"]
    assert d["request"]["op"] == "observe" and 'differs at "log"' in d["message"]
    leaked = [(mine, theirs) for mine, theirs in zip(d["reference"]["view"]["log"],
                                                     d["other"]["view"]["log"]) if mine != theirs]
    assert leaked
    for mine, theirs in leaked:
        assert mine["decision"]["kind"] == "one-san" and mine["player"] != viewer
        assert "tile" not in mine and "tile" in theirs


def shows_pair_ends_turn(d: dict[str, Any], before: Any, after: Any) -> None:
    """MK-FLIP-3: after the second flip of a pair the same player goes on."""
    assert d["request"]["op"] == "current_player"
    mover = before.current
    assert isinstance(GAME.history(after)[-1], Flip) and before.phase is Phase.SECOND
    assert sum(after.boards[mover]) == sum(before.boards[mover]) + 2
    assert d["reference"] == {"current_player": mover} != d["other"]


def shows_column_paid_twice(d: dict[str, Any], before: Any, after: Any) -> None:
    """MK-COL-2: a tile placed on a filled item space of a complete column pays nothing."""
    mover = before.current
    layered = [item for item in range(NUM_ITEMS)
               if sum(before.boards[mover][item * 4:item * 4 + 4])
               and sum(after.boards[mover][item * 4:item * 4 + 4])
               > sum(before.boards[mover][item * 4:item * 4 + 4])]
    assert layered
    column = [i for i in range(NUM_ITEMS) if i % 3 == layered[0] % 3]
    assert all(sum(after.boards[mover][i * 4:i * 4 + 4]) for i in column)
    if d["request"]["op"] == "observe":
        assert 'differs at "tokens"' in d["message"]
        hands = [view["view"]["tokens"]["hands"][mover] for view in (d["reference"], d["other"])]
        assert hands[1] == hands[0] + 1 == after.hands[mover] + 1
    else:  # the token it should not have opens tutor visits
        assert d["request"]["op"] == "legal_actions" and "offers" in d["message"]
        assert after.hands[mover] == 0 and not after.visited


def shows_friend_keeps_turn(d: dict[str, Any], before: Any, after: Any) -> None:
    """MK-FLIP-5: a flipped friend ends the turn."""
    assert d["request"]["op"] == "current_player"
    flip = GAME.history(after)[-1]
    assert isinstance(flip, Flip) and after.layout[flip.space] == FRIEND
    assert d["other"] == {"current_player": before.current} != d["reference"]


def shows_tie_break_ignores_own(d: dict[str, Any], before: Any, after: Any) -> None:
    """MK-SCORE-3, MK-SCORE-4: players tied on points are parted by their own-colour tiles."""
    key = "view" if d["request"]["op"] == "observe" else "result"
    assert 'differs at "result"' in d["message"] or d["request"]["op"] == "result"
    results = [answer[key]["result"] if key == "view" else answer["result"]
               for answer in (d["reference"], d["other"])]
    mine, theirs = results
    assert mine == GAME.record_result_json(after) and after.result is not None
    assert set(mine["winners"]) < set(theirs["winners"])
    top = max(mine["scores"])
    assert {mine["scores"][p] for p in theirs["winners"]} == {top}
    best = max(mine["own_colour"][p] for p in theirs["winners"])
    assert {mine["own_colour"][p] for p in mine["winners"]} == {best}


SHOWS = {"maiko-peek-leaks": shows_peek_leaks, "maiko-pair-ends-turn": shows_pair_ends_turn,
         "maiko-column-paid-twice": shows_column_paid_twice,
         "maiko-friend-keeps-turn": shows_friend_keeps_turn,
         "maiko-tie-break-ignores-own": shows_tie_break_ignores_own}
#: The players of each run: the tie-break needs a game that ends tied on points.
PLAYERS = {"maiko-tie-break-ignores-own": 2}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_every_broken_maiko_engine_is_reported_where_its_rule_shows(capsys, name):
    """Each broken engine, served by the reference adapter in its own process, is a divergence
    (exit 1) at a step where the rule it breaks shows; the reported answers are those the
    reference and the broken engine give after the reported decisions; docs/oracle.md's table
    names the request it is reported at."""
    engine = BROKEN[name]
    code, report = diff(capsys, "--players", str(PLAYERS.get(name, 3)), "--games", "30",
                        "--shrink", "0", adapter=[*ADAPTER, "--engine",
                                                  f"maiko=maiko.broken:{ATTRIBUTE[name]}"])
    d = report["divergence"]
    assert code == 1 and d is not None, f"{name} ({engine.bug}) was not caught"
    assert d["game"] == "maiko" and d["decisions"][0]["kind"] == "layout"
    before, after = replay(d)
    SHOWS[name](d, before, after)
    assert answer_after(engine, d) == d["other"]
    assert answer_after(GAME, d) == d["reference"]
    row = re.search(rf"^\| `{ATTRIBUTE[name]}` \| ([^|]+) \| (.+) \|$", SECTION, re.M)
    assert row and row.group(1).strip() == ", ".join(engine.rules)
    assert d["request"]["op"] in re.findall(r"`([a-z_]+)`", row.group(2))


def test_an_adapter_engine_that_cannot_be_loaded_is_one_line_and_exit_2():
    for spec in ("maiko", "maiko=maiko.broken", "maiko=maiko.broken:NOTHING",
                 "maiko=maiko.broken:BROKEN"):
        done = subprocess.run([*ADAPTER, "--engine", spec], capture_output=True, text=True,
                              input="", timeout=60)
        assert done.returncode == 2 and done.stderr.count("\n") == 1, (spec, done.stderr)
        assert spec in done.stderr


# --- the fast comparison says what the full one says ------------------------------------------


@checks("MK-INFO-1", "MK-TUTOR-ONESAN-2")
def test_a_views_text_is_the_canonical_text_of_its_json():
    """MK-INFO-1..3, MK-TUTOR-ONESAN-2: the view text built step by step (the reference's side
    of diff, and the reference adapter's answers) is byte for byte protocol.dumps of
    view_to_json, for every player of every state of seeded games, a broken engine's views
    (other Seen objects, an extra tile) and a game before its layout included; the adapter's
    answer line is the canonical text of its answer."""
    checked = 0
    for players in (2, 3, 4):
        config = GAME.configure({"players": players})
        assert GAME.view_text(GAME.observe(GAME.new_game(config), 0)) == \
            dumps(GAME.view_to_json(GAME.observe(GAME.new_game(config), 0)))
        final = GAME.random_game(random.Random(players), config)
        for state in list(GAME.states(final))[1::11] + [final]:
            for player in range(players):
                for game in (GAME, BROKEN["maiko-peek-leaks"]):
                    view = game.observe(state, player)
                    assert GAME.view_text(view) == dumps(GAME.view_to_json(view))
                    checked += 1
        # Jumping back and forth between games and states keeps the text right.
        states = list(GAME.states(final))
        for state in (states[40], states[-1], states[10], final):
            view = GAME.observe(state, 1)
            assert GAME.view_text(view) == dumps(GAME.view_to_json(view))
    assert checked > 500
    adapter = Adapter()
    adapter.answer(json.dumps({"op": "new_game", "game": "maiko", "players": 3,
                               "options": {"players": 3}, "first_player": 0}))
    adapter.answer(json.dumps({"op": "chance", "outcome": GAME.decision_to_json(
        GAME.sample_chance(GAME.new_game(GAME.configure({"players": 3})), random.Random(1)))}))
    for line in ('{"op": "observe", "player": 2}', '{"op": "observe", "player": 7}',
                 '{"op": "legal_actions"}', '{"op": "observe"}', "[1]", "not json"):
        assert adapter.answer_line(line) == dumps(adapter.answer(line)), line


@checks("MK-FLIP-3")
def test_the_plan_makes_pairs():
    """MK-FLIP-3: the planned first flip has another tile of its item face down, and the
    planned second flip is that other tile: a pair, and the turn goes on."""
    final = GAME.random_game(random.Random(9), GAME.configure({"players": 3}))
    made = 0
    for state in GAME.states(final):
        if state.phase is not Phase.FIRST:
            continue
        first = maiko_diff.plan(state)
        if first is None:
            items = [state.layout[s] % NUM_ITEMS for s, v in enumerate(state.spaces)
                     if v == DOWN and state.layout[s] != FRIEND]
            assert len(items) == len(set(items))  # no pair is face down
            continue
        assert first in GAME.legal_actions(state)
        middle = GAME.apply(state, first)
        second = maiko_diff.plan(middle)
        assert second in GAME.legal_actions(middle)
        after = GAME.apply(middle, second)
        assert sum(after.boards[state.current]) == sum(state.boards[state.current]) + 2
        made += 1
    assert made > 10
    assert maiko_diff.plan(next(s for s in GAME.states(final) if s.phase is Phase.LOOK)) is None


# --- docs/oracle.md, section 6 -----------------------------------------------------------------


def doc_blocks() -> list[list[str]]:
    # Blocks with a language (```text: a recorded protocol session) are not commands.
    return [block.strip("\n").splitlines()
            for language, block in re.findall(r"^```([a-z]*)\n(.*?)^```$", SECTION, re.S | re.M)
            if not language]


def expected_exit(command: str) -> int:
    found = re.search(r"#\s*exit (\d)\s*$", command)
    return int(found.group(1)) if found else 0


def matches(shown: list[str], actual: list[str]) -> bool:
    """``actual`` is ``shown`` where a line ``...`` stands for any lines, and a time in seconds
    for any time."""
    def normal(line: str) -> str:
        return re.sub(r"\d+\.\d+ s\)", "X s)", line.rstrip())

    pattern = "\n".join(".*?" if line == "..." else re.escape(normal(line)) for line in shown)
    return re.fullmatch(pattern.replace("\n.*?\n", "(?:\n.*?)?\n"),
                        "\n".join(normal(line) for line in actual), re.S) is not None


def test_the_doc_commands_run_as_pasted_and_print_what_is_shown(tmp_path):
    """The commands of docs/oracle.md section 6, run in order by a shell in a fresh folder
    (with tests/ beside it, as in the checkout), exit as they say (0, or ``# exit N``) and print
    the output shown after a ``$`` command."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "hanamikoji").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m '
                                        'hanamikoji.engine "$@"\n')
    (bin_dir / "hanamikoji").chmod(0o755)
    (bin_dir / "python").write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    (bin_dir / "python").chmod(0o755)
    work = tmp_path / "work"
    work.mkdir()
    (work / "tests").symlink_to(TESTS)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    env.pop("PYTHONPATH", None)
    ran = 0
    for block in doc_blocks():
        steps: list[tuple[str, list[str] | None]] = []
        if any(line.startswith("$ ") for line in block):
            for line in block:
                if line.startswith("$ "):
                    steps.append((line[2:], []))
                else:
                    steps[-1][1].append(line)  # type: ignore[union-attr]
        else:
            steps = [(line, None) for line in block if line.strip()]
        for command, shown in steps:
            assert shlex.split(command, comments=True)[0] in ("hanamikoji", "python") or \
                command.startswith("PYTHONPATH=tests hanamikoji "), command
            done = subprocess.run(["bash", "-c", command], cwd=work, env=env,
                                  capture_output=True, text=True, timeout=300)
            assert done.returncode == expected_exit(command), (command, done.stderr[-800:])
            if shown is not None:
                assert matches(shown, done.stdout.splitlines()), (command, done.stdout[-2000:])
            ran += 1
    assert ran >= 10
    assert json.loads((work / "maiko-record.schema.json").read_text())["title"] == "maiko-record/1"
    assert not (work / ".hypothesis").exists()


def test_the_doc_perft_table_is_what_perft_counts():
    """The table's counts to depth 3 are the plain walk's from the seeded start of each player
    count (depth 4 takes minutes: checked under the thorough profile). Times are measurements
    and are not checked."""
    from hanamikoji.oracle.core.perft import seeded_start

    table = SECTION.split("<!-- maiko-perft-table -->")[1].split("<!-- /maiko-perft-table -->")[0]
    rows = re.findall(r"^\| (\d) \| (.*) \|$", table, re.M)
    assert [int(players) for players, _ in rows] == [2, 3, 4]
    deep = os.environ.get("HYPOTHESIS_PROFILE") == "thorough"
    for players, cells in rows:
        shown = [int(cell.split("(")[0].replace(",", "")) for cell in cells.split(" | ")]
        assert len(shown) == 4
        start = seeded_start(GAME, GAME.configure({"players": int(players)}), 0)
        assert shown[:3] == plain_walk(start, 3, bulk=True)[1:]
        if deep:
            assert shown[3] == plain_walk(start, 4, bulk=True)[4]


def test_the_doc_broken_engine_table_lists_the_five():
    table = SECTION.split("<!-- maiko-broken-table -->")[1].split("<!-- /maiko-broken-table -->")[0]
    assert re.findall(r"^\| `([A-Z_]+)` \|", table, re.M) == [ATTRIBUTE[n] for n in BROKEN]
