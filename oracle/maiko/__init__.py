"""What the oracle's tools know of Maiko beyond the game interface: the hand-built vectors."""
