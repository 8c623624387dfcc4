"""docs/integrations.md stays true: its code runs, and every number and table in it is what the
code computes (the sizes, the action ranges, the parameters, the bounds, the example's output).
The tables need no extra; the code blocks and the example need both."""

from __future__ import annotations

import contextlib
import io
import itertools
import os
import pathlib
import random
import re
import signal
import subprocess
import sys
import time
import tomllib

import pytest

from hanamikoji.engine.core import registry
from hanamikoji.engine.core.errors import OptionError
from hanamikoji.integrations import encoding as E

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "integrations.md").read_text(encoding="utf-8")
#: The page with every run of white space made one space, for sentences that wrap.
FLAT = " ".join(DOC.split())
HANAMIKOJI, MAIKO = E.get("hanamikoji"), E.get("maiko")
STANDARD = HANAMIKOJI.configure({})
ITALIAN = HANAMIKOJI.configure({"variant": "italian-three-rounds"})


def _number(text: str) -> int:
    return int(text.replace(",", ""))


def _table(start: str, after: str = "") -> list[list[str]]:
    """The rows of the first table that begins with ``start`` (after the text ``after``),
    without its header."""
    at = DOC.index(start, DOC.index(after))
    lines = DOC[at:DOC.index("\n\n", at)].splitlines()
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in lines]
    return [row for row in rows[1:] if set("".join(row)) != {"-"}]


def test_the_python_blocks_run():
    pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    blocks = re.findall(r"```python\n(.*?)```", DOC, re.S)
    assert len(blocks) == 5
    namespace: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        for block in blocks:
            exec(compile(block, "docs/integrations.md", "exec"), namespace)


def test_the_extras_named_are_the_projects():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    named = re.findall(r"pip install '\.\[([a-z]+)\]'", DOC)
    assert set(named) == {"openspiel", "pettingzoo", "integrations"} <= set(
        project["optional-dependencies"])
    assert not re.search(r"spiel|petting|gymnasium|numpy", str(project["dependencies"]))


def test_the_parameter_table_is_each_encodings():
    rows = _table("| game | parameter |")
    documented = {}
    for game, parameter, default, _ in rows:
        documented.setdefault(game.strip("`"), {})[parameter.strip("`")] = default.strip("`")
    expected = {f"python_{name}": {k: ("" if v == "" else str(v))
                                   for k, v in E.get(name).parameters().items()}
                for name in ("hanamikoji", "maiko")}
    assert {g: {k: v.strip('"') for k, v in p.items()} for g, p in documented.items()} == expected


def _ranges(encoding: E.Encoding) -> list[tuple[str, int]]:
    out = []
    for _, group in itertools.groupby(enumerate(encoding.actions), key=lambda x: type(x[1])):
        group = list(group)
        first, last = group[0][0], group[-1][0]
        out.append((f"{first}-{last}" if last > first else str(first), len(group)))
    return out


@pytest.mark.parametrize("encoding,heading", [(HANAMIKOJI, "Hanamikoji: 534 actions"),
                                              (MAIKO, "Maiko: 362 actions")])
def test_the_action_tables_are_the_encodings(encoding, heading):
    assert heading == f"{heading.split(':')[0]}: {encoding.num_distinct_actions} actions"
    table = _table("| integers", after=heading)
    assert [(row[0], int(row[2])) for row in table] == _ranges(encoding)


def _pieces_of(table: list[list[str]]) -> list[tuple[str, int]]:
    out = []
    for names, sizes, _ in table:
        names = re.findall(r"`([a-z_]+)`", names)
        sizes = [_number(s) for s in re.split(r", (?=\d)", sizes.replace(" each", ""))]
        out += zip(names, sizes if len(sizes) == len(names) else sizes * len(names))
    return out


def test_the_tensor_tables_are_the_layouts():
    hanamikoji = _table("| piece | size | what |\n| --- | --- | --- |\n| `player`, "
                        "`current_player`, `first_player` | 2, 4, 2")
    assert _pieces_of(hanamikoji) == list(HANAMIKOJI.observation_layout(STANDARD).pieces)
    maiko = _table("| piece | size | what |\n| --- | --- | --- |\n| `player`, "
                   "`current_player`, `first_player` | 4, 6, 4")
    assert _pieces_of(maiko) == list(MAIKO.observation_layout(MAIKO.configure({})).pieces)
    sizes = {"Hanamikoji observation": (HANAMIKOJI.observation_layout(STANDARD).size,
                                        HANAMIKOJI.observation_layout(ITALIAN).size),
             "Hanamikoji information state": (HANAMIKOJI.info_state_layout(STANDARD).size,
                                              HANAMIKOJI.info_state_layout(ITALIAN).size)}
    for what, (standard, italian) in sizes.items():
        found = re.search(rf"^{what} \(([\d,]+) values; ([\d,]+) in the Italian", DOC, re.M)
        assert (_number(found.group(1)), _number(found.group(2))) == (standard, italian)
    assert "`round` piece has 4 slots" in FLAT and \
        HANAMIKOJI.observation_layout(ITALIAN).sizes["round"] == 4
    for players in (2, 3, 4):
        setup = MAIKO.configure({"players": players})
        assert f"Maiko observation ({MAIKO.observation_layout(setup).size:,} values" in DOC
        assert f"Maiko information state ({MAIKO.info_state_layout(setup).size:,} values" in DOC
    layout = HANAMIKOJI.info_state_layout(STANDARD)
    turn = re.search(r"`max_rounds` x 8 turns x (\d+)", FLAT).group(1)
    score = re.search(r"every scored round \(`max_rounds` x (\d+)", FLAT).group(1)
    assert layout.sizes["turns"] == 10 * 8 * int(turn) and layout.sizes["scores"] == 10 * int(score)
    seen = re.search(r"\(81 x 37\)", FLAT)
    assert seen and MAIKO.info_state_layout(None).sizes["seen"] == 81 * 37
    performance = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    assert (f"({HANAMIKOJI.info_state_layout(STANDARD).size:,} bits for a standard Hanamikoji "
            f"information state, {MAIKO.info_state_layout(None).size:,} for Maiko's)") \
        in " ".join(performance.split())


def test_the_chance_and_bound_numbers():
    from hanamikoji.integrations.encoding.hanamikoji import DECISIONS_PER_ROUND

    assert f"- Hanamikoji: {sum(HANAMIKOJI.chance_multiset(None))} draws a round" in FLAT
    two, three = (registry.get("maiko").configure({"players": n}).tiles_in_play for n in (2, 3))
    assert f"one draw per space in space order, {two} with 2 players and {three} with 3 or 4" \
        in FLAT
    assert f"a 2-player board has {two} spaces" in FLAT
    assert (f"a geisha: {HANAMIKOJI.max_chance_outcomes} outcomes" in FLAT
            and f"36 for a friend: {MAIKO.max_chance_outcomes} outcomes" in FLAT)
    assert f"`max_rounds` x {DECISIONS_PER_ROUND}" in FLAT
    assert (f"{HANAMIKOJI.max_game_length(STANDARD)} by default" in FLAT
            and f"3 rounds, so {HANAMIKOJI.max_game_length(ITALIAN)}." in FLAT)
    assert f"`max_rounds` (default {HANAMIKOJI.bound_default})" in FLAT
    assert f"`max_decisions` (default {MAIKO.bound_default:,})" in FLAT
    assert E.TRUNCATED.format(name="max_rounds", bound=10) in FLAT
    with pytest.raises(OptionError) as error:
        MAIKO.configure({"players": 5})
    assert f"`{error.value}`" in FLAT


def test_the_longest_random_games_quoted():
    """The lengths quoted under "Bounding the game", computed again."""
    hanamikoji, maiko = registry.get("hanamikoji"), registry.get("maiko")
    config = hanamikoji.configure()
    rounds = max(hanamikoji.random_game(random.Random(s), config).round + 1 for s in range(2000))
    assert f"Of 2,000 uniform random standard games (seed 0), the longest lasted {rounds} rounds." \
        in FLAT
    longest = max(len(maiko.random_game(random.Random(s), maiko.configure({"players": n})).steps)
                  for n in (2, 3, 4) for s in range(30))
    assert f"the longest took {longest:,} decisions." in FLAT
    assert longest < MAIKO.bound_default


def test_the_example_prints_what_the_page_shows():
    """Run with 2 workers, it prints what the page shows for 1: each game has its own seed."""
    pytest.importorskip("pyspiel")
    shown = re.search(r"```\n(MCTS \(.*?); [\d.]+ s\n```", DOC).group(1)
    done = subprocess.run([sys.executable, str(ROOT / "docs" / "examples" / "mcts_vs_random.py"),
                           "--games", "20", "--workers", "2"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert re.sub(r"; [\d.]+ s$", "", done.stdout.strip()) == shown


def test_ctrl_c_on_the_example_is_one_line_and_130():
    """Ctrl-C reaches the whole group, as a terminal sends it: the workers ignore it and the
    example says "interrupted" once, exit 130, with no multiprocessing traceback. Sent once
    both workers run and have set SIGINT aside (read from /proc: an event, not a sleep)."""
    pytest.importorskip("pyspiel")
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "docs" / "examples" / "mcts_vs_random.py"),
         "--games", "100000", "--workers", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, start_new_session=True)
    try:
        while sum(map(_ignores_sigint, _children(process.pid))) < 2:
            assert process.poll() is None, process.communicate()
            time.sleep(0.01)
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 130, (out, err)
    assert err == "mcts_vs_random: interrupted\n" and out == ""


def _children(pid: int) -> list[str]:
    try:
        return open(f"/proc/{pid}/task/{pid}/children").read().split()
    except OSError:
        return []


def _ignores_sigint(pid: str) -> bool:
    try:
        status = open(f"/proc/{pid}/status").read()
    except OSError:
        return False
    ignored = int(re.search(r"SigIgn:\s+([0-9a-f]+)", status).group(1), 16)
    return bool(ignored & (1 << (signal.SIGINT - 1)))
