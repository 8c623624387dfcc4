"""The examples in the docstrings of the property suite and of spec/coverage.py run."""

import doctest
import importlib

import pytest

MODULES = ["hanamikoji.properties.engine_api", "hanamikoji.properties.strategies",
           "hanamikoji.properties.invariants", "hanamikoji.properties.resample",
           "hanamikoji.properties.suite", "hanamikoji.properties.machine",
           "hanamikoji.properties.profiles", "hanamikoji.properties.sample",
           "hanamikoji.spec.coverage"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    failures, _ = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert failures == 0
