"""Plain-text rendering of a game for a person to follow (``hanamikoji play``)."""

from __future__ import annotations

from . import cards as C
from .actions import Competition, CompetitionPick, Deal, GiftPick
from .game import RoundScore, State
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


def render_game(state: State) -> list[str]:
    """Every round's turns and scoring, then the result, from the game's history."""
    lines = [f"Hanamikoji · {state.rules.name} rules · player {state.first_player} starts"]
    scores = {s.round: s for s in state.scores}
    round_index = -1
    markers: Markers = (None,) * C.NUM_GEISHA
    turn = 0
    mover = prev_mover = 0

    def close_round() -> None:
        nonlocal markers
        score = scores.get(round_index)
        if score is None:
            return
        lines.append("  scoring (secrets revealed; * = marker moved):")
        lines.extend("    " + line for line in geisha_table(score, markers))
        markers = score.markers
        lines.append("    " + standing(markers))

    for decision in state.history:
        if isinstance(decision, Deal):
            close_round()
            round_index += 1
            starter = state.first_player if round_index % 2 == 0 else 1 - state.first_player
            mover, turn = starter, 0
            lines.append("")
            lines.append(f"Round {round_index} · player {starter} starts")
            lines.append(f"  hands: P0 {_cards(decision.hands[0])}  P1 {_cards(decision.hands[1])}"
                         f" · deck {_cards(decision.draws)} · removed [{decision.removed}]")
        elif isinstance(decision, GiftPick):
            lines[-1] += f" -> player {1 - prev_mover} takes [{decision.card}]"
        elif isinstance(decision, CompetitionPick):
            lines[-1] += f" -> player {1 - prev_mover} takes {_cards(decision.pair)}"
        else:
            if isinstance(decision, Competition):
                shown = " | ".join(_cards(p) for p in decision.pairs)
            else:
                shown = _cards(decision.cards)
            lines.append(f"  turn {turn}  player {mover}  {decision.kind.value:<11} {shown}")
            prev_mover = mover
            mover, turn = 1 - mover, turn + 1
    close_round()
    lines.append("")
    lines.append("Result: " + (describe_result(state.result) if state.result else "game not over"))
    return lines
