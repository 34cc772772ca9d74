"""`pbem release`: let a previewed turn go to the players (design 16)."""

from __future__ import annotations

import argparse
from pathlib import Path

from .console import Failure, console

HELP = "release the turn the judge holds for the GM's preview (judge: preview: true): the next pbem run mails its reports"


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dir", help="the campaign folder")
    p.add_argument("--now", metavar="TIME",
                   help="the moment of the release (default: the clock); the next turn's deadline moves by the time the turn was held")


def run(args: argparse.Namespace) -> int:
    from ..campaign.folder import Campaign
    from ..campaign.rollback import release
    from ..campaign.schedule import ScheduleError, moment
    from ..common import atomic, clock
    from ..judge import quiet

    root = Path(args.dir)
    now = moment(args.now) if args.now else clock.now()
    Campaign.open(root)  # a folder that is no campaign is named before a lock file is made in it
    with atomic.locked(root):
        quiet.forget(root)  # first: the next tick looks at the campaign again, and finishes a release a kill cut
        try:
            released = release(root, now)
        except ScheduleError as exc:
            raise Failure(f"{root}/campaign.yaml: {exc}") from None
    out = console()
    out.print(f"Turn {released.turn} is released: the next pbem run mails its reports to the players. It can no longer be rolled back.", markup=False)
    if released.moved is not None:
        moved = released.moved
        out.print(f"Turn {moved.turn}'s deadline moves by the time turn {released.turn} was held: from {moved.before} to {moved.text}; "
                  "the players are told with the reports.", markup=False)
    return 0
