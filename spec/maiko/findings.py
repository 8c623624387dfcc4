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
``Config.tiles``.

>>> from hanamikoji.spec.core.solver import Deadline
>>> extreme(2, "score", "max", Deadline(30))[0]
18
"""

from __future__ import annotations

from typing import Any

import z3

from hanamikoji.engine.maiko import Config
from hanamikoji.engine.maiko.components import FRIEND, NUM_COLOURS, NUM_ITEMS
from hanamikoji.spec.core.queries import Finding, ModelInconsistency, Proof
from hanamikoji.spec.core.solver import Constraint, Deadline, Problem, Status

from .script import Script
from .witness import Witness

PLAYER_COUNTS = (2, 3, 4)


def _copies(config: Config) -> list[list[int]]:
    counts = [[0] * NUM_ITEMS for _ in range(NUM_COLOURS)]
    for code in config.tiles:
        if code != FRIEND:
            counts[code // NUM_ITEMS][code % NUM_ITEMS] += 1
    return counts


def board_problem(players: int, deadline: Deadline) -> tuple[Problem, dict[str, Any]]:
    """The board model for player 0 (colour white, MK-SETUP-1's default) of a game of
    ``players``; the problem and its terms (``score``, ``tiles``, ``n``)."""
    config = Config.make(players)
    copies = _copies(config)
    own = int(config.colours[0])
    problem = Problem(deadline)
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


def extreme(players: int, term: str, sense: str, deadline: Deadline
            ) -> tuple[int, Proof]:
    """The maximum or minimum of ``term`` ("score" or "tiles") on player 0's final board, and
    the proof that one beyond it is impossible."""
    problem, terms = board_problem(players, deadline)
    target = terms[term]
    optimiser = z3.Optimize()
    optimiser.set("timeout", deadline.timeout_ms())
    for assertion in problem.solver.assertions():
        optimiser.add(assertion)
    # the tracked constraints are implications from their labels: assume every label
    labels = [z3.Bool(name) for name in problem._names]  # noqa: SLF001 - the tracking literals
    optimiser.add(*labels)
    handle = optimiser.maximize(target) if sense == "max" else optimiser.minimize(target)
    if optimiser.check() != z3.sat:
        raise ModelInconsistency(f"the board model of {players} players has no {term}")
    value = (optimiser.upper(handle) if sense == "max" else optimiser.lower(handle)).as_long()
    beyond = target >= value + 1 if sense == "max" else target <= value - 1
    words = f"{term} {'above' if sense == 'max' else 'below'} {value}"
    problem.require([Constraint(f"hypothesis: {words}", beyond)], "the question")
    verdict = problem.check().decided()
    if verdict.status is not Status.UNSAT:
        raise ModelInconsistency(f"{players} players: z3 finds {value} and then a {words}")
    return value, Proof(f"{players} players: no final board has a {words}", verdict.rules,
                        tuple(h.split(" @ ")[0] for h in verdict.hypotheses))


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


def score_range(deadline: Deadline) -> Finding:
    answer, proofs, witnesses = [], [], []
    for players in PLAYER_COUNTS:
        high, up = extreme(players, "score", "max", deadline)
        low, down = extreme(players, "score", "min", deadline)
        for kind, value in (("max-score", high), ("min-score", low)):
            witness = board_game(players, kind)
            if dict(witness.shows)["scores"][0] != value:
                raise ModelInconsistency(f"{players} players: the {kind} game scores "
                                         f"{dict(witness.shows)['scores'][0]}, z3 says {value}")
            witnesses.append(witness)
        answer.append((f"{players} players", (("highest", high), ("lowest", low))))
        proofs += [up, down]
    return Finding(answer=tuple(answer), proofs=tuple(proofs), witnesses=tuple(witnesses),
                   notes=("the lowest score is reached by a player who fills their board with "
                          "other colours and ends it: after the fill only one tutor tile can "
                          "join (MK-END-1, MK-TUTOR-1)",))


def most_tiles_on_board(deadline: Deadline) -> Finding:
    answer, proofs, witnesses = [], [], []
    for players in PLAYER_COUNTS:
        most, proof = extreme(players, "tiles", "max", deadline)
        witness = board_game(players, "most-tiles")
        if dict(witness.shows)["tiles_on_boards"][0] != most:
            raise ModelInconsistency(f"{players} players: the game holds "
                                     f"{dict(witness.shows)['tiles_on_boards'][0]}, z3 {most}")
        answer.append((f"{players} players", most))
        proofs.append(proof)
        witnesses.append(witness)
    return Finding(answer=tuple(answer), proofs=tuple(proofs), witnesses=tuple(witnesses),
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
