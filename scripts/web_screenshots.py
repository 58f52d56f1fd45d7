"""Take the README's screenshots of the simulator page (desktop and phone width).

    PYTHONPATH=src python3 scripts/web_screenshots.py      # writes docs/web-*.png

Serves the app on a free loopback port and drives Debian's Chromium with Playwright.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from playwright.sync_api import Page, sync_playwright  # noqa: E402

from web_server import CHROMIUM_ARGS, chromium_path, running_server  # noqa: E402

DOCS = ROOT / "docs"


def fill_spot(page: Page, players: list[str], board: str) -> None:
    page.wait_for_selector("body[data-ready=true]")
    while len(page.query_selector_all("#players input")) < len(players):
        page.click("#add-player")
    for i, text in enumerate(players):
        page.fill(f'[name="players.{i}"]', text)
    page.fill("#board", board)


def main() -> None:
    chromium = chromium_path()
    if chromium is None:
        raise SystemExit("no Chromium found (apt-get install chromium)")
    with running_server() as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)

        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.goto(url + "/")
        fill_spot(page, ["9h8h", "AsKd", "QcQd"], "")
        page.click("#pick-cards")
        for card in ("Th", "7c", "2h", "Ks"):  # the board from the deck
            page.click(f'#deck button[data-card="{card}"]')
        page.click("#simulate")
        page.wait_for_selector("#results:not([hidden])")
        page.click("#show-outs")
        page.wait_for_selector("#outs:not([hidden])")
        page.screenshot(path=str(DOCS / "web-desktop.png"), full_page=True)

        # a long Monte Carlo run, caught while it streams its progress
        fill_spot(page, ["AsKs", "QQ+,AKo", "random"], "")
        page.click("#pick-cards")  # folded away again
        page.click('.segmented label:has-text("Monte Carlo")')
        page.fill("#stderr", "0.001")
        page.click("#simulate")
        page.wait_for_function("() => document.querySelector('#progress-bar').value > 0.02")
        page.wait_for_selector("#progress-estimate:not(:empty)")
        page.screenshot(path=str(DOCS / "web-progress.png"), clip={"x": 0, "y": 0, "width": 1200,
                                                                    "height": 900})  # fmt: skip
        page.click("#stop")
        page.wait_for_selector("#stop", state="hidden")

        page.goto(url + "/")
        fill_spot(page, ["AhKh", "QQ+,AKs,AQs", "JJ+,AKs:0.5,AhKd,T9s:0.25"], "")
        page.click('button[aria-label="Range grid for player 3"]')
        page.wait_for_selector("#grid-dialog:not([hidden])")
        page.fill("#paint-weight", "0.5")
        for name in ("TT", "99", "AQs", "KQs"):
            page.click(f'#range-grid button[data-class="{name}"]')
        page.click('.grid-tools label:has-text("Pick suits")')
        page.click('#range-grid button[data-class="AKo"]')
        page.click('#suit-combos button[data-combo="AsKd"]')
        page.wait_for_timeout(400)
        page.screenshot(path=str(DOCS / "web-range-grid.png"))

        phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                    has_touch=True, device_scale_factor=2)  # fmt: skip
        page = phone.new_page()
        page.goto(url + "/")
        fill_spot(page, ["AhAs", "KdKc"], "")
        page.tap("#pick-cards")
        for card in ("Qh", "7c", "2d"):
            page.tap(f'#deck button[data-card="{card}"]')
        page.tap("#simulate")
        page.wait_for_selector("#results:not([hidden])")
        page.screenshot(path=str(DOCS / "web-phone.png"), full_page=True)
        page.tap('button[aria-label="Range grid for player 2"]')
        page.wait_for_selector("#grid-dialog:not([hidden])")
        page.tap('#range-grid button[data-class="QQ"]')
        page.tap('#range-grid button[data-class="AKo"]')
        page.wait_for_timeout(400)
        page.screenshot(path=str(DOCS / "web-phone-grid.png"))
        browser.close()
    print("wrote", ", ".join(sorted(p.name for p in DOCS.glob("web-*.png"))))


if __name__ == "__main__":
    main()
