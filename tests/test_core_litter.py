"""Commands that run Hypothesis leave nothing in the user's folder."""

from __future__ import annotations

from pathlib import Path

from hypothesis import configuration, given, settings, strategies as st

from hanamikoji.runtime.progress import _hypothesis_home, no_hypothesis_litter


def test_no_litter_restores_hypothesis_home_and_writes_nothing_in_the_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    before = _hypothesis_home(configuration)
    seen = []

    @settings(max_examples=5, database=None)
    @given(st.integers())
    def check(n):
        seen.append(n)

    with no_hypothesis_litter():
        inside = _hypothesis_home(configuration)
        check()
    assert seen, "the property ran"
    assert inside != before and not inside.exists(), "Hypothesis wrote to a temporary folder"
    assert _hypothesis_home(configuration) == before, "the home folder is restored as it was"
    assert list(tmp_path.iterdir()) == [], "nothing written in the current folder"
    assert isinstance(before, Path) and "StorageDirectory" not in str(before)
