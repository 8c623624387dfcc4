"""What a tool needs of the running process, for the command line and the library alike: the
exit codes and the typed errors (:mod:`.base`), the values of options (:mod:`.base`; the
game's options from a command's arguments are the command line's, :mod:`hanamikoji.cli.options`),
the one writer of files (:mod:`.output`), Ctrl-C that is never lost
(:mod:`.interrupt`) and the progress bar (:mod:`.progress`). It imports the engine's core and
nothing of the tools, so the oracle and the campaign layer use it without importing the
command line (docs/architecture.md, "The one-way doors")."""
