"""The kamon-token queries (issue 11 §2): token-from-tutor and all-tokens-in-hands.

Second method: a breadth-first search, in plain Python, over the ledger's states (tokens in the
pool, in hands, on cards, friends left) with the moves the rules allow (a friend or a column
gain, taken from the pool, else a card, else lost; a visit spending a held token): the fewest
gains and columns to each event. The witnesses are read step by step from the engine's replay;
every rule of each core is needed; a claim one too high, or a rule dropped, answers the other
way.
"""

from __future__ import annotations

import functools
import json
from collections import deque

import pytest

from hanamikoji.engine.core.validate import Status as Judged
from hanamikoji.engine.core.validate import judge_bytes
from hanamikoji.engine.maiko import FRIEND, Config
from hanamikoji.properties.core.cite import checks
from hanamikoji.spec.core.queries import Counterexample, Proof
from hanamikoji.spec.core.solver import Deadline
from hanamikoji.spec.maiko import tokens
from hanamikoji.spec.maiko.queries import by_name

COUNTS = (2, 3, 4)
QUERIES = {"token-from-tutor": "card", "all-tokens-in-hands": "lost"}


@functools.cache
def answer(name: str):
    return by_name(name).run()


@functools.cache
def search(players: int, event: str) -> tuple[int, int]:
    """(fewest gains, fewest column gains) to the event, by breadth-first search over (pool,
    hands, cards, friends left, columns so far) with gains ordered by count; columns are
    minimised among the fewest-gain paths and then over all (a second, weighted pass)."""
    friends = sum(1 for code in Config.make(players).tiles if code == FRIEND)
    start = (16 - players, players, 0, friends)

    def moves(state):
        pool, hands, cards, left = state
        out = []
        for kind in (["friend"] if left else []) + ["column"]:
            after_left = left - (kind == "friend")
            if pool:
                out.append(("gain", kind, (pool - 1, hands + 1, cards, after_left)))
            elif cards:
                out.append(("card", kind, (pool, hands + 1, cards - 1, after_left)))
            else:
                out.append(("lost", kind, (pool, hands, cards, after_left)))
        if hands:
            out.append(("visit", None, (pool, hands - 1, cards + 1, left)))
        return out

    def best(weight):
        # Dijkstra on (gains, columns) lexicographic weights, small graph
        import heapq

        seen = {}
        heap = [((0, 0), start)]
        while heap:
            (a, b), state = heapq.heappop(heap)
            if seen.get(state, (99, 99)) <= (a, b):
                continue
            seen[state] = (a, b)
            for what, kind, after in moves(state):
                gain = what != "visit"
                cost = (a + gain, b + (kind == "column")) if weight == "gains" else \
                    (a + (kind == "column"), b + gain)
                if what == event:
                    return cost
                if cost[0] <= 40:
                    heapq.heappush(heap, (cost, after))
        raise AssertionError("no path")

    gains = best("gains")[0]
    columns = best("columns")[0]
    return gains, columns


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_the_fewest_gains_and_columns_agree_with_a_search_over_ledger_states(name):
    found = answer(name)
    assert found.status == "answered", found.notes
    for n in COUNTS:
        shown = found.answer_json()[f"{n} players"]
        assert (shown["fewest gains"], shown["fewest columns"]) == search(n, QUERIES[name])


@checks("MK-TOKEN-1", "MK-TOKEN-2", "MK-SETUP-2", "MK-COMP-2", "MK-TUTOR-2", "MK-FLIP-5")
@pytest.mark.parametrize("name", sorted(QUERIES))
def test_the_witnesses_show_the_event_step_by_step_and_validate(name):
    """3 and 4 players: the game's replay shows the gain asked about after exactly 16 - N gains
    from the pool (the hands and the cards read at every step); 2 players: no witness and the
    answer says unknown, never possible."""
    found = answer(name)
    assert {w.config.players for w in found.witnesses} == {3, 4}
    assert found.answer_json()["2 players"]["possible"] == "unknown"
    for witness in found.witnesses:
        state = witness.confirm()
        record = witness.to_json()["record"]
        assert judge_bytes(json.dumps(record).encode()).status is Judged.VALID
        n = state.config.players
        steps = tokens._ledger_steps(state)
        for _, before, after in steps:  # MK-COMP-2 at every step
            assert after.pool + sum(after.hands) + sum(after.cards) == 16
        event = [i for i, (d, before, after) in enumerate(steps)
                 if (QUERIES[name] == "card" and before.pool == 0
                     and sum(after.cards) < sum(before.cards))
                 or (QUERIES[name] == "lost" and sum(before.hands) == 16
                     and before.layout[getattr(d, "space", 0)] == FRIEND
                     and type(d).__name__ == "Flip")]
        assert len(event) == 1
        assert found.answer_json()[f"{n} players"]["possible"] is True
        before = steps[event[0]][1]
        assert before.pool == 0 and (QUERIES[name] == "lost") == (sum(before.cards) == 0)


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_every_rule_of_each_core_is_needed(name):
    """Drop any rule of a proof's core and one fewer becomes possible."""
    found = tokens.token_from_tutor(Deadline(30)) if QUERIES[name] == "card" else \
        tokens.all_tokens_in_hands(Deadline(30))
    for proof in found.proofs:
        n = int(proof.claim.split()[0])
        quantity = "gains" if proof.claim.endswith(" gains") else "columns"
        value = int(proof.claim.split("at least ")[1].split()[0])
        assert proof.rules and all(r.startswith("MK-") for r in proof.rules)
        for rule in proof.rules:
            weak = tokens.fewest(n, QUERIES[name], quantity, Deadline(30), claimed=value,
                                 without=(rule,))
            assert isinstance(weak.check, Counterexample), (proof.claim, rule)
            assert weak.value < value


@checks("MK-TOKEN-2")
def test_without_the_pool_rule_a_card_gain_needs_no_empty_pool():
    """Claim one gain too many: "at most" what z3 found; drop MK-TOKEN-2 and a card gain comes
    after a single visit, with far fewer gains."""
    too_high = tokens.fewest(4, "card", "gains", Deadline(30), claimed=14)
    assert isinstance(too_high.check, Counterexample) and too_high.value == 13
    found = tokens.token_from_tutor(Deadline(30), without=("MK-TOKEN-2",))
    assert not found.witnesses
    values = dict(found.answer)
    assert dict(values["4 players"])["fewest gains"] < 13
    claimed = tokens.token_from_tutor(Deadline(30), claimed={(4, "gains"): 13},
                                      without=("MK-TOKEN-2",))
    assert any(isinstance(c, Counterexample) for c in claimed.counterexamples)
    (word, fewer), = dict(dict(claimed.answer)["4 players"])["fewest gains"]
    assert word == "at_most" and fewer < 13
