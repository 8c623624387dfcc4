"""``python -m hanamikoji.engine``: the ``hanamikoji`` command."""

from hanamikoji.cli.main import run

run()
