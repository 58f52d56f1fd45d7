"""Monte Carlo options shared by the commands: ``--stderr`` in percent or as a fraction, and
caps on ``--trials``, ``--stderr`` and ``--time`` so that no option quietly asks for a run that
never ends (``--no-limit`` lifts the caps)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Literal, TypeVar

import click

from pokerlab.cli.numbers import FLOAT, check_ascii
from pokerlab.engine.limits import MAX_SECONDS, MAX_TRIALS, MIN_STDERR, check_sampling
from pokerlab.errors import GameError

__all__ = [
    "MAX_SECONDS",
    "MAX_TRIALS",
    "MIN_STDERR",
    "Fraction",
    "check_limits",
    "method_of",
    "no_limit_option",
    "stderr_option",
    "stderr_option_of",
    "time_option",
]

F = TypeVar("F", bound=Callable[..., Any])
_OPTIONS = {"trials": "--trials", "stderr": "--stderr", "time_limit": "--time", "seed": "--seed"}
"""The option of each Monte Carlo setting (the engine's names)."""


class Fraction(click.ParamType):  # type: ignore[type-arg]  # generic only from click 8.2
    """A fraction of the pot, written ``0.001`` or ``0.1%``."""

    name = "FRACTION|PERCENT"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> float:
        if isinstance(value, float):
            return value
        check_ascii(self, value, param, ctx)
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
    type=FLOAT,
    default=None,
    help=(
        "Monte Carlo: stop after this many seconds (at most 3600 without --no-limit). "
        "A run stopped by time is not reproducible, even with --seed."
    ),
)
_LIFTED = {
    "trials": "--trials above 10^10",
    "stderr": "--stderr below 0.001%",
    "time": "--time above 3600 s (or inf)",
}


def no_limit_option_of(*options: str) -> Callable[[F], F]:
    """``--no-limit``, its help naming the capped options the command has (``trials``,
    ``stderr``, ``time``): ``outs`` has no --trials, ``draw advise`` no --time."""
    parts = [_LIFTED[name] for name in options]
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return click.option("--no-limit", is_flag=True, help=f"Allow {listed}.")


no_limit_option = no_limit_option_of("trials", "stderr", "time")


LIFT = "add --no-limit to run it anyway"
"""How the CLI's caps on Monte Carlo stopping rules are lifted."""


def check_limits(
    trials: int | None = None,
    stderr: float | None = None,
    time_limit: float | None = None,
    no_limit: bool = False,
) -> None:
    """Refuse (a usage error, exit 2) options that ask for endless work, unless ``no_limit``
    (the engine's rule, :func:`~pokerlab.engine.limits.check_sampling`)."""
    try:
        check_sampling(trials, stderr, time_limit, capped=not no_limit, lift=LIFT)
    except GameError as exc:
        raise click.BadParameter(str(exc), param_hint=_OPTIONS[exc.field or ""]) from None


def method_of(exact: bool, mc: bool, **sampling: object) -> Literal["auto", "exact", "monte-carlo"]:
    """``"exact"``, ``"monte-carlo"`` or ``"auto"`` from ``--exact`` and ``--mc``; a usage error
    when both are given, or ``--exact`` with any of the Monte Carlo options in ``sampling``
    (``trials``, ``stderr``, ``time_limit``, ``seed``: the ones the command has) set."""
    if exact and mc:
        raise click.UsageError("--exact and --mc exclude each other")
    if exact:
        given = [_OPTIONS[name] for name, value in sampling.items() if value is not None]
        if given:
            names = ", ".join(_OPTIONS[name] for name in sampling)
            raise click.UsageError(f"{names} apply to Monte Carlo, not --exact")
        return "exact"
    return "monte-carlo" if mc else "auto"
