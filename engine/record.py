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

from typing import Any

import attrs

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
from .errors import HanamikojiError, IllegalActionError, InvalidActionError
from .game import TURNS_PER_ROUND, Phase, State, apply, new_game
from .rules import PRESETS, Reason, Result

FORMAT = "hanamikoji-record/1"
_ACTION_NAMES = ("secret", "trade-off", "gift", "competition")
_REASON_RULE = {Reason.GEISHA: "END-3", Reason.CHARM: "END-3", Reason.CHARM_OVER_GEISHA: "END-4",
                Reason.ROUND_LIMIT_CHARM: "VAR-IT-2", Reason.ROUND_LIMIT_HIGHEST_GEISHA: "VAR-IT-3",
                Reason.SHARED: "VAR-IT-4"}


class RecordError(HanamikojiError):
    """A record that cannot be accepted."""


class MalformedRecordError(RecordError):
    """Not a record: wrong shape, type or value range, at JSON path ``path``."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path


class IllegalRecordError(RecordError):
    """A well-formed record of a game the rules forbid: the first broken rule."""

    def __init__(self, message: str, rule: str, round: int | None = None,
                 turn: int | None = None) -> None:
        where = "" if round is None else f"round {round}, " if turn is not None else f"round {round}: "
        where += "" if turn is None else f"turn {turn}: "
        super().__init__(where + message, rule)
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


def _expect(cond: bool, path: str, message: str) -> None:
    if not cond:
        raise MalformedRecordError(path, message)


def _int(value: Any, path: str, lo: int, hi: int, what: str) -> int:
    _expect(type(value) is int and lo <= value <= hi, path,
            f"expected {what} (an integer from {lo} to {hi}), got {_show(value)}")
    return value


def _show(value: Any) -> str:
    text = repr(value) if not isinstance(value, str) else f'"{value}"'
    return text if len(text) <= 40 else text[:37] + "..."


def _card_list(value: Any, path: str, n: int, what: str) -> list[int]:
    _expect(isinstance(value, list) and len(value) == n, path,
            f"expected {what}: a list of {n} geisha numbers, got {_show(value)}")
    return [_int(v, f"{path}[{i}]", 0, C.NUM_GEISHA - 1, "a geisha number")
            for i, v in enumerate(value)]


def _keys(obj: dict, path: str, required: set[str], optional: set[str] = frozenset()) -> None:
    missing = sorted(required - obj.keys())
    _expect(not missing, path, f"missing key {_show(missing[0]) if missing else ''}")
    extra = sorted(obj.keys() - required - optional)
    _expect(not extra, f"{path}.{extra[0]}" if extra else path,
            f"unexpected key; expected only {', '.join(sorted(required | optional))}")


def _parse_turn(obj: Any, path: str) -> tuple[int, tuple[Decision, ...]]:
    _expect(isinstance(obj, dict), path, f"expected a turn object, got {_show(obj)}")
    _expect("action" in obj, path, 'missing key "action"')
    action = obj["action"]
    _expect(action in _ACTION_NAMES, f"{path}.action",
            f"expected one of {', '.join(_ACTION_NAMES)}, got {_show(action)}")
    if action == "competition":
        _keys(obj, path, {"player", "action", "sets", "pick"})
    elif action == "gift":
        _keys(obj, path, {"player", "action", "cards", "pick"})
    else:
        _keys(obj, path, {"player", "action", "cards"})
    player = _int(obj["player"], f"{path}.player", 0, 1, "a player")
    if action == "secret":
        (card,) = _card_list(obj["cards"], f"{path}.cards", 1, "the secret card")
        return player, (Secret(card),)
    if action == "trade-off":
        return player, (TradeOff(_card_list(obj["cards"], f"{path}.cards", 2, "the trade-off")),)
    if action == "gift":
        cards = _card_list(obj["cards"], f"{path}.cards", 3, "the gift")
        pick = _int(obj["pick"], f"{path}.pick", 0, C.NUM_GEISHA - 1, "the geisha taken")
        return player, (Gift(cards), GiftPick(pick))
    sets = obj["sets"]
    _expect(isinstance(sets, list) and len(sets) == 2, f"{path}.sets",
            f"expected two sets of 2 cards, got {_show(sets)}")
    pairs = [_card_list(s, f"{path}.sets[{i}]", 2, "a set") for i, s in enumerate(sets)]
    pick = _int(obj["pick"], f"{path}.pick", 0, 1, "the index of the set taken")
    return player, (Competition(pairs), CompetitionPick(pairs[pick]))


def _parse_round(obj: Any, path: str) -> ParsedRound:
    _expect(isinstance(obj, dict), path, f"expected a round object, got {_show(obj)}")
    _keys(obj, path, {"removed", "hands", "draws", "turns"})
    removed = _int(obj["removed"], f"{path}.removed", 0, C.NUM_GEISHA - 1, "a geisha number")
    hands = obj["hands"]
    _expect(isinstance(hands, list) and len(hands) == 2, f"{path}.hands",
            f"expected two hands, got {_show(hands)}")
    parsed_hands = [_card_list(h, f"{path}.hands[{i}]", 6, "a hand") for i, h in enumerate(hands)]
    draws = _card_list(obj["draws"], f"{path}.draws", 8, "the draws")
    turns = obj["turns"]
    _expect(isinstance(turns, list), f"{path}.turns", f"expected a list of turns, got {_show(turns)}")
    return ParsedRound(
        Deal(removed, parsed_hands, draws),
        tuple(_parse_turn(t, f"{path}.turns[{i}]") for i, t in enumerate(turns)))


def parse_record(obj: Any) -> ParsedRecord:
    """Check the shape of a decoded JSON record; raise :class:`MalformedRecordError` if wrong."""
    _expect(isinstance(obj, dict), "$", f"expected a record object, got {_show(obj)}")
    _expect(obj.get("format") == FORMAT, "$.format",
            f'expected "{FORMAT}", got {_show(obj.get("format"))}')
    _keys(obj, "$", {"format", "variant", "first_player", "rounds"}, {"result"})
    variant = obj["variant"]
    _expect(variant in PRESETS, "$.variant",
            f"expected one of {', '.join(PRESETS)}, got {_show(variant)}")
    first = _int(obj["first_player"], "$.first_player", 0, 1, "a player")
    rounds = obj["rounds"]
    _expect(isinstance(rounds, list), "$.rounds", f"expected a list of rounds, got {_show(rounds)}")
    parsed = tuple(_parse_round(r, f"$.rounds[{i}]") for i, r in enumerate(rounds))
    result = None
    if "result" in obj:
        res = obj["result"]
        _expect(isinstance(res, dict), "$.result", f"expected a result object, got {_show(res)}")
        _keys(res, "$.result", {"winner", "reason"})
        winner = res["winner"]
        _expect(winner is None or (type(winner) is int and winner in (0, 1)), "$.result.winner",
                f"expected 0, 1 or null, got {_show(winner)}")
        reasons = [r.value for r in Reason]
        _expect(res["reason"] in reasons, "$.result.reason",
                f"expected one of {', '.join(reasons)}, got {_show(res['reason'])}")
        result = Result(winner, Reason(res["reason"]))
    return ParsedRecord(variant, first, parsed, result)


# --- reading: rules ------------------------------------------------------------------------


def replay_record(record: ParsedRecord) -> State:
    """Play a parsed record through the engine; raise :class:`IllegalRecordError` at the first
    broken rule. Returns the final state."""
    state = new_game(PRESETS[record.variant], record.first_player)
    for r, rnd in enumerate(record.rounds):
        if state.phase is Phase.OVER:
            raise IllegalRecordError(
                f"the game ended after round {r - 1} ({_describe(state.result)}), "
                f"but the record goes on", "END-2", r)
        try:
            state = apply(state, rnd.deal)
        except (IllegalActionError, InvalidActionError) as error:
            raise IllegalRecordError(error.message, error.rule or "DEAL-1", r) from None
        for t, (declared, decisions) in enumerate(rnd.turns):
            if t >= TURNS_PER_ROUND:
                raise IllegalRecordError(
                    f"a round has {TURNS_PER_ROUND} turns; this one has {len(rnd.turns)}",
                    "TURN-1", r, t)
            if declared != state.active:
                raise IllegalRecordError(
                    f"player {declared} acts out of turn; turn {t} belongs to player "
                    f"{state.active}", "TURN-1", r, t)
            for decision in decisions:
                try:
                    state = apply(state, decision)
                except (IllegalActionError, InvalidActionError) as error:
                    raise IllegalRecordError(error.message, error.rule or "TURN-3", r, t) from None
        if len(rnd.turns) < TURNS_PER_ROUND:
            raise IllegalRecordError(
                f"the record stops after {len(rnd.turns)} of the round's {TURNS_PER_ROUND} turns",
                "TURN-1", r, len(rnd.turns))
    if state.phase is not Phase.OVER:
        rule = "UPDATE-5" if state.rules.max_rounds is None else "VAR-IT-1"
        raise IllegalRecordError(
            f"the record stops after {len(record.rounds)} round(s) but no goal was reached; "
            "the game goes on", rule, len(record.rounds))
    assert state.result is not None
    if record.result is not None and record.result != state.result:
        raise IllegalRecordError(
            f"the record declares {_describe(record.result)}, but the game ends with "
            f"{_describe(state.result)}", _REASON_RULE[state.result.reason],
            len(record.rounds) - 1)
    return state


def _describe(result: Result | None) -> str:
    if result is None:
        return "no result"
    who = "a shared victory" if result.winner is None else f"a win for player {result.winner}"
    return f"{who} by {result.reason.value}"


def read_record(obj: Any) -> State:
    """Parse and replay a decoded JSON record (both layers)."""
    return replay_record(parse_record(obj))
