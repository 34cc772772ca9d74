"""`pbem replace`: hand a seat to a new player from the pending turn on."""

from __future__ import annotations

import argparse
from pathlib import Path

from .console import console

HELP = "hand a seat to a new player from the pending turn on"


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dir", help="the campaign folder (the one pbem new made)")
    p.add_argument("seat", help="the seat's player id; it stays the same")
    p.add_argument("--name", required=True, help="the new player's display name")
    p.add_argument("--email", help="the new player's address")


def run(args: argparse.Namespace) -> int:
    from rich.markup import escape

    from ..judge.replace import replace

    done = replace(Path(args.dir), args.seat, args.name, args.email)
    out = console()
    before = done.outgoing.get("name", args.seat)
    out.print(f"Seat {done.seat}: {escape(str(before))} hands over to {escape(args.name)} from turn {done.turn}.")
    if done.password_file is not None:
        out.print(f"The new player's password is in {done.password_file}: send it to them (the old one no longer works).", markup=False)
    for path in done.moved:
        out.print(f"[yellow]The outgoing player's orders for turn {done.turn} were moved to {escape(path)}.[/]")
    for name in done.dropped:
        out.print(f"Unsent mail for the outgoing player removed from the outbox: {escape(name)}")
    if done.told:
        out.print(f"A message telling {escape(str(before))} is in the outbox ({escape(done.told)}): pbem mail {escape(args.dir)} --send sends it.")
    last = done.turn - 1
    out.print(f"Send them the latest report: pbem mail {args.dir} --turn {last} --player {done.seat} builds it for the new "
              "address, with a first paragraph that says the seat changed hands (add --send --smtp HOST:PORT to send it).", markup=False)
    return 0
