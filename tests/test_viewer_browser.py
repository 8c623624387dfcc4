"""The pages in a real browser: headless Chromium from the system (``/usr/bin/chromium``, or
``$HANAMIKOJI_CHROMIUM``), driven by Playwright's Python package (the ``browser`` extra), never
a downloaded browser. Pages of both games are stepped forward and back, by button and by key,
switched between views, and what is drawn at known steps is checked against the engine's state;
the divergence page shows both answers; a record that holds a script stays inert; nothing is
fetched but the page's own file. Skipped, saying why, where Playwright or Chromium is missing.
"""

from __future__ import annotations

import json
import os
import pathlib
import random
import shutil
import time

import pytest

from hanamikoji.engine.core.registry import get
from hanamikoji.properties.core.cite import checks
from hanamikoji.viewer.core import page as P
from hanamikoji.viewer.core.divergence import divergence_page

INJECTION = "</script><script>alert(1)</script>"


def _chromium() -> str | None:
    for candidate in (os.environ.get("HANAMIKOJI_CHROMIUM"), shutil.which("chromium"),
                      "/usr/bin/chromium", shutil.which("chromium-browser")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="Playwright is not installed (pip install '.[browser]')")
    executable = _chromium()
    if executable is None:
        pytest.skip("no Chromium found (install the distribution's chromium, or set "
                    "HANAMIKOJI_CHROMIUM to its path)")
    with sync_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        yield chromium
        chromium.close()


class Opened:
    """A page opened from disk, with every request other than its own file failed and kept,
    every dialog and script error kept."""

    def __init__(self, browser, path: pathlib.Path) -> None:
        self.url = path.resolve().as_uri()
        self.foreign: list[str] = []
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        self.context = browser.new_context(viewport={"width": 1280, "height": 800})
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(self.url)
        self.page.wait_for_selector("body[data-ready]")

    def _route(self, route) -> None:
        if route.request.url == self.url:
            route.continue_()
        else:
            self.foreign.append(route.request.url)
            route.abort()

    def at(self, step: int, selector: str = "section.viewer") -> None:
        self.page.wait_for_selector(f"{selector}[data-step='{step}']")

    def count(self, selector: str) -> int:
        return self.page.locator(selector).count()

    def close(self) -> None:
        assert not self.foreign, f"the page fetched {self.foreign}"
        assert not self.errors, f"script errors: {self.errors}"
        self.context.close()


def _write(tmp_path, name, text) -> pathlib.Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _games_page(tmp_path, game, finals) -> pathlib.Path:
    entries = [P.game_entry(game, f, f"game {i}") for i, f in enumerate(finals)]
    return _write(tmp_path, f"{game.name}.html",
                  P.page("games", game.title, {"kind": "games", "games": entries}, [game]))


def _random(name, seed, **options):
    game = get(name)
    return game, game.random_game(random.Random(seed), game.configure(options))


@checks("INFO-1", "ACT-SECRET-2")
def test_a_hanamikoji_page_draws_the_engines_state_step_by_step(browser, tmp_path):
    from hanamikoji.engine.hanamikoji import cards as C

    game, final = _random("hanamikoji", 1)
    states = list(game.states(final))
    shown = Opened(browser, _games_page(tmp_path, game, [final]))
    page = shown.page
    shown.at(0)
    page.keyboard.press("End")
    shown.at(len(states) - 1)
    assert page.locator(".end .winners").inner_text() == ", ".join(
        f"player {w}" for w in game.outcome(final).winners)
    charm = [sum(C.CHARM[g] for g, m in enumerate(final.markers) if m == p) for p in (0, 1)]
    assert page.locator(".end .standing[data-what='charm']").inner_text() == \
        f"P0 {charm[0]}, P1 {charm[1]}"
    page.click("button.first")
    shown.at(0)
    for _ in range(3):
        page.click("button.next")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    shown.at(3)
    page.click("button.decision[data-step='9']")
    shown.at(9)
    state = states[9]
    for p in (0, 1):  # everything: both hands, each side's cards, the markers
        assert shown.count(f".board g.hand[data-player='{p}'] .card") == C.size(state.hands[p])
        assert shown.count(f".board .card[data-place='side-{p}']") == C.size(state.sides[p])
        assert shown.count(f".board .card[data-place='secret-{p}']") == C.size(state.secrets[p])
    for g, owner in enumerate(state.markers):
        assert page.get_attribute(f".marker[data-geisha='{g}']", "data-owner") == (
            "none" if owner is None else str(owner))
    assert page.locator(".happened .rule").count() > 0
    # player 1's view: their own hand face up, player 0's hand and secret only as hidden cards
    page.select_option("select.view-switch", "1")
    page.wait_for_selector("section.viewer[data-view='1']")
    assert shown.count(".board g.hand[data-player='0'] .card.hidden") == C.size(state.hands[0])
    assert shown.count(".board g.hand[data-player='0'] .card:not(.hidden)") == 0
    assert shown.count(".board g.hand[data-player='1'] .card:not(.hidden)") == C.size(
        state.hands[1])
    assert page.evaluate("HK.frame(0, 9, 1)") == game.view_to_json(game.observe(state, 1))
    shown.close()


@checks("INFO-1", "INFO-2", "ACT-SECRET-2", "ACT-TRADE-2")
def test_a_players_view_names_no_hidden_card_in_the_decisions(browser, tmp_path):
    """In player 0's view the decision list and "what just happened" say what player 0 saw:
    not the deal's removed card, player 1's hand or the draws, nor player 1's secret and
    trade-off; back in "everything" they say it all."""
    from hanamikoji.engine.hanamikoji.actions import Deal, Secret, TradeOff

    game, final = _random("hanamikoji", 1)
    decisions = game.history(final)
    shown = Opened(browser, _games_page(tmp_path, game, [final]))
    page = shown.page
    shown.at(0)
    page.select_option("select.view-switch", "0")
    page.wait_for_selector("section.viewer[data-view='0']")
    listed = page.locator("button.decision").all_inner_texts()
    assert len(listed) == len(decisions)
    states = list(game.states(final))
    hidden = [k for k, d in enumerate(decisions)
              if isinstance(d, (Secret, TradeOff)) and game.current_player(states[k]) == 1]
    assert hidden
    for k, (text, decision) in enumerate(zip(listed, decisions)):
        if isinstance(decision, Deal):
            assert text.startswith("chance: deal: P0 hand ") and text.endswith("removed ?")
            assert "draws" not in text and f"removed {decision.removed}" not in text
        elif k in hidden:
            assert text in ("P1: secret ?", "P1: trade-off ? ?"), text
    trade = next(k for k in hidden if isinstance(decisions[k], TradeOff))
    page.click(f"button.decision[data-step='{trade + 1}']")
    shown.at(trade + 1)
    assert page.locator(".happened code").inner_text() == "trade-off ? ?"
    page.select_option("select.view-switch", "all")
    page.wait_for_selector("section.viewer[data-view='all']")
    assert page.locator(".happened code").inner_text() == game.decision_text(decisions[trade])
    assert page.locator("button.decision").all_inner_texts()[0] == (
        "chance: " + game.decision_text(decisions[0]))
    shown.close()


@checks("MK-INFO-1", "MK-COMP-3")
def test_a_maiko_page_draws_the_boards_tiles_and_tokens(browser, tmp_path):
    from hanamikoji.engine.maiko.components import FRIEND
    from hanamikoji.engine.maiko.game import DOWN, EMPTY

    game, final = _random("maiko", 2, players=3)
    states = list(game.states(final))
    shown = Opened(browser, _games_page(tmp_path, game, [final]))
    page = shown.page
    k = len(states) // 2
    page.evaluate(f"HK.active.go({k})")
    shown.at(k)
    state = states[k]
    view = game.view_to_json(game.observe(state, 0))
    assert shown.count(".space[data-state='down']") == state.spaces.count(DOWN)
    assert shown.count(".space[data-state='empty']") == state.spaces.count(EMPTY)
    for p, board in enumerate(view["maiko_boards"]):
        for item, tiles in enumerate(board):
            drawn = page.get_attribute(f".cell[data-player='{p}'][data-item='{item}']",
                                       "data-tiles")
            assert drawn == ",".join(tiles)
    assert page.get_attribute(".tokens", "data-hands") == ",".join(map(str, state.hands))
    assert page.get_attribute(".tokens", "data-tutors") == ",".join(map(str, state.cards))
    # everything names the tile under each face-down space; a player's view does not
    assert page.locator(".space[data-state='down']").first.get_attribute("data-tile") != ""
    page.select_option("select.view-switch", "2")
    page.wait_for_selector("section.viewer[data-view='2']")
    assert page.locator(".space[data-state='down']").first.get_attribute("data-tile") == ""
    assert page.evaluate(f"HK.frame(0, {k}, 2)") == game.view_to_json(game.observe(state, 2))
    page.keyboard.press("Home")
    shown.at(0)
    page.select_option("select.view-switch", "all")
    page.click("button.next")  # the layout: every tile face down, the friends too
    shown.at(1)
    assert "undefined" not in page.locator(".board").inner_html()
    assert page.locator(".space[data-tile='friend']").count() == sum(
        1 for s in states[1].layout if s == FRIEND)
    page.click("button.first")
    shown.at(0)
    # the buttons step as the keys do: next twice, previous, last, first
    page.click("button.next")
    page.click("button.next")
    shown.at(2)
    page.click("button.prev")
    shown.at(1)
    assert shown.count(".space[data-state='down']") == states[1].spaces.count(DOWN)
    page.click("button.last")
    shown.at(len(states) - 1)
    assert page.locator(".end .winners").inner_text() == ", ".join(
        f"player {w}" for w in game.outcome(final).winners)
    page.click("button.first")
    shown.at(0)
    shown.close()


def test_the_divergence_page_shows_both_answers_at_the_step(browser, tmp_path):
    game, final = _random("hanamikoji", 3)
    decisions = [game.decision_to_json(d) for d in game.history(final)[:4]]
    state = game.replay(game.history(final)[:4], game.configure({}))
    reference = {"view": game.view_to_json(game.observe(state, 0))}
    other = {"view": dict(reference["view"], deck_size=99)}
    divergence = {"game": "hanamikoji", "options": {"variant": "standard"}, "first_player": 0,
                  "decisions": decisions, "request": {"op": "observe", "player": 0},
                  "reference": reference, "other": other,
                  "message": "the view of player 0 differs at \"deck_size\""}
    text, _ = divergence_page(game, divergence, "my-engine " + INJECTION)
    shown = Opened(browser, _write(tmp_path, "divergence.html", text))
    page = shown.page
    row = page.locator("table.diff tr.differs")
    assert row.count() == 1 and row.locator("th").inner_text() == "view.deck_size"
    assert row.locator("td.reference").inner_text() == str(reference["view"]["deck_size"])
    assert row.locator("td.other").inner_text() == "99"
    shown.at(4, "[data-replay='0']")
    assert shown.dialogs == []
    shown.close()


def test_the_report_page_opens_its_witnesses_fetching_nothing(browser, tmp_path):
    """A verify report's page (made small: a query of each game with one witness game each,
    Maiko's answer nested) opens from disk with no request and no script error, and a witness
    replay mounts when its line is opened and steps by its buttons."""
    from hanamikoji.viewer.core.report import report_page

    hk, hk_final = _random("hanamikoji", 5)
    mk, mk_final = _random("maiko", 10, players=3)
    document = {"ok": True, "seconds": 1.5, "produced_by": {"hanamikoji": "test"}, "games": [
        {"game": "hanamikoji", "queries": [
            {"name": "shortest", "status": "answered", "question": "The shortest game?",
             "answer": {"rounds": 2}, "witness_file": "witnesses/hanamikoji-shortest.jsonl"}],
         "properties": {"results": [{"property": "P-1", "status": "passed"}]}},
        {"game": "maiko", "queries": [
            {"name": "scores", "status": "answered", "question": "The best scores?",
             "answer": {"best": [{"player": 0, "score": 9}], "ties": True}}],
         "properties": {"error": "skipped here"}}]}
    witnesses = {("hanamikoji", "shortest"): [("seed 5", hk, hk_final)],
                 ("maiko", "scores"): [("seed 10", mk, mk_final)]}
    shown = Opened(browser, _write(tmp_path, "report.html", report_page(document, witnesses, {})))
    page = shown.page
    assert page.locator(".status-holds").inner_text().startswith("Result: pass")
    assert shown.count("table.answer table.answer") == 1  # Maiko's nested answer
    for index, game, final in ((0, hk, hk_final), (1, mk, mk_final)):
        page.locator("details.witness summary").nth(index).click()
        spot = f"[data-replay='{index}']"
        shown.at(0, spot)
        page.click(f"{spot} button.next")
        shown.at(1, spot)
        page.click(f"{spot} button.last")
        shown.at(len(game.history(final)), spot)
    shown.close()


def test_the_stats_page_draws_its_plots_fetching_nothing(browser, tmp_path):
    from hanamikoji.cli.main import main

    records = tmp_path / "g.jsonl"
    assert main(["simulate", "--games", "6", "--records", str(records)]) == 0
    assert main(["stats", str(records), "--html", str(tmp_path / "stats.html")]) == 0
    shown = Opened(browser, tmp_path / "stats.html")
    # lengths, reasons, seats, geisha and charm x 2, then the chance outcomes against a fair
    # shuffle's expectation (audit), as many as the audit of these records plots
    from hanamikoji.engine.core.registry import get
    from hanamikoji.oracle.core.audit import audit
    from hanamikoji.viewer.core.plots import audit_charts

    game = get("hanamikoji")
    finals = [(game, game.read_record(json.loads(line)))
              for line in records.read_text().splitlines()]
    chance = sum(len(charts) for _, charts in audit_charts(audit(finals)))
    assert chance >= 2
    assert shown.count("figure.plot svg") == 7 + chance
    assert shown.count("figure.plot rect.bar") > 0
    shown.close()


def test_a_record_holding_a_script_stays_inert(browser, tmp_path):
    """The record's string field (a malformed variant) reaches the page in the verdict the list
    shows; no dialog opens and no script runs but the page's own."""
    from hanamikoji.cli.main import main
    import json

    game, final = _random("hanamikoji", 4)
    record = game.to_record(final)
    record["variant"] = INJECTION
    source = tmp_path / "inject.jsonl"
    source.write_text(json.dumps(game.to_record(final)) + "\n" + json.dumps(record) + "\n")
    assert main(["view", str(source), "--out", str(tmp_path / "inject.html")]) == 2
    text = (tmp_path / "inject.html").read_text()
    shown = Opened(browser, tmp_path / "inject.html")
    page = shown.page
    scripts = text.count("<script")
    assert page.evaluate("document.scripts.length") == scripts
    page.click("button.game.unreadable")
    page.wait_for_selector("section.viewer[data-game='1']")
    assert INJECTION in page.locator("section.viewer .board").inner_text()
    assert page.evaluate("document.scripts.length") == scripts
    assert shown.dialogs == [] and page.evaluate("typeof window.alert") == "function"
    shown.close()


def test_ten_thousand_games_load_as_a_paged_list(browser, tmp_path):
    """A page of 10,000 Hanamikoji games (100 distinct games of the engine, each a hundred
    times: the same bytes per game as 10,000 distinct ones) opens, lists its first page of
    games and replays one; the bound is generous (a loaded machine meets it), the figure is
    printed."""
    game = get("hanamikoji")
    rng = random.Random(7)
    distinct = [P.game_entry(game, game.random_game(rng, game.configure({})), "")
                for _ in range(100)]
    entries = [dict(distinct[i % 100], label=f"game {i}") for i in range(10_000)]
    path = _write(tmp_path, "many.html",
                  P.page("games", "many", {"kind": "games", "games": entries}, [game]))
    started = time.perf_counter()
    shown = Opened(browser, path)
    shown.at(0)
    seconds = time.perf_counter() - started
    size = path.stat().st_size
    print(f"\n10,000 games: {size / 1e6:.1f} MB, listed and the first replayed in "
          f"{seconds:.2f} s")
    assert seconds < 10
    page = shown.page
    assert shown.count("ol.game-list button.game") == 50
    page.click("button.page-next")
    page.click("ol.game-list button.game[data-index='57']")
    page.wait_for_selector("section.viewer[data-game='57'][data-step='0']")
    # the pager: the last page, the first, a page typed in (and one past the end: the last)
    page.click("button.page-last")
    page.wait_for_selector("nav.games[data-page='200']")
    assert page.locator("ol.game-list button.game").first.get_attribute("data-index") == "9950"
    assert shown.count("ol.game-list button.game") == 50
    page.click("button.page-first")
    page.wait_for_selector("nav.games[data-page='1']")
    page.fill("input.page-number", "137")
    page.press("input.page-number", "Enter")
    page.wait_for_selector("nav.games[data-page='137']")
    assert page.locator("ol.game-list button.game").first.get_attribute("data-index") == "6800"
    page.fill("input.page-number", "9999")
    page.press("input.page-number", "Enter")
    page.wait_for_selector("nav.games[data-page='200']")
    assert page.input_value("input.page-number") == "200"
    shown.close()


@checks("INFO-1")
def test_a_tournaments_forfeit_is_shown_to_whom_may_see_it(browser, tmp_path):
    """``view games.jsonl``: each game names its bots; a forfeited game is replayed to the
    forfeit and says who, the kind, the message, the bot's last stderr line and the request
    it got in "everything" and in the forfeiting seat's view, and only who and the kind in the
    other seat's (the request is that seat's own view: its hand)."""
    import subprocess
    import sys

    tests = pathlib.Path(__file__).resolve().parent
    env = dict(os.environ, PYTHONPATH=str(tests))
    bot = f"heard=python {tests / 'referee_bots.py'} heard {tmp_path / 'log'} throw"
    for words in (["tournament", "random", bot, "--deals", "1", "--out", "out"],
                  ["view", "out/games.jsonl", "--out", "games.html"]):
        done = subprocess.run([sys.executable, "-m", "hanamikoji", *words], cwd=tmp_path,
                              env=dict(env, PATH=os.path.dirname(sys.executable) + os.pathsep
                                       + env.get("PATH", "")),
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
    line = json.loads((tmp_path / "out" / "games.jsonl").read_text().splitlines()[0])
    shown = Opened(browser, tmp_path / "games.html")
    page = shown.page
    shown.at(0)
    assert page.locator("button.game").first.inner_text().endswith(
        "forfeit: heard (seat 1), crash")
    assert page.locator(".end .bots").inner_text() == "P0 random \u00B7 P1 heard"
    assert page.locator(".end .forfeit").inner_text() == "heard (seat 1): crash"
    assert page.locator(".end .stderr").inner_text().startswith("RuntimeError: ")
    request = page.locator(".end pre.request").text_content()
    assert json.loads(request) == line["forfeit"]["request"]
    page.keyboard.press("End")
    shown.at(len(line["position"]["history"]))
    page.select_option("select.view-switch", "0")
    page.wait_for_selector("section.viewer[data-view='0']")
    assert page.locator(".end .forfeit").inner_text() == "heard (seat 1): crash"
    assert shown.count(".end .request") == shown.count(".end .message") == 0
    assert shown.count(".end .stderr") == 0
    page.select_option("select.view-switch", "1")
    page.wait_for_selector("section.viewer[data-view='1']")
    assert shown.count(".end pre.request") == 1
    shown.close()
