"""PettingZoo integration (docs/integrations.md): PettingZoo's own api_test and seed_test,
our leak check on the observations, and the ansi rendering. Skipped without pettingzoo."""

from __future__ import annotations

import functools
import random

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from hanamikoji.integrations import encoding as E  # noqa: E402
from hanamikoji.integrations.pettingzoo_env import env, observation_of  # noqa: E402

CONFIGS = [("hanamikoji", {"variant": "standard"}),
           ("hanamikoji", {"variant": "italian-three-rounds"})]
if "maiko" in E.NAMES:
    CONFIGS += [("maiko", {"players": n}) for n in (2, 3, 4)]
IDS = [f"{g}-{'-'.join(str(v) for v in o.values())}" for g, o in CONFIGS]


@pytest.mark.parametrize("game,options", CONFIGS, ids=IDS)
def test_api_test(game, options):
    api_test(env(game, **options), num_cycles=300 if game == "hanamikoji" else 100)


@pytest.mark.parametrize("game,options", CONFIGS, ids=IDS)
def test_seed_test(game, options):
    seed_test(functools.partial(env, game, **options),
              num_cycles=300 if game == "hanamikoji" else 100)


@pytest.mark.parametrize("game,options", CONFIGS, ids=IDS)
def test_observations_leak_nothing(game, options):
    """Resampling what an agent cannot see changes neither its observation nor its mask."""
    e = env(game, **options)
    enc = E.get(game)
    raw = e.unwrapped
    rng = random.Random(4)
    checks = 0
    for seed in range(2 if game == "hanamikoji" else 1):
        e.reset(seed=seed)
        step = 0
        for agent in e.agent_iter():
            obs, _, termination, truncation, _ = e.last()
            if step % (1 if game == "hanamikoji" else 53) == 0:
                state = raw.engine_state
                for p, name in enumerate(e.possible_agents):
                    other = enc.game.resample(state, p, rng)
                    mine = e.unwrapped.observe(name)
                    theirs = observation_of(enc, other, p, raw._config, raw._bound,
                                            mine["action_mask"].any())
                    assert np.array_equal(mine["observation"], theirs["observation"])
                    assert np.array_equal(mine["action_mask"], theirs["action_mask"])
                    checks += 1
            step += 1
            if termination or truncation:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert checks > 10


def test_rewards_and_ansi_render():
    e = env("hanamikoji", render_mode="ansi", variant="italian-three-rounds")
    e.reset(seed=3)
    total = {a: 0.0 for a in e.possible_agents}
    rng = random.Random(0)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, _ = e.last()
        total[agent] += reward
        if termination or truncation:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sorted(total.values()) in ([-1.0, 1.0], [0.0, 0.0])
    text = e.render()
    assert text.startswith("Hanamikoji") and "Result:" in text


def test_truncation_at_the_bound():
    e = env("hanamikoji", max_rounds=1)
    truncated = 0
    for seed in range(20):
        e.reset(seed=seed)
        for agent in e.agent_iter():
            obs, reward, termination, truncation, _ = e.last()
            if termination or truncation:
                truncated += truncation
                assert not truncation or reward == 0.0
                e.step(None)
                continue
            e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert truncated
