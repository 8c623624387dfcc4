"""The test game: Kuhn poker for three to five players (rules: tests/testgame/rules.md).

The whole game in one module, as the shortest example of a game of the core: frozen values for
the configuration, the decisions, the state and the view; pure transitions raising the core's
errors with ``TG-`` rule IDs; and :class:`TestGame`, the :class:`~hanamikoji.engine.core.game.Game`
the registry is given (``testgame=testgame.game:GAME`` with tests/ on the import path).

>>> import random
>>> config = GAME.configure({"players": 4})
>>> state = GAME.random_game(random.Random(7), config, first_player=2)
>>> GAME.outcome(state).winners, GAME.ledger(state) == GAME.expected_ledger(config)
((2,), True)
>>> GAME.read_record(GAME.to_record(state)) == state
True
"""

from __future__ import annotations

import enum
import functools
import itertools
import json
import math
import pathlib
import random
from typing import Any, Mapping

import attrs

from hanamikoji.engine.core.errors import IllegalActionError, InvalidActionError
from hanamikoji.engine.core.game import (
    CHANCE,
    TERMINAL,
    Game,
    IllegalRecordError,
    MalformedRecordError,
    Option,
    Outcome,
)

__all__ = ["Config", "Deal", "Move", "State", "View", "TestGame", "GAME", "FORMAT"]

FORMAT = "testgame-record/1"
STACK = 2  # TG-SETUP-1: chips each player begins with
ANTE = 1  # TG-SETUP-1
BET = 1  # TG-BET-1, TG-BET-2: a bet and a call are one chip
SCHEMA = pathlib.Path(__file__).with_name("record.schema.json")


@attrs.frozen
class Config:
    """TG-SETUP-1, TG-SETUP-2: the number of players; the deck has one card more."""

    players: int = 3

    @property
    def cards(self) -> int:
        return self.players + 1


@attrs.frozen(order=True)
class Deal:
    """Chance's decision (TG-DEAL-1): each player's card, player 0 first."""

    cards: tuple[int, ...]


@functools.total_ordering
class Move(enum.Enum):
    """A player's decision (TG-BET-1, TG-BET-2), ordered as declared."""

    CHECK = "check"
    BET = "bet"
    CALL = "call"
    FOLD = "fold"

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return _ORDER[self] < _ORDER[other]

    def __repr__(self) -> str:
        return f"Move.{self.name}"


_ORDER = {move: index for index, move in enumerate(Move)}
_OPENING = (Move.CHECK, Move.BET)  # TG-BET-1
_ANSWERS = (Move.CALL, Move.FOLD)  # TG-BET-2


@attrs.frozen
class State:
    """A whole game (hidden cards included). ``cards`` is None before the deal; ``deck`` holds
    the cards not dealt (all of them before the deal, the one left over after)."""

    config: Config
    first_player: int
    deck: tuple[int, ...]
    stacks: tuple[int, ...]
    pot: int
    to_move: int = CHANCE
    cards: tuple[int, ...] | None = None
    moves: tuple[Move, ...] = ()
    bettor: int | None = None
    folded: tuple[int, ...] = ()
    shown: tuple[int, ...] = ()  # the players who showed their card at the showdown
    outcome: Outcome | None = None


@attrs.frozen
class View:
    """What ``player`` may know (TG-INFO-1): ``card`` is theirs (None before the deal), ``shown``
    each player's card if it was shown at the showdown (else None)."""

    player: int
    first_player: int
    card: int | None
    shown: tuple[int | None, ...]
    stacks: tuple[int, ...]
    pot: int
    moves: tuple[Move, ...]
    to_move: int
    bettor: int | None
    folded: tuple[int, ...]
    outcome: Outcome | None


# --- the rules -------------------------------------------------------------------------------


def new_game(config: Config, first_player: int = 0) -> State:
    """TG-SETUP-1, TG-SETUP-2: every player has anted; the whole deck awaits the deal."""
    if not _whole(first_player) or not 0 <= first_player < config.players:
        raise InvalidActionError(f"the first player is one of 0 to {config.players - 1}, not "
                                 f"{first_player!r}", "TG-SETUP-1")
    return State(config, first_player, deck=tuple(range(config.cards)),
                 stacks=(STACK - ANTE,) * config.players, pot=ANTE * config.players)


def _check_deal(state: State, deal: Deal) -> None:
    cards = deal.cards
    if not isinstance(cards, tuple) or not all(
            isinstance(c, int) and not isinstance(c, bool) for c in cards):
        raise InvalidActionError(f"a deal is a tuple of whole numbers, not {cards!r}")
    n = state.config.players
    if len(cards) != n:
        raise IllegalActionError(f"a deal gives one card to each of the {n} players, not "
                                 f"{len(cards)} cards", "TG-DEAL-1")
    wrong = [c for c in cards if not 0 <= c < state.config.cards]
    if wrong:
        raise IllegalActionError(f"the deck holds cards 0 to {n}, not {wrong[0]}", "TG-SETUP-2")
    if len(set(cards)) != n:
        raise IllegalActionError(f"a deal gives distinct cards, not {list(cards)}", "TG-DEAL-1")


def _deal(state: State, deal: Deal) -> State:
    """TG-DEAL-1: one card each; the card left over stays in the deck."""
    _check_deal(state, deal)
    left = tuple(c for c in state.deck if c not in deal.cards)
    return attrs.evolve(state, cards=deal.cards, deck=left, to_move=state.first_player)


def _showdown(state: State) -> State:
    """TG-END-1: the highest card among the players still in takes the pot."""
    n = state.config.players
    assert state.cards is not None
    contenders = [p for p in range(n) if p not in state.folded]
    winner = max(contenders, key=lambda p: state.cards[p])
    stacks = tuple(s + state.pot if p == winner else s for p, s in enumerate(state.stacks))
    shown = tuple(contenders) if len(contenders) > 1 else ()
    reason = "showdown" if shown else "folds"
    return attrs.evolve(state, stacks=stacks, pot=0, shown=shown, to_move=TERMINAL,
                        outcome=Outcome((winner,), reason, stacks))


def _move(state: State, move: Move) -> State:
    """TG-TURN-1, TG-BET-1, TG-BET-2: the move of the player to move; the turn passes left."""
    n, player = state.config.players, state.to_move
    if state.bettor is None and move not in _OPENING:
        raise IllegalActionError(f"nobody has bet: player {player} checks or bets, and cannot "
                                 f"{move.value}", "TG-BET-1")
    if state.bettor is not None and move not in _ANSWERS:
        raise IllegalActionError(f"player {state.bettor} has bet: player {player} calls or "
                                 f"folds, and cannot {move.value}", "TG-BET-2")
    stacks, pot, bettor, folded = state.stacks, state.pot, state.bettor, state.folded
    if move in (Move.BET, Move.CALL):
        stacks = tuple(s - BET if p == player else s for p, s in enumerate(stacks))
        pot += BET
    if move is Move.BET:
        bettor = player
    if move is Move.FOLD:
        folded = tuple(sorted(folded + (player,)))
    after = attrs.evolve(state, stacks=stacks, pot=pot, bettor=bettor, folded=folded,
                         moves=state.moves + (move,), to_move=(player + 1) % n)
    closing = state.first_player if bettor is None else bettor
    if after.to_move == closing:  # everyone has checked, or answered the bet
        return _showdown(after)
    return after


def apply(state: State, decision: Any) -> State:
    """The state after ``decision``; ``state`` is never changed."""
    if state.outcome is not None:
        raise IllegalActionError(f"the game is over; no decision follows, not {decision!r}",
                                 "TG-END-2")
    if not isinstance(decision, (Deal, Move)):
        raise InvalidActionError(f"not a decision of the test game: {decision!r}")
    if state.to_move == CHANCE:
        if isinstance(decision, Move):
            raise IllegalActionError(f"the cards are not dealt yet; expected a Deal, not "
                                     f"{decision!r}", "TG-DEAL-1")
        return _deal(state, decision)
    if isinstance(decision, Deal):
        raise IllegalActionError("the cards are already dealt; there is one deal, first",
                                 "TG-DEAL-1")
    return _move(state, decision)


def legal_actions(state: State) -> tuple[Move, ...]:
    """TG-BET-1, TG-BET-2: check or bet until someone bets, then call or fold."""
    if state.to_move < 0:
        return ()
    return _OPENING if state.bettor is None else _ANSWERS


def observe(state: State, player: int) -> View:
    """TG-INFO-1: the player's own card, the cards shown at the showdown, and everything
    public."""
    shown = tuple(state.cards[p] if p in state.shown and state.cards is not None else None
                  for p in range(state.config.players))
    return View(player, state.first_player, None if state.cards is None else state.cards[player],
                shown, state.stacks, state.pot, state.moves, state.to_move, state.bettor,
                state.folded, state.outcome)


def movers(state: State) -> tuple[int, ...]:
    """The player who made each move, in order (TG-TURN-1: each to the left of the last)."""
    n = state.config.players
    return tuple((state.first_player + i) % n for i in range(len(state.moves)))


@functools.cache
def _deals(config: Config) -> tuple[tuple[Deal, float], ...]:
    """TG-DEAL-1: every deal with its probability (listed once per configuration)."""
    chance = 1 / math.perm(config.cards, config.players)
    return tuple((Deal(cards), chance)
                 for cards in itertools.permutations(range(config.cards), config.players))


# --- records ---------------------------------------------------------------------------------


def _whole(obj: Any) -> bool:
    return isinstance(obj, int) and not isinstance(obj, bool)


def _parse_move(obj: Any, path: str) -> Move:
    for move in Move:
        if obj == move.value:
            return move
    raise MalformedRecordError(path, f"expected one of {', '.join(m.value for m in Move)}, "
                                     f"not {obj!r}")


def read_record(obj: Any, game: "TestGame | None" = None) -> State:
    """The final state of a ``testgame-record/1`` record, replayed by ``game`` (default
    :data:`GAME`)."""
    game = GAME if game is None else game
    if not isinstance(obj, dict):
        raise MalformedRecordError("$", "expected a record object")
    if obj.get("format") != FORMAT:
        raise MalformedRecordError("$.format", f"expected {FORMAT!r}, not {obj.get('format')!r}")
    extra = sorted(set(obj) - {"format", "players", "first_player", "deal", "moves", "result"})
    if extra:
        raise MalformedRecordError(f"$.{extra[0]}", "unknown field")
    players = obj.get("players")
    if not _whole(players) or not 3 <= players <= 5:
        raise MalformedRecordError("$.players", f"expected 3 to 5, not {players!r}")
    first = obj.get("first_player")
    if not _whole(first) or not 0 <= first < players:
        raise MalformedRecordError("$.first_player", f"expected 0 to {players - 1}, not {first!r}")
    cards = obj.get("deal")
    if cards is not None and not (isinstance(cards, list) and all(map(_whole, cards))):
        raise MalformedRecordError("$.deal", "expected a list of cards or null")
    moves = obj.get("moves", [])
    if not isinstance(moves, list):
        raise MalformedRecordError("$.moves", "expected a list")
    parsed = []
    for i, item in enumerate(moves):
        if not isinstance(item, dict) or set(item) != {"player", "move"} \
                or not _whole(item["player"]):
            raise MalformedRecordError(f"$.moves[{i}]", 'expected {"player": P, "move": M}')
        parsed.append((item["player"], _parse_move(item["move"], f"$.moves[{i}].move")))
    state = game.new_game(Config(players), first)
    if cards is None:
        if parsed:
            raise IllegalRecordError("moves without a deal", "TG-DEAL-1", {"move": 0})
    else:
        try:
            state = game.apply(state, Deal(tuple(cards)))
        except (IllegalActionError, InvalidActionError) as error:
            raise IllegalRecordError(f"the deal: {error.message}", error.rule,
                                     {"move": None}) from None
    for i, (player, move) in enumerate(parsed):
        if state.outcome is None and player != state.to_move:
            raise IllegalRecordError(f"move {i} is player {player}'s, but player "
                                     f"{state.to_move} is to move", "TG-TURN-1", {"move": i})
        try:
            state = game.apply(state, move)
        except IllegalActionError as error:
            raise IllegalRecordError(f"move {i}: {error.message}", error.rule,
                                     {"move": i}) from None
    if "result" in obj:
        written = obj["result"]
        actual = game.outcome_to_json(state.outcome)
        if written != actual:
            raise IllegalRecordError(f"the record's result is {json.dumps(written)}, but the game "
                                     f"ends in {json.dumps(actual)}", "TG-END-1", {"move": None})
    return state


def to_record(state: State) -> dict[str, Any]:
    record: dict[str, Any] = {
        "format": FORMAT, "players": state.config.players, "first_player": state.first_player,
        "deal": None if state.cards is None else list(state.cards),
        "moves": [{"player": p, "move": m.value} for p, m in zip(movers(state), state.moves)],
    }
    if state.outcome is not None:
        record["result"] = GAME.outcome_to_json(state.outcome)
    return record


# --- the game of the core --------------------------------------------------------------------


class TestGame(Game):
    """Kuhn poker for three to five players (tests/testgame/rules.md)."""

    __test__ = False  # a game, not a pytest test class
    name = "testgame"
    title = "Test game (Kuhn poker for 3 to 5)"
    rulebooks = ()
    options = (Option("players", 3, "how many players (TG-SETUP-1)", low=3, high=5),)
    min_players = 3
    max_players = 5
    record_format = FORMAT
    rule_prefix = "TG-"
    spec_file = "tests/testgame/rules.md"
    record_where = ("move",)
    length_unit = "moves"

    def make_config(self, values: Mapping[str, Any]) -> Config:
        return Config(values["players"])

    def options_of(self, config: Config) -> dict[str, Any]:
        return {"players": config.players}

    def num_players(self, config: Config) -> int:
        return config.players

    def max_decisions(self, config: Config) -> int:
        """The deal, n - 1 checks, a bet and n - 1 answers (TG-BET-1, TG-BET-2)."""
        return 2 * config.players

    def new_game(self, config: Config, first_player: int = 0) -> State:
        return new_game(config, first_player)

    def config_of(self, state: State) -> Config:
        return state.config

    def first_player(self, state: State) -> int:
        return state.first_player

    def current_player(self, state: State) -> int:
        return state.to_move

    def legal_actions(self, state: State) -> tuple[Move, ...]:
        return legal_actions(state)

    def apply(self, state: State, decision: Any) -> State:
        return apply(state, decision)

    def chance_outcomes(self, state: State) -> tuple[tuple[Deal, float], ...] | None:
        """TG-DEAL-1: every ordered choice of n distinct cards, equally likely."""
        if state.to_move != CHANCE:
            return ()
        return _deals(state.config)

    def sample_chance(self, state: State, rng: random.Random) -> Deal:
        """TG-DEAL-1: a uniform ordered choice of n distinct cards."""
        return Deal(tuple(rng.sample(range(state.config.cards), state.config.players)))

    def observe(self, state: State, player: int) -> View:
        return observe(state, player)

    def outcome(self, state: State) -> Outcome | None:
        return state.outcome

    def history(self, state: State) -> tuple[Any, ...]:
        return (() if state.cards is None else (Deal(state.cards),)) + state.moves

    def length(self, state: State) -> tuple[str, int]:
        return "moves", len(state.moves)

    # --- codecs

    def decision_to_json(self, decision: Deal | Move) -> Any:
        if isinstance(decision, Deal):
            return {"deal": list(decision.cards)}
        return {"move": decision.value}

    def decision_from_json(self, obj: Any, path: str = "$") -> Deal | Move:
        if isinstance(obj, dict) and set(obj) == {"deal"} and isinstance(obj["deal"], list) \
                and all(map(_whole, obj["deal"])):
            return Deal(tuple(obj["deal"]))
        if isinstance(obj, dict) and set(obj) == {"move"}:
            for move in Move:
                if obj["move"] == move.value:
                    return move
        raise InvalidActionError(f'{path}: expected {{"deal": [cards]}} or {{"move": '
                                 f'"check"|"bet"|"call"|"fold"}}, not {json.dumps(obj)}')

    def decision_text(self, decision: Deal | Move) -> str:
        if isinstance(decision, Deal):
            return "deal " + ", ".join(f"player {p}: {c}" for p, c in enumerate(decision.cards))
        return decision.value

    def view_to_json(self, view: View) -> Any:
        return {"player": view.player, "first_player": view.first_player, "card": view.card,
                "shown": list(view.shown), "stacks": list(view.stacks), "pot": view.pot,
                "moves": [m.value for m in view.moves], "to_move": view.to_move,
                "bettor": view.bettor, "folded": list(view.folded),
                "result": self.outcome_to_json(view.outcome)}

    def to_record(self, state: State) -> dict[str, Any]:
        return to_record(state)

    def read_record(self, obj: Any) -> State:
        return read_record(obj, self)

    def record_schema(self) -> dict[str, Any]:
        return json.loads(SCHEMA.read_text(encoding="utf-8"))

    def render(self, state: State) -> list[str]:
        n = state.config.players
        lines = [f"Kuhn poker, {n} players, player {state.first_player} first; "
                 f"each antes {ANTE}: pot {ANTE * n}"]
        if state.cards is not None:
            lines.append("deal: " + ", ".join(f"player {p} holds {c}"
                                              for p, c in enumerate(state.cards))
                         + f"; card {state.deck[0]} left over")
        for player, move in zip(movers(state), state.moves):
            lines.append(f"player {player} {move.value}s")
        if state.outcome is not None:
            lines.append(f"{state.outcome.describe()}; stacks "
                         + ", ".join(map(str, state.stacks)))
        return lines

    # --- checking

    def ledger(self, state: State) -> dict[str, int]:
        """TG-SETUP-1, TG-SETUP-2: each card (in hands or the deck) and the chips (stacks and
        pot)."""
        counts = {f"card {c}": 0 for c in range(state.config.cards)}
        for card in (state.cards or ()) + state.deck:
            key = f"card {card}"
            counts[key] = counts.get(key, 0) + 1
        counts["chips"] = sum(state.stacks) + state.pot
        return counts

    def expected_ledger(self, config: Config) -> dict[str, int]:
        return {**{f"card {c}": 1 for c in range(config.cards)}, "chips": STACK * config.players}

    def resample(self, state: State, player: int, rng: random.Random) -> State:
        """TG-INFO-1: the cards ``player`` has not seen (other players' unshown cards and the
        card left over) permuted among their places; the moves replayed."""
        if state.cards is None:
            return state
        hidden = [p for p in range(state.config.players) if p != player and p not in state.shown]
        cards = [state.cards[p] for p in hidden] + list(state.deck)
        rng.shuffle(cards)
        dealt = list(state.cards)
        for p, card in zip(hidden, cards):
            dealt[p] = card
        again = self.apply(self.new_game(state.config, state.first_player), Deal(tuple(dealt)))
        for move in state.moves:
            again = self.apply(again, move)
        return again


GAME = TestGame()
