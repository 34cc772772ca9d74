"""Sid's Secrets (v2): seven SIDs a player, five simultaneous turns of stealing and guarding.

Rules in our words: docs/rules/secrets.md. Decisions SECRETS-1..10 are fixed by
the design; SECRETS-11 onwards are ours. Each has a data case in tests/cases/secrets/.

Values, groups, guards and the turn's resolution: rules.py; reading orders:
reading.py; what a player may know: views.py; the demo players: demo.py; the
stand-in: standin.py; disguises and invariants: conformance.py.
"""

from __future__ import annotations

from typing import Any

from ...common.rng import Rng
from ..base import Event, GamePackage, Option, Order, Seat, State, View
from . import conformance, demo, reading, rules, standin, views


class Secrets(GamePackage):
    # The modules GamePackage delegates to (views, reading, demo, standin, conformance).
    views, reading, demo, standin, conformance = views, reading, demo, standin, conformance
    id = "secrets"
    title = "Sid's Secrets"
    nmr_public = True
    """Who sent no orders is public (SECRETS-20: the public report names the players whose SIDs stayed at home): mail may say who is still missing."""
    min_players = 3
    max_players = 6
    field_labels = {"score": "score", "secrets": "secrets left", "sids": "SIDs left"}
    """The players' fields of `pbem show`, in this game's words, in the order its tables show them."""
    options = {
        "turns": Option(5, "how many turns the game lasts (the rulebook plays 5)", minimum=1, maximum=20),
        "max_players": Option(
            6, "raise the 6-player cap, for stress tests only", minimum=3, maximum=100_000
        ),
        "attempt_record": Option(
            1, "1: the state keeps every public steal attempt for the views (stand-ins read it); "
            "a campaign begun before the record existed has no such option and goes on without it",
            minimum=0, maximum=1,
        ),
    }

    # -- setup and flow ----------------------------------------------------

    def setup(self, seats: list[Seat], options: dict[str, Any], rng: Rng) -> State:
        players = [seat.id for seat in seats]
        state = {
            "players": players,
            "names": {seat.id: seat.name for seat in seats},
            "turn": 0,
            "turns": options["turns"],
            "secrets": {p: list(rules.SECRETS) for p in players},
            "sids": {p: list(rules.RANKS) for p in players},
            "score": {p: 0 for p in players},
            "stolen": [],
            "captured": [],
            "restrictions": {p: [] for p in players},
        }
        if options.get("attempt_record", 0):  # absent from the setup of a campaign begun before the record
            state["attempts"] = []
        return state

    def phase(self, state: State) -> str:
        return "orders"

    def due(self, state: State) -> list[str]:
        return [] if self.is_over(state) else list(state["players"])

    def is_over(self, state: State) -> bool:
        return rules.is_over(state)

    def winners(self, state: State) -> list[str]:
        return rules.winners(state)

    # -- orders -------------------------------------------------------------

    def form_examples(self, view: View, player: str) -> list[str]:
        return reading.form_examples(view, player)

    def default_orders(self, state: State, player: str, rng: Rng) -> list[Order]:
        return []  # SECRETS-8: the SIDs of a player who sent nothing valid stay at home

    # -- resolution ---------------------------------------------------------

    def resolve(self, state: State, orders: dict[str, list[Order]], rng: Rng) -> tuple[State, list[Event]]:
        return rules.resolve(state, orders)


GAME = Secrets()
__all__ = ["GAME", "Secrets"]
