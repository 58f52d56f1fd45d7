"""Monte Carlo options shared by the commands: ``--stderr`` in percent or as a fraction, and
caps on ``--trials``, ``--stderr`` and ``--time`` so that no option quietly asks for a run that
never ends (``--no-limit`` lifts the caps)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar

import click

__all__ = [
    "MAX_SECONDS",
    "MAX_TRIALS",
    "MIN_STDERR",
    "Fraction",
    "check_limits",
    "no_limit_option",
    "stderr_option",
    "stderr_option_of",
    "time_option",
]

MAX_TRIALS = 10**10
"""Most Monte Carlo deals without ``--no-limit`` (hours of work in the slowest games)."""
MAX_SECONDS = 3600.0
"""Longest ``--time`` without ``--no-limit``."""
MIN_STDERR = 1e-5
"""Smallest ``--stderr`` (0.001 %) without ``--no-limit``: about 2.5e9 deals."""
F = TypeVar("F", bound=Callable[..., Any])
_INT64_TRIALS = 2**62  # the kernels count deals in 64-bit integers, --no-limit or not


class Fraction(click.ParamType):  # type: ignore[type-arg]  # generic only from click 8.2
    """A fraction of the pot, written ``0.001`` or ``0.1%``."""

    name = "FRACTION|PERCENT"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> float:
        if isinstance(value, float):
            return value
        text = str(value).strip()
        percent = text.endswith("%")
        try:
            number = float(text[:-1] if percent else text)
        except ValueError:
            self.fail(f"'{text}' is not a number such as 0.001 or 0.1%", param, ctx)
        fraction = number / 100 if percent else number
        if not (math.isfinite(fraction) and 0 < fraction < 1):
            self.fail(f"'{text}' must be above 0 and below 1 (or 100%)", param, ctx)
        return fraction


def _percent(fraction: float) -> str:
    return f"{fraction * 100:g}%"


def stderr_option_of(what: str) -> Callable[[F], F]:
    """``--stderr``, its help naming what the standard error is of (``each equity``)."""
    return click.option(
        "--stderr",
        type=Fraction(),
        default=None,
        help=(
            f"Monte Carlo: stop at this standard error of {what}, in percent (0.1%) or as a "
            "fraction of the pot (0.001); at least 0.001% without --no-limit."
        ),
    )


stderr_option = stderr_option_of("each equity")
time_option = click.option(
    "--time",
    "time_limit",
    type=float,
    default=None,
    help=(
        "Monte Carlo: stop after this many seconds (at most 3600 without --no-limit). "
        "A run stopped by time is not reproducible, even with --seed."
    ),
)
no_limit_option = click.option(
    "--no-limit",
    is_flag=True,
    help="Allow --trials above 10^10, --stderr below 0.001% and --time above 3600 s (or inf).",
)


def check_limits(
    trials: int | None = None,
    stderr: float | None = None,
    time_limit: float | None = None,
    no_limit: bool = False,
) -> None:
    """Refuse (a usage error, exit 2) options that ask for endless work, unless ``no_limit``."""
    lift = "add --no-limit to run it anyway"
    if trials is not None:
        if trials < 1:
            raise click.BadParameter(f"must be at least 1, got {trials}", param_hint="--trials")
        if trials > _INT64_TRIALS:
            raise click.BadParameter(
                f"{trials:.3g} deals cannot be counted; at most {_INT64_TRIALS:.3g}",
                param_hint="--trials",
            )
        if trials > MAX_TRIALS and not no_limit:
            raise click.BadParameter(
                f"{trials:.3g} deals would take hours or longer; at most {MAX_TRIALS:.0e} ({lift})",
                param_hint="--trials",
            )
    if stderr is not None and stderr < MIN_STDERR and not no_limit:
        # the variance of a pot share is at most 1/4 (stderr**2 underflows below 1e-162)
        deals = 0.25 / stderr**2 if stderr > 1e-100 else math.inf
        need = (
            f"up to {deals:.2g} deals"
            if deals <= _INT64_TRIALS
            else "more deals than can be counted"
        )
        raise click.BadParameter(
            f"{_percent(stderr)} needs {need}; at least {_percent(MIN_STDERR)} ({lift})",
            param_hint="--stderr",
        )
    if time_limit is not None:
        if math.isnan(time_limit) or time_limit <= 0:
            raise click.BadParameter(
                f"must be a positive number of seconds, got {time_limit}", param_hint="--time"
            )
        if time_limit > MAX_SECONDS and not no_limit:
            raise click.BadParameter(
                f"{time_limit:g} s is more than {MAX_SECONDS:g} s ({lift})", param_hint="--time"
            )
