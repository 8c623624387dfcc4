"""Edges of Hanamikoji's engine that whole random games do not reach or do not look at: the range
of a variant's goals, deals of the wrong shape, the words of an illegal play, the log of a view
after an answer and right after a new round's deal."""

from __future__ import annotations

import copy
import random

import attrs

import pytest

from hanamikoji.engine.hanamikoji import (
    CHANCE,
    ITALIAN_THREE_ROUNDS,
    STANDARD,
    TERMINAL,
    ActionKind,
    Deal,
    Gift,
    GiftPick,
    IllegalActionError,
    InvalidActionError,
    Reason,
    Rules,
    Secret,
    apply,
    current_player,
    legal_actions,
    new_game,
    observe,
    random_deal,
    random_game,
)
from hanamikoji.engine.hanamikoji import cards as C
from hanamikoji.engine.hanamikoji.construct import round_for_sides
from hanamikoji.engine.hanamikoji.game import Draft, ObservedTurn
from hanamikoji.engine.hanamikoji.record import (
    IllegalRecordError,
    MalformedRecordError,
    parse_record,
    replay_record,
    to_record,
)
from hanamikoji.properties.core.cite import checks

LIMIT_REASONS = (Reason.ROUND_LIMIT_CHARM, Reason.ROUND_LIMIT_HIGHEST_GEISHA, Reason.SHARED)
HANDS = ((0, 0, 1, 1, 2, 2), (3, 3, 3, 4, 4, 4))
DRAWS = (5, 5, 5, 5, 6, 6, 6, 6)


@checks("END-2", "END-4")
def test_goals_range_from_just_over_half_to_all() -> None:
    """END-2, END-4: a geisha goal from 4 to 7 and a charm goal from 11 to 21 (two players
    cannot both reach a goal); outside those, no variant."""
    charm = sum(C.CHARM)
    for geisha in range(0, 10):
        ok = len(C.CHARM) < 2 * geisha <= 2 * len(C.CHARM)
        if ok:
            assert Rules("x", geisha_goal=geisha).geisha_goal == geisha
        else:
            with pytest.raises(ValueError):
                Rules("x", geisha_goal=geisha)
    assert [g for g in range(10) if len(C.CHARM) < 2 * g <= 2 * len(C.CHARM)] == [4, 5, 6, 7]
    for goal in (charm // 2 + 1, charm):
        assert Rules("x", charm_goal=goal).charm_goal == goal
    for goal in (charm // 2, charm + 1):
        with pytest.raises(ValueError):
            Rules("x", charm_goal=goal)


def test_a_goal_out_of_range_is_refused_with_the_range() -> None:
    """END-2, END-4: the message gives the range the goals may take (4 to 7 geisha, 11 to 21
    charm), from a preset changed by ``attrs.evolve`` as from a new variant."""
    for bad in (3, 8):
        with pytest.raises(ValueError, match=f"geisha_goal must be from 4 to 7, not {bad}$"):
            attrs.evolve(STANDARD, geisha_goal=bad)
    for bad in (10, 22):
        with pytest.raises(ValueError, match=f"charm_goal must be from 11 to 21, not {bad}$"):
            attrs.evolve(STANDARD, charm_goal=bad)


@checks("DEAL-3", "DEAL-4")
@pytest.mark.parametrize("hands, draws, rule", [
    ((HANDS[0],), DRAWS, "DEAL-3"),
    ((HANDS[0], HANDS[1], HANDS[1]), DRAWS, "DEAL-3"),
    (5, DRAWS, "DEAL-3"),
    (HANDS, DRAWS[:-1], "DEAL-4"),
    (HANDS, 5, "DEAL-4"),
    (HANDS, None, "DEAL-4"),
])
def test_a_deal_of_the_wrong_shape_is_not_a_decision(hands, draws, rule: str) -> None:
    """DEAL-3, DEAL-4: a deal has two hands and eight draws; anything else (another count, not a
    sequence at all) is an InvalidActionError naming the rule, never a TypeError."""
    with pytest.raises(InvalidActionError) as caught:
        Deal(removed=6, hands=hands, draws=draws)
    assert caught.value.rule == rule


def test_describe_writes_cards_in_order() -> None:
    """A multiset for people: its cards in geisha order between brackets."""
    assert C.describe(C.counts((6, 0, 6))) == "[0 6 6]"
    assert C.describe(C.EMPTY) == "[]"


@checks("TURN-3")
def test_an_illegal_play_says_what_the_hand_lacks() -> None:
    """An illegal play names the geisha and the hand: a card not held, or more than held."""
    state = apply(new_game(STANDARD), Deal(removed=6, hands=HANDS, draws=DRAWS))
    with pytest.raises(IllegalActionError) as caught:
        apply(state, Secret(3))
    assert "a card of geisha 3 that is not in their hand (hand: [0 0 1 1 2 2 5])" in str(caught.value)
    with pytest.raises(IllegalActionError) as caught:
        apply(state, Gift((0, 0, 0)))
    assert "3 cards of geisha 0 but holds 2" in str(caught.value)


@checks("INFO-1", "ACT-GIFT-1")
def test_a_view_logs_the_answer_to_a_gift() -> None:
    """INFO-1, ACT-GIFT-1: after a gift is answered both players see the offer and the card
    taken, on the gift's turn; the next turn is the other player's."""
    state = apply(new_game(STANDARD), Deal(removed=6, hands=HANDS, draws=DRAWS))
    state = apply(apply(state, Gift((0, 1, 5))), GiftPick(5))
    for player in (0, 1):
        assert observe(state, player).log == (ObservedTurn(0, ActionKind.GIFT, (0, 1, 5), 5),)
    state = apply(state, Secret(3))
    assert observe(state, 0).log[-1] == ObservedTurn(1, ActionKind.SECRET, None)


@checks("INFO-1", "UPDATE-4")
def test_a_view_right_after_a_new_deal_logs_nothing() -> None:
    """INFO-1: a view's log is the current round's; right after the deal of a new round it is
    empty, and the first turn of that round is the first entry."""
    deal, decisions = round_for_sides((0, 1, 1, 1, 1, 2, 2), (1, 1, 1, 1, 1, 2, 1), starter=0)
    state = apply(new_game(STANDARD), deal)
    for decision in decisions:
        state = apply(state, decision)
    assert state.round == 1 and state.result is None, "the first round decided the game"
    state = apply(state, Deal(removed=6, hands=HANDS, draws=DRAWS))
    assert observe(state, 0).log == () and observe(state, 1).log == ()
    assert state.starter == 1  # UPDATE-4: player 1 starts round 1, holding 3 3 3 4 4 4 5
    state = apply(state, Secret(3))
    assert len(observe(state, 0).log) == 1


def test_a_turn_without_an_action_is_malformed_at_the_turn() -> None:
    """A turn object with no ``action`` is malformed at the turn's path, saying the key is
    missing (an action of the wrong value is malformed at ``.action``)."""
    record = copy.deepcopy(to_record(random_game(random.Random(5), STANDARD, 0)))
    del record["rounds"][0]["turns"][2]["action"]
    with pytest.raises(MalformedRecordError) as caught:
        parse_record(record)
    assert caught.value.path == "$.rounds[0].turns[2]"
    assert 'missing key "action"' in str(caught.value)


@checks("END-2", "VAR-IT-1")
@pytest.mark.parametrize("rules, by_limit", [(STANDARD, False), (ITALIAN_THREE_ROUNDS, False),
                                             (ITALIAN_THREE_ROUNDS, True)])
def test_a_record_going_on_after_the_end_names_the_last_round(rules, by_limit: bool) -> None:
    """END-2, VAR-IT-1: a round recorded after the game ended is illegal, and the message names
    the round the game ended after (counted from 0, as the record's rounds are) and, after the
    round limit, how many rounds the variant allows."""
    final = next(game for game in (random_game(random.Random(seed), rules, 0)
                                   for seed in range(200))
                 if (game.result.reason in LIMIT_REASONS) == by_limit and game.round > 0)
    record = copy.deepcopy(to_record(final))
    last = len(record["rounds"]) - 1
    record["rounds"].append(copy.deepcopy(record["rounds"][-1]))
    record.pop("result", None)
    with pytest.raises(IllegalRecordError) as caught:
        replay_record(parse_record(record))
    assert caught.value.rule == ("VAR-IT-1" if by_limit else "END-2")
    assert f"the game ended after round {last} (" in str(caught.value)
    if by_limit:
        assert f"allows at most {last + 1} rounds" in str(caught.value)


@checks("SCORE-1")
def test_a_round_is_built_only_for_sides_of_eight_cards() -> None:
    """SCORE-1: each side scores eight cards in a round; sides of another size, or holding more
    cards than the game has, build no round."""
    seven = (0, 1, 1, 1, 1, 2, 1)
    nine = (0, 1, 1, 1, 1, 2, 3)
    good = (0, 1, 1, 1, 1, 2, 2)
    for side0, side1 in ((seven, good), (good, nine), (nine, seven)):
        with pytest.raises(ValueError, match="exactly 8"):
            round_for_sides(side0, side1, starter=0)
    with pytest.raises(ValueError, match="more cards than the game has"):
        round_for_sides((0, 0, 0, 0, 0, 4, 4), (0, 0, 0, 0, 0, 4, 4), starter=0)


@pytest.mark.parametrize("where, value, path", [
    ("turns", 5, "$.rounds[0].turns"), ("turns", {"player": 0}, "$.rounds[0].turns"),
    ("result", 5, "$.result"), ("result", ["winner"], "$.result"),
])
def test_turns_and_result_of_the_wrong_type_are_malformed(where: str, value, path: str) -> None:
    """A round's turns that are not a list, a result that is not an object: malformed at their
    path, never a crash further on."""
    record = copy.deepcopy(to_record(random_game(random.Random(5), STANDARD, 0)))
    if where == "turns":
        record["rounds"][0]["turns"] = value
    else:
        record["result"] = value
    with pytest.raises(MalformedRecordError) as caught:
        parse_record(record)
    assert caught.value.path == path, str(caught.value)


@checks("END-2", "END-3", "END-4")
def test_goal_result_is_the_rule_read_with_the_counting_helpers() -> None:
    """END-2..4 on every row of markers (each geisha in the centre or on either side) and every
    pair of goals: the one-pass count of ``goal_result`` says what the rule says when read with
    :func:`geisha_count` and :func:`charm`, which count each side on their own."""
    import itertools

    from hanamikoji.engine.hanamikoji.rules import Reason, Result, charm, geisha_count

    def by_the_rule(rules: Rules, markers: tuple) -> Result | None:
        geisha = [geisha_count(markers, p) >= rules.geisha_goal for p in (0, 1)]
        charmed = [charm(markers, p) >= rules.charm_goal for p in (0, 1)]
        reached = [p for p in (0, 1) if geisha[p] or charmed[p]]
        if len(reached) == 2:
            return Result(charmed.index(True), Reason.CHARM_OVER_GEISHA)
        if reached:
            return Result(reached[0], Reason.CHARM if charmed[reached[0]] else Reason.GEISHA)
        return None

    rows = list(itertools.product((None, 0, 1), repeat=len(C.CHARM)))
    assert len(rows) == 3 ** 7
    seen = set()
    for rules in (Rules("x"), Rules("x", geisha_goal=5, charm_goal=12),
                  Rules("x", geisha_goal=7, charm_goal=21), Rules("x", geisha_goal=4, charm_goal=19)):
        for markers in rows:
            result = rules.goal_result(markers)
            assert result == by_the_rule(rules, markers), (rules, markers)
            seen.add(None if result is None else result.reason)
    assert seen == {None, Reason.GEISHA, Reason.CHARM, Reason.CHARM_OVER_GEISHA}


def test_a_draft_of_a_state_in_play_freezes_to_that_state() -> None:
    """``Draft.of`` copies every field, each player's own (here the secrets, once only one player
    has played one): frozen at once, the draft is the state it was made of, and playing on it
    gives what ``apply`` gives."""
    rng = random.Random(3)
    state = apply(new_game(STANDARD, 0), random_deal(rng))
    checked = 0
    while current_player(state) != TERMINAL:
        if current_player(state) == CHANCE:
            state = apply(state, random_deal(rng))
        elif state.secrets[0] != state.secrets[1]:
            assert Draft.of(state).freeze() == state
            draft = Draft.of(state)
            decision = rng.choice(legal_actions(state))
            draft.play(decision)
            state = apply(state, decision)
            assert draft.freeze() == state
            checked += 1
        else:
            state = apply(state, rng.choice(legal_actions(state)))
    assert checked > 0


@pytest.mark.parametrize("player", [2, -1, "0", None])
def test_a_view_of_no_player_is_refused(player):
    """A view is asked of player 0 or 1; any other value is refused, not answered with a view
    of nobody."""
    state = random_game(random.Random(1), STANDARD, 0)
    with pytest.raises(InvalidActionError, match="player must be 0 or 1"):
        observe(state, player)
