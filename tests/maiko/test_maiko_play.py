"""Maiko through the core's interface: registration, random play that always ends (thanks to the
static end), every invariant after every step, the ledger, non-interference, the display."""

from __future__ import annotations

import collections
import random

import pytest

from hanamikoji.engine.core import registry
from hanamikoji.engine.core.errors import OptionError
from hanamikoji.engine.core.game import CHANCE, TERMINAL, Game
from hanamikoji.engine.maiko import GAME, Config, MaikoGame, OneSan, legal_actions, observe, resample
from hanamikoji.engine.maiko.game import Phase
from hanamikoji.engine.maiko.view import seen_spaces
from hanamikoji.properties.maiko import invariants as inv
from hanamikoji.properties.maiko.scenarios import configure, play, random_states, start
from hanamikoji.properties.core.cite import checks


@checks("MK-SETUP-1")
def test_registered_and_complete() -> None:
    """MK-SETUP-1: the registry finds Maiko by name and by record format; every abstract method
    of the core's Game is implemented."""
    assert registry.get("maiko") is GAME and isinstance(GAME, Game)
    assert registry.by_format("maiko-record/1") is GAME
    assert not MaikoGame.__abstractmethods__
    assert GAME.rule_prefix == "MK-" and GAME.spec_file == "spec/maiko/rules.md"


@checks("MK-SETUP-1", "MK-SETUP-4")
def test_options() -> None:
    """MK-SETUP-1, MK-SETUP-4: options are JSON values with defaults; bad ones are OptionErrors."""
    assert GAME.configure() == Config.make(2)
    assert GAME.configure({"players": 4}) == Config.make(4)
    assert GAME.configure({"colours": "pink,white"}).removed_colour.label == "purple"
    assert GAME.options_of(GAME.configure({"players": 3})) == {
        "players": 3, "colours": "white,purple,pink", "removed_colour": ""}
    for bad in ({"players": 5}, {"colours": "red,white"}, {"removed_colour": "gold"},
                {"players": 3, "removed_colour": "green"}, {"seats": 2}, {"colours": 3}):
        with pytest.raises(OptionError):
            GAME.configure(bad)
    assert GAME.options[1].parse("pink,green") == "pink,green"


@checks("MK-SETUP-5")
def test_chance_then_play_through_the_interface() -> None:
    """MK-SETUP-5: the layout is a chance node the core draws through sample_chance; the game
    then runs to a terminal state with an outcome."""
    config = GAME.configure({"players": 3})
    state = GAME.new_game(config, 1)
    assert GAME.current_player(state) == CHANCE and GAME.chance_outcomes(state) is None
    assert GAME.legal_actions(state) == ()
    state = GAME.random_game(random.Random(4), config, 1, max_decisions=5_000)
    assert GAME.current_player(state) == TERMINAL and GAME.legal_actions(state) == ()
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores == state.result.scores
    assert GAME.first_player(state) == 1 and GAME.history(state)[0].kind.label == "layout"
    assert GAME.length(state)[0] == "turns"
    assert GAME.position_from_json(GAME.position_to_json(state)) == state
    assert GAME.replay(GAME.history(state), config, 1) == state


@checks("MK-STATIC-2", "MK-END-2", "MK-END-4")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_uniform_random_play_ends_every_game(players: int) -> None:
    """MK-STATIC-2, MK-END-2, MK-END-4: 50 seeded games of uniform random play all end, mostly
    by a full board or a static position."""
    config = Config.make(players)
    reasons: collections.Counter[str] = collections.Counter()
    for seed in range(50):
        state = GAME.random_game(random.Random(seed), config, seed % players,
                                 max_decisions=5_000)
        assert GAME.is_terminal(state), f"seed {seed} did not end"
        reasons[GAME.outcome(state).reason] += 1
    assert sum(reasons.values()) == 50
    assert reasons["static"] > 0 and reasons["full-board"] > 0


@checks("MK-COMP-1", "MK-COMP-2", "MK-TUTOR-1", "MK-TURN-2", "MK-COL-2", "MK-ROW-2", "MK-END-1")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_and_ledger_after_every_step(players: int) -> None:
    """MK-COMP-1, MK-COMP-2, MK-TUTOR-1, MK-TURN-2, MK-COL-2, MK-ROW-2, MK-END-1: every state
    and step invariant, and the core's ledger, after every step of seeded random games."""
    config = Config.make(players)
    expected = GAME.expected_ledger(config)
    for seed in range(3):
        before = None
        for state in random_states(config, 1000 + seed):
            assert GAME.ledger(state) == expected
            inv.check_state(state)
            if before is not None and state.steps != before.steps:
                inv.check_step(before, state.steps[-1].decision, state)
            before = state
        assert state.phase is Phase.OVER


@checks("MK-INFO-2", "MK-TUTOR-ONESAN-2", "MK-STATIC-3")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_non_interference(players: int) -> None:
    """MK-INFO-2, MK-TUTOR-ONESAN-2, MK-STATIC-3: redrawing every tile a player has not seen
    (keeping public flips and their own looks) changes neither their view nor the legal
    decisions; another player's look never reaches them."""
    config = Config.make(players)
    rng = random.Random(players)
    for seed in range(2):
        states = list(random_states(config, 500 + seed))
        for state in states[1::40] + [states[-1]]:
            inv.views_do_not_leak(state, rng)
            inv.looks_reach_only_the_looker(state)


@checks("MK-TUTOR-ONESAN-2", "MK-INFO-2")
def test_resample_keeps_own_looks_and_redraws_others() -> None:
    """MK-TUTOR-ONESAN-2, MK-INFO-2: resampling keeps what the player saw, and can change the
    tile another player looked at."""
    state = play(start(configure(2), []), "one-san 5", "one-san 6", "stop", "flip 0", "flip 2")
    assert state.current == 1
    changed = 0
    for seed in range(20):
        other = resample(state, 1, random.Random(seed))  # player 1 never saw 5 or 6
        assert observe(other, 1) == observe(state, 1)
        assert other.layout[0] == state.layout[0] and other.layout[2] == state.layout[2]
        changed += other.layout[5] != state.layout[5]
        mine = resample(state, 0, random.Random(seed))
        assert mine.layout[5:7] == state.layout[5:7]
        assert observe(mine, 0) == observe(state, 0)
    assert changed > 10
    assert seen_spaces(state, 1) == {0, 2} and seen_spaces(state, 0) == {0, 2, 5, 6}
    assert isinstance(state.steps[0].decision, OneSan)


@checks("MK-TURN-1")
def test_turn_counter_and_length() -> None:
    """MK-TURN-1: the state counts turns (a simulator may stop on it); length counts turns played."""
    state = play(start(configure(2), ["white-0", "white-1", "white-2", "white-3"]),
                 "flip 0", "flip 1", "flip 2", "flip 3")
    assert state.turn == 2 and GAME.length(state) == ("turns", 2)
    assert legal_actions(state)


@checks("MK-COMP-3", "MK-INFO-1")
def test_render_shows_grids_tokens_and_steps() -> None:
    """MK-COMP-3, MK-INFO-1: the display draws the board as a grid of spaces, each maiko board as
    3 x 3 item spaces, the tokens and every step of every turn."""
    state = GAME.random_game(random.Random(2), GAME.configure({"players": 3}),
                             max_decisions=5_000)
    lines = GAME.render(state)
    text = "\n".join(lines)
    assert lines[0].startswith("Maiko · 3 players")
    assert "  0-9 " in text and "[0: " in text and "[8: " in text and "tokens: pool" in text
    assert "Turn 0 · player 0" in text and text.splitlines()[-1].startswith("Result: ")
    assert sum(line.startswith("Turn ") for line in lines) == GAME.length(state)[1]
    assert GAME.decision_text(state.steps[0].decision).split()[0] in (
        "flip", "danna", "one-san", "oka-san", "sabanto")
