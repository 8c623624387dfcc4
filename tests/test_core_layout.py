"""The core is game-agnostic: it imports no game, and names none but the registry's default.

The toolkit, its import namespace and its command are called ``hanamikoji`` after the first game,
so the grep of docs/architecture.md (``geisha|hanamikoji|charm`` over the core's files) must tell
the game from the tool: module paths (``hanamikoji.engine.core``), the command's name in its
messages (``hanamikoji simulate: error``) and the toolkit's own formats (``hanamikoji-verify/2``)
are the tool. Every other match must be the registry's default or sit in a docstring or comment
that names an example.
"""

from __future__ import annotations

import ast
import io
import pathlib
import re
import tokenize

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
# cli/, runtime/ and campaign/ have no game's part: each whole room is core.
WHOLE = ("cli", "runtime", "campaign")
CORE = sorted([p for room in ("engine", "spec", "properties", "oracle", "viewer")
               for p in (ROOT / room / "core").rglob("*.py")] +
              [p for room in WHOLE for p in (ROOT / room).rglob("*.py")])
GAME_PACKAGES = ("hanamikoji", "maiko")
WORDS = re.compile(r"geisha|hanamikoji|charm", re.IGNORECASE)
# The tool, not the game: the namespace (its rooms, and the framework bridges of
# hanamikoji.integrations), the command and its sub-commands, the tool's formats (and the
# namespace of its schemas' $id, urn:hanamikoji:).
TOOL = re.compile(r"hanamikoji\.(engine|spec|properties|integrations|oracle|cli|viewer|runtime|campaign)\b"
                  r"|hanamikoji-(verify|vectors|bench|hypothesis)\b"
                  r"|\bhanamikoji (\{|[a-z]+\b)|prog=\"hanamikoji\"|\"hanamikoji\"\s*$"
                  r"|hanamikoji-[a-z]+-?$|\.hanamikoji-|HANAMIKOJI_(GAMES|SCHEDULER)|\"hanamikoji: "
                  r"|urn:hanamikoji:")


def _prose_lines(source: str) -> set[int]:
    """Lines of comments and of string literals that are docstrings."""
    lines: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            lines.add(token.start[0])
    for node in ast.walk(ast.parse(source)):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            lines.update(range(body[0].lineno, (body[0].end_lineno or body[0].lineno) + 1))
    return lines


def test_the_core_has_files():
    assert {p.parent.parent.name for p in CORE if p.parent.name == "core"} == \
        {"engine", "spec", "properties", "oracle", "viewer"}
    assert {p.parent.name for p in CORE} >= set(WHOLE)


@pytest.mark.parametrize("path", CORE, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_core_imports_no_game(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            names = [module] + [f"{module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            assert not any(part in GAME_PACKAGES and i > 0 for i, part in enumerate(parts)), \
                f"{path.relative_to(ROOT)}:{node.lineno} imports a game: {name}"


@pytest.mark.parametrize("path", CORE, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_core_names_no_game_but_the_default(path):
    source = path.read_text(encoding="utf-8")
    prose = _prose_lines(source)
    for number, line in enumerate(source.splitlines(), start=1):
        rest = TOOL.sub("", line)
        if not WORDS.search(rest) or number in prose:
            continue
        allowed = path.name == "registry.py" and re.match(r'\s*(DEFAULT = |"hanamikoji": )', line)
        assert allowed, f"{path.relative_to(ROOT)}:{number} names a game: {line.strip()}"
