"""The examples in the docstrings of the z3 model's modules run."""

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["model", "witness", "queries"])
def test_docstring_examples(name):
    module = importlib.import_module(f"hanamikoji.spec.hanamikoji.{name}")
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0
