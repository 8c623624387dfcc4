"""The Python examples in the user docs run as shown."""

from __future__ import annotations

import contextlib
import io
import pathlib
import re

import pytest

DOCS = pathlib.Path(__file__).parent.parent / "docs"


@pytest.mark.parametrize("name", ["engine.md", "record-format.md"])
def test_python_blocks_run(name):
    text = (DOCS / name).read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks
    namespace: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        for block in blocks:
            exec(compile(block, f"{name}", "exec"), namespace)
