"""`pbem demo`: play a whole campaign with seeded random legal orders and show the result."""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Any

from .console import console

HELP = "play a whole seeded campaign with random legal orders"


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", nargs="?", default="secrets")
    p.add_argument("dir", nargs="?")
    p.add_argument("--seed", default="demo")
    p.add_argument("--players", type=int, help="how many players (default: 4, or the game's limit)")
    p.add_argument("--no-passwords", action="store_true", help="play without passwords (byte-reproducible folder)")
    p.add_argument("--standins", action="store_true", help="every seat played by the game's stand-in instead of random legal orders")


def run(args: argparse.Namespace) -> int:
    return run_demo(
        args.game, Path(args.dir) if args.dir else None, seed=args.seed, players=args.players, passwords=not args.no_passwords,
        console=console(), standins=args.standins,
    )


def run_demo(
    game_id: str, root: Path | None, *, seed: str, players: int | None, passwords: bool, console: Any, standins: bool = False
) -> int:
    from rich.markup import escape
    from rich.table import Table

    from ..campaign.audit import audit
    from ..campaign.demo import play
    from ..campaign.show import show_json

    root = root or Path(tempfile.mkdtemp(prefix=f"pbem-demo-{game_id}-")) / "campaign"
    with console.status(escape(f"Playing a {game_id} campaign in {root} ...")):
        campaign = play(root, game_id, seed, players, passwords, standins)
        result = audit(root)
    data = show_json(root, None)
    names = campaign.state()["names"]
    table = Table(title=f"{campaign.game.title}: final standings after turn {data['turn']}")
    fields = sorted({k for row in data["players"].values() for k in row})
    table.add_column("player")
    for name in fields:
        table.add_column(name)
    for player, row in data["players"].items():
        marker = " (winner)" if player in data["winners"] else ""
        table.add_row(escape(names.get(player, player)) + marker, *(escape(_cell(row[k])) for k in fields))
    console.print(table)
    console.print(f"Campaign folder: {root}", markup=False)
    console.print(f"Public report of the last turn: {campaign.turn_dir(data['turn']) / 'reports'}", markup=False)
    console.print("Seed revealed; audit: " + ("clean, every turn replays byte for byte" if result.divergence is None else result.divergence), markup=False)
    return 0 if result.divergence is None else 1


def _cell(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "-"
    return str(value)
