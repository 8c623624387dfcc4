"""``python -m hanamikoji.engine``: the ``hanamikoji`` command."""

from hanamikoji.engine.core.cli import run

run()
