"""The resampler behind views_leak_nothing: it permutes exactly the cards a player cannot see
(INFO-2), keeps what they can (INFO-1), and really changes the hidden world."""

import random

import pytest
from hypothesis import given, strategies as st

import hanamikoji.engine.hanamikoji as E
from hanamikoji.engine.hanamikoji.seeded import play_game
from hanamikoji.properties.hanamikoji.invariants import rounds_of
from hanamikoji.properties.hanamikoji.resample import hidden_cards, resample
from hanamikoji.properties.hanamikoji.strategies import first_players, game_states


def cards(multiset):
    return tuple(g for g, n in enumerate(multiset) for _ in range(n))


def hidden_now_by_the_state(state, player):
    """INFO-2 read off the state's places: the removed card, the opponent's hand, secret (until
    scoring) and trade-off, and the deck."""
    q = 1 - player
    row = [0] * 7
    places = [state.hands[q], state.trade_offs[q], E.cards.counts(state.deck),
              E.cards.counts((state.removed,))]
    if state.phase is not E.Phase.OVER:
        places.append(state.secrets[q])
    for place in places:
        row = [a + b for a, b in zip(row, place)]
    return cards(row)


def hidden_in_a_scored_round(rnd, player):
    """After scoring: the removed card and the opponent's trade-off, from the decisions."""
    trade_off = next(t.action for t in rnd.turns
                     if t.player == 1 - player and isinstance(t.action, E.TradeOff))
    return tuple(sorted((rnd.deal.removed,) + trade_off.cards))


@given(game_states(), first_players())
def test_the_hidden_cards_are_those_the_rules_hide(state, player):
    found = hidden_cards(state, player)
    rounds = rounds_of(state)
    assert len(found) == len(rounds)
    for rnd, hidden in zip(rounds, found):
        if rnd.index < len(state.scores):
            assert hidden == hidden_in_a_scored_round(rnd, player)
    if state.phase in (E.Phase.ACTION, E.Phase.RESPONSE, E.Phase.OVER):
        assert found[-1] == hidden_now_by_the_state(state, player)


@given(game_states(), first_players(), st.randoms(use_true_random=False))
def test_a_resampled_state_keeps_the_players_view_and_permutes_only_the_hidden_cards(state, player, rng):
    other = resample(state, player, lambda values: rng.sample(values, len(values)))
    assert E.observe(other, player) == E.observe(state, player)
    assert hidden_cards(other, player) == hidden_cards(state, player)
    assert other.markers == state.markers and other.result == state.result


def test_a_resampled_state_differs_where_the_player_cannot_see():
    final = play_game(3, 0, E.STANDARD)
    states = [E.new_game()]
    for decision in final.history[:9]:
        states.append(E.apply(states[-1], decision))
    state = states[-1]
    player = E.current_player(state)
    other = resample(state, player, lambda values: tuple(reversed(values)))
    assert E.observe(other, player) == E.observe(state, player)
    assert (other.hands[1 - player], other.deck, other.removed) != (
        state.hands[1 - player], state.deck, state.removed)
    assert E.observe(other, 1 - player) != E.observe(state, 1 - player)


def test_the_shuffle_must_permute():
    state = E.apply(E.new_game(), E.random_deal(random.Random(1)))
    with pytest.raises(ValueError, match="must permute"):
        resample(state, 0, lambda values: values[:-1])
