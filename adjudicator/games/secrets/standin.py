"""The stand-in of Sid's Secrets: guards it mixes, thefts that read the public record, no crowding.

Guarding: a guard of 7 captures any single SID (ranks run to 7), so the stand-in guards
with the cheapest group that reaches 7 (a 7 alone, else 6+1, 5+2, ...), keeping its
strong SIDs for stealing. Which secret it guards is drawn from its best three, weighed by
worth to the sixth power and by how often the public record shows thieves going after
them (the best about half the time, the third now and then): a guard that always sits on
the best secret is a gift, one that seldom does leaves the most points open to thieves
who steal at random. Two guards once few secrets are left.

Stealing: every secret of another player is weighed by worth times the chance it is not
guarded, read from the public record of attempts (SECRETS-10): a secret where a thief was
captured or escaped was guarded, and is taken to be again unless time has passed; a
secret that was tried without a guard is a likely unguarded one; a victim's best secrets
are guarded more often than the rest, unless the record shows that victim guarding
outside their best few (scattered guards, as random play leaves): then every secret of
theirs is as likely guarded as the next. The leader's secrets weigh a little more. Targets
are drawn, not picked, with chances that favour the best (so no thief is sent at the same
guarded secret turn after turn), each SID on a secret of its own, strongest SIDs on the
best. Players before this one in seat order who go for the best secrets (as the record of
their steals shows; before any steal, a little) are expected on their own best targets
(what a stand-in in their seat would favour, from public facts alone), and the stand-in
leans away from those, so several stand-ins do not pile onto one secret; a player whose
steals land anywhere, as random play's do, is not worth leaning away from. docs/standins.md.
"""

from __future__ import annotations

import math
from typing import Any

from ...common.rng import Stream
from ..base import View
from .rules import SECRETS, value

SAFE_GUARD = 7
"""A guard this strong captures any single SID (ranks run to 7)."""
GUARDED_ODDS = {"guarded_before": 0.6, "best": 0.3, "other": 0.12, "tried_unguarded": 0.08}
"""The chance a victim's secret is guarded: seen guarded, among their two best, the rest, tried and found unguarded."""
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
    """The points `player` may expect from a lone theft of each secret of another player, from public facts."""
    turn = view["turn"]
    guarded_at: dict[tuple[str, int], int] = {}
    unguarded_at: dict[tuple[str, int], int] = {}
    for attempt in view.get("attempts", []):
        where = (attempt["owner"], attempt["secret"])
        if attempt["code"] in ("captured", "escaped"):
            guarded_at[where] = attempt["turn"]
        else:
            unguarded_at[where] = attempt["turn"]
    others = [p for p in view["players"] if p != player and view["secrets"][p]]
    best_score = max((view["score"][p] for p in others), default=0)
    gains: dict[tuple[str, int], float] = {}
    for victim in others:
        lead = 1.0 + 0.25 * (view["score"][victim] == best_score and best_score > 0)
        ranked = sorted(view["secrets"][victim], reverse=True)
        # A victim seen guarding a secret outside their best few guards where chance puts them:
        # their best secrets are no likelier guarded than the rest, nor a guarded one again.
        scattered = any(o == victim and s not in ranked[:3] for o, s in guarded_at)
        for place, secret in enumerate(ranked):
            where = (victim, secret)
            if scattered:
                odds = RANDOM_GUARDED
            elif where in guarded_at:
                odds = GUARDED_ODDS["guarded_before"] * (0.75 if turn - guarded_at[where] > 1 else 1.0)
            elif where in unguarded_at and unguarded_at[where] == turn:
                odds = GUARDED_ODDS["tried_unguarded"]
            else:
                odds = GUARDED_ODDS["best" if place < 2 else "other"]
            gains[where] = value(secret) * (1 - odds) * lead
    return gains


def _targets(view: View, player: str, count: int, stream: Stream) -> list[tuple[str, int]]:
    """`count` distinct secrets of other players, drawn with chances that favour expected gain."""
    gains = _gains(view, player)
    for earlier in view["players"][: view["players"].index(player)]:
        theirs = _gains(view, earlier)
        crowd = 1 - (1 - CROWD) * _focus(view, earlier)
        for where in sorted(theirs, key=lambda w: -theirs[w])[: len(view["sids"][earlier]) // 2]:
            if where in gains:
                gains[where] *= crowd
    picked: list[tuple[str, int]] = []
    while gains and len(picked) < count:
        best = max(gains.values())
        where = _draw({w: math.exp(STEAL_SHARPNESS * (g - best)) for w, g in gains.items()}, stream)
        picked.append(where)
        del gains[where]
    picked.sort(key=lambda w: -value(w[1]))  # the strongest SIDs on the best secrets
    return picked


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
