"""The page's Query tab in Chromium: the example query's table and bar chart match the API's
answer; a syntax error shows next to the text, naming its column.

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


@pytest.fixture(scope="module")
def site() -> Iterator[tuple[Page, str]]:
    with served_page("query") as (page, url):
        yield page, url


def test_example_query_table_and_chart(site: tuple[Page, str]) -> None:
    page, url = site
    example = page.input_value("#query-text")
    assert example.startswith("select ")
    page.click("#query-run")
    page.wait_for_selector("#query-results:not([hidden])")
    expected = httpx.post(url + "/api/query", json={"text": example}, timeout=60).json()
    rows = page.eval_on_selector_all(
        "#query-table tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
    )
    assert [r[0] for r in rows] == [r["name"] for r in expected["results"]]
    for row, result in zip(rows, expected["results"], strict=True):
        assert row[2] == "exact"
        assert row[3] == f"{expected['deals']:,}" and row[4] == f"{expected['matched']:,}"
        if not isinstance(result["value"], list):
            assert row[1].startswith(f"{result['value']:.6f}")
    (histogram,) = [r for r in expected["results"] if isinstance(r["value"], list)]
    assert page.locator("#query-charts svg rect.qbar").count() == len(histogram["value"])
    labels = page.eval_on_selector_all(
        "#query-charts text.bucket", "ts => ts.map(t => t.textContent)"
    )
    assert labels == [b["bucket"] for b in histogram["value"]]
    if os.environ.get("POKERLAB_SCREENSHOT"):
        page.screenshot(path=os.environ["POKERLAB_SCREENSHOT"], full_page=True)


def test_syntax_error_next_to_the_text(site: tuple[Page, str]) -> None:
    page, _ = site
    page.fill("#query-text", "select avg(riverEquity(hero) from hero='AhAs', villain='KdKc'")
    page.click("#query-run")
    slot: Any = page.wait_for_selector("#query-form [data-error-for=text]:not(:empty)")
    assert "column" in slot.inner_text()


def test_sampled_query_shows_standard_errors(site: tuple[Page, str]) -> None:
    page, _ = site
    page.fill("#query-text", "select avg(flopEquity(h)) as eq, histogram(handType(h, flop)) as "
              "made from h='AhKh', v='QQ+', trials=5000, seed=4")  # fmt: skip
    page.click("#query-run")
    page.wait_for_function("() => document.querySelector('#query-summary').textContent"
                           ".includes('seed 4')")  # fmt: skip
    first = page.eval_on_selector(
        "#query-table tbody tr", "r => [...r.cells].map(c => c.textContent)"
    )
    assert first[0] == "eq" and first[2] != "exact" and float(first[2]) > 0
    assert first[3] == "5,000"
    assert page.locator("#query-charts line.err").count() >= 2


def test_a_long_query_shows_its_progress_and_stops(site: tuple[Page, str]) -> None:
    """The equity tab's progress bar and Stop, on the query form: a stopped sampled query shows
    what it drew; the bar and the button go away with the answer."""
    page, url = site
    page.fill("#query-text", "select avg(riverEquity(h)) as eq from h='AhKh', v='random', "
              "trials=1000000000, seed=5")  # fmt: skip
    page.click("#query-run")
    page.wait_for_function("() => document.querySelector('#query-progress progress').value > 0")
    assert page.is_visible("#query-progress") and page.is_visible("#query-stop")
    assert " s" in page.inner_text("#query-progress [role=status]")
    page.click("#query-stop")
    page.wait_for_function("() => document.querySelector('#query-summary').textContent"
                           ".includes('seed 5')")  # fmt: skip
    deals = page.eval_on_selector("#query-table tbody tr", "r => r.cells[3].textContent")
    assert 0 < int(deals.replace(",", "")) < 1_000_000_000
    assert page.is_hidden("#query-stop") and page.is_hidden("#query-progress")
    status = httpx.get(url + "/api/status", timeout=10).json()
    assert status["busy"] == 0, status  # the stopped run gave its worker back


def test_a_stopped_exact_query_says_so(site: tuple[Page, str]) -> None:
    page, _ = site
    page.fill("#query-text", "select avg(riverEquity(h)) from h='AhKh', v='JJ+', exact")
    page.click("#query-run")
    page.wait_for_function("() => document.querySelector('#query-progress progress').value > 0")
    page.click("#query-stop")
    slot: Any = page.wait_for_selector("#query-form .form-error:not(:empty)")
    assert slot.inner_text().startswith("Stopped: the exact enumeration was stopped at")
    assert page.is_hidden("#query-stop") and page.is_hidden("#query-progress")
