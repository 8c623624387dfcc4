"""Hanamikoji's parts of the bot protocol: the BUAA course's notation in every request, its
action strings read as answers, and a heuristic bot (docs/tournament.md).

A ``decide`` request adds ``"buaa": {"history", "hand", "board"}``, the three arguments of the
course's ``hanamikoji_action(history, cards, board)``: the current round as the seat sees it
(``X`` for the opponent's secret and trade-off, ACT-SECRET-2, ACT-TRADE-2), its hand sorted, and
the markers from its side (1 its own, -1 the opponent's). All three come from the engine's
``observe`` (:mod:`hanamikoji.oracle.hanamikoji.buaa`). An answer's decision may be the
course's action string (``"1E"``, ``"2BC"``, ``"3BCC"``, ``"4ACBD"``, ``"-C"``, ``"-BD"``): it
is read as the notation reads a move, so ``"1AB"`` is refused as a secret of two cards
(ACT-SECRET-1) where the course's own referee plays it.

>>> from hanamikoji.engine.core.registry import get
>>> game = get("hanamikoji")
>>> EXTENSION(game).read_decision(None, "4ACBD")
Competition(pairs=((0, 2), (1, 3)))
>>> try:
...     EXTENSION(game).read_decision(None, "1AB")
... except ValueError as error:
...     print(error)
a secret takes exactly 1 card, not 2 [ACT-SECRET-1]
"""

from __future__ import annotations

import json
from typing import Any, Callable

from hanamikoji.engine.core.errors import InvalidActionError
from hanamikoji.engine.hanamikoji import cards as C
from hanamikoji.engine.hanamikoji.actions import CompetitionPick, GiftPick
from hanamikoji.engine.hanamikoji.game import Phase, State, observe
from hanamikoji.oracle.core.bot import Bot, BotExtension, Request
from hanamikoji.oracle.hanamikoji import buaa

#: The longest action string read: a competition, with blanks around.
MAX_ACTION = 32


class HanamikojiBots(BotExtension):
    """The course's notation in requests and answers; the ``heuristic`` bot."""

    def extra(self, state: State, player: int) -> dict[str, Any]:
        view = observe(state, player)
        return {"buaa": {"history": buaa.view_text(state, player),
                         "hand": buaa.hand_text(state, player),
                         "board": buaa.markers_board(view.markers, player)}}

    def read_decision(self, state: State | None, answer: Any) -> Any:
        if isinstance(answer, str):
            return course_decision(answer, state)
        try:
            return super().read_decision(state, answer)
        except InvalidActionError as error:
            rule = error.rule or _shape_rule(answer)
            raise InvalidActionError(error.message, rule) from None

    def extra_schema(self) -> dict[str, Any]:
        return {"buaa": {
            "description": "The arguments of the BUAA course's hanamikoji_action(history, "
                           "cards, board), from the engine's observe (docs/buaa.md).",
            "type": "object", "additionalProperties": False,
            "required": ["history", "hand", "board"],
            "properties": {
                "history": {"description": "The current round as the seat sees it: X for each "
                                           "card hidden from it; a last gift or competition "
                                           "without '-' awaits its pick.",
                            "type": "string", "pattern": "^[1-4A-GX -]*$"},
                "hand": {"description": "Its cards, sorted letters A..G.", "type": "string",
                         "pattern": "^[A-G]*$"},
                "board": {"description": "The markers, geisha A..G: 1 its own, -1 the "
                                         "opponent's, 0 neutral.",
                          "type": "array", "items": {"enum": [-1, 0, 1]},
                          "minItems": 7, "maxItems": 7}}}}

    def decision_schema(self) -> dict[str, Any]:
        return {"description": "The course's action string: the action's digit and its cards "
                               "(1E, 2BC, 3BCC, 4ACBD: a competition's first two letters are "
                               "one set), or a pick: '-' and the card or set taken (-C, -BD).",
                "type": "string", "maxLength": MAX_ACTION}

    def bots(self) -> dict[str, Callable[[], Bot]]:
        return {"heuristic": HeuristicBot}

    def fault_message(self, state: State, player: int, answer: Any, error: Exception) -> str:
        """An action string's fault in the course's terms (:func:`why_illegal`: the moves as
        written, letters for geisha), where it finds one; else the engine's message."""
        if isinstance(answer, str):
            seen = self.extra(state, player)["buaa"]
            why = why_illegal(seen["history"], seen["hand"], answer)
            if why is not None:
                return why[0]
        return super().fault_message(state, player, answer, error)


#: The rule of the size of each action's cards, and of each pick.
_SIZE_RULE = {"secret": "ACT-SECRET-1", "trade-off": "ACT-TRADE-1", "gift": "ACT-GIFT-1",
              "competition": "ACT-COMP-1"}
_PICK_RULE = {"gift": "ACT-GIFT-2", "competition": "ACT-COMP-2"}
#: How many cards each action plays, and each pick takes (by the name of what it answers).
_SIZE = {"secret": 1, "trade-off": 2, "gift": 3, "competition": 4}
_PICK_SIZE = {"gift": 1, "competition": 2}


def _shape_rule(answer: Any) -> str | None:
    """The rule a decision JSON of the wrong size breaks (an action with more or fewer cards
    than its kind takes, a pick of the wrong size: its kind's rule; a card that is no geisha:
    COMP-2), None for any other malformed JSON (cards of the right size with a key too many
    break no rule). The codec says where the JSON is wrong, this which rule that shape
    breaks."""
    if not isinstance(answer, dict):
        return None
    kind, response = str(answer.get("action")), str(answer.get("response"))
    if kind in _SIZE_RULE:
        cards = answer.get("sets" if kind == "competition" else "cards")
        flat = (cards[0] + cards[1] if kind == "competition" and isinstance(cards, list)
                and len(cards) == 2 and all(isinstance(c, list) for c in cards) else cards)
    elif response in _PICK_RULE:
        flat = answer.get("pick")
        if isinstance(flat, int) and response == "gift":
            flat = [flat]
    else:
        return None
    if isinstance(flat, list) and flat and not all(
            type(c) is int and 0 <= c < C.NUM_GEISHA for c in flat):
        return "COMP-2"
    if kind in _SIZE_RULE:
        sizes = [len(s) if isinstance(s, list) else None for s in cards] \
            if kind == "competition" and isinstance(cards, list) else None
        if isinstance(flat, list) and len(flat) == _SIZE[kind] and sizes in (None, [2, 2]):
            return None  # the cards are right: the JSON is wrong some other way (a key)
        return _SIZE_RULE[kind]
    if isinstance(flat, list) and len(flat) == _PICK_SIZE[response]:
        return None
    return _PICK_RULE[response]


def course_decision(text: str, state: State | None = None) -> Any:
    """The decision the course's action string ``text`` writes; :class:`InvalidActionError`
    naming the rule when it writes none. ``state`` (where it is known) names the rule of a pick
    of the wrong size (ACT-GIFT-2 or ACT-COMP-2, by the offer waiting)."""
    token = text.strip()
    if not token or len(text) > MAX_ACTION:
        raise InvalidActionError(f"an action string is a digit 1 to 4 and its cards, or '-' and "
                                 f"a pick, not {json.dumps(text[:MAX_ACTION])}", "COMP-3")
    if token.startswith("-"):
        taken = [buaa.LETTERS.find(ch) for ch in token[1:]]
        if -1 in taken or not taken:
            raise InvalidActionError(f"a pick is '-' and the card or set taken (letters A to "
                                     f"G), not {json.dumps(token)}", "COMP-2")
        if state is not None and state.phase is Phase.RESPONSE and state.pending is not None:
            size = 1 if state.pending.kind.value == "gift" else 2
            if len(taken) != size:
                rule = "ACT-GIFT-2" if size == 1 else "ACT-COMP-2"
                raise InvalidActionError(
                    f"the pick of a {state.pending.kind.value} takes exactly {size} "
                    f"card{'s' * (size > 1)}, not {len(taken)}", rule)
        if len(taken) == 1:
            return GiftPick(taken[0])
        if len(taken) == 2:
            return CompetitionPick(tuple(sorted(taken)))
        raise InvalidActionError(f"a pick takes 1 card (a gift) or 2 (a competition), not "
                                 f"{len(taken)}", "TURN-4")
    try:
        move = buaa.parse_move(token, 1, 1, pick_needed=False)
    except buaa.NotationError as error:
        raise InvalidActionError(error.message.split(": ", 1)[-1], error.rule) from None
    if move.pick is not None:
        raise InvalidActionError("an answer is one action; the pick is the opponent's",
                                 "TURN-4")
    return move.decision()


# --- why an action string is not legal, in the course's terms --------------------------------

_KIND_NAME = {"1": "secret", "2": "trade-off", "3": "gift", "4": "competition"}
_DIGIT_RULE = {"1": "ACT-SECRET-1", "2": "ACT-TRADE-1", "3": "ACT-GIFT-1", "4": "ACT-COMP-1"}


def _cards(n: int) -> str:
    return f"{n} card{'s' * (n != 1)}"


def why_illegal(history: str, hand: str, answer: str) -> tuple[str, str] | None:
    """Why the course's action string ``answer`` is not legal for a player who sees the round
    ``history`` and holds ``hand`` (the three arguments of ``hanamikoji_action``, as a
    ``decide`` request's ``buaa`` holds them): ``(reason, rule ID)`` in the course's terms
    (letters, the moves as written), or None where it finds nothing wrong. The questions come
    in the order :func:`course_decision` and the engine ask them, so the rule is theirs;
    docs/examples/buaa_check.mjs gives the same reasons.

    >>> why_illegal("", "ACDEFFG", "1FA")
    ('a secret takes exactly 1 card, not 2', 'ACT-SECRET-1')
    >>> why_illegal("2GG 2XX", "ABDEF", "2AB")
    ('you have already played your trade-off this round (2GG)', 'TURN-3')
    >>> why_illegal("2GG 4ABCD", "ABDEF", "1A")
    ("the opponent's competition 4ABCD waits for your pick: answer '-' and the set you take", 'TURN-4')
    """
    token = answer.strip()
    if not token or len(answer) > MAX_ACTION:
        return (f"an answer is a digit 1 to 4 and its cards, or '-' and a pick, not "
                f"{json.dumps(answer[:MAX_ACTION])}", "COMP-3")
    moves = history.split()
    last = moves[-1] if moves else None
    pending = last if last and last[0] in "34" and "-" not in last else None
    if token[0] == "-":
        return _why_pick(token[1:], pending, last)
    digit = token[0]
    if digit not in _KIND_NAME:
        return f"an action starts with its digit, 1 to 4, not '{digit}'", "COMP-3"
    name, size = _KIND_NAME[digit], int(digit)
    body, dash, taken = token[1:].partition("-")
    bad = next((ch for ch in body if ch not in buaa.LETTERS), None)
    if bad is not None:
        return f"'{bad}' is not a card: cards are A to G", "COMP-2"
    if len(body) != size:
        return f"a {name} takes exactly {_cards(size)}, not {len(body)}", _DIGIT_RULE[digit]
    if dash:
        if size <= 2:
            return f"a {name} has no pick: only a gift or a competition is answered", "TURN-4"
        bad = next((ch for ch in taken if ch not in buaa.LETTERS), None)
        if bad is not None:
            return f"'{bad}' is not a card: cards are A to G", "COMP-2"
        wanted = 1 if digit == "3" else 2
        if len(taken) != wanted:
            return (f"the pick of a {name} takes exactly {_cards(wanted)}, not {len(taken)}",
                    "ACT-GIFT-2" if digit == "3" else "ACT-COMP-2")
        return "an answer is one action: the pick after '-' is the opponent's", "TURN-4"
    if pending:
        return (f"the opponent's {_KIND_NAME[pending[0]]} {pending} waits for your pick: answer "
                f"'-' and the {'card' if pending[0] == '3' else 'set'} you take", "TURN-4")
    used = next((m for i, m in enumerate(moves) if i % 2 == len(moves) % 2 and m[0] == digit),
                None)
    if used is not None:
        return f"you have already played your {name} this round ({used})", "TURN-3"
    for ch in dict.fromkeys(body):
        need, have = body.count(ch), hand.count(ch)
        if need > have:
            return ((f"the {name} plays {need} {ch} but you hold {have} (your hand: {hand})"
                     if have else f"you hold no {ch} (your hand: {hand})"), _DIGIT_RULE[digit])
    return None


def _why_pick(taken: str, pending: str | None, last: str | None) -> tuple[str, str] | None:
    if not taken or any(ch not in buaa.LETTERS for ch in taken):
        return (f"a pick is '-' and the card or set taken (letters A to G), not "
                f"{json.dumps('-' + taken)}", "COMP-2")
    if pending is None:
        if len(taken) > 2:
            return f"a pick takes 1 card (a gift) or 2 (a competition), not {len(taken)}", "TURN-4"
        where = f"the last move is {last}" if last else "the round starts"
        return (f"no gift or competition waits for your pick ({where}): play an action",
                "TURN-3")
    offer = pending[1:]
    if pending[0] == "3":
        if len(taken) != 1:
            return f"the pick of a gift takes exactly 1 card, not {len(taken)}", "ACT-GIFT-2"
        if taken not in offer:
            return f"{taken} is not one of the gift's cards ({pending})", "ACT-GIFT-2"
        return None
    if len(taken) != 2:
        return f"the pick of a competition takes exactly 2 cards, not {len(taken)}", "ACT-COMP-2"
    sets = (offer[:2], offer[2:])
    if sorted(taken) not in [sorted(s) for s in sets]:
        return (f"{taken} is not one of the competition's sets {sets[0]} and {sets[1]} "
                f"({pending})", "ACT-COMP-2")
    return None


# --- the heuristic bot --------------------------------------------------------------------------


def _worth(lead: float, charm: int, marker: int) -> float:
    """What a geisha is worth to the seat when its cards would stand ``lead`` ahead: the
    geisha's charm scaled by how safely the lead holds, a tie leaning to the marker (SCORE-3)."""
    if lead == 0:
        return charm * 0.4 * marker
    return charm * lead / (abs(lead) + 0.5)


class HeuristicBot(Bot):
    """Greedy on one look ahead: each decision is scored by what the round would look like after
    it, the opponent taking what is best for it from a gift or a competition; cards still in
    hand count for half. Reads the view JSON and the legal decisions only."""

    def decide(self, request: Request) -> Any:
        view = request.view
        me = view["player"]
        mine = [0.0] * C.NUM_GEISHA
        theirs = [0.0] * C.NUM_GEISHA
        for g in view["sides"][me] + view["secret"]:
            mine[g] += 1
        for g in view["sides"][1 - me]:
            theirs[g] += 1
        for g in view["hand"]:
            mine[g] += 0.5
        marker = [0 if m is None else 1 if m == me else -1 for m in view["markers"]]

        def score(gain: list[int], spent: list[int], given: list[int]) -> float:
            """The round's worth after the seat gains ``gain``, spends ``spent`` from its hand
            and the opponent gains ``given``."""
            a, b = list(mine), list(theirs)
            for g in gain:
                a[g] += 1
            for g in spent:
                a[g] -= 0.5
            for g in given:
                b[g] += 1
            return sum(_worth(a[g] - b[g], C.CHARM[g], marker[g]) for g in range(C.NUM_GEISHA))

        def value(decision: dict[str, Any]) -> float:
            kind = decision.get("action")
            if kind == "secret":
                return score(decision["cards"], decision["cards"], [])
            if kind == "trade-off":
                return score([], decision["cards"], [])
            if kind == "gift":
                cards = decision["cards"]
                return min(score([c for j, c in enumerate(cards) if j != i], cards, [cards[i]])
                           for i in range(3))
            if kind == "competition":
                sets = decision["sets"]
                flat = sets[0] + sets[1]
                return min(score(sets[1 - i], flat, sets[i]) for i in range(2))
            pending = view["pending"]
            if decision.get("response") == "gift":
                rest = list(pending["cards"])
                rest.remove(decision["pick"])
                return score([decision["pick"]], [], rest)
            sets = [sorted(s) for s in pending["sets"]]
            taken = sorted(decision["pick"])
            other = sets[1] if sets[0] == taken else sets[0]
            return score(taken, [], other)

        return max(request.legal, key=lambda d: (value(d), -request.legal.index(d)))


EXTENSION = HanamikojiBots
