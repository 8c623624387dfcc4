"""Every claim can fail: each yes/no or bound claim of Hanamikoji's catalogue is
decided either way. Asked with a rule left out, or with the opposite bound, each query gives the
opposite answer, with a counterexample whose decoded values answer the question (recomputed here
in plain Python or in the engine, never read back from z3), and a witness game exactly where
the engine shows it."""

from __future__ import annotations

import functools
import json

from hanamikoji.oracle.core.validate import Status as Verdict
from hanamikoji.oracle.core.validate import judge_bytes
from hanamikoji.engine.hanamikoji import charm, geisha_count
from hanamikoji.properties.core.cite import checks
from hanamikoji.spec.core.verify import evidence_text
from hanamikoji.spec.hanamikoji import confirm, findings
from hanamikoji.spec.hanamikoji.model import Deadline
from hanamikoji.spec.hanamikoji.queries import by_name

from .test_queries import answer, rule_ids

START = (None,) * 7


def deadline() -> Deadline:
    return Deadline()


def wins(mine, theirs) -> int:
    return sum(1 for a, b in zip(mine, theirs) if a > b)


def held(row, player: int) -> int:
    return sum(1 for m in row if m == player)


def scored_round(state, before, sides, after):
    """The round of the engine's game that goes from ``before`` with ``sides`` to ``after``."""
    rows = [START] + [score.markers for score in state.scores]
    return next((i for i, score in enumerate(state.scores)
                 if rows[i] == tuple(before) and score.markers == tuple(after)
                 and tuple(map(tuple, score.sides)) == tuple(map(tuple, sides))), None)


def valid_record(witness) -> bool:
    """What ``hanamikoji validate`` says of the witness's game record."""
    return judge_bytes(json.dumps(witness.to_json()["record"]).encode()).status is Verdict.VALID


def only_counterexample(found):
    (counterexample,) = found.counterexamples
    assert found.proofs == () and counterexample.claim
    return counterexample


# --- the real answers rest on proofs ---------------------------------------------------------


def test_the_catalogue_answers_say_which_side_they_are_on():
    """The claims of the real rules hold (unsat cores); tiebreak-readings-agree has both sides;
    the counts check no claim. --json says so."""
    sides = {name: answer(name).to_json().get("side") for name in (
        "scored-cards-per-side", "max-round-wins", "max-geisha-at-end", "win-every-geisha",
        "unbounded-game", "both-eleven-charm", "charm-wording-equivalent",
        "tiebreak-readings-agree", "round-outcome-pairs")}
    assert sides == {"scored-cards-per-side": "proof", "max-round-wins": "proof",
                     "max-geisha-at-end": "proof", "win-every-geisha": "proof",
                     "unbounded-game": "proof", "both-eleven-charm": "proof",
                     "charm-wording-equivalent": "proof", "tiebreak-readings-agree": "both",
                     "round-outcome-pairs": None}
    for proof in answer("win-every-geisha").to_json()["proofs"]:
        assert proof["holds"] is True


# --- one round -----------------------------------------------------------------------------


@checks("SCORE-1")
def test_scored_cards_per_side_answers_the_totals_when_the_claim_fails():
    """SCORE-1: claimed 7 cards a side, z3 finds a round whose sides hold another number; the
    answer is the totals z3 enumerates, and the engine plays that round."""
    found = findings.scored_cards_per_side(deadline(), claim=7)
    counterexample = only_counterexample(found)
    sides = counterexample.value("sides")
    assert counterexample.value("side totals") == (sum(sides[0]), sum(sides[1]))
    assert 7 not in (sum(sides[0]), sum(sides[1])) or sum(sides[0]) != sum(sides[1])
    assert dict(found.answer)["side_totals"] == ((8, 8),)
    (witness,) = found.witnesses
    state = witness.confirm()
    assert tuple(map(tuple, state.scores[0].sides)) == sides and counterexample.reached
    assert valid_record(witness)
    assert findings.scored_cards_per_side(deadline(), claim=8).answer == 8


@checks("SCORE-2", "DEAL-1", "COMP-2")
def test_max_round_wins_answers_at_least_when_the_bound_is_too_low():
    """SCORE-2: asked whether 4 is the most, z3 finds a round in which a player wins more; the
    answer is "at least" that many, and the engine plays the round."""
    found = findings.max_round_wins(deadline(), best=4)
    counterexample = only_counterexample(found)
    sides = counterexample.value("sides")
    counted = (wins(*sides), wins(*sides[::-1]))
    assert counterexample.value("wins") == counted and max(counted) > 4
    assert dict(found.answer) == {"at_least": max(counted)}
    (witness,) = found.witnesses
    state = witness.confirm()
    assert scored_round(state, counterexample.value("before"), sides,
                        counterexample.value("after")) is not None
    assert valid_record(witness)


@checks("DEAL-1", "COMP-2")
def test_max_round_wins_answers_at_most_when_the_bound_is_too_high():
    """DEAL-1, COMP-2: asked whether 6 is the most, "no player wins more than 6" holds and "a
    player wins 6" fails, both by unsat cores: at most 5, and no witness. Winning 6 of 7 with 8
    cards a side needs 7 cards of one geisha for the other player: the deck forbids it."""
    found = findings.max_round_wins(deadline(), best=6)
    assert dict(found.answer) == {"at_most": 5} and found.witnesses == ()
    assert len(found.proofs) == 2 and found.counterexamples == ()
    assert all(set(proof.rules) <= rule_ids() for proof in found.proofs)
    assert {"DEAL-1", "COMP-2"} <= set(found.proofs[1].rules)
    assert max(wins(a, b) for a, b in confirm.enumerated_pairs()) < 6


@checks("SCORE-4", "END-2")
def test_max_geisha_at_end_answers_at_least_when_the_bound_is_too_low():
    """SCORE-4: asked whether 5 is the most, z3 finds a round after which a player holds 6;
    the engine plays a game through it."""
    found = findings.max_geisha_at_end(deadline(), best=5)
    counterexample = only_counterexample(found)
    after = counterexample.value("after")
    assert counterexample.value("geisha") == (held(after, 0), held(after, 1))
    assert max(held(after, 0), held(after, 1)) > 5
    assert dict(found.answer) == {"at_least": max(counterexample.value("geisha"))}
    (witness,) = found.witnesses
    state = witness.confirm()
    assert scored_round(state, counterexample.value("before"), counterexample.value("sides"),
                        after) is not None
    assert valid_record(witness)


@checks("SCORE-4", "END-2")
def test_max_geisha_at_end_answers_at_most_when_the_bound_is_too_high():
    """END-2: asked whether 7 is reached at the end, z3 proves it is not, from every row a game
    reaches (a derived hypothesis, labelled, not a rule; the core may not need it, since no
    round from any open row gives seven)."""
    found = findings.max_geisha_at_end(deadline(), best=7)
    assert dict(found.answer) == {"at_most": 6} and found.witnesses == ()
    reached = found.proofs[1]
    assert reached.rules and set(reached.rules) <= rule_ids()
    assert set(reached.hypotheses) <= {findings.OPEN_LABEL,
                                       "hypothesis: a game ends with a player holding 7 geisha"}
    assert confirm.max_geisha_at_end() == 6


@checks("SCORE-3")
def test_win_every_geisha_without_score_3_answers_yes_with_no_game():
    """SCORE-3 is in the core of "no player holds all seven"; without it a tied geisha's
    marker may go anywhere and z3 finds a player with all seven. The engine keeps a tied marker
    in place, so no game reaches it: there is no witness."""
    assert "SCORE-3" in answer("win-every-geisha").proof
    found = findings.win_every_geisha(deadline(), without=("SCORE-3",))
    counterexample = only_counterexample(found)
    after = counterexample.value("after")
    assert 7 in (held(after, 0), held(after, 1))
    assert found.answer is True and counterexample.without == ("SCORE-3",)
    assert counterexample.reached is False and found.witnesses == ()


@checks("SCORE-3")
def test_unbounded_game_without_score_3_answers_no_with_a_tie_round_that_moves():
    """SCORE-3: without it a round in which every geisha ties may move a marker; the claim that
    tie rounds keep every open row fails, so the answer is no."""
    found = findings.unbounded_game(deadline(), without=("SCORE-3",))
    counterexample = only_counterexample(found)
    a, b = counterexample.value("sides")
    assert a == b
    before, after = counterexample.value("before"), counterexample.value("after")
    assert before != after or STANDARD_GOAL(after)
    assert found.answer is False and counterexample.reached is False and found.witnesses == ()


def STANDARD_GOAL(row) -> bool:
    from hanamikoji.engine.hanamikoji import STANDARD

    return STANDARD.goal_result(tuple(row)) is not None


# --- marker rows ---------------------------------------------------------------------------


@checks("COMP-1")
def test_both_eleven_charm_without_comp_1_answers_yes_on_a_row_the_engine_scores_otherwise():
    """COMP-1: without the charm values, both players can hold 11+ charm; the engine's charm
    of that row is not 11 and 11, so no game shows it."""
    found = findings.both_eleven_charm(deadline(), without=("COMP-1",))
    counterexample = only_counterexample(found)
    row = counterexample.value("row")
    assert min(counterexample.value("charm")) >= 11
    assert counterexample.value("geisha") == (held(row, 0), held(row, 1))
    assert min(charm(row, 0), charm(row, 1)) < 11
    assert found.answer is True and found.witnesses == () and counterexample.reached is False


@checks("SCORE-4")
def test_both_four_geisha_without_score_4_answers_yes():
    """SCORE-4: without "a player's geisha are the markers on their side", both can count 4."""
    found = findings.both_four_geisha(deadline(), without=("SCORE-4",))
    counterexample = only_counterexample(found)
    assert min(counterexample.value("geisha")) >= 4 and found.answer is True
    row = counterexample.value("row")
    assert min(geisha_count(row, 0), geisha_count(row, 1)) < 4 and found.witnesses == ()


@checks("COMP-1")
def test_rulebook_example_without_comp_1_answers_yes_for_either_player_on_top():
    """COMP-1: without the charm values the rulebooks' example row exists, whoever is on top:
    two counterexamples, each with 3 geisha and 8 charm against 4 geisha and 11 charm."""
    found = findings.rulebook_example(deadline(), without=("COMP-1",))
    assert found.answer is True and found.proofs == () and len(found.counterexamples) == 2
    for top, counterexample in enumerate(found.counterexamples):
        row = counterexample.value("row")
        assert counterexample.value("geisha")[top] == held(row, top) == 3
        assert counterexample.value("geisha")[1 - top] == held(row, 1 - top) == 4
        assert (counterexample.value("charm")[top], counterexample.value("charm")[1 - top]) \
            == (8, 11)


@checks("END-4")
def test_charm_wording_without_end_4_answers_no_with_a_double_finish():
    """END-4 is in the core; without it "the player with 11+ charm wins" names nobody in
    particular, and z3 finds a double finish where the two wordings differ."""
    assert "END-4" in answer("charm-wording-equivalent").proof
    found = findings.charm_wording_equivalent(deadline(), without=("END-4",))
    counterexample = only_counterexample(found)
    row = counterexample.value("row")
    assert any(geisha_count(row, p) >= 4 and charm(row, 1 - p) >= 11 for p in (0, 1))
    assert counterexample.value("winner (11+ charm)") != counterexample.value(
        "winner (more charm)")
    assert found.answer is False
    for witness in found.witnesses:  # a game reaches the row: the engine shows it
        assert row in [score.markers for score in witness.confirm().scores]


@checks("VAR-IT-3")
def test_tiebreak_counterexamples_are_rows_where_the_readings_differ_in_python():
    """VAR-IT-3: each pair of readings that differs comes with a row; each reading, computed
    again in plain Python (confirm.READINGS), differs there too."""
    found = answer("tiebreak-readings-agree")
    assert len(found.counterexamples) == 4
    for counterexample in found.counterexamples:
        row = counterexample.value("row")
        names = [k[len("reading ("):-1] for k, _ in counterexample.values if k != "row"]
        x, y = names
        assert confirm.READINGS[x](row) != confirm.READINGS[y](row)
        assert charm(row, 0) == charm(row, 1)
        assert counterexample.reached == (row in confirm.limit_rows())


# --- the answer, end to end ------------------------------------------------------------------


@checks("SCORE-3")
def test_a_failing_claim_is_an_answer_on_the_counterexample_side(monkeypatch, capsys):
    """Through the catalogue: a query whose claim fails is answered (not an error), its JSON
    says side "counterexample" with the decoded values, and so do the text and the report."""
    from hanamikoji.cli.main import main

    monkeypatch.setattr(findings, "win_every_geisha",
                        functools.partial(findings.win_every_geisha, without=("SCORE-3",)))
    # the second method knows the real rules; here it is told the weakened answer
    monkeypatch.setattr(confirm, "win_every_geisha", lambda: True)
    found = by_name("win-every-geisha").run()
    assert found.answered and found.answer is True and found.side == "counterexample"
    document = json.loads(json.dumps(found.to_json()))
    assert document["side"] == "counterexample" and "proofs" not in document
    (shown,) = document["counterexamples"]
    assert shown["holds"] is False and shown["without"] == ["SCORE-3"]
    assert 7 in (held(shown["values"]["after"], 0), held(shown["values"]["after"], 1))
    assert evidence_text(found).startswith("counterexample: a player holds all seven geisha")
    assert main(["query", "win-every-geisha"]) == 0
    out = capsys.readouterr().out
    assert "side:    counterexample" in out and "fails:   no round leaves" in out
