"""Questions an analyst writes: can a Maiko game end so that an expression holds?

``hanamikoji query --game maiko --where EXPR [--players N] [--timeout S] [--json]`` and
:func:`ask` answer from the ending model (:class:`.model.Ending`; the language is
:mod:`hanamikoji.spec.core.expr`, the terms are :data:`TERMS`), for the player count given or
for 2, 3 and 4 players in turn:

* **impossible**, with the unsat core, when the ending model with the expression is
  unsatisfiable for every player count asked: the model is a sound relaxation (every final
  position of a game satisfies it), so no game ends so. The core names MK rules; the expression
  is tracked apart, under ``question: ...``.
* **possible**, with a witness game, replayed in the reference engine, whose final state makes
  the expression true when it is evaluated again, in plain Python, on the engine's state. The
  witness is found in a *family of games the toolkit can write* (:func:`plan_problem`): each
  player plays exactly one turn, in turn order from player 0; in it they may reveal one tile
  with Danna (their starting token), then flip pairs item by item, keeping or discarding one
  tile per item space at each row discard (MK-ROW-1), and end the turn quietly (a mismatch) or,
  their board full, in the ending step; the first full board triggers the end, and the game
  ends with the last turns (reason ``full-board``). z3 solves the ending model and that family
  together; the game is then played with :class:`.script.Script` (the layout chosen as the
  flips need).
* **unknown** otherwise: z3 could not decide within its resource budget (or the ``timeout``
  given), or the ending model allows the expression but no game of the family reaches it (for
  instance an end by ``static``, or more than one Danna tile on a board). Never reported as
  either answer.

Before answering "unknown", the games the catalogue's own witnesses are built from that end
otherwise than by a full board (:func:`_gallery`: a static end, an end by MK-END-4) are tried
too: a game there where the expression holds is a witness like any other.

>>> ask("score(0) == 18 and winner(0) == 0", players=2).answer
'impossible'
>>> found = ask("winners == 3 and score(0) < 0")
>>> found.answer, found.witness["players"], found.witness["result"]["winners"]
('possible', 3, [0, 1, 2])
"""

from __future__ import annotations

import functools
import time
from typing import Any

import attrs
import z3

from hanamikoji.engine.core.errors import GameError
from hanamikoji.engine.maiko import FRIEND, Config, Phase, State
from hanamikoji.engine.maiko import to_record
from hanamikoji.engine.maiko.components import (
    COPIES,
    NUM_COLOURS,
    NUM_ITEMS,
    PLAYER_COUNTS,
    TOTAL_TOKENS,
    tile_name,
)
from hanamikoji.engine.maiko.game import COLUMNS, ROWS
from hanamikoji.spec.core.expr import Node, Term, check, evaluate, parse, translate
from hanamikoji.spec.core.queries import WhereAnswer
from hanamikoji.spec.core.solver import (Constraint, Deadline, Problem, Status, Undecided,
                                         fresh_context)

from .model import REASONS, Ending
from .script import Script, ScriptError

__all__ = ["TERMS", "WhereAnswer", "ask", "terms", "plan_problem", "play"]

#: The answer object: the core's, the player counts asked named "players" in its JSON.
_answer = functools.partial(WhereAnswer, setting_key="players")
#: How many models of the family are tried before the answer is "unknown".
ATTEMPTS = 4


def terms(players: int = max(PLAYER_COUNTS)) -> tuple[Term, ...]:
    """The terms of an expression about the end of a Maiko game of at most ``players``."""
    seats = range(players)
    return (
        Term("score", "player p's points at the end (MK-SCORE-1)", "int", 1, seats, argument="a player"),
        Term("own", "the tiles of player p's colour on their maiko board (MK-SCORE-3)", "int",
             1, seats, argument="a player"),
        Term("tiles", "the tiles on player p's maiko board, every layer", "int", 1, seats, argument="a player"),
        Term("tokens", "the kamon tokens in player p's hand at the end", "int", 1, seats, argument="a player"),
        Term("winner", "1 if player p is among the winners, else 0 (MK-SCORE-4)", "int", 1,
             seats, argument="a player"),
        Term("winners", "how many players share the victory", "int"),
        Term("reason", "why the game ended: " + ", ".join(f'"{r}"' for r in REASONS), "enum",
             values=REASONS),
        Term("players", "how many players the game has (2 to 4)", "int"),
    )


#: The terms for any player count (``hanamikoji query --game maiko --where``).
TERMS = terms()


def _seats_named(tree: Node) -> int:
    """The highest player a term of ``tree`` names, plus one (0 when none does)."""
    if tree.op == "call":
        return int(tree.args[1].args[0]) + 1
    return max((_seats_named(a) for a in tree.args if isinstance(a, Node)), default=0)


def _within(timeout: float | None) -> str:
    return ("within its resource budget" if timeout is None
            else f"within its resource budget and {timeout:g} s")


@fresh_context()
def ask(expression: str, *, players: int | None = None, timeout: float | None = None,
        variant: str | None = None) -> WhereAnswer:
    """Whether a Maiko game (of ``players``, or of any count) can end so that ``expression``
    holds (see the module). :class:`~hanamikoji.spec.core.expr.ExprError` (with the column)
    for an expression that is not one of the language (a player the count does not seat
    included); ``ValueError`` for a player count out of range or a variant."""
    if variant is not None:  # said as every command says an option a game does not have
        from hanamikoji.engine.maiko.game_type import GAME

        raise ValueError("--variant: game maiko has no option 'variant'; its options: "
                         + ", ".join(option.name for option in GAME.options))
    if players is not None and players not in PLAYER_COUNTS:
        raise ValueError(f"maiko is played by 2 to 4 players, not {players}")
    tree = parse(expression)
    check(tree, terms(players or max(PLAYER_COUNTS)))
    counts = [n for n in ((players,) if players else PLAYER_COUNTS) if n >= _seats_named(tree)]
    shown = str(players) if players else "2-4"
    start = time.perf_counter()
    deadline = Deadline(timeout)
    cores: set[str] = set()
    hypotheses: set[str] = set()
    allowed: list[int] = []
    try:
        for n in counts:
            ending = Ending(Config.make(n))
            problem = ending.problem(deadline)
            problem.require([Constraint("question: the expression",
                                        _translate(tree, ending))], "the question")
            verdict = problem.check().decided()
            if verdict.status is Status.UNSAT:
                cores.update(verdict.rules)
                hypotheses.update(h.split(" @ ")[0] for h in verdict.hypotheses)
                continue
            allowed.append(n)
            witness = _witness(expression, tree, n, deadline) or _gallery(tree, n)
            if witness is not None:
                return _answer(expression, shown, "possible", time.perf_counter() - start,
                                   witness=witness)
    except Undecided as undecided:
        return _answer(expression, shown, "unknown", time.perf_counter() - start,
                           note=f"z3 could not decide {_within(timeout)} ({undecided.detail})")
    if allowed:
        return _answer(
            expression, shown, "unknown", time.perf_counter() - start,
            note=(f"the ending model allows it with {', '.join(map(str, allowed))} players, "
                  "but no game of the witness family reaches it (each player one turn: one "
                  "Danna tile, pairs, row discards; the end by a full board), nor does one of the "
                  "catalogue's static and MK-END-4 games"))
    return _answer(expression, shown, "impossible", time.perf_counter() - start,
                       core=tuple(sorted(cores)), hypotheses=tuple(sorted(hypotheses)))


def _translate(tree: Node, ending: Ending) -> z3.BoolRef:
    seats = ending.seats
    reason = z3.Int("reason_code")

    def term(name: str, arg: int | None) -> Any:
        if arg is None:  # winners, reason, players: the terms without an argument
            if name == "winners":
                return ending.winners_count()
            return reason if name == "reason" else z3.IntVal(ending.players)
        seat = seats[arg]
        if name == "score":
            return seat.score
        if name == "own":
            return seat.own
        if name == "tiles":
            return seat.tiles
        if name == "tokens":
            return seat.hand
        return z3.If(seat.winner, 1, 0)

    def encode(name: str, value: Any) -> Any:
        return REASONS.index(value)

    code = z3.And([z3.Implies(ending.reason[r], reason == k) for k, r in enumerate(REASONS)])
    return z3.And(code, translate(tree, terms(ending.players), term, encode))


def value_on(state: State) -> Any:
    """The terms' values on a finished engine state (the plain-Python reading)."""
    result = state.result
    assert result is not None

    def value(name: str, arg: int | None) -> Any:
        if arg is None:  # winners, reason, players: the terms without an argument
            if name == "winners":
                return len(result.winners)
            return result.reason.value if name == "reason" else state.config.players
        if name == "score":
            return result.scores[arg]
        if name == "own":
            return result.own[arg]
        if name == "tiles":
            return sum(state.boards[arg])
        if name == "tokens":
            return state.hands[arg]
        return int(arg in result.winners)

    return value


# --- the witness family -----------------------------------------------------------------------


@attrs.frozen(eq=False)
class Plan:
    """One player's turn of the family: ``taken[c][i]`` tiles flipped in pairs, ``junk[c][i]``
    of them discarded at a row discard, ``danna`` the tile revealed first (or None)."""

    taken: tuple[tuple[int, ...], ...]
    junk: tuple[tuple[int, ...], ...]
    danna: int | None
    last: int | None


def plan_problem(ending: Ending, deadline: Deadline) -> tuple[Problem, list[dict[str, Any]]]:
    """The ending model with the witness family's constraints (untracked: a model is wanted,
    not a core) and, per player, its terms. Each constraint mirrors how :func:`play` plays:

    * a board is its pairs less one tile per item space discarded at a row discard (only when
      the row is complete at the end, and from an item space holding a pair) plus at most one
      Danna tile (the starting token; one visit a turn, MK-TUTOR-1);
    * a full board has an item space filled last by exactly one pair and no Danna tile (after
      it the player flips no more, MK-END-1);
    * the end is by a full board, nothing face up, no friend revealed; the discards are the
      junk; the tiles taken are at most those in play;
    * a player's tokens are the starting one, less the Danna visit, plus a token per column of
      their board complete at the end (MK-COL-1), all from the pool (MK-TOKEN-2);
    * a player whose board is not full ends the turn with a mismatch: two items lie face down."""
    problem = ending.problem(deadline, cores=False)
    Int = z3.Int
    seats: list[dict[str, Any]] = []
    colours, items = range(NUM_COLOURS), range(NUM_ITEMS)
    discards = [[0] * NUM_ITEMS for _ in colours]
    taken_all = [[0] * NUM_ITEMS for _ in colours]
    out: list[z3.BoolRef] = []
    columns_paid = []
    for seat in ending.seats:
        p = seat.player
        t = [[Int(f"plan{p}_taken[{tile_name(c * NUM_ITEMS + i)}]") for i in items]
             for c in colours]
        j = [[Int(f"plan{p}_junk[{tile_name(c * NUM_ITEMS + i)}]") for i in items]
             for c in colours]
        d = [[Int(f"plan{p}_danna[{tile_name(c * NUM_ITEMS + i)}]") for i in items]
             for c in colours]
        pairs = [Int(f"plan{p}_pairs[{i}]") for i in items]
        last = Int(f"plan{p}_last")
        held = [z3.Sum([t[c][i] + d[c][i] for c in colours]) >= 1 for i in items]
        for c in colours:
            for i in items:
                out += [t[c][i] >= 0, j[c][i] >= 0, j[c][i] <= 1, d[c][i] >= 0, d[c][i] <= 1,
                        j[c][i] <= t[c][i], seat.board[c][i] == t[c][i] - j[c][i] + d[c][i]]
                discards[c][i] = discards[c][i] + j[c][i]
                taken_all[c][i] = taken_all[c][i] + t[c][i] + d[c][i]
        for i in items:
            on_item = z3.Sum([t[c][i] for c in colours])
            junked = z3.Sum([j[c][i] for c in colours])
            row = ROWS[i // 3]
            out += [pairs[i] >= 0, on_item == 2 * pairs[i], junked <= 1,
                    z3.Implies(junked >= 1, z3.And(on_item >= 2, *[held[k] for k in row]))]
        danna = z3.Sum([d[c][i] for c in colours for i in items])
        out += [danna <= 1, 0 <= last, last < NUM_ITEMS]
        out += [z3.Implies(seat.full, z3.And(
            *[z3.Implies(last == i, z3.And(pairs[i] == 1,
                                           z3.Sum([d[c][i] for c in colours]) == 0))
              for i in items]))]
        paid = z3.Sum([z3.If(z3.And([held[k] for k in column]), 1, 0) for column in COLUMNS])
        columns_paid.append(paid)
        out += [seat.hand == 1 - danna + paid]
        seats.append({"taken": t, "junk": j, "danna": d, "last": last})
    down_items = [z3.Sum([ending.down[c][i] for c in colours]) for i in items]
    # nothing empties an item space in the family, so a board once full is full at the end
    out += [z3.Or([s.full for s in ending.seats]), *[s.filled == s.full for s in ending.seats]]
    out += [ending.reason["full-board"], ending.face_up == 0, ending.friends_up == 0,
            z3.Sum(columns_paid) <= TOTAL_TOKENS - ending.players,
            z3.Or(z3.And([s.full for s in ending.seats]),
                  z3.Sum([z3.If(k >= 1, 1, 0) for k in down_items]) >= 2)]
    for c in colours:
        for i in items:
            out += [ending.discarded[c][i] == discards[c][i], taken_all[c][i] <= COPIES]
    problem.require([Constraint("the witness family", z3.And(out))], "the family")
    return problem, seats


def _decode(model: z3.ModelRef, seats: list[dict[str, Any]], ending: Ending) -> list[Plan]:
    def v(term: Any) -> int:
        return model.eval(term, model_completion=True).as_long()

    plans = []
    for seat, terms_ in zip(ending.seats, seats):
        danna = [c * NUM_ITEMS + i for c in range(NUM_COLOURS) for i in range(NUM_ITEMS)
                 if v(terms_["danna"][c][i])]
        full = z3.is_true(model.eval(seat.full, model_completion=True))
        plans.append(Plan(tuple(tuple(v(x) for x in row) for row in terms_["taken"]),
                          tuple(tuple(v(x) for x in row) for row in terms_["junk"]),
                          danna[0] if danna else None, v(terms_["last"]) if full else None))
    return plans


def play(config: Config, plans: list[Plan], spare: tuple[int, int] | None) -> Script:
    """The family's game: each player in turn plays their plan in their one turn (see
    :func:`plan_problem`); ``spare`` are two tiles of different items left face down at the
    end, flipped by the first player who ends a turn with a mismatch (later ones flip the same
    two again). :class:`ScriptError` or :class:`GameError` if the engine refuses."""
    script = Script(config)
    for p, plan in enumerate(plans):
        if script.state.phase is Phase.OVER:
            raise ScriptError("the game ended before every player played")
        if script.state.current != p:
            raise ScriptError(f"player {script.state.current} is to play, not {p}")
        if plan.danna is not None:
            script.danna(plan.danna)
        junk = {i: c for c in range(NUM_COLOURS) for i in range(NUM_ITEMS) if plan.junk[c][i]}
        held = {i for i in range(NUM_ITEMS)
                if any(plan.taken[c][i] for c in range(NUM_COLOURS))}
        danna_item = None if plan.danna is None else plan.danna % NUM_ITEMS
        rows = sorted(range(3), key=lambda r: plan.last is not None and plan.last // 3 == r)
        for r in rows:
            row = [i for i in ROWS[r] if i in held]
            # the item space that completes the row goes last: the one filled last if it is in
            # this row, else one that is empty until its pairs (not the Danna tile's)
            closing = plan.last if plan.last in row else next(
                (i for i in reversed(row) if i != danna_item), None)
            order = [i for i in row if i != closing] + ([closing] if closing is not None else [])
            for i in order:
                tiles = [c * NUM_ITEMS + i for c in range(NUM_COLOURS)
                         for _ in range(plan.taken[c][i])]
                if i in junk:  # the tile to discard goes in the first pair
                    first = junk[i] * NUM_ITEMS + i
                    tiles.remove(first)
                    tiles.insert(0, first)
                for k in range(0, len(tiles), 2):
                    script.pair(tiles[k], tiles[k + 1])
                    _row_discard(script, junk)
        if script.state.phase is Phase.ENDING:
            script.end_turn()
        elif script.state.phase is Phase.FIRST and script.state.current == p:
            _quiet(script, spare)
    if script.state.phase is not Phase.OVER:
        raise ScriptError(f"the game is not over after every player's turn "
                          f"({script.state.phase})")
    return script


def _row_discard(script: Script, junk: dict[int, int]) -> None:
    """MK-ROW-1, MK-ROW-3: at a row discard, discard the planned tile of each item space."""
    while script.state.phase is Phase.SWEEP:
        row, index = script.state.sweep_row, script.state.sweep_index
        assert row is not None
        item = ROWS[row][index]
        script.sweep(item, junk.pop(item, None))


def _quiet(script: Script, spare: tuple[int, int] | None) -> None:
    """End the turn with a mismatch: two seen face-down tiles of different items if any, else
    the ``spare`` tiles."""
    from hanamikoji.engine.maiko.game import DOWN

    state = script.state
    seen = [s for s, v in enumerate(state.spaces) if v == DOWN and s not in script.unseen()]
    for a in seen:
        for b in seen:
            if state.layout[a] % NUM_ITEMS != state.layout[b] % NUM_ITEMS and FRIEND not in (
                    state.layout[a], state.layout[b]):
                script.flip_at(a)
                script.flip_at(b)
                return
    if spare is None:
        raise ScriptError("no two tiles of different items are left face down")
    script.mismatch(*spare)


def _found(players: int, state: State) -> dict[str, Any]:
    """The witness object of a finished game."""
    result = state.result
    assert result is not None
    return {"players": players,
            "result": {"winners": list(result.winners), "reason": result.reason.value,
                       "scores": list(result.scores), "own_colour": list(result.own),
                       "tokens": list(state.hands)},
            "summary": (f"a game of {players} players ending by {result.reason.value}, scores "
                        f"{list(result.scores)}, won by "
                        f"{' and '.join(map(str, result.winners))}"),
            "record": to_record(state)}


@functools.cache
@fresh_context()
def _gallery_states(players: int) -> tuple[State, ...]:
    """The final states of the catalogue's builders that end otherwise than by a full board (the
    static end of ``static-reachable``, the MK-END-4 end of ``no-face-down-end``), each replayed
    from scratch from its record once per player count (states are immutable)."""
    from .reach import nfd_turn_start_game, static_game

    states = []
    for build in (static_game, nfd_turn_start_game):
        try:
            states.append(build(players).witness("gallery").replay())
        except (ScriptError, GameError):
            continue
    return tuple(states)


def _gallery(tree: Node, players: int) -> dict[str, Any] | None:
    """The first of :func:`_gallery_states` that ends and where ``tree`` holds."""
    for state in _gallery_states(players):
        if state.result is not None and evaluate(tree, value_on(state)):
            return _found(players, state)
    return None


def _witness(expression: str, tree: Node, players: int, deadline: Deadline
             ) -> dict[str, Any] | None:
    """A game of the family where ``expression`` holds, replayed and checked on the engine's
    final state; None if z3 finds no model of the family (or none of :data:`ATTEMPTS` plays)."""
    ending = Ending(Config.make(players))
    problem, seats = plan_problem(ending, deadline)
    problem.require([Constraint("question: the expression", _translate(tree, ending))],
                    "the question")
    for _ in range(ATTEMPTS):
        verdict = problem.check().decided()
        if verdict.status is not Status.SAT:
            return None
        model = verdict.model
        assert model is not None  # sat
        plans = _decode(model, seats, ending)
        down = [c * NUM_ITEMS + i for c in range(NUM_COLOURS) for i in range(NUM_ITEMS)
                for _ in range(model.eval(ending.down[c][i], model_completion=True).as_long())]
        spare = next(((a, b) for a in down for b in down if a % NUM_ITEMS != b % NUM_ITEMS),
                     None)
        try:
            script = play(Config.make(players), plans, spare)
            state = script.witness(f"a game where {expression}").replay()
        except (ScriptError, GameError):
            state = None
        if state is not None and evaluate(tree, value_on(state)):
            return _found(players, state)
        # not this board: ask z3 for another one
        problem.add(z3.Or([seat.board[c][i] != model.eval(seat.board[c][i],
                                                          model_completion=True)
                           for seat in ending.seats for c in range(NUM_COLOURS)
                           for i in range(NUM_ITEMS)]))
    return None
