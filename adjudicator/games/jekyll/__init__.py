"""Jekyll vs Hyde: two players, three rounds of ten tricks, potions and a shifting suit ranking.

Rules in our words: docs/rules/jekyll.md (decisions JEKYLL-1 onwards, each with a
data case in tests/cases/jekyll/). The Korean rulebook is the source; where the
English translation differs, the Korean stands.

A round is: the deal (chance), the `exchange` phase (both players give 1, 2 or 3
cards at once), then `trick` turns. A trick turn plays the pending trick with both
players' orders (NMR defaults for the silent) and goes on to later tricks for as
long as both players gave orders for them. A Greed potion's exchange is settled
by the `greed` list given with the trick order, or else by a `greed` phase of its own.

The deck, card notation and strength: cards.py; the suit ranking and who takes a
trick: ranking.py; reading orders: reading.py; playing tricks and the potion
effects: tricks.py; the exchange and the Greed exchange: exchanges.py; the deal,
the identity track and the end: rounds.py; views: views.py; the demo players:
demo.py; disguises and invariants: conformance.py.
"""

from __future__ import annotations

import copy
from typing import Any

from ...common.rng import Rng, Stream
from ..base import Event, GamePackage, Option, Order, Reading, Seat, State, View
from . import conformance, demo, reading, standin, views
from .cards import DECK, low_order, parse_card
from .exchanges import exchange, greed_step
from .ranking import lead_wins
from .reading import read_gifts, read_tricks
from .rounds import deal
from .tricks import play_tricks


class Jekyll(GamePackage):
    # The modules GamePackage delegates to (views, reading, demo, standin, conformance).
    views, reading, demo, standin, conformance = views, reading, demo, standin, conformance
    id = "jekyll"
    title = "Jekyll vs Hyde"
    min_players = 2
    max_players = 2
    field_labels = {"role": "role", "marker": "identity marker", "tricks": "tricks this round", "cards": "cards in hand", "leads": "leads the next trick", "hand": "hand"}
    """The players' fields of `pbem show`, in this game's words, in the order its tables show them."""
    options = {
        "jekyll": Option(
            "first", "which listed player is Dr. Jekyll (the other is Mr. Hyde): first or second", choices=("first", "second")
        ),
        "track": Option(10, "steps on the identity track from Jekyll's home (0) to Hyde's home", minimum=2, maximum=40),
    }

    # -- setup and flow ------------------------------------------------------------

    def setup(self, seats: list[Seat], options: dict[str, Any], rng: Rng) -> State:
        players = [seat.id for seat in seats]
        jekyll = players[0] if options["jekyll"] == "first" else players[1]
        state: State = {
            "players": players,
            "names": {seat.id: seat.name for seat in seats},
            "roles": {p: "jekyll" if p == jekyll else "hyde" for p in players},
            "track": options["track"],
            "marker": 0,
            "history": [],
            "over": False,
            "winner": None,
        }
        deal(state, 1, jekyll, rng)
        return state

    def phase(self, state: State) -> str:
        return state["phase"]

    def due(self, state: State) -> list[str]:
        if state["over"]:
            return []
        if state["phase"] == "greed":
            return [p for p in state["players"] if p not in state["greed"]["chosen"]]
        return list(state["players"])

    def is_over(self, state: State) -> bool:
        return state["over"]

    def winners(self, state: State) -> list[str]:
        return [state["winner"]] if state["over"] else []

    # -- reading orders ---------------------------------------------------------------

    def read_orders(self, view: View, player: str, items: list[tuple[int, Any]]) -> list[Reading]:
        if view["phase"] == "trick":
            return read_tricks(view, items)
        if view["phase"] == "exchange":
            count, rule = view["exchange_count"], True
        else:
            count, rule = view["greed"]["count"], False
        return read_gifts(view, items, count, rule)

    def form_examples(self, view: View, player: str) -> list[str]:
        return reading.form_examples(view, player)

    def default_orders(self, state: State, player: str, rng: Rng) -> list[Order]:
        # JEKYLL-18: the silent give nothing on paper; resolution gives (and plays) their lowest cards.
        return []

    # -- resolution ---------------------------------------------------------------------

    def resolve(self, state: State, orders: dict[str, list[Order]], rng: Rng) -> tuple[State, list[Event]]:
        new = copy.deepcopy(state)
        events: list[Event] = []
        if state["phase"] == "exchange":
            exchange(new, orders, events)
        elif state["phase"] == "greed":
            greed_step(new, orders, events)
        else:
            play_tricks(new, orders, events, rng)
        return new, events

    # -- demo and conformance hooks -------------------------------------------------------

    def disguises(
        self, state: State, orders: dict[str, list[Order]], player: str, stream: Stream
    ) -> list[tuple[State, dict[str, list[Order]]]]:
        return conformance.disguises(self.resolve, state, orders, player, stream)


GAME = Jekyll()
# The rules' building blocks the tests check directly.
__all__ = ["DECK", "GAME", "Jekyll", "lead_wins", "low_order", "parse_card"]
