"""dev/plain_hanamikoji.py, the plain mutable yardstick of ``bench --only plain``, is honest: on
the same records it gives the toolkit's verdicts (valid, illegal, malformed) and results, its
``validate`` writes a valid record's line as ``validate --json`` does, and its random games
choose among the toolkit's own menus."""

from __future__ import annotations

import importlib.util
import json
import pathlib
import random
import subprocess
import sys

from hanamikoji.engine.hanamikoji.cards import counts
from hanamikoji.engine.hanamikoji.game import Draft, Phase, new_game, random_deal, random_game
from hanamikoji.engine.hanamikoji.record import to_record
from hanamikoji.engine.hanamikoji.rules import PRESETS
from hanamikoji.oracle.core import validate as V

ROOT = pathlib.Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "dev" / "plain_hanamikoji.py"


def _plain():
    spec = importlib.util.spec_from_file_location("plain_hanamikoji", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _lines(count: int, seed: int) -> list[bytes]:
    rng = random.Random(seed)
    return [json.dumps(to_record(random_game(rng, PRESETS[("standard", "italian-three-rounds")
                                                          [i % 2]], i % 2)),
                       separators=(",", ":")).encode() + b"\n" for i in range(count)]


def _changed(line: bytes):
    """Each digit of ``line`` changed to each other digit, and the record with a round less."""
    for i, byte in enumerate(line):
        if 48 <= byte <= 57:
            for digit in b"0123456789":
                if digit != byte:
                    yield line[:i] + bytes([digit]) + line[i + 1:]
    record = json.loads(line)
    yield json.dumps(dict(record, rounds=record["rounds"][:-1])).encode()


def test_the_yardstick_gives_the_toolkits_verdicts_and_results(tmp_path):
    lines = _lines(40, 4)
    lines += [changed for line in lines[:3] for changed in _changed(line)]
    path = tmp_path / "records.jsonl"
    path.write_bytes(b"".join(line.rstrip(b"\n") + b"\n" for line in lines))
    done = subprocess.run([sys.executable, str(SCRIPT), "validate", str(path)],
                          capture_output=True, check=True)
    plain = [json.loads(line) for line in done.stdout.splitlines()]
    full = [V.judge_bytes(line) for line in lines]
    assert [v["status"] for v in plain] == [j.status.value for j in full]
    assert [v["result"] for v in plain] == [j.result for j in full]
    statuses = {j.status for j in full}
    assert statuses == {V.Status.VALID, V.Status.ILLEGAL, V.Status.MALFORMED}
    # A valid record's line is the toolkit's, byte for byte.
    valid = [i for i, j in enumerate(full) if j.status is V.Status.VALID]
    toolkit = [json.dumps(V.Verdict(i, str(path), i + 1, full[i]).to_json()) for i in valid]
    assert [done.stdout.splitlines()[i].decode() for i in valid] == toolkit


def test_the_yardsticks_menus_are_the_toolkits():
    plain = _plain()
    rng = random.Random(9)
    checked = 0
    for _ in range(30):
        draft = Draft.of(new_game(PRESETS["standard"], 0))
        while draft.phase is not Phase.OVER:
            if draft.phase is Phase.DEAL:
                draft.play(random_deal(rng))
                continue
            menu = draft.legal()
            if draft.phase is Phase.ACTION:
                player = draft.active
                hand = [g for g in range(7) for _ in range(draft.hands[player][g])]
                used = [kind.value for kind in draft.used[player]]
                mine = plain.legal_turns(hand, used)
                theirs = [(a.kind.value, sorted(a.cards) if a.kind.value != "competition"
                           else [c for pair in a.pairs for c in pair]) for a in menu]
                assert sorted(map(str, mine)) == sorted(map(str, theirs))
                assert all(counts(cards) for _, cards in mine)
                checked += 1
            draft.play(rng.choice(menu))
    assert checked > 300


def test_the_yardstick_simulates_whole_games():
    done = subprocess.run([sys.executable, str(SCRIPT), "simulate", "200", "1"],
                          capture_output=True, text=True, check=True)
    words = done.stdout.split()
    assert words[:2] == ["200", "games:"]
    assert int(words[3]) + int(words[4].rstrip(",")) + int(words[6].rstrip(",")) == 200


MAIKO = ROOT / "dev" / "plain_maiko.py"


def test_the_maiko_yardstick_gives_the_toolkits_verdicts_and_results(tmp_path):
    from hanamikoji.engine.core.registry import get

    game = get("maiko")
    lines = []
    for players in (2, 3, 4):
        config = game.configure({"players": players})
        rng = random.Random(players)
        for i in range(4):
            state = game.random_game(rng, config, i % players)
            lines.append(json.dumps(game.to_record(state), separators=(",", ":")).encode())
    rng = random.Random(1)
    changed = []
    for line in lines[::3]:
        digits = [i for i, byte in enumerate(line) if 48 <= byte <= 57]
        for i in rng.sample(digits, 60):
            changed.append(line[:i] + bytes([rng.choice(b"0123456789")]) + line[i + 1:])
        record = json.loads(line)
        record["turns"][5:7] = record["turns"][6:4:-1]  # two turns swapped
        changed.append(json.dumps(record).encode())
    lines += changed
    path = tmp_path / "records.jsonl"
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    done = subprocess.run([sys.executable, str(MAIKO), "validate", str(path)],
                          capture_output=True, check=True)
    plain = [json.loads(line) for line in done.stdout.splitlines()]
    full = [V.judge_bytes(line) for line in lines]
    assert [v["status"] for v in plain] == [j.status.value for j in full]
    assert [v["result"] for v in plain] == [j.result for j in full]
    assert {j.status for j in full} == {V.Status.VALID, V.Status.ILLEGAL, V.Status.MALFORMED}
    assert [v["message"] for v in plain[:12]] == [j.message for j in full[:12]]


def test_the_maiko_yardstick_simulates_whole_games():
    done = subprocess.run([sys.executable, str(MAIKO), "simulate", "5", "1"],
                          capture_output=True, text=True, check=True)
    assert done.stdout.startswith("5 games: ") and "turns" in done.stdout
