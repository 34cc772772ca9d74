"""The stand-in of Sid's Secrets: how a careful player spends seven SIDs, from the seat's view alone.

Strong SIDs guard the seat's most valuable secrets, the ones a thief goes for first; a
guard as strong as any single SID (7) captures whoever comes alone. The other SIDs steal,
each on a secret of its own, where a guard is least likely: a player guards their top
secrets first, so a victim's third to fifth best secret is worth more in expectation
than their best one. Victims are the players ahead, the leader most. docs/standins.md.
"""

from __future__ import annotations

from typing import Any

from ...common.rng import Stream
from ..base import View
from .rules import value

SAFE_GUARD = 7
"""A guard this strong captures any single SID (ranks run to 7)."""
LIKELY_GUARDED = 2
"""How many of a victim's best secrets a careful victim is taken to guard."""
GUARDED_ODDS = {True: 0.55, False: 0.15}
"""The chance a victim's secret is guarded: among their best (True) or not (False)."""


def orders(view: View, player: str, stream: Stream) -> list[Any]:
    sids = sorted(view["sids"][player], reverse=True)
    mine = sorted(view["secrets"][player], reverse=True)
    banned = {(r["sid"], r["secret"]) for r in view["restrictions"]}
    items: list[Any] = []
    free = list(sids)
    guarded = 0
    for secret in mine:
        if guarded >= _guards_wanted(view, player) or not free:
            break
        group = _guard_group(free, secret, banned)
        if group is None:
            continue
        for sid in group:
            free.remove(sid)
            items.append({"sid": sid, "guard": secret})
        guarded += 1
    for sid, (victim, secret) in zip(free, _targets(view, player, stream)):
        items.append({"sid": sid, "steal": {"player": victim, "secret": secret}})
    return items


def _guards_wanted(view: View, player: str) -> int:
    """One guard while the seat has much to lose; two once its best secrets are its last ones."""
    return 1 if len(view["secrets"][player]) > 6 else 2


def _guard_group(free: list[int], secret: int, banned: set[tuple[int, int]]) -> list[int] | None:
    """The fewest SIDs, strongest first, that reach a safe guard of `secret` (SECRETS-7 respected)."""
    allowed = [sid for sid in free if (sid, secret) not in banned]
    group: list[int] = []
    for sid in allowed:  # strongest first
        group.append(sid)
        if sum(group) >= SAFE_GUARD:
            return group
    return group if group and len(free) > 2 else None


def _targets(view: View, player: str, stream: Stream) -> list[tuple[str, int]]:
    """Distinct secrets of other players, best expected gain first (worth times the chance it is unguarded)."""
    others = [p for p in view["players"] if p != player and view["secrets"][p]]
    best_score = max((view["score"][p] for p in others), default=0)
    scored: list[tuple[float, int, str, int]] = []
    for victim in others:
        theirs = sorted(view["secrets"][victim], reverse=True)
        lead = 1.0 + 0.25 * (view["score"][victim] == best_score)  # slowing the leader is worth a little more
        for place, secret in enumerate(theirs):
            unguarded = 1 - GUARDED_ODDS[place < LIKELY_GUARDED]
            jitter = stream.below(1000) / 1e5  # breaks ties without favouring the first seat
            scored.append((value(secret) * unguarded * lead + jitter, secret, victim, place))
    scored.sort(reverse=True)
    return [(victim, secret) for _, secret, victim, _ in scored]
