"""The toolkit's games as OpenSpiel games, backed by the reference engine
(``pip install '.[openspiel]'``; docs/integrations.md).

Importing this module registers two games with ``pyspiel.register_game``, as OpenSpiel's own
Python games do (``open_spiel/python/games/kuhn_poker.py``):

- ``python_hanamikoji``: parameters ``variant`` (``standard``, ``italian-three-rounds``) and
  ``max_rounds`` (the bound of a standard game, default 10);
- ``python_maiko``: parameters ``players`` (2-4), ``colours``, ``removed_colour`` and
  ``max_decisions`` (the bound, default 5,000).

>>> import pyspiel
>>> import hanamikoji.integrations.openspiel  # registers the games
>>> game = pyspiel.load_game("python_hanamikoji(variant=italian-three-rounds)")
>>> game.num_distinct_actions(), game.max_chance_outcomes(), game.max_game_length()
(534, 7, 36)

A state holds one :class:`~hanamikoji.integrations.encoding.Play`: the engine's immutable state
and what the encoding adds (the draws of a chance node in progress, the bound, each player's
views of earlier epochs). Every rule is the engine's, reached through the core ``Game``
interface; every string and tensor is made from the engine's ``observe``.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

try:
    import numpy as np
    import pyspiel
except ImportError as error:
    raise ImportError(f"hanamikoji.integrations.openspiel needs the openspiel extra: "
                      f"pip install '.[openspiel]' in a clone of hanamikoji ({error})") from None

from hanamikoji.engine.core.errors import InvalidActionError, OptionError
from hanamikoji.engine.core.game import CHANCE

from . import encoding as E

__all__ = ["SHORT_NAMES", "GAMES", "load", "play_of", "engine_state", "is_truncated",
           "state_from_engine",
           "determinized", "trajectory_to_record"]

#: OpenSpiel's name of each game with an encoding (``python_`` and the registry's name, as
#: OpenSpiel names its Python games).
SHORT_NAMES = {name: f"python_{name}" for name in E.NAMES}


class OpenSpielState(pyspiel.State):
    """A state of one of our games (see the module docstring)."""

    def __init__(self, game: "OpenSpielGame") -> None:
        super().__init__(game)
        self._play = E.Play.start(E.get(game.game_name), game.setup)

    def current_player(self) -> int:
        player = self._play.current_player()
        return (pyspiel.PlayerId.CHANCE if player == CHANCE else
                pyspiel.PlayerId.TERMINAL if player < 0 else player)

    def _legal_actions(self, player: int) -> list[int]:
        return self._play.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._play.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        play = self._play
        action = int(action)
        self._play = (play.apply_kind(action) if play.current_player() == CHANCE
                      else play.apply_action(action))

    def _action_to_string(self, player: int, action: int) -> str:
        play = self._play
        if player == pyspiel.PlayerId.CHANCE:
            return play.encoding.chance_text(play.state, play.drawn, int(action))
        return play.encoding.action_text(int(action))

    def is_terminal(self) -> bool:
        return self._play.is_terminal()

    def returns(self) -> list[float]:
        return self._play.returns()

    def __str__(self) -> str:
        return self._play.text()


class _Observer:
    """OpenSpiel's observer (the PyObserver interface): a player's observation
    (``perfect_recall=False``) or information state (``perfect_recall=True``), public and
    private information together. The factored forms (public only, private only) are not
    provided: their string is empty and they have no tensor."""

    def __init__(self, game: "OpenSpielGame", iig_obs_type: Any) -> None:
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        whole = (iig_obs_type.public_info
                 and iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER)
        self._info: bool | None = bool(iig_obs_type.perfect_recall)
        if not whole:
            self._info = None
            self.tensor, self.dict = None, {}
            return
        encoding = E.get(game.game_name)
        layout = (encoding.info_state_layout if self._info
                  else encoding.observation_layout)(game.setup)
        self.tensor = np.zeros(layout.size, np.float32)
        # Named views of the flat tensor, as OpenSpiel's games give them.
        self.dict = {name: self.tensor[layout.offset[name]:layout.offset[name] + size]
                     for name, size in layout.pieces}

    def set_from(self, state: OpenSpielState, player: int) -> None:
        if self.tensor is None:
            return
        play = state._play
        self.tensor.fill(0)
        self.tensor[play.info_state_ones(player) if self._info
                    else play.observation_ones(player)] = 1

    def string_from(self, state: OpenSpielState, player: int) -> str:
        if self._info is None:
            return ""
        play = state._play
        return play.info_state_string(player) if self._info else play.observation_string(player)


class OpenSpielGame(pyspiel.Game):
    """One of our games as an OpenSpiel game (one subclass per game, below)."""

    game_name = ""

    def __init__(self, params: dict | None = None) -> None:
        encoding = E.get(self.game_name)
        values = encoding.parameters()
        values.update(params or {})
        self.setup = encoding.configure(values)
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding.num_distinct_actions,
            max_chance_outcomes=encoding.max_chance_outcomes,
            num_players=encoding.num_players(self.setup),
            min_utility=encoding.min_utility,
            max_utility=encoding.max_utility,
            utility_sum=0.0 if encoding.utility == "zero_sum" else None,
            max_game_length=encoding.max_game_length(self.setup))
        super().__init__(_game_type(self.game_name), info, encoding.game_string_values(values))

    def new_initial_state(self) -> OpenSpielState:
        return OpenSpielState(self)

    def max_chance_nodes_in_history(self) -> int:
        return E.get(self.game_name).max_chance_nodes(self.setup)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        if params:
            raise OptionError(f"{SHORT_NAMES[self.game_name]} takes no observation "
                                f"parameters, not {dict(params)}")
        return _Observer(self, iig_obs_type)


def _game_type(name: str) -> Any:
    encoding = E.get(name)
    game = encoding.game
    return pyspiel.GameType(
        short_name=SHORT_NAMES[name],
        long_name=f"Python {game.title} (hanamikoji reference engine)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.ZERO_SUM if encoding.utility == "zero_sum"
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=encoding.parameters())


#: One OpenSpielGame class per game with an encoding, registered with OpenSpiel: a new game
#: needs an encoding only (encoding.NAMES).
GAMES = {name: type(f"{name.title()}OpenSpielGame", (OpenSpielGame,), {"game_name": name})
         for name in E.NAMES}
for _name, _class in GAMES.items():
    pyspiel.register_game(_game_type(_name), _class)


# --- between OpenSpiel and the toolkit ---------------------------------------------------------


def load(game_name: str = "hanamikoji", **params: Any) -> Any:
    """``pyspiel.load_game`` of one of our games (by its registry name), its parameters checked
    first so that a bad one gets our one-line :class:`OptionError` (OpenSpiel's own check
    raises ``SpielError``)."""
    E.get(game_name).configure(params)
    return pyspiel.load_game(SHORT_NAMES[game_name], params)


def play_of(state: Any) -> E.Play:
    """The :class:`~hanamikoji.integrations.encoding.Play` behind an OpenSpiel state of ours."""
    if not isinstance(state, OpenSpielState):
        raise InvalidActionError(f"not a state of a toolkit game: {state!r}")
    return state._play


def engine_state(state: Any) -> Any:
    """The engine's state behind an OpenSpiel state of ours (at a chance node being drawn: the
    state before the chance outcome)."""
    return play_of(state).state


def is_truncated(state: Any) -> bool:
    """Whether the game ended at its bound, without a result."""
    return play_of(state).truncated


def state_from_engine(game: Any, target: Any, drawn: Sequence[int] = ()) -> OpenSpielState:
    """The OpenSpiel state of ``game`` that plays the engine state ``target``'s history (each
    chance outcome in the order of the encoding's decomposition), then the draws ``drawn``."""
    state = game.new_initial_state()
    encoding = E.get(game.game_name)
    game_engine = encoding.game
    for decision in game_engine.history(target):
        if game_engine.current_player(engine_state(state)) == CHANCE:
            for kind in encoding.decompose(decision):
                state.apply_action(kind)
        else:
            state.apply_action(encoding.action_to_int(decision))
    for kind in drawn:
        state.apply_action(kind)
    return state


def determinized(state: Any, player: int, rng: random.Random) -> OpenSpielState:
    """Another state of the game that ``player`` cannot tell from ``state``: everything hidden
    from them drawn again by the engine's resampler (``Game.resample``), the draws of a chance
    node in progress drawn again from what is left."""
    play = play_of(state)
    game = state.get_game()
    other = state_from_engine(game, play.encoding.game.resample(play.state, player, rng))
    for _ in play.drawn:
        kinds, weights = zip(*other.chance_outcomes())
        other.apply_action(rng.choices(kinds, weights)[0])
    return other


def trajectory_to_record(game: Any, actions: Sequence[int]) -> dict[str, Any]:
    """The toolkit's record (``hanamikoji-record/1``, ``maiko-record/1``) of the finished game
    that the OpenSpiel actions ``actions`` play; :class:`~.encoding.NoRecordError` for a game
    not over or truncated at its bound."""
    state = game.new_initial_state()
    for action in actions:
        state.apply_action(int(action))
    return play_of(state).record()
