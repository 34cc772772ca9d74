"""`pbem demo`: play a whole campaign with seeded random legal orders and show the result."""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Any

from .console import console, game_list
from .tables import standings

HELP = "play a whole seeded campaign with random legal orders"


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", nargs="?", default="secrets", help=f"the game to play: {game_list()} (default: secrets)")
    p.add_argument("dir", nargs="?", help="where to make the campaign (default: a new temporary folder)")
    p.add_argument("--seed", default="demo", help="the campaign's seed: another seed, another game (default: demo)")
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

    from ..campaign.audit import audit
    from ..campaign.demo import play
    from ..campaign.show import show_json

    root = root or Path(tempfile.mkdtemp(prefix=f"pbem-demo-{game_id}-")) / "campaign"
    with console.status(escape(f"Playing a {game_id} campaign in {root} ...")):
        campaign = play(root, game_id, seed, players, passwords, standins=standins)
        result = audit(root)
    data = show_json(root, None)
    names = campaign.state()["names"]
    console.print(standings(campaign.game, data, names, f"{campaign.game.title}: final standings after turn {data['turn']}", console.width))
    public = campaign.turn_dir(data["turn"]) / "reports" / "public.md"
    console.print(f"Campaign folder: {root}", markup=False)
    console.print(f"Public report of the last turn: {public}", markup=False)
    console.print("Seed revealed; audit: " + ("clean, every turn replays byte for byte" if result.divergence is None else result.divergence), markup=False)
    first = next(iter(names))
    console.print(
        f"Try next: pbem report {root} --player {first} (a private report), pbem show {root} --player {first}, "
        f"pbem audit {root}; or start your own: pbem new DIR --game {game_id} --players a,b,c", markup=False)
    return 0 if result.divergence is None else 1
