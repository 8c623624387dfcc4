"""tests/vectors/maiko/: Maiko's committed conformance corpus is what ``hanamikoji vectors --game
maiko`` writes, byte for byte; it cites every MK rule of the spec and no other; it covers 2, 3
and 4 players in every file; and its expected answers hold when checked by other roads than the
generator's: the record cases through ``validate --json``, the legal lists against the
decisions' verdicts, the views against what the rules hide, the perft counts by a plain walk."""

from __future__ import annotations

import json
import pathlib
import sys
from collections import Counter

import pytest

from hanamikoji.cli.main import main
from hanamikoji.oracle.core.vectors import CORPUS, FILES
from hanamikoji.engine.maiko import GAME, parse_tile
from hanamikoji.properties.core.cite import checks

TESTS = pathlib.Path(__file__).resolve().parents[1]
if str(TESTS) not in sys.path:  # the shared checks are the module oracle_checks of tests/
    sys.path.insert(0, str(TESTS))

from oracle_checks import cases, cited, load, spec_rules, validate_json, walk  # noqa: E402

ROOT = TESTS.parent
VECTORS = ROOT / "tests" / "vectors" / "maiko"


def position(given: dict):
    """The state of a case's position, replayed decision by decision through the game."""
    state = GAME.new_game(GAME.configure(given["options"]), given["first_player"])
    for decision in given["history"]:
        state = GAME.apply(state, GAME.decision_from_json(decision))
    return state


def players(case: dict) -> int:
    given = case["input"]
    options = given["record"]["options"] if "record" in given else given.get("options")
    return options["players"] if isinstance(options, dict) else 0


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory):
    out = tmp_path_factory.mktemp("maiko-vectors")
    code = main(["vectors", "--game", "maiko", "--out", str(out)])
    return code, out


def test_the_command_regenerates_the_committed_corpus(regenerated):
    code, out = regenerated
    assert code == 0
    assert sorted(p.name for p in VECTORS.iterdir()) == sorted(FILES)
    for name in FILES:
        assert (out / name).read_bytes() == (VECTORS / name).read_bytes(), name


@pytest.mark.parametrize("name", FILES)
def test_headers_flags_and_ids(name):
    document = load(VECTORS, name)
    assert (document["corpus"], document["game"], document["file"]) == (CORPUS, "maiko", name)
    assert document["generator"] == "hanamikoji vectors --game maiko"
    assert document["numberOfTests"] == len(document["tests"]) > 0
    ids = [case["id"] for case in document["tests"]]
    assert len(ids) == len(set(ids))
    for case in document["tests"]:
        assert set(case) == {"id", "comment", "flags", "rules", "input", "expected"}
        assert case["comment"] and all(flag in document["notes"] for flag in case["flags"])
        assert len(set(case["rules"])) == len(case["rules"]), case["id"]


def test_every_mk_rule_is_cited_and_every_citation_exists():
    rules = spec_rules(ROOT / "spec" / "maiko" / "rules.md")
    assert len(rules) == len(set(rules)) > 40 and all(r.startswith("MK-") for r in rules)
    assert sorted(set(rules) - cited(VECTORS)) == []
    assert sorted(cited(VECTORS) - set(rules)) == []


@pytest.mark.parametrize("name", FILES)
def test_two_three_and_four_players_in_every_file(name):
    counts = Counter(players(case) for case in cases(VECTORS, name))
    assert {2, 3, 4} <= set(counts), counts


def test_illegal_cases_cite_the_rule_they_break():
    for name in ("records.json", "decisions.json"):
        for case in cases(VECTORS, name):
            if case["expected"]["status"] == "illegal":
                assert case["expected"]["rule"] in case["rules"], case["id"]


def test_the_corpus_holds_each_end_and_each_verdict():
    """Valid records end by each of the three ends (a full board, a static position, no
    face-down tile), with a shared victory and a winner by the own-colour tie-break; illegal
    and malformed records are there too."""
    records = cases(VECTORS, "records.json")
    assert {c["expected"]["status"] for c in records} == {"valid", "illegal", "malformed"}
    results = [c["expected"]["result"] for c in records if c["expected"]["result"]]
    assert {r["reason"] for r in results} == {"full-board", "static", "no-face-down-tile"}
    assert any(len(r["winners"]) > 1 for r in results)
    tie_break = [r for r in results if len(r["winners"]) == 1
                 and sorted(r["scores"])[-1] == sorted(r["scores"])[-2]]
    assert tie_break, "a winner by own-colour tiles on equal points"


def test_record_cases_through_the_validate_command(tmp_path, capsys):
    """The verdicts of ``validate --game maiko --json`` on every record case, one per line,
    are the expected ones: status, rule, turn and step, path and result."""
    records = cases(VECTORS, "records.json")
    code, verdicts = validate_json(records, tmp_path, capsys, game="maiko")
    assert code == 2  # some are malformed
    assert len(verdicts) == len(records)
    keys = ("status", "rule", "turn", "step", "path", "result")
    for case, verdict in zip(records, verdicts):
        assert {k: verdict[k] for k in keys} == {k: case["expected"][k] for k in keys}, case["id"]


def test_valid_records_legal_counts_by_replay():
    """A valid record's ``legal_counts`` is the number of legal decisions at each decision:
    before each of its steps, and at the end of an unfinished game the one still due; counted
    here by replaying the record's steps."""
    for case in cases(VECTORS, "records.json"):
        if case["expected"]["status"] != "valid":
            continue
        record = case["input"]["record"]
        state = GAME.new_game(GAME.configure(record["options"]), record["first_player"])
        state = GAME.apply(state, GAME.decision_from_json({"kind": "layout",
                                                           "tiles": record["layout"]}))
        counts = []
        for turn in record["turns"]:
            for step in turn["steps"]:
                counts.append(len(GAME.legal_actions(state)))
                state = GAME.apply(state, GAME.decision_from_json(step))
        if not GAME.is_terminal(state):
            counts.append(len(GAME.legal_actions(state)))
        assert counts == case["expected"]["legal_counts"], case["id"]


def test_decision_cases_replay_and_agree_with_the_legal_list():
    """A decision is legal exactly when it is in the position's legal list (which is the
    replayed position's, in order); a legal one leads to the expected player and result."""
    for case in cases(VECTORS, "decisions.json"):
        given, expected = case["input"], case["expected"]
        state = position(given)
        listed = [GAME.decision_to_json(d) for d in GAME.legal_actions(state)]
        assert listed == expected["legal_actions"], case["id"]
        if GAME.current_player(state) >= 0:
            assert (given["decision"] in listed) == (expected["status"] == "legal"), case["id"]
        if expected["status"] == "legal":
            after = GAME.apply(state, GAME.decision_from_json(given["decision"]))
            player = GAME.current_player(after)
            assert expected["next_player"] == (player if player >= 0 else "terminal"), case["id"]
            assert expected["result"] == GAME.outcome_to_json(GAME.outcome(after)), case["id"]


@checks("MK-INFO-1", "MK-INFO-2", "MK-TUTOR-ONESAN-2")
def test_view_cases_show_only_what_the_rules_allow():
    """MK-INFO-1, MK-INFO-2, MK-TUTOR-ONESAN-2: a view shows a face-down tile as "down", never
    its identity, and a log entry's tile only for a flip, a Danna reveal or the viewer's own
    One-san look; every maiko board and token count is the position's."""
    for case in cases(VECTORS, "views.json"):
        state, player = position(case["input"]), case["input"]["player"]
        view = case["expected"]["view"]
        assert view["player"] == player, case["id"]
        for owner, board in enumerate(view["maiko_boards"]):  # MK-COMP-4: every layer shown
            for item, names in enumerate(board):
                shown = Counter(parse_tile(n) for n in names)
                assert shown == Counter({colour * 9 + item: state.boards[owner][item * 4 + colour]
                                         for colour in range(4)
                                         if state.boards[owner][item * 4 + colour]}), case["id"]
        for space, shown in enumerate(view["board"]):
            status = state.spaces[space]
            assert (shown == "down") == (status == 0), (case["id"], space)
            if status == 1:  # face up: the tile itself, for all to see
                assert parse_tile(shown) == state.layout[space], (case["id"], space)
        for entry in view["log"]:
            kind = entry["decision"]["kind"]
            seen = kind in ("flip", "danna") or (kind == "one-san" and entry["player"] == player)
            assert ("tile" in entry) == seen, (case["id"], entry)
            if seen:
                assert parse_tile(entry["tile"]) == state.layout[entry["decision"]["space"]]
        assert view["tokens"]["hands"] == list(state.hands), case["id"]


@checks("MK-STATIC-1", "MK-STATIC-3")
def test_static_end_views_are_static_by_what_the_player_sees():
    """MK-STATIC-1, MK-STATIC-3: at a static end, each player can tell from their own view
    alone that nothing could change: the face-down tiles (the game's tiles minus every tile on
    view) hold no friend and no two of one item, and nobody holds a token."""
    found = 0
    for case in cases(VECTORS, "views.json"):
        view = case["expected"]["view"]
        if (view["result"] or {}).get("reason") != "static":
            continue
        found += 1
        hidden = Counter(GAME.configure(view["options"]).tiles)  # the box is out already
        on_view = [parse_tile(t) for t in view["board"] if t not in ("down", "empty")]
        on_view += [parse_tile(t) for board in view["maiko_boards"] for item in board
                    for t in item]
        on_view += [parse_tile(t) for t in view["discarded"]]
        hidden.subtract(on_view)
        down = [code for code, n in hidden.items() for _ in range(n)]
        assert min(hidden.values()) >= 0 and len(down) == view["board"].count("down")
        assert parse_tile("friend") not in down, case["id"]
        assert len({code % 9 for code in down}) == len(down), case["id"]
        assert not any(view["tokens"]["hands"]), case["id"]
    assert found >= 2


def test_perft_counts_by_a_plain_walk():
    """Every perft count, recounted by walking ``legal_actions``/``apply`` from the replayed
    position; a divided count is the walk from each child."""
    for case in cases(VECTORS, "perft.json"):
        given, expected = case["input"], case["expected"]
        state = position(given)
        counts = walk(GAME, state, given["depth"])
        assert {str(d): counts[d] for d in range(1, given["depth"] + 1)} == expected["depths"]
        if "divide" in expected:
            depth = given["divide"]
            children = [(GAME.decision_to_json(d), walk(GAME, GAME.apply(state, d), depth - 1))
                        for d in GAME.legal_actions(state)]
            assert [{"decision": d, "count": c[depth - 1]} for d, c in children] == \
                expected["divide"], case["id"]
            assert sum(c[depth - 1] for _, c in children) == expected["depths"][str(depth)]


def test_the_maiko_corpus_is_maikos_own():
    """``vectors --game maiko`` writes Maiko's hand-built corpus (hanamikoji.oracle.maiko.vectors), not
    the core's corpus of seeded games: constructed cases are there."""
    flags = {flag for name in FILES for case in cases(VECTORS, name) for flag in case["flags"]}
    assert {"Constructed", "Seeded"} <= flags
    assert json.loads((VECTORS / "perft.json").read_text())["game"] == "maiko"
