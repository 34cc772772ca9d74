"""The stand-in of Identity: bid from the hand's strength, then play to the bid.

The bid: each high card left in the hand is worth a share of a plus trick (a +4 is
often the highest face-up card of its trick, a +1 seldom), less the minus trick or so
a deal brings (a seat with nothing playable goes face down), and the two bid cards are
the pair whose sum comes nearest that estimate of the wins. The shares are what the
stand-in's own hands won in bench/standins.py's games (docs/standins.md). In the tricks
it orders every trick to the end of the deal, so a stand-in seat never holds the
campaign back to one trick a turn: its playable cards highest first (to take plus
tricks) for the first few, lowest first (to let others take them) after, switching at
the trick where the rest of the deal, imagined a few times over (imagined.py), scores
best; a forced face-down play gives up the card it needs least. Only the seat's own
view is read: its hand, the cards it has not seen, the bids and the tricks so far.
docs/standins.md.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from ...common.rng import Stream
from ..base import View
from .cards import distinct, number
from .imagined import points_after

PLUS_SHARE = {4: 0.89, 3: 0.48, 2: 0.18, 1: 0.07}
"""What each card left in a hand is worth in wins, with four players; fewer players take more."""
MINUS_TRICKS = 1.0
"""The wins a hand loses to face-down plays over a deal, whatever its cards (about one, with four players).

Both are the least-squares fit of the wins the stand-in's hands made over 3,000 bench games (before,
0.55, 0.35, 0.15 and 0.05 and no minus trick: bids too close to two whatever the hand)."""


IMAGINED = 16
"""Deals imagined per turn to choose where the seat stops playing high (each way of playing is tried on all)."""


def orders(view: View, player: str, stream: Stream) -> list[Any]:
    if view["stage"] == "bid":
        return [{"bid": _bid(view, stream)}]
    need = _still_needed(view, player)
    low = sorted(distinct(view["hand"]), key=number)
    high = list(reversed(low))
    # Face down (nothing playable): keep the high cards while wins are wanted and while the bid
    # is just met (the face-down trick itself takes a win off, and they win it back), else shed them.
    down = low if need >= 0 else high
    # Ordered to the deal's end (design 19: a seat it plays never slows the campaign; IDENTITY-10): a
    # turn with a stand-in seat plays as far as the other players' lists go, and a list cannot wait to
    # see whether the tricks before it were won. So the seat plays high for the first few tricks and low
    # after them, switching where the deals it imagines score best (keeping the winning list to the
    # deal's end took tricks past the bid: docs/standins.md). Each imagined deal has a stream of its
    # own, seeded from the seat's, so every switch is tried on the same deals; one card plays itself.
    tricks = len(view["hand"])
    ways = [[{"play": high, "face_down": down}] * switch + [{"play": low, "face_down": down}] * (tricks - switch)
            for switch in range(tricks)]
    seeds = [str(stream.below(2 ** 40)) for _ in range(IMAGINED if tricks > 1 else 0)]
    way = max(ways, key=lambda way: sum(points_after(view, player, way, Stream(seed, 0, "imagined")) for seed in seeds))
    return [{"trick": view["trick"] + k, "play": list(lists["play"]), "face_down": list(lists["face_down"])}
            for k, lists in enumerate(way)]


def _still_needed(view: View, player: str) -> int:
    bid = view["bid_values"][player] or 0
    return bid - (view["plus"][player] - view["minus"][player])


def _expected_wins(hand: list[str], players: int) -> float:
    return sum(PLUS_SHARE.get(number(card), 0.0) for card in hand) * 4 / players - MINUS_TRICKS


def _bid(view: View, stream: Stream) -> list[str]:
    hand = list(view["hand"])
    players = len(view["players"])
    best: tuple[float, int, list[str]] | None = None
    for i, j in combinations(range(len(hand)), 2):
        pair = [hand[i], hand[j]]
        rest = [c for k, c in enumerate(hand) if k not in (i, j)]
        miss = abs(number(pair[0]) + number(pair[1]) - _expected_wins(rest, players))
        tie = stream.below(1000)
        if best is None or (miss, tie) < (best[0], best[1]):
            best = (miss, tie, pair)
    assert best is not None  # a hand always holds at least two cards at a bid
    return best[2]
