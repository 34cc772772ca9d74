"""The stand-in of Sid's Secrets: guards it mixes, thefts that read the public record, no crowding.

Guarding: a guard of 7 captures any single SID (ranks run to 7), so the stand-in guards
with the cheapest group that reaches 7 (a 7 alone, else 6+1, 5+2, ...), keeping its
strong SIDs for stealing. Which secret it guards is drawn from its best three, weighed by
worth to the sixth power and by how often the public record shows thieves going after
them (the best about half the time, the third now and then): a guard that always sits on
the best secret is a gift, one that seldom does leaves the most points open to thieves
who steal at random. Two guards once few secrets are left.

Stealing: every secret of another player is weighed by what a lone SID may expect there:
its worth if unguarded, less the 5 capture points its owner gains if guarded; a theft
expected to cost more than it brings is not tried. The chance a secret is guarded is read
from the public record of attempts (SECRETS-10): a secret where thieves were captured or
escaped was guarded, and is taken to be again, each further turn in a row that thieves met
a guard there making it nearer certain (an owner who keeps guarding one secret is not
farmed turn after turn); a secret tried last turn without a guard is a likely unguarded
one; a victim's best secrets are guarded more often than the rest, unless the record shows
that victim guarding a secret that was not among their best three *when they guarded it*
(scattered guards, as random play leaves): then every secret of theirs is as likely
guarded as the next, and one guard seen there says little. The leader's secrets weigh a
little more. Targets are drawn, not picked, with chances that favour the best, each SID on
a secret of its own, strongest SIDs on the best.

Several stand-ins at one table (the view lists them in a game whose reports name them,
`base.standin_view`) deal the table's secrets out among themselves, as in a draft from
public facts alone, so each deals the same shares and each draws its targets from its own:
no two of them go for one secret, so none frustrate or frighten each other. Players before
this one in seat order who are not stand-ins and who go for the best secrets (as the record
of their steals shows; before any steal, a little) are expected on their own best targets,
and the stand-in leans away from those; a player whose steals land anywhere, as random
play's do, is not worth leaning away from. docs/standins.md.
"""

from __future__ import annotations

import math
from typing import Any

from ...common.rng import Stream
from ..base import STANDINS, View
from .rules import CAPTURE_POINTS, SECRETS, value

SAFE_GUARD = 7
"""A guard this strong captures any single SID (ranks run to 7)."""
GUARDED_ODDS = {"guarded_before": 0.75, "best": 0.3, "other": 0.12, "tried_unguarded": 0.08}
"""The chance a victim's secret is guarded: seen guarded, among their two best, the rest, tried and found unguarded."""
GUARD_KEPT = 0.35
"""What is left of the doubt that a secret is guarded after each further turn in a row thieves met a guard there:
guarded once 0.75, twice 0.91, three times 0.97."""
GUARDS_BEST = 3
"""A player who guards with intent guards one of their best this many secrets held: a guard seen elsewhere is scattered."""
STEAL_SHARPNESS = 2.0
"""How strongly the draw of targets favours expected gain (a softmax over points)."""
CROWD = 0.35
"""What a secret is still worth once an earlier player who steals the best secrets is expected on it."""
FOCUS_BEST = 3
"""A steal at one of the victim's best this many secrets left counts toward the thief's focus."""
FOCUS_PRIOR = 0.25
"""The focus assumed of a player before the record shows any steal of theirs (the first turn)."""
FOCUS_WEIGHT = 2.0
"""How many steals the prior counts for: a few steals that happened to hit the best do not make a focused thief."""
GUARD_CANDIDATES = 3
"""The guard is drawn from this many of the seat's best secrets."""
TWO_GUARDS_AT = 6
"""With this many secrets left or fewer, two are guarded."""
GUARD_POWER = 6.0
"""How strongly the draw of the secret to guard favours worth (worth to this power)."""
RANDOM_GUARDED = 0.2
"""The chance any secret is guarded, for a victim whose guards the record shows scattered (play that looks random)."""


def orders(view: View, player: str, stream: Stream) -> list[Any]:
    free = sorted(view["sids"][player], reverse=True)
    items: list[Any] = []
    for secret, group in _guards(view, player, free, stream):
        for sid in group:
            free.remove(sid)
            items.append({"sid": sid, "guard": secret})
    for sid, (victim, secret) in zip(free, _targets(view, player, len(free), stream)):
        items.append({"sid": sid, "steal": {"player": victim, "secret": secret}})
    return items


# -- guarding ------------------------------------------------------------------


def _guards(view: View, player: str, free: list[int], stream: Stream) -> list[tuple[int, list[int]]]:
    mine = sorted(view["secrets"][player], reverse=True)
    if not mine or not free:
        return []
    banned = {(r["sid"], r["secret"]) for r in view["restrictions"]}
    wanted = 1 if len(mine) > TWO_GUARDS_AT else 2
    pressure = {s: 0 for s in mine}
    for attempt in view.get("attempts", []):
        if attempt["owner"] == player and attempt["secret"] in pressure:
            pressure[attempt["secret"]] += 1
    candidates = mine[:GUARD_CANDIDATES]
    weights = {s: value(s) ** GUARD_POWER * (1 + pressure[s]) for s in candidates}
    chosen: list[tuple[int, list[int]]] = []
    spare = list(free)
    while len(chosen) < wanted and weights and len(spare) > 2:
        secret = _draw(weights, stream)
        del weights[secret]
        group = _cheapest_guard([s for s in spare if (s, secret) not in banned])
        if group:
            chosen.append((secret, group))
            spare = [s for s in spare if s not in group]
    return chosen


def _cheapest_guard(allowed: list[int]) -> list[int]:
    """The fewest SIDs reaching SAFE_GUARD, the weakest such group (7 alone, else 6+1, 5+2, ...); else the strongest two."""
    ranked = sorted(allowed)
    for sid in ranked:
        if sid >= SAFE_GUARD:
            return [sid]
    best: list[int] | None = None
    for i, a in enumerate(ranked):
        for b in ranked[i + 1:]:
            if a + b >= SAFE_GUARD and (best is None or a + b < sum(best)):
                best = [b, a]
    return best or sorted(ranked, reverse=True)[:2]


# -- stealing ------------------------------------------------------------------


def _gains(view: View, player: str) -> dict[tuple[str, int], float]:
    """The points `player` may expect from a lone theft of each secret of another player, from public
    facts: its worth if it is not guarded, less the capture points its owner gains if it is."""
    turn = view["turn"]
    seen = _guard_record(view)
    scattered_guards = _guards_anywhere(view, seen)
    others = [p for p in view["players"] if p != player and view["secrets"][p]]
    best_score = max((view["score"][p] for p in others), default=0)
    gains: dict[tuple[str, int], float] = {}
    for victim in others:
        lead = 1.0 + 0.25 * (view["score"][victim] == best_score and best_score > 0)
        ranked = sorted(view["secrets"][victim], reverse=True)
        scattered = victim in scattered_guards
        for place, secret in enumerate(ranked):
            where = (victim, secret)
            record = seen.get(where, [])
            streak = _guarded_streak(record)
            if streak and not (scattered and streak == 1):
                # Each turn more that thieves met a guard here makes it likelier its owner keeps guarding
                # it; turns without a thief there since say nothing against it. Of a player who guards
                # anywhere, only a guard seen again is read so.
                odds = 1 - (1 - GUARDED_ODDS["guarded_before"]) * GUARD_KEPT ** (streak - 1)
            elif record and record[-1] == (turn, False):
                odds = GUARDED_ODDS["tried_unguarded"]
            elif scattered:
                odds = RANDOM_GUARDED
            else:
                odds = GUARDED_ODDS["best" if place < 2 else "other"]
            gains[where] = value(secret) * (1 - odds) * lead - CAPTURE_POINTS * odds
    return gains


def _guard_record(view: View) -> dict[tuple[str, int], list[tuple[int, bool]]]:
    """For each secret thieves went for: each such turn, in order, and whether a guard met them."""
    met: dict[tuple[str, int], dict[int, bool]] = {}
    for attempt in view.get("attempts", []):
        turns = met.setdefault((attempt["owner"], attempt["secret"]), {})
        turns[attempt["turn"]] = attempt["code"] in ("captured", "escaped")
    return {where: sorted(turns.items()) for where, turns in met.items()}


def _guarded_streak(record: list[tuple[int, bool]]) -> int:
    """How many of the last turns thieves came, one after another, found the secret guarded."""
    streak = 0
    for _, guarded in reversed(record):
        if not guarded:
            break
        streak += 1
    return streak


def _guards_anywhere(view: View, seen: dict[tuple[str, int], list[tuple[int, bool]]]) -> set[str]:
    """The players the record shows guarding a secret that was not among their best three held *at the
    time* (as random play does): their best secrets are no likelier guarded than the rest. A secret
    guarded while it was among the best and stolen since says nothing of the kind."""
    thefts: dict[str, list[tuple[int, int]]] = {}
    for entry in view["stolen"]:
        thefts.setdefault(entry["owner"], []).append((entry["turn"], entry["secret"]))
    found: set[str] = set()
    for (owner, secret), record in seen.items():
        for turn, guarded in record:
            gone = {s for when, s in thefts.get(owner, []) if when < turn}
            held = sorted((s for s in SECRETS if s not in gone), reverse=True)
            if guarded and secret not in held[:GUARDS_BEST]:
                found.add(owner)
    return found


def _targets(view: View, player: str, count: int, stream: Stream) -> list[tuple[str, int]]:
    """Up to `count` distinct secrets of other players worth a SID, drawn with chances that favour
    expected gain; among stand-ins, only from this seat's share (`_shares`)."""
    gains = _gains(view, player)
    shares = _shares(view)
    if player in shares:
        gains = {where: gain for where, gain in gains.items() if where in shares[player]}
    for earlier in view["players"][: view["players"].index(player)]:
        if earlier in shares:
            continue  # a stand-in's share is its own: no need to guess its targets
        theirs = _gains(view, earlier)
        crowd = 1 - (1 - CROWD) * _focus(view, earlier)
        for where in sorted(theirs, key=lambda w: -theirs[w])[: len(view["sids"][earlier]) // 2]:
            if where in gains:
                gains[where] *= crowd
    # A theft expected to cost more (the SID and the owner's capture points) than it brings is not tried.
    gains = {where: gain for where, gain in gains.items() if gain > 0}
    picked: list[tuple[str, int]] = []
    while gains and len(picked) < count:
        best = max(gains.values())
        where = _draw({w: math.exp(STEAL_SHARPNESS * (g - best)) for w, g in gains.items()}, stream)
        picked.append(where)
        del gains[where]
    picked.sort(key=lambda w: -value(w[1]))  # the strongest SIDs on the best secrets
    return picked


def _shares(view: View) -> dict[str, set[tuple[str, int]]]:
    """The secrets of the table dealt out among the seats the stand-in plays this turn, so that no two
    of them go for one secret (their SIDs would frustrate or frighten each other off it). Dealt as in a
    draft, from public facts alone, so each stand-in deals the same shares: in turn, each takes the
    secret it expects most from among those left; who takes first moves round with the turns. Each then
    draws its targets from its own share with its own stream. Empty with fewer than two stand-ins."""
    seats = [p for p in view.get(STANDINS, []) if view["sids"][p]]
    if len(seats) < 2:
        return {}
    first = view["turn"] % len(seats)
    seats = seats[first:] + seats[:first]
    wants = {seat: sorted(_gains(view, seat).items(), key=lambda item: (-item[1], item[0])) for seat in seats}
    dealt: set[tuple[str, int]] = set()
    shares: dict[str, set[tuple[str, int]]] = {seat: set() for seat in seats}
    looked = {seat: 0 for seat in seats}  # how far down its wants each seat has looked: taken ones stay taken
    while True:
        took = False
        for seat in seats:
            wanted = wants[seat]
            while looked[seat] < len(wanted) and wanted[looked[seat]][0] in dealt:
                looked[seat] += 1
            if looked[seat] < len(wanted):
                where = wanted[looked[seat]][0]
                shares[seat].add(where)
                dealt.add(where)
                took = True
        if not took:
            return shares


def _focus(view: View, thief: str) -> float:
    """How far `thief`'s steals so far went for their victims' best secrets beyond what chance puts
    there: near 0 for a thief who steals anywhere (as random play does), 1 for one who always goes
    for the best three left; FOCUS_PRIOR before any steal, and drawn toward it while steals are few."""
    stolen_before: dict[str, list[tuple[int, int]]] = {}
    for entry in view["stolen"]:
        stolen_before.setdefault(entry["owner"], []).append((entry["turn"], entry["secret"]))
    hits = chance = 0.0
    tries = 0
    for attempt in view.get("attempts", []):
        if attempt["thief"] != thief:
            continue
        gone = {secret for turn, secret in stolen_before.get(attempt["owner"], []) if turn < attempt["turn"]}
        left = sorted((s for s in SECRETS if s not in gone), reverse=True)
        tries += 1
        hits += attempt["secret"] in left[:FOCUS_BEST]
        chance += min(FOCUS_BEST, len(left)) / len(left)
    seen = (hits - chance) / (tries - chance) if tries > chance else 0.0
    return max(0.0, (tries * seen + FOCUS_WEIGHT * FOCUS_PRIOR) / (tries + FOCUS_WEIGHT))


_GRAIN = 1_000_000


def _draw(weights: dict[Any, float], stream: Stream) -> Any:
    """One key, drawn with chance proportional to its weight (in the dict's order)."""
    roll = stream.below(_GRAIN) / _GRAIN * sum(weights.values())
    for key, weight in weights.items():
        roll -= weight
        if roll < 0:
            return key
    return next(reversed(weights))
