"""tests/vectors/: the committed conformance corpus is what the engine says, case by case, and
``hanamikoji vectors`` regenerates it byte for byte; the generic writer (oracle/core/vectors.py)
builds a corpus for a game without hand-made cases, through the game's interface alone."""

from __future__ import annotations

import json
import pathlib

import attrs
import pytest

from hanamikoji.engine.hanamikoji import apply, legal_actions, observe
from hanamikoji.engine.core import registry
from hanamikoji.oracle.core import vectors as core_vectors
from hanamikoji.cli.main import main
from hanamikoji.engine.core.errors import IllegalActionError, InvalidActionError
from hanamikoji.engine.core.game import (
    CHANCE,
    TERMINAL,
    Game,
    IllegalRecordError,
    MalformedRecordError,
    Option,
    Outcome,
)
from hanamikoji.engine.hanamikoji.game_type import GAME
from hanamikoji.engine.hanamikoji.codec import parse_decision, view_json
from hanamikoji.oracle.hanamikoji.vectors import CORPUS, EXPECTED, FILES, RULE_ID, position
from hanamikoji.properties.core.cite import checks

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


@checks("INFO-2")
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


def test_vectors_game_hanamikoji_is_the_default(tmp_path, capsys):
    assert main(["vectors", "--game", "hanamikoji", "--out", str(tmp_path)]) == 0
    for name in FILES:
        assert (tmp_path / name).read_bytes() == (VECTORS / name).read_bytes(), name
    assert main(["vectors", "--game", "go", "--out", str(tmp_path)]) == 2
    assert "unknown game 'go'" in capsys.readouterr().err


def test_the_generic_builder_on_hanamikoji_recomputes_and_cites_its_errors_rules():
    """The corpus built from seeded games through the interface, for a game whose hand-made
    corpus lets us check it: every expected answer recomputes, every illegal case cites the
    rule the engine names, and every cited rule is one of the spec's."""
    spec = set(RULE_ID.findall((ROOT / "spec" / "hanamikoji" / "rules.md").read_text()))
    files = core_vectors.generic_files(GAME)
    for name, file in files.items():
        assert file.cases, name
        for case in file.cases:
            assert core_vectors.EXPECTED[name](GAME, case.input) == case.expected, case.id
            assert set(case.rules) <= spec, case.id
            if case.expected.get("status") == "illegal":
                assert case.rules == (case.expected["rule"],), case.id
    illegal = [c for c in files["records.json"].cases if c.expected["status"] == "illegal"]
    assert len({c.expected["rule"] for c in illegal}) == len(illegal) >= 5


# --- a stub game: three or four players, nothing of Hanamikoji ------------------------------


@attrs.frozen
class StubConfig:
    players: int


@attrs.frozen
class StubState:
    config: StubConfig
    first: int
    deal: tuple[int, ...] | None = None
    choices: tuple[str, ...] = ()


class Stub(Game):
    """High card for 3 or 4: a deal of distinct cards, then each player once folds, stays or
    raises (ST-RAISE-1: one raise a game); the highest card that did not fold wins."""

    name = "stub-high-card"
    title = "Stub"
    rulebooks = ()
    options = (Option("players", 3, "seats", low=3, high=4),)
    min_players, max_players = 3, 4
    record_format = "stub-record/1"
    rule_prefix = "ST-"
    spec_file = "tests/none.md"
    record_where = ("turn",)

    def make_config(self, values):
        return StubConfig(values["players"])

    def options_of(self, config):
        return {"players": config.players}

    def num_players(self, config):
        return config.players

    def new_game(self, config, first_player=0):
        return StubState(config, first_player)

    def config_of(self, state):
        return state.config

    def first_player(self, state):
        return state.first

    def current_player(self, state):
        if state.deal is None:
            return CHANCE
        if len(state.choices) == state.config.players:
            return TERMINAL
        return (state.first + len(state.choices)) % state.config.players

    def legal_actions(self, state):
        if self.current_player(state) < 0:
            return ()
        return ("fold", "stay") if "raise" in state.choices else ("fold", "raise", "stay")

    def apply(self, state, decision):
        n = state.config.players
        if isinstance(decision, tuple):
            if state.deal is not None:
                raise IllegalActionError("the cards are dealt already", "ST-DEAL-1")
            if sorted(decision) != sorted(set(decision)) or len(decision) != n or \
                    not set(decision) <= set(range(n + 1)):
                raise IllegalActionError(f"a deal is {n} distinct cards of 0..{n}", "ST-DEAL-1")
            return attrs.evolve(state, deal=decision)
        if decision not in ("fold", "raise", "stay"):
            raise InvalidActionError(f"not a decision: {decision!r}")
        if state.deal is None:
            raise IllegalActionError("the cards are not dealt yet", "ST-DEAL-1")
        if self.current_player(state) == TERMINAL:
            raise IllegalActionError("the game is over", "ST-END-1")
        if decision == "raise" and "raise" in state.choices:
            raise IllegalActionError("one raise a game", "ST-RAISE-1")
        return attrs.evolve(state, choices=state.choices + (decision,))

    def sample_chance(self, state, rng):
        return tuple(rng.sample(range(state.config.players + 1), state.config.players))

    def observe(self, state, player):
        return (player, None if state.deal is None else state.deal[player], state.choices)

    def outcome(self, state):
        if self.current_player(state) != TERMINAL:
            return None
        n = state.config.players
        seats = [(state.first + i) % n for i in range(n)]
        stayed = [p for p, c in zip(seats, state.choices) if c != "fold"]
        if not stayed:
            return Outcome(tuple(range(n)), "all-folded")
        return Outcome((max(stayed, key=lambda p: state.deal[p]),), "high-card")

    def history(self, state):
        return (() if state.deal is None else (state.deal,)) + state.choices

    def decision_to_json(self, decision):
        return {"deal": list(decision)} if isinstance(decision, tuple) else {"choice": decision}

    def decision_from_json(self, obj, path="$"):
        if isinstance(obj, dict) and isinstance(obj.get("deal"), list):
            return tuple(obj["deal"])
        if isinstance(obj, dict) and isinstance(obj.get("choice"), str):
            return obj["choice"]
        raise InvalidActionError(f"{path}: expected {{\"deal\"}} or {{\"choice\"}}")

    def view_to_json(self, view):
        return {"player": view[0], "card": view[1], "choices": list(view[2])}

    def to_record(self, state):
        return {"format": self.record_format, "players": state.config.players,
                "first_player": state.first, "deal": list(state.deal or ()),
                "choices": list(state.choices),
                "result": self.outcome_to_json(self.outcome(state))}

    def read_record(self, obj):
        if not isinstance(obj, dict) or obj.get("format") != self.record_format:
            raise MalformedRecordError("$.format", f"expected {self.record_format}")
        for key in ("players", "first_player"):
            if type(obj.get(key)) is not int:
                raise MalformedRecordError(f"$.{key}", "expected an integer")
        if obj["players"] not in (3, 4):
            raise MalformedRecordError("$.players", "expected 3 or 4")
        if not 0 <= obj["first_player"] < obj["players"]:
            raise MalformedRecordError("$.first_player", "expected a player")
        for key in ("deal", "choices"):
            if not isinstance(obj.get(key), list):
                raise MalformedRecordError(f"$.{key}", "expected a list")
        state = self.new_game(StubConfig(obj["players"]), obj["first_player"])
        decisions = [tuple(obj["deal"])] + obj["choices"]
        for turn, decision in enumerate(decisions):
            try:
                state = self.apply(state, decision)
            except IllegalActionError as error:
                raise IllegalRecordError(error.message, error.rule, {"turn": turn}) from None
            except InvalidActionError as error:
                raise MalformedRecordError(f"$.choices[{turn - 1}]", str(error)) from None
        if self.current_player(state) != TERMINAL:
            raise IllegalRecordError("the record stops before every player chose", "ST-END-1")
        if obj.get("result") != self.outcome_to_json(self.outcome(state)):
            raise IllegalRecordError("the declared result is not the game's", "ST-END-2")
        return state

    def record_schema(self):
        return {}

    def render(self, state):
        return [repr(state)]

    def ledger(self, state):
        return {"cards": state.config.players + 1}

    def expected_ledger(self, config):
        return {"cards": config.players + 1}

    def resample(self, state, player, rng):
        return state


@pytest.fixture
def stub():
    game = registry.register(Stub())
    yield game
    registry.unregister(game.name)


def test_a_game_without_hand_made_cases_gets_a_generic_corpus(stub, tmp_path, capsys):
    assert main(["vectors", "--game", stub.name, "--out", str(tmp_path / "a")]) == 0
    assert main(["vectors", "--game", stub.name, "--out", str(tmp_path / "b")]) == 0
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == sorted(FILES)
    rules = set()
    for name in FILES:
        text = (tmp_path / "a" / name).read_text(encoding="utf-8")
        assert text == (tmp_path / "b" / name).read_text(encoding="utf-8")  # deterministic
        document = json.loads(text)
        assert (document["corpus"], document["game"], document["file"]) == (CORPUS, stub.name, name)
        assert document["generator"] == f"hanamikoji vectors --game {stub.name}"
        assert document["numberOfTests"] == len(document["tests"]) > 0
        for case in document["tests"]:
            assert core_vectors.EXPECTED[name](stub, case["input"]) == case["expected"], case["id"]
            assert all(f in document["notes"] for f in case["flags"])
            if case["expected"].get("status") == "illegal":
                assert case["rules"] == [case["expected"]["rule"]], case["id"]
            rules.update(case["rules"])
    assert rules == {"ST-DEAL-1", "ST-END-1", "ST-END-2", "ST-RAISE-1"}
    records = json.loads((tmp_path / "a" / "records.json").read_text())["tests"]
    assert {c["input"]["record"]["players"] for c in records if "valid" in c["id"]} == {3, 4}
    views = json.loads((tmp_path / "a" / "views.json").read_text())["tests"]
    assert {c["input"]["player"] for c in views} == {0, 1, 2, 3}


def test_perft_of_a_game_without_a_fast_count(stub, tmp_path, capsys):
    """perft walks the interface for any game: 3 players, one raise a game (ST-RAISE-1)."""
    def sequences(k, raises=1):  # k choices of fold/stay/raise with at most ``raises`` raises
        return 2 ** k + (k * 2 ** (k - 1) if raises and k else 0)

    assert main(["perft", "--game", stub.name, "--seed", "4", "--depth", "4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["depths"] == {"1": sequences(1), "2": sequences(2), "3": sequences(3), "4": 0}
    assert out["position"]["game"] == stub.name and len(out["position"]["history"]) == 1
    assert main(["perft", "--game", stub.name, "--seed", "4", "--depth", "3", "--divide",
                 "--json"]) == 0
    assert [(d["decision"], d["count"]) for d in json.loads(capsys.readouterr().out)["divide"]] \
        == [({"choice": "fold"}, sequences(2)), ({"choice": "raise"}, sequences(2, raises=0)),
            ({"choice": "stay"}, sequences(2))]
    path = tmp_path / "position.json"
    path.write_text(json.dumps(out["position"]))
    assert main(["perft", "--game", stub.name, "--history", str(path), "--depth", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"perft of {path}: 1 decision from the start, player 0 to decide"
    assert lines[-1] == f"    3  {sequences(3)}"
    assert main(["perft", "--game", stub.name, "--deal", str(path), "--depth", "1"]) == 2
    assert "has no start files" in capsys.readouterr().err
    assert main(["perft", "--game", stub.name, "--seed", "0", "--depth", "1", "--players", "4",
                 "--first-player", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["position"]["first_player"] == 3
