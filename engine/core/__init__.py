"""The game-agnostic core: the game interface, the registry, and the tools that drive any game.

Nothing here imports a game; games import this. See docs/architecture.md.
"""
