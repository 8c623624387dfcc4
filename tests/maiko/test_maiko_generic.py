"""Maiko passes every generic property of the core (properties/core/) for 2, 3 and 4 players,
the generic state machine, and the fresh-process reproducibility check: the same machinery that
checks Hanamikoji and the test game, with nothing Maiko-specific in it."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import settings
from hypothesis.stateful import run_state_machine_as_test

from hanamikoji.engine.core import registry
from hanamikoji.properties.core import invariants as inv
from hanamikoji.properties.core.machine import games_machine
from hanamikoji.properties.core.suite import PROPERTIES, PROPERTIES_BY_NAME
from hanamikoji.properties.core.cite import checks

NAMES = [p.name for p in PROPERTIES]
MAIKO = registry.get("maiko")


def scaled(examples: int, **options: Any) -> settings:
    """The loaded profile's settings with ``examples`` examples under ci."""
    return settings(max_examples=max(3, examples * settings.default.max_examples // 100),
                    deadline=None, **options)


@checks("MK-INFO-2", "MK-COMP-1", "MK-COMP-2")
@pytest.mark.parametrize("name", NAMES)
def test_maiko_passes_every_generic_property(name):
    """MK-INFO-2, MK-COMP-1, MK-COMP-2: purity, refusals with rule IDs, the tile and token
    ledger, records, views that leak nothing (resampled layouts), for any player count."""
    PROPERTIES_BY_NAME[name].test(MAIKO, settings=scaled(15))()


@checks("MK-TURN-1")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_state_machine_plays_maiko(players):
    """MK-TURN-1: the generic state machine plays Maiko and checks every invariant each step."""
    run_state_machine_as_test(games_machine(MAIKO, options={"players": players}),
                              settings=scaled(5))


@checks("MK-SETUP-5")
def test_seeded_maiko_games_are_the_same_in_a_fresh_process():
    """MK-SETUP-5: the layout is drawn from the seed alone, the same in any process."""
    inv.seeded_games_are_reproducible(MAIKO, seeds=(0, 1))
