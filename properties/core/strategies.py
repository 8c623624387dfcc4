"""Hypothesis strategies for any game of the core: options, starts, decisions, played games.

Every strategy takes the game (a :class:`~hanamikoji.engine.core.game.Game`) first, then
keyword-only options. States are reached by playing drawn legal decisions from a drawn start,
never by filtering; the number of decisions is drawn first, so a failing game shrinks to a short
one. Chance is drawn from the node's listed outcomes (:meth:`Game.chance_outcomes`) when it
lists them, else from :meth:`Game.sample_chance` with a drawn seed.

A played game is a :class:`Playthrough`, whose repr replays it through the registry, so a failing
example prints a runnable expression.

>>> from hypothesis import find, settings
>>> from hanamikoji.engine.core import registry
>>> game = registry.get()  # the default game, as an example
>>> final = find(states(game, max_steps=5), lambda s: len(game.history(s)) >= 3,
...              settings=settings(database=None, derandomize=True))
>>> len(game.history(final))
3
"""

from __future__ import annotations

import random
from typing import Any, Callable, Mapping

import attrs
from hypothesis import strategies as st

from hanamikoji.engine.core.errors import OptionError
from hanamikoji.engine.core.game import CHANCE, Game, Option

from .invariants import DEFAULT_BOUND

__all__ = [
    "Playthrough",
    "JUNK",
    "MAX_STEPS",
    "max_steps_for",
    "option_values",
    "games",
    "decisions",
    "playthroughs",
    "states",
    "finished_games",
    "players",
    "seeds",
    "other_decisions",
]

#: Values that are no decision of any game: each must be refused with a typed error.
JUNK: tuple[Any, ...] = (None, 0, -1, 2**70, 1.5, True, "", "junk", (), (0,), (None, None),
                         b"\x00", [], {}, frozenset())

#: Decisions drawn by Hypothesis before :func:`finished_games` finishes a game at random.
MAX_DRAWN = 60
#: Decisions :func:`playthroughs` plays at most by default (fewer for a game whose declared
#: bound is smaller).
MAX_STEPS = 40


@attrs.frozen(repr=False)
class Playthrough:
    """A game as played: its options, first player, decisions and every state (``states[0]`` is
    the start, ``states[i + 1] = game.apply(states[i], decisions[i])``)."""

    game: Game
    config: Any
    first_player: int
    decisions: tuple[Any, ...]
    states: tuple[Any, ...]

    @classmethod
    def replay(cls, game: Game | str, options: Mapping[str, Any] | None = None, *,
               first_player: int = 0, decisions: tuple[Any, ...] = ()) -> "Playthrough":
        """The game of ``decisions`` from the start (``game`` may be a registry name)."""
        if isinstance(game, str):
            from hanamikoji.engine.core import registry

            game = registry.get(game)
        return cls.start(game, game.configure(options), first_player).extended(decisions)

    @classmethod
    def start(cls, game: Game, config: Any, first_player: int) -> "Playthrough":
        return cls(game, config, first_player, (), (game.new_game(config, first_player),))

    def extended(self, decisions: tuple[Any, ...]) -> "Playthrough":
        """This game with ``decisions`` played after it."""
        states = list(self.states)
        for decision in decisions:
            states.append(self.game.apply(states[-1], decision))
        return attrs.evolve(self, decisions=self.decisions + tuple(decisions),
                            states=tuple(states))

    @property
    def final(self) -> Any:
        return self.states[-1]

    @property
    def is_over(self) -> bool:
        return self.game.is_terminal(self.final)

    def steps(self) -> tuple[tuple[Any, Any, Any], ...]:
        """Every step as ``(before, decision, after)``."""
        return tuple(zip(self.states, self.decisions, self.states[1:]))

    def __repr__(self) -> str:
        return (f"Playthrough.replay({self.game.name!r}, "
                f"{self.game.options_of(self.config)!r}, first_player={self.first_player!r}, "
                f"decisions={self.decisions!r})")

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        # Hypothesis prints attrs values field by field; this one prints as the replay it is.
        printer.text(repr(self))


# --- starts ----------------------------------------------------------------------------------


def _values_of(option: Option) -> st.SearchStrategy[Any] | None:
    """The values of an option: its choices or its range (a few above or below a lone bound);
    None for free text, which keeps its default."""
    if option.choices is not None:
        return st.sampled_from(option.choices)
    if option.low is not None and option.high is not None:
        return st.integers(option.low, option.high)
    if option.low is not None:
        return st.integers(option.low, option.low + 4)
    if option.high is not None:
        return st.integers(option.high - 4, option.high)
    return None


@st.composite
def option_values(draw: Callable, game: Game) -> dict[str, Any]:
    """Values for the game's options, each drawn from its choices or range, one at a time, a
    value kept only if the game accepts it with those drawn before (so every draw is a valid
    configuration, without filtering)."""
    values: dict[str, Any] = {}
    for option in game.options:
        strategy = _values_of(option)
        if strategy is None:
            continue
        trial = {**values, option.name: draw(strategy, label=option.name)}
        try:
            game.configure(trial)
        except OptionError:
            continue
        values = trial
    return values


@st.composite
def games(draw: Callable, game: Game, *,
          options: Mapping[str, Any] | st.SearchStrategy[Mapping[str, Any]] | None = None,
          first_player: int | None = None) -> Playthrough:
    """The start of a game: options drawn (``options``: fixed values, a strategy of them, or
    None to draw every option) and a first player drawn among the players (unless given)."""
    if options is None:
        options = option_values(game)
    chosen = draw(options) if isinstance(options, st.SearchStrategy) else dict(options)
    config = game.configure(chosen)
    if first_player is None:
        first_player = draw(st.sampled_from(range(game.num_players(config))), label="first player")
    return Playthrough.start(game, config, first_player)


# --- decisions -------------------------------------------------------------------------------


def seeds() -> st.SearchStrategy[int]:
    """Seeds of ``random.Random`` for chance and random play."""
    return st.integers(0, 2**32 - 1)


def decisions(game: Game, state: Any) -> st.SearchStrategy[Any]:
    """A decision allowed in ``state``: a chance outcome at a chance node, else a legal action;
    nothing at the end."""
    if game.current_player(state) == CHANCE:
        outcomes = game.chance_outcomes(state)
        if outcomes is not None:
            return st.sampled_from([o for o, p in outcomes if p > 0])
        return seeds().map(lambda seed: game.sample_chance(state, random.Random(seed)))
    legal = game.legal_actions(state)
    return st.sampled_from(legal) if legal else st.nothing()


def players(game: Game, state: Any) -> st.SearchStrategy[int]:
    """A player of ``state``'s game."""
    return st.sampled_from(game.players(state))


def _play(draw: Callable, start: Playthrough, steps: int) -> Playthrough:
    game, state = start.game, start.final
    played = []
    for _ in range(steps):
        if game.is_terminal(state):
            break
        decision = draw(decisions(game, state), label="decision")
        state = game.apply(state, decision)
        played.append(decision)
    return start.extended(tuple(played))


def max_steps_for(game: Game, config: Any) -> int:
    """:data:`MAX_STEPS`, or the game's declared bound under ``config`` if smaller."""
    declared = game.max_decisions(config)
    return MAX_STEPS if declared is None else min(MAX_STEPS, declared)


@st.composite
def playthroughs(draw: Callable, game: Game, *,
                 options: Mapping[str, Any] | st.SearchStrategy[Mapping[str, Any]] | None = None,
                 first_player: int | None = None, max_steps: int | None = None) -> Playthrough:
    """A game from a drawn start, played for a drawn number of decisions (0 to ``max_steps``,
    by default :func:`max_steps_for`; fewer if it ends)."""
    start = draw(games(game, options=options, first_player=first_player), label="start")
    if max_steps is None:
        max_steps = max_steps_for(game, start.config)
    return _play(draw, start, draw(st.integers(0, max_steps), label="steps"))


def states(game: Game, *,
           options: Mapping[str, Any] | st.SearchStrategy[Mapping[str, Any]] | None = None,
           first_player: int | None = None, max_steps: int | None = None
           ) -> st.SearchStrategy[Any]:
    """States reached by play: the last state of :func:`playthroughs`."""
    return playthroughs(game, options=options, first_player=first_player,
                        max_steps=max_steps).map(lambda played: played.final)


@st.composite
def finished_games(draw: Callable, game: Game, *,
                   options: Mapping[str, Any] | st.SearchStrategy[Mapping[str, Any]] | None = None,
                   first_player: int | None = None, max_drawn: int = MAX_DRAWN,
                   bound: int | None = None) -> Playthrough:
    """Whole games: up to ``max_drawn`` decisions drawn by Hypothesis, the rest played at random
    from a drawn seed. A game still going after the game's declared bound (else ``bound``, else
    :data:`~.invariants.DEFAULT_BOUND`) decisions is returned unfinished: the invariant
    :func:`~.invariants.games_end_within_a_bound` says what is wrong."""
    start = draw(games(game, options=options, first_player=first_player), label="start")
    played = _play(draw, start, max_drawn)
    if played.is_over:
        return played
    declared = game.max_decisions(played.config)
    limit = declared if declared is not None else bound if bound is not None else DEFAULT_BOUND
    rng = random.Random(draw(seeds(), label="seed of the rest"))
    state = played.final
    rest: list[Any] = []
    while not game.is_terminal(state) and len(played.decisions) + len(rest) < limit:
        if game.current_player(state) == CHANCE:
            decision = game.sample_chance(state, rng)
        else:
            decision = rng.choice(game.legal_actions(state))
        state = game.apply(state, decision)
        rest.append(decision)
    return played.extended(tuple(rest))


# --- what must be refused --------------------------------------------------------------------


def _candidates(game: Game, played: Playthrough) -> list[tuple[Any, str]]:
    found: list[tuple[Any, str]] = []
    seen: set[str] = set()

    def add(decision: Any, kind: str) -> None:
        key = f"{kind}:{decision!r}"
        if key not in seen:
            seen.add(key)
            found.append((decision, kind))

    for state, decision in zip(played.states, played.decisions):
        if game.current_player(state) == CHANCE:
            add(decision, "chance")
    for state in played.states:
        for action in game.legal_actions(state):
            add(action, "action")
    return found


@st.composite
def other_decisions(draw: Callable, game: Game, played: Playthrough) -> tuple[Any, str]:
    """``(decision, kind)``: a decision met in ``played`` or in another drawn game of the same
    options (a legal action somewhere, ``"action"``, or a chance outcome, ``"chance"``), or a
    value of :data:`JUNK` (``"junk"``): material for
    :func:`~.invariants.other_decisions_are_refused`."""
    options = game.options_of(played.config)
    elsewhere = draw(playthroughs(game, options=options), label="another game")
    pool = _candidates(game, played) + _candidates(game, elsewhere)
    return draw(st.one_of(st.sampled_from(pool) if pool else st.nothing(),
                          st.sampled_from([(junk, "junk") for junk in JUNK])), label="decision")
