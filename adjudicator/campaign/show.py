"""The JSON of `pbem show --json` (design 8's contract; docs/json-output.md): the public view or one player's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .folder import Campaign, CampaignError


def show_json(root: Path, player: str | None) -> dict[str, Any]:
    campaign = Campaign.open(root)
    game, last = campaign.game, campaign.last_turn
    state = campaign.state(last)
    if player is not None and player not in state["players"]:
        raise CampaignError(f"no player '{player}' in {root}; players: {', '.join(state['players'])}")
    over = game.is_over(state)
    view = game.view(state, player)
    return {
        "game": game.id,
        "turn": last if over else last + 1,
        "phase": game.phase(state),
        "due": [] if over else game.due(state),
        "over": over,
        "winners": game.winners(state),
        "players": game.player_fields(view),
    }
