"""The generic properties: each generic invariant paired with the strategy that feeds it, for any
game.

A :class:`Property` draws its input from a game (a played game, a state and a player, a
finished game...) and runs its invariant; :meth:`Property.test` turns it into a Hypothesis test
of one game. The reproducibility check runs fresh processes and is not a Hypothesis property:
:func:`~.invariants.seeded_games_are_reproducible`.

>>> from hypothesis import settings
>>> from hanamikoji.engine.core import registry
>>> game = registry.get()  # the default game, as an example
>>> PROPERTIES_BY_NAME["ledger-is-conserved"].test(
...     game, settings=settings(max_examples=3, database=None, deadline=None))()
"""

from __future__ import annotations

import random
from typing import Any, Callable

import attrs
from hypothesis import given, settings as Settings, strategies as st

from hanamikoji.engine.core.game import Game

from . import invariants as inv
from .strategies import (
    Playthrough,
    finished_games,
    games,
    other_decisions,
    players,
    playthroughs,
    seeds,
)

__all__ = ["Property", "PROPERTIES", "PROPERTIES_BY_NAME", "run_all"]

Check = Callable[[st.DataObject, Game], None]


@attrs.frozen
class Property:
    """A named generic property: ``check`` draws its input for a game from ``data`` and runs
    ``invariant``; ``drawn`` says what the input is, for people."""

    name: str
    invariant: Callable[..., None]
    check: Check = attrs.field(repr=False)
    drawn: str = "state"

    @property
    def summary(self) -> str:
        """What the invariant says: its docstring's first paragraph."""
        return " ".join((self.invariant.__doc__ or "").split("\n\n")[0].split())

    def test(self, game: Game, *, settings: Settings | None = None) -> Callable[[], None]:
        """A Hypothesis test of this property on ``game``; call it to run it. Settings default
        to the loaded profile's."""
        check = self.check

        def property_holds(data: st.DataObject) -> None:
            check(data, game)

        property_holds.__name__ = property_holds.__qualname__ = self.name.replace("-", "_")
        test = given(st.data())(property_holds)
        return settings(test) if settings is not None else test


# --- inputs ----------------------------------------------------------------------------------


def _played(data: st.DataObject, game: Game) -> Playthrough:
    return data.draw(playthroughs(game), label="game")


def _on_final_state(invariant: Callable[[Game, Any], None]) -> Check:
    def check(data: st.DataObject, game: Game) -> None:
        invariant(game, _played(data, game).final)
    return check


def _on_every_state(invariant: Callable[[Game, Any], None]) -> Check:
    def check(data: st.DataObject, game: Game) -> None:
        for state in _played(data, game).states:
            invariant(game, state)
    return check


def _purity(data: st.DataObject, game: Game) -> None:
    for before, decision, _ in _played(data, game).steps():
        inv.apply_leaves_its_input_unchanged(game, before, decision)


def _history(data: st.DataObject, game: Game) -> None:
    for before, decision, after in _played(data, game).steps():
        inv.history_records_each_decision(game, before, decision, after)


def _on_finished_games(invariant: Callable[[Game, Any], None]) -> Check:
    def check(data: st.DataObject, game: Game) -> None:
        played = data.draw(finished_games(game), label="game")
        if played.is_over:  # else games_end_within_a_bound says what is wrong
            invariant(game, played.final)
    return check


def _every_state_of_finished_games(data: st.DataObject, game: Game) -> None:
    for state in data.draw(finished_games(game), label="game").states:
        inv.players_and_outcomes_are_well_formed(game, state)


def _other_decisions(data: st.DataObject, game: Game) -> None:
    played = _played(data, game)
    for _ in range(data.draw(st.integers(1, 4), label="tries")):
        decision, kind = data.draw(other_decisions(game, played), label="decision")
        inv.other_decisions_are_refused(game, played.final, decision, kind=kind)


def _views(data: st.DataObject, game: Game) -> None:
    played = _played(data, game)
    player = data.draw(players(game, played.final), label="player")
    rng = random.Random(data.draw(seeds(), label="seed"))
    inv.views_leak_nothing(game, played.final, player, rng)


def _ends(data: st.DataObject, game: Game) -> None:
    start = data.draw(games(game), label="start")
    rng = random.Random(data.draw(seeds(), label="seed"))
    inv.games_end_within_a_bound(game, start.config, start.first_player, rng)


def _legal_actions_all_apply(data: st.DataObject, game: Game) -> None:
    played = _played(data, game)
    inv.legal_actions_all_apply(game, played.final,
                                rng=random.Random(data.draw(seeds(), label="seed")))


# --- the catalogue ---------------------------------------------------------------------------

PROPERTIES: tuple[Property, ...] = (
    Property("apply-leaves-its-input-unchanged", inv.apply_leaves_its_input_unchanged,
             _purity, "game, every step"),
    Property("history-records-each-decision", inv.history_records_each_decision,
             _history, "game, every step"),
    Property("legal-actions-all-apply", inv.legal_actions_all_apply, _legal_actions_all_apply,
             "state and a seed"),
    Property("legal-actions-are-sorted-and-distinct", inv.legal_actions_are_sorted_and_distinct,
             _on_final_state(inv.legal_actions_are_sorted_and_distinct)),
    Property("other-decisions-are-refused", inv.other_decisions_are_refused, _other_decisions,
             "state and decisions met elsewhere or no decision at all"),
    Property("ledger-is-conserved", inv.ledger_is_conserved,
             _on_every_state(inv.ledger_is_conserved), "game, every state"),
    Property("players-and-outcomes-are-well-formed", inv.players_and_outcomes_are_well_formed,
             _every_state_of_finished_games, "whole game, every state"),
    Property("games-end-within-a-bound", inv.games_end_within_a_bound, _ends,
             "options, first player and a seed"),
    Property("decisions-and-positions-round-trip", inv.decisions_and_positions_round_trip,
             _on_final_state(inv.decisions_and_positions_round_trip)),
    Property("records-round-trip", inv.records_round_trip,
             _on_finished_games(inv.records_round_trip), "whole game"),
    Property("records-follow-their-schema", inv.records_follow_their_schema,
             _on_finished_games(inv.records_follow_their_schema), "whole game"),
    Property("views-leak-nothing", inv.views_leak_nothing, _views,
             "state, player and a seed for what they cannot see"),
)

PROPERTIES_BY_NAME: dict[str, Property] = {p.name: p for p in PROPERTIES}


def run_all(game: Game, *, settings: Settings | None = None,
            names: tuple[str, ...] | None = None) -> None:
    """Run every generic property (or those of ``names``) on ``game``; the first failure
    raises."""
    for prop in PROPERTIES:
        if names is None or prop.name in names:
            prop.test(game, settings=settings)()
