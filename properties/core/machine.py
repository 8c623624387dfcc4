"""A Hypothesis state machine for any game: it plays whole games and checks every generic
invariant after every step.

Each run starts a game from drawn options and a drawn first player, plays drawn chance outcomes
and legal decisions, and starts a new game when one ends (after checking that the finished
game's record round-trips and follows its schema, and that it ended within its bound). Between
moves it tries a decision met earlier in the run or a value that is no decision (it must be
refused and change nothing), and resamples what a drawn player cannot see (their view must not
change). Every step is checked for apply's purity and the history it records; every state for
the invariants of :data:`.invariants.STATE_INVARIANTS`.

>>> from hanamikoji.engine.core import registry
>>> games_machine(registry.get()).__name__  # the default game, as an example
'HanamikojiGames'
"""

from __future__ import annotations

import random
import re
from typing import Any, Mapping

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from hanamikoji.engine.core.game import CHANCE, Game

from . import invariants as inv
from .strategies import JUNK, decisions, games, players, seeds

__all__ = ["games_machine"]

#: Decisions kept from a run to try elsewhere (the first ones met, in order).
MEMORY = 400


def games_machine(game: Game, *, options: Mapping[str, Any] | None = None,
                  bound: int | None = None) -> type[RuleBasedStateMachine]:
    """The state machine class for ``game`` (``options``: fixed option values, else every
    option drawn per game; ``bound``: the most decisions a game may take when the game declares
    none); run it with ``games_machine(game).TestCase`` (pytest) or
    :func:`hypothesis.stateful.run_state_machine_as_test`."""

    class Games(RuleBasedStateMachine):
        """Whole games of one game, every generic invariant checked after every step."""

        def __init__(self) -> None:
            super().__init__()
            self.state: Any = None
            self.checked: Any = None
            self.limit = inv.DEFAULT_BOUND
            self.met: dict[str, tuple[Any, str]] = {}
            self.finished = 0

        def _start(self, data: st.DataObject) -> None:
            start = data.draw(games(game, options=options), label="start")
            self.state = start.final
            declared = game.max_decisions(start.config)
            self.limit = (declared if declared is not None else bound if bound is not None
                          else inv.DEFAULT_BOUND)
            self._remember_legal_actions()

        def _remember(self, decision: Any, kind: str) -> None:
            if len(self.met) < MEMORY:
                self.met.setdefault(f"{kind}:{decision!r}", (decision, kind))

        def _remember_legal_actions(self) -> None:
            for action in game.legal_actions(self.state):
                self._remember(action, "action")

        def _apply(self, decision: Any) -> None:
            before = self.state
            after = game.apply(before, decision)
            inv.check_step(game, before, decision, after)
            self.state = after
            self._remember_legal_actions()
            count = len(game.history(after))
            if count > self.limit:
                raise inv.Violation(inv.property_name(inv.games_end_within_a_bound),
                                    f"the game has not ended after {self.limit} decisions")

        @initialize(data=st.data())
        def start(self, data: st.DataObject) -> None:
            self._start(data)

        @precondition(lambda self: game.current_player(self.state) == CHANCE)
        @rule(data=st.data())
        def chance(self, data: st.DataObject) -> None:
            """Chance: a listed outcome, or one drawn with a drawn seed."""
            decision = data.draw(decisions(game, self.state), label="chance")
            self._remember(decision, "chance")
            self._apply(decision)

        @precondition(lambda self: game.current_player(self.state) in game.players(self.state))
        @rule(data=st.data())
        def decide(self, data: st.DataObject) -> None:
            """A player: a drawn legal action."""
            self._apply(data.draw(decisions(game, self.state), label="decision"))

        @precondition(lambda self: game.is_terminal(self.state))
        @rule(data=st.data())
        def next_game(self, data: st.DataObject) -> None:
            """The end: the record round-trips and follows its schema; a new game starts."""
            inv.records_round_trip(game, self.state)
            inv.records_follow_their_schema(game, self.state)
            self.finished += 1
            self._start(data)

        @rule(data=st.data())
        def try_a_decision(self, data: st.DataObject) -> None:
            """A decision met earlier in the run, or no decision at all: refused unless
            allowed here, and the state unchanged."""
            pool = list(self.met.values()) + [(junk, "junk") for junk in JUNK]
            decision, kind = data.draw(st.sampled_from(pool), label="tried")
            inv.other_decisions_are_refused(game, self.state, decision, kind=kind)

        @precondition(lambda self: bool(game.history(self.state)))
        @rule(data=st.data())
        def resample(self, data: st.DataObject) -> None:
            """What a drawn player cannot see, drawn again: their view stays the same."""
            player = data.draw(players(game, self.state), label="player")
            rng = random.Random(data.draw(seeds(), label="seed"))
            inv.views_leak_nothing(game, self.state, player, rng)

        @invariant()
        def state_invariants_hold(self) -> None:
            """Every invariant of one state (invariants.STATE_INVARIANTS)."""
            # A rule that only tried or resampled leaves the same state: checked once.
            if self.state is not None and self.state is not self.checked:
                inv.check_state(game, self.state)
                self.checked = self.state

    name = "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", game.name)
                   if part) + "Games"
    Games.__name__ = Games.__qualname__ = name
    return Games
