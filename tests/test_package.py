"""The package as users get it: ``hanamikoji.__version__``, and a wheel that ships the library
(the adapter included) but no test module."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from importlib import metadata
from pathlib import Path

import pytest

import hanamikoji
from hanamikoji.cli.main import toolkit_version

ROOT = Path(__file__).resolve().parents[1]


def test_the_version_is_the_installed_one():
    assert hanamikoji.__version__ == metadata.version("hanamikoji") == toolkit_version()
    with pytest.raises(AttributeError):
        hanamikoji.no_such_thing  # noqa: B018


#: What ``--version`` alone needs none of: the parser, the engines' value classes, the metadata.
HEAVY = ("argparse", "attrs", "attr", "importlib.metadata")


@pytest.mark.parametrize("entry", [["-m", "hanamikoji"],
                                   ["-c", "from hanamikoji.cli.main import run; run()"]])
def test_the_version_alone_is_answered_before_anything_heavy_is_imported(entry):
    """``hanamikoji --version`` (the console script runs ``hanamikoji.cli.main``) imports
    neither argparse nor attrs nor the package metadata: the version is ``__version__``."""
    done = subprocess.run([sys.executable, "-X", "importtime", *entry, "--version"],
                          capture_output=True, text=True, check=True)
    assert done.stdout == f"hanamikoji {hanamikoji.__version__}\n"
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()
                if line.startswith("import time:")}
    assert "hanamikoji.cli.main" in imported  # the measure sees the command's imports
    assert not imported & set(HEAVY), sorted(imported & set(HEAVY))


def test_the_version_with_a_command_is_still_the_parsers(capsys):
    from hanamikoji.cli.main import main

    with pytest.raises(SystemExit) as exited:
        main(["--version", "validate"])
    assert exited.value.code == 0 and capsys.readouterr().out == \
        f"hanamikoji {hanamikoji.__version__}\n"


def test_the_parser_builds_in_full_only_the_command_asked_for():
    from hanamikoji.cli.main import build_parser
    from hanamikoji.cli.parser import COMMANDS

    def declared(parser):
        (commands,) = [a for a in parser._actions if a.dest == "command"]
        return {name: len(sub._actions) > 1 for name, sub in commands.choices.items()}

    every = declared(build_parser())
    assert all(every.values()) and list(every) == list(COMMANDS)
    only = declared(build_parser("validate"))
    assert set(only) == set(every) and [n for n, full in only.items() if full] == ["validate"]
    args = build_parser("validate").parse_args(["validate", "x.jsonl", "--json"])
    assert args.paths == ["x.jsonl"] and args.json


def test_the_wheel_ships_the_library_and_no_tests(tmp_path):
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                           "-q", "-w", str(tmp_path), str(ROOT)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-500:]
    (wheel,) = tmp_path.glob("hanamikoji-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    modules = [n for n in names if n.endswith(".py")]
    assert "hanamikoji/__init__.py" in names
    assert "hanamikoji/oracle/core/adapter.py" in names  # python -m hanamikoji.oracle.core.adapter
    assert "hanamikoji/spec/maiko/rules.md" in names and "hanamikoji/spec/hanamikoji/rules.md" in names
    assert "hanamikoji/properties/core/cite.py" in names
    # the framework bridges ship with the library; only their frameworks are optional extras
    assert {"hanamikoji/integrations/openspiel.py", "hanamikoji/integrations/pettingzoo_env.py",
            "hanamikoji/integrations/encoding/maiko.py"} <= set(names)
    tests = [n for n in modules if n.rsplit("/", 1)[-1].startswith("test_")
             or n.endswith("conftest.py")]
    assert tests == [], tests
    # hanamikoji check MODULE runs the course's runner, loader and bot shim with Node: package
    # data, and the runner runs from the wheel's files alone (given the vectors' folder)
    course = "hanamikoji/oracle/hanamikoji/course/"
    shipped = {course + name for name in ("buaa_check.mjs", "buaa_module.mjs", "buaa_bot.mjs")}
    assert shipped <= set(names), sorted(shipped - set(names))
    if shutil.which("node") is None:
        return
    unpacked = tmp_path / "unpacked"
    zipfile.ZipFile(wheel).extractall(unpacked, members=sorted(shipped))
    done = subprocess.run(["node", str(unpacked / course / "buaa_check.mjs"),
                           str(ROOT / "tests" / "buaa" / "correct.mjs"),
                           str(ROOT / "tests" / "vectors" / "buaa")],
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, "6649 passed, 0 failed\n", "")
    alone = subprocess.run(["node", str(unpacked / course / "buaa_check.mjs"),
                            str(ROOT / "tests" / "buaa" / "correct.mjs")],
                           capture_output=True, text=True, timeout=120)
    assert alone.returncode == 2 and alone.stderr.startswith(
        "buaa_check.mjs: no VECTORS_DIR given, and no checkout's tests/vectors/buaa")
