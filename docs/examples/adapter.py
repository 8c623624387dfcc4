#!/usr/bin/env python3
"""An example adapter: a Python engine behind the oracle protocol of ``hanamikoji diff``.

The harness writes one JSON request per line on this program's standard input and reads one JSON
answer per line from its standard output (docs/oracle.md, "The protocol"):

    {"op": "new_game", "variant": "standard", "first_player": 0}  -> {"ok": true}
    {"op": "deal", "deal": {"removed": 3, "hands": [...], "draws": [...]}}  -> {"ok": true}
    {"op": "current_player"}                          -> {"current_player": 0 | 1 | "chance" | "terminal"}
    {"op": "legal_actions"}                           -> {"legal_actions": [decision, ...]}
    {"op": "apply", "decision": {...}}                -> {"ok": true}
    {"op": "observe", "player": 0}                    -> {"view": {...}}
    {"op": "result"}                                  -> {"result": null | {"winner": ..., "reason": ...}}
    {"op": "random_deal", "seed": 7}                  -> {"deal": {...}}  (optional)

A deal or decision the rules forbid is answered ``{"error": "...", "rule": "ACT-GIFT-2"}`` (the
rule may be null) and leaves the game as it was. Write nothing else on standard output: logs go
to standard error.

This adapter wraps any engine with the reference engine's API (``new_game``, ``apply``,
``legal_actions``, ``observe``, ``current_player``, reference decision values, states with a
``result``), named ``MODULE`` or ``MODULE:NAME``:

    hanamikoji diff -- python docs/examples/adapter.py
    hanamikoji diff -- python docs/examples/adapter.py --engine my_package.engine

An engine with another API, or in another language, needs its own adapter: keep this loop and
replace the conversions between JSON and the engine's values.

This adapter speaks the protocol as it was before the toolkit had several games (protocol 1:
Hanamikoji only, its chance steps as ``deal``), which the harness still speaks to any adapter that
does not declare otherwise. The reference adapter of every game, which declares the general
requests, is ``python -m hanamikoji.engine.core.adapter``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
from typing import Any

from hanamikoji.engine import Rules
from hanamikoji.engine.hanamikoji.protocol import (
    deal_json,
    decision_json,
    parse_deal,
    parse_decision,
    player_json,
    result_json,
    view_json,
)


def load(spec: str) -> Any:
    """``MODULE`` or ``MODULE:NAME`` (NAME may be any name the module answers)."""
    module_name, _, name = spec.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, name) if name else module


class Adapter:
    """The protocol's operations on one engine; ``state`` is the game in progress."""

    OPERATIONS = ("new_game", "deal", "apply", "current_player", "legal_actions", "observe",
                  "result", "random_deal")

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self.state: Any = None

    def new_game(self, request: dict) -> dict:
        self.state = self.engine.new_game(Rules.named(request["variant"]),
                                          request["first_player"])
        return {"ok": True}

    def deal(self, request: dict) -> dict:
        self.state = self.engine.apply(self.state, parse_deal(request["deal"]))
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

    def answer(self, line: str) -> dict:
        try:
            request = json.loads(line)
            if request["op"] not in self.OPERATIONS:
                raise KeyError(request["op"])
            operation = getattr(self, request["op"])
        except (ValueError, KeyError, TypeError):
            return {"error": f"not a request of the protocol: {line.strip()[:80]}", "rule": None}
        try:
            return operation(request)
        except ValueError as error:  # the engine's errors for forbidden decisions
            return {"error": str(error), "rule": getattr(error, "rule", None)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="hanamikoji.engine",
                        help="MODULE or MODULE:NAME of the engine (default: the reference)")
    adapter = Adapter(load(parser.parse_args().engine))
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(adapter.answer(line)), flush=True)


if __name__ == "__main__":
    main()
