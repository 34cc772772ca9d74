"""What each player may know, and the `pbem show --json` fields built from it."""

from __future__ import annotations

import copy
from typing import Any

from ..base import State, View


def view(state: State, player: str | None) -> View:
    public_keys = (
        "players", "names", "roles", "track", "marker", "history", "over", "winner", "round", "phase",
        "trick", "leader", "ranking", "played", "piles", "exchange_count",
    )
    view = {key: copy.deepcopy(state[key]) for key in public_keys}
    view["player"] = player
    view["hand_counts"] = {p: len(state["hands"][p]) for p in state["players"]}
    view["set_aside_count"] = len(state["set_aside"])
    view["tricks_won"] = {p: len(state["piles"][p]) for p in state["players"]}
    greed = state["greed"]
    view["greed"] = None if greed is None else {
        "trick": greed["trick"],
        "count": greed["count"],
        "waiting": [p for p in state["players"] if p not in greed["chosen"]],
        # What a player chose in advance is theirs alone until the cards change hands.
        "mine": copy.deepcopy(greed["chosen"].get(player)) if player else None,
    }
    mine = player is not None
    view["hand"] = list(state["hands"][player]) if mine else None
    view["received"] = copy.deepcopy(state["received"][player]) if mine else None
    view["gave"] = copy.deepcopy(state["gave"][player]) if mine else None
    return view


def player_fields(view: View) -> dict[str, dict[str, Any]]:
    fields = {}
    for p in view["players"]:
        row: dict[str, Any] = {
            "role": view["roles"][p],
            "marker": view["marker"],
            "tricks": view["tricks_won"][p],
            "cards": view["hand_counts"][p],
            "leads": view["leader"] == p and not view["over"],
        }
        if p == view["player"]:
            row["hand"] = list(view["hand"])
        fields[p] = row
    return fields
