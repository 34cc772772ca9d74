"""`pbem show`: the public view, or one player's view."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from .console import console, literal

HELP = "the public view, or one player's view"


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dir", help="the campaign folder (the one pbem new made)")
    p.add_argument("--json", action="store_true", help="print JSON for scripts (docs/json-output.md) instead of tables")
    p.add_argument("--player", help="one player's view instead of the public one")



def run(args: argparse.Namespace) -> int:
    from ..campaign.show import show_json

    data = show_json(Path(args.dir), args.player)
    if args.json:
        print(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))
        return 0
    from ..campaign.folder import Campaign
    from .tables import standings

    campaign = Campaign.open(Path(args.dir))
    names = campaign.state()["names"]
    whose = f"{names.get(args.player, args.player)}'s view" if args.player else "public view"
    state = "over after turn" if data["over"] else "turn"
    title = f"{campaign.config['name']} ({campaign.game.title}): {state} {data['turn']}, {whose}"
    out = console()
    out.print(standings(campaign.game, data, names, title, out.width))
    if data["over"]:
        out.print(f"Winners: {literal(', '.join(names.get(p, p) for p in data['winners']))}")
    elif data["due"]:
        out.print(f"Phase {literal(data['phase'])}; orders due from: {literal(', '.join(names.get(p, p) for p in data['due']))}")
    return 0
