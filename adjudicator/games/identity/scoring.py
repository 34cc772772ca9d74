"""Scoring a finished deal, the second deal of the long game, and the winners."""

from __future__ import annotations

import copy

from ...common.rng import Rng
from ..base import Event, State, leaders
from .cards import number
from .deals import new_deal

POINTS = {0: 5, 1: 3, 2: 2}
"""Points by the difference between bid and wins; 3 or more scores nothing."""


def points(bid: int, wins: int) -> int:
    """IDENTITY-15: 5 for an exact bid, 3 one off, 2 two off, nothing further off."""
    return POINTS.get(abs(bid - wins), 0)


def end_deal(state: State, rng: Rng) -> list[Event]:
    """Score the finished deal; in the long game deal the second (IDENTITY-16); else the game ends."""
    deal = state["deal"]
    multiplier = 2 if state["doubled"] and deal == 2 else 1
    rows = {}
    for p in state["players"]:
        bid = sum(map(number, state["bids"][p]))
        wins = state["plus"][p] - state["minus"][p]
        rows[p] = {"bid": bid, "plus": state["plus"][p], "minus": state["minus"][p], "wins": wins,
                   "difference": abs(bid - wins), "points": points(bid, wins)}
        state["score"][p] += rows[p]["points"] * multiplier
    result = {"deal": deal, "multiplier": multiplier, "rows": rows, "bids": copy.deepcopy(state["bids"])}
    state["results"].append(result)
    events: list[Event] = [{"code": "deal_scored", "seen_by": "all", **copy.deepcopy(result),
                            "score": dict(state["score"])}]
    if deal < state["deals"]:
        low = min(rows[p]["points"] for p in state["players"])
        tied = [p for p in state["players"] if rows[p]["points"] == low]
        starter = tied[0] if len(tied) == 1 else rng.stream(f"deal-{deal + 1}/starter").choice(tied)
        new_deal(state, deal + 1, starter, rng)
        events.append({"code": "new_deal", "seen_by": "all", "deal": deal + 1, "starter": starter, "tied": tied})
    else:
        state["over"] = True
        events.append({"code": "game_over", "seen_by": "all", "winners": leaders(state["players"], state["score"])})
    return events


def winners(state: State) -> list[str]:
    """Once the game is over, the highest score (joint winners on a tie); nobody before."""
    if not state["over"]:
        return []
    return leaders(state["players"], state["score"])
