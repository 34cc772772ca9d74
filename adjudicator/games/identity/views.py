"""What each player may know, and the `pbem show --json` player fields built from it."""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

from ..base import State, View
from .cards import deck, number, sort_cards
from .scoring import winners


def view(state: State, player: str | None) -> View:
    public = {
        key: copy.deepcopy(state[key])
        for key in (
            "players", "names", "turn", "variant", "long_game", "randomized", "doubled", "colours",
            "deals", "deal", "stage", "trick", "tricks", "leader", "starter", "bids", "plus", "minus",
            "score", "results", "over",
        )
    }
    public["winners"] = winners(state)
    public["player"] = player
    public["hand_counts"] = {p: len(state["hands"][p]) for p in state["players"]}
    public["removed_count"] = len(state["removed"])
    # IDENTITY-18: a face-down card is known to its player alone.
    public["played"] = [
        {**record, "plays": [
            play if play["face_up"] or play["player"] == player else {**play, "card": None}
            for play in record["plays"]
        ]}
        for record in state["played"]
    ]
    public["bid_values"] = {p: sum(map(number, c)) if c else None for p, c in state["bids"].items()}
    public["hand"] = list(state["hands"][player]) if player else []
    seen = [c for cards in state["bids"].values() for c in cards]
    seen += [p["card"] for r in public["played"] for p in r["plays"] if p["card"] is not None]
    public["unseen"] = sort_cards(list((Counter(deck(state["colours"])) - Counter(seen + public["hand"])).elements()))
    return public


def player_fields(view: View) -> dict[str, dict[str, Any]]:
    fields: dict[str, dict[str, Any]] = {}
    for p in view["players"]:
        bid = view["bids"][p]
        fields[p] = {
            "score": view["score"][p],
            "deal_points": [r["rows"][p]["points"] * r["multiplier"] for r in view["results"]],
            "bid": view["bid_values"][p],
            "bid_cards": list(bid),
            "plus": view["plus"][p],
            "minus": view["minus"][p],
            "wins": view["plus"][p] - view["minus"][p],
            "cards_left": view["hand_counts"][p],
        }
        if p == view["player"]:
            fields[p]["hand"] = list(view["hand"])
    return fields
