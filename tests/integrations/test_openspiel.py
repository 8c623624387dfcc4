"""OpenSpiel integration (docs/integrations.md): OpenSpiel's own checks on our games, the golden
playthroughs, the encodings checked a second way, the leak check of every string and tensor,
and every finished trajectory turned into a record the oracle accepts. Skipped without the
``openspiel`` extra."""

from __future__ import annotations

import itertools
import json
import math
import pathlib
import random
import re
import subprocess
import sys

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from hanamikoji.oracle.core import validate  # noqa: E402
from hanamikoji.engine.core.errors import GameError, IllegalActionError, OptionError  # noqa: E402
from hanamikoji.integrations import encoding as E  # noqa: E402
from hanamikoji.integrations import openspiel as O  # noqa: E402
from hanamikoji.properties.core.cite import checks  # noqa: E402

from helpers import check_leak, play  # noqa: E402

HERE = pathlib.Path(__file__).parent
PLAYTHROUGHS = HERE / "playthroughs"
HANAMIKOJI = ["python_hanamikoji(variant=standard)",
              "python_hanamikoji(variant=italian-three-rounds)"]
MAIKO = [f"python_maiko(players={n})" for n in (2, 3, 4)]
GAMES = HANAMIKOJI + MAIKO
#: random_sim_test games per game: a Maiko game is a few hundred decisions and 60 or 81 draws.
SIMS = {name: 30 for name in HANAMIKOJI} | {name: 2 for name in MAIKO}


def test_load_game_by_name():
    game = pyspiel.load_game("python_hanamikoji(variant=italian-three-rounds)")
    kind = game.get_type()
    assert (kind.short_name, game.num_players()) == ("python_hanamikoji", 2)
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    maiko = pyspiel.load_game("python_maiko(players=3)")
    assert maiko.num_players() == 3 and maiko.utility_sum() is None
    assert maiko.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM


def _longest(game, rng, games):
    """The most player decisions and chance draws seen in ``games`` random games."""
    most = [0, 0]
    for _ in range(games):
        state = play(game, rng)
        history = state.full_history()
        most[0] = max(most[0], sum(1 for item in history if item.player >= 0))
        most[1] = max(most[1], sum(1 for item in history if item.player < 0))
    return most


@checks("VAR-IT-1", "TURN-1", "TURN-3", "TURN-4")
def test_the_declared_lengths_are_reached():
    """The bounds OpenSpiel is given are exact: every round is 8 actions and 4 answers (each
    player gives one gift and one competition, TURN-3, TURN-4) after a deal of 21 draws, so an
    Italian game that lasts its 3 rounds (VAR-IT-1), or a standard game cut at max_rounds,
    reaches them; no game goes beyond."""
    rng = random.Random(8)
    for name, games in (("python_hanamikoji(variant=italian-three-rounds)", 60),
                        ("python_hanamikoji(max_rounds=2)", 30)):
        game = pyspiel.load_game(name)
        assert _longest(game, rng, games) == [game.max_game_length(),
                                              game.max_chance_nodes_in_history()]
    assert pyspiel.load_game("python_hanamikoji").max_game_length() == 10 * 12
    maiko = pyspiel.load_game("python_maiko(players=2,max_decisions=30)")
    assert _longest(maiko, rng, 2) == [30, 60]


def test_parameters_are_checked_with_one_line_errors():
    bad = {"python_hanamikoji(variant=nope)": "option variant takes one of",
           "python_hanamikoji(max_rounds=0)": "max_rounds takes a whole number from 1",
           "python_hanamikoji(variant=italian-three-rounds,max_rounds=5)": "VAR-IT-1",
           "python_maiko(players=5)": "players must be from 2 to 4",
           "python_maiko(players=3,removed_colour=pink)": "only a 2-player game removes"}
    for text, message in bad.items():
        with pytest.raises(OptionError, match=re.escape(message)) as error:
            pyspiel.load_game(text)
        assert "\n" not in str(error.value)
    with pytest.raises(OptionError,
                       match="no parameter 'foo'; its parameters: variant, max_rounds"):
        O.load("hanamikoji", foo=1)
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'foo'"):
        pyspiel.load_game("python_hanamikoji(foo=1)")  # OpenSpiel's own check, before ours
    assert O.load("maiko", players=4).num_players() == 4


def test_a_game_loads_again_from_its_string():
    """OpenSpiel serializes a state with its game's string: colours are written with "/" there,
    as a comma would end the value (given with commas in a parameter dict, they are rewritten)."""
    game = pyspiel.load_game("python_maiko", {"colours": "pink,green", "max_decisions": 40})
    assert str(game) == ("python_maiko(colours=pink/green,max_decisions=40,players=2,"
                         "removed_colour=)")
    again = pyspiel.load_game(str(game))
    assert O.play_of(again.new_initial_state()).setup == O.play_of(game.new_initial_state()).setup
    assert [c.label for c in O.play_of(again.new_initial_state()).setup.config.colours] == \
        ["pink", "green"]
    pyspiel.random_sim_test(again, num_sims=1, serialize=True, verbose=False)


def test_illegal_actions_are_refused_by_the_engine():
    game = pyspiel.load_game("python_hanamikoji")
    state = game.new_initial_state()
    with pytest.raises(IllegalActionError, match="not possible here"):
        for _ in range(3):
            state.apply_action(0)  # geisha 0 has two cards: a third is not left
    state = play_to_decision(game)
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(GameError) as error:
        state.apply_action(illegal)
    assert error.value.rule is not None


@pytest.mark.parametrize("name", GAMES)
def test_random_sim_test(name):
    """OpenSpiel's own checks: legal actions sorted, unique action strings, clones, serialized
    states, chance outcomes, returns within bounds and summing as declared, tensor sizes, the
    length bound."""
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=SIMS[name], serialize=True,
                            verbose=False)


def test_truncated_games_end_without_a_result():
    """A standard game that reaches max_rounds ends with 0 / 0, which no finished standard game
    has (END-4 gives a victory to one player); a Maiko game that reaches max_decisions, with
    -1 for everyone, which no finished game has. Both say so, and have no record."""
    game = pyspiel.load_game("python_hanamikoji(max_rounds=1)")
    rng = random.Random(3)
    seen = {True: 0, False: 0}
    for _ in range(30):
        state = play(game, rng)
        truncated = O.is_truncated(state)
        seen[truncated] += 1
        if truncated:
            assert state.returns() == [0.0, 0.0]
            assert str(state).endswith("truncated: the game reached its bound max_rounds=1 "
                                       "and has no result")
            assert state.information_state_string(0).splitlines()[-1].startswith("truncated")
            layout = E.get("hanamikoji").observation_layout(O.play_of(state).setup)
            assert state.observation_tensor(1)[layout.offset["truncated"]] == 1
            with pytest.raises(E.NoRecordError, match="truncated at max_rounds=1"):
                O.trajectory_to_record(game, state.history())
        else:
            assert sorted(state.returns()) == [-1.0, 1.0]
    assert seen[True] and seen[False]
    maiko = pyspiel.load_game("python_maiko(players=3,max_decisions=40)")
    state = play(maiko, rng)
    assert O.is_truncated(state) and state.returns() == [-1.0] * 3


def _parse_playthrough(text: str) -> tuple[str, list[int]]:
    game = re.search(r"^game: (.*)$", text, re.M).group(1)
    return game, [int(a) for a in re.findall(r"^action: (\d+)$", text, re.M)]


@pytest.mark.parametrize("path", sorted(PLAYTHROUGHS.glob("*.txt")), ids=lambda p: p.name)
def test_playthrough_is_current(path):
    """The committed playthrough (OpenSpiel's generator) is what the generator writes today
    for the same actions; after a deliberate change: python tests/integrations/regenerate.py."""
    from open_spiel.python.algorithms import generate_playthrough

    import regenerate

    original = path.read_text(encoding="utf-8")
    game, actions = _parse_playthrough(original)
    assert game == regenerate.GAMES[path.stem][0]
    assert generate_playthrough.playthrough(game, actions, seed=regenerate.GAMES[path.stem][1]) \
        == original


def test_every_game_has_a_playthrough_that_ends_by_the_rules():
    import regenerate

    assert {p.stem for p in PLAYTHROUGHS.glob("*.txt")} == set(regenerate.GAMES)
    for stem in regenerate.GAMES:
        text = (PLAYTHROUGHS / f"{stem}.txt").read_text(encoding="utf-8")
        assert re.search(r"^IsTerminal\(\) = True$", text, re.M)
        assert "truncated: the game reached its bound" not in text
    italian = (PLAYTHROUGHS / "python_hanamikoji_italian.txt").read_text(encoding="utf-8")
    assert "Result: player 1 wins (round-limit-charm)" in italian


@checks("INFO-2", "MK-INFO-2")
@pytest.mark.parametrize("name", GAMES)
def test_leak_check(name):
    """INFO-2, MK-INFO-2: what a player cannot see, drawn again, changes none of their
    strings, tensors or legal actions (states all through a game, chance nodes included)."""
    game = pyspiel.load_game(name)
    rng = random.Random(11)
    games, stride = (2, 3) if name in HANAMIKOJI else (1, 61)
    count = {"states": 0, "checks": 0}

    def visit(state):
        count["states"] += 1
        if count["states"] % stride == 0 or state.is_terminal():
            count["checks"] += check_leak(state, rng)

    for _ in range(games):
        play(game, rng, visit)
    assert count["checks"] >= 10


def test_the_leak_check_catches_a_leak(monkeypatch):
    """The check bites: an observation that shows the removed card (DEAL-2) is caught."""
    game = pyspiel.load_game("python_hanamikoji")
    state = play_to_decision(game)
    check_leak(state, random.Random(1))
    leaky = E.Play.observation_string
    monkeypatch.setattr(E.Play, "observation_string",
                        lambda self, player: leaky(self, player) + f" {self.state.removed}")
    with pytest.raises(AssertionError, match="sees a change"):
        for seed in range(20):  # one redraw in seven keeps the removed card's geisha
            check_leak(state, random.Random(seed))


@checks("MK-TUTOR-ONESAN-2", "MK-INFO-3")
def test_a_peek_is_in_the_peekers_information_state_only():
    """MK-TUTOR-ONESAN-2: after player 0 looks at a tile, their information state (string and
    tensor) holds it; player 1's holds nothing of it, and keeps nothing when it is drawn
    again; player 0 keeps it to the end of their look and after (MK-INFO-3)."""
    from hanamikoji.engine.maiko.actions import OneSan, OneSanStop
    from hanamikoji.engine.maiko.components import tile_name

    game = pyspiel.load_game("python_maiko(players=2)")
    state = play_to_decision(game)
    encoding = O.play_of(state).encoding
    space = 5
    code = O.engine_state(state).layout[space]
    state.apply_action(encoding.action_to_int(OneSan(space)))
    seen_at = encoding.info_state_layout(O.play_of(state).setup).offset["seen"] + space * 37
    for stop in (True, False):  # during the look, then after the stop
        mine = np.asarray(state.information_state_tensor(0))
        theirs = np.asarray(state.information_state_tensor(1))
        assert mine[seen_at + code] == 1 and mine[seen_at:seen_at + 37].sum() == 1
        assert theirs[seen_at:seen_at + 37].sum() == 0
        entry = f'"decision":{{"kind":"one-san","space":{space}}},"player":0'
        assert f'{entry},"tile":"{tile_name(code)}"' in state.information_state_string(0)
        assert f'{entry},"turn":0' in state.information_state_string(1)  # no tile
        check_leak(state, random.Random(2))
        if stop:
            state.apply_action(encoding.action_to_int(OneSanStop()))


def test_finished_trajectories_are_records_the_oracle_accepts(tmp_path):
    """Every finished game played through OpenSpiel converts to a record (hanamikoji-record/1,
    maiko-record/1) that the validator accepts, in process and through hanamikoji validate."""
    rng = random.Random(5)
    records = []
    for name in GAMES:
        game = pyspiel.load_game(name)
        for _ in range(15 if name in HANAMIKOJI else 1):
            state = play(game, rng)
            record = O.trajectory_to_record(game, state.history())
            assert record["format"] == O.play_of(state).encoding.game.record_format
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
    with pytest.raises(E.NoRecordError, match="not over"):
        O.trajectory_to_record(pyspiel.load_game("python_maiko"), [])


def _sequence_probability(state, kinds) -> float:
    probability = 1.0
    for kind in kinds:
        probability *= dict(state.chance_outcomes())[kind]
        state.apply_action(kind)
    return probability


def _shuffle_probability(multiset) -> float:
    """The probability that a uniform shuffle of ``multiset`` (counts per kind) gives one
    given sequence of kinds: the permutations that keep it, over all permutations."""
    return math.prod(math.factorial(n) for n in multiset) / math.factorial(sum(multiset))


@checks("DEAL-1", "DEAL-2", "DEAL-3", "DEAL-4", "MK-SETUP-5")
def test_chance_drawn_one_by_one_is_the_engines_shuffle():
    """A deal (a layout) drawn card by card (tile by tile) is exactly the engine's outcome, with
    the probability a uniform shuffle gives it (DEAL-1, MK-SETUP-5): the removed card, six
    cards each, the deck in order (DEAL-2..4)."""
    from hanamikoji.engine.hanamikoji.cards import FULL_DECK
    from hanamikoji.engine.hanamikoji.game import random_deal
    from hanamikoji.engine.maiko.game import random_layout

    game = pyspiel.load_game("python_hanamikoji")
    for seed in range(5):
        deal = random_deal(random.Random(seed))
        state = game.new_initial_state()
        kinds = E.get("hanamikoji").decompose(deal)
        assert kinds[0] == deal.removed and sorted(kinds[1:7]) == list(deal.hands[0])
        assert math.isclose(_sequence_probability(state, kinds), _shuffle_probability(FULL_DECK))
        assert O.engine_state(state).history == (deal,) and not state.is_chance_node()
    maiko = pyspiel.load_game("python_maiko(players=4)")
    config = O.play_of(maiko.new_initial_state()).setup.config
    layout = random_layout(config, random.Random(1))
    state = maiko.new_initial_state()
    counts = [config.tiles.count(code) for code in range(37)]
    assert math.isclose(_sequence_probability(state, list(layout.tiles)),
                        _shuffle_probability(counts))
    assert O.engine_state(state).layout == layout.tiles


def play_to_decision(game, seed: int = 0):
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        kinds, weights = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(kinds, weights)[0])
    return state


def _fits(cards) -> bool:
    from hanamikoji.engine.hanamikoji.cards import FULL_DECK

    return all(cards.count(g) <= FULL_DECK[g] for g in range(7))


def test_the_action_spaces_are_counted_a_second_way():
    """Hanamikoji: every multiset of 1, 2 or 3 cards a hand may hold, every split of 4 cards
    into two sets of two, and the answers (a geisha, a set of two); Maiko: three decisions
    per space, Oka-san per seat and item, Sabanto per item and colour, a row-discard step per
    item and colour or none, the stop and the end of the turn."""
    geisha = range(7)
    sets = lambda k: [c for c in itertools.combinations_with_replacement(geisha, k) if _fits(c)]
    splits = {frozenset([tuple(sorted(four[i] for i in pair)),
                         tuple(sorted(four[i] for i in range(4) if i not in pair))])
              for four in sets(4) for pair in ((0, 1), (0, 2), (0, 3))}
    hanamikoji = len(sets(1)) + len(sets(2)) + len(sets(3)) + len(splits) + 7 + len(sets(2))
    maiko = 81 * 3 + 4 * 9 + 1 + 9 * 4 + 9 * 5 + 1
    assert [pyspiel.load_game(f"python_{name}").num_distinct_actions()
            for name in ("hanamikoji", "maiko")] == [hanamikoji, maiko]


@pytest.mark.parametrize("name", [HANAMIKOJI[0], MAIKO[1]])
def test_legal_actions_are_the_engines_menu_in_order(name):
    """legal_actions is the engine's menu mapped to integers, in the same order, and each action
    reads as the engine writes the decision."""
    game = pyspiel.load_game(name)
    rng = random.Random(2)
    checked = 0

    def visit(state):
        nonlocal checked
        if state.is_chance_node() or state.is_terminal():
            return
        encoding = O.play_of(state).encoding
        menu = encoding.game.legal_actions(O.engine_state(state))
        legal = state.legal_actions()
        assert [encoding.int_to_action(a) for a in legal] == list(menu)
        assert [state.action_to_string(a) for a in legal] == [encoding.game.decision_text(d)
                                                             for d in menu]
        checked += 1

    play(game, rng, visit)
    assert checked > 10


def test_returns_of_a_shared_victory():
    from hanamikoji.engine.core.game import Outcome

    assert E.get("maiko").returns(Outcome((0, 2), "full-board", (1, 0, 1)), 3) == [0, -1, 0]
    assert E.get("maiko").returns(Outcome((1,), "static", (0, 2, 1)), 3) == [-1, 1, -1]
    assert E.get("hanamikoji").returns(Outcome((0, 1), "shared"), 2) == [0, 0]


def test_the_information_state_tensor_recalls_every_round():
    """Hanamikoji's information state keeps each earlier round as the player last saw it, so a
    turn seen in round 0 is still in the tensor in round 2 (the engine's view forgets it)."""
    game = pyspiel.load_game("python_hanamikoji(variant=italian-three-rounds)")
    rng = random.Random(0)
    while True:
        state = play(game, rng)
        if O.engine_state(state).round == 2:
            break
    from hanamikoji.engine.hanamikoji.actions import ALL_KINDS, Deal

    layout = E.get("hanamikoji").info_state_layout(O.play_of(state).setup)
    turns = np.asarray(state.information_state_tensor(0))[
        layout.offset["turns"]:layout.offset["turns"] + layout.sizes["turns"]].reshape(3, 8, -1)
    history = O.engine_state(state).history
    starts = [i for i, d in enumerate(history) if isinstance(d, Deal)]
    for round_, start in enumerate(starts):
        first = history[start + 1]  # the round's first action (UPDATE-4: its starter's)
        present, mover, kind = turns[round_, 0, 0], turns[round_, 0, 1:3], turns[round_, 0, 3:7]
        assert present == 1 and mover[round_ % 2] == 1 and kind[ALL_KINDS.index(first.kind)] == 1
    assert len(state.information_state_string(0).splitlines()) == 3
