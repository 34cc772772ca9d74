"""What the conformance and leak suites ask of Hide the Kids!: disguised worlds and invariants."""

from __future__ import annotations

from typing import Any

from ...common.rng import Stream
from ..base import Order, State, visible
from .rules import FURNITURE, PEBBLE_TARGET, WHERE, WOLF_TARGET, hiding_places, is_over, pebbles_at, play_turn, wolf_lifts
from .views import view


def disguises(
    state: State, orders: dict[str, list[Order]], player: str, stream: Stream
) -> list[tuple[State, dict[str, list[Order]]]]:
    """Other orders of `player` that every other player, and the public, would see the same.

    Escaped kids reveal where they hid, so a kid's place is secret only when the
    wolf wins before lifting it; the wolf's second lift only when the first one wins.
    """
    if is_over(state) or wolf_lifts(state, orders) is None:
        return []  # a drawn lift cannot be replayed without the turn's own rng
    if player == state["wolf"]:
        candidates = [[{"lift": [a, b]}] for a in FURNITURE for b in FURNITURE if a != b]
    else:
        candidates = [[{"hide": piece}] for piece in FURNITURE]
    current = orders.get(player, [])
    base = _seen_by_others(state, orders, player)
    worlds = []
    for candidate in candidates:
        if candidate == current:
            continue
        world = {**orders, player: candidate}
        if _seen_by_others(state, world, player) == base:
            worlds.append((state, world))
    stream.shuffle(worlds)
    return worlds[:2]


def _seen_by_others(state: State, orders: dict[str, list[Order]], player: str) -> list[Any]:
    new, events = play_turn(state, hiding_places(state, orders), wolf_lifts(state, orders) or [], False)
    return [
        (view(new, other), [e for e in events if visible(e, other)])
        for other in [None, *state["players"]]
        if other != player
    ]


def invariants(state: State) -> list[str]:
    problems: list[str] = []
    wolf, kids = state["wolf"], state["kids"]
    if wolf in kids or sorted([wolf, *kids]) != sorted(state["players"]):
        problems.append("the wolf and the kids do not make up the players")
    tokens = 0
    pebbles = {kid: 0 for kid in kids}
    for number, record in enumerate(state["history"], start=1):
        wolf_won = state["outcome"] == "wolf" and number == len(state["history"])
        problems.extend(_record_problems(record, kids, wolf_won))
        tokens += len(record["not_hidden"]) + sum(len(lift["found"]) for lift in record["lifts"])
        for escape in record["escaped"]:
            pebbles[escape["kid"]] += escape["pebbles"]
            if escape["discarded"] and tokens == 0:
                problems.append(f"turn {record['turn']}: the wolf discarded a kid token it did not have")
            tokens -= 1 if escape["discarded"] else 0
    if tokens != state["kid_tokens"]:
        problems.append(f"the wolf holds {state['kid_tokens']} kid tokens but captures less discards make {tokens}")
    if pebbles != state["pebbles"]:
        problems.append(f"the kids' pebbles {state['pebbles']} are not the {pebbles} their escapes won")
    if len(state["history"]) != state["turn"]:
        problems.append(f"{len(state['history'])} turn records for {state['turn']} turns")
    problems.extend(_outcome_problems(state))
    return problems


def _record_problems(record: dict[str, Any], kids: list[str], wolf_won: bool) -> list[str]:
    """One turn's record: the lifts, and every kid accounted for once (unless the wolf won mid-turn)."""
    where = f"turn {record['turn']}"
    problems = []
    lifted = [lift["furniture"] for lift in record["lifts"]]
    if not 1 <= len(lifted) <= 2 or len(set(lifted)) != len(lifted) or not set(lifted) <= set(FURNITURE):
        problems.append(f"{where}: the lifts {lifted} are not one or two different pieces")
    accounted = record["not_hidden"] + [k for lift in record["lifts"] for k in lift["found"]]
    accounted += [escape["kid"] for escape in record["escaped"]]
    if len(set(accounted)) != len(accounted) or not set(accounted) <= set(kids):
        problems.append(f"{where}: a kid is accounted for twice, or is not a kid")
    if wolf_won and record["escaped"]:
        problems.append(f"{where}: kids escaped although the wolf won at a lift")
    if not wolf_won and (len(lifted) != 2 or sorted(accounted) != sorted(kids)):
        problems.append(f"{where}: a turn that goes on has two lifts and every kid captured or escaped")
    for escape in record["escaped"]:
        if escape["furniture"] in lifted:
            problems.append(f"{where}: {escape['kid']} escaped from the lifted {escape['furniture']}")
        if escape["pebbles"] != pebbles_at(escape["furniture"]):
            problems.append(f"{where}: {escape['kid']} won {escape['pebbles']} pebbles {WHERE[escape['furniture']]}")
        if escape["discarded"] and escape["furniture"] != "clock":
            problems.append(f"{where}: {escape['kid']} made the wolf discard from outside the clock")
    return problems


def _outcome_problems(state: State) -> list[str]:
    tokens, best = state["kid_tokens"], max(state["pebbles"].values())
    outcome = state["outcome"]
    if outcome is None and (tokens >= WOLF_TARGET or best >= PEBBLE_TARGET):
        return ["someone reached 7 but the game goes on"]
    if outcome == "wolf" and tokens < WOLF_TARGET:
        return [f"the wolf won with {tokens} kid tokens"]
    if outcome == "kids" and best < PEBBLE_TARGET:
        return [f"the kids won with at most {best} pebbles"]
    if outcome not in (None, "wolf", "kids"):
        return [f"unknown outcome {outcome!r}"]
    return []
