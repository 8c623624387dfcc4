"""The oracle's game-agnostic tools: validate, vectors, perft, diff, its protocol and adapter."""
