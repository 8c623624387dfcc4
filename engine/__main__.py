"""``python -m hanamikoji.engine`` is the ``hanamikoji`` command."""

from .cli import run

run()
