"""The simulator page in a real headless Chromium (Debian's, driven by Playwright).

Locally the tests skip, saying why, when no Chromium is installed; in CI (``CI=true``) a missing
browser fails them instead (``scripts/test`` installs Debian's ``chromium`` when it is absent).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import pokerlab
from pokerlab.ranges import Range
from web_server import CHROMIUM_ARGS, checked_page, require_chromium, running_server

CHROMIUM = require_chromium()

from playwright.sync_api import Page, sync_playwright  # noqa: E402


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with running_server() as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any, base_url: str) -> Iterator[Page]:
    with checked_page(browser, base_url) as page:
        yield page


def simulate(page: Page) -> None:
    page.click("#simulate")
    page.wait_for_selector("#results:not([hidden])")


def test_heads_up_equity_reads_81_26_percent(page: Page) -> None:
    page.fill('[name="players.0"]', "AhAs")
    page.fill('[name="players.1"]', "KdKc")
    simulate(page)
    assert page.inner_text('td.equity[data-player="1"]').strip() == "81.26%"
    assert page.inner_text('td.equity[data-player="2"]').strip() == "18.74%"
    assert "1,712,304 deals enumerated" in page.inner_text("#equity-summary")


def test_short_deck_equity_and_its_grid(page: Page) -> None:
    """Short deck's answer by its rules; its grid has no class below the six and its top x%
    is of its 630 combos by its own ordering, as the equity it runs reads them."""
    page.select_option("#game", "shortdeck")
    page.fill('[name="players.0"]', "AhKh")
    page.fill('[name="players.1"]', "QsQd")
    simulate(page)
    assert page.inner_text('td.equity[data-player="1"]').strip() == "51.44%"
    assert "201,376 deals enumerated" in page.inner_text("#equity-summary")
    # a slow range answer: the cells out of the deck are disabled as the dialog shows, not later
    page.route("**/api/range", lambda route: (time.sleep(0.3), route.continue_()))
    open_grid(page, 2)
    assert page.is_disabled('#range-grid button[data-class="55"]')
    assert page.is_disabled('#range-grid button[data-class="A5s"]')
    assert page.is_enabled('#range-grid button[data-class="A6s"]')
    assert page.is_disabled("#top-ordering")
    page.fill("#top-percent", "15")
    page.dispatch_event("#top-percent", "input")
    top = Range("15%", ordering="short")
    page.wait_for_function(
        f"() => document.querySelector('#grid-combos').textContent === '{len(top)}'"
    )
    assert page.inner_text("#grid-percent") == f"{100 * len(top) / 630:.2f}%"
    page.click('#range-grid button[data-class="55"]', force=True)  # disabled: nothing
    assert page.input_value("#grid-range") == top.to_string()
    page.click("#grid-apply")
    simulate(page)
    got = pokerlab.equity(["AhKh", "15%"], game="shortdeck")
    assert page.inner_text('td.equity[data-player="2"]').strip() == f"{got.equities[1]:.2%}"


def test_a_server_still_warming_up_is_asked_again_not_reported(page: Page) -> None:
    answered: list[int] = []

    def warming_twice(route: Any) -> None:
        if len(answered) < 2:
            answered.append(503)
            body = '{"error": {"type": "WarmingUp", "message": "workers are starting"}}'
            headers = {"Retry-After": "1", "Content-Type": "application/json"}
            route.fulfill(status=503, body=body, headers=headers)
        else:
            answered.append(200)
            route.continue_()

    page.route("**/api/equity**", warming_twice)
    page.fill('[name="players.0"]', "AhAs")
    page.fill('[name="players.1"]', "KdKc")
    page.click("#simulate")
    page.wait_for_selector("#server-note:not([hidden])")
    assert "starting up" in page.inner_text("#server-note")
    page.wait_for_selector("#results:not([hidden])")
    assert answered == [503, 503, 200]
    assert page.is_hidden("#server-note")
    assert page.inner_text('td.equity[data-player="1"]').strip() == "81.26%"
    assert page.inner_text("#equity-error").strip() == ""


def test_the_page_is_served_under_a_csp_and_still_draws_its_bars(page: Page) -> None:
    response = page.goto(page.url)
    assert response is not None
    csp = response.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert response.headers["x-content-type-options"] == "nosniff"
    page.wait_for_selector("body[data-ready=true]")
    page.fill('[name="players.0"]', "AhAs")
    page.fill('[name="players.1"]', "KdKc")
    simulate(page)
    width = page.eval_on_selector('td.equity[data-player="1"] .bar i', "i => i.style.width")
    assert width == "81.26%"
    # the bar lies inside its cell (the analytics tab's bar style, also named .bar, pinned it
    # to the page's left edge over the form)
    inside = page.eval_on_selector(
        'td.equity[data-player="1"]',
        """td => { const c = td.getBoundingClientRect(), b = td.querySelector('.bar')
                     .getBoundingClientRect();
                   return b.left >= c.left && b.right <= c.right && b.top >= c.top
                     && b.bottom <= c.bottom; }""",
    )
    assert inside


def test_a_range_built_on_the_grid(page: Page) -> None:
    page.fill('[name="players.0"]', "AhAs")
    page.click('button[aria-label="Range grid for player 2"]')
    page.wait_for_selector("#grid-dialog:not([hidden])")
    for name in ("KK", "QQ", "AKs"):
        page.click(f'#range-grid button[data-class="{name}"]')
    chosen = Range("KK,QQ,AKs")
    page.wait_for_function(
        f"() => document.querySelector('#grid-combos').textContent === '{chosen.combo_count}'"
    )
    assert page.inner_text("#grid-percent") == f"{chosen.percent:.2f}%"
    page.click('#range-grid button[data-class="AKs"]')  # and out again
    page.wait_for_function("() => document.querySelector('#grid-combos').textContent === '12'")
    assert page.inner_text("#grid-percent") == f"{Range('KK,QQ').percent:.2f}%"
    page.click("#grid-apply")
    page.wait_for_selector("#grid-dialog", state="hidden")
    assert page.input_value('[name="players.1"]') == Range("KK,QQ").to_string()
    simulate(page)
    expected = pokerlab.equity(["AhAs", "KK,QQ"]).players[0].equity
    assert page.inner_text('td.equity[data-player="1"]').strip() == f"{expected * 100:.2f}%"


def test_the_grid_opens_on_the_players_range(page: Page) -> None:
    page.fill('[name="players.1"]', "QQ+,AKs")
    page.click('button[aria-label="Range grid for player 2"]')
    page.wait_for_function("() => document.querySelector('#grid-combos').textContent === '22'")
    on = page.eval_on_selector_all(
        "#range-grid button.on", "cells => cells.map(c => c.dataset.class)"
    )
    assert sorted(on) == sorted(["AA", "KK", "QQ", "AKs"])


def test_the_range_grid_is_one_tab_stop_moved_by_the_arrow_keys(page: Page) -> None:
    """Its 169 cells were 169 Tab stops; it is now one, in rows a screen reader can read."""
    page.select_option("#game", "shortdeck")  # and the arrows step past the classes out of its deck
    open_grid(page, 2)
    stops = page.eval_on_selector_all(
        "#range-grid button",
        "cells => cells.filter(c => c.tabIndex === 0 && !c.disabled).map(c => c.dataset.class)",
    )
    assert stops == ["AA"]
    assert page.eval_on_selector_all("#range-grid [role=row]", "rows => rows.length") == 13
    focused = "() => document.activeElement.dataset.class"
    page.focus('#range-grid button[data-class="AA"]')
    page.keyboard.press("ArrowRight")
    assert page.evaluate(focused) == "AKs"
    page.keyboard.press("ArrowDown")
    assert page.evaluate(focused) == "KK"
    page.keyboard.press("Enter")  # paints the focused class
    page.wait_for_function("() => document.querySelector('#grid-combos').textContent === '6'")
    page.focus('#range-grid button[data-class="A6s"]')
    page.keyboard.press("ArrowDown")  # A5o, A4o, ... are not in the deck: the next usable cell
    assert page.evaluate(focused) == "K6s"
    page.keyboard.press("End")
    assert page.evaluate(focused) == "66"
    stops = page.eval_on_selector_all(
        "#range-grid button",
        "cells => cells.filter(c => c.tabIndex === 0 && !c.disabled).map(c => c.dataset.class)",
    )
    assert stops == ["66"]  # the cell last visited is the grid's Tab stop
    page.keyboard.press("Tab")  # leaves the grid
    assert page.evaluate("() => document.activeElement.closest('#range-grid') === null")


def library_error(**kwargs: Any) -> str:
    with pytest.raises(pokerlab.PokerlabError) as info:
        pokerlab.equity(**kwargs)
    return str(info.value)


def field_error(page: Page, field: str, form: str = "") -> str:
    """The message shown next to ``field`` (in ``form``, a selector, when given), once shown."""
    slot = page.wait_for_selector(f'{form} [data-error-for="{field}"]:not(:empty)'.strip())
    assert slot is not None
    return slot.inner_text()


def test_an_invalid_card_shows_an_inline_error(page: Page) -> None:
    page.fill('[name="players.0"]', "AhAs")
    page.fill('[name="players.1"]', "KdKc")
    page.fill("#board", "Qh7x2d")
    page.click("#simulate")
    assert field_error(page, "board") == library_error(players=["AhAs", "KdKc"], board="Qh7x2d")
    assert "invalid" in (page.get_attribute("#board", "class") or "")
    assert page.is_hidden("#results")
    page.fill("#board", "")
    page.fill('[name="players.1"]', "KdKx")
    page.click("#simulate")
    assert field_error(page, "players.1") == library_error(players=["AhAs", "KdKx"])
    assert page.inner_text('[data-error-for="board"]') == ""


def test_the_outs_grid_of_a_turn_spot(page: Page) -> None:
    players, board = ["9h8h", "AsKd"], "Th7c2hKs"
    page.fill('[name="players.0"]', players[0])
    page.fill('[name="players.1"]', players[1])
    page.fill("#board", board)
    page.click("#show-outs")
    page.wait_for_selector("#outs:not([hidden])")
    report = pokerlab.outs(players, board=board).next_cards
    wins = []
    for p in range(2):
        grid = f'.outs-grid[data-player="{p + 1}"]'
        cells = page.eval_on_selector_all(
            f"{grid} .out", "cells => cells.map(c => [c.dataset.card, c.dataset.kind])"
        )
        assert len(cells) == 52
        kinds = dict(cells)
        for kind, cards in (("win", report.win_cards(p)), ("tie", report.tie_cards(p)),
                            ("lose", report.lose_cards(p))):  # fmt: skip
            assert {c for c, k in kinds.items() if k == kind} == {str(c) for c in cards}
        known = {c for c, k in kinds.items() if k == "known"}
        assert known == {"9h", "8h", "As", "Kd", "Th", "7c", "2h", "Ks"}
        wins.append(sum(1 for k in kinds.values() if k == "win"))
    assert wins == [15, 29]  # the nine hearts and six jacks/sixes complete 9h8h; else AsKd wins
    assert "wins 15" in page.inner_text(".outs-player h3")
    # the legend says what "depends" means on this street (it spoke of rivers on a turn board)
    assert page.inner_text("#outs-depends").startswith("depends on the others' hands")


def test_a_split_pot_game_with_a_pattern_range_shows_hi_lo_scoop(page: Page) -> None:
    page.select_option("#game", "omaha-hilo")
    assert "AA**$ds" in (page.get_attribute('[name="players.1"]', "placeholder") or "")
    assert page.query_selector('button[aria-label="Range grid for player 1"]') is None
    page.fill('[name="players.0"]', "As2sKd3d")
    page.fill('[name="players.1"]', "KK**$ds")
    page.fill('[name="board"]', "Ah4c5dJs")
    simulate(page)
    want = pokerlab.equity(["As2sKd3d", "KK**$ds"], board="Ah4c5dJs", game="omaha-hilo")
    headers = page.eval_on_selector_all("#equity-table th", "els => els.map(e => e.textContent)")
    assert headers[6:9] == ["Hi", "Lo", "Scoop"]
    row = page.eval_on_selector_all(
        "#equity-table tbody tr:first-child td", "els => els.map(e => e.textContent)"
    )
    p = want.players[0]
    assert row[2] == f"{p.equity * 100:.2f}%"
    assert row[6:9] == [f"{x * 100:.2f}%" for x in (p.hi or 0, p.lo or 0, p.scoop or 0)]


def test_players_can_be_added_and_removed_up_to_the_games_maximum(page: Page) -> None:
    page.select_option("#game", "stud")
    maximum = pokerlab.games.GAMES["stud"].max_players
    for _ in range(maximum - 2):
        page.click("#add-player")
    assert page.is_disabled("#add-player")
    assert len(page.query_selector_all("#players input")) == maximum
    page.click('button[aria-label="Remove player 3"]')
    assert len(page.query_selector_all("#players input")) == maximum - 1
    assert page.is_hidden("#board-row")


def test_results_that_no_longer_match_the_form_are_hidden(page: Page) -> None:
    """An error, or another game, left the last run's table on screen beside the new form (a
    helper read 81.26 % under a 'KdKx' error); a stud game kept the hidden board in the link."""
    page.fill('[name="players.0"]', "AhAs")
    page.fill('[name="players.1"]', "KdKc")
    page.fill("#board", "Qh7c2d")
    simulate(page)
    page.fill('[name="players.1"]', "KdKx")
    page.click("#simulate")
    page.wait_for_selector('[data-error-for="players.1"]:not(:empty)')
    assert page.is_hidden("#results")
    page.fill('[name="players.1"]', "KdKc")
    simulate(page)
    page.select_option("#game", "omaha")
    assert page.is_hidden("#results")
    page.select_option("#game", "razz")
    assert page.input_value("#board") == ""


def test_eight_stud_players_are_told_the_seventh_card_is_shared(page: Page) -> None:
    page.select_option("#game", "stud")
    for _ in range(6):
        page.click("#add-player")
    for i, hand in enumerate(["AsAd|Kc", "QsQh|Jd", *["*"] * 6]):
        page.fill(f'[name="players.{i}"]', hand)
    page.click('.segmented label:has-text("Monte Carlo")')
    page.fill("#trials", "20000")
    simulate(page)
    summary = page.inner_text("#equity-summary")
    assert "20,000 deals sampled" in summary and "seventh street: one shared card" in summary
    assert len(result_cells(page)) == 8


@contextmanager
def phone_page(browser: Any, url: str) -> Iterator[Page]:
    """A page at ``url`` on a 390 x 844 touch screen, once the page is ready."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2)  # fmt: skip
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("body[data-ready=true]")
        yield page
    finally:
        context.close()


def assert_table_fits(page: Page, wrap: str, what: str) -> None:
    """The table in the box ``wrap`` (a selector) needs no sideways scroll."""
    table = page.evaluate(
        f"(() => {{ const w = document.querySelector('{wrap}');"
        " return [w.scrollWidth, w.clientWidth]; })()"
    )
    assert table[0] <= table[1], f"the {what} table needs {table[0]} px, has {table[1]}"


def test_the_page_fits_a_phone_screen(browser: Any, base_url: str) -> None:
    with phone_page(browser, base_url + "/") as page:
        page.fill('[name="players.0"]', "AhAs")
        page.fill('[name="players.1"]', "KdKc")
        page.tap("#simulate")
        page.wait_for_selector("#results:not([hidden])")
        assert page.inner_text('td.equity[data-player="1"]').strip() == "81.26%"
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width} px wide on a 390 px screen"
        assert_table_fits(page, "#results .table-wrap", "equity")


def test_a_sampled_equity_table_fits_a_phone_screen(browser: Any, base_url: str) -> None:
    """A Monte Carlo run's table ran 49 px past its box on a 390 px screen: its stderr and
    combos needed a sideways scroll (the exact table fitted). On a phone it leaves out the
    combos, and a split game's scoop (its win), as it leaves out # and tie equity."""
    url = base_url + "/#game=holdem&p=AhKh&p=QQ%2B&method=monte-carlo&seed=1"
    with phone_page(browser, url) as page:
        page.wait_for_selector("#results:not([hidden])")
        assert_table_fits(page, "#results .table-wrap", "equity")
        shown = [
            th.inner_text().strip().lower() for th in page.query_selector_all("#equity-table th")
        ]
        assert "± stderr" in [h for h in shown if h]


def test_a_split_game_and_the_draw_showdown_fit_a_phone_screen(browser: Any, base_url: str) -> None:
    """A three-way split-pot Monte Carlo table ran 113 px past its box on a 390 px screen (win,
    tie, hi, lo and stderr beside equity, with every optional column left out already), and the
    draw showdown's table ran past it too. On a phone each row stacks its cells under their
    column names instead; the numbers stay the answer's."""
    url = base_url + "/#game=omaha-hilo&p=As2sKd3d&p=AA**&p=random&method=monte-carlo&seed=1"
    with phone_page(browser, url) as page:
        page.wait_for_selector("#results:not([hidden])")
        assert_table_fits(page, "#results .table-wrap", "split-pot equity")
        first = page.query_selector_all("#equity-table tbody tr:first-child td")
        labels = [td.get_attribute("data-label") for td in first if td.is_visible()]
        assert labels == [None, None, "Win", "Tie", "Hi", "Lo", "± stderr"]
        assert all(td.inner_text().strip().endswith("%") for td in first[2:] if td.is_visible())
        page.tap("#tab-draw")
        page.tap("#play-deal")
        page.wait_for_selector("#play-hand button[data-card]")
        page.tap("#play-draw")  # stand pat
        page.wait_for_selector("#play-showdown:not([hidden])")
        assert_table_fits(page, "#play-showdown .table-wrap", "draw showdown")


def sampled_draw_advice(page: Page, press: Callable[[str], None]) -> None:
    """Draw advice on 7h 5d 4c 3s 2h in 2-7 against a random opponent (Monte Carlo), asked for
    by ``press`` (a click, or a tap on a touch screen)."""
    press("#tab-draw")
    page.fill("#draw-hand", "7h 5d 4c 3s 2h")
    page.select_option("#draw-game", "2-7")
    page.fill("#draw-vs", "random")
    press("#advise")
    page.wait_for_selector("#draw-results:not([hidden])")


def test_sampled_draw_advice_fits_a_phone_screen(browser: Any, base_url: str) -> None:
    """The draw table ran 52 px past a 390 px screen (and 115 px with its stderr column), its
    cards cut to '7h 5d 4…': on a phone it leaves out #, draws, win and tie, as the equity
    table leaves out # and tie equity, and shows the cards kept whole."""
    with phone_page(browser, base_url + "/") as page:
        sampled_draw_advice(page, page.tap)
        assert_table_fits(page, "#draw-results .table-wrap", "draw")
        keep = page.query_selector("#draw-table tbody td.hand")
        assert keep is not None
        assert keep.evaluate("(td) => td.scrollWidth <= td.clientWidth"), "the kept cards are cut"


def test_draw_advice_tab(page: Page) -> None:
    from pokerlab.analysis.draw import advise

    page.click("#tab-draw")
    page.fill("#draw-hand", "Jh Jd 7c 4s 2h")
    page.click("#advise")
    page.wait_for_selector("#draw-results:not([hidden])")
    rows = page.query_selector_all("#draw-table tbody tr")
    assert len(rows) == 8
    best = advise("Jh Jd 7c 4s 2h").best
    first = [cell.inner_text() for cell in rows[0].query_selector_all("td")]
    assert first[1] == " ".join(str(c) for c in best.keep)
    page.fill("#draw-hand", "Jh Jd 7c 4s")
    page.click("#advise")
    assert "exactly 5 cards" in field_error(page, "hand", "#draw-form")


def test_sampled_draw_advice_shows_its_stderr_and_seed(page: Page) -> None:
    """Draw advice against a random opponent is Monte Carlo: its equities come with their
    standard error and the seed, as the CLI's table and the equity tab show them (the page
    showed neither, though the API answers both)."""
    from pokerlab.analysis.draw import advise

    sampled_draw_advice(page, page.click)
    head = [th.inner_text().strip().lower() for th in page.query_selector_all("#draw-table th")]
    assert "± stderr" in head
    summary = page.inner_text("#draw-summary")
    seed = int(summary.split("seed ")[1].split(")")[0])
    got = advise("7h 5d 4c 3s 2h", game="2-7", vs=["random"], seed=seed)
    second = got.choices[1]
    row = page.query_selector_all("#draw-table tbody tr")[1]
    cells = [td.inner_text() for td in row.query_selector_all("td")]
    assert cells[head.index("equity")] == f"{second.equity:.2%}"
    assert cells[head.index("± stderr")] == f"{second.stderr:.3%}"


def test_the_tab_bar_works_by_keyboard(page: Page) -> None:
    """The tabs were four stops in the Tab order and deaf to the arrow keys (the ARIA tabs
    pattern: one stop, arrows, Home and End move and select)."""
    stops = page.eval_on_selector_all(".tabs button", "tabs => tabs.map(t => t.tabIndex)")
    assert stops == [0, -1, -1, -1]
    page.focus("#tab-equity")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.id") == "tab-draw"
    assert page.get_attribute("#tab-draw", "aria-selected") == "true"
    assert page.is_visible("#panel-draw") and page.is_hidden("#panel-equity")
    page.keyboard.press("End")
    assert page.evaluate("document.activeElement.id") == "tab-query"
    page.keyboard.press("ArrowRight")  # wraps round
    assert page.evaluate("document.activeElement.id") == "tab-equity"
    page.keyboard.press("ArrowLeft")
    assert page.is_visible("#panel-query")
    assert page.get_attribute("#tab-query", "aria-controls") == "panel-query"
    stops = page.eval_on_selector_all(".tabs button", "tabs => tabs.map(t => t.tabIndex)")
    assert stops == [-1, -1, -1, 0]


def result_cells(page: Page) -> list[list[str]]:
    rows = page.query_selector_all("#equity-table tbody tr")
    return [[cell.inner_text() for cell in row.query_selector_all("td")] for row in rows]


def test_a_spot_round_trips_through_its_link(page: Page) -> None:
    page.fill('[name="players.0"]', "AsKs")
    page.fill('[name="players.1"]', "QQ+,AKo")
    page.fill("#board", "Qh7c2d")
    page.fill("#dead", "3s")
    page.click('.segmented label:has-text("Monte Carlo")')
    page.fill("#trials", "20000")
    page.fill("#seed", "7")
    simulate(page)
    first = result_cells(page)
    assert "20,000 deals sampled, stopped by trials, seed 7" in page.inner_text("#equity-summary")
    page.click("#copy-link")
    link = page.input_value("#share-link")
    assert "#" in link and "p=AsKs" in link and "seed=7" in link
    fresh = page.context.new_page()
    fresh.goto(link)
    fresh.wait_for_selector("#results:not([hidden])")
    assert fresh.input_value('[name="players.1"]') == "QQ+,AKo"
    assert fresh.input_value("#board") == "Qh7c2d"
    assert fresh.input_value("#dead") == "3s"
    assert fresh.input_value("#trials") == "20000"
    assert fresh.is_checked('input[name="method"][value="monte-carlo"]')
    assert result_cells(fresh) == first  # same seed, same deals: the same result
    recent = fresh.eval_on_selector_all("#recent-list a", "els => els.map(e => e.textContent)")
    assert recent[0] == "holdem: AsKs vs QQ+,AKo on Qh7c2d"  # shared storage: same origin
    fresh.close()
    page.fill("#dead", "3s 4s")  # an edit: the link shown is not this spot's any more
    assert page.is_hidden("#share")


@pytest.mark.parametrize(
    ("spot", "said"),
    [
        ("game=foo&p=AhAs&p=KdKc", "the link's game 'foo' is not one pokerlab plays"),
        ("&".join(["game=holdem"] + ["p=random"] * 30), "the link has 30 players; "),
        ("p=AhAs&p=KdKc&method=magic", "the link's method 'magic' is not one of auto"),
    ],
)
def test_a_link_the_form_must_change_is_said_and_not_run(
    page: Page, base_url: str, spot: str, said: str
) -> None:
    """An unknown game ran as hold'em and 30 players ran as 23, without a word."""
    fresh = page.context.new_page()
    fresh.goto(f"{base_url}/#{spot}")
    fresh.wait_for_selector("body[data-ready=true]")
    fresh.wait_for_selector("#equity-error:not(:empty)")
    assert said in fresh.inner_text("#equity-error")
    assert fresh.is_hidden("#results")
    fresh.close()


def test_a_link_may_name_its_game_by_an_alias(page: Page, base_url: str) -> None:
    """game=plo was refused ("not one pokerlab plays"), though the CLI and the library take
    it."""
    fresh = page.context.new_page()
    fresh.goto(f"{base_url}/#game=PLO&p=AsAhKsKh&p=JdTd9c8c&board=Qs7h2d")
    fresh.wait_for_selector("#results:not([hidden])")
    assert fresh.input_value("#game") == "omaha"
    want = pokerlab.equity(["AsAhKsKh", "JdTd9c8c"], board="Qs7h2d", game="omaha")
    assert fresh.inner_text('td.equity[data-player="1"]').strip() == (
        f"{want.players[0].equity * 100:.2f}%"
    )
    fresh.close()


def test_a_plus_typed_into_a_link_is_a_plus(page: Page, base_url: str) -> None:
    """A link's bare '+' was read as a space (URLSearchParams' rule), so '#p=AsKs&p=QQ+' ran
    the range 'QQ ', that is QQ, without a word; the page's own links write a space as %20."""
    fresh = page.context.new_page()
    fresh.goto(f"{base_url}/#p=AsKs&p=QQ+,A2s+&board=Qh7c2d")
    fresh.wait_for_selector("#results:not([hidden])")
    assert fresh.input_value('[name="players.1"]') == "QQ+,A2s+"
    want = pokerlab.equity(["AsKs", "QQ+,A2s+"], board="Qh7c2d")
    assert fresh.inner_text('td.equity[data-player="1"]').strip() == (
        f"{want.players[0].equity * 100:.2f}%"
    )
    fresh.fill('[name="players.1"]', "QQ+, AKs")  # a space: written %20 in the page's link
    fresh.click("#copy-link")
    link = fresh.input_value("#share-link")
    assert "p=QQ%2B%2C%20AKs" in link and "+" not in link.split("#", 1)[1]
    fresh.close()


def test_recent_spots_kept_by_an_earlier_page_still_read(page: Page, base_url: str) -> None:
    """The earlier page kept spots as URLSearchParams wrote them, a space as a bare '+'; a bare
    '+' is a plus now, so they are rewritten when read (their ranges unchanged)."""
    old = "game=holdem&p=AsKs&p=QQ%2B%2C+AKs&board=Qh+7c+2d"
    page.evaluate("(spot) => localStorage.setItem('pokerlab.recentSpots', JSON.stringify([spot]))",
                  old)  # fmt: skip
    page.goto(base_url + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.click("#recent-list a")
    page.wait_for_selector("#results:not([hidden])")
    assert page.input_value('[name="players.1"]') == "QQ+, AKs"
    assert page.input_value("#board") == "Qh 7c 2d"


def test_a_link_may_name_monte_carlo_mc(page: Page, base_url: str) -> None:
    """method=mc was refused ("not one of auto, exact, monte-carlo"), though /api/equity, the CLI
    (--mc) and the library take it."""
    fresh = page.context.new_page()
    fresh.goto(f"{base_url}/#p=AhAs&p=KdKc&method=MC&trials=3000&seed=5")
    fresh.wait_for_selector("#results:not([hidden])")
    assert fresh.is_checked('input[name="method"][value="monte-carlo"]')
    assert "3,000 deals sampled, stopped by trials, seed 5" in fresh.inner_text("#equity-summary")
    fresh.close()


def test_the_precision_box_takes_a_percent_sign(page: Page) -> None:
    """'0.1%' in "Precision (stderr %)" was refused: "Input should be a valid number"."""
    page.fill('[name="players.0"]', "AsKs")
    page.fill('[name="players.1"]', "QQ+,AKo")
    page.click('.segmented label:has-text("Monte Carlo")')
    page.fill("#stderr", "0.5 %")
    simulate(page)
    assert "stopped by stderr" in page.inner_text("#equity-summary")


def test_a_precision_out_of_range_is_said_in_percent_too(page: Page) -> None:
    """150 in "Precision (stderr %)" (150%) was refused as "must be between 0 and 1, got 1.5":
    a number the user never typed, and bounds that read as percent invite 0.5 for a half."""
    page.fill('[name="players.0"]', "AsKs")
    page.fill('[name="players.1"]', "QQ+,AKo")
    page.click('.segmented label:has-text("Monte Carlo")')
    page.fill("#stderr", "150")
    page.click("#simulate")
    said = field_error(page, "stderr", "#equity-form")
    assert "between 0 and 1 (0% and 100%), got 1.5 (150%)" in said


def test_one_deal_is_one_deal(page: Page) -> None:
    """A run of one deal read '1 deals sampled' ('1 deals enumerated' on a river with every
    hand known), where the CLI says '1 deal sampled'."""
    page.fill('[name="players.0"]', "AhAs")
    page.fill('[name="players.1"]', "KdKc")
    page.fill("#board", "2c 7d 9h Ts 3s")
    simulate(page)
    assert "Exact: 1 deal enumerated in" in page.inner_text("#equity-summary")
    page.fill("#board", "")
    page.click('.segmented label:has-text("Monte Carlo")')
    page.fill("#trials", "1")
    page.fill("#seed", "1")
    page.click("#simulate")
    page.wait_for_function(
        "() => document.querySelector('#equity-summary').textContent.startsWith('Monte')"
    )
    assert "Monte Carlo: 1 deal sampled, stopped by trials" in page.inner_text("#equity-summary")


def test_back_and_forward_move_between_spots_run_in_the_tab(page: Page) -> None:
    page.fill('[name="players.0"]', "AhAs")
    page.fill('[name="players.1"]', "KdKc")
    simulate(page)
    assert page.inner_text('td.equity[data-player="1"]').strip() == "81.26%"
    page.select_option("#game", "omaha")
    page.fill('[name="players.0"]', "AsAhKsKh")
    page.fill('[name="players.1"]', "JdTd9c8c")
    page.click("#simulate")
    page.wait_for_function(
        "() => document.querySelector('td.equity[data-player=\"1\"]').textContent === '61.48%'"
    )
    page.go_back()
    page.wait_for_function(
        "() => document.querySelector('td.equity[data-player=\"1\"]').textContent === '81.26%'"
    )
    assert page.input_value("#game") == "holdem"
    assert page.input_value('[name="players.1"]') == "KdKc"
    page.go_forward()
    page.wait_for_function(
        "() => document.querySelector('td.equity[data-player=\"1\"]').textContent === '61.48%'"
    )
    assert page.input_value("#game") == "omaha"
    labels = page.eval_on_selector_all("#recent-list a", "els => els.map(e => e.textContent)")
    assert labels[:2] == ["omaha: AsAhKsKh vs JdTd9c8c", "holdem: AhAs vs KdKc"]
    page.click("#recent-list a >> nth=1")
    page.wait_for_function(
        "() => document.querySelector('td.equity[data-player=\"1\"]').textContent === '81.26%'"
    )
    assert page.input_value("#game") == "holdem"


def deck_state(page: Page) -> dict[str, str]:
    cells = page.eval_on_selector_all(
        "#deck button",
        "els => els.map(e => [e.dataset.card,"
        " e.disabled ? 'used' : e.classList.contains('picked') ? 'picked' : 'free'])",
    )
    return dict(cells)


def test_the_board_picker_fills_board_and_dead_cards(page: Page) -> None:
    page.fill('[name="players.0"]', "AhAs")
    page.fill('[name="players.1"]', "QQ+,AKs")  # a range holds no particular card
    page.click("#pick-cards")
    page.wait_for_selector("#deck-box:not([hidden])")
    assert len(page.query_selector_all("#deck button")) == 52
    for card in ("Qh", "7c", "2d", "Ks"):
        page.click(f'#deck button[data-card="{card}"]')
    assert page.input_value("#board") == "Qh 7c 2d Ks"
    page.click('#deck button[data-card="Ks"]')  # and out again
    assert page.input_value("#board") == "Qh 7c 2d"
    page.click('.picker-target label:has-text("Dead cards")')
    page.click('#deck button[data-card="3s"]')
    assert page.input_value("#dead") == "3s"
    deck = deck_state(page)
    assert {c for c, s in deck.items() if s == "used"} == {"Ah", "As", "Qh", "7c", "2d"}
    assert {c for c, s in deck.items() if s == "picked"} == {"3s"}
    assert page.is_disabled('#deck button[data-card="Qh"]')
    page.fill("#dead", "3s 4s")  # typing still works, and the deck follows it
    assert deck_state(page)["4s"] == "picked"
    page.click('.picker-target label:has-text("Board")')
    assert {c for c, s in deck_state(page).items() if s == "picked"} == {"Qh", "7c", "2d"}
    simulate(page)
    want = pokerlab.equity(["AhAs", "QQ+,AKs"], board="Qh7c2d", dead="3s4s")
    assert page.inner_text('td.equity[data-player="1"]').strip() == (
        f"{want.players[0].equity * 100:.2f}%"
    )


def test_the_picker_reads_a_ten_written_10_and_stud_has_no_board_target(page: Page) -> None:
    """A board typed '10h' lost its ten when a card was picked (the picker read only 'T'), and
    in stud the hidden 'Board' target still showed (a stylesheet rule displayed the label)."""
    page.fill('[name="players.0"]', "AhAs")
    page.fill('[name="players.1"]', "10s10c")
    page.fill("#board", "10h 9c 2d")
    page.click("#pick-cards")
    page.wait_for_selector("#deck-box:not([hidden])")
    deck = deck_state(page)
    assert deck["Th"] == "picked" and deck["Ts"] == "used" and deck["Tc"] == "used"
    page.click('#deck button[data-card="Kd"]')
    assert page.input_value("#board") == "Th 9c 2d Kd"
    page.select_option("#game", "razz")
    assert not page.is_visible("#pick-board-label")
    page.select_option("#game", "holdem")
    assert page.is_visible("#pick-board-label")


def test_exact_greys_out_what_only_sampling_reads(page: Page) -> None:
    page.click('.segmented label:has-text("Exact")')
    for box in ("#trials", "#stderr", "#seed"):
        assert page.is_disabled(box)
        assert float(page.eval_on_selector(box, "e => getComputedStyle(e).opacity")) < 1
    page.click('.segmented label:has-text("Monte Carlo")')
    assert not page.is_disabled("#seed")


def test_stop_ends_a_running_monte_carlo_and_shows_what_it_sampled(page: Page) -> None:
    page.fill('[name="players.0"]', "AsKs")
    page.fill('[name="players.1"]', "QQ+,AKo")
    page.click("#add-player")
    page.fill('[name="players.2"]', "random")
    page.click('.segmented label:has-text("Monte Carlo")')
    page.fill("#stderr", "0.001")  # percent: minutes of sampling
    page.fill("#time_limit", "30")
    page.click("#simulate")
    page.wait_for_function("() => document.querySelector('#progress-bar').value > 0")
    assert page.is_visible("#equity-progress")
    assert "%" in page.inner_text("#progress-text")
    page.wait_for_function(
        "() => document.querySelector('#progress-estimate').textContent.startsWith('So far')"
    )
    running = page.inner_text("#progress-estimate")
    assert "player 1" in running and "player 3" in running and "±" in running
    assert "deals" in page.inner_text("#progress-text")
    page.click("#stop")
    page.wait_for_selector("#results:not([hidden])")
    summary = page.inner_text("#equity-summary")
    assert "deals sampled, stopped on request" in summary, summary
    assert page.is_hidden("#stop") and page.is_hidden("#equity-progress")
    status = page.evaluate("() => fetch('/api/status').then(r => r.json())")
    assert status["idle"] == status["workers"], status  # the stopped run gave its worker back
    page.fill('[name="players.0"]', "AhAs")
    page.fill('[name="players.1"]', "KdKc")
    page.click('button[aria-label="Remove player 3"]')
    page.click('.segmented label:has-text("Exact")')
    simulate(page)
    page.wait_for_function(
        "() => document.querySelector('td.equity[data-player=\"1\"]').textContent === '81.26%'"
    )


def test_a_stopped_exact_run_says_so(page: Page) -> None:
    # estimated at about 23 s of one core: under the 3x the 10 s limit that is refused at once
    page.fill('[name="players.0"]', "KK+,AKs")
    page.fill('[name="players.1"]', "JJ-99,AQs")
    page.click("#add-player")
    page.fill('[name="players.2"]', "random")
    page.click('.segmented label:has-text("Exact")')
    page.click("#simulate")
    page.wait_for_function("() => document.querySelector('#progress-bar').value > 0")
    page.click("#stop")
    slot = page.wait_for_selector("#equity-error:not(:empty)")
    assert slot is not None
    assert slot.inner_text().startswith("Stopped: the exact enumeration was stopped at")
    assert page.is_hidden("#results")


def open_grid(page: Page, player: int) -> None:
    page.click(f'button[aria-label="Range grid for player {player}"]')
    page.wait_for_selector("#grid-dialog:not([hidden])")


def wait_box(page: Page, text: str) -> None:
    page.wait_for_function(
        "(want) => document.querySelector('#grid-range').value === want", arg=text
    )


def test_weights_and_single_combos_survive_grid_edits(page: Page) -> None:
    typed = "QQ+,AKs:0.5,AhKd,T9s:0.25"
    page.fill('[name="players.1"]', typed)
    open_grid(page, 2)
    wait_box(page, Range(typed).to_string())
    cell = '#range-grid button[data-class="{}"]'.format
    assert "weighted" in (page.get_attribute(cell("AKs"), "class") or "")
    assert "partial" in (page.get_attribute(cell("AKo"), "class") or "")
    assert page.get_attribute(cell("AKo"), "data-combos") == "1"
    page.click(cell("JJ"))  # a whole class at weight 1
    after = Range(typed + ",JJ")
    wait_box(page, after.to_string())
    assert page.inner_text("#grid-combos") == str(after.combo_count)
    page.fill("#paint-weight", "0.4")
    page.click(cell("KQs"))  # painted with a weight
    after = Range(typed + ",JJ,KQs:0.4")
    wait_box(page, after.to_string())
    page.click('.grid-tools label:has-text("Pick suits")')
    page.click(cell("AKo"))
    combos = page.eval_on_selector_all(
        "#suit-combos button", "els => els.map(e => e.dataset.combo)"
    )
    assert len(combos) == 12 and "AhKd" in combos
    assert page.get_attribute('#suit-combos button[data-combo="AhKd"]', "aria-pressed") == "true"
    page.click('#suit-combos button[data-combo="AsKd"]')  # one more combo, at weight 0.4
    page.click('#suit-combos button[data-combo="AhKd"]')  # and the typed one out
    after = Range(typed.replace(",AhKd", "") + ",JJ,KQs:0.4,AsKd:0.4")
    wait_box(page, after.to_string())
    page.click("#grid-apply")
    page.wait_for_selector("#grid-dialog", state="hidden")
    assert page.input_value('[name="players.1"]') == after.to_string()


def test_the_range_text_box_and_the_grid_follow_each_other(page: Page) -> None:
    open_grid(page, 2)
    page.fill("#grid-range", "22+,AQs+:0.5")
    page.wait_for_function("() => document.querySelector('#grid-combos').textContent === '86'")
    on = page.eval_on_selector_all(
        "#range-grid button.on", "cells => cells.map(c => c.dataset.class)"
    )
    assert sorted(on) == sorted(["AA", "KK", "QQ", "JJ", "TT", "99", "88", "77", "66", "55",
                                 "44", "33", "22"])  # fmt: skip
    page.click('#range-grid button[data-class="KQo"]')
    wait_box(page, Range("22+,AQs+:0.5,KQo").to_string())
    page.fill("#grid-range", "22+,AQs+:0.5,KQo,Kx")
    page.wait_for_selector("#grid-error:not(:empty)")
    page.click("#grid-apply")  # a range with an error is not used
    assert page.is_visible("#grid-dialog")
    page.fill("#grid-range", "AsKs, 76s:0.3")
    page.click("#grid-apply")
    page.wait_for_selector("#grid-dialog", state="hidden")
    assert page.input_value('[name="players.1"]') == Range("AsKs,76s:0.3").to_string()


def test_use_range_after_putting_the_last_range_back(page: Page) -> None:
    """Typing past a valid range (an error shows), then deleting back to it and applying at
    once, within the re-read's 250 ms: the stale error kept "Use range" from doing anything."""
    page.fill('[name="players.1"]', "QQ+")
    open_grid(page, 2)
    page.wait_for_function("() => document.querySelector('#grid-range').value === 'QQ+'")
    page.focus("#grid-range")
    page.keyboard.press("End")
    page.keyboard.type(",AX")
    page.wait_for_selector("#grid-error:not(:empty)")
    for _ in range(3):
        page.keyboard.press("Backspace")
    page.click("#grid-apply")
    page.wait_for_selector("#grid-dialog", state="hidden")
    assert page.input_value('[name="players.1"]') == "QQ+"


def test_syntax_help_follows_the_game(page: Page) -> None:
    page.select_option("#game", "omaha")
    page.click("#syntax-open")
    page.wait_for_selector("#syntax-help:not([hidden])")
    assert page.is_visible('[data-help="patterns"]')
    assert page.is_hidden('[data-help="holdem"]') and page.is_hidden('[data-help="stud"]')
    assert "AA**$ds" in page.inner_text('[data-help="patterns"]')
    page.click("#syntax-close")
    page.select_option("#game", "razz")
    page.click("#syntax-open")
    assert page.is_visible('[data-help="stud"]')


def test_a_weight_a_range_cannot_take_paints_nothing(page: Page) -> None:
    """5 and 0 in the weight box painted at weight 1, silently; a text that does not parse
    left the counts of the last range that did."""
    open_grid(page, 2)
    page.fill("#grid-range", "QQ+")
    page.wait_for_function("() => document.querySelector('#grid-combos').textContent === '18'")
    cell = '#range-grid button[data-class="72o"]'
    for bad in ("5", "0", ""):
        page.fill("#paint-weight", bad)
        page.click(cell)
        assert "weight" in page.inner_text("#grid-error"), bad
        assert "invalid" in (page.get_attribute("#paint-weight", "class") or "")
        assert page.get_attribute(cell, "aria-pressed") == "false", bad
        assert page.input_value("#grid-range") == "QQ+"
    page.fill("#paint-weight", "0.5")  # put right: the mark and the message go
    assert page.inner_text("#grid-error") == ""
    page.click(cell)
    wait_box(page, Range("QQ+,72o:0.5").to_string())
    page.fill("#grid-range", "QQ+,Kx")
    page.wait_for_selector("#grid-error:not(:empty)")
    assert page.inner_text("#grid-combos") == "–"


def test_the_top_percent_slider_sets_the_range_and_the_grid_adds_to_it(page: Page) -> None:
    open_grid(page, 2)
    page.fill("#top-percent", "10")
    wait_box(page, Range("10%").to_string())
    assert page.inner_text("#top-value") == "10%"
    assert page.inner_text("#grid-combos") == str(Range("10%").combo_count)
    page.fill("#paint-weight", "0.5")
    page.click('#range-grid button[data-class="72o"]')
    wait_box(page, Range("10%,72o:0.5").to_string())


def test_the_top_percent_slider_follows_the_chosen_ordering(page: Page) -> None:
    open_grid(page, 2)
    page.fill("#top-percent", "10")
    wait_box(page, Range("10%").to_string())
    page.select_option("#top-ordering", "vs1")  # the same 10 %, re-cut in the other ordering
    wait_box(page, Range("10%@vs1").to_string())
    assert Range("10%@vs1") != Range("10%")
    page.select_option("#top-ordering", "sc")
    page.fill("#top-percent", "3")
    wait_box(page, Range("3%@sc").to_string())
    assert page.inner_text("#grid-combos") == str(Range("3%@sc").combo_count)


def test_the_grid_dialog_is_modal_and_gives_focus_back(page: Page) -> None:
    """Opened by keyboard, focus stayed behind it: Tab then Enter removed the player the grid
    was for, and "Use range" then threw a TypeError."""
    page.click("#add-player")
    page.fill('[name="players.2"]', "QQ")
    opener = page.locator('button[aria-label="Range grid for player 3"]')
    opener.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#grid-dialog:not([hidden])")
    assert page.evaluate("document.activeElement.id") == "grid-range"
    assert page.evaluate("document.querySelector('main').inert")
    for _ in range(30):  # Tab never reaches the form behind (past the last control: the body)
        page.keyboard.press("Tab")
        assert page.evaluate(
            "!!document.activeElement.closest('#grid-dialog') || document.activeElement === "
            "document.body"
        )
    page.keyboard.press("Escape")
    assert page.is_hidden("#grid-dialog")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == (
        "Range grid for player 3"
    )
    assert not page.evaluate("document.querySelector('main').inert")
    assert len(result_cells(page)) == 0 and page.input_value('[name="players.2"]') == "QQ"


def test_a_run_in_flight_is_dropped_when_the_game_changes(page: Page) -> None:
    """Its hold'em answer was drawn under Razz once it came."""
    page.fill('[name="players.0"]', "AhAs")
    page.fill('[name="players.1"]', "random")
    page.click('.segmented label:has-text("Monte Carlo")')
    page.fill("#stderr", "0.001")  # percent: the least the API takes, far past 3 s of sampling
    page.fill("#time_limit", "3")
    page.click("#simulate")
    page.wait_for_selector("#equity-form .stop:not([hidden])")
    page.select_option("#game", "razz")
    page.wait_for_timeout(4000)  # past the run's time limit
    assert page.is_hidden("#results")
    assert page.is_hidden("#equity-form .stop")


def test_outs_and_equity_of_other_cards_are_not_left_side_by_side(page: Page) -> None:
    page.fill('[name="players.0"]', "AhAs")
    page.fill('[name="players.1"]', "KdKc")
    page.fill("#board", "Qh7c2d")
    simulate(page)
    page.click("#show-outs")
    page.wait_for_selector("#outs:not([hidden])")
    page.fill("#board", "Kh7c2d")
    simulate(page)
    assert page.is_hidden("#outs")  # it answered for Qh7c2d
    page.click("#show-outs")
    page.wait_for_selector("#outs:not([hidden])")
    assert page.is_visible("#results")  # the same cards: both stay


def test_a_stud_link_drops_its_board_and_says_so(page: Page, base_url: str) -> None:
    """The board went without a word and the spot ran without it; now the link is read as the
    other changes a link needs are: said, and not run until Simulate."""
    page.goto(base_url + "/#game=stud&p=As%20Ks%20%7C%20Qd&p=Jh%20Jc%20%7C%202s&board=Qh7c2d")
    message = page.wait_for_selector("#equity-error:not(:empty)").inner_text()
    assert "has no board: the link's board Qh7c2d was dropped" in message, message
    assert page.input_value("#board") == ""
    assert page.is_hidden("#results")
    simulate(page)
    assert "board" not in page.evaluate("location.hash")


def test_a_game_switch_says_what_the_new_game_could_not_keep(page: Page) -> None:
    """Players past its seats and a board in stud went without a word."""
    for _ in range(8):
        page.click("#add-player")
    for i in range(10):
        page.fill(f'[name="players.{i}"]', "random" if i else "AhAs")
    page.fill("#board", "2c3d4h")
    page.select_option("#game", "stud")
    message = page.inner_text("#equity-error")
    assert "seats at most 8: random, random left the table" in message, message
    assert "has no board: 2c3d4h was cleared" in message
    assert len(page.query_selector_all("#players input")) == 8
