"""The examples in the docstrings of the property suite and of spec/coverage.py run."""

import doctest
import importlib

import pytest

MODULES = ["hanamikoji.properties.hanamikoji.engine_api", "hanamikoji.properties.hanamikoji.strategies",
           "hanamikoji.properties.hanamikoji.invariants", "hanamikoji.properties.hanamikoji.resample",
           "hanamikoji.properties.hanamikoji.suite", "hanamikoji.properties.hanamikoji.machine",
           "hanamikoji.properties.profiles", "hanamikoji.properties.hanamikoji.sample",
           "hanamikoji.spec.core.coverage"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    failures, _ = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert failures == 0
