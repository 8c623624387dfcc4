"""The test game's rules (tests/testgame/rules.md), one test per rule at least, and its codecs and
record format. The generic properties of tests/test_core_properties.py check the rest."""

from __future__ import annotations

import itertools
import json
import random
import sys
from pathlib import Path

import jsonschema
import pytest

from hanamikoji.properties.core.cite import checks
from hypothesis import given, settings

from hanamikoji.engine.core.errors import IllegalActionError, InvalidActionError, OptionError
from hanamikoji.engine.core.game import CHANCE, TERMINAL, IllegalRecordError, MalformedRecordError
from hanamikoji.properties.core import strategies as s

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:  # the test game is the package testgame of tests/
    sys.path.insert(0, str(TESTS))

from testgame.game import GAME, Config, Deal, Move  # noqa: E402

CHECK, BET, CALL, FOLD = Move.CHECK, Move.BET, Move.CALL, Move.FOLD


def dealt(cards=(0, 1, 2), first=0):
    """A game of len(cards) players just after the deal ``cards``."""
    return GAME.apply(GAME.new_game(Config(len(cards)), first), Deal(tuple(cards)))


def play(state, *moves):
    for move in moves:
        state = GAME.apply(state, move)
    return state


def refused(state, decision, error=IllegalActionError):
    before = state
    with pytest.raises(error) as caught:
        GAME.apply(state, decision)
    assert state == before
    return caught.value.rule


def test_the_spec_has_the_rules_the_game_cites():
    from hanamikoji.spec.core.coverage import RULE_ID, rule_ids_in

    rules = [rule for rule, _ in rule_ids_in((TESTS / "testgame" / "rules.md").read_text())]
    assert rules == ["TG-SETUP-1", "TG-SETUP-2", "TG-DEAL-1", "TG-TURN-1", "TG-BET-1",
                     "TG-BET-2", "TG-END-1", "TG-END-2", "TG-INFO-1"]
    cited = set(RULE_ID.findall((TESTS / "testgame" / "game.py").read_text()))
    assert cited == set(rules)
    assert all(rule.startswith(GAME.rule_prefix) for rule in rules)


# --- setup and the deal ----------------------------------------------------------------------


@checks("TG-SETUP-1", "TG-SETUP-2")
@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_player_antes_one_of_two_chips(players):
    # TG-SETUP-1, TG-SETUP-2
    state = GAME.new_game(GAME.configure({"players": players}), players - 1)
    assert state.stacks == (1,) * players and state.pot == players
    assert GAME.current_player(state) == CHANCE and state.deck == tuple(range(players + 1))
    assert GAME.ledger(state) == {**{f"card {c}": 1 for c in range(players + 1)},
                                  "chips": 2 * players}


def test_three_to_five_players_and_a_first_player_among_them():
    # TG-SETUP-1
    for players in (2, 6, "3"):
        with pytest.raises(OptionError):
            GAME.configure({"players": players})
    assert GAME.configure() == Config(3)
    for first in (-1, 3, True, "0"):
        with pytest.raises(InvalidActionError) as caught:
            GAME.new_game(Config(3), first)
        assert caught.value.rule == "TG-SETUP-1"


@checks("TG-DEAL-1", "TG-SETUP-2")
def test_the_deal_is_every_ordered_choice_of_distinct_cards_equally_likely():
    # TG-DEAL-1, TG-SETUP-2: (n + 1)! / 1! deals of n cards out of n + 1.
    for players, count in ((3, 24), (4, 120), (5, 720)):
        state = GAME.new_game(Config(players))
        outcomes = GAME.chance_outcomes(state)
        deals = [deal for deal, _ in outcomes]
        assert len(deals) == count == len(set(deals))
        assert {p for _, p in outcomes} == {1 / count}
        assert set(deals) == {Deal(c) for c in itertools.permutations(range(players + 1), players)}
        drawn = {GAME.sample_chance(state, random.Random(seed)) for seed in range(12 * count)}
        assert drawn <= set(deals) and len(drawn) == count


@checks("TG-DEAL-1", "TG-SETUP-2")
def test_a_deal_must_give_distinct_cards_of_the_deck_one_to_each_player():
    # TG-DEAL-1, TG-SETUP-2
    state = GAME.new_game(Config(3))
    assert refused(state, Deal((0, 0, 1))) == "TG-DEAL-1"
    assert refused(state, Deal((0, 1))) == "TG-DEAL-1"
    assert refused(state, Deal((0, 1, 4))) == "TG-SETUP-2"
    assert refused(state, Deal((0, 1, "2")), InvalidActionError) is None
    assert refused(state, CHECK) == "TG-DEAL-1"  # nobody decides before the deal
    after = dealt((3, 1, 0))
    assert after.deck == (2,) and GAME.current_player(after) == 0
    assert refused(after, Deal((0, 1, 2))) == "TG-DEAL-1"  # one deal, first


# --- betting ---------------------------------------------------------------------------------


@checks("TG-TURN-1")
def test_the_turn_passes_to_the_left_from_the_first_player():
    # TG-TURN-1
    state = dealt((0, 1, 2, 3), first=2)
    order = []
    while GAME.current_player(state) != TERMINAL and len(order) < 3:
        order.append(GAME.current_player(state))
        state = GAME.apply(state, CHECK)
    assert order == [2, 3, 0]


def test_until_someone_bets_a_player_checks_or_bets():
    # TG-BET-1: all check: a showdown among everyone.
    state = dealt((0, 2, 1))
    assert GAME.legal_actions(state) == (CHECK, BET)
    assert refused(state, CALL) == "TG-BET-1" and refused(state, FOLD) == "TG-BET-1"
    over = play(state, CHECK, CHECK, CHECK)
    assert over.outcome.winners == (1,) and over.outcome.reason == "showdown"
    assert over.stacks == (1, 4, 1) and over.pot == 0


def test_after_a_bet_each_other_player_calls_or_folds_once():
    # TG-BET-2: player 1 bets; 2 and then 0 answer; nobody bets twice.
    state = play(dealt((0, 2, 3)), CHECK, BET)
    assert GAME.legal_actions(state) == (CALL, FOLD) and state.pot == 4
    assert refused(state, CHECK) == "TG-BET-2" and refused(state, BET) == "TG-BET-2"
    state = GAME.apply(state, FOLD)
    assert GAME.current_player(state) == 0
    over = GAME.apply(state, CALL)
    assert over.outcome.winners == (1,) and over.shown == (0, 1)  # the bettor's 2 beats 0
    assert over.stacks == (0, 5, 1) and GAME.ledger(over)["chips"] == 6


@checks("TG-END-1")
def test_the_highest_card_of_those_still_in_wins_and_a_lone_bettor_shows_nothing():
    # TG-END-1
    over = play(dealt((3, 0, 1)), BET, FOLD, FOLD)
    assert over.outcome.reason == "folds" and over.outcome.winners == (0,)
    assert over.shown == () and over.outcome.scores == (4, 1, 1)
    assert GAME.observe(over, 1).shown == (None, None, None)
    over = play(dealt((3, 0, 1)), CHECK, BET, CALL, FOLD)  # player 0 folds the highest card
    assert over.outcome.winners == (2,) and over.shown == (1, 2)


@checks("TG-END-2")
def test_nothing_follows_the_end():
    # TG-END-2
    over = play(dealt(), CHECK, CHECK, CHECK)
    assert GAME.current_player(over) == TERMINAL and GAME.legal_actions(over) == ()
    for decision in (CHECK, CALL, Deal((0, 1, 2)), None):
        assert refused(over, decision) == "TG-END-2"


def test_a_game_has_one_of_1_plus_n_times_2_to_the_n_minus_1_betting_rounds():
    # TG-BET-1, TG-BET-2: walked through legal_actions, against the count from the rules
    # (everyone checks, or k players check, the next bets and the n - 1 others each answer).
    def walk(state):
        if GAME.is_terminal(state):
            return 1
        return sum(walk(GAME.apply(state, move)) for move in GAME.legal_actions(state))

    for players in (3, 4, 5):
        assert walk(dealt(tuple(range(players)))) == 1 + players * 2 ** (players - 1)
        assert GAME.max_decisions(Config(players)) == 1 + (players - 1) + 1 + (players - 1)


# --- what a player sees ----------------------------------------------------------------------


def test_a_player_sees_their_card_and_at_a_showdown_the_cards_shown():
    # TG-INFO-1
    state = play(dealt((2, 0, 3)), BET)
    views = [GAME.observe(state, p) for p in range(3)]
    assert [v.card for v in views] == [2, 0, 3]
    assert all(v.shown == (None, None, None) for v in views)
    over = play(state, FOLD, CALL)
    assert GAME.observe(over, 1).shown == (2, None, 3)
    assert GAME.view_to_json(GAME.observe(over, 1))["card"] == 0


@settings(max_examples=50)
@given(played=s.playthroughs(GAME), seed=s.seeds())
def test_resampling_keeps_what_the_player_saw_and_moves_only_hidden_cards(played, seed):
    # TG-INFO-1
    state = played.final
    for player in GAME.players(state):
        other = GAME.resample(state, player, random.Random(seed))
        assert GAME.observe(other, player) == GAME.observe(state, player)
        if state.cards is not None:
            kept = [player, *state.shown]
            assert all(other.cards[p] == state.cards[p] for p in kept)


def test_resampling_reaches_every_deal_the_player_cannot_rule_out():
    # TG-INFO-1: player 0 holds 1; the others' cards and the left-over card are any of 0, 2, 3.
    state = dealt((1, 2, 3))
    seen = {GAME.resample(state, 0, random.Random(seed)).cards for seed in range(300)}
    assert seen == {(1, a, b) for a, b in itertools.permutations((0, 2, 3), 2)}


# --- codecs and records ----------------------------------------------------------------------


def test_decisions_and_views_go_through_json():
    assert GAME.decision_to_json(Deal((2, 0, 1))) == {"deal": [2, 0, 1]}
    assert GAME.decision_to_json(FOLD) == {"move": "fold"}
    assert GAME.decision_from_json({"move": "call"}) is CALL
    for junk in ({"move": "raise"}, {"deal": [0, True]}, "check", {"deal": [], "move": "bet"}):
        with pytest.raises(InvalidActionError, match=r"^\$\.x: expected"):
            GAME.decision_from_json(junk, "$.x")
    assert json.loads(json.dumps(GAME.view_to_json(GAME.observe(dealt(), 0))))["card"] == 0


def _every_game(players):
    for cards in itertools.permutations(range(players + 1), players):
        stack = [dealt(cards, first=cards[-1] % players)]
        while stack:
            state = stack.pop()
            if GAME.is_terminal(state):
                yield state
            else:
                stack.extend(GAME.apply(state, m) for m in GAME.legal_actions(state))


@checks("TG-SETUP-1", "TG-TURN-1", "TG-END-1")
def test_every_game_of_three_writes_a_record_that_follows_the_schema_and_reads_back():
    # TG-SETUP-1, TG-TURN-1, TG-END-1: 24 deals times 13 betting rounds.
    validator = jsonschema.Draft202012Validator(GAME.record_schema())
    validator.check_schema(GAME.record_schema())
    finals = list(_every_game(3))
    assert len(finals) == 24 * 13
    for final in finals:
        record = GAME.to_record(final)
        validator.validate(record)
        assert GAME.read_record(json.loads(json.dumps(record))) == final


@checks("TG-TURN-1", "TG-END-1", "TG-DEAL-1", "TG-END-2")
def test_a_record_breaking_a_rule_names_it_and_where():
    # TG-TURN-1, TG-END-1, TG-DEAL-1, TG-END-2
    record = GAME.to_record(play(dealt((0, 1, 2)), CHECK, BET, CALL, FOLD))
    wrong_player = json.loads(json.dumps(record))
    wrong_player["moves"][2]["player"] = 0
    wrong_result = {**record, "result": {**record["result"], "winners": [1]}}
    duplicate_card = {**record, "deal": [0, 0, 2]}
    too_long = {**record, "moves": record["moves"] + [{"player": 1, "move": "check"}]}
    cases = [(wrong_player, "TG-TURN-1", 2), (wrong_result, "TG-END-1", None),
             (duplicate_card, "TG-DEAL-1", None), (too_long, "TG-END-2", 4)]
    for bad, rule, move in cases:
        with pytest.raises(IllegalRecordError) as caught:
            GAME.read_record(bad)
        assert (caught.value.rule, caught.value.where) == (rule, {"move": move})


@pytest.mark.parametrize("change, path", [
    ({"format": "testgame-record/2"}, "$.format"),
    ({"players": 2}, "$.players"),
    ({"first_player": 7}, "$.first_player"),
    ({"deal": "0,1,2"}, "$.deal"),
    ({"moves": [{"player": 0}]}, "$.moves[0]"),
    ({"moves": [{"player": 0, "move": "raise"}]}, "$.moves[0].move"),
    ({"colour": "red"}, "$.colour"),
])
def test_a_malformed_record_names_the_json_path(change, path):
    record = {**GAME.to_record(dealt()), **change}
    with pytest.raises(MalformedRecordError) as caught:
        GAME.read_record(record)
    assert caught.value.path == path
    assert not jsonschema.Draft202012Validator(GAME.record_schema()).is_valid(record)


def test_the_display_tells_the_whole_game():
    assert GAME.render(play(dealt((0, 2, 3), first=1), CHECK, BET, FOLD, FOLD)) == [
        "Kuhn poker, 3 players, player 1 first; each antes 1: pot 3",
        "deal: player 0 holds 0, player 1 holds 2, player 2 holds 3; card 1 left over",
        "player 1 checks", "player 2 bets", "player 0 folds", "player 1 folds",
        "a win for player 2 by folds; stacks 1, 1, 4",
    ]
