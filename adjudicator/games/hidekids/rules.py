"""The rules of Hide the Kids! that settle a turn: the furniture, the growl, the lifts, the escapes, the end."""

from __future__ import annotations

import copy
from typing import Any

from ...common.rng import Rng
from ..base import Event, Order, State, leaders

FURNITURE = ("cupboard", "stove", "door", "clock", "tub", "bed", "table")
"""The seven pieces, in the rulebook's order (also the order of every listing)."""

WHERE = {
    "cupboard": "in the cupboard",
    "stove": "in the stove",
    "door": "behind the door",
    "clock": "in the clock",
    "tub": "under the tub",
    "bed": "under the bed",
    "table": "under the table",
}

ALIASES = {"bathtub": "tub", "wardrobe": "cupboard", "oven": "stove"}

WOLF_TARGET = 7
"""Kid tokens that win the game for the wolf, checked after each lift."""

PEBBLE_TARGET = 7
"""Pebbles that end the game at the end of a turn."""

TUB_BONUS = 1

CLOCK_PENALTY = 1

RANDOM_LIFT = "wolf/random-lift"
"""The rng stream that draws the lifts of a wolf with no valid lift order (HIDEKIDS-4)."""

WOLF_DRAW = "setup/wolf"
"""The rng stream that draws the wolf at setup when `--option wolf=random`."""


def is_over(state: State) -> bool:
    return state["outcome"] is not None


def winners(state: State) -> list[str]:
    if state["outcome"] == "wolf":
        return [state["wolf"]]
    if state["outcome"] == "kids":
        return leaders(state["kids"], state["pebbles"])
    return []


def resolve(state: State, orders: dict[str, list[Order]], rng: Rng) -> tuple[State, list[Event]]:
    places = hiding_places(state, orders)
    lifts = wolf_lifts(state, orders)
    events: list[Event] = []
    drawn = lifts is None
    if lifts is None:
        lifts = draw_lifts(rng)
        events.append({"code": "lifts_drawn", "seen_by": "all", "wolf": state["wolf"], "pieces": lifts})
    new, more = play_turn(state, places, lifts, drawn)
    return new, events + more


def hiding_places(state: State, orders: dict[str, list[Order]]) -> dict[str, str | None]:
    """Each kid's place; None for a kid with no hiding order (HIDEKIDS-5)."""
    places: dict[str, str | None] = {}
    for kid in state["kids"]:
        hides = [o["hide"] for o in orders.get(kid, []) if "hide" in o]
        places[kid] = hides[0] if hides else None
    return places


def wolf_lifts(state: State, orders: dict[str, list[Order]]) -> list[str] | None:
    lifts = [o["lift"] for o in orders.get(state["wolf"], []) if "lift" in o]
    return list(lifts[0]) if lifts else None


def draw_lifts(rng: Rng) -> list[str]:
    """Two different pieces, in order, drawn for a wolf with no valid lift order (HIDEKIDS-4)."""
    pieces = list(FURNITURE)
    stream = rng.stream(RANDOM_LIFT)
    first = pieces.pop(stream.below(len(pieces)))
    return [first, stream.choice(pieces)]


def play_turn(state: State, places: dict[str, str | None], lifts: list[str], drawn: bool) -> tuple[State, list[Event]]:
    """The growl, the lifts in order, the escapes, the end of the turn."""
    new = copy.deepcopy(state)
    new["turn"] = state["turn"] + 1
    wolf = state["wolf"]
    record: dict[str, Any] = {
        "turn": new["turn"], "lifts_drawn": drawn, "not_hidden": [], "lifts": [], "escaped": [],
    }
    events: list[Event] = []
    # The growl: kids with no hiding place are captured before anything is lifted (HIDEKIDS-5).
    for kid in state["kids"]:
        if places[kid] is None:
            new["kid_tokens"] += 1
            record["not_hidden"].append(kid)
            events.append({"code": "not_hidden", "seen_by": "all", "kid": kid, "kid_tokens": new["kid_tokens"]})
    searched: set[str] = set()
    for number, piece in enumerate(lifts, start=1):
        found = [kid for kid in state["kids"] if places[kid] == piece]
        new["kid_tokens"] += len(found)
        searched.add(piece)
        record["lifts"].append({"furniture": piece, "found": found})
        events.append({"code": "lift", "seen_by": "all", "number": number, "furniture": piece,
                       "found": found, "kid_tokens": new["kid_tokens"]})
        if new["kid_tokens"] >= WOLF_TARGET:  # HIDEKIDS-7/15: checked after each lift, the wolf wins at once
            new["outcome"] = "wolf"
            events.append({"code": "wolf_wins", "seen_by": "all", "wolf": wolf, "lift": number,
                           "kid_tokens": new["kid_tokens"]})
            events.extend(_keep_secrets(new, places, [] if drawn else lifts[number:], searched))  # drawn lifts are public
            new["history"].append(record)
            return new, events
    for kid in state["kids"]:
        place = places[kid]
        if place is None or place in searched:
            continue
        won = pebbles_at(place)  # HIDEKIDS-9
        # HIDEKIDS-8: every kid escaping from the clock costs the wolf a token, while it has any.
        discarded = place == "clock" and new["kid_tokens"] > 0
        new["kid_tokens"] -= CLOCK_PENALTY if discarded else 0
        new["pebbles"][kid] += won
        record["escaped"].append({"kid": kid, "furniture": place, "pebbles": won, "discarded": discarded})
        events.append({"code": "escaped", "seen_by": "all", "kid": kid, "furniture": place, "pebbles_won": won,
                       "pebbles": new["pebbles"][kid], "discarded": discarded, "kid_tokens": new["kid_tokens"]})
    new["history"].append(record)
    best = max(new["pebbles"].values())
    if best >= PEBBLE_TARGET:  # HIDEKIDS-10: checked once, when the turn is over
        new["outcome"] = "kids"
        winners = leaders(state["kids"], new["pebbles"])
        events.append({"code": "kids_win", "seen_by": "all", "winners": winners, "pebbles": best})
    return new, events


def _keep_secrets(new: State, places: dict[str, str | None], unmade: list[str], searched: set[str]) -> list[Event]:
    """The game ended mid-turn: what was never revealed stays with its owner (HIDEKIDS-6)."""
    events: list[Event] = []
    for kid in new["kids"]:
        place = places[kid]
        if place is not None and place not in searched:
            new["kept_secret"][kid] = place
            events.append({"code": "still_hidden", "seen_by": [kid], "kid": kid, "furniture": place})
    if unmade:
        new["kept_secret"][new["wolf"]] = unmade[0]
        events.append({"code": "lift_unmade", "seen_by": [new["wolf"]], "furniture": unmade[0]})
    return events


def pebbles_at(piece: str) -> int:
    """What an escape from behind or under `piece` pays (the tub pays a bonus)."""
    return 1 + (TUB_BONUS if piece == "tub" else 0)


def choose_wolf(players: list[str], wanted: str, rng: Rng) -> str:
    """`--option wolf=...`: a player id first, then 'first', 'last' or 'random' (HIDEKIDS-1)."""
    chosen = wanted.strip()
    if chosen in players:
        return chosen
    if chosen == "first":
        return players[0]
    if chosen == "last":
        return players[-1]
    if chosen == "random":
        return rng.stream(WOLF_DRAW).choice(players)
    raise ValueError(
        f"option wolf: '{wanted}' is not a player of this campaign; "
        f"use one of {', '.join(players)}, or first, last or random"
    )
