"""Regenerate the screenshots of docs/viewer.md (docs/viewer-*.png) from fixed inputs.

Each page is made by the commands docs/viewer.md shows (fixed seeds), opened in headless
Chromium from the system (``/usr/bin/chromium`` or ``$HANAMIKOJI_CHROMIUM``) driven by
Playwright's Python package (the ``browser`` extra; no browser is downloaded), put at a known
step and view, and captured. The report is ``verify --game maiko --out``'s: it takes a minute or
two, and its line of timings and versions differs from run to run. The check report's page is
``view``'s of a report built from the report card's model (tests/card_reports.py: a course
module, an engine and a bot side by side), and the engine's first failure with its game.

    python dev/screenshots.py            # every screenshot
    python dev/screenshots.py stats      # only docs/viewer-stats.png

Look at each PNG before committing it.
"""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def hanamikoji(*words: str, cwd: pathlib.Path, code: int = 0, **env: str) -> None:
    """``hanamikoji WORDS`` run in ``cwd`` (this Python's), failing unless it exits ``code``."""
    path = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")
    done = subprocess.run([sys.executable, "-m", "hanamikoji", *words], cwd=cwd,
                          env=dict(os.environ, **env, PATH=path), capture_output=True, text=True)
    if done.returncode != code:
        raise SystemExit(f"hanamikoji {' '.join(words)}: exit {done.returncode}\n"
                         f"{done.stderr[-2000:]}")


def _chromium() -> str:
    for candidate in (os.environ.get("HANAMIKOJI_CHROMIUM"), shutil.which("chromium"),
                      "/usr/bin/chromium", shutil.which("chromium-browser")):
        if candidate and os.path.exists(candidate):
            return candidate
    raise SystemExit("no Chromium found: install the distribution's chromium, or set "
                     "HANAMIKOJI_CHROMIUM to its path")


def shoot(browser, page_file: pathlib.Path, png: str, size: tuple[int, int], setup) -> None:
    """``page_file`` opened at ``size``, made ready by ``setup(page)``, captured to docs/PNG."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(
        "file:") else route.abort())
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(page_file.resolve().as_uri())
    page.wait_for_selector("body[data-ready]")
    setup(page)
    page.screenshot(path=str(DOCS / png))
    context.close()
    if errors:
        raise SystemExit(f"{png}: script errors: {errors}")
    print(f"wrote docs/{png}")


def _step(page, step: int, view: str | None = None, root: str = "section.viewer") -> None:
    if view is not None:
        page.select_option(f"{root} select.view-switch", view)
        page.wait_for_selector(f"{root}[data-view='{view}']")
    page.evaluate(f"HK.active.go({step})")
    page.wait_for_selector(f"{root}[data-step='{step}']")


def main(argv: list[str]) -> int:
    from playwright.sync_api import sync_playwright

    kinds = argv or ["hanamikoji", "maiko", "divergence", "report", "stats", "check"]
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as pw:
        work = pathlib.Path(folder)
        for name in ("docs", "tests"):
            (work / name).symlink_to(ROOT / name)
        browser = pw.chromium.launch(executable_path=_chromium(), args=["--no-sandbox"])
        if "hanamikoji" in kinds or "stats" in kinds:
            hanamikoji("simulate", "--games", "200", "--seed", "1", "--records", "games.jsonl",
                       cwd=work)
        if "hanamikoji" in kinds:  # the first game, as player 0 saw it, at the second round
            hanamikoji("view", "games.jsonl", cwd=work)
            shoot(browser, work / "games.html", "viewer-hanamikoji.png", (1360, 680),
                  lambda page: _step(page, 20, "0"))
        if "maiko" in kinds:  # everything, half way through
            hanamikoji("play", "--game", "maiko", "--players", "3", "--seed", "2", "--record",
                       "maiko.json", cwd=work)
            hanamikoji("view", "maiko.json", "--out", "maiko.html", cwd=work)
            shoot(browser, work / "maiko.html", "viewer-maiko.png", (1300, 760),
                  lambda page: _step(page, 120))
        if "divergence" in kinds:  # a broken engine's (tests/broken_engines.py)
            hanamikoji("diff", "--games", "20", "--save", "divergence", "--", "python",
                       "docs/examples/adapter.py", "--engine", "broken_engines:gift-gives-two",
                       cwd=work, code=1, PYTHONPATH=str(work / "tests"))
            shoot(browser, work / "divergence" / "divergence.html", "viewer-divergence.png",
                  (1300, 900), lambda page: page.wait_for_selector("[data-replay='0'][data-step]"))
        if "report" in kinds:  # Maiko's queries, the first witness opened at its end
            hanamikoji("verify", "--game", "maiko", "--out", "report", cwd=work)

            def report(page) -> None:
                page.locator("details.witness summary").first.click()
                page.wait_for_selector("[data-replay='0'][data-step='0']")
                page.click("[data-replay='0'] button.last")  # the witness's boards, filled
                page.wait_for_selector("[data-replay='0']:not([data-step='0'])")
                page.evaluate("window.scrollTo(0, 0)")

            shoot(browser, work / "report" / "report.html", "viewer-report.png", (1300, 900),
                  report)
        if "stats" in kinds:
            hanamikoji("stats", "games.jsonl", "--html", "stats.html", cwd=work)
            shoot(browser, work / "stats.html", "viewer-stats.png", (1000, 640),
                  lambda page: None)
        if "check" in kinds:
            sys.path.insert(0, str(ROOT / "tests"))
            import card_reports

            (work / "report.json").write_text(json.dumps(card_reports.three().to_json()),
                                              encoding="utf-8")
            hanamikoji("view", "report.json", cwd=work)

            def failure(page) -> None:  # the engine's failed diff, its game opened
                page.click("a[href='#card-1-check-2']")
                page.locator("#card-1-check-2-0 details.failure-game summary").click()
                page.wait_for_selector("#card-1-check-2-0 [data-replay][data-step]")
                page.evaluate("document.getElementById('card-1-check-2').scrollIntoView()")

            shoot(browser, work / "report.html", "viewer-check.png", (1300, 640),
                  lambda page: None)
            shoot(browser, work / "report.html", "viewer-check-failure.png", (1300, 900),
                  failure)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
