"""A valid record's verdict at a glance: :func:`judge_line`, for ``validate``'s hot loop.

``simulate --records`` writes every record in one compact form (keys in one order, no spaces,
eight turns a round), and a file of JSON Lines in that form is what ``validate`` judges by the
hundred thousand. For such a line this module answers, without decoding JSON into objects or
building a decision, whether the record is valid and with what result; for any other line, or
a record that breaks a rule, it answers None and the line is judged the full way
(:func:`~.record.read_record`), which names what is wrong. So it never decides a verdict the
full path would not give, and every message of a record at fault stays the full path's.

How it is quick, with the rules the full path's:

- **The shape by one regular expression.** A line that matches :data:`_RECORD` is a JSON object
  of the record format: each object has exactly its keys, once each, every number a geisha
  number or a player. The numbers are read from their places in the text.
- **Each distinct turn read once.** A turn's text (``"player":0,"action":"gift",...``) is
  parsed by the checked parser the first time it is seen, and what it does to the hands and
  the sides kept (:data:`_TURNS`, at most some 15,000 texts whatever the file).
- **Multisets as one integer.** A hand or a side is an integer of seven 4-bit counts, one per
  geisha; a turn takes its cards from the hand in one subtraction, which leaves a count's top
  bit clear exactly when the hand holds too few of that geisha (SWAR).

tests/test_engine_quick.py checks it against the full path on records of both variants and on
their changes (each digit, turns swapped or played twice, rounds left out or repeated, other
results).
"""

from __future__ import annotations

import re
from typing import Any

from . import cards as C
from .actions import ACTION_TYPES, Competition, CompetitionPick, Gift, GiftPick, Secret
from .rules import PRESETS, Result

_D = rb"[0-6]"
_TURN = (rb'\{"player":[01],"action":"(?:secret","cards":\[D\]|trade-off","cards":\[D,D\]'
         rb'|gift","cards":\[D,D,D\],"pick":D'
         rb'|competition","sets":\[\[D,D\],\[D,D\]\],"pick":[01])\}').replace(b"D", _D)
_ROUND = (rb'\{"removed":(D),"hands":\[\[(D,D,D,D,D,D)\],\[(D,D,D,D,D,D)\]\],'
          rb'"draws":\[(D,D,D,D,D,D,D,D)\],"turns":\[\{(TURN(?:\},\{TURN){7})\}\]\}')
_ROUND = _ROUND.replace(b"TURN", _TURN[2:-2]).replace(b"D", _D)
#: A record as ``simulate --records`` writes it, with a line's end or none.
_RECORD = re.compile(
    rb'\{"format":"hanamikoji-record/1","variant":"(standard|italian-three-rounds)",'
    rb'"first_player":([01]),"rounds":\[(ROUND(?:,ROUND)*)\]'
    rb'(?:,"result":\{"winner":(null|[01]),"reason":"([a-z-]+)"\})?\}\n?'
    .replace(b"ROUND", _ROUND.replace(b"(", b"(?:").replace(b"(?:?:", b"(?:")))
_ROUNDS = re.compile(_ROUND)

#: A geisha's count in a multiset integer: 4 bits each, the top one a guard (counts are at most
#: 5, so 8 + count - taken never borrows from the next geisha).
_ONE = [1 << 4 * g for g in range(C.NUM_GEISHA)]
_GUARDS = sum(8 << 4 * g for g in range(C.NUM_GEISHA))
#: A digit's byte (ord("0") to ord("6")) to that geisha's one.
_CARD = {ord(str(g)): 1 << 4 * g for g in range(C.NUM_GEISHA)}
_DECK = sorted(b"".join(str(g).encode() * n for g, n in enumerate(C.FULL_DECK)))
_KIND_BIT = {"secret": 1, "trade-off": 2, "gift": 4, "competition": 8}

#: A turn's text (without its braces) to (player, the action's bit, the cards it takes from
#: the hand, those the player keeps, those the opponent gets), or None for a turn that breaks a
#: rule whatever the hand (a gift's pick not among its cards).
_TURNS: dict[bytes, tuple[int, int, int, int, int] | None] = {}


def _multiset(cards: Any) -> int:
    return sum(_ONE[g] for g in cards)


def _turn(text: bytes) -> tuple[int, int, int, int, int] | None:
    """What the turn ``text`` does, from the checked parser's decisions."""
    import json

    from .record import RecordError, _checked_turn

    try:
        player, decisions = _checked_turn(json.loads(b"{" + text + b"}"), "$")
    except (ValueError, RecordError):  # not for this regular expression's texts; to be safe
        return None
    action = decisions[0]
    assert isinstance(action, ACTION_TYPES)  # a turn starts with an action
    bit = _KIND_BIT[action.kind.value]
    taken = _multiset(action.cards)
    if isinstance(action, Secret):
        return player, bit, taken, taken, 0
    if isinstance(action, Gift):
        pick = decisions[1]
        assert isinstance(pick, GiftPick)
        if pick.card not in action.cards:
            return None
        return player, bit, taken, taken - _ONE[pick.card], _ONE[pick.card]
    if isinstance(action, Competition):
        pick = decisions[1]
        assert isinstance(pick, CompetitionPick)
        theirs = _multiset(pick.pair)
        return player, bit, taken, taken - theirs, theirs
    return player, bit, taken, 0, 0  # a trade-off: its cards leave the round


def judge_line(line: bytes) -> tuple[Result, int] | None:
    """The result and the number of rounds of the record ``line`` (one line of JSON Lines) if
    it is in the form ``simulate --records`` writes and valid; None otherwise, when only the
    full path (:func:`~.record.read_record`) can say what it is."""
    match = _RECORD.fullmatch(line)
    if match is None:
        return None
    variant, first, rounds, winner, reason = match.groups()
    rules = PRESETS[variant.decode()]
    first = first[0] - 48
    turns_of = _TURNS
    card = _CARD
    markers: tuple[int | None, ...] = (None,) * C.NUM_GEISHA
    result = None
    number = -1
    for number, found in enumerate(_ROUNDS.finditer(rounds)):
        if result is not None:
            return None  # END-2: the record goes on after the end
        removed, hand0, hand1, draws, turns = found.groups()
        if sorted(removed + hand0[::2] + hand1[::2] + draws[::2]) != _DECK:
            return None  # DEAL-1
        # The player to act and the other, swapped at each turn: hand, actions used, side.
        active = (first + number) % 2
        hand = sum(map(card.__getitem__, (hand1 if active else hand0)[::2])) + card[draws[0]]
        other = sum(map(card.__getitem__, (hand0 if active else hand1)[::2]))
        used = other_used = side = other_side = 0
        drawn = [card[c] for c in draws[2::2]]
        drawn.append(0)
        for t, text in enumerate(turns.split(b"},{")):
            turn = turns_of.get(text)
            if turn is None:
                if text in turns_of or len(turns_of) > 1 << 15:
                    return None
                turn = turns_of[text] = _turn(text)
                if turn is None:
                    return None
            player, bit, taken, kept, given = turn
            if player != active or used & bit:
                return None  # TURN-1, TURN-3
            left = (hand | _GUARDS) - taken
            if left & _GUARDS != _GUARDS:
                return None  # ACT-*-1: cards not in the hand
            hand, other = other + drawn[t], left - _GUARDS  # TURN-2: the next player draws
            used, other_used = other_used, used | bit
            side, other_side = other_side + given, side + kept
            active = 1 - active
        # After eight turns the starting player is to act again: side is theirs.
        if active:
            side, other_side = other_side, side
        # SCORE-2, SCORE-3: 8 + a - b, per geisha: above 8, player 0 has more.
        diff = (side | _GUARDS) - other_side
        markers = tuple(m if f == 8 else 0 if f > 8 else 1 for f, m in
                        zip([diff >> 4 * g & 15 for g in range(C.NUM_GEISHA)], markers))
        result = rules.round_result(markers, number)
    if result is None:
        return None
    if reason is not None and (reason.decode() != result.reason.value
                               or (None if winner == b"null" else winner[0] - 48) != result.winner):
        return None
    return result, number + 1
