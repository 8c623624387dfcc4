"""spec/maiko/rules.md: its bullets parse as the coverage tool reads them, and every MK rule is
checked by a test of tests/maiko/ or an invariant of properties/maiko/invariants.py (the
coverage tool's definition of a check), and every MK ID cited anywhere exists."""

from __future__ import annotations

import ast
import pathlib
import re
from hanamikoji.properties.core.cite import checks

# The coverage tool's two patterns (spec/core/coverage.py), restated so that this test does not
# depend on where that module lives while the core is being moved.
RULE_ID = re.compile(r"(?<![\w-])([A-Z]+(?:-[A-Z]+)*-[0-9]+)(?![\w-])")
SPEC_BULLET = re.compile(r"^- \*\*([A-Z]+(?:-[A-Z]+)*-[0-9]+)\*\* ([^.]*)\.", re.MULTILINE)

ROOT = pathlib.Path(__file__).resolve().parents[2]
RULES = ROOT / "spec" / "maiko" / "rules.md"


def _rules() -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in SPEC_BULLET.finditer(RULES.read_text("utf-8"))]


def _checks() -> dict[str, set[str]]:
    """Rule ID -> the tests (test_* functions of test files) and invariants that cite it."""
    cited: dict[str, set[str]] = {}
    for path in sorted((ROOT / "tests" / "maiko").glob("test_*.py")):
        source = path.read_text("utf-8")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                segment = ast.get_source_segment(source, node) or ""
                for decorator in node.decorator_list:
                    segment += ast.get_source_segment(source, decorator) or ""
                for rule in RULE_ID.findall(segment):
                    cited.setdefault(rule, set()).add(f"{path.name}::{node.name}")
    invariants = ROOT / "properties" / "maiko" / "invariants.py"
    for node in ast.parse(invariants.read_text("utf-8")).body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            summary = (ast.get_docstring(node) or "").split("\n\n", 1)[0]
            for rule in RULE_ID.findall(summary):
                cited.setdefault(rule, set()).add(f"invariants.py::{node.name}")
    return cited


@checks("MK-COMP-1")
def test_rules_parse_and_are_unique_with_sources() -> None:
    """MK-COMP-1: every bullet has an MK ID, a title and a source; IDs are unique; 35 to 60."""
    rules = _rules()
    ids = [rule for rule, _ in rules]
    assert len(ids) == len(set(ids)) and 35 <= len(ids) <= 60
    assert all(rule.startswith("MK-") for rule in ids)
    bullets = [line for line in RULES.read_text("utf-8").splitlines() if line.startswith("- **")]
    assert len(bullets) == len(ids)
    assert all("*Source:*" in line for line in bullets)


@checks("MK-COMP-1")
def test_every_rule_is_checked() -> None:
    """MK-COMP-1: each MK rule is cited by at least one test or invariant (a check that can fail)."""
    cited = _checks()
    missing = [rule for rule, _ in _rules() if rule not in cited]
    assert not missing, f"rules with no check: {missing}"


@checks("MK-COMP-1")
def test_no_unknown_rule_is_cited() -> None:
    """MK-COMP-1: every MK ID in the Maiko engine, tests and properties names a rule."""
    known = {rule for rule, _ in _rules()}
    for folder in ("engine/maiko", "tests/maiko", "properties/maiko"):
        for path in (ROOT / folder).glob("*.py"):
            for rule in RULE_ID.findall(path.read_text("utf-8")):
                if rule.startswith("MK-"):
                    assert rule in known, f"{path.name} cites unknown rule {rule}"


@checks("MK-STATIC-1", "MK-END-4")
def test_silent_section_gives_every_reading() -> None:
    """MK-STATIC-1, MK-END-4: the spec states every reading it takes (static positions, dead positions, the end)."""
    text = RULES.read_text("utf-8")
    section = text.split("## Where the rulebook is silent", 1)[1]
    numbers = [int(n) for n in re.findall(r"^(\d+)\. \*\*", section, re.MULTILINE)]
    assert numbers[:11] == list(range(1, 12))
    assert "MK-STATIC-1" in section and "MK-END-4" in section
