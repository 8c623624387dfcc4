"""docs/properties.md: its example runs, and its tables say what the code does."""

import contextlib
import io
import re
from pathlib import Path

from hanamikoji.properties.hanamikoji import strategies as S
from hanamikoji.properties.profiles import PROFILES
from hanamikoji.properties.hanamikoji.suite import PROPERTIES

DOC = (Path(__file__).resolve().parents[1] / "docs" / "properties.md").read_text(encoding="utf-8")


def table(heading_row):
    """The rows (lists of cells) of the markdown table whose header row starts so."""
    lines = DOC.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(heading_row))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split(" | ")])
    return rows


def names(cell):
    return re.findall(r"`([^`]+)`", cell)


def test_the_python_examples_run():
    blocks = re.findall(r"```python\n(.*?)```", DOC, re.S)
    assert len(blocks) == 3
    for block in blocks:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(block, "docs/properties.md", "exec"), {})


def test_the_generic_property_table_lists_every_generic_property():
    from hanamikoji.properties.core.suite import PROPERTIES as GENERIC

    rows = table("| property | what it checks |")
    listed = [name for row in rows for name in names(row[0])]
    assert listed == [p.name for p in GENERIC]


def test_the_property_table_lists_every_property_with_its_rules():
    rows = table("| property | rules |")
    assert [names(r[0])[0] for r in rows] == [p.name for p in PROPERTIES]
    for row, prop in zip(rows, PROPERTIES):
        assert row[1] == (", ".join(prop.rules) or "(contract)"), prop.name


def test_the_profile_table_gives_each_profiles_examples():
    rows = table("| profile | examples per property |")
    assert {names(r[0])[0]: int(r[1]) for r in rows} == {
        name: options["max_examples"] for name, options in PROFILES.items()}


def test_the_strategy_table_lists_every_strategy():
    rows = table("| strategy | draws |")
    listed = [names(r[0])[0].split("(")[0] for r in rows]
    assert sorted(listed) == sorted(n for n in S.__all__ if n[0].islower())


def test_the_profile_in_force_for_tests_is_the_one_hypothesis_profile_names():
    import os

    from hypothesis import settings

    chosen = os.environ.get("HYPOTHESIS_PROFILE") or "dev"
    assert settings.default.max_examples == PROFILES[chosen]["max_examples"]
