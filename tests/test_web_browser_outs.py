"""The page's outs view on a flop, in headless Chromium (skips like ``test_web_browser``): turn
cards labelled by their rivers (win / tie / lose only when every river agrees, else "depends"),
per-turn win / chop / lose river counts, and a row that opens on the river cards."""

from __future__ import annotations

import pokerlab
from pokerlab.analysis.outs import turn_outcomes
from test_web_browser import base_url, browser, page  # noqa: F401  (fixtures)

from playwright.sync_api import Page  # isort: skip


def test_the_outs_of_a_flop_label_turns_by_their_rivers(page: Page) -> None:  # noqa: F811
    players, board = ["6c7c", "AhAd"], "4c8c9s"
    page.fill('[name="players.0"]', players[0])
    page.fill('[name="players.1"]', players[1])
    page.fill("#board", board)
    report = pokerlab.outs(players, board=board)  # what the server's worker answers
    page.click("#show-outs")
    page.wait_for_selector("#outs:not([hidden])")
    for p in range(2):
        cells = page.eval_on_selector_all(
            f'.outs-grid[data-player="{p + 1}"] .out',
            "cells => cells.map(c => [c.dataset.card, c.dataset.kind])",
        )
        kinds = {c: k for c, k in cells if k != "known"}
        assert kinds == {str(c): k for c, k in turn_outcomes(report, p).items()}
    assert list(kinds.values()).count("depends") == 32  # none of them is a "tie"
    header = page.inner_text(".outs-player h3")
    assert "wins on every river 13" in header and "depends on the river 32" in header
    row = '.turn-row[data-turn="2h"]'
    assert "1: win 15 · chop 0 · lose 29 (depends)" in page.inner_text(f"{row} summary")
    assert not page.is_visible(f'{row} .river-list[data-player="1"]')
    page.click('.outs-grid[data-player="1"] .out[data-card="2h"]')  # a turn cell opens its row
    wins = page.inner_text(f'{row} .river-list[data-player="1"] .rivers[data-kind="win"]')
    assert wins.strip() == "win 15: 2c 3c 5c 5d 5h 5s 9c Tc Td Th Ts Jc Qc Kc Ac"


def test_the_runout_summary_counts_what_depends_on_the_others(page: Page) -> None:  # noqa: F811
    """Against a range most runouts neither win nor lose for sure: the summary said "wins 85,
    ties 0, equity 70.75 %" and left out the 996 that depend on the others' hands."""
    players, board = ["AhKh", "random"], "Th9h2c"
    report = pokerlab.outs(players, board=board)
    page.fill('[name="players.0"]', players[0])
    page.fill('[name="players.1"]', players[1])
    page.fill("#board", board)
    page.route("**/api/outs", lambda route: route.fulfill(json=report.to_dict()))
    page.click("#show-outs")
    page.wait_for_selector("#outs:not([hidden])")
    totals = report.runouts
    assert totals is not None and totals.depends[0] > 0
    summary = page.inner_text("#outs-summary")
    assert (
        f"player 1 wins {totals.win[0]:,}, ties {totals.tie[0]:,}, depends on the others' "
        f"hands {totals.depends[0]:,}" in summary
    )


def test_the_turn_cells_of_a_flop_work_by_keyboard(page: Page) -> None:  # noqa: F811
    """The turn cells opened their rows by mouse only, and read as bare card names."""
    page.fill('[name="players.0"]', "6c7c")
    page.fill('[name="players.1"]', "AhAd")
    page.fill("#board", "4c8c9s")
    page.click("#show-outs")
    page.wait_for_selector("#outs:not([hidden])")
    grid = '.outs-grid[data-player="1"]'
    stops = page.eval_on_selector_all(f"{grid} .out", "cs => cs.filter(c => c.tabIndex === 0)")
    assert len(stops) == 1  # one Tab stop per grid: its first turn card, As
    assert page.get_attribute(f'{grid} .out[data-card="As"]', "tabindex") == "0"
    label = page.get_attribute(f'{grid} .out[data-card="As"]', "aria-label")
    assert label is not None and label.startswith("As: ") and "rivers win" in label
    assert page.get_attribute(f'{grid} .out[data-card="9s"]', "role") == "img"  # on the board
    page.focus(f'{grid} .out[data-card="As"]')
    for _ in range(4):  # Ks Qs Js Ts, then 9s is on the board: skipped to 8s
        page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.card") == "Ts"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.card") == "8s"
    page.keyboard.press("ArrowDown")  # the hearts row
    assert page.evaluate("document.activeElement.dataset.card") == "8h"
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")  # no row above spades: stays
    assert page.evaluate("document.activeElement.dataset.card") == "8s"
    page.keyboard.press("End")
    assert page.evaluate("document.activeElement.dataset.card") == "2c"
    page.keyboard.press("ArrowLeft")  # 3c, then 4c is on the board: 3c first
    assert page.evaluate("document.activeElement.dataset.card") == "3c"
    page.keyboard.press("Enter")
    row = '.turn-row[data-turn="3c"]'
    assert page.get_attribute(row, "open") is not None
    assert page.evaluate("document.activeElement.closest('.turn-row').dataset.turn") == "3c"
