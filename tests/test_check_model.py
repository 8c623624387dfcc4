"""The report card's model (oracle/core/check.py): its JSON agrees with its schema, its counts
are consistent, its percentiles are the nearest-rank ones, a stderr tail is bounded."""

from __future__ import annotations

import json

import jsonschema
import pytest

from hanamikoji.oracle.core.check import (MAX_FAILURES, SCHEMA, STDERR_TAIL, Card, Check,
                                          Failure, Report, Reproduction, Timing, tail)


def card(failed: int = 1) -> Card:
    failure = Failure("T3 answer \"1FA\" is illegal: ACT-GIFT-1 a gift takes 3 cards", call=46,
                      request='hanamikoji_action("", "ABCDEFG", board)', rule="ACT-GIFT-1",
                      reproduction=Reproduction("javascript", "import m from './bot.js';"),
                      stderr="x" * 10_000, exit="exit code 1")
    return Card("pair-7", "module", "pair7/t3.js", [
        Check("t1", "T1 judge", passed=6561),
        Check("t3", "T3 action", passed=45, failed=failed,
              failures=[failure] if failed else [],
              timing=Timing.of([1.0, 2.0, 3.0, 40.0], limit=2000)),
        Check("t2", "T2 calc", skipped="the module does not export calc_current_state")])


def test_the_json_agrees_with_the_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    report = Report("hanamikoji", {"variant": "italian-three-rounds"}, 0, "0.0", [card(), card(0)])
    data = json.loads(json.dumps(report.to_json()))
    jsonschema.validate(data, SCHEMA)
    assert data["ok"] is False and [c["ok"] for c in data["cards"]] == [False, True]
    assert [c["status"] for c in data["cards"][0]["checks"]] == ["pass", "fail", "skip"]
    broken = dict(data, cards=[dict(data["cards"][0], kind="wasm")])
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, SCHEMA)


def test_the_summary_names_the_call_the_exit_and_the_reproduction():
    text = card().summary()
    assert text[0] == "pair-7 (module: pair7/t3.js): 1 of 3 checks failed"
    assert "  t3, first failure (call 46): T3 answer \"1FA\" is illegal" in "\n".join(text)
    assert "    the process ended: exit code 1" in text
    assert "      import m from './bot.js';" in text


def test_counts_must_agree():
    with pytest.raises(ValueError):
        Check("t3", "T3", failed=1)  # a failure counted, none kept
    with pytest.raises(ValueError):
        Check("t3", "T3", failed=1, failures=[Failure("a"), Failure("b")])
    assert MAX_FAILURES >= 1


def test_nearest_rank_percentiles():
    timing = Timing.of(range(1, 101))
    assert (timing.median, timing.p90, timing.p99, timing.longest) == (50, 90, 99, 100)
    assert Timing.of([7.0]).p99 == 7.0 and Timing.of([]) is None


def test_a_stderr_tail_is_bounded_and_whole_characters():
    kept = tail("é" * 5000)
    assert kept.startswith("…") and len(kept[1:].encode()) <= STDERR_TAIL
    assert tail(b"") is None and tail("short") == "short"
