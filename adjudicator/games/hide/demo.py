"""Random legal orders for `pbem demo`, written as players would write them (both forms)."""

from __future__ import annotations

from typing import Any

from ...common.rng import Stream
from ..base import View
from .components import BUILDINGS, COLOURS, GUN, die_words, words


def orders(view: View, player: str, stream: Stream) -> list[Any]:
    if view["stage"] == "security":
        building = stream.choice(list(BUILDINGS))
        return [f"security {words(building)}" if stream.below(2) else {"security": building}]
    if view["stage"] == "identity":
        allowed = [b for b in BUILDINGS if b != view["security"]]
        first, second = stream.choice(allowed), stream.choice(allowed)
        return [words(first), {"target": second}]
    return _mission(view, player, stream)


def _mission(view: View, player: str, stream: Stream) -> list[Any]:
    identity = view["identity"]
    rivals = [p for p in view["players"] if p != player and p not in view["out"]]
    pool = list(view["pool"])
    items: list[Any] = []
    for _ in range(min(3, len(pool))):
        d = stream.choice(pool)
        item: dict[str, Any] = {"pick": dict(d)}
        if d["icon"] == GUN:
            turns = list(BUILDINGS) if d["colour"] == identity["colour"] else [*BUILDINGS, "keep"]
            item["gun"] = stream.choice(turns)
        if rivals:
            target = stream.choice(rivals)
            item["guess"] = [{"player": target, "colour": stream.choice(list(COLOURS)),
                              "icon": stream.choice(list(BUILDINGS))}]
        items.append(_shorthand(item) if stream.below(3) == 0 else item)
    if player not in view["gadget_used"] and len(pool) > 1 and stream.below(4) == 0:
        d = stream.choice(pool)
        to = stream.choice([i for i in (*BUILDINGS, GUN) if i != d["icon"]])
        items.append(f"gadget {die_words(d)} to {words(to)}")
    if stream.below(2) == 0:
        items.append({"last_man": stream.choice(list(BUILDINGS))})
    return items


def _shorthand(item: dict[str, Any]) -> str:
    text = f"pick {die_words(item['pick'])}"
    if "gun" in item:
        text += " keep" if item["gun"] == "keep" else f" as {words(item['gun'])}"
    for i, g in enumerate(item.get("guess", [])):
        text += (" guess " if i == 0 else " or ") + f"{g['player']} {g['colour']} {words(g['icon'])}"
    return text
