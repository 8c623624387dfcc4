"""Every claim can fail, Maiko: the board extremes, the fewest turns and flips, the
gone-for-good invariant and the potential argument are each decided either way. Asked with the
opposite bound or a rule left out, each gives the opposite answer with a counterexample whose
decoded values answer the question, recomputed here in plain Python."""

from __future__ import annotations

import functools
import math
from collections import Counter

from hanamikoji.engine.maiko import FRIEND, Config
from hanamikoji.properties.core.cite import checks
from hanamikoji.spec.core.queries import Answer, Counterexample, Proof
from hanamikoji.spec.core.solver import Deadline
from hanamikoji.spec.maiko import findings, reach


def deadline() -> Deadline:
    return Deadline()


def plain_score(players: int, board) -> tuple[int, int]:
    """Score (own colour less the rest, MK-SCORE-1) and tiles of a decoded board, and a check
    that it holds no more tiles than are in play (MK-COMP-1, MK-SETUP-3/4)."""
    config = Config.make(players)
    in_play = Counter(t for t in config.tiles if t != FRIEND)
    own = int(config.colours[0])
    for colour, item, count in board:
        assert 0 < count <= in_play[colour * 9 + item] <= 2
    tiles = sum(count for _, _, count in board)
    owned = sum(count for colour, _, count in board if colour == own)
    return owned - (tiles - owned), tiles


# --- one final board -------------------------------------------------------------------------


@checks("MK-SCORE-1", "MK-COMP-1")
def test_a_highest_score_claimed_too_low_answers_with_a_board_beyond():
    """MK-SCORE-1, MK-COMP-1: claimed 17, z3 finds a final board scoring more; its score,
    recomputed from the decoded tiles, is the one returned."""
    value, found = findings.extreme(2, "score", "max", deadline(), claimed=17)
    assert isinstance(found, Counterexample) and value > 17
    score, tiles = plain_score(2, found.value("board"))
    assert score == found.value("score") == value and tiles == found.value("tiles")
    assert found.reached is None  # a final board, not a game: no witness
    value, proof = findings.extreme(2, "score", "max", deadline(), claimed=18)
    assert isinstance(proof, Proof) and value == 18


@checks("MK-END-1", "MK-SETUP-4")
def test_a_lowest_score_claimed_too_high_answers_with_a_board_below():
    """MK-END-1, MK-SETUP-4: claimed -34, z3 finds a final board scoring less."""
    value, found = findings.extreme(2, "score", "min", deadline(), claimed=-34)
    assert isinstance(found, Counterexample) and value < -34
    assert plain_score(2, found.value("board"))[0] == value


@checks("MK-END-1")
def test_most_tiles_on_board_answers_at_least_when_each_claim_is_too_low(monkeypatch):
    """MK-END-1: through the query, each player count's claim one below the real most fails;
    the answer says "at least" the tiles of the board z3 found, with no witness game."""
    real = findings.extreme

    def one_below(players, term, sense, deadline, **options):
        most, _ = real(players, term, sense, deadline)
        return real(players, term, sense, deadline, claimed=most - 1)

    monkeypatch.setattr(findings, "extreme", one_below)
    found = findings.most_tiles_on_board(deadline())
    assert found.proofs == () and found.witnesses == () and len(found.counterexamples) == 3
    for (players, shown), counterexample in zip(found.answer, found.counterexamples):
        ((kind, tiles),) = shown
        assert kind == "at_least" and tiles == counterexample.value("tiles")
        assert plain_score(int(players[0]), counterexample.value("board"))[1] == tiles


# --- the counting model ----------------------------------------------------------------------


def consistent_counts(players: int, counterexample: Counterexample) -> None:
    """The counts z3 decoded obey the counting rules, recomputed in Python: MK-TURN-1 (turns
    go round), MK-TURN-2 (each turn ends one way), MK-FLIP-3/4 (two flips a pair or mismatch),
    MK-TUTOR-1 (one visit a turn)."""
    values = dict(counterexample.values)
    turns, per = values["turns"], values["turns_by_player"]
    assert list(per) == [math.ceil((turns - j) / players) for j in range(players)]
    for j in range(players):
        ends = sum(values[k][j] for k in ("friends_flipped", "danna_friends", "mismatches",
                                          "ending_steps", "unended"))
        assert ends == per[j] and values["visits"][j] <= per[j]
    assert values["flips"] >= 2 * sum(values["pairs"]) + 2 * sum(values["mismatches"]) + sum(
        values["friends_flipped"])


@checks("MK-TURN-1", "MK-TURN-2", "MK-END-2")
def test_a_fewest_turns_claimed_too_high_answers_at_most():
    """MK-TURN-1, MK-END-2: claimed that a two-player full-board game takes 3 turns, z3 finds
    one of fewer (the counting model's counts, checked here); the answer says "at most"."""
    best = reach.fewest(2, "full-board", deadline(), claimed={"turns": 3})
    assert not best.proved and [q for q, _ in best.refuted] == ["turns"]
    (counterexample,) = best.counterexamples
    assert counterexample.value("turns") <= 2
    consistent_counts(2, counterexample)
    assert dict(best.to_answer())["turns"] == (("at_most", counterexample.value("turns")),)
    assert all(isinstance(p, Proof) for p in best.proofs)  # the flips claim still holds


@checks("MK-COMP-3", "MK-FLIP-2")
def test_an_ending_no_game_can_reach_answers_not_possible_with_a_core():
    """MK-COMP-3, MK-FLIP-2: from a position with no face-down tile, no token and empty
    boards, no board can be filled: z3 proves no full-board game, and the answer says so."""
    start = reach.Start(2, 0, (0, 0), (0,) * 9, 0, ((0, 0, 0), (0, 0, 0)))
    best = reach.fewest(2, "full-board", deadline(), start)
    assert not best.possible and best.to_answer() == (("possible", False),)
    (proof,) = best.proofs
    assert proof.rules and all(r.startswith("MK-") for r in proof.rules)
    assert any(h.startswith("position: ") for h in proof.hypotheses)


@checks("MK-TURN-1", "MK-END-2")
def test_static_reachable_answers_at_most_with_no_witness_when_its_claims_fail(monkeypatch):
    """Through the query: every minimum claimed one higher fails; the answer is still
    reachable, "at most" z3's counts, the side is "counterexample", and no witness game is
    built for minima that do not hold."""
    real = reach.fewest

    def one_higher(players, reason, deadline, start=None, **options):
        best = real(players, reason, deadline, start)
        return real(players, reason, deadline, start, claimed={"turns": best.turns + 1})

    monkeypatch.setattr(reach, "fewest", one_higher)
    found = reach.static_reachable(deadline())
    assert found.witnesses == () and len(found.counterexamples) == 3
    side = Answer("static-reachable", "", "", "answered", found.answer, 0.0, found.proofs,
                  found.witnesses, counterexamples=found.counterexamples).side
    assert side == "both"  # the flips claims still hold
    for (players, shown), counterexample in zip(found.answer, found.counterexamples):
        shown = dict(shown)
        assert shown["reachable"] is True
        assert shown["turns"] == (("at_most", counterexample.value("turns")),)
        consistent_counts(int(players[0]), counterexample)


# --- dead positions --------------------------------------------------------------------------


@checks("MK-TUTOR-OKASAN-1")
def test_the_invariant_without_oka_san_fails_on_an_oka_san_visit():
    """MK-TUTOR-OKASAN-1 is in the invariant's core; without it Oka-san may bring a missing
    item back, and the counterexample is such a visit: X gone before, not gone after."""
    found = reach.invariant_check(deadline(), without=("MK-TUTOR-OKASAN-1",))
    assert isinstance(found, Counterexample) and found.without == ("MK-TUTOR-OKASAN-1",)
    assert found.value("decision") == "oka_san"
    assert found.value("before") == (0, 0, 0) and found.value("after") != (0, 0, 0)


@checks("MK-STATIC-2", "MK-TUTOR-OKASAN-1")
def test_dead_not_static_answers_from_its_checks(monkeypatch):
    """The three yes/no answers come from z3's checks, not from constants: with the invariant
    weakened, "can go on for ever by choice" is no, with its counterexample; the real
    answer's never-ending trap (without MK-STATIC-2) is a counterexample too."""
    real = reach.dead_not_static(deadline())
    answer = dict(real.answer)
    assert answer["can_go_on_for_ever_by_choice"] is True
    assert answer["can_reach_a_position_that_never_ends"] is False
    (trap,) = real.counterexamples
    assert trap.without == ("MK-STATIC-2",)
    assert dict(answer["without_MK_STATIC_2"])["trap"] == trap.values
    monkeypatch.setattr(reach, "invariant_check", functools.partial(
        reach.invariant_check, without=("MK-TUTOR-OKASAN-1",)))
    weak = reach.dead_not_static(deadline())
    assert dict(weak.answer)["can_go_on_for_ever_by_choice"] is False
    assert [c.claim for c in weak.counterexamples][0] == reach.INVARIANT
