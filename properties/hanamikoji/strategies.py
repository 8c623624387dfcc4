"""Hypothesis strategies for Hanamikoji: rules, deals, decisions, game states, games and records.

Every strategy is a plural noun with keyword-only options. Game states are reached by playing
drawn legal decisions from a deal, never by filtering random fields, and the number of decisions
is drawn first, so a failing state shrinks to a short game. The option ``engine=`` names the
implementation that plays (any object of the engine protocol, :mod:`.engine_api`; the reference
engine by default), so other projects can drive their own engine with these strategies.

Two ways of playing a round are mixed (``planned=None``, the default, lets Hypothesis choose):

* drawn: a uniformly shuffled deal (:func:`deals`), then each decision drawn from
  ``engine.legal_actions``;
* planned (:func:`round_plans`): Hypothesis first chooses the round's outcome, geisha by geisha
  (often a tie), and the plan derives a deal and twelve legal decisions that score exactly those
  sides. Planned rounds reach the rare endings (a double finish, the Italian round limit with
  equal charm, a shared victory) far more often than random play does. A planned decision that
  the engine under test does not offer is replaced by a drawn one.

>>> from hypothesis import Phase, find, settings
>>> state = find(game_states(), lambda state: state.pending is not None,
...              settings=settings(max_examples=500, derandomize=True, database=None,
...                                phases=[Phase.generate]))
>>> state.phase.value, len(REFERENCE.legal_actions(state)) in (1, 2, 3)  # the answers
('response', True)
"""

from __future__ import annotations

import functools
import random
from typing import Any, Callable

import attrs
from hypothesis import strategies as st

from hanamikoji.engine.hanamikoji import (
    ALL_KINDS,
    CHANCE,
    PRESETS,
    TERMINAL,
    Competition,
    CompetitionPick,
    Deal,
    Gift,
    GiftPick,
    Rules,
    Secret,
    TradeOff,
)
from hanamikoji.engine.hanamikoji.construct import PlayerPlan, round_decisions
from hanamikoji.engine.hanamikoji.record import to_record

from .engine_api import REFERENCE, Engine

__all__ = [
    "Game",
    "RoundPlan",
    "decisions",
    "deals",
    "first_players",
    "game_states",
    "games",
    "records",
    "round_plans",
    "rules",
    "well_formed_decisions",
]

#: COMP-1, COMP-2: item cards per geisha (restated from the spec, not read from the engine).
_CARDS_PER_GEISHA = (2, 2, 2, 3, 3, 4, 5)
_ALL_CARDS = tuple(g for g, n in enumerate(_CARDS_PER_GEISHA) for _ in range(n))
_SIDE_SIZE = 8  # 1 secret + 2 + 2 kept + 1 + 2 taken (ACT-*-3)


# --- values ----------------------------------------------------------------------------------


@attrs.frozen(repr=False)
class Game:
    """A game as played: the decisions and every state, ``states[0]`` before the first deal.

    ``states[i + 1]`` is ``engine.apply(states[i], decisions[i])``. The repr replays the game
    with the reference engine, so a failing example prints a runnable expression.
    """

    rules: Rules
    first_player: int
    decisions: tuple[Any, ...]
    states: tuple[Any, ...]

    @classmethod
    def replay(cls, decisions: tuple[Any, ...], *, rules: Rules, first_player: int = 0,
               engine: Engine = REFERENCE) -> "Game":
        """The game of ``decisions`` from the start, played by ``engine``."""
        states = [engine.new_game(rules, first_player)]
        for decision in decisions:
            states.append(engine.apply(states[-1], decision))
        return cls(rules, first_player, tuple(decisions), tuple(states))

    @property
    def final(self) -> Any:
        """The last state."""
        return self.states[-1]

    @property
    def is_over(self) -> bool:
        return self.final.result is not None

    def steps(self) -> tuple[tuple[Any, Any, Any], ...]:
        """Every step as ``(before, decision, after)``."""
        return tuple(zip(self.states, self.decisions, self.states[1:]))

    def __repr__(self) -> str:
        return (f"Game.replay({self.decisions!r}, rules={self.rules!r}, "
                f"first_player={self.first_player!r})")

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        # Hypothesis prints attrs values field by field; this one prints as the replay it is.
        printer.text(repr(self))


@attrs.frozen
class RoundPlan:
    """A round chosen by its outcome: a deal, and the 12 decisions (8 actions, each gift and
    competition followed by its answer, in play order) that score exactly ``sides``."""

    starter: int
    deal: Deal
    decisions: tuple[Any, ...]
    sides: tuple[tuple[int, ...], tuple[int, ...]]


# --- simple strategies -------------------------------------------------------------------------


def rules(*, names: tuple[str, ...] | None = None) -> st.SearchStrategy[Rules]:
    """The rules presets (both variants unless ``names`` restricts them; VAR-IT-1)."""
    chosen = tuple(PRESETS) if names is None else names
    return st.sampled_from(tuple(PRESETS[name] for name in chosen))


def first_players() -> st.SearchStrategy[int]:
    """SETUP-1: the starting player of the first round."""
    return st.sampled_from((0, 1))


def deals() -> st.SearchStrategy[Deal]:
    """DEAL-1..4: a shuffle of the 21 cards: one removed, six per hand, eight to draw.

    Shrinks towards the unshuffled deck.
    """
    return st.permutations(_ALL_CARDS).map(
        lambda cards: Deal(cards[0], (cards[1:7], cards[7:13]), cards[13:]))


def decisions(state: Any, *, engine: Engine = REFERENCE) -> st.SearchStrategy[Any]:
    """A decision allowed in ``state``: a deal at a chance node, else one of the legal actions.
    Nothing at the end of the game."""
    player = engine.current_player(state)
    if player == CHANCE:
        return deals()
    legal = engine.legal_actions(state)
    if player == TERMINAL or not legal:
        return st.nothing()
    return st.sampled_from(legal)


def _geisha() -> st.SearchStrategy[int]:
    return st.integers(0, len(_CARDS_PER_GEISHA) - 1)


def _cards(n: int) -> st.SearchStrategy[tuple[int, ...]]:
    return st.lists(_geisha(), min_size=n, max_size=n).map(tuple)


def well_formed_decisions() -> st.SearchStrategy[Any]:
    """Any well-formed decision of any kind, legal or not in a given state: the material of
    the refusal checks (TURN-3, TURN-4, ACT-*, DEAL-1, END-2)."""
    return st.one_of(
        _geisha().map(Secret),
        _cards(2).map(TradeOff),
        _cards(3).map(Gift),
        st.tuples(_cards(2), _cards(2)).map(Competition),
        _geisha().map(GiftPick),
        _cards(2).map(CompetitionPick),
        st.builds(lambda removed, a, b, draws: Deal(removed, (a, b), draws),
                  _geisha(), _cards(6), _cards(6), _cards(8)),
        deals(),
    )


# --- planned rounds ----------------------------------------------------------------------------


@functools.cache
def _completable(geisha: int, left0: int, left1: int) -> bool:
    """Whether geisha ``geisha``.. can take exactly ``left0`` and ``left1`` more cards per side."""
    if geisha == len(_CARDS_PER_GEISHA):
        return left0 == 0 and left1 == 0
    return any(_completable(geisha + 1, left0 - a, left1 - b)
               for a, b in _splits(geisha, left0, left1))


def _splits(geisha: int, left0: int, left1: int) -> list[tuple[int, int]]:
    n = _CARDS_PER_GEISHA[geisha]
    return [(a, b) for a in range(min(n, left0) + 1) for b in range(min(n - a, left1) + 1)]


def _outcome(a: int, b: int) -> int | None:
    return None if a == b else 0 if a > b else 1


@st.composite
def _scored_sides(draw: Callable, tie_percent: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Two sides of 8 cards each (SCORE-1), chosen geisha by geisha: the outcome first (a tie
    when a drawn number from 0 to 99 is below ``tie_percent``, so mostly ties at 85), then the
    counts, among those that can still make 8 a side."""
    left0 = left1 = _SIDE_SIZE
    side0: list[int] = []
    side1: list[int] = []
    for geisha in range(len(_CARDS_PER_GEISHA)):
        options = [(a, b) for a, b in _splits(geisha, left0, left1)
                   if _completable(geisha + 1, left0 - a, left1 - b)]
        outcomes = sorted({_outcome(a, b) for a, b in options}, key=lambda o: -1 if o is None else o)
        if outcomes[0] is None and draw(st.integers(0, 99)) < tie_percent:
            wanted = None
        else:
            wanted = draw(st.sampled_from(outcomes))
        a, b = draw(st.sampled_from([ab for ab in options if _outcome(*ab) == wanted]))
        side0.append(a)
        side1.append(b)
        left0, left1 = left0 - a, left1 - b
    return tuple(side0), tuple(side1)


def _expand(counts: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(g for g, n in enumerate(counts) for _ in range(n))


@st.composite
def round_plans(draw: Callable, *, starter: int = 0) -> RoundPlan:
    """A round planned from its outcome (SCORE-1..3): the scored sides are drawn first, then a
    deal and the 12 decisions that produce them, legal by construction.

    Each side of 8 is the owner's secret, the 2 cards they keep of their gift and of their
    competition, and the card and the set they take from the opponent's (ACT-*-3); the other 5
    cards are the two trade-offs and the removed card. Each player takes the four actions in a
    drawn order; the cards are dealt and drawn in the order the actions need them, which always
    works: after the k-th draw the hand holds 6 + k cards and the first k actions need at most
    that many (spec/rules.md, "Enough cards").
    """
    tie_percent = draw(st.sampled_from((85, 50, 0)))
    sides = draw(_scored_sides(tie_percent))
    rest = tuple(c - a - b for c, a, b in zip(_CARDS_PER_GEISHA, *sides))
    shuffled_rest = draw(st.permutations(_expand(rest)))
    removed, trade_offs = shuffled_rest[0], (shuffled_rest[1:3], shuffled_rest[3:5])
    # Each side, shuffled: own secret, kept gift pair, kept competition pair, then the card and
    # the set taken from the opponent's gift and competition.
    roles = [draw(st.permutations(_expand(side))) for side in sides]
    own = [{"secret": r[0:1], "gift": r[1:3], "competition": r[3:5]} for r in roles]
    taken = [{"gift": r[5:6], "competition": r[6:8]} for r in roles]
    orders = [draw(st.permutations(ALL_KINDS)) for _ in (0, 1)]
    plans = []
    for p in (0, 1):
        given_card, given_set = taken[1 - p]["gift"], taken[1 - p]["competition"]
        plans.append(PlayerPlan(
            secret=own[p]["secret"][0], trade_off=tuple(trade_offs[p]),
            gift=tuple(own[p]["gift"] + given_card), gift_pick=given_card[0],
            competition=(tuple(own[p]["competition"]), tuple(given_set)), competition_pick=1,
            order=tuple(orders[p])))
    # engine.construct deals each player's cards in the order of their actions.
    deal, played = round_decisions(removed, plans, starter)
    return RoundPlan(starter, deal, played, sides)


# --- playing -----------------------------------------------------------------------------------


def _starter(first_player: int, round_index: int) -> int:
    """UPDATE-4: round r is started by the first player when r is even."""
    return first_player if round_index % 2 == 0 else 1 - first_player


def _play(draw: Callable, *, engine: Engine, rules: Rules, first_player: int,
          planned: bool, max_steps: int | None, max_drawn_rounds: int,
          max_rounds: int) -> Game:
    """Play from the start: up to ``max_steps`` decisions, or to the end of the game.

    After ``max_drawn_rounds`` rounds the game is finished by uniform random play from a drawn
    seed (a standard game has no round limit, and Hypothesis would happily tie forever); play
    stops for good after ``max_rounds`` rounds or when the engine offers no decision.
    """
    state = engine.new_game(rules, first_player)
    states: list[Any] = [state]
    played: list[Any] = []
    queue: list[Any] = []
    rng: random.Random | None = None
    rounds = 0
    while max_steps is None or len(played) < max_steps:
        player = engine.current_player(state)
        if player == TERMINAL:
            break
        if player == CHANCE:
            if rounds >= max_rounds:
                break
            if rounds >= max_drawn_rounds and rng is None:
                rng = random.Random(draw(st.integers(0, 2**32 - 1)))
            if rng is not None:
                decision = engine.random_deal(rng)
                queue = []
            elif planned:
                plan = draw(round_plans(starter=_starter(first_player, rounds)))
                decision, queue = plan.deal, list(plan.decisions)
            else:
                decision = draw(deals())
            rounds += 1
        else:
            legal = engine.legal_actions(state)
            if not legal:
                break  # an engine with nothing to offer: the invariants say what is wrong
            if queue and queue[0] in legal:
                decision = queue.pop(0)
            else:
                queue = []
                decision = rng.choice(legal) if rng is not None else draw(st.sampled_from(legal))
        state = engine.apply(state, decision)
        states.append(state)
        played.append(decision)
    return Game(rules, first_player, tuple(played), tuple(states))


def _options(draw: Callable, the_rules: Rules | None, first_player: int | None,
             planned: bool | None) -> tuple[Rules, int, bool]:
    chosen_rules = draw(rules()) if the_rules is None else the_rules
    chosen_first = draw(first_players()) if first_player is None else first_player
    chosen_planned = draw(st.booleans()) if planned is None else planned
    return chosen_rules, chosen_first, chosen_planned


@st.composite
def games(draw: Callable, *, rules: Rules | st.SearchStrategy[Rules] | None = None,
          first_player: int | None = None, engine: Engine = REFERENCE,
          planned: bool | None = None, max_steps: int | None = None,
          max_drawn_rounds: int = 4, max_rounds: int = 200) -> Game:
    """Games played by ``engine``: whole games, or with ``max_steps`` the first decisions of one.

    ``rules``: a preset, a strategy of presets, or None for both variants. ``planned``: True for
    planned rounds (:func:`round_plans`), False for drawn ones, None to let Hypothesis choose.
    ``max_steps``: cut the game after a number of decisions drawn first (0 to ``max_steps``; a
    round is 13: the deal, 8 actions and 4 answers), so that a failing game shrinks to a short
    one. Whole games draw their first ``max_drawn_rounds`` rounds from Hypothesis and finish the
    game (rarely needed) with a seeded uniform random player; a game that has not ended after
    ``max_rounds`` rounds (an engine that never ends it) is returned unfinished.
    """
    the_rules = draw(rules) if isinstance(rules, st.SearchStrategy) else rules
    chosen_rules, chosen_first, chosen_planned = _options(draw, the_rules, first_player, planned)
    if max_steps is not None:
        steps = draw(st.integers(0, max_steps))
        return _play(draw, engine=engine, rules=chosen_rules, first_player=chosen_first,
                     planned=chosen_planned, max_steps=steps, max_drawn_rounds=max_steps,
                     max_rounds=max_steps)
    return _play(draw, engine=engine, rules=chosen_rules, first_player=chosen_first,
                 planned=chosen_planned, max_steps=None, max_drawn_rounds=max_drawn_rounds,
                 max_rounds=max_rounds)


def game_states(*, rules: Rules | st.SearchStrategy[Rules] | None = None,
                first_player: int | None = None, engine: Engine = REFERENCE,
                planned: bool | None = None, max_steps: int = 60) -> st.SearchStrategy[Any]:
    """A state reached by playing up to ``max_steps`` drawn decisions from the start: the last
    state of ``games(max_steps=...)``, with the same options.

    Every phase occurs: before a deal, an action, an answer, between rounds, and the end.
    """
    return games(rules=rules, first_player=first_player, engine=engine, planned=planned,
                 max_steps=max_steps).map(lambda game: game.final)


def records(*, rules: Rules | st.SearchStrategy[Rules] | None = None,
            first_player: int | None = None, engine: Engine = REFERENCE,
            planned: bool | None = None) -> st.SearchStrategy[dict[str, Any]]:
    """Records ("hanamikoji-record/1", decoded JSON) of whole games played by ``engine``."""
    return games(rules=rules, first_player=first_player, engine=engine, planned=planned).map(
        lambda game: to_record(game.final))
