"""The examples in the engine's docstrings run."""

import doctest
import importlib

import pytest

MODULES = ["cards", "rules", "actions", "game", "record", "construct", "__init__"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module("hanamikoji.engine.hanamikoji" + ("" if name == "__init__" else f".{name}"))
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0
