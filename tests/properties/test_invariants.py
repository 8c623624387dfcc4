"""Each invariant holds on real states and fails on a state or engine broken in its one respect;
the rules it restates agree with the text of spec/rules.md and with the engine's constants."""

import itertools
import re
from pathlib import Path
from types import SimpleNamespace

import attrs
import pytest

import hanamikoji.engine.hanamikoji as E
from hanamikoji.engine.hanamikoji.seeded import play_game
from hanamikoji.properties.hanamikoji import invariants as inv
from hanamikoji.properties.hanamikoji.strategies import Game

SPEC = (Path(inv.__file__).resolve().parents[2] / "spec" / "hanamikoji" / "rules.md").read_text(encoding="utf-8")


def rule_text(rule):
    return re.search(rf"^- \*\*{rule}\*\* (.*)$", SPEC, re.MULTILINE).group(1)


# --- the restated rules ------------------------------------------------------------------------


def test_restated_constants_match_the_spec_text_and_the_engine():
    # COMP-1: "charm values 2, 2, 2, 3, 3, 4, 5"; COMP-2: as many cards as her charm, 21 in all.
    charm = tuple(int(v) for v in re.search(r"charm values ([\d, ]+\d)", rule_text("COMP-1"))
                  .group(1).split(", "))
    assert inv.CHARM == charm == E.CHARM and inv.FULL == E.FULL_DECK and sum(inv.FULL) == 21
    assert "21 item cards" in rule_text("COMP-2")
    # DEAL-3, DEAL-4, TURN-1: 6 cards a hand, 8 to draw, 8 turns a round.
    assert "dealt 6 cards" in rule_text("DEAL-3") and inv.HAND_SIZE == 6
    assert "remaining 8 cards" in rule_text("DEAL-4") and inv.DECK_SIZE == 8
    assert "a round has 8 turns" in rule_text("TURN-1") and inv.TURNS == E.TURNS_PER_ROUND == 8
    # ACT-SECRET-1, ACT-TRADE-1, ACT-GIFT-1, ACT-COMP-1: cards per action.
    for kind, rule in ((E.ActionKind.SECRET, "ACT-SECRET-1"), (E.ActionKind.TRADE_OFF, "ACT-TRADE-1"),
                       (E.ActionKind.GIFT, "ACT-GIFT-1"), (E.ActionKind.COMPETITION, "ACT-COMP-1")):
        assert f"puts {inv.SIZE[kind]} card" in rule_text(rule) and kind.size == inv.SIZE[kind]
    # END-2: the goals of both presets.
    assert "4 or more geisha, or with 11 or more charm" in rule_text("END-2")
    assert {(r.geisha_goal, r.charm_goal) for r in E.PRESETS.values()} == {(4, 11)}


# --- real states to break ----------------------------------------------------------------------


def all_states(final):
    states = [E.new_game(final.rules, final.first_player)]
    for decision in final.history:
        states.append(E.apply(states[-1], decision))
    return states


def first_game(predicate, rules=E.STANDARD):
    for seed in range(2000):
        final = play_game(7, seed, rules)
        if predicate(final):
            return final
    raise LookupError("no such game in 2000 seeds")


def is_mid_round(s):
    """An action due late in a round, with cards on a side, a secret and a varied deck."""
    return (s.phase is E.Phase.ACTION and s.turn >= 5 and any(s.sides[0])
            and any(s.secrets[0] + s.secrets[1]) and len(set(s.deck)) > 1)


GAME = first_game(lambda s: s.round >= 1 and any(map(is_mid_round, all_states(s))))
STATES = all_states(GAME)
MID = next(s for s in STATES if is_mid_round(s))
RESPONSE = next(s for s in STATES if s.phase is E.Phase.RESPONSE)
BETWEEN = next(s for s in STATES if s.phase is E.Phase.DEAL and s.round == 1)
OVER = GAME
LIMIT = first_game(lambda s: s.result.reason is E.Reason.ROUND_LIMIT_CHARM,
                   E.ITALIAN_THREE_ROUNDS)


def moved(cards, g, delta):
    row = list(cards)
    row[g] += delta
    return tuple(row)


def some_card(cards):
    return next(g for g, n in enumerate(cards) if n)


def swap(pair):
    return (pair[1], pair[0])


def last_score(state, **changes):
    return state.scores[:-1] + (attrs.evolve(state.scores[-1], **changes),)


def flip(markers, g):
    return markers[:g] + ({None: 0, 0: 1, 1: 0}[markers[g]],) + markers[g + 1:]


CORRUPTIONS = {
    "marker_row_is_well_formed": [
        (OVER, lambda s: attrs.evolve(s, markers=s.markers[:6])),
        (MID, lambda s: attrs.evolve(s, markers=(0,) + s.markers[1:]) if s.round == 0 else
         attrs.evolve(s, markers=s.markers[:6] + (2,))),
    ],
    "cards_are_conserved": [
        (MID, lambda s: attrs.evolve(s, hands=(moved(s.hands[0], 6, 1), s.hands[1]))),
        (BETWEEN, lambda s: attrs.evolve(s, hands=(moved(s.hands[0], 0, 1), s.hands[1]))),
        (RESPONSE, lambda s: attrs.evolve(s, pending=None)),
    ],
    "deck_is_the_rest_of_the_deal": [
        (MID, lambda s: attrs.evolve(s, deck=s.deck[1:] + s.deck[:1])),
        (MID, lambda s: attrs.evolve(s, removed=(s.removed + 1) % 7)),
    ],
    "hands_follow_draws_and_plays": [
        (MID, lambda s: attrs.evolve(s, hands=(moved(s.hands[0], some_card(s.hands[0]), -1),
                                               moved(s.hands[1], some_card(s.hands[0]), 1)))),
    ],
    "actions_are_used_once_per_round": [
        (MID, lambda s: attrs.evolve(s, used=(s.used[0] + s.used[0][:1], s.used[1]))),
        (BETWEEN, lambda s: attrs.evolve(s, used=((E.ActionKind.GIFT,), ()))),
    ],
    "face_down_cards_follow_the_actions": [
        (MID, lambda s: attrs.evolve(s, secrets=(moved(s.secrets[0], 0, 1), s.secrets[1]))),
        (MID, lambda s: attrs.evolve(s, trade_offs=(s.trade_offs[0], moved(s.trade_offs[1], 6, 1)))),
    ],
    "sides_follow_the_answers": [
        (MID, lambda s: attrs.evolve(s, sides=swap(s.sides))),
        (RESPONSE, lambda s: attrs.evolve(s, phase=E.Phase.ACTION)),
    ],
    "scoring_accounts_for_21_cards": [
        (OVER, lambda s: attrs.evolve(s, scores=last_score(s, sides=(
            moved(s.scores[-1].sides[0], some_card(s.scores[-1].sides[0]), -1),
            moved(s.scores[-1].sides[1], some_card(s.scores[-1].sides[0]), 1))))),
    ],
    "scored_sides_follow_the_round": [
        (OVER, lambda s: attrs.evolve(s, scores=last_score(s, sides=swap(s.scores[-1].sides)))),
    ],
    "markers_move_only_to_the_stronger_side": [
        (OVER, lambda s: attrs.evolve(s, scores=last_score(s, markers=flip(s.markers, 0)),
                                      markers=flip(s.markers, 0))),
        (BETWEEN, lambda s: attrs.evolve(s, markers=flip(s.markers, 6))),
    ],
    "game_ends_at_the_first_goal": [
        (OVER, lambda s: attrs.evolve(s, phase=E.Phase.DEAL, result=None)),
        (BETWEEN, lambda s: attrs.evolve(s, phase=E.Phase.OVER,
                                         result=E.Result(0, E.Reason.GEISHA))),
    ],
    "result_agrees_with_the_markers": [
        (OVER, lambda s: attrs.evolve(s, result=E.Result(1 - s.result.winner, s.result.reason))),
    ],
    "round_limit_decides_by_charm_then_highest_geisha": [
        (LIMIT, lambda s: attrs.evolve(s, result=E.Result(None, E.Reason.SHARED))),
        (OVER, lambda s: attrs.evolve(s, result=E.Result(0, E.Reason.ROUND_LIMIT_CHARM))),
    ],
    "turns_follow_the_order": [
        (MID, lambda s: attrs.evolve(s, turn=s.turn + 1)),
        (BETWEEN, lambda s: attrs.evolve(s, phase=E.Phase.ACTION)),
    ],
}
CASES = [(name, i) for name, cases in CORRUPTIONS.items() for i in range(len(cases))]


@pytest.mark.parametrize("name, index", CASES)
def test_a_state_invariant_holds_on_the_real_state_and_fails_on_the_broken_one(name, index):
    invariant = getattr(inv, name)
    state, corrupt = CORRUPTIONS[name][index]
    invariant(state)
    broken = corrupt(state)
    assert broken != state
    with pytest.raises(inv.Violation) as caught:
        invariant(broken)
    assert caught.value.rules == inv.rule_ids(invariant) != ()


def test_every_state_invariant_has_a_corruption_that_breaks_it():
    assert {f.__name__ for f in inv.STATE_INVARIANTS} == set(CORRUPTIONS)


def test_every_state_of_real_games_passes_every_state_invariant():
    for final in (GAME, LIMIT):
        for state in all_states(final):
            inv.check_state(state)


# --- steps -------------------------------------------------------------------------------------


def steps(final):
    states = all_states(final)
    return list(zip(states, final.history, states[1:]))


def test_step_invariants_hold_on_every_real_step_and_fail_on_broken_ones():
    for before, decision, after in steps(GAME):
        inv.check_step(before, decision, after)
    before, decision, after = next(st for st in steps(GAME) if isinstance(st[1], E.Secret))
    with pytest.raises(inv.Violation, match="first player changed"):
        inv.step_follows_the_turn_order(before, decision,
                                        attrs.evolve(after, first_player=1 - after.first_player))
    with pytest.raises(inv.Violation, match="the secrets are"):
        inv.step_moves_exactly_the_played_cards(before, decision,
                                                attrs.evolve(after, secrets=before.secrets))
    before, decision, after = next(st for st in steps(GAME) if isinstance(st[1], E.Gift))
    with pytest.raises(inv.Violation, match="must answer first"):
        inv.step_follows_the_turn_order(before, decision, attrs.evolve(after, phase=E.Phase.ACTION,
                                                                       turn=after.turn + 1))


# --- engines broken in one function ------------------------------------------------------------


def engine_with(**overrides):
    functions = {name: getattr(E, name) for name in
                 ("new_game", "apply", "legal_actions", "observe", "current_player", "random_deal")}
    return SimpleNamespace(**(functions | overrides))


def test_legal_actions_must_be_exactly_the_rules_menu():
    inv.legal_actions_are_exactly_what_the_rules_allow(MID)
    short = engine_with(legal_actions=lambda s: E.legal_actions(s)[:-1])
    with pytest.raises(inv.Violation, match="lacks"):
        inv.legal_actions_are_exactly_what_the_rules_allow(MID, engine=short)
    unsorted = engine_with(legal_actions=lambda s: tuple(reversed(E.legal_actions(s))))
    with pytest.raises(inv.Violation, match="not sorted"):
        inv.legal_actions_are_exactly_what_the_rules_allow(MID, engine=unsorted)


def test_legal_actions_must_apply():
    inv.legal_actions_all_apply(MID)

    def refuse_the_first(state, decision):
        if decision == E.legal_actions(state)[0]:
            raise E.IllegalActionError("no", "TURN-3")
        return E.apply(state, decision)

    with pytest.raises(inv.Violation, match="is refused"):
        inv.legal_actions_all_apply(MID, engine=engine_with(apply=refuse_the_first))


def test_illegal_decisions_must_be_refused_with_a_rule_and_leave_the_state_alone():
    illegal = E.Secret(next(g for g in range(7) if MID.hands[MID.active][g] == 0))
    inv.illegal_decisions_are_refused(MID, illegal)
    inv.illegal_decisions_are_refused(OVER, E.Secret(0))  # END-2
    accepting = engine_with(apply=lambda state, decision: state)
    with pytest.raises(inv.Violation, match="is accepted"):
        inv.illegal_decisions_are_refused(MID, illegal, engine=accepting)

    def refuse_without_a_rule(state, decision):
        raise E.IllegalActionError("no", "NO" + "PE-1")

    with pytest.raises(inv.Violation, match="not a rule ID"):
        inv.illegal_decisions_are_refused(MID, illegal, engine=engine_with(apply=refuse_without_a_rule))

    def mutate_then_refuse(state, decision):
        object.__setattr__(state, "turn", state.turn + 1)
        raise E.IllegalActionError("no", "TURN-3")

    victim = attrs.evolve(MID)
    with pytest.raises(inv.Violation, match="changed the state"):
        inv.illegal_decisions_are_refused(victim, illegal, engine=engine_with(apply=mutate_then_refuse))


def test_apply_must_not_change_its_input_nor_vary():
    decision = E.legal_actions(MID)[0]
    inv.apply_leaves_its_input_unchanged(MID, decision)

    def mutating(state, decision):
        after = E.apply(state, decision)
        object.__setattr__(state, "round", state.round + 1)
        return after

    with pytest.raises(inv.Violation, match="changed its input"):
        inv.apply_leaves_its_input_unchanged(attrs.evolve(MID), decision,
                                             engine=engine_with(apply=mutating))
    calls = iter(range(10))
    varying = engine_with(apply=lambda s, d: attrs.evolve(E.apply(s, d), round=next(calls)))
    with pytest.raises(inv.Violation, match="twice gives different states"):
        inv.apply_leaves_its_input_unchanged(MID, decision, engine=varying)


def test_history_must_be_the_decisions_played():
    game = Game.replay(GAME.history, rules=GAME.rules, first_player=GAME.first_player)
    inv.history_is_the_decisions_played(game)
    forgetful = attrs.evolve(game, states=game.states[:-1] + (
        attrs.evolve(game.final, history=game.final.history[:-1]),))
    with pytest.raises(inv.Violation, match="history holds"):
        inv.history_is_the_decisions_played(forgetful)


def test_records_must_replay_to_the_same_game():
    for state in (MID, RESPONSE, BETWEEN, OVER, LIMIT):
        inv.records_replay_to_the_same_game(state)
    with pytest.raises(inv.Violation, match="replays to"):
        inv.records_replay_to_the_same_game(attrs.evolve(OVER, markers=flip(OVER.markers, 0)))


def test_views_must_show_what_the_player_may_know():
    for player in (0, 1):
        inv.views_show_what_a_player_may_know(MID, player)
    blind = engine_with(observe=lambda s, p: attrs.evolve(E.observe(s, p), hand=E.EMPTY))
    with pytest.raises(inv.Violation, match="shows hand"):
        inv.views_show_what_a_player_may_know(MID, 0, engine=blind)
    no_log = engine_with(observe=lambda s, p: attrs.evolve(E.observe(s, p), log=()))
    with pytest.raises(inv.Violation, match="shows log"):
        inv.views_show_what_a_player_may_know(MID, 1, engine=no_log)


def test_views_must_not_change_with_what_the_player_cannot_see():
    def reverse(values):
        return tuple(reversed(values))

    for state in (MID, RESPONSE, BETWEEN, OVER):
        for player in (0, 1):
            inv.views_leak_nothing(state, player, reverse)

    @attrs.frozen
    class ViewWithDeck(E.View):
        deck: tuple = ()

    leaky = engine_with(observe=lambda s, p: ViewWithDeck(
        **{f.name: getattr(E.observe(s, p), f.name) for f in attrs.fields(E.View)}, deck=s.deck))
    with pytest.raises(inv.Violation, match="deck differ"):
        inv.views_leak_nothing(MID, 0, reverse, engine=leaky)


def test_the_reproducibility_of_the_reference_in_fresh_processes():
    inv.seeded_games_are_reproducible(range(6), rules=E.STANDARD)
    inv.seeded_games_are_reproducible(range(6), rules=E.ITALIAN_THREE_ROUNDS)


def test_the_invariants_restate_the_result_rules_over_every_marker_row():
    # END-2..4, VAR-IT-2..4 restated here against the engine's Rules, over all 3**7 rows.
    for row in itertools.product((None, 0, 1), repeat=7):
        for rules in E.PRESETS.values():
            assert inv._goal_result(rules, row) == rules.goal_result(row)
        assert inv._limit_result(row) == E.ITALIAN_THREE_ROUNDS.limit_result(row)
