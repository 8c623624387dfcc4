"""A divergence's message names the rule the reference's answer follows, where diff knows it
cheaply: who is to move (SETUP-1, UPDATE-4, TURN-1, TURN-4, DEAL-1) and how the game ended
(END-3, END-4, VAR-IT-2..4), in Hanamikoji. tests/test_js_two_defects.py sees both in the
messages of ``diff`` on an engine with two such defects."""

from __future__ import annotations

import random

from hanamikoji.engine.hanamikoji import game as G
from hanamikoji.engine.hanamikoji.game import Phase
from hanamikoji.engine.hanamikoji.rules import ITALIAN_THREE_ROUNDS, STANDARD
from hanamikoji.oracle.core import diff as core_diff
from hanamikoji.oracle.hanamikoji.diff import rules_followed
from hanamikoji.properties.core.cite import checks


def played(rules, first_player: int, until) -> G.State:
    """A game played at random from seed 0 up to the first state ``until`` holds for."""
    rng = random.Random(0)
    for seed in range(200):
        rng = random.Random(seed)
        state = G.new_game(rules, first_player)
        while not until(state) and state.phase is not Phase.OVER:
            state = G.apply(state, G.random_deal(rng) if state.phase is Phase.DEAL
                            else rng.choice(G.legal_actions(state)))
        if until(state):
            return state
    raise AssertionError("no game reached the state asked for")


def asked(state, op: str) -> tuple[str, ...]:
    return rules_followed(state, {"op": op}, {}, {})


@checks("SETUP-1", "UPDATE-4", "TURN-1", "TURN-4", "DEAL-1")
def test_who_moves_follows_the_rule_of_the_moment():
    start = played(STANDARD, 1, lambda s: s.phase is Phase.ACTION)
    assert asked(start, "current_player") == ("SETUP-1",)
    assert asked(G.new_game(STANDARD, 1), "current_player") == ("DEAL-1",)
    second_round = played(STANDARD, 1, lambda s: s.round == 1 and s.phase is Phase.ACTION)
    assert asked(second_round, "current_player") == ("UPDATE-4",)
    later = played(STANDARD, 0, lambda s: s.phase is Phase.ACTION and s.turn == 3)
    assert asked(later, "current_player") == ("TURN-1",)
    answering = played(STANDARD, 0, lambda s: s.phase is Phase.RESPONSE)
    assert asked(answering, "current_player") == ("TURN-4",)


@checks("VAR-IT-2", "VAR-IT-3", "VAR-IT-4", "END-3", "END-4")
def test_an_end_follows_the_rule_of_its_reason():
    rule = {"geisha": "END-3", "charm": "END-3", "charm-over-geisha": "END-4",
            "round-limit-charm": "VAR-IT-2", "round-limit-highest-geisha": "VAR-IT-3",
            "shared": "VAR-IT-4"}
    seen = set()
    for rules in (STANDARD, ITALIAN_THREE_ROUNDS):
        for seed in range(40):
            state = G.random_game(random.Random(seed), rules)
            reason = state.result.reason.value
            seen.add(reason)
            assert asked(state, "result") == (rule[reason],)
            assert asked(state, "current_player") == (rule[reason],)
    assert {"geisha", "charm", "round-limit-charm"} <= seen, seen
    assert asked(G.new_game(), "result") == ()


def test_a_view_cites_only_who_moves_and_the_result():
    state = played(STANDARD, 1, lambda s: s.round == 1 and s.phase is Phase.ACTION)
    view = {"current_player": 0, "markers": [None] * 7, "hand": [0, 1]}
    request = {"op": "observe", "player": 0}
    assert rules_followed(state, request, {"view": view},
                          {"view": {**view, "current_player": 1}}) == ("UPDATE-4",)
    assert rules_followed(state, request, {"view": view}, {"view": {**view, "hand": [1, 0, 0]}}) == ()
    assert rules_followed(state, request, {"view": view}, {"view": 3}) == ()
    assert asked(state, "legal_actions") == ()


def test_a_hook_that_fails_leaves_the_message_as_it_was():
    class Failing(core_diff.DiffExtension):
        def rules_followed(self, state, request, reference, other):
            raise RuntimeError("no")

    failing = Failing(G)  # type: ignore[arg-type]
    assert core_diff._following(failing, G.new_game(), {"op": "result"}, {}, {}) == ""
    assert core_diff._following(core_diff.DiffExtension(G), G.new_game(),  # type: ignore[arg-type]
                                {"op": "result"}, {}, {}) == ""

