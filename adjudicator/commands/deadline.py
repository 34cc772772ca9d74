"""`pbem deadline`: set or extend a turn's deadline without editing campaign.yaml by hand."""

from __future__ import annotations

import argparse
from pathlib import Path

from .console import console, literal

HELP = "set or extend the deadline of the pending turn (or of a later one)"


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dir", help="the campaign folder (the one pbem new made)")
    p.add_argument("--turn", type=int, help="the turn (default: the pending one)")
    change = p.add_mutually_exclusive_group(required=True)
    change.add_argument("--set", metavar="TIME", help="the new deadline, e.g. '2026-12-08 20:00' in the schedule's time zone")
    change.add_argument("--extend", metavar="DURATION", help="move the deadline later by e.g. '2 days' or '12 hours'")


def run(args: argparse.Namespace) -> int:
    from ..campaign.schedule import change_deadline

    from ..judge.letters import announce_deadline

    change = change_deadline(Path(args.dir), args.turn, at=args.set, extend=args.extend)
    out = console()
    out.print(f"Deadline for turn {change.turn}: {literal(change.text)}" + (f" (was {literal(change.before)})" if change.before else ""))
    told = announce_deadline(Path(args.dir), change.turn, change.text, change.before)
    if told:
        out.print(f"The players still due are told (pbem run or pbem mail --send delivers it): {literal(', '.join(told))}")
    return 0
