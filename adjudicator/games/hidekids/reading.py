"""Reading Hide the Kids! orders: a kid's hiding place, the wolf's two lifts, in the players' own
words; each accepted with its meaning or void with a VoidOrder (HIDEKIDS-3)."""

from __future__ import annotations

import re
from typing import Any

from ..base import Reading, View, VoidOrder
from ..wording import plain
from .rules import ALIASES, FURNITURE, WHERE

_FILLER = re.compile(
    r"^(?:(?:will|hides?|hiding|me|myself|go|goes|in|into|inside|behind|under|underneath|beneath|the|my|kid)\s+)+", re.IGNORECASE
)
"""The words of a hiding order before the piece, once `plain` has taken who speaks and please off."""

_LIFT = re.compile(
    r"\s*(?:i\s+(?:will\s+)?|i'll\s+|the\s+wolf\s+)?lifts?\s+(.+?)(?:\s+first)?\s*(?:,|;|->|>|\bthen\b|\band\s+then\b|\band\b)\s*"
    r"(?:then\s+)?(.+?)(?:\s+(?:second|next|last))?\s*\.?\s*\Z",
    re.IGNORECASE,
)

_LIFT_WORD = re.compile(r"\s*(?:i\s+(?:will\s+)?|i'll\s+|the\s+wolf\s+)?lifts?\b", re.IGNORECASE)


def furniture(named: str) -> str | None:
    """The piece a player means ('Stove', 'under the bed', "I'll hide in the bathtub."), or None."""
    words = _FILLER.sub("", plain(str(named))).casefold()
    words = ALIASES.get(words, words)
    return words if words in FURNITURE else None


def _unknown(named: str) -> VoidOrder:
    piece = _FILLER.sub("", plain(str(named))) or named.strip()
    return VoidOrder("no_such_furniture", f"there is no '{piece}' in the room: the furniture is {', '.join(FURNITURE)}; "
                                          "write the piece, as in 'hide under the bed'")


def read_orders(view: View, player: str, items: list[tuple[int, Any]]) -> list[Reading]:
    is_wolf = player == view["wolf"]
    readings: list[Reading] = []
    first: Reading | None = None
    for index, item in items:
        written = item if isinstance(item, str) else _write(item)
        reading = Reading(index=index, written=" ".join(written.split()))
        readings.append(reading)
        try:
            reading.order, reading.meaning = _read_one(is_wolf, item)
        except VoidOrder as void:
            reading.refuse(void)
            continue
        if first is not None:  # HIDEKIDS-3: the first readable order stands, later ones are void.
            reading.refuse(VoidOrder(
                "second_order",
                f"you already gave a {'lift' if is_wolf else 'hiding'} order (order {first.index + 1}: "
                f"{first.meaning}); only the first one counts",
            ))
        else:
            first = reading
    return readings


def _read_one(is_wolf: bool, item: Any) -> tuple[dict[str, Any], str]:
    """The canonical order and its meaning, or the VoidOrder that says why it cannot stand."""
    parsed = _parse(item)
    if "hide" in parsed:
        if is_wolf:
            raise VoidOrder("wolf_hides", "the wolf does not hide: write 'lift: [first, second]' with two pieces of furniture")
        place = furniture(parsed["hide"])
        if place is None:
            raise _unknown(parsed["hide"])
        return {"hide": place}, f"you hide {WHERE[place]}"
    if not is_wolf:
        raise VoidOrder("kid_lifts", "only the wolf lifts furniture: as a kid, write 'hide: <furniture>'")
    pieces = [furniture(named) for named in parsed["lift"]]
    bad = [named for named, piece in zip(parsed["lift"], pieces, strict=True) if piece is None]
    if bad:
        raise _unknown(bad[0])
    if pieces[0] == pieces[1]:
        raise VoidOrder("same_piece_twice", f"the wolf lifts two different pieces, but named the {pieces[0]} twice")
    return {"lift": pieces}, f"you lift the {pieces[0]} first, then the {pieces[1]}"


def _parse(item: Any) -> dict[str, Any]:
    """The item in canonical shape (its words not yet checked), or a VoidOrder saying why it cannot be read."""
    if isinstance(item, dict):
        return item
    match = _LIFT.match(item)
    if match:
        return {"lift": [match[1], match[2]]}
    if _LIFT_WORD.match(item):
        raise VoidOrder(
            "unreadable", "not understood: the wolf writes 'lift <first> then <second>', naming two pieces of furniture"
        )
    return {"hide": item}


def _write(order: dict[str, Any]) -> str:
    if "lift" in order:
        return f"lift {order['lift'][0]} then {order['lift'][1]}"
    return f"hide {order['hide']}"


def instead(view: View, player: str, readings: list[Reading]) -> str:
    """What stands in for a void or missing order: the first accepted one, or the NMR rule (HIDEKIDS-4, -5)."""
    if any(r.accepted for r in readings):
        return ""
    if player == view["wolf"]:
        return ("With no valid lift order, your two lifts are drawn at random and the draw is announced to everyone "
                "(HIDEKIDS-4).")
    return "With no valid hiding order you have not hidden in time: you are caught at the growl, before the first lift (HIDEKIDS-5)."
