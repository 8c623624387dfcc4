"""The adapter loop users import to put an engine behind the diff protocol:
:class:`ProtocolAdapter` (the loop), :class:`EngineAdapter` (an engine with the reference's API,
what docs/examples/adapter.py runs) and :func:`load` (``MODULE[:NAME]``)."""

from __future__ import annotations

import io
import json
import pathlib
import subprocess
import sys

import pytest

import hanamikoji.engine.hanamikoji as reference
from hanamikoji.oracle.core.adapter import ProtocolAdapter, load
from hanamikoji.engine.core.errors import IllegalActionError
from hanamikoji.oracle.hanamikoji.adapter import EngineAdapter

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXAMPLE = [sys.executable, str(ROOT / "docs" / "examples" / "adapter.py")]


class Counter(ProtocolAdapter):
    """An engine of another API behind the loop: a counter that refuses to go below 0."""

    OPERATIONS = ("add", "value")

    def __init__(self) -> None:
        self.count = 0

    def add(self, request: dict) -> dict:
        if self.count + request["n"] < 0:
            raise IllegalActionError("below zero", "CTR-ZERO-1")
        if request["n"] > 100:
            raise ValueError("too much")
        self.count += request["n"]
        return {"ok": True}

    def value(self, request: dict) -> dict:
        return {"value": self.count, "z": None, "a": [1]}


def test_the_loop_answers_each_request_line_with_one_canonical_line():
    requests = io.StringIO('{"op": "add", "n": 2}\n\n{"op": "value"}\n{"op": "add", "n": -5}\n'
                           '{"op": "add", "n": 101}\n{"op": "add"}\n{"op": "steal"}\n[1]\n')
    out = io.StringIO()
    Counter().serve(requests, out)
    assert out.getvalue().splitlines() == [
        '{"ok":true}',
        '{"a":[1],"value":2,"z":null}',  # sorted keys, no spaces: what diff reads fastest
        '{"error":"below zero [CTR-ZERO-1]","rule":"CTR-ZERO-1"}',  # a refusal, with its rule
        '{"error":"cannot answer add: ValueError: too much","rule":null}',
        '{"error":"cannot answer add: no \\"n\\" key","rule":null}',
        '{"error":"not a request of the protocol: {\\"op\\": \\"steal\\"}","rule":null}',
        '{"error":"not a request of the protocol: [1]","rule":null}',
    ]


def test_the_engine_adapter_refuses_with_the_engines_value_errors_and_their_rule():
    adapter = EngineAdapter(reference)
    assert adapter.answer('{"op": "new_game", "variant": "standard", "first_player": 1}') == \
        {"ok": True}
    deal = adapter.answer('{"op": "random_deal", "seed": 3}')["deal"]
    assert adapter.answer(json.dumps({"op": "deal", "deal": deal})) == {"ok": True}
    assert adapter.answer('{"op": "current_player"}') == {"current_player": 1}
    secret = next(d for d in adapter.answer('{"op": "legal_actions"}')["legal_actions"]
                  if d["action"] == "secret")
    assert adapter.answer(json.dumps({"op": "apply", "decision": secret})) == {"ok": True}
    again = adapter.answer(json.dumps({"op": "apply", "decision": secret}))
    assert again["rule"] is not None and again["error"]  # the engine's own rule ID
    assert adapter.answer('{"op": "current_player"}') == {"current_player": 0}  # unchanged
    assert adapter.answer('{"op": "apply"}')["error"] == 'cannot answer apply: no "decision" key'


def test_the_default_engine_is_the_reference():
    assert EngineAdapter().engine is reference


def test_load_names_a_module_or_an_attribute_of_one():
    assert load("json") is json and load("json:dumps") is json.dumps
    with pytest.raises(ImportError):
        load("no_such_module_here")
    with pytest.raises(AttributeError):
        load("json:no_such_name")


@pytest.mark.parametrize("engine, message", [
    ("no_such_module_here", "cannot load it: ModuleNotFoundError: No module named "
                            "'no_such_module_here'"),
    ("json:nope", "cannot load it: AttributeError: module 'json' has no attribute 'nope'"),
    ("json", "not an engine: it has no new_game, apply, legal_actions, observe, "
             "current_player")])
def test_the_example_refuses_an_engine_it_cannot_use_in_one_line(engine, message):
    done = subprocess.run([*EXAMPLE, "--engine", engine], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"adapter.py: --engine {engine}: {message}\n"


def test_the_example_answers_on_its_standard_output_until_its_input_ends():
    requests = ['{"op": "new_game", "variant": "italian-three-rounds", "first_player": 0}',
                '{"op": "result"}', '{"op": "observe", "player": 0}']
    done = subprocess.run(EXAMPLE, input="\n".join(requests) + "\n", capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == ""
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert answers[:2] == [{"ok": True}, {"result": None}]
    assert answers[2]["view"]["variant"] == "italian-three-rounds"
