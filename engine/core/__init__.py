"""The game interface (:mod:`.game`), the registry of games (:mod:`.registry`) and the errors
every game raises (:mod:`.errors`).

Nothing here imports a game or a tool: games import this, and the tools (hanamikoji.oracle,
hanamikoji.cli, hanamikoji.spec, hanamikoji.properties) reach a game only through it. See
docs/architecture.md.
"""
