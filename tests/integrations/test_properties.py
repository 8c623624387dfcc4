"""The bridges under the property library: states reached by playing drawn legal decisions (the
core strategies, any options of either game), rebuilt through OpenSpiel. Hypothesis shrinks a
failure to a short game. Skipped without the ``openspiel`` extra."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("pyspiel")

from hanamikoji.engine.core import registry  # noqa: E402
from hanamikoji.integrations import openspiel as O  # noqa: E402
from hanamikoji.properties.core import strategies  # noqa: E402
from hanamikoji.properties.core.cite import checks  # noqa: E402

from helpers import seen_by  # noqa: E402


@st.composite
def bridged(draw):
    """A drawn game's state reached by play from seat 0 (the bridges' first player), and the
    same state rebuilt through OpenSpiel."""
    game = registry.get(draw(st.sampled_from(["hanamikoji", "maiko"]), label="game"))
    played = draw(strategies.playthroughs(game, first_player=0), label="played")
    framework = O.load(game.name, **game.options_of(played.config))
    return game, played.final, O.state_from_engine(framework, played.final)


@checks("INFO-2", "MK-INFO-2")
@given(bridged(), st.data())
def test_a_drawn_state_leaks_nothing_through_openspiel(drawn, data):
    """INFO-2, MK-INFO-2: what a drawn player cannot see, drawn again by the engine's
    resampler, changes nothing OpenSpiel gives them."""
    game, engine_state, state = drawn
    player = data.draw(strategies.players(game, engine_state), label="player")
    other = O.determinized(state, player, random.Random(data.draw(strategies.seeds())))
    assert seen_by(other, player) == seen_by(state, player)


@given(bridged())
def test_a_drawn_state_is_the_engines_through_openspiel(drawn):
    """The rebuilt state is the engine's state, its legal actions the engine's menu in order,
    and what it says of the end is the engine's."""
    game, engine_state, state = drawn
    assert O.engine_state(state) == engine_state
    encoding = O.play_of(state).encoding
    if not state.is_chance_node():
        assert [encoding.int_to_action(a) for a in state.legal_actions()] == \
            list(game.legal_actions(engine_state))
    assert state.is_terminal() == game.is_terminal(engine_state)
    if state.is_terminal():
        assert state.returns() == encoding.returns(game.outcome(engine_state),
                                                   game.num_players(game.config_of(engine_state)))
