"""Hide the Kids!: one wolf, up to seven kids, seven pieces of furniture.

Each turn every kid hides behind or under one piece and the wolf names the two
pieces it lifts, in order, all in one set of orders. Kids who did not hide are
captured at the growl; kids under a lifted piece are captured; the rest escape
and win pebbles (the tub pays two, the clock costs the wolf a kid token).

Rules in our words: docs/rules/hidekids.md. Decisions HIDEKIDS-1 onwards each
have a data case in tests/cases/hidekids/.

The furniture, the turn and the end: rules.py; reading orders: reading.py; what
a player may know: views.py; the demo players: demo.py; the stand-in:
standin.py; disguises and invariants: conformance.py.
"""

from __future__ import annotations

from typing import Any

from ...common.rng import Rng
from ..base import Event, GamePackage, Option, Order, Seat, State
from . import conformance, demo, reading, rules, standin, views
from .rules import FURNITURE


class HideTheKids(GamePackage):
    # The modules GamePackage delegates to (views, reading, demo, standin, conformance).
    views, reading, demo, standin, conformance = views, reading, demo, standin, conformance
    id = "hidekids"
    title = "Hide the Kids!"
    nmr_public = True
    """Who sent no orders is public (HIDEKIDS-5: a kid with no hiding place is caught at the growl, in public): mail may say who is still missing."""
    min_players = 2
    max_players = 8
    field_labels = {"role": "role", "kid_tokens": "kid tokens", "pebbles": "pebbles"}
    """The players' fields of `pbem show`, in this game's words, in the order its tables show them."""
    options = {
        "wolf": Option(
            "first",
            "who plays the wolf: a player id, 'first' (the first player listed, the default), "
            "'last', or 'random' (drawn from the seed)",
        ),
    }

    # -- setup and flow ----------------------------------------------------

    def setup(self, seats: list[Seat], options: dict[str, Any], rng: Rng) -> State:
        """The wolf, the kids in seat order, no tokens yet.

        `history` holds one public record per turn (see rules.play_turn); `kept_secret`
        stays empty unless the wolf wins mid-turn (HIDEKIDS-6).
        """
        players = [seat.id for seat in seats]
        wolf = rules.choose_wolf(players, str(options.get("wolf", "first")), rng)
        kids = [p for p in players if p != wolf]
        return {
            "players": players,
            "names": {seat.id: seat.name for seat in seats},
            "turn": 0,
            "wolf": wolf,
            "kids": kids,
            "kid_tokens": 0,
            "pebbles": {kid: 0 for kid in kids},
            "history": [],
            "outcome": None,
            "kept_secret": {},
        }

    def phase(self, state: State) -> str:
        return "hide-and-seek"

    def due(self, state: State) -> list[str]:
        return [] if self.is_over(state) else list(state["players"])

    def is_over(self, state: State) -> bool:
        return rules.is_over(state)

    def winners(self, state: State) -> list[str]:
        return rules.winners(state)

    # -- orders -------------------------------------------------------------

    def default_orders(self, state: State, player: str, rng: Rng) -> list[Order]:
        # HIDEKIDS-4/5: a silent kid has not hidden; a silent wolf's lifts are drawn in resolve.
        return []

    # -- resolution ---------------------------------------------------------

    def resolve(self, state: State, orders: dict[str, list[Order]], rng: Rng) -> tuple[State, list[Event]]:
        return rules.resolve(state, orders, rng)


GAME = HideTheKids()
# FURNITURE: the pieces, which tests/test_hidekids.py walks through.
__all__ = ["FURNITURE", "GAME", "HideTheKids"]
