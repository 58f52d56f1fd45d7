"""Charts of bot matches (matplotlib, imported only here and only when a chart is drawn).

:func:`tournament_figure` draws, on the left, each bot's cumulative win rate over the hands it
played (its matches interleaved deal by deal, :meth:`Tournament.series`) with a 95 % Wilson
band, and on the right the final standings: win, tie and loss rates per bot with 95 % intervals
on the win rate. It uses matplotlib's object API with the Agg canvas, so it never touches the
global pyplot state or needs a display. :func:`plot_tournament` writes it as a PNG.

>>> from pokerlab.analysis.bots import round_robin
>>> fig = tournament_figure(round_robin(["rules", "random"], hands=200, seed=1))
>>> [line.get_label() for line in fig.axes[0].get_lines()]
['rules', 'random']
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from pokerlab.analysis.bots import Tournament, wilson_interval
from pokerlab.analysis.distribution import Distribution

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["distribution_figure", "plot_distribution", "plot_tournament", "tournament_figure"]

_MAX_POINTS = 2_000  # points per curve; longer series are thinned evenly (the last one kept)


def _matplotlib() -> Any:
    try:
        import matplotlib
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            'charts need matplotlib: pip install "pokerlab[plot]" (or pip install matplotlib)'
        ) from exc
    return matplotlib


def tournament_figure(tournament: Tournament) -> Figure:
    """The figure described in the module docstring (one line per bot, labelled by name)."""
    _matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(11, 4.8), layout="constrained")
    FigureCanvasAgg(fig)
    curve, bars = fig.subplots(1, 2, width_ratios=[2.2, 1])
    for bot in tournament.bots:
        wins = (tournament.series(bot) == 1).astype(np.int64)
        n = np.arange(1, len(wins) + 1)
        cum = np.cumsum(wins)
        pick = np.unique(np.linspace(0, len(n) - 1, min(len(n), _MAX_POINTS)).astype(np.int64))
        lo, hi = zip(*(wilson_interval(int(cum[i]), int(n[i])) for i in pick), strict=True)
        (line,) = curve.plot(n[pick], cum[pick] / n[pick], label=bot, linewidth=1.4)
        curve.fill_between(n[pick], lo, hi, color=line.get_color(), alpha=0.18, linewidth=0)
    curve.set_xlabel("hands played")
    curve.set_ylabel("cumulative win rate")
    curve.set_ylim(0, 1)
    curve.grid(alpha=0.3)
    curve.legend(loc="lower right")
    game = "five-card draw" if tournament.game == "high" else "2-7 single draw"
    curve.set_title(
        f"{game}, {tournament.hands:,} hands per match, seed {tournament.seed} (band: 95% Wilson)",
        fontsize=10,
    )
    standings = tournament.standings
    names = [s.bot for s in standings]
    y = np.arange(len(standings))
    left = np.zeros(len(standings))
    for label, attr, color in (
        ("win", "wins", "tab:green"),
        ("tie", "ties", "tab:gray"),
        ("loss", "losses", "tab:red"),
    ):
        rates = np.array([getattr(s, attr) / s.hands for s in standings])
        bars.barh(y, rates, left=left, color=color, label=label, height=0.6)
        left += rates
    err = np.array(
        [
            [s.win_rate - lo, hi - s.win_rate]
            for s in standings
            for lo, hi in [wilson_interval(s.wins, s.hands)]
        ]
    ).T
    bars.errorbar(
        [s.win_rate for s in standings], y, xerr=err, fmt="none", ecolor="black", capsize=4
    )
    for i, s in enumerate(standings):
        bars.text(0.02, i, f"{s.win_rate:.1%}", va="center", color="white", fontsize=9)
    bars.set_yticks(y, names)
    bars.invert_yaxis()
    bars.set_xlim(0, 1)
    bars.set_xlabel("share of hands")
    bars.set_title("final standings", fontsize=10)
    bars.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=3, fontsize=8)
    return fig


def plot_tournament(tournament: Tournament, path: str | Path, dpi: int = 100) -> Figure:
    """Write :func:`tournament_figure` to ``path`` as a PNG; return the figure."""
    fig = tournament_figure(tournament)
    fig.savefig(Path(path), format="png", dpi=dpi)
    return fig


def distribution_figure(streets: Sequence[Distribution]) -> Figure:
    """Equity distribution curves: one panel per street (one :class:`Distribution` each), one
    curve per player: the percent of its range (by deal probability, combos sorted by
    increasing equity) against the combo's equity, as ProPokerTools' Odds Oracle draws them.

    >>> from pokerlab.analysis.distribution import equity_distribution
    >>> fig = distribution_figure([equity_distribution("QQ+,AK", "JJ-99,AQs", board="Kd7c2h")])
    >>> [line.get_label() for line in fig.axes[0].get_lines()]
    ['QQ+,AK: 92.5%', 'JJ-99,AQs: 7.5%']
    """
    _matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(4.6 * len(streets) + 0.6, 4.4), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, len(streets), squeeze=False)[0]
    for ax, dist in zip(axes, streets, strict=True):
        for p in dist.players:
            x, y = p.curve()
            ax.step(x, 100 * y, where="pre", linewidth=1.6, label=f"{p.input}: {p.equity:.1%}")
        ax.set_xlim(0, 100)
        ax.set_ylim(0, 100)
        ax.set_xlabel("percent of range (hands sorted by equity)")
        ax.set_ylabel("equity (%)")
        ax.grid(alpha=0.3)
        ax.legend(loc="best", fontsize=8)
        ax.set_title(f"{_street(dist.board)} {dist.board} ({dist.method})".strip(), fontsize=10)
    return fig


def _street(board: str) -> str:
    return {0: "preflop", 3: "flop", 4: "turn", 5: "river"}.get(len(board) // 2, "")


def plot_distribution(streets: Sequence[Distribution], path: str | Path, dpi: int = 100) -> Figure:
    """Write :func:`distribution_figure` to ``path`` as a PNG; return the figure."""
    fig = distribution_figure(streets)
    fig.savefig(Path(path), format="png", dpi=dpi)
    return fig
