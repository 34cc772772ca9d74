"""`pbem start`: deal a sign-up campaign's opening now (design 16)."""

from __future__ import annotations

import argparse
from pathlib import Path

from .console import Failure, console, literal

HELP = "start a sign-up campaign: deal the opening from the committed seed"


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dir", help="the campaign folder (made by pbem new --open N)")
    p.add_argument("--now", metavar="TIME", help="the moment of the start (default: the clock); a schedule: start: DURATION counts from it")


def run(args: argparse.Namespace) -> int:
    from ..campaign import signup
    from ..campaign.schedule import moment
    from ..common import atomic, clock

    now = moment(args.now) if args.now else clock.now()
    with atomic.locked(Path(args.dir)):
        try:
            started = signup.start(Path(args.dir), now)
        except signup.SignupError as exc:
            raise Failure(str(exc)) from None
    out = console()
    campaign = started.campaign
    out.print(f"Started {literal(campaign.config['name'])} ({campaign.game.title}) with {len(started.players)} players: {literal(', '.join(started.players))}")
    out.print(f"Opening reports: {campaign.turn_dir(0) / 'reports'}", markup=False)
    out.print(f"Turn 1 deadline: {started.deadline}" if started.deadline else "Turn 1 has no deadline: it is adjudicated when every player has sent orders.", markup=False)
    out.print("The next pbem run welcomes each player with their opening report" + (" and their password." if campaign.uses_passwords else "."), markup=False)
    return 0
