"""Hide the Kids!: one wolf, up to seven kids, seven pieces of furniture.

Each turn every kid hides behind or under one piece and the wolf names the two
pieces it lifts, in order, all in one set of orders. Kids who did not hide are
captured at the growl; kids under a lifted piece are captured; the rest escape
and win pebbles (the tub pays two, the clock costs the wolf a kid token).

Rules in our words: docs/rules/hidekids.md. Decisions HIDEKIDS-1 onwards each
have a data case in tests/cases/hidekids/.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from ..common.rng import Rng, Stream
from . import hidekids_standin
from .base import Event, Option, Order, Reading, Seat, State, View, leaders, visible

FURNITURE = ("cupboard", "stove", "door", "clock", "tub", "bed", "table")
"""The seven pieces, in the rulebook's order (also the order of every listing)."""

WHERE = {
    "cupboard": "in the cupboard",
    "stove": "in the stove",
    "door": "behind the door",
    "clock": "in the clock",
    "tub": "under the tub",
    "bed": "under the bed",
    "table": "under the table",
}
ALIASES = {"bathtub": "tub", "wardrobe": "cupboard", "oven": "stove"}

WOLF_TARGET = 7
"""Kid tokens that win the game for the wolf, checked after each lift."""
PEBBLE_TARGET = 7
"""Pebbles that end the game at the end of a turn."""
TUB_BONUS = 1
CLOCK_PENALTY = 1

RANDOM_LIFT = "wolf/random-lift"
"""The rng stream that draws the lifts of a wolf with no valid lift order (HIDEKIDS-4)."""
WOLF_DRAW = "setup/wolf"
"""The rng stream that draws the wolf at setup when `--option wolf=random`."""

DEMO_TASTE = {"cupboard": 2, "stove": 2, "door": 2, "clock": 4, "tub": 4, "bed": 2, "table": 2}
"""How often demo players think of each piece: the tub pays double, the clock hurts the wolf."""
DEMO_LATE = 16
"""One demo kid in this many is too late to hide. The example then shows the growl, and
demo wolves win about as often as kids: a wolf's win is the one moment a secret outlives
its turn (HIDEKIDS-6), which the conformance suite's non-interference check needs."""

_FILLER = re.compile(
    r"^(?:(?:hides?|hiding|go|goes|in|into|inside|behind|under|underneath|beneath|the)\s+)+", re.IGNORECASE
)
_LIFT = re.compile(
    r"\s*(?:the\s+wolf\s+)?lifts?\s+(.+?)\s*(?:,|;|->|>|\bthen\b|\band\s+then\b|\band\b)\s*(?:then\s+)?(.+?)\s*\Z",
    re.IGNORECASE,
)
_LIFT_WORD = re.compile(r"\s*(?:the\s+wolf\s+)?lifts?\b", re.IGNORECASE)


def furniture(named: str) -> str | None:
    """The piece a player means ('Stove', 'under the bed', 'bathtub'), or None."""
    words = _FILLER.sub("", " ".join(str(named).split())).casefold()
    words = ALIASES.get(words, words)
    return words if words in FURNITURE else None


def _unknown(named: str) -> str:
    piece = _FILLER.sub("", " ".join(str(named).split())) or named.strip()
    return f"there is no '{piece}' in the room: the furniture is {', '.join(FURNITURE)}"


class HideTheKids:
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

        `history` holds one public record per turn (see _play_turn); `kept_secret`
        stays empty unless the wolf wins mid-turn (HIDEKIDS-6).
        """
        players = [seat.id for seat in seats]
        wolf = _choose_wolf(players, str(options.get("wolf", "first")), rng)
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
        return state["outcome"] is not None

    def winners(self, state: State) -> list[str]:
        if state["outcome"] == "wolf":
            return [state["wolf"]]
        if state["outcome"] == "kids":
            return leaders(state["kids"], state["pebbles"])
        return []

    # -- what a player may know ----------------------------------------------

    def view(self, state: State, player: str | None) -> View:
        public = {
            key: copy.deepcopy(state[key])
            for key in ("players", "names", "turn", "wolf", "kids", "kid_tokens", "pebbles", "history", "outcome")
        }
        public["furniture"] = list(FURNITURE)
        public["where"] = dict(WHERE)
        public["over"] = self.is_over(state)
        public["winners"] = self.winners(state)
        public["player"] = player
        public["role"] = None if player is None else ("wolf" if player == state["wolf"] else "kid")
        public["hiding_record"] = _hiding_record(state)
        # Only at a wolf's win can something stay unrevealed: a kid's place that nobody
        # lifted, the wolf's second lift never made (HIDEKIDS-6). Each sees only their own.
        public["kept_secret"] = state["kept_secret"].get(player) if player else None
        return public

    def player_fields(self, view: View) -> dict[str, dict[str, Any]]:
        return {
            p: {
                "role": "wolf" if p == view["wolf"] else "kid",
                "kid_tokens": view["kid_tokens"] if p == view["wolf"] else 0,
                "pebbles": view["pebbles"].get(p, 0),
            }
            for p in view["players"]
        }

    # -- reading orders ---------------------------------------------------

    def read_orders(self, view: View, player: str, items: list[tuple[int, Any]]) -> list[Reading]:
        is_wolf = player == view["wolf"]
        readings: list[Reading] = []
        first: Reading | None = None
        for index, item in items:
            reading = self._read_one(is_wolf, index, item)
            if reading.accepted and first is not None:
                # HIDEKIDS-3: the first readable order stands, later ones are void.
                reading.void = (
                    f"you already gave a {'lift' if is_wolf else 'hiding'} order (order {first.index + 1}: "
                    f"{first.meaning}); only the first one counts"
                )
                reading.order, reading.meaning = None, ""
            elif reading.accepted:
                first = reading
            readings.append(reading)
        return readings

    def _read_one(self, is_wolf: bool, index: int, item: Any) -> Reading:
        written = item if isinstance(item, str) else _write(item)
        reading = Reading(index=index, written=" ".join(written.split()))
        parsed = _parse(item)
        if isinstance(parsed, str):
            reading.void = parsed
        elif "hide" in parsed:
            if is_wolf:
                reading.void = "the wolf does not hide: write 'lift: [first, second]' with two pieces of furniture"
                return reading
            place = furniture(parsed["hide"])
            if place is None:
                reading.void = _unknown(parsed["hide"])
            else:
                reading.order = {"hide": place}
                reading.meaning = f"you hide {WHERE[place]}"
        else:
            if not is_wolf:
                reading.void = "only the wolf lifts furniture: as a kid, write 'hide: <furniture>'"
                return reading
            pieces = [furniture(named) for named in parsed["lift"]]
            bad = [named for named, piece in zip(parsed["lift"], pieces, strict=True) if piece is None]
            if bad:
                reading.void = _unknown(bad[0])
            elif pieces[0] == pieces[1]:
                reading.void = f"the wolf lifts two different pieces, but named the {pieces[0]} twice"
            else:
                reading.order = {"lift": pieces}
                reading.meaning = f"you lift the {pieces[0]} first, then the {pieces[1]}"
        return reading

    def default_orders(self, state: State, player: str, rng: Rng) -> list[Order]:
        # HIDEKIDS-4/5: a silent kid has not hidden; a silent wolf's lifts are drawn in resolve.
        return []

    # -- resolution ---------------------------------------------------------

    def resolve(self, state: State, orders: dict[str, list[Order]], rng: Rng) -> tuple[State, list[Event]]:
        places = _hiding_places(state, orders)
        lifts = _wolf_lifts(state, orders)
        events: list[Event] = []
        drawn = lifts is None
        if lifts is None:
            lifts = draw_lifts(rng)
            events.append({"code": "lifts_drawn", "seen_by": "all", "wolf": state["wolf"], "pieces": lifts})
        new, more = _play_turn(state, places, lifts, drawn)
        return new, events + more

    # -- demo -------------------------------------------------------------------

    def demo_orders(self, view: View, player: str, stream: Stream) -> list[Any]:
        """Kids like the tub and the clock and go back where they escaped; the wolf knows both."""
        last = view["history"][-1] if view["history"] else {"escaped": []}
        if player == view["wolf"]:
            weights = dict(DEMO_TASTE)
            for escape in last["escaped"]:
                weights[escape["furniture"]] += 2
            first = _weighted(weights, stream)
            second = _weighted({p: w for p, w in weights.items() if p != first}, stream)
            style = stream.below(3)
            if style == 0:
                return [f"lift the {first.capitalize()} then the {second}"]
            if style == 1:
                return [f"lift {first}, {second}"]
            return [{"lift": [first, second]}]
        if stream.below(DEMO_LATE) == 0:
            return []  # now and then a kid is too late to hide, as happens at the table
        weights = dict(DEMO_TASTE)
        for escape in last["escaped"]:
            if escape["kid"] == player:
                weights[escape["furniture"]] += 3
        place = _weighted(weights, stream)
        style = stream.below(4)
        if style == 0:
            return [f"hide {WHERE[place]}"]
        if style == 1:
            return [place.capitalize()]
        return [{"hide": place}]

    def standin_orders(self, view: View, player: str, stream: Stream) -> list[Any]:
        return hidekids_standin.orders(view, player, stream, pebbles_at)

    # -- conformance hooks --------------------------------------------------------

    def disguises(
        self, state: State, orders: dict[str, list[Order]], player: str, stream: Stream
    ) -> list[tuple[State, dict[str, list[Order]]]]:
        """Other orders of `player` that every other player, and the public, would see the same.

        Escaped kids reveal where they hid, so a kid's place is secret only when the
        wolf wins before lifting it; the wolf's second lift only when the first one wins.
        """
        if self.is_over(state) or _wolf_lifts(state, orders) is None:
            return []  # a drawn lift cannot be replayed without the turn's own rng
        if player == state["wolf"]:
            candidates = [[{"lift": [a, b]}] for a in FURNITURE for b in FURNITURE if a != b]
        else:
            candidates = [[{"hide": piece}] for piece in FURNITURE]
        current = orders.get(player, [])
        base = self._seen_by_others(state, orders, player)
        worlds = []
        for candidate in candidates:
            if candidate == current:
                continue
            world = {**orders, player: candidate}
            if self._seen_by_others(state, world, player) == base:
                worlds.append((state, world))
        stream.shuffle(worlds)
        return worlds[:2]

    def _seen_by_others(self, state: State, orders: dict[str, list[Order]], player: str) -> list[Any]:
        new, events = _play_turn(state, _hiding_places(state, orders), _wolf_lifts(state, orders) or [], False)
        return [
            (self.view(new, other), [e for e in events if visible(e, other)])
            for other in [None, *state["players"]]
            if other != player
        ]

    def invariants(self, state: State) -> list[str]:
        problems: list[str] = []
        wolf, kids = state["wolf"], state["kids"]
        if wolf in kids or sorted([wolf, *kids]) != sorted(state["players"]):
            problems.append("the wolf and the kids do not make up the players")
        tokens = 0
        pebbles = {kid: 0 for kid in kids}
        for number, record in enumerate(state["history"], start=1):
            wolf_won = state["outcome"] == "wolf" and number == len(state["history"])
            problems.extend(_record_problems(record, kids, wolf_won))
            tokens += len(record["not_hidden"]) + sum(len(lift["found"]) for lift in record["lifts"])
            for escape in record["escaped"]:
                pebbles[escape["kid"]] += escape["pebbles"]
                if escape["discarded"] and tokens == 0:
                    problems.append(f"turn {record['turn']}: the wolf discarded a kid token it did not have")
                tokens -= 1 if escape["discarded"] else 0
        if tokens != state["kid_tokens"]:
            problems.append(f"the wolf holds {state['kid_tokens']} kid tokens but captures less discards make {tokens}")
        if pebbles != state["pebbles"]:
            problems.append(f"the kids' pebbles {state['pebbles']} are not the {pebbles} their escapes won")
        if len(state["history"]) != state["turn"]:
            problems.append(f"{len(state['history'])} turn records for {state['turn']} turns")
        problems.extend(_outcome_problems(state))
        return problems


# -- the turn itself -------------------------------------------------------------


def _hiding_places(state: State, orders: dict[str, list[Order]]) -> dict[str, str | None]:
    """Each kid's place; None for a kid with no hiding order (HIDEKIDS-5)."""
    places: dict[str, str | None] = {}
    for kid in state["kids"]:
        hides = [o["hide"] for o in orders.get(kid, []) if "hide" in o]
        places[kid] = hides[0] if hides else None
    return places


def _wolf_lifts(state: State, orders: dict[str, list[Order]]) -> list[str] | None:
    lifts = [o["lift"] for o in orders.get(state["wolf"], []) if "lift" in o]
    return list(lifts[0]) if lifts else None


def draw_lifts(rng: Rng) -> list[str]:
    """Two different pieces, in order, drawn for a wolf with no valid lift order (HIDEKIDS-4)."""
    pieces = list(FURNITURE)
    stream = rng.stream(RANDOM_LIFT)
    first = pieces.pop(stream.below(len(pieces)))
    return [first, stream.choice(pieces)]


def _play_turn(state: State, places: dict[str, str | None], lifts: list[str], drawn: bool) -> tuple[State, list[Event]]:
    """The growl, the lifts in order, the escapes, the end of the turn."""
    new = copy.deepcopy(state)
    new["turn"] = state["turn"] + 1
    wolf = state["wolf"]
    record: dict[str, Any] = {
        "turn": new["turn"], "lifts_drawn": drawn, "not_hidden": [], "lifts": [], "escaped": [],
    }
    events: list[Event] = []
    # The growl: kids with no hiding place are captured before anything is lifted (HIDEKIDS-5).
    for kid in state["kids"]:
        if places[kid] is None:
            new["kid_tokens"] += 1
            record["not_hidden"].append(kid)
            events.append({"code": "not_hidden", "seen_by": "all", "kid": kid, "kid_tokens": new["kid_tokens"]})
    searched: set[str] = set()
    for number, piece in enumerate(lifts, start=1):
        found = [kid for kid in state["kids"] if places[kid] == piece]
        new["kid_tokens"] += len(found)
        searched.add(piece)
        record["lifts"].append({"furniture": piece, "found": found})
        events.append({"code": "lift", "seen_by": "all", "number": number, "furniture": piece,
                       "found": found, "kid_tokens": new["kid_tokens"]})
        if new["kid_tokens"] >= WOLF_TARGET:  # HIDEKIDS-7/15: checked after each lift, the wolf wins at once
            new["outcome"] = "wolf"
            events.append({"code": "wolf_wins", "seen_by": "all", "wolf": wolf, "lift": number,
                           "kid_tokens": new["kid_tokens"]})
            events.extend(_keep_secrets(new, places, [] if drawn else lifts[number:], searched))  # drawn lifts are public
            new["history"].append(record)
            return new, events
    for kid in state["kids"]:
        place = places[kid]
        if place is None or place in searched:
            continue
        won = pebbles_at(place)  # HIDEKIDS-9
        # HIDEKIDS-8: every kid escaping from the clock costs the wolf a token, while it has any.
        discarded = place == "clock" and new["kid_tokens"] > 0
        new["kid_tokens"] -= CLOCK_PENALTY if discarded else 0
        new["pebbles"][kid] += won
        record["escaped"].append({"kid": kid, "furniture": place, "pebbles": won, "discarded": discarded})
        events.append({"code": "escaped", "seen_by": "all", "kid": kid, "furniture": place, "pebbles_won": won,
                       "pebbles": new["pebbles"][kid], "discarded": discarded, "kid_tokens": new["kid_tokens"]})
    new["history"].append(record)
    best = max(new["pebbles"].values())
    if best >= PEBBLE_TARGET:  # HIDEKIDS-10: checked once, when the turn is over
        new["outcome"] = "kids"
        winners = leaders(state["kids"], new["pebbles"])
        events.append({"code": "kids_win", "seen_by": "all", "winners": winners, "pebbles": best})
    return new, events


def _keep_secrets(new: State, places: dict[str, str | None], unmade: list[str], searched: set[str]) -> list[Event]:
    """The game ended mid-turn: what was never revealed stays with its owner (HIDEKIDS-6)."""
    events: list[Event] = []
    for kid in new["kids"]:
        place = places[kid]
        if place is not None and place not in searched:
            new["kept_secret"][kid] = place
            events.append({"code": "still_hidden", "seen_by": [kid], "kid": kid, "furniture": place})
    if unmade:
        new["kept_secret"][new["wolf"]] = unmade[0]
        events.append({"code": "lift_unmade", "seen_by": [new["wolf"]], "furniture": unmade[0]})
    return events


# -- helpers -------------------------------------------------------------------


def pebbles_at(piece: str) -> int:
    """What an escape from behind or under `piece` pays (the tub pays a bonus)."""
    return 1 + (TUB_BONUS if piece == "tub" else 0)


def _choose_wolf(players: list[str], wanted: str, rng: Rng) -> str:
    """`--option wolf=...`: a player id first, then 'first', 'last' or 'random' (HIDEKIDS-1)."""
    chosen = wanted.strip()
    if chosen in players:
        return chosen
    if chosen == "first":
        return players[0]
    if chosen == "last":
        return players[-1]
    if chosen == "random":
        return rng.stream(WOLF_DRAW).choice(players)
    raise ValueError(
        f"option wolf: '{wanted}' is not a player of this campaign; "
        f"use one of {', '.join(players)}, or first, last or random"
    )


def _parse(item: Any) -> dict[str, Any] | str:
    """Canonical-shaped dict, or the reason the item cannot be read."""
    if isinstance(item, dict):
        return item
    match = _LIFT.match(item)
    if match:
        return {"lift": [match[1], match[2]]}
    if _LIFT_WORD.match(item):
        return "not understood: the wolf writes 'lift <first> then <second>', naming two pieces of furniture"
    return {"hide": item}


def _write(order: dict[str, Any]) -> str:
    if "lift" in order:
        return f"lift {order['lift'][0]} then {order['lift'][1]}"
    return f"hide {order['hide']}"


def _weighted(weights: dict[str, int], stream: Stream) -> str:
    roll = stream.below(sum(weights.values()))
    for piece in FURNITURE:
        if piece in weights:
            roll -= weights[piece]
            if roll < 0:
                return piece
    raise AssertionError("weights ran out")  # unreachable: roll < total


def _places_seen(record: dict[str, Any]) -> list[str]:
    found = [lift["furniture"] for lift in record["lifts"] if lift["found"]]
    return found + [escape["furniture"] for escape in record["escaped"]]


def _hiding_record(state: State) -> dict[str, list[str]]:
    """Per kid, where they were seen each turn: a piece, 'not hidden', or 'unseen' (never revealed)."""
    record: dict[str, list[str]] = {kid: [] for kid in state["kids"]}
    for turn in state["history"]:
        seen = {kid: "not hidden" for kid in turn["not_hidden"]}
        seen.update({kid: lift["furniture"] for lift in turn["lifts"] for kid in lift["found"]})
        seen.update({escape["kid"]: escape["furniture"] for escape in turn["escaped"]})
        for kid in state["kids"]:
            record[kid].append(seen.get(kid, "unseen"))
    return record


def _record_problems(record: dict[str, Any], kids: list[str], wolf_won: bool) -> list[str]:
    """One turn's record: the lifts, and every kid accounted for once (unless the wolf won mid-turn)."""
    where = f"turn {record['turn']}"
    problems = []
    lifted = [lift["furniture"] for lift in record["lifts"]]
    if not 1 <= len(lifted) <= 2 or len(set(lifted)) != len(lifted) or not set(lifted) <= set(FURNITURE):
        problems.append(f"{where}: the lifts {lifted} are not one or two different pieces")
    accounted = record["not_hidden"] + [k for lift in record["lifts"] for k in lift["found"]]
    accounted += [escape["kid"] for escape in record["escaped"]]
    if len(set(accounted)) != len(accounted) or not set(accounted) <= set(kids):
        problems.append(f"{where}: a kid is accounted for twice, or is not a kid")
    if wolf_won and record["escaped"]:
        problems.append(f"{where}: kids escaped although the wolf won at a lift")
    if not wolf_won and (len(lifted) != 2 or sorted(accounted) != sorted(kids)):
        problems.append(f"{where}: a turn that goes on has two lifts and every kid captured or escaped")
    for escape in record["escaped"]:
        if escape["furniture"] in lifted:
            problems.append(f"{where}: {escape['kid']} escaped from the lifted {escape['furniture']}")
        if escape["pebbles"] != pebbles_at(escape["furniture"]):
            problems.append(f"{where}: {escape['kid']} won {escape['pebbles']} pebbles {WHERE[escape['furniture']]}")
        if escape["discarded"] and escape["furniture"] != "clock":
            problems.append(f"{where}: {escape['kid']} made the wolf discard from outside the clock")
    return problems


def _outcome_problems(state: State) -> list[str]:
    tokens, best = state["kid_tokens"], max(state["pebbles"].values())
    outcome = state["outcome"]
    if outcome is None and (tokens >= WOLF_TARGET or best >= PEBBLE_TARGET):
        return ["someone reached 7 but the game goes on"]
    if outcome == "wolf" and tokens < WOLF_TARGET:
        return [f"the wolf won with {tokens} kid tokens"]
    if outcome == "kids" and best < PEBBLE_TARGET:
        return [f"the kids won with at most {best} pebbles"]
    if outcome not in (None, "wolf", "kids"):
        return [f"unknown outcome {outcome!r}"]
    return []


GAME = HideTheKids()
