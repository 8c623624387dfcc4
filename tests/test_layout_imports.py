"""The house's doors: no import circle anywhere in the package, and every import between rooms
goes the way docs/architecture.md says.

The graph is read from the source, every ``import`` statement counted wherever it stands: at the
top of a module, inside a function (an import deferred to run time is still a dependency, and a
circle through one is still a circle), or under ``if TYPE_CHECKING``. An import of a package's
own ancestors is left out (Python imports them first anyway).
"""

from __future__ import annotations

import ast
import collections
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]

#: Each room (a top-level folder) and its import name.
ROOMS = {"engine": "hanamikoji.engine", "spec": "hanamikoji.spec",
         "properties": "hanamikoji.properties", "integrations": "hanamikoji.integrations",
         "oracle": "hanamikoji.oracle", "cli": "hanamikoji.cli", "viewer": "hanamikoji.viewer",
         "runtime": "hanamikoji.runtime", "campaign": "hanamikoji.campaign"}

#: The rooms each room may import (docs/architecture.md, "The one-way doors"). The command line
#: is a shell over the others, and nothing imports it: the tools share what they need of the
#: running process (exit codes, typed errors, option values, the one writer, Ctrl-C, signals and
#: process groups) through runtime, the lowest room after the engine, and run shards through
#: campaign. The viewer draws what the engine says and nothing else; the tools that write pages
#: import it.
DOORS = {
    "hanamikoji": set(),
    "engine": set(),
    "runtime": {"engine"},
    "spec": {"engine", "runtime"},
    "properties": {"engine", "spec"},
    "integrations": {"engine"},
    "campaign": {"engine", "runtime"},
    "oracle": {"engine", "spec", "properties", "viewer", "runtime", "campaign"},
    "cli": {"engine", "spec", "properties", "integrations", "oracle", "viewer", "runtime",
            "campaign"},
    "viewer": {"engine"},
}


def modules(root: pathlib.Path) -> dict[str, pathlib.Path]:
    """Every module of the package under ``root``, by import name."""
    found = {}
    for folder, base in ROOMS.items():
        for path in sorted((root / folder).rglob("*.py")):
            parts = list(path.relative_to(root / folder).with_suffix("").parts)
            if parts[0] == "package":  # engine/package is the top package, ``hanamikoji``
                parts, base_name = parts[1:], "hanamikoji"
            else:
                base_name = base
            if parts and parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join([base_name] + parts)] = path
    return found


def imports(root: pathlib.Path) -> dict[str, set[tuple[str, int]]]:
    """Module -> the package's modules it imports, each with the line of the import."""
    mods = modules(root)

    def known(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[tuple[str, int]]] = collections.defaultdict(set)
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                # ``from P import x``: the module P.x if there is one, else P itself.
                targets = [f"{source}.{a.name}" if f"{source}.{a.name}" in mods else source
                           for a in node.names]
            else:
                continue
            for target in targets:
                found = known(target) if target.startswith("hanamikoji") else None
                if found and found != name and not name.startswith(found + "."):
                    graph[name].add((found, node.lineno))
    return graph


def circles(graph: dict[str, set[tuple[str, int]]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, with an
    explicit stack so that no recursion limit applies)."""
    edges = {a: sorted({b for b, _ in bs}) for a, bs in graph.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            successors = edges.get(node, [])
            if i < len(successors):
                work.append((node, i + 1))
                nxt = successors[i]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            for succ in successors:
                if succ in on_stack:
                    low[node] = min(low[node], low[succ])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def room(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "hanamikoji"


def test_no_import_circle_anywhere_in_the_package():
    graph = imports(ROOT)
    assert len(graph) > 50  # the scan sees the package
    found = circles(graph)
    assert not found, "import circles:\n" + "\n".join(
        " -> ".join(c) + "\n  " + "; ".join(
            f"{a} imports {b} (line {line})" for a in c for b, line in sorted(graph[a]) if b in c)
        for c in found)


def wrong_doors(graph: dict[str, set[tuple[str, int]]]) -> list[str]:
    """Every import between rooms through no door of :data:`DOORS`, one line each. The
    ``__main__`` modules (``python -m hanamikoji``, ``python -m hanamikoji.engine``) are entry
    points that nothing imports: they run the command line, and are left out."""
    wrong = []
    for module, targets in graph.items():
        if module.endswith(".__main__"):
            continue  # an entry point (python -m ...): nothing imports it
        for target, line in sorted(targets):
            if room(target) != room(module) and room(target) not in DOORS[room(module)]:
                wrong.append(f"{module}:{line} imports {target} ({room(module)} -> {room(target)})")
    return wrong


def test_every_import_between_rooms_goes_through_a_door():
    wrong = wrong_doors(imports(ROOT))
    assert not wrong, "imports through no door:\n" + "\n".join(wrong)


def command_line_imports(graph: dict[str, set[tuple[str, int]]]) -> list[str]:
    """Every import of ``hanamikoji.cli`` by a module outside cli/ (the ``__main__`` entry
    points aside: nothing imports them)."""
    return [f"{module}:{line} imports {target}"
            for module, targets in sorted(graph.items())
            if room(module) != "cli" and not module.endswith(".__main__")
            for target, line in sorted(targets) if room(target) == "cli"]


def test_nothing_outside_the_command_line_imports_it():
    """The command line is a thin shell over the library: 0 imports of ``hanamikoji.cli``
    outside cli/, at the top of a module or deferred into a function."""
    graph = imports(ROOT)
    found = command_line_imports(graph)
    assert found == [], "imports of the command line outside cli/:\n" + "\n".join(found)
    assert all("cli" not in DOORS[r] for r in DOORS if r != "cli")
    # The entry points are the only modules outside cli/ that reach it.
    mains = {m for m, targets in graph.items() if m.endswith(".__main__") and
             any(room(t) == "cli" for t, _ in targets)}
    assert mains == {"hanamikoji.__main__", "hanamikoji.engine.__main__"}


def test_the_command_line_check_sees_an_import_of_it(tmp_path):
    """The check bites: an import of the command line planted in the oracle, deferred into a
    function, is found by both checks; one in an entry point is not."""
    for folder in ROOMS:
        (tmp_path / folder).mkdir()
    (tmp_path / "cli" / "base.py").write_text("")
    (tmp_path / "oracle" / "tool.py").write_text(
        "def run():\n    from hanamikoji.cli.base import EXIT_OK\n    return EXIT_OK\n")
    (tmp_path / "oracle" / "__main__.py").write_text("from hanamikoji.cli import base\n")
    graph = imports(tmp_path)
    assert command_line_imports(graph) == [
        "hanamikoji.oracle.tool:2 imports hanamikoji.cli.base"]
    assert wrong_doors(graph) == [
        "hanamikoji.oracle.tool:2 imports hanamikoji.cli.base (oracle -> cli)"]


def test_the_game_interface_imports_nothing_but_the_engine_core():
    graph = imports(ROOT)
    assert {t for t, _ in graph["hanamikoji.engine.core.game"]} <= {
        "hanamikoji.engine.core.codec", "hanamikoji.engine.core.errors"}


@pytest.mark.parametrize("deferred", [False, True])
def test_the_circle_check_finds_a_circle(tmp_path, deferred):
    """The check bites: a two-module circle in a made-up tree is found, through an import at the
    top of a module or one deferred into a function."""
    for folder in ROOMS:
        (tmp_path / folder).mkdir()
    (tmp_path / "oracle" / "a.py").write_text("from hanamikoji.oracle import b\n")
    body = "def f():\n    from . import a\n" if deferred else "from hanamikoji.oracle.a import x\n"
    (tmp_path / "oracle" / "b.py").write_text(body)
    (tmp_path / "oracle" / "c.py").write_text("import hanamikoji.oracle.a\n")
    assert circles(imports(tmp_path)) == [["hanamikoji.oracle.a", "hanamikoji.oracle.b"]]


def test_the_door_check_sees_a_wrong_door(tmp_path):
    for folder in ROOMS:
        (tmp_path / folder).mkdir()
    (tmp_path / "engine" / "x.py").write_text("def f():\n    import hanamikoji.oracle.y\n")
    (tmp_path / "oracle" / "y.py").write_text("")
    graph = imports(tmp_path)
    assert graph["hanamikoji.engine.x"] == {("hanamikoji.oracle.y", 2)}
    assert "oracle" not in DOORS[room("hanamikoji.engine.x")]


# --- the command's arguments are the command line's -------------------------------------------


def namespace_readers(root: pathlib.Path) -> list[str]:
    """Every place outside cli/ that names ``argparse.Namespace`` (a parameter or a return
    annotated with it, one made, ``from argparse import Namespace``): a function there that
    takes a command's parsed arguments is a command handler, or a tool reading the command
    line. (A program run by path, such as an adapter's ``main``, may parse its own ``argv``
    with an ``ArgumentParser``; it never names the namespace it gets back.)"""
    found = []
    for module, path in sorted(modules(root).items()):
        if room(module) == "cli":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            named = (isinstance(node, ast.Attribute) and node.attr == "Namespace"
                     and isinstance(node.value, ast.Name) and node.value.id == "argparse")
            imported = (isinstance(node, ast.ImportFrom) and node.module == "argparse"
                        and any(alias.name == "Namespace" for alias in node.names))
            if named or imported:
                found.append(f"{module}:{node.lineno} names argparse.Namespace")
    return found


def handlers(root: pathlib.Path) -> list[tuple[str, str, int]]:
    """Each sub-command's handler in cli/parser.py (``set_defaults(handler="MODULE:NAME")``):
    (module, name, line)."""
    tree = ast.parse((root / "cli" / "parser.py").read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "handler" and \
                isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            module, _, name = node.value.value.partition(":")
            found.append((module, name, node.value.lineno))
    return found


def handlers_outside(root: pathlib.Path) -> list[str]:
    """Every handler cli/parser.py names that is not a function defined at the top of a module
    of cli/."""
    mods = modules(root)
    wrong = []
    for module, name, line in handlers(root):
        path = mods.get(module)
        defined = path is not None and any(
            isinstance(node, ast.FunctionDef) and node.name == name
            for node in ast.parse(path.read_text(encoding="utf-8")).body)
        if room(module) != "cli" or not defined:
            wrong.append(f"cli/parser.py:{line} handler {module}:{name}"
                         + ("" if defined else " (no such function)"))
    return wrong


def test_only_the_command_line_reads_a_commands_arguments():
    """A tool of the oracle (or of any room but cli/) is a function of values that returns a
    value or raises a typed error: no module outside cli/ takes ``argparse.Namespace``, and
    every sub-command's handler is a function of cli/."""
    assert namespace_readers(ROOT) == []
    assert handlers_outside(ROOT) == []
    # The handlers read from the source are those of the parser as it is built, sub-command
    # by sub-command (so the check read every one, not a parser of none).
    import argparse

    from hanamikoji.cli.parser import COMMANDS, build_parser

    def built(parser: argparse.ArgumentParser) -> set[str]:
        found = {parser.get_default("handler")} - {None}
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub in set(action.choices.values()):
                    found |= built(sub)
        return found

    from_parsers = set().union(*(built(build_parser(name)) for name in COMMANDS))
    assert {f"{module}:{name}" for module, name, _ in handlers(ROOT)} == from_parsers
    assert len(from_parsers) >= len(COMMANDS)


def test_the_handler_check_sees_a_handler_outside_the_command_line(tmp_path):
    """The check bites: a handler planted in the oracle (annotated, named in the parser), a
    namespace made in the runtime and one imported by name are each found; a program parsing
    its own argv, and a handler of cli/, are not."""
    for folder in ROOMS:
        (tmp_path / folder).mkdir()
    (tmp_path / "oracle" / "tool.py").write_text(
        "import argparse\n\n\ndef run(args: argparse.Namespace) -> int:\n    return 0\n")
    (tmp_path / "oracle" / "adapter.py").write_text(
        "import argparse\n\n\ndef main() -> None:\n"
        "    args = argparse.ArgumentParser().parse_args()\n    print(args)\n")
    (tmp_path / "runtime" / "made.py").write_text(
        "def f(args):\n    import argparse\n    return argparse.Namespace(**vars(args))\n")
    (tmp_path / "campaign" / "named.py").write_text("from argparse import Namespace\n")
    (tmp_path / "cli" / "own.py").write_text(
        "import argparse\n\n\ndef own(args: argparse.Namespace) -> int:\n    return 0\n")
    (tmp_path / "cli" / "parser.py").write_text(
        'def build(p):\n    p.set_defaults(handler="hanamikoji.oracle.tool:run")\n'
        '    p.set_defaults(handler="hanamikoji.cli.own:own")\n'
        '    p.set_defaults(handler="hanamikoji.cli.own:gone")\n')
    assert namespace_readers(tmp_path) == [
        "hanamikoji.campaign.named:1 names argparse.Namespace",
        "hanamikoji.oracle.tool:4 names argparse.Namespace",
        "hanamikoji.runtime.made:3 names argparse.Namespace"]
    assert handlers_outside(tmp_path) == [
        "cli/parser.py:2 handler hanamikoji.oracle.tool:run",
        "cli/parser.py:4 handler hanamikoji.cli.own:gone (no such function)"]
