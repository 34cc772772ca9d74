"""Playing tricks: each player's moment settled by their preference lists, a forced choice or the default."""

from __future__ import annotations

from typing import Any

from ..base import Event, Order, State
from .cards import default_key, distinct, number, playable, remove_cards


def _lists(orders: dict[str, list[Order]]) -> dict[str, dict[int, Order]]:
    """Each player's list per trick; several orders for one trick join in the order written (IDENTITY-11)."""
    lists: dict[str, dict[int, Order]] = {}
    for player, items in orders.items():
        mine = lists.setdefault(player, {})
        for order in items:
            if "trick" in order:  # `through`: the same lists for every trick up to it (trick: every)
                for trick in range(order["trick"], order.get("through", order["trick"]) + 1):
                    joined = mine.setdefault(trick, {"play": [], "face_down": []})
                    joined["play"] = joined["play"] + order["play"]
                    joined["face_down"] = joined["face_down"] + order["face_down"]
    return lists


def seat_order_from(players: list[str], leader: str) -> list[str]:
    start = players.index(leader)
    return players[start:] + players[:start]


def choose_play(
    hand: list[str], area: list[dict[str, Any]], plan: Order | None
) -> tuple[str, bool, str] | None:
    """(card, face up, how) for one player's moment, or None when the list does not settle it.

    IDENTITY-7: the first playable card of the play list; with nothing playable,
    the first held card of the face-down list. IDENTITY-9: one legal choice is forced.
    """
    up = [c for c in distinct(hand) if playable(c, area)]
    choices = up or distinct(hand)
    wanted = (plan or {}).get("play" if up else "face_down", [])
    pick = next((c for c in wanted if c in choices), None)
    if pick is not None:
        return pick, bool(up), "list"
    if len(choices) == 1:
        return choices[0], bool(up), "forced"
    return None


def default_play(hand: list[str], area: list[dict[str, Any]]) -> tuple[str, bool]:
    """IDENTITY-8: the lowest-numbered legal card, colour order breaking ties; no draw needed."""
    up = [c for c in distinct(hand) if playable(c, area)]
    return min(up or distinct(hand), key=default_key), bool(up)


def trick_plays(state: State, lists: dict[str, dict[int, Order]], first: bool) -> list[dict[str, Any]] | None:
    """Every play of the pending trick in play order, or None when a list does not settle it (IDENTITY-10)."""
    trick = state["trick"]
    area: list[dict[str, Any]] = []
    for player in seat_order_from(state["players"], state["leader"]):
        hand = state["hands"][player]
        settled = choose_play(hand, area, lists.get(player, {}).get(trick))
        if settled is None:
            if not first:
                return None
            card, face_up = default_play(hand, area)
            settled = (card, face_up, "default")
        card, face_up, how = settled
        area.append({"player": player, "card": card, "face_up": face_up, "how": how})
    return area


def play_tricks(state: State, orders: dict[str, list[Order]]) -> list[Event]:
    """Play the pending trick, then each next trick the lists settle (IDENTITY-10). Changes `state`."""
    lists = _lists(orders)
    events: list[Event] = []
    first = True
    while state["trick"] <= state["tricks"]:
        plays = trick_plays(state, lists, first)
        if plays is None:
            break
        events += _take_trick(state, plays)
        first = False
    if state["trick"] <= state["tricks"]:  # IDENTITY-21: each player is told which of their lists were not used
        for player in state["players"]:
            unused = sorted(t for t in lists.get(player, {}) if t >= state["trick"])
            if unused:
                events.append({"code": "lists_unused", "seen_by": [player], "deal": state["deal"], "player": player,
                               "tricks": unused, "stopped_at": state["trick"],
                               "why": "you_silent" if state["trick"] not in lists[player] else "not_settled"})
    return events


def highest_and_lowest(plays: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """IDENTITY-13: the face-up plays with the highest number (it takes the plus trick) and the lowest (it leads next)."""
    up = [p for p in plays if p["face_up"]]
    return max(up, key=lambda p: number(p["card"])), min(up, key=lambda p: number(p["card"]))


def _take_trick(state: State, plays: list[dict[str, Any]]) -> list[Event]:
    """IDENTITY-13/14: lowest face-up card leads next, highest takes the plus trick, face-down cards are minus tricks."""
    highest, lowest = highest_and_lowest(plays)
    record = {
        "deal": state["deal"],
        "trick": state["trick"],
        "leader": state["leader"],
        "plays": [{"player": p["player"], "card": p["card"], "face_up": p["face_up"]} for p in plays],
        "plus": highest["player"],
        "next_leader": lowest["player"],
    }
    for play in plays:
        state["hands"][play["player"]] = remove_cards(state["hands"][play["player"]], [play["card"]])
        if not play["face_up"]:
            state["minus"][play["player"]] += 1
    state["plus"][highest["player"]] += 1
    state["played"].append(record)
    state["leader"] = lowest["player"]
    state["trick"] += 1
    public = {**record, "plays": [p if p["face_up"] else {**p, "card": None} for p in record["plays"]]}
    events: list[Event] = [{"code": "trick", "seen_by": "all", **public, "highest": highest["card"],
                            "lowest": lowest["card"], "last": record["trick"] == state["tricks"]}]
    for play in plays:
        if not play["face_up"]:
            events.append({"code": "face_down", "seen_by": [play["player"]], "deal": record["deal"],
                           "trick": record["trick"], "player": play["player"], "card": play["card"]})
        if play["how"] == "default":  # IDENTITY-21: only the player learns their list did not settle it
            events.append({"code": "default_play", "seen_by": [play["player"]], "deal": record["deal"],
                           "trick": record["trick"], "player": play["player"], "card": play["card"],
                           "face_up": play["face_up"]})
    return events
