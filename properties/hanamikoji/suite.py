"""The property suite: each invariant paired with the strategy that feeds it.

A :class:`Property` draws its input (a game state, a whole game, a state and a player...) and
runs its invariant; :meth:`Property.test` turns it into a Hypothesis test against any engine.
The pytest tests in this folder, :func:`.sample.run_sample` and the broken-engine tests in
tests/ all run these same properties.

>>> prop = PROPERTIES_BY_NAME["cards-are-conserved"]
>>> prop.rules
('COMP-2', 'DEAL-1', 'ACT-GIFT-1', 'ACT-COMP-1', 'UPDATE-1')
>>> from hypothesis import settings
>>> prop.test(settings=settings(max_examples=5, database=None, deadline=None))()
"""

from __future__ import annotations

import re
from typing import Any, Callable

import attrs
from hypothesis import given, settings as Settings, strategies as st

from hanamikoji.engine.hanamikoji import ITALIAN_THREE_ROUNDS

from . import invariants as inv
from .engine_api import REFERENCE, Engine
from hanamikoji.properties.profiles import SUPPRESSED
from .strategies import decisions, first_players, games, well_formed_decisions

__all__ = ["Property", "PROPERTIES", "PROPERTIES_BY_NAME", "SUPPRESSED"]

Check = Callable[[st.DataObject, Engine], None]
_RULE_LIST = re.compile(r"^(?:[A-Z]+(?:-[A-Z]+)*-[0-9]+, )*[A-Z]+(?:-[A-Z]+)*-[0-9]+: ")


@attrs.frozen
class Property:
    """A named property: ``check`` draws its input from ``data`` and runs ``invariant``."""

    name: str
    invariant: Callable[..., None]
    check: Check = attrs.field(repr=False)
    #: What the input is, for people: "state", "game", "state and player"...
    drawn: str = "state"

    @property
    def rules(self) -> tuple[str, ...]:
        """The rule IDs the invariant cites."""
        return inv.rule_ids(self.invariant)

    @property
    def summary(self) -> str:
        """What the invariant says, without its list of rule IDs: its docstring's summary."""
        text = " ".join((self.invariant.__doc__ or "").split("\n\n")[0].split())
        return _RULE_LIST.sub("", text, count=1)

    def test(self, *, engine: Engine = REFERENCE,
             settings: Settings | None = None) -> Callable[[], None]:
        """A Hypothesis test of this property against ``engine``; call it to run it. Settings
        default to the loaded profile's."""
        check = self.check

        def property_holds(data: st.DataObject) -> None:
            check(data, engine)

        property_holds.__name__ = property_holds.__qualname__ = self.name.replace("-", "_")
        test = given(st.data())(property_holds)
        return settings(test) if settings is not None else test


# --- inputs ------------------------------------------------------------------------------------


#: Decisions played to reach a state: a round is 13, so up to four or five rounds.
MAX_STEPS = 60


def _state(data: st.DataObject, engine: Engine) -> Any:
    """A state reached by play; the failing example prints as the game that reached it."""
    return data.draw(games(engine=engine, max_steps=MAX_STEPS), label="game").final


def _on_states(invariant: Callable[..., None], *, takes_engine: bool = False) -> Check:
    def check(data: st.DataObject, engine: Engine) -> None:
        state = _state(data, engine)
        if takes_engine:
            invariant(state, engine=engine)
        else:
            invariant(state)
    return check


def _on_final_states(invariant: Callable[..., None], **options: Any) -> Check:
    def check(data: st.DataObject, engine: Engine) -> None:
        game = data.draw(games(engine=engine, **options), label="game")
        invariant(game.final)
    return check


def _on_steps(invariant: Callable[..., None]) -> Check:
    def check(data: st.DataObject, engine: Engine) -> None:
        game = data.draw(games(engine=engine), label="game")
        for before, decision, after in game.steps():
            invariant(before, decision, after, engine=engine)
    return check


def _on_games(invariant: Callable[..., None]) -> Check:
    def check(data: st.DataObject, engine: Engine) -> None:
        invariant(data.draw(games(engine=engine), label="game"))
    return check


def _on_state_and_player(invariant: Callable[..., None]) -> Check:
    def check(data: st.DataObject, engine: Engine) -> None:
        state = _state(data, engine)
        player = data.draw(first_players(), label="player")
        invariant(state, player, engine=engine)
    return check


def _on_state_and_decision(invariant: Callable[..., None], decisions_in: Callable[..., Any]) -> Check:
    def check(data: st.DataObject, engine: Engine) -> None:
        state = _state(data, engine)
        strategy = decisions_in(state, engine)
        if strategy.is_empty:
            return  # the end of the game: nothing to apply
        invariant(state, data.draw(strategy, label="decision"), engine=engine)
    return check


def _views_leak_nothing(data: st.DataObject, engine: Engine) -> None:
    state = _state(data, engine)
    player = data.draw(first_players(), label="player")

    def shuffle(values: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(data.draw(st.permutations(values), label="hidden cards, reordered"))

    inv.views_leak_nothing(state, player, shuffle, engine=engine)


# --- the catalogue -----------------------------------------------------------------------------


def _state_property(name: str, invariant: Callable[..., None], *,
                    takes_engine: bool = False) -> Property:
    """A property of one reachable state: the most common kind."""
    return Property(name, invariant, _on_states(invariant, takes_engine=takes_engine))


_ITALIAN = ITALIAN_THREE_ROUNDS

PROPERTIES: tuple[Property, ...] = (
    _state_property("marker-row-is-well-formed", inv.marker_row_is_well_formed),
    _state_property("cards-are-conserved", inv.cards_are_conserved),
    _state_property("deck-is-the-rest-of-the-deal", inv.deck_is_the_rest_of_the_deal),
    _state_property("hands-follow-draws-and-plays", inv.hands_follow_draws_and_plays),
    _state_property("actions-are-used-once-per-round", inv.actions_are_used_once_per_round),
    _state_property("face-down-cards-follow-the-actions", inv.face_down_cards_follow_the_actions),
    _state_property("sides-follow-the-answers", inv.sides_follow_the_answers),
    _state_property("scoring-accounts-for-21-cards", inv.scoring_accounts_for_21_cards),
    _state_property("scored-sides-follow-the-round", inv.scored_sides_follow_the_round),
    _state_property("markers-move-only-to-the-stronger-side",
                    inv.markers_move_only_to_the_stronger_side),
    _state_property("game-ends-at-the-first-goal", inv.game_ends_at_the_first_goal),
    Property("result-agrees-with-the-markers", inv.result_agrees_with_the_markers,
             _on_final_states(inv.result_agrees_with_the_markers), "game"),
    Property("round-limit-decides-by-charm-then-highest-geisha",
             inv.round_limit_decides_by_charm_then_highest_geisha,
             _on_final_states(inv.round_limit_decides_by_charm_then_highest_geisha,
                              rules=_ITALIAN, planned=True), "Italian game, planned rounds"),
    _state_property("turns-follow-the-order", inv.turns_follow_the_order, takes_engine=True),
    Property("steps-follow-the-turn-order", inv.step_follows_the_turn_order,
             _on_steps(inv.step_follows_the_turn_order), "game, every step"),
    Property("steps-move-exactly-the-played-cards", inv.step_moves_exactly_the_played_cards,
             _on_steps(inv.step_moves_exactly_the_played_cards), "game, every step"),
    _state_property("legal-actions-are-exactly-what-the-rules-allow",
                    inv.legal_actions_are_exactly_what_the_rules_allow, takes_engine=True),
    _state_property("legal-actions-all-apply", inv.legal_actions_all_apply, takes_engine=True),
    Property("illegal-decisions-are-refused", inv.illegal_decisions_are_refused,
             _on_state_and_decision(inv.illegal_decisions_are_refused,
                                    lambda state, engine: well_formed_decisions()),
             "state and any decision"),
    Property("apply-leaves-its-input-unchanged", inv.apply_leaves_its_input_unchanged,
             _on_state_and_decision(inv.apply_leaves_its_input_unchanged,
                                    lambda state, engine: decisions(state, engine=engine)),
             "state and a legal decision"),
    Property("history-is-the-decisions-played", inv.history_is_the_decisions_played,
             _on_games(inv.history_is_the_decisions_played), "game"),
    _state_property("records-replay-to-the-same-game", inv.records_replay_to_the_same_game, takes_engine=True),
    Property("views-show-what-a-player-may-know", inv.views_show_what_a_player_may_know,
             _on_state_and_player(inv.views_show_what_a_player_may_know), "state and player"),
    Property("views-leak-nothing", inv.views_leak_nothing, _views_leak_nothing,
             "state, player and a reshuffle of what they cannot see"),
)

PROPERTIES_BY_NAME: dict[str, Property] = {p.name: p for p in PROPERTIES}
