"""Range formats of other tools: known translations, round trips through every writer, errors."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from cli_helpers import assert_one_line_error
from pokerlab.cli import app
from pokerlab.errors import RangeError
from pokerlab.ranges import Range
from pokerlab.ranges.formats import FORMATS, convert, read_range, write_range

WEIGHTED = ["pio", "gtoplus", "ppt", "pokerlab"]
RANGES = [
    "QQ+,AKs:0.5",
    "22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+",
    "AA:0.25,KK:0.75,QQ:0.1,AKs,AsKd,AhKc:0.5,T9s-54s:0.3",
    "random",
    "15%",
    "AsAh,7c6c,2d2c:0.05",
    "AK,KQo:0.999",
]


def random_range(seed: int) -> Range:
    rng = np.random.default_rng(seed)
    dense = np.where(rng.random(1326) < 0.3, rng.choice([1.0, 0.5, 0.25, 0.125], 1326), 0.0)
    return Range.from_dense(dense)


@pytest.mark.parametrize("fmt", WEIGHTED)
@pytest.mark.parametrize("text", RANGES)
def test_round_trip(text: str, fmt: str) -> None:
    r = Range(text)
    written = write_range(r, fmt)
    assert read_range(written, fmt) == r
    assert read_range(written) == r  # auto-detected


@pytest.mark.parametrize("fmt", WEIGHTED)
@pytest.mark.parametrize("seed", range(5))
def test_round_trip_random_ranges(fmt: str, seed: int) -> None:
    r = random_range(seed)
    assert read_range(write_range(r, fmt), fmt) == r


@pytest.mark.parametrize("fmt", ["pokerstove", "equilab"])
def test_pokerstove_round_trip_unweighted(fmt: str) -> None:
    for text in ("QQ+,AKs,T9s-54s,AcKd", "random", "22+,A2s+"):
        assert read_range(write_range(Range(text), fmt), fmt) == Range(text)


@pytest.mark.parametrize(
    ("text", "fmt", "same_as"),
    [
        ("[50]AA,KK[/50],QQ", "gtoplus", "AA:0.5,KK:0.5,QQ"),
        ("[25.5]AKs[/25.5], [100]AQs[/100]", "gtoplus", "AKs:0.255,AQs"),
        ("AA,KK:0.5,AsKs:0.25", "pio", "AA,KK:0.5,AsKs:0.25"),
        ("AxKx", "ppt", "AKs"),
        ("AxKy", "ppt", "AKo"),
        ("AK, QQ@50", "ppt", "AK,QQ:0.5"),
        ("AsK", "ppt", "AsKs,AsKh,AsKd,AsKc"),
        ("QQ+,AKs", "pokerstove", "AA,KK,QQ,AKs"),
    ],
)
def test_known_translations(text: str, fmt: str, same_as: str) -> None:
    assert read_range(text, fmt) == Range(same_as)


def test_writers() -> None:
    r = Range("AA,KK:0.5,AsKs:0.25")
    assert write_range(r, "pio") == "AA,KK:0.5,AsKs:0.25"
    assert write_range(r, "gtoplus") == "AA,[50]KK[/50],[25]AsKs[/25]"
    assert write_range(r, "ppt") == "AA,KK@50,AsKs@25"
    assert write_range(Range("QQ+,AKs,AKo:0.5"), "pio") == "AA,KK,QQ,AKs,AKo:0.5"
    assert convert("QQ,KK,AA,AxKx", "pokerstove", "ppt") == "QQ+,AKs"
    assert set(FORMATS) >= {"pokerstove", "equilab", "pio", "gtoplus", "ppt"}


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda: read_range("[50]AA,KK", "gtoplus"), "unbalanced"),
        (lambda: read_range("[nan]AA[/nan]", "gtoplus"), r"such as \[50\], got \[nan\]"),
        (lambda: read_range("[50]AA[/40]", "gtoplus"), "is closed by"),
        (lambda: read_range("AA:0.5", "pokerstove"), "no weights"),
        (lambda: write_range(Range("AA:0.5"), "equilab"), "no weights"),
        (lambda: write_range(Range("AA:2"), "pio"), "at most 1"),
        (lambda: write_range(Range("AA:2"), "gtoplus"), "at most 1"),
        (lambda: read_range("AA", "holdemmanager"), "unknown range format"),
        (lambda: read_range("AZ"), "AZ"),
    ],
)
def test_errors(call: object, fragment: str) -> None:
    with pytest.raises(RangeError, match=fragment):
        call()  # type: ignore[operator]


def test_cli_convert() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["range", "convert", "--to", "gtoplus", "QQ+,AKs:0.5"])
    assert result.exit_code == 0, result.output
    assert result.stdout == "QQ+,[50]AKs[/50]\n"
    back = runner.invoke(
        app, ["range", "convert", "--to", "pio", "--from", "gtoplus", result.stdout.strip()]
    )
    assert back.stdout == "AA,KK,QQ,AKs:0.5\n"
    shown = runner.invoke(app, ["range", "QQ+"])
    assert shown.exit_code == 0 and "18 of 1326" in shown.stdout
    assert_one_line_error(
        runner.invoke(app, ["range", "convert", "--to", "pokerstove", "AA:0.5"]), "no weights"
    )
    assert_one_line_error(runner.invoke(app, ["range", "convert", "--to", "pio", "A"]), "'A'")


@pytest.mark.parametrize("weight", [1e-7, 2.5e-9, 1e-300])
@pytest.mark.parametrize("fmt", ["gtoplus", "ppt"])
def test_tiny_weights_round_trip(fmt: str, weight: float) -> None:
    """Percentages under 1e-4 came out as ``1e-05`` (unreadable) or ``0`` (the combo lost)."""
    rng = Range(["AsKs", "QhQs"], [weight, 1.0])
    text = write_range(rng, fmt)
    assert "e-" not in text
    assert read_range(text, fmt) == rng


def test_weight_spellings() -> None:
    assert Range("AA@99.9") == Range("AA:0.999")
    with pytest.raises(RangeError, match="too small to tell from 0"):
        Range("AK:1e-400")
    with pytest.raises(RangeError, match=r"up to 100, got \[150\]"):
        read_range("[150]AA[/150]", "gtoplus")
