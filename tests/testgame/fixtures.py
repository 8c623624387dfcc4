"""The pytest fixture that registers the test game, and the environment for the processes a test
starts.

A test file imports the fixture by name (pytest finds fixtures in a module's namespace)::

    sys.path.insert(0, str(TESTS))  # tests/, so that ``testgame`` imports
    from testgame.fixtures import testgame, subprocess_env  # noqa: F401

``testgame`` (module scope) registers :data:`~.game.GAME` in this process with
``registry.register`` and puts ``HANAMIKOJI_GAMES=testgame=testgame.game:GAME`` and tests/ on
``PYTHONPATH`` into the environment, so every process the test starts (a command, its worker
processes, a fresh process of the reproducibility check) finds the game too; all of it is undone
afterwards.
"""

from __future__ import annotations

import os
import pathlib
from typing import Iterator, Mapping

import pytest

from hanamikoji.engine.core import registry

from .game import GAME, TestGame

__all__ = ["TESTS", "TARGET", "subprocess_env", "testgame"]

#: The tests/ folder: on the import path, it makes ``testgame`` importable.
TESTS = pathlib.Path(__file__).resolve().parents[1]
#: How the registry finds the game from the environment.
TARGET = "testgame=testgame.game:GAME"


def subprocess_env(base: Mapping[str, str] | None = None, *,
                   target: str = TARGET) -> dict[str, str]:
    """``base`` (default: this process's environment) with ``target`` added to
    ``HANAMIKOJI_GAMES`` and tests/ put first on ``PYTHONPATH``."""
    env = dict(os.environ if base is None else base)
    games = [item for item in env.get(registry.ENVIRONMENT, "").split(",") if item.strip()]
    if target not in games:
        games.append(target)
    env[registry.ENVIRONMENT] = ",".join(games)
    path = [str(TESTS)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep)
                           if p and p != str(TESTS)]
    env["PYTHONPATH"] = os.pathsep.join(path)
    return env


@pytest.fixture(scope="module")
def testgame() -> Iterator[TestGame]:
    """The test game, registered here and, through the environment, in every process a test
    starts; unregistered afterwards."""
    env = subprocess_env()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(registry.ENVIRONMENT, env[registry.ENVIRONMENT])
        patch.setenv("PYTHONPATH", env["PYTHONPATH"])
        registry.register(GAME)
        try:
            yield GAME
        finally:
            registry.unregister(GAME.name)
