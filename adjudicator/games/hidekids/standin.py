"""The stand-in of Hide the Kids!: a kid hides where the wolf is least likely to lift, the wolf lifts where kids are likely.

Both read the room the same way, from the public record of past turns (the seat's view):
kids are drawn to the pieces that pay (the tub pays double, the clock costs the wolf a
token) and go back where they escaped last turn; a wolf goes where kids escaped last turn
and, by habit, where it lifted before. A kid weighs each piece by what it pays times the
chance it is not lifted, and avoids the place it escaped from last turn (the wolf knows
kids go back); the wolf lifts the two pieces where most kids are expected, the likelier
first. A little chance from the stream keeps a stand-in from being read. docs/standins.md.
"""

from __future__ import annotations

from typing import Any

from ...common.rng import Stream
from ..base import View
from .rules import pebbles_at

ATTRACTIVE = ("tub", "clock")
"""Pieces kids favour: the tub pays an extra pebble, the clock takes a token from the wolf."""
CLOCK_WORTH = 0.5
"""What a kid counts the clock's harm to the wolf as, in pebbles."""


def orders(view: View, player: str, stream: Stream) -> list[Any]:
    last = view["history"][-1] if view["history"] else {"escaped": [], "lifts": []}
    if player == view["wolf"]:
        return [{"lift": _lifts(view, last, stream)}]
    return [{"hide": _hiding_place(view, player, last, stream)}]


def _kids_expected(view: View, last: dict[str, Any]) -> dict[str, float]:
    """How many kids the wolf may expect at each piece, up to a common factor."""
    weight = {piece: 1.0 + (1.0 if piece in ATTRACTIVE else 0.0) for piece in view["furniture"]}
    for escape in last["escaped"]:
        weight[escape["furniture"]] += 1.5  # kids go back where they escaped
    return weight


def _lift_chances(view: View, last: dict[str, Any]) -> dict[str, float]:
    """The chance that the wolf lifts each piece this turn, as a kid reckons it."""
    weight = _kids_expected(view, last)
    for turn in view["history"]:
        for lift in turn["lifts"]:
            weight[lift["furniture"]] += 0.5 / len(view["history"])  # the wolf's own habits
    total = sum(weight.values())
    return {piece: min(1.0, 2 * w / total) for piece, w in weight.items()}


def _hiding_place(view: View, player: str, last: dict[str, Any], stream: Stream) -> str:
    chances = _lift_chances(view, last)
    mine = next((e["furniture"] for e in last["escaped"] if e["kid"] == player), None)
    value = {}
    for piece, lifted in chances.items():
        gain = pebbles_at(piece) + (CLOCK_WORTH if piece == "clock" else 0.0)
        if piece == mine:
            lifted = min(1.0, lifted * 1.5)  # where I escaped is where the wolf looks for me
        value[piece] = (1 - lifted) * gain
    return _pick_near_best(value, stream)


def _lifts(view: View, last: dict[str, Any], stream: Stream) -> list[str]:
    expected = _kids_expected(view, last)
    first = _pick_near_best(expected, stream)
    second = _pick_near_best({p: w for p, w in expected.items() if p != first}, stream)
    return [first, second]


def _pick_near_best(value: dict[str, float], stream: Stream, within: float = 0.9) -> str:
    """One of the pieces worth at least `within` of the best, drawn evenly; the room's order first."""
    best = max(value.values())
    near = [piece for piece, v in value.items() if v >= within * best]
    return stream.choice(near)
