"""`pbem demo`: a whole campaign played by seeded random players, through the real files and commands."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from . import games
from .adjudicate import adjudicate
from .atomic import write_file
from .audit import audit
from .campaign import Campaign, CampaignError, dump_yaml, read_yaml
from .new import create
from .reveal import reveal
from .rng import Rng

DEMO_NAMES = ["alice", "bruno", "chiara", "dmitri", "esther", "farid", "greta", "hiro"]


def write_demo_orders(campaign: Campaign, passwords: dict[str, str], purpose: str = "demo") -> None:
    """Each due player writes an order file for the pending turn, as a player would.

    The random choices come from the campaign's stream under `purpose/<player>`."""
    game = campaign.game
    last = campaign.last_turn
    state = campaign.state(last)
    rng = Rng(campaign.seed() or "", last + 1)
    folder = campaign.turn_dir(last + 1) / "orders"
    folder.mkdir(parents=True, exist_ok=True)
    for player in game.due(state):
        orders = game.demo_orders(game.view(state, player), player, rng.stream(f"{purpose}/{player}"))
        document: dict[str, Any] = {"player": player, "turn": last + 1}
        if player in passwords:
            document["password"] = passwords[player]
        document["orders"] = orders
        write_file(folder / f"{player}.yaml", dump_yaml(document))


DEMO_TURN_LIMIT = 500
"""Far more turns than the demo of any registered game takes: a game whose end never comes fails."""


def play(root: Path, game_id: str, seed: str, players: int | None, passwords: bool = True) -> Campaign:
    game = games.get(game_id)
    count = players or min(max(game.min_players, 4), game.max_players)
    campaign = create(
        root,
        game_id,
        [{"id": name, "name": name.capitalize()} for name in DEMO_NAMES[:count]],
        seed=seed,
        name=f"demo-{game_id}",
        passwords=passwords,
    )
    secret = root / "gm" / "passwords.yaml"
    known = {str(k): str(v) for k, v in read_yaml(secret).items()} if passwords else {}
    while not campaign.over:
        if campaign.last_turn >= DEMO_TURN_LIMIT:  # a game whose end never comes must fail, not fill the disk
            raise CampaignError(f"the {game_id} demo has not ended after {DEMO_TURN_LIMIT} turns: the game's is_over never became true")
        write_demo_orders(campaign, known)
        adjudicate(root)
    reveal(root)
    return campaign


def run_demo(
    game_id: str, root: Path | None, *, seed: str, players: int | None, passwords: bool, console: Any
) -> int:
    from rich.markup import escape
    from rich.table import Table

    from .cli import show_json

    root = root or Path(tempfile.mkdtemp(prefix=f"pbem-demo-{game_id}-")) / "campaign"
    with console.status(escape(f"Playing a {game_id} campaign in {root} ...")):
        campaign = play(root, game_id, seed, players, passwords)
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
