"""Example-based tests of the reference engine, each citing the rules it checks."""

from __future__ import annotations

import itertools
import pickle
import random

import attrs
import pytest

from hanamikoji.engine.hanamikoji import (
    CHANCE,
    CHARM,
    FULL_DECK,
    ITALIAN_THREE_ROUNDS,
    STANDARD,
    TERMINAL,
    ActionKind,
    Competition,
    CompetitionPick,
    Deal,
    Gift,
    GiftPick,
    IllegalActionError,
    InvalidActionError,
    Phase,
    Reason,
    Result,
    Rules,
    Secret,
    TradeOff,
    apply,
    charm,
    current_player,
    geisha_count,
    legal_actions,
    new_game,
    observe,
    random_deal,
    random_game,
    replay,
)
from hanamikoji.engine.hanamikoji import cards as C
from hanamikoji.engine.hanamikoji.construct import round_for_sides, tie_sides
from hanamikoji.properties.core.cite import checks

# A fixed deal: removed 6; P0 holds 0 0 1 1 2 2, P1 holds 3 3 3 4 4 4; the deck is 5 5 5 5 6 6 6 6.
DEAL = Deal(removed=6, hands=((0, 0, 1, 1, 2, 2), (3, 3, 3, 4, 4, 4)),
            draws=(5, 5, 5, 5, 6, 6, 6, 6))


def dealt(rules: Rules = STANDARD, first_player: int = 0):
    return apply(new_game(rules, first_player), DEAL)


@checks("COMP-1", "COMP-2")
def test_components():
    """COMP-1, COMP-2: seven geisha of charm 2,2,2,3,3,4,5 and as many items each: 21 cards."""
    assert CHARM == (2, 2, 2, 3, 3, 4, 5)
    assert FULL_DECK == CHARM and sum(FULL_DECK) == 21


@checks("COMP-4", "SETUP-1")
def test_new_game_has_neutral_markers_and_waits_for_the_deal():
    """COMP-4, SETUP-1: all markers in the centre; the first player is a parameter."""
    state = new_game(STANDARD, first_player=1)
    assert state.markers == (None,) * 7
    assert current_player(state) == CHANCE and legal_actions(state) == ()
    assert state.starter == 1
    with pytest.raises(InvalidActionError):
        new_game(STANDARD, first_player=2)


@checks("DEAL-2", "DEAL-3", "DEAL-4", "TURN-2")
def test_deal_lays_out_the_round_and_the_starter_draws():
    """DEAL-2, DEAL-3, DEAL-4, TURN-2: one removed, six each, eight in the deck; the starter
    draws the top card before acting."""
    state = dealt()
    assert state.removed == 6
    assert state.hands[0] == C.counts((0, 0, 1, 1, 2, 2, 5))  # six plus the drawn 5
    assert state.hands[1] == C.counts((3, 3, 3, 4, 4, 4))
    assert state.deck == (5, 5, 5, 6, 6, 6, 6)
    assert current_player(state) == 0 and state.phase is Phase.ACTION


@checks("DEAL-1")
def test_random_deal_holds_all_21_cards():
    """DEAL-1: every deal is a permutation of the 21 cards."""
    for seed in range(50):
        deal = random_deal(random.Random(seed))
        assert deal.multiset() == FULL_DECK


@checks("DEAL-1")
def test_a_deal_without_the_21_cards_is_illegal():
    """DEAL-1: a deal must hold exactly the 21 item cards."""
    bad = attrs.evolve(DEAL, removed=5)  # five 5s: one too many, one 6 short
    with pytest.raises(IllegalActionError) as error:
        apply(new_game(), bad)
    assert error.value.rule == "DEAL-1"


@checks("ACT-SECRET-1", "ACT-SECRET-2")
def test_secret_goes_face_down_and_is_scored_at_the_end():
    """ACT-SECRET-1: one card from the hand, face down; ACT-SECRET-2: only its owner sees it."""
    state = apply(dealt(), Secret(5))
    assert state.secrets[0] == C.counts((5,))
    assert state.hands[0] == C.counts((0, 0, 1, 1, 2, 2))
    assert state.sides == (C.EMPTY, C.EMPTY)
    assert observe(state, 0).secret == C.counts((5,))
    assert observe(state, 1).secret == C.EMPTY and observe(state, 1).opponent_secret_size == 1
    assert observe(state, 1).log[0].cards is None and observe(state, 0).log[0].cards == (5,)


@checks("ACT-TRADE-1", "ACT-TRADE-3")
def test_trade_off_takes_two_cards_out_of_the_round():
    """ACT-TRADE-1, ACT-TRADE-3: two cards face down, on no side."""
    state = apply(dealt(), TradeOff((0, 5)))
    assert state.trade_offs[0] == C.counts((0, 5))
    assert state.hands[0] == C.counts((0, 1, 1, 2, 2))
    assert state.sides == (C.EMPTY, C.EMPTY)
    assert observe(state, 1).trade_off == C.EMPTY and observe(state, 1).opponent_trade_off_size == 2


@checks("ACT-GIFT-1", "TURN-4")
def test_gift_opponent_takes_one_player_keeps_two():
    """ACT-GIFT-1..3, TURN-4: three face up; the opponent takes one before the next turn."""
    state = apply(dealt(), Gift((0, 1, 5)))
    assert state.phase is Phase.RESPONSE and current_player(state) == 1
    assert legal_actions(state) == (GiftPick(0), GiftPick(1), GiftPick(5))
    after = apply(state, GiftPick(5))
    assert after.sides == (C.counts((0, 1)), C.counts((5,)))
    assert after.hands[0] == C.counts((0, 1, 2, 2))
    assert current_player(after) == 1 and after.turn == 1


@checks("ACT-COMP-1")
def test_competition_opponent_takes_a_set_player_keeps_the_other():
    """ACT-COMP-1..3: four face up in two sets; the opponent takes one set, the player the other."""
    state = apply(dealt(), Competition(((0, 5), (1, 2))))
    assert legal_actions(state) == (CompetitionPick((0, 5)), CompetitionPick((1, 2)))
    after = apply(state, CompetitionPick((0, 5)))
    assert after.sides == (C.counts((1, 2)), C.counts((0, 5)))
    assert after.hands[0] == C.counts((0, 1, 2))


@checks("ACT-COMP-2")
def test_competition_with_equal_sets_has_one_answer():
    """ACT-COMP-2: one entry per distinct outcome."""
    state = apply(dealt(), Competition(((0, 1), (0, 1))))
    assert legal_actions(state) == (CompetitionPick((0, 1)),)


@checks("TURN-3")
def test_legal_actions_are_sorted_distinct_and_respect_used_markers():
    """TURN-3: only unused actions; ACT-*-1: only cards in hand; one entry per outcome."""
    state = dealt()
    actions = legal_actions(state)
    assert list(actions) == sorted(set(actions))
    # Hand 0 0 1 1 2 2 5: 4 secrets, 10 trade-offs, 16 gifts, competitions from 4-card multisets.
    assert sum(isinstance(a, Secret) for a in actions) == 4
    assert sum(isinstance(a, TradeOff) for a in actions) == len(C.sub_multisets(state.hands[0], 2))
    state = apply(apply(state, Secret(5)), TradeOff((3, 3)))
    assert not any(isinstance(a, Secret) for a in legal_actions(state))


@checks("TURN-3")
def test_an_action_cannot_be_used_twice_in_a_round():
    """TURN-3: each action once per round."""
    state = apply(apply(dealt(), Secret(5)), Secret(3))
    with pytest.raises(IllegalActionError) as error:
        apply(state, Secret(0))
    assert error.value.rule == "TURN-3"


@checks("ACT-SECRET-1", "ACT-TRADE-1", "ACT-GIFT-1", "ACT-COMP-1")
@pytest.mark.parametrize("action, rule", [
    (Secret(6), "ACT-SECRET-1"),
    (TradeOff((5, 5)), "ACT-TRADE-1"),
    (Gift((0, 0, 0)), "ACT-GIFT-1"),
    (Competition(((3, 3), (0, 0))), "ACT-COMP-1"),
])
def test_cards_not_in_hand_are_rejected_and_state_is_unchanged(action, rule):
    """ACT-SECRET-1, ACT-TRADE-1, ACT-GIFT-1, ACT-COMP-1: cards must come from the hand."""
    state = dealt()
    before = attrs.evolve(state)
    with pytest.raises(IllegalActionError) as error:
        apply(state, action)
    assert error.value.rule == rule and state == before
    assert isinstance(error.value, ValueError)


@checks("ACT-GIFT-2", "ACT-COMP-2", "TURN-3", "TURN-4")
def test_answer_must_be_offered_and_must_come_before_the_next_turn():
    """ACT-GIFT-2, ACT-COMP-2, TURN-4; a pick where an action is due breaks TURN-3 (the
    decision due is the player's action), not the rule of an offer there is not."""
    state = apply(dealt(), Gift((0, 1, 5)))
    with pytest.raises(IllegalActionError) as error:
        apply(state, GiftPick(2))
    assert error.value.rule == "ACT-GIFT-2"
    with pytest.raises(IllegalActionError) as error:
        apply(state, Secret(3))
    assert error.value.rule == "TURN-4"
    for pick in (CompetitionPick((0, 1)), GiftPick(2)):
        with pytest.raises(IllegalActionError) as error:
            apply(dealt(), pick)
        assert error.value.rule == "TURN-3" and "is to take an action" in str(error.value)


@checks("COMP-2")
def test_malformed_decisions_are_a_different_error():
    """COMP-2: a card is a geisha number 0..6; shapes are checked at construction."""
    for bad in (lambda: Secret(7), lambda: Secret(True), lambda: Gift((1, 2)),
                lambda: Competition(((1, 2, 3), (4,))), lambda: TradeOff("ab")):
        with pytest.raises(InvalidActionError):
            bad()
    assert not issubclass(InvalidActionError, IllegalActionError)


@checks("TURN-1", "TURN-2")
def test_turns_alternate_and_each_draws():
    """TURN-1, TURN-2: starter first, then alternate; every turn starts with a draw."""
    state = dealt(first_player=0)
    players = []
    rng = random.Random(4)
    while state.phase is not Phase.DEAL and state.phase is not Phase.OVER:
        if state.phase is Phase.ACTION:
            players.append(current_player(state))
        state = apply(state, rng.choice(legal_actions(state)))
        if state.phase is Phase.ACTION and state.turn < 8 and state.turn > 0:
            assert len(state.deck) == 7 - state.turn
    assert players == [0, 1] * 4


@checks("SCORE-2", "SCORE-3", "UPDATE-2")
def test_tie_keeps_a_marker_won_in_an_earlier_round():
    """SCORE-2, SCORE-3, UPDATE-2: round 0 wins geisha 6 for player 1; round 1 ties everywhere
    and leaves it there; round 2 moves it to player 0."""
    won = (1, 1, 1, 1, 1, 2, 1), (1, 1, 1, 1, 1, 1, 2)  # only geisha 5 and 6 differ
    first = round_for_sides(*won, starter=0)
    state = replay((first[0],) + first[1])
    assert state.markers == (None,) * 5 + (0, 1)
    tie = round_for_sides(*tie_sides(), starter=1)
    state = replay((first[0],) + first[1] + (tie[0],) + tie[1])
    assert state.markers == (None,) * 5 + (0, 1)
    assert state.scores[1].markers == state.scores[0].markers
    moved = round_for_sides(won[1], won[0], starter=0)
    state = replay((first[0],) + first[1] + (tie[0],) + tie[1] + (moved[0],) + moved[1])
    assert state.markers == (None,) * 5 + (1, 0)


@checks("UPDATE-4", "UPDATE-1", "UPDATE-3")
def test_starting_player_alternates_across_three_rounds():
    """UPDATE-4, UPDATE-1, UPDATE-3: the second player of a round starts the next; cards and
    action markers are reset."""
    for first in (0, 1):
        decisions = ()
        for r in range(3):
            deal, turns = round_for_sides(*tie_sides(), starter=first if r % 2 == 0 else 1 - first)
            state = replay(decisions + (deal,), first_player=first)
            assert state.starter == (first if r % 2 == 0 else 1 - first)
            assert current_player(state) == state.starter
            assert state.used == ((), ()) and state.round == r
            decisions += (deal,) + turns
        state = replay(decisions, first_player=first)
        assert state.round == 3 and state.phase is Phase.DEAL
        assert state.hands == (C.EMPTY, C.EMPTY) and state.removed is None


def rounds(*sides_per_round, first_player=0):
    """Decisions of consecutive rounds ending with the given (side0, side1)."""
    decisions = ()
    for r, sides in enumerate(sides_per_round):
        starter = first_player if r % 2 == 0 else 1 - first_player
        deal, turns = round_for_sides(*sides, starter=starter)
        decisions += (deal,) + turns
    return decisions


@checks("END-2", "END-3", "END-4", "SCORE-4")
def test_worked_example_of_rulebook_000():
    """END-2, END-3, END-4, SCORE-4: rulebook 000's example (3 geisha and 8 charm against 4
    geisha and 11 charm: the 4-geisha, 11-charm player wins) cannot occur as printed — 3 + 4
    geisha hold all 21 charm, not 19 — so we check that fact by enumeration, and play the
    example's point: a player with 4 geisha and 11 charm against 3 geisha wins, by charm."""
    rows = list(itertools.product((None, 0, 1), repeat=7))
    assert not any(geisha_count(m, 0) == 3 and charm(m, 0) == 8 and geisha_count(m, 1) == 4
                   and charm(m, 1) == 11 for m in rows)
    # Player 1 wins geisha 0, 1, 2 and 6 (2+2+2+5 = 11 charm), player 0 wins 3, 4, 5 (10 charm).
    sides = ((0, 0, 0, 2, 2, 3, 1), (1, 1, 1, 0, 0, 1, 4))
    state = replay(rounds(sides))
    assert state.markers == (1, 1, 1, 0, 0, 0, 1)
    assert (geisha_count(state.markers, 1), charm(state.markers, 1)) == (4, 11)
    assert (geisha_count(state.markers, 0), charm(state.markers, 0)) == (3, 10)
    assert state.result == Result(1, Reason.CHARM)
    assert state.phase is Phase.OVER and current_player(state) == TERMINAL
    assert legal_actions(state) == ()


@checks("END-4")
def test_charm_beats_geisha_in_a_simultaneous_finish():
    """END-4: one player with 4 geisha, the other with 11+ charm: the charm player wins."""
    # Player 0 wins geisha 0..3 (4 geisha, 9 charm); player 1 wins 4, 5, 6 (12 charm).
    sides = ((2, 2, 2, 2, 0, 0, 0), (0, 0, 0, 0, 2, 3, 3))
    state = replay(rounds(sides))
    assert state.result == Result(1, Reason.CHARM_OVER_GEISHA)


@checks("END-3")
def test_geisha_goal_alone():
    """END-3: 4 geisha and less than 11 charm, the other without a goal: win by geisha."""
    # Player 0 wins geisha 1, 2, 3, 4 (10 charm); player 1 wins 0 and 5 (6 charm); 6 ties.
    sides = ((0, 1, 1, 1, 2, 1, 2), (2, 0, 0, 0, 1, 3, 2))
    state = replay(rounds(sides))
    assert state.markers == (1, 0, 0, 0, 0, 1, None)
    assert state.result == Result(0, Reason.GEISHA)


@checks("END-1", "UPDATE-5")
def test_no_goal_no_end_and_goal_checked_only_at_scoring():
    """END-1, UPDATE-5: without a goal the standard game goes on, whatever the round number."""
    state = replay(rounds(*([tie_sides()] * 5)))
    assert state.phase is Phase.DEAL and state.round == 5 and state.result is None


@checks("VAR-IT-1", "VAR-IT-2")
def test_italian_limit_by_charm():
    """VAR-IT-1, VAR-IT-2: after three rounds without a goal, more charm wins."""
    # Player 0 wins geisha 6 (5 charm); player 1 wins geisha 0 (2 charm).
    win6 = ((0, 1, 1, 1, 1, 2, 2), (1, 1, 1, 1, 1, 2, 1))
    state = replay(rounds(win6, tie_sides(), tie_sides()), rules=ITALIAN_THREE_ROUNDS)
    assert state.markers == (1,) + (None,) * 5 + (0,)
    assert state.result == Result(0, Reason.ROUND_LIMIT_CHARM)
    assert state.round == 2 and state.phase is Phase.OVER
    # The same rounds under the standard rules go on to a fourth round.
    standard = replay(rounds(win6, tie_sides(), tie_sides()))
    assert standard.phase is Phase.DEAL and standard.round == 3


@checks("VAR-IT-3")
def test_italian_limit_by_highest_geisha():
    """VAR-IT-3: equal charm (5 against 3 + 2): the player with the highest geisha wins."""
    # Round 0: player 0 wins geisha 6; player 1 wins geisha 3 (3) and 0 (2): 5 against 5.
    sides = ((0, 1, 1, 0, 1, 2, 3), (1, 1, 1, 2, 1, 2, 0))
    state = replay(rounds(sides, tie_sides(), tie_sides()), rules=ITALIAN_THREE_ROUNDS)
    assert charm(state.markers, 0) == charm(state.markers, 1) == 5
    assert state.result == Result(0, Reason.ROUND_LIMIT_HIGHEST_GEISHA)


@checks("VAR-IT-4")
def test_italian_limit_shared_victory():
    """VAR-IT-4: equal charm and equal geisha values: a shared victory."""
    state = replay(rounds(tie_sides(), tie_sides(), tie_sides()), rules=ITALIAN_THREE_ROUNDS)
    assert state.markers == (None,) * 7
    assert state.result == Result(None, Reason.SHARED)
    # Equal holdings, not only empty ones: player 0 wins geisha 0, player 1 geisha 1.
    sides = ((2, 0, 1, 1, 1, 2, 1), (0, 2, 1, 1, 1, 2, 1))
    state = replay(rounds(sides, tie_sides(), tie_sides()), rules=ITALIAN_THREE_ROUNDS)
    assert state.markers == (0, 1) + (None,) * 5
    assert state.result == Result(None, Reason.SHARED)


@checks("VAR-IT-2", "END-2")
def test_italian_goal_before_the_limit_wins_normally():
    """VAR-IT-2, END-2: a goal reached in an earlier round ends the game by the normal rules."""
    sides = ((2, 2, 2, 2, 0, 0, 0), (0, 0, 0, 0, 2, 3, 3))
    state = replay(rounds(sides), rules=ITALIAN_THREE_ROUNDS)
    assert state.result == Result(1, Reason.CHARM_OVER_GEISHA) and state.round == 0


@checks("VAR-IT-1")
def test_italian_random_games_never_have_a_fourth_round():
    """VAR-IT-1: at most three rounds."""
    for seed in range(200):
        state = random_game(random.Random(seed), ITALIAN_THREE_ROUNDS)
        assert state.round <= 2 and state.result is not None


@checks("END-2")
def test_no_decision_after_the_end():
    """END-2: the game ends at once; nothing applies after it."""
    state = random_game(random.Random(0))
    with pytest.raises(IllegalActionError) as error:
        apply(state, random_deal(random.Random(1)))
    assert error.value.rule == "END-2"


def test_apply_is_pure():
    """apply returns a new state and leaves its input as it was: a fingerprint taken before
    (the pickled state: every field, nested values included) is unchanged after every legal
    action, and so is each field's identity (nothing is swapped in behind a frozen class)."""
    state = dealt()
    for _ in range(5):  # a few positions into the round, so that hands, sides and log are set
        before = pickle.dumps(state)
        fields = {f.name: getattr(state, f.name) for f in attrs.fields(type(state))}
        for action in legal_actions(state):
            after = apply(state, action)
            assert after is not state
            assert pickle.dumps(state) == before, f"apply({action!r}) changed its input"
            assert all(getattr(state, name) is value for name, value in fields.items())
        state = apply(state, legal_actions(state)[0])


@checks("VAR-IT-1", "UPDATE-5")
def test_rules_presets_and_validation():
    """VAR-IT-1, UPDATE-5: the presets differ only in the round limit; bad variants are refused."""
    assert Rules.named("standard") is STANDARD and STANDARD.max_rounds is None
    assert Rules.named("italian-three-rounds").max_rounds == 3
    with pytest.raises(ValueError, match="unknown variant"):
        Rules.named("french")
    with pytest.raises(ValueError):
        Rules("odd", geisha_goal=3)
    with pytest.raises(ValueError):
        Rules("odd", charm_goal=10)


@checks("DEAL-1")
def test_deal_is_a_chance_node_with_an_explicit_outcome():
    """DEAL-1: randomness only through a seeded Random handed in: same seed, same deal."""
    assert random_deal(random.Random(9)) == random_deal(random.Random(9))
    assert isinstance(random_deal(random.Random(9)), Deal)
    assert ActionKind.COMPETITION.size == 4
