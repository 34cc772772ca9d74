"""`pbem audit`: replay every turn and compare byte for byte."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..common.words import plural

HELP = "replay every turn and compare byte for byte"


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dir", help="the campaign folder (the one pbem new made)")
    p.add_argument("--json", action="store_true", help="print the result for scripts (docs/json-output.md)")


def run(args: argparse.Namespace) -> int:
    from ..campaign.audit import audit

    result = audit(Path(args.dir))
    if args.json:
        print(json.dumps(result.to_json(), sort_keys=True, indent=2, ensure_ascii=False))
        return 1 if result.divergence else 0
    if result.divergence:
        print(f"AUDIT FAILED at turn {result.turns}: {result.divergence}")
        return 1
    if result.note:
        print(f"Audit clean: the opening and {plural(result.turns, 'turn')} replay; {result.note}.")
    else:
        print(f"Audit clean: the opening and {plural(result.turns, 'turn')} replay byte for byte.")
    for order in result.read_differently:
        print(result.said(order))
    return 0
