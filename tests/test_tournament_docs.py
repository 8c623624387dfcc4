"""docs/tournament.md stays true: every command runs (a `$` command prints what the page shows),
the Python bot on the page plays, and the example exchange is what the referee sends for that
position, answered legally."""

from __future__ import annotations

import json
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys

import pytest

from hanamikoji.engine.core.registry import get
from hanamikoji.engine.core.seeded import game_rng
from hanamikoji.oracle.core.bot import decide_request, hooks, new_game_request
from hanamikoji.oracle.core.tournament import bot_seed

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "tournament.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```(\w*)\n(.*?)```", DOC, re.S)


def _folder(tmp_path: pathlib.Path) -> dict[str, str]:
    """A folder to run the page's commands in: the repository's docs/ and tests/ as they are
    referred to, the page's mybot.py, this Python first on PATH."""
    for name in ("docs", "tests"):
        (tmp_path / name).symlink_to(ROOT / name)
    (python,) = [text for kind, text in BLOCKS if kind == "python"]
    (tmp_path / "mybot.py").write_text(python)
    return dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep +
                os.environ.get("PATH", ""), PYTHONPATH=str(tmp_path))


def test_every_command_of_the_page_runs(tmp_path):
    env = _folder(tmp_path)
    ran = shown = 0
    for kind, block in BLOCKS:
        if kind:
            continue
        lines = block.splitlines()
        output = False  # the line is what a `$` command above it printed
        for number, line in enumerate(lines):
            output = not line.startswith("$ ") and (output or number > 0
                                                     and lines[number - 1].startswith("$ "))
            if output:
                continue
            command = line[2:] if line.startswith("$ hanamikoji ") else line
            if not command.startswith("hanamikoji "):
                continue
            if "node " in command and shutil.which("node") is None:
                continue  # the Node shim's own tests say node is missing
            words = shlex.split(re.split(r" 2?> ", command)[0])
            done = subprocess.run([sys.executable, "-m", "hanamikoji", *words[1:]],
                                  cwd=tmp_path, env=env, capture_output=True, text=True,
                                  timeout=300)
            expected = []
            for after in lines[number + 1:] if line.startswith("$ ") else ():
                if after.startswith("$ "):
                    break
                expected.append(after)
            if expected and expected[0].startswith("hanamikoji tournament: error: "):
                # an example of bad usage: one line on stderr, exit 2
                assert (done.returncode, done.stdout) == (2, ""), (command, done.stderr)
                assert done.stderr.splitlines() == expected, command
                shown += 1
                ran += 1
                continue
            assert done.returncode == 0, (command, done.stderr)
            if line.startswith("$ "):
                assert done.stdout.splitlines() == expected, command
                shown += 1
            elif words[1] == "tournament" and "referee_bots.py" not in command:
                # a forfeit only where the page plays a bot that misbehaves on purpose
                assert "forfeit:" not in done.stdout, (command, done.stdout)
            ran += 1
    assert ran >= 6 and shown >= 1


def test_the_example_exchange_is_the_referees():
    lines = re.findall(r"^(referee|bot):\s+(.*)$", DOC, re.M)
    assert [who for who, _ in lines] == ["referee", "bot", "referee", "bot"]
    hello, ok, request, answer = (json.loads(text) for _, text in lines)
    game = get("hanamikoji")
    config = game.configure({"variant": "italian-three-rounds"})
    assert hello == new_game_request(game, config, 1, bot_seed(1, 0, 1))
    assert ok == {"ok": True}
    state = game.new_game(config, 0)
    state = game.apply(state, game.sample_chance(state, game_rng(1, 0)))
    gift = next(d for d in game.legal_actions(state) if game.decision_to_json(d)["action"] == "gift")
    state = game.apply(state, gift)
    assert request == json.loads(json.dumps(decide_request(game, state, 1, 1)))
    decision = hooks(game).read_decision(state, answer["decision"])
    assert decision in game.legal_actions(state)
    assert decision == game.decision_from_json({"response": "gift", "pick": 4})


@pytest.mark.parametrize("bots, share", [(("random", "heuristic"), 0.86)])
def test_the_heuristic_share_the_page_gives(bots, share):
    """The page's 86% is the table's: heuristic's wins over its games."""
    table = next(block for kind, block in BLOCKS  # the first tournament's table
                 if not kind and block.startswith("$ hanamikoji tournament "))
    row = next(line.split() for line in table.splitlines() if line.startswith("heuristic"))
    assert f"{int(row[2]) / int(row[1]):.0%}" == f"{share:.0%}"
    assert f"{share:.0%} of its games" in DOC


def test_the_answer_line_limit_in_the_doc_is_the_referees():
    """The bot protocol's section gives the referee's limit on an answer line, and says a
    request has none."""
    from hanamikoji.oracle.core.referee import MAX_LINE

    doc = " ".join((pathlib.Path(__file__).resolve().parents[1] / "docs" / "tournament.md")
                   .read_text(encoding="utf-8").split())
    assert f"An answer line holds at most {MAX_LINE:,} bytes" in doc
    assert "a request has no such bound" in doc


def test_the_stderr_tail_in_the_doc_is_the_referees():
    """The forfeit's section gives the bytes of standard error the referee keeps."""
    from hanamikoji.oracle.core.referee import STDERR_TAIL

    doc = " ".join(DOC.split())
    assert f"its last {STDERR_TAIL:,} bytes" in doc
    assert f"its last {STDERR_TAIL // 1024} KiB kept" in doc


def test_looking_at_a_forfeit_shows_what_the_page_says(tmp_path):
    """The section's commands: ``show --only 1`` ends with the forfeit's stderr line and its
    request (that of games.jsonl), ``--player 1`` of seat 0's forfeit says who and the kind
    only, and ``--only 1 --trace`` prints the exchanges in the shapes the page quotes, the last
    request to the bot being the forfeit's."""
    section = DOC.split("## Looking at a forfeit", 1)[1].split("\n## ", 1)[0]
    commands = [line.removeprefix("$ ") for line in section.splitlines()
                if line.startswith(("hanamikoji ", "$ hanamikoji "))
                and "hanamikoji view " not in line and " 2> " not in line]  # run above
    env = _folder(tmp_path)

    def run(command: str) -> subprocess.CompletedProcess:
        words = shlex.split(re.split(r" 2?> ", command)[0])
        done = subprocess.run([sys.executable, "-m", "hanamikoji", *words[1:]], cwd=tmp_path,
                              env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, (command, done.stderr)
        return done

    outputs = {command: run(command) for command in commands}
    line = json.loads((tmp_path / "results" / "games.jsonl").read_text().splitlines()[1])
    request = json.dumps(line["forfeit"]["request"], separators=(",", ":"))
    shown = outputs["hanamikoji show results/games.jsonl --only 1"].stdout.splitlines()
    assert shown[0] == "results/games.jsonl:2: game 1 (deal 0): buggy (seat 0), random (seat 1)"
    assert shown[-2:] == ["  stderr: RuntimeError: the bot's own bug, at its 3rd decision",
                          f"  request: {request}"]
    seen = outputs["hanamikoji show results/games.jsonl --only 1 --player 1"].stdout
    assert seen.splitlines()[-1] == "forfeit: buggy (seat 0): crash" and request not in seen
    trace = next(done for command, done in outputs.items() if "--trace" in command)
    said = trace.stderr.splitlines()
    assert said[-1] == f"referee > buggy (seat 0): {request}"
    assert any(s.startswith('buggy (seat 0) > referee: {"decision": ') for s in said)
    # the requests of the trace, fed to the bot again, make it fail as it did
    calls = tmp_path / "calls.txt"
    calls.write_text(trace.stderr)
    (again,) = [line for line in section.splitlines() if line.startswith("sed ")]
    done = subprocess.run(["bash", "-c", again], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == "RuntimeError: the bot's own bug, at its 3rd decision"
    assert "RuntimeError: the bot's own bug, at its 3rd decision" in section
    flat = " ".join(section.split())
    assert '`referee > buggy (seat 0): {"op":"decide",...}`' in flat
    assert '`buggy (seat 0) > referee: {"decision": ...}`' in flat
