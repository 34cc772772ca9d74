"""The stand-in of Identity: bid from the hand's strength, then play to the bid.

The bid: each high card left in the hand is worth a share of a plus trick (a +4 is
often the highest face-up card of its trick, a +1 seldom), less the minus trick or so
a deal brings (a seat with nothing playable goes face down), and the two bid cards are
the pair whose sum comes nearest that estimate of the wins. The shares are what the
stand-in's own hands won in bench/standins.py's games (docs/standins.md). In the tricks: while the seat still needs wins it lists its
playable cards highest first, to take plus tricks; once it has its bid it lists them
lowest first, to let others take them; a forced face-down play gives up the card it
needs least. It orders every trick to the end of the deal (see `orders`), so a stand-in
seat never holds the campaign back to one trick a turn. Only the seat's own view is
read: its hand, the bids and the tricks so far. docs/standins.md.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from ...common.rng import Stream
from ..base import View
from .cards import distinct, number

PLUS_SHARE = {4: 0.89, 3: 0.48, 2: 0.18, 1: 0.07}
"""What each card left in a hand is worth in wins, with four players; fewer players take more."""
MINUS_TRICKS = 1.0
"""The wins a hand loses to face-down plays over a deal, whatever its cards (about one, with four players).

Both are the least-squares fit of the wins the stand-in's hands made over 3,000 bench games (before,
0.55, 0.35, 0.15 and 0.05 and no minus trick: bids too close to two whatever the hand)."""


def orders(view: View, player: str, stream: Stream) -> list[Any]:
    if view["stage"] == "bid":
        return [{"bid": _bid(view, stream)}]
    need = _still_needed(view, player)
    hand = list(view["hand"])
    by_number = sorted(distinct(hand), key=number)
    play = list(reversed(by_number)) if need > 0 else by_number
    # Face down (nothing playable): keep the high cards while wins are wanted and while the bid
    # is just met (the face-down trick itself takes a win off, and they win it back), else shed them.
    down = by_number if need >= 0 else list(reversed(by_number))
    # Ordered to the deal's end (design 19: a seat it plays never slows the campaign; IDENTITY-10): a
    # turn with a stand-in seat plays as far as the other players' lists go. While it needs wins the
    # later tricks keep the list that wins them: it wins at most one a trick, so it still needs wins
    # before each of the next n tricks, and past them only if it took every one. Ordering just those
    # n tricks held a campaign to n tricks a turn (trial 6: a turn stopped two tricks before the deal's
    # end); docs/standins.md gives the bench's figures for both.
    ahead = len(hand)
    return [{"trick": view["trick"] + k, "play": list(play), "face_down": list(down)} for k in range(max(1, ahead))]


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
