"""What every framework bridge needs of a game beyond the core ``Game`` interface, in plain
Python (no numpy, no framework): the :class:`Encoding` of each game and :class:`Play`, one game
as the bridges play it.

An :class:`Encoding` gives a game

- its **parameters** for a framework: the game's own options and a bound on the game's length
  (:meth:`Encoding.configure` checks them, one-line :class:`OptionError` otherwise);
- a **fixed integer action space**, numbered in the engine's sort order, so that a sorted menu
  of decisions is a sorted list of integers;
- a **chance decomposition**: the engine's one chance outcome (a deal, a layout) drawn one
  component at a time, each draw a component *kind* with probability proportional to what is
  left, which is a uniform shuffle drawn card by card, so every outcome keeps the engine's
  probability (:meth:`Encoding.assemble` builds the engine's outcome from the draws);
- **returns**, the **bound** and what a game that reaches it is;
- **strings and 0/1 tensors** of the engine's views (``Game.observe``): the observation (a view)
  and the information state (every view a player had at the end of an earlier *epoch*, then the
  current one: see :meth:`Encoding.epoch`).

:class:`Play` drives the engine through an encoding and keeps what an information state needs;
the OpenSpiel state and the PettingZoo environment each hold one.
"""

from __future__ import annotations

import importlib
from typing import Any, ClassVar, Mapping, Sequence

import attrs

from hanamikoji.engine.core import registry
from hanamikoji.engine.core.errors import (
    GameError,
    IllegalActionError,
    InvalidActionError,
    OptionError,
)
from hanamikoji.engine.core.game import CHANCE, TERMINAL, Game, Outcome
from hanamikoji.engine.core.codec import dumps

__all__ = ["NAMES", "Encoding", "Layout", "NoRecordError", "Play", "Setup", "get"]

#: The games with an encoding, by registry name, and where each encoding is.
NAMES = {"hanamikoji": "hanamikoji.integrations.encoding.hanamikoji:ENCODING",
         "maiko": "hanamikoji.integrations.encoding.maiko:ENCODING"}


def get(name: str) -> "Encoding":
    """The encoding of the game called ``name``; :class:`OptionError` when it has none."""
    encoding = _LOADED.get(name)
    if encoding is None:
        target = NAMES.get(name)
        if target is None:
            raise OptionError(f"no integration for game {name!r}; expected one of: "
                              + ", ".join(NAMES))
        module, _, attribute = target.partition(":")
        encoding = _LOADED[name] = getattr(importlib.import_module(module), attribute)
    return encoding


_LOADED: dict[str, "Encoding"] = {}


class NoRecordError(GameError):
    """A game that has no record: not over yet, or truncated at its bound (no result)."""


@attrs.frozen
class Setup:
    """A game's configuration (the engine's value) and its bound (the encoding's parameter)."""

    config: Any
    bound: int


class Layout:
    """A flat 0/1 tensor made of named pieces, each at a fixed offset.

    >>> layout = Layout([("player", 2), ("hand", 21)])
    >>> layout.size, layout.offset["hand"], layout.dense([0, 3])[:4]
    (23, 2, [1, 0, 0, 1])
    """

    def __init__(self, pieces: Sequence[tuple[str, int]]) -> None:
        self.pieces = tuple(pieces)
        self.offset: dict[str, int] = {}
        self.sizes = dict(self.pieces)
        at = 0
        for name, size in self.pieces:
            self.offset[name] = at
            at += size
        self.size = at

    def one(self, name: str, index: int) -> int:
        """Where a one-hot piece has its one for ``index`` (an index out of the piece is a bug
        of the encoding, never written into the next piece)."""
        if not 0 <= index < self.sizes[name]:
            raise AssertionError(f"{name} has {self.sizes[name]} slots, not {index + 1}")
        return self.offset[name] + index

    def dense(self, ones: Sequence[int]) -> list[int]:
        """The tensor whose ones are at ``ones`` (tests and numpy-free callers)."""
        out = [0] * self.size
        for index in ones:
            out[index] = 1
        return out


class Encoding:
    """A game's encoding for the framework bridges. Subclass once per game; see the module."""

    #: The registry name of the game.
    game_name: ClassVar[str]
    #: How many integer actions a player has, the same under every option.
    num_distinct_actions: ClassVar[int]
    #: How many component kinds a chance node may draw.
    max_chance_outcomes: ClassVar[int]
    #: The bound on a game's length: the parameter's name and default.
    bound_name: ClassVar[str]
    bound_default: ClassVar[int]
    #: "zero_sum" or "general_sum".
    utility: ClassVar[str]
    min_utility: ClassVar[float] = -1.0
    max_utility: ClassVar[float] = 1.0

    @property
    def game(self) -> Game:
        return registry.get(self.game_name)

    # --- parameters --------------------------------------------------------------------------

    def parameters(self) -> dict[str, Any]:
        """Every parameter with its default: the game's options, then the bound."""
        out = {option.name: option.default for option in self.game.options}
        out[self.bound_name] = self.bound_default
        return out

    def configure(self, params: Mapping[str, Any] | None = None) -> Setup:
        """The setup for ``params`` (missing ones take their defaults); :class:`OptionError`
        naming the parameter for an unknown one or a value it does not take."""
        params = dict(params or {})
        known = self.parameters()
        unknown = sorted(set(params) - set(known))
        if unknown:
            raise OptionError(f"game {self.game_name} has no parameter {unknown[0]!r}; its "
                              f"parameters: {', '.join(known)}")
        bound = params.pop(self.bound_name, self.bound_default)
        if not isinstance(bound, int) or isinstance(bound, bool) or bound < 1:
            raise OptionError(f"parameter {self.bound_name} takes a whole number from 1, "
                              f"not {bound!r}")
        setup = Setup(self.game.configure(self._game_options(params)), bound)
        self.check_setup(setup)
        return setup

    def check_setup(self, setup: Setup) -> None:
        """A game's own check of its parameters together (none by default)."""

    def game_string_values(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """``params`` as a framework writes them in a game string: OpenSpiel's
        ``name(key=value,...)`` cannot hold a comma inside a value (the identity by default)."""
        return dict(params)

    def _game_options(self, params: dict[str, Any]) -> dict[str, Any]:
        """The game's options from the framework's ``params`` (the bound taken out)."""
        return params

    def num_players(self, setup: Setup) -> int:
        return self.game.num_players(setup.config)

    # --- actions -----------------------------------------------------------------------------

    actions: ClassVar[tuple[Any, ...]]

    def action_to_int(self, decision: Any) -> int:
        return self._index()[decision]

    def int_to_action(self, action: int) -> Any:
        if not isinstance(action, int) or not 0 <= action < len(self.actions):
            raise InvalidActionError(f"{self.game_name} actions are whole numbers from 0 to "
                                     f"{len(self.actions) - 1}, not {action!r}")
        return self.actions[action]

    def _index(self) -> dict[Any, int]:
        index = self.__dict__.get("_index_cache")
        if index is None:
            index = self.__dict__["_index_cache"] = {d: i for i, d in enumerate(self.actions)}
        return index

    def action_text(self, action: int) -> str:
        return self.game.decision_text(self.int_to_action(action))

    # --- chance ------------------------------------------------------------------------------

    def chance_multiset(self, state: Any) -> tuple[int, ...]:
        """How many components of each kind the chance node ``state`` shuffles."""
        raise NotImplementedError

    def assemble(self, state: Any, drawn: Sequence[int]) -> Any:
        """The engine's chance outcome made of every kind ``drawn``, in draw order."""
        raise NotImplementedError

    def decompose(self, outcome: Any) -> list[int]:
        """The draws that :meth:`assemble` turns into ``outcome``."""
        raise NotImplementedError

    def chance_text(self, state: Any, drawn: Sequence[int], kind: int) -> str:
        raise NotImplementedError

    # --- the bound, the end --------------------------------------------------------------------

    def max_game_length(self, setup: Setup) -> int:
        """The most player decisions a game under ``setup`` takes, the bound included."""
        raise NotImplementedError

    def max_chance_nodes(self, setup: Setup) -> int:
        """The most chance draws a game under ``setup`` takes."""
        raise NotImplementedError

    def reaches_bound(self, state: Any, decisions: int, setup: Setup) -> bool:
        """Whether the unfinished ``state`` (after ``decisions`` player decisions) has
        reached the bound: the game then ends there, truncated, with no result."""
        raise NotImplementedError

    def returns(self, outcome: Outcome | None, players: int) -> list[float]:
        """Each player's return for a finished game's ``outcome``, or for a truncated game
        (``outcome`` None)."""
        raise NotImplementedError

    # --- what a player sees ----------------------------------------------------------------------

    def epoch(self, state: Any) -> Any:
        """A part of the game after which the engine's view forgets: when it changes, the
        bridges keep each player's last view of the epoch that ended. A game whose views have
        perfect recall has a single epoch."""
        return 0

    def view_text(self, view: Any) -> str:
        """A view as one line of canonical JSON (the engine's ``view_to_json``)."""
        return dumps(self.game.view_to_json(view))

    def observation_text(self, view: Any) -> str:
        return self.view_text(view)

    def observation_layout(self, setup: Setup) -> Layout:
        raise NotImplementedError

    def observation_ones(self, view: Any, setup: Setup, truncated: bool) -> list[int]:
        raise NotImplementedError

    def info_state_layout(self, setup: Setup) -> Layout:
        raise NotImplementedError

    def info_state_ones(self, views: Sequence[Any], setup: Setup, truncated: bool) -> list[int]:
        """``views``: the player's last view of each earlier epoch, then the current one."""
        raise NotImplementedError

    def state_text(self, state: Any) -> str:
        """The whole state for people (OpenSpiel's ``str(state)``, PettingZoo's ``ansi``)."""
        return "\n".join(self.game.render(state))


#: The line the strings of a truncated game end with.
TRUNCATED = "truncated: the game reached its bound {name}={bound} and has no result"


@attrs.frozen
class Play:
    """One game as the bridges play it: the engine's state, the kinds drawn so far at a chance
    node being drawn one component at a time, the player decisions made, whether the game was
    truncated at its bound, and each player's last view of every earlier epoch.

    Immutable, so a framework's copy may share it.
    """

    game_name: str
    setup: Setup
    state: Any
    drawn: tuple[int, ...] = ()
    decisions: int = 0
    truncated: bool = False
    past: tuple[tuple[Any, ...], ...] = ()

    def __deepcopy__(self, memo: Any) -> "Play":
        return self

    def __copy__(self) -> "Play":
        return self

    @classmethod
    def start(cls, encoding: Encoding, setup: Setup, first_player: int = 0) -> "Play":
        state = encoding.game.new_game(setup.config, first_player)
        return cls(encoding.game_name, setup, state,
                   past=((),) * encoding.num_players(setup))

    @classmethod
    def replay(cls, encoding: Encoding, setup: Setup, state: Any,
               drawn: Sequence[int] = ()) -> "Play":
        """The play of the engine state ``state``'s history (each chance outcome drawn in the
        order :meth:`Encoding.decompose` gives), then the kinds ``drawn`` of a chance node in
        progress."""
        game = encoding.game
        play = cls.start(encoding, setup, game.first_player(state))
        for decision in game.history(state):
            if game.current_player(play.state) == CHANCE:
                play = play.apply_chance(decision)
            else:
                play = play.apply_action(encoding.action_to_int(decision))
        for kind in drawn:
            play = play.apply_kind(kind)
        return play

    @property
    def encoding(self) -> Encoding:
        return get(self.game_name)

    # --- where the game stands

    def current_player(self) -> int:
        """A player, :data:`CHANCE` or :data:`TERMINAL` (truncated games included)."""
        return TERMINAL if self.truncated else self.encoding.game.current_player(self.state)

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def legal_actions(self) -> list[int]:
        """The player's legal decisions as sorted integers (empty at chance and at the end)."""
        if self.truncated:
            return []
        encoding = self.encoding
        return sorted(map(encoding.action_to_int, encoding.game.legal_actions(self.state)))

    def remaining(self) -> list[int]:
        """How many components of each kind are left to draw at this chance node."""
        left = list(self.encoding.chance_multiset(self.state))
        for kind in self.drawn:
            left[kind] -= 1
        return left

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next draw: each kind left, with probability proportional to its count."""
        left = self.remaining()
        total = sum(left)
        return [(kind, count / total) for kind, count in enumerate(left) if count]

    def returns(self) -> list[float]:
        """Every player's return: zero until the end."""
        encoding = self.encoding
        players = encoding.num_players(self.setup)
        if not self.is_terminal():
            return [0.0] * players
        if self.truncated:
            return encoding.returns(None, players)
        return encoding.returns(encoding.game.outcome(self.state), players)

    # --- moves

    def apply_kind(self, kind: int) -> "Play":
        """One draw of the chance node in progress; the engine's outcome once all are drawn."""
        if self.current_player() != CHANCE:
            raise IllegalActionError("not a chance node: no component is drawn here")
        left = self.remaining()
        if not isinstance(kind, int) or not 0 <= kind < len(left) or left[kind] <= 0:
            raise IllegalActionError(f"chance outcome {kind!r} is not possible here: the kinds "
                                     f"left are {[k for k, n in enumerate(left) if n]}")
        drawn = self.drawn + (kind,)
        if len(drawn) < sum(self.encoding.chance_multiset(self.state)):
            return attrs.evolve(self, drawn=drawn)
        outcome = self.encoding.assemble(self.state, drawn)
        return attrs.evolve(self, drawn=())._advance(outcome, self.decisions)

    def apply_chance(self, outcome: Any) -> "Play":
        """The engine's whole chance outcome at once (the PettingZoo environment draws it with
        ``Game.sample_chance``)."""
        if self.current_player() != CHANCE or self.drawn:
            raise IllegalActionError("not a chance node, or one whose draws have begun")
        return self._advance(outcome, self.decisions)

    def apply_action(self, action: int) -> "Play":
        """A player's integer action (the engine refuses an illegal one, naming the rule)."""
        if self.current_player() < 0:
            raise IllegalActionError(f"no player decides here; action {action!r} refused")
        return self._advance(self.encoding.int_to_action(action), self.decisions + 1)

    def _advance(self, decision: Any, decisions: int) -> "Play":
        encoding = self.encoding
        game = encoding.game
        before = self.state
        after = game.apply(before, decision)
        past = self.past
        if encoding.epoch(after) != encoding.epoch(before):
            past = tuple(seen + (game.observe(before, p),) for p, seen in enumerate(past))
        truncated = (not game.is_terminal(after)
                     and encoding.reaches_bound(after, decisions, self.setup))
        return attrs.evolve(self, state=after, decisions=decisions, truncated=truncated,
                            past=past)

    # --- what a player sees

    def views(self, player: int) -> tuple[Any, ...]:
        """``player``'s last view of each earlier epoch, then their view now."""
        self._check_player(player)
        return self.past[player] + (self.encoding.game.observe(self.state, player),)

    def _check_player(self, player: int) -> None:
        if not isinstance(player, int) or not 0 <= player < len(self.past):
            raise InvalidActionError(f"player must be from 0 to {len(self.past) - 1}, "
                                     f"not {player!r}")

    def _truncated_line(self) -> list[str]:
        encoding = self.encoding
        return ([TRUNCATED.format(name=encoding.bound_name, bound=self.setup.bound)]
                if self.truncated else [])

    def observation_string(self, player: int) -> str:
        """``player``'s view now, as canonical JSON."""
        self._check_player(player)
        view = self.encoding.game.observe(self.state, player)
        return "\n".join([self.encoding.observation_text(view)] + self._truncated_line())

    def info_state_string(self, player: int) -> str:
        """One line of canonical JSON per view of :meth:`views`."""
        encoding = self.encoding
        return "\n".join([encoding.view_text(v) for v in self.views(player)]
                         + self._truncated_line())

    def observation_ones(self, player: int) -> list[int]:
        self._check_player(player)
        view = self.encoding.game.observe(self.state, player)
        return self.encoding.observation_ones(view, self.setup, self.truncated)

    def info_state_ones(self, player: int) -> list[int]:
        return self.encoding.info_state_ones(self.views(player), self.setup, self.truncated)

    def text(self) -> str:
        """The whole state for people."""
        encoding = self.encoding
        lines = [encoding.state_text(self.state)]
        if self.drawn:
            lines.append(f"drawn so far at this chance node: {list(self.drawn)}")
        return "\n".join(lines + self._truncated_line())

    def record(self) -> dict[str, Any]:
        """The finished game's record (``hanamikoji-record/1``, ``maiko-record/1``).

        :class:`NoRecordError` for a game not over, or truncated: a record holds a whole game
        and its result, and a truncated game has none."""
        if self.truncated:
            raise NoRecordError(
                f"the game was truncated at {self.encoding.bound_name}={self.setup.bound}: it "
                "has no result, so no record")
        if not self.is_terminal():
            raise NoRecordError("the game is not over: a record holds a whole game")
        return self.encoding.game.to_record(self.state)


def thermometer(offset: int, count: int) -> range:
    """The ones of a count written as ``count`` ones from ``offset`` (a 0/1 tensor's count)."""
    return range(offset, offset + count)
