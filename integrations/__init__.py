"""Bridges from the toolkit's games to other frameworks: OpenSpiel and PettingZoo.

- :mod:`.encoding`: per game, the fixed integer action space, the card-by-card (tile-by-tile)
  chance decomposition, the bound on a game's length and the observation tensors. Plain Python:
  it imports neither OpenSpiel, PettingZoo nor numpy.
- :mod:`.openspiel`: registers ``python_hanamikoji`` and ``python_maiko`` with
  ``pyspiel.register_game`` (``pip install 'hanamikoji[openspiel]'``).
- :mod:`.pettingzoo_env`: AEC environments (``pip install 'hanamikoji[pettingzoo]'``).

Both are thin layers over the reference engine through the core ``Game`` interface, so no rule
is written twice (docs/integrations.md). Importing this package imports nothing optional.
"""
