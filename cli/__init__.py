"""The ``hanamikoji`` command: argument parsing (:mod:`.main`), the command handlers, and the
tools made for a person at a terminal: ``play``, ``simulate``, ``show``, ``stats``, ``bench``.

Every handler is imported only when its command runs, so the command starts fast."""
