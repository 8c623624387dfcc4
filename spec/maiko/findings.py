"""What one maiko board can hold when a game ends: Maiko's scoring queries.

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

from typing import Any, Sequence

import z3

from hanamikoji.engine.maiko import Config
from hanamikoji.engine.maiko.components import FRIEND, NUM_COLOURS, NUM_ITEMS
from hanamikoji.spec.core.queries import Counterexample, Finding, ModelInconsistency, Proof
from hanamikoji.spec.core.solver import (
    Constraint,
    Deadline,
    Problem,
    Status,
    Undecided,
    check_hypothesis,
)

from .script import Script
from .witness import Witness

PLAYER_COUNTS = (2, 3, 4)


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
        optimiser.set("timeout", deadline.timeout_ms())
        for assertion in problem.solver.assertions():
            optimiser.add(assertion)
        # the tracked constraints are implications from their labels: assume every label
        labels = [z3.Bool(name) for name in problem._names]  # noqa: SLF001 - tracking literals
        optimiser.add(*labels)
        handle = optimiser.maximize(target) if sense == "max" else optimiser.minimize(target)
        outcome = optimiser.check()
        if outcome == z3.unknown:
            raise Undecided(Status.UNKNOWN, f"z3 could not optimise {term}: "
                            f"{optimiser.reason_unknown()}")
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


def shared_game(players: int, sharing: int) -> Witness:
    """A game won by the first ``sharing`` players together: each fills their board with nine
    pairs of their own colour (player 0 first, the others in their last turns), and the others
    end their last turns with a mismatch."""
    config = Config.make(players)
    script = Script(config)
    for player in range(players):
        if player < sharing:
            colour = int(config.colours[player])
            _fill(script, [colour], range(NUM_ITEMS))
            script.end_turn()
        elif script.state.result is None:
            script.end_by_mismatch()
    script.finish_by_mismatches()
    result = script.state.result
    assert result is not None
    return script.witness(f"{players} players: a victory shared by {sharing}",
                          winners=list(result.winners), reason=result.reason.value)


def negative_winner_game() -> Witness:
    """Two players: player 0 fills their board with nine pairs of another colour (-18), player
    1 takes one pair of another colour in their last turn (-2) and wins with -2."""
    config = Config.make(2)
    script = Script(config)
    others = _others(config)
    _fill(script, [others[0]], range(NUM_ITEMS))
    script.end_turn()
    colour = others[1]
    script.pair(colour * NUM_ITEMS, colour * NUM_ITEMS)
    script.end_by_mismatch()
    result = script.state.result
    assert result is not None
    return script.witness("2 players: the winner scores -2", winners=list(result.winners),
                          scores=list(result.scores))


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


def shared_victory(deadline: Deadline) -> Finding:
    answer, witnesses = [], []
    for players in PLAYER_COUNTS:
        sizes = []
        for sharing in range(2, players + 1):
            witness = shared_game(players, sharing)
            if len(dict(witness.shows)["winners"]) != sharing:
                raise ModelInconsistency(f"the game meant to be shared by {sharing} is not")
            witnesses.append(witness)
            sizes.append(sharing)
        answer.append((f"{players} players", tuple(sizes)))
    return Finding(answer=tuple(answer), witnesses=tuple(witnesses),
                   notes=("every number of winners from 2 to N occurs: a witness each",))


def winner_nonpositive(deadline: Deadline) -> Finding:
    witness = negative_winner_game()
    scores = dict(witness.shows)["scores"]
    winners = dict(witness.shows)["winners"]
    best = max(scores[w] for w in winners)
    return Finding(answer=(("possible", best <= 0), ("witness winner score", best)),
                   witnesses=(witness,),
                   notes=("the lowest score a winner can have is not computed by this query",))
