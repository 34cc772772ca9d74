"""A round's 1st phase (ranks, gadgets, intel, security, identity dice), its end, and the end of the game.

These functions change the `new` state they are given: the game's resolve()
works on its own deep copy, so the caller's state is never touched.
"""

from __future__ import annotations

from ...common.rng import Rng
from ..base import Event, State, leaders
from .components import (
    BUILDINGS,
    COLOURS,
    FACES,
    GADGET_CARDS,
    GUN,
    LEGEND_RANK,
    ROUNDS,
    rotation,
)
from .showdown import fight


def all_dice(state: State) -> list[str]:
    """Every die of the game by colour, in a fixed order: the pouch before it is shaken."""
    return [c for c in COLOURS for _ in range(state["dice_per_colour"])]


def draw_die(new: State) -> str | None:
    """The next die out of the pouch (its order was shaken at the start of the round)."""
    return new["pouch"].pop(0) if new["pouch"] else None


def over(new: State) -> bool:
    return new["stage"] == "over"


def gain_rank(new: State, player: str, events: list[Event], why: str) -> None:
    """One rank card from the supply to the player's hideout; the 7th makes them the Legend."""
    if new["rank_supply"] == 0:
        events.append({"code": "rank_supply_empty", "seen_by": "all", "player": player, "why": why})
        return
    new["rank_supply"] -= 1
    new["ranks"][player] += 1
    if new["ranks"][player] >= LEGEND_RANK and not over(new):
        crown(new, [player], events, rng=None)


def crown(new: State, legends: list[str], events: list[Event], rng: Rng | None) -> None:
    """The Legend ends the game at once; several at once fight a one-die showdown (HIDE-24)."""
    winner = legends[0]
    if len(legends) > 1 and rng is not None:
        winner, rolls = fight({p: 1 for p in legends}, legends, rng.stream(f"legend-tie/round-{new['round']}"))
        events.append({"code": "tie_showdown", "seen_by": "all", "why": "legend", "players": legends,
                       "rolls": rolls, "winner": winner})
    new["stage"] = "over"
    new["legend"] = winner
    new["winners"] = [winner]
    events.append({"code": "legend", "seen_by": "all", "player": winner, "rank": new["ranks"][winner]})


def begin_round(new: State, number: int, rng: Rng, events: list[Event]) -> None:
    """The 1st phase: raise ranks, deal gadgets, place intel, place security, draw identity dice."""
    players = new["players"]
    new.update(round=number, mission_turn=0, pool=[], revealed={}, out={}, security=None, security_die=None,
               gadget_used=[], stage="identity")
    new["pouch"] = all_dice(new)
    rng.stream(f"pouch/round-{number}").shuffle(new["pouch"])
    new["screens"] = {p: {"top": [], "front": []} for p in players}
    new["identity"] = {p: None for p in players}
    events.append({"code": "round_started", "seen_by": "all", "round": number, "start": new["start"]})

    raise_ranks(new, rng, events)
    if over(new):
        return
    deal_gadgets(new, rng, events)
    place_intel(new, events)
    if len(players) == 3:
        roll_security(new, rng, events)
    for p in rotation(players, new["start"]):
        colour = draw_die(new)
        new["identity"][p] = {"colour": colour, "icon": None}
        events.append({"code": "identity_drawn", "seen_by": [p], "player": p, "colour": colour})


def raise_ranks(new: State, rng: Rng, events: list[Event]) -> None:
    """Every player takes a rank card, from the starting player round the table (HIDE-19)."""
    raised = []
    for p in rotation(new["players"], new["start"]):
        if new["rank_supply"] > 0:
            new["rank_supply"] -= 1
            new["ranks"][p] += 1
            raised.append(p)
        else:
            events.append({"code": "rank_supply_empty", "seen_by": "all", "player": p, "why": "raising"})
    events.append({"code": "ranks_raised", "seen_by": "all", "players": raised, "ranks": dict(new["ranks"])})
    legends = [p for p in new["players"] if new["ranks"][p] >= LEGEND_RANK]
    if legends:
        crown(new, legends, events, rng)


def deal_gadgets(new: State, rng: Rng, events: list[Event]) -> None:
    cards = list(GADGET_CARDS)
    rng.stream(f"gadgets/round-{new['round']}").shuffle(cards)
    order = rotation(new["players"], new["start"])
    new["gadgets"] = {p: cards[i] for i, p in enumerate(order)}
    new["gadget_spare"] = sorted(cards[len(order):], key=BUILDINGS.index)
    events.append({"code": "gadgets_dealt", "seen_by": "all", "gadgets": dict(new["gadgets"])})


def place_intel(new: State, events: list[Event]) -> None:
    """One intel card from the top of the deck under each building, left to right, on top of older ones."""
    placed = {}
    for b in BUILDINGS:
        if new["deck"]:
            card = new["deck"].pop(0)
            new["buildings"][b].append(card)
            placed[b] = card
    events.append({"code": "intel_placed", "seen_by": "all", "cards": placed,
                   "buildings": {b: list(v) for b, v in new["buildings"].items()}})


def roll_security(new: State, rng: Rng, events: list[Event]) -> None:
    """3 players: a die from the pouch secures the building it shows; a gun lets the starting player choose."""
    stream = rng.stream(f"security/round-{new['round']}")
    colour = draw_die(new)
    icon = FACES[stream.die(6) - 1]
    # The die goes back into the pouch at a random place, as if dropped into the bag (HIDE-8).
    new["pouch"].insert(stream.below(len(new["pouch"]) + 1), colour)
    new["security_die"] = {"colour": colour, "icon": icon}
    if icon == GUN:
        new["stage"] = "security"
    else:
        new["security"] = icon
    events.append({"code": "security_rolled", "seen_by": "all", "die": {"colour": colour, "icon": icon},
                   "building": None if icon == GUN else icon, "player": new["start"]})


def end_round(new: State, rng: Rng, events: list[Event]) -> None:
    """Gather the dice; after the last round, the ordinary victory; else the next round."""
    if over(new):
        return
    events.append({"code": "round_ended", "seen_by": "all", "round": new["round"]})
    gather_dice(new)
    if new["round"] >= ROUNDS:
        final_scores(new, rng, events)
        return
    begin_round(new, new["round"] + 1, rng, events)


def gather_dice(new: State) -> None:
    """Every die back into the pouch between rounds; identity dice that were never shown stay unknown."""
    new["pouch"] = all_dice(new)
    new["pool"] = []
    new["screens"] = {p: {"top": [], "front": []} for p in new["players"]}
    new["identity"] = {p: None for p in new["players"]}


def score(state: State, player: str) -> int:
    """Intel cards on the hideout plus every face-down rank card at its intel value (HIDE-6)."""
    stack = state["stacks"][player]
    return sum(stack["intel"]) + stack["ranks"] * state["rank_value"]


def final_scores(new: State, rng: Rng, events: list[Event]) -> None:
    """Ordinary victory: the richest agent wins; a tie fights a one-die showdown (HIDE-25)."""
    scores = {p: score(new, p) for p in new["players"]}
    top = leaders(new["players"], scores)
    winner = top[0]
    new["scores"] = scores
    if len(top) > 1:
        winner, rolls = fight({p: 1 for p in top}, top, rng.stream("final-tie"))
        events.append({"code": "tie_showdown", "seen_by": "all", "why": "richest", "players": top,
                       "rolls": rolls, "winner": winner})
    new["stage"] = "over"
    new["winners"] = [winner]
    events.append({"code": "ordinary_victory", "seen_by": "all", "scores": scores,
                   "stacks": {p: dict(new["stacks"][p], intel=list(new["stacks"][p]["intel"])) for p in new["players"]},
                   "player": winner})
