"""The game-agnostic part of the specs: rule traceability (``spec coverage``) and the verify
report. Nothing here imports a game; games are reached through the registry."""
