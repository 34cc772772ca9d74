"""The demo players of Hide the Kids!: kids like the tub and the clock, the wolf knows it."""

from __future__ import annotations

from typing import Any

from ...common.rng import Stream
from ..base import View
from .rules import FURNITURE, WHERE

DEMO_TASTE = {"cupboard": 2, "stove": 2, "door": 2, "clock": 4, "tub": 4, "bed": 2, "table": 2}
"""How often demo players think of each piece: the tub pays double, the clock hurts the wolf."""

DEMO_LATE = 16
"""One demo kid in this many is too late to hide. The example then shows the growl, and
demo wolves win about as often as kids: a wolf's win is the one moment a secret outlives
its turn (HIDEKIDS-6), which the conformance suite's non-interference check needs."""


def orders(view: View, player: str, stream: Stream) -> list[Any]:
    """Kids like the tub and the clock and go back where they escaped; the wolf knows both."""
    last = view["history"][-1] if view["history"] else {"escaped": []}
    if player == view["wolf"]:
        weights = dict(DEMO_TASTE)
        for escape in last["escaped"]:
            weights[escape["furniture"]] += 2
        first = _weighted(weights, stream)
        second = _weighted({p: w for p, w in weights.items() if p != first}, stream)
        style = stream.below(3)
        if style == 0:
            return [f"lift the {first.capitalize()} then the {second}"]
        if style == 1:
            return [f"lift {first}, {second}"]
        return [{"lift": [first, second]}]
    if stream.below(DEMO_LATE) == 0:
        return []  # now and then a kid is too late to hide, as happens at the table
    weights = dict(DEMO_TASTE)
    for escape in last["escaped"]:
        if escape["kid"] == player:
            weights[escape["furniture"]] += 3
    place = _weighted(weights, stream)
    style = stream.below(4)
    if style == 0:
        return [f"hide {WHERE[place]}"]
    if style == 1:
        return [place.capitalize()]
    return [{"hide": place}]


def _weighted(weights: dict[str, int], stream: Stream) -> str:
    roll = stream.below(sum(weights.values()))
    for piece in FURNITURE:
        if piece in weights:
            roll -= weights[piece]
            if roll < 0:
                return piece
    raise AssertionError("weights ran out")  # unreachable: roll < total
