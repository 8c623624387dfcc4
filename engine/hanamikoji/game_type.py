"""Hanamikoji as a game of the core: the :class:`~hanamikoji.engine.core.game.Game` value that
the registry names (``hanamikoji.engine.hanamikoji.game_type:GAME``).

Everything here delegates to the engine's own functions, so the tools drive the very engine the
tests check, through the interface, at the engine's speed.

>>> from hanamikoji.engine.core import registry
>>> game = registry.get("hanamikoji")
>>> config = game.configure({"variant": "italian-three-rounds"})
>>> config.max_rounds, game.num_players(config)
(3, 2)
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Callable, Mapping

from hanamikoji.engine.core.game import Game, Option, Outcome

from . import cards as C
from . import game as G
from .codec import (ViewChanges, decision_json, decision_text, parse_decision, result_json,
                    view_json, view_text)
from .record import FORMAT, read_record, to_record
from .rules import PRESETS, STANDARD, Result, Rules

if TYPE_CHECKING:  # imported where used: a command's start imports only what it needs
    import random


class Hanamikoji(Game):
    """Two players, seven geisha, 21 item cards (spec/hanamikoji/rules.md)."""

    name = "hanamikoji"
    title = "Hanamikoji"
    rulebooks = ("000", "001", "002", "003")
    options = (Option("variant", STANDARD.name, "rules preset", choices=tuple(PRESETS)),)
    min_players = 2
    max_players = 2
    record_format = FORMAT
    rule_prefix = ""
    spec_file = "spec/hanamikoji/rules.md"
    record_where = ("round", "turn")
    length_unit = "rounds"
    simulate_shard = 1000  # some 12,000 uniform random games a second on one core
    queries_module = "hanamikoji.spec.hanamikoji.queries"
    where_module = "hanamikoji.spec.hanamikoji.where"
    sample_module = "hanamikoji.properties.hanamikoji.sample"

    # --- configuration --------------------------------------------------------------------

    def make_config(self, values: Mapping[str, Any]) -> Rules:
        return Rules.named(values["variant"])

    def options_of(self, config: Rules) -> dict[str, Any]:
        return {"variant": config.name}

    def num_players(self, config: Rules) -> int:
        return 2

    # --- the rules ------------------------------------------------------------------------

    def new_game(self, config: Rules, first_player: int = 0) -> G.State:
        return G.new_game(config, first_player)

    def config_of(self, state: G.State) -> Rules:
        return state.rules

    def first_player(self, state: G.State) -> int:
        return state.first_player

    def current_player(self, state: G.State) -> int:
        return G.current_player(state)

    def legal_actions(self, state: G.State) -> tuple[Any, ...]:
        return G.legal_actions(state)

    def apply(self, state: G.State, decision: Any) -> G.State:
        return G.apply(state, decision)

    def sample_chance(self, state: G.State, rng: random.Random) -> Any:
        """DEAL-1..4: the round's deal, shuffled by ``rng`` (:func:`~.game.random_deal`)."""
        return G.random_deal(rng)

    def observe(self, state: G.State, player: int) -> G.View:
        return G.observe(state, player)

    def is_terminal(self, state: G.State) -> bool:
        return state.phase is G.Phase.OVER

    def outcome(self, state: G.State) -> Outcome | None:
        result = state.result
        if result is None:
            return None
        winners = (0, 1) if result.winner is None else (result.winner,)
        return Outcome(winners, result.reason.value)

    def history(self, state: G.State) -> tuple[Any, ...]:
        return state.history

    def length(self, state: G.State) -> tuple[str, int]:
        return "rounds", state.round + 1

    def random_game(self, rng: random.Random, config: Rules, first_player: int = 0,
                    max_decisions: int | None = None) -> G.State:
        if max_decisions is None:  # the engine's own loop: the same draws, a little faster
            return G.random_game(rng, config, first_player)
        return super().random_game(rng, config, first_player, max_decisions)

    # --- codecs ---------------------------------------------------------------------------

    def decision_to_json(self, decision: Any) -> Any:
        return decision_json(decision)

    def decision_from_json(self, obj: Any, path: str = "$") -> Any:
        return parse_decision(obj, path)

    def decision_text(self, decision: Any) -> str:
        return decision_text(decision)

    def decision_text_seen(self, before: G.State, decision: Any, after: G.State,
                           player: int) -> str:
        from .display import seen_decision_text

        return seen_decision_text(before, decision, after, player)

    def view_to_json(self, view: G.View) -> Any:
        return view_json(view)

    def view_text(self, view: G.View) -> str:
        """:meth:`Game.view_text`, byte for byte, from the texts of the view's parts
        (:func:`.codec.view_text`): the oracle renders every view at every step."""
        return view_text(view)

    def view_changes(self) -> Any:
        """:meth:`Game.view_changes`, byte for byte, from the texts of the view's parts
        and read from the state (:class:`.codec.ViewChanges`); a subclass that sees or writes
        views its own way gets the generic code, over its own methods."""
        if (type(self).observe is not Hanamikoji.observe
                or type(self).view_to_json is not Hanamikoji.view_to_json):
            return super().view_changes()
        return ViewChanges()

    def record_result_json(self, state: G.State) -> Any:
        return result_json(state.result)

    def describe_end(self, state: G.State) -> str:
        assert state.result is not None
        return _end_text(state.result, state.round + 1)

    def quick_reader(self) -> Callable[[bytes], tuple[Result, int] | None]:
        """(result, rounds) of a line that is a valid record in the form ``simulate
        --records`` writes (:func:`~.quick.judge_line`), else None."""
        from .quick import judge_line

        return judge_line

    def quick_outcome(self, key: tuple[Result, int]) -> tuple[str, Any]:
        result, rounds = key
        return _end_text(result, rounds), result_json(result)

    def to_record(self, state: G.State) -> dict[str, Any]:
        return to_record(state)

    def read_record(self, obj: Any) -> G.State:
        return read_record(obj)

    def record_schema(self) -> dict[str, Any]:
        return json.loads(schema_text())

    def record_schema_text(self) -> str:
        return schema_text()

    def render(self, state: G.State) -> list[str]:
        from .display import render_game

        return render_game(state)

    def render_seen(self, state: G.State, player: int) -> list[str]:
        from .display import render_game

        return render_game(state, player)

    # --- checking ---------------------------------------------------------------------------

    def ledger(self, state: G.State) -> dict[str, int]:
        """COMP-1, COMP-2: every item card of each geisha, wherever it lies in the round
        (removed, hands, deck, secrets, trade-offs, sides, a pending offer). Between rounds
        and at the end every card is back in the box (UPDATE-1)."""
        if state.phase in (G.Phase.DEAL, G.Phase.OVER):
            return {f"geisha {g}": n for g, n in enumerate(C.FULL_DECK)}
        found = list(C.EMPTY)
        if state.removed is not None:
            found[state.removed] += 1
        for places in (state.hands, state.secrets, state.trade_offs, state.sides):
            for multiset in places:
                found = [a + b for a, b in zip(found, multiset)]
        for card in state.deck:
            found[card] += 1
        if state.pending is not None:
            for card in state.pending.cards:
                found[card] += 1
        return {f"geisha {g}": n for g, n in enumerate(found)}

    def expected_ledger(self, config: Rules) -> dict[str, int]:
        return {f"geisha {g}": n for g, n in enumerate(C.FULL_DECK)}

    def resample(self, state: G.State, player: int, rng: random.Random) -> G.State:
        """INFO-1, INFO-2: the cards hidden from ``player`` permuted among the places they
        cannot see, the game replayed (:func:`~.resample.resample`)."""
        from .resample import resample

        return resample(state, player, lambda cards: rng.sample(cards, len(cards)))


def _end_text(result: Result, rounds: int) -> str:
    """A valid record's verdict: ``a win for player 1 by charm after 2 rounds``."""
    return f"{result.describe()} after {rounds} round{'s' if rounds > 1 else ''}"


def schema_text() -> str:
    """spec/hanamikoji/record.schema.json: the JSON Schema of ``hanamikoji-record/1``."""
    from importlib import resources

    return resources.files("hanamikoji.spec.hanamikoji").joinpath(
        "record.schema.json").read_text(encoding="utf-8")


GAME = Hanamikoji()
