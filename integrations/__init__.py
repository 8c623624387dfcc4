"""The toolkit's games in other frameworks: OpenSpiel and PettingZoo (docs/integrations.md).

- :mod:`.encoding`: what both bridges need of a game beyond the core ``Game`` interface (integer
  actions, chance drawn one component at a time, the bound, 0/1 tensors of the engine's views)
  and :class:`~.encoding.Play`, one game as the bridges play it; one encoding per game
  (:mod:`.encoding.hanamikoji`, :mod:`.encoding.maiko`). Plain Python: no numpy, no framework.
- :mod:`.openspiel`: registers ``python_hanamikoji`` and ``python_maiko`` with
  ``pyspiel.register_game`` (``pip install '.[openspiel]'``).
- :mod:`.pettingzoo_env`: AEC environments (``pip install '.[pettingzoo]'``).
- :mod:`.bench`: the figures of ``hanamikoji bench --only integrations``.

Every rule is the engine's, reached through the core ``Game`` interface: nothing here is a
second copy of the rules. Importing this package imports nothing optional.
"""
