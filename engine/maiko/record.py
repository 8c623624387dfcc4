"""JSON forms of Maiko's decisions and views, and the record format ``maiko-record/1``.

Reading is layered: the shape is checked first (:class:`MalformedRecordError` names the JSON
path), then the record is played through the engine (:class:`IllegalRecordError` names the rule
and where: ``{"turn": t, "step": k}``, both counted from 0 as the record's arrays are).

>>> import random
>>> from .components import Config
>>> from .game import apply, legal_actions, new_game, random_layout
>>> rng = random.Random(2)
>>> state = apply(new_game(Config.make(3), 1), random_layout(Config.make(3), rng))
>>> for _ in range(40):
...     state = apply(state, rng.choice(legal_actions(state)))
>>> read_record(to_record(state)) == state
True
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable

from hanamikoji.engine.core.errors import GameError, IllegalActionError, InvalidActionError, OptionError
from hanamikoji.engine.core.game import IllegalRecordError, MalformedRecordError

from .actions import (
    KIND_BY_LABEL,
    Danna,
    Decision,
    EndTurn,
    Flip,
    Kind,
    Layout,
    OkaSan,
    OneSan,
    OneSanStop,
    Sabanto,
    Sweep,
    decision_to_json,
)
from .components import NUM_COLOURS, NUM_ITEMS, TOTAL_TILES, Colour, Config, parse_tile, tile_name
from .game import (  # the shared decision values of the engine's menus
    _DANNAS,
    _END_TURN,
    _FLIPS,
    _LOOKS,
    _OKASANS,
    _SABANTOS,
    _STOP,
    _SWEEPS,
    Draft,
    Phase,
    Reason,
    Result,
    State,
    new_game,
)

FORMAT = "maiko-record/1"
_REASON_RULE = {Reason.FULL_BOARD: "MK-END-2", Reason.NO_FACE_DOWN: "MK-END-4",
                Reason.STATIC: "MK-STATIC-2"}


# --- options --------------------------------------------------------------------------------


def options_of(config: Config) -> dict[str, Any]:
    """The options of ``config`` as JSON: ``colours`` comma-separated, ``removed_colour`` the
    colour's name or ``""`` (3 or 4 players)."""
    return {"players": config.players,
            "colours": ",".join(c.label for c in config.colours),
            "removed_colour": config.removed_colour.label if config.removed_colour else ""}


def make_config(values: dict[str, Any]) -> Config:
    """The configuration for option values (``colours`` and ``removed_colour`` empty: the
    defaults of MK-SETUP-1 and MK-SETUP-4)."""
    colours = values.get("colours", "")
    removed = values.get("removed_colour", "")
    if not isinstance(colours, str):
        raise OptionError(f"option colours takes names separated by commas, not {colours!r}")
    if not isinstance(removed, str):
        raise OptionError(f"option removed_colour takes a colour name or '', not {removed!r}")
    names = [c for c in colours.split(",") if c.strip()] if colours.strip() else None
    return Config.make(values.get("players", 2), names, removed or None)


# --- decisions ------------------------------------------------------------------------------


_FIELDS = {Kind.LAYOUT: ("tiles",), Kind.FLIP: ("space",), Kind.DANNA: ("space",),
           Kind.ONESAN: ("space",), Kind.OKASAN: ("owner", "item"), Kind.ONESAN_STOP: (),
           Kind.SABANTO: ("item", "colour"), Kind.SWEEP: ("item", "colour"), Kind.END_TURN: ()}


def _int(obj: dict[str, Any], key: str, low: int, high: int, path: str) -> int:
    value = obj[key]
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise InvalidActionError(f"{path}.{key}: expected a whole number from {low} to {high}, "
                                 f"not {json.dumps(value)}")
    return value


def _colour(obj: dict[str, Any], key: str, optional: bool, path: str) -> Colour | None:
    value = obj[key]
    if value is None and optional:
        return None
    if value not in _COLOUR_NAMES:  # exactly a name: no case mapping, which reads "whıte" as white
        expected = "white, purple, pink, green" + (" or null" if optional else "")
        raise InvalidActionError(f"{path}.{key}: expected a colour ({expected}), "
                                 f"not {json.dumps(value)}")
    return Colour(_COLOUR_NAMES.index(value))


def decision_from_json(obj: Any, path: str = "$") -> Decision:
    """The decision written ``obj``; :class:`InvalidActionError` naming the JSON path otherwise.

    A decision in its usual form (the keys of its kind, in-range values) is looked up among the
    engine's shared decision values at once; anything else takes the checked path, which names
    the fault."""
    kind = obj.get("kind") if type(obj) is dict else None
    if type(kind) is str:
        size = len(obj)
        by_space = _BY_SPACE.get(kind)
        if by_space is not None:
            space = obj.get("space")
            if size == 2 and type(space) is int and 0 <= space < TOTAL_TILES:
                return by_space[space]
        elif size == 1 and kind in _BARE:
            return _BARE[kind]
        elif size == 3:
            item = obj.get("item")
            if type(item) is int and 0 <= item < NUM_ITEMS:
                if kind == "sweep" and "colour" in obj:
                    colour = obj["colour"]
                    if colour is None:
                        return _SWEEPS[item][0]
                    if type(colour) is str and colour in _COLOUR_BY_NAME:
                        return _SWEEPS[item][_COLOUR_BY_NAME[colour] + 1]
                elif kind == "sabanto":
                    colour = obj.get("colour")
                    if type(colour) is str and colour in _COLOUR_BY_NAME:
                        return _SABANTOS[item * NUM_COLOURS + _COLOUR_BY_NAME[colour]]
                elif kind == "oka-san":
                    owner = obj.get("owner")
                    if type(owner) is int and 0 <= owner <= 3:
                        return _OKASANS[owner][item]
    return _checked_decision(obj, path)


_BY_SPACE: dict[str, tuple[Decision, ...]] = {"flip": _FLIPS, "danna": _DANNAS, "one-san": _LOOKS}
_BARE: dict[str, Decision] = {"one-san-stop": _STOP, "end-turn": _END_TURN}
_OF_SPACE: dict[Kind, Callable[[int], Decision]] = {Kind.FLIP: Flip, Kind.DANNA: Danna,
                                                    Kind.ONESAN: OneSan}
_COLOUR_BY_NAME = {c.label: c for c in Colour}


def _checked_decision(obj: Any, path: str) -> Decision:
    if not isinstance(obj, dict):
        raise InvalidActionError(f"{path}: expected a decision object, not {json.dumps(obj)[:40]}")
    label = obj.get("kind")
    kind = KIND_BY_LABEL.get(label) if isinstance(label, str) else None
    if kind is None:
        raise InvalidActionError(f"{path}.kind: expected one of {', '.join(KIND_BY_LABEL)}, "
                                 f"not {json.dumps(label)}")
    fields = _FIELDS[kind]
    for key in obj:
        if key != "kind" and key not in fields:
            raise InvalidActionError(f"{path}.{key}: a {label} decision has no field "
                                     f"{json.dumps(key)}")
    for key in fields:
        if key not in obj:
            raise InvalidActionError(f"{path}.{key}: missing (a {label} decision has "
                                     f"{', '.join(fields)})")
    if kind is Kind.LAYOUT:
        tiles = obj["tiles"]
        if not isinstance(tiles, list):
            raise InvalidActionError(f"{path}.tiles: expected a list of tiles")
        return Layout(tuple(_tile(t, f"{path}.tiles[{i}]") for i, t in enumerate(tiles)))
    if kind in (Kind.FLIP, Kind.DANNA, Kind.ONESAN):
        space = _int(obj, "space", 0, TOTAL_TILES - 1, path)
        return _OF_SPACE[kind](space)
    if kind is Kind.OKASAN:
        return OkaSan(_int(obj, "owner", 0, 3, path), _int(obj, "item", 0, NUM_ITEMS - 1, path))
    if kind is Kind.SABANTO:
        colour = _colour(obj, "colour", False, path)
        assert colour is not None
        return Sabanto(_int(obj, "item", 0, NUM_ITEMS - 1, path), colour)
    if kind is Kind.SWEEP:
        return Sweep(_int(obj, "item", 0, NUM_ITEMS - 1, path), _colour(obj, "colour", True, path))
    return OneSanStop() if kind is Kind.ONESAN_STOP else EndTurn()


def _tile(value: Any, path: str) -> int:
    if isinstance(value, str):
        try:
            return parse_tile(value)
        except ValueError:
            pass
    raise InvalidActionError(f"{path}: expected a tile ('pink-0' ... or 'friend'), "
                             f"not {json.dumps(value)}")


# --- views and results ----------------------------------------------------------------------


def result_to_json(result: Result) -> dict[str, Any]:
    return {"winners": list(result.winners), "reason": result.reason.value,
            "scores": list(result.scores), "own_colour": list(result.own)}


# --- writing records ------------------------------------------------------------------------


def to_record(state: State) -> dict[str, Any]:
    """The record of the game that led to ``state``; ``result`` once the game is over."""
    record: dict[str, Any] = {"format": FORMAT, "options": options_of(state.config),
                              "first_player": state.first_player}
    if state.phase is Phase.LAYOUT:
        record["layout"] = None
        record["turns"] = []
        return record
    record["layout"] = [tile_name(t) for t in state.layout]
    turns: list[dict[str, Any]] = []
    for step in state.steps:
        if not turns or len(turns) <= step.turn:
            turns.append({"player": step.player, "steps": []})
        turns[-1]["steps"].append(decision_to_json(step.decision))
    record["turns"] = turns
    if state.result is not None:
        record["result"] = result_to_json(state.result)
    return record


# --- reading records ------------------------------------------------------------------------


def _show(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _malformed_int(value: Any, path: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise MalformedRecordError(path, f"expected a whole number from {low} to {high}, "
                                         f"not {_show(value)}")
    return value


_KEYS = {"format", "options", "first_player", "layout", "turns", "result"}
_TURN_KEYS = {"player", "steps"}


#: The colours option: "" or 2 to 4 names. It ends with "nothing follows", not "$": "$" matches
#: before a final newline in Python's re (and so in Python's jsonschema), not in the ECMA-262
#: dialect JSON Schema names; this form means the same in both, and the reader uses it as is.
COLOURS_PATTERN = r"^((white|purple|pink|green)(,(white|purple|pink|green)){1,3})?(?![\s\S])"
_COLOURS_PATTERN = re.compile(COLOURS_PATTERN)


def _check_shape(obj: Any) -> list[list[Decision]]:
    """Everything spec/maiko/record.schema.json checks, before any rule: the shape, types and
    ranges of the whole record, so that a record the schema refuses is malformed wherever the
    fault lies, never illegal because an earlier turn broke a rule. Returns the decisions of
    each turn, parsed once."""
    if not isinstance(obj, dict):
        raise MalformedRecordError("$", "expected a record object")
    if obj.get("format") != FORMAT:
        raise MalformedRecordError("$.format", f"expected \"{FORMAT}\", not {_show(obj.get('format'))}")
    for key in obj:
        if key not in _KEYS:
            raise MalformedRecordError(f"$.{key}", "not a field of a maiko record")
    for key in ("options", "first_player", "layout", "turns"):
        if key not in obj:
            raise MalformedRecordError(f"$.{key}", "missing")
    options = obj["options"]
    if not isinstance(options, dict):
        raise MalformedRecordError("$.options", "expected an object")
    for key in options:
        if key not in ("players", "colours", "removed_colour"):
            raise MalformedRecordError(f"$.options.{key}", "not an option of maiko")
    for key in ("players", "colours", "removed_colour"):
        if key not in options:
            raise MalformedRecordError(f"$.options.{key}", "missing")
    _malformed_int(options["players"], "$.options.players", 2, 4)
    colours = options["colours"]
    if not isinstance(colours, str) or not _COLOURS_PATTERN.match(colours):
        raise MalformedRecordError("$.options.colours", "expected colour names (white, purple, "
                                   "pink, green) separated by commas, or \"\"; not "
                                   f"{_show(colours)}")
    if options["removed_colour"] not in ("", *_COLOUR_NAMES):
        raise MalformedRecordError("$.options.removed_colour", "expected \"\" or a colour name, "
                                   f"not {_show(options['removed_colour'])}")
    _malformed_int(obj["first_player"], "$.first_player", 0, 3)
    layout = obj["layout"]
    if layout is not None:
        if not isinstance(layout, list) or not 60 <= len(layout) <= 81:
            raise MalformedRecordError("$.layout", "expected null or a list of 60 to 81 tiles")
        for index, value in enumerate(layout):
            if type(value) is not str or value not in _TILE_CODES:
                raise MalformedRecordError(f"$.layout[{index}]",
                                           f"expected a tile, not {_show(value)}")
    turns = obj["turns"]
    if not isinstance(turns, list):
        raise MalformedRecordError("$.turns", "expected a list of turns")
    parsed: list[list[Decision]] = []
    for t, turn in enumerate(turns):
        if not isinstance(turn, dict) or turn.keys() != _TURN_KEYS:
            raise MalformedRecordError(f"$.turns[{t}]", "expected an object with player and steps")
        player = turn["player"]
        if type(player) is not int or not 0 <= player <= 3:
            _malformed_int(player, f"$.turns[{t}].player", 0, 3)
        steps = turn["steps"]
        if not isinstance(steps, list) or not steps:
            raise MalformedRecordError(f"$.turns[{t}].steps",
                                       "expected a non-empty list of decisions")
        decisions = []
        for k, item in enumerate(steps):
            try:
                decision = decision_from_json(item, "$")
            except InvalidActionError:  # again, for the message with the path
                _step_from_json(item, f"$.turns[{t}].steps[{k}]")
                raise  # pragma: no cover (the same input, the same verdict)
            if isinstance(decision, Layout):  # the record's layout, never a step: malformed
                _step_from_json(item, f"$.turns[{t}].steps[{k}]")
            decisions.append(decision)
        parsed.append(decisions)
    if "result" in obj:
        result = obj["result"]
        if not isinstance(result, dict) or set(result) != {"winners", "reason", "scores",
                                                           "own_colour"}:
            raise MalformedRecordError("$.result", "expected an object with winners, reason, "
                                                   "scores and own_colour")
        reasons = [r.value for r in Reason]
        if result["reason"] not in reasons:
            raise MalformedRecordError("$.result.reason", f"expected one of {', '.join(reasons)}, "
                                                          f"not {_show(result['reason'])}")
        for key in ("winners", "scores", "own_colour"):
            value = result[key]
            if not isinstance(value, list) or not all(
                    isinstance(v, int) and not isinstance(v, bool) for v in value):
                raise MalformedRecordError(f"$.result.{key}", "expected a list of whole numbers")
        if not 1 <= len(result["winners"]) <= 4 or not all(0 <= w <= 3 for w in result["winners"]):
            raise MalformedRecordError("$.result.winners", "expected 1 to 4 players (0 to 3)")
    return parsed


def _step_from_json(item: Any, path: str) -> Decision:
    """The decision of a step of a turn; :class:`MalformedRecordError` at ``path`` for anything
    the schema refuses there, the layout included: it is the record's ``layout``, never a step
    (MK-SETUP-5), so a layout step is malformed as the schema says, not illegal."""
    try:
        decision = decision_from_json(item, path)
    except InvalidActionError as error:
        raise MalformedRecordError(path, error.message) from None
    if isinstance(decision, Layout):
        raise MalformedRecordError(f"{path}.kind", "expected a player's decision; the layout is "
                                   "the record's layout field, not a step")
    return decision


def read_record(obj: Any) -> State:
    """The final state of the game ``obj`` records, replayed by the engine.

    :class:`MalformedRecordError` (with a JSON path) when ``obj`` is not a ``maiko-record/1``;
    :class:`IllegalRecordError` (with the rule, turn and step) when it records what the rules
    forbid, including a result other than the engine's.
    """
    # _check_shape has checked every type and range: what is left is for the rules to judge.
    parsed = _check_shape(obj)
    options = obj["options"]
    players = options["players"]
    try:
        config = make_config(options)
    except OptionError as error:
        # Only a rule refuses names the schema's pattern let through (an unknown name, a
        # non-string, is refused without a rule, and _check_shape refused those already).
        assert error.rule is not None, error.message
        raise IllegalRecordError(f"options: {error.message}", error.rule,
                                 {"turn": None, "step": None}) from None
    first = obj["first_player"]
    if first >= players:
        raise IllegalRecordError(f"first player {first} does not exist in a {players}-player "
                                 "game", "MK-SETUP-6", {"turn": None, "step": None})
    state = new_game(config, first)
    layout = obj["layout"]
    turns = obj["turns"]
    if layout is None:
        if turns or "result" in obj:
            raise IllegalRecordError("the record has turns or a result but no layout: the layout "
                                     "comes first", "MK-SETUP-5", {"turn": None, "step": None})
        return state
    tiles = tuple(map(_TILE_CODES.__getitem__, layout))  # every name checked by _check_shape
    # One mutable draft for the whole replay; frozen once, at the end (the same State as
    # applying each decision in turn: tests/properties/test_fast_engines.py).
    draft = Draft.of(state)
    try:
        draft.play(Layout(tiles))
    except GameError as error:
        raise IllegalRecordError(f"layout: {error.message}", error.rule,
                                 {"turn": None, "step": None}) from None
    over = Phase.OVER
    for t, turn in enumerate(turns):
        declared = turn["player"]
        for k, decision in enumerate(parsed[t]):
            if draft.phase is over:
                raise IllegalRecordError(f"the game ended before turn {t}, step {k}: "
                                         f"{draft.result.reason.value}",  # type: ignore[union-attr]
                                         "MK-END-5", {"turn": t, "step": k})
            if draft.turn != t:
                message = (f"turn {draft.turn} is not over: the record starts turn {t}" if k == 0
                           else f"turn {t} ended before this step")
                raise IllegalRecordError(message, "MK-TURN-2", {"turn": t, "step": k})
            if declared != draft.current:
                raise IllegalRecordError(f"turn {t} is player {draft.current}'s, not player "
                                         f"{declared}'s", "MK-TURN-1", {"turn": t, "step": k})
            try:
                draft.play(decision)
            except (IllegalActionError, InvalidActionError) as error:
                raise IllegalRecordError(error.message, error.rule,
                                         {"turn": t, "step": k}) from None
    state = draft.freeze()
    if "result" in obj:
        _check_result(state, obj["result"], {"turn": len(turns) - 1 if turns else None,
                                             "step": None})
    return state


def _check_result(state: State, result: Any, where: dict[str, Any]) -> None:
    """The recorded result against the engine's (its shape was checked by :func:`_check_shape`)."""
    actual = state.result
    if actual is None:
        raise IllegalRecordError("the record gives a result but the game is not over",
                                 "MK-END-5", where)
    if result["reason"] != actual.reason.value:
        raise IllegalRecordError(f"the game ended by {actual.reason.value}, not "
                                 f"{result['reason']}", _REASON_RULE[actual.reason], where)
    if result["scores"] != list(actual.scores):
        raise IllegalRecordError(f"the scores are {list(actual.scores)}, not {result['scores']}",
                                 "MK-SCORE-1", where)
    if result["own_colour"] != list(actual.own):
        raise IllegalRecordError(f"the own-colour counts are {list(actual.own)}, not "
                                 f"{result['own_colour']}", "MK-SCORE-3", where)
    if result["winners"] != list(actual.winners):
        rule = ("MK-SCORE-4" if len(actual.winners) > 1 or len(result["winners"]) > 1 else
                "MK-SCORE-3" if actual.scores[actual.winners[0]] in
                [actual.scores[w] for w in result["winners"] if 0 <= w < len(actual.scores)]
                else "MK-SCORE-2")
        raise IllegalRecordError(f"the winners are {list(actual.winners)}, not "
                                 f"{result['winners']}", rule, where)


# --- the schema -----------------------------------------------------------------------------

_TILE_NAMES = [tile_name(c * NUM_ITEMS + i) for c in range(4) for i in range(NUM_ITEMS)] + ["friend"]
_TILE_CODES = {name: parse_tile(name) for name in _TILE_NAMES}
_COLOUR_NAMES = [c.label for c in Colour]


def _decision_schema(kind: str, properties: dict[str, Any], description: str) -> dict[str, Any]:
    return {"type": "object", "description": description,
            "required": ["kind", *properties], "additionalProperties": False,
            "properties": {"kind": {"const": kind}, **properties}}


def record_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of ``maiko-record/1``; spec/maiko/record.schema.json
    holds the same document."""
    space = {"$ref": "#/$defs/space"}
    item = {"$ref": "#/$defs/item"}
    colour = {"$ref": "#/$defs/colour"}
    whole = {"type": "array", "items": {"type": "integer"}}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:hanamikoji:maiko-record:1",
        "title": FORMAT,
        "description": (
            "A game of Maiko as a record: the options, the first player, the layout (the tile "
            "on each space) and every decision of every turn in play order, then the result. "
            "This schema checks the shape, types and ranges; whether the game is legal is for "
            "the rules (spec/maiko/rules.md) and `hanamikoji validate`. Turns and steps count "
            "from 0. Tiles are written colour-item (items 0 to 8) or friend."),
        "type": "object",
        "required": ["format", "options", "first_player", "layout", "turns"],
        "additionalProperties": False,
        "properties": {
            "format": {"const": FORMAT},
            "options": {
                "description": "MK-SETUP-1, MK-SETUP-4: players, each player's colour (names "
                               "separated by commas, player 0 first; empty: the first N in the "
                               "book's order), and the colour a 2-player game removes (empty "
                               "with 3 or 4 players).",
                "type": "object",
                "required": ["players", "colours", "removed_colour"],
                "additionalProperties": False,
                "properties": {
                    "players": {"type": "integer", "minimum": 2, "maximum": 4},
                    "colours": {"type": "string", "pattern": COLOURS_PATTERN},
                    "removed_colour": {"enum": ["", *_COLOUR_NAMES]},
                },
            },
            "first_player": {"description": "MK-SETUP-6", "$ref": "#/$defs/player"},
            "layout": {
                "description": "MK-SETUP-5: the tile on each space, space 0 first (81 tiles, or "
                               "60 with 2 players); null before the layout.",
                "oneOf": [{"type": "null"},
                          {"type": "array", "items": {"$ref": "#/$defs/tile"},
                           "minItems": 60, "maxItems": 81}],
            },
            "turns": {"type": "array", "items": {"$ref": "#/$defs/turn"}},
            "result": {
                "description": "Optional when read; always written for a finished game.",
                "type": "object",
                "required": ["winners", "reason", "scores", "own_colour"],
                "additionalProperties": False,
                "properties": {
                    "winners": {"type": "array", "items": {"$ref": "#/$defs/player"},
                                "minItems": 1, "maxItems": 4},
                    "reason": {"enum": [r.value for r in Reason]},
                    "scores": whole,
                    "own_colour": whole,
                },
            },
        },
        "$defs": {
            "player": {"type": "integer", "minimum": 0, "maximum": 3},
            "space": {"type": "integer", "minimum": 0, "maximum": TOTAL_TILES - 1},
            "item": {"type": "integer", "minimum": 0, "maximum": NUM_ITEMS - 1},
            "colour": {"enum": _COLOUR_NAMES},
            "tile": {"enum": _TILE_NAMES},
            "turn": {
                "description": "One turn (MK-TURN-1): its player and its decisions in order.",
                "type": "object", "required": ["player", "steps"], "additionalProperties": False,
                "properties": {"player": {"$ref": "#/$defs/player"},
                               "steps": {"type": "array", "minItems": 1,
                                         "items": {"$ref": "#/$defs/decision"}}},
            },
            "decision": {"oneOf": [
                _decision_schema("flip", {"space": space}, "MK-FLIP-1"),
                _decision_schema("danna", {"space": space}, "MK-TUTOR-DANNA-1"),
                _decision_schema("oka-san", {"owner": {"$ref": "#/$defs/player"}, "item": item},
                                 "MK-TUTOR-OKASAN-1"),
                _decision_schema("one-san", {"space": space}, "MK-TUTOR-ONESAN-1: one look"),
                _decision_schema("one-san-stop", {}, "MK-TUTOR-ONESAN-1: stop looking"),
                _decision_schema("sabanto", {"item": item, "colour": colour},
                                 "MK-TUTOR-SABANTO-1"),
                _decision_schema("sweep", {"item": item,
                                           "colour": {"oneOf": [colour, {"type": "null"}]}},
                                 "MK-ROW-3: one item space of a row discard (null: keep all)"),
                _decision_schema("end-turn", {}, "MK-END-1: end the ending step"),
            ]},
        },
    }


def schema_text() -> str:
    """The schema as spec/maiko/record.schema.json holds it."""
    return json.dumps(record_schema(), indent=2) + "\n"
