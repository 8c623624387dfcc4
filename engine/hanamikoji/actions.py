"""Decisions: the deal (chance), the four actions, and the opponent's two kinds of answer.

Every decision is a frozen value whose cards are sorted geisha numbers, so that two decisions
with the same outcome are equal (cards of one geisha are interchangeable, COMP-2). Constructors
normalise order and reject malformed input with :class:`InvalidActionError`.

>>> Competition(((6, 0), (3, 1)))
Competition(pairs=((0, 6), (1, 3)))
>>> sorted([GiftPick(2), Secret(5), Gift((1, 0, 1))])
[Secret(card=5), Gift(cards=(0, 1, 1)), GiftPick(card=2)]
"""

from __future__ import annotations

import enum
import functools
from typing import Any, ClassVar, Union

import attrs

from hanamikoji.engine.core.codec import dumps, value_text

from .cards import NUM_CARDS, NUM_GEISHA, Cards, counts
from .errors import InvalidActionError


class ActionKind(str, enum.Enum):
    """The four action markers (COMP-3), in the order the rulebooks list them.

    A ``str`` enum: the record's names are its values, and it hashes at C speed (it keys the
    action-menu cache on every turn).
    """

    SECRET = "secret"
    TRADE_OFF = "trade-off"
    GIFT = "gift"
    COMPETITION = "competition"

    @property
    def size(self) -> int:
        """How many cards the action takes from the hand."""
        return _SIZES[self]

    def __repr__(self) -> str:
        return f"ActionKind.{self.name}"


_SIZES = {ActionKind.SECRET: 1, ActionKind.TRADE_OFF: 2, ActionKind.GIFT: 3,
          ActionKind.COMPETITION: 4}
ALL_KINDS: tuple[ActionKind, ...] = tuple(ActionKind)


def _card(value: object, what: str = "card") -> int:
    if type(value) is not int or not 0 <= value < NUM_GEISHA:
        raise InvalidActionError(
            f"{what} must be a geisha number from 0 to {NUM_GEISHA - 1}, not {value_text(value)}",
            "COMP-2")
    return value


def _cards(value: object, n: int, what: str) -> tuple[int, ...]:
    if not isinstance(value, (tuple, list)) or len(value) != n:
        raise InvalidActionError(f"{what} must be {n} geisha numbers, not {value_text(value)}",
                                 "COMP-2")
    return tuple(sorted(_card(v, f"a card of {what}") for v in value))


# The converters, one named function each (attrs' type checking follows named converters).


def _trade_off(value: object) -> tuple[int, int]:
    a, b = _cards(value, 2, "a trade-off")
    return (a, b)


def _gift(value: object) -> tuple[int, int, int]:
    a, b, c = _cards(value, 3, "a gift")
    return (a, b, c)


def _set(value: object) -> tuple[int, int]:
    a, b = _cards(value, 2, "a competition set")
    return (a, b)


def _pairs(value: object) -> tuple[tuple[int, int], tuple[int, int]]:
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise InvalidActionError(
            f"a competition must be two sets of 2 cards, not {value_text(value)}", "ACT-COMP-1")
    a, b = sorted(_set(v) for v in value)
    return (a, b)


@functools.total_ordering
class _Decision:
    """Ordering shared by all decisions: by kind, then by cards (legal_actions is sorted)."""

    _rank: ClassVar[int]

    def _key(self) -> tuple:
        return (self._rank, self._fields())

    def _fields(self) -> tuple:
        """The fields that order decisions of one kind (each kind says which)."""
        raise NotImplementedError

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, _Decision):
            return NotImplemented
        return self._key() < other._key()


@attrs.frozen(order=False)
class Secret(_Decision):
    """ACT-SECRET-1: one card face down, scored at the end of the round."""

    card: int = attrs.field(converter=_card)
    kind: ClassVar[ActionKind] = ActionKind.SECRET
    _rank: ClassVar[int] = 0

    def _fields(self) -> tuple:
        return (self.card,)

    @property
    def cards(self) -> tuple[int, ...]:
        return (self.card,)


@attrs.frozen(order=False)
class TradeOff(_Decision):
    """ACT-TRADE-1: two cards face down, not scored."""

    cards: tuple[int, int] = attrs.field(converter=_trade_off)
    kind: ClassVar[ActionKind] = ActionKind.TRADE_OFF
    _rank: ClassVar[int] = 1

    def _fields(self) -> tuple:
        return (self.cards,)


@attrs.frozen(order=False)
class Gift(_Decision):
    """ACT-GIFT-1: three cards face up; the opponent takes one (ACT-GIFT-2)."""

    cards: tuple[int, int, int] = attrs.field(converter=_gift)
    kind: ClassVar[ActionKind] = ActionKind.GIFT
    _rank: ClassVar[int] = 2

    def _fields(self) -> tuple:
        return (self.cards,)


@attrs.frozen(order=False)
class Competition(_Decision):
    """ACT-COMP-1: four cards face up in two sets of two; the opponent takes a set (ACT-COMP-2).

    The two sets are unordered: ``pairs`` is sorted.
    """

    pairs: tuple[tuple[int, int], tuple[int, int]] = attrs.field(converter=_pairs)
    #: The four cards, sorted (derived from ``pairs``).
    cards: tuple[int, ...] = attrs.field(init=False, eq=False, repr=False)
    kind: ClassVar[ActionKind] = ActionKind.COMPETITION
    _rank: ClassVar[int] = 3

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(sorted(self.pairs[0] + self.pairs[1])))

    def _fields(self) -> tuple:
        return (self.pairs,)


@attrs.frozen(order=False)
class GiftPick(_Decision):
    """ACT-GIFT-2: the opponent takes the card of geisha ``card`` from the pending gift."""

    card: int = attrs.field(converter=_card)
    _rank: ClassVar[int] = 4

    def _fields(self) -> tuple:
        return (self.card,)


@attrs.frozen(order=False)
class CompetitionPick(_Decision):
    """ACT-COMP-2: the opponent takes the set ``pair`` from the pending competition."""

    pair: tuple[int, int] = attrs.field(converter=_set)
    _rank: ClassVar[int] = 5

    def _fields(self) -> tuple:
        return (self.pair,)


def _hand(value: object) -> tuple[int, ...]:
    return _cards(value, 6, "a hand")


def _hands(value: object) -> tuple[tuple[int, ...], tuple[int, ...]]:
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise InvalidActionError(f"a deal must have two hands, not {value_text(value)}", "DEAL-3")
    return (_hand(value[0]), _hand(value[1]))


def _draws(value: object) -> tuple[int, ...]:
    if not isinstance(value, (tuple, list)) or len(value) != NUM_CARDS - 13:
        raise InvalidActionError(
            f"a deal must have {NUM_CARDS - 13} draws, not {value_text(value)}", "DEAL-4")
    return tuple(_card(v, "a draw") for v in value)


@attrs.frozen(order=False)
class Deal(_Decision):
    """The chance outcome of DEAL-1..4: the removed card, two hands of six, and the deck order.

    ``draws[t]`` is drawn at turn ``t`` of the round (TURN-2).
    """

    removed: int = attrs.field(converter=lambda v: _card(v, "the removed card"))
    hands: tuple[tuple[int, ...], tuple[int, ...]] = attrs.field(converter=_hands)
    draws: tuple[int, ...] = attrs.field(converter=_draws)
    _rank: ClassVar[int] = -1

    def _fields(self) -> tuple:
        return (self.removed, self.hands, self.draws)

    @classmethod
    def checked(cls, removed: int, hands: Any, draws: Any) -> "Deal":
        """The deal of values a reader has already checked (geisha numbers, two hands of six,
        eight draws), built without the converters' second check; hands are sorted as the
        converters sort them."""
        deal = object.__new__(cls)
        object.__setattr__(deal, "removed", removed)
        object.__setattr__(deal, "hands", (tuple(sorted(hands[0])), tuple(sorted(hands[1]))))
        object.__setattr__(deal, "draws", tuple(draws))
        return deal

    def multiset(self) -> Cards:
        """All the cards of the deal, as counts."""
        return counts((self.removed,) + self.hands[0] + self.hands[1] + self.draws)


Action = Union[Secret, TradeOff, Gift, Competition]
Response = Union[GiftPick, CompetitionPick]
Decision = Union[Deal, Secret, TradeOff, Gift, Competition, GiftPick, CompetitionPick]
ACTION_TYPES = (Secret, TradeOff, Gift, Competition)


# --- the record's JSON form, for codecs and messages ------------------------------------------


def deal_json(deal: Deal) -> dict[str, Any]:
    """A deal's removed card, hands and draws, as in a record's round (without its turns)."""
    return {"removed": deal.removed, "hands": [sorted(deal.hands[0]), sorted(deal.hands[1])],
            "draws": list(deal.draws)}


def decision_json(decision: Decision) -> dict[str, Any]:
    """The canonical JSON form of any decision (see :mod:`.codec`); it lives here, beside the
    decisions, so that the engine's messages speak it too."""
    if isinstance(decision, Deal):
        return {"deal": deal_json(decision)}
    if isinstance(decision, Competition):
        return {"action": "competition", "sets": [sorted(p) for p in sorted(decision.pairs)]}
    if isinstance(decision, (Secret, TradeOff, Gift)):
        return {"action": decision.kind.value, "cards": sorted(decision.cards)}
    if isinstance(decision, GiftPick):
        return {"response": "gift", "pick": decision.card}
    if isinstance(decision, CompetitionPick):
        return {"response": "competition", "pick": sorted(decision.pair)}
    raise TypeError(f"not a decision: {value_text(decision)}")


def json_text(decision: Decision) -> str:
    """A decision as a message shows it: its record JSON, never a Python repr.

    >>> json_text(Competition(((0, 5), (5, 6))))
    '{"action":"competition","sets":[[0,5],[5,6]]}'
    """
    return dumps(decision_json(decision))
