"""``python -m hanamikoji``: the ``hanamikoji`` command."""

from hanamikoji.cli.main import run

run()
