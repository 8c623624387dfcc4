"""Every install and run line the docs give works as written in a fresh clone and venv.

The lines are the README's and docs/'s code-block lines (and the docstrings of docs/examples/)
that start with ``pip install`` or ``python -m venv``; a line is split at ``&&``. Each
``pip install`` of the clone (``.``, ``'.[extra,...]'``, with or without ``-e``) is run by the
pip of the tests' interpreter against a fresh venv (``--python``), in a copy of the clone, offline
and without installing anything (``--dry-run --no-index --no-build-isolation --no-deps``): the
spec must resolve in a clone and every extra it names must be one the package's metadata
provides (pip itself only warns about an unknown extra). A package named from an index instead
must be one of :data:`FROM_AN_INDEX`, a dependency the project declares. And a code block that
runs pytest, or a ``python -c`` that imports a module the toolkit does not depend on, installs
it first, in that block.
"""

from __future__ import annotations

import importlib.util
import json
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import tomllib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent

# Lines that need a package index, not only a clone: the package named, and why the docs ask
# for it. Each must be declared by pyproject.toml too (so the version is one the tests ran with).
FROM_AN_INDEX = {
    "jsonschema": "docs/oracle.md: checking a record against the schema with a third-party "
                  "validator (the test extra's jsonschema)",
}

# What a ``python -c`` line may import without installing it first: the toolkit and its core
# dependencies (pyproject's dependencies, by import name).
INSTALLED_WITH_THE_TOOLKIT = {"hanamikoji", "attrs", "attr", "hypothesis", "z3", "rich"}


def _blocks() -> list[tuple[str, list[str]]]:
    """(where, lines) of every shell-like code block of the README and docs/, and of the
    indented command lines of docs/examples/' docstrings."""
    found = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r"^```([a-z]*)\n(.*?)^```", text, re.M | re.S):
            if match.group(1) in ("", "sh", "bash", "console", "shell"):
                lines = [line.removeprefix("$ ") for line in match.group(2).splitlines()]
                line = text.count("\n", 0, match.start()) + 1
                found.append((f"{path.relative_to(ROOT)}:{line}", lines))
    for path in sorted((ROOT / "docs" / "examples").glob("*.py")):
        lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()
                 if line.startswith("    ") and line.strip().startswith(("pip ", "python "))]
        if lines:
            found.append((str(path.relative_to(ROOT)), lines))
    return found


def _commands(line: str) -> list[list[str]]:
    """The commands of one line (split at ``&&``), each without its leading ``VAR=value``
    assignments and without a trailing comment."""
    try:
        tokens = shlex.split(line, comments=True)
    except ValueError:
        return []
    commands: list[list[str]] = [[]]
    for token in tokens:
        if token == "&&":
            commands.append([])
        elif commands[-1] or not re.fullmatch(r"[A-Z_]+=\S*", token):
            commands[-1].append(token)
    return [c for c in commands if c]


def _install_lines() -> list[tuple[str, str]]:
    return [(where, line) for where, lines in _blocks() for line in lines
            if line.startswith(("pip install", "python -m venv"))]


def _pip_specs(command: list[str]) -> tuple[bool, list[str]] | None:
    """(editable, specs) of a ``pip install`` command, None for any other command."""
    if command[:2] != ["pip", "install"]:
        return None
    args = command[2:]
    return "-e" in args, [a for a in args if not a.startswith("-")]


def _extras(spec: str) -> set[str]:
    match = re.fullmatch(r"[^\[]*\[([^\]]*)\]", spec)
    return set() if match is None else {e.strip() for e in match.group(1).split(",")}


def _is_local(spec: str) -> bool:
    return spec == "." or spec.startswith((".[", "./"))


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> pathlib.Path:
    """A copy of what a clone needs to build the package (the folders pyproject maps, the
    readme and licence), so pip's metadata step litters a temporary folder, not the worktree."""
    target = tmp_path_factory.mktemp("clone")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    folders = {pathlib.PurePosixPath(d).parts[0]
               for d in project["tool"]["setuptools"]["package-dir"].values()}
    for name in sorted(folders):
        shutil.copytree(ROOT / name, target / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, target / name)
    return target


@pytest.fixture(scope="module")
def fresh_python(tmp_path_factory) -> pathlib.Path:
    """A fresh venv's interpreter: nothing installed, not even pip (the tests' pip drives it
    with ``--python``); offline, the build backend is found through one .pth line."""
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    where = "import sysconfig; print(sysconfig.get_path('purelib'))"
    site = subprocess.run([str(python), "-c", where],
                          capture_output=True, text=True, check=True).stdout.strip()
    setuptools = importlib.util.find_spec("setuptools")
    assert setuptools is not None and setuptools.origin is not None
    backend = pathlib.Path(setuptools.origin).parent.parent
    (pathlib.Path(site) / "build-backend.pth").write_text(f"{backend}\n")
    return python


def test_the_docs_have_install_lines():
    """The collector finds the lines this test is about (the README's two at least)."""
    lines = _install_lines()
    assert sum(where.startswith("README.md") for where, _ in lines) >= 2, lines


def test_every_pip_install_of_the_clone_resolves_offline_in_a_fresh_venv(clone, fresh_python,
                                                                           tmp_path):
    """Each distinct ``pip install`` of the docs, run as written in a copy of the clone against
    a fresh venv (dry run, offline): it resolves, and names only extras the package provides;
    a package from an index is one the project declares, listed in FROM_AN_INDEX."""
    runs: dict[tuple[bool, str], list[str]] = {}
    named: dict[str, list[str]] = {}
    for where, line in _install_lines():
        for command in _commands(line):
            parsed = _pip_specs(command)
            if parsed is None:
                continue
            editable, specs = parsed
            assert specs, f"{where}: {line!r} installs nothing"
            for spec in specs:
                if _is_local(spec):
                    runs.setdefault((editable, spec), []).append(where)
                else:
                    named.setdefault(spec, []).append(where)
    assert runs, "no pip install of the clone in the docs"
    provided: set[str] = set()
    declared: set[str] = set()
    # One run per way of installing (plain, editable), with every extra the docs ask for that
    # way: what each line would resolve, for the cost of two pip runs.
    for editable in sorted({editable for editable, _ in runs}):
        specs = {spec: wheres for (e, spec), wheres in runs.items() if e == editable}
        extras = sorted(set().union(*map(_extras, specs)))
        spec = "." + (f"[{','.join(extras)}]" if extras else "")
        report = tmp_path / "report.json"
        done = subprocess.run(
            [sys.executable, "-m", "pip", "--python", str(fresh_python), "install", "--dry-run",
             "--no-index", "--no-build-isolation", "--no-deps", "--quiet", "--report",
             str(report), *(["-e"] if editable else []), spec],
            cwd=clone, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, f"{sorted(specs)}: pip install {spec}: {done.stderr}"
        metadata = json.loads(report.read_text())["install"][0]["metadata"]
        provided = set(metadata.get("provides_extra", []))
        declared = {re.split(r"[\s<>=!~;\[]", r, maxsplit=1)[0].lower()
                    for r in metadata.get("requires_dist", [])}
        for asked, wheres in specs.items():
            unknown = _extras(asked) - provided
            assert not unknown, (f"{wheres}: {asked}: no extra {sorted(unknown)} (the package "
                                 f"has {sorted(provided)})")
    for name, wheres in named.items():
        assert name in FROM_AN_INDEX, (
            f"{wheres}: pip install {name} needs a package index (hanamikoji is not on one: "
            f"from a clone, pip install '.[EXTRA]'); FROM_AN_INDEX lists the lines that may")
        assert name.lower() in declared, f"{wheres}: {name} is not a dependency pyproject declares"


def test_a_venv_line_activates_the_venv_it_makes():
    """``python -m venv DIR`` is followed, on its line, by ``. DIR/bin/activate``, so the
    ``pip`` and commands after it are the venv's."""
    for where, line in _install_lines():
        commands = _commands(line)
        for k, command in enumerate(commands):
            if command[:3] == ["python", "-m", "venv"]:
                venv = command[-1]
                assert commands[k + 1:k + 2] == [[".", f"{venv}/bin/activate"]], (where, line)


def test_a_block_installs_what_it_runs():
    """A code block that runs pytest installs the test extra first; a ``python -c`` imports
    only what the toolkit depends on or what the block installed before it."""
    for where, lines in _blocks():
        extras: set[str] = set()
        packages: set[str] = set()
        for line in lines:
            for command in _commands(line):
                parsed = _pip_specs(command)
                if parsed is not None:
                    for spec in parsed[1]:
                        if _is_local(spec):
                            extras |= _extras(spec)
                        else:
                            packages.add(spec)
                    continue
                if command[0] == "pytest" or command[:3] == ["python", "-m", "pytest"]:
                    assert "test" in extras, (
                        f"{where}: {line!r} runs pytest, but the block does not install the "
                        f"test extra first (pip install -e '.[test]')")
                if command[:2] == ["python", "-c"] and len(command) > 2:
                    imported = {name.strip().split(".")[0]
                                for group in re.findall(r"^\s*import ([\w., ]+)", command[2], re.M)
                                for name in group.split(",")}
                    imported |= set(re.findall(r"^\s*from (\w+)", command[2], re.M))
                    missing = {m for m in imported if m not in sys.stdlib_module_names
                               and m not in INSTALLED_WITH_THE_TOOLKIT and m not in packages}
                    assert not missing, (f"{where}: {line!r} imports {sorted(missing)}, which "
                                         f"the block does not install first")
