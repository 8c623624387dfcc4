"""Maiko's part of the protocol's JSON Schemas (:mod:`hanamikoji.oracle.core.protocol_schema`):
its decisions, its layout (the one chance outcome, MK-SETUP-5), its results and options, all the
record schema's own definitions (spec/maiko/record.schema.json, embedded in the document), and
its view (MK-INFO-1..3), field by field, as :func:`hanamikoji.engine.maiko.view.view_to_json`
writes it. docs/maiko.md's table of the view is made from the descriptions here, and the tests
check that every key of the schema is one of the view's and the other way round.
"""

from __future__ import annotations

from typing import Any

from hanamikoji.engine.maiko.components import NUM_ITEMS, PLAYER_COUNTS, Tutor
from hanamikoji.engine.maiko.game import Phase
from hanamikoji.oracle.core.protocol_schema import ProtocolSchemaExtension, closed

#: The record schema's ``$id``: its definitions are referred to under it.
RECORD = "urn:hanamikoji:maiko-record:1"


def record(pointer: str) -> dict[str, str]:
    """A reference to the definition at ``pointer`` in the record schema."""
    return {"$ref": f"{RECORD}#{pointer}"}


TILE = record("/$defs/tile")
PLAYER = record("/$defs/player")
SPACE = record("/$defs/space")
COUNT = {"type": "integer", "minimum": 0}
NULL = {"type": "null"}


def per_player(items: dict[str, Any], description: str) -> dict[str, Any]:
    """A list with one entry per player, player 0 first."""
    return {"description": description, "type": "array", "items": items,
            "minItems": min(PLAYER_COUNTS), "maxItems": max(PLAYER_COUNTS)}


class MaikoProtocol(ProtocolSchemaExtension):
    """Maiko's decisions, layout, view, results and options."""

    def options(self) -> dict[str, Any]:
        return record("/properties/options")

    def decision(self) -> dict[str, Any]:
        return record("/$defs/decision")

    def chance_outcome(self) -> dict[str, Any]:
        return closed({"kind": {"const": "layout"},
                       "tiles": record("/properties/layout/oneOf/1")},
                      "MK-SETUP-5: the layout, the tile on each space, space 0 first.")

    def result(self) -> dict[str, Any]:
        return record("/properties/result")

    def view(self) -> dict[str, Any]:
        tutors = ", ".join(t.name.lower().replace("okasan", "oka-san").replace("onesan", "one-san")
                           for t in Tutor)
        seen = closed({
            "turn": {"description": "The turn of the step, from 0.", **COUNT},
            "player": {"description": "Who decided.", **PLAYER},
            "decision": {"description": "What they decided.", **record("/$defs/decision")},
            "tile": {"description": "The tile the step showed this player: that of every flip "
                                    "and Danna reveal, and of their own One-san looks only "
                                    "(MK-TUTOR-ONESAN-2); absent otherwise.", **TILE},
        }, "One step of the game as this player saw it.", optional=("tile",))
        properties = {
            "player": {"description": "The player who sees.", **PLAYER},
            "options": {"description": "The game's options, as new_game gives them.",
                        **record("/properties/options")},
            "first_player": {"description": "The player of turn 0 (MK-SETUP-6).", **PLAYER},
            "current_player": {
                "description": "The player to decide; -1 before the layout (a chance outcome "
                               "is due), -4 once the game is over.",
                "oneOf": [PLAYER, {"enum": [-1, -4]}]},
            "phase": {"description": "What the game waits for: the layout, a first flip (or a "
                                     "tutor visit), the second flip (or a visit), a One-san "
                                     "look or stop, a row discard's next item space, the "
                                     "ending step, or nothing (over).",
                      "enum": [p.value for p in Phase]},
            "turn": {"description": "The turn, counted from 0 (MK-TURN-1).", **COUNT},
            "board": {"description": "Each space, space 0 first: \"down\" (a face-down tile), "
                                     "\"empty\", or the face-up tile (a friend, or the first "
                                     "tile of a pair being flipped); no space before the "
                                     "layout.",
                      "type": "array", "items": {"anyOf": [{"enum": ["down", "empty"]}, TILE]},
                      "anyOf": [{"maxItems": 0}, {"minItems": 60, "maxItems": 81}]},
            "maiko_boards": per_player(
                {"type": "array", "minItems": NUM_ITEMS, "maxItems": NUM_ITEMS,
                 "items": {"type": "array", "items": TILE}},
                "Each player's maiko board: for each item 0 to 8, the tiles placed on it."),
            "tokens": closed({
                "hands": per_player(COUNT, "The tokens each player holds."),
                "pool": {"description": "The tokens in the pool.", **COUNT},
                "tutor_cards": {"description": f"The tokens on each tutor card, in the order "
                                              f"{tutors}.",
                                "type": "array", "minItems": len(Tutor), "maxItems": len(Tutor),
                                "items": COUNT},
            }, "Where the tokens are (MK-TOKEN-1, MK-TOKEN-2)."),
            "discarded": {"description": "The tiles discarded, in order.", "type": "array",
                          "items": TILE},
            "box": {"description": "The tiles put back in the box at setup (MK-SETUP-4).",
                    "type": "array", "items": TILE},
            "pending": {"description": "The space of a first flip lying face up, waiting for "
                                      "the second.", "oneOf": [NULL, SPACE]},
            "visited": {"description": "Whether this turn's tutor visit was used "
                                      "(MK-TUTOR-1).", "type": "boolean"},
            "looks": {"description": "The spaces looked at in the One-san visit in progress.",
                      "type": "array", "items": SPACE},
            "row_discard": {
                "description": "The row discard in progress (MK-ROW-3).",
                "oneOf": [NULL, closed({
                    "row": {"description": "The row being discarded: 0 (items 0 to 2), 1 (items "
                                           "3 to 5) or 2 (items 6 to 8).",
                            "type": "integer", "minimum": 0, "maximum": 2},
                    "next": {"description": "Which of the row's three item spaces is decided "
                                            "next, 0 to 2.",
                             "type": "integer", "minimum": 0, "maximum": 2},
                })]},
            "end_triggered_by": {"description": "The first player to fill every item space of "
                                                "their maiko board, which started the last "
                                                "turns (MK-END-1).",
                                 "oneOf": [NULL, PLAYER]},
            "result": {"description": "How the game ended, once it has.",
                       "oneOf": [NULL, record("/properties/result")]},
            "log": {"description": "Every step of the game as this player saw it, in order "
                                   "(perfect recall, MK-INFO-3).",
                    "type": "array", "items": seen},
        }
        return closed(properties, "MK-INFO-1..3: what one player sees; a key beyond these shows "
                                  "more than the rules allow.")


EXTENSION = MaikoProtocol
