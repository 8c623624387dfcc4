"""``hanamikoji perft``: the fast count agrees with plain walks of legal_actions/apply, and the
generic tool (oracle/core/perft.py) counts through the game's interface.

TURN-1, TURN-3, TURN-4: a round is 12 decisions deep (8 actions, 4 answers). COMP-2: the
counting convention is legal_actions' (each distinct decision once).
"""

from __future__ import annotations

import json
import pathlib
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanamikoji.engine.hanamikoji import (
    ITALIAN_THREE_ROUNDS,
    Deal,
    Phase,
    apply,
    legal_actions,
)
from hanamikoji.oracle.core import perft as core_perft
from hanamikoji.cli.main import main
from hanamikoji.engine.core.seeded import play_game
from hanamikoji.engine.hanamikoji.game_type import GAME
from hanamikoji.oracle.hanamikoji.perft import divide, perft, round_start, seeded_deal
from hanamikoji.oracle.hanamikoji.perft import HanamikojiPerft
from hanamikoji.engine.hanamikoji.codec import parse_deal
from hanamikoji.properties.core.cite import checks

ROOT = pathlib.Path(__file__).parent.parent
DECK = (0, 0, 1, 1, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 6)


def naive(state, depth):
    """The definition: walk every legal decision, no memo; nodes at each depth 0..depth."""
    counts = [0] * (depth + 1)

    def walk(s, d):
        counts[d] += 1
        if d < depth and s.phase in (Phase.ACTION, Phase.RESPONSE):
            for decision in legal_actions(s):
                walk(apply(s, decision), d + 1)

    walk(state, 0)
    return tuple(counts)


def transpositions(state, depth):
    """A second fast count: memoised on the whole state that decides the future (both hands,
    both players' used actions, the turn, the pending offer); no per-player factoring."""
    memo = {}

    def count(s, d):
        if d == 0 or s.phase not in (Phase.ACTION, Phase.RESPONSE):
            return (1,) + (0,) * d
        key = (d, s.turn, s.phase, s.hands, frozenset(s.used[0]), frozenset(s.used[1]),
               s.pending)
        if key not in memo:
            out = [1] + [0] * d
            for decision in legal_actions(s):
                for i, c in enumerate(count(apply(s, decision), d - 1)):
                    out[i + 1] += c
            memo[key] = tuple(out)
        return memo[key]

    return count(state, depth)


deals = st.permutations(DECK).map(lambda c: Deal(c[0], (c[1:7], c[7:13]), c[13:]))


@settings(max_examples=8, deadline=None)
@given(deals, st.integers(0, 1))
def test_perft_agrees_with_the_naive_walk_at_small_depths(deal, first):
    state = round_start(deal, first)
    assert perft(state, 2) == naive(state, 2)


def test_perft_agrees_with_the_naive_walk_at_depth_3():
    state = round_start(seeded_deal(1))
    assert perft(state, 3) == naive(state, 3)


@st.composite
def late_states(draw):
    """A state late in a round, reached by playing drawn legal decisions from a drawn deal."""
    state = round_start(draw(deals), draw(st.integers(0, 1)))
    stop = draw(st.integers(6, 10))
    for _ in range(stop):
        state = apply(state, draw(st.sampled_from(legal_actions(state))))
    return state


@settings(max_examples=10, deadline=None)
@given(late_states())
def test_perft_agrees_with_the_naive_walk_to_the_end_of_the_round(state):
    """From a state late in a round the naive walk reaches the round's end: every depth,
    answers pending or not, and the end of the tree all agree."""
    depth = 12
    got = perft(state, depth)
    assert got == naive(state, depth)
    assert got[-1] == 0 or state.turn == 0  # nothing lies beyond the round's last decision


def test_perft_agrees_with_a_transposition_walk_at_depth_12():
    with open(ROOT / "docs" / "examples" / "deal-small.json") as handle:
        given_deal = json.load(handle)
    state = round_start(parse_deal({k: given_deal[k] for k in ("removed", "hands", "draws")}),
                        given_deal["first_player"])
    assert perft(state, 12) == transpositions(state, 12)


def test_divide_splits_the_count_by_first_decision():
    state = round_start(seeded_deal(2), 1)
    split = divide(state, 3)
    assert [d for d, _ in split] == list(legal_actions(state))
    assert sum(n for _, n in split) == perft(state, 3)[3]
    for decision, n in split[::17]:
        assert n == naive(apply(state, decision), 2)[2]


def test_the_variant_does_not_change_a_rounds_tree():
    deal = seeded_deal(3)
    assert perft(round_start(deal), 12) == perft(round_start(deal, 0, ITALIAN_THREE_ROUNDS), 12)


def test_perft_rejects_states_outside_a_round_and_bad_depths():
    state = round_start(seeded_deal(0))
    with pytest.raises(ValueError):
        perft(state, 13)
    final = state
    while final.phase in (Phase.ACTION, Phase.RESPONSE):
        final = apply(final, legal_actions(final)[0])
    with pytest.raises(ValueError):
        perft(final, 1)


# --- the command ---------------------------------------------------------------------------


def test_cli_json_and_table(capsys):
    assert main(["perft", "--seed", "0", "--depth", "4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    expected = perft(round_start(seeded_deal(0)), 4)
    assert out["depths"] == {str(d): expected[d] for d in range(1, 5)}
    assert main(["perft", "--seed", "0", "--depth", "2", "--first-player", "1"]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[-3:] == ["depth  leaves"] + [f"{d:>5}  {n}" for d, n in
                                             enumerate(perft(round_start(seeded_deal(0), 1), 2))
                                             if d]


def test_cli_divide(capsys, tmp_path):
    assert main(["perft", "--deal", str(ROOT / "docs" / "examples" / "deal-small.json"),
                 "--depth", "2", "--divide", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert sum(item["count"] for item in out["divide"]) == out["depths"]["2"]
    assert main(["perft", "--seed", "5", "--depth", "2", "--divide"]) == 0
    lines = capsys.readouterr().out.splitlines()
    state = round_start(seeded_deal(5))
    assert f"{len(legal_actions(state))} first decisions, {perft(state, 2)[2]} sequences of 2 " \
           "decisions" in lines


@pytest.mark.parametrize("args, message", [
    (["--seed", "0", "--depth", "13"], "12 decisions deep"),
    (["--deal", "{missing}", "--depth", "2"], "no such file"),
    (["--deal", "{bad_json}", "--depth", "2"], "not JSON"),
    (["--deal", "{bad_shape}", "--depth", "2"], "$.hands[1]"),
    (["--deal", "{not_21}", "--depth", "2"], "DEAL-1"),
    (["--deal", "{small}", "--first-player", "1", "--depth", "2"], "--first-player goes with"),
    (["--history", "{huge}", "--depth", "2"], "larger than 1,048,576 bytes"),
])
def test_cli_errors_exit_2(capsys, tmp_path, args, message):
    files = {"missing": tmp_path / "none.json", "bad_json": tmp_path / "bad.json",
             "huge": tmp_path / "huge.json",
             "bad_shape": tmp_path / "shape.json", "not_21": tmp_path / "not21.json",
             "small": ROOT / "docs" / "examples" / "deal-small.json"}
    files["bad_json"].write_text("{")
    files["huge"].write_text('{"history": [' + " " * (1 << 20) + "]}")
    small = json.loads(files["small"].read_text())
    files["bad_shape"].write_text(json.dumps({**small, "hands": [small["hands"][0], [1]]}))
    files["not_21"].write_text(json.dumps({**small, "removed": 6}))
    code = main(["perft"] + [a.format(**{k: str(v) for k, v in files.items()}) for a in args])
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.splitlines()) == 1


def test_cli_needs_a_deal(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["perft", "--depth", "2"])
    assert exit_.value.code == 2


def test_docs_table_is_the_vectors_table():
    """docs/oracle.md publishes the perft table of tests/vectors/perft.json."""
    vectors = json.loads((ROOT / "tests" / "vectors" / "perft.json").read_text())
    docs = (ROOT / "docs" / "oracle.md").read_text()
    table = docs[docs.index("<!-- perft-table -->"):docs.index("<!-- /perft-table -->")]
    rows = [line.strip("|").split("|") for line in table.splitlines() if line.startswith("| ")]
    header, *body = rows
    columns = [h.strip() for h in header[1:]]
    cases = {c["id"]: c for c in vectors["tests"]}
    assert len(columns) == len(cases)
    for row in body:
        depth = row[0].strip()
        for column, cell in zip(columns, row[1:]):
            case = cases[re.search(r"`(perft/[^`]+)`", column).group(1)]
            assert int(cell.strip().replace(",", "")) == case["expected"]["depths"][depth]


# --- the generic tool: oracle/core/perft.py ---------------------------------------------------


@checks("TURN-1", "TURN-3", "TURN-4")
@pytest.mark.parametrize("seed, first", [(0, 0), (1, 1), (2, 0), (4, 1)])
def test_the_generic_walk_equals_the_games_fast_count(seed, first):
    """TURN-1, TURN-3, TURN-4: the core's plain walk of the interface and Hanamikoji's
    per-player tables (HanamikojiPerft.count) count the same, from the seeded start of ``perft
    --seed``, which is the deal of game 0 of the seed."""
    state = core_perft.seeded_start(GAME, GAME.configure({}), seed, first)
    assert state == round_start(seeded_deal(seed), first)
    walked = core_perft.walk(GAME, state, 2)
    assert HanamikojiPerft(GAME).count(state, 2) == walked == core_perft.perft(GAME, state, 2)
    assert core_perft.divide(GAME, state, 2) == tuple(
        (d, core_perft.walk(GAME, GAME.apply(state, d), 1)[1]) for d in GAME.legal_actions(state))


def test_the_generic_walk_equals_the_fast_count_late_in_a_round_and_beyond():
    """From late states of a seeded game the walk reaches the next deal (a chance node, a leaf)
    or the end: the fast count pads with zeros past the round, as the walk finds."""
    final = play_game(GAME, GAME.configure({}), 7, 0)
    states = [s for s in GAME.states(final) if GAME.current_player(s) >= 0]
    for state in states[8::9]:
        assert HanamikojiPerft(GAME).count(state, 14) == core_perft.walk(GAME, state, 14)
    assert HanamikojiPerft(GAME).count(final, 2) is None and core_perft.perft(GAME, final, 2) == (1, 0, 0)


def _write(path, obj):
    path.write_text(json.dumps(obj))
    return str(path)


def test_cli_history_counts_from_a_position_written_by_position_to_json(capsys, tmp_path):
    final = play_game(GAME, GAME.configure({"variant": "italian-three-rounds"}), 3, 2)
    mid = list(GAME.states(final))[5]
    path = _write(tmp_path / "mid.json", GAME.position_to_json(mid))
    assert main(["perft", "--history", path, "--depth", "3", "--divide", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    counts = perft(mid, 3)
    assert out["position"] == GAME.position_to_json(mid)
    assert out["depths"] == {str(d): counts[d] for d in (1, 2, 3)}
    assert [item["count"] for item in out["divide"]] == [n for _, n in divide(mid, 3)]
    assert main(["perft", "--history", path, "--depth", "2"]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[0].startswith(f"perft of {path}: 5 decisions from the start, player ")
    # A round start written as a position prints what --seed prints for it.
    start = core_perft.seeded_start(GAME, GAME.configure({}), 3)
    path = _write(tmp_path / "start.json", GAME.position_to_json(start))
    assert main(["perft", "--history", path, "--depth", "12", "--json"]) == 0
    from_history = capsys.readouterr().out
    assert main(["perft", "--seed", "3", "--depth", "12", "--json"]) == 0
    assert capsys.readouterr().out == from_history


@pytest.mark.parametrize("change, args, message", [
    (lambda p: p["history"].__setitem__(3, {"action": "steal"}), [], "$.history[3]"),
    (lambda p: p["history"].__setitem__(3, p["history"][2]), [], "$.history[3]: "),
    (lambda p: p.update(game="chess"), [], "$.game"),
    (lambda p: p.update(first_player=2), [], "$.first_player"),
    (lambda p: p.update(options={"variant": "french"}), [], "$.options"),
    (lambda p: p.update(moves=[]), [], "$.moves"),
    (lambda p: p.pop("history"), [], "$.history"),
    (lambda p: None, ["--first-player", "1"], "--first-player goes with --seed"),
    (lambda p: None, ["--variant", "standard"], "names its own options"),
    (lambda p: None, ["--depth", "13"], "12 decisions deep"),
])
def test_cli_history_errors_exit_2_with_the_json_path(capsys, tmp_path, change, args, message):
    position = GAME.position_to_json(list(GAME.states(play_game(GAME, GAME.configure({}), 1, 0)))[6])
    change(position)
    path = _write(tmp_path / "position.json", position)
    code = main(["perft", "--history", path, "--depth", "2"] + args)
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.splitlines()) == 1, err


def test_cli_first_player_out_of_range_exits_2(capsys):
    assert main(["perft", "--seed", "0", "--depth", "1", "--first-player", "2"]) == 2
    err = capsys.readouterr().err
    assert "--first-player 2" in err and len(err.splitlines()) == 1
