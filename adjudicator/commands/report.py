"""`pbem report`: print a rendered report."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .console import Failure

HELP = "print a rendered report"


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dir", help="the campaign folder (the one pbem new made)")
    p.add_argument("--turn", type=int, help="an adjudicated turn (default: the last; 0 is the opening)")
    p.add_argument("--player", help="a player id (default: the public report)")
    p.add_argument("--view", action="store_true",
                   help="print the player's view file instead (for pbem check FILE --view VIEWFILE; docs/orders.md)")


_READABLE = {".txt": 0, ".md": 1, ".html": 2}
"""The forms `pbem report` prefers, in order: the plain-text and Markdown reports before
the BBCode copy, which holds the same text for forums."""


def run(args: argparse.Namespace) -> int:
    from ..campaign.folder import Campaign

    campaign = Campaign.open(Path(args.dir))
    turn = campaign.last_turn if args.turn is None else args.turn
    if not campaign.is_adjudicated(turn):
        raise Failure(f"turn {turn} of {campaign.root} has not been adjudicated")
    if args.view:
        from ..campaign.viewfile import for_report

        if args.player is None or campaign.player(args.player) is None:
            raise Failure("--view needs --player P, a player of the campaign: a view file is one player's")
        data = for_report(campaign, turn, args.player)
        if data is None:
            raise Failure(f"the game is over after turn {turn}: no orders are due, so there is no view file")
        sys.stdout.write(data.decode("utf-8"))
        return 0
    reports = campaign.turn_dir(turn) / "reports"
    stem = args.player or "public"
    found = sorted((p for p in reports.iterdir() if p.stem == stem), key=lambda p: (_READABLE.get(p.suffix, len(_READABLE)), p.name))
    if not found:
        raise Failure(f"no report '{stem}' for turn {turn} in {reports}")
    sys.stdout.write(found[0].read_text(encoding="utf-8"))
    return 0
