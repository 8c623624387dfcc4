"""The ending model (spec/maiko/model.py) and the queries it answers: shared-victory,
winner-nonpositive, loser-highest-score and largest-lead.

The model is a sound relaxation, so it is checked against the engine: every final position of
random and greedy games (and every witness) satisfies it, and a position one tile beyond the
fullest board does not. Each proof's core is checked rule by rule (without any one of its rules
the question one beyond becomes satisfiable), each answer is recomputed without z3 (the engine's
own ranking over enumerated boards, arithmetic over ``Config.tiles``), and each claim is seen
failing: claimed one short, or with a rule dropped, it answers "at least"/"at most" with the
position z3 found beyond, which the test recomputes.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Iterable
from types import SimpleNamespace
from typing import Any

import attrs
import pytest
import z3

from hanamikoji.engine.maiko import (
    FRIEND,
    Config,
    Danna,
    Flip,
    OkaSan,
    Phase,
    Reason,
    State,
    apply,
    legal_actions,
    new_game,
    random_layout,
)
from hanamikoji.engine.maiko.components import NUM_COLOURS, NUM_ITEMS
from hanamikoji.engine.maiko.game import DOWN, EMPTY, board_full, decide
from hanamikoji.properties.core.cite import checks
from hanamikoji.spec.core.queries import Counterexample, Proof
from hanamikoji.spec.core.solver import Constraint, Deadline, Problem, Status
from hanamikoji.spec.maiko import findings
from hanamikoji.spec.maiko.findings import extreme
from hanamikoji.spec.maiko.model import Ending, decide as decide_claim, optimum
from hanamikoji.spec.maiko.queries import by_name

COUNTS = (2, 3, 4)
ENDING_QUERIES = ("shared-victory", "winner-nonpositive", "loser-highest-score", "largest-lead")


@functools.cache
def answer(name: str):
    return by_name(name).run()


def per_count(name: str) -> dict[int, Any]:
    return {n: answer(name).answer_json()[f"{n} players"] for n in COUNTS}


# --- the answers, and a second method for each ------------------------------------------------


def _ranks(boards: list[tuple[int, int]]) -> tuple[int, ...]:
    """The engine's own ranking (:func:`decide`) of boards given as (own, other) tile counts:
    each board is laid as that many tiles of its player's colour and of another colour."""
    config = Config.make(len(boards))
    laid = []
    for p, (own, other) in enumerate(boards):
        board = [0] * (NUM_ITEMS * NUM_COLOURS)
        colour = int(config.colours[p])
        foreign = next(c for c in range(NUM_COLOURS) if c != colour)
        for k in range(own):
            board[(k % NUM_ITEMS) * NUM_COLOURS + colour] += 1
        for k in range(other):
            board[(k % NUM_ITEMS) * NUM_COLOURS + foreign] += 1
        laid.append(tuple(board))
    return decide(SimpleNamespace(config=config, boards=tuple(laid)), Reason.FULL_BOARD).winners


@checks("MK-SCORE-2", "MK-SCORE-3", "MK-SCORE-4")
def test_the_highest_losing_score_agrees_with_the_engines_ranking():
    """Enumerate two boards (own tiles up to 18, others up to 3) and let the engine rank them:
    the best score of a board that does not win is 17 for every player count, as the model
    says; and the witness game's loser scores it."""
    best = None
    for a_own, a_other, b_own, b_other in __import__("itertools").product(
            range(19), range(4), range(19), range(4)):
        winners = _ranks([(a_own, a_other), (b_own, b_other)])
        if 1 not in winners:
            score = b_own - b_other
            best = score if best is None else max(best, score)
    assert per_count("loser-highest-score") == {n: best for n in COUNTS} == {2: 17, 3: 17, 4: 17}
    for witness in answer("loser-highest-score").witnesses:
        state = witness.confirm()
        assert 1 not in state.result.winners and state.result.scores[1] == best


@checks("MK-SCORE-1", "MK-SCORE-2", "MK-SETUP-3", "MK-SETUP-4")
def test_the_lowest_winner_is_minus_the_item_tiles_over_the_players():
    """The best of N scores is at least their average: minus the item tiles in play (counted
    from the engine's layout) over N, rounded towards zero, and every witness game shares the
    tiles so that everybody wins with exactly that."""
    for n in COUNTS:
        items = sum(1 for code in Config.make(n).tiles if code != FRIEND)
        assert per_count("winner-nonpositive")[n] == {"possible": True, "lowest": -(items // n)}
    for witness in answer("winner-nonpositive").witnesses:
        state = witness.confirm()
        n = state.config.players
        assert state.result.reason is Reason.FULL_BOARD
        assert state.result.winners == tuple(range(n))
        assert sum(state.result.own) == 0 and sum(map(sum, state.boards)) == sum(
            1 for code in state.config.tiles if code != FRIEND)


@checks("MK-SCORE-1", "MK-END-1")
def test_the_largest_lead_is_18_plus_the_fullest_board_of_the_colours_neither_plays():
    """18 for the leader (their colour, MK-COMP-1) and the fullest board of the colours neither
    player plays (every tile of eight items, at most 3 of the last: MK-END-1), from the layout;
    the witness games' spread is that lead."""
    for n in COUNTS:
        config = Config.make(n)
        free = Counter(code % NUM_ITEMS for code in config.tiles if code != FRIEND
                       and code // NUM_ITEMS not in (int(config.colours[0]),
                                                     int(config.colours[1])))
        total = sum(free.values())
        fullest = max(total - free[i] + min(3, free[i]) for i in range(NUM_ITEMS))
        assert per_count("largest-lead")[n] == 18 + fullest
    for witness in answer("largest-lead").witnesses:
        state = witness.confirm()
        assert state.result.winners == (0,)
        n = state.config.players
        assert state.result.scores[0] - state.result.scores[1] == per_count("largest-lead")[n]


@checks("MK-SCORE-1", "MK-COMP-1", "MK-END-1")
def test_the_ending_model_and_the_board_model_agree_on_the_score_range():
    """Two models of the end, built apart (the board model of one final board, findings.py; the
    ending model of a whole final position, model.py), find the same extremes of a score."""
    for n in COUNTS:
        ending = Ending(Config.make(n))
        cases = [(s.score, True) for s in ending.seats]
        for sense in ("max", "min"):
            found = optimum(ending, cases, sense, "a player's score", Deadline())
            assert found.proved
            assert found.value == extreme(n, "score", sense, Deadline())[0]


# --- cores: the rules a proof names are the rules it needs ------------------------------------


BEYOND = {
    "winner-nonpositive": ("below", lambda value: value["lowest"] - 1,
                           lambda e, v: [z3.And(s.winner, s.score <= v) for s in e.seats]),
    "loser-highest-score": ("above", lambda value: value + 1,
                            lambda e, v: [z3.And(z3.Not(s.winner), s.score >= v)
                                          for s in e.seats]),
    "largest-lead": ("above", lambda value: value + 1,
                     lambda e, v: [z3.And(a.winner, a.score - b.score >= v)
                                   for a in e.seats for b in e.seats if a is not b]),
}


@pytest.mark.parametrize("players", COUNTS)
@pytest.mark.parametrize("name", sorted(BEYOND))
def test_every_rule_of_a_core_is_needed(name, players):
    """Drop any one rule of a proof's core and one beyond the answer becomes satisfiable: so a
    test that a rule is in a core can fail. The cores name MK rules only, the question apart."""
    word, beyond, cases = BEYOND[name]
    proof = next(p for p in answer(name).proofs if p.claim.startswith(f"{players} players:"))
    assert proof.rules and all(r.startswith("MK-") for r in proof.rules)
    assert proof.hypotheses and all(h.startswith("question: ") for h in proof.hypotheses)
    assert f" {word} " in proof.claim
    ending = Ending(Config.make(players))
    question = z3.Or(cases(ending, beyond(per_count(name)[players])))

    def status(dropped: str | None) -> Status:
        problem = Problem(Deadline(), cores=False)
        for rule, where, formula in ending.parts:
            if rule != dropped:
                problem.require([Constraint(rule, formula)], where)
        problem.require([Constraint("question: one beyond", question)], "the question")
        return problem.check().status

    assert status(None) is Status.UNSAT
    for rule in proof.rules:
        assert status(rule) is Status.SAT, rule


# --- either way -----------------------------------------------------------------------------


def test_a_lead_claimed_one_short_answers_at_least_with_the_position_beyond():
    """Claim 35 / 52 / 52 for the largest lead: the claim fails, the answer is "at least" the
    true lead, and the counterexample's own scores (recomputed from its boards) show a winner
    that far ahead; no witness game is claimed for a failed claim."""
    truth = per_count("largest-lead")
    found = findings.largest_lead(Deadline(), claimed={n: truth[n] - 1 for n in COUNTS})
    assert not found.proofs and len(found.counterexamples) == 3 and not found.witnesses
    answered = dict(found.answer)
    for n, counter in zip(COUNTS, found.counterexamples):
        assert dict(answered[f"{n} players"]) == {"at_least": truth[n]}
        values = dict(counter.values)
        colours = Config.make(n).colours
        scores = [sum(k if name.split("-")[0] == colours[p].name.lower() else -k
                      for name, k in board.items()) for p, board in enumerate(values["boards"])]
        assert scores == values["scores"]
        assert any(scores[w] - s >= truth[n] for w in values["winners"] for s in scores)


@checks("MK-SCORE-4")
def test_without_the_shared_victory_rule_a_loser_can_score_18():
    """Drop MK-SCORE-4 (every player nobody beats wins) and a player with 18 need not win: the
    claim "a non-winner scores at most 17" fails, with the position z3 found; with the rule,
    the same claim is proved."""
    found = findings.loser_highest_score(Deadline(), without=("MK-SCORE-4",),
                                         claimed={n: 17 for n in COUNTS})
    assert not found.witnesses and len(found.counterexamples) == 3
    for counter in found.counterexamples:
        assert counter.without == ("MK-SCORE-4",)
        values = dict(counter.values)
        assert any(s >= 18 and p not in values["winners"] for p, s in enumerate(values["scores"]))
    assert {dict(v)["at_least"] for _, v in found.answer} == {18}
    kept = findings.loser_highest_score(Deadline(), claimed={n: 17 for n in COUNTS})
    assert len(kept.proofs) == 3 and not kept.counterexamples


@checks("MK-SCORE-2")
def test_shared_victory_without_the_winner_rule_still_decides_and_a_fifth_winner_is_refuted():
    """More winners than players is refuted with a core that names the winners' rules; the
    query's claims are decided (a shared victory is a model of z3's, then a game)."""
    ending = Ending(Config.make(2))
    verdict = decide_claim(ending, Deadline(), "never 3 winners of 2", "exactly 3 winners",
                           [ending.winners_count() == 3])
    assert isinstance(verdict, Proof) and verdict.rules == ()  # two Booleans cannot count to 3
    verdict = decide_claim(ending, Deadline(), "never 2 winners", "exactly 2 winners",
                           [ending.winners_count() == 2])
    assert isinstance(verdict, Counterexample)
    assert len(dict(verdict.values)["winners"]) == 2
    weak = Ending(Config.make(2), without=("MK-SCORE-2", "MK-SCORE-3"))
    verdict = decide_claim(weak, Deadline(), "the lower score never wins",
                           "a winner scores less than another player",
                           [z3.And(a.winner, a.score < b.score)
                            for a in weak.seats for b in weak.seats if a is not b])
    assert isinstance(verdict, Counterexample)
    strong = decide_claim(ending, Deadline(), "the lower score never wins",
                          "a winner scores less than another player",
                          [z3.And(a.winner, a.score < b.score)
                           for a in ending.seats for b in ending.seats if a is not b])
    assert isinstance(strong, Proof) and strong.rules == ("MK-SCORE-2",)


# --- the model is sound on engine games -------------------------------------------------------


def _greedy(state: State, rng: random.Random) -> Any:
    """A player who takes what they can: the pair of a first tile when one lies face down, a
    last visit (Danna, Oka-san) after a full board, and otherwise a random decision."""
    actions = legal_actions(state)
    if state.phase is Phase.SECOND:
        item = state.layout[state.pending] % NUM_ITEMS
        pairs = [a for a in actions if isinstance(a, Flip) and state.layout[a.space] != FRIEND
                 and state.layout[a.space] % NUM_ITEMS == item]
        if pairs:
            return rng.choice(pairs)
    if state.phase is Phase.ENDING:
        visits = [a for a in actions if isinstance(a, (Danna, OkaSan))]
        if visits:
            return rng.choice(visits)
    if state.phase is Phase.FIRST and rng.random() < 0.8:
        flips = [a for a in actions if isinstance(a, Flip)]
        if flips:
            return rng.choice(flips)
    return rng.choice(actions)


def _games(players: int, count: int) -> Iterable[tuple[State, list[State]]]:
    config = Config.make(players)
    for g in range(count):
        rng = random.Random(f"maiko-model/{players}/{g}")
        state = apply(new_game(config, g % players), random_layout(config, rng))
        moments = []
        for step in range(4_000):
            if state.phase is Phase.OVER:
                break
            state = apply(state, _greedy(state, rng) if g % 2 else rng.choice(
                legal_actions(state)))
            if step % 150 == 0 or state.phase is Phase.ENDING:
                moments.append(state)
        yield state, moments


@checks("MK-END-1", "MK-END-2", "MK-END-4", "MK-END-5", "MK-STATIC-1", "MK-SCORE-2",
        "MK-SCORE-3", "MK-SCORE-4")
@pytest.mark.parametrize("players", COUNTS)
def test_the_model_admits_every_final_position_the_engine_reaches(players):
    """Soundness: every final position of random and greedy games satisfies the ending model
    (boards, discards, the game board, tokens, the reason and the winners), and positions
    during play the moment model; the bound of a filled board is exercised."""
    end, moment = Ending(Config.make(players)), Ending(Config.make(players), moment=True)
    reasons, full = Counter(), 0
    for state, moments in _games(players, 10):
        for position in moments[-4:]:
            assert moment.admits(position), position.steps[-1]
        if state.phase is Phase.OVER:
            reasons[state.result.reason] += 1
            full += sum(board_full(b) for b in state.boards)
            assert end.admits(state), state.result
    assert reasons[Reason.FULL_BOARD] and full


def test_the_model_admits_the_witness_games_and_refutes_a_position_beyond_them():
    """The witnesses sit on the bounds and satisfy the model; one tile more on the fullest
    board of the score-range witness is refuted, and so is a wrong winner."""
    for name in ENDING_QUERIES:
        for witness in answer(name).witnesses:
            state = witness.confirm()
            assert Ending(state.config).admits(state), witness.label
    lowest = next(w for w in answer("score-range").witnesses if "min-score" in w.label).confirm()
    board = list(lowest.boards[0])
    item = next(i for i in range(NUM_ITEMS) if sum(board[i * 4:i * 4 + 4]) == 3)
    colour = next(c for c in range(NUM_COLOURS) if board[item * 4 + c] < 2
                  and lowest.config.removed_colour != c and c != lowest.config.colours[0])
    spaces = list(lowest.spaces)
    space = next((s for s, v in enumerate(spaces) if v == DOWN
                  and lowest.layout[s] == colour * NUM_ITEMS + item), None)
    assert space is not None
    board[item * 4 + colour] += 1  # that tile comes off the game board onto the board
    spaces[space] = EMPTY
    beyond = attrs.evolve(lowest, boards=(tuple(board),) + lowest.boards[1:],
                          spaces=tuple(spaces))
    assert not Ending(beyond.config).admits(beyond)
    wrong = attrs.evolve(lowest, result=attrs.evolve(lowest.result, winners=(0,)))
    assert lowest.result.winners != (0,) and not Ending(wrong.config).admits(wrong)
