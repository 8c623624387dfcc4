"""The examples in the docstrings of Maiko's engine and property modules run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["hanamikoji.engine.maiko.components", "hanamikoji.engine.maiko.actions",
           "hanamikoji.engine.maiko.game_type", "hanamikoji.engine.maiko.game",
           "hanamikoji.engine.maiko.record", "hanamikoji.engine.maiko.view",
           "hanamikoji.properties.maiko.invariants", "hanamikoji.properties.maiko.sample",
           "hanamikoji.properties.core.suite", "hanamikoji.properties.core.cite",
           "hanamikoji.spec.maiko.script", "hanamikoji.spec.maiko.findings",
           "hanamikoji.spec.maiko.confirm", "hanamikoji.spec.maiko.reach",
           "hanamikoji.spec.maiko.model", "hanamikoji.spec.maiko.where",
           "hanamikoji.spec.maiko.tokens",
           "hanamikoji.spec.core.solver", "hanamikoji.spec.core.expr", "hanamikoji.spec"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and result.attempted > 0
