"""Identity: bid with two cards, then must-not-follow tricks; variants X (long game) and Y (randomized).

Rules in our words and the decisions IDENTITY-1 onwards: docs/rules/identity.md.
Each decision has a data case in tests/cases/identity/.

A trick turn plays tricks from the players' preference lists until a list no
longer settles a play (IDENTITY-10), so email play needs one round trip per few
tricks, not per card.

Card notation and the deck: cards.py; dealing and the bids: deals.py; reading
orders: reading.py; playing tricks: tricks.py; scoring and the long game:
scoring.py; what a player may know: views.py; the demo players: demo.py;
disguises and invariants: conformance.py.
"""

from __future__ import annotations

import copy
from typing import Any

from ...common.rng import Rng
from ..base import Event, GamePackage, Option, Order, Reading, Seat, State, View
from . import conformance, demo, reading, scoring, standin, views
from .cards import BLACK, COLOURS
from .deals import new_deal, resolve_bids
from .reading import read_bids, read_tricks
from .tricks import play_tricks

VARIANTS = ("standard", "x", "y", "xy")


class Identity(GamePackage):
    # The modules GamePackage delegates to (views, reading, demo, standin, conformance).
    views, reading, demo, standin, conformance = views, reading, demo, standin, conformance
    id = "identity"
    title = "Identity"
    min_players = 3
    max_players = 6
    field_labels = {"score": "score", "deal_points": "points per deal", "bid": "bid", "bid_cards": "bid cards", "plus": "plus tricks", "minus": "minus tricks", "wins": "plus - minus", "cards_left": "cards in hand", "hand": "hand"}
    """The players' fields of `pbem show`, in this game's words, in the order its tables show them."""
    options = {
        "variant": Option(
            "standard",
            "standard (one deal), x (long game: two deals), y (randomized: black 0s shuffled in, 3-5 players), xy (both)",
            choices=VARIANTS,
        ),
        "doubled": Option(False, "long game only: the second deal's points count double"),
    }

    # -- setup and flow ------------------------------------------------------

    def setup(self, seats: list[Seat], options: dict[str, Any], rng: Rng) -> State:
        players = [seat.id for seat in seats]
        count = len(players)
        variant = options.get("variant", "standard")
        long_game = variant in ("x", "xy")
        # IDENTITY-17: with six players every card is already dealt, so Y adds nothing.
        randomized = variant in ("y", "xy") and count < 6
        colours = list(COLOURS[: min(count, 5)])
        if count == 6 or randomized:
            colours.append(BLACK)
        state: State = {
            "players": players,
            "names": {seat.id: seat.name for seat in seats},
            "turn": 0,
            "variant": variant,
            "long_game": long_game,
            "randomized": randomized,
            "doubled": bool(options.get("doubled", False)) and long_game,
            "colours": colours,
            "deals": 2 if long_game else 1,
            "score": {p: 0 for p in players},
            "results": [],
            "over": False,
        }
        starter = rng.stream("deal-1/starter").choice(players)  # IDENTITY-3
        return new_deal(state, 1, starter, rng)

    def phase(self, state: State) -> str:
        return state["stage"]

    def due(self, state: State) -> list[str]:
        return [] if state["over"] else list(state["players"])

    def is_over(self, state: State) -> bool:
        return bool(state["over"])

    def winners(self, state: State) -> list[str]:
        return scoring.winners(state)

    # -- orders ------------------------------------------------------------------

    def read_orders(self, view: View, player: str, items: list[tuple[int, Any]]) -> list[Reading]:
        if view["stage"] == "bid":
            return read_bids(view, items)
        return read_tricks(view, items)

    def form_examples(self, view: View, player: str) -> list[str]:
        return reading.form_examples(view, player)

    def default_orders(self, state: State, player: str, rng: Rng) -> list[Order]:
        # IDENTITY-4 and IDENTITY-8: a silent player's bid is drawn at random and
        # their plays follow the default rule, both inside resolve.
        return []

    # -- resolution -----------------------------------------------------------------

    def resolve(self, state: State, orders: dict[str, list[Order]], rng: Rng) -> tuple[State, list[Event]]:
        new = copy.deepcopy(state)
        new["turn"] = state["turn"] + 1
        if state["stage"] == "bid":
            return new, resolve_bids(new, orders, rng)
        events = play_tricks(new, orders)
        if new["trick"] > new["tricks"]:
            events += scoring.end_deal(new, rng)
        return new, events


GAME = Identity()
__all__ = ["GAME", "Identity"]
