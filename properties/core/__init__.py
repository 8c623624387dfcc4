"""The generic property library: what every game of the core must satisfy, for any game.

* :mod:`.invariants`: one named function per generic invariant (apply is pure, legal actions
  apply and are sorted, other decisions are refused with a rule, the ledger is conserved, records
  and positions round-trip, views leak nothing, games end, the same seed gives the same game in
  a fresh process), each raising :class:`~.invariants.Violation`;
* :mod:`.strategies`: Hypothesis strategies for any game (options, starts, decisions, played and
  finished games), reaching states by playing drawn legal moves;
* :mod:`.suite`: each invariant paired with its strategy, as a Hypothesis test of a game;
* :mod:`.machine`: a state machine that plays games and checks every invariant after every step.

Everything goes through the :class:`~hanamikoji.engine.core.game.Game` interface; nothing here
imports a game. A game's own invariants live in its folder (properties/<game>/) and reuse these.
"""
