"""`pbem rollback`: take back a turn that is not released yet (design 16)."""

from __future__ import annotations

import argparse
from pathlib import Path

from .console import console

HELP = "take back the last turn while it is unreleased: kept under gm/rolled-back/, its orders pending again"


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dir", help="the campaign folder")


def run(args: argparse.Namespace) -> int:
    from ..campaign.folder import Campaign
    from ..campaign.rollback import rollback
    from ..common import atomic
    from ..judge import quiet

    root = Path(args.dir)
    Campaign.open(root)
    with atomic.locked(root):
        done = rollback(root)
        quiet.forget(root)
    out = console()
    out.print(f"Turn {done.turn} is rolled back: kept as {done.keep}; it is pending again.", markup=False)
    restored = [name for name in done.restored if name.startswith("orders/")]
    out.print(f"Orders pending again: {', '.join(n.removeprefix('orders/') for n in restored) if restored else 'none'}"
              " (the stand-in's files are not kept: it plays again when the turn is adjudicated).", markup=False)
    return 0
