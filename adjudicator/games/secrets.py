"""Sid's Secrets (v2): seven SIDs a player, five simultaneous turns of stealing and guarding.

Rules in our words: docs/rules/secrets.md. Decisions SECRETS-1..10 are fixed by
the design; SECRETS-11 onwards are ours. Each has a data case in tests/cases/secrets/.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from ..common.rng import Rng, Stream
from . import secrets_standin
from .base import Event, Option, Order, Reading, Seat, State, View, leaders

RANKS = range(1, 8)
SECRETS = range(1, 11)
CAPTURE_POINTS = 5

# "SID 1 steal David 8", "sid 2 steal Tony secret 6", "SID 3 guard secret 6", "SID 3 guard 6"
_STEAL = re.compile(r"\s*sid\s*(\d+)\s+steals?\s+(.+?)\s+(?:secret\s+)?(\d+)\s*\Z", re.IGNORECASE)
_GUARD = re.compile(r"\s*sid\s*(\d+)\s+guards?\s+(?:secret\s+)?(\d+)\s*\Z", re.IGNORECASE)
_SID_WORD = re.compile(r"\bsid\s*\d", re.IGNORECASE)


def value(secret: int) -> int:
    """A secret is worth twice its number less one (SECRETS-9)."""
    return 2 * secret - 1


class Secrets:
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
    }

    # -- setup and flow ----------------------------------------------------

    def setup(self, seats: list[Seat], options: dict[str, Any], rng: Rng) -> State:
        players = [seat.id for seat in seats]
        return {
            "players": players,
            "names": {seat.id: seat.name for seat in seats},
            "turn": 0,
            "turns": options["turns"],
            "secrets": {p: list(SECRETS) for p in players},
            "sids": {p: list(RANKS) for p in players},
            "score": {p: 0 for p in players},
            "stolen": [],
            "captured": [],
            "restrictions": {p: [] for p in players},
        }

    def phase(self, state: State) -> str:
        return "orders"

    def due(self, state: State) -> list[str]:
        return [] if self.is_over(state) else list(state["players"])

    def is_over(self, state: State) -> bool:
        return state["turn"] >= state["turns"]

    def winners(self, state: State) -> list[str]:
        if not self.is_over(state):
            return []
        return leaders(state["players"], state["score"])

    # -- what a player may know ----------------------------------------------

    def view(self, state: State, player: str | None) -> View:
        # The view shares the state's lists rather than copying them: nothing that reads
        # a view changes it, and a deep copy per player was the largest cost of a turn
        # with a thousand players.
        public = {
            key: state[key]
            for key in ("players", "names", "turn", "turns", "secrets", "sids", "score", "stolen", "captured")
        }
        public["over"] = self.is_over(state)
        derived = _derived(self, state)
        public["standings"], public["place"], public["winners"] = derived["standings"], derived["place"], derived["winners"]
        public["player"] = player
        public["my_thefts"] = derived["stolen_by"].get(player, []) if player else []
        public["my_captures"] = derived["captured_by"].get(player, []) if player else []
        # Which SID guarded what unmet stays the guarding player's own knowledge (SECRETS-10).
        public["restrictions"] = state["restrictions"][player] if player else []
        return public

    def player_fields(self, view: View) -> dict[str, dict[str, Any]]:
        return {
            p: {"score": view["score"][p], "secrets": view["secrets"][p], "sids": view["sids"][p]}
            for p in view["players"]
        }

    def form_examples(self, view: View, player: str) -> list[str]:
        """The shorthand orders the order form suggests, each legal for this player now: a SID
        still free, a secret its owner still holds, a guard no restriction forbids."""
        sids, examples = view["sids"][player], []
        victim = next((p for p in view["players"] if p != player and view["secrets"][p]), None)
        if sids and victim is not None:
            examples.append(f"SID {sids[0]} steal {victim} {view['secrets'][victim][-1]}")
        guard = sids[len(examples)] if len(sids) > len(examples) else None  # another SID than the thief's
        if guard is not None:
            barred = {r["secret"] for r in view["restrictions"] if r["sid"] == guard}
            secret = next((s for s in reversed(view["secrets"][player]) if s not in barred), None)
            if secret is not None:
                examples.append(f"SID {guard} guard secret {secret}")
        return examples

    # -- reading orders ---------------------------------------------------

    def read_orders(self, view: View, player: str, items: list[tuple[int, Any]]) -> list[Reading]:
        readings: list[Reading] = []
        by_sid: dict[int, list[Reading]] = {}
        for index, item in items:
            parsed = _parse(item)
            reading = self._read_one(view, player, index, item, parsed)
            readings.append(reading)
            if not isinstance(parsed, str):  # every order that names a SID counts, void or not (SECRETS-18)
                by_sid.setdefault(parsed["sid"], []).append(reading)
        for sid, same in by_sid.items():
            if len(same) > 1:  # SECRETS-1: every order of a doubly-ordered SID is void
                reason = f"SID {sid} was given {len(same)} orders this turn, so none of them stands"
                for reading in same:  # a void reading must carry no order, or the pipeline would place it
                    reading.order, reading.meaning = None, ""
                    reading.void = f"{reason} (and this one alone would be void: {reading.void})" if reading.void else reason
        return readings

    def _read_one(self, view: View, player: str, index: int, item: Any, parsed: dict[str, Any] | str) -> Reading:
        written = item if isinstance(item, str) else _write(item)
        reading = Reading(index=index, written=written.strip())
        if isinstance(parsed, str):
            reading.void = parsed
            return reading
        sid = parsed["sid"]
        if sid not in RANKS:
            reading.void = f"there is no SID {sid}: ranks run from 1 to 7"
            return reading
        if sid not in view["sids"][player]:
            reading.void = f"your SID {sid} was captured in an earlier turn"
            return reading
        if "steal" in parsed:
            return self._read_steal(view, player, reading, sid, parsed["steal"])
        return self._read_guard(view, player, reading, sid, parsed["guard"])

    def _read_steal(self, view: View, player: str, reading: Reading, sid: int, target: dict[str, Any]) -> Reading:
        named = _find_players(view, target["player"])
        victim = named[0] if len(named) == 1 else None
        secret = target["secret"]
        if not named:
            known = ", ".join(f"{p} ({view['names'][p]})" for p in view["players"])
            reading.void = f"there is no player called '{target['player']}' (players: {known})"
        elif victim is None:
            which = ", ".join(named)
            reading.void = f"'{target['player']}' is the name of more than one player ({which}): name the player by id"
        elif secret not in SECRETS:
            reading.void = f"there is no secret {secret}: secrets run from 1 to 10"
        elif victim == player:
            reading.void = "a SID cannot steal its own player's secret"
        elif secret not in view["secrets"][victim]:
            reading.void = f"{view['names'][victim]}'s secret {secret} was stolen in an earlier turn, so SID {sid} is not placed"
        else:
            reading.order = {"sid": sid, "steal": {"player": victim, "secret": secret}}
            reading.meaning = (
                f"SID {sid} tries to steal {view['names'][victim]}'s secret {secret} (worth {value(secret)})"
            )
        return reading

    def _read_guard(self, view: View, player: str, reading: Reading, sid: int, secret: int) -> Reading:
        if secret not in SECRETS:
            reading.void = f"there is no secret {secret}: secrets run from 1 to 10"
        elif secret not in view["secrets"][player]:
            reading.void = f"your secret {secret} was stolen in an earlier turn, so SID {sid} is not placed"
        elif {"sid": sid, "secret": secret} in view["restrictions"]:
            reading.void = (
                f"SID {sid} guarded secret {secret} last turn and nobody tried to steal it, "
                f"so it may not guard secret {secret} this turn"
            )
        else:
            reading.order = {"sid": sid, "guard": secret}
            reading.meaning = f"SID {sid} guards your secret {secret} (worth {value(secret)})"
        return reading

    def default_orders(self, state: State, player: str, rng: Rng) -> list[Order]:
        return []  # SECRETS-8: the SIDs of a player who sent nothing valid stay at home

    # -- resolution ---------------------------------------------------------

    def resolve(self, state: State, orders: dict[str, list[Order]], rng: Rng) -> tuple[State, list[Event]]:
        new = copy.deepcopy(state)
        new["turn"] = turn = state["turn"] + 1
        seat = {p: i for i, p in enumerate(state["players"])}
        # Group the SIDs of one player on one secret with one action (SECRETS-3).
        guards: dict[tuple[str, int], list[int]] = {}
        steals: dict[tuple[str, int], dict[str, list[int]]] = {}
        for player in state["players"]:
            for order in orders.get(player, []):
                if "guard" in order:
                    guards.setdefault((player, order["guard"]), []).append(order["sid"])
                else:
                    target = (order["steal"]["player"], order["steal"]["secret"])
                    steals.setdefault(target, {}).setdefault(player, []).append(order["sid"])

        events: list[Event] = []
        lost_sids: dict[str, set[int]] = {p: set() for p in state["players"]}
        for owner, secret in sorted(steals, key=lambda t: (seat[t[0]], t[1])):
            attempts = {thief: sorted(sids) for thief, sids in sorted(steals[(owner, secret)].items(), key=lambda i: seat[i[0]])}
            guard = sorted(guards.get((owner, secret), []))
            events.extend(self._contest(new, turn, owner, secret, guard, attempts, lost_sids))

        new["restrictions"] = {p: [] for p in state["players"]}
        for (owner, secret), sids in sorted(guards.items(), key=lambda i: (seat[i[0][0]], i[0][1])):
            if (owner, secret) in steals:
                continue
            # SECRETS-7: an unmet guard may not guard the same secret next turn; only its player learns of it.
            new["restrictions"][owner].extend({"sid": sid, "secret": secret} for sid in sorted(sids))
            events.append(
                {"code": "guard_unmet", "seen_by": [owner], "involves": [owner], "owner": owner, "secret": secret,
                 "sids": sorted(sids)}
            )
        for player, sids in lost_sids.items():
            new["sids"][player] = [r for r in state["sids"][player] if r not in sids]
        return new, events

    def _contest(
        self,
        new: State,
        turn: int,
        owner: str,
        secret: int,
        guard: list[int],
        attempts: dict[str, list[int]],
        lost_sids: dict[str, set[int]],
    ) -> list[Event]:
        """Every placed steal on one secret, against its guard or against each other."""
        base = {"seen_by": "all", "owner": owner, "secret": secret, "value": value(secret), "turn": turn}
        strength = {thief: sum(sids) for thief, sids in attempts.items()}
        events: list[Event] = []
        if guard:  # SECRETS-4: a guarded secret is never stolen
            held = sum(guard)
            for thief, sids in attempts.items():
                event = {**base, "involves": [thief, owner], "thief": thief, "sids": sids, "strength": strength[thief],
                         "guard_sids": guard, "guard_strength": held}
                if strength[thief] <= held:
                    lost_sids[thief].update(sids)
                    points = CAPTURE_POINTS * len(sids)
                    new["score"][owner] += points
                    new["captured"].extend({"by": owner, "player": thief, "sid": sid, "turn": turn} for sid in sids)
                    events.append({**event, "code": "captured", "points": points})
                else:
                    events.append({**event, "code": "escaped"})
            return events
        # SECRETS-5: the strictly strongest group steals; a tie at the top frustrates everyone.
        top = max(strength.values())
        leaders = [thief for thief, s in strength.items() if s == top]
        rivals = [{"thief": t, "sids": s, "strength": strength[t]} for t, s in attempts.items()]
        for thief, sids in attempts.items():
            event = {**base, "involves": [thief, owner], "thief": thief, "sids": sids, "strength": strength[thief],
                     "rivals": rivals}
            if strength[thief] < top:
                events.append({**event, "code": "frightened"})
            elif len(leaders) > 1:
                events.append({**event, "code": "frustrated"})
            else:
                new["secrets"][owner].remove(secret)
                new["score"][thief] += value(secret)
                new["stolen"].append({"by": thief, "owner": owner, "secret": secret, "turn": turn})
                events.append({**event, "code": "stolen", "points": value(secret)})
        return events

    # -- demo -------------------------------------------------------------------

    def demo_orders(self, view: View, player: str, stream: Stream) -> list[Any]:
        """Each SID steals, guards or stays home at random; written in both forms."""
        others = [p for p in view["players"] if p != player and view["secrets"][p]]
        items: list[Any] = []
        for sid in view["sids"][player]:
            roll = stream.below(10)
            if roll < 5 and others:
                victim = stream.choice(others)
                secret = stream.choice(view["secrets"][victim])
                items.append(
                    f"SID {sid} steal {view['names'][victim]} {secret}"
                    if roll == 0
                    else {"sid": sid, "steal": {"player": victim, "secret": secret}}
                )
            elif roll < 9:
                allowed = [s for s in view["secrets"][player] if {"sid": sid, "secret": s} not in view["restrictions"]]
                if allowed:
                    secret = stream.choice(allowed)
                    items.append(f"SID {sid} guard secret {secret}" if roll == 5 else {"sid": sid, "guard": secret})
        return items

    def standin_orders(self, view: View, player: str, stream: Stream) -> list[Any]:
        return secrets_standin.orders(view, player, stream, value)

    # -- conformance hooks --------------------------------------------------------

    def disguises(
        self, state: State, orders: dict[str, list[Order]], player: str, stream: Stream
    ) -> list[tuple[State, dict[str, list[Order]]]]:
        """Guards that no steal meets, and the restrictions they leave, are the player's alone."""
        attacked = {(o["steal"]["player"], o["steal"]["secret"]) for os in orders.values() for o in os if "steal" in o}
        mine = orders.get(player, [])
        quiet = [o for o in mine if "guard" in o and (player, o["guard"]) not in attacked]
        busy = {o["sid"] for o in mine}
        free_secrets = [s for s in state["secrets"][player] if (player, s) not in attacked]
        idle = [sid for sid in state["sids"][player] if sid not in busy]
        kept = [o for o in mine if o not in quiet]
        worlds: list[tuple[State, dict[str, list[Order]]]] = []
        if quiet:  # the unmet guards stay at home instead
            worlds.append((state, {**orders, player: kept}))
        if free_secrets and (quiet or idle):  # they, and the idle SIDs, guard elsewhere unmet
            moved = [{"sid": o["sid"], "guard": stream.choice(free_secrets)} for o in quiet]
            moved += [{"sid": sid, "guard": stream.choice(free_secrets)} for sid in idle]
            worlds.append((state, {**orders, player: kept + moved}))
        other = copy.deepcopy(state)  # last turn's unmet guards were elsewhere
        other["restrictions"][player] = (
            [] if state["restrictions"][player] else [{"sid": sid, "secret": stream.choice(free_secrets)} for sid in idle[:2]]
        ) if free_secrets else []
        worlds.append((other, orders))
        return worlds

    def invariants(self, state: State) -> list[str]:
        problems = []
        for p in state["players"]:
            stolen_from = {s["secret"] for s in state["stolen"] if s["owner"] == p}
            if sorted(set(state["secrets"][p]) | stolen_from) != list(SECRETS) or set(state["secrets"][p]) & stolen_from:
                problems.append(f"{p}'s secrets and the secrets stolen from them do not make up 1-10")
            lost = {c["sid"] for c in state["captured"] if c["player"] == p}
            if sorted(set(state["sids"][p]) | lost) != list(RANKS) or set(state["sids"][p]) & lost:
                problems.append(f"{p}'s SIDs and their captured SIDs do not make up 1-7")
            earned = sum(value(s["secret"]) for s in state["stolen"] if s["by"] == p)
            earned += CAPTURE_POINTS * sum(1 for c in state["captured"] if c["by"] == p)
            if earned != state["score"][p]:
                problems.append(f"{p}'s score {state['score'][p]} is not the {earned} their thefts and captures earned")
        return problems


def _parse(item: Any) -> dict[str, Any] | str:
    """Canonical dict, or the reason the item cannot be read."""
    if isinstance(item, dict):
        return item
    if len(_SID_WORD.findall(item)) > 1:  # the rulebook's "SID 1 steal Tony 9, SID 6 steal Tony 6"
        return "this item holds more than one order: write each order as its own list item, one per line (- SID 1 steal tony 9)"
    match = _STEAL.match(item)
    if match:
        return {"sid": int(match[1]), "steal": {"player": match[2], "secret": int(match[3])}}
    match = _GUARD.match(item)
    if match:
        return {"sid": int(match[1]), "guard": int(match[2])}
    return "not understood: write 'SID <rank> steal <player> <secret>' or 'SID <rank> guard secret <secret>'"


def _write(order: dict[str, Any]) -> str:
    if "steal" in order:
        return f"SID {order['sid']} steal {order['steal']['player']} {order['steal']['secret']}"
    return f"SID {order['sid']} guard secret {order['guard']}"


def _find_players(view: View, named: str) -> list[str]:
    """The players a word names, by id or by display name, ignoring case (design 5, SECRETS-15).

    An id wins over a display name, so every player can always be named by id even
    when another player's display name is the same word; a display name shared by
    several players names them all, and the caller voids the order as ambiguous.
    """
    by_id, by_name = _directory(view["players"], view["names"])
    wanted = named.strip().casefold()
    return by_id.get(wanted) or by_name.get(wanted, [])


_derived_cache: list[Any] = [None, None]


def _derived(game: Secrets, state: State) -> dict[str, Any]:
    """What every view of one state shares: the standings (players by score, seat order
    breaking ties), each player's place, the winners, and each player's thefts and captures.

    Worked out once per state object (states are never changed once made) and kept
    while views of it are taken, so a thousand reports do not each sort a thousand
    players or scan every theft of the game."""
    if _derived_cache[0] is not state:
        seat = {p: i for i, p in enumerate(state["players"])}
        standings = sorted(state["players"], key=lambda p: (-state["score"][p], seat[p]))
        place: dict[str, int] = {}
        for position, p in enumerate(standings, start=1):
            ahead = standings[position - 2] if position > 1 else None
            place[p] = place[ahead] if ahead and state["score"][ahead] == state["score"][p] else position
        stolen_by: dict[str, list[dict[str, Any]]] = {}
        for entry in state["stolen"]:
            stolen_by.setdefault(entry["by"], []).append(entry)
        captured_by: dict[str, list[dict[str, Any]]] = {}
        for entry in state["captured"]:
            captured_by.setdefault(entry["by"], []).append(entry)
        derived = {"standings": standings, "place": place, "winners": game.winners(state),
                   "stolen_by": stolen_by, "captured_by": captured_by}
        _derived_cache[:] = [state, derived]
    return _derived_cache[1]


_directory_cache: list[Any] = [None, None, None]


def _directory(players: list[str], names: dict[str, str]) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Case-folded id and name indexes, built once per state rather than once per order.

    Every view of one state shares its `names` object, so a one-entry cache keyed by
    that object's identity (and holding it, so the identity cannot be reused) turns
    a thousand players' thousands of steals from quadratic into linear work.
    """
    if _directory_cache[0] is not names or _directory_cache[1] is not players:
        by_id: dict[str, list[str]] = {}
        by_name: dict[str, list[str]] = {}
        for player in players:
            by_id.setdefault(player.casefold(), []).append(player)
            by_name.setdefault(names[player].casefold(), []).append(player)
        _directory_cache[:] = [names, players, (by_id, by_name)]
    return _directory_cache[2]


GAME = Secrets()
