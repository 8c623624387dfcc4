"""Rule traceability: which tests and properties check each rule of every game's spec.

``hanamikoji spec coverage [--game NAME] [--json] [--root DIR]`` lists every rule ID of every
registered game (or of one) with the checks that cite it, and exits 1 when a rule is cited by no
check or when a file cites an ID that does not exist.

What counts:

* The rules are the bullets ``- **ID** ...`` (:data:`SPEC_BULLET`) of each game's spec file
  (:attr:`Game.spec_file`, relative to the checkout: spec/hanamikoji/rules.md, ...). A game is
  reached through the registry only; its IDs carry its own prefix, so one scan serves all.
* A citation is a rule ID given to the :func:`~hanamikoji.properties.core.cite.checks`
  decorator (``@checks("MK-FLIP-3")``) of a test (a function in a ``test_*.py`` file), of an
  invariant (a public function of an ``invariants.py`` of properties/) or of a state machine's
  rule or invariant (a ``machine.py`` of properties/): one mechanism for tests and properties
  alike. Nothing else counts: an ID in a comment, a docstring, a string or a fixture is a
  mention, and the tests of this tool (``test_coverage*.py``) cover nothing.
* Every ID-like token whose first word is a rule family of a spec (``DEAL``, ``ACT``,
  ``VAR``, ``MK``...) must name a rule, wherever it appears in tests/ and properties/: ``DEAL-9`` is
  reported as unknown, ``UTF-8`` is not a citation at all.
* Citations in engine/ are implementations, not checks; they are listed apart
  (``implemented_by``) and never cover a rule.

This module does not import z3.

>>> RULE_ID.findall("SCORE-3 and VAR-IT-2, not ACT-*-1 nor x-1")
['SCORE-3', 'VAR-IT-2']
"""

from __future__ import annotations

import ast
import functools
import os
import re
from importlib import resources
from pathlib import Path

import attrs

__all__ = ["RULE_ID", "SPEC_BULLET", "Coverage", "RuleCoverage", "Citation", "spec_rule_ids",
           "rule_ids_in", "scan", "find_root", "render"]

#: A rule ID anywhere in text: upper-case words joined by hyphens, then a number.
RULE_ID = re.compile(r"(?<![\w-])([A-Z]+(?:-[A-Z]+)*-[0-9]+)(?![\w-])")
#: A rule's bullet in spec/rules.md.
SPEC_BULLET = re.compile(r"^- \*\*([A-Z]+(?:-[A-Z]+)*-[0-9]+)\*\* ([^.]*)\.", re.MULTILINE)

_CHECKED_FOLDERS = ("tests", "properties")


@attrs.frozen
class Citation:
    """One rule ID in one place: ``file::qualname`` (or ``file`` at module level) and line."""

    rule: str
    path: str
    name: str | None
    line: int
    is_check: bool

    @property
    def where(self) -> str:
        return f"{self.path}::{self.name}" if self.name else self.path


@attrs.frozen
class RuleCoverage:
    """A rule, its title, the checks that cite it, and the engine code that cites it."""

    id: str
    title: str
    cited_by: tuple[str, ...]
    implemented_by: tuple[str, ...]


@attrs.frozen
class Coverage:
    """The traceability table: every rule in spec order (the games' specs one after another),
    the uncovered and the unknown IDs, and which game each rule belongs to."""

    rules: tuple[RuleCoverage, ...]
    uncovered: tuple[str, ...]
    unknown: tuple[Citation, ...]
    games: tuple[tuple[str, str, tuple[str, ...]], ...] = ()  # (game, spec file, its rule IDs)

    @property
    def ok(self) -> bool:
        return not self.uncovered and not self.unknown

    def to_json(self) -> dict:
        return {
            "rules": [{"id": r.id, "title": r.title, "cited_by": list(r.cited_by),
                       "implemented_by": list(r.implemented_by)} for r in self.rules],
            "uncovered": list(self.uncovered),
            "unknown": [{"id": c.rule, "where": f"{c.path}:{c.line}"} for c in self.unknown],
            "games": [{"game": game, "spec": spec, "rules": len(ids),
                       "uncovered": [r for r in self.uncovered if r in ids]}
                      for game, spec, ids in self.games],
        }


# --- the rules ---------------------------------------------------------------------------------


def rule_ids_in(text: str) -> tuple[tuple[str, str], ...]:
    """``(id, title)`` of every rule bullet of a rules text, in order.

    >>> rule_ids_in("- **DEAL-2** Removed card. One card ...")
    (('DEAL-2', 'Removed card'),)
    """
    return tuple((m.group(1), m.group(2).strip()) for m in SPEC_BULLET.finditer(text))


@functools.cache
def spec_rule_ids(game: str | None = None) -> tuple[str, ...]:
    """The rule IDs of the packaged spec of ``game`` (default: the registry's default), in order."""
    from hanamikoji.engine.core.registry import get

    spec = get(game).spec_file
    if spec.startswith("spec/"):  # packaged with the toolkit: hanamikoji.spec.<game>/rules.md
        package = "hanamikoji.spec." + ".".join(Path(spec).parent.parts[1:])
        text = resources.files(package).joinpath(Path(spec).name).read_text(encoding="utf-8")
        return tuple(rule for rule, _ in rule_ids_in(text))
    return ()


def game_specs(root: Path, only: str | None = None) -> list[tuple[str, str]]:
    """``(game, spec file)`` of every registered game (or of ``only``) whose spec file is in the
    checkout at ``root``."""
    from hanamikoji.engine.core.registry import available, get

    names = [only] if only is not None else list(available())
    return [(name, get(name).spec_file) for name in names
            if (root / get(name).spec_file).is_file()]


def _family(rule: str) -> str:
    return rule.split("-", 1)[0]


# --- citations ---------------------------------------------------------------------------------


@attrs.frozen
class _Unit:
    """A function or class: its lines (decorators included), qualname, whether it is public
    and top-level, and the lines of its docstring's first paragraph."""

    first: int
    last: int
    name: str
    public_top_level: bool
    summary: tuple[int, int] | None
    is_function: bool


def _summary_lines(node: ast.AST) -> tuple[int, int] | None:
    body = getattr(node, "body", [])
    if not (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)):
        return None
    first = body[0].lineno
    paragraph = body[0].value.value.split("\n\n", 1)[0]
    return first, first + paragraph.count("\n")


def _units(tree: ast.AST) -> list[_Unit]:
    """Every function and class, outermost first."""
    found: list[_Unit] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                first = min([child.lineno] + [d.lineno for d in child.decorator_list])
                name = f"{prefix}{child.name}"
                found.append(_Unit(first, child.end_lineno or child.lineno, name,
                                   not prefix and not child.name.startswith("_"),
                                   _summary_lines(child),
                                   not isinstance(child, ast.ClassDef)))
                visit(child, name + ".")
            else:
                visit(child, prefix)

    visit(tree, "")
    return found


def _checks_file(path: str) -> bool:
    """Whether ``@checks`` in this file cites: a test file (not the coverage tool's own tests),
    or an ``invariants.py`` or ``machine.py`` of properties/."""
    file = os.path.basename(path)
    if file.startswith("test_coverage"):
        return False
    if file.startswith("test_") and file.endswith(".py"):
        return True
    parts = path.split("/")
    return parts[0] == "properties" and file in ("invariants.py", "machine.py")


def _decorator_citations(tree: ast.AST) -> dict[int, str]:
    """The lines of the rule IDs given to ``checks(...)`` decorators, with the qualname of the
    function or class decorated."""
    found: dict[int, str] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                for decorator in child.decorator_list:
                    if not isinstance(decorator, ast.Call):
                        continue
                    called = decorator.func
                    word = called.attr if isinstance(called, ast.Attribute) else \
                        getattr(called, "id", None)
                    if word != "checks":
                        continue
                    for arg in decorator.args:
                        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                            found[arg.lineno] = name
                visit(child, name + ".")
            else:
                visit(child, prefix)

    visit(tree, "")
    return found


def citations_in(source: str, path: str, families: frozenset[str]) -> list[Citation]:
    """Every rule-ID token of a rule family in ``source`` (the file at ``path``, relative to the
    checkout), attributed to its innermost function or class; a token given to a ``@checks``
    decorator in a file whose checks count is a check, every other token a mention."""
    try:
        tree = ast.parse(source)
        units = _units(tree)
        decorated = _decorator_citations(tree) if _checks_file(path) else {}
    except SyntaxError:
        units, decorated = [], {}
    found = []
    for number, text in enumerate(source.splitlines(), start=1):
        for rule in RULE_ID.findall(text):
            if _family(rule) not in families:
                continue
            if number in decorated and (f'"{rule}"' in text or f"'{rule}'" in text):
                found.append(Citation(rule, path, decorated[number], number, True))
                continue
            around = [u for u in units if u.first <= number <= u.last]
            unit = around[-1] if around else None
            found.append(Citation(rule, path, unit.name if unit else None, number, False))
    return found


def _python_files(root: Path, folder: str) -> list[Path]:
    base = root / folder
    if not base.is_dir():
        return []
    return sorted(p for p in base.rglob("*.py") if "__pycache__" not in p.parts)


def scan(root: Path, specs: list[tuple[str, str]] | None = None) -> Coverage:
    """The coverage of the checkout at ``root``: the rules of each ``(game, spec file)`` (by
    default every registered game's), cited from tests/ and properties/, implemented in engine/."""
    specs = game_specs(root) if specs is None else specs
    rules: list[tuple[str, str]] = []
    games = []
    for game, spec in specs:
        found = rule_ids_in((root / spec).read_text(encoding="utf-8"))
        rules.extend(found)
        games.append((game, spec, tuple(rule for rule, _ in found)))
    known = {rule for rule, _ in rules}
    families = frozenset(_family(rule) for rule in known)
    checks: dict[str, list[str]] = {rule: [] for rule in known}
    implemented: dict[str, list[str]] = {rule: [] for rule in known}
    unknown: list[Citation] = []
    for folder in _CHECKED_FOLDERS + ("engine",):
        for file in _python_files(root, folder):
            path = file.relative_to(root).as_posix()
            for citation in citations_in(file.read_text(encoding="utf-8"), path, families):
                if citation.rule not in known:
                    if folder != "engine":
                        unknown.append(citation)
                    continue
                table = implemented if folder == "engine" else checks
                if folder == "engine" or citation.is_check:
                    if citation.where not in table[citation.rule]:
                        table[citation.rule].append(citation.where)
    rows = tuple(RuleCoverage(rule, title, tuple(checks[rule]), tuple(implemented[rule]))
                 for rule, title in rules)
    uncovered = tuple(r.id for r in rows if not r.cited_by)
    return Coverage(rows, uncovered, tuple(unknown), tuple(games))


def find_root(start: Path) -> Path | None:
    """The nearest folder at or above ``start`` with spec/, tests/ and properties/ and the
    default game's spec file."""
    from hanamikoji.engine.core.registry import get

    for folder in (start, *start.parents):
        if ((folder / get().spec_file).is_file() and (folder / "tests").is_dir()
                and (folder / "properties").is_dir()):
            return folder
    return None


# --- the command -------------------------------------------------------------------------------


def render(coverage: Coverage) -> str:
    width = max(len(r.id) for r in coverage.rules)
    by_id = {r.id: r for r in coverage.rules}
    lines = []
    for game, spec, ids in coverage.games:
        lines.append(f"{game} ({spec})")
        lines.append(f"{'rule':<{width}}  checks  cited by")
        for r in (by_id[i] for i in ids):
            shown = ", ".join(r.cited_by[:3]) + (f", +{len(r.cited_by) - 3} more"
                                                 if len(r.cited_by) > 3 else "")
            lines.append(f"{r.id:<{width}}  {len(r.cited_by):>6}  {shown or 'UNCOVERED'}")
        missing = [i for i in ids if i in coverage.uncovered]
        lines.append(f"{game}: {len(ids) - len(missing)} of {len(ids)} rules cited by a check")
        lines.append("")
    covered = len(coverage.rules) - len(coverage.uncovered)
    lines.append(f"{covered} of {len(coverage.rules)} rules cited by a check; "
                 f"{len(coverage.uncovered)} uncovered, {len(coverage.unknown)} unknown IDs cited")
    for citation in coverage.unknown:
        lines.append(f"unknown rule ID {citation.rule} at {citation.path}:{citation.line}")
    if coverage.uncovered:
        lines.append("uncovered: " + ", ".join(coverage.uncovered))
    return "\n".join(lines)
