"""Plain-text rendering of a Maiko game for a person to follow (``hanamikoji play --game maiko``).

The game board is a grid of spaces, ten to a line: ``##`` a face-down tile, ``..`` an empty
space, ``FR`` a face-up friend, and a face-up item as its colour's letter and its item (``k0``:
a pink kimono). Each maiko board is a 3 x 3 grid of item spaces with the tiles on them. Turns are
narrated step by step, with the position drawn again after every turn that changed it.
"""

from __future__ import annotations

from .actions import Danna, EndTurn, Flip, Layout, OkaSan, OneSan, OneSanStop, Sabanto, Sweep
from .components import COLUMNS, FRIEND, NUM_ITEMS, ROWS, Colour, Tutor, tile_name
from .game import DOWN, EMPTY, Phase, State, apply, filled, new_game, own_count, score
from .view import places

_LETTER = {Colour.WHITE: "w", Colour.PURPLE: "u", Colour.PINK: "k", Colour.GREEN: "g"}
_LEGEND = ("legend: ## face down, .. empty, FR friend face up; tiles as colour letter + item "
           "(w white, u purple, k pink, g green; items 0-8, 0 kimono, 1 comb, 2 bonsai)")


def short(code: int) -> str:
    """``k0`` for a pink kimono, ``FR`` for a friend."""
    if code == FRIEND:
        return "FR"
    return _LETTER[Colour(code // NUM_ITEMS)] + str(code % NUM_ITEMS)


def board_grid(state: State, per_line: int = 10) -> list[str]:
    """The game board: every space's status, ``per_line`` spaces to a line, numbered."""
    cells = []
    for s, v in enumerate(state.spaces):
        cells.append("##" if v == DOWN else ".." if v == EMPTY else short(state.layout[s]))
    lines = []
    for start in range(0, len(cells), per_line):
        row = " ".join(cells[start:start + per_line])
        lines.append(f"  {start:>2}-{min(start + per_line, len(cells)) - 1:<2} {row}")
    return lines


def maiko_board(state: State, player: int) -> list[str]:
    """One maiko board as a 3 x 3 grid of item spaces, each ``item: tiles``."""
    board = state.boards[player]
    colour = state.config.colours[player]
    head = (f"  player {player} ({colour.label}) · {state.hands[player]} token(s) · score "
            f"{score(board, colour):+d} ({own_count(board, colour)} own)")
    lines = [head]
    for row in ROWS:
        cells = []
        for item in row:
            tiles = "".join(_LETTER[Colour(c)] * board[item * 4 + c] for c in range(4))
            cells.append(f"[{item}: {tiles:<6}]")
        lines.append("    " + " ".join(cells))
    return lines


def tokens_line(state: State) -> str:
    cards = ", ".join(f"{t.label} {state.cards[t]}" for t in Tutor)
    hands = ", ".join(f"P{p} {n}" for p, n in enumerate(state.hands))
    return f"  tokens: pool {state.pool} · hands {hands} · tutor cards {cards}"


def position(state: State) -> list[str]:
    """The whole public position (and the face-down count): board, maiko boards, tokens."""
    lines = board_grid(state)
    for player in range(state.config.players):
        lines.extend(maiko_board(state, player))
    lines.append(tokens_line(state))
    counts = places(state)
    lines.append(f"  tiles: {counts['face-down']} face down, {counts['face-up']} face up, "
                 f"{counts['on-boards']} on maiko boards, {counts['discarded']} discarded, "
                 f"{counts['box']} in the box")
    if state.discarded:
        lines.append("  discarded: " + " ".join(short(t) for t in state.discarded))
    return lines


def _step_text(before: State, after: State, decision: object) -> str:
    """One step and what it did, for people."""
    p = before.current
    if isinstance(decision, Flip):
        text = f"flip {decision.space}: {tile_name(before.layout[decision.space])}"
        if before.layout[decision.space] == FRIEND:
            text += " — a friend: +1 token, the turn ends"
        elif before.phase is Phase.SECOND:
            first = before.layout[before.pending]  # type: ignore[index]
            if first % NUM_ITEMS == before.layout[decision.space] % NUM_ITEMS:
                text += f" — a pair, onto item space {first % NUM_ITEMS}"
            else:
                text += " — no pair: both go back face down, the turn ends"
    elif isinstance(decision, Danna):
        text = f"visits Danna, reveals space {decision.space}: " \
               f"{tile_name(before.layout[decision.space])}"
    elif isinstance(decision, OkaSan):
        text = (f"visits Oka-san, takes a {before.config.colours[p].label} tile from "
                f"player {decision.owner}'s item space {decision.item}")
    elif isinstance(decision, OneSan):
        first = before.phase is not Phase.LOOK
        text = (f"{'visits One-san, ' if first else ''}looks at space {decision.space} "
                f"(secretly: {tile_name(before.layout[decision.space])})")
    elif isinstance(decision, OneSanStop):
        text = "stops looking"
    elif isinstance(decision, Sabanto):
        text = f"visits Sabanto, discards {decision.colour.label}-{decision.item}"
    elif isinstance(decision, Sweep):
        text = (f"row discard, item space {decision.item}: "
                + ("keeps all" if decision.colour is None
                   else f"discards {decision.colour.label}-{decision.item}"))
    elif isinstance(decision, EndTurn):
        text = "ends the turn"
    else:  # pragma: no cover
        text = repr(decision)
    if _column_completed(before.boards[p], after.boards[p]):
        text += " · column complete: +1 token"
    if after.phase is Phase.SWEEP and before.phase is not Phase.SWEEP:
        text += " · row complete: row discard"
    if after.triggered_by is not None and before.triggered_by is None:
        text += " · board full: the end is triggered"
    return text


def _column_completed(before: tuple[int, ...], after: tuple[int, ...]) -> bool:
    """MK-COL-1: an item space went from empty to filled and its column is now full."""
    for item in range(NUM_ITEMS):
        if not filled(before, item) and filled(after, item):
            if all(filled(after, i) for i in COLUMNS[item % 3]):
                return True
    return False


def render_game(state: State) -> list[str]:
    """The whole game up to ``state``: setup, every turn's steps, positions, the result."""
    config = state.config
    colours = ", ".join(f"player {p} {c.label}" for p, c in enumerate(config.colours))
    lines = [f"Maiko · {config.players} players ({colours}) · player {state.first_player} starts"]
    if config.removed_colour is not None:
        lines.append(f"  2 players: the {config.removed_colour.label} tiles and 3 friends are "
                     "in the box")
    lines.append("  " + _LEGEND)
    current = new_game(config, state.first_player)
    if state.phase is Phase.LAYOUT:
        lines.append("(the layout is not made yet)")
        return lines
    current = apply(current, Layout(state.layout))
    lines.append(f"Layout: {len(state.layout)} tiles face down")
    lines.extend(position(current))
    turn = -1
    changed = False
    for step in state.steps:
        if step.turn != turn:
            if changed:
                lines.extend(position(current))
            turn = step.turn
            changed = False
            colour = config.colours[step.player].label
            lines.append(f"Turn {turn} · player {step.player} ({colour})")
        after = apply(current, step.decision)
        lines.append("    " + _step_text(current, after, step.decision))
        # Redraw after a turn that moved a tile for good (a mismatch or a look changes nothing
        # on view but the token counts, which the step lines already say).
        friend = isinstance(step.decision, (Flip, Danna)) and \
            current.layout[step.decision.space] == FRIEND
        if after.boards != current.boards or friend:
            changed = True
        current = after
    lines.append("Final position:")
    lines.extend(position(current))
    if state.result is not None:
        r = state.result
        who = (f"player {r.winners[0]} wins" if len(r.winners) == 1 else
               "a victory shared by players " + ", ".join(map(str, r.winners)))
        scores = ", ".join(f"P{p} {s:+d} ({o} own)" for p, (s, o) in
                           enumerate(zip(r.scores, r.own)))
        lines.append(f"Result: {who} · end: {r.reason.value} · scores {scores}")
    else:
        lines.append("Result: the game is not over")
    return lines
