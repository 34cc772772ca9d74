"""The conformance hooks: worlds only one player can tell apart, and what must hold of every state."""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

from ...common.rng import Stream
from ..base import Order, State
from .cards import colour, deck, distinct, number, playable, remove_cards, sort_cards
from .scoring import points
from .tricks import play_tricks


def disguises(
    state: State, orders: dict[str, list[Order]], player: str, stream: Stream
) -> list[tuple[State, dict[str, list[Order]]]]:
    """Other worlds that only `player` can tell apart.

    Nobody else has seen the player's hand, their face-down cards or the removed
    cards; the others do know every face-up card and bid, the number of tricks
    played and that each face-down play was made with nothing playable. So the
    worlds (a) swap an unplayed hand card with a face-down or removed card, or
    (b) put face down another card of the hand this turn; the player's orders
    become explicit lists that repeat their plays. A world is kept only if those
    plays are legal in it, including every earlier face-down play.
    """
    if state["over"]:
        return []
    trial = copy.deepcopy(state)
    if state["stage"] == "bid":
        mine = [c for o in orders.get(player, []) for c in o["bid"]]
        if len(mine) < 2:
            return []  # the bid would be drawn from the hand itself
        kept_orders = orders
        final_hand = remove_cards(state["hands"][player], mine)
        plays: list[dict[str, Any]] = []
    elif not orders.get(player):
        return []  # a silent player's default plays follow from their hand, so they are not disguised
    else:
        play_tricks(trial, orders)
        plays = [dict(p, trick=r["trick"]) for r in trial["played"][len(state["played"]):] for p in r["plays"]
                 if p["player"] == player]
        final_hand = trial["hands"][player]
        kept_orders = {**orders, player: _replay_orders(plays)}
    worlds = []
    spots = _hidden_elsewhere(state, player)
    candidates = [(a, s) for a in distinct(final_hand) for s in spots if s[0] != a]
    stream.shuffle(candidates)
    for a, (b, t, i) in candidates[:6]:
        world = copy.deepcopy(state)
        world["hands"][player] = sort_cards(remove_cards(world["hands"][player], [a]) + [b])
        if t < 0:
            world["removed"] = sort_cards(remove_cards(world["removed"], [b]) + [a])
        else:
            world["played"][t]["plays"][i]["card"] = a
        if _replays(world, kept_orders, player, plays):
            worlds.append((world, kept_orders))
            break
    downs = [p for p in plays if not p["face_up"]]
    swaps = [(p, z) for p in downs for z in distinct(final_hand) if z != p["card"]]
    stream.shuffle(swaps)
    for down, other in swaps[:6]:
        moved = [dict(p, card=other) if p is down else p for p in plays]
        changed = {**orders, player: _replay_orders(moved)}
        if _replays(state, changed, player, moved):
            worlds.append((state, changed))
            break
    return worlds


def _hidden_elsewhere(state: State, player: str) -> list[tuple[str, int, int]]:
    """Cards nobody but `player` has seen, outside their hand: (card, trick index or -1 for removed, play index)."""
    spots = [(card, -1, i) for i, card in enumerate(state["removed"])]
    for t, record in enumerate(state["played"]):
        for i, play in enumerate(record["plays"]):
            if play["player"] == player and not play["face_up"]:
                spots.append((play["card"], t, i))
    return spots


def _replay_orders(plays: list[dict[str, Any]]) -> list[Order]:
    return [
        {"trick": p["trick"], "play": [p["card"]] if p["face_up"] else [], "face_down": [] if p["face_up"] else [p["card"]]}
        for p in plays
    ]


def _replays(world: State, orders: dict[str, list[Order]], player: str, plays: list[dict[str, Any]]) -> bool:
    """Whether, in `world`, the player's plays come out as `plays` and every face-down play of the deal is legal."""
    trial = copy.deepcopy(world)
    if world["stage"] == "trick":
        before = len(trial["played"])
        play_tricks(trial, orders)
        got = [dict(p, trick=r["trick"]) for r in trial["played"][before:] for p in r["plays"] if p["player"] == player]
        if got != plays:
            return False
    return not _illegal_face_downs(trial, player)


def _illegal_face_downs(state: State, player: str) -> list[int]:
    """Tricks in which `player` played face down while holding a playable card."""
    hand = list(state["hands"][player])
    for record in state["played"]:
        hand += [p["card"] for p in record["plays"] if p["player"] == player]
    wrong = []
    for record in state["played"]:
        area: list[dict[str, Any]] = []
        for play in record["plays"]:
            if play["player"] == player:
                if not play["face_up"] and any(playable(c, area) for c in hand):
                    wrong.append(record["trick"])
                hand.remove(play["card"])
            area.append(play)
    return wrong


def invariants(state: State) -> list[str]:
    problems = []
    located = [c for hand in state["hands"].values() for c in hand]
    located += [c for bid in state["bids"].values() for c in bid]
    located += [p["card"] for r in state["played"] for p in r["plays"]] + state["removed"]
    if sort_cards(located) != deck(state["colours"]):
        extra = Counter(located) - Counter(deck(state["colours"]))
        lost = Counter(deck(state["colours"])) - Counter(located)
        problems.append(f"cards not conserved: extra {sorted(extra.elements())}, missing {sorted(lost.elements())}")
    for p in state["players"]:
        plus = sum(1 for r in state["played"] if r["plus"] == p)
        minus = sum(1 for r in state["played"] for x in r["plays"] if x["player"] == p and not x["face_up"])
        if (plus, minus) != (state["plus"][p], state["minus"][p]):
            problems.append(f"{p}'s plus/minus tricks {state['plus'][p]}/{state['minus'][p]} are not the {plus}/{minus} played")
        earned = sum(r["rows"][p]["points"] * r["multiplier"] for r in state["results"])
        if earned != state["score"][p]:
            problems.append(f"{p}'s score {state['score'][p]} is not the {earned} their deals earned")
        if wrong := _illegal_face_downs(state, p):
            problems.append(f"{p} played face down while holding a playable card in tricks {wrong}")
    for r in state["results"]:
        for p, row in r["rows"].items():
            if row["points"] != points(row["bid"], row["wins"]):
                problems.append(f"deal {r['deal']}: {p} scored {row['points']}, not what the table gives")
    for r in state["played"]:
        up = [x["card"] for x in r["plays"] if x["face_up"]]
        if len({colour(c) for c in up}) != len(up) or len({number(c) for c in up}) != len(up):
            problems.append(f"trick {r['trick']}: two face-up cards share a colour or a number")
    if len({len(h) for h in state["hands"].values()}) > 1:
        problems.append("hands are of different sizes between tricks")
    return problems
