"""The cached action menu against a brute-force enumeration written independently of it."""

from __future__ import annotations

import itertools
import random

from hanamikoji.engine.hanamikoji import (
    ALL_KINDS,
    ActionKind,
    Competition,
    Gift,
    Phase,
    Secret,
    TradeOff,
    action_menu,
    apply,
    legal_actions,
    new_game,
    random_game,
)
from hanamikoji.engine.hanamikoji import cards as C
from hanamikoji.properties.core.cite import checks


def brute_force(hand, unused):
    """Every way to pick the cards of each unused action from the physical cards in hand
    (and, for a competition, every way to split them), reduced to distinct outcomes."""
    physical = list(enumerate(C.cards_of(hand)))  # cards told apart by position
    outcomes = set()
    for kind in unused:
        for chosen in itertools.permutations(physical, kind.size):
            values = [g for _, g in chosen]
            if kind is ActionKind.SECRET:
                outcomes.add(("secret", tuple(values)))
            elif kind is ActionKind.TRADE_OFF:
                outcomes.add(("trade-off", tuple(sorted(values))))
            elif kind is ActionKind.GIFT:
                outcomes.add(("gift", tuple(sorted(values))))
            else:
                first, second = sorted(values[:2]), sorted(values[2:])
                outcomes.add(("competition", tuple(sorted([tuple(first), tuple(second)]))))
    return outcomes


def outcome(action):
    if isinstance(action, Competition):
        return ("competition", action.pairs)
    return (action.kind.value, action.cards)


@checks("TURN-3", "ACT-SECRET-1", "ACT-TRADE-1", "ACT-GIFT-1", "ACT-COMP-1")
def test_menu_matches_brute_force_on_random_hands():
    """TURN-3, ACT-SECRET-1, ACT-TRADE-1, ACT-GIFT-1, ACT-COMP-1: one entry per distinct outcome,
    every legal outcome present, sorted."""
    rng = random.Random(2024)
    deck = list(C.cards_of(C.FULL_DECK))
    for _ in range(300):
        rng.shuffle(deck)
        hand = C.counts(deck[: rng.randint(1, 7)])
        unused = tuple(k for k in ALL_KINDS if rng.random() < 0.7 and k.size <= C.size(hand))
        menu = action_menu(hand, unused)
        assert list(menu) == sorted(menu)
        assert len(set(menu)) == len(menu)
        assert {outcome(a) for a in menu} == brute_force(hand, unused)


def test_menu_in_real_games_equals_brute_force():
    for seed in range(20):
        state = random_game(random.Random(seed))
        # Replay the history and check every action menu met on the way.
        walk = new_game(state.rules, state.first_player)
        for decision in state.history:
            if walk.phase is Phase.ACTION:
                menu = legal_actions(walk)
                used = walk.used[walk.active]
                unused = tuple(k for k in ALL_KINDS if k not in used)
                assert {outcome(a) for a in menu} == brute_force(walk.hands[walk.active], unused)
                assert decision in menu
            walk = apply(walk, decision)


def test_known_small_menu():
    """A hand of 0 0 1 with all four actions unused: 2 secrets, 2 trade-offs, 1 gift."""
    menu = action_menu(C.counts((0, 0, 1)), ALL_KINDS)
    assert menu == (Secret(0), Secret(1), TradeOff((0, 0)), TradeOff((0, 1)), Gift((0, 0, 1)))
