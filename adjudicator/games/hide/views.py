"""What each player may know, and the `pbem show --json` fields."""

from __future__ import annotations

import copy
from typing import Any

from ..base import State, View
from .components import BUILDINGS, die_words
from .rounds import score

_PUBLIC = ("players", "names", "round", "stage", "mission_turn", "start", "ranks", "rank_supply", "buildings",
           "security", "security_die", "gadgets", "gadget_used", "screens", "pool", "out", "revealed", "legend",
           "winners", "assassination", "reroll_leftovers", "rank_value", "intel_values", "dice_per_colour")


def view(state: State, player: str | None) -> View:
    """Public: everything on the table. Private adds the player's identity die and face-down stack."""
    public = {key: copy.deepcopy(state[key]) for key in _PUBLIC}
    public["over"] = state["stage"] == "over"
    public["building_order"] = list(BUILDINGS)  # state.json sorts keys: templates walk the board from the left
    public["pouch_count"] = len(state["pouch"])
    public["deck_count"] = len(state["deck"])
    public["stack_cards"] = {p: len(s["intel"]) + s["ranks"] for p, s in state["stacks"].items()}
    public["player"] = player
    public["identity"] = copy.deepcopy(state["identity"][player]) if player else None
    public["stack"] = copy.deepcopy(state["stacks"][player]) if player else None
    public["score"] = score(state, player) if player else None
    # Once the game is over every stack is turned up and counted (HIDE-25).
    public["stacks"] = copy.deepcopy(state["stacks"]) if public["over"] else None
    public["scores"] = {p: score(state, p) for p in state["players"]} if public["over"] else None
    return public


def player_fields(v: View) -> dict[str, dict[str, Any]]:
    fields = {}
    for p in v["players"]:
        known = v["revealed"].get(p) or (v["identity"] if p == v["player"] else None)
        fields[p] = {
            "rank": v["ranks"][p],
            "stack_cards": v["stack_cards"][p],
            "score": v["scores"][p] if v["scores"] else (v["score"] if p == v["player"] else None),
            "gadget": v["gadgets"].get(p),
            "gadget_used": p in v["gadget_used"],
            "out": p in v["out"],
            "top": [die_words(d) for d in v["screens"][p]["top"]],
            "front": [die_words(d) for d in v["screens"][p]["front"]],
            "identity": die_words(known) if known and known.get("icon") else (known["colour"] if known else None),
        }
    return fields
