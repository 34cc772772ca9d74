"""`pbem notify`: post a turn's public report to `judge: notify:` by hand (design 18), e.g. once the judge gave up."""

from __future__ import annotations

import argparse
from pathlib import Path

from .console import console

HELP = "post a turn's public report to the judge: notify: URLs where it is not posted yet (default: the posts that failed or were cut short)"


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dir", help="the campaign folder")
    p.add_argument("--turn", type=int, metavar="N", help="the turn to post (default: every turn whose post failed, was given up or was cut short)")
    p.add_argument("--now", metavar="TIME", help="the moment recorded for the post (default: the clock)")


def run(args: argparse.Namespace) -> int:
    from ..campaign.folder import Campaign
    from ..campaign.schedule import moment
    from ..common import atomic, clock
    from ..judge import notify
    from ..judge.run import JUDGE_LOCK

    root = Path(args.dir)
    now = moment(args.now) if args.now else clock.now()
    Campaign.open(root)
    with atomic.locked(root, JUDGE_LOCK, "another pbem run"):  # a tick's own post of the same turn never runs beside this one
        lines = notify.post_by_hand(root, args.turn, now)
    out = console()
    for line, _ in lines:
        out.print(line, markup=False)
    return 1 if any(failed for _, failed in lines) else 0
