"""The reference game: an immutable state and pure transitions.

``apply(state, decision)`` returns a new :class:`State` and never changes its input. Every
decision is explicit: the deal is a chance outcome (:class:`Deal`, drawn by :func:`random_deal`
from a seeded ``random.Random``), then the active player's actions and the opponent's answers to
gifts and competitions. Scoring and the update between rounds are automatic (no decision).

>>> import random
>>> state = apply(new_game(), random_deal(random.Random(7)))
>>> current_player(state), state.phase
(0, Phase.ACTION)
>>> len(legal_actions(state)) > 0
True
"""

from __future__ import annotations

import enum
import functools
import operator
from typing import TYPE_CHECKING, Any, Callable, TypeVar

import attrs

from hanamikoji.engine.core.codec import value_text

from . import cards as C
from .actions import (
    ALL_KINDS,
    Action,
    ActionKind,
    Competition,
    CompetitionPick,
    Deal,
    Decision,
    Gift,
    GiftPick,
    Secret,
    TradeOff,
    json_text,
)
from .cards import EMPTY, FULL_DECK, NUM_GEISHA, Cards
from .errors import IllegalActionError, InvalidActionError
from .rules import STANDARD, Markers, Result, Rules

if TYPE_CHECKING:  # annotations only: validate's start does without it
    import random

#: ``current_player`` at a chance node (the deal) and at the end of the game (OpenSpiel's values).
CHANCE = -1
TERMINAL = -4
TURNS_PER_ROUND = 8


class Phase(enum.Enum):
    """Where the game stands: waiting for the deal, an action, an answer, or over."""

    DEAL = "deal"
    ACTION = "action"
    RESPONSE = "response"
    OVER = "over"

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


@attrs.frozen
class RoundScore:
    """What one round's scoring showed (SCORE-1..3): each side's items, secrets included, and
    the marker row after it. Public once the secrets are revealed."""

    round: int
    sides: tuple[Cards, Cards]
    markers: Markers


@attrs.frozen
class State:
    """The full state of a game (all hidden information included).

    Card places are 7-tuples of counts per geisha. ``sides`` holds the face-up cards each player
    has won from gifts and competitions this round; secrets join them only at scoring (SCORE-1).
    ``history`` is every decision from the start, deals included: the record of the game.
    """

    rules: Rules = STANDARD
    first_player: int = 0
    round: int = 0
    phase: Phase = Phase.DEAL
    turn: int = 0
    markers: Markers = (None,) * NUM_GEISHA
    removed: int | None = None
    hands: tuple[Cards, Cards] = (EMPTY, EMPTY)
    deck: tuple[int, ...] = ()
    used: tuple[tuple[ActionKind, ...], tuple[ActionKind, ...]] = ((), ())
    secrets: tuple[Cards, Cards] = (EMPTY, EMPTY)
    trade_offs: tuple[Cards, Cards] = (EMPTY, EMPTY)
    sides: tuple[Cards, Cards] = (EMPTY, EMPTY)
    pending: Gift | Competition | None = None
    scores: tuple[RoundScore, ...] = ()
    result: Result | None = None
    history: tuple[Decision, ...] = ()

    @property
    def starter(self) -> int:
        """UPDATE-4: the starting player of the current round: ``first_player`` in even rounds,
        the other player in odd ones."""
        return (self.first_player + self.round) % 2

    @property
    def active(self) -> int:
        """TURN-1: whose turn it is (the player who acts, or whose offer awaits an answer): the
        starter on even turns, the other player on odd ones."""
        return (self.first_player + self.round + self.turn) % 2

    def is_terminal(self) -> bool:
        return self.phase is Phase.OVER


def new_game(rules: Rules = STANDARD, first_player: int = 0) -> State:
    """SETUP-1, COMP-4: a game before its first deal; all markers in the centre."""
    if first_player not in (0, 1):
        raise InvalidActionError(
            f"first_player must be 0 or 1, not {value_text(first_player)}", "SETUP-1")
    return State(rules=rules, first_player=first_player)


def current_player(state: State) -> int:
    """The player to decide (0 or 1), :data:`CHANCE` before a deal, :data:`TERMINAL` at the end."""
    if state.phase is Phase.ACTION:
        return state.active
    if state.phase is Phase.RESPONSE:
        return 1 - state.active
    return CHANCE if state.phase is Phase.DEAL else TERMINAL


def random_deal(rng: random.Random) -> Deal:
    """DEAL-1..4: shuffle the 21 cards, remove one, deal six each, the rest is the deck."""
    deck = list(_CARDS)
    rng.shuffle(deck)
    # The 21 cards are geisha numbers already: the checks of Deal's converters would find
    # nothing (a property compares the two constructions).
    return Deal.checked(deck[0], (deck[1:7], deck[7:13]), deck[13:])


_CARDS = C.cards_of(FULL_DECK)


# --- legal decisions -----------------------------------------------------------------------


@functools.cache
def _competitions(four: tuple[int, ...]) -> tuple[Competition, ...]:
    """ACT-COMP-1: the distinct ways to split four cards into two unordered sets, sorted."""
    a, b, c, d = four
    splits = {Competition(((a, b), (c, d))), Competition(((a, c), (b, d))),
              Competition(((a, d), (b, c)))}
    return tuple(sorted(splits, key=_by_pairs))


def _by_pairs(competition: Competition) -> tuple:
    return competition.pairs


# One object per distinct action, shared by every menu that offers it.
_SINGLE: dict[ActionKind, Callable[[tuple[int, ...]], Action]] = {
    ActionKind.SECRET: functools.cache(lambda cards: Secret(cards[0])),
    ActionKind.TRADE_OFF: functools.cache(TradeOff), ActionKind.GIFT: functools.cache(Gift)}


@functools.cache
def _kind_menu(hand: Cards, kind: ActionKind) -> tuple[Action, ...]:
    """The distinct actions of one kind from ``hand``, sorted."""
    selections = C.sub_multisets(hand, kind.size)  # sorted, so the actions come out sorted
    if kind is ActionKind.COMPETITION:
        return tuple(sorted((x for s in selections for x in _competitions(s)), key=_by_pairs))
    return tuple(map(_SINGLE[kind], selections))


@functools.cache
def action_menu(hand: Cards, unused: tuple[ActionKind, ...]) -> tuple[Action, ...]:
    """TURN-3, ACT-*-1: every distinct action from ``hand`` with the unused markers, sorted.

    Pure in its arguments, so it is cached; actions sort by kind first, so the menu is the
    kinds' own sorted menus one after another (``unused`` is in the order of ALL_KINDS).
    """
    menu: tuple[Action, ...] = ()
    for kind in unused:
        menu += _kind_menu(hand, kind)
    return menu


@functools.cache
def _unused(used: tuple[ActionKind, ...]) -> tuple[ActionKind, ...]:
    return tuple(k for k in ALL_KINDS if k not in used)


@functools.cache
def _responses(offer: Gift | Competition) -> tuple[GiftPick, ...] | tuple[CompetitionPick, ...]:
    if isinstance(offer, Gift):
        return tuple(GiftPick(g) for g in sorted(set(offer.cards)))
    return tuple(CompetitionPick(p) for p in sorted(set(offer.pairs)))


def legal_actions(state: State) -> tuple[Action, ...] | tuple[GiftPick, ...] | tuple[CompetitionPick, ...]:
    """The decisions the current player may take, one per distinct outcome, sorted.

    Empty at a chance node (draw one with :func:`random_deal`) and at the end of the game.
    """
    if state.phase is Phase.ACTION:
        player = state.active
        return action_menu(state.hands[player], _unused(state.used[player]))
    if state.phase is Phase.RESPONSE:
        assert state.pending is not None
        return _responses(state.pending)
    return ()


# --- transitions ---------------------------------------------------------------------------


def apply(state: State, decision: Decision) -> State:
    """The state after ``decision``; raises :class:`IllegalActionError` (with the rule ID) if the
    rules forbid it, :class:`InvalidActionError` if it is not a decision at all."""
    if state.phase is Phase.OVER:
        raise IllegalActionError("the game is over: no decision follows the end", "END-2")
    handler = _HANDLERS.get(type(decision))
    if handler is None:
        raise InvalidActionError(f"not a Hanamikoji decision: {value_text(decision)}")
    if state.phase is Phase.DEAL and handler is not _deal:
        raise IllegalActionError(
            f"round {state.round} has not been dealt yet; expected a deal, got "
            f"{json_text(decision)}",
            "DEAL-1")
    return handler(state, decision)


_FIELDS = tuple(field.name for field in attrs.fields(State))
_INDEX = {name: index for index, name in enumerate(_FIELDS)}
_values = operator.attrgetter(*_FIELDS)


def _with(state: State, changes: dict) -> State:
    """``state`` with ``changes``: one construction per transition (what attrs.evolve does,
    minus its per-call introspection: this is the hot path of every game)."""
    values = list(_values(state))
    for name, value in changes.items():
        values[_INDEX[name]] = value
    return State(*values)


def _plus_one(multiset: Cards, card: int) -> Cards:
    return multiset[:card] + (multiset[card] + 1,) + multiset[card + 1:]


def _deal(state: State, deal: Deal) -> State:
    """DEAL-1..4, TURN-2: lay out the round and let the starting player draw."""
    if state.phase is not Phase.DEAL:
        raise IllegalActionError(
            f"round {state.round} is already dealt; a deal comes only at the start of a round",
            "DEAL-1")
    found = deal.multiset()
    if found != FULL_DECK:
        raise IllegalActionError(
            f"a deal must hold the 21 item cards {C.describe(FULL_DECK)}, "
            f"not {C.describe(found)}", "DEAL-1")
    hands = [C.counts(deal.hands[0]), C.counts(deal.hands[1])]
    starter = state.starter
    hands[starter] = _plus_one(hands[starter], deal.draws[0])  # TURN-2: the first draw
    return _with(state, dict(phase=Phase.ACTION, turn=0, removed=deal.removed,
                             hands=tuple(hands), deck=deal.draws[1:],
                             history=state.history + (deal,)))


_ACTION_RULE = {ActionKind.SECRET: "ACT-SECRET-1", ActionKind.TRADE_OFF: "ACT-TRADE-1",
                ActionKind.GIFT: "ACT-GIFT-1", ActionKind.COMPETITION: "ACT-COMP-1"}

_played_counts = functools.cache(C.counts)


def _act(state: State, action: Action) -> State:
    """TURN-3 and the four actions (ACT-SECRET-1, ACT-TRADE-1, ACT-GIFT-1, ACT-COMP-1)."""
    if state.phase is Phase.RESPONSE:
        assert state.pending is not None  # an offer waits in the RESPONSE phase (TURN-4)
        raise IllegalActionError(
            f"player {1 - state.active} must first answer the pending "
            f"{json_text(state.pending)}", "TURN-4")
    player = state.active
    kind = action.kind
    if kind in state.used[player]:
        raise IllegalActionError(
            f"player {player} has already used their {kind.value} action this round", "TURN-3")
    played = _played_counts(action.cards)
    hand = state.hands[player]
    if not C.contains(hand, played):
        g = next(g for g in C.GEISHA if played[g] > hand[g])
        what = (f"a card of geisha {g} that is not in their hand" if hand[g] == 0 else
                f"{played[g]} cards of geisha {g} but holds {hand[g]}")
        raise IllegalActionError(
            f"player {player} plays a {kind.value} with {what} (hand: {C.describe(hand)})",
            _ACTION_RULE[kind])
    hands = list(state.hands)
    hands[player] = C.sub(hand, played)
    used = list(state.used)
    used[player] = used[player] + (kind,)
    changes: dict = dict(hands=hands, used=tuple(used), history=state.history + (action,))
    if kind is ActionKind.SECRET:
        secrets = list(state.secrets)
        secrets[player] = C.add(secrets[player], played)
        changes["secrets"] = tuple(secrets)
    elif kind is ActionKind.TRADE_OFF:
        trade_offs = list(state.trade_offs)
        trade_offs[player] = C.add(trade_offs[player], played)
        changes["trade_offs"] = tuple(trade_offs)
    else:
        # ACT-GIFT-1, ACT-COMP-1: the cards lie face up until the opponent answers (TURN-4).
        changes.update(hands=tuple(hands), phase=Phase.RESPONSE, pending=action)
        return _with(state, changes)
    return _end_turn(state, changes)


def _respond(state: State, pick: GiftPick | CompetitionPick) -> State:
    """ACT-GIFT-2/3, ACT-COMP-2/3: the opponent takes their part, the player keeps the rest."""
    offer = state.pending
    if state.phase is not Phase.RESPONSE or offer is None:
        # TURN-3: the decision due is the active player's action, not an answer.
        raise IllegalActionError(f"player {state.active} is to take an action; there is no "
                                 f"offer to answer with {json_text(pick)}", "TURN-3")
    if isinstance(offer, Gift):
        if not isinstance(pick, GiftPick) or pick.card not in offer.cards:
            what = (f"takes geisha {pick.card}, which is not in" if isinstance(pick, GiftPick)
                    else "answers with a competition set to")
            raise IllegalActionError(
                f"player {1 - state.active} {what} the gift {C.describe(C.counts(offer.cards))}",
                "ACT-GIFT-2")
        taken: tuple[int, ...] = (pick.card,)
    else:
        if not isinstance(pick, CompetitionPick) or pick.pair not in offer.pairs:
            what = (f"takes the set {C.describe(C.counts(pick.pair))}, which is not one of"
                    if isinstance(pick, CompetitionPick) else "answers with a gift card to")
            sets = " and ".join(C.describe(C.counts(p)) for p in offer.pairs)
            raise IllegalActionError(
                f"player {1 - state.active} {what} the competition sets {sets}", "ACT-COMP-2")
        taken = pick.pair
    player = state.active
    taken_counts = _played_counts(taken)
    kept = C.sub(_played_counts(offer.cards), taken_counts)
    sides = list(state.sides)
    sides[1 - player] = C.add(sides[1 - player], taken_counts)
    sides[player] = C.add(sides[player], kept)
    return _end_turn(state, dict(phase=Phase.ACTION, pending=None, sides=tuple(sides),
                                 hands=list(state.hands), history=state.history + (pick,)))


def _end_turn(state: State, changes: dict) -> State:
    """TURN-1, TURN-2: the next player draws and acts; after 8 turns the round is scored
    (SCORE-1). ``changes`` holds the turn's effects, with ``hands`` as a list."""
    turn = state.turn + 1
    hands = changes["hands"]
    if turn < TURNS_PER_ROUND:
        player = (state.first_player + state.round + turn) % 2  # TURN-1, as State.active
        hands[player] = _plus_one(hands[player], state.deck[0])
        changes.update(turn=turn, hands=tuple(hands), deck=state.deck[1:])
        return _with(state, changes)
    changes.update(turn=turn, hands=tuple(hands))
    return _score(_with(state, changes))


# Each handler takes the decisions of the types it is listed under.
_HANDLERS: dict[type, Callable[[State, Any], State]] = {
    Deal: _deal, Secret: _act, TradeOff: _act, Gift: _act, Competition: _act,
    GiftPick: _respond, CompetitionPick: _respond}


def score_markers(markers: Markers, side0: Cards, side1: Cards) -> Markers:
    """SCORE-2, SCORE-3: a marker moves to the side with strictly more items, else stays."""
    return tuple(0 if a > b else 1 if b > a else m for a, b, m in zip(side0, side1, markers))


def _score(state: State) -> State:
    """SCORE-1..3, END-1, then either the end (END-2..4, VAR-IT-2..4) or the update (UPDATE-1..4)."""
    side0 = C.add(state.sides[0], state.secrets[0])
    side1 = C.add(state.sides[1], state.secrets[1])
    markers = score_markers(state.markers, side0, side1)
    scores = state.scores + (RoundScore(state.round, (side0, side1), markers),)
    result = state.rules.round_result(markers, state.round)
    if result is not None:
        return _with(state, dict(phase=Phase.OVER, markers=markers, scores=scores,
                                 result=result))
    # UPDATE-1..4: every card goes back, markers stay, actions reset, the other player starts.
    return State(rules=state.rules, first_player=state.first_player, round=state.round + 1,
                 markers=markers, scores=scores, history=state.history)


# --- what a player sees --------------------------------------------------------------------


@attrs.frozen
class ObservedTurn:
    """One turn of the current round as a player saw it: ``cards`` is None where hidden."""

    player: int
    kind: ActionKind
    cards: tuple[int, ...] | tuple[tuple[int, int], tuple[int, int]] | None
    pick: int | tuple[int, int] | None = None


@attrs.frozen
class View:
    """INFO-1: what ``player`` may know; INFO-2: nothing the rules hide from them."""

    player: int
    rules: Rules
    first_player: int
    round: int
    phase: Phase
    turn: int
    current_player: int
    markers: Markers
    hand: Cards
    secret: Cards
    trade_off: Cards
    sides: tuple[Cards, Cards]
    used: tuple[tuple[ActionKind, ...], tuple[ActionKind, ...]]
    pending: Gift | Competition | None
    opponent_hand_size: int
    opponent_secret_size: int
    opponent_trade_off_size: int
    deck_size: int
    log: tuple[ObservedTurn, ...]
    scores: tuple[RoundScore, ...]
    result: Result | None


def _round_decisions(history: tuple[Decision, ...]) -> tuple[Decision, ...]:
    for index in range(len(history) - 1, -1, -1):
        if isinstance(history[index], Deal):
            return history[index + 1:]
    return ()


def _observed_log(state: State, player: int) -> tuple[ObservedTurn, ...]:
    if state.phase is Phase.DEAL:
        return ()
    log: list[ObservedTurn] = []
    mover = state.starter
    for decision in _round_decisions(state.history):
        if isinstance(decision, (GiftPick, CompetitionPick)):
            last = log[-1]
            pick = decision.card if isinstance(decision, GiftPick) else decision.pair
            log[-1] = attrs.evolve(last, pick=pick)
            continue
        assert isinstance(decision, (Secret, TradeOff, Gift, Competition))
        log.append(observed_turn(decision, mover, player))
        mover = 1 - mover
    return tuple(log)


def observed_turn(action: Action, mover: int, player: int) -> ObservedTurn:
    """INFO-2, ACT-SECRET-2, ACT-TRADE-2: ``mover``'s action as ``player`` sees it: a secret or
    a trade-off is face down, so its cards are hidden from the opponent (None)."""
    if isinstance(action, Competition):
        shown: tuple[int, ...] | tuple[tuple[int, int], tuple[int, int]] | None = action.pairs
    elif isinstance(action, Gift) or mover == player:
        shown = action.cards
    else:
        shown = None
    return ObservedTurn(mover, action.kind, shown)


def observe(state: State, player: int) -> View:
    """INFO-1, INFO-2: ``player``'s view; never the opponent's hand, secret or trade-off cards,
    the removed card or the deck order."""
    if player not in (0, 1):
        raise InvalidActionError(f"player must be 0 or 1, not {value_text(player)}")
    other = 1 - player
    return View(
        player=player,
        rules=state.rules,
        first_player=state.first_player,
        round=state.round,
        phase=state.phase,
        turn=state.turn,
        current_player=current_player(state),
        markers=state.markers,
        hand=state.hands[player],
        secret=state.secrets[player],
        trade_off=state.trade_offs[player],
        sides=state.sides,
        used=state.used,
        pending=state.pending,
        opponent_hand_size=C.size(state.hands[other]),
        opponent_secret_size=C.size(state.secrets[other]),
        opponent_trade_off_size=C.size(state.trade_offs[other]),
        deck_size=len(state.deck),
        log=_observed_log(state, player),
        scores=state.scores,
        result=state.result,
    )


def replay(decisions: tuple[Decision, ...] | list[Decision], rules: Rules = STANDARD,
           first_player: int = 0) -> State:
    """The state reached by applying ``decisions`` from the start of a game."""
    state = new_game(rules, first_player)
    for decision in decisions:
        state = apply(state, decision)
    return state


# --- the fast path: one mutable draft for a whole playout or replay ------------------------

_DEAL, _ACTION, _RESPONSE, _OVER = Phase.DEAL, Phase.ACTION, Phase.RESPONSE, Phase.OVER
_SECRET, _TRADE_OFF = ActionKind.SECRET, ActionKind.TRADE_OFF

_T = TypeVar("_T")


def _two(pair: list[_T]) -> tuple[_T, _T]:
    """A Draft's list of two (one per player) as the State's pair."""
    return (pair[0], pair[1])


#: A hand of six as counts; hands are sorted tuples, a few thousand distinct ones.
_hand_counts = functools.cache(C.counts)


@functools.cache
def _grouped(cards: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """``cards`` as (geisha, how many) pairs in geisha order: what a hand must hold to play
    them, checked geisha by geisha."""
    played = C.counts(cards)
    return tuple((g, n) for g, n in enumerate(played) if n)


class Draft:
    """A game being played, mutable, for the length of a random playout or a record replay;
    frozen into a :class:`State` only when one is asked for (:meth:`freeze`). :meth:`play`
    applies a decision in place with the rules and errors of :func:`apply`, which stays the plain
    immutable path (and the reference a property checks this against at every step:
    tests/properties/test_fast_engines.py). On an error the draft is unchanged.

    Where a State has 7-tuples of counts, the draft has lists of 7 counts, changed card by card
    (a secret is one ``+= 1``, not a new tuple).
    """

    __slots__ = ("rules", "first_player", "round", "phase", "turn", "markers", "removed",
                 "hands", "deck", "used", "secrets", "trade_offs", "sides", "pending", "scores",
                 "result", "base_history", "history")
    # The fields of a State: the pairs of card multisets as two lists of counts each, the pair
    # of used markers as a list.
    rules: Rules
    first_player: int
    round: int
    phase: Phase
    turn: int
    markers: Markers
    removed: int | None
    hands: list[list[int]]
    deck: tuple[int, ...]
    used: list[tuple[ActionKind, ...]]
    secrets: list[list[int]]
    trade_offs: list[list[int]]
    sides: list[list[int]]
    pending: Gift | Competition | None
    scores: tuple[RoundScore, ...]
    result: Result | None
    base_history: tuple[Decision, ...]
    history: list[Decision]

    @classmethod
    def of(cls, s: State) -> "Draft":
        d = cls.__new__(cls)
        d.rules = s.rules
        d.first_player = s.first_player
        d.round = s.round
        d.phase = s.phase
        d.turn = s.turn
        d.markers = s.markers
        d.removed = s.removed
        d.hands = [list(s.hands[0]), list(s.hands[1])]
        d.deck = s.deck
        d.used = list(s.used)
        d.secrets = [list(s.secrets[0]), list(s.secrets[1])]
        d.trade_offs = [list(s.trade_offs[0]), list(s.trade_offs[1])]
        d.sides = [list(s.sides[0]), list(s.sides[1])]
        d.pending = s.pending
        d.scores = s.scores
        d.result = s.result
        d.base_history = s.history
        d.history = []
        return d

    def freeze(self) -> State:
        history = self.base_history + tuple(self.history) if self.history else self.base_history
        h, s, t, w = self.hands, self.secrets, self.trade_offs, self.sides
        return State(self.rules, self.first_player, self.round, self.phase, self.turn,
                     self.markers, self.removed, (tuple(h[0]), tuple(h[1])), self.deck,
                     _two(self.used), (tuple(s[0]), tuple(s[1])), (tuple(t[0]), tuple(t[1])),
                     (tuple(w[0]), tuple(w[1])), self.pending, self.scores, self.result, history)

    @property
    def active(self) -> int:
        """TURN-1, as :attr:`State.active`."""
        return (self.first_player + self.round + self.turn) % 2

    def legal(self) -> tuple[Decision, ...]:
        """``legal_actions`` of the state this draft stands for."""
        if self.phase is _ACTION:
            player = (self.first_player + self.round + self.turn) % 2
            return action_menu(tuple(self.hands[player]), _unused(self.used[player]))
        if self.phase is _RESPONSE:
            return _responses(self.pending)
        return ()

    def play(self, decision: Decision) -> None:
        """Apply ``decision`` in place (the rules and errors of :func:`apply`)."""
        step = _STEPS.get(type(decision))
        if step is None or self.phase is _OVER:
            if self.phase is _OVER:
                raise IllegalActionError("the game is over: no decision follows the end",
                                         "END-2")
            raise InvalidActionError(f"not a Hanamikoji decision: {value_text(decision)}")
        step(self, decision)
        self.history.append(decision)

    def _deal(self, deal: Deal) -> None:
        """DEAL-1..4, TURN-2, as :func:`_deal`."""
        if self.phase is not _DEAL:
            raise IllegalActionError(
                f"round {self.round} is already dealt; a deal comes only at the start of a "
                "round", "DEAL-1")
        first, second = _hand_counts(deal.hands[0]), _hand_counts(deal.hands[1])
        found = C.add(C.add(first, second), C.counts((deal.removed,) + deal.draws))
        if found != FULL_DECK:
            raise IllegalActionError(
                f"a deal must hold the 21 item cards {C.describe(FULL_DECK)}, "
                f"not {C.describe(found)}", "DEAL-1")
        hands = [list(first), list(second)]
        hands[(self.first_player + self.round) % 2][deal.draws[0]] += 1  # TURN-2: the first draw
        self.phase = _ACTION
        self.turn = 0
        self.removed = deal.removed
        self.hands = hands
        self.deck = deal.draws[1:]

    def _act(self, action: Action) -> None:
        """TURN-3 and the four actions, as :func:`_act`."""
        if self.phase is not _ACTION:
            if self.phase is _DEAL:
                raise IllegalActionError(
                    f"round {self.round} has not been dealt yet; expected a deal, got "
                    f"{json_text(action)}", "DEAL-1")
            assert self.pending is not None  # an offer waits in the RESPONSE phase (TURN-4)
            raise IllegalActionError(
                f"player {1 - self.active} must first answer the pending "
                f"{json_text(self.pending)}",
                "TURN-4")
        player = (self.first_player + self.round + self.turn) % 2  # TURN-1
        kind = action.kind
        used = self.used[player]
        if kind in used:
            raise IllegalActionError(
                f"player {player} has already used their {kind.value} action this round",
                "TURN-3")
        hand = self.hands[player]
        if kind is _SECRET:
            card = action.card  # type: ignore[union-attr]
            if not hand[card]:
                self._refuse_cards(player, action, hand)
            hand[card] -= 1
            self.used[player] = used + (kind,)
            self.secrets[player][card] += 1
            self._end_turn()
            return
        cards = action.cards
        for g, n in _grouped(cards):
            if hand[g] < n:
                self._refuse_cards(player, action, hand)
        for g in cards:
            hand[g] -= 1
        self.used[player] = used + (kind,)
        if kind is _TRADE_OFF:
            trade_off = self.trade_offs[player]
            for g in cards:
                trade_off[g] += 1
        else:
            # ACT-GIFT-1, ACT-COMP-1: face up until the opponent answers (TURN-4).
            assert isinstance(action, (Gift, Competition))  # the two other kinds
            self.phase = _RESPONSE
            self.pending = action
            return
        self._end_turn()

    @staticmethod
    def _refuse_cards(player: int, action: Action, hand: list[int]) -> None:
        """ACT-*-1: the error of an action with cards ``hand`` does not hold (those of the
        first geisha short), as :func:`_act` words it."""
        kind = action.kind
        g, n = next((g, n) for g, n in _grouped(action.cards) if hand[g] < n)
        what = (f"a card of geisha {g} that is not in their hand" if hand[g] == 0 else
                f"{n} cards of geisha {g} but holds {hand[g]}")
        raise IllegalActionError(
            f"player {player} plays a {kind.value} with {what} "
            f"(hand: {C.describe(tuple(hand))})", _ACTION_RULE[kind])

    def _respond(self, pick: GiftPick | CompetitionPick) -> None:
        """ACT-GIFT-2/3, ACT-COMP-2/3, as :func:`_respond` (whose checks and messages it
        shares)."""
        offer = self.pending
        if self.phase is not _RESPONSE or offer is None:
            if self.phase is _DEAL:
                raise IllegalActionError(
                    f"round {self.round} has not been dealt yet; expected a deal, got "
                    f"{json_text(pick)}", "DEAL-1")
            raise IllegalActionError(f"player {self.active} is to take an action; there is "
                                     f"no offer to answer with {json_text(pick)}", "TURN-3")
        player = (self.first_player + self.round + self.turn) % 2  # TURN-1
        taker = self.sides[1 - player]
        keeper = self.sides[player]
        if isinstance(offer, Gift):
            if type(pick) is not GiftPick or pick.card not in offer.cards:
                what = (f"takes geisha {pick.card}, which is not in" if isinstance(pick, GiftPick)
                        else "answers with a competition set to")
                raise IllegalActionError(
                    f"player {1 - self.active} {what} the gift "
                    f"{C.describe(C.counts(offer.cards))}", "ACT-GIFT-2")
            # ACT-GIFT-3: the opponent's card, the offerer the other two.
            card = pick.card
            for g in offer.cards:
                keeper[g] += 1
            keeper[card] -= 1
            taker[card] += 1
        else:
            if type(pick) is not CompetitionPick or pick.pair not in offer.pairs:
                what = (f"takes the set {C.describe(C.counts(pick.pair))}, which is not one of"
                        if isinstance(pick, CompetitionPick) else "answers with a gift card to")
                sets = " and ".join(C.describe(C.counts(p)) for p in offer.pairs)
                raise IllegalActionError(
                    f"player {1 - self.active} {what} the competition sets {sets}", "ACT-COMP-2")
            # ACT-COMP-3: the opponent's set, the offerer the other.
            first, second = offer.pairs
            taken, kept = (first, second) if pick.pair == first else (second, first)
            for g in taken:
                taker[g] += 1
            for g in kept:
                keeper[g] += 1
        self.phase = _ACTION
        self.pending = None
        self._end_turn()

    def _end_turn(self) -> None:
        """TURN-1, TURN-2: the next player draws and acts; after 8 turns the round is scored."""
        turn = self.turn + 1
        self.turn = turn
        if turn < TURNS_PER_ROUND:
            deck = self.deck
            self.hands[(self.first_player + self.round + turn) % 2][deck[0]] += 1
            self.deck = deck[1:]
            return
        self._score()

    def _score(self) -> None:
        """SCORE-1..3, END-1, then the end or the update (UPDATE-1..4), as :func:`_score`."""
        side0 = C.add(self.sides[0], self.secrets[0])  # type: ignore[arg-type]
        side1 = C.add(self.sides[1], self.secrets[1])  # type: ignore[arg-type]
        markers = score_markers(self.markers, side0, side1)
        self.scores += (RoundScore(self.round, (side0, side1), markers),)
        self.markers = markers
        result = self.rules.round_result(markers, self.round)
        if result is not None:
            self.phase = _OVER
            self.result = result
            return
        # UPDATE-1..4: every card goes back, markers stay, actions reset, the other player starts.
        self.round += 1
        self.phase = _DEAL
        self.turn = 0
        self.removed = None
        self.hands = [list(EMPTY), list(EMPTY)]
        self.deck = ()
        self.used = [(), ()]
        self.secrets = [list(EMPTY), list(EMPTY)]
        self.trade_offs = [list(EMPTY), list(EMPTY)]
        self.sides = [list(EMPTY), list(EMPTY)]


#: The draft's transition for each type of decision.
_STEPS: dict[type, Callable[[Draft, Any], None]] = {
    Deal: Draft._deal, Secret: Draft._act, TradeOff: Draft._act, Gift: Draft._act,
    Competition: Draft._act, GiftPick: Draft._respond, CompetitionPick: Draft._respond}


def random_game(rng: random.Random, rules: Rules = STANDARD, first_player: int = 0) -> State:
    """A whole game: random deals, and every decision uniform over :func:`legal_actions`
    (played in one :class:`Draft`, frozen once)."""
    d = Draft.of(new_game(rules, first_player))
    while d.phase is not _OVER:
        if d.phase is _DEAL:
            d.play(random_deal(rng))
        else:
            d.play(rng.choice(d.legal()))
    return d.freeze()
