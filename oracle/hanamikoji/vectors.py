"""Hanamikoji's conformance corpus (tests/vectors/), in the manner of Wycheproof's test vectors:
the hand-built cases that ``hanamikoji vectors`` (:mod:`hanamikoji.oracle.core.vectors`) writes
for this game, through :data:`EXTENSION`, this game's
vectors hooks.

Four JSON files, each a header and a list of cases; a case has an ``id``, a ``comment``,
``flags`` (explained in the file's ``notes``), the spec ``rules`` it exercises, an ``input`` and
the ``expected`` answer:

* ``records.json``: a record (or raw text) and its verdict, as ``hanamikoji validate --json``
  gives it: valid with the result and the number of legal decisions at each decision of each
  round; illegal with the rule, round and turn; malformed with the JSON path;
* ``decisions.json``: a position (variant, first player, every decision from the start) and one
  more decision: the legal decisions at the position, and whether the decision is legal (if
  not, the rule it breaks);
* ``views.json``: a position and a player: what that player sees (:func:`.protocol.view_json`);
* ``perft.json``: deals and the number of decision sequences of the round at each depth.

Inputs come from seeded games (``play_game``) and from games built to reach a chosen outcome
(:mod:`.construct`), and near-misses made from them by one change each. Every expected answer is
computed here by the engine; nothing is typed by hand. Each case also states what it is meant to
show (its rule, its result), and generation stops if the engine disagrees with that intent.
Generation is deterministic: the same engine writes the same bytes.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any, Callable, Iterator

from hanamikoji.engine.hanamikoji import cards as C
from hanamikoji.engine.hanamikoji.actions import (
    ActionKind,
    Competition,
    CompetitionPick,
    Deal,
    Decision,
    Gift,
    GiftPick,
    Secret,
    TradeOff,
)
from hanamikoji.oracle.core.vectors import (
    CORPUS,
    FILES,
    Case,
    IntentError,
    VectorFile,
    VectorsExtension,
    judge_record,
)
from hanamikoji.oracle.core.vectors import intend as _intend
from hanamikoji.engine.hanamikoji.construct import round_for_sides
from hanamikoji.engine.hanamikoji.errors import HanamikojiError
from hanamikoji.engine.hanamikoji.game import (
    Phase,
    State,
    apply,
    current_player,
    legal_actions,
    new_game,
    observe,
    score_markers,
)
from hanamikoji.oracle.hanamikoji.perft import ROUND_DEPTH, divide, perft, round_start, seeded_deal
from hanamikoji.engine.hanamikoji.codec import (
    decision_json,
    deal_json,
    parse_deal,
    parse_decision,
    player_json,
    result_json,
    view_json,
)
from hanamikoji.engine.hanamikoji.record import to_record
from hanamikoji.engine.hanamikoji.rules import ITALIAN_THREE_ROUNDS, STANDARD, Rules
from hanamikoji.engine.hanamikoji.seeded import play_game
from hanamikoji.engine.hanamikoji.game_type import GAME

__all__ = ["CORPUS", "FILES", "Case", "IntentError", "EXPECTED", "RULE_ID", "files", "position"]

RULE_ID = re.compile(r"^- \*\*([A-Z]+(?:-[A-Z]+)*-[0-9]+)\*\*", re.M)

NOTES = {
    "Valid": "A complete game the rules allow; expected holds its result.",
    "Illegal": "Well formed, but the rules forbid it; expected names the first broken rule.",
    "Malformed": "Not a record: expected names the JSON path at fault (null if not JSON).",
    "Seeded": "A game of two uniform random players: game i of seed s of `hanamikoji simulate`.",
    "Constructed": "A game built round by round to reach a chosen marker row "
                   "(engine/construct.py), to pin an edge case.",
    "Mutated": "A valid record or position with exactly one thing changed.",
    "EdgeCase": "An outcome that uniform random play rarely reaches.",
    "Italian": "The variant italian-three-rounds (VAR-IT-1..4).",
    "JsonNumber": "JSON has one number type: 0.0 is the integer 0 (as JSON Schema's integer).",
    "Text": "The input is raw text (`text`, or `hex` for bytes that are not UTF-8), not a JSON "
            "value.",
    "Legal": "The decision is legal at the position.",
    "HiddenInformation": "The two players' views differ in what the rules hide (INFO-2).",
    "Chance": "The position waits for a deal (a chance outcome).",
}


# --- expected answers: computed from the input alone ---------------------------------------


def legal_counts(state: State) -> list[list[int]]:
    """The number of legal decisions at each decision of the game, round by round (the deals,
    chance outcomes, are not decisions)."""
    rounds: list[list[int]] = []
    walk = new_game(state.rules, state.first_player)
    for decision in state.history:
        if isinstance(decision, Deal):
            rounds.append([])
        else:
            rounds[-1].append(len(legal_actions(walk)))
        walk = apply(walk, decision)
    return rounds


def expected_record(given: dict[str, Any]) -> dict[str, Any]:
    """The verdict on a record case's input (``record``, ``text`` or ``hex``), as ``validate
    --json`` gives it; with the legal counts round by round if valid."""
    out, final, _ = judge_record(GAME, given)
    if final is not None:
        out["legal_counts"] = legal_counts(final)
    return out


def position(given: dict[str, Any]) -> State:
    """The state of a position input: ``{"variant", "first_player", "history"}``."""
    state = new_game(Rules.named(given["variant"]), given["first_player"])
    for i, decision in enumerate(given["history"]):
        state = apply(state, parse_decision(decision, f"$.history[{i}]"))
    return state


def expected_decision(given: dict[str, Any]) -> dict[str, Any]:
    """The legal decisions at the position and the verdict on ``decision`` there."""
    state = position(given)
    out: dict[str, Any] = {"current_player": player_json(current_player(state)),
                           "legal_actions": [decision_json(d) for d in legal_actions(state)]}
    try:
        after = apply(state, parse_decision(given["decision"], "$.decision"))
    except HanamikojiError as error:
        out.update(status="illegal", rule=error.rule)
    else:
        out.update(status="legal", rule=None, next_player=player_json(current_player(after)),
                   result=result_json(after.result))
    return out


def expected_view(given: dict[str, Any]) -> dict[str, Any]:
    return {"view": view_json(observe(position(given), given["player"]))}


def expected_perft(given: dict[str, Any]) -> dict[str, Any]:
    state = round_start(parse_deal({k: given[k] for k in ("removed", "hands", "draws")}),
                        given["first_player"])
    counts = perft(state, ROUND_DEPTH)
    out: dict[str, Any] = {"depths": {str(d): counts[d] for d in range(1, ROUND_DEPTH + 1)}}
    if given.get("divide"):
        out["divide"] = [{"decision": decision_json(d), "count": n}
                         for d, n in divide(state, given["divide"])]
    return out


EXPECTED: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "records.json": expected_record, "decisions.json": expected_decision,
    "views.json": expected_view, "perft.json": expected_perft}


# --- building games ------------------------------------------------------------------------


def _side_pairs(cap: int, want: str) -> tuple[tuple[int, int], ...]:
    """The counts ``(a, b)`` of a geisha's ``cap`` cards on the two sides that give ``want``,
    fewest cards first."""
    pairs = [(a, b) for a in range(cap + 1) for b in range(cap + 1 - a)
             if (want == "=" and a == b) or (want == "0" and a > b) or (want == "1" and b > a)]
    return tuple(sorted(pairs, key=lambda p: (p[0] + p[1], p)))


#: :func:`_side_pairs` of each geisha, by what her marker is to show.
_SIDE_PAIRS = tuple({want: _side_pairs(cap, want) for want in "01="} for cap in C.FULL_DECK)


def sides_for(target: str) -> tuple[C.Cards, C.Cards]:
    """Two sides of 8 whose scoring gives ``target``: per geisha ``0`` or ``1`` (that player
    has strictly more cards, SCORE-2) or ``=`` (equal counts, SCORE-3). The same sides give
    it from any markers: a tie leaves a marker where it was, a win takes it to the winner."""
    options = [_SIDE_PAIRS[g][want] for g, want in enumerate(target)]
    rooms = [sum(C.FULL_DECK[g:]) for g in range(C.NUM_GEISHA)]
    failed: set[tuple[int, int, int]] = set()  # the searches that found nothing

    def search(g: int, a_left: int, b_left: int) -> list[tuple[int, int]] | None:
        if g == C.NUM_GEISHA:
            return [] if a_left == b_left == 0 else None
        if (g, a_left, b_left) in failed or a_left + b_left > rooms[g]:
            return None
        for a, b in options[g]:
            if a <= a_left and b <= b_left:
                rest = search(g + 1, a_left - a, b_left - b)
                if rest is not None:
                    return [(a, b)] + rest
        failed.add((g, a_left, b_left))
        return None

    found = search(0, 8, 8)
    if found is None:
        raise IntentError(f"no two sides of 8 cards score {target!r}")
    return tuple(a for a, _ in found), tuple(b for _, b in found)


def built_game(rules: Rules, first_player: int, targets: tuple[str, ...]) -> State:
    """A game whose round r scores ``targets[r]`` (see :func:`sides_for`), played through
    the engine; the caller checks where it ends."""
    state = new_game(rules, first_player)
    for target in targets:
        side0, side1 = sides_for(target)
        deal, decisions = round_for_sides(side0, side1, starter=state.starter)
        for decision in (deal,) + decisions:
            state = apply(state, decision)
    return state


def _game_states(final: State) -> Iterator[State]:
    """Every state of a finished game, from the start."""
    state = new_game(final.rules, final.first_player)
    yield state
    for decision in final.history:
        state = apply(state, decision)
        yield state


def _seeded(seed: int, index: int, rules: Rules = STANDARD, first_player: int = 0) -> State:
    return play_game(seed, index, rules, first_player)


def _find_seeded(test: Callable[[State], bool], rules: Rules = STANDARD, seed: int = 1,
                 limit: int = 2000) -> tuple[int, State]:
    for index in range(limit):
        state = _seeded(seed, index, rules)
        if test(state):
            return index, state
    raise IntentError(f"no game among {limit} of seed {seed} passes {test.__name__}")


# --- records.json --------------------------------------------------------------------------


def _record_case(case_id: str, comment: str, flags: tuple[str, ...], rules: tuple[str, ...],
                 given: dict[str, Any], *, status: str, rule: str | None = None,
                 reason: str | None = None, path: str | None = None) -> Case:
    expected = expected_record(given)
    if expected["status"] != status:
        raise IntentError(f"{case_id}: meant {status}, the engine says "
                          f"{judge_record(GAME, given)[2]}")
    if rule is not None:
        _intend(case_id, "rule", rule, expected["rule"])
    if reason is not None:
        _intend(case_id, "reason", reason, (expected["result"] or {}).get("reason"))
    if path is not None:
        _intend(case_id, "path", path, expected["path"])
    if rule is not None and rule not in rules:
        raise IntentError(f"{case_id}: cites {rules} but not its own rule {rule}")
    return Case(case_id, comment, flags, rules, given, expected)


def _turn_states(final: State) -> list[tuple[int, int, State]]:
    """(round, turn, state) at every action of the game, before the action."""
    out = []
    for state in _game_states(final):
        if state.phase is Phase.ACTION:
            out.append((state.round, state.turn, state))
    return out


def _missing_geisha(hand: C.Cards) -> int | None:
    return next((g for g in C.GEISHA if hand[g] == 0), None)


def _card_not_in_hand(final: State, kind: ActionKind) -> tuple[dict[str, Any], int, int]:
    """The record of ``final`` with the first ``kind`` action of round 0 given a card the
    player does not hold (ACT-*-1)."""
    record = to_record(final)
    for rnd, turn, state in _turn_states(final):
        if rnd != 0:
            break
        entry = record["rounds"][0]["turns"][turn]
        missing = _missing_geisha(state.hands[current_player(state)])
        if entry["action"] != kind.value or missing is None:
            continue
        if kind is ActionKind.COMPETITION:
            entry["sets"][0] = sorted([missing, entry["sets"][0][1]])
        else:
            entry["cards"] = sorted([missing] + entry["cards"][1:])
            if kind is ActionKind.GIFT and entry["pick"] not in entry["cards"]:
                entry["pick"] = entry["cards"][0]
        return record, 0, turn
    raise IntentError(f"no {kind.value} in round 0 to spoil")


def _action_twice(final: State) -> tuple[dict[str, Any], int]:
    """Round 0 with a player's second action of the same kind as their first (TURN-3)."""
    record = to_record(final)
    states = _turn_states(final)
    first_kind = final.history[1].kind  # type: ignore[union-attr]
    _, turn, state = states[2]  # the starting player's second turn
    hand = state.hands[current_player(state)]
    cards = list(C.cards_of(hand))[: first_kind.size]
    entry: dict[str, Any] = {"player": record["rounds"][0]["turns"][turn]["player"],
                             "action": first_kind.value}
    if first_kind is ActionKind.COMPETITION:
        entry.update(sets=[cards[:2], cards[2:]], pick=0)
    else:
        entry["cards"] = cards
        if first_kind is ActionKind.GIFT:
            entry["pick"] = cards[0]
    record["rounds"][0]["turns"][turn] = entry
    return record, turn


def record_cases() -> list[Case]:
    cases: list[Case] = []
    add = cases.append

    # Valid games, seeded.
    for seed, index, rules, first in ((1, 0, STANDARD, 0), (1, 1, STANDARD, 1),
                                      (2, 0, ITALIAN_THREE_ROUNDS, 0),
                                      (2, 3, ITALIAN_THREE_ROUNDS, 1)):
        state = _seeded(seed, index, rules, first)
        add(_record_case(
            f"record/valid/seed-{seed}-game-{index}-{rules.name}-first-{first}",
            f"Game {index} of seed {seed}, {rules.name}, player {first} starts; "
            f"{len(state.scores)} round(s).",
            ("Valid", "Seeded") + (("Italian",) if rules.max_rounds else ()),
            ("SETUP-1", "TURN-1", "TURN-3", "UPDATE-4") + (("VAR-IT-1",) if rules.max_rounds else ()),
            {"record": to_record(state)}, status="valid"))
    # A long standard game: the rounds go on until a goal (UPDATE-5).
    index, long_game = _find_seeded(lambda s: len(s.scores) >= 4)
    add(_record_case(
        f"record/valid/seed-1-game-{index}-four-rounds", "A standard game of 4 or more rounds: "
        "no round limit; the markers stay and the actions reset between rounds.",
        ("Valid", "Seeded"), ("UPDATE-1", "UPDATE-2", "UPDATE-3", "UPDATE-4", "UPDATE-5"),
        {"record": to_record(long_game)}, status="valid"))

    # Valid games, built to pin the end of the game.
    built = [
        ("record/valid/charm-over-geisha", "END-4: player 0 wins geisha 0-3 (4 geisha, 9 charm) "
         "and player 1 geisha 4-6 (12 charm) in the same scoring; charm wins.",
         STANDARD, 0, ("0000111",), ("END-4", "END-2", "COMP-1", "SCORE-4"), "charm-over-geisha"),
        ("record/valid/geisha-goal", "END-3: 4 geisha with less than 11 charm win by geisha.",
         STANDARD, 1, ("0001=1=", "===01=="), ("END-3", "END-2", "SCORE-4"), "geisha"),
        ("record/valid/charm-goal", "END-3: 11 or more charm wins by charm.",
         STANDARD, 0, ("11==000",), ("END-3", "COMP-1", "SCORE-4"), "charm"),
        ("record/valid/tie-keeps-old-marker", "SCORE-3: geisha 6 won by player 0 in round 0 is "
         "tied in round 1 and stays with player 0; a 3-round game won by charm.",
         STANDARD, 0, ("1=====0", "===10==", "=1=0==="),
         ("SCORE-3", "SCORE-2", "UPDATE-2", "SCORE-4", "END-3"), "charm"),
        ("record/valid/italian-limit-charm", "VAR-IT-2: three rounds, no goal; more charm wins.",
         ITALIAN_THREE_ROUNDS, 0, ("1=====0", "=======", "======="),
         ("VAR-IT-1", "VAR-IT-2", "SCORE-3"), "round-limit-charm"),
        ("record/valid/italian-limit-highest-geisha", "VAR-IT-3: equal charm 7 against 7; player "
         "0 holds 5+2, player 1 holds 4+3; the highest-valued geisha (5) wins.",
         ITALIAN_THREE_ROUNDS, 0, ("=====10", "0==1===", "======="),
         ("VAR-IT-3", "VAR-IT-2", "COMP-1"), "round-limit-highest-geisha"),
        ("record/valid/italian-limit-shared", "VAR-IT-4: equal charm (2 and 2) and equal values "
         "held (2 and 2): a shared victory, winner null.",
         ITALIAN_THREE_ROUNDS, 1, ("01=====", "=======", "======="),
         ("VAR-IT-4", "VAR-IT-3", "VAR-IT-2"), "shared"),
        ("record/valid/italian-shared-all-neutral", "VAR-IT-4 and COMP-4: every geisha tied in "
         "all three rounds; every marker stays in the centre; shared.",
         ITALIAN_THREE_ROUNDS, 0, ("=======", "=======", "======="),
         ("VAR-IT-4", "COMP-4", "SCORE-3"), "shared"),
        ("record/valid/italian-goal-in-third-round", "VAR-IT-2: a goal reached at the third "
         "scoring decides by END-3, not by the round limit.",
         ITALIAN_THREE_ROUNDS, 0, ("1=====0", "=======", "==10=0="),
         ("VAR-IT-2", "END-3", "END-1"), "charm"),
    ]
    states: dict[str, State] = {}
    for case_id, comment, rules, first, targets, cited, reason in built:
        state = built_game(rules, first, targets)
        states[case_id] = state
        flags = ("Valid", "Constructed", "EdgeCase") + (("Italian",) if rules.max_rounds else ())
        add(_record_case(case_id, comment, flags, cited, {"record": to_record(state)},
                         status="valid", reason=reason))
    text = json.dumps(to_record(states["record/valid/charm-goal"]))
    add(_record_case("record/valid/integral-number", "first_player written 0.0: JSON has one "
                     "number type, and 0.0 is the integer 0.", ("Valid", "JsonNumber", "Text"),
                     ("SETUP-1",), {"text": text.replace('"first_player": 0', '"first_player": 0.0')},
                     status="valid"))

    # Illegal records: one change to a valid one, each the first broken rule.
    base = _seeded(1, 0)
    multi = long_game

    def illegal(case_id: str, comment: str, cited: tuple[str, ...], record: dict[str, Any],
                rule: str, flags: tuple[str, ...] = ()) -> None:
        add(_record_case(case_id, comment, ("Illegal", "Mutated") + flags, cited,
                         {"record": record}, status="illegal", rule=rule))

    record = to_record(base)
    record["rounds"][0]["hands"][0][0] = (record["rounds"][0]["hands"][0][0] + 1) % C.NUM_GEISHA
    illegal("record/illegal/deal-not-21-cards", "DEAL-1: one dealt card changed, so the deal "
            "no longer holds the 21 item cards.", ("DEAL-1", "COMP-2"), record, "DEAL-1")
    record = to_record(base)
    record["rounds"][0]["removed"] = record["rounds"][0]["hands"][1][0]
    record["rounds"][0]["hands"][1][0] = to_record(base)["rounds"][0]["removed"]
    if record["rounds"][0]["removed"] != to_record(base)["rounds"][0]["removed"]:
        record["rounds"][0]["hands"][1].sort()
        illegal("record/illegal/removed-card-swapped-into-hand", "DEAL-2: the removed card and a "
                "card of player 1's hand swapped: still 21 cards, but the turns now play a card "
                "player 1 does not hold.", ("DEAL-2", "ACT-SECRET-1", "ACT-TRADE-1", "ACT-GIFT-1",
                                            "ACT-COMP-1"),
                record, _first_card_rule(record))
    record = to_record(base)
    record["rounds"][0]["turns"][1]["player"] = record["rounds"][0]["turns"][0]["player"]
    illegal("record/illegal/out-of-turn", "TURN-1: the starting player acts twice in a row.",
            ("TURN-1",), record, "TURN-1")
    record = to_record(multi)
    first_turn = record["rounds"][1]["turns"][0]
    first_turn["player"] = 1 - first_turn["player"]
    illegal("record/illegal/same-starter-next-round", "UPDATE-4: round 1 is started by the "
            "player who started round 0.", ("UPDATE-4", "TURN-1"), record, "UPDATE-4")
    record, turn = _action_twice(base)
    illegal("record/illegal/action-used-twice", "TURN-3: the starting player's second action "
            "is the kind of their first.", ("TURN-3", "COMP-3"), record, "TURN-3")
    for kind, rule in ((ActionKind.SECRET, "ACT-SECRET-1"), (ActionKind.TRADE_OFF, "ACT-TRADE-1"),
                       (ActionKind.GIFT, "ACT-GIFT-1"), (ActionKind.COMPETITION, "ACT-COMP-1")):
        record, _, turn = _card_not_in_hand(base, kind)
        illegal(f"record/illegal/{kind.value}-card-not-in-hand", f"{rule}: a {kind.value} with "
                "a card of a geisha the player does not hold.", (rule, "TURN-2"), record, rule)
    record = to_record(base)
    gift = next(t for t in record["rounds"][0]["turns"] if t["action"] == "gift")
    gift["pick"] = next(g for g in C.GEISHA if g not in gift["cards"])
    illegal("record/illegal/gift-pick-not-offered", "ACT-GIFT-2: the opponent takes a geisha "
            "that is not in the gift.", ("ACT-GIFT-2",), record, "ACT-GIFT-2")
    record = to_record(base)
    record["rounds"][0]["turns"].append(copy.deepcopy(record["rounds"][0]["turns"][-1]))
    illegal("record/illegal/nine-turns", "TURN-1: a round of 9 turns.", ("TURN-1",), record,
            "TURN-1")
    record = to_record(base)
    del record["rounds"][-1]["turns"][5:]
    del record["result"]
    illegal("record/illegal/stops-mid-round", "TURN-1: the record stops after 5 of 8 turns.",
            ("TURN-1",), record, "TURN-1")
    record = to_record(multi)
    del record["rounds"][1:]
    del record["result"]
    illegal("record/illegal/stops-without-goal", "UPDATE-5: the record stops after a complete "
            "round that reached no goal; a standard game goes on.", ("UPDATE-5", "END-2"),
            record, "UPDATE-5")
    record = to_record(base)
    record["rounds"].append(copy.deepcopy(record["rounds"][0]))
    illegal("record/illegal/goes-on-after-end", "END-2: a round after the round whose scoring "
            "reached a goal.", ("END-2", "END-1"), record, "END-2")
    record = to_record(states["record/valid/charm-goal"])
    record["result"]["winner"] = 1 - record["result"]["winner"]
    illegal("record/illegal/wrong-winner", "END-3: the declared winner is the loser.",
            ("END-3",), record, "END-3")
    record = to_record(states["record/valid/charm-over-geisha"])
    record["result"] = {"winner": 0, "reason": "geisha"}
    illegal("record/illegal/double-finish-to-geisha", "END-4: 4 geisha against 11 charm "
            "declared as a win for the geisha player.", ("END-4",), record, "END-4",
            ("EdgeCase",))
    for name, rule, declared in (
            ("italian-limit-charm", "VAR-IT-2", {"winner": None, "reason": "shared"}),
            ("italian-limit-highest-geisha", "VAR-IT-3", {"winner": None, "reason": "shared"}),
            ("italian-limit-shared", "VAR-IT-4", {"winner": 0, "reason": "round-limit-charm"})):
        record = to_record(states[f"record/valid/{name}"])
        record["result"] = declared
        illegal(f"record/illegal/{name}-misdeclared", f"{rule}: the declared result is not the "
                "one the round limit gives.", (rule,), record, rule, ("EdgeCase", "Italian"))
    italian = states["record/valid/italian-limit-charm"]
    record = to_record(italian)
    record["rounds"].append(copy.deepcopy(record["rounds"][0]))
    illegal("record/illegal/italian-fourth-round", "VAR-IT-1: a fourth round of an "
            "italian-three-rounds game.", ("VAR-IT-1",), record, "VAR-IT-1", ("Italian",))
    record = to_record(italian)
    del record["rounds"][2:]
    del record["result"]
    illegal("record/illegal/italian-stops-after-two-rounds", "UPDATE-1: an Italian game "
            "without a goal goes on to its third round; the record stops after two.",
            ("UPDATE-1",), record, "UPDATE-1", ("Italian",))
    record = to_record(new_game())
    illegal("record/illegal/no-rounds", "UPDATE-5: a record of no rounds: the game has not "
            "ended.", ("UPDATE-5",), record, "UPDATE-5")

    # Malformed: one fault each, at a known JSON path.
    good = to_record(base)
    mutations: list[tuple[str, str, Callable[[dict[str, Any]], Any], str]] = [
        ("format", "the format is not hanamikoji-record/1", lambda r: r.update(format="other/1"),
         "$.format"),
        ("variant", "an unknown variant", lambda r: r.update(variant="french"), "$.variant"),
        ("variant-list", "the variant is a list", lambda r: r.update(variant=["standard"]),
         "$.variant"),
        ("first-player-range", "first_player 2", lambda r: r.update(first_player=2),
         "$.first_player"),
        ("first-player-bool", "first_player true (a boolean is not an integer)",
         lambda r: r.update(first_player=True), "$.first_player"),
        ("first-player-fraction", "first_player 0.5", lambda r: r.update(first_player=0.5),
         "$.first_player"),
        ("extra-key", "a key the format does not have", lambda r: r.update(comment="hi"),
         "$.comment"),
        ("missing-rounds", "no rounds key", lambda r: r.pop("rounds"), "$"),
        ("rounds-object", "rounds is an object", lambda r: r.update(rounds={}), "$.rounds"),
        ("removed-range", "removed card 7", lambda r: r["rounds"][0].update(removed=7),
         "$.rounds[0].removed"),
        ("three-hands", "three hands", lambda r: r["rounds"][0]["hands"].append([0] * 6),
         "$.rounds[0].hands"),
        ("hand-of-five", "a hand of 5 cards", lambda r: r["rounds"][0]["hands"][1].pop(),
         "$.rounds[0].hands[1]"),
        ("draws-of-nine", "9 draws", lambda r: r["rounds"][0]["draws"].append(0),
         "$.rounds[0].draws"),
        ("draw-string", "a draw written as a string",
         lambda r: r["rounds"][0]["draws"].__setitem__(3, "3"), "$.rounds[0].draws[3]"),
        ("round-extra-key", "a round with an extra key",
         lambda r: r["rounds"][0].update(score=1), "$.rounds[0].score"),
        ("turns-missing", "a round without turns", lambda r: r["rounds"][0].pop("turns"),
         "$.rounds[0]"),
        ("action-unknown", "an action that does not exist",
         lambda r: r["rounds"][0]["turns"][2].update(action="steal"),
         "$.rounds[0].turns[2].action"),
        ("player-range", "a turn's player 2",
         lambda r: r["rounds"][0]["turns"][0].update(player=2), "$.rounds[0].turns[0].player"),
        ("gift-without-pick", "a gift without its pick", lambda r: _turn(r, "gift").pop("pick"),
         f"$.rounds[0].turns[{_turn_index(good, 'gift')}]"),
        ("secret-with-pick", "a secret with a pick", lambda r: _turn(r, "secret").update(pick=0),
         f"$.rounds[0].turns[{_turn_index(good, 'secret')}].pick"),
        ("gift-pick-range", "a gift's pick 9", lambda r: _turn(r, "gift").update(pick=9),
         f"$.rounds[0].turns[{_turn_index(good, 'gift')}].pick"),
        ("competition-pick-range", "a competition's pick 2 (the index of a set)",
         lambda r: _turn(r, "competition").update(pick=2),
         f"$.rounds[0].turns[{_turn_index(good, 'competition')}].pick"),
        ("competition-three-sets", "a competition of three sets",
         lambda r: _turn(r, "competition")["sets"].append([0, 0]),
         f"$.rounds[0].turns[{_turn_index(good, 'competition')}].sets"),
        ("trade-off-of-three", "a trade-off of 3 cards",
         lambda r: _turn(r, "trade-off")["cards"].append(0),
         f"$.rounds[0].turns[{_turn_index(good, 'trade-off')}].cards"),
        ("result-winner-range", "winner 2", lambda r: r["result"].update(winner=2),
         "$.result.winner"),
        ("result-reason-unknown", "an unknown reason", lambda r: r["result"].update(reason="luck"),
         "$.result.reason"),
        ("result-null", "result null (omit it instead)", lambda r: r.update(result=None),
         "$.result"),
    ]
    for name, what, mutate, path in mutations:
        record = copy.deepcopy(good)
        mutate(record)
        add(_record_case(f"record/malformed/{name}", f"Malformed: {what}.",
                         ("Malformed", "Mutated"), (), {"record": record}, status="malformed",
                         path=path))
    add(_record_case("record/malformed/array", "Malformed: a JSON array, not a record object.",
                     ("Malformed",), (), {"record": [good]}, status="malformed", path="$"))
    text = json.dumps(good)
    malformed: tuple[tuple[str, str, dict[str, str], str | None], ...] = (
            ("not-json", "text cut in the middle", {"text": text[: len(text) // 2]}, None),
            ("duplicate-key", "the key variant twice in one object",
             {"text": text.replace('"variant": "standard"',
                                   '"variant": "standard", "variant": "standard"')}, None),
            ("nan", "NaN is not JSON", {"text": text.replace('"first_player": 0',
                                                            '"first_player": NaN')}, None),
            ("not-utf-8", "bytes that are not UTF-8",
             {"hex": (b'{"format": "\xff"}').hex()}, None),
            ("empty-object", "an empty object", {"text": "{}"}, "$.format"))
    for name, what, given, where in malformed:
        add(_record_case(f"record/malformed/{name}", f"Malformed: {what}.",
                         ("Malformed", "Text"), (), given, status="malformed", path=where))
    return cases


def _first_card_rule(record: dict[str, Any]) -> str:
    """The ACT-*-1 rule of the first turn that plays a card its player does not hold: the
    intent of a deal whose removed card was swapped into a hand (found by walking the turns
    with the hands of the record itself, not by the engine)."""
    rnd = record["rounds"][0]
    hands = [C.counts(rnd["hands"][0]), C.counts(rnd["hands"][1])]
    rules = {"secret": "ACT-SECRET-1", "trade-off": "ACT-TRADE-1", "gift": "ACT-GIFT-1",
             "competition": "ACT-COMP-1"}
    for t, turn in enumerate(rnd["turns"]):
        player = turn["player"]
        hands[player] = C.add(hands[player], C.counts([rnd["draws"][t]]))
        cards = turn["cards"] if "cards" in turn else turn["sets"][0] + turn["sets"][1]
        played = C.counts(cards)
        if not C.contains(hands[player], played):
            return rules[turn["action"]]
        hands[player] = C.sub(hands[player], played)
    raise IntentError("the swapped deal plays only cards in hand")


def _turn_index(record: dict[str, Any], action: str) -> int:
    return next(i for i, t in enumerate(record["rounds"][0]["turns"]) if t["action"] == action)


def _turn(record: dict[str, Any], action: str) -> dict[str, Any]:
    return record["rounds"][0]["turns"][_turn_index(record, action)]


# --- decisions.json ------------------------------------------------------------------------


def _position(state: State) -> dict[str, Any]:
    return {"variant": state.rules.name, "first_player": state.first_player,
            "history": [decision_json(d) for d in state.history]}


def _decision_case(case_id: str, comment: str, flags: tuple[str, ...], rules: tuple[str, ...],
                   state: State, decision: Decision, *, rule: str | None) -> Case:
    given = {**_position(state), "decision": decision_json(decision)}
    expected = expected_decision(given)
    _intend(case_id, "status", "legal" if rule is None else "illegal", expected["status"])
    _intend(case_id, "rule", rule, expected["rule"])
    if rule is not None and rule not in rules:
        raise IntentError(f"{case_id}: cites {rules} but not its own rule {rule}")
    return Case(case_id, comment, flags, rules, given, expected)


def _first(state: State, test: Callable[[State], bool]) -> State:
    for s in _game_states(state):
        if test(s):
            return s
    raise IntentError(f"no state of the game passes {test.__name__}")


def _goal_visible_mid_round(state: State) -> bool:
    """An action is due and the cards face up already give a player the goal (END-1)."""
    if state.phase is not Phase.ACTION:
        return False
    side0 = C.add(state.sides[0], state.secrets[0])
    side1 = C.add(state.sides[1], state.secrets[1])
    return state.rules.goal_result(score_markers(state.markers, side0, side1)) is not None


def decision_cases() -> list[Case]:
    cases: list[Case] = []
    add = cases.append
    game = _seeded(1, 0)
    start = new_game()
    dealt = _first(game, lambda s: s.phase is Phase.ACTION)
    player = current_player(dealt)
    hand = dealt.hands[player]

    def case(case_id: str, comment: str, rules: tuple[str, ...], state: State,
             decision: Decision, rule: str | None, flags: tuple[str, ...] = ()) -> None:
        add(_decision_case(case_id, comment, (("Legal",) if rule is None else ("Illegal",)) + flags,
                           rules, state, decision, rule=rule))

    case("decision/chance/deal", "DEAL-1..4: the deal of a new game.",
         ("DEAL-1", "DEAL-2", "DEAL-3", "DEAL-4", "COMP-4"), start, game.history[0], None,
         ("Chance",))
    spoiled = game.history[0]
    assert isinstance(spoiled, Deal)
    bad_hand = (spoiled.hands[0][1],) + spoiled.hands[0][1:]
    case("decision/chance/deal-not-21-cards", "DEAL-1: a deal that does not hold the 21 cards.",
         ("DEAL-1", "COMP-2"), start, Deal(spoiled.removed, (bad_hand, spoiled.hands[1]),
                                           spoiled.draws), "DEAL-1", ("Chance",))
    case("decision/chance/action-before-deal", "DEAL-1: an action before the round is dealt.",
         ("DEAL-1",), start, legal_actions(dealt)[0], "DEAL-1", ("Chance",))
    case("decision/deal-twice", "DEAL-1: a second deal in a dealt round.", ("DEAL-1",), dealt,
         game.history[0], "DEAL-1")
    drawn = spoiled.draws[0]
    case("decision/secret-of-drawn-card", "TURN-2: the card drawn at turn 0 is in the hand "
         "and can be the secret.", ("TURN-2", "ACT-SECRET-1"), dealt, Secret(drawn), None)
    missing = _missing_geisha(hand)
    removed_only = spoiled.removed if hand[spoiled.removed] == 0 else None
    if removed_only is not None:
        case("decision/secret-of-removed-card", "DEAL-2: the removed card takes no part in the "
             "round; a secret of it is a card not in hand.", ("DEAL-2", "ACT-SECRET-1"), dealt,
             Secret(removed_only), "ACT-SECRET-1")
    assert missing is not None
    pairs = C.cards_of(hand)
    case("decision/trade-off-card-not-in-hand", "ACT-TRADE-1: a trade-off with a card not in "
         "hand.", ("ACT-TRADE-1",), dealt, TradeOff((missing, pairs[0])), "ACT-TRADE-1")
    case("decision/gift-card-not-in-hand", "ACT-GIFT-1: a gift with a card not in hand.",
         ("ACT-GIFT-1",), dealt, Gift((missing,) + pairs[:2]), "ACT-GIFT-1")
    case("decision/competition-card-not-in-hand", "ACT-COMP-1: a competition with a card not "
         "in hand.", ("ACT-COMP-1",), dealt,
         Competition(((missing, pairs[0]), pairs[1:3])), "ACT-COMP-1")
    for action in legal_actions(dealt):
        if isinstance(action, Competition):
            case("decision/competition-legal", "ACT-COMP-1: a competition from the hand, two "
                 "sets of two.", ("ACT-COMP-1",), dealt, action, None)
            break
    # After the first player's first action: their second turn, the same kind again.
    second = _first(game, lambda s: s.phase is Phase.ACTION and s.turn == 2 and s.round == 0)
    kind = second.used[current_player(second)][0]
    again = next((a for a in action_kind_menu(second, kind)), None)
    if again is not None:
        case("decision/action-used-twice", "TURN-3, COMP-3: an action whose marker is face "
             "down this round.", ("TURN-3", "COMP-3"), second, again, "TURN-3")
    # A pending gift, and a pending competition.
    gift_state = _first(game, lambda s: isinstance(s.pending, Gift))
    offer = gift_state.pending
    assert isinstance(offer, Gift)
    case("decision/gift-pick", "ACT-GIFT-2: the opponent takes one card of the gift.",
         ("ACT-GIFT-2", "TURN-4"), gift_state, GiftPick(offer.cards[0]), None)
    case("decision/gift-pick-not-offered", "ACT-GIFT-2: a geisha that is not in the gift.",
         ("ACT-GIFT-2",), gift_state,
         GiftPick(next(g for g in C.GEISHA if g not in offer.cards)), "ACT-GIFT-2")
    case("decision/action-while-gift-pending", "TURN-4: the next turn waits for the answer.",
         ("TURN-4",), gift_state, Secret(offer.cards[0]), "TURN-4")
    comp_state = _first(game, lambda s: isinstance(s.pending, Competition))
    contest = comp_state.pending
    assert isinstance(contest, Competition)
    stranger = next((a, b) for a in C.GEISHA for b in C.GEISHA[a:]
                    if (a, b) not in contest.pairs)
    case("decision/competition-pick-not-offered", "ACT-COMP-2: a set that is not one of the "
         "two offered.", ("ACT-COMP-2",), comp_state, CompetitionPick(stranger), "ACT-COMP-2")
    case("decision/gift-pick-for-competition", "ACT-COMP-2: a gift's answer (one card) to a "
         "competition, which is answered with a set.", ("ACT-COMP-2",), comp_state,
         GiftPick(contest.pairs[0][0]), "ACT-COMP-2")
    case("decision/competition-pick", "ACT-COMP-2: the opponent takes one of the two sets.",
         ("ACT-COMP-2", "ACT-COMP-3"), comp_state, CompetitionPick(contest.pairs[1]), None)
    # Identical options (COMP-2): a gift with two cards of one geisha has two answers, not three.
    index, doubled = _find_seeded(
        lambda s: any(isinstance(d, Gift) and len(set(d.cards)) < 3 for d in s.history))
    doubled_state = _first(doubled, lambda s: isinstance(s.pending, Gift)
                           and len(set(s.pending.cards)) < 3)
    assert isinstance(doubled_state.pending, Gift)
    case(f"decision/gift-with-equal-cards-seed-1-game-{index}", "COMP-2: cards of one geisha "
         "are interchangeable: a gift with two equal cards offers two answers.",
         ("COMP-2", "ACT-GIFT-2"), doubled_state, GiftPick(doubled_state.pending.cards[1]), None)
    # END-1: the face-up cards already give a goal, yet the round goes on.
    index, early = _find_seeded(lambda s: any(_goal_visible_mid_round(x) for x in _game_states(s)))
    mid = _first(early, _goal_visible_mid_round)
    case(f"decision/goal-not-checked-mid-round-seed-1-game-{index}", "END-1: scored now, the "
         "cards on the sides would reach a goal; the goal is checked only after the round's "
         "scoring, so the round goes on.", ("END-1", "SCORE-1"), mid, legal_actions(mid)[0], None)
    # UPDATE-3: all four actions again in the next round.
    next_round = _first(game, lambda s: s.round == 1 and s.phase is Phase.ACTION)
    case("decision/actions-reset-next-round", "UPDATE-3, UPDATE-4: round 1 is started by the "
         "second player of round 0, with all four actions face up again.",
         ("UPDATE-3", "UPDATE-4"), next_round, legal_actions(next_round)[0], None)
    # The last decision of a game, and a decision after the end.
    last = list(_game_states(game))[-2]
    case("decision/last-decision", "END-2: the decision that completes the round whose "
         "scoring reaches a goal ends the game.", ("END-2", "SCORE-1", "SCORE-2"), last,
         game.history[-1], None)
    case("decision/after-the-end", "END-2: no decision follows the end of the game.",
         ("END-2",), game, game.history[0], "END-2")
    return cases


def action_kind_menu(state: State, kind: ActionKind) -> Iterator[Decision]:
    """Actions of ``kind`` from the current player's hand (legal but for TURN-3)."""
    hand = state.hands[current_player(state)]
    for cards in C.sub_multisets(hand, kind.size):
        if kind is ActionKind.SECRET:
            yield Secret(cards[0])
        elif kind is ActionKind.TRADE_OFF:
            yield TradeOff(cards)
        elif kind is ActionKind.GIFT:
            yield Gift(cards)
        else:
            yield Competition((cards[:2], cards[2:]))


# --- views.json ----------------------------------------------------------------------------


def view_cases() -> list[Case]:
    cases: list[Case] = []
    game = _seeded(1, 0)
    tied = built_game(STANDARD, 0, ("1=====0", "===10==", "=1=0==="))
    moments: list[tuple[str, str, tuple[str, ...], State]] = [
        ("new-game", "COMP-4, SETUP-1: before the first deal every marker is in the centre.",
         ("COMP-4", "SETUP-1", "INFO-1"), new_game()),
        ("after-deal", "DEAL-3, DEAL-4, TURN-2: six cards each and the starting player's "
         "draw; the deck's order and the removed card are hidden.",
         ("DEAL-3", "DEAL-4", "DEAL-2", "TURN-2", "INFO-2"),
         _first(game, lambda s: s.phase is Phase.ACTION)),
    ]
    for kind, cited in ((ActionKind.SECRET, ("ACT-SECRET-1", "ACT-SECRET-2", "INFO-2")),
                        (ActionKind.TRADE_OFF, ("ACT-TRADE-1", "ACT-TRADE-2", "INFO-2")),
                        (ActionKind.GIFT, ("ACT-GIFT-1", "ACT-GIFT-2", "ACT-GIFT-3", "INFO-1")),
                        (ActionKind.COMPETITION, ("ACT-COMP-1", "ACT-COMP-2", "ACT-COMP-3",
                                                  "INFO-1"))):
        moments.append((
            f"after-{kind.value}", f"{cited[0]}: after the first {kind.value} of the game "
            "(and its answer); the owner sees their face-down cards, the opponent only how many.",
            cited, _after_first(game, kind)))
    moments.append(("pending-gift", "TURN-4: a gift waits for the opponent's answer.",
                    ("TURN-4", "ACT-GIFT-1", "INFO-1"),
                    _first(game, lambda s: isinstance(s.pending, Gift))))
    moments.append(("round-1-before-deal", "SCORE-1..3, UPDATE-1..4: round 0 scored (secrets "
                    "revealed, trade-offs not), markers stay, actions reset, the other player "
                    "starts.", ("SCORE-1", "SCORE-2", "ACT-SECRET-3", "ACT-TRADE-3", "UPDATE-1",
                                "UPDATE-2", "UPDATE-3", "UPDATE-4"),
                    _first(game, lambda s: s.round == 1 and s.phase is Phase.DEAL)))
    moments.append(("tie-keeps-marker", "SCORE-3: after round 1 of a game where geisha 6, won "
                    "by player 0 in round 0, was tied.", ("SCORE-3", "UPDATE-2"),
                    _first(tied, lambda s: s.round == 2 and s.phase is Phase.DEAL)))
    moments.append(("game-over", "END-2, END-3: the end of the game and its result.",
                    ("END-2", "END-3", "SCORE-4"), game))
    for name, comment, rules, state in moments:
        for player in (0, 1):
            given = {**_position(state), "player": player}
            cases.append(Case(f"view/{name}/player-{player}", comment,
                              ("HiddenInformation",) if state.phase is not Phase.DEAL else (),
                              rules, given, expected_view(given)))
    return cases


def _after_first(game: State, kind: ActionKind) -> State:
    """The state right after the game's first action of ``kind`` (and its answer, if any)."""
    def done(state: State) -> bool:
        actions = [d for d in state.history if isinstance(d, (Secret, TradeOff, Gift, Competition))]
        return state.pending is None and bool(actions) and actions[-1].kind is kind
    return _first(game, done)


# --- perft.json ----------------------------------------------------------------------------

#: A deal of few distinct cards in each hand (the cards dealt in geisha order, player 0 the high
#: ones): its round has 31 million decision sequences against billions for a random deal, small
#: enough for the tests to check depth 12 with a second, independent walk (docs/examples/).
SMALL_DEAL = {"first_player": 0, "removed": 0, "hands": [[5, 6, 6, 6, 6, 6], [2, 3, 3, 3, 4, 4]],
              "draws": [5, 2, 5, 1, 5, 1, 4, 0]}
PERFT_SEEDS = (0, 1, 2, 3)


def perft_inputs() -> list[tuple[str, str, dict[str, Any]]]:
    out = []
    for seed in PERFT_SEEDS:
        given = {"first_player": 0, **deal_json(seeded_deal(seed))}
        if seed == 0:
            given["divide"] = ROUND_DEPTH
        out.append((f"perft/seed-{seed}", f"`hanamikoji perft --seed {seed} --depth 12`: the "
                    f"deal of game 0 of seed {seed}.", given))
    given = {"first_player": 1, **deal_json(seeded_deal(0))}
    out.append(("perft/seed-0-first-player-1", "`hanamikoji perft --seed 0 --first-player 1 "
                "--depth 12`: the same deal, player 1 starts.", given))
    out.append(("perft/small", "`hanamikoji perft --deal docs/examples/deal-small.json --depth "
                "12`: few distinct cards in each hand, so a small tree.", dict(SMALL_DEAL)))
    return out


def perft_cases() -> list[Case]:
    return [Case(case_id, comment, (), ("TURN-1", "TURN-3", "TURN-4", "COMP-2"), given,
                 expected_perft(given))
            for case_id, comment, given in perft_inputs()]


# --- the corpus ----------------------------------------------------------------------------

HEADERS = {
    "records.json": "Records of hanamikoji-record/1 and their verdicts, as `hanamikoji validate "
                    "--json` gives them. Rounds and turns count from 0.",
    "decisions.json": "A position (variant, first player, every decision from the start, in the "
                      "JSON forms of docs/oracle.md) and one more decision: the legal decisions "
                      "at the position, and whether that decision is legal.",
    "views.json": "A position and a player: what that player may see (INFO-1, INFO-2).",
    "perft.json": "Deals and the number of decision sequences of their round at each depth "
                  "(docs/oracle.md states the counting convention).",
}


def files() -> dict[str, VectorFile]:
    """Every file of the corpus, by name (:data:`EXTENSION`)."""
    builders = {"records.json": record_cases, "decisions.json": decision_cases,
                "views.json": view_cases, "perft.json": perft_cases}
    return {name: VectorFile(HEADERS[name], tuple(NOTES.items()), tuple(builders[name]()))
            for name in FILES}


class HanamikojiVectors(VectorsExtension):
    """Hanamikoji's vectors hooks: the hand-built corpus (:func:`files`)."""

    def files(self) -> dict[str, Any]:
        return files()

    def tasks(self, name: str, *, cases: int | None = None,
              seed: int | None = None) -> dict[str, Any] | None:
        """``buaa``: the BUAA 2026 course's task shapes (:mod:`.buaa_tasks`)."""
        if name != "buaa":
            return None
        from hanamikoji.oracle.hanamikoji import buaa_tasks

        return buaa_tasks.files(cases, seed)


EXTENSION = HanamikojiVectors
