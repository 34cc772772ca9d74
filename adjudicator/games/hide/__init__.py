"""H.I.D.E. (Hidden Identity Dice Espionage): three rounds of secret identity dice, a dice draft with
assassinations, gadgets and showdowns; the 7th rank card makes the Legend, else the richest agent wins.

Rules in our words and the decisions HIDE-1.. : docs/rules/hide.md; each decision
has a data case in tests/cases/hide/. Pieces and names: components.py; the
round's 1st phase and the end: rounds.py; the dice draft: mission.py; the 3rd
phase: accomplished.py and showdown.py; reading orders: reading.py; views:
views.py; the demo players: demo.py; the stand-in: standin.py; disguises and
invariants: conformance.py.
"""

from __future__ import annotations

import copy
from typing import Any

from ...common.rng import Rng, Stream
from ..base import Event, GamePackage, Option, Order, Reading, Seat, State, View
from . import conformance, demo, reading, standin, views
from .components import (
    BUILDINGS,
    DEFAULT_INTEL,
    DICE_PER_COLOUR,
    RANK_CARDS,
    parse_intel,
    richest,
    rotation,
)
from .mission import play_turn, roll
from .rounds import begin_round


class Hide(GamePackage):
    # The modules GamePackage delegates to (views, reading, demo, standin, conformance).
    views, reading, demo, standin, conformance = views, reading, demo, standin, conformance
    id = "hide"
    title = "H.I.D.E."
    min_players = 3
    max_players = 5
    field_labels = {"rank": "rank", "stack_cards": "hideout cards", "score": "intel", "identity": "identity die", "gadget": "gadget", "gadget_used": "gadget used", "out": "assassinated", "top": "dice on top", "front": "dice in front"}
    """The players' fields of `pbem show`, in this game's words, in the order its tables show them."""
    options = {
        "intel_values": Option(DEFAULT_INTEL, "the 16 intel card values, separated by commas (HIDE-5)"),
        "rank_value": Option(1, "what a face-down rank card is worth as intel (HIDE-6)", minimum=0, maximum=99),
        "assassination": Option("mandatory", "whether a die placed on top must be followed by a guess (HIDE-14)",
                                choices=("mandatory", "optional")),
        "reroll_leftovers": Option(True, "whether dice left from the last mission turn are rolled again (HIDE-10)"),
    }

    # -- setup and flow --------------------------------------------------------

    def setup(self, seats: list[Seat], options: dict[str, Any], rng: Rng) -> State:
        players = [seat.id for seat in seats]
        deck = parse_intel(options["intel_values"])
        rng.stream("intel-deck").shuffle(deck)
        state: State = {
            "players": players,
            "names": {seat.id: seat.name for seat in seats},
            "turn": 0,
            "intel_values": parse_intel(options["intel_values"]),
            "rank_value": options["rank_value"],
            "assassination": options["assassination"],
            "reroll_leftovers": options["reroll_leftovers"],
            "dice_per_colour": DICE_PER_COLOUR[len(players)],
            "start": players[0],  # HIDE-7: the first seat holds the start player card
            "deck": deck,
            "buildings": {b: [] for b in BUILDINGS},
            "ranks": {p: 0 for p in players},
            "rank_supply": RANK_CARDS,
            "stacks": {p: {"intel": [], "ranks": 0} for p in players},
            "gadgets": {},
            "gadget_spare": [],
            "legend": None,
            "winners": [],
            "scores": None,
        }
        begin_round(state, 1, rng, [])
        return state

    def phase(self, state: State) -> str:
        """security (3 players, a gun secured nothing), identity, mission; a finished game stays in its last."""
        return state["stage"] if state["stage"] != "over" else "mission"

    def due(self, state: State) -> list[str]:
        if state["stage"] == "over":
            return []
        if state["stage"] == "security":
            return [state["start"]]
        return [p for p in state["players"] if p not in state["out"]]

    def is_over(self, state: State) -> bool:
        return state["stage"] == "over"

    def winners(self, state: State) -> list[str]:
        return list(state["winners"])

    # -- orders ------------------------------------------------------------------

    def read_orders(self, view: View, player: str, items: list[tuple[int, Any]]) -> list[Reading]:
        phase = view["stage"]
        if phase == "identity":  # one line may hold the choices in order (HIDE-28), each read as a line of its own
            items = [(i, choice) for i, item in items for choice in reading.choices_in(item)]
        readings = [Reading(index=i, written=reading.write(item)) for i, item in items]
        parsed = list(zip(readings, [item for _, item in items], strict=True))
        if phase == "mission":
            reading.read_mission(view, player, parsed)
        else:
            reading.read_choice(view, player, phase, parsed)
        return readings

    def default_orders(self, state: State, player: str, rng: Rng) -> list[Order]:
        """HIDE-16: the richest building where a building is chosen; an empty list (the NMR pick) on a mission."""
        if state["stage"] == "security":
            return [{"security": richest(state["buildings"]), "nmr": True}]
        if state["stage"] == "identity":
            allowed = [b for b in BUILDINGS if b != state["security"]]
            return [{"target": richest(state["buildings"], allowed), "nmr": True}]
        return []

    # -- resolution -----------------------------------------------------------------

    def resolve(self, state: State, orders: dict[str, list[Order]], rng: Rng) -> tuple[State, list[Event]]:
        new = copy.deepcopy(state)
        new["turn"] = state["turn"] + 1
        events: list[Event] = []
        if state["stage"] == "security":
            self._secure(new, orders.get(state["start"], []), events)
        elif state["stage"] == "identity":
            self._choose_identities(new, orders, rng, events)
        elif state["stage"] == "mission":
            play_turn(new, orders, rng, events)
        return new, events

    def _secure(self, new: State, given: list[Order], events: list[Event]) -> None:
        chosen = next((o for o in given if "security" in o), None)
        new["security"] = chosen["security"] if chosen else richest(new["buildings"])
        new["stage"] = "identity"
        events.append({"code": "security_chosen", "seen_by": "all", "player": new["start"],
                       "building": new["security"], "default": chosen is None or chosen.get("nmr", False)})

    def _choose_identities(self, new: State, orders: dict[str, list[Order]], rng: Rng, events: list[Event]) -> None:
        allowed = [b for b in BUILDINGS if b != new["security"]]
        for p in rotation(new["players"], new["start"]):
            chosen = next((o for o in orders.get(p, []) if o.get("target") in allowed), None)
            new["identity"][p]["icon"] = chosen["target"] if chosen else richest(new["buildings"], allowed)
            event = {"code": "identity_set", "seen_by": [p], "player": p, "die": dict(new["identity"][p]),
                     "default": chosen is None or chosen.get("nmr", False)}
            if event["default"]:  # no valid order file, or no building in it that may be targeted (HIDE-16)
                event["why"] = "no_orders" if chosen is not None else "no_target"
            events.append(event)
        events.append({"code": "identities_hidden", "seen_by": "all", "players": list(new["players"])})
        new["stage"] = "mission"
        new["mission_turn"] = 1
        roll(new, rng, events)

    # -- views and hooks -------------------------------------------------------------

    def disguises(
        self, state: State, orders: dict[str, list[Order]], player: str, stream: Stream
    ) -> list[tuple[State, dict[str, list[Order]]]]:
        return conformance.disguises(self.resolve, state, orders, player, stream)


GAME = Hide()
__all__ = ["GAME", "Hide"]
