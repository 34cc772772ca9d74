"""Playing tricks: what may follow, the pending trick and the later ones both players ordered, the potion effects.

These functions change the state they are given: the game's resolve() works on
its own deep copy, so the caller's state is never touched.
"""

from __future__ import annotations

from ...common.rng import Rng
from ..base import Event, Order, State
from .cards import COLOURS, DEFAULT_NAME, TRICKS, colour, is_potion, low_order
from .exchanges import greed_after
from .ranking import lead_wins, rank_colours
from .rounds import end_round, opponent_of


def legal_follows(hand: list[str], lead: str, named: str | None) -> list[str]:
    """The cards the follower may play (JEKYLL-5, JEKYLL-6)."""
    if is_potion(lead):
        wanted = [c for c in hand if named is not None and colour(c) == named]
        return wanted or list(hand)
    led = colour(lead)
    if any(colour(c) == led for c in hand):
        return [c for c in hand if colour(c) == led or is_potion(c)]
    return list(hand)


def effect_of(lead: str, follow: str) -> str | None:
    """A potion against a colour card: pride, greed or wrath by that card's colour; two potions: none (JEKYLL-11)."""
    if is_potion(lead) == is_potion(follow):
        return None
    other = follow if is_potion(lead) else lead
    return {"purple": "pride", "green": "greed", "red": "wrath"}[colour(other)]  # type: ignore[index]


def play_tricks(state: State, orders: dict[str, list[Order]], events: list[Event], rng: Rng) -> None:
    """The pending trick, then each later one both players ordered, until an order, a choice or the round runs out."""
    plans = {p: {o["trick"]: o for o in orders.get(p, []) if isinstance(o, dict) and "trick" in o} for p in state["players"]}
    start_round, played_now = state["round"], []
    while state["phase"] == "trick" and not state["over"] and state["round"] == start_round:
        t = state["trick"]
        forced = all(len(state["hands"][p]) == 1 for p in state["players"])
        if played_now and not forced and any(t not in plans[p] for p in state["players"]):
            break  # JEKYLL-20: later tricks are played only while both players ordered them
        _play_trick(state, {p: None if forced else plans[p].get(t) for p in state["players"]}, forced, events)
        played_now.append(t)
        if state["trick"] > TRICKS:
            end_round(state, events, rng)
    stopped_at = state["trick"]
    for p in state["players"]:
        unused = sorted(n for n in plans[p] if n not in played_now)
        if unused:
            # Each player learns only what the stop already tells them: whose order was missing, if theirs was not.
            why = "greed_step" if state["phase"] == "greed" else (
                "you_silent" if stopped_at not in plans[p] else "opponent_silent")
            events.append({"code": "orders_unused", "seen_by": [p], "player": p, "tricks": unused, "why": why,
                           "stopped_at": stopped_at})


def _first(cards: list[str], allowed: list[str]) -> str | None:
    return next((c for c in cards if c in allowed), None)


def _play_trick(state: State, plan: dict[str, Order | None], forced: bool, events: list[Event]) -> None:
    t, leader = state["trick"], state["leader"]
    follower = opponent_of(state, leader)
    hands = state["hands"]
    lead_plan, follow_plan = plan[leader] or {}, plan[follower] or {}

    lead = _first(lead_plan.get("play", []), hands[leader])
    if lead is None:
        lead = min(hands[leader], key=low_order)  # JEKYLL-19
        if not forced:
            events.append(_defaulted(leader, t, lead, lead_plan))
    named = None
    if is_potion(lead) and not forced:
        named = lead_plan.get("name")
        if named not in COLOURS:
            named = DEFAULT_NAME
            events.append({"code": "named_default", "seen_by": [leader], "player": leader, "trick": t, "colour": named})
    legal = legal_follows(hands[follower], lead, named)
    follow = _first(follow_plan.get("play", []), legal)
    if follow is None:
        follow = min(legal, key=low_order)
        if not forced:
            events.append(_defaulted(follower, t, follow, follow_plan))

    hands[leader] = [c for c in hands[leader] if c != lead]
    hands[follower] = [c for c in hands[follower] if c != follow]
    before = state["ranking"]
    ranking = rank_colours(before, [lead, follow])
    winner = leader if lead_wins(lead, follow, ranking) else follower
    loser = opponent_of(state, winner)
    effect = effect_of(lead, follow)
    state["piles"][winner].append(t)
    taken = None
    if effect == "pride" and len(state["piles"][loser]) > 0:  # JEKYLL-12: the opponent's latest trick
        taken = state["piles"][loser].pop()
        state["piles"][winner].append(taken)
        state["piles"][winner].sort()
    ranked = ranking
    if effect == "wrath":  # JEKYLL-8: the reset clears the colours of this very trick too
        ranking = []
    state["ranking"] = ranking
    record = {"trick": t, "leader": leader, "follower": follower, "lead": lead, "follow": follow, "named": named,
              "winner": winner, "effect": effect, "taken": taken, "ranked": ranked, "ranking": ranking, "forced": forced}
    state["played"].append(record)
    events.append({"code": "trick", "seen_by": "all", "round": state["round"], **record, "before": before,
                   "tricks": {p: len(state["piles"][p]) for p in state["players"]}})
    state["leader"] = winner
    state["trick"] = t + 1
    if effect == "greed":
        greed_after(state, t, plan, events)


def _defaulted(player: str, trick: int, card: str, plan: Order) -> Event:
    return {"code": "played_default", "seen_by": [player], "player": player, "trick": trick, "card": card,
            "why": "none_legal" if plan else "no_order"}
