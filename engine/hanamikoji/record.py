"""The game record format "hanamikoji-record/1": write, read, and replay with precise errors.

Reading is layered like python-chess's move parsing: :func:`parse_record` checks the shape (a
:class:`MalformedRecordError` names the JSON path at fault), then :func:`replay_record` plays the
record through the engine (an :class:`IllegalRecordError` names the rule, round and turn).
Rounds and turns count from 0, as the record's own arrays do.

>>> import random
>>> from .game import random_game
>>> final = random_game(random.Random(3))
>>> replay_record(parse_record(to_record(final))) == final
True
"""

from __future__ import annotations

import functools
import json
from typing import Any

import attrs

from hanamikoji.engine.core import game as core
from . import cards as C
from .actions import (
    Competition,
    CompetitionPick,
    Deal,
    Decision,
    Gift,
    GiftPick,
    Secret,
    TradeOff,
)
from .errors import IllegalActionError, InvalidActionError
from .game import TURNS_PER_ROUND, Draft, Phase, State, new_game
from .rules import PRESETS, Reason, Result

FORMAT = "hanamikoji-record/1"
_ACTION_NAMES = ("secret", "trade-off", "gift", "competition")
_REASON_RULE = {Reason.GEISHA: "END-3", Reason.CHARM: "END-3", Reason.CHARM_OVER_GEISHA: "END-4",
                Reason.ROUND_LIMIT_CHARM: "VAR-IT-2", Reason.ROUND_LIMIT_HIGHEST_GEISHA: "VAR-IT-3",
                Reason.SHARED: "VAR-IT-4"}
_LIMIT_REASONS = (Reason.ROUND_LIMIT_CHARM, Reason.ROUND_LIMIT_HIGHEST_GEISHA, Reason.SHARED)


class RecordError(core.RecordError):
    """A record that cannot be accepted."""


class MalformedRecordError(RecordError, core.MalformedRecordError):
    """Not a record: wrong shape, type or value range, at JSON path ``path``."""

    def __init__(self, path: str, message: str) -> None:
        core.MalformedRecordError.__init__(self, path, message)


class IllegalRecordError(RecordError, core.IllegalRecordError):
    """A well-formed record of a game the rules forbid: the first broken rule, with the round
    and turn where it was broken (``where``: both, from 0, None where it does not apply)."""

    def __init__(self, message: str, rule: str, round: int | None = None,
                 turn: int | None = None) -> None:
        where = "" if round is None else f"round {round}, " if turn is not None else f"round {round}: "
        where += "" if turn is None else f"turn {turn}: "
        core.IllegalRecordError.__init__(self, where + message, rule,
                                         {"round": round, "turn": turn})
        self.round = round
        self.turn = turn


@attrs.frozen
class ParsedRound:
    deal: Deal
    turns: tuple[tuple[int, tuple[Decision, ...]], ...]  # (declared player, decisions)


@attrs.frozen
class ParsedRecord:
    variant: str
    first_player: int
    rounds: tuple[ParsedRound, ...]
    result: Result | None


# --- writing -------------------------------------------------------------------------------


def _result_json(result: Result) -> dict[str, Any]:
    return {"winner": result.winner, "reason": result.reason.value}


def to_record(state: State) -> dict[str, Any]:
    """The record of the game that led to ``state``; "result" is written once the game is over.

    Cards are written sorted and a competition's sets in sorted order, so a record written here
    reads back and writes again byte for byte.
    """
    rounds: list[dict[str, Any]] = []
    turns: list[dict[str, Any]] = []
    starter = state.first_player
    mover = starter
    for decision in state.history:
        if isinstance(decision, Deal):
            if rounds:
                starter = 1 - starter
            mover = starter
            turns = []
            rounds.append({"removed": decision.removed,
                           "hands": [list(decision.hands[0]), list(decision.hands[1])],
                           "draws": list(decision.draws), "turns": turns})
        elif isinstance(decision, GiftPick):
            turns[-1]["pick"] = decision.card
        elif isinstance(decision, CompetitionPick):
            turns[-1]["pick"] = turns[-1]["sets"].index(list(decision.pair))
        else:
            entry: dict[str, Any] = {"player": mover, "action": decision.kind.value}
            if isinstance(decision, Competition):
                entry["sets"] = [list(p) for p in decision.pairs]
            else:
                entry["cards"] = list(decision.cards)
            turns.append(entry)
            mover = 1 - mover
    record: dict[str, Any] = {"format": FORMAT, "variant": state.rules.name,
                              "first_player": state.first_player, "rounds": rounds}
    if state.result is not None:
        record["result"] = _result_json(state.result)
    return record


# --- reading: shape ------------------------------------------------------------------------
#
# Every check is written as "if the common case holds, go on", and builds its message only when
# it fails: ``hanamikoji validate`` runs this on every record of files of millions.


def _show(value: Any) -> str:
    """``value`` as the record writes it, JSON (null, true, {"k": 1}), never a Python repr."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _integer(value: Any) -> Any:
    """JSON has one number type: an integral float (2.0) is the integer it equals, as JSON
    Schema's "integer" holds; anything else is returned as it is, to be refused by the caller."""
    if type(value) is float and value.is_integer():
        return int(value)
    return value


def _int(value: Any, path: str, lo: int, hi: int, what: str) -> int:
    if type(value) is not int:
        value = _integer(value)
    if type(value) is int and lo <= value <= hi:
        return value
    raise MalformedRecordError(
        path, f"expected {what} (an integer from {lo} to {hi}), got {_show(value)}")


_GEISHA_NUMBERS = frozenset(range(C.NUM_GEISHA))


_INT = frozenset({int})


def _card_list(value: Any, path: str, n: int, what: str) -> list[int]:
    if type(value) is list and len(value) == n:
        # In C: every item an int (not a bool, not a float) and a geisha number.
        if _INT.issuperset(map(type, value)) and _GEISHA_NUMBERS.issuperset(value):
            return value
        return [_int(v, f"{path}[{i}]", 0, C.NUM_GEISHA - 1, "a geisha number")
                for i, v in enumerate(value)]
    raise MalformedRecordError(
        path, f"expected {what}: a list of {n} geisha numbers, got {_show(value)}")


def _keys(obj: dict, path: str, required: frozenset[str],
          optional: frozenset[str] = frozenset()) -> None:
    keys = obj.keys()
    if keys == required or (keys >= required and keys <= required | optional):
        return
    missing = sorted(required - keys)
    if missing:
        raise MalformedRecordError(path, f"missing key {_show(missing[0])}")
    extra = sorted(keys - required - optional)
    raise MalformedRecordError(
        f"{path}.{extra[0]}", f"unexpected key; expected only {', '.join(sorted(required | optional))}")


# Decisions are immutable and few are distinct, so parsing makes each one once. The cache keys
# are tuples of ints that _card_list and _int have checked (a bool never gets this far).
_secret = functools.cache(Secret)
_trade_off = functools.cache(TradeOff)
_gift = functools.cache(Gift)
_competition = functools.cache(Competition)
_gift_pick = functools.cache(GiftPick)
_competition_pick = functools.cache(CompetitionPick)

_TURN_KEYS = {"secret": frozenset({"player", "action", "cards"}),
              "trade-off": frozenset({"player", "action", "cards"}),
              "gift": frozenset({"player", "action", "cards", "pick"}),
              "competition": frozenset({"player", "action", "sets", "pick"})}
_ROUND_KEYS = frozenset({"removed", "hands", "draws", "turns"})
_RECORD_KEYS = frozenset({"format", "variant", "first_player", "rounds"})
_RESULT_KEYS = frozenset({"winner", "reason"})
_REASONS = {r.value: r for r in Reason}


#: Turns already parsed, by their values: (action, player, cards, pick) or (action, player, set,
#: set, pick), every number an int (a bool or a float never makes a key). Only turns that parsed
#: are kept, so there are at most some fifteen thousand keys, whatever the file.
_TURNS: dict[tuple, tuple[int, tuple[Decision, ...]]] = {}


def _turn_key(obj: Any) -> tuple | None:
    """The key of a turn in :data:`_TURNS`, or None for anything but an object of the turn's
    keys with integers where numbers go (which the checked path then judges)."""
    if type(obj) is not dict:
        return None
    action = obj.get("action")
    if type(action) is not str or obj.keys() != _TURN_KEYS.get(action):
        return None
    player = obj["player"]
    pick = obj.get("pick", 0)
    if type(player) is not int or type(pick) is not int:
        return None
    if action == "competition":
        sets = obj["sets"]
        if type(sets) is not list or len(sets) != 2:
            return None
        first, second = sets
        if (type(first) is not list or type(second) is not list
                or not _INT.issuperset(map(type, first)) or not _INT.issuperset(map(type, second))):
            return None
        return (action, player, tuple(first), tuple(second), pick)
    cards = obj["cards"]
    if type(cards) is not list or not _INT.issuperset(map(type, cards)):
        return None
    return (action, player, tuple(cards), pick)


def _parse_turn(obj: Any, path: str, index: int) -> tuple[int, tuple[Decision, ...]]:
    """Turn ``index`` of the round at ``path``: a turn seen before is looked up, any other is
    parsed by the checked path (whose errors name the JSON path)."""
    key = _turn_key(obj)
    if key is not None:
        parsed = _TURNS.get(key)
        if parsed is None:
            parsed = _TURNS[key] = _checked_turn(obj, f"{path}.turns[{index}]")
        return parsed
    return _checked_turn(obj, f"{path}.turns[{index}]")


def _checked_turn(obj: Any, path: str) -> tuple[int, tuple[Decision, ...]]:
    if type(obj) is not dict:
        raise MalformedRecordError(path, f"expected a turn object, got {_show(obj)}")
    action = obj.get("action")
    if type(action) is not str or action not in _TURN_KEYS:
        if "action" not in obj:
            raise MalformedRecordError(path, 'missing key "action"')
        raise MalformedRecordError(
            f"{path}.action", f"expected one of {', '.join(_TURN_KEYS)}, got {_show(action)}")
    _keys(obj, path, _TURN_KEYS[action])
    player = _int(obj["player"], f"{path}.player", 0, 1, "a player")
    if action == "secret":
        (card,) = _card_list(obj["cards"], f"{path}.cards", 1, "the secret card")
        return player, (_secret(card),)
    if action == "trade-off":
        cards = _card_list(obj["cards"], f"{path}.cards", 2, "the trade-off")
        return player, (_trade_off(tuple(cards)),)
    if action == "gift":
        cards = _card_list(obj["cards"], f"{path}.cards", 3, "the gift")
        pick = _int(obj["pick"], f"{path}.pick", 0, C.NUM_GEISHA - 1, "the geisha taken")
        return player, (_gift(tuple(cards)), _gift_pick(pick))
    sets = obj["sets"]
    if type(sets) is not list or len(sets) != 2:
        raise MalformedRecordError(f"{path}.sets", f"expected two sets of 2 cards, got {_show(sets)}")
    pairs = tuple(tuple(_card_list(s, f"{path}.sets[{i}]", 2, "a set")) for i, s in enumerate(sets))
    pick = _int(obj["pick"], f"{path}.pick", 0, 1, "the index of the set taken")
    return player, (_competition(pairs), _competition_pick(pairs[pick]))


def _parse_round(obj: Any, path: str) -> ParsedRound:
    if type(obj) is not dict:
        raise MalformedRecordError(path, f"expected a round object, got {_show(obj)}")
    _keys(obj, path, _ROUND_KEYS)
    removed = _int(obj["removed"], f"{path}.removed", 0, C.NUM_GEISHA - 1, "a geisha number")
    hands = obj["hands"]
    if type(hands) is not list or len(hands) != 2:
        raise MalformedRecordError(f"{path}.hands", f"expected two hands, got {_show(hands)}")
    parsed_hands = [_card_list(h, f"{path}.hands[{i}]", 6, "a hand") for i, h in enumerate(hands)]
    draws = _card_list(obj["draws"], f"{path}.draws", 8, "the draws")
    turns = obj["turns"]
    if type(turns) is not list:
        raise MalformedRecordError(f"{path}.turns", f"expected a list of turns, got {_show(turns)}")
    return ParsedRound(
        Deal.checked(removed, parsed_hands, draws),
        tuple([_parse_turn(t, path, i) for i, t in enumerate(turns)]))


def parse_record(obj: Any) -> ParsedRecord:
    """Check the shape of a decoded JSON record; raise :class:`MalformedRecordError` if wrong."""
    if type(obj) is not dict:
        raise MalformedRecordError("$", f"expected a record object, got {_show(obj)}")
    if obj.get("format") != FORMAT:
        raise MalformedRecordError("$.format", f'expected "{FORMAT}", got {_show(obj.get("format"))}')
    _keys(obj, "$", _RECORD_KEYS, frozenset({"result"}))
    variant = obj["variant"]
    if type(variant) is not str or variant not in PRESETS:
        raise MalformedRecordError(
            "$.variant", f"expected one of {', '.join(PRESETS)}, got {_show(variant)}")
    first = _int(obj["first_player"], "$.first_player", 0, 1, "a player")
    rounds = obj["rounds"]
    if type(rounds) is not list:
        raise MalformedRecordError("$.rounds", f"expected a list of rounds, got {_show(rounds)}")
    parsed = tuple(_parse_round(r, f"$.rounds[{i}]") for i, r in enumerate(rounds))
    result = None
    if "result" in obj:
        res = obj["result"]
        if type(res) is not dict:
            raise MalformedRecordError("$.result", f"expected a result object, got {_show(res)}")
        _keys(res, "$.result", _RESULT_KEYS)
        winner = res["winner"]
        if winner is not None:
            winner = _int(winner, "$.result.winner", 0, 1, "the winner, or null")
        reason = res["reason"]
        if type(reason) is not str or reason not in _REASONS:
            raise MalformedRecordError(
                "$.result.reason", f"expected one of {', '.join(_REASONS)}, got {_show(reason)}")
        result = Result(winner, _REASONS[reason])
    return ParsedRecord(variant, first, parsed, result)


# --- reading: rules ------------------------------------------------------------------------


def replay_record(record: ParsedRecord) -> State:
    """Play a parsed record through the engine; raise :class:`IllegalRecordError` at the first
    broken rule. Returns the final state."""
    # One mutable draft for the whole replay, frozen once at the end (the same State as applying
    # each decision in turn: tests/properties/test_fast_engines.py).
    draft = Draft.of(new_game(PRESETS[record.variant], record.first_player))
    play = draft.play
    for r, rnd in enumerate(record.rounds):
        if draft.phase is Phase.OVER:
            assert draft.result is not None
            if draft.result.reason in _LIMIT_REASONS:
                raise IllegalRecordError(
                    f"the game ended after round {r - 1} ({_describe(draft.result)}): the "
                    f"{record.variant} rule allows at most {r} rounds, but the record goes on",
                    "VAR-IT-1", r)
            raise IllegalRecordError(
                f"the game ended after round {r - 1} ({_describe(draft.result)}), "
                f"but the record goes on", "END-2", r)
        try:
            draft.play(rnd.deal)
        except (IllegalActionError, InvalidActionError) as error:
            raise IllegalRecordError(error.message, error.rule or "DEAL-1", r) from None
        for t, (declared, decisions) in enumerate(rnd.turns):
            if t >= TURNS_PER_ROUND:
                raise IllegalRecordError(
                    f"a round has {TURNS_PER_ROUND} turns; this one has {len(rnd.turns)}",
                    "TURN-1", r, t)
            if declared != (draft.first_player + draft.round + draft.turn) % 2:  # .active
                if t == 0 and r > 0:
                    raise IllegalRecordError(
                        f"player {declared} starts round {r}, but it is started by player "
                        f"{draft.active}: the starting player alternates between rounds",
                        "UPDATE-4", r, t)
                raise IllegalRecordError(
                    f"player {declared} acts out of turn; turn {t} belongs to player "
                    f"{draft.active}", "TURN-1", r, t)
            try:
                for decision in decisions:
                    play(decision)
            except (IllegalActionError, InvalidActionError) as error:
                raise IllegalRecordError(error.message, error.rule or "TURN-3", r, t) from None
        if len(rnd.turns) < TURNS_PER_ROUND:
            raise IllegalRecordError(
                f"the record stops after {len(rnd.turns)} of the round's {TURNS_PER_ROUND} turns",
                "TURN-1", r, len(rnd.turns))
    if draft.phase is not Phase.OVER:
        # No goal: the next round is due (UPDATE-1); the round limit is not what is broken.
        rule = "UPDATE-5" if draft.rules.max_rounds is None else "UPDATE-1"
        raise IllegalRecordError(
            f"the record stops after {len(record.rounds)} round(s) but no goal was reached; "
            "the game goes on", rule, len(record.rounds))
    final = draft.freeze()
    assert final.result is not None
    if record.result is not None and record.result != final.result:
        raise IllegalRecordError(
            f"the record declares {_describe(record.result)}, but the game ends with "
            f"{_describe(final.result)}", _REASON_RULE[final.result.reason],
            len(record.rounds) - 1)
    return final


def _describe(result: Result | None) -> str:
    return "no result" if result is None else result.describe()


def read_record(obj: Any) -> State:
    """Parse and replay a decoded JSON record (both layers)."""
    return replay_record(parse_record(obj))
