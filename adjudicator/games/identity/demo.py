"""Random legal orders for `pbem demo`, written as players would write them (both forms, cards now and then scribbled)."""

from __future__ import annotations

from typing import Any

from ...common.rng import Stream
from ..base import View
from .cards import colour, number


def orders(view: View, player: str, stream: Stream) -> list[Any]:
    hand = list(view["hand"])
    if view["stage"] == "bid":
        stream.shuffle(hand)
        a, b = hand[:2]
        form = stream.below(4)
        if form == 0:
            return [f"bid {_scribble(a, stream)} {_scribble(b, stream)}"]
        if form == 1:
            return [a, b]
        return [{"bid": [a, b]}]
    items: list[Any] = []
    last = min(view["tricks"], view["trick"] + stream.below(4))
    for trick in range(view["trick"], last + 1):
        play = [c for c in hand if stream.below(4)]
        down = [c for c in hand if stream.below(3)]
        stream.shuffle(play)
        stream.shuffle(down)
        form = stream.below(5)
        if form == 0:
            items.append(
                ("" if trick == view["trick"] and stream.below(2) else f"trick {trick}: ")
                + "play " + ", ".join(_scribble(c, stream) for c in play)
                + (" down " + " ".join(down) if down else "")
            )
        else:
            items.append({"trick": trick, "play": play, "face_down": down})
    return items


def _scribble(card: str, stream: Stream) -> str:
    """The demo writes cards the way people type them, now and then."""
    roll = stream.below(6)
    if roll == 0:
        return card.capitalize()
    if roll == 1:
        return f"{colour(card)} {number(card):+d}" if number(card) else "Black 0"
    if roll == 2 and number(card) > 0:
        return f"{colour(card)}{number(card)}"
    return card
