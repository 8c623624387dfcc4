"""Plain-text rendering of a game for a person to follow (``hanamikoji play``)."""

from __future__ import annotations

from . import cards as C
from .actions import ActionKind, CompetitionPick, Deal, Decision, GiftPick
from .cards import Cards
from .codec import decision_text
from .game import (
    ObservedTurn,
    Phase,
    RoundScore,
    State,
    View,
    apply,
    new_game,
    observe,
    observed_turn,
)
from .rules import Markers, Result, charm, geisha_count


def _cards(cards: tuple[int, ...]) -> str:
    return "[" + " ".join(map(str, cards)) + "]"


def _marker(m: int | None) -> str:
    return "-" if m is None else f"P{m}"


def geisha_table(score: RoundScore, before: Markers) -> list[str]:
    """The geisha row with her charm, each side's items and where her marker stands."""
    width = 5
    head = "geisha    " + "".join(f"{g:>{width}}" for g in C.GEISHA)
    charm_row = "charm     " + "".join(f"{c:>{width}}" for c in C.CHARM)
    p0 = "player 0  " + "".join(f"{n:>{width}}" for n in score.sides[0])
    p1 = "player 1  " + "".join(f"{n:>{width}}" for n in score.sides[1])
    moved = "".join(
        f"{(_marker(m) + ('*' if m != b else '')):>{width}}" for m, b in zip(score.markers, before))
    return [head, charm_row, p0, p1, "marker    " + moved]


def standing(markers: Markers) -> str:
    return " · ".join(f"player {p}: {geisha_count(markers, p)} geisha, {charm(markers, p)} charm"
                      for p in (0, 1))


def describe_result(result: Result) -> str:
    if result.winner is None:
        return f"shared victory ({result.reason.value})"
    return f"player {result.winner} wins ({result.reason.value})"


def _hidden(count: int) -> str:
    return "[" + " ".join("?" * count) + "]"


def _shown(turn: ObservedTurn) -> str:
    if turn.cards is None:  # face down, hidden from this player
        return _hidden(turn.kind.size)
    if turn.kind is ActionKind.COMPETITION:
        return " | ".join(_cards(p) for p in turn.cards)  # type: ignore[arg-type]
    return _cards(turn.cards)  # type: ignore[arg-type]


def seen_decision_text(before: State, decision: Decision, after: State, player: int) -> str:
    """``decision`` (taken at ``before``, giving ``after``) as ``player`` saw it, in the words
    of :func:`~.codec.decision_text`, from their views alone (INFO-1, INFO-2): a deal is their
    own hand in :func:`observe` of ``after`` (the starter's with the first draw, TURN-2) and
    how many cards the opponent and the deck hold, the removed card a ``?``; an action is
    :func:`observed_turn`'s, so an opponent's secret or trade-off is ``?`` cards
    (ACT-SECRET-2, ACT-TRADE-2); a gift, a competition and a pick are public.

    >>> import random
    >>> from .game import apply, new_game, random_deal
    >>> deal = random_deal(random.Random(1))
    >>> seen_decision_text(new_game(), deal, apply(new_game(), deal), 1)
    'deal: P1 hand 0 3 4 5 5 6, P0 7 cards, deck 7 cards, removed ?'
    """
    if isinstance(decision, Deal):
        view = observe(after, player)
        first = " (with the first draw)" if after.starter == player else ""
        return (f"deal: P{player} hand {' '.join(map(str, C.cards_of(view.hand)))}{first}, "
                f"P{1 - player} {view.opponent_hand_size} cards, deck {view.deck_size} cards, "
                "removed ?")
    if isinstance(decision, (GiftPick, CompetitionPick)):
        return decision_text(decision)
    seen = observed_turn(decision, before.active, player)
    if seen.cards is None:
        return f"{seen.kind.value} " + " ".join("?" * seen.kind.size)
    return decision_text(decision)


def render_game(state: State, player: int | None = None) -> list[str]:
    """Every round's turns and scoring, then the result, from the game's history: each turn
    says the card its player drew (TURN-2) and the hand they then chose from.

    With ``player``, the game as that player saw it: only their :func:`observe` view of each
    state and their view of each action (:func:`observed_turn`) are shown, so the opponent's
    hand, draws, secret and trade-off, the removed card and the deck stay hidden (INFO-2).
    """
    title = f"Hanamikoji · {state.rules.name} rules · player {state.first_player} starts"
    lines = [title]
    markers: Markers = (None,) * C.NUM_GEISHA
    current = new_game(state.rules, state.first_player)
    deal: Deal | None = None
    held_after: Cards | None = None  # ``player``'s hand after their last action this round
    shown_scores: list[RoundScore] = []

    def seen(at: State) -> State | View:
        return at if player is None else observe(at, player)

    def scoring(scores: tuple[RoundScore, ...]) -> None:
        """The rounds scored since the last call (scores are public: SCORE-1)."""
        nonlocal markers
        for score in scores[len(shown_scores):]:
            lines.append("  scoring (secrets revealed; * = marker moved):")
            lines.extend("    " + line for line in geisha_table(score, markers))
            markers = score.markers
            lines.append("    " + standing(markers))
            shown_scores.append(score)

    def turn_line(at: State) -> str:
        """Who acts at ``at`` (a turn's start), the card they drew and their hand, as seen."""
        mover = at.active
        head = f"  turn {at.turn}  player {mover}  "
        if player is None:
            assert deal is not None
            hand = C.cards_of(at.hands[mover])
            return head + f"draws {deal.draws[at.turn]} · hand {_cards(hand)}"
        view = observe(at, player)
        if mover != player:
            return head + f"draws a card · {view.opponent_hand_size} in hand"
        hand = C.cards_of(view.hand)
        drawn = "" if held_after is None else \
            f"draws {C.cards_of(C.sub(view.hand, held_after))[0]} · "
        return head + f"{drawn}hand {_cards(hand)}"

    for decision in state.history:
        before, current = current, apply(current, decision)
        if isinstance(decision, Deal):
            deal = decision
            lines.append("")
            lines.append(f"Round {current.round} · player {current.starter} starts")
            if player is None:
                lines.append(f"  hands: P0 {_cards(decision.hands[0])}  "
                             f"P1 {_cards(decision.hands[1])} · deck {_cards(decision.draws)} · "
                             f"removed [{decision.removed}]")
                held_after = None
            else:
                view = observe(current, player)
                # The starter has drawn already: their first draw is part of what they hold.
                first = " (with the first draw)" if current.starter == player else ""
                lines.append(f"  hands: P{player} {_cards(C.cards_of(view.hand))}{first}  "
                             f"P{1 - player} {view.opponent_hand_size} cards · deck "
                             f"{view.deck_size} cards · removed [?]")
                held_after = None if current.starter == player else view.hand
            lines.append(turn_line(current))
        elif isinstance(decision, (GiftPick, CompetitionPick)):
            taken = [decision.card] if isinstance(decision, GiftPick) else decision.pair
            lines[-1] += f" -> player {before.active ^ 1} takes {_cards(tuple(taken))}"
            if current.phase is Phase.ACTION and current.round == before.round:
                lines.append(turn_line(current))
        else:
            mover = before.active
            as_seen = observed_turn(decision, mover, mover if player is None else player)
            lines.append(f"          {decision.kind.value:<11} {_shown(as_seen)}")
            if player is not None and mover == player:
                held_after = observe(current, player).hand
            if current.phase is Phase.ACTION and current.round == before.round:
                lines.append(turn_line(current))
        scoring(seen(current).scores)
    result = seen(current).result
    lines.append("")
    lines.append("Result: " + (describe_result(result) if result else "game not over"))
    return lines
