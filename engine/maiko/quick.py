"""A valid Maiko record's verdict with no JSON decoded: :func:`judge_line`, for ``validate``'s
hot loop.

As for Hanamikoji (:mod:`hanamikoji.engine.hanamikoji.quick`): a line in the form ``simulate
--records`` writes (keys in one order, no spaces) is checked by one regular expression, which
stands for the record's shape, and each distinct step's text (``"kind":"flip","space":20``)
is parsed once by the checked parser. The replay is the engine's own (:class:`~.game.Draft`),
with the record reader's checks of whose turn it is and of the result; so only the reading is
new. A line in another form, or a record that breaks a rule, gives None and is judged the full
way (:func:`~.record.read_record`), which says what is wrong.
"""

from __future__ import annotations

import json
import re
from typing import Any

from hanamikoji.engine.core.errors import GameError

from .actions import Decision, Layout
from .game import Draft, Phase, Result, State, new_game

_STEP = (rb'\{"kind":"(?:flip|danna|one-san)","space":\d{1,2}\}'
         rb'|\{"kind":"oka-san","owner":[0-3],"item":[0-8]\}'
         rb'|\{"kind":"(?:sabanto|sweep)","item":[0-8],"colour":(?:"[a-z]+"|null)\}'
         rb'|\{"kind":"(?:one-san-stop|end-turn)"\}')
_TURN = rb'\{"player":([0-3]),"steps":\[((?:STEP)(?:,(?:STEP))*)\]\}'.replace(b"STEP", _STEP)
_TILE = rb'"(?:(?:white|purple|pink|green)-[0-8]|friend)"'
#: A record as ``simulate --records`` writes it, with a line's end or none.
_RECORD = re.compile(
    rb'\{"format":"maiko-record/1","options":(\{"players":[234],"colours":"[a-z,]*",'
    rb'"removed_colour":"[a-z]*"\}),"first_player":([0-3]),'
    rb'"layout":\[(TILE(?:,TILE){59,80})\],"turns":\[((?:TURN(?:,TURN)*)?)\]'
    rb'(?:,"result":(\{"winners":\[[0-3](?:,[0-3]){0,3}\],"reason":"[a-z-]+",'
    rb'"scores":\[-?\d{1,3}(?:,-?\d{1,3}){1,3}\],"own_colour":\[\d{1,3}(?:,\d{1,3}){1,3}\]\}))?'
    rb'\}\n?'.replace(b"TILE", _TILE).replace(b"TURN", _TURN.replace(b"(", b"(?:")
                                                  .replace(b"(?:?:", b"(?:")))
_TURNS = re.compile(_TURN)

#: A step's text (without its braces) to its decision, or None for one the reader refuses.
_STEPS: dict[bytes, Decision | None] = {}
#: The options' text to the game's configuration, or None for options the reader refuses.
_CONFIGS: dict[bytes, Any] = {}
#: A tile's name, quoted, to its code.
_CODES: dict[bytes, int] = {}


def _step(text: bytes) -> Decision | None:
    from .record import MalformedRecordError, _step_from_json

    try:
        return _step_from_json(json.loads(b"{" + text + b"}"), "$")
    except (ValueError, MalformedRecordError):
        return None


def _config(text: bytes) -> Any:
    """The configuration of the options ``text``, checked as the reader checks them."""
    from .record import FORMAT, _check_shape, make_config

    options = json.loads(text)
    try:
        _check_shape({"format": FORMAT, "options": options, "first_player": 0, "layout": None,
                      "turns": []})
        return make_config(options)
    except GameError:
        return None


def judge_line(line: bytes) -> tuple[Result, int] | None:
    """(the result, the number of turns) of the record ``line`` (one line of JSON Lines) if it
    is in the form ``simulate --records`` writes and valid; None otherwise, when only the full
    path can say what it is."""
    match = _RECORD.fullmatch(line)
    if match is None:
        return None
    options, first, layout, turns, result = match.groups()
    config = _CONFIGS.get(options)
    if config is None:
        if options in _CONFIGS or len(_CONFIGS) > 64:
            return None
        config = _CONFIGS[options] = _config(options)
        if config is None:
            return None
    codes = _CODES
    if not codes:
        from .components import tile_name

        codes.update({f'"{tile_name(c)}"'.encode(): c for c in range(37)})
    steps_of = _STEPS
    over = Phase.OVER
    try:
        draft = Draft.of(new_game(config, first[0] - 48))
        draft.play(Layout(tuple(map(codes.__getitem__, layout.split(b",")))))
        for t, found in enumerate(_TURNS.finditer(turns)):
            declared, steps = found.groups()
            declared = declared[0] - 48
            for text in steps[1:-1].split(b"},{"):
                decision = steps_of.get(text)
                if decision is None:
                    if text in steps_of or len(steps_of) > 4096:
                        return None
                    decision = steps_of[text] = _step(text)
                    if decision is None:
                        return None
                if draft.phase is over or draft.turn != t or declared != draft.current:
                    return None  # MK-END-5, MK-TURN-2, MK-TURN-1
                draft.play(decision)
    except GameError:
        return None
    final = draft.freeze()
    return _outcome(final, result)


def _outcome(final: State, result: bytes | None) -> tuple[Result, int] | None:
    """(the result, the turns, as :meth:`~.game_type.Maiko.length` counts them) of the finished
    game ``final`` whose record declares ``result`` (None: no result), if it is the engine's."""
    from .record import IllegalRecordError, _check_result

    if final.result is None:
        return None
    if result is not None:
        try:
            _check_result(final, json.loads(result), {})
        except IllegalRecordError:
            return None
    return final.result, (final.steps[-1].turn + 1) if final.steps else 0
