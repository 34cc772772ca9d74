"""Random legal orders for `pbem demo`, written as players would write them (canonical and shorthand forms)."""

from __future__ import annotations

from typing import Any

from ...common.rng import Stream
from ..base import View
from .cards import COLOURS, TRICKS, is_potion, number


def orders(view: View, player: str, stream: Stream) -> list[Any]:
    hand = list(view["hand"])
    if view["phase"] in ("exchange", "greed"):
        count = view["exchange_count"] if view["phase"] == "exchange" else view["greed"]["count"]
        stream.shuffle(hand)
        potions = [c for c in hand if is_potion(c)]
        gifts = hand[:count]
        if view["phase"] == "exchange" and len(potions) >= 2 and not any(is_potion(c) for c in gifts):
            gifts[-1] = potions[0]
        return [_demo_card(card, stream) for card in gifts]
    items: list[Any] = []
    ahead = min(1 + stream.below(4), TRICKS - view["trick"] + 1)
    for offset in range(ahead):
        stream.shuffle(hand)
        order = list(hand)
        name = stream.choice(list(COLOURS))
        greed = hand[:2] if stream.below(3) else []
        form = stream.below(4)
        if form == 0:
            text = f"trick {view['trick'] + offset}: " + ", ".join(order)
            items.append(text + f" name {name}" + (f" greed {' '.join(greed)}" if greed else ""))
        elif form == 1 and offset == 0:
            items.append(order)
        else:
            item: dict[str, Any] = {"trick": view["trick"] + offset, "play": order, "name": name}
            if greed:
                item["greed"] = greed
            items.append(item)
    return items


def _demo_card(card: str, stream: Stream) -> Any:
    """A card as a player might write it: the id, a potion as 'n+', or the mapping form."""
    form = stream.below(3)
    if form == 0:
        return {"give": card}
    if form == 1 and is_potion(card):
        return f"{number(card)}+"
    return card
