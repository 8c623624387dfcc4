"""What the oracle's tools know of Hanamikoji beyond the game interface: the planned-round diff
driver, the fast perft counter, the hand-built conformance vectors, and the adapter for an
engine with the reference's API."""
