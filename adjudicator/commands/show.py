"""`pbem show`: the public view, or one player's view."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from .console import console, literal

HELP = "the public view, or one player's view"


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dir")
    p.add_argument("--json", action="store_true")
    p.add_argument("--player")



def run(args: argparse.Namespace) -> int:
    from ..campaign.show import show_json

    data = show_json(Path(args.dir), args.player)
    if args.json:
        print(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))
        return 0
    from rich.table import Table

    out = console()
    out.print(f"{data['game']}: turn {data['turn']}, phase {data['phase']}" + (" (over)" if data["over"] else ""), markup=False)
    fields = sorted({k for row in data["players"].values() for k in row})
    table = Table("player", *fields)
    for player, row in data["players"].items():
        table.add_row(player, *(literal(row.get(k, "")) for k in fields))
    out.print(table)
    if data["over"]:
        out.print(f"Winners: {', '.join(data['winners'])}", markup=False)
    return 0
