"""Hanamikoji's part of the protocol's JSON Schemas (:mod:`hanamikoji.oracle.core.protocol_schema`):
its decisions, deals, views and results (INFO-1, INFO-2), and protocol 1, the requests every
Hanamikoji adapter has answered since before there were two games (``new_game`` with a
``variant``, ``deal``, ``random_deal``).

Cards, sets and results are the record schema's own definitions
(spec/hanamikoji/record.schema.json, embedded in the document), referred to by their place
there; the view has the codec's keys (``VIEW_FIELDS`` of :mod:`hanamikoji.engine.hanamikoji.codec`,
which the tests compare).
"""

from __future__ import annotations

from typing import Any

from hanamikoji.engine.hanamikoji.actions import ALL_KINDS, ActionKind
from hanamikoji.engine.hanamikoji.game import Phase
from hanamikoji.oracle.core.protocol_schema import (
    OK,
    ProtocolSchemaExtension,
    closed,
    ref,
    request,
)

#: The record schema's ``$id``: its definitions are referred to under it.
RECORD = "urn:hanamikoji:record:1"


def record(pointer: str) -> dict[str, str]:
    """A reference to the definition at ``pointer`` in the record schema."""
    return {"$ref": f"{RECORD}#{pointer}"}


GEISHA = record("/$defs/geisha")
PLAYER = record("/$defs/player")
CARDS = {"description": "Cards, as geisha numbers, sorted.", "type": "array", "items": GEISHA}
PAIR_OF = {"type": "array", "minItems": 2, "maxItems": 2}


def _action(kind: ActionKind, description: str) -> dict[str, Any]:
    """An action as the protocol writes it: the record's turn of that kind without its player
    and its pick."""
    key = "sets" if kind is ActionKind.COMPETITION else "cards"
    return closed({"action": {"const": kind.value},
                   key: record(f"/$defs/{kind.value}/properties/{key}")}, description)


ACTIONS = {
    ActionKind.SECRET: "ACT-SECRET-1: one card kept face down.",
    ActionKind.TRADE_OFF: "ACT-TRADE-1: two cards put away face down.",
    ActionKind.GIFT: "ACT-GIFT-1: three cards offered face up.",
    ActionKind.COMPETITION: "ACT-COMP-1: two sets of two cards offered face up.",
}


class HanamikojiProtocol(ProtocolSchemaExtension):
    """Hanamikoji's decisions, deals, views and results, and its protocol-1 requests."""

    def decision(self) -> dict[str, Any]:
        return {"description": "An action (its cards in any order) or an answer to a gift or "
                               "competition.",
                "oneOf": [ref(f"action-{kind.value}") for kind in ALL_KINDS] + [
                    closed({"response": {"const": "gift"}, "pick": GEISHA},
                           "ACT-GIFT-2: the geisha of the card taken from a gift."),
                    closed({"response": {"const": "competition"}, "pick": record("/$defs/cards2")},
                           "ACT-COMP-2: the set taken from a competition.")]}

    def chance_outcome(self) -> dict[str, Any]:
        return closed({"deal": ref("deal")}, "DEAL-1..4: a round's deal.")

    def result(self) -> dict[str, Any]:
        return record("/$defs/result")

    def view(self) -> dict[str, Any]:
        sides = {**PAIR_OF, "items": CARDS}
        entry = {"player": PLAYER, "action": {"enum": [k.value for k in ALL_KINDS]}}
        maybe_cards = {"oneOf": [{"type": "null"}, CARDS]}
        log = {"description": "This round's turns in order; cards are null when face down and "
                              "not the viewer's; a gift's or competition's pick is null until "
                              "answered.",
               "type": "array", "items": {"oneOf": [
                   closed({**entry, "action": {"enum": ["secret", "trade-off"]},
                           "cards": maybe_cards}),
                   closed({**entry, "action": {"const": "gift"}, "cards": maybe_cards,
                           "pick": {"oneOf": [{"type": "null"}, GEISHA]}}),
                   closed({**entry, "action": {"const": "competition"},
                           "sets": {"oneOf": [{"type": "null"},
                                              record("/$defs/competition/properties/sets")]},
                           "pick": {"oneOf": [{"type": "null"}, record("/$defs/cards2")]}})]}}
        count = {"type": "integer", "minimum": 0}
        markers = {"description": "The seven favour markers: null in the centre, else the "
                                  "player whose side it is on.",
                   "type": "array", "minItems": 7, "maxItems": 7,
                   "items": {"oneOf": [{"type": "null"}, PLAYER]}}
        properties = {
            "player": PLAYER,
            "variant": record("/properties/variant"),
            "first_player": PLAYER,
            "round": {"type": "integer", "minimum": 0},
            "phase": {"enum": [p.value for p in Phase]},
            "turn": {"type": "integer", "minimum": 0, "maximum": 8},
            "current_player": {"oneOf": [PLAYER, {"enum": ["chance", "terminal"]}]},
            "markers": markers,
            "hand": CARDS,
            "secret": CARDS,
            "trade_off": CARDS,
            "sides": {"description": "The face-up cards each player has won this round.", **sides},
            "used": {"description": "The actions each player has used this round, in the order "
                                    "secret, trade-off, gift, competition.",
                     **PAIR_OF, "items": {"type": "array", "uniqueItems": True, "items": {
                         "enum": [k.value for k in ALL_KINDS]}}},
            "pending": {"description": "The gift or competition waiting for an answer.",
                        "oneOf": [{"type": "null"}, ref("action-gift"),
                                  ref("action-competition")]},
            "opponent_hand_size": count,
            "opponent_secret_size": count,
            "opponent_trade_off_size": count,
            "deck_size": count,
            "log": log,
            "scores": {"description": "One per finished round, the secrets in the sides.",
                       "type": "array", "items": closed(
                           {"round": {"type": "integer", "minimum": 0}, "sides": sides,
                            "markers": markers})},
            "result": {"oneOf": [{"type": "null"}, record("/$defs/result")]},
        }
        return closed(properties, "INFO-1: what one player sees; a key beyond these shows more "
                                  "than the rules allow (INFO-2).")

    def legacy(self) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
        return {
            "new_game-protocol-1": (request(
                "new_game", "Protocol 1: start a new game of Hanamikoji, forgetting any other.",
                variant=record("/properties/variant"), first_player=PLAYER), OK),
            "deal": (request("deal", "Protocol 1: the deal of the round that starts now.",
                             deal=ref("deal")), OK),
            "random_deal": (request(
                "random_deal", "Protocol 1, optional: the deal of a new game's first round drawn "
                "from a random source seeded with seed.",
                seed={"type": "integer"}), closed({"deal": ref("deal")})),
        }

    def definitions(self) -> dict[str, Any]:
        """The actions (a decision, and a view's pending offer) and the deal."""
        out: dict[str, Any] = {f"action-{kind.value}": _action(kind, text)
                               for kind, text in ACTIONS.items()}
        out["deal"] = closed(
            {"removed": record("/$defs/round/properties/removed"),
             "hands": record("/$defs/round/properties/hands"),
             "draws": record("/$defs/round/properties/draws")},
            "DEAL-1..4: the card put away, each player's six cards, and draws[t], the card drawn "
            "at turn t.")
        return out


EXTENSION = HanamikojiProtocol
