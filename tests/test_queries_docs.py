"""docs/queries.md: its report shows the answers the catalogue gives now, and its example of a
new query runs."""

from __future__ import annotations

import itertools
import pathlib
import re

from hanamikoji.engine.hanamikoji import charm, geisha_count

from hanamikoji.spec.hanamikoji.model import Deadline
from hanamikoji.spec.hanamikoji.queries import CATALOGUE
from hanamikoji.spec.core.verify import answer_text

from .test_queries import answer, rule_ids

DOC = pathlib.Path(__file__).parent.parent / "docs" / "queries.md"


def test_the_pasted_report_has_the_current_answers():
    text = DOC.read_text()
    rows = dict(re.findall(r"^\| ([a-z0-9-]+) \| [^|]+ \| ([^|]+) \| [^|]+ \| [^|]+ \| [0-9.]+ \|$",
                           text, re.M))
    assert set(rows) == {q.name for q in CATALOGUE}
    for name, shown in rows.items():
        assert shown.strip() == answer_text(answer(name)), name


def test_the_example_query_runs():
    (block,) = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
    namespace: dict = {"__name__": "docs_example"}
    exec(compile(block, str(DOC), "exec"), namespace)
    found = namespace["two_geisha_charm_goal"](Deadline())
    assert found.answer is False
    (proof,) = found.proofs
    assert proof.rules and set(proof.rules) <= rule_ids()
    assert namespace["query"].name == "two-geisha-charm-goal"
    # the independent check the doc asks for: no marker row gives 11 charm with two geisha
    rows = itertools.product((None, 0, 1), repeat=7)
    assert not any(geisha_count(r, 0) == 2 and charm(r, 0) >= 11 for r in rows)


def _leaves(value) -> list:
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _leaves(v)]
    if isinstance(value, list):
        return [leaf for v in value for leaf in _leaves(v)]
    return [value]


def test_the_answer_table_in_words_has_the_current_answers():
    """The second table ("The questions, their answers...") writes answers in short words: each
    number it shows is one the query answers now, and its yes and no are the answer's."""
    text = DOC.read_text()
    section = text.split("## The questions, their answers, and how they are found", 1)[1]
    section = section.split("\n## ", 1)[0]
    rows = [(n, c) for n, c in re.findall(r"^\| ([a-z0-9-]+) \| [^|]+ \| ([^|]+) \| [^|]+ \|$",
                                          section, re.M) if n not in ("query", "---")]
    assert {name for name, _ in rows} == {q.name for q in CATALOGUE}
    for name, cell in rows:
        leaves = _leaves(answer(name).answer_json())
        numbers = [v for v in leaves if isinstance(v, int) and not isinstance(v, bool)]
        shown = [int(n) for n in re.findall(r"(?<![\w(])\d+(?![\w)])", cell)]
        for n in set(shown):
            assert shown.count(n) <= numbers.count(n), (name, cell, numbers)
        meaning = {"yes": True, "agree": True, "no": False, "differ": False}
        words = {meaning[w] for w in re.findall(r"\b(yes|no|agree|differ)\b", cell)}
        truths = {v for v in leaves if isinstance(v, bool)}
        assert words == truths, (name, cell, leaves)
        assert shown or words, f"{name}: the cell {cell!r} shows nothing that can be checked"


def test_the_maiko_table_has_the_current_answers():
    """docs/queries.md, "Maiko": one row per query of Maiko's catalogue, every number it shows
    is one the query answers now, and it says "unknown" exactly where the answer does."""
    from hanamikoji.spec.maiko.queries import CATALOGUE as MAIKO

    section = DOC.read_text().split("\n## Maiko\n", 1)[1].split("\n## ", 1)[0]
    rows = [(n, c) for n, c in re.findall(r"^\| ([a-z0-9-]+) \| [^|]+ \| ([^|]+) \|$", section,
                                          re.M) if n not in ("query", "---")]
    assert [n for n, _ in rows] == [q.name for q in MAIKO]
    for name, cell in rows:
        found = next(q for q in MAIKO if q.name == name).run()
        numbers = [v for v in _leaves(found.answer_json())
                   if isinstance(v, int) and not isinstance(v, bool)]
        for n in re.findall(r"-?\d+", cell.replace("MK-STATIC-2", "")):
            assert int(n) in numbers, (name, n, numbers)
        leaves = list(_leaves(found.answer_json()))
        # an answer the toolkit could not give is never documented as given, nor the reverse
        assert ("unknown" in cell) == ("unknown" in leaves), (name, cell)
