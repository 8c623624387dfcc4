"""The test game: a tiny Kuhn poker for three to five players that exists only in the tests, to
prove that the toolkit's core knows no game (rules: tests/testgame/rules.md).

Import it as ``testgame`` with tests/ on the import path (``PYTHONPATH=tests``); the registry
finds it with ``HANAMIKOJI_GAMES=testgame=testgame.game:GAME``. :mod:`.broken` holds two
deliberately broken versions; :mod:`.fixtures` the pytest fixture that registers the game.
"""
