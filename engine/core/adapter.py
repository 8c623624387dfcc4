"""Moved to :mod:`hanamikoji.oracle.core.adapter`. This name keeps working for code and scripts
written before the oracle had a room of its own: ``python -m hanamikoji.engine.core.adapter``
runs the same adapter, and every name is the oracle module's (CHANGELOG.md, 0.2.0)."""

from __future__ import annotations

import importlib
from typing import Any

_TARGET = "hanamikoji.oracle.core.adapter"


def __getattr__(name: str) -> Any:
    return getattr(importlib.import_module(_TARGET), name)


if __name__ == "__main__":
    importlib.import_module(_TARGET).main()
