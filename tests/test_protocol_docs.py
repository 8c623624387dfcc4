"""docs/oracle.md's protocol pages stay true: the recorded sessions are what the reference adapter
(and the JavaScript adapter, where node is installed) answers to their requests, byte for byte,
and every line fits the schemas; the views' tables name exactly the schema's fields, Maiko's
with the schema's own descriptions."""

from __future__ import annotations

import json
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

from hanamikoji.engine.core.registry import get
from hanamikoji.oracle.core.protocol_schema import protocol_schema

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from protocol_messages import Messages, fields, view_table  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "oracle.md").read_text(encoding="utf-8")
#: The reference adapter declaring protocol 2, as the sessions were recorded (by default it
#: declares 3, which adds batch; the sessions' requests are answered the same either way).
REFERENCE = [sys.executable, "-m", "hanamikoji.oracle.core.adapter", "--protocol", "2"]
JS_ADAPTER = ["node", str(ROOT / "docs" / "examples" / "adapter.mjs")]


def sessions() -> dict[str, list[tuple[str, str]]]:
    """Each recorded session of the page, by game: its (request, answer) lines."""
    out = {}
    for block in re.findall(r"<!-- protocol-session -->\n```text\n(.*?)```", DOC, re.S):
        lines = block.splitlines()
        assert len(lines) % 2 == 0 and all(
            line.startswith("> " if i % 2 == 0 else "< ") for i, line in enumerate(lines)), block
        pairs = [(lines[i][2:], lines[i + 1][2:]) for i in range(0, len(lines), 2)]
        game = json.loads(pairs[0][0]).get("game", "hanamikoji")
        out[game] = pairs
    return out


def test_each_game_has_a_recorded_session():
    found = sessions()
    assert set(found) == {"hanamikoji", "maiko"}
    for pairs in found.values():
        ops = {json.loads(request)["op"] for request, _ in pairs}
        assert {"new_game", "current_player", "apply", "observe", "result"} <= ops
        assert any('"error"' in answer for _, answer in pairs)  # a refusal, with its rule


ADAPTERS = [pytest.param(REFERENCE, id="reference"),
            pytest.param(JS_ADAPTER, id="javascript", marks=pytest.mark.skipif(
                shutil.which("node") is None,
                reason="node is not installed: the JavaScript adapter is not run"))]


@pytest.mark.parametrize("adapter", ADAPTERS)
@pytest.mark.parametrize("game", ["hanamikoji", "maiko"])
def test_the_recorded_session_is_what_the_adapter_answers(game, adapter, monkeypatch):
    monkeypatch.setenv("PYTHON", sys.executable)
    pairs = sessions()[game]
    done = subprocess.run(adapter, input="".join(r + "\n" for r, _ in pairs), text=True,
                          capture_output=True, timeout=120, check=True)
    assert done.stdout.splitlines() == [answer for _, answer in pairs]


@pytest.mark.parametrize("game", ["hanamikoji", "maiko"])
def test_the_recorded_session_fits_the_schemas(game):
    messages = Messages(game)
    for request, answer in sessions()[game]:
        parsed = json.loads(request)
        assert not messages.request_errors(parsed), request
        assert not messages.answer_errors(parsed["op"], json.loads(answer)), answer


def _between(start: str, end: str) -> str:
    return DOC[DOC.index(start) + len(start):DOC.index(end)]


def test_maikos_view_table_is_the_schemas_fields_with_their_descriptions():
    schema = protocol_schema(get("maiko"))
    table = _between("<!-- maiko-view-fields -->\n", "<!-- /maiko-view-fields -->").strip()
    documented = re.findall(r"^\| `([^`]+)` \|", table, re.M)
    assert documented == [path for path, _ in fields(schema["$defs"]["view"])]
    assert table == view_table(schema)


def test_every_field_of_a_maiko_view_is_in_the_schema_and_the_other_way_round():
    """The schema's fields are those of real views: every key of every player's view at every
    step of seeded games (a log's entries walked at the end, where it holds every step), nested
    ones included, and no key a view never has."""
    from hanamikoji.engine.core.seeded import play_game
    from hanamikoji.engine.maiko.game_type import GAME

    seen: set[str] = set()

    def walk(value, prefix=""):
        if isinstance(value, dict):
            for key, inner in value.items():
                seen.add(prefix + key)
                if key in ("decision", "options", "result"):
                    continue  # the record's forms, documented with it
                walk(inner, prefix + key + ".")
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            for inner in value:
                walk(inner, prefix[:-1] + "[].")

    for players in (2, 3, 4):
        config = GAME.configure({"players": players})
        end = play_game(GAME, config, 1, 0)
        state = GAME.new_game(config, GAME.first_player(end))
        for decision in (*GAME.history(end), None):
            for player in range(players):
                view = GAME.view_to_json(GAME.observe(state, player))
                walk(view if decision is None else {**view, "log": view["log"][-1:]})
            if decision is not None:
                state = GAME.apply(state, decision)
    schema_fields = {path for path, _ in fields(protocol_schema(get("maiko"))["$defs"]["view"])}
    assert seen == schema_fields


def test_hanamikojis_view_table_names_the_schemas_keys():
    table = _between("A view (INFO-1) is an object with exactly these keys:",
                     "A view with any other key")
    documented = [key for row in re.findall(r"^\| (.*?) \|", table, re.M)
                  for key in re.findall(r"`([a-z_]+)`", row)]
    schema = protocol_schema(get("hanamikoji"))
    assert sorted(documented) == sorted(schema["$defs"]["view"]["properties"])
