"""Maiko as the toolkit's core sees it: the :class:`MaikoGame` and its registered instance.

The registry (engine/core/registry.py) loads :data:`GAME` from here. Options (all JSON-friendly):

- ``players``: 2 to 4 (default 2).
- ``colours``: each player's colour, names separated by commas, player 0 first
  (``"pink,green"``); empty (the default) gives the first N colours in the book's order.
- ``removed_colour``: with 2 players, the unplayed colour that goes back to the box; empty (the
  default) gives the first unplayed colour in the book's order; must be empty with 3 or 4.

The first player is ``new_game``'s argument, as for every game of the core.

>>> import random
>>> config = GAME.configure({"players": 3})
>>> state = GAME.random_game(random.Random(5), config, max_decisions=5_000)
>>> GAME.outcome(state).reason in ("full-board", "static", "no-face-down-tile")
True
>>> GAME.read_record(GAME.to_record(state)) == state
True
"""

from __future__ import annotations

import random
from typing import Any, Callable, ClassVar, Mapping

from hanamikoji.engine.core.errors import InvalidActionError
from hanamikoji.engine.core.game import Game, Option, Outcome, end_text

from . import display, game, record, view
from .components import Config
from .game import Result, State


class MaikoGame(Game):
    """Maiko (2 to 4 players), rules in spec/maiko/rules.md."""

    name: ClassVar[str] = "maiko"
    title: ClassVar[str] = "Maiko"
    rulebooks: ClassVar[tuple[str, ...]] = ("004_924060d9c08aa9ba.txt",)
    options: ClassVar[tuple[Option, ...]] = (
        Option("players", 2, "how many players (MK-SETUP-1)", low=2, high=4),
        Option("colours", "", "each player's colour, comma-separated, player 0 first; empty: "
                              "the first N of white, purple, pink, green (MK-SETUP-1)"),
        Option("removed_colour", "", "2 players: the unplayed colour put back in the box; "
                                     "empty: the first unplayed one (MK-SETUP-4)",
               choices=("", "white", "purple", "pink", "green")),
    )
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    record_format: ClassVar[str] = record.FORMAT
    rule_prefix: ClassVar[str] = "MK-"
    spec_file: ClassVar[str] = "spec/maiko/rules.md"
    record_where: ClassVar[tuple[str, ...]] = ("turn", "step")
    length_unit: ClassVar[str] = "turns"
    queries_module: ClassVar[str | None] = "hanamikoji.spec.maiko.queries"
    where_module: ClassVar[str | None] = "hanamikoji.spec.maiko.where"
    sample_module: ClassVar[str | None] = "hanamikoji.properties.maiko.sample"

    # --- configuration

    def make_config(self, values: Mapping[str, Any]) -> Config:
        return record.make_config(dict(values))

    def options_of(self, config: Config) -> dict[str, Any]:
        return record.options_of(config)

    def num_players(self, config: Config) -> int:
        return config.players

    # --- the rules

    def new_game(self, config: Config, first_player: int = 0) -> State:
        return game.new_game(config, first_player)

    def config_of(self, state: State) -> Config:
        return state.config

    def current_player(self, state: State) -> int:
        return game.current_player(state)

    def legal_actions(self, state: State) -> tuple[Any, ...]:
        return game.legal_actions(state)

    def apply(self, state: State, decision: Any) -> State:
        return game.apply(state, decision)

    def random_game(self, rng: random.Random, config: Config, first_player: int = 0,
                    max_decisions: int | None = None) -> State:
        """The core's random game, played in one mutable draft (:func:`.game.random_game`)."""
        return game.random_game(config, rng, first_player, max_decisions)

    def chance_outcomes(self, state: State) -> None:
        """Too many layouts to list (60! / 2^27 / 6! ... of them): drawn by sample_chance."""
        return None

    def sample_chance(self, state: State, rng: random.Random) -> Any:
        if state.phase is not game.Phase.LAYOUT:
            raise InvalidActionError("not a chance node: the layout is already made",
                                     "MK-SETUP-5")
        return game.random_layout(state.config, rng)

    def observe(self, state: State, player: int) -> view.View:
        return view.observe(state, player)

    def is_terminal(self, state: State) -> bool:
        return state.phase is game.Phase.OVER

    def outcome(self, state: State) -> Outcome | None:
        result = state.result
        if result is None:
            return None
        return Outcome(result.winners, result.reason.value, result.scores)

    def history(self, state: State) -> tuple[Any, ...]:
        return state.history

    def length(self, state: State) -> tuple[str, int]:
        """Turns with at least one decision (a static end at the start of a turn does not
        count that turn)."""
        return "turns", (state.steps[-1].turn + 1) if state.steps else 0

    def first_player(self, state: State) -> int:
        return state.first_player

    # --- codecs and records

    def decision_to_json(self, decision: Any) -> Any:
        return record.decision_to_json(decision)

    def decision_from_json(self, obj: Any, path: str = "$") -> Any:
        return record.decision_from_json(obj, path)

    def decision_text(self, decision: Any) -> str:
        out = record.decision_to_json(decision)
        kind = out.pop("kind")
        if kind == "layout":
            return f"layout of {len(out['tiles'])} tiles"
        return kind + "".join(f" {k}={'none' if v is None else v}" for k, v in out.items())

    def decision_text_seen(self, before: State, decision: Any, after: State,
                           player: int) -> str:
        """:meth:`decision_text`, the same for every player: it names spaces and players, never
        a tile (a layout is its number of tiles), so a One-san look stays the looker's
        (MK-INFO-1, MK-TUTOR-ONESAN-2)."""
        return self.decision_text(decision)

    def view_to_json(self, v: view.View) -> Any:
        return view.view_to_json(v)

    def to_record(self, state: State) -> dict[str, Any]:
        return record.to_record(state)

    def read_record(self, obj: Any) -> State:
        return record.read_record(obj)

    def record_result_json(self, state: State) -> Any:
        return None if state.result is None else record.result_to_json(state.result)

    def quick_reader(self) -> Callable[[bytes], tuple[Result, int] | None]:
        """(the result, the turns) of a line that is a valid record in the form ``simulate
        --records`` writes (:func:`~.quick.judge_line`), else None."""
        from .quick import judge_line

        return judge_line

    def quick_outcome(self, key: tuple[Result, int]) -> tuple[str, Any]:
        result, turns = key
        outcome = Outcome(result.winners, result.reason.value, result.scores)
        return end_text(outcome, "turns", turns), record.result_to_json(result)

    def record_schema(self) -> dict[str, Any]:
        return record.record_schema()

    def render(self, state: State) -> list[str]:
        return display.render_game(state)

    def render_seen(self, state: State, player: int) -> list[str]:
        return display.render_game(state, player)

    # --- checking

    def ledger(self, state: State) -> Mapping[str, int]:
        return view.ledger(state)

    def expected_ledger(self, config: Config) -> Mapping[str, int]:
        return view.expected_ledger(config)

    def resample(self, state: State, player: int, rng: random.Random) -> State:
        return view.resample(state, player, rng)

    def view_text(self, v: view.View) -> str:
        """``view_to_json(v)`` as canonical text, built step by step: a view has perfect recall,
        and ``diff`` asks every player's view after every decision, so the log's text is
        extended instead of written again (:func:`.view.view_text`)."""
        return view.view_text(v)

    def view_changes(self) -> Any:
        """:meth:`Game.view_changes`, byte for byte: the log's new steps written alone
        (:class:`.changes.ViewChanges`)."""
        from .changes import ViewChanges

        if (type(self).view_to_json is not MaikoGame.view_to_json
                or type(self).observe is not MaikoGame.observe):
            return super().view_changes()  # a subclass's own views, through its own methods
        return ViewChanges()


GAME = MaikoGame()
