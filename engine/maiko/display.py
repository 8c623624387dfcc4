"""Plain-text rendering of a Maiko game for a person to follow (``hanamikoji play --game maiko``).

The game board is a grid of spaces, ten to a line: ``##`` a face-down tile, ``..`` an empty
space, ``FR`` a face-up friend, and a face-up item as its colour's letter and its item (``k0``:
a pink kimono). Each maiko board is a 3 x 3 grid of item spaces with the tiles on them. Turns are
narrated step by step, with the position drawn again after every turn that changed it.
"""

from __future__ import annotations

from .actions import Danna, EndTurn, Flip, Layout, OkaSan, OneSan, OneSanStop, Sabanto, Sweep
from .components import COLUMNS, FRIEND, NUM_ITEMS, ROWS, Colour, Tutor, tile_name
from .game import Phase, State, apply, filled, new_game, own_count, score
from .view import GONE, HIDDEN, Seen, View, observe

_LETTER = {Colour.WHITE: "w", Colour.PURPLE: "u", Colour.PINK: "k", Colour.GREEN: "g"}
_LEGEND = ("legend: ## face down, .. empty, FR friend face up; tiles as colour letter + item "
           "(w white, u purple, k pink, g green; items 0-8, 0 kimono, 1 comb, 2 bonsai)")


def short(code: int) -> str:
    """``k0`` for a pink kimono, ``FR`` for a friend."""
    if code == FRIEND:
        return "FR"
    return _LETTER[Colour(code // NUM_ITEMS)] + str(code % NUM_ITEMS)


def board_grid(view: View, per_line: int = 10) -> list[str]:
    """The game board as ``view`` shows it: every space's status, ``per_line`` spaces to a line,
    numbered."""
    cells = ["##" if v == HIDDEN else ".." if v == GONE else short(v) for v in view.board]
    lines = []
    for start in range(0, len(cells), per_line):
        row = " ".join(cells[start:start + per_line])
        lines.append(f"  {start:>2}-{min(start + per_line, len(cells)) - 1:<2} {row}")
    return lines


def maiko_board(view: View, player: int) -> list[str]:
    """One maiko board as a 3 x 3 grid of item spaces, each ``item: tiles``."""
    board = view.boards[player]
    colour = view.config.colours[player]
    head = (f"  player {player} ({colour.label}) · {view.hands[player]} token(s) · score "
            f"{score(board, colour):+d} ({own_count(board, colour)} own)")
    lines = [head]
    for row in ROWS:
        cells = []
        for item in row:
            tiles = "".join(_LETTER[Colour(c)] * board[item * 4 + c] for c in range(4))
            cells.append(f"[{item}: {tiles:<6}]")
        lines.append("    " + " ".join(cells))
    return lines


def tokens_line(view: View) -> str:
    cards = ", ".join(f"{t.label} {view.cards[t]}" for t in Tutor)
    hands = ", ".join(f"P{p} {n}" for p, n in enumerate(view.hands))
    return f"  tokens: pool {view.pool} · hands {hands} · tutor cards {cards}"


def position(view: View) -> list[str]:
    """The public position of ``view`` (every player's view shows the same): board, maiko
    boards, tokens, and how many tiles lie in each place."""
    lines = board_grid(view)
    for player in range(view.config.players):
        lines.extend(maiko_board(view, player))
    lines.append(tokens_line(view))
    down = view.board.count(HIDDEN)
    up = len(view.board) - down - view.board.count(GONE)
    lines.append(f"  tiles: {down} face down, {up} face up, "
                 f"{sum(map(sum, view.boards))} on maiko boards, {len(view.discarded)} discarded, "
                 f"{len(view.box)} in the box")
    if view.discarded:
        lines.append("  discarded: " + " ".join(short(t) for t in view.discarded))
    return lines


def _step_text(before: View, after: View, seen: Seen) -> str:
    """One step as the viewer saw it (``seen``, the last entry of their log), for people: the
    tile of a One-san look is named only to the player who looked (MK-TUTOR-ONESAN-2)."""
    p, decision, tile = seen.player, seen.decision, seen.tile
    name = "?" if tile is None else tile_name(tile)
    if isinstance(decision, Flip):
        text = f"flip {decision.space}: {name}"
        if tile == FRIEND:
            text += " — a friend: +1 token, the turn ends"
        elif before.phase is Phase.SECOND and tile is not None:
            first = before.board[before.pending]  # type: ignore[index]
            if first % NUM_ITEMS == tile % NUM_ITEMS:
                text += f" — a pair, onto item space {first % NUM_ITEMS}"
            else:
                text += " — no pair: both go back face down, the turn ends"
    elif isinstance(decision, Danna):
        text = f"visits Danna, reveals space {decision.space}: {name}"
    elif isinstance(decision, OkaSan):
        text = (f"visits Oka-san, takes a {before.config.colours[p].label} tile from "
                f"player {decision.owner}'s item space {decision.item}")
    elif isinstance(decision, OneSan):
        first = before.phase is not Phase.LOOK
        secret = "" if tile is None else f" (secretly: {name})"
        text = f"{'visits One-san, ' if first else ''}looks at space {decision.space}{secret}"
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


def render_game(state: State, player: int | None = None) -> list[str]:
    """The whole game up to ``state``: setup, every turn's steps, positions, the result.

    Built from views (:func:`observe`): each step as the player who took it saw it, and the
    public position. With ``player``, every step as that player saw it, so another player's
    One-san look names no tile (MK-INFO-1..3)."""
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
    public = 0 if player is None else player  # whose view draws the (public) position
    current = apply(current, Layout(state.layout))
    shown = observe(current, public)
    lines.append(f"Layout: {shown.board.count(HIDDEN)} tiles face down")
    lines.extend(position(shown))
    turn = -1
    changed = False
    for step in state.steps:
        if step.turn != turn:
            if changed:
                lines.extend(position(observe(current, public)))
            turn = step.turn
            changed = False
            colour = config.colours[step.player].label
            lines.append(f"Turn {turn} · player {step.player} ({colour})")
        after = apply(current, step.decision)
        viewer = step.player if player is None else player
        before_view, after_view = observe(current, viewer), observe(after, viewer)
        seen = after_view.log[-1]
        lines.append("    " + _step_text(before_view, after_view, seen))
        # Redraw after a turn that moved a tile for good (a mismatch or a look changes nothing
        # on view but the token counts, which the step lines already say).
        friend = isinstance(seen.decision, (Flip, Danna)) and seen.tile == FRIEND
        if after_view.boards != before_view.boards or friend:
            changed = True
        current = after
    lines.append("Final position:")
    lines.extend(position(observe(current, public)))
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
