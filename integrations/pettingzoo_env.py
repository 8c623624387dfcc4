"""The toolkit's games as PettingZoo AEC environments, backed by the reference engine
(``pip install '.[pettingzoo]'``; docs/integrations.md).

>>> from hanamikoji.integrations.pettingzoo_env import env
>>> e = env(variant="italian-three-rounds", render_mode="ansi")
>>> e.reset(seed=1)
>>> observation, reward, termination, truncation, info = e.last()
>>> sorted(observation), observation["action_mask"].shape
(['action_mask', 'observation'], (534,))

- Agents ``player_0`` .. ``player_{n-1}``, the engine's players. Chance (a deal, a layout) is
  drawn inside the environment by the engine's own ``Game.sample_chance``, from a
  ``random.Random`` seeded by ``reset(seed=...)``: the same seed, the same game.
- Actions: ``Discrete(num_distinct_actions)``, the encoding's integers (the same as OpenSpiel's);
  an action outside the acting agent's ``action_mask`` is refused by the engine, which names the
  rule it breaks.
- Observations: ``{"observation": the information-state tensor (0/1) of the agent's views,
  "action_mask": its legal actions (all zeros for an agent not to act)}``.
- Rewards at the end only: the encoding's returns (Hanamikoji +1 / -1, 0 / 0 for a shared
  victory). A game that reaches its bound ends with ``truncations`` set and no reward.
- ``render_mode="ansi"``: ``render()`` returns the game as the toolkit displays it.
"""

from __future__ import annotations

import random
from typing import Any

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as error:
    raise ImportError(f"hanamikoji.integrations.pettingzoo_env needs the pettingzoo extra: "
                      f"pip install '.[pettingzoo]' in a clone of hanamikoji ({error})") from None

from hanamikoji.engine.core.errors import OptionError
from hanamikoji.engine.core.game import CHANCE

from . import encoding as E

__all__ = ["env", "raw_env", "observation_of"]


def observation_of(play: E.Play, player: int) -> dict[str, np.ndarray]:
    """What ``player`` observes of ``play``: its information-state tensor and action mask."""
    encoding = play.encoding
    tensor = np.zeros(encoding.info_state_layout(play.setup).size, np.int8)
    tensor[play.info_state_ones(player)] = 1
    mask = np.zeros(encoding.num_distinct_actions, np.int8)
    if play.current_player() == player:
        mask[play.legal_actions()] = 1
    return {"observation": tensor, "action_mask": mask}


class raw_env(AECEnv):
    """One of our games as an AEC environment (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "hanamikoji_v0",
                                "is_parallelizable": False}

    def __init__(self, game: str = "hanamikoji", render_mode: str | None = None,
                 **options: Any) -> None:
        super().__init__()
        self._encoding = E.get(game)
        self._setup = self._encoding.configure(options)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            modes = ", ".join(self.metadata["render_modes"])
            raise OptionError(f"render_mode takes one of: {modes} or None, not {render_mode!r}")
        self.metadata = dict(self.metadata, name=f"{game}_v0")
        self.render_mode = render_mode
        players = self._encoding.num_players(self._setup)
        self.possible_agents = [f"player_{p}" for p in range(players)]
        size = self._encoding.info_state_layout(self._setup).size
        actions = self._encoding.num_distinct_actions
        self.observation_spaces = {
            agent: spaces.Dict({"observation": spaces.Box(0, 1, (size,), np.int8),
                                "action_mask": spaces.Box(0, 1, (actions,), np.int8)})
            for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self._rng: random.Random | None = None
        self._play: E.Play | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    @property
    def play(self) -> E.Play:
        """The game so far (the engine's state is ``play.state``); None before ``reset``."""
        return self._play  # type: ignore[return-value]

    def _draw_chance(self) -> None:
        """Chance drawn by the engine until a player must decide or the game is over."""
        game = self._encoding.game
        assert self._rng is not None and self._play is not None
        while self._play.current_player() == CHANCE:
            self._play = self._play.apply_chance(game.sample_chance(self._play.state, self._rng))

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if agent not in self.possible_agents:
            raise OptionError(f"no agent {agent!r}; the agents: {', '.join(self.possible_agents)}")
        assert self._play is not None, "observe before reset"
        return observation_of(self._play, self.possible_agents.index(agent))

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game; ``options`` are not used (the game's options are the constructor's:
        PettingZoo's api_test passes options that an environment must accept)."""
        if seed is not None or self._rng is None:
            # No seed and none before: a fresh one from the system (Gymnasium's convention).
            self._rng = random.Random(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._play = E.Play.start(self._encoding, self._setup)
        self._draw_chance()
        self.agent_selection = self.agents[self._play.current_player()]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self._play is not None
        self._cumulative_rewards[agent] = 0.0
        self._play = self._play.apply_action(int(action))
        self._draw_chance()
        self.rewards = {a: 0.0 for a in self.agents}
        if self._play.truncated:
            self.truncations = {a: True for a in self.agents}
        elif self._play.is_terminal():
            returns = self._play.returns()
            self.rewards = {a: returns[p] for p, a in enumerate(self.agents)}
            self.terminations = {a: True for a in self.agents}
        else:
            self.agent_selection = self.agents[self._play.current_player()]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs render_mode='ansi'")
            return None
        if self._play is None:
            return ""
        return self._play.text()

    def close(self) -> None:
        pass


def env(game: str = "hanamikoji", render_mode: str | None = None, **options: Any) -> AECEnv:
    """The AEC environment of ``game`` with its options (``variant=...``, ``players=...``) and
    its bound (``max_rounds=...``, ``max_decisions=...``), wrapped as PettingZoo's classic
    environments are."""
    out: AECEnv = raw_env(game, render_mode=render_mode, **options)
    out = wrappers.AssertOutOfBoundsWrapper(out)
    return wrappers.OrderEnforcingWrapper(out)
