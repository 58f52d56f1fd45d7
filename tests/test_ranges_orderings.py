"""Several "top x%" orderings for hold'em: vs3 (default), vs1 (exact equity against one random
hand, re-derived here in full), sc (Sklansky–Chubukov, spot-checked), user files; the ``x%@name``
syntax and what ``pokerlab range`` says about the cut."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli_helpers import assert_one_line_error
from pokerlab.analysis.orderings import ORDER_FILES, compute, render, sklansky_chubukov
from pokerlab.cli import app
from pokerlab.errors import RangeError
from pokerlab.ranges import CLASS_NAMES, Range, hand_ordering, load_ordering, percent_cuts


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})


def test_vs1_ordering_is_re_derived_exactly() -> None:
    """The whole shipped file, from 169 exact preflop equities (a table lookup each)."""
    assert render("vs1", compute("vs1")) == ORDER_FILES["vs1"].read_text(encoding="utf-8")
    first = hand_ordering("vs1")[0]
    assert first.name == "AA" and first.equity == pytest.approx(0.852037, abs=1e-6)
    last = hand_ordering("vs1")[-1]
    assert last.name == "32o"


@pytest.mark.parametrize("name", ["KK", "AKs", "AKo", "T9s", "22", "72o"])
def test_sklansky_chubukov_numbers_are_spot_checked(name: str) -> None:
    shipped = {c.name: c.equity for c in hand_ordering("sc")}
    s, p, e = sklansky_chubukov(name)
    assert shipped[name] == pytest.approx(s, rel=1e-6)
    assert 0 < p < 1 and e < 0.5
    assert s == pytest.approx((1.5 - p) / (p * (1 - 2 * e)))  # the definition's break-even


def test_sklansky_chubukov_order_and_published_unpaired_values() -> None:
    order = hand_ordering("sc")
    assert order[0].name == "AA" and math.isinf(order[0].equity)  # nothing calls aces
    values = [c.equity for c in order]
    assert values == sorted(values, reverse=True)
    shipped = {c.name: c.equity for c in order}
    # the widely quoted table: AKs 277, AKo 166, AQs 137, AQo 96 (unpaired hands agree)
    for name, quoted in (("AKs", 277), ("AKo", 166), ("AQs", 137), ("AQo", 96)):
        assert abs(shipped[name] - quoted) < 2, name


def test_percent_syntax_picks_the_ordering() -> None:
    assert Range("10%") == Range("10%@vs3")
    assert Range("10%@vs1").to_string() == "66+,A8s+,KJs+,ATo+"
    assert Range("10%") != Range("10%@vs1")
    sc = Range("3%@sc")
    # 3 % is 39.78 combos: AA, KK, AKs, QQ, AKo (34) then JJ (40)
    full = {name for row in sc.grid() for name, f in row if f == 1.0}
    assert full == {"AA", "KK", "QQ", "JJ", "AKs", "AKo"}
    weighted = Range("10% @ vs1 : 0.5")
    assert weighted.weighted_combos == pytest.approx(Range("10%@vs1").combo_count / 2)
    assert Range("5%-10%@vs1").combo_count == Range("10%@vs1").combo_count - Range(
        "5%@vs1").combo_count  # fmt: skip
    with pytest.raises(RangeError, match="unknown ordering 'foo'"):
        Range("10%@foo")
    with pytest.raises(RangeError, match="only a percentage"):
        Range("AA@vs1")


def test_user_ordering_file(tmp_path: Path) -> None:
    path = tmp_path / "order.txt"
    path.write_text("# worst first\n" + "\n".join(reversed(CLASS_NAMES)) + "\n")
    assert load_ordering(path, "worst") == "worst"
    assert Range("1%@worst").to_string() == "22,32o"  # 6 + 12 combos reach 13.26
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(CLASS_NAMES[:-1]))
    with pytest.raises(RangeError, match="lacks 22"):
        load_ordering(bad, "bad")
    bad.write_text("AA\n")  # the 168 missing classes: the first 8 named, the rest counted
    with pytest.raises(RangeError, match=r"lacks AKs, .*, A6s and 160 more$"):
        load_ordering(bad, "bad")
    bad.write_text("\n".join([*CLASS_NAMES, "AA"]))
    with pytest.raises(RangeError, match="repeats AA"):
        load_ordering(bad, "bad")
    bad.write_text("AKx\n")
    with pytest.raises(RangeError, match="'AKx' is not a hand class"):
        load_ordering(bad, "bad")
    with pytest.raises(RangeError, match="shipped ordering"):
        load_ordering(path, "vs1")


def test_range_command_says_which_ordering_and_the_real_percent(tmp_path: Path) -> None:
    result = run("range", "1%")
    assert result.exit_code == 0, result.output
    assert ("1%: top 1% by 'vs3' (equity against three random hands), whole classes: 3 "
            "classes, 18 combos = 1.36%") in result.stdout  # fmt: skip
    result = run("range", "QQ+,10%@sc")
    assert "10%@sc: top 10% by 'sc' (Sklansky-Chubukov number)" in result.stdout
    data = json.loads(run("range", "5%-10%@vs1", "--json").stdout)
    (cut,) = data["top"]
    assert cut["ordering"] == "vs1" and cut["asked"] == [5.0, 10.0]
    assert cut["combos"] == data["combos"] and cut["percent"] == pytest.approx(data["percent"])
    assert "top" not in json.loads(run("range", "AA", "--json").stdout)
    path = tmp_path / "order.txt"
    path.write_text("\n".join(f"{i} {n}" for i, n in enumerate(reversed(CLASS_NAMES), 1)))
    assert_one_line_error(run("range", "12%@never_loaded"), "--ordering-file PATH")  # how to
    result = run("range", "1%@file", "--ordering-file", str(path))
    assert result.exit_code == 0, result.output
    assert "22,32o" in result.stdout and "by 'file' (the ordering in" in result.stdout
    assert_one_line_error(run("range", "1%@file", "--ordering-file", str(tmp_path / "no")),
                          "cannot read the ordering file")  # fmt: skip
    assert_one_line_error(run("range", "10%@vs2"), "unknown ordering 'vs2'", "vs1")
    assert_one_line_error(run("range", "1%", "--ordering-file", str(path)),  # it was ignored
                          "--ordering-file is read by 'x%@file'")  # fmt: skip


def test_percent_cuts_of_plain_ranges_are_empty() -> None:
    assert percent_cuts("AA,KK:0.5") == []
