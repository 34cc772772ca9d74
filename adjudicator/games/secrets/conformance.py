"""What the conformance and leak suites ask of Sid's Secrets: disguised worlds and invariants."""

from __future__ import annotations

import copy

from ...common.rng import Stream
from ..base import Order, State
from .rules import CAPTURE_POINTS, RANKS, SECRETS, value


def disguises(
    state: State, orders: dict[str, list[Order]], player: str, stream: Stream
) -> list[tuple[State, dict[str, list[Order]]]]:
    """Guards that no steal meets, and the restrictions they leave, are the player's alone."""
    attacked = {(o["steal"]["player"], o["steal"]["secret"]) for os in orders.values() for o in os if "steal" in o}
    mine = orders.get(player, [])
    quiet = [o for o in mine if "guard" in o and (player, o["guard"]) not in attacked]
    busy = {o["sid"] for o in mine}
    free_secrets = [s for s in state["secrets"][player] if (player, s) not in attacked]
    idle = [sid for sid in state["sids"][player] if sid not in busy]
    kept = [o for o in mine if o not in quiet]
    worlds: list[tuple[State, dict[str, list[Order]]]] = []
    if quiet:  # the unmet guards stay at home instead
        worlds.append((state, {**orders, player: kept}))
    if free_secrets and (quiet or idle):  # they, and the idle SIDs, guard elsewhere unmet
        moved = [{"sid": o["sid"], "guard": stream.choice(free_secrets)} for o in quiet]
        moved += [{"sid": sid, "guard": stream.choice(free_secrets)} for sid in idle]
        worlds.append((state, {**orders, player: kept + moved}))
    other = copy.deepcopy(state)  # last turn's unmet guards were elsewhere
    other["restrictions"][player] = (
        [] if state["restrictions"][player] else [{"sid": sid, "secret": stream.choice(free_secrets)} for sid in idle[:2]]
    ) if free_secrets else []
    worlds.append((other, orders))
    return worlds


def invariants(state: State) -> list[str]:
    problems = []
    for p in state["players"]:
        stolen_from = {s["secret"] for s in state["stolen"] if s["owner"] == p}
        if sorted(set(state["secrets"][p]) | stolen_from) != list(SECRETS) or set(state["secrets"][p]) & stolen_from:
            problems.append(f"{p}'s secrets and the secrets stolen from them do not make up 1-10")
        lost = {c["sid"] for c in state["captured"] if c["player"] == p}
        if sorted(set(state["sids"][p]) | lost) != list(RANKS) or set(state["sids"][p]) & lost:
            problems.append(f"{p}'s SIDs and their captured SIDs do not make up 1-7")
        earned = sum(value(s["secret"]) for s in state["stolen"] if s["by"] == p)
        earned += CAPTURE_POINTS * sum(1 for c in state["captured"] if c["by"] == p)
        if earned != state["score"][p]:
            problems.append(f"{p}'s score {state['score'][p]} is not the {earned} their thefts and captures earned")
    return problems
