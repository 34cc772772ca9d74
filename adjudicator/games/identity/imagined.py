"""The rest of a deal as one seat imagines it: the cards it has not seen dealt to the others, and played out.

The stand-in weighs its lists for the tricks ahead on such deals (standin.py). Only the seat's view
is read: its hand, the unseen cards, how many cards each player holds, the leader and the wins so far.
The others are imagined playing a legal card at random: the view says nothing of how they choose, and
imagining them playing for their bids did worse in the bench (docs/standins.md).
"""

from __future__ import annotations

from typing import Any

from ...common.rng import Stream
from ..base import Order, View
from .cards import playable
from .scoring import points
from .tricks import choose_play, highest_and_lowest, seat_order_from


def _dealt(view: View, player: str, stream: Stream) -> dict[str, list[str]]:
    """Every hand: the seat's own, and the unseen cards shuffled and dealt to the others by their hand counts."""
    unseen = list(view["unseen"])
    stream.shuffle(unseen)
    hands: dict[str, list[str]] = {}
    start = 0
    for other in view["players"]:
        if other == player:
            hands[other] = list(view["hand"])
        else:
            count = view["hand_counts"][other]
            hands[other] = unseen[start:start + count]
            start += count
    return hands


def points_after(view: View, player: str, lists: list[Order], stream: Stream) -> int:
    """The seat's points for the deal when it plays `lists[k]` (a `play` and a `face_down` list) in the
    k-th trick from the pending one, on one deal imagined with `stream`. The same stream gives the
    same hands, and the same plays of the others as long as the seat's plays are the same, so lists
    compared on streams alike are compared on the same deals."""
    hands = _dealt(view, player, stream)
    wins = view["plus"][player] - view["minus"][player]
    leader = view["leader"]
    for k in range(len(view["hand"])):
        area: list[dict[str, Any]] = []
        for seat in seat_order_from(view["players"], leader):
            hand = hands[seat]
            if seat == player:
                settled = choose_play(hand, area, lists[k])
                assert settled is not None  # the seat's lists name every card it holds
                card, face_up, _ = settled
            else:
                legal = [c for c in hand if playable(c, area)]
                face_up = bool(legal)
                card = (legal or hand)[stream.below(len(legal or hand))]
            hand.remove(card)
            area.append({"player": seat, "card": card, "face_up": face_up})
        highest, lowest = highest_and_lowest(area)
        wins += (highest["player"] == player) - sum(not p["face_up"] for p in area if p["player"] == player)
        leader = lowest["player"]
    return points(view["bid_values"][player] or 0, wins)
