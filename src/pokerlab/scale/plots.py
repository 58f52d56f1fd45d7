"""Charts of the heavy jobs (matplotlib, imported only when a chart is drawn; ``[plot]`` extra).

:func:`matrix_figure`: the 169x169 preflop matrix as a heatmap of the row class's equity.
:func:`flops_figure`: on the left a histogram of player 1's flop equity weighted by each flop
class's probability, on the right the cumulative curve (the chance the flop leaves player 1 at
most that equity), with the preflop equity marked. Both use the Agg canvas: no display needed.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from pokerlab.games import get_game
from pokerlab.scale.flops import FlopReport
from pokerlab.scale.matrix import PreflopMatrix

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["flops_figure", "matrix_figure", "save_png"]


def _figure(size: tuple[float, float]) -> Figure:
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise ImportError('charts need matplotlib: pip install "pokerlab[plot]"') from None
    fig = Figure(figsize=size, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def matrix_figure(matrix: PreflopMatrix) -> Figure:
    """Heatmap of ``matrix.equity`` (rows: the hand, columns: the villain)."""
    fig = _figure((12, 11))
    ax = fig.subplots()
    image: Any = ax.imshow(matrix.equity, cmap="RdYlGn", vmin=0, vmax=1, interpolation="nearest")
    ticks = np.arange(len(matrix.names))
    size = min(10.0, max(3.0, 500 / len(matrix.names)))  # 3 points fit 169 rows, 10 a few
    ax.set_xticks(ticks, matrix.names, rotation=90, fontsize=size)
    ax.set_yticks(ticks, matrix.names, fontsize=size)
    ax.set_xlabel("villain")
    ax.set_ylabel("hand")
    n = len(matrix.names)
    title = get_game(matrix.game).title
    ax.set_title(f"{title}: heads-up preflop equity of the row class, exact ({n} x {n})")
    fig.colorbar(image, ax=ax, shrink=0.8, label="equity")
    return fig


def flops_figure(report: FlopReport) -> Figure:
    """Weighted histogram and cumulative curve of player 1's equity over every flop."""
    fig = _figure((11, 4.5))
    hist, cumulative = fig.subplots(1, 2)
    hist.hist(report.equity, bins=50, range=(0, 1), weights=report.probability, color="tab:blue")
    hist.set_xlabel("equity on the flop")
    hist.set_ylabel("probability")
    order = np.argsort(report.equity, kind="stable")
    cumulative.step(report.equity[order], np.cumsum(report.probability[order]), where="post")
    cumulative.set_xlabel("equity on the flop")
    cumulative.set_ylabel("P(equity <= x)")
    cumulative.set_xlim(0, 1)
    cumulative.set_ylim(0, 1)
    for ax in (hist, cumulative):
        ax.axvline(report.mean_equity, color="tab:red", linestyle="--", linewidth=1,
                   label=f"preflop {report.mean_equity:.2%}")  # fmt: skip
        ax.grid(alpha=0.3)
    cumulative.legend(loc="lower right")
    vs = " vs ".join(report.players)
    title = get_game(report.game).title
    fig.suptitle(f"{title}, {vs}: {len(report.flops):,} flop classes "
                 f"({report.symmetries} suit symmetries)", fontsize=10)  # fmt: skip
    return fig


def save_png(fig: Figure, path: Path) -> None:
    fig.savefig(path, format="png", dpi=150)
