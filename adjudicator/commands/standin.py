"""`pbem standin`: the GM hands a seat to the game's stand-in, or takes it back."""

from __future__ import annotations

import argparse
from pathlib import Path

from .console import console

HELP = "let the game's stand-in play a seat from the pending turn on (on), or stop it (off)"


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dir", help="the campaign folder (the one pbem new made)")
    p.add_argument("seat", help="the seat's player id")
    p.add_argument("switch", choices=("on", "off"), help="on: the stand-in plays the seat from the pending turn; off: the seat waits for its player again")


def run(args: argparse.Namespace) -> int:
    from ..campaign.standins import ABANDONED, abandon_after, set_word
    from ..judge.letters import announce_standin_off

    on = args.switch == "on"
    campaign, turn, before = set_word(Path(args.dir), args.seat, on)
    out = console()
    if on:
        out.print(f"Seat {args.seat}: the stand-in plays it from turn {turn} whenever no orders of the seat's own are filed.", markup=False)
        return 0
    after = abandon_after(campaign)
    again = " again" if before is not None and before.reason == ABANDONED else ""
    abandoned = (f"; after {after} {'turn' if after == 1 else 'turns'} without valid orders in a row, counted from turn {turn}, "
                 f"it counts as abandoned{again}") if after else ""
    was = f"it played the seat, {before.why}" if before is not None else "none was playing it"
    out.print(f"Seat {args.seat}: no stand-in from turn {turn} on ({was}); a silent seat gets the game's NMR default{abandoned}.", markup=False)
    if announce_standin_off(Path(args.dir), args.seat, turn, before):
        out.print(f"{args.seat} is told that the seat is theirs again (pbem run or pbem mail --send delivers it).", markup=False)
    return 0
