"""Maiko's scoring queries: what one maiko board can hold when a game ends (the board model,
below), and the queries about the winners of a game (shared-victory,
winner-nonpositive, loser-highest-score, largest-lead), answered from the ending model of a whole
final position (:mod:`.model`) with witness games built by :func:`play_plan`.

**The board model** (:func:`board_problem`): the final contents of one player's maiko board as
counts ``n[c][i]`` of tiles of colour c and item i, with the constraints every final board obeys,
each tracked by the rule it comes from:

* MK-COMP-1, MK-SETUP-3, MK-SETUP-4: at most the copies of each tile in play (2 of each colour
  and item, none of the colour a 2-player game puts in the box);
* MK-END-1 (with MK-FLIP-3, MK-TUTOR-1): either some item space is empty at the end, or the item
  space filled last holds at most 3 tiles. Why this is sound: once a board is full the end is
  triggered and its player flips no more; the placement that filled the last item space put at
  most 2 tiles there (a pair; Danna or Oka-san put 1); after it the player may take one tutor
  visit (one tile) in the ending step, and never plays again (the last turns go to the others,
  MK-END-2); other players only take tiles away (Oka-san). A board never full has an empty
  item space at the end.
* MK-SCORE-1: the score is the player's own-colour tiles less every other tile.

z3 finds each extreme (``z3.Optimize``), an unsat core over the tracked constraints proves that
one more (or one less) is impossible, and a witness game written with :class:`.script.Script`
reaches it in the engine. :mod:`.confirm` recomputes every number by plain arithmetic over
``Config.tiles``. The claim "nothing beyond" is decided either way: if z3 finds a board beyond
(an extreme claimed too low, or a weakened rule set), the answer is "at least" (or "at most")
that board's value, with the board as the counterexample (a final board, not a game: no
witness).

>>> from hanamikoji.spec.core.solver import Deadline
>>> extreme(2, "score", "max", Deadline(30))[0]
18
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import z3

from hanamikoji.engine.core.errors import GameError
from hanamikoji.engine.maiko import Config, Phase
from hanamikoji.engine.maiko.components import FRIEND, NUM_COLOURS, NUM_ITEMS, PLAYER_COUNTS
from hanamikoji.spec.core.queries import Counterexample, Finding, ModelInconsistency, Proof
from hanamikoji.spec.core.solver import (
    Constraint,
    Deadline,
    Problem,
    Status,
    check_hypothesis,
    solve,
    unknown,
)

from .model import Ending, decide, optimum
from .script import Script, ScriptError
from .witness import Witness



def _copies(config: Config) -> list[list[int]]:
    counts = [[0] * NUM_ITEMS for _ in range(NUM_COLOURS)]
    for code in config.tiles:
        if code != FRIEND:
            counts[code // NUM_ITEMS][code % NUM_ITEMS] += 1
    return counts


def board_problem(players: int, deadline: Deadline, *, without: Sequence[str] = ()
                  ) -> tuple[Problem, dict[str, Any]]:
    """The board model for player 0 (colour white, MK-SETUP-1's default) of a game of
    ``players`` (less the rules ``without``); the problem and its terms (``score``,
    ``tiles``, ``n``)."""
    config = Config.make(players)
    copies = _copies(config)
    own = int(config.colours[0])
    problem = Problem(deadline, without=without)
    n = [[z3.Int(f"n[{c}][{i}]") for i in range(NUM_ITEMS)] for c in range(NUM_COLOURS)]
    box = [] if config.removed_colour is None else [int(config.removed_colour)]
    problem.require([Constraint("MK-COMP-1", z3.And([z3.And(n[c][i] >= 0, n[c][i] <= 2)
                                                     for c in range(NUM_COLOURS)
                                                     for i in range(NUM_ITEMS)]))], "tiles")
    problem.require([Constraint("MK-SETUP-4" if box else "MK-SETUP-3", z3.And(
        [n[c][i] <= copies[c][i] for c in range(NUM_COLOURS) for i in range(NUM_ITEMS)]))],
        "tiles in play")
    per_item = [z3.Sum([n[c][i] for c in range(NUM_COLOURS)]) for i in range(NUM_ITEMS)]
    problem.require([Constraint("MK-END-1", z3.Or(
        z3.Or([t == 0 for t in per_item]), z3.Or([t <= 3 for t in per_item])))],
        "a full board stops filling")
    tiles = z3.Sum(per_item)
    owned = z3.Sum(n[own])
    score = z3.Int("score")
    problem.require([Constraint("MK-SCORE-1", score == owned - (tiles - owned))], "score")
    return problem, {"score": score, "tiles": tiles, "n": n}


def extreme(players: int, term: str, sense: str, deadline: Deadline, *,
            claimed: int | None = None, without: Sequence[str] = ()
            ) -> tuple[int, Proof | Counterexample]:
    """The maximum or minimum of ``term`` ("score" or "tiles") on player 0's final board (or
    the ``claimed`` one), and the claim that nothing lies beyond it, decided either way: the
    proof, or the board z3 finds beyond it (its value is then the one returned)."""
    problem, terms = board_problem(players, deadline, without=without)
    target = terms[term]
    if claimed is None:
        optimiser = z3.Optimize()
        for assertion in problem.solver.assertions():
            optimiser.add(assertion)
        # the tracked constraints are implications from their labels: assume every label
        labels = [z3.Bool(name) for name in problem._names]  # noqa: SLF001 - tracking literals
        optimiser.add(*labels)
        handle = optimiser.maximize(target) if sense == "max" else optimiser.minimize(target)
        outcome = solve(optimiser, deadline)
        if outcome == z3.unknown:
            raise unknown(optimiser, f"z3 could not optimise {term}", deadline)
        if outcome != z3.sat:  # an empty board meets every constraint
            raise ModelInconsistency(f"the board model of {players} players has no {term}")
        claimed = (optimiser.upper(handle) if sense == "max" else optimiser.lower(handle)
                   ).as_long()
    beyond = target >= claimed + 1 if sense == "max" else target <= claimed - 1
    words = f"{term} {'above' if sense == 'max' else 'below'} {claimed}"
    claim = f"{players} players: no final board has a {words}"
    verdict = check_hypothesis(problem, words, beyond, "the question")
    if verdict.status is Status.UNSAT:
        return claimed, Proof.of(claim, verdict)
    model = verdict.model
    assert model is not None  # decided, not unsat: sat
    value = lambda x: model.eval(x, model_completion=True).as_long()
    board = tuple((colour, item, value(count)) for colour, row in enumerate(terms["n"])
                  for item, count in enumerate(row) if value(count))
    found = value(target)
    return found, Counterexample(claim, words, (
        (term, found), ("score", value(terms["score"])), ("tiles", value(terms["tiles"])),
        ("board", board)), None, problem.dropped)


# --- witness games ------------------------------------------------------------------------


def _others(config: Config) -> list[int]:
    own = int(config.colours[0])
    box = -1 if config.removed_colour is None else int(config.removed_colour)
    return [c for c in range(NUM_COLOURS) if c not in (own, box)]


def _fill(script: Script, colours: list[int], items: range) -> None:
    for item in items:
        for colour in colours:
            script.pair(colour * NUM_ITEMS + item, colour * NUM_ITEMS + item)
            script.keep_row()


def _end_after_the_fill(script: Script, danna: int | None) -> None:
    """The ending step: a Danna visit revealing ``danna`` (if given), then the last turns."""
    if danna is not None:
        script.danna(danna)
        script.keep_row()
    script.finish_by_mismatches()


def board_game(players: int, kind: str) -> Witness:
    """Player 0's board at an extreme: "max-score" (nine pairs of their colour), "min-score"
    (every other-colour tile of items 0 to 7, a pair of item 8 and a Danna tile of it), or
    "most-tiles" (every tile of items 0 to 7, a pair and a Danna tile of item 8)."""
    config = Config.make(players)
    script = Script(config)
    own = int(config.colours[0])
    others = _others(config)
    if kind == "max-score":
        _fill(script, [own], range(NUM_ITEMS))
        _end_after_the_fill(script, None)
    else:
        colours = others if kind == "min-score" else [own] + others
        _fill(script, colours, range(NUM_ITEMS - 1))
        _fill(script, [others[0]], range(NUM_ITEMS - 1, NUM_ITEMS))
        _end_after_the_fill(script, others[1] * NUM_ITEMS + NUM_ITEMS - 1)
    state = script.state
    assert state.result is not None
    return script.witness(f"{players} players: {kind} board of player 0",
                          reason=state.result.reason.value,
                          scores=list(state.result.scores),
                          tiles_on_boards=[sum(b) for b in state.boards])


#: A player's plan for their first turn (:func:`play_plan`): the pairs to flip, as (item, the
#: colours of its pairs), and the tile of a Danna visit (None: no visit).
Plan = tuple[tuple[tuple[int, tuple[int, ...]], ...], "int | None"]


def _colours_in_play(config: Config) -> list[int]:
    box = None if config.removed_colour is None else int(config.removed_colour)
    return [c for c in range(NUM_COLOURS) if c != box]


def _other_colours(config: Config, *players: int) -> list[int]:
    """The colours in play that are none of ``players``' colours, in the book's order."""
    mine = {int(config.colours[p]) for p in players}
    return [c for c in _colours_in_play(config) if c not in mine]


def _same_colour_plan(colours: Sequence[int], items: Sequence[int] = range(NUM_ITEMS),
                      danna: int | None = None) -> Plan:
    return tuple((item, tuple(colours)) for item in items), danna


def play_plan(config: Config, plans: dict[int, Plan], label: str) -> Script:
    """A game played by a :class:`Script` (its ``witness`` is the witness game): from a new game
    (player 0 first), players 0, 1, ... (those with a plan) each play their plan in their first
    turn: the pairs (MK-FLIP-3; every row discard kept), then, when their board is full, the
    ending step (MK-END-1) with the plan's Danna visit if any; a board not full after the pairs
    takes the Danna visit (if any) and ends the turn quietly (:meth:`Script.end_quietly`). Every
    other turn until the end changes no board (:meth:`Script.finish_by_mismatches`).
    :class:`~.script.ScriptError` if the plan cannot be played."""
    if sorted(plans) != list(range(len(plans))):
        raise ValueError("plans are for players 0, 1, ... in turn order")
    script = Script(config)
    for player in range(len(plans)):
        if script.state.phase is Phase.OVER:
            break
        if script.state.current != player:
            raise ScriptError(f"player {script.state.current} is to play, not {player}")
        pairs, danna = plans[player]
        script.pairs((c * NUM_ITEMS + item, c * NUM_ITEMS + item) for item, colours in pairs
                     for c in colours)
        if script.state.phase is Phase.ENDING:
            script.end_filling_turn(danna)
        elif danna is not None:
            script.danna(danna)
            script.keep_row()
            if script.state.phase is Phase.ENDING:
                script.end_turn()
        if script.state.phase is Phase.FIRST and script.state.current == player:
            script.end_quietly()
    script.finish_by_mismatches()
    return script


def _played(config: Config, plans: dict[int, Plan], label: str) -> Script:
    """:func:`play_plan`, a plan the engine refuses being a bug of the plan (an error of the
    query, never an answer)."""
    try:
        return play_plan(config, plans, label)
    except (ScriptError, GameError) as error:
        raise ModelInconsistency(f"the witness plan {label!r} cannot be played: {error}") from None


def _result_facts(script: Script) -> dict[str, Any]:
    result = script.state.result
    assert result is not None
    return {"winners": list(result.winners), "scores": list(result.scores),
            "own_colour": list(result.own), "reason": result.reason.value}


def shared_game(players: int, sharing: int) -> Witness:
    """A victory shared by the first ``sharing`` players: each fills their board with nine
    pairs of their own colour (player 0 triggers the end, the others fill in their last
    turns) and scores 18; the other players mismatch and score 0."""
    config = Config.make(players)
    plans = {p: _same_colour_plan([int(config.colours[p])]) for p in range(sharing)}
    label = f"{players} players: a victory shared by {sharing}"
    script = _played(config, plans, label)
    facts = _result_facts(script)
    return script.witness(label, winners=facts["winners"], scores=facts["scores"],
                          reason=facts["reason"])


#: The lowest winner's plans: every item tile in play on the boards, none of its owner's
#: colour, each player with the same number of tiles; each board is filled last on an item
#: space that takes two tiles (or a pair and a last Danna tile). Colours: 0 white, 1 purple,
#: 2 pink, 3 green (2 players: pink is in the box).
_LOWEST_WINNER_PLANS: dict[int, dict[int, Plan]] = {
    2: {0: (tuple((i, (1, 3)) for i in range(4)) + tuple((i, (1,)) for i in range(4, 9)),
            3 * NUM_ITEMS + 8),
        1: (tuple((i, (0,)) for i in range(4)) + tuple((i, (0, 3)) for i in range(4, 8))
            + ((8, (0,)),), 3 * NUM_ITEMS + 8)},
    3: {0: (tuple((i, (1, 2)) for i in range(3)) + tuple((i, (1,)) for i in range(3, 6))
            + tuple((i, (2,)) for i in range(6, 9)), None),
        1: (tuple((i, (0,)) for i in range(3)) + tuple((i, (0, 2)) for i in range(3, 6))
            + tuple((i, (3,)) for i in range(6, 9)), None),
        2: (tuple((i, (0, 1)) for i in range(6, 9)) + tuple((i, (3,)) for i in range(6)),
            None)},
    4: {p: _same_colour_plan([colour]) for p, colour in enumerate((1, 2, 3, 0))},
}


def lowest_winner_game(players: int) -> Witness:
    """Every item tile in play shared evenly among the boards, none of its owner's colour: every
    player scores minus their share and all share the victory."""
    label = f"{players} players: every player wins with the lowest score"
    script = _played(Config.make(players), _LOWEST_WINNER_PLANS[players], label)
    facts = _result_facts(script)
    return script.witness(label, winners=facts["winners"], scores=facts["scores"],
                          own_colour=facts["own_colour"], reason=facts["reason"])


def runner_up_game(players: int) -> Witness:
    """Player 0 scores 18 (nine pairs of their colour) and triggers the end; player 1, in their
    last turn, takes eight pairs of their colour and fills the board with a Danna tile of it:
    17, and player 0 wins."""
    config = Config.make(players)
    own = int(config.colours[1])
    plans = {0: _same_colour_plan([int(config.colours[0])]),
             1: _same_colour_plan([own], range(NUM_ITEMS - 1), own * NUM_ITEMS + NUM_ITEMS - 1)}
    label = f"{players} players: player 1 scores 17 and does not win"
    script = _played(config, plans, label)
    facts = _result_facts(script)
    return script.witness(label, winners=facts["winners"], scores=facts["scores"],
                          own_colour=facts["own_colour"])


def largest_lead_game(players: int) -> Witness:
    """Player 0 scores 18 and triggers the end; player 1, in their last turn, takes every tile
    of the colours neither of them plays on items 0 to 7, a pair of item 8, and a last Danna
    tile of item 8 if one of those colours is left."""
    config = Config.make(players)
    free = _other_colours(config, 0, 1)
    last = NUM_ITEMS - 1
    pairs = tuple((item, tuple(free)) for item in range(last)) + ((last, (free[0],)),)
    plans = {0: _same_colour_plan([int(config.colours[0])]),
             1: (pairs, free[1] * NUM_ITEMS + last if len(free) > 1 else None)}
    label = f"{players} players: the largest lead, player 0 over player 1"
    script = _played(config, plans, label)
    facts = _result_facts(script)
    return script.witness(label, winners=facts["winners"], scores=facts["scores"])


# --- the queries ----------------------------------------------------------------------------


def _extreme_answer(value: int, checked: Proof | Counterexample, sense: str) -> Any:
    """The extreme, or, when z3 found a board beyond the claimed one, "at least" (for a maximum)
    or "at most" (a minimum) that board's value."""
    if isinstance(checked, Proof):
        return value
    return (("at_least" if sense == "max" else "at_most", value),)


def _split(checked: Sequence[Proof | Counterexample]) -> dict[str, tuple]:
    return {"proofs": tuple(c for c in checked if isinstance(c, Proof)),
            "counterexamples": tuple(c for c in checked if isinstance(c, Counterexample))}


def score_range(deadline: Deadline, *, without: Sequence[str] = ()) -> Finding:
    answer, checked, witnesses = [], [], []
    for players in PLAYER_COUNTS:
        high, up = extreme(players, "score", "max", deadline, without=without)
        low, down = extreme(players, "score", "min", deadline, without=without)
        for kind, value, check in (("max-score", high, up), ("min-score", low, down)):
            if not isinstance(check, Proof):
                continue  # the witness games show the extremes of the real rules
            witness = board_game(players, kind)
            if dict(witness.shows)["scores"][0] != value:
                raise ModelInconsistency(f"{players} players: the {kind} game scores "
                                         f"{dict(witness.shows)['scores'][0]}, z3 says {value}")
            witnesses.append(witness)
        answer.append((f"{players} players", (("highest", _extreme_answer(high, up, "max")),
                                              ("lowest", _extreme_answer(low, down, "min")))))
        checked += [up, down]
    return Finding(answer=tuple(answer), witnesses=tuple(witnesses), **_split(checked),
                   notes=("the lowest score is reached by a player who fills their board with "
                          "other colours and ends it: after the fill only one tutor tile can "
                          "join (MK-END-1, MK-TUTOR-1)",))


def most_tiles_on_board(deadline: Deadline, *, without: Sequence[str] = ()) -> Finding:
    answer, checked, witnesses = [], [], []
    for players in PLAYER_COUNTS:
        most, check = extreme(players, "tiles", "max", deadline, without=without)
        if isinstance(check, Proof):
            witness = board_game(players, "most-tiles")
            if dict(witness.shows)["tiles_on_boards"][0] != most:
                raise ModelInconsistency(f"{players} players: the game holds "
                                         f"{dict(witness.shows)['tiles_on_boards'][0]}, z3 "
                                         f"{most}")
            witnesses.append(witness)
        answer.append((f"{players} players", _extreme_answer(most, check, "max")))
        checked.append(check)
    return Finding(answer=tuple(answer), witnesses=tuple(witnesses), **_split(checked),
                   notes=("no moment of play exceeds the end: a board only grows until it is "
                          "full, and the bound counts its last tutor tile",))


def shared_victory(deadline: Deadline, *, without: Sequence[str] = ()) -> Finding:
    """MK-SCORE-4: for every number of winners from 2 to N, z3 finds a final position of the
    ending model with exactly that many, and a witness game ends so; a number z3 finds no
    position for is answered "no" with its unsat core."""
    answer, witnesses, checked = [], [], []
    for players in PLAYER_COUNTS:
        ending = Ending(Config.make(players), without=without)
        sizes = []
        for sharing in range(2, players + 1):
            label = f"exactly {sharing} winners"
            verdict = decide(ending, deadline, f"{players} players: never {sharing} winners",
                             label, [ending.winners_count() == sharing])
            checked.append(verdict)
            if isinstance(verdict, Proof):
                continue
            witness = shared_game(players, sharing)
            if len(dict(witness.shows)["winners"]) != sharing:
                raise ModelInconsistency(f"the game meant to be shared by {sharing} is not")
            witnesses.append(witness)
            sizes.append(sharing)
        answer.append((f"{players} players", tuple(sizes)))
    return Finding(answer=tuple(answer), witnesses=tuple(witnesses),
                   proofs=tuple(c for c in checked if isinstance(c, Proof)),
                   notes=("every number of winners from 2 to N occurs: players tied on points "
                          "and on own-colour tiles share the victory (MK-SCORE-4), as when each "
                          "fills their board with nine pairs of their colour; z3's position for "
                          "each is in the ending model, and a witness game each",))


def _optimum_per_count(deadline: Deadline, what: str, sense: str,
                       cases: Callable[[Ending], list[tuple[z3.ArithRef, Any]]],
                       witness_of: Callable[[int], Witness],
                       reading: Callable[[dict[str, Any]], int], why: str,
                       shape: Callable[[Any], Any] = lambda value: value, *,
                       without: Sequence[str] = (),
                       claimed: dict[int, int] | None = None) -> Finding:
    """One extreme per player count over the ending model (:func:`.model.optimum`): z3's value
    with the proof that nothing lies beyond it, and the witness game of ``witness_of``, whose
    facts must show that value (``reading``); the answer gives ``shape(value)``. With
    ``claimed`` (per player count) or ``without`` the claim is decided either way: a claim that
    fails answers "at least" (a maximum) or "at most" (a minimum) the value z3 finds beyond
    it, with that position as the counterexample and no witness game."""
    answer, checked, witnesses = [], [], []
    for players in PLAYER_COUNTS:
        ending = Ending(Config.make(players), without=without)
        found = optimum(ending, cases(ending), sense, what, deadline, of=f"{players} players",
                        claimed=None if claimed is None else claimed.get(players))
        checked.append(found.check)
        if found.proved and not without:
            witness = witness_of(players)
            shown = reading(dict(witness.shows))
            if shown != found.value:
                raise ModelInconsistency(f"{witness.label}: the game shows {what} {shown}, z3's "
                                         f"extreme is {found.value}")
            witnesses.append(witness)
        answer.append((f"{players} players", shape(_extreme_answer(found.value, found.check,
                                                                   sense))))
    return Finding(answer=tuple(answer), witnesses=tuple(witnesses), **_split(checked),
                   notes=(why,))


def winner_nonpositive(deadline: Deadline, **options: Any) -> Finding:
    """MK-SCORE-2: the lowest score a winner can have (an unsat core for one less, a witness
    game at it); a winner scores zero or less exactly when that lowest is."""
    def shape(value: Any) -> Any:
        low = value if isinstance(value, int) else dict(value)["at_most"]
        return (("possible", low <= 0), ("lowest", value))

    return _optimum_per_count(
        deadline, "a winner's score", "min",
        lambda ending: [(seat.score, seat.winner) for seat in ending.seats],
        lowest_winner_game, lambda facts: max(facts["scores"]),
        ("the scores add up to at least minus the item tiles in play, so the best of N players "
         "scores at least minus 1/N of them; the witness games share every item tile evenly, "
         "none of its owner's colour, and all the players share the victory"), shape,
        **options)


def loser_highest_score(deadline: Deadline, **options: Any) -> Finding:
    """MK-SCORE-2..4: the highest score of a player who does not win (an unsat core for one
    more, a witness game at it)."""
    return _optimum_per_count(
        deadline, "a non-winner's score", "max",
        lambda ending: [(seat.score, z3.Not(seat.winner)) for seat in ending.seats],
        runner_up_game,
        lambda facts: max(score for p, score in enumerate(facts["scores"])
                          if p not in facts["winners"]),
        ("a tie on 18 points is always shared: 18 points means all 18 tiles of one's colour "
         "and no other, so the first tie-break (MK-SCORE-3) ties too"), **options)


def largest_lead(deadline: Deadline, **options: Any) -> Finding:
    """The largest lead of a winner over another player (the spread of the final scores: the
    player with the most points is always among the winners): an unsat core for one more, a
    witness game at it."""
    return _optimum_per_count(
        deadline, "a winner's lead over another player", "max",
        lambda ending: [(a.score - b.score, a.winner) for a in ending.seats
                        for b in ending.seats if a is not b],
        largest_lead_game, lambda facts: max(facts["scores"]) - min(facts["scores"]),
        ("the leader's best is their 18 tiles; the other's worst is a board filled with the "
         "colours neither plays (their own would score, the leader's would cost the leader as "
         "much), bounded as a filled board is (MK-END-1)"), **options)
