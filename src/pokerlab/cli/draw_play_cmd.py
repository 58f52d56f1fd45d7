"""``pokerlab draw play``: five-card draw against a bot in the terminal (rendering only; the
game is :class:`pokerlab.analysis.draw_play.DrawSession`)."""

from __future__ import annotations

import click

from pokerlab._numbers import counted
from pokerlab.analysis.draw_play import DrawSession, Showdown, parse_discard
from pokerlab.cards import format_cards
from pokerlab.cli.interrupts import INTERRUPTED_STATUS
from pokerlab.cli.numbers import INT, IntRange
from pokerlab.errors import PokerlabError

__all__ = ["play_command"]

_HELP = "cards to throw (7c 4s) or positions (3 4 5), '-' to stand pat, '?' advice, 'q' quit"


def _show(showdown: Showdown, bot: str) -> None:
    drew = len(showdown.player_discard)
    click.echo(f"  you drew {drew}: {format_cards(showdown.player_final, ' ')}  "
               f"({showdown.player_category})")  # fmt: skip
    click.echo(f"  {bot} had {format_cards(showdown.bot_hand, ' ')}, drew "
               f"{len(showdown.bot_discard)}: {format_cards(showdown.bot_final, ' ')}  "
               f"({showdown.bot_category})")  # fmt: skip
    click.echo("  " + {1: "you win", 0: "tie", -1: f"{bot} wins"}[showdown.result])


@click.command("play")
@click.option("--bot", default="rules", show_default=True,
              help="The opponent: optimal, rules, random, stand-pat.")  # fmt: skip
@click.option("--game", "-g", default="high", show_default=True, help="high or 2-7.")
@click.option("--hands", type=IntRange(1), default=None, help="Stop after this many deals.")
@click.option("--seed", type=INT, default=None, help="Seed of the shuffles (repeatable deals).")
@click.option("--max-draw", type=IntRange(0, 5), default=5, show_default=True,
              help="The most cards one may draw (3 in many games).")  # fmt: skip
def play_command(bot: str, game: str, hands: int | None, seed: int | None, max_draw: int) -> None:
    """Play five-card draw against a bot: see your hand, throw cards (the advisor's pick only
    when you ask with '?'), see the showdown and the running score."""
    session = DrawSession(bot, game, seed, max_draw)
    name = session.strategy.name
    click.echo(f"five-card draw ({session.game}) against the '{name}' bot; {_HELP}")
    while hands is None or session.score.hands < hands:
        deal = session.deal()
        click.echo(f"deal {deal.number}: your hand {format_cards(deal.hand, ' ')}")
        while True:
            try:
                answer = click.prompt("discard")  # Enter alone asks again (it stood pat)
            except click.Abort as exc:  # the end of the input quits; Ctrl-C too, as Ctrl-C
                _final(session)
                if isinstance(exc.__context__, KeyboardInterrupt):
                    raise SystemExit(INTERRUPTED_STATUS) from None
                return
            answer = answer.strip()
            if not answer:  # spaces or a tab only: asked again, as Enter alone is
                continue
            if answer.lower() in ("q", "quit"):
                _final(session)
                return
            if answer == "?":
                best = session.advice()
                keep = format_cards(best.keep, " ") or "nothing"
                click.echo(f"  advice: keep {keep}, draw {len(best.discard)} "
                           f"(expected percentile {best.score:.3f})")  # fmt: skip
                continue
            try:
                thrown = parse_discard(answer, deal.hand)
                showdown = session.draw(thrown)
            except PokerlabError as exc:
                click.echo(f"  {exc}; {_HELP}")
                continue
            break
        _show(showdown, name)
        s = session.score
        click.echo(f"  score: {s.wins} won, {s.ties} tied, {s.losses} lost")
    _final(session)


def _final(session: DrawSession) -> None:
    s = session.score
    click.echo(
        f"final score after {counted(s.hands, 'deal')}: {s.wins} won, {s.ties} tied, "
        f"{s.losses} lost"
    )
