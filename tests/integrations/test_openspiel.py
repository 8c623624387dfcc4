"""OpenSpiel integration (docs/integrations.md): OpenSpiel's own checks on our games, the
golden playthroughs, our leak check on the information states and observations, and every
trajectory converted to a record that the oracle accepts. Skipped without open_spiel."""

from __future__ import annotations

import json
import pathlib
import random
import re
import subprocess
import sys

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from hanamikoji.engine.core import validate  # noqa: E402
from hanamikoji.integrations import openspiel as O  # noqa: E402

from helpers import check_leak, play  # noqa: E402

HERE = pathlib.Path(__file__).parent
PLAYTHROUGHS = HERE / "playthroughs"

HANAMIKOJI = ["python_hanamikoji(variant=standard)",
              "python_hanamikoji(variant=italian-three-rounds)"]
MAIKO = [f"python_maiko(players={n})" for n in (2, 3, 4)]
GAMES = HANAMIKOJI + MAIKO
#: random_sim_test games per game string (Maiko's games are long).
SIMS = {name: 20 for name in HANAMIKOJI} | {name: 1 for name in MAIKO}


def test_load_game_by_name():
    game = pyspiel.load_game("python_hanamikoji(variant=italian-three-rounds)")
    assert game.get_type().short_name == "python_hanamikoji"
    assert game.num_players() == 2 and game.max_game_length() == 36
    assert game.num_distinct_actions() == 560 and game.max_chance_outcomes() == 7
    assert pyspiel.load_game("python_hanamikoji").max_game_length() == 30 * 12


@pytest.mark.parametrize("name", GAMES)
def test_random_sim_test(name):
    """OpenSpiel's own API checks: legal actions sorted, unique strings, clone, serialize,
    chance outcomes, returns, tensor sizes, the length bound."""
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=SIMS[name], serialize=True,
                            verbose=False)


def test_truncated_games_end_without_a_result():
    """A standard game that reaches max_rounds ends with 0 / 0 (no real standard result: the
    only shared victory is the Italian round limit's), is marked truncated, and has no record."""
    game = pyspiel.load_game("python_hanamikoji(max_rounds=1)")
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)
    rng = random.Random(3)
    seen = {True: 0, False: 0}
    for _ in range(40):
        state = play(game, rng)
        truncated = O.is_truncated(state)
        seen[truncated] += 1
        if truncated:
            assert state.returns() == [0.0, 0.0]
            assert "truncated" in str(state)
            with pytest.raises(ValueError):
                O.trajectory_to_record(game, state.history())
        else:
            assert sorted(state.returns()) == [-1.0, 1.0]
    assert seen[True] and seen[False]


def _parse_playthrough(text: str) -> tuple[str, list[int]]:
    game = re.search(r"^game: (.*)$", text, re.M).group(1)
    return game, [int(a) for a in re.findall(r"^action: (\d+)$", text, re.M)]


@pytest.mark.parametrize("path", sorted(PLAYTHROUGHS.glob("*.txt")), ids=lambda p: p.name)
def test_playthrough_is_current(path):
    """The committed golden playthrough (OpenSpiel's generator) regenerates identically; to
    update one after a deliberate change: python tests/integrations/regenerate.py."""
    from open_spiel.python.algorithms import generate_playthrough

    original = path.read_text(encoding="utf-8")
    game, actions = _parse_playthrough(original)
    assert generate_playthrough.playthrough(game, actions) == original


def test_every_game_has_a_playthrough():
    names = {p.stem for p in PLAYTHROUGHS.glob("*.txt")}
    assert {"python_hanamikoji", "python_hanamikoji_italian", "python_maiko_3"} <= names


@pytest.mark.parametrize("name", GAMES)
def test_leak_check(name):
    """Resampling what a player cannot see changes none of their strings and tensors."""
    game = pyspiel.load_game(name)
    rng = random.Random(11)
    games, stride = (3, 3) if name in HANAMIKOJI else (1, 97)
    counter = {"steps": 0, "checks": 0}

    def visit(state):
        counter["steps"] += 1
        if counter["steps"] % stride == 0 or state.is_terminal():
            counter["checks"] += check_leak(game, state, rng)

    for _ in range(games):
        play(game, rng, visit)
    assert counter["checks"] > 10


@pytest.mark.parametrize("name", GAMES)
def test_trajectories_convert_to_valid_records(name, tmp_path):
    """Every trajectory played through OpenSpiel is a record the oracle accepts: in-process
    (validate.judge) and through ``hanamikoji validate``."""
    game = pyspiel.load_game(name)
    rng = random.Random(5)
    records = []
    for _ in range(30 if name in HANAMIKOJI else 1):
        state = play(game, rng)
        record = O.trajectory_to_record(game, state.history())
        judgement = validate.judge(record)
        assert judgement.status is validate.Status.VALID, judgement.message
        records.append(record)
    path = tmp_path / "records.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    done = subprocess.run([sys.executable, "-m", "hanamikoji.engine", "validate", str(path)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    n = len(records)
    assert f"{n} records: {n} valid, 0 illegal, 0 malformed" in done.stdout


def test_chance_decomposition_gives_the_engines_deal():
    """The deal drawn card by card is exactly the engine's Deal: a deal's decomposition
    replays to it, and each chance node lists the cards left with their frequencies."""
    from hanamikoji.engine.hanamikoji.game import random_deal

    game = pyspiel.load_game("python_hanamikoji")
    deal = random_deal(random.Random(2))
    state = game.new_initial_state()
    remaining = [2, 2, 2, 3, 3, 4, 5]
    for kind in O.E.get("hanamikoji").decompose(deal):
        outcomes = dict(state.chance_outcomes())
        assert outcomes == {g: n / sum(remaining) for g, n in enumerate(remaining) if n}
        remaining[kind] -= 1
        state.apply_action(kind)
    assert O.engine_state(state).history == (deal,)
    assert not state.is_chance_node()


def test_actions_are_the_engines_in_order():
    """legal_actions is the engine's menu, in the same order, and action_to_string reads."""
    game = pyspiel.load_game("python_hanamikoji")
    state = play_to_decision(game)
    engine = O.engine_state(state)
    enc = O.E.get("hanamikoji")
    menu = enc.game.legal_actions(engine)
    assert [enc.int_to_action(a) for a in state.legal_actions()] == list(menu)
    assert state.action_to_string(state.current_player(), state.legal_actions()[0]).startswith(
        "secret")


def play_to_decision(game):
    state = game.new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node():
        kinds, weights = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(kinds, weights)[0])
    return state


def test_imports_stay_light():
    """Importing the toolkit and the encodings never imports the optional frameworks."""
    code = ("import sys, hanamikoji, hanamikoji.engine, hanamikoji.integrations, "
            "hanamikoji.integrations.encoding, hanamikoji.integrations.encoding.hanamikoji; "
            "from hanamikoji.engine.core import registry; registry.get('hanamikoji'); "
            "bad = [m for m in ('numpy', 'pyspiel', 'open_spiel', 'pettingzoo', 'gymnasium') "
            "if m in sys.modules]; print(bad)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "[]", done.stderr


def test_mcts_example_runs():
    """docs/examples/mcts_vs_random.py plays and prints the win rate (few games here)."""
    script = HERE.parents[1] / "docs" / "examples" / "mcts_vs_random.py"
    done = subprocess.run([sys.executable, str(script), "--games", "4", "--workers", "1",
                           "--simulations", "5"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert re.search(r"MCTS won \d+ \(\d+\.\d%\)", done.stdout)
