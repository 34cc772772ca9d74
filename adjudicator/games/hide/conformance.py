"""What the conformance and leak suites ask of H.I.D.E.: disguised worlds and invariants."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable
from typing import Any

from ...common.rng import Rng, Stream
from ..base import Event, Order, State
from .components import BUILDINGS, COLOURS, GADGET_CARDS, LEGEND_RANK, RANK_CARDS


Resolver = Callable[[State, dict[str, list[Order]], Rng], tuple[State, list[Event]]]
SAFE_POUCH = 8
"""A disguised colour is swapped with a pouch die at least this deep: no turn draws that many before the next shake."""


def disguises(resolve: Resolver, state: State, orders: dict[str, list[Order]], player: str, stream: Stream
              ) -> list[tuple[State, dict[str, list[Order]]]]:
    """Other worlds where `player`'s identity die or face-down intel differs, and nothing public does.

    An identity die is only changed while it stays hidden through the turn, and only
    to a die that leaves every public outcome the same: where the player's picks land
    and whether each guess at them hits. Outcomes are compared as facts (codes,
    dice, placements, results), never as whole events or reports, so a field that
    leaked the die would still make the conformance suite fail.
    """
    check = Rng("disguise-check", state.get("turn", 0) + 1)
    base, base_events = resolve(state, orders, check)
    worlds = []
    if _die_stays_hidden(state, base, player):
        for world in _identity_worlds(state, orders, player, stream):
            after, events = resolve(world[0], world[1], check)
            if _facts(events, player) == _facts(base_events, player) and _table(after) == _table(base):
                worlds.append(world)
            if len(worlds) == 2:
                break
    if base["stage"] != "over":
        stacked = _stack_world(state, player, stream)
        if stacked is not None:
            worlds.append((stacked, orders))
    return worlds


def _die_stays_hidden(state: State, base: State, player: str) -> bool:
    return (base["stage"] != "over" and base["round"] == state["round"] and player not in base["out"]
            and player not in base["revealed"])


def _identity_worlds(state: State, orders: dict[str, list[Order]], player: str, stream: Stream
                     ) -> list[tuple[State, dict[str, list[Order]]]]:
    mine = state["identity"][player]
    if mine is None:
        return []
    choosing = state["stage"] in ("identity", "security")
    targets = [b for b in BUILDINGS if b != state["security"]]
    candidates = [(c, b) for c in COLOURS for b in targets]
    stream.shuffle(candidates)
    worlds = []
    for colour, icon in candidates:
        if colour == mine["colour"] and (choosing or icon == mine["icon"]):
            continue
        world = copy.deepcopy(state)
        if colour != mine["colour"]:
            deep = [i for i in range(SAFE_POUCH, len(world["pouch"])) if world["pouch"][i] == colour]
            if not deep:
                continue
            world["pouch"][deep[-1]] = mine["colour"]
        world["identity"][player] = {"colour": colour, "icon": None if choosing else icon}
        world_orders = dict(orders)
        if state["stage"] == "identity":
            world_orders[player] = [{"target": icon}]
        worlds.append((world, world_orders))
    return worlds


def _facts(events: list[Event], player: str) -> list[tuple[Any, ...]]:
    """What others see happen, as bare facts."""
    keys = ("code", "player", "target", "die", "placed", "placement", "result", "pool", "building", "to", "cards")
    return [tuple(str(e.get(k)) for k in keys) for e in events if _seen_by_another(e, player)]


def _seen_by_another(event: Event, player: str) -> bool:
    seen = event.get("seen_by", "all")
    return seen == "all" or any(p != player for p in seen)


def _table(state: State) -> tuple[Any, ...]:
    return (state["stage"], state["start"], sorted(state["out"]), str(state["pool"]), str(state["screens"]))


def _stack_world(state: State, player: str, stream: Stream) -> State | None:
    """Swap one face-down intel card for a deck card that no placement reaches this turn."""
    intel = state["stacks"][player]["intel"]
    deck = state["deck"]
    reach = 4 if state["round"] < 3 else 0
    if not intel:
        return None
    mine = stream.below(len(intel))
    spots = [i for i in range(reach, len(deck)) if deck[i] != intel[mine]]
    if not spots:
        return None
    spot = stream.choice(spots)
    world = copy.deepcopy(state)
    stack = world["stacks"][player]["intel"]
    stack[mine], world["deck"][spot] = world["deck"][spot], stack[mine]
    return world


# -- invariants ----------------------------------------------------------------------


def invariants(state: State) -> list[str]:
    problems = []
    dice: Counter[str] = Counter(state["pouch"])
    dice.update(d["colour"] for d in state["pool"])
    for p in state["players"]:
        dice.update(d["colour"] for where in ("top", "front") for d in state["screens"][p][where])
        if state["identity"][p] is not None:
            dice[state["identity"][p]["colour"]] += 1
    for colour in COLOURS:
        if dice[colour] != state["dice_per_colour"]:
            problems.append(f"{dice[colour]} {colour} dice are in play, not {state['dice_per_colour']}")
    cards = list(state["deck"]) + [v for b in BUILDINGS for v in state["buildings"][b]]
    cards += [v for p in state["players"] for v in state["stacks"][p]["intel"]]
    if sorted(cards) != sorted(state["intel_values"]):
        problems.append(f"the intel cards {sorted(cards)} are not the table {state['intel_values']}")
    ranks = state["rank_supply"] + sum(state["ranks"].values()) + sum(s["ranks"] for s in state["stacks"].values())
    if ranks != RANK_CARDS:
        problems.append(f"{ranks} rank cards are accounted for, not {RANK_CARDS}")
    if sorted(list(state["gadgets"].values()) + state["gadget_spare"]) != sorted(GADGET_CARDS):
        problems.append("the gadget cards dealt and spare are not two of each building")
    if any(r > LEGEND_RANK for r in state["ranks"].values()):
        problems.append("a rank passed the Legend's 7")
    if state["stage"] == "mission":
        standing = [p for p in state["players"] if p not in state["out"]]
        for p in standing:
            held = len(state["screens"][p]["top"]) + len(state["screens"][p]["front"])
            if held != state["mission_turn"] - 1:
                problems.append(f"{p} holds {held} dice before mission turn {state['mission_turn']}")
        if len(state["pool"]) != len(standing) + 1 and state["pouch"]:
            problems.append(f"the pool holds {len(state['pool'])} dice for {len(standing)} survivors")
    if state["stage"] == "over" and len(state["winners"]) != 1:
        problems.append("a finished game has exactly one winner")
    return problems

