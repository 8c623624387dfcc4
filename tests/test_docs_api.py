"""docs/api.md's examples run as shown: each ``>>>`` line is run, and what it prints is
compared with the page (doctest, ``...`` standing for what changes from run to run: seconds,
paths, the module that defines an exception)."""

from __future__ import annotations

import doctest
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_the_api_page_examples_run_as_shown(monkeypatch):
    monkeypatch.chdir(ROOT)  # the examples read tests/vectors/ and docs/examples/
    monkeypatch.setattr(sys, "path", list(sys.path))  # the page puts tests/ on it
    failures, tried = doctest.testfile(
        str(ROOT / "docs" / "api.md"), module_relative=False, encoding="utf-8",
        optionflags=doctest.ELLIPSIS, report=True)
    assert tried > 20 and failures == 0
