"""The engines' refusals speak the record's JSON, never Python: what validate, diff, the referee,
the bot helper and the library show of an illegal decision (issue 34, "the implementer's own
terms"). A property over drawn states and refused decisions of both games, and exact messages.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanamikoji.engine.core import registry
from hanamikoji.engine.core.errors import GameError, IllegalActionError, InvalidActionError
from hanamikoji.engine.hanamikoji import game as H
from hanamikoji.engine.hanamikoji.actions import (
    Competition,
    CompetitionPick,
    Deal,
    Gift,
    GiftPick,
    Secret,
    TradeOff,
)
from hanamikoji.engine.maiko import game as M
from hanamikoji.engine.maiko import reference as MR
from hanamikoji.engine.maiko.actions import Flip, OneSanStop, Sweep
from hanamikoji.engine.maiko.components import Colour, Config
from hanamikoji.properties.core import strategies as s
from hanamikoji.properties.core.cite import checks

#: A Python repr of a value with fields (``GiftPick(card=0)``) or of an enum member
#: (``Colour.WHITE``): never in a message an engine gives.
PYTHON_REPR = re.compile(r"\w+\(\w+=|\b[A-Z]\w*\.[A-Z_]{2,}\b")
GAMES = ("hanamikoji", "maiko")
#: Decisions of the other game, and Python values that are no decision at all.
STRANGERS = {"hanamikoji": (Flip(3), Sweep(2, Colour.WHITE), OneSanStop(), object()),
             "maiko": (GiftPick(0), Competition(((0, 5), (5, 6))), Secret(6), object())}


def refusal(game, state, decision) -> GameError | None:
    """The error ``game`` refuses ``decision`` with in ``state``, None if it is accepted."""
    try:
        game.apply(state, decision)
    except GameError as error:
        return error
    return None


@st.composite
def refused(draw, name: str):
    """A state reached by play and a decision met elsewhere, of the other game, or junk."""
    game = registry.get(name)
    played = draw(s.playthroughs(game), label="game")
    decision = draw(st.one_of(s.other_decisions(game, played).map(lambda found: found[0]),
                              st.sampled_from(STRANGERS[name])), label="decision")
    return game, played.final, decision


@checks("TURN-3", "TURN-4", "DEAL-1", "END-2", "MK-SETUP-5", "MK-ROW-3", "MK-TUTOR-ONESAN-1")
@pytest.mark.parametrize("name", GAMES)
def test_no_refusal_speaks_python(name):
    @settings(max_examples=60, deadline=None)
    @given(refused(name))
    def run(drawn):
        game, state, decision = drawn
        error = refusal(game, state, decision)
        if error is None:
            return
        assert not PYTHON_REPR.search(str(error)), str(error)
        assert "\n" not in str(error)
        if isinstance(error, IllegalActionError):
            assert error.rule is not None, str(error)

    run()


def test_the_pattern_finds_the_reprs_of_both_games():
    """The property could fail: what the engines printed before is caught by the pattern."""
    for old in (repr(Competition(((0, 5), (5, 6)))), repr(GiftPick(0)), repr(Sweep(2, None)),
                repr(Colour.WHITE), repr(Flip(3))):
        assert PYTHON_REPR.search(old), old


# --- exact messages ------------------------------------------------------------------------------

DEAL = Deal(removed=0, hands=((0, 1, 2, 3, 4, 5), (6, 6, 6, 6, 6, 5)),
            draws=(1, 2, 3, 3, 4, 4, 5, 5))


def hanamikoji_refusal(decisions, decision, *, first_player=0):
    error = refusal(registry.get("hanamikoji"), H.replay(decisions, first_player=first_player),
                    decision)
    assert error is not None
    return error


@checks("TURN-4")
def test_an_action_while_a_competition_waits_shows_the_competition_as_json():
    error = hanamikoji_refusal([DEAL, Competition(((0, 1), (1, 2)))], Secret(6))
    assert (type(error), error.rule) == (IllegalActionError, "TURN-4")
    assert str(error) == ('player 1 must first answer the pending '
                          '{"action":"competition","sets":[[0,1],[1,2]]} [TURN-4]')


@checks("TURN-3")
def test_a_pick_with_no_offer_shows_the_pick_as_json():
    error = hanamikoji_refusal([DEAL], GiftPick(0))
    assert str(error) == ('player 0 is to take an action; there is no offer to answer with '
                          '{"pick":0,"response":"gift"} [TURN-3]')
    error = hanamikoji_refusal([DEAL, TradeOff((0, 1))], CompetitionPick((5, 6)))
    assert str(error) == ('player 1 is to take an action; there is no offer to answer with '
                          '{"pick":[5,6],"response":"competition"} [TURN-3]')


@checks("DEAL-1")
def test_a_decision_before_the_deal_shows_it_as_json():
    error = hanamikoji_refusal([], Gift((0, 0, 6)))
    assert str(error) == ('round 0 has not been dealt yet; expected a deal, got '
                          '{"action":"gift","cards":[0,0,6]} [DEAL-1]')


def test_the_fast_draft_words_its_refusals_as_apply_does():
    """Draft (the engine's in-place replay) and apply share their messages."""
    for decisions, decision in (([DEAL, Competition(((0, 1), (1, 2)))], Secret(6)),
                                ([DEAL], GiftPick(0)), ([], Gift((0, 0, 6)))):
        draft = H.Draft.of(H.new_game())
        for done in decisions:
            draft.play(done)
        with pytest.raises(IllegalActionError) as caught:
            draft.play(decision)
        assert str(caught.value) == str(hanamikoji_refusal(decisions, decision))


def test_a_value_that_is_no_decision_is_named_by_its_json_or_its_type():
    game = registry.get("hanamikoji")
    dealt = H.replay([DEAL])
    assert str(refusal(game, dealt, (0, 5))) == "not a Hanamikoji decision: [0,5]"
    assert str(refusal(game, dealt, Flip(3))) == "not a Hanamikoji decision: a Flip object"
    with pytest.raises(InvalidActionError) as caught:
        TradeOff((0, 9))
    assert str(caught.value) == ("a card of a trade-off must be a geisha number from 0 to 6, "
                                 "not 9 [COMP-2]")
    with pytest.raises(InvalidActionError) as caught:
        Competition(((0, 1), ("a", 2)))  # type: ignore[arg-type]
    assert str(caught.value) == ('a card of a competition set must be a geisha number from 0 '
                                 'to 6, not "a" [COMP-2]')


@checks("MK-SETUP-5")
@pytest.mark.parametrize("engine", [M, MR], ids=["engine", "reference"])
def test_maiko_names_a_decision_before_the_layout_by_its_json(engine):
    state = M.new_game(Config.make(2))
    with pytest.raises(IllegalActionError) as caught:
        engine.apply(state, Flip(3))
    assert str(caught.value) == 'the layout comes first, not {"kind":"flip","space":3} [MK-SETUP-5]'


def test_a_maiko_decision_with_fields_out_of_range_is_shown_field_by_field():
    from hanamikoji.engine.maiko.actions import json_text

    assert json_text(Sweep(4, Colour.WHITE)) == '{"colour":"white","item":4,"kind":"sweep"}'
    assert json_text(Sweep(4, "white")) == '{"colour":"white","item":4,"kind":"sweep"}'  # type: ignore[arg-type]
    assert json_text(Sweep(4, b"w")) == "a sweep with item 4, colour a bytes object"  # type: ignore[arg-type]


# --- where users read them ---------------------------------------------------------------------


@checks("TURN-3")
def test_the_reference_adapter_answers_a_refusal_in_json():
    """What diff's reference, and the JavaScript example over it, answer (docs/oracle.md)."""
    requests = [{"op": "new_game", "variant": "standard", "first_player": 0},
                {"op": "deal", "deal": {"removed": 0, "hands": [[0, 1, 2, 3, 4, 5],
                                                               [5, 6, 6, 6, 6, 6]],
                                        "draws": [1, 2, 3, 3, 4, 4, 5, 5]}},
                {"op": "apply", "decision": {"response": "gift", "pick": 1}}]
    done = subprocess.run([sys.executable, "-m", "hanamikoji.oracle.core.adapter"],
                          input="".join(json.dumps(r) + "\n" for r in requests),
                          capture_output=True, text=True, timeout=60, check=True)
    answer = json.loads(done.stdout.splitlines()[-1])
    assert answer == {"error": "player 0 is to take an action; there is no offer to answer "
                               'with {"pick":1,"response":"gift"} [TURN-3]', "rule": "TURN-3"}


# --- the property suite's violations, about another engine -------------------------------------


def test_a_core_violation_shows_the_decisions_in_the_games_json():
    """properties/core: an engine whose legal actions are not sorted is told which, in JSON."""
    from hanamikoji.properties.core import invariants as inv

    class Reversed(type(registry.get("hanamikoji"))):  # type: ignore[misc]
        def legal_actions(self, state):
            return tuple(reversed(super().legal_actions(state)))

    with pytest.raises(inv.Violation) as caught:
        inv.legal_actions_are_sorted_and_distinct(Reversed(), H.replay([DEAL]))
    message = str(caught.value)
    assert 'not sorted: {"action":"competition","sets":[[' in message, message
    assert not PYTHON_REPR.search(message), message


@checks("TURN-3")
def test_a_hanamikoji_violation_shows_the_decision_in_json():
    """properties/hanamikoji: an engine that accepts an illegal pick is told which, in JSON."""
    from types import SimpleNamespace

    from hanamikoji.properties.hanamikoji import invariants as inv

    def lenient(state, decision):
        return state if isinstance(decision, GiftPick) else H.apply(state, decision)

    engine = SimpleNamespace(current_player=H.current_player, legal_actions=H.legal_actions,
                             apply=lenient)
    with pytest.raises(inv.Violation) as caught:
        inv.illegal_decisions_are_refused(H.replay([DEAL]), GiftPick(0), engine=engine)
    assert str(caught.value).startswith(
        'round 0, turn 0, phase action: {"pick":0,"response":"gift"} is accepted, but it is not '
        'among the legal decisions'), str(caught.value)


def test_a_maiko_decision_with_a_field_too_many_names_it_in_json():
    from hanamikoji.engine.maiko.record import decision_from_json

    with pytest.raises(InvalidActionError) as caught:
        decision_from_json({"kind": "flip", "space": 3, "x": 1})
    assert str(caught.value) == '$.x: a flip decision has no field "x"'
