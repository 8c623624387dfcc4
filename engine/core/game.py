"""The game interface: what a game supplies so that every tool of the toolkit can drive it.

A game is a value (OpenSpiel's pattern): one object that carries the game's type information
(name, rulebooks, options, player counts, record format, spec file) and answers every question
about a state (``current_player``, ``legal_actions``, ``apply``, ``observe``, ``outcome``...).
States are the game's own immutable values; the core never looks inside them. Players are
numbered ``0 .. n-1``; :data:`CHANCE` and :data:`TERMINAL` are the two other values of
``current_player``. The core never imports a game: games register themselves by name in
:mod:`.registry`, and the tools reach them only through it.

A game supplies only what is truly its own: its rules (``new_game``, ``legal_actions``,
``apply``, the chance outcomes), what a player sees (``observe``), its codecs (JSON forms of
decisions, views, outcomes and positions; its record format and JSON Schema), its display for
``play``, its component ledger, its resampler of hidden information for the leak check, and its
spec file. Everything else (playing, simulating, validating, perft, vectors, diff, the generic
properties) is the core's.
"""

from __future__ import annotations

import abc
import re
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Iterator, Mapping, Sequence

import attrs

from .codec import ViewChanges, dumps
from .errors import GameError, InvalidActionError, OptionError

if TYPE_CHECKING:  # annotations only: a command's start imports neither
    import pathlib
    import random

#: ``current_player`` at a chance node and at the end of the game (OpenSpiel's values).
CHANCE = -1
TERMINAL = -4

JSON = Any


def player_json(player: int) -> int | str:
    """``current_player`` as a player number, ``"chance"`` or ``"terminal"``."""
    if player == CHANCE:
        return "chance"
    if player == TERMINAL:
        return "terminal"
    return player


@attrs.frozen
class Option:
    """One option of a game, with its default and the values it takes.

    ``choices`` lists the values for a closed option (``variant``); ``low``/``high`` bound a
    whole-number option (``players``). Values are parsed from text by :meth:`parse` (the CLI)
    and checked by :meth:`check` (the Python API, records).
    """

    name: str
    default: Any
    help: str = ""
    choices: tuple[Any, ...] | None = None
    low: int | None = None
    high: int | None = None

    def check(self, value: Any) -> Any:
        """``value`` if this option takes it, else :class:`OptionError` naming what it takes."""
        if self.choices is not None:
            if value not in self.choices or isinstance(value, bool):
                raise OptionError(f"option {self.name} takes {self.describe()}, not {value!r}")
            return value
        if self.low is not None or self.high is not None:
            if not isinstance(value, int) or isinstance(value, bool):
                raise OptionError(f"option {self.name} takes a whole number, not {value!r}")
            if (self.low is not None and value < self.low) or (
                    self.high is not None and value > self.high):
                raise OptionError(f"option {self.name} must be {self.describe()}, not {value}")
        return value

    def parse(self, text: str) -> Any:
        """The value written ``text`` on a command line."""
        if self.choices is not None:
            for choice in self.choices:
                if str(choice) == text:
                    return choice
            raise OptionError(f"option {self.name} takes {self.describe()}, not {text!r}")
        if self.low is not None or self.high is not None:
            if not re.fullmatch(r"[ \t]*[+-]?[0-9]{1,9}[ \t]*", text):  # int() takes "٣" too
                raise OptionError(f"option {self.name} takes a whole number, not {text!r}")
            return self.check(int(text))
        return text

    def describe(self) -> str:
        if self.choices is not None:
            return "one of: " + ", ".join('""' if c == "" else str(c) for c in self.choices)
        if self.low is not None and self.high is not None:
            return f"from {self.low} to {self.high}"
        if self.low is not None:
            return f">= {self.low}"
        if self.high is not None:
            return f"<= {self.high}"
        return "any text"


@attrs.frozen
class Outcome:
    """The end of a game, for any game: who won (every winner of a shared victory), why, and
    each player's score where the game has scores."""

    winners: tuple[int, ...]
    reason: str
    scores: tuple[int, ...] | None = None

    def describe(self) -> str:
        """For people: ``a win for player 1 by charm``, ``a victory shared by players 0, 2``."""
        if len(self.winners) == 1:
            return f"a win for player {self.winners[0]} by {self.reason}"
        return (f"a victory shared by players {', '.join(map(str, self.winners))} "
                f"by {self.reason}")


def end_text(outcome: Outcome | None, unit: str, count: int) -> str:
    """A valid record's verdict (:meth:`Game.describe_end`): ``a win for player 0 by static
    after 329 turns``."""
    return (f"{outcome.describe() if outcome else 'unfinished'} after {count} "
            f"{unit.removesuffix('s') if count == 1 else unit}")


class Game(abc.ABC):
    """A game as the toolkit sees it. Subclass it once per game; one instance is registered.

    Configuration: :meth:`configure` turns options (a mapping of option name to value, missing
    ones taking their defaults) into the game's own frozen configuration value, which every
    other method receives (through the state or as an argument). :meth:`options_of` is its
    inverse, for records and reports.
    """

    #: The registry name (``--game NAME``) and the name for people.
    name: ClassVar[str]
    title: ClassVar[str]
    #: The rulebooks (files of ../shared/seeds/) the spec cites.
    rulebooks: ClassVar[tuple[str, ...]]
    options: ClassVar[tuple[Option, ...]]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    #: The ``format`` field of the game's records (``validate`` recognises a game by it).
    record_format: ClassVar[str]
    #: Every rule ID of the game's spec starts with this (Hanamikoji's IDs have none).
    rule_prefix: ClassVar[str] = ""
    #: The game's spec file, relative to the checkout (``spec coverage`` reads it).
    spec_file: ClassVar[str]
    #: Where an illegal record broke a rule: the keys of :attr:`IllegalRecordError.where`, in
    #: the order verdicts print them (Hanamikoji: round, turn).
    record_where: ClassVar[tuple[str, ...]] = ()
    #: The game's parts in the other rooms, named (never imported here) so that the core of
    #: each room finds them: the z3 query catalogue (a module with ``CATALOGUE``, ``by_name``
    #: and ``QUERY_BUDGET_SECONDS``), the ad-hoc questions (a module with ``ask(expression,
    #: **options)`` and ``TERMS``: ``query --where``) and the property sample (a module with
    #: ``run_sample``).
    queries_module: ClassVar[str | None] = None
    where_module: ClassVar[str | None] = None
    sample_module: ClassVar[str | None] = None
    #: Games per shard of a ``simulate`` campaign when ``--shard-size`` is not given: about a
    #: tenth of a second of play on one core, so that handing a shard out and taking its output
    #: back costs little beside playing it, and two workers still share a short run evenly.
    simulate_shard: ClassVar[int] = 100

    # --- configuration --------------------------------------------------------------------

    def configure(self, options: Mapping[str, Any] | None = None) -> Any:
        """The configuration value for ``options``; :class:`OptionError` for an unknown
        option or a value it does not take."""
        options = dict(options or {})
        known = {option.name: option for option in self.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise OptionError(f"game {self.name} has no option {unknown[0]!r}; its options: "
                              + (", ".join(known) or "none"))
        values = {name: option.check(options.get(name, option.default))
                  for name, option in known.items()}
        return self.make_config(values)

    @abc.abstractmethod
    def make_config(self, values: Mapping[str, Any]) -> Any:
        """The configuration value from every option's checked value."""

    @abc.abstractmethod
    def options_of(self, config: Any) -> dict[str, Any]:
        """Every option's value in ``config`` (the inverse of :meth:`configure`)."""

    @abc.abstractmethod
    def num_players(self, config: Any) -> int:
        """How many players ``config`` seats."""

    # --- the rules ------------------------------------------------------------------------

    @abc.abstractmethod
    def new_game(self, config: Any, first_player: int = 0) -> Any:
        """The state before the first decision (often a chance node: the deal)."""

    @abc.abstractmethod
    def config_of(self, state: Any) -> Any:
        """The configuration ``state`` is played under."""

    @abc.abstractmethod
    def current_player(self, state: Any) -> int:
        """The player to decide (``0 .. n-1``), :data:`CHANCE` or :data:`TERMINAL`."""

    @abc.abstractmethod
    def legal_actions(self, state: Any) -> tuple[Any, ...]:
        """The decisions the current player may take, sorted, one per distinct outcome; empty
        at a chance node and at the end."""

    @abc.abstractmethod
    def apply(self, state: Any, decision: Any) -> Any:
        """The state after ``decision`` (a player's or chance's); never changes ``state``.

        Raises :class:`~.errors.IllegalActionError` (with the rule ID) for a decision the
        rules forbid here, :class:`~.errors.InvalidActionError` for one that is not a decision
        of this game at all.
        """

    def chance_outcomes(self, state: Any) -> tuple[tuple[Any, float], ...] | None:
        """The outcomes of the chance node ``state`` with their probabilities, or None when
        there are too many to list (then :meth:`sample_chance` draws one)."""
        return None

    @abc.abstractmethod
    def sample_chance(self, state: Any, rng: random.Random) -> Any:
        """One outcome of the chance node ``state``, drawn from ``rng`` with its probability.
        The tools never reach into a game's shuffle: they call this."""

    @abc.abstractmethod
    def observe(self, state: Any, player: int) -> Any:
        """What ``player`` may know: a value compared with ``==``; never what the rules hide
        from them."""

    def is_terminal(self, state: Any) -> bool:
        return self.current_player(state) == TERMINAL

    @abc.abstractmethod
    def outcome(self, state: Any) -> Outcome | None:
        """The end of the game (None while it goes on)."""

    @abc.abstractmethod
    def history(self, state: Any) -> tuple[Any, ...]:
        """Every decision from :meth:`new_game` to ``state``, chance outcomes included."""

    #: The unit of :meth:`length` (``simulate --max-turns`` counts in it).
    length_unit: ClassVar[str] = "decisions"

    def length(self, state: Any) -> tuple[str, int]:
        """How long the game has lasted, in the game's own unit (:attr:`length_unit`), for
        summaries: Hanamikoji counts rounds, a turn-based game turns. The default counts
        decisions."""
        return self.length_unit, len(self.history(state))

    def max_decisions(self, config: Any) -> int | None:
        """The most decisions (chance outcomes included) any game under ``config`` takes, or
        None when the rules set no bound (the generic properties then use a bound of their
        own, properties/core/)."""
        return None

    # --- codecs ---------------------------------------------------------------------------

    @abc.abstractmethod
    def decision_to_json(self, decision: Any) -> JSON:
        """A decision (or chance outcome) as JSON."""

    @abc.abstractmethod
    def decision_from_json(self, obj: JSON, path: str = "$") -> Any:
        """The decision written ``obj``; :class:`~.errors.InvalidActionError` naming ``path``
        when it is not one."""

    def decision_text(self, decision: Any) -> str:
        """A decision for people (one short line)."""
        import json

        return json.dumps(self.decision_to_json(decision), separators=(",", ":"))

    def decision_text_seen(self, before: Any, decision: Any, after: Any, player: int) -> str:
        """``decision``, taken at ``before`` and giving ``after``, for people as ``player`` saw
        it: made from what their :meth:`observe` views show, so nothing hidden from them
        appears (a viewer's decision list in that player's view). The default says nothing of a
        chance outcome (a deal is hidden in most games) and gives a player's decision as
        :meth:`decision_text` does; a game whose chance outcomes can be told, or whose players
        decide out of sight, overrides it. The viewer's tests check each game's texts against
        :meth:`resample`: a game the player cannot tell apart gives the same texts."""
        if self.current_player(before) == CHANCE:
            return "a chance outcome"
        return self.decision_text(decision)

    @abc.abstractmethod
    def view_to_json(self, view: Any) -> JSON:
        """A view (what :meth:`observe` returns) as JSON."""

    def view_text(self, view: Any) -> str:
        """``view_to_json(view)`` as canonical text (:func:`.codec.dumps`: sorted keys, no
        spaces), the text the oracle compares. A game whose views grow with the game (a log with
        perfect recall) may build it step by step; it must be byte for byte the same."""
        return dumps(self.view_to_json(view))

    def view_changes(self) -> Any:
        """A fresh :class:`.codec.ViewChanges` for one player's views in one game: its
        ``text(view)`` (or ``text_at(state, player)``) gives each view, in turn, as what
        changed since the one before (protocol 4's ``view_changes``). This one writes it from
        :meth:`view_to_json`; a game whose views are large and change little may keep its own
        (the same text, byte for byte, as a test checks for the built-in games)."""
        return ViewChanges(self.view_to_json, self.observe)

    def outcome_to_json(self, outcome: Outcome | None) -> JSON:
        if outcome is None:
            return None
        out: dict[str, Any] = {"winners": list(outcome.winners), "reason": outcome.reason}
        if outcome.scores is not None:
            out["scores"] = list(outcome.scores)
        return out

    def position_to_json(self, state: Any) -> JSON:
        """A position: the options, the first player and every decision from the start."""
        return {"game": self.name, "options": self.options_of(self.config_of(state)),
                "first_player": self.first_player(state),
                "history": [self.decision_to_json(d) for d in self.history(state)]}

    def position_from_json(self, obj: JSON, path: str = "$") -> Any:
        """The state a position names, replayed by the engine."""
        if not isinstance(obj, dict):
            raise InvalidActionError(f"{path}: expected a position object")
        config = self.configure(obj.get("options") or {})
        first = obj.get("first_player", 0)
        history = obj.get("history")
        if not isinstance(history, list):
            raise InvalidActionError(f"{path}.history: expected a list of decisions")
        state = self.new_game(config, first)
        for index, item in enumerate(history):
            state = self.apply(state, self.decision_from_json(item, f"{path}.history[{index}]"))
        return state

    @abc.abstractmethod
    def first_player(self, state: Any) -> int:
        """The player who began the game."""

    @abc.abstractmethod
    def to_record(self, state: Any) -> dict[str, Any]:
        """The game's full-information record (JSON), as its record format says."""

    @abc.abstractmethod
    def read_record(self, obj: JSON) -> Any:
        """The final state of the game ``obj`` records, replayed by the engine.

        Raises :class:`RecordError` subclasses: :class:`MalformedRecordError` with a JSON path
        when ``obj`` is not a record, :class:`IllegalRecordError` with the rule and where it
        was broken when it records something the rules forbid.
        """

    def quick_reader(self) -> Callable[[bytes], Any] | None:
        """For ``validate``'s hot loop: a function of one line of JSON Lines (its end
        included) that gives a hashable key of the outcome when it can tell at a glance that
        the line is a valid record of the game, and None otherwise (the line is then judged the
        full way, :meth:`read_record`). It may give a key only for a line the full way judges
        valid, and :meth:`quick_outcome` of the key must say what the full way says of it.
        None (the default): every line is judged the full way."""
        return None

    def quick_outcome(self, key: Any) -> tuple[str, JSON]:
        """What a valid record's verdict says of the outcome :meth:`quick_reader` keyed:
        :meth:`describe_end` and :meth:`record_result_json` of its final state."""
        raise NotImplementedError(f"{self.name} has no quick reader")

    def record_result_json(self, state: Any) -> JSON:
        """The result of the finished game ``state`` as the game's records and verdicts write
        it (by default :meth:`outcome_to_json`)."""
        return self.outcome_to_json(self.outcome(state))

    def describe_end(self, state: Any) -> str:
        """One line for a valid record's verdict: the result and how long the game lasted."""
        return end_text(self.outcome(state), *self.length(state))

    @abc.abstractmethod
    def record_schema(self) -> dict[str, Any]:
        """The JSON Schema of the game's record format."""

    def record_schema_text(self) -> str:
        """The schema as ``hanamikoji schema`` prints it (a game that ships a schema file
        returns the file's text, so the bytes are the file's)."""
        import json

        return json.dumps(self.record_schema(), indent=2) + "\n"

    @abc.abstractmethod
    def render(self, state: Any) -> list[str]:
        """The whole game up to ``state``, for a person (what ``play`` prints)."""

    def render_seen(self, state: Any, player: int) -> list[str] | None:
        """The display of :meth:`render` as ``player`` saw the game: built from their
        :meth:`observe` views only, so nothing hidden from them appears (``show --player``).
        None for a game without one: ``show`` then lists what changed in each view."""
        return None

    # --- checking ---------------------------------------------------------------------------

    @abc.abstractmethod
    def ledger(self, state: Any) -> Mapping[str, int]:
        """How many of each conserved component ``state`` holds, counted over every place."""

    @abc.abstractmethod
    def expected_ledger(self, config: Any) -> Mapping[str, int]:
        """What :meth:`ledger` must give in every state of a game under ``config``."""

    @abc.abstractmethod
    def resample(self, state: Any, player: int, rng: random.Random) -> Any:
        """Another state that ``player`` cannot tell from ``state``: everything hidden from
        them drawn again from ``rng``, consistently with all they have seen, and the public
        decisions kept. Their view and legal decisions must be the same in both."""

    def spec_path(self, root: pathlib.Path) -> pathlib.Path:
        return root / self.spec_file

    # --- helpers every tool uses ----------------------------------------------------------

    def players(self, state: Any) -> range:
        return range(self.num_players(self.config_of(state)))

    def replay(self, decisions: Sequence[Any], config: Any, first_player: int = 0) -> Any:
        state = self.new_game(config, first_player)
        for decision in decisions:
            state = self.apply(state, decision)
        return state

    def random_game(self, rng: random.Random, config: Any, first_player: int = 0,
                    max_decisions: int | None = None) -> Any:
        """A whole game: chance drawn by :meth:`sample_chance`, every decision uniform over
        :meth:`legal_actions`. Stops early after ``max_decisions`` decisions if given."""
        state = self.new_game(config, first_player)
        count = 0
        while not self.is_terminal(state):
            if max_decisions is not None and count >= max_decisions:
                break
            if self.current_player(state) == CHANCE:
                state = self.apply(state, self.sample_chance(state, rng))
            else:
                state = self.apply(state, rng.choice(self.legal_actions(state)))
            count += 1
        return state

    def states(self, state: Any) -> Iterator[Any]:
        """Every state of ``state``'s game from the start to ``state``, replayed."""
        current = self.new_game(self.config_of(state), self.first_player(state))
        yield current
        for decision in self.history(state):
            current = self.apply(current, decision)
            yield current

    def __repr__(self) -> str:
        return f"<game {self.name}>"


class RecordError(GameError):
    """A record that cannot be accepted."""


class MalformedRecordError(RecordError):
    """Not a record of this format: wrong shape, type or value range at JSON path ``path``."""

    def __init__(self, path: str, message: str) -> None:
        # A message that already names a place inside ``path`` (a decision's own error, which
        # says which field) is not prefixed again: the path is said once.
        inside = message.startswith(path) and message[len(path):len(path) + 1] in (".", "[", ":")
        super().__init__(message if inside else f"{path}: {message}")
        self.path = path


class IllegalRecordError(RecordError):
    """A well-formed record of something the rules forbid: ``rule`` names the first broken
    rule, ``where`` where it was broken (the game's :attr:`Game.record_where` keys, such as
    ``round`` and ``turn``, with JSON-ready values; a key may be None)."""

    def __init__(self, message: str, rule: str | None,
                 where: Mapping[str, Any] | None = None) -> None:
        super().__init__(message, rule)
        self.where = dict(where or {})
