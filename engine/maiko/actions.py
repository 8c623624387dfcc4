"""Maiko's decisions: one frozen value per kind of choice, and the chance outcome (the layout).

Decisions of different kinds sort by their :class:`Kind` first, then by their fields, so a menu
of mixed decisions has one order (``legal_actions`` is sorted). Reprs are Python expressions.

>>> sorted([Danna(3), Flip(7), Flip(2), Sweep(4, None), Sweep(4, Colour.WHITE)])
[Flip(space=2), Flip(space=7), Danna(space=3), Sweep(item=4, colour=None), Sweep(item=4, colour=Colour.WHITE)]
"""

from __future__ import annotations

import enum
from typing import Any, ClassVar, Union

import attrs

from hanamikoji.engine.core.codec import dumps, value_text

from .components import Colour, tile_name


class Kind(enum.IntEnum):
    """The kinds of decision, in the order menus list them."""

    LAYOUT = 0
    FLIP = 1
    DANNA = 2
    OKASAN = 3
    ONESAN = 4
    ONESAN_STOP = 5
    SABANTO = 6
    SWEEP = 7
    END_TURN = 8

    def __repr__(self) -> str:
        return f"Kind.{self.name}"

    @property
    def label(self) -> str:
        """The decision's ``kind`` in JSON."""
        return _LABELS[self]


_LABELS = {Kind.LAYOUT: "layout", Kind.FLIP: "flip", Kind.DANNA: "danna", Kind.OKASAN: "oka-san",
           Kind.ONESAN: "one-san", Kind.ONESAN_STOP: "one-san-stop", Kind.SABANTO: "sabanto",
           Kind.SWEEP: "sweep", Kind.END_TURN: "end-turn"}
KIND_BY_LABEL = {label: kind for kind, label in _LABELS.items()}


class _Ordered:
    """Mixin: order across decision kinds by ``(kind, fields...)``."""

    __slots__ = ()
    kind: ClassVar[Kind]

    def sort_key(self) -> tuple[Any, ...]:
        raise NotImplementedError

    def __lt__(self, other: Any) -> bool:
        if not isinstance(other, _Ordered):
            return NotImplemented
        return self.sort_key() < other.sort_key()

    def __le__(self, other: Any) -> bool:
        if not isinstance(other, _Ordered):
            return NotImplemented
        return self.sort_key() <= other.sort_key()

    def __gt__(self, other: Any) -> bool:
        if not isinstance(other, _Ordered):
            return NotImplemented
        return self.sort_key() > other.sort_key()

    def __ge__(self, other: Any) -> bool:
        if not isinstance(other, _Ordered):
            return NotImplemented
        return self.sort_key() >= other.sort_key()


@attrs.frozen(order=False)
class Layout(_Ordered):
    """MK-SETUP-5: the chance outcome: the tile code lying face down on each space."""

    kind: ClassVar[Kind] = Kind.LAYOUT
    tiles: tuple[int, ...]

    def sort_key(self) -> tuple[Any, ...]:
        return (Kind.LAYOUT, self.tiles)


@attrs.frozen(order=False)
class Flip(_Ordered):
    """MK-FLIP-1: flip the face-down tile on ``space``."""

    kind: ClassVar[Kind] = Kind.FLIP
    space: int

    def sort_key(self) -> tuple[Any, ...]:
        return (Kind.FLIP, self.space)


@attrs.frozen(order=False)
class Danna(_Ordered):
    """MK-TUTOR-DANNA-1: visit Danna and reveal the face-down tile on ``space``."""

    kind: ClassVar[Kind] = Kind.DANNA
    space: int

    def sort_key(self) -> tuple[Any, ...]:
        return (Kind.DANNA, self.space)


@attrs.frozen(order=False)
class OkaSan(_Ordered):
    """MK-TUTOR-OKASAN-1: visit Oka-san and take the tile of one's colour from ``owner``'s item
    space ``item``."""

    kind: ClassVar[Kind] = Kind.OKASAN
    owner: int
    item: int

    def sort_key(self) -> tuple[Any, ...]:
        return (Kind.OKASAN, self.owner, self.item)


@attrs.frozen(order=False)
class OneSan(_Ordered):
    """MK-TUTOR-ONESAN-1: look at the face-down tile on ``space`` (the first look of a visit
    pays the visit)."""

    kind: ClassVar[Kind] = Kind.ONESAN
    space: int

    def sort_key(self) -> tuple[Any, ...]:
        return (Kind.ONESAN, self.space)


@attrs.frozen(order=False)
class OneSanStop(_Ordered):
    """MK-TUTOR-ONESAN-1: stop looking (after at least one look)."""

    kind: ClassVar[Kind] = Kind.ONESAN_STOP

    def sort_key(self) -> tuple[Any, ...]:
        return (Kind.ONESAN_STOP,)


@attrs.frozen(order=False)
class Sabanto(_Ordered):
    """MK-TUTOR-SABANTO-1: visit Sabanto and discard a ``colour`` tile from one's item space
    ``item``."""

    kind: ClassVar[Kind] = Kind.SABANTO
    item: int
    colour: Colour

    def sort_key(self) -> tuple[Any, ...]:
        return (Kind.SABANTO, self.item, int(self.colour))


@attrs.frozen(order=False)
class Sweep(_Ordered):
    """MK-ROW-3: in a row discard, discard a ``colour`` tile from item space ``item``, or none
    (``colour`` None)."""

    kind: ClassVar[Kind] = Kind.SWEEP
    item: int
    colour: Colour | None

    def sort_key(self) -> tuple[Any, ...]:
        return (Kind.SWEEP, self.item, -1 if self.colour is None else int(self.colour))


@attrs.frozen(order=False)
class EndTurn(_Ordered):
    """MK-END-1: in the ending step, end the turn without (another) tutor visit."""

    kind: ClassVar[Kind] = Kind.END_TURN

    def sort_key(self) -> tuple[Any, ...]:
        return (Kind.END_TURN,)


Decision = Union[Layout, Flip, Danna, OkaSan, OneSan, OneSanStop, Sabanto, Sweep, EndTurn]
DECISION_TYPES = (Layout, Flip, Danna, OkaSan, OneSan, OneSanStop, Sabanto, Sweep, EndTurn)


# --- the record's JSON form, for the codecs and messages --------------------------------------


def decision_to_json(decision: Decision) -> dict[str, Any]:
    """A decision as JSON: ``{"kind": "flip", "space": 12}`` and so on (the record's form; it
    lives here, beside the decisions, so that the engine's messages speak it too)."""
    kind = decision.kind
    out: dict[str, Any] = {"kind": kind.label}
    if isinstance(decision, Layout):
        out["tiles"] = [tile_name(t) for t in decision.tiles]
    elif isinstance(decision, (Flip, Danna, OneSan)):
        out["space"] = decision.space
    elif isinstance(decision, OkaSan):
        out["owner"] = decision.owner
        out["item"] = decision.item
    elif isinstance(decision, (Sabanto, Sweep)):
        out["item"] = decision.item
        out["colour"] = None if decision.colour is None else decision.colour.label
    return out


def json_text(decision: Decision) -> str:
    """A decision as a message shows it: its record JSON, never a Python repr; one built with
    fields out of range (the engine refuses it) is shown field by field.

    >>> json_text(Sweep(4, Colour.WHITE))
    '{"colour":"white","item":4,"kind":"sweep"}'
    """
    try:
        return dumps(decision_to_json(decision))
    except (AttributeError, TypeError, ValueError, KeyError, IndexError):
        fields = {f.name: getattr(decision, f.name) for f in attrs.fields(type(decision))}
        text = value_text({"kind": decision.kind.label, **fields})
        if not text.endswith(" object"):
            return text
        return f"a {decision.kind.label} with " + ", ".join(
            f"{name} {value_text(value)}" for name, value in fields.items())
