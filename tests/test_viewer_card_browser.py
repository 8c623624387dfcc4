"""The check report's page in a real browser (headless Chromium from the system, driven by
Playwright, as tests/test_viewer_browser.py does; skipped, saying why, without them): three
implementations side by side, a failed cell followed to its failures, a failure's game replayed,
a reproduction copied; hostile strings stay text; nothing is fetched but the page's own file."""

from __future__ import annotations

import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))  # tests/: the helpers
import card_reports as R  # noqa: E402
from test_viewer_browser import Opened, browser  # noqa: E402,F401  (the fixture, by name)

from hanamikoji.cli.main import main  # noqa: E402
from hanamikoji.engine.core.registry import get  # noqa: E402


def _written(tmp_path: pathlib.Path, report) -> pathlib.Path:
    """The report's page as ``view report.json`` writes it."""
    source = tmp_path / "report.json"
    source.write_text(json.dumps(report.to_json(), indent=2), encoding="utf-8")
    assert main(["view", str(source)]) == 0
    return tmp_path / "report.html"


def test_three_implementations_side_by_side_down_to_a_replayed_game(browser, tmp_path):
    report = R.three()
    shown = Opened(browser, _written(tmp_path, report))
    page = shown.page
    names = page.locator("table.dashboard th.impl .name").all_inner_texts()
    assert names == [card.name for card in report.cards]
    checks = list(dict.fromkeys(c.name for card in report.cards for c in card.checks))
    assert page.locator("table.dashboard tbody th code").all_inner_texts() == checks
    assert shown.count("table.dashboard td.cell.fail a") == 3
    # the engine's failed diff, followed from its cell
    diff = report.cards[1].checks[2]
    cell = page.locator("table.dashboard tbody tr").nth(checks.index("diff")).locator("td").nth(1)
    assert cell.get_attribute("class") == "cell fail"
    assert cell.inner_text() == f"FAIL {diff.failed} failed, {diff.passed} passed"
    cell.locator("a").click()
    page.wait_for_function("location.hash === '#card-1-check-2'")
    section = page.locator("section.failed-check:target")
    assert section.get_attribute("id") == "card-1-check-2"
    assert abs(page.evaluate("document.getElementById('card-1-check-2')"
                             ".getBoundingClientRect().top")) < 2
    first = section.locator("article.failure").first
    assert first.locator("p.message").inner_text() == f"1. {diff.failures[0].message}"
    assert first.locator(".rule").inner_text() == "VAR-IT-2"
    # its game: the engine's replay, opened at its last step
    game = get("hanamikoji")
    final = game.read_record(diff.failures[0].game)
    steps = len(game.history(final))
    first.locator("details.failure-game summary").click()
    spot = "#card-1-check-2-0 [data-replay]"
    page.wait_for_selector(f"{spot}[data-step='{steps}']")
    assert page.locator(f"{spot} .end .winners").inner_text() == ", ".join(
        f"player {w}" for w in game.outcome(final).winners)
    page.click(f"{spot} button.first")
    page.wait_for_selector(f"{spot}[data-step='0']")
    page.click(f"{spot} button.next")
    page.wait_for_selector(f"{spot}[data-step='1']")
    # its reproduction: copied, or selected where the clipboard is refused
    shown.context.grant_permissions(["clipboard-read", "clipboard-write"])
    first.locator("button.copy").click()
    page.wait_for_selector("#card-1-check-2-0 button.copy[data-copied]")
    text = diff.failures[0].reproduction.text
    if first.locator("button.copy").get_attribute("data-copied") == "0":
        assert page.evaluate("window.getSelection().toString()") == text
    else:
        assert first.locator("button.copy").inner_text() == "Copied"
        assert page.evaluate("navigator.clipboard.readText()") == text
    assert shown.dialogs == []
    shown.close()


def test_a_hostile_report_stays_text_in_the_browser(browser, tmp_path):
    """Names, commands, messages and stderr holding scripts and tags: no dialog, no script
    but the page's own, each shown as the text it is."""
    from hanamikoji.oracle.core.check import Card, Check, Failure, Report, Reproduction

    evil = R.HOSTILE
    failure = Failure(evil[0], call=1, request=evil[1], expected=evil[2], got=evil[4],
                      reproduction=Reproduction("sh", evil[0]), stderr=evil[1], exit=evil[2])
    cards = [Card(name, "bot", name, [Check(name, name, failed=1, failures=[failure])])
             for name in evil[:3]]
    path = _written(tmp_path, Report("hanamikoji", {}, 0, evil[0], cards))
    scripts = path.read_text(encoding="utf-8").count("<script")
    shown = Opened(browser, path)
    page = shown.page
    assert page.locator("table.dashboard th.impl .name").all_inner_texts() == list(evil[:3])
    assert page.evaluate("document.scripts.length") == scripts
    assert shown.count("img") == 0 and shown.count("main svg") == 0
    page.locator("table.dashboard td.cell.fail a").nth(2).click()
    page.wait_for_function("location.hash === '#card-2-check-0'")
    assert page.locator("#card-2-check-0-0 pre.stderr").inner_text() == evil[1]
    assert page.locator("#card-2-check-0-0 pre.repro").inner_text() == evil[0]
    assert shown.dialogs == [] and page.evaluate("typeof window.alert") == "function"
    shown.close()
