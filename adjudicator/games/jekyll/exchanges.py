"""Cards changing hands: the exchange after the deal and the Greed potion's exchange (JEKYLL-13, JEKYLL-14).

These functions change the state they are given: the game's resolve() works on
its own deep copy, so the caller's state is never touched.
"""

from __future__ import annotations

from ..base import Event, Order, State
from .cards import GREED_CARDS, is_potion, low_order, sort_hand
from .rounds import opponent_of


def pick_cards(hand: list[str], wanted: list[str], count: int, potion_rule: bool) -> tuple[list[str], list[str]]:
    """The cards given in an exchange: the first `count` held cards of `wanted`, topped up with the lowest.

    Returns (given, filled): `filled` are those the default chose. With the
    potion rule (JEKYLL-13) a hand of two or more potions gives at least one.
    """
    picks: list[str] = []
    for card in wanted:
        if card in hand and card not in picks and len(picks) < count:
            picks.append(card)
    potions = [c for c in hand if is_potion(c)]
    need_potion = potion_rule and len(potions) >= 2 and not any(is_potion(c) for c in picks)
    if need_potion and len(picks) == count:
        picks.pop()
    filled: list[str] = []
    rest = sorted((c for c in hand if c not in picks), key=low_order)
    if need_potion:
        filled.append(min(potions, key=low_order))
    filled += [c for c in rest if c not in filled][: count - len(picks) - len(filled)]
    return picks + filled, filled


def _gifts(orders: list[Order]) -> list[str]:
    return [o["give"] for o in orders if isinstance(o, dict) and isinstance(o.get("give"), str)]


def _swap_cards(state: State, given: dict[str, list[str]], via: str, trick: int | None) -> None:
    """Both players' chosen cards change hands at the same moment."""
    for giver, cards in given.items():
        taker = opponent_of(state, giver)
        state["hands"][giver] = [c for c in state["hands"][giver] if c not in cards]
        for card in cards:
            state["gave"][giver].append({"card": card, "via": via, "trick": trick})
            state["received"][taker].append({"card": card, "via": via, "trick": trick})
    for giver, cards in given.items():
        taker = opponent_of(state, giver)
        state["hands"][taker] = sort_hand(state["hands"][taker] + cards)


def exchange(state: State, orders: dict[str, list[Order]], events: list[Event]) -> None:
    count = state["exchange_count"]
    given: dict[str, list[str]] = {}
    filled: dict[str, list[str]] = {}
    for p in state["players"]:
        given[p], filled[p] = pick_cards(state["hands"][p], _gifts(orders.get(p, [])), count, potion_rule=True)
    _swap_cards(state, given, "exchange", None)
    for p in state["players"]:
        events.append({"code": "exchanged", "seen_by": [p], "player": p, "round": state["round"],
                       "gave": sort_hand(given[p]), "received": sort_hand(given[opponent_of(state, p)]),
                       "filled": sort_hand(filled[p])})
    events.append({"code": "exchange", "seen_by": "all", "round": state["round"], "count": count})
    state["phase"] = "trick"


def greed_after(state: State, trick: int, plan: dict[str, Order | None], events: list[Event]) -> None:
    """JEKYLL-14: two cards each (one if one is left); an advance `greed` list settles it, else a greed step."""
    count = min(GREED_CARDS, len(state["hands"][state["players"][0]]))
    if count == 0:
        return
    chosen: dict[str, list[str]] = {}
    filled: dict[str, list[str]] = {p: [] for p in state["players"]}
    for p in state["players"]:
        hand = state["hands"][p]
        if len(hand) <= count:  # no choice to make: the whole hand goes
            chosen[p] = list(hand)
        elif plan[p] is not None and "greed" in plan[p]:  # type: ignore[operator]
            chosen[p], filled[p] = pick_cards(hand, plan[p]["greed"], count, potion_rule=False)  # type: ignore[index]
    waiting = [p for p in state["players"] if p not in chosen]
    if waiting:
        state["greed"] = {"trick": trick, "count": count, "chosen": chosen}
        state["phase"] = "greed"
        events.append({"code": "greed_waiting", "seen_by": "all", "round": state["round"], "trick": trick,
                       "count": count, "waiting": waiting})
        return
    finish_greed(state, trick, chosen, filled, events)


def greed_step(state: State, orders: dict[str, list[Order]], events: list[Event]) -> None:
    greed = state["greed"]
    chosen = dict(greed["chosen"])
    filled: dict[str, list[str]] = {p: [] for p in state["players"]}
    for p in state["players"]:
        if p not in chosen:
            chosen[p], filled[p] = pick_cards(state["hands"][p], _gifts(orders.get(p, [])), greed["count"], potion_rule=False)
    finish_greed(state, greed["trick"], chosen, filled, events)
    state["greed"] = None
    state["phase"] = "trick"


def finish_greed(state: State, trick: int, chosen: dict[str, list[str]], filled: dict[str, list[str]], events: list[Event]) -> None:
    _swap_cards(state, chosen, "greed", trick)
    for p in state["players"]:
        events.append({"code": "greed_exchanged", "seen_by": [p], "player": p, "round": state["round"], "trick": trick,
                       "gave": sort_hand(chosen[p]), "received": sort_hand(chosen[opponent_of(state, p)]),
                       "filled": sort_hand(filled[p])})
    events.append({"code": "greed_exchange", "seen_by": "all", "round": state["round"], "trick": trick,
                   "count": len(chosen[state["players"][0]])})
