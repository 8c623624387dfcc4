"""The specs: the game-agnostic core (:mod:`.core`: rule traceability, the verify report) and
one sub-package per game with its normative rules, record schema and z3 model
(:mod:`.hanamikoji`, :mod:`.maiko`).

Importing this package does not import z3.
"""
