"""The oracle: the tools that check another implementation against the reference.

``core/`` holds the game-agnostic tools, each working through the :class:`~hanamikoji.engine.core.game.Game`
interface only: the record validator (:mod:`.core.validate`), the conformance vectors
(:mod:`.core.vectors`), perft (:mod:`.core.perft`), the differential harness (:mod:`.core.diff`),
its line protocol (:mod:`.core.protocol`) and the reference adapter (:mod:`.core.adapter`). One
sub-package per game holds what a tool needs of that game beyond the interface: Hanamikoji's
planned-round diff driver, fast perft counter and hand-built vectors; Maiko's vectors.
"""
