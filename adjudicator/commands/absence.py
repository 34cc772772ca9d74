"""`pbem absence`: list the absences granted, or grant one a player asked for by mail."""

from __future__ import annotations

import argparse
from pathlib import Path

from .console import Failure, console

HELP = "list the granted absences, or grant one (players ask by mail: absence FROM TO)"


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dir", help="the campaign folder (the one pbem new made)")
    p.add_argument("seat", nargs="?", help="the seat's player id (with --grant)")
    p.add_argument("--grant", nargs=2, metavar=("FROM", "TO"), help="the first and last day away, e.g. 2026-12-24 2027-01-02")


def run(args: argparse.Namespace) -> int:
    from ..campaign.folder import Campaign
    from ..common import atomic
    from ..campaign import absences
    from ..judge import quiet

    root = Path(args.dir)
    Campaign.open(root)
    out = console()
    if args.grant:
        if not args.seat:
            raise Failure("absence --grant needs the seat: pbem absence DIR SEAT --grant FROM TO")
        with atomic.locked(root):
            added = absences.grant(Campaign.open(root), args.seat, *args.grant)
            quiet.forget(root)  # gm/absences.yaml is no stamp of the quiet check: the next tick looks (judge: absences: auto)
        out.print(f"Granted: {added.seat}, {added.text} (gm/absences.yaml; listed in every status reply).", markup=False)
        out.print(f"To move the deadline as well: pbem deadline {args.dir} --extend DURATION", markup=False)
        return 0
    if args.seat:
        raise Failure("give --grant FROM TO to grant an absence, or no seat to list them")
    granted = absences.granted(root)
    for absence in granted:
        out.print(f"  {absence.seat}: {absence.text}", markup=False)
    out.print(f"{len(granted)} {'absence' if len(granted) == 1 else 'absences'} granted." if granted else "No absences granted.", markup=False)
    rules = absences.auto(Campaign.open(root))
    if rules is not None:  # judge: absences: auto: each seat's budget, as the judge reckons it when it decides
        out.print(f"Absence budget (judge: absence_budget: {absences.words(rules.budget)} per player for the game):", markup=False)
        for seat in sorted({a.seat for a in granted}):
            spent, left = absences.words(absences.used(granted, seat)), absences.words(absences.left(rules, granted, seat))
            out.print(f"  {seat}: {spent} used, {left} left", markup=False)
        if not granted:
            out.print("  every player: none used", markup=False)
    return 0
