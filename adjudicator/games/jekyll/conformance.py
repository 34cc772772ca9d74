"""The conformance hooks: other worlds for the non-interference check, and the invariants of a state."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from ...common.rng import Rng, Stream
from ..base import Event, Order, State
from .cards import COLOURS, DECK, HAND, SET_ASIDE, TRICKS, colour, sort_hand
from .rounds import opponent_of, role_player

Resolver = Callable[[State, dict[str, list[Order]], Rng], tuple[State, list[Event]]]


def disguises(
    resolve: Resolver, state: State, orders: dict[str, list[Order]], player: str, stream: Stream
) -> list[tuple[State, dict[str, list[Order]]]]:
    """Swap cards of `player`'s hand with set-aside cards of the same suit (or potion for potion).

    Only cards the opponent cannot know about move: never one the opponent
    gave this player, and only swaps that leave every card played this turn,
    and every card the opponent receives, exactly as they were. Following or
    not following suit then tells the opponent the same in both worlds.
    """
    if state["over"]:
        return []
    opponent = opponent_of(state, player)
    pending = state["greed"]["chosen"].get(player, []) if state["greed"] else []
    known = {g["card"] for g in state["gave"][opponent]} | set(pending)
    pairs = [
        (mine, aside)
        for mine in state["hands"][player]
        if mine not in known
        for aside in state["set_aside"]
        if colour(mine) == colour(aside)
    ]
    stream.shuffle(pairs)
    base = _trace(resolve, state, orders, opponent)
    kept: list[tuple[str, str]] = []
    worlds: list[tuple[State, dict[str, list[Order]]]] = []
    for mine, aside in pairs:
        if any(mine in pair or aside in pair for pair in kept):
            continue
        world = _swap(state, player, [(mine, aside)])
        if _trace(resolve, world, orders, opponent) == base:
            kept.append((mine, aside))
            worlds.append((world, orders))
        if len(kept) == 2:
            both = _swap(state, player, kept)  # both swaps at once, too
            if _trace(resolve, both, orders, opponent) == base:
                worlds.append((both, orders))
            break
    return worlds


def invariants(state: State) -> list[str]:
    problems: list[str] = []
    played = [c for t in state["played"] for c in (t["lead"], t["follow"])]
    everywhere = [c for p in state["players"] for c in state["hands"][p]] + state["set_aside"] + played
    if sorted(everywhere) != sorted(DECK):
        problems.append("the hands, the set-aside pile and the played tricks do not hold the 25 cards once each")
    if len(state["set_aside"]) != SET_ASIDE:
        problems.append(f"{len(state['set_aside'])} cards are set aside, not {SET_ASIDE}")
    sizes = {len(state["hands"][p]) for p in state["players"]}
    if sizes != {HAND - len(state["played"])}:
        problems.append(f"hand sizes {sorted(sizes)} do not match {len(state['played'])} tricks played")
    piles = sorted(n for p in state["players"] for n in state["piles"][p])
    if piles != [t["trick"] for t in state["played"]]:
        problems.append("the players' trick piles do not hold each played trick once")
    if not 0 <= state["marker"] <= state["track"]:
        problems.append(f"the marker {state['marker']} is off the track 0-{state['track']}")
    for h in state["history"]:
        if sum(h["tricks"].values()) != TRICKS or h["moved"] != abs(h["tricks"][state["players"][0]] - h["tricks"][state["players"][1]]):
            problems.append(f"round {h['round']} does not share out {TRICKS} tricks or moved the marker wrongly")
    moved = min(state["track"], sum(h["moved"] for h in state["history"]))
    if moved != state["marker"]:
        problems.append(f"the marker is on {state['marker']} but the rounds moved it {moved}")
    ranking = state["ranking"]
    if len(set(ranking)) != len(ranking) or len(ranking) not in (0, 1, 3) or not set(ranking) <= set(COLOURS):
        problems.append(f"the suit ranking {ranking} is not a ranking")
    hyde = role_player(state, "hyde")
    if state["over"] and state["winner"] != (hyde if state["marker"] >= state["track"] else opponent_of(state, hyde)):
        problems.append("the winner does not follow from the marker")
    return problems


def _swap(state: State, player: str, pairs: list[tuple[str, str]]) -> State:
    world = copy.deepcopy(state)
    for mine, aside in pairs:
        world["hands"][player] = sort_hand([aside if c == mine else c for c in world["hands"][player]])
        world["set_aside"] = sort_hand([mine if c == aside else c for c in world["set_aside"]])
    return world


def _trace(resolve: Resolver, state: State, orders: dict[str, list[Order]], opponent: str) -> Any:
    """What the opponent and the public see of a turn: every card played and given to the opponent."""
    # The deal of a next round is the only draw, and it does not depend on the hands: any seed will do here.
    new, events = resolve(state, orders, Rng("disguise-trace", 0))
    seen = [
        {k: e.get(k) for k in ("code", "trick", "lead", "follow", "named", "winner", "taken", "received", "waiting")}
        for e in events
        if e["code"] in ("trick", "greed_waiting") or (e["code"] in ("exchanged", "greed_exchanged") and e["player"] == opponent)
    ]
    return seen, new["phase"], new["trick"], new["hands"].get(opponent)
