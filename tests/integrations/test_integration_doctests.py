"""The examples in the integrations' docstrings run (a bridge's only with its extra)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = {"encoding": None, "encoding.hanamikoji": None, "encoding.maiko": None,
           "openspiel": "pyspiel", "pettingzoo_env": "pettingzoo"}


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    if MODULES[name]:
        pytest.importorskip(MODULES[name])
    module = importlib.import_module(f"hanamikoji.integrations.{name}")
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried and failures == 0
