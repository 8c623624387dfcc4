"""A Hanamikoji engine with the reference's API behind the oracle protocol of ``hanamikoji diff``:
the adapter of docs/examples/adapter.py, to import rather than copy.

The engine is any object with the reference's functions (the module
:mod:`hanamikoji.engine.hanamikoji` is one; :class:`hanamikoji.properties.hanamikoji.engine_api.Engine`
describes them): ``new_game(rules, first_player)``, ``apply(state, decision)``,
``legal_actions(state)``, ``observe(state, player)``, ``current_player(state)`` and, optionally,
``random_deal(rng)``, with the reference's decision values, states that have a ``result``, and
errors that subclass ``ValueError`` (with a ``rule`` attribute) for what the rules forbid. Its
requests are those of protocol 1, which the harness speaks to every Hanamikoji adapter that
does not declare otherwise (docs/oracle.md, "The protocol")::

    {"op": "new_game", "variant": "standard", "first_player": 0}   -> {"ok": true}
    {"op": "deal", "deal": {"removed": 3, "hands": [...], "draws": [...]}}   -> {"ok": true}
    {"op": "current_player"}          -> {"current_player": 0 | 1 | "chance" | "terminal"}
    {"op": "legal_actions"}           -> {"legal_actions": [decision, ...]}
    {"op": "apply", "decision": {...}}   -> {"ok": true}
    {"op": "observe", "player": 0}    -> {"view": {...}}
    {"op": "result"}                  -> {"result": null | {"winner": ..., "reason": ...}}
    {"op": "random_deal", "seed": 7}  -> {"deal": {...}}   (optional)

A request the rules forbid is answered ``{"error": "...", "rule": "ACT-GIFT-2"}`` and leaves the
game as it was. ``EngineAdapter(engine, protocol=2)`` (``--protocol 2``) declares protocol 2 in
its answer to ``new_game`` instead of nothing, and then also takes the general ``new_game`` and
``chance`` requests; ``protocol=3`` also takes ``batch``, several requests in one line, so that
``diff`` asks each step in one line; ``protocol=4`` also takes ``view_changes``, a view as what
changed since the one before, written from ``observe``'s answers. To serve your own engine::

    import my_engine
    from hanamikoji.oracle.hanamikoji.adapter import EngineAdapter

    EngineAdapter(my_engine).serve()

An engine with another API keeps the loop and overrides the operations it answers differently
(one method per request, named after its ``op``).

>>> adapter = EngineAdapter()
>>> adapter.answer('{"op": "new_game", "variant": "standard", "first_player": 0}')
{'ok': True}
>>> adapter.answer('{"op": "current_player"}')
{'current_player': 'chance'}
>>> adapter.answer('{"op": "apply", "decision": {"action": "secret", "cards": [3]}}')["rule"]
'DEAL-1'
"""

from __future__ import annotations

import importlib
import random
from typing import Any, Sequence

from hanamikoji.oracle.core.adapter import ProtocolAdapter, load
from hanamikoji.oracle.core.protocol import BATCH_PROTOCOL, CHANGES_PROTOCOL, GENERAL_PROTOCOL
from hanamikoji.engine.hanamikoji.codec import (
    deal_json,
    decision_json,
    parse_deal,
    parse_decision,
    player_json,
    result_json,
    view_json,
)
from hanamikoji.engine.hanamikoji.rules import Rules

#: What an engine must have; ``random_deal`` is optional (without it, seeded deals go unchecked).
FUNCTIONS = ("new_game", "apply", "legal_actions", "observe", "current_player")


class EngineAdapter(ProtocolAdapter):
    """The protocol-1 operations on ``engine`` (default: the reference); ``state`` is the game
    in progress."""

    OPERATIONS: tuple[str, ...] = ("new_game", "deal", "apply", "current_player",
                                   "legal_actions", "observe", "result", "random_deal")
    #: The engine's errors for what the rules forbid: ``ValueError`` subclasses, as the
    #: reference's (python-chess style); a ``rule`` attribute, if any, is passed on.
    REFUSALS = (ValueError,)

    def __init__(self, engine: Any = None, protocol: int = 1) -> None:
        # The reference engine's package: its functions are the API.
        self.engine = (importlib.import_module("hanamikoji.engine.hanamikoji") if engine is None
                       else engine)
        self.state: Any = None
        #: The protocol declared to ``new_game``: 1 says nothing; 2 adds the general requests,
        #: 3 also ``batch``.
        self.protocol = protocol
        if protocol >= GENERAL_PROTOCOL:
            self.OPERATIONS = (*type(self).OPERATIONS, "chance")
        if protocol >= BATCH_PROTOCOL:
            self.OPERATIONS = (*self.OPERATIONS, "batch")
        if protocol >= CHANGES_PROTOCOL:  # ProtocolAdapter's, from this adapter's observe
            self.OPERATIONS = (*self.OPERATIONS, "view_changes")

    def new_game(self, request: dict) -> dict:
        # Protocol 1 names the variant at the top level, the general request in its options.
        variant = request["variant"] if "variant" in request else request["options"]["variant"]
        self.state = self.engine.new_game(Rules.named(variant), request["first_player"])
        return {"ok": True} if self.protocol < GENERAL_PROTOCOL else \
            {"ok": True, "protocol": self.protocol}

    def deal(self, request: dict) -> dict:
        self.state = self.engine.apply(self.state, parse_deal(request["deal"]))
        return {"ok": True}

    def chance(self, request: dict) -> dict:
        # The general chance request: the outcome in its JSON form, {"deal": D}.
        self.state = self.engine.apply(self.state, parse_deal(request["outcome"]["deal"]))
        return {"ok": True}

    def apply(self, request: dict) -> dict:
        self.state = self.engine.apply(self.state, parse_decision(request["decision"]))
        return {"ok": True}

    def current_player(self, request: dict) -> dict:
        return {"current_player": player_json(self.engine.current_player(self.state))}

    def legal_actions(self, request: dict) -> dict:
        return {"legal_actions": [decision_json(d) for d in self.engine.legal_actions(self.state)]}

    def observe(self, request: dict) -> dict:
        return {"view": view_json(self.engine.observe(self.state, request["player"]))}

    def result(self, request: dict) -> dict:
        return {"result": result_json(self.state.result)}

    def random_deal(self, request: dict) -> dict:
        return {"deal": deal_json(self.engine.random_deal(random.Random(request["seed"])))}


def main(argv: Sequence[str] | None = None) -> None:
    """``python docs/examples/adapter.py [--engine MODULE[:NAME]]``: serve the engine on
    standard input and output; one line and exit 2 for an engine that cannot be loaded."""
    import argparse

    parser = argparse.ArgumentParser(
        description="A Hanamikoji engine with the reference's API behind the protocol of "
                    "hanamikoji diff: one JSON request per line on standard input, one JSON "
                    "answer per line on standard output.")
    parser.add_argument("--engine", default="hanamikoji.engine.hanamikoji",
                        help="MODULE or MODULE:NAME of the engine (default: the reference)")
    parser.add_argument("--protocol", type=int,
                        choices=(1, GENERAL_PROTOCOL, BATCH_PROTOCOL, CHANGES_PROTOCOL),
                        default=1,
                        help="the protocol declared to new_game: 1 (the default) declares "
                             "nothing; 2 the general requests; 3 also lets diff ask a whole "
                             "step in one line; 4 also each view as what changed")
    args = parser.parse_args(argv)
    try:
        engine = load(args.engine)
    except Exception as error:  # the engine's own import may fail any way: say it in one line
        parser.exit(2, f"{parser.prog}: --engine {args.engine}: cannot load it: "
                       f"{type(error).__name__}: {error}\n")
    missing = [name for name in FUNCTIONS if not callable(getattr(engine, name, None))]
    if missing:
        parser.exit(2, f"{parser.prog}: --engine {args.engine}: not an engine: it has no "
                       f"{', '.join(missing)}\n")
    EngineAdapter(engine, protocol=args.protocol).serve()


if __name__ == "__main__":
    main()
