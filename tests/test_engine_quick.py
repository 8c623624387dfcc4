"""engine/hanamikoji/quick.py, validate's judge at a glance, against the full path: it keys
every record simulate writes with the full path's verdict, and no line the full path does not
judge valid, over records changed one character, one number or one turn at a time (each rule
the quick path checks is broken by some of them)."""

from __future__ import annotations

import io
import json
import random

import pytest

from hanamikoji.engine.core.errors import GameError
from hanamikoji.engine.core.registry import get
from hanamikoji.engine.hanamikoji.game import random_game
from hanamikoji.engine.hanamikoji.quick import judge_line
from hanamikoji.engine.hanamikoji.record import to_record
from hanamikoji.engine.hanamikoji.rules import PRESETS
from hanamikoji.engine.maiko.actions import Layout
from hanamikoji.engine.maiko.components import FRIEND as FRIEND_CODE
from hanamikoji.engine.maiko.game import Draft, Phase
from hanamikoji.engine.maiko.game import new_game as new_maiko
from hanamikoji.engine.maiko.quick import replay as maiko_replay
from hanamikoji.engine.maiko.record import decision_from_json as maiko_decision
from hanamikoji.oracle.core import validate as V

GAME = get("hanamikoji")


def _line(record: dict) -> bytes:
    return json.dumps(record, separators=(",", ":")).encode() + b"\n"


def _records(count: int, seed: int, variant: str = "standard") -> list[bytes]:
    rng = random.Random(seed)
    return [_line(to_record(random_game(rng, PRESETS[variant], i % 2))) for i in range(count)]


def _agrees(line: bytes) -> bool:
    """Whether the quick path says what the full path says of ``line`` (or nothing); True when
    it keyed the line."""
    key = judge_line(line)
    judgement = V.judge_bytes(line)
    if key is None:
        return False
    message, result = GAME.quick_outcome(key)
    assert judgement.status is V.Status.VALID, (line, key, judgement)
    assert (judgement.message, judgement.result) == (message, result), line
    return True


@pytest.mark.parametrize("variant", sorted(PRESETS))
def test_every_record_simulate_writes_is_keyed_with_the_full_verdict(variant):
    lines = _records(150, 3, variant)
    assert all(_agrees(line) for line in lines)
    # the form simulate itself writes (the command, not only to_record)
    assert all(_agrees(line.rstrip(b"\n")) for line in lines[:5])


def _mutations(line: bytes):
    """Every digit changed to each other digit, each turn swapped with the next or played
    again in place of the player's next, a round left out or played twice, other results."""
    for i, byte in enumerate(line):
        if 48 <= byte <= 57:
            for digit in b"0123456789":
                if digit != byte:
                    yield line[:i] + bytes([digit]) + line[i + 1:]
    record = json.loads(line)
    for r, rnd in enumerate(record["rounds"]):
        for t in range(len(rnd["turns"]) - 1):
            changed = json.loads(line)
            turns = changed["rounds"][r]["turns"]
            turns[t], turns[t + 1] = turns[t + 1], turns[t]
            yield _line(changed)  # out of turn
            if t + 2 < len(turns):
                turns[t + 1], turns[t] = turns[t], turns[t + 1]
                turns[t + 2] = dict(turns[t])
                yield _line(changed)  # a player's action twice
    shorter = dict(record, rounds=record["rounds"][:-1])
    yield _line(shorter)  # stops before the end
    yield _line(dict(record, rounds=record["rounds"] + record["rounds"][-1:]))  # goes on
    for reason in ("geisha", "charm", "charm-over-geisha", "round-limit-charm", "shared", "x"):
        yield _line(dict(record, result={"winner": record["result"]["winner"], "reason": reason}))
    yield _line({k: v for k, v in record.items() if k != "result"})  # no result: valid too


def test_no_changed_record_is_keyed_unless_the_full_path_judges_it_valid():
    keyed = refused = 0
    statuses = set()
    for line in _records(4, 11) + _records(2, 5, "italian-three-rounds"):
        for changed in _mutations(line):
            if _agrees(changed):
                keyed += 1
            else:
                refused += 1
                statuses.add(V.judge_bytes(changed).status)
    # Both answers were given often: the check is not vacuous.
    assert keyed > 20 and refused > 1000
    assert statuses == {V.Status.ILLEGAL, V.Status.MALFORMED}


def test_every_rule_the_quick_path_checks_is_broken_by_some_change():
    rules = set()
    for line in _records(4, 11):
        for changed in _mutations(line):
            if judge_line(changed) is None:
                judgement = V.judge_bytes(changed)
                if judgement.status is V.Status.ILLEGAL:
                    rules.add(judgement.rule)
    assert {"DEAL-1", "TURN-1", "TURN-3", "ACT-GIFT-2", "END-2", "END-3",
            "UPDATE-5"} <= rules
    assert any(rule.startswith("ACT-") and rule != "ACT-GIFT-2" for rule in rules)


def test_lines_in_another_form_are_left_to_the_full_path():
    line = _records(1, 2)[0]
    record = json.loads(line)
    for other in (json.dumps(record).encode(),  # spaces
                  json.dumps(dict(reversed(list(record.items())))).encode(),  # key order
                  b"\xef\xbb\xbf" + line,  # a BOM
                  line.replace(b"\n", b"\r\n"),
                  line.replace(b'"first_player":', b'"first_player":0,"first_player":'),
                  line.replace(b"hanamikoji-record/1", b"hanamikoji-record/2")):
        assert judge_line(other) is None


def _validate(text: bytes, quick: bool) -> list[str]:
    return [V.json_line(verdict) if quick else json.dumps(verdict.to_json())
            for verdict, _, _ in V.replayed(io.BytesIO(text), "f.jsonl", quick=quick)]


def test_validate_writes_the_same_verdicts_with_the_quick_path():
    lines = _records(6, 8)
    spaced = json.dumps(json.loads(lines[1])).encode() + b"\n"
    broken = next(changed for changed in _mutations(lines[2])
                  if V.judge_bytes(changed).status is V.Status.ILLEGAL)
    text = b"".join([lines[0], b"\n", spaced, broken, b"not json\n", lines[3],
                     b'{"format":"maiko-record/1"}\n', lines[4][:-1] + b"   \n",
                     b"[1,\n2]\n", lines[5][:-1]])
    slow = _validate(text, quick=False)
    assert _validate(text, quick=True) == slow
    assert [json.loads(v)["status"] for v in slow] == [
        "valid", "valid", "illegal", "malformed", "valid", "malformed", "valid", "malformed",
        "valid"]


# --- Maiko (engine/maiko/quick.py): the engine's own replay, the reading at a glance ----------

MAIKO = get("maiko")


def _maiko_records(players: int, count: int, seed: int) -> list[bytes]:
    config = MAIKO.configure({"players": players})
    rng = random.Random(seed)
    return [json.dumps(MAIKO.to_record(MAIKO.random_game(rng, config, i % players)),
                       separators=(",", ":")).encode() + b"\n" for i in range(count)]


def _maiko_agrees(line: bytes) -> bool:
    from hanamikoji.engine.maiko.quick import judge_line as maiko_line

    key = maiko_line(line)
    judgement = V.judge_bytes(line)
    if key is None:
        return False
    assert judgement.status is V.Status.VALID, (line[:200], judgement)
    assert (judgement.message, judgement.result) == MAIKO.quick_outcome(key)
    return True


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_maiko_record_simulate_writes_is_keyed_with_the_full_verdict(players):
    assert all(_maiko_agrees(line) for line in _maiko_records(players, 6, players))


def test_no_changed_maiko_record_is_keyed_unless_the_full_path_judges_it_valid():
    rng = random.Random(4)
    keyed = refused = 0
    rules = set()
    for players in (2, 3):
        line = _maiko_records(players, 1, 20 + players)[0]
        record = json.loads(line)
        changed = []
        digits = [i for i, byte in enumerate(line) if 48 <= byte <= 57]
        for i in rng.sample(digits, 120):
            changed.append(line[:i] + bytes([rng.choice(b"0123456789")]) + line[i + 1:])
        for t in rng.sample(range(len(record["turns"]) - 1), 20):
            other = json.loads(line)
            other["turns"][t]["steps"], other["turns"][t + 1]["steps"] = (
                other["turns"][t + 1]["steps"], other["turns"][t]["steps"])
            changed.append(_line(other))
        for a, b in (("white-", "purple-"), ("friend", "white-0"), ('"flip"', '"danna"'),
                     ('"danna"', '"one-san"')):
            changed.append(line.replace(a.encode(), b.encode(), 1))
        result = record["result"]
        for key, value in (("scores", [s + 1 for s in result["scores"]]),
                           ("own_colour", result["own_colour"][::-1]),
                           ("winners", [w for w in range(players) if w not in result["winners"]]),
                           ("reason", "full-board" if result["reason"] != "full-board"
                            else "static")):
            changed.append(_line(dict(record, result=dict(result, **{key: value}))))
        changed.append(_line(dict(record, turns=record["turns"][:-1])))
        changed.append(_line({k: v for k, v in record.items() if k != "result"}))
        for other in changed:
            if _maiko_agrees(other):
                keyed += 1
            else:
                refused += 1
                judgement = V.judge_bytes(other)
                # every changed line is in simulate's form: only a record at fault is refused
                assert judgement.status is not V.Status.VALID
                rules.add(judgement.rule)
    assert keyed >= 2 and refused > 150
    assert {"MK-TURN-1", "MK-FLIP-2", "MK-SCORE-1", "MK-SCORE-3"} <= rules


def test_a_file_of_many_outcomes_keeps_few_and_writes_the_same_lines(monkeypatch):
    """validate keeps the verdict of at most ``_KEPT`` outcomes (Maiko's are about as many as its
    records): past them a verdict is written the full way, with the same bytes."""
    monkeypatch.setattr(V, "_KEPT", 2)
    kept = []
    keep = V._keep_json_tail
    monkeypatch.setattr(V, "_keep_json_tail", lambda judgement: (kept.append(judgement),
                                                                  keep(judgement)))
    text = b"".join(_maiko_records(2, 5, 9) + _records(8, 1))
    assert _validate(text, quick=True) == _validate(text, quick=False)
    assert len(kept) == 2 and len({j.message for j in kept}) == 2


# --- Maiko's replay (engine/maiko/quick.py's replay): a mismatch turn played at once ----------

_FIELDS = [name for name in Draft.__slots__ if name not in ("steps", "base_steps")]


def _fields(draft: Draft) -> dict:
    return {name: getattr(draft, name) for name in _FIELDS}


def _copy(draft: Draft) -> Draft:
    return Draft.of(draft.freeze())


def _by_the_engine(draft: Draft, turn: int, player: int, steps: list[dict]) -> bool:
    """The record reader's replay of one turn's ``steps``: each step read, in its turn, by
    its player, before the end, then Draft.play; False for a step it refuses."""
    try:
        for step in steps:
            decision = maiko_decision(step)
            if draft.phase is Phase.OVER or draft.turn != turn or draft.current != player:
                return False
            draft.play(decision)
    except GameError:
        return False
    return True


def _quickly(draft: Draft, turn: int, player: int, text: bytes) -> bool:
    try:
        return maiko_replay(draft, text, turn) == turn + 1
    except GameError:
        return False


def _turn_text(turn: dict) -> bytes:
    return json.dumps(turn, separators=(",", ":")).encode()


def _maiko_games(count: int):
    """(the record, a draft of its game laid out) of ``count`` games of each player count."""
    for players in (2, 3, 4):
        for line in _maiko_records(players, count, 40 + players):
            record = json.loads(line)
            state = MAIKO.read_record(record)
            draft = Draft.of(new_maiko(state.config, state.first_player))
            draft.play(Layout(state.layout))
            yield record, draft


def test_maiko_replay_leaves_the_state_the_engine_leaves_turn_by_turn():
    """Every turn of whole games, the quick replay's state against Draft.play's, after each
    turn: a mismatch's shortcut changes what the engine changes, and nothing else."""
    shortcuts = 0
    for record, quick in _maiko_games(2):
        engine = _copy(quick)
        for t, turn in enumerate(record["turns"]):
            assert _by_the_engine(engine, t, turn["player"], turn["steps"])
            kinds = [step["kind"] for step in turn["steps"]]
            shortcuts += kinds[-2:] == ["flip", "flip"] and engine.turn == t + 1
            assert _quickly(quick, t, turn["player"], _turn_text(turn))
            assert _fields(quick) == _fields(engine), (t, turn)
        assert quick.result is not None and quick.result == engine.result
    assert shortcuts > 1000


def _spaces_to_try(draft: Draft) -> list[int]:
    """A few spaces of each kind: face down (tiles and friends), face up, empty, none."""
    n = len(draft.spaces)
    kinds: dict = {}
    for s in range(n):
        kind = (draft.spaces[s], draft.layout[s] == FRIEND_CODE)
        kinds.setdefault(kind, []).append(s)
    chosen = [s for spaces in kinds.values() for s in spaces[:3]]
    return chosen + [n, n + 1, 99]


def test_maiko_replay_plays_a_pair_of_flips_as_the_engine_at_every_kind_of_state():
    """From states of every phase (a first or second flip, a One-san visit, a row discard,
    the ending step, the end triggered), a turn of two flips (each pair of a few spaces of
    each kind, each player, the right turn and the next) is refused by the quick replay
    exactly when the engine refuses it, and otherwise leaves the engine's state."""
    seen = {}
    for record, engine in _maiko_games(1):
        for turn in record["turns"]:
            for step in turn["steps"]:
                key = (engine.phase, engine.triggered_by is not None, engine.visited,
                       (engine.current + 1) % engine.config.players == engine.first_player)
                if len(seen.get(key, ())) < 2 and engine.phase is not Phase.OVER:
                    seen.setdefault(key, []).append(_copy(engine))
                engine.play(maiko_decision(step))
    phases = {key[0] for key in seen}
    assert phases == {Phase.FIRST, Phase.SECOND, Phase.LOOK, Phase.SWEEP, Phase.ENDING}
    assert (Phase.FIRST, True, False, True) in seen  # a mismatch that ends the game
    accepted = refused = 0
    for drafts in seen.values():
        for draft in drafts:
            spaces = _spaces_to_try(draft)
            for turn in (draft.turn, draft.turn + 1):
                for player in range(draft.config.players):
                    for a in spaces:
                        for b in spaces:
                            flips = [{"kind": "flip", "space": a}, {"kind": "flip", "space": b}]
                            text = _turn_text({"player": player, "steps": flips})
                            quick, engine = _copy(draft), _copy(draft)
                            done = _quickly(quick, turn, player, text)
                            assert done == _by_the_engine(engine, turn, player, flips), (
                                draft.phase, a, b)
                            if done:
                                accepted += 1
                                assert _fields(quick) == _fields(engine), (a, b)
                            else:
                                refused += 1
    assert accepted > 100 and refused > 1000


def test_maiko_replay_keeps_at_most_so_many_turns_and_judges_the_same_past_them(monkeypatch):
    from hanamikoji.engine.maiko import quick

    lines = _maiko_records(2, 3, 7)
    monkeypatch.setattr(quick, "_TURN_TEXTS", {})
    monkeypatch.setattr(quick, "_TURNS_KEPT", 50)
    assert all(_maiko_agrees(line) for line in lines)
    assert len(quick._TURN_TEXTS) == 50
