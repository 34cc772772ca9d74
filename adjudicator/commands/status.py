"""`pbem status`: turn, phase, who is due, who has sent valid orders."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .console import Failure, console, literal, plural

HELP = "turn, phase, who is due, who has sent valid orders"


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dir", help="the campaign folder (the one pbem new made)")


def run(args: argparse.Namespace) -> int:
    from rich.table import Table

    from ..campaign import standins
    from ..campaign.adjudicate import read_orders_folder
    from ..campaign.folder import Campaign
    from ..campaign.pipeline import Roster
    from ..campaign.turn import check_pending, pending_state, sort_order_files

    campaign = Campaign.open(Path(args.dir))  # read-only: only a locked command may repair a crashed turn
    game, last = campaign.game, campaign.last_turn
    state = pending_state(campaign)
    out = console()
    if game.is_over(state):
        winners = ", ".join(state.get("names", {}).get(p, p) for p in game.winners(state))
        out.print(f"{campaign.config['name']} ({game.title}): over after turn {last}; winners: {winners}", markup=False)
        return 0
    pending = last + 1
    out.print(f"{campaign.config['name']} ({game.title}): turn {pending}, phase {game.phase(state)}", markup=False)
    received, skipped = read_orders_folder(campaign.turn_dir(pending) / "orders")
    checked = check_pending(campaign, campaign.state(last), pending, received)
    covered = standins.due(campaign, last, campaign.state(last))  # the turn never waits for these seats
    names = state.get("names", {})
    table = Table("player", "orders", "detail")
    waiting = []
    for player, sub in checked.items():
        who = literal(f"{player} ({names[player]})" if names.get(player, player) != player else player)
        if sub.status == "missing" and player in covered:
            table.add_row(who, "[cyan]stand-in[/]", "the stand-in writes this seat's orders when the turn is adjudicated")
        elif sub.status == "missing":
            waiting.append(player)
            table.add_row(who, "[red]missing[/]", "")
        elif sub.nmr:  # a rejected file is not sent: the turn waits for it as for a missing one
            waiting.append(f"{player} (file rejected)")
            table.add_row(who, "[red]rejected[/]", literal(f"{sub.source}: " + "; ".join(f"{p.where}: {p.what}" for p in sub.problems)))
        else:
            void = len(sub.void)
            table.add_row(who, "[green]valid[/]", plural(len(sub.readings), "order") + (f", {void} void" if void else ""))
    out.print(table)
    played = [player for player, sub in checked.items() if sub.status == "missing" and player in covered]
    done = "Every due player has sent a valid file" + (f"; the stand-in plays {', '.join(played)}." if played else ".")
    out.print(f"Still waiting for: {', '.join(waiting)}" if waiting else done, markup=False)
    ignored = sort_order_files(received, Roster.of(game, state))[1]
    ignored.update((name, "not a regular file") for name in skipped)
    for name, why in sorted(ignored.items()):
        out.print(f"[yellow]Will not be read:[/] orders/{literal(name)} ({literal(why)})")
    _print_deadline(out, campaign, pending)
    _print_absences(out, campaign, state.get("names", {}))
    return 0


def _print_deadline(out: Any, campaign: Any, pending: int) -> None:
    """The one line of `status` that reads the clock: it writes nothing."""

    from ..campaign.schedule import ScheduleError, of_campaign, time_left
    from ..common import clock

    try:
        due = of_campaign(campaign, pending)
    except ScheduleError as exc:
        raise Failure(f"{campaign.root}/campaign.yaml: {exc}") from None
    if due is None:
        out.print("Deadline: none in the schedule (campaign.yaml schedule:)")
        return
    left = time_left(due, clock.now())
    colour = "red" if left.startswith("passed") else "green"
    out.print(f"Deadline for turn {pending}: {literal(due.text)} ([{colour}]{left}[/])")


def _print_absences(out: Any, campaign: Any, names: dict[str, str]) -> None:
    """The absences the GM granted (`pbem absence`) that have not ended yet: what the players' own
    `status` by mail lists too."""
    from ..common import clock
    from ..mail.absences import granted

    today = clock.now().date()
    for absence in granted(campaign.root):
        if absence.end >= today:
            out.print(f"Absence granted: {literal(names.get(absence.seat, absence.seat))} ({absence.seat}), {absence.text}")

