"""The stand-in of H.I.D.E.: a target chosen by the intel and the rivals' likely targets, dice on top, aimed shots.

Target: each building is worth its intel (and the rank card that comes with it),
shared with the rivals expected there; rivals are expected where the intel is, so a
rich building that everyone wants can be worth less than a quieter one. Mission: the
stand-in takes a die that lands on top of its screen whenever the pool has one (a
gun of another colour is turned to its own target to land there), since every die on
top is a life die in a showdown and a shot; failing that, a die in front. The shot
goes where the evidence points: for each rival still in the round, the identity dice
their screen allows (every die on top shares the identity's colour or building, no
die in front shares either), weighted by how much intel each building offers; the
rival whose identity is most nearly pinned down is shot first, the others after, in
case the first is out by then. The last man takes the richest building. Only the
seat's own view is read. docs/standins.md.
"""

from __future__ import annotations

from typing import Any

from ...common.rng import Stream
from ..base import View
from .components import BUILDINGS, COLOURS, GUN, Die, die_key, richest, shares_feature
from .mission import placed_die

RANK_WORTH = 1
"""What the rank card won with a building is counted as, in intel."""


def orders(view: View, player: str, stream: Stream) -> list[Any]:
    if view["stage"] == "security":
        return [{"security": _secured(view)}]
    if view["stage"] == "identity":
        return [{"target": b} for b in _targets(view, player, stream)]
    return _mission(view, player)


def _intel(view: View, building: str) -> int:
    return sum(view["buildings"][building])


def _secured(view: View) -> str:
    """The second richest building: the richest stays open for the seat, the next rival prize is closed."""
    ranked = sorted(BUILDINGS, key=lambda b: (-_intel(view, b), BUILDINGS.index(b)))
    return ranked[1]


def _targets(view: View, player: str, stream: Stream) -> list[str]:
    allowed = [b for b in BUILDINGS if b != view["security"]]
    rivals = len([p for p in view["players"] if p != player])
    pull = {b: 1 + _intel(view, b) for b in allowed}
    total = sum(pull.values())
    worth = {}
    for b in allowed:
        expected_rivals = rivals * pull[b] / total
        worth[b] = (_intel(view, b) + RANK_WORTH) / (1 + expected_rivals) + stream.below(100) / 1e4
    return sorted(allowed, key=lambda b: -worth[b])


def _mission(view: View, player: str) -> list[Any]:
    identity: Die = view["identity"]
    guesses = _guesses(view, player)
    on_top, in_front = [], []
    for d in sorted({(x["colour"], x["icon"]) for x in view["pool"]}, key=lambda t: die_key({"colour": t[0], "icon": t[1]})):
        chosen = {"colour": d[0], "icon": d[1]}
        item: dict[str, Any] = {"pick": chosen}
        if chosen["icon"] == GUN:
            # Turned to the target it lands on top; a die of one's own colour lands there anyway,
            # and is turned to another building so as not to show the target.
            item["gun"] = next(b for b in BUILDINGS if b != identity["icon"]) if chosen["colour"] == identity["colour"] else identity["icon"]
        if shares_feature(placed_die(chosen, item.get("gun"), identity), identity):
            if guesses:
                item["guess"] = [dict(g) for g in guesses]  # a list of its own: YAML would write a shared one as an alias
            on_top.append(item)
        else:
            in_front.append(item)
    return [*on_top, *in_front, {"last_man": richest(view["buildings"])}]


def _possible(view: View, rival: str) -> dict[tuple[str, str], float]:
    """The identity dice a rival's screen allows, each weighted by the intel of its building."""
    screen = view["screens"][rival]
    found = {}
    for colour in COLOURS:
        for building in BUILDINGS:
            if building == view["security"]:
                continue
            guess = {"colour": colour, "icon": building}
            if all(shares_feature(d, guess) for d in screen["top"]) and not any(shares_feature(d, guess) for d in screen["front"]):
                found[(colour, building)] = 1.0 + _intel(view, building)
    return found


def _guesses(view: View, player: str) -> list[dict[str, str]]:
    """One guess per rival still in the round, the surest first."""
    ranked = []
    for rival in view["players"]:
        if rival == player or rival in view["out"]:
            continue
        possible = _possible(view, rival)
        if not possible:
            continue
        (colour, building), weight = max(possible.items(), key=lambda kv: (kv[1], -COLOURS.index(kv[0][0]), -BUILDINGS.index(kv[0][1])))
        ranked.append((weight / sum(possible.values()), rival, colour, building))
    ranked.sort(key=lambda r: (-r[0], view["players"].index(r[1])))
    return [{"player": rival, "colour": colour, "icon": building} for _, rival, colour, building in ranked]
