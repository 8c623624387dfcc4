"""The ``hanamikoji`` package: the reference rules toolkit for Hanamikoji and Maiko.

Its rooms are sub-packages, each a top-level folder of the checkout: ``hanamikoji.engine``
(engine/), ``hanamikoji.spec`` (spec/) and ``hanamikoji.properties`` (properties/). This module
only says which version is installed; importing it imports nothing else.

>>> __version__ == __import__("importlib.metadata").metadata.version("hanamikoji")
True
"""

from __future__ import annotations


def __getattr__(name: str) -> str:
    if name == "__version__":
        from importlib import metadata

        try:
            return metadata.version(__name__)
        except metadata.PackageNotFoundError:  # a checkout that is not installed
            return "unknown"
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
