"""`pbem release`: let a previewed turn go to the players (design 16)."""

from __future__ import annotations

import argparse
from pathlib import Path

from .console import console

HELP = "release the turn the judge holds for the GM's preview (judge: preview: true): the next pbem run mails its reports"


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dir", help="the campaign folder")


def run(args: argparse.Namespace) -> int:
    from ..campaign.folder import Campaign
    from ..campaign.rollback import release
    from ..common import atomic
    from ..judge import quiet

    root = Path(args.dir)
    Campaign.open(root)  # a folder that is no campaign is named before a lock file is made in it
    with atomic.locked(root):
        turn = release(root)
        quiet.forget(root)  # the next tick looks at the campaign again
    console().print(f"Turn {turn} is released: the next pbem run mails its reports to the players. It can no longer be rolled back.", markup=False)
    return 0
