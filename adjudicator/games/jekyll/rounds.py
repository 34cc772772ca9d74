"""A round from the deal to its end: the deal, the identity track, the next round or the end of the game.

These functions change the state they are given: the game's resolve() works on
its own deep copy, so the caller's state is never touched.
"""

from __future__ import annotations

from ...common.rng import Rng
from ..base import Event, State
from .cards import DECK, HAND, ROUNDS, sort_hand


def opponent_of(state: State, player: str) -> str:
    return next(p for p in state["players"] if p != player)


def role_player(state: State, role: str) -> str:
    return next(p for p in state["players"] if state["roles"][p] == role)


def exchange_count(round_number: int) -> int:
    """Round 1 exchanges one card, round 2 two, round 3 three."""
    return round_number


def on_hyde_half(marker: int, track: int) -> bool:
    """JEKYLL-2: with 10 steps, 0-4 is Jekyll's half and 5-10 Hyde's."""
    return 2 * marker >= track


def deal(state: State, round_number: int, leader: str, rng: Rng) -> None:
    """Shuffle all 25 cards; deal 10 each, one at a time, Jekyll first; set the last 5 aside (JEKYLL-1)."""
    deck = list(DECK)
    rng.stream(f"deal/round-{round_number}").shuffle(deck)
    jekyll, hyde = role_player(state, "jekyll"), role_player(state, "hyde")
    state["hands"] = {jekyll: sort_hand(deck[0 : 2 * HAND : 2]), hyde: sort_hand(deck[1 : 2 * HAND : 2])}
    state["set_aside"] = sort_hand(deck[2 * HAND :])
    state.update(
        round=round_number,
        phase="exchange",
        exchange_count=exchange_count(round_number),
        trick=1,
        leader=leader,
        ranking=[],  # JEKYLL-7: every round starts with the suits unranked
        played=[],
        piles={p: [] for p in state["players"]},
        received={p: [] for p in state["players"]},
        gave={p: [] for p in state["players"]},
        greed=None,
    )


def end_round(state: State, events: list[Event], rng: Rng) -> None:
    """JEKYLL-15, JEKYLL-16: the difference in tricks moves the marker toward Hyde; then the next round or the end."""
    won = {p: len(state["piles"][p]) for p in state["players"]}
    moved = abs(won[state["players"][0]] - won[state["players"][1]])
    state["marker"] = min(state["track"], state["marker"] + moved)
    state["history"].append({"round": state["round"], "tricks": won, "moved": moved, "marker": state["marker"]})
    events.append({"code": "round_end", "seen_by": "all", "round": state["round"], "tricks": won,
                   "moved": moved, "marker": state["marker"], "track": state["track"]})
    hyde, jekyll = role_player(state, "hyde"), role_player(state, "jekyll")
    if state["marker"] >= state["track"] or state["round"] >= ROUNDS:
        state["over"] = True
        state["winner"] = hyde if state["marker"] >= state["track"] else jekyll
        events.append({"code": "game_over", "seen_by": "all", "winner": state["winner"],
                       "role": state["roles"][state["winner"]], "round": state["round"], "marker": state["marker"]})
        return
    leader = hyde if on_hyde_half(state["marker"], state["track"]) else jekyll
    deal(state, state["round"] + 1, leader, rng)
    events.append({"code": "dealt", "seen_by": "all", "round": state["round"], "leader": leader,
                   "exchange_count": state["exchange_count"]})
