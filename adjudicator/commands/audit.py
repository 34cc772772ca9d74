"""`pbem audit`: replay every turn and compare byte for byte."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..common.words import plural

HELP = "replay every turn and compare byte for byte"


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dir", help="the campaign folder (the one pbem new made)")


def run(args: argparse.Namespace) -> int:
    from ..campaign.audit import audit

    result = audit(Path(args.dir))
    if result.divergence:
        print(f"AUDIT FAILED at turn {result.turns}: {result.divergence}")
        return 1
    if result.note:
        print(f"Audit clean: the opening and {plural(result.turns, 'turn')} replay; {result.note}.")
    else:
        print(f"Audit clean: the opening and {plural(result.turns, 'turn')} replay byte for byte.")
    return 0
