"""What a player of Hide the Kids! may know, and the `pbem show --json` fields."""

from __future__ import annotations

import copy
from typing import Any

from ..base import State, View
from .rules import FURNITURE, WHERE, is_over, winners


def view(state: State, player: str | None) -> View:
    public = {
        key: copy.deepcopy(state[key])
        for key in ("players", "names", "turn", "wolf", "kids", "kid_tokens", "pebbles", "history", "outcome")
    }
    public["furniture"] = list(FURNITURE)
    public["where"] = dict(WHERE)
    public["over"] = is_over(state)
    public["winners"] = winners(state)
    public["player"] = player
    public["role"] = None if player is None else ("wolf" if player == state["wolf"] else "kid")
    public["hiding_record"] = _hiding_record(state)
    # Only at a wolf's win can something stay unrevealed: a kid's place that nobody
    # lifted, the wolf's second lift never made (HIDEKIDS-6). Each sees only their own.
    public["kept_secret"] = state["kept_secret"].get(player) if player else None
    return public


def player_fields(view: View) -> dict[str, dict[str, Any]]:
    return {
        p: {
            "role": "wolf" if p == view["wolf"] else "kid",
            "kid_tokens": view["kid_tokens"] if p == view["wolf"] else 0,
            "pebbles": view["pebbles"].get(p, 0),
        }
        for p in view["players"]
    }

# -- reading orders ---------------------------------------------------


def _hiding_record(state: State) -> dict[str, list[str]]:
    """Per kid, where they were seen each turn: a piece, 'not hidden', or 'unseen' (never revealed)."""
    record: dict[str, list[str]] = {kid: [] for kid in state["kids"]}
    for turn in state["history"]:
        seen = {kid: "not hidden" for kid in turn["not_hidden"]}
        seen.update({kid: lift["furniture"] for lift in turn["lifts"] for kid in lift["found"]})
        seen.update({escape["kid"]: escape["furniture"] for escape in turn["escaped"]})
        for kid in state["kids"]:
            record[kid].append(seen.get(kid, "unseen"))
    return record
