"""The flop report and the preflop matrix of the page's Range analytics tab in Chromium: the
flop table is the API's answer and sorts by a click on its headers, the matrix grid holds the
API's equities in colour, an error shows next to its field, and a long report shows its progress
and stops.

Skips, saying why, when no Chromium is installed (fails in CI, as the other browser tests)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from web_server import require_chromium, served_page

require_chromium()

from playwright.sync_api import Page  # noqa: E402

CELLS = "rows => rows.map(r => [...r.cells].map(c => c.textContent))"


@pytest.fixture(scope="module")
def site() -> Iterator[tuple[Page, str]]:
    with served_page("analytics") as (page, url):
        yield page, url


def test_the_flop_table_is_the_apis_and_sorts(site: tuple[Page, str]) -> None:
    page, url = site
    page.wait_for_selector("#flops-game option[value=omaha]", state="attached")
    games = page.eval_on_selector_all("#flops-game option", "os => os.map(o => o.value)")
    assert "holdem" in games and "shortdeck" in games and "razz" not in games
    page.fill("#flops-players", "AA\nKK")
    page.select_option("#flops-game", "shortdeck")
    page.click("#flops-run")
    page.wait_for_selector("#flops-results:not([hidden])")
    body = {"players": ["AA", "KK"], "game": "shortdeck"}
    expected = httpx.post(url + "/api/flops", json=body, timeout=60).json()
    rows = page.eval_on_selector_all("#flops-table tbody tr", CELLS)
    assert [r[0] for r in rows] == expected["flops"]  # by equity, highest first
    assert rows[0][3] == f"{expected['equity'][0] * 100:.2f}%"
    assert f"{expected['mean_equity'] * 100:.3f}%" in page.inner_text("#flops-summary")
    page.click("#flops-table th button[data-key=equity]")  # a second click: lowest first
    first = page.eval_on_selector("#flops-table tbody tr", "r => r.cells[0].textContent")
    assert first == expected["flops"][expected["equity"].index(min(expected["equity"]))]
    assert page.get_attribute("#flops-table th:nth-child(4)", "aria-sort") == "ascending"
    page.click("#flops-table th button[data-key=size]")  # another column: largest first
    sizes = page.eval_on_selector_all("#flops-table tbody tr", "rs => rs.map(r => r.cells[1]"
                                      ".textContent.replaceAll(',', ''))")  # fmt: skip
    assert [int(s) for s in sizes] == sorted(expected["size"], reverse=True)
    page.click("#flops-table th button[data-key=flop]")  # by rank, lowest first: not A, J, K, Q, T
    names = page.eval_on_selector_all("#flops-table tbody tr", "rs => rs.map(r => r.cells[0]"
                                      ".textContent)")  # fmt: skip
    order = "6789TJQKA"  # short deck

    def ranks(flop: str) -> list[int]:
        return sorted((order.index(flop[i]) for i in range(0, 6, 2)), reverse=True)

    assert [ranks(f) for f in names] == sorted(ranks(f) for f in names)
    assert names[-1].startswith("A") and names[0][0] == "6"


def test_the_matrix_grid_is_the_apis_in_colour(site: tuple[Page, str]) -> None:
    page, url = site
    page.fill("#matrix-names", "AA, KK aks")
    page.click("#matrix-run")
    page.wait_for_selector("#matrix-results:not([hidden])")
    expected = httpx.post(url + "/api/matrix", json={"names": ["AA", "KK", "aks"]}, timeout=60)
    data = expected.json()
    rows = page.eval_on_selector_all("#matrix-table tbody tr", CELLS)
    assert [r[0] for r in rows] == data["names"] == ["AA", "KK", "AKs"]
    assert page.inner_text("#matrix-title") == "Preflop matrix, Texas Hold'em: 3 x 3 classes"
    for row, equities in zip(rows, data["equity"], strict=True):
        assert row[1:] == [f"{e * 100:.1f}" for e in equities]
    colours = page.eval_on_selector_all(
        "#matrix-table td.cell", "cs => cs.map(c => getComputedStyle(c).backgroundColor)"
    )
    assert len(set(colours)) > 2  # AA vs KK is not KK vs AA
    title = page.get_attribute("#matrix-table tbody tr td.cell:nth-child(3)", "title")
    assert title is not None and title.startswith("AA vs KK: equity 81.9")
    # win and tie, which only the hover title showed: said for a tapped or focused cell too
    page.click("#matrix-table tbody tr td.cell:nth-child(3)")
    assert page.inner_text("#matrix-detail") == title
    stops = page.eval_on_selector_all(
        "#matrix-table td.cell", "cs => cs.filter(c => c.tabIndex === 0).length"
    )
    assert stops == 1  # one Tab stop, moved by the arrow keys
    page.focus("#matrix-table tbody tr td.cell:nth-child(3)")
    page.keyboard.press("ArrowDown")
    said = page.inner_text("#matrix-detail")
    assert said.startswith("KK vs KK: equity 50.0") and ", win " in said and ", tie " in said
    if os.environ.get("POKERLAB_SCREENSHOT"):
        page.screenshot(path=os.environ["POKERLAB_SCREENSHOT"], full_page=True)


def test_errors_show_next_to_their_field(site: tuple[Page, str]) -> None:
    page, _ = site
    page.fill("#matrix-names", "AA, QX")
    page.click("#matrix-run")
    slot: Any = page.wait_for_selector("#matrix-form [data-error-for=names]:not(:empty)")
    assert "QX" in slot.inner_text()
    assert page.is_hidden("#matrix-results")  # out of date
    page.fill("#flops-players", "AsKs\nQQ+\nAsQd")
    page.select_option("#flops-game", "holdem")
    page.click("#flops-run")
    slot = page.wait_for_selector("#flops-form [data-error-for=players]:not(:empty)")
    assert "player 3" in slot.inner_text()


def test_a_long_matrix_shows_its_progress_and_stops(site: tuple[Page, str]) -> None:
    page, url = site
    page.fill("#matrix-names", "")  # all of short deck's 81 classes: about 5 s, enumerated
    page.select_option("#matrix-game", "shortdeck")
    page.click("#matrix-run")
    page.wait_for_function("() => document.querySelector('#matrix-progress progress').value > 0")
    assert page.is_visible("#matrix-stop") and "%" in page.inner_text("#matrix-progress")
    page.click("#matrix-stop")
    slot: Any = page.wait_for_selector("#matrix-form .form-error:not(:empty)")
    assert slot.inner_text().startswith("Stopped: the matrix was stopped at")
    assert page.is_hidden("#matrix-stop") and page.is_hidden("#matrix-progress")
    status = httpx.get(url + "/api/status", timeout=10).json()
    assert status["busy"] == 0, status  # the stopped run gave its worker back
