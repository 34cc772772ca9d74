"""The 3rd phase, mission accomplished: identity disclosure, then intel and showdowns building by building."""

from __future__ import annotations

from ...common.rng import Rng
from ..base import Event, State
from .components import BUILDINGS
from .rounds import gain_rank, over
from .showdown import fight


def accomplish(new: State, rng: Rng, events: list[Event]) -> None:
    """Survivors show their dice; each building, from the far left, goes to its lone agent or to a showdown."""
    standing = [p for p in new["players"] if p not in new["out"]]
    for p in standing:
        new["revealed"][p] = dict(new["identity"][p])
    events.append({"code": "disclosed", "seen_by": "all", "dice": {p: dict(new["identity"][p]) for p in standing}})
    for building in BUILDINGS:
        agents = [p for p in standing if new["identity"][p]["icon"] == building]
        if not agents:
            if new["buildings"][building]:
                events.append({"code": "intel_stays", "seen_by": "all", "building": building,
                               "cards": list(new["buildings"][building])})
            continue
        winner = agents[0] if len(agents) == 1 else showdown(new, building, agents, rng, events)
        acquire(new, winner, building, events)
        if over(new):
            return


def acquire(new: State, player: str, building: str, events: list[Event]) -> None:
    cards = new["buildings"][building]
    new["buildings"][building] = []
    new["stacks"][player]["intel"].extend(cards)
    events.append({"code": "intel_acquired", "seen_by": "all", "player": player, "building": building, "cards": cards})
    gain_rank(new, player, events, f"the {building} mission")


def showdown(new: State, building: str, agents: list[str], rng: Rng, events: list[Event]) -> str:
    """Life = identity die + dice on top of the screen, + 1 for a gadget card of this building (HIDE-21)."""
    # The dice in front of the screens go back into the pouch first, so the extra life dice can come from it.
    for p in agents:
        new["pouch"].extend(d["colour"] for d in new["screens"][p]["front"])
        new["screens"][p]["front"] = []
    life = {}
    gadget = []
    spare = len(new["pouch"])  # the extra dice are only counted: the pouch is emptied into it at the round's end
    for p in agents:
        life[p] = 1 + len(new["screens"][p]["top"])
        if new["gadgets"][p] == building and spare > 0:
            spare -= 1
            life[p] += 1
            gadget.append(p)
    winner, rolls = fight(life, agents, rng.stream(f"showdown/round-{new['round']}/{building}"))
    events.append({"code": "showdown", "seen_by": "all", "building": building, "players": agents,
                   "life": life, "gadget": gadget, "rolls": rolls, "winner": winner})
    return winner
