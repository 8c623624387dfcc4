"""Edges of Maiko's engine that whole random games do not reach or do not look at: what
``new_game`` takes, and the bounds its errors tell people."""

from __future__ import annotations

import pytest

from hanamikoji.engine.core.errors import InvalidActionError
from hanamikoji.engine.maiko import Config, new_game
from hanamikoji.properties.core.cite import checks


@pytest.mark.parametrize("config", [None, 2, "maiko", {"players": 2}])
def test_new_game_takes_only_a_config(config) -> None:
    """Anything but a Config is an InvalidActionError saying a Config was expected."""
    with pytest.raises(InvalidActionError) as caught:
        new_game(config)  # type: ignore[arg-type]
    assert "expected a maiko Config" in str(caught.value)


@checks("MK-SETUP-6")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_first_player_out_of_range_names_the_range(players: int) -> None:
    """MK-SETUP-6: the first player is 0 to N-1; the error says so for this N."""
    config = Config.make(players)
    for first in (-1, players, True, "0"):
        with pytest.raises(InvalidActionError) as caught:
            new_game(config, first)  # type: ignore[arg-type]
        assert caught.value.rule == "MK-SETUP-6"
        assert f"from 0 to {players - 1}, not {first!r}" in str(caught.value)
    assert [new_game(config, p).first_player for p in range(players)] == list(range(players))
