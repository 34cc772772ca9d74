"""A toy sixth game for tests/test_toy_game.py: each turn every player guesses their own hidden
number (1-3); a hit scores a point nobody else sees until the end. Small, but it has what the
conformance suite asks of a game: a secret, void orders, NMR defaults, a stand-in, disguises."""

from __future__ import annotations

import copy
from typing import Any

from adjudicator.common.rng import Rng, Stream
from adjudicator.games.base import Event, Option, Order, Reading, Seat, State, View, VoidOrder, leaders

NUMBERS = (1, 2, 3)


class Toy:
    id = "toy"
    title = "Toy"
    min_players = 2
    max_players = 8
    options = {"turns": Option(2, "how many turns the game lasts", minimum=1, maximum=5)}

    def setup(self, seats: list[Seat], options: dict[str, Any], rng: Rng) -> State:
        stream = rng.stream("secret")
        players = [seat.id for seat in seats]
        return {"players": players, "names": {s.id: s.name for s in seats}, "turn": 0, "turns": options["turns"],
                "secret": {p: stream.choice(list(NUMBERS)) for p in players}, "hits": {p: 0 for p in players}}

    def phase(self, state: State) -> str:
        return "guess"

    def due(self, state: State) -> list[str]:
        return [] if self.is_over(state) else list(state["players"])

    def is_over(self, state: State) -> bool:
        return state["turn"] >= state["turns"]

    def winners(self, state: State) -> list[str]:
        return leaders(state["players"], state["hits"]) if self.is_over(state) else []

    def read_orders(self, view: View, player: str, items: list[tuple[int, Any]]) -> list[Reading]:
        readings = []
        for index, item in items:
            reading = Reading(index=index, written=str(item))
            readings.append(reading)
            try:
                guess = item["guess"] if isinstance(item, dict) else int(str(item).removeprefix("guess").strip())
            except ValueError:
                reading.refuse(VoidOrder("unreadable", "write 'guess <1-3>'"))
                continue
            if any(r.accepted for r in readings[:-1]):
                reading.refuse(VoidOrder("second_order", "only your first guess counts (TOY-1)"))
            elif guess not in NUMBERS:
                reading.refuse(VoidOrder("no_such_number", f"there is no {guess}: guess 1, 2 or 3"))
            else:
                reading.order, reading.meaning = {"guess": guess}, f"you guess {guess}"
        return readings

    def default_orders(self, state: State, player: str, rng: Rng) -> list[Order]:
        return [{"guess": 1}]

    def resolve(self, state: State, orders: dict[str, list[Order]], rng: Rng) -> tuple[State, list[Event]]:
        new = copy.deepcopy(state)
        new["turn"] += 1
        events: list[Event] = [{"code": "turn_played", "seen_by": "all", "turn": new["turn"]}]
        for p in state["players"]:
            hit = orders[p][0]["guess"] == state["secret"][p]
            new["hits"][p] += hit
            events.append({"code": "guessed", "seen_by": [p], "involves": [p], "player": p, "hit": hit})
        return new, events

    def view(self, state: State, player: str | None) -> View:
        over = self.is_over(state)
        return {"players": state["players"], "names": state["names"], "turn": state["turn"], "over": over,
                "player": player, "winners": self.winners(state),
                "secret": state["secret"][player] if player else None,
                "hits": dict(state["hits"]) if over else ({player: state["hits"][player]} if player else {})}

    def player_fields(self, view: View) -> dict[str, dict[str, Any]]:
        return {p: {"hits": view["hits"].get(p)} for p in view["players"]}

    def demo_orders(self, view: View, player: str, stream: Stream) -> list[Any]:
        guess = stream.choice(list(NUMBERS))
        return [f"guess {guess}" if stream.below(2) else {"guess": guess}]

    def standin_orders(self, view: View, player: str, stream: Stream) -> list[Any]:
        return [{"guess": view["secret"]}]

    def disguises(
        self, state: State, orders: dict[str, list[Order]], player: str, stream: Stream
    ) -> list[tuple[State, dict[str, list[Order]]]]:
        """Another hidden number, and a guess that hits or misses as the played one did."""
        secret, guess = state["secret"][player], orders[player][0]["guess"]
        other = stream.choice([n for n in NUMBERS if n != secret])
        world = copy.deepcopy(state)
        world["secret"][player] = other
        new_guess = other if guess == secret else stream.choice([n for n in NUMBERS if n != other])
        return [(world, {**orders, player: [{"guess": new_guess}]})]

    def invariants(self, state: State) -> list[str]:
        return [f"{p} has more hits than turns" for p in state["players"] if state["hits"][p] > state["turn"]]


GAME = Toy()
