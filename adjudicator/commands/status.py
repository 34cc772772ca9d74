"""`pbem status`: turn, phase, who is due, who has sent valid orders."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .console import Failure, console, literal

HELP = "turn, phase, who is due, who has sent valid orders"


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dir")


def run(args: argparse.Namespace) -> int:
    from rich.table import Table

    from ..campaign.adjudicate import read_orders_folder
    from ..campaign.folder import Campaign
    from ..campaign.turn import load_submission, pending_state

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
    received, _ = read_orders_folder(campaign.turn_dir(pending) / "orders")
    table = Table("player", "orders", "detail")
    waiting = []
    for player in game.due(state):
        name = next((n for n in (f"{player}.yaml", f"{player}.yml") if n in received), None)
        if name is None:
            waiting.append(player)
            table.add_row(player, "[red]missing[/]", "")  # ids are letters, digits, - and _: no markup
            continue
        sub = load_submission(campaign, state, pending, player, received[name], f"orders/{name}")
        if sub.nmr:
            table.add_row(player, "[red]rejected[/]", literal("; ".join(f"{p.where}: {p.what}" for p in sub.problems)))
        else:
            void = len(sub.void)
            table.add_row(player, "[green]valid[/]", f"{len(sub.readings)} orders" + (f", {void} void" if void else ""))
    out.print(table)
    out.print(f"Still missing: {', '.join(waiting)}" if waiting else "Every due player has sent a file.")
    _print_deadline(out, campaign, pending)
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
