"""``pokerlab draw``: five-card draw discard advice (``advise``) and bot matches (``match``).

``draw_group`` is an :class:`~pokerlab.cli.group.ErrorGroup` like the top-level group, so it
behaves the same on its own (tests) and registered.
"""

from __future__ import annotations

from typing import Literal

import click

from pokerlab._numbers import counted
from pokerlab.analysis.bots import Tournament, round_robin, wilson_interval
from pokerlab.analysis.draw import DrawAdvice, advise
from pokerlab.cards import format_cards
from pokerlab.cli.backend_options import threads_option
from pokerlab.cli.group import ErrorGroup
from pokerlab.cli.interrupts import exit_interrupted, first_interrupt_stops
from pokerlab.cli.limits import check_limits, no_limit_option_of
from pokerlab.cli.numbers import INT, IntRange
from pokerlab.cli.output import OutputPath, console, emit_json, writing
from pokerlab.cli.percent import percent, stderr_percent
from pokerlab.cli.progress import LazyProgress

__all__ = ["draw_group", "render_advice", "render_tournament"]


@click.group("draw", cls=ErrorGroup, context_settings={"help_option_names": ["-h", "--help"]})
def draw_group() -> None:
    """Five-card draw: discard advice and bots that play each other."""


def render_advice(advice: DrawAdvice, top: int) -> None:
    """Print the best ``top`` choices as a rich table, then the best one's distribution."""
    from rich import box
    from rich.table import Table

    title = f"{advice.game}  hand {format_cards(advice.hand, ' ')}"
    title += f"  dead {format_cards(advice.dead, ' ')}" if advice.dead else ""
    title += f"  vs {', '.join(advice.opponents)}" if advice.opponents else ""
    table = Table(
        title=title, title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 1, 0, 0), pad_edge=False
    )
    table.add_column("#", justify="right")
    table.add_column("keep", no_wrap=True)
    table.add_column("discard", no_wrap=True)
    table.add_column("draws", justify="right")
    if advice.goal is not None:
        table.add_column(f"{advice.goal}+", justify="right")
    sampled = advice.method == "monte-carlo"
    if advice.method is not None:
        table.add_column("equity", justify="right")
        if sampled:
            table.add_column("±", justify="right")
        table.add_column("win", justify="right")
        table.add_column("tie", justify="right")
    table.add_column("score", justify="right")
    for i, c in enumerate(advice.choices[:top], start=1):
        row = [
            str(i),
            format_cards(c.keep, " ") or "-",
            format_cards(c.discard, " ") or "-",
            f"{c.draws:,}",
        ]
        if advice.goal is not None:
            row.append(percent(c.at_least(advice.goal), 2))
        if advice.method is not None:
            row.append(f"[bold]{percent(c.equity or 0.0, 2)}[/bold]")
            row += [stderr_percent(c.stderr or 0.0, 2)] if sampled else []
            row += [percent(c.win or 0.0, 2), percent(c.tie or 0.0, 2)]
        row.append(f"{c.score:.3f}")
        table.add_row(*row)
    out = console()
    out.print(table)
    if advice.max_draw < 5:
        n = len(advice.choices)
        allowed = "the one choice allowed (stand pat)" if n == 1 else f"the {n} choices allowed"
        out.print(f"draw at most {advice.max_draw}: {allowed}")
    best = advice.best
    action = f"draw {len(best.discard)}" if best.discard else "stand pat"
    out.print(f"best: keep {format_cards(best.keep, ' ') or 'nothing'}, {action}")
    for name, p in reversed(best.categories.items()):
        if p > 0:
            out.print(f"  {name:<16} {percent(p):>9}   at least: {percent(best.at_least(name))}")
    if advice.method is not None:
        extra = f" ({advice.samples:,} deals sampled, seed {advice.seed})" if sampled else ""
        out.print(f"equity: {advice.method}{extra}, {advice.seconds:.3f} s")
    out.print("score: expected percentile of the final hand among all five-card hands")


@draw_group.command("advise")
@click.argument("hand", nargs=-1, required=True)
@click.option(
    "--vs",
    "opponents",
    multiple=True,
    help="An opponent (repeatable): 'random', a hand 'AhAd7c4s2h', hands joined by "
    "'|', a pattern range of five-card hands 'JJ***'; append ':rules' or ':random' for how it "
    "draws (default: stands pat).",
)
@click.option("--dead", "-d", default="", help="Dead cards (seen discards, known cards).")
@click.option("--game", "-g", default="high", show_default=True, help="high or 2-7.")
@click.option("--goal", default=None, help="Rank by P(at least this category), e.g. 'two pair'.")
@click.option("--exact", is_flag=True, help="Equities by exact enumeration (refused if too large).")
@click.option("--mc", is_flag=True, help="Equities by Monte Carlo.")
@click.option("--trials", type=INT, default=None, help="Monte Carlo deals (default 200,000).")
@no_limit_option_of("trials")
@click.option("--seed", type=INT, default=None, help="Monte Carlo seed.")
@click.option(
    "--top",
    type=IntRange(min=1),
    default=8,
    show_default=True,
    help="Choices shown in the table.",
)
@threads_option
@click.option(
    "--max-draw",
    type=IntRange(0, 5),
    default=5,
    show_default=True,
    help="The most cards anyone may draw (3: the 26 choices of many games); a random opponent "
    "keeps to it, a rules opponent is refused under it.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON (every allowed choice).")
def advise_command(
    hand: tuple[str, ...],
    opponents: tuple[str, ...],
    dead: str,
    game: str,
    goal: str | None,
    exact: bool,
    mc: bool,
    trials: int | None,
    no_limit: bool,
    seed: int | None,
    top: int,
    threads: int | None,
    max_draw: int,
    as_json: bool,
) -> None:
    """Rank the 32 keep/discard choices of a five-card hand (26 with `--max-draw 3`).

    Example: `pokerlab draw advise "Jh Jd 7c 4s 2h" --vs random`."""
    if exact and mc:
        raise click.UsageError("--exact and --mc exclude each other")
    given = {
        "--exact": exact,
        "--mc": mc,
        "--trials": trials is not None,
        "--seed": seed is not None,
    }
    equity_options = [name for name, present in given.items() if present]
    if equity_options and not opponents:
        raise click.UsageError(
            f"{', '.join(equity_options)} {'sets' if len(equity_options) == 1 else 'set'} how "
            "equity against opponents is computed; "
            "give the opponents with --vs"
        )
    if exact and (trials is not None or seed is not None):
        raise click.UsageError("--trials and --seed apply to Monte Carlo, not --exact")
    check_limits(trials, no_limit=no_limit)
    method: Literal["auto", "exact", "mc"] = "exact" if exact else ("mc" if mc else "auto")
    result = advise(
        " ".join(hand),
        dead=dead,
        vs=list(opponents),
        game=game,
        goal=goal,
        method=method,
        trials=trials,
        seed=seed,
        threads=threads,
        max_draw=max_draw,
    )
    if as_json:
        emit_json(result.to_dict())
    else:
        render_advice(result, top)


def render_tournament(t: Tournament) -> None:
    """Print the matches and the standings as rich tables."""
    from rich.table import Table

    def rate(count: int, n: int, interval: bool = False) -> str:
        lo, hi = wilson_interval(count, n)
        text = f"{count / n * 100:.1f}%"
        return text + f" ({lo * 100:.1f}-{hi * 100:.1f})" if interval else text

    game = "five-card draw" if t.game == "high" else "2-7 single draw"
    matches = Table(
        title=f"{game}: {counted(t.hands, 'hand')} per match, seed {t.seed}", title_justify="left"
    )
    for name in ("A", "B", "A wins", "ties", "B wins", "z", "p-value", "better"):
        matches.add_column(name, justify="left" if name in ("A", "B", "better") else "right")
    for m in t.matches:
        matches.add_row(
            m.bots[0],
            m.bots[1],
            rate(m.wins, m.hands),
            rate(m.ties, m.hands),
            rate(m.losses, m.hands),
            f"{m.z:+.2f}",
            f"{m.p_value:.3g}" if m.p_value > 0 else "<1e-300",
            m.better or "-",
        )
    standings = Table(title="standings (95% Wilson intervals)", title_justify="left")
    for name in ("bot", "hands", "win", "tie", "loss"):
        standings.add_column(name, justify="left" if name == "bot" else "right", no_wrap=True)
    for s in t.standings:
        standings.add_row(
            s.bot,
            f"{s.hands:,}",
            rate(s.wins, s.hands, True),
            rate(s.ties, s.hands),
            rate(s.losses, s.hands),
        )
    out = console()
    out.print(matches)
    out.print(standings)
    out.print("better: the bot with more wins when the two-sided binomial test gives p < 0.05")
    out.print(f"played in {t.seconds:.2f} s")  # its own line: at 80 columns it wrapped alone


@draw_group.command("match")
@click.option(
    "--bots",
    default="optimal,rules,random",
    show_default=True,
    help="Comma-separated bots: optimal, rules, random, stand-pat.",
)
@click.option("--hands", type=INT, default=10_000, show_default=True, help="Deals per pair.")
@click.option("--game", "-g", default="high", show_default=True, help="high or 2-7.")
@click.option("--seed", type=INT, default=1, show_default=True, help="Random seed.")
@click.option(
    "--max-draw",
    type=IntRange(0, 5),
    default=5,
    show_default=True,
    help="The most cards a bot may draw (3: the 26 choices of many games).",
)
@click.option(
    "--plot",
    "plot_file",
    type=OutputPath(str, png=True),
    default=None,
    help='Write a PNG chart (needs matplotlib: pip install "pokerlab[plot]").',
)
@threads_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def match_command(
    bots: str,
    hands: int,
    game: str,
    seed: int,
    max_draw: int,
    plot_file: str | None,
    threads: int | None,
    as_json: bool,
) -> None:
    """Play bots against each other, heads-up, every pair.

    Example: `pokerlab draw match --bots optimal,rules,random --hands 10000 --seed 1
    --plot results.png`."""
    names = [b.strip() for b in bots.split(",")]
    if not all(names):
        raise click.BadParameter(f"'{bots}' has an empty bot name", param_hint="--bots")
    with LazyProgress("playing") as bar, first_interrupt_stops() as stop:
        result = round_robin(
            names, hands, game=game, seed=seed, progress=bar, threads=threads,
            max_draw=max_draw, cancel=stop,
        )  # fmt: skip
    if plot_file is not None:
        from pokerlab.analysis.plots import plot_tournament

        try:
            with writing(plot_file):
                plot_tournament(result, plot_file)
        except ImportError as exc:
            click.echo(f"error: {exc}", err=True)
            raise SystemExit(2) from exc
    if as_json:
        payload = result.to_dict()
        if plot_file is not None:
            payload["plot"] = plot_file
        emit_json(payload)
    else:
        render_tournament(result)
        if plot_file is not None:
            console().print(f"chart written to {plot_file}")
    if result.cancelled:
        exit_interrupted(result.hands, "the results cover", "deals per pair played")
