"""The 2nd phase, going on a mission: roll, pick in turn, place, shoot, gadget, last man standing.

One adjudication settles one mission turn: every survivor's preference list is
played in seat order from the starting player. Functions change the `new`
state they are given (resolve works on its own copy).
"""

from __future__ import annotations

from typing import Any

from ...common.rng import Rng
from ..base import Event, Order, State
from .accomplished import accomplish
from .components import (
    BUILDINGS,
    FACES,
    GUN,
    LEGEND_RANK,
    MISSION_TURNS,
    Die,
    die_key,
    richest,
    rotation,
    shares_feature,
)
from .rounds import crown, draw_die, end_round, gain_rank, over


def survivors(state: State) -> list[str]:
    """Players still in the round, in seat order."""
    return [p for p in state["players"] if p not in state["out"]]


def roll(new: State, rng: Rng, events: list[Event]) -> None:
    """Bring the pool up to survivors + 1 dice from the pouch and roll them (HIDE-10)."""
    turn = new["mission_turn"]
    stream = rng.stream(f"roll/round-{new['round']}/mission-{turn}")
    kept = [] if new["reroll_leftovers"] else list(new["pool"])
    rolling = [d["colour"] for d in new["pool"]] if new["reroll_leftovers"] else []
    drawn = 0
    while len(kept) + len(rolling) < len(survivors(new)) + 1 and new["pouch"]:
        rolling.append(draw_die(new))
        drawn += 1
    rolled = [{"colour": c, "icon": FACES[stream.die(6) - 1]} for c in rolling]
    new["pool"] = sorted(kept + rolled, key=die_key)
    events.append({"code": "dice_rolled", "seen_by": "all", "round": new["round"], "mission_turn": turn,
                   "drawn": drawn, "kept": kept, "pool": list(new["pool"]), "start": new["start"]})


def default_turn(identity: Die) -> str:
    """A gun of one's own colour must be turned; unordered, it becomes the leftmost building one does not target."""
    return next(b for b in BUILDINGS if b != identity["icon"])


def placed_die(chosen: Die, gun: str | None, identity: Die) -> Die:
    """The die as it will lie: a gun may be turned to any building (HIDE-11, HIDE-12)."""
    if chosen["icon"] != GUN:
        return dict(chosen)
    if chosen["colour"] == identity["colour"] and gun in (None, "keep"):
        return {"colour": chosen["colour"], "icon": default_turn(identity)}
    return {"colour": chosen["colour"], "icon": chosen["icon"] if gun in (None, "keep") else gun}


def _default_pick(new: State, identity: Die) -> dict[str, Any]:
    """NMR pick: the first pool die that goes in front of the screen as it is; else the first die (HIDE-16)."""
    for d in new["pool"]:
        if not shares_feature(placed_die(d, None, identity), identity):
            return {"pick": dict(d)}
    return {"pick": dict(new["pool"][0])}


def play_turn(new: State, orders: dict[str, list[Order]], rng: Rng, events: list[Event]) -> None:
    """Every survivor picks once, from the starting player round the table."""
    for player in rotation(new["players"], new["start"]):
        if player in new["out"]:
            continue
        items = orders.get(player, [])
        take_die(new, player, items, events)
        if over(new) or new["stage"] != "mission":
            return
        if len(survivors(new)) == 1:
            last_man_standing(new, survivors(new)[0], orders, rng, events)
            return
        use_gadget(new, player, items, events)
    pass_start(new, events)
    if new["mission_turn"] >= MISSION_TURNS:
        accomplish(new, rng, events)
        end_round(new, rng, events)
    else:
        new["mission_turn"] += 1
        roll(new, rng, events)


def take_die(new: State, player: str, items: list[Order], events: list[Event]) -> None:
    """The first listed die still in the pool (or the NMR pick), placed by its features, then the shot."""
    if not new["pool"]:
        return
    identity = new["identity"][player]
    picks = [o for o in items if "pick" in o]
    chosen = next((o for o in picks if o["pick"] in new["pool"]), None)
    default = chosen is None
    if default:
        chosen = _default_pick(new, identity)
    new["pool"].remove(chosen["pick"])
    placed = placed_die(chosen["pick"], chosen.get("gun"), identity)
    where = "top" if shares_feature(placed, identity) else "front"
    new["screens"][player][where].append(placed)
    event: Event = {"code": "picked", "seen_by": "all", "player": player, "die": dict(chosen["pick"]),
                    "placed": placed, "placement": where, "turned": placed != chosen["pick"], "default": default,
                    "listed": picks.index(chosen) + 1 if not default else None}
    if default:
        # Why the default pick was made, for the player's report (HIDE-16): no valid pick in the
        # player's orders (the report tells an NMR from its submission), or a list that ran dry.
        event["why"] = "no_picks" if not picks else "list_ran_dry"
    events.append(event)
    if where == "top":
        attempt(new, player, placed, chosen.get("guess", []), events, default_pick=default)


def _default_guess(new: State, player: str, placed: Die) -> dict[str, str]:
    """Mandatory shot with no usable guess: the next survivor, guessed as the die just placed (HIDE-14)."""
    order = rotation(new["players"], player)[1:]
    target = next(p for p in order if p not in new["out"])
    return {"player": target, "colour": placed["colour"], "icon": placed["icon"]}


def attempt(new: State, player: str, placed: Die, guesses: list[dict[str, str]], events: list[Event],
            default_pick: bool = False) -> None:
    """An assassination attempt: the first listed guess whose target is still in the round."""
    guess = next((g for g in guesses if g["player"] != player and g["player"] not in new["out"]), None)
    default = guess is None
    if default:
        if new["assassination"] == "optional":
            events.append({"code": "no_attempt", "seen_by": "all", "player": player})
            return
        guess = _default_guess(new, player, placed)
    target = guess["player"]
    identity = new["identity"][target]
    hit = identity["colour"] == guess["colour"] and identity["icon"] == guess["icon"]
    event: Event = {"code": "assassination", "seen_by": "all", "player": player, "target": target,
                    "guess": {"colour": guess["colour"], "icon": guess["icon"]}, "result": "hit" if hit else "miss",
                    "default": default}
    if default:
        # Why the default guess was made (HIDE-14): the pick was the default one, the pick named no
        # guess, or every agent it guessed at was shot earlier in this turn.
        event["why"] = "default_pick" if default_pick else "no_guess" if not guesses else "guesses_out"
    events.append(event)
    if hit:
        assassinate(new, player, target, event, events)


def assassinate(new: State, player: str, target: str, event: Event, events: list[Event]) -> None:
    """The target shows their die and leaves the round; the assassin takes every rank card they had."""
    new["out"][target] = {"by": player, "mission_turn": new["mission_turn"]}
    new["revealed"][target] = dict(new["identity"][target])
    taken = new["ranks"][target]
    new["ranks"][target] = 0
    event["revealed"] = dict(new["identity"][target])
    event["ranks_taken"] = taken
    if taken == 0:
        return
    # One card raises the assassin's rank; the rest lie face down as intel (HIDE-15).
    new["stacks"][player]["ranks"] += taken - 1
    new["ranks"][player] += 1
    if new["ranks"][player] >= LEGEND_RANK:
        crown(new, [player], events, rng=None)


def use_gadget(new: State, player: str, items: list[Order], events: list[Event]) -> None:
    """Once a round, after one's pick: turn one die left in the pool to any icon (HIDE-17)."""
    if player in new["gadget_used"]:
        return
    chosen = next((o["gadget"] for o in items if "gadget" in o and o["gadget"]["die"] in new["pool"]), None)
    if chosen is None:
        return
    new["pool"].remove(chosen["die"])
    new["pool"] = sorted([*new["pool"], {"colour": chosen["die"]["colour"], "icon": chosen["to"]}], key=die_key)
    new["gadget_used"].append(player)
    events.append({"code": "gadget_used", "seen_by": "all", "player": player, "die": dict(chosen["die"]),
                   "to": chosen["to"], "gadget": new["gadgets"][player], "pool": list(new["pool"])})


def last_man_standing(new: State, player: str, orders: dict[str, list[Order]], rng: Rng, events: list[Event]) -> None:
    """Everyone else assassinated: the survivor empties a building of their choice and the round ends (HIDE-18)."""
    wanted = next((o["last_man"] for o in orders.get(player, []) if "last_man" in o), None)
    building = wanted or richest(new["buildings"])
    cards = new["buildings"][building]
    new["buildings"][building] = []
    new["stacks"][player]["intel"].extend(cards)
    new["start"] = player
    events.append({"code": "last_man", "seen_by": "all", "player": player, "building": building,
                   "cards": cards, "default": wanted is None})
    gain_rank(new, player, events, "last man standing")
    end_round(new, rng, events)


def pass_start(new: State, events: list[Event]) -> None:
    """The start player card goes to the first survivor on the left."""
    order = rotation(new["players"], new["start"])[1:] + [new["start"]]
    new["start"] = next(p for p in order if p not in new["out"])
    events.append({"code": "start_passed", "seen_by": "all", "player": new["start"]})
