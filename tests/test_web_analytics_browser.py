"""The page's Range analytics tab in Chromium: hits table, distribution chart, field errors.

Skips, saying why, when no Chromium is installed (fails in CI, as the other browser tests)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from web_server import require_chromium, served_page

require_chromium()

from playwright.sync_api import Page  # noqa: E402


@pytest.fixture(scope="module")
def page() -> Iterator[Page]:
    with served_page("analytics") as (page, _):
        yield page


def test_hits_table(page: Page) -> None:
    page.wait_for_selector("#hits-game option[value=omaha]", state="attached")
    page.fill("#hits-range", "QQ+,AKs,JTs")
    page.fill("#hits-board", "Ks9s2d")
    page.click("#hits-run")
    page.wait_for_selector("#hits-results:not([hidden])")
    made = page.inner_text("#hits-made")
    assert "top pair, top kicker" in made and "set" in made
    assert "gutshot" in page.inner_text("#hits-draws")
    assert ": 22 combos, weight 22" in page.inner_text("#hits-title")
    page.fill("#hits-range", "AcKc")  # one combo: '1 combo' (it said '1 combos')
    page.click("#hits-run")
    page.wait_for_selector("#hits-title:has-text('AcKc on')")
    assert page.inner_text("#hits-title") == "AcKc on Ks9s2d: 1 combo, weight 1"


def test_distribution_chart(page: Page) -> None:
    page.fill("#dist-hero", "QQ+,AK")
    page.fill("#dist-villains", "JJ-99,AQs\nKQs")
    page.fill("#dist-board", "Kd7c2h")
    page.click("#dist-run")
    page.wait_for_selector("#dist-results:not([hidden])")
    assert page.locator("#dist-chart path.curve").count() == 3
    assert "QQ+,AK:" in page.inner_text("#dist-chart")
    # the legend lies above the plot, where no curve goes (inside it, the curves crossed it)
    clear = page.eval_on_selector(
        "#dist-svg",
        """svg => { const top = Math.min(...[...svg.querySelectorAll('path.curve')]
                       .map(p => p.getBoundingClientRect().top));
                    return [...svg.querySelectorAll('text.legend')]
                       .every(t => t.getBoundingClientRect().bottom <= top + 1); }""",
    )
    assert clear
    if os.environ.get("POKERLAB_SCREENSHOT"):
        page.screenshot(path=os.environ["POKERLAB_SCREENSHOT"], full_page=True)


def test_error_next_to_the_field(page: Page) -> None:
    page.fill("#dist-hero", "QX")
    page.click("#dist-run")
    slot: Any = page.wait_for_selector("#dist-form [data-error-for=hero]:not(:empty)")
    assert "QX" in slot.inner_text()


def test_a_long_distribution_shows_its_progress_and_stops(page: Page) -> None:
    page.fill("#dist-hero", "TT+,AK")
    page.fill("#dist-villains", "99-66\nAQ\nKQ")
    page.fill("#dist-board", "Ks9s2d")
    page.click("#dist-run")
    page.wait_for_function("() => document.querySelector('#dist-progress progress').value > 0")
    assert page.is_visible("#dist-stop") and "%" in page.inner_text("#dist-progress")
    page.click("#dist-stop")
    slot: Any = page.wait_for_selector("#dist-form .form-error:not(:empty)")
    assert slot.inner_text().startswith("Stopped: the distribution was stopped at")
    assert page.is_hidden("#dist-stop") and page.is_hidden("#dist-progress")
