"""tests/vectors/buaa/: the BUAA course's task shapes are what the engine says, checked by second
methods (a judge written from the course's text, z3's marker rows, an enumeration of answers
from the hand alone); ``hanamikoji vectors --tasks buaa`` writes them byte for byte; and the
JavaScript runner of docs/examples passes a correct module and fails a wrong one."""

from __future__ import annotations

import itertools
import json
import pathlib
import shutil
import subprocess

import pytest

from hanamikoji.cli.main import main
from hanamikoji.engine.hanamikoji.cards import CHARM
from hanamikoji.oracle.core.vectors import render
from hanamikoji.oracle.hanamikoji import buaa, buaa_tasks
from hanamikoji.properties.core.cite import checks

ROOT = pathlib.Path(__file__).parent.parent
VECTORS = ROOT / "tests" / "vectors" / "buaa"
RUNNER = ROOT / "docs" / "examples" / "buaa_check.mjs"
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed: the JavaScript "
                                                     "runner of docs/examples cannot run here")


def load(name: str) -> list[dict]:
    return json.loads((VECTORS / name).read_text(encoding="utf-8"))["tests"]


def test_the_committed_files_are_what_the_engine_writes_byte_for_byte():
    written = buaa_tasks.files()
    assert sorted(written) == sorted(p.name for p in VECTORS.iterdir())
    for name, document in written.items():
        assert render(document) == (VECTORS / name).read_text(encoding="utf-8"), name


def test_the_command_writes_them(tmp_path, capsys):
    assert main(["vectors", "--tasks", "buaa", "--out", str(tmp_path)]) == 0
    for path in VECTORS.iterdir():
        assert (tmp_path / path.name).read_bytes() == path.read_bytes()
    assert main(["vectors", "--tasks", "nope", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "has no task set 'nope'" in err


# --- T1 -----------------------------------------------------------------------------------------


def course_judge(board: list[int], round: int) -> int:
    """The course's T1 statement, read as written (its README, chapter 1): 11+ charm wins; 4+
    geisha win unless the other side has 11 charm; after round 3 more charm wins, then the
    tiers G, F, D/E, A/B/C, then a draw."""
    charm = {s: sum(c for c, v in zip(CHARM, board) if v == s) for s in (1, -1)}
    count = {s: board.count(s) for s in (1, -1)}
    for s in (1, -1):
        if charm[s] >= 11:
            return s
    for s in (1, -1):
        if count[s] >= 4 and charm[-s] < 11:
            return s
    if round < 3:
        return 0
    if charm[1] != charm[-1]:
        return 1 if charm[1] > charm[-1] else -1
    for tier in ((6,), (5,), (3, 4), (0, 1, 2)):
        mine, theirs = (any(board[g] == s for g in tier) for s in (1, -1))
        if mine != theirs:
            return 1 if mine else -1
    return 2


@checks("END-2", "END-3", "END-4", "VAR-IT-2", "VAR-IT-3", "VAR-IT-4")
def test_t1_codes_are_the_courses_judgement_of_every_board():
    cases = load("t1.json")
    assert len(cases) == 3 ** 7 * 3
    assert {(tuple(c["board"]), c["round"]) for c in cases} == {
        (b, r) for b in itertools.product((-1, 0, 1), repeat=7) for r in (1, 2, 3)}
    wrong = [c for c in cases if c["expected"] != course_judge(c["board"], c["round"])]
    assert not wrong


@checks("SCORE-2", "SCORE-3", "END-1", "VAR-IT-1")
def test_t1_reachability_agrees_with_the_z3_models_marker_rows():
    """The second method: z3 enumerates one round's favour rows over the certified round
    relation, and its breadth-first search the rows a game can stand in, with the fewest rounds
    that reach them (derive.reachability, the query marker-states)."""
    from hanamikoji.spec.hanamikoji import derive

    cases = load("t1.json")
    reachable = {r: {buaa.board_markers(c["board"]) for c in cases
                     if c["round"] == r and c["reachable"]} for r in (1, 2, 3)}
    assert reachable[1] == set(derive.favour_patterns(derive.round_relation()))
    search = derive.reachability()
    # Open rows (no goal) a game can stand in after round r: z3's open rows first reached in
    # at most r rounds (a round in which every geisha ties keeps a row).
    for r in (1, 2):
        assert {row for row in reachable[r] if buaa_tasks.judge_code(
            buaa.markers_board(row), r) == 0} == {
            row for row, reached in search.open if 1 <= reached.rounds <= r} | {buaa_tasks.START}
    ended = {row for r in (1, 2, 3) for row in reachable[r]
             if buaa_tasks.ITALIAN_THREE_ROUNDS.goal_result(row) is not None}
    assert ended == {row for row, reached in search.final if reached.rounds <= 3}
    limit = {row for row in reachable[3]
             if buaa_tasks.ITALIAN_THREE_ROUNDS.goal_result(row) is None}
    assert limit == {row for row, reached in search.open if reached.rounds <= 3}


# --- T2 -----------------------------------------------------------------------------------------


@checks("TURN-1", "TURN-3")
def test_t2_covers_every_action_at_every_place_both_seats_and_boards_not_neutral():
    cases = load("t2.json")
    places = {(move[0], place) for c in cases for place, move in enumerate(c["history"].split())}
    assert places == {(k, p) for k in "1234" for p in range(8)}
    assert any(any(c["board"]) for c in cases) and any(not any(c["board"]) for c in cases)
    # both seats start: game N of the seed has first player N % 2 (UPDATE-4 alternates them)
    seats = {(int(c["id"].split()[3]) + int(c["id"].split()[5]) - 1) % 2 for c in cases}
    assert seats == {0, 1}
    for c in cases:
        assert buaa.calc_current_state(c["history"], c["board"]) == c["expected"]
        assert sum(c["expected"][0]) == sum(c["expected"][1]) == 8


# --- T3 -----------------------------------------------------------------------------------------


def answers_from_the_hand(history: str, hand: str) -> set[str]:
    """The second method: every distinct answer, enumerated from the hand and the view alone."""
    moves = history.split()
    if moves and moves[-1][0] in "34" and "-" not in moves[-1]:
        body = moves[-1][1:]
        if moves[-1][0] == "3":
            return {"-" + ch for ch in body}
        return {"-" + "".join(sorted(s)) for s in (body[:2], body[2:])}
    used = {m[0] for i, m in enumerate(moves) if i % 2 == len(moves) % 2}
    found = set()
    for kind in "1234":
        if kind in used:
            continue
        for cards in itertools.combinations(sorted(hand), int(kind)):
            if kind != "4":
                found.add(kind + "".join(cards))
                continue
            for first in itertools.combinations(range(4), 2):
                a = "".join(sorted(cards[i] for i in first))
                b = "".join(sorted(cards[i] for i in range(4) if i not in first))
                found.add("4" + "".join(sorted((a, b))))
    return found


@checks("TURN-3", "ACT-GIFT-2", "ACT-COMP-1", "ACT-COMP-2", "INFO-1")
def test_t3_lists_every_distinct_answer_once_and_every_spelling_of_each():
    cases = load("t3.json")
    assert any(c["history"] == "" for c in cases)  # a round's first move
    assert {c["id"].endswith("pick") for c in cases} == {True, False}
    for c in cases:
        assert len(set(c["legal"])) == len(c["legal"])
        assert set(c["legal"]) == answers_from_the_hand(c["history"], c["hand"]), c["id"]
        # the decider moves next, or answers the opponent's last move: either way they
        # started the round when the moves so far are even
        buaa.parse_view(c["history"], viewer_starts=len(c["history"].split()) % 2 == 0,
                        hand=c["hand"])
        for canonical, others in c["spellings"].items():
            assert canonical in c["legal"]
            for other in others:
                assert sorted(other) == sorted(canonical)
                if canonical[0] == "4":
                    assert {"".join(sorted(other[1:3])), "".join(sorted(other[3:]))} == {
                        canonical[1:3], canonical[3:]}


# --- the JavaScript runner ----------------------------------------------------------------------


def node_check(module: pathlib.Path) -> subprocess.CompletedProcess:
    assert NODE is not None
    return subprocess.run([NODE, str(RUNNER), str(module), str(VECTORS)], capture_output=True,
                          text=True, timeout=120)


@needs_node
def test_the_runner_passes_a_correct_module():
    done = node_check(ROOT / "tests" / "buaa" / "correct.mjs")
    total = sum(len(load(n)) for n in ("t1.json", "t2.json", "t3.json"))
    assert (done.returncode, done.stdout, done.stderr) == (0, f"{total} passed, 0 failed\n", "")


@needs_node
@pytest.mark.parametrize("task, name", [("T1", "hanamikoji_judge"), ("T2", "calc_current_state"),
                                        ("T3", "hanamikoji_action")])
def test_the_runner_fails_each_planted_mistake_of_a_wrong_module(tmp_path, task, name):
    one = tmp_path / f"{name}.mjs"
    wrong = (ROOT / "tests" / "buaa" / "wrong.mjs").as_uri()
    one.write_text(f"export {{ {name} }} from {json.dumps(wrong)};\n", encoding="utf-8")
    done = node_check(one)
    assert done.returncode == 1, done.stdout + done.stderr
    *failures, summary, last = done.stdout.splitlines()
    passed, failed = (int(word) for word in last.replace(",", "").split()[::2])
    assert failed > 0 and failures and all(f.startswith(f"FAIL {task}: call ") for f in failures)
    first = int(failures[0].split()[3].rstrip(":"))
    assert summary == (f"{task}: {passed} passed, {failed} failed of {passed + failed} calls; "
                       f"the first failure at call {first}")


@needs_node
def test_the_runner_finds_its_vectors_from_anywhere(tmp_path):
    # run outside the checkout, the default folder is the checkout's, found from the runner
    done = subprocess.run([NODE, str(RUNNER), str(ROOT / "tests" / "buaa" / "correct.mjs")],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.endswith(" passed, 0 failed\n")


@needs_node
def test_the_runner_says_in_one_line_what_it_cannot_read(tmp_path):
    (tmp_path / "broken.mjs").write_text("export const x = ;\n", encoding="utf-8")
    (tmp_path / "t1.json").write_text("{", encoding="utf-8")
    correct = str(ROOT / "tests" / "buaa" / "correct.mjs")
    cases = [
        ([], "usage: node buaa_check.mjs MODULE.js [VECTORS_DIR]"),
        ([correct, "--calls", "0"], "--calls takes a whole number above 0, not 0"),
        ([correct, "--limit", "x"], "--limit takes a number above 0, not x"),
        ([correct, "--fast"], "unknown option --fast; usage: "),
        (["nonexist.mjs"], "nonexist.mjs: cannot load it: Cannot find module"),
        (["broken.mjs"], "broken.mjs: cannot load it: "),
        ([correct, "nodir"], f"cannot read the vectors {tmp_path / 'nodir' / 't1.json'}: ENOENT"),
        ([correct, "."], f"cannot read the vectors {tmp_path / 't1.json'}: "),
    ]
    for argv, said in cases:
        done = subprocess.run([NODE, str(RUNNER), *argv], capture_output=True, text=True,
                              timeout=120, cwd=tmp_path)
        assert (done.returncode, done.stdout) == (2, ""), argv
        assert done.stderr.startswith(f"buaa_check.mjs: {said}"), done.stderr
        assert done.stderr.count("\n") == 1, done.stderr


@needs_node
def test_a_function_that_throws_fails_its_cases_with_the_message(tmp_path):
    module = tmp_path / "throws.mjs"
    module.write_text('export function hanamikoji_judge() { throw new Error("boom\\nat"); }\n',
                      encoding="utf-8")
    done = node_check(module)
    assert (done.returncode, done.stderr) == (1, "")
    assert done.stdout.splitlines()[0] == (
        "FAIL T1: call 1: hanamikoji_judge(Int8Array.from([-1,-1,-1,-1,-1,-1,-1]), 1): "
        "threw boom")
    assert done.stdout.splitlines()[-1] == f"0 passed, {len(load('t1.json'))} failed"


# --- the long sets of --cases -------------------------------------------------------------------


def canonical_move(move: str) -> str:
    """A move as the engine writes it: letters sorted, a competition's sets each sorted and the
    set that sorts first first (X stays X)."""
    head, body = move[0], move[1:]
    action, dash, pick = body.partition("-")
    if head == "4":
        action = "".join(sorted(("".join(sorted(action[:2])), "".join(sorted(action[2:])))))
    else:
        action = "".join(sorted(action))
    return head + action + dash + "".join(sorted(pick))


def long_cases(seed: int, n: int) -> tuple[list[dict], list[dict]]:
    rng = buaa_tasks.random.Random(f"buaa-vectors/{seed}")
    return buaa_tasks.t2_cases(seed, n, rng), buaa_tasks.t3_cases(seed, n, rng)


def test_long_cases_are_the_seeds_and_spelled_as_players_write():
    """Same seed, same cases; another seed, others. Histories are spelled as players may write
    them (letters in any order, a competition's sets in either order): respelled, each is the
    same round, and the codec reads every spelling to the same answer."""
    t2, t3 = long_cases(5, 150)
    assert (t2, t3) == long_cases(5, 150) and len(t2) >= 150 and len(t3) >= 150
    assert long_cases(6, 150)[0] != t2
    moves = [m for c in t2 + t3 for m in c["history"].split()]
    respelled = [m for m in moves if m != canonical_move(m) and "X" not in m]
    assert len(respelled) > len(moves) / 3
    competitions = [m[1:5] for m in moves if m[0] == "4"]
    assert any("".join(sorted(c[:2])) > "".join(sorted(c[2:])) for c in competitions)
    assert any("".join(sorted(c[:2])) < "".join(sorted(c[2:])) for c in competitions)
    for c in t2:
        canonical = " ".join(canonical_move(m) for m in c["history"].split())
        assert buaa.calc_current_state(c["history"], c["board"]) == c["expected"]
        assert buaa.calc_current_state(canonical, c["board"]) == c["expected"]


@checks("TURN-1", "TURN-3", "TURN-4", "INFO-1")
def test_long_cases_cover_every_action_at_every_place_both_seats_and_boards():
    t2, t3 = long_cases(11, 200)
    places = {(m[0], p) for c in t2 for p, m in enumerate(c["history"].split())}
    assert places == {(k, p) for k in "1234" for p in range(8)}
    seats = {(int(c["id"].split()[3]) + int(c["id"].split()[5]) - 1) % 2 for c in t2}
    assert seats == {0, 1} and {any(c["board"]) for c in t2} == {True, False}
    # T3: a decision at every place of a round, by the starter and by the other seat, actions
    # and picks of both offers, after every action at every earlier place
    decided = set()
    for c in t3:
        moves = c["history"].split()
        pending = bool(moves) and moves[-1][0] in "34" and "-" not in moves[-1]
        decided.add((len(moves) - pending, moves[-1][0] if pending else "act"))
    assert decided == ({(p, "act") for p in range(8)}
                       | {(p, k) for p in range(8) for k in "34"})
    seen = {(m[0], p) for c in t3 for p, m in enumerate(c["history"].split()) if "-" in m
            or m[0] in "12"}
    assert seen == {(k, p) for k in "1234" for p in range(7)}
    assert {any(c["board"]) for c in t3} == {True, False}
    for c in t3:
        assert set(c["legal"]) == answers_from_the_hand(c["history"], c["hand"]), c["id"]
        buaa.parse_view(c["history"], viewer_starts=len(c["history"].split()) % 2 == 0,
                        hand=c["hand"])


def test_the_command_writes_long_cases(tmp_path, capsys):
    assert main(["vectors", "--tasks", "buaa", "--cases", "60", "--seed", "5", "--out",
                 str(tmp_path)]) == 0
    t2, t3 = long_cases(5, 60)
    assert capsys.readouterr().out.splitlines()[1:] == [
        f"{tmp_path / 't2.json'}: {len(t2)} cases", f"{tmp_path / 't3.json'}: {len(t3)} cases"]
    written = json.loads((tmp_path / "t2.json").read_text(encoding="utf-8"))
    assert written["generator"] == "hanamikoji vectors --tasks buaa --seed 5 --cases 60"
    assert written["tests"] == t2
    assert main(["vectors", "--cases", "60", "--out", str(tmp_path / "corpus")]) == 2
    assert "--cases and --seed go with --tasks" in capsys.readouterr().err


def test_docstring_examples():
    import doctest

    failures, tried = doctest.testmod(buaa_tasks)
    assert tried and failures == 0
