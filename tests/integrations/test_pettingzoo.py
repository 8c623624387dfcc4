"""PettingZoo integration (docs/integrations.md): PettingZoo's own api_test and seed_test, the
same seed giving the same game, the leak check of every observation, rewards, truncation and
the ansi rendering. Skipped without the ``pettingzoo`` extra."""

from __future__ import annotations

import functools
import random

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from hanamikoji.engine.core.errors import GameError, OptionError  # noqa: E402
from hanamikoji.integrations.encoding import Play  # noqa: E402
from hanamikoji.properties.core.cite import checks  # noqa: E402
from hanamikoji.integrations.pettingzoo_env import env, observation_of  # noqa: E402

CONFIGS = [("hanamikoji", {"variant": "standard"}),
           ("hanamikoji", {"variant": "italian-three-rounds"})] \
    + [("maiko", {"players": n}) for n in (2, 3, 4)]
IDS = [f"{game}-{'-'.join(str(v) for v in options.values())}" for game, options in CONFIGS]
#: api_test and seed_test cycles: whole Hanamikoji games; a few hundred Maiko decisions.
CYCLES = {"hanamikoji": 200, "maiko": 60}


# api_test warns about every Dict observation with an action mask, PettingZoo's own classic
# environments included: the layout its docs recommend for masked actions.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("game,options", CONFIGS, ids=IDS)
def test_api_test(game, options):
    api_test(env(game, **options), num_cycles=CYCLES[game])


@pytest.mark.parametrize("game,options", CONFIGS, ids=IDS)
def test_seed_test(game, options):
    seed_test(functools.partial(env, game, **options), num_cycles=CYCLES[game])


def _moves(e, seed: int, limit: int = 60) -> list:
    """The first ``limit`` decisions of the game of ``seed``, each the first legal action, with
    the observations they were taken on."""
    e.reset(seed=seed)
    out = []
    for agent in e.agent_iter(limit):
        observation, _, termination, truncation, _ = e.last()
        if termination or truncation:
            e.step(None)
            continue
        action = int(np.flatnonzero(observation["action_mask"])[0])
        out.append((agent, action, observation["observation"].tobytes()))
        e.step(action)
    return out


@pytest.mark.parametrize("game,options", [CONFIGS[0], CONFIGS[3]], ids=[IDS[0], IDS[3]])
def test_the_same_seed_gives_the_same_game(game, options):
    """The chance draws come from reset's seed alone: the same seed, the same game, in a new
    environment too; another seed, another deal."""
    first, second = env(game, **options), env(game, **options)
    assert _moves(first, 7) == _moves(second, 7) == _moves(first, 7)
    assert _moves(first, 7) != _moves(first, 8)


@checks("INFO-2", "MK-INFO-2")
@pytest.mark.parametrize("game,options", CONFIGS, ids=IDS)
def test_observations_leak_nothing(game, options):
    """INFO-2, MK-INFO-2: what an agent cannot see, drawn again by the engine's resampler,
    changes neither its observation nor its action mask."""
    e = env(game, **options)
    raw = e.unwrapped
    rng = random.Random(4)
    checks = 0
    stride = 1 if game == "hanamikoji" else 47
    for seed in range(2 if game == "hanamikoji" else 1):
        e.reset(seed=seed)
        for step, _agent in enumerate(e.agent_iter()):
            observation, _, termination, truncation, _ = e.last()
            if step % stride == 0:
                play = raw.play
                for player, name in enumerate(e.possible_agents):
                    other = play.encoding.game.resample(play.state, player, rng)
                    again = observation_of(Play.replay(play.encoding, play.setup, other), player)
                    mine = raw.observe(name)
                    assert np.array_equal(mine["observation"], again["observation"])
                    assert np.array_equal(mine["action_mask"], again["action_mask"])
                    checks += 1
            if termination or truncation:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert checks > 20


def test_rewards_at_the_end_and_ansi_render():
    e = env(variant="italian-three-rounds", render_mode="ansi")
    e.reset(seed=3)
    assert e.render().startswith("Hanamikoji · italian-three-rounds rules")
    total = {agent: 0.0 for agent in e.possible_agents}
    rng = random.Random(0)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, _ = e.last()
        total[agent] += reward
        if termination or truncation:
            e.step(None)
            continue
        assert reward == 0.0
        e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert sorted(total.values()) in ([-1.0, 1.0], [0.0, 0.0])
    text = e.render()
    outcome = e.unwrapped.play.encoding.game.outcome(e.unwrapped.play.state)
    assert f"Result: player {outcome.winners[0]} wins" in text or "shared" in text


def test_truncation_at_the_bound():
    """A game that reaches its bound is truncated for every agent, with no reward."""
    e = env("hanamikoji", max_rounds=1)
    seen = {True: 0, False: 0}
    for seed in range(12):
        e.reset(seed=seed)
        for _ in e.agent_iter():
            observation, reward, termination, truncation, _ = e.last()
            if termination or truncation:
                seen[truncation] += 1
                assert reward == 0.0 if truncation else reward in (-1.0, 1.0)
                e.step(None)
                continue
            e.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert seen[True] and seen[False]


def test_bad_input_is_refused_in_one_line():
    with pytest.raises(OptionError, match="option variant takes one of"):
        env(variant="nope")
    with pytest.raises(OptionError, match="no parameter 'colour'"):
        env("maiko", colour="pink")
    with pytest.raises(OptionError, match="players must be from 2 to 4"):
        env("maiko", players=1)
    with pytest.raises(OptionError, match="render_mode takes one of: ansi"):
        env(render_mode="human")
    with pytest.raises(OptionError, match="no integration for game 'chess'"):
        env("chess")
    e = env()
    e.reset(seed=0)
    with pytest.raises(OptionError, match="no agent 'player_2'; the agents: player_0, player_1"):
        e.observe("player_2")
    observation = e.last()[0]
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with pytest.raises(GameError) as error:
        e.step(illegal)
    assert error.value.rule is not None and "\n" not in str(error.value)
