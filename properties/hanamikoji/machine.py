"""A Hypothesis state machine that plays whole games and checks every invariant after every step.

Each run starts a game under drawn rules (both variants) and a drawn first player, deals
(a planned round or a shuffled deck), plays drawn legal decisions, and starts a new game when one
ends. Between moves it also tries a well-formed decision the state may not allow (it must be
refused and change nothing) and resamples what a player cannot see (their view must not change).
After every step it checks every state invariant, the views of both players and the legal
actions; every transition is checked by the step invariants and the purity of ``apply``.

>>> Machine = games_machine()
>>> Machine.__name__
'HanamikojiGames'
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from hanamikoji.engine.hanamikoji import CHANCE, TERMINAL

from . import invariants as inv
from . import strategies as s
from .engine_api import REFERENCE, Engine
from hanamikoji.properties.core.cite import checks

__all__ = ["games_machine"]


def games_machine(*, engine: Engine = REFERENCE) -> type[RuleBasedStateMachine]:
    """The state machine class for ``engine``; run it with ``games_machine().TestCase`` (pytest)
    or :func:`hypothesis.stateful.run_state_machine_as_test`."""

    class HanamikojiGames(RuleBasedStateMachine):
        """Whole games in both variants, every invariant checked after every step."""

        def __init__(self) -> None:
            super().__init__()
            self.state: Any = None
            self.plan: list[Any] = []
            self.finished = 0

        def _start(self, rules: Any, first_player: int) -> None:
            """SETUP-1, COMP-4: a new game before its first deal."""
            self.state = engine.new_game(rules, first_player)
            self.plan = []

        def _apply(self, decision: Any) -> None:
            """Every step invariant (TURN-1, TURN-2, TURN-4, ACT-*), and apply's purity."""
            before = self.state
            inv.apply_leaves_its_input_unchanged(before, decision, engine=engine)
            after = engine.apply(before, decision)
            inv.check_step(before, decision, after, engine=engine)
            self.state = after

        def _to_move(self) -> int:
            return engine.current_player(self.state)

        @initialize(rules=s.rules(), first_player=s.first_players())
        def start(self, rules: Any, first_player: int) -> None:
            self._start(rules, first_player)

        @checks("DEAL-1")
        @precondition(lambda self: self._to_move() == CHANCE)
        @rule(data=st.data(), planned=st.booleans())
        def deal(self, data: st.DataObject, planned: bool) -> None:
            """DEAL-1..4: a planned round or a shuffled deck."""
            if planned:
                starter = inv._starter(self.state.first_player, self.state.round)
                plan = data.draw(s.round_plans(starter=starter), label="round plan")
                self.plan = list(plan.decisions)
                self._apply(plan.deal)
            else:
                self.plan = []
                self._apply(data.draw(s.deals(), label="deal"))

        @checks("TURN-3", "TURN-4")
        @precondition(lambda self: self._to_move() in (0, 1))
        @rule(data=st.data())
        def decide(self, data: st.DataObject) -> None:
            """TURN-3, TURN-4: the plan's next decision if the engine allows it, else a drawn
            legal one."""
            legal = engine.legal_actions(self.state)
            if self.plan and self.plan[0] in legal:
                decision = self.plan.pop(0)
            else:
                self.plan = []
                decision = data.draw(st.sampled_from(legal), label="decision")
            self._apply(decision)

        @checks("END-2")
        @precondition(lambda self: self._to_move() == TERMINAL)
        @rule(rules=s.rules(), first_player=s.first_players())
        def next_game(self, rules: Any, first_player: int) -> None:
            """END-2: nothing follows the end; the next game starts afresh."""
            self.finished += 1
            self._start(rules, first_player)

        @checks("TURN-3", "TURN-4", "DEAL-1", "END-2")
        @rule(decision=s.well_formed_decisions())
        def try_a_decision(self, decision: Any) -> None:
            """TURN-3, TURN-4, DEAL-1, END-2: a decision the state does not allow is refused."""
            inv.illegal_decisions_are_refused(self.state, decision, engine=engine)

        @checks("INFO-2")
        @precondition(lambda self: bool(self.state.history))
        @rule(player=s.first_players(), data=st.data())
        def reshuffle_what_a_player_cannot_see(self, player: int, data: st.DataObject) -> None:
            """INFO-2: another world, the same for ``player``, gives them the same view."""
            def shuffle(values: tuple[int, ...]) -> tuple[int, ...]:
                return tuple(data.draw(st.permutations(values), label="hidden cards, reordered"))

            inv.views_leak_nothing(self.state, player, shuffle, engine=engine)

        @checks("COMP-2", "DEAL-2", "SCORE-2", "SCORE-3", "END-2", "END-4", "VAR-IT-3", "TURN-1")
        @invariant()
        def state_invariants_hold(self) -> None:
            """COMP-2, DEAL-2, SCORE-2, SCORE-3, END-2, END-4, VAR-IT-3, TURN-1 and the rest:
            every state invariant of invariants.STATE_INVARIANTS."""
            if self.state is not None:
                inv.check_state(self.state, engine=engine)

        @checks("TURN-3", "ACT-SECRET-1", "ACT-COMP-1", "ACT-GIFT-2")
        @invariant()
        def legal_actions_are_right(self) -> None:
            """TURN-3, ACT-SECRET-1, ACT-COMP-1, ACT-GIFT-2: the legal actions are exactly those
            the rules allow, and each applies."""
            if self.state is not None:
                inv.legal_actions_are_exactly_what_the_rules_allow(self.state, engine=engine)
                inv.legal_actions_all_apply(self.state, engine=engine)

        @checks("INFO-1")
        @invariant()
        def views_are_right(self) -> None:
            """INFO-1: each player's view shows what they may know."""
            if self.state is not None:
                for player in (0, 1):
                    inv.views_show_what_a_player_may_know(self.state, player, engine=engine)

    HanamikojiGames.__qualname__ = HanamikojiGames.__name__
    return HanamikojiGames
