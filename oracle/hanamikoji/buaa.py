"""The BUAA notation: Hanamikoji as the 2026 Beihang pair-programming course writes it.

A round is eight moves separated by spaces, in play order, the round's starter first and the
players alternating (TURN-1). A move is the action's digit (its number of cards: 1 secret, 2
trade-off, 3 gift, 4 competition) and its cards as letters ``A`` to ``G`` (geisha 0 to 6), then
for a gift or a competition ``-`` and what the opponent took: ``2GG 2FF 1D 3EEG-E 3AFF-F 1C
4ABEG-AB 4BCDD-DD``. Letters may come in any order, except that a competition's first two letters
are one set and the last two the other. A player's view writes ``X`` for each card they cannot
see (the opponent's secret and trade-off, ACT-SECRET-2, ACT-TRADE-2), and its last gift or
competition may still await its pick.

A whole game is one line: its rounds separated by ``|``, optionally led by ``P:`` where ``P`` is
the record's ``first_player`` (0 if left out). The notation does not hold the deal: decoding
makes one (the removed card is the one card no move shows; each player is dealt the first six
cards they play and draws the rest in the order they play them), so a record read from the
notation replays the same moves, scores and result as the game it was written from.

Decoding accepts nothing a record would not: every move goes through the engine, and the first
rule a string breaks is one :class:`NotationError` naming the round, the move (its position in
the string) and the rule ID.

>>> text = "2GG 2FF 1D 3EEG-E 3AFF-F 1C 4ABEG-AB 4BCDD-DD"
>>> calc_current_state(text, (0,) * 7)
[[1, 0, 0, 3, 2, 1, 1], [1, 2, 2, 0, 1, 1, 1], [0, -1, -1, 1, 1, 0, 0]]
>>> try:
...     parse_round("2GG 2FF 2AB", (0,) * 7, complete=False)
... except NotationError as error:
...     print(error)
move 3 '2AB' (column 9): player 0 has already used their trade-off action this round [TURN-3]
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Iterator, Sequence

import attrs

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
from hanamikoji.engine.hanamikoji.errors import HanamikojiError
from hanamikoji.oracle.core import notation as core
from hanamikoji.engine.hanamikoji.game import (
    TURNS_PER_ROUND,
    Phase,
    State,
    apply,
    new_game,
    observe,
    observed_turn,
)
from hanamikoji.engine.hanamikoji.record import read_record, to_record
from hanamikoji.engine.hanamikoji.rules import ITALIAN_THREE_ROUNDS, PRESETS, Markers, Rules

LETTERS = "ABCDEFG"
HIDDEN = "X"
ROUND_SEPARATOR = "|"
#: The one character between moves: the course's referee joins a round's moves with it.
SPACE = " "
#: The categories of characters that show nothing (controls, formats, separators): refused
#: between moves as other white space is (:func:`refuse_other_blanks`).
_INVISIBLE = frozenset({"Cc", "Cf", "Zs", "Zl", "Zp"})
KINDS = {"1": ActionKind.SECRET, "2": ActionKind.TRADE_OFF, "3": ActionKind.GIFT,
         "4": ActionKind.COMPETITION}
DIGIT = {kind: digit for digit, kind in KINDS.items()}
_RULE = {ActionKind.SECRET: "ACT-SECRET-1", ActionKind.TRADE_OFF: "ACT-TRADE-1",
         ActionKind.GIFT: "ACT-GIFT-1", ActionKind.COMPETITION: "ACT-COMP-1"}
_PICK_RULE = {ActionKind.GIFT: "ACT-GIFT-2", ActionKind.COMPETITION: "ACT-COMP-2"}
_NAME = {ActionKind.SECRET: "a secret", ActionKind.TRADE_OFF: "a trade-off",
         ActionKind.GIFT: "a gift", ActionKind.COMPETITION: "a competition"}


class NotationError(core.NotationError):
    """A string the notation or the rules do not accept: what is wrong, where (round and move
    from 1, the column from 1 and the move's text) and the rule ID. ``malformed`` is True when
    the string is not notation at all, False when it is notation of a move the rules forbid."""

    def __init__(self, message: str, rule: str, *, move: int | None = None,
                 column: int | None = None, token: str | None = None,
                 round: int | None = None, malformed: bool = False) -> None:
        where = [] if round is None else [f"round {round}"]
        if move is not None:
            where.append(f"move {move} {token!r} (column {column})")
        text = (", ".join(where) + ": " if where else "") + message
        super().__init__(text, rule)
        self.round, self.move, self.column, self.token = round, move, column, token
        self.malformed = malformed


@attrs.frozen
class Move:
    """One move as written: its kind, its cards (geisha numbers; None for each hidden card) in
    the order written, and the pick (None when absent)."""

    kind: ActionKind
    cards: tuple[int | None, ...]
    pick: tuple[int, ...] | None
    column: int
    text: str

    @property
    def hidden(self) -> bool:
        return None in self.cards

    def decision(self) -> Secret | TradeOff | Gift | Competition:
        cards = self.cards
        if self.kind is ActionKind.SECRET:
            return Secret(cards[0])
        if self.kind is ActionKind.TRADE_OFF:
            return TradeOff(cards)
        if self.kind is ActionKind.GIFT:
            return Gift(cards)
        return Competition((cards[:2], cards[2:]))


def _letters(text: str, hidden_ok: bool) -> tuple[int | None, ...] | str:
    out: list[int | None] = []
    for ch in text:
        if ch in LETTERS:
            out.append(LETTERS.index(ch))
        elif ch == HIDDEN and hidden_ok:
            out.append(None)
        else:
            return ch
    return tuple(out)


def refuse_other_blanks(text: str, offset: int = 0, round: int | None = None) -> None:
    """Refuse any white space but the space, U+0020, and any invisible character: the course's
    referee writes a history as the moves joined by one space (docs/buaa.md), so a tab, a
    no-break space, U+3000 or a line separator between moves is not its notation. One
    :class:`NotationError` naming the first such character and its column (from 1, past
    ``offset``).

    >>> try:
    ...     refuse_other_blanks("2GG\u30002FF")
    ... except NotationError as error:
    ...     print(error)
    U+3000 (IDEOGRAPHIC SPACE) at column 4: moves are separated by spaces (U+0020) only [TURN-1]
    """
    for index, ch in enumerate(text):
        if ch != SPACE and (ch.isspace() or unicodedata.category(ch) in _INVISIBLE):
            name = unicodedata.name(ch, "")
            raise NotationError(
                f"U+{ord(ch):04X}{f' ({name})' if name else ''} at column {offset + index + 1}: "
                "moves are separated by spaces (U+0020) only", "TURN-1", round=round,
                malformed=True)


def _tokens(text: str, offset: int = 0, round: int | None = None) -> Iterator[tuple[int, str]]:
    """(column from 1, move text) of each move of ``text``, the moves separated by spaces."""
    refuse_other_blanks(text, offset, round)
    for found in re.finditer(r"[^ ]+", text):
        yield offset + found.start() + 1, found.group()


def parse_move(token: str, column: int, number: int, round: int | None = None,
               hidden_ok: bool = False, pick_needed: bool = True) -> Move:
    """One move's shape (not yet its legality): raise :class:`NotationError` if it is not a
    move of the notation."""

    def bad(message: str, rule: str) -> NotationError:
        return NotationError(message, rule, move=number, column=column, token=token,
                             round=round, malformed=True)

    kind = KINDS.get(token[0])
    if kind is None:
        what = "a pick" if token.startswith("-") else repr(token[0])
        raise bad(f"a move starts with its action's digit, 1 to 4, not {what}; a pick follows "
                  "its gift or competition after '-', with no space", "COMP-3")
    body, dash, pick_text = token[1:].partition("-")
    cards = _letters(body, hidden_ok)
    if isinstance(cards, str):
        raise bad(f"{cards!r} is not a card: cards are A to G" +
                  (" (X only where a view hides a card)" if cards == HIDDEN else ""), "COMP-2")
    if len(cards) != kind.size:
        raise bad(f"{_NAME[kind]} takes exactly {kind.size} card{'s' * (kind.size > 1)}, "
                  f"not {len(cards)}", _RULE[kind])
    if None in cards:
        if kind in (ActionKind.GIFT, ActionKind.COMPETITION):
            raise bad(f"the cards of {_NAME[kind]} are face up: they cannot be hidden",
                      _RULE[kind])
        if any(c is not None for c in cards):
            raise bad(f"{_NAME[kind]} is hidden whole or shown whole", "INFO-1")
    pick: tuple[int, ...] | None = None
    if dash:
        if kind in (ActionKind.SECRET, ActionKind.TRADE_OFF):
            raise bad(f"{_NAME[kind]} has no pick: only a gift or a competition is answered",
                      "TURN-4")
        taken = _letters(pick_text, False)
        if isinstance(taken, str):
            raise bad(f"{taken!r} is not a card: cards are A to G", "COMP-2")
        size = 1 if kind is ActionKind.GIFT else 2
        if len(taken) != size:
            raise bad(f"the pick of {_NAME[kind]} takes exactly {size} card{'s' * (size > 1)}, "
                      f"not {len(taken)}", _PICK_RULE[kind])
        pick = tuple(sorted(c for c in taken if c is not None))  # no X was let through
    elif pick_needed and kind in (ActionKind.GIFT, ActionKind.COMPETITION):
        raise bad(f"{_NAME[kind]} needs the opponent's pick ('-' and the card"
                  f"{'s' * (kind is ActionKind.COMPETITION)} taken) before the next move",
                  "TURN-4")
    return Move(kind, cards, pick, column, token)


def _pick_decision(move: Move) -> GiftPick | CompetitionPick:
    assert move.pick is not None
    if move.kind is ActionKind.GIFT:
        return GiftPick(move.pick[0])
    return CompetitionPick(move.pick)


def _deal_for(moves: Sequence[Move], starter: int) -> tuple[Deal, int | None]:
    """A deal under which ``moves`` can be played, and the index of the first move whose cards
    the deck cannot hold (None if all fit): each player is dealt the first six cards they play
    and draws the others in the order they play them; the leftover cards fill the rest."""
    lists: tuple[list[int], list[int]] = ([], [])
    used = [0] * C.NUM_GEISHA
    overflow = None
    for index, move in enumerate(moves):
        player = starter if index % 2 == 0 else 1 - starter
        played = [c for c in move.cards if c is not None]
        need = C.counts(played)
        if any(used[g] + need[g] > C.FULL_DECK[g] for g in C.GEISHA):
            overflow = index
            break
        if len(lists[player]) + len(played) > 10:
            break  # only with an action used twice, which the engine refuses at this move
        lists[player].extend(played)
        for g in C.GEISHA:
            used[g] += need[g]
    rest = [g for g in C.GEISHA for _ in range(C.FULL_DECK[g] - used[g])]
    for own in lists:
        while len(own) < 10:
            own.append(rest.pop())
    (removed,) = rest
    draws = [0] * 8
    for t in range(8):
        player = starter if t % 2 == 0 else 1 - starter
        draws[t] = lists[player][6 + t // 2]
    return Deal(removed, (lists[0][:6], lists[1][:6]), draws), overflow


def _play_round(state: State, text: str, round_number: int | None, offset: int,
                complete: bool) -> State:
    """``state`` (awaiting a deal) after the round written in ``text``; the first broken rule
    is a :class:`NotationError`. ``complete``: the round must have all its moves."""
    tokens = list(_tokens(text, offset, round_number))
    moves: list[Move] = []
    failure: NotationError | None = None
    for number, (column, token) in enumerate(tokens, 1):
        if number > TURNS_PER_ROUND:
            failure = NotationError(f"a round has {TURNS_PER_ROUND} moves; this is move {number}",
                                    "TURN-1", move=number, column=column, token=token,
                                    round=round_number, malformed=True)
            break
        try:
            moves.append(parse_move(token, column, number, round_number,
                                    pick_needed=complete or number < len(tokens)))
        except NotationError as error:
            failure = error
            break
    starter = state.starter
    deal, overflow = _deal_for(moves, starter)
    state = apply(state, deal)
    for index, move in enumerate(moves):
        player = state.active

        def illegal(message: str, rule: str | None, move: Move = move,
                    number: int = index + 1) -> NotationError:
            return NotationError(message, rule or "TURN-3", move=number, column=move.column,
                                 token=move.text, round=round_number)

        if index == overflow:
            played = C.counts([c for c in move.cards if c is not None])
            shown = C.counts([c for m in moves[:index] for c in m.cards if c is not None])
            g = next(g for g in C.GEISHA if shown[g] + played[g] > C.FULL_DECK[g])
            raise illegal(f"the round has only {C.FULL_DECK[g]} cards of {LETTERS[g]} and "
                          f"{shown[g]} are already shown; this move plays {played[g]} more",
                          "COMP-2")
        try:
            state = apply(state, move.decision())
        except HanamikojiError as error:
            raise illegal(error.message, error.rule) from None
        if move.pick is None:
            continue
        offered = "".join(LETTERS[c] for c in move.decision().cards)
        if move.kind is ActionKind.GIFT and move.pick[0] not in move.decision().cards:
            raise illegal(f"player {1 - player} takes {LETTERS[move.pick[0]]}, which was not "
                          f"offered (the gift is {offered})", "ACT-GIFT-2")
        pending = state.pending
        if isinstance(pending, Competition) and move.pick not in pending.pairs:
            sets = " and ".join("".join(LETTERS[c] for c in p) for p in pending.pairs)
            raise illegal(f"player {1 - player} takes {''.join(LETTERS[c] for c in move.pick)}, "
                          f"which is not one of the competition's sets {sets}", "ACT-COMP-2")
        try:
            state = apply(state, _pick_decision(move))
        except HanamikojiError as error:
            raise illegal(error.message, error.rule) from None
    if failure is not None:
        raise failure
    if complete and len(moves) < TURNS_PER_ROUND:
        raise NotationError(f"the round stops after {len(moves)} of its {TURNS_PER_ROUND} moves",
                            "TURN-1", round=round_number, malformed=not moves)
    return state


def board_markers(board: Sequence[int]) -> Markers:
    """The course's board (1 the caller, -1 the opponent, 0 neutral) as markers, the caller as
    player 0."""
    if len(board) != C.NUM_GEISHA or any(v not in (-1, 0, 1) for v in board):
        raise NotationError(f"a board is {C.NUM_GEISHA} values from -1, 0, 1, not {list(board)}",
                            "COMP-4", malformed=True)
    return tuple(None if v == 0 else 0 if v == 1 else 1 for v in board)


def markers_board(markers: Markers, player: int = 0) -> list[int]:
    """The course's board as ``player`` sees ``markers``."""
    return [0 if m is None else 1 if m == player else -1 for m in markers]


def round_start(board: Sequence[int], rules: Rules = ITALIAN_THREE_ROUNDS) -> State:
    """A state awaiting the deal of a round that player 0 starts, with ``board`` before it."""
    return attrs.evolve(new_game(rules, 0), markers=board_markers(board))


def parse_round(text: str, board: Sequence[int], *, complete: bool = True) -> State:
    """The state after the round ``text`` (a full history, its starter the caller, player 0),
    played from ``board``; with ``complete`` (the default) the round must have all its moves."""
    return _play_round(round_start(board), text, None, 0, complete)


def calc_current_state(text: str, board: Sequence[int]) -> list[list[int]]:
    """T2: the caller's cards per geisha, the opponent's, and the board after scoring."""
    state = parse_round(text, board)
    score = state.scores[-1]
    return [list(score.sides[0]), list(score.sides[1]), markers_board(score.markers)]


# --- whole games -----------------------------------------------------------------------------

_PREFIX = re.compile(r" *([01]) *:")


_ANY_PREFIX = re.compile(r" *([^ :|]*) *:")


def _bad_prefix(line: str, offset: int) -> None:
    """Refuse a ``:`` anywhere but after a first player at the line's start (SETUP-1): no move
    holds one, so ``2: 2GG`` is a prefix gone wrong, not a trade-off of ``:`` and a G."""
    colon = line.find(":", offset)
    if colon < 0:
        return
    attempt = None if offset else _ANY_PREFIX.match(line)
    what = (f"not {attempt.group(1) + ':'!r}" if attempt and attempt.group(1)
            else f"and ':' has no other place (column {colon + 1})")
    raise NotationError(f"a line may start with the first player, '0:' or '1:' (none means "
                        f"'0:'), {what}", "SETUP-1", malformed=True)


def parse_game(line: str, variant: str = ITALIAN_THREE_ROUNDS.name) -> State:
    """The final state of the game written on ``line`` (rounds separated by ``|``, an optional
    ``P:`` prefix naming the first player)."""
    first, offset = 0, 0
    refuse_other_blanks(line)
    prefix = _PREFIX.match(line)
    if prefix:
        first, offset = int(prefix.group(1)), prefix.end()
    _bad_prefix(line, offset)
    state = new_game(PRESETS[variant], first)
    rounds = line[offset:].split(ROUND_SEPARATOR)
    for index, text in enumerate(rounds):
        if state.phase is Phase.OVER:
            assert state.result is not None
            raise NotationError(f"the game ended after round {index} "
                                f"({state.result.describe()}), but the line goes on",
                                "VAR-IT-1" if state.rules.max_rounds == index else "END-2",
                                round=index + 1)
        state = _play_round(state, text, index + 1, offset, True)
        offset += len(text) + len(ROUND_SEPARATOR)
    if state.phase is not Phase.OVER:
        # An unfinished game: no goal, so the next round is due (UPDATE-1; UPDATE-5 without a
        # round limit). The round limit (VAR-IT-1) is not what the line breaks.
        rule = "UPDATE-5" if state.rules.max_rounds is None else "UPDATE-1"
        raise NotationError(f"the line stops after {len(rounds)} round(s) but no goal was "
                            "reached; the game goes on", rule, round=len(rounds))
    # Belt and braces: the record made of it is one the record reader accepts as this game.
    if read_record(to_record(state)) != state:  # pragma: no cover - a bug of the codec
        raise AssertionError(f"the record decoded from {line!r} replays differently")
    return state


def record_from_notation(line: str, variant: str = ITALIAN_THREE_ROUNDS.name) -> dict[str, Any]:
    """The ``hanamikoji-record/1`` of the game on ``line`` (with the deal decoding makes)."""
    return to_record(parse_game(line, variant))


def _move_text(kind: ActionKind, cards: Any, pick: Any) -> str:
    if cards is None:
        body = HIDDEN * kind.size
    elif kind is ActionKind.COMPETITION:
        body = "".join(LETTERS[c] for pair in cards for c in pair)
    else:
        body = "".join(LETTERS[c] for c in cards)
    if pick is None:
        return DIGIT[kind] + body
    taken = (pick,) if isinstance(pick, int) else pick
    return DIGIT[kind] + body + "-" + "".join(LETTERS[c] for c in taken)


def _rounds(history: Sequence[Decision]) -> list[list[Decision]]:
    rounds: list[list[Decision]] = []
    for decision in history:
        if isinstance(decision, Deal):
            rounds.append([])
        else:
            rounds[-1].append(decision)
    return rounds


def round_text(decisions: Sequence[Decision]) -> str:
    """The full history of one round's decisions (no deal): every card shown."""
    moves: list[str] = []
    for decision in decisions:
        if isinstance(decision, GiftPick):
            moves[-1] += "-" + LETTERS[decision.card]
        elif isinstance(decision, CompetitionPick):
            moves[-1] += "-" + "".join(LETTERS[c] for c in decision.pair)
        else:
            assert isinstance(decision, (Secret, TradeOff, Gift, Competition))
            shown = decision.pairs if isinstance(decision, Competition) else decision.cards
            moves.append(_move_text(decision.kind, shown, None))
    return " ".join(moves)


def game_text(state: State) -> str:
    """The line of the game that led to ``state``: every round's full history."""
    prefix = f"{state.first_player}: " if state.first_player else ""
    return prefix + " | ".join(round_text(r) for r in _rounds(state.history))


def notation_from_record(record: Any) -> str:
    """The line of a ``hanamikoji-record/1`` (read and replayed by the record reader)."""
    return game_text(read_record(record))


def render_game(state: State, player: int | None = None) -> list[str]:
    """The game that led to ``state`` for a person, in the notation's terms (``show
    --notation buaa``): rounds from 1, each move on its line numbered from 1 as the notation
    counts them, geisha as letters A to G, each round's scoring, and the result. No deal: the
    notation holds none. With ``player``, the moves as that player saw them (INFO-2: ``X`` for
    the opponent's face-down cards), as :func:`view_text` writes them."""
    from hanamikoji.engine.hanamikoji.display import describe_result, geisha_table, standing

    lines = [f"Hanamikoji · {state.rules.name} rules · player {state.first_player} starts"]
    markers: Markers = (None,) * C.NUM_GEISHA
    for number, decisions in enumerate(_rounds(state.history), 1):
        starter = (state.first_player + number - 1) % 2  # UPDATE-4
        lines += ["", f"Round {number} · player {starter} starts"]
        mover, moves = starter, 0
        for decision in decisions:
            if isinstance(decision, (GiftPick, CompetitionPick)):
                lines[-1] += decision_text(decision)
                continue
            assert isinstance(decision, (Secret, TradeOff, Gift, Competition))
            seen = observed_turn(decision, mover, mover if player is None else player)
            moves += 1
            lines.append(f"  move {moves}  player {mover}  "
                         f"{_move_text(seen.kind, seen.cards, None)}")
            mover = 1 - mover
        if number <= len(state.scores):
            score = state.scores[number - 1]
            table = geisha_table(score, markers)
            head = "geisha    " + "".join(f"{letter:>5}" for letter in LETTERS)
            lines.append("  scoring (secrets revealed; * = marker moved):")
            lines += ["    " + row for row in [head] + table[1:]]
            markers = score.markers
            lines.append("    " + standing(markers))
    if state.result is not None:
        lines += ["", f"Result: {describe_result(state.result)}"]
    return lines


def view_text(state: State, player: int) -> str:
    """The current round as ``player`` sees it (the engine's :func:`observe`): ``X`` for each
    card hidden from them, and a pending gift or competition without its pick."""
    return " ".join(_move_text(t.kind, t.cards, t.pick) for t in observe(state, player).log)


def hand_text(state: State, player: int) -> str:
    """``player``'s hand as sorted letters (the engine's :func:`observe`)."""
    return "".join(LETTERS[g] for g in C.cards_of(observe(state, player).hand))


def decision_text(decision: Decision) -> str:
    """The course's action string of one decision: ``1E``, ``2BC``, ``3BCC``, ``4ACBD``, or a
    pick ``-C``, ``-BD``."""
    if isinstance(decision, GiftPick):
        return "-" + LETTERS[decision.card]
    if isinstance(decision, CompetitionPick):
        return "-" + "".join(LETTERS[c] for c in decision.pair)
    assert isinstance(decision, (Secret, TradeOff, Gift, Competition))
    shown = decision.pairs if isinstance(decision, Competition) else decision.cards
    return _move_text(decision.kind, shown, None)


def _held(moves: Sequence[Move], starts: bool) -> tuple[int, int, int]:
    """(cards dealt and drawn, cards played, cards held) by the player who starts the round
    when ``starts``, else by the other, once ``moves`` are written: six dealt (DEAL-3), one
    drawn as each of their turns begins (TURN-2), the turn after the last move included unless
    that move awaits its pick (TURN-4) or the round is over (TURN-1)."""
    pending = bool(moves) and moves[-1].pick is None and moves[-1].kind in _PICK_RULE
    begun = min(len(moves) if pending else len(moves) + 1, TURNS_PER_ROUND)
    received = 6 + sum(1 for t in range(begun) if (t % 2 == 0) == starts)
    played = sum(m.kind.size for t, m in enumerate(moves) if (t % 2 == 0) == starts)
    return received, played, received - played


def _witness(moves: Sequence[Move], viewer_starts: bool, held: Sequence[int] | None) -> State:
    """A full round that shows ``moves`` to the viewer, with ``held`` (if given) their hand,
    replayed in the engine. Each player is dealt, then draws, the cards they play in the order
    they play them, then the cards they hold, then any others; the opponent's hidden cards and
    hand, the rest of the deck and the removed card are the cards nobody saw."""
    viewer = 0 if viewer_starts else 1  # round_start: player 0 starts
    shown = C.counts([c for m in moves for c in m.cards if c is not None] + list(held or ()))
    pool = [g for g in C.GEISHA for _ in range(C.FULL_DECK[g] - shown[g])]
    lists: tuple[list[int], list[int]] = ([], [])
    resolved: list[Move] = []
    for index, move in enumerate(moves):
        cards = tuple(pool.pop() if c is None else c for c in move.cards)
        resolved.append(attrs.evolve(move, cards=cards))
        lists[0 if index % 2 == 0 else 1].extend(cards)
    for player in (0, 1):
        if player == viewer and held is not None:
            lists[player].extend(held)
        else:
            lists[player].extend(pool.pop() for _ in range(_held(moves, player == 0)[2]))
    for own in lists:
        while len(own) < 10:
            own.append(pool.pop())
    (removed,) = pool
    draws = [lists[t % 2][6 + t // 2] for t in range(TURNS_PER_ROUND)]
    state = apply(round_start((0,) * C.NUM_GEISHA), Deal(removed, (lists[0][:6], lists[1][:6]),
                                                           draws))
    for move in resolved:
        state = apply(state, move.decision())
        if move.pick is not None:
            state = apply(state, _pick_decision(move))
    return state


def parse_view(text: str, viewer_starts: bool, hand: str | None = None) -> tuple[Move, ...]:
    """Check a view (``X`` for hidden cards, the last gift or competition perhaps unanswered)
    against every rule a view can show; the moves. ``viewer_starts``: whether the viewer made
    the first move. ``hand``: the viewer's cards, if known.

    A view is accepted exactly when some round shows it, and the accepted ones are replayed to
    prove it. Refused: more than eight moves (TURN-1), a move of no shape (:func:`parse_move`),
    a card hidden from its own player or shown though face down (INFO-1), an action used twice
    (TURN-3), a pick not offered (ACT-GIFT-2, ACT-COMP-2), more cards of a geisha shown and held
    than the deck has (COMP-2), and a hand of another size than six dealt plus one drawn at the
    start of each of the viewer's turns so far less the cards played (DEAL-3, TURN-2; an empty
    hand with no moves is the view before the deal). No round shows such a view. Anything else
    is shown by the round :func:`_witness` builds, which the engine replays: each player is
    dealt and draws what they play in the order they play it, which they always hold in time
    (by their j-th move they have 6 + j cards and have played at most 4 + 3 + 2 + 1 of the first
    j moves: 4, 7, 9, 10 cards), and every card nobody saw goes to the opponent's hidden cards
    and hand, the deck and the removed card, which no rule constrains.

    >>> parse_view("2XX 1D", viewer_starts=False, hand="ABCEFG")[1].text
    '1D'
    >>> try:
    ...     parse_view("", viewer_starts=True, hand="AAAAAAA")
    ... except NotationError as error:
    ...     print(error)
    the hand holds 7 cards of A; the round has only 2 [COMP-2]
    """
    tokens = list(_tokens(text))
    moves: list[Move] = []
    used: tuple[set[ActionKind], set[ActionKind]] = (set(), set())
    shown = [0] * C.NUM_GEISHA
    held = _letters(hand, False) if hand is not None else ()
    if isinstance(held, str):
        raise NotationError(f"{held!r} in the hand is not a card: cards are A to G", "COMP-2",
                            malformed=True)
    for g in held:
        assert g is not None
        shown[g] += 1
    for g in C.GEISHA:
        if shown[g] > C.FULL_DECK[g]:
            raise NotationError(f"the hand holds {shown[g]} cards of {LETTERS[g]}; the round "
                                f"has only {C.FULL_DECK[g]}", "COMP-2")
    for number, (column, token) in enumerate(tokens, 1):
        if number > TURNS_PER_ROUND:
            raise NotationError(f"a round has {TURNS_PER_ROUND} moves; this is move {number}",
                                "TURN-1", move=number, column=column, token=token,
                                malformed=True)
        move = parse_move(token, column, number, hidden_ok=True,
                          pick_needed=number < len(tokens))
        mine = (number % 2 == 1) == viewer_starts
        player = 0 if mine else 1

        def illegal(message: str, rule: str, number: int = number, column: int = column,
                    token: str = token) -> NotationError:
            return NotationError(message, rule, move=number, column=column, token=token)

        if move.hidden and mine:
            raise illegal("a player sees their own cards: only the opponent's secret and "
                          "trade-off are hidden", "INFO-1")
        if (not move.hidden and not mine
                and move.kind in (ActionKind.SECRET, ActionKind.TRADE_OFF)):
            raise illegal(f"the opponent's {move.kind.value} is face down: a view shows it as "
                          f"{DIGIT[move.kind]}{HIDDEN * move.kind.size}", "INFO-1")
        if move.kind in used[player]:
            who = "the viewer" if mine else "the opponent"
            raise illegal(f"{who} has already used their {move.kind.value} action this round",
                          "TURN-3")
        used[player].add(move.kind)
        for c in move.cards:
            if c is not None:
                shown[c] += 1
                if shown[c] > C.FULL_DECK[c]:
                    raise illegal(f"the round has only {C.FULL_DECK[c]} cards of {LETTERS[c]}"
                                  f" and the hand and the moves so far show {shown[c]}", "COMP-2")
        if move.pick is not None:
            decision = move.decision()
            if move.kind is ActionKind.GIFT and move.pick[0] not in decision.cards:
                raise illegal(f"{LETTERS[move.pick[0]]} was not offered", "ACT-GIFT-2")
            if isinstance(decision, Competition) and move.pick not in decision.pairs:
                raise illegal("the pick is not one of the competition's sets", "ACT-COMP-2")
        moves.append(move)
    if hand is not None:
        received, played, size = _held(moves, viewer_starts)
        if len(held) != size and (moves or held):
            before = " (or none before the deal)" if not moves else ""
            raise NotationError(
                f"the hand holds {len(held)} card{'s' * (len(held) != 1)}, but after "
                f"{len(moves)} move{'s' * (len(moves) != 1)} the viewer holds {size}{before}: "
                f"6 dealt (DEAL-3), {received - 6} drawn, {played} played", "TURN-2")
        if not moves and not held:
            return ()  # before the deal: nothing to replay
    final = _witness(moves, viewer_starts, None if hand is None else
                     [g for g in held if g is not None])
    if hand is not None and final.hands[0 if viewer_starts else 1] != C.counts(
            [g for g in held if g is not None]):  # pragma: no cover - a bug of the witness
        raise AssertionError(f"the round built for the view {text!r} holds another hand")
    return tuple(moves)
