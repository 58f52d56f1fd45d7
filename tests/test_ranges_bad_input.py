"""Bad input to the ranges layer is one RangeError line naming its argument (``field``), never a
TypeError, ValueError or AttributeError from inside, and never a silent wrong answer."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pokerlab.errors import RangeError
from pokerlab.ranges import (
    COMBO_COUNT,
    Range,
    hand_ordering,
    load_ordering,
    percent_cuts,
    range_report,
)
from pokerlab.ranges.formats import convert, read_range, write_range
from pokerlab.ranges.pattern import PatternRange

Call = Callable[[], object]
DENSE = np.zeros(COMBO_COUNT)


def refused(call: Call, match: str, field: str | None) -> RangeError:
    with pytest.raises(RangeError, match=match) as info:
        call()
    assert "\n" not in str(info.value)
    assert info.value.field == field
    return info.value


# --- arrays of card codes: a float, bool or text array was truncated or failed in int() ---------


@pytest.mark.parametrize(
    "combos",
    [
        np.array([[50.9, 0.2]]),  # was the Ah2c
        np.array([[-0.5, 1.7]]),  # was the 2d2c
        np.array([[True, False]]),  # was the 2d2c
        np.array([[51 + 0j, 0j]]),
    ],
    ids=["float", "negative-float", "bool", "complex"],
)
def test_range_refuses_a_non_integer_array(combos: np.ndarray[Any, Any]) -> None:
    refused(lambda: Range(combos), f"combos must be integer card codes.*dtype {combos.dtype}", None)


@pytest.mark.parametrize(
    "holdings",
    [np.array([[0.5, 1.9, 2.2, 3.7]]), np.array([[True, False, True, False]])],  # 2s2h2d2c
    ids=["float", "bool"],
)
def test_from_holdings_refuses_a_non_integer_array(holdings: np.ndarray[Any, Any]) -> None:
    refused(
        lambda: PatternRange.from_holdings(holdings),
        f"holdings must be integer card codes.*dtype {holdings.dtype}",
        "holdings",
    )


def test_an_array_of_card_text_reads_as_the_list_of_it_does() -> None:
    """``Range([('As', 'Ks')])`` reads card text; the same rows as an array failed in int()."""
    assert Range(np.array([["As", "Ks"]])) == Range([("As", "Ks")]) == Range("AsKs")
    assert Range(np.array(["AsKs", "AhKh"])) == Range("AsKs,AhKh")
    assert Range(np.array([[51, 47]], dtype=object)) == Range("AsKs")
    held = PatternRange.from_holdings(np.array([["As", "Ks", "Qd", "Jd"]]))
    assert held == PatternRange.from_holdings(["AsKsQdJd"])
    refused(lambda: Range(np.array([["As", "Xs"]])), "invalid combo.*at index 0", None)
    refused(lambda: Range(np.array([[50.9, 0.2]], dtype=object)), "not float 50.9", None)
    refused(lambda: Range(np.array("QQ+")), r"combos must have shape \(n, 2\)", None)


def test_integer_arrays_still_read_and_are_checked() -> None:
    assert Range(np.array([[51, 47]], dtype=np.uint8)) == Range("AsKs")
    refused(lambda: Range(np.array([[52, 0]])), r"card codes in 0\.\.51: row 0 is \[52, 0\]", None)
    refused(lambda: Range(np.array([[2**63, 0]], dtype=np.uint64)), "0..51", None)
    refused(lambda: Range(np.array([[1, 2], [5, 5]])), r"distinct card codes: row 1", None)
    refused(
        lambda: PatternRange.from_holdings(np.array([[0, 1, 2]]), size=4),
        r"shape \(n, 4\)",
        "holdings",
    )


# --- weights: a bool or a string is no number -------------------------------------------------


@pytest.mark.parametrize(
    ("weights", "match"),
    [
        ([True, False], "True at index 0 is a bool"),
        (["0.5"], "'0.5' at index 0 is a str"),
        ([None], "None at index 0 is a NoneType"),
        ([Decimal("0.5")], r"Decimal\('0.5'\) \(a Decimal: pass a float\) at index 0"),
        ([np.True_], "at index 0 is a bool"),
        (0.5, "a list of numbers.*not float 0.5"),
        ("1", "a list of numbers.*not str '1'"),
        ([10**400], "at index 0: a weight is between 0 and 1"),
        ([-(10**400)], "at index 0: a weight is between 0 and 1"),
        (np.array([True]), "dtype bool"),
        (np.array([[1.0]]), r"shape \(1, 1\)"),
    ],
)
def test_weights_must_be_numbers(weights: Any, match: str) -> None:
    refused(lambda: Range(["AsKs"], weights), match, "weights")
    refused(lambda: PatternRange.from_holdings(["AsKsQdJd"], weights), match, "weights")


def test_good_weights_still_read() -> None:
    assert Range(["AsKs", "AhKh"], np.array([1, 0.5], dtype=np.float32)).weight("AhKh") == 0.5
    assert Range(["AsKs"], [np.float64(0.25)]).weight("AsKs") == 0.25
    assert Range(["AsKs", "AhKh"], [1, 0]) == Range("AsKs")
    assert PatternRange.from_holdings(["AsKsQdJd"], np.array([1])).weighted_count == 1.0


def test_from_holdings_size_given_as_the_weights() -> None:
    refused(
        lambda: PatternRange.from_holdings([[0, 1, 2, 3]], 4),  # type: ignore[arg-type]
        r"the size is a keyword argument \(size=4\)",
        "weights",
    )


# --- what from_holdings, weight and from_dense take ------------------------------------------


@pytest.mark.parametrize("holdings", [None, 5, "AsKsQdJd", b"AsKs"])
def test_from_holdings_refuses_what_is_no_list(holdings: Any) -> None:
    refused(lambda: PatternRange.from_holdings(holdings), "holdings are a list", "holdings")


def test_from_holdings_reads_every_holding_as_cards() -> None:
    refused(lambda: PatternRange.from_holdings([5]), "invalid holding 5 at index 0", "holdings")
    refused(lambda: PatternRange.from_holdings([None]), "invalid holding None", "holdings")
    refused(
        lambda: PatternRange.from_holdings([[0, 1, 2, 3]], size=9),
        "size must be between 1 and 7",
        "size",
    )
    refused(
        lambda: PatternRange.from_holdings(np.zeros((1, 9), dtype=int)),
        "size must be between 1 and 7",
        "holdings",
    )


@pytest.mark.parametrize("holding", [5, None, 2.5])
def test_pattern_weight_of_no_holding(holding: Any) -> None:
    refused(lambda: PatternRange("AA", 4).weight(holding), "invalid holding", "holding")
    assert holding not in PatternRange("AA", 4)


def test_fields_of_pattern_range_and_range_weight() -> None:
    refused(lambda: PatternRange("AA", "4"), "size must be an int", "size")  # type: ignore[arg-type]
    refused(lambda: PatternRange("AA", 0), "size must be between", "size")
    refused(lambda: Range("AA").weight(5), "invalid combo 5", "combo")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("weights", "match"),
    [
        ("a", "not str 'a'"),
        (None, "not NoneType None"),
        (np.ones(COMBO_COUNT, dtype=bool), "dtype bool"),  # was 'random'
        (["x"] * COMBO_COUNT, "'x' at index 0 is a str"),
        ([1.0] * 5, "1326 combos but 5 weights"),
        (np.ones(5), r"shape \(1326,\)"),
    ],
)
def test_from_dense_refuses_what_is_no_weights(weights: Any, match: str) -> None:
    refused(lambda: Range.from_dense(weights), match, "weights")


def test_from_dense_still_reads_numbers() -> None:
    dense = DENSE.copy()
    dense[0] = 0.5
    assert Range.from_dense(dense) == Range("AsAh:0.5")
    assert Range.from_dense(dense.tolist()) == Range("AsAh:0.5")


# --- formats ----------------------------------------------------------------------------------


def test_formats_refuse_what_is_no_text_or_format() -> None:
    refused(lambda: read_range(None), "a range to read is text.*NoneType", "text")  # type: ignore[arg-type]
    refused(lambda: convert(None, "pokerstove"), "a range to read is text", "text")  # type: ignore[arg-type]
    refused(lambda: convert(b"QQ+", "pokerstove"), "not bytes b'QQ\\+'", "text")  # type: ignore[arg-type]
    refused(lambda: read_range("QQ+", None), "a range format is a name", "fmt")  # type: ignore[arg-type]
    refused(lambda: read_range("QQ+", "nope"), "unknown range format 'nope'", "fmt")
    refused(lambda: write_range(Range("QQ+"), None), "a range format is a name", "fmt")  # type: ignore[arg-type]
    refused(lambda: convert("QQ+", "nope"), "unknown range format", "to")
    refused(lambda: convert("QQ+", "pio", "nope"), "unknown range format", "source")
    refused(lambda: convert("QQ+,AKq", "pio"), "invalid range 'AKq'", "text")


def test_write_range_takes_a_range() -> None:
    refused(
        lambda: write_range("QQ+", "pokerstove"),  # type: ignore[arg-type]
        r"writes a Range, not str 'QQ\+': convert\('QQ\+', 'pokerstove'\)",
        "rng",
    )
    assert convert("QQ+", "pokerstove") == write_range(Range("QQ+"), "pokerstove") == "QQ+"


# --- reports and cuts -------------------------------------------------------------------------


def test_range_report_takes_a_range() -> None:
    report = range_report(Range("QQ+,AKs"))
    assert report["input"] == "QQ+,AKs"
    assert {k: v for k, v in report.items() if k != "input"} == {
        k: v for k, v in range_report("QQ+,AKs").items() if k != "input"
    }
    refused(lambda: range_report(["AsKs"]), "text such as 'QQ\\+,AKs' or a Range", "range")  # type: ignore[arg-type]


def test_percent_cuts_refuses_what_is_no_range() -> None:
    refused(lambda: percent_cuts(None), "a range is text.*NoneType", "text")  # type: ignore[arg-type]
    refused(lambda: percent_cuts("abc"), "invalid range 'abc' at character 1", "text")  # was []
    refused(lambda: percent_cuts("5%@nope"), "unknown ordering 'nope'", "text")
    assert percent_cuts("AKs") == []
    assert percent_cuts("AKs,1%")[0]["classes"] == 3


# --- orderings --------------------------------------------------------------------------------


def test_load_ordering_refuses_what_is_no_ordering_file(tmp_path: Path) -> None:
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"AA\n\xd0\xff\n")
    refused(lambda: load_ordering(binary), r"not UTF-8 text \(byte 0xd0 at offset 3\)", "path")
    refused(lambda: load_ordering(5), "an ordering file is a path, not int 5", "path")  # type: ignore[arg-type]
    refused(lambda: load_ordering(tmp_path), "cannot read the ordering file", "path")
    refused(lambda: load_ordering(binary, 5), "an ordering name is.*not int 5", "name")  # type: ignore[arg-type]
    refused(lambda: load_ordering(binary, "vs1"), "is a shipped ordering", "name")
    numbers = tmp_path / "numbers.txt"
    numbers.write_text("AA 6 x\n")
    refused(lambda: load_ordering(numbers), "line 1: 'x' is not a number", "path")
    short = tmp_path / "short.txt"
    short.write_text("AA\n")
    refused(lambda: load_ordering(short), "must list each of the 169 classes", "path")


def test_hand_ordering_names_its_argument() -> None:
    refused(lambda: hand_ordering([]), "an ordering is named by text", "name")  # type: ignore[arg-type]
    refused(lambda: hand_ordering("nope"), "unknown ordering 'nope'", "name")


def test_an_ordering_and_a_listing_flag_of_the_wrong_type_are_named() -> None:
    """An array as ``ordering`` or ``list_combos`` raised numpy's "truth value of an array is
    ambiguous" from inside the parser (QA fuzz)."""
    from pokerlab import Range
    from pokerlab.errors import GameError

    refused(lambda: Range("10%", ordering=np.array([0, 1])), "ordering must be an ordering's name",  # type: ignore[arg-type]
            "ordering")  # fmt: skip
    with pytest.raises(GameError, match="list_combos must be True or False") as info:
        Range("AA").to_dict(np.array([1, 2]))  # type: ignore[arg-type]
    assert info.value.field == "list_combos"
    assert len(Range("QQ+").to_dict(True)["list"]) == 18
