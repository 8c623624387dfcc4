"""tests/vectors/: the committed conformance corpus is what the engine says, case by case, and
``hanamikoji vectors`` regenerates it byte for byte."""

from __future__ import annotations

import json
import pathlib

import pytest

from hanamikoji.engine.hanamikoji import apply, legal_actions, observe
from hanamikoji.engine.core.cli import main
from hanamikoji.engine.hanamikoji.protocol import parse_decision, view_json
from hanamikoji.engine.hanamikoji.vectors import CORPUS, EXPECTED, FILES, RULE_ID, position

ROOT = pathlib.Path(__file__).parent.parent
VECTORS = ROOT / "tests" / "vectors"


def load(name: str) -> dict:
    return json.loads((VECTORS / name).read_text(encoding="utf-8"))


def cases(name: str) -> list[dict]:
    return load(name)["tests"]


def test_the_command_regenerates_the_committed_corpus(tmp_path, capsys):
    assert main(["vectors", "--out", str(tmp_path / "out")]) == 0
    printed = capsys.readouterr().out
    for name in FILES:
        assert (tmp_path / "out" / name).read_bytes() == (VECTORS / name).read_bytes(), name
        assert f"{name}: {load(name)['numberOfTests']} cases" in printed
    assert sorted(p.name for p in VECTORS.glob("*.json")) == sorted(FILES)


@pytest.mark.parametrize("name", FILES)
def test_every_expected_answer_is_what_the_engine_says(name):
    for case in cases(name):
        assert EXPECTED[name](case["input"]) == case["expected"], case["id"]


@pytest.mark.parametrize("name", FILES)
def test_headers_flags_and_ids(name):
    document = load(name)
    assert document["corpus"] == CORPUS and document["numberOfTests"] == len(document["tests"])
    ids = [c["id"] for c in document["tests"]]
    assert len(ids) == len(set(ids))
    for case in document["tests"]:
        assert set(case) == {"id", "comment", "flags", "rules", "input", "expected"}
        assert case["comment"] and all(f in document["notes"] for f in case["flags"])


def test_every_rule_of_the_spec_is_cited_and_every_citation_exists():
    rules = RULE_ID.findall((ROOT / "spec" / "hanamikoji" / "rules.md").read_text())
    assert len(rules) == len(set(rules)) > 40
    cited = {rule for name in FILES for case in cases(name) for rule in case["rules"]}
    assert sorted(set(rules) - cited) == []
    assert sorted(cited - set(rules)) == []


def test_illegal_cases_cite_the_rule_they_break():
    for name in ("records.json", "decisions.json"):
        for case in cases(name):
            if case["expected"]["status"] == "illegal":
                assert case["expected"]["rule"] in case["rules"], case["id"]


def test_the_edge_cases_of_the_issue_are_there():
    """A simultaneous finish, a tie keeping an old marker, the Italian limit by charm, by
    highest geisha and shared, each as a valid record with that result."""
    results = {c["expected"]["result"]["reason"] for c in cases("records.json")
               if c["expected"]["status"] == "valid"}
    assert {"charm-over-geisha", "round-limit-charm", "round-limit-highest-geisha",
            "shared", "geisha", "charm"} <= results
    tie = next(c for c in cases("records.json") if c["id"] == "record/valid/tie-keeps-old-marker")
    rounds = tie["input"]["record"]["rounds"]
    assert len(rounds) == 3


def test_record_cases_through_the_command(tmp_path, capsys):
    """``validate --json`` on all record cases, one per line, gives every expected verdict."""
    lines = []
    for case in cases("records.json"):
        given = case["input"]
        if "record" in given:
            lines.append(json.dumps(given["record"]).encode())
        elif "text" in given:
            lines.append(given["text"].encode())
        else:
            lines.append(bytes.fromhex(given["hex"]))
    path = tmp_path / "cases.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    assert main(["validate", "--json", str(path)]) == 2  # some are malformed
    verdicts = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(verdicts) == len(lines)
    for case, verdict in zip(cases("records.json"), verdicts):
        expected = case["expected"]
        assert {k: verdict[k] for k in ("status", "rule", "round", "turn", "path", "result")} \
            == {k: expected[k] for k in ("status", "rule", "round", "turn", "path", "result")}, \
            case["id"]


def test_decision_cases_agree_with_membership_in_the_legal_list():
    """Second method: a decision is legal exactly when it is in the position's legal list."""
    for case in cases("decisions.json"):
        decision = parse_decision(case["input"]["decision"])
        listed = {parse_decision(d) for d in case["expected"]["legal_actions"]}
        if listed:
            assert (decision in listed) == (case["expected"]["status"] == "legal"), case["id"]
        else:  # a chance node or the end: the deals are not listed
            state = position(case["input"])
            assert legal_actions(state) == ()


def test_view_cases_show_only_what_the_rules_allow():
    """INFO-2, by a second method: the view's hidden places are sizes, never cards."""
    for case in cases("views.json"):
        view = case["expected"]["view"]
        state = position(case["input"])
        player = case["input"]["player"]
        assert view["opponent_hand_size"] == sum(state.hands[1 - player])
        assert view["deck_size"] == len(state.deck)
        assert view == view_json(observe(state, player))
        for entry in view["log"]:
            if entry["player"] != player and entry["action"] in ("secret", "trade-off"):
                assert entry["cards"] is None, case["id"]


def test_perft_cases_divide_sums_to_the_depth_count():
    for case in cases("perft.json"):
        if "divide" in case["expected"]:
            depth = str(case["input"]["divide"])
            assert sum(i["count"] for i in case["expected"]["divide"]) == \
                case["expected"]["depths"][depth]


def test_positions_replay_through_apply():
    for case in cases("decisions.json") + cases("views.json"):
        state = position(case["input"])
        assert len(state.history) == len(case["input"]["history"])
        if case["expected"].get("status") == "legal":
            apply(state, parse_decision(case["input"]["decision"]))


def test_out_must_be_a_directory(tmp_path, capsys):
    target = tmp_path / "file"
    target.write_text("x")
    assert main(["vectors", "--out", str(target)]) == 2
    assert "not a directory" in capsys.readouterr().err
