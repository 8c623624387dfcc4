"""Protocol 4 of ``hanamikoji diff``: a view asked as what changed since the one before
(``view_changes``, :class:`hanamikoji.engine.core.codec.ViewChanges`).

The changes of any sequence of views rebuild each view; each game's fast writer (Hanamikoji's
read from the state, Maiko's extending the log) gives the generic writer's text byte for byte,
on drawn games, whichever way it is fed; an adapter whose changes misbehave while its views
are right is reported at the ``view_changes`` request that shows it, and one whose answers are
right but not the reference's text (JSON written another way, lists set whole) agrees, with
protocol 3 as with 4."""

from __future__ import annotations

import json
import pathlib
import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanamikoji.engine.core.codec import ViewChanges, apply_view_changes, dumps
from hanamikoji.engine.core.registry import get
from hanamikoji.oracle.core.adapter import Adapter
from hanamikoji.oracle.core.diff import compare_engines, hooks
from hanamikoji.properties.core.cite import checks

ROOT = pathlib.Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
T = 600.0  # no verdict depends on a timeout firing
CHANGES = [sys.executable, str(TESTS / "changes_adapters.py")]

_JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 3) | st.text("ab", max_size=2),
                     lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(st.text("xy", max_size=2), inner, max_size=3),
                     max_leaves=8)
_VIEWS = st.lists(st.dictionaries(st.sampled_from(["hand", "log", "turn", "seen", "x"]), _JSON,
                                  max_size=5), min_size=1, max_size=6)


@settings(max_examples=300, deadline=None)
@given(views=_VIEWS)
def test_the_changes_of_any_views_rebuild_each_view(views):
    """apply_view_changes undoes ViewChanges, view after view; a key is in the changes only
    when its text changed, and appended to only when it was a list that grew at its end."""
    changes = ViewChanges(lambda view: view)
    rebuilt = None
    before: dict = {}
    for index, view in enumerate(views):
        text = changes.text(view)
        answer = json.loads(text)
        assert dumps(answer) == text  # canonical, as the reference adapter writes it
        rebuilt = apply_view_changes(rebuilt, answer)
        assert dumps(rebuilt) == dumps(view)
        for key, items in answer.get("append", {}).items():
            assert index and isinstance(before.get(key), list) and items
            assert dumps(view[key][:len(before[key])]) == dumps(before[key])
        for key in answer.get("set", {}):
            assert not index or key not in before or dumps(before[key]) != dumps(view[key])
        assert set(answer.get("drop", [])) == (set(before) - set(view) if index else set())
        before = view


@pytest.mark.parametrize("changes, message", [
    ([], "must be an object"),
    ({"sett": {}}, '"sett", not one of'),
    ({"drop": ["turn"], "set": {}}, 'drops "turn", which the view before did not have'),
    ({"append": {"hand": 1}}, 'not a list of items'),
    ({"append": {"turn": [1]}}, '"turn", which is not a list'),
    ({"set": []}, 'has "set" [], not an object'),
])
def test_changes_that_do_not_fit_say_what_is_wrong(changes, message):
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        apply_view_changes({"hand": [1], "turn": 0} if "drop" not in str(changes) else {},
                           changes)


def _games(name: str, count: int, seed: int):
    game = get(name)
    for index in range(count):
        rng = random.Random(seed * 1000 + index)
        config = rng.choice(hooks(game).configs(None))  # every option diff draws
        state = game.new_game(config, rng.randrange(game.num_players(config)))
        states = [state]
        while not game.is_terminal(state):
            state = game.apply(state, game.sample_chance(state, rng)
                               if game.current_player(state) < 0
                               else rng.choice(game.legal_actions(state)))
            states.append(state)
        yield game, states


@checks("INFO-1", "INFO-2", "MK-INFO-1", "MK-INFO-3")
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**16), feed=st.sampled_from(["view", "state", "both"]))
def test_each_games_fast_changes_are_the_generic_text(seed, feed):
    """Hanamikoji's view_changes read from the state (text_at) and from the view (text), and
    Maiko's, are the generic writer's text over view_to_json, at every step of drawn games,
    fed by views, by states, or alternately."""
    for name, count in (("hanamikoji", 4), ("maiko", 1)):
        for game, states in _games(name, count, seed):
            players = game.players(states[0])
            fast = {p: game.view_changes() for p in players}
            generic = {p: ViewChanges(game.view_to_json) for p in players}
            for step, state in enumerate(states):
                for p in players:
                    by_state = feed == "state" or (feed == "both" and (step + p) % 2)
                    text = (fast[p].text_at(state, p) if by_state
                            else fast[p].text(game.observe(state, p)))
                    assert text == generic[p].text(game.observe(state, p)), (name, step, p)


def test_a_game_whose_views_are_its_own_gets_the_generic_changes():
    """A subclass that sees views its own way (a broken engine's, say) is written from its
    own observe and view_to_json, never from the state by the reference's rules."""
    from hanamikoji.engine.hanamikoji.game_type import Hanamikoji

    class Leaky(Hanamikoji):
        def view_to_json(self, view):
            return {**super().view_to_json(view), "deck": []}

    leaky = Leaky()
    state = next(_games("hanamikoji", 1, 0))[1][3]
    text = leaky.view_changes().text_at(state, 0)
    assert '"deck":[]' in text


def test_the_reference_adapter_answers_view_changes_per_game():
    """The first view_changes of a game sets the view whole; the next say what changed; a
    new_game starts afresh; a player who is not in the game is refused, as observe is."""
    adapter = Adapter(protocol=4)
    new_game = {"op": "new_game", "game": "hanamikoji", "options": {"variant": "standard"},
                "first_player": 0}
    assert adapter.answer(dumps(new_game)) == {"ok": True, "protocol": 4}
    first = adapter.answer(dumps({"op": "view_changes", "player": 0}))["view_changes"]
    assert set(first) == {"set"} and first["set"]["phase"] == "deal"
    assert adapter.answer(dumps({"op": "view_changes", "player": 0})) == {"view_changes": {}}
    adapter.answer(dumps(new_game))
    assert adapter.answer(dumps({"op": "view_changes", "player": 0}))["view_changes"] == first
    refused = adapter.answer(dumps({"op": "view_changes", "player": 2}))
    assert "no player 2" in refused["error"]
    assert adapter.answer(dumps({"op": "view_changes", "player": "x"}))["error"] == \
        'no player "x" in this game'  # the request's JSON, never a Python repr
    before = Adapter(protocol=4).answer(dumps({"op": "view_changes", "player": 0}))
    assert before == {"error": "no game under way to answer view_changes: new_game first",
                      "rule": None}
    # the fast text and the answer decoded are the same answer
    line = adapter.answer_line(dumps({"op": "batch", "requests": [
        {"op": "view_changes", "player": 1}, {"op": "view_changes", "player": 1}]}))
    assert json.loads(line)["answers"][1] == {"view_changes": {}}


@pytest.fixture
def on_the_path(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(TESTS))


@pytest.mark.parametrize("name, message", [
    ("forgets-the-hand", 'the view of player 0 that view_changes gives lacks "hand"'),
    ("appends-twice", 'that view_changes gives differs at "hand"'),
    ("keeps-across-games", "that view_changes gives lacks"),
    ("drops-what-is-there", 'view_changes drops "turn", which the view before did not have'),
])
def test_changes_that_misbehave_are_reported_at_view_changes(on_the_path, name, message):
    report = compare_engines([*CHANGES, name], games=20, seed=0, shrink=0, timeout=T)
    found = report.divergence
    assert found is not None, f"{name} was not caught"
    assert found.request["op"] == "view_changes" and message in found.message, found.message


def test_changes_written_otherwise_but_right_agree(on_the_path):
    """Lists set whole rather than appended to: not the reference's text, the same views."""
    report = compare_engines([*CHANGES, "sets-lists-whole"], games=12, seed=0, shrink=0,
                             timeout=T)
    assert report.divergence is None, report.divergence and report.divergence.message


_SPACED = """import json, sys
from hanamikoji.oracle.core.adapter import Adapter
adapter = Adapter(protocol=int(sys.argv[1]))
for line in sys.stdin:
    if line.strip():
        print(json.dumps(json.loads(adapter.answer_line(line))), flush=True)
"""


@pytest.mark.parametrize("game, games", [("hanamikoji", 12), ("maiko", 1)])
@pytest.mark.parametrize("protocol", [3, 4])
def test_answers_right_but_written_another_way_agree(tmp_path, protocol, game, games):
    """JSON with spaces and keys in another order (as json.dumps or JSON.stringify write it)
    is judged as what it says: a game sent in batches whose answer line is not the
    reference's text is judged answer by answer, and agrees (a Maiko game spans several
    batches). Before, every such game was reported as a divergence at the batch."""
    script = tmp_path / "spaced.py"
    script.write_text(_SPACED)
    report = compare_engines([sys.executable, str(script), str(protocol)], games=games, seed=1,
                             shrink=0, timeout=T, game=get(game))
    assert report.divergence is None, report.divergence and report.divergence.message
    assert report.games == games


def test_the_documented_session_is_what_the_reference_adapter_answers():
    """docs/oracle.md's view_changes session, replayed on the reference adapter: the same
    answers, byte for byte; its changes rebuild the views observe gives."""
    doc = (ROOT / "docs" / "oracle.md").read_text()
    block = doc.split("<!-- view-changes-session -->\n```text\n", 1)[1].split("```", 1)[0]
    lines = block.splitlines()
    requests = [line[2:] for line in lines if line.startswith("> ")]
    answers = [line[2:] for line in lines if line.startswith("< ")]
    assert len(requests) == len(answers) > 4
    adapter = Adapter(protocol=4)
    assert [adapter.answer_line(r) for r in requests] == answers
    view = None
    replay = Adapter(protocol=4)
    for request, answer in zip(requests, answers):
        replay.answer_line(request)
        if json.loads(request)["op"] == "view_changes":
            view = apply_view_changes(view, json.loads(answer)["view_changes"])
            observed = replay.answer(dumps({"op": "observe", "player": 0}))["view"]
            assert dumps(view) == dumps(observed)
