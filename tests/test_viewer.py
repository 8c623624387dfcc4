"""The viewer's Python side: the views embedded in a page are the engine's, step by step; the
embedded JSON cannot end its script block; the rule IDs each step names; the commands that
write pages (view, diff --save, stats --html) and what they say on bad input."""

from __future__ import annotations

import json
import pathlib
import random
import re
import sys

import pytest

from hanamikoji.cli.main import main
from hanamikoji.engine.core.registry import get
from hanamikoji.properties.core.cite import checks
from hanamikoji.viewer.core import page as P
from hanamikoji.viewer.core.divergence import answer_rows

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))  # tests/: the test game
from testgame.fixtures import testgame  # noqa: E402,F401  (the fixture, by name)

INJECTION = "</script><script>alert(1)</script>"


def _game(name: str, seed: int, **options):
    game = get(name)
    return game, game.random_game(random.Random(seed), game.configure(options))


def _embedded(text: str) -> dict:
    block = re.search(r'<script type="application/json" id="hk-data">(.*?)</script>', text, re.S)
    return json.loads(block.group(1))


@checks("INFO-1", "MK-INFO-1")
@pytest.mark.parametrize("name,options", [("hanamikoji", {}), ("maiko", {"players": 3})])
def test_the_embedded_views_are_the_engines_at_every_step(name, options):
    game, final = _game(name, 10, **options)  # seed 10: a short three-player Maiko game
    entry = P.game_entry(game, final, "g")
    steps = P.unpack(entry["z"])
    states = list(game.states(final))
    assert len(steps["steps"]) == len(states) - 1
    for p in game.players(final):
        assert P.undelta(steps["views"][str(p)]) == [
            game.view_to_json(game.observe(s, p)) for s in states]
    assert len(P.undelta(steps["views"]["all"])) == len(states)


def _seen_texts(game, final, player):
    """``player``'s text of every step of ``final``'s game, as the engine makes it."""
    states = list(game.states(final))
    return [game.decision_text_seen(states[k], d, states[k + 1], player)
            for k, d in enumerate(game.history(final))]


@checks("INFO-1", "INFO-2", "ACT-SECRET-2", "ACT-TRADE-2", "MK-INFO-1", "MK-TUTOR-ONESAN-2")
@pytest.mark.parametrize("name,options,seed", [("hanamikoji", {}, 1),
                                               ("maiko", {"players": 3}, 36),
                                               ("testgame", {"players": 3}, 1)])
def test_a_players_step_texts_reveal_nothing_their_views_hide(testgame, name, options, seed):
    """The page holds each player's text of each step (the decision list and "what just
    happened" in their view), and those texts, with the rules each step names, are the same in
    every game the player cannot tell from this one: a game resampled from their view at a step
    (everything hidden from them drawn again, :meth:`Game.resample`) gives the same texts up to
    that step. The "everything" texts of Hanamikoji and the test game fail this (they name
    the deal, the secrets and the trade-offs). Maiko's seed 36 has One-san looks."""
    game, final = _game(name, seed, **options)
    steps = P.unpack(P.game_entry(game, final, "g")["z"])["steps"]
    states = list(game.states(final))
    part = P._viewer_part(game)
    rng = random.Random(0)
    told = False  # whether a resample changed an "everything" text (so the check can fail)
    for p in game.players(final):
        seen = [s["seen"][p] for s in steps]
        assert seen == _seen_texts(game, final, p)
        for k in sorted({*range(1, len(states), max(1, len(states) // 15)), len(states) - 1}):
            other = game.resample(states[k], p, rng)
            assert _seen_texts(game, other, p) == seen[:k], (p, k)
            others = list(game.states(other))
            if part is not None:
                assert [part.rules(a, d, b) for a, d, b in zip(
                    others, game.history(other), others[1:])] == [s["rules"] for s in steps[:k]]
            told |= [game.decision_text(d) for d in game.history(other)] != [
                s["text"] for s in steps[:k]]
    assert told == (name != "maiko")


@checks("INFO-2", "ACT-SECRET-2", "ACT-TRADE-2")
def test_a_hanamikoji_players_texts_hide_the_deal_and_the_opponents_face_down_cards():
    from hanamikoji.engine.hanamikoji.actions import Deal, Secret, TradeOff

    game, final = _game("hanamikoji", 1)
    steps = P.unpack(P.game_entry(game, final, "g")["z"])["steps"]
    hidden = 0
    for step, decision in zip(steps, game.history(final)):
        for p in (0, 1):
            text = step["seen"][p]
            if isinstance(decision, Deal):
                assert text.endswith("removed ?") and "draws" not in text
                assert " ".join(map(str, decision.hands[1 - p])) not in text.split(",")[0]
            elif isinstance(decision, (Secret, TradeOff)) and step["who"] != p:
                assert not re.search(r"\d", text), text
                hidden += 1
            else:
                assert text == step["text"]
    # each round, each player's secret and trade-off are hidden from the other
    assert hidden == 4 * (final.round + 1)


@checks("MK-INFO-1", "MK-TUTOR-ONESAN-2")
def test_maikos_everything_holds_what_every_player_saw():
    """Maiko's "everything" view at each step holds every player's view: the public fields
    alike, and the tile of every step that any player saw (each player's own One-san looks
    included: seed 36 has looks by players 0 and 2), plus the tile under each face-down
    space. (The audit that asked for this thought it held player 0's looks only: its log was
    already every step's, from the whole state; this pins it.)"""
    from hanamikoji.engine.maiko.actions import OneSan
    from hanamikoji.viewer.maiko.frames import everything

    game, final = _game("maiko", 36, players=3)
    lookers = {step.player for step in final.steps if isinstance(step.decision, OneSan)}
    assert len(lookers) > 1
    for state in game.states(final):
        whole = everything(state)
        for p in game.players(final):
            view = game.view_to_json(game.observe(state, p))
            assert {k: v for k, v in whole.items() if k in view and k not in ("player", "log")} \
                == {k: v for k, v in view.items() if k not in ("player", "log")}
            for mine, entry in zip(view["log"], whole["log"], strict=True):
                assert mine == (entry if "tile" in mine else
                                {k: v for k, v in entry.items() if k != "tile"})
        assert all("tile" in entry for entry in whole["log"]
                   if entry["decision"]["kind"] == "one-san")


def test_delta_round_trips_and_keeps_only_changes():
    views = [{"a": 1, "log": []}, {"a": 1, "log": [1]}, {"a": 2, "log": [1, 2]}, {"b": 0}]
    deltas = [P.delta(None, views[0])] + [P.delta(a, b) for a, b in zip(views, views[1:])]
    assert P.undelta(deltas) == views
    assert deltas[2] == {"s": {"a": 2}, "a": {"log": [2]}}
    assert deltas[3] == {"s": {"b": 0}, "d": ["a", "log"]}


def test_embedded_json_cannot_end_its_script_block():
    text = P.page("games", INJECTION, {"kind": "games", "games": [], "x": INJECTION + "&<>"})
    block = re.search(r'<script type="application/json" id="hk-data">(.*?)</script>', text, re.S)
    assert "<" not in block.group(1) and ">" not in block.group(1) and "&" not in block.group(1)
    assert _embedded(text)["x"] == INJECTION + "&<>"
    assert "<title>&lt;/script&gt;" in text


@checks("ACT-GIFT-2", "END-3")
def test_a_hanamikoji_step_names_its_rules():
    game, final = _game("hanamikoji", 1)
    steps = P.unpack(P.game_entry(game, final, "g")["z"])["steps"]
    picks = [s for s in steps if s["decision"].get("response") == "gift"
             or s["text"].startswith("take ") and len(s["text"].split()) == 2]
    assert picks and all("ACT-GIFT-2" in s["rules"] for s in picks)
    reason = game.outcome(final).reason
    last = steps[-1]["rules"]
    assert "SCORE-1" in last and ({"charm": "END-3", "geisha": "END-3",
                                   "charm-over-geisha": "END-4"}[reason] in last)


@checks("SCORE-4")
def test_a_hanamikoji_end_says_each_players_geisha_and_charm():
    from hanamikoji.engine.hanamikoji.cards import CHARM

    game, final = _game("hanamikoji", 2)
    standing = P.game_entry(game, final, "g")["end"]["standing"]
    assert standing == {
        "geisha": [list(final.markers).count(p) for p in (0, 1)],
        "charm": [sum(c for c, m in zip(CHARM, final.markers) if m == p) for p in (0, 1)]}


@checks("MK-COL-1", "MK-ROW-1", "MK-FLIP-3")
def test_a_maiko_step_names_a_columns_token_and_a_row_discard():
    """Found in games of the engine: a step that completes a column names MK-COL-1, one that
    begins a row discard MK-ROW-1; each is checked against the boards before and after."""
    from hanamikoji.engine.maiko.components import COLUMNS
    from hanamikoji.engine.maiko.game import filled

    def lines(board, of):
        return sum(all(filled(board, i) for i in line) for line in of)

    seen = set()
    for seed in (0, 5):  # two short games (277 and 291 decisions) that show all three
        game, final = _game("maiko", seed, players=2)
        states = list(game.states(final))
        steps = P.unpack(P.game_entry(game, final, "g")["z"])["steps"]
        for k, step in enumerate(steps):
            before, after = states[k], states[k + 1]
            col = any(lines(b, COLUMNS) < lines(a, COLUMNS)
                      for b, a in zip(before.boards, after.boards))
            row = after.sweep_row is not None and before.sweep_row is None
            assert ("MK-COL-1" in step["rules"]) == col
            assert ("MK-ROW-1" in step["rules"]) == (row or step["decision"]["kind"] == "sweep")
            seen |= {"col"} if col else set()
            seen |= {"row"} if row else set()
            if sum(map(sum, after.boards)) > sum(map(sum, before.boards)) and \
                    step["decision"]["kind"] == "flip":
                assert "MK-FLIP-3" in step["rules"]
                seen.add("pair")
    assert seen == {"col", "row", "pair"}


def test_the_answer_rows_mark_each_differing_key():
    rows = answer_rows({"view": {"a": 1, "b": [1]}}, {"view": {"a": 1, "c": 2}})
    assert [(k, d) for k, _, _, d in rows] == [("view.b", True), ("view.c", True),
                                                ("view.a", False)]
    assert answer_rows(None, {"x": 1}) == [("answer", "null", '{"x": 1}', True)]


def test_view_writes_one_page_for_many_records_and_reports_bad_ones(tmp_path, capsys):
    records = tmp_path / "games.jsonl"
    assert main(["simulate", "--games", "3", "--records", str(records)]) == 0
    bad = json.loads(records.read_text().splitlines()[0])
    bad["variant"] = INJECTION
    records.write_text(records.read_text() + json.dumps(bad) + "\n")
    capsys.readouterr()
    assert main(["view", str(records)]) == 2  # validate's code: a malformed record
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and "record 3: malformed" in err
    page = (tmp_path / "games.html").read_text()
    data = _embedded(page)
    assert [bool(g.get("game")) for g in data["games"]] == [True, True, True, False]
    assert INJECTION not in page and "record 3" in data["games"][3]["verdict"]
    assert "wrote" in out and str(tmp_path / "games.html") in out


def test_view_from_stdin_needs_out(capsys):
    assert main(["view", "-"]) == 2
    assert "--out PAGE.html is needed" in capsys.readouterr().err


def test_stats_html_draws_the_counts_of_the_summary(tmp_path, capsys):
    records = tmp_path / "m.jsonl"
    assert main(["simulate", "--game", "maiko", "--games", "4", "--records", str(records)]) == 0
    capsys.readouterr()
    assert main(["stats", str(records), "--json", "--html", str(tmp_path / "s.html")]) == 0
    summary = json.loads(capsys.readouterr().out)["groups"][0]
    page = (tmp_path / "s.html").read_text()
    bars = dict(re.findall(r'<rect class="bar" data-label="([^"]*)" data-count="(\d+)"', page))
    for reason, count in summary["reasons"].items():
        assert bars[reason] == str(count)
    assert "<desc>" in page and "scores of player 1" in page


@checks("SCORE-4")
def test_hanamikoji_stats_html_plots_geisha_and_charm_per_seat(tmp_path, capsys):
    """Each seat's geisha won and charm at the end, counted from the markers of the games
    the records replay to (SCORE-4), bar by bar."""
    from collections import Counter

    from hanamikoji.engine.hanamikoji.cards import CHARM

    records = tmp_path / "h.jsonl"
    assert main(["simulate", "--games", "12", "--records", str(records)]) == 0
    assert main(["stats", str(records), "--html", str(tmp_path / "s.html")]) == 0
    capsys.readouterr()
    game = get("hanamikoji")
    finals = [game.read_record(json.loads(line)) for line in records.read_text().splitlines()]
    page = (tmp_path / "s.html").read_text()
    charts = dict(re.findall(r'<figcaption>([^<]*)</figcaption>(.*?)</svg>', page, re.S))
    for p in (0, 1):
        for what, values in (("geisha", [list(f.markers).count(p) for f in finals]),
                             ("charm", [sum(c for c, o in zip(CHARM, f.markers) if o == p)
                                        for f in finals])):
            expected = Counter(values)
            bars = {int(k): int(v) for k, v in re.findall(
                r'<rect class="bar" data-label="(\d+)" data-count="(\d+)"',
                charts[f"{what} of player {p} at the end"])}
            assert {k: v for k, v in bars.items() if v} == dict(expected)
            assert sorted(bars) == list(range(min(expected), max(expected) + 1))


def test_diff_save_writes_the_divergence_its_game_and_a_page(tmp_path, monkeypatch, capsys):
    root = pathlib.Path(__file__).resolve().parents[1]
    monkeypatch.setenv("PYTHONPATH", str(root / "tests"))
    adapter = [sys.executable, str(root / "docs" / "examples" / "adapter.py"),
               "--engine", "broken_engines:gift-gives-two"]
    saved = tmp_path / "saved"
    assert main(["diff", "--games", "20", "--shrink", "0", "--variant", "standard", "--json",
                 "--save", str(saved), "--", *adapter]) == 1
    out, err = capsys.readouterr()
    divergence = json.loads(out)["divergence"]  # stdout holds the JSON alone
    assert "saved the divergence" in err
    assert json.loads((saved / "divergence.json").read_text()) == divergence
    position = json.loads((saved / "position.json").read_text())  # the game so far
    assert len(position["history"]) == len(divergence["decisions"])
    assert main(["perft", "--history", str(saved / "position.json"), "--depth", "1"]) == 0
    capsys.readouterr()
    # view reads the position: the game so far, unfinished, a step per decision sent
    assert main(["view", str(saved / "position.json"), "--out", str(tmp_path / "p.html")]) == 0
    entry, = _embedded((tmp_path / "p.html").read_text())["games"]
    assert entry["end"] is None and "the game so far" in entry["label"]
    assert len(P.unpack(entry["z"])["steps"]) == len(divergence["decisions"])
    capsys.readouterr()
    page = (saved / "divergence.html").read_text()
    differing = re.findall(r'<tr class="differs"><th scope="row">([^<]*)</th>', page)
    reference, other = divergence["reference"]["view"], divergence["other"]["view"]
    assert differing == [f"view.{k}" for k in sorted(reference) if reference[k] != other.get(k)]
    data = _embedded(page)
    assert data["divergence"] == divergence and len(data["games"]) == 1
    assert f'data-replay="0" data-step="{len(divergence["decisions"])}"' in page


# The reference, except that it accepts any decision of a player, legal or not (an illegal one
# changes nothing); deals it checks as the reference does.
LAX_ENGINE = """
import hanamikoji.engine.hanamikoji as _ref


def __getattr__(name):
    return getattr(_ref, name)


def apply(state, decision):
    try:
        return _ref.apply(state, decision)
    except ValueError:
        if type(decision).__name__ == "Deal":
            raise
        return state
"""


def test_diff_save_keeps_the_game_before_a_decision_the_other_engine_wrongly_accepts(
        tmp_path, monkeypatch, capsys):
    """The reference refuses the last decision sent ("accepts secret 0, which breaks
    ACT-SECRET-1"): position.json and the replay are the game before it, and the page shows
    the refused decision apart. Before, neither position.json nor a replay was written."""
    root = pathlib.Path(__file__).resolve().parents[1]
    (tmp_path / "lax_engine.py").write_text(LAX_ENGINE)
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    adapter = [sys.executable, str(root / "docs" / "examples" / "adapter.py"),
               "--engine", "lax_engine"]
    saved = tmp_path / "saved"
    assert main(["diff", "--games", "5", "--shrink", "0", "--variant", "standard", "--json",
                 "--save", str(saved), "--", *adapter]) == 1
    divergence = json.loads(capsys.readouterr().out)["divergence"]
    rule = divergence["reference"]["rule"]
    assert divergence["message"].startswith("accepts ") and rule
    position = json.loads((saved / "position.json").read_text())
    assert position["history"] == divergence["decisions"][:-1]
    game = get("hanamikoji")
    before = game.position_from_json(position)
    with pytest.raises(ValueError) as refused:  # the last decision is refused there
        game.apply(before, game.decision_from_json(divergence["decisions"][-1], "$"))
    assert refused.value.rule == rule
    page = (saved / "divergence.html").read_text()
    shown, = re.findall(r'<p class="refused">(.*?)</p>', page)
    assert f"it breaks {rule}" in shown and \
        f"<code>{divergence['decisions_text'][-1]}</code>" in shown
    assert f'data-replay="0" data-step="{len(position["history"])}"' in page
    assert len(_embedded(page)["games"]) == 1


def test_view_says_in_one_line_why_a_position_is_refused(tmp_path, capsys):
    bad = tmp_path / "position.json"
    bad.write_text('{"game": "hanamikoji", "history": [{"action": "gift"}]}\n')
    assert main(["view", str(bad), "--out", str(tmp_path / "p.html")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"hanamikoji view: error: {bad}: $.history[0]")
    assert "Traceback" not in err


def test_diff_help_says_save_writes_a_position(capsys):
    with pytest.raises(SystemExit):
        main(["diff", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "position (position.json" in out and "game.json" not in out


def test_a_game_without_a_viewer_part_gets_its_players_views(testgame, tmp_path, capsys):
    """A game the viewer knows nothing of (the test game) is replayed all the same: each
    player's view at each step, drawn as its JSON; there is no "everything" view."""
    final = testgame.random_game(random.Random(1), testgame.configure({}))
    records = tmp_path / "t.jsonl"
    records.write_text(json.dumps(testgame.to_record(final)) + "\n")
    assert main(["view", str(records), "--game", testgame.name]) == 0
    entry = _embedded((tmp_path / "t.html").read_text())["games"][0]
    views = P.unpack(entry["z"])["views"]
    assert sorted(views) == [str(p) for p in testgame.players(final)]
    assert P.undelta(views["0"]) == [testgame.view_to_json(testgame.observe(s, 0))
                                     for s in testgame.states(final)]


@pytest.mark.parametrize("name", ["hanamikoji", "maiko"])
def test_a_game_entry_says_its_length_in_the_singular_for_one(name, testgame):
    """A position page said "unfinished after 1 rounds": one of the unit is singular, as
    validate's verdicts say it."""
    for game in (get(name), testgame):
        state = game.new_game(game.configure({}), 0)
        rng = random.Random(0)
        while game.length(state)[1] < 1:
            state = game.apply(state, game.sample_chance(state, rng)
                               if game.current_player(state) < 0
                               else rng.choice(game.legal_actions(state)))
        unit, count = game.length(state)
        assert count == 1 and P.game_entry(game, state, "g")["length"] == \
            f"1 {unit.removesuffix('s')}"
    # The default verdict line (the test game's) is singular too.
    assert testgame.describe_end(state) == f"unfinished after 1 {testgame.length_unit[:-1]}"


def test_a_maiko_page_writes_each_log_entry_a_bounded_number_of_times(monkeypatch):
    """`view` of a 3-player Maiko game of 462 turns took 5.5 s of CPU: every view of every step
    wrote its whole log again (the square of the game's length). Counted, not timed: each
    player's log entries are written once, and the whole state's once, for the whole page."""
    from hanamikoji.engine.maiko import view as V
    from hanamikoji.viewer.maiko import frames

    game, final = _game("maiko", 10, players=3)
    written = {"seen": 0, "step": 0}

    def counted(name, function):
        def call(*args):
            written[name] += 1
            return function(*args)
        return call

    monkeypatch.setattr(V, "_seen_to_json", counted("seen", V._seen_to_json))
    monkeypatch.setattr(frames, "_step_json", counted("step", frames._step_json))
    getattr(frames, "_LAST_LOG", []).clear()  # no log kept from an earlier test
    P.game_steps(game, final)
    length = len(final.steps)
    assert length > 100 and written == {"seen": 3 * length, "step": length}
