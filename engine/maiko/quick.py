"""A valid Maiko record's verdict with no JSON decoded: :func:`judge_line`, for ``validate``'s
hot loop.

As for Hanamikoji (:mod:`hanamikoji.engine.hanamikoji.quick`): a line in the form ``simulate
--records`` writes (keys in one order, no spaces) is checked by one regular expression, which
stands for the record's shape, and each distinct step's text (``"kind":"flip","space":20``)
is parsed once by the checked parser, each distinct turn's text once too. The replay
(:func:`replay`) is the engine's own (:class:`~.game.Draft`), with the record reader's checks
of whose turn it is and of the result, but for a turn that ends by a mismatch (over nine
turns in ten), which it plays at once, and the steps, which it does not keep. A line in another form, or
a record that breaks a rule, gives None and is judged the full way
(:func:`~.record.read_record`), which says what is wrong.
"""

from __future__ import annotations

import json
import re
from typing import Any

from hanamikoji.engine.core.errors import GameError

from .actions import Decision, Flip, Layout
from .components import FRIEND, NUM_ITEMS
from .game import (_FIRST, _FULL_BOARD, _LOOK, _OVER, _SWEEP, DOWN, Draft, Result, State,
                   new_game)

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
    try:
        draft = Draft.of(new_game(config, first[0] - 48))
        draft.play(Layout(tuple(map(codes.__getitem__, layout.split(b",")))))
        played = replay(draft, turns)
    except GameError:
        return None
    if played is None or draft.result is None:
        return None
    return _outcome(draft, played, result)


#: The text of a turn of two flips, from its player's digit to its last step's closing brace,
#: to its :data:`_Turn`: at most ``_TURNS_KEPT`` of them (a 2-player game has at most 2 × 60 × 59
#: texts, shared by all its records; longer turns seldom recur, and are not kept).
_TURN_TEXTS: dict[bytes, "_Turn"] = {}
_TURNS_KEPT = 1 << 14
#: A turn: (its player, the decisions before a closing pair of flips (all of them if the turn
#: does not end in two flips), the pair as decisions (or ()), the pair's spaces (or -1, -1)).
_Turn = tuple[int, tuple[Decision, ...], tuple[Decision, ...], int, int]


def _turn(text: bytes) -> _Turn | None:
    """The turn ``text`` (``0,"steps":[{...},{...}``, as :func:`replay` cuts it) parsed, each
    distinct step once (None: a step the reader refuses)."""
    steps_of = _STEPS
    decisions = []
    for step in text[12:-1].split(b"},{"):
        decision = steps_of.get(step)
        if decision is None:
            if step in steps_of or len(steps_of) > 4096:
                return None
            decision = steps_of[step] = _step(step)
            if decision is None:
                return None
        decisions.append(decision)
    if len(decisions) >= 2 and type(decisions[-1]) is Flip and type(decisions[-2]) is Flip:
        first, second = decisions[-2:]
        assert isinstance(first, Flip) and isinstance(second, Flip)
        return (text[0] - 48, tuple(decisions[:-2]), (first, second), first.space, second.space)
    return text[0] - 48, tuple(decisions), (), -1, -1


def replay(draft: Draft, turns: bytes, start: int = 0) -> int | None:
    """Play the record's ``turns`` (the text of its ``turns`` array, without the brackets, as
    the record's regular expression matched it; the first is turn ``start``) on ``draft``,
    laid out, with the record reader's checks; ``start`` plus the number of turns, or None for
    a step the reader refuses or a step played out of its turn, by another player or after the
    end (MK-TURN-1, MK-TURN-2, MK-END-5), when the full path says what is wrong. A step the rules
    forbid raises :class:`GameError`, as :meth:`Draft.play`. The steps are not kept
    (``draft.steps`` misses them): only the end is asked for.

    A turn that ends by a mismatch (MK-FLIP-4: two flips of face-down tiles of two items, over
    nine turns in ten of a random 2-player game) taken at a first flip is played here at once;
    every other step by the engine's own transitions, as :meth:`Draft.play` calls them. The two tiles
    go back face down, so the face-down spaces, the hands, the boards and whether the end is
    triggered are as they were at this first flip, which :meth:`Draft.enter` reached (as every
    first flip) after finding a tile face down (MK-END-4) and the game not static (MK-STATIC-2):
    the next player's first flip is neither, and those checks are not made again."""
    if not turns:
        return start
    texts = _TURN_TEXTS
    first = _FIRST
    spaces = draft.spaces  # changed in place by every transition after the layout
    n = len(spaces)
    players = draft.config.players
    items = [code % NUM_ITEMS if code != FRIEND else -1 for code in draft.layout]
    t = start
    # The turns' texts are cut between ``]}`` and ``,{"player":`` (no step holds a bracket).
    for text in turns[10:-2].split(b']},{"player":'):
        turn = texts.get(text)
        if turn is None:
            turn = _turn(text)
            if turn is None:
                return None
            if not turn[1] and len(texts) < _TURNS_KEPT:  # two flips: the turns that recur
                texts[text] = turn
        declared, head, pair, a, b = turn
        if head and not _play(draft, head, t, declared):
            return None
        if not pair:
            pass
        elif (draft.phase is first and draft.turn == t and draft.current == declared
                and a < n and b < n and spaces[a] == DOWN and spaces[b] == DOWN
                and items[a] >= 0 and items[b] >= 0 and items[a] != items[b]):
            # A mismatch (two items, so two spaces too): what two Draft.play calls leave, the
            # steps aside. At a first flip no tile is pending and no One-san visit
            # is under way, so the end of the turn has only this to change.
            draft.visited = False
            nxt = declared + 1 if declared + 1 < players else 0
            if draft.triggered_by is not None and nxt == draft.first_player:
                draft.finish(_FULL_BOARD)  # MK-END-2
            else:
                draft.current = nxt
                draft.turn = t + 1
        elif not _play(draft, pair, t, declared):
            return None
        t += 1
    return t


def _play(draft: Draft, decisions: tuple[Decision, ...], t: int, player: int) -> bool:
    """Play ``decisions``, steps of turn ``t`` of ``player``, on ``draft`` as :meth:`Draft.play`
    does, their Steps aside (``draft`` is laid out, and the step reader gives no Layout);
    False for a step out of its turn, by another player or after the end."""
    over, look, sweep = _OVER, _LOOK, _SWEEP
    for decision in decisions:
        phase = draft.phase
        if phase is over or draft.turn != t or player != draft.current:
            return False  # MK-END-5, MK-TURN-2, MK-TURN-1
        if phase is look:
            draft.play_look(decision)
        elif phase is sweep:
            draft.play_sweep(decision)
        else:
            draft.play_turn(decision)
    return True


def _outcome(draft: Draft, turns: int, result: bytes | None) -> tuple[Result, int] | None:
    """(the result, the turns) of the finished game ``draft`` whose record
    declares ``result`` (None: no result), if it is the engine's. ``turns`` is the number of the
    record's turns, all played (each step checked to be in its turn), which is what
    :meth:`~.game_type.Maiko.length` counts: the last step's turn, plus one."""
    from .record import IllegalRecordError, _check_result

    if result is not None:
        try:
            _check_result(State(draft.config, result=draft.result), json.loads(result), {})
        except IllegalRecordError:
            return None
    assert draft.result is not None
    return draft.result, turns
