"""`pbem adjudicate`: adjudicate the pending turn of each campaign named."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from .console import console, err, os_problem

HELP = "adjudicate the pending turn of each campaign named"


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dirs", nargs="+", metavar="DIR", help="campaign folders (the ones pbem new made); each is adjudicated on its own")
    p.add_argument("--nmr", action="store_true", help="the deadline has passed: missing players count as NMR")
    p.add_argument("--force", action="store_true", help="with --nmr: adjudicate even before the scheduled deadline")
    p.add_argument("--jobs", type=processes, default=1, metavar="N",
                   help="settle campaigns in N processes at once (0: one per CPU core); the output is the same")


def processes(text: str) -> int:
    """`--jobs N` (here and in `pbem run`): a count of processes, 0 for one per CPU core."""
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number of processes") from None
    if count < 0:
        raise argparse.ArgumentTypeError("the number of processes cannot be negative")
    if count == 0:
        count = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return count


def run(args: argparse.Namespace) -> int:
    from ..campaign.adjudicate import Outcome, adjudicate_many
    from ..common import clock

    out = console()
    now = clock.now()
    folders = [Path(d) for d in args.dirs]
    failed = 0
    if args.nmr and not args.force:
        early = {folder: reason for folder in folders if (reason := _before_deadline(folder, now))}
        for reason in early.values():
            err(reason)
        failed, folders = len(early), [folder for folder in folders if folder not in early]
    for folder, result in adjudicate_many(folders, nmr=args.nmr, jobs=args.jobs, now=now):
        if isinstance(result, Outcome):
            _report_outcome(out, result)
            continue
        failed += 1
        err(os_problem(result, str(folder)) if isinstance(result, OSError) else str(result))
    return 1 if failed else 0


def _before_deadline(folder: Path, now: Any) -> str | None:
    """Why `--nmr` must wait for this campaign (its pending turn's deadline is still ahead), or None.
    A campaign that cannot be read is left to adjudicate, which names what is wrong."""
    from ..campaign.folder import Campaign, CampaignError
    from ..campaign.schedule import of_campaign, time_left

    try:
        campaign = Campaign.open(folder)
        pending = campaign.last_turn + 1
        due = of_campaign(campaign, pending)
    except (CampaignError, OSError):
        return None
    if due is None or due.at <= now:
        return None
    return (
        f"{folder}: turn {pending}'s deadline is {due.text} ({time_left(due, now)}); --nmr now would count the "
        "players still missing as NMR before it. Wait for the deadline, or add --force to adjudicate now"
    )


def _report_outcome(out: Any, outcome: Any) -> None:
    """One line per player, problems in full: GM output is often a cron log, read with grep.
    A campaign's lines go to rich as one text: rich's cost is per call, not per line."""
    from rich.markup import escape

    from ..campaign.standins import newly_abandoned

    campaign, output = outcome.campaign, outcome.output
    lines = [f"[bold]{escape(campaign.config['name'])}[/]: turn {output.turn} adjudicated ({escape(str(campaign.root / f'turn-{output.turn:03d}'))})"]
    for player, sub in output.submissions.items():
        if player in output.standins:
            lines.append(f"  {player}: [cyan]orders written by the stand-in ({_why(output.standins[player])})[/]")
        if sub.status == "missing":
            lines.append(f"  {player}: [red]no orders: NMR[/]")
        elif sub.status == "rejected":
            lines.append(f"  {player}: [red]file rejected: NMR[/]")
            lines.extend(f"      {escape(sub.source)}::{escape(p.where)}: {escape(p.what)}" for p in sub.problems)
        else:
            void = sub.void
            placed = len(sub.orders)
            lines.append(f"  {player}: {placed} order{'' if placed == 1 else 's'} placed" + (f", [yellow]{len(void)} void[/]" if void else ""))
            lines.extend(f"      {escape(sub.source)}::orders[{r.index}] void: {escape(r.void or '')}" for r in void)
    lines.extend(f"  [yellow]ignored in orders/:[/] {escape(name)}" for name in output.stray)
    for seat in newly_abandoned(campaign, output.turn, output.state, output.standins):
        lines.append(f"  [yellow]{seat.seat}: abandoned after {seat.after} {'turn' if seat.after == 1 else 'turns'} without valid orders in a row: the stand-in plays "
                     f"the seat from turn {output.turn + 1} (pbem standin {escape(str(campaign.root))} {seat.seat} off stops it)[/]")
    if campaign.game.is_over(output.state):
        names = output.state.get("names", {})
        lines.append(f"The game is over. Winners: {escape(', '.join(names.get(p, p) for p in campaign.game.winners(output.state)))}")
    out.print("\n".join(lines))


def _why(played: dict[str, Any]) -> str:
    return f"abandoned seat, {played['after']} NMRs in a row" if played["reason"] == "abandoned" else "pbem standin on"
