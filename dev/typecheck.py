"""Type-check the whole package as users import it: ``python dev/typecheck.py [MYPY ARGS]``.

The rooms are top-level folders mapped under one import name (``engine/`` is
``hanamikoji.engine``, pyproject.toml's package-dir), a mapping mypy cannot read from the source
tree, where it would call ``engine/core/game.py`` ``engine.core.game`` and find no
``hanamikoji.engine``. So this builds the package's tree as the wheel lays it out, from links to
the checkout's folders, in a temporary folder, and runs ``mypy -p hanamikoji`` there with the
settings of pyproject.toml's ``[tool.mypy]``. Exit code: mypy's.
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import tempfile
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[1]


def main(argv: list[str]) -> int:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    dirs = config["tool"]["setuptools"]["package-dir"]
    with tempfile.TemporaryDirectory(prefix="hanamikoji-typecheck-") as tmp:
        top = pathlib.Path(tmp) / "hanamikoji"
        top.mkdir()
        for entry in (ROOT / dirs["hanamikoji"]).iterdir():
            (top / entry.name).symlink_to(entry)
        for package, folder in dirs.items():
            if package != "hanamikoji":
                (top / package.split(".", 1)[1]).symlink_to(ROOT / folder)
        env = {**os.environ, "MYPYPATH": tmp}
        command = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                   "-p", "hanamikoji", *argv]
        return subprocess.run(command, cwd=tmp, env=env, check=False).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
