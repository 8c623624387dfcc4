"""The package as users get it: ``hanamikoji.__version__``, and a wheel that ships the library
(the adapter included) but no test module."""

from __future__ import annotations

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
