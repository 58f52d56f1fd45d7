"""Draw play on the page's draw tab in a real headless Chromium (Debian's, driven by Playwright):
deal, throw two cards, draw, see the showdown and the score. Skips like test_web_browser.py when no
Chromium is installed (fails in CI)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from pokerlab.analysis.draw_play import deal_hand, play_hand
from web_server import require_chromium, served_page

require_chromium()

from playwright.sync_api import Page  # noqa: E402


@pytest.fixture(scope="module")
def page() -> Iterator[Page]:
    with served_page() as (page, _):
        yield page


def posted(response: Any) -> dict[str, Any]:
    body: dict[str, Any] = response.request.post_data_json
    return body


def test_play_a_hand_against_a_bot_and_keep_score(page: Page) -> None:
    page.click("#tab-draw")
    page.select_option("#play-bot", "rules")
    assert page.is_disabled("#play-draw") and page.is_disabled("#play-advice")
    with page.expect_response("**/api/draw/deal") as dealt:
        page.click("#play-deal")
    deal = dealt.value.json()
    seed = posted(dealt.value)["seed"]
    assert deal["hand"] == 1 and deal["cards"] == [str(c) for c in deal_hand(seed, 1).hand]
    page.wait_for_selector("#play-hand button[data-card]:not([aria-disabled])")
    shown = page.eval_on_selector_all("#play-hand button", "bs => bs.map(b => b.dataset.card)")
    assert shown == deal["cards"]
    assert page.is_hidden("#play-advice-text")  # advice only when asked
    page.click("#play-advice")
    page.wait_for_selector("#play-advice-text:not([hidden])")
    assert page.inner_text("#play-advice-text").startswith("Advice: keep ")

    thrown = deal["cards"][1:3]
    for card in thrown:
        page.click(f'#play-hand button[data-card="{card}"]')
    pressed = page.eval_on_selector_all(
        '#play-hand button[aria-pressed="true"]', "bs => bs.map(b => b.dataset.card)"
    )
    assert pressed == thrown
    with page.expect_response("**/api/draw/showdown") as shown_down:
        page.click("#play-draw")
    out = shown_down.value.json()
    assert posted(shown_down.value)["keep"] == [c for c in deal["cards"] if c not in thrown]
    page.wait_for_selector("#play-showdown:not([hidden])")
    expected = play_hand(seed, 1, " ".join(thrown), bot="rules")
    assert out["result"] == expected.result
    assert out["opponent"]["final"] == [str(c) for c in expected.bot_final]
    text = {1: "You win", 0: "Tie", -1: "The rules bot wins"}[expected.result]
    assert page.inner_text("#play-result") == text
    rows = page.query_selector_all("#play-table tbody tr")
    assert " ".join(str(c) for c in expected.player_final) in rows[0].inner_text()
    assert " ".join(str(c) for c in expected.bot_hand) in rows[1].inner_text()
    wins, ties, losses = (int(expected.result == r) for r in (1, 0, -1))
    score = f"Score vs the rules bot: {wins} won, {ties} tied, {losses} lost"
    assert page.inner_text("#play-score") == score

    # the next hand: deal 2 of the same seed, and the score keeps running
    assert page.inner_text("#play-deal") == "Next hand"
    with page.expect_response("**/api/draw/deal") as dealt:
        page.click("#play-deal")
    assert posted(dealt.value)["hand"] == 2 and posted(dealt.value)["seed"] == seed
    page.wait_for_selector("#play-showdown", state="hidden")
    page.click("#play-draw")  # stand pat
    page.wait_for_function("() => !document.querySelector('#play-showdown').hidden")
    second = play_hand(seed, 2, [], bot="rules").result
    wins, ties, losses = wins + (second == 1), ties + (second == 0), losses + (second == -1)
    score = f"Score vs the rules bot: {wins} won, {ties} tied, {losses} lost"
    page.wait_for_function(f"() => document.querySelector('#play-score').textContent === '{score}'")
    assert wins + ties + losses == 2

    # another bot: a new score, not one mixed across opponents
    page.select_option("#play-bot", "random")
    with page.expect_response("**/api/draw/deal"):
        page.click("#play-deal")
    assert page.inner_text("#play-score") == "Score vs the random bot: 0 won, 0 tied, 0 lost"
    page.wait_for_selector("#play-showdown", state="hidden")
    page.click("#play-draw")
    page.wait_for_function("() => !document.querySelector('#play-showdown').hidden")
    third = play_hand(seed, 3, [], bot="random").result
    score = "Score vs the random bot: " + ", ".join(
        f"{int(third == r)} {word}" for r, word in ((1, "won"), (0, "tied"), (-1, "lost"))
    )
    page.wait_for_function(f"() => document.querySelector('#play-score').textContent === '{score}'")


def test_a_card_toggled_by_keyboard_keeps_the_focus(page: Page) -> None:
    """The hand was drawn anew and focus went to the body: each card meant tabbing through the
    whole page again."""
    page.click("#tab-draw")
    page.click("#play-deal")
    page.wait_for_selector("#play-hand button[data-card]:not([aria-disabled])")
    cards = page.eval_on_selector_all("#play-hand button", "bs => bs.map(b => b.dataset.card)")
    page.focus(f'#play-hand button[data-card="{cards[0]}"]')
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.dataset.card") == cards[0]
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.dataset.card") == cards[1]
    pressed = page.eval_on_selector_all(
        '#play-hand button[aria-pressed="true"]', "bs => bs.map(b => b.dataset.card)"
    )
    assert pressed == cards[:2]


def test_a_bot_chosen_mid_hand_is_said_to_apply_from_the_next_hand(page: Page) -> None:
    """The hand being played kept its bot while the select showed another, without a word."""
    page.click("#tab-draw")
    if page.is_enabled("#play-draw"):  # a hand left open by the test before
        page.click("#play-draw")
        page.wait_for_selector("#play-showdown:not([hidden])")
    page.select_option("#play-bot", "rules")
    page.click("#play-deal")
    page.wait_for_selector("#play-hand button[data-card]:not([aria-disabled])")
    assert page.is_hidden("#play-settings-note")
    page.select_option("#play-bot", "optimal")
    note = page.inner_text("#play-settings-note")
    assert "against the rules bot" in note and "from the next hand" in note
    page.select_option("#play-bot", "rules")  # back as dealt: nothing to say
    assert page.is_hidden("#play-settings-note")
    page.select_option("#play-max-draw", "3")
    assert page.is_visible("#play-settings-note")
    with page.expect_response("**/api/draw/showdown") as shown_down:
        page.click("#play-draw")
    assert posted(shown_down.value)["bot"] == "rules"
    assert posted(shown_down.value)["max_draw"] == 5
    page.wait_for_selector("#play-settings-note", state="hidden")
    with page.expect_response("**/api/draw/deal") as dealt:
        page.click("#play-deal")
    assert posted(dealt.value)["max_draw"] == 3
