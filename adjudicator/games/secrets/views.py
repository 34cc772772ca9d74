"""What a player of Sid's Secrets may know, and the `pbem show --json` fields."""

from __future__ import annotations

from typing import Any

from ..base import State, View
from .rules import is_over, winners


def view(state: State, player: str | None) -> View:
    # The view shares the state's lists rather than copying them: nothing that reads
    # a view changes it, and a deep copy per player was the largest cost of a turn
    # with a thousand players.
    public = {
        key: state[key]
        for key in ("players", "names", "turn", "turns", "secrets", "sids", "score", "stolen", "captured")
    }
    # Every placed steal attempt so far, as the public reports told it (SECRETS-10); a campaign
    # begun before the record was kept has none for its early turns.
    public["attempts"] = state.get("attempts", [])
    public["over"] = is_over(state)
    derived = _derived(state)
    public["standings"], public["place"], public["winners"] = derived["standings"], derived["place"], derived["winners"]
    public["player"] = player
    public["my_thefts"] = derived["stolen_by"].get(player, []) if player else []
    public["my_captures"] = derived["captured_by"].get(player, []) if player else []
    # Which SID guarded what unmet stays the guarding player's own knowledge (SECRETS-10).
    public["restrictions"] = state["restrictions"][player] if player else []
    return public


def player_fields(view: View) -> dict[str, dict[str, Any]]:
    return {
        p: {"score": view["score"][p], "secrets": view["secrets"][p], "sids": view["sids"][p]}
        for p in view["players"]
    }


_derived_cache: list[Any] = [None, None]


def _derived(state: State) -> dict[str, Any]:
    """What every view of one state shares: the standings (players by score, seat order
    breaking ties), each player's place, the winners, and each player's thefts and captures.

    Worked out once per state object (states are never changed once made) and kept
    while views of it are taken, so a thousand reports do not each sort a thousand
    players or scan every theft of the game."""
    if _derived_cache[0] is not state:
        seat = {p: i for i, p in enumerate(state["players"])}
        standings = sorted(state["players"], key=lambda p: (-state["score"][p], seat[p]))
        place: dict[str, int] = {}
        for position, p in enumerate(standings, start=1):
            ahead = standings[position - 2] if position > 1 else None
            place[p] = place[ahead] if ahead and state["score"][ahead] == state["score"][p] else position
        stolen_by: dict[str, list[dict[str, Any]]] = {}
        for entry in state["stolen"]:
            stolen_by.setdefault(entry["by"], []).append(entry)
        captured_by: dict[str, list[dict[str, Any]]] = {}
        for entry in state["captured"]:
            captured_by.setdefault(entry["by"], []).append(entry)
        derived = {"standings": standings, "place": place, "winners": winners(state),
                   "stolen_by": stolen_by, "captured_by": captured_by}
        _derived_cache[:] = [state, derived]
    return _derived_cache[1]
