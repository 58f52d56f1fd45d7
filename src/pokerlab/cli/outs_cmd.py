"""``pokerlab outs HANDS... --board FLOP_OR_TURN``: winning, chopping and losing next cards."""

from __future__ import annotations

import click

from pokerlab.analysis import OutsReport, StreetOuts, outs
from pokerlab.analysis.outs import turn_outcomes
from pokerlab.cards import Card, parse_card, parse_cards
from pokerlab.cli.backend_options import threads_option
from pokerlab.cli.limits import check_limits, no_limit_option_of
from pokerlab.cli.numbers import FLOAT
from pokerlab.cli.output import console, emit_json, literal
from pokerlab.cli.progress import LazyProgress
from pokerlab.engine.limits import DEFAULT_SECONDS
from pokerlab.errors import CardError, GameError
from pokerlab.games import get_game


def _street_table(title: str, street: StreetOuts, inputs: tuple[str, ...]) -> object:
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    table.add_column("player")
    table.add_column("hand / range")
    table.add_column("wins", style="green")
    table.add_column("ties", style="yellow")
    table.add_column("loses", style="red")
    # a card can go either way only against a range: the column shows only then
    mixed = any(street.depends_cards(p) for p in range(len(inputs)))
    if mixed:
        table.add_column("depends on the others' hands")
    for p, text in enumerate(inputs):
        cells = [street.win_cards(p), street.tie_cards(p), street.lose_cards(p)]
        cells += [street.depends_cards(p)] if mixed else []
        counted = (f"{len(cs)}: " + " ".join(str(c) for c in cs) for cs in cells)
        table.add_row(str(p + 1), literal(text), *counted)
    return table


def _turn_summary(report: OutsReport) -> object:
    """Each player's turn cards grouped by what every river under them does."""
    from rich.table import Table

    table = Table(title=f"board {report.board}: every turn card, by its rivers",
                  title_justify="left")  # fmt: skip
    table.add_column("player")
    table.add_column("hand / range")
    for kind, style in (("win", "green"), ("tie", "yellow"), ("lose", "red")):
        table.add_column(f"{kind}s on every river", style=style)
    table.add_column("depends on the river")
    for p, text in enumerate(report.inputs):
        labels = turn_outcomes(report, p)
        cells = [[str(c) for c, k in labels.items() if k == kind]
                 for kind in ("win", "tie", "lose", "depends")]  # fmt: skip
        table.add_row(str(p + 1), literal(text), *(f"{len(cs)}: " + " ".join(cs) for cs in cells))
    return table


def _turn_rows(report: OutsReport) -> object:
    """One row per turn card: for each player how many rivers win, chop and lose."""
    from rich.table import Table

    assert report.by_turn is not None
    table = Table(title="rivers under each turn card (win / chop / lose)", title_justify="left")
    table.add_column("turn")
    for p, text in enumerate(report.inputs):
        table.add_column(f"{p + 1} {text}")
    for turn, street in report.by_turn.items():
        cells = []
        for p in range(len(report.inputs)):
            win, tie, lose, depends = street.counts(p)
            mixed = f"  depends {depends:2d}" if depends else ""
            cells.append(f"win {win:2d}  chop {tie:2d}  lose {lose:2d}{mixed}  {street.agreed(p)}")
        table.add_row(str(turn), *cells)
    return table


def _chosen_turn(report: OutsReport, text: str) -> tuple[Card, StreetOuts]:
    if report.by_turn is None:
        raise GameError("--turn needs a flop board; this board already has its turn card",
                        field="turn")  # fmt: skip
    card = parse_card(text)
    if card not in report.by_turn:
        raise GameError(f"--turn {card} cannot come: {_why_not_dealt(report, card)}",
                        field="turn")  # fmt: skip
    return card, report.by_turn[card]


def _why_not_dealt(report: OutsReport, card: Card) -> str:
    """Why ``card`` is no turn card of ``report``: where it is, when the board, the dead cards
    or a hand names it, or that the game's deck lacks it; else that the ranges block it."""
    if card in parse_cards(report.board):
        return "it is on the board"
    if card in parse_cards(report.dead):
        return "it is a dead card"
    rules = get_game(report.game)
    if rules.removed_mask >> card & 1:  # short deck's deuces to fives
        return f"it is not in {rules.deck_text} that {rules.title} is dealt from"
    for p, text in enumerate(report.inputs):
        if "," in text:  # a list of hands: some hold it, others not
            continue
        try:
            if card in parse_cards(text):  # an exact hand (a range does not parse as cards)
                return f"player {p + 1} holds it ({text})"
        except CardError:
            continue
    return "every holding of the ranges that leaves it unseen collides with another player's"


def render_outs(report: OutsReport, turn: str | None = None) -> None:
    """Print an outs report as rich tables: on a turn board every river card; on a flop the
    turn cards by their rivers, the win / chop / lose count of rivers under each turn, and with
    ``turn`` that turn's river lists."""
    out = console()
    if report.by_turn is None:
        if turn is not None:
            _chosen_turn(report, turn)
        out.print(_street_table(f"board {report.board}: every river card", report.next_cards,
                                report.inputs))  # fmt: skip
        return
    if turn is not None:
        card, street = _chosen_turn(report, turn)
        out.print(_street_table(f"board {report.board} turn {card}: every river card", street,
                                report.inputs))  # fmt: skip
        return
    out.print(_turn_summary(report))
    out.print(_turn_rows(report))
    if report.runouts is not None:
        totals = report.runouts
        out.print(f"over all {totals.total:,} turn+river runouts:")
        for p, text in enumerate(report.inputs):
            mixed = f", depend on the others' hands {totals.depends[p]:,}"
            out.print(
                f"  {p + 1} {text}: wins {totals.win[p]:,}, ties {totals.tie[p]:,}, "
                f"loses {totals.lose[p]:,}{mixed if totals.depends[p] else ''}, "
                f"equity {totals.equity[p] * 100:.3f}%"
            )


@click.command("outs")
@click.argument("players", nargs=-1, required=True)
@click.option("--board", "-b", default="", help="A flop (3 cards) or a turn (4 cards).")
@click.option("--dead", "-d", default="", help="Dead cards.")
@click.option(
    "--game",
    "-g",
    default="holdem",
    show_default=True,
    help="holdem, shortdeck, shortdeck-straights, omaha, omaha5, omaha6, omaha-hilo, omaha5-hilo "
    "(Omaha: pattern "
    "ranges, AA**$ds).",
)
@click.option(
    "--turn", "-t", default=None, metavar="CARD", help="On a flop: list this turn card's rivers."
)
@click.option(
    "--time",
    "time_limit",
    type=FLOAT,
    default=DEFAULT_SECONDS,
    show_default=True,
    help="Seconds at most: refused at once when estimated longer, stopped when it runs longer "
    "(at most 3600 without --no-limit).",
)
@no_limit_option_of("time")
@threads_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def outs_command(
    players: tuple[str, ...],
    board: str,
    dead: str,
    game: str,
    turn: str | None,
    time_limit: float,
    no_limit: bool,
    threads: int | None,
    as_json: bool,
) -> None:
    """Which next cards win, tie or lose for each player, e.g.
    `pokerlab outs 9h8h AsKd --board Th7c2hKs`. On a flop, each turn card is a win, tie or lose
    card only when every river under it agrees ("depends" otherwise), with the count of winning,
    chopping and losing rivers under it; `--turn 2h` lists that turn's rivers."""
    check_limits(time_limit=time_limit, no_limit=no_limit)
    with LazyProgress("outs") as bar:
        report = outs(
            list(players), board=board, dead=dead, game=game, time_limit=time_limit,
            progress=bar, threads=threads,
        )  # fmt: skip
    if as_json:
        if turn is not None:
            raise click.UsageError("--turn is for the text output; --json has every turn")
        emit_json(report.to_dict())
    else:
        render_outs(report, turn)
