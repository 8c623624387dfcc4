"""The ``hanamikoji`` package: the reference rules toolkit for Hanamikoji and Maiko.

Its rooms are sub-packages, each a top-level folder of the checkout: ``hanamikoji.engine``
(engine/), ``hanamikoji.spec`` (spec/), ``hanamikoji.properties`` (properties/),
``hanamikoji.oracle`` (oracle/: also a library, docs/api.md), ``hanamikoji.campaign``
(campaign/), ``hanamikoji.runtime`` (runtime/), ``hanamikoji.cli`` (cli/),
``hanamikoji.viewer`` (viewer/) and ``hanamikoji.integrations`` (integrations/). This module
only says the version, the one place it is written: the package metadata is built from it
(pyproject.toml), so reading it imports nothing.

>>> __version__ == __import__("importlib.metadata").metadata.version("hanamikoji")
True
"""

__version__ = "0.2.0"
