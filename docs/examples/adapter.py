#!/usr/bin/env python3
"""The example adapter: a Python engine behind the oracle protocol of ``hanamikoji diff``.

    hanamikoji diff -- python docs/examples/adapter.py                       # the reference
    hanamikoji diff -- python docs/examples/adapter.py --engine my_package.engine

The harness writes one JSON request per line on this program's standard input and reads one JSON
answer per line from its standard output (docs/oracle.md, "The protocol"). ``--engine MODULE``
or ``MODULE:NAME`` names any engine with the reference's API (``new_game``, ``apply``,
``legal_actions``, ``observe``, ``current_player``, ``random_deal``; reference decision values;
states with a ``result``); the default is the reference.

The adapter is the package's, :mod:`hanamikoji.oracle.hanamikoji.adapter`; import it rather
than copy this file. To serve your own engine, the whole program is::

    import my_engine
    from hanamikoji.oracle.hanamikoji.adapter import EngineAdapter

    EngineAdapter(my_engine).serve()

It speaks the protocol as it was before the toolkit had several games (protocol 1: Hanamikoji
only, its chance steps as ``deal``), which the harness still speaks to any adapter that does not
declare otherwise. The reference adapter of every game, which declares the general requests, is
``python -m hanamikoji.oracle.core.adapter``.
"""

from hanamikoji.oracle.hanamikoji.adapter import main

if __name__ == "__main__":
    main()
