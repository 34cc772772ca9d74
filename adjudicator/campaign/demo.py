"""`pbem demo`: a whole campaign played by seeded random players, through the real files and commands."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .. import games
from ..common.atomic import write_file
from ..common.rng import Rng
from ..games.base import standin_view
from .adjudicate import adjudicate
from .create import create
from .folder import Campaign, CampaignError, dump_yaml, read_yaml
from .reveal import reveal

DEMO_NAMES = ["alice", "bruno", "chiara", "dmitri", "esther", "farid", "greta", "hiro"]


def write_demo_orders(campaign: Campaign, passwords: dict[str, str], purpose: str = "demo", standins: bool = False) -> None:
    """Each due player writes an order file for the pending turn, as a player would: random legal
    orders, or with `standins` the game's stand-in's (purpose `standin`, docs/standins.md).

    The choices come from the campaign's stream under `purpose/<player>`."""
    game = campaign.game
    write = game.standin_orders if standins else game.demo_orders
    purpose = "standin" if standins else purpose
    last = campaign.last_turn
    state = campaign.state(last)
    rng = Rng(campaign.seed() or "", last + 1)
    folder = campaign.turn_dir(last + 1) / "orders"
    folder.mkdir(parents=True, exist_ok=True)
    due = game.due(state)
    for player in due:
        view = standin_view(game, state, player, due) if standins else game.view(state, player)
        orders = write(view, player, rng.stream(f"{purpose}/{player}"))
        document: dict[str, Any] = {"player": player, "turn": last + 1}
        if player in passwords:
            document["password"] = passwords[player]
        document["orders"] = orders
        write_file(folder / f"{player}.yaml", dump_yaml(document))


DEMO_TURN_LIMIT = 500
"""Far more turns than the demo of any registered game takes: a game whose end never comes fails."""


def play(
    root: Path, game_id: str, seed: str, players: int | None, passwords: bool = True, ids: Sequence[str] = DEMO_NAMES, standins: bool = False,
    names: Sequence[str] = (),
) -> Campaign:
    """Play a whole campaign; `ids` are the seats' ids (the first `players` of them), `names` their display
    names in the same order (by default each id capitalised); with `standins`, every seat is played by
    the game's stand-in instead of a random legal player."""
    game = games.get(game_id)
    count = players or min(max(game.min_players, 4), game.max_players)
    campaign = create(
        root,
        game_id,
        [{"id": seat, "name": names[i] if i < len(names) else seat.capitalize()} for i, seat in enumerate(ids[:count])],
        seed=seed,
        name=f"demo-{game_id}",
        passwords=passwords,
    )
    secret = root / "gm" / "passwords.yaml"
    known = {str(k): str(v) for k, v in read_yaml(secret).items()} if passwords else {}
    while not campaign.over:
        if campaign.last_turn >= DEMO_TURN_LIMIT:  # a game whose end never comes must fail, not fill the disk
            raise CampaignError(f"the {game_id} demo has not ended after {DEMO_TURN_LIMIT} turns: the game's is_over never became true")
        write_demo_orders(campaign, known, standins=standins)
        adjudicate(root)
    reveal(root)
    return campaign
