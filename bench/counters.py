"""Counter-strategies for bench/standins.py: a thoughtful newcomer per game (design 19).

Each is written from the rulebook alone: a player who reads the public record of past
turns (the seat's view, as a human reads their reports) and plays against what it shows,
without randomness beyond breaking ties. They are what a stand-in must not be farmed by:
the bench plays them in the measured seat among random players and among stand-ins.
A game without a counter here is measured without one (the table says so).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjudicator.common.rng import Stream
from adjudicator.games.base import View

Counter = Callable[[View, str, Stream], list[Any]]

# -- Hide the Kids! -------------------------------------------------------------

_PAYS = {"tub": 2.0, "clock": 1.3}


def _seen(turn: dict[str, Any]) -> dict[str, str]:
    seen = {kid: lift["furniture"] for lift in turn["lifts"] for kid in lift["found"]}
    seen.update({escape["kid"]: escape["furniture"] for escape in turn["escaped"]})
    return seen


def _best(scores: dict[str, float], stream: Stream, count: int) -> list[str]:
    """The `count` best, ties broken by the stream."""
    jitter = {p: stream.below(1000) / 1e6 for p in scores}
    return sorted(scores, key=lambda p: -(scores[p] + jitter[p]))[:count]


def hidekids(view: View, player: str, stream: Stream) -> list[Any]:
    """A kid goes where pay is good and the wolf has not been lifting, and never back where it was seen;
    the wolf lifts where kids were seen last turn (and the turn before), the tub and clock first on a tie."""
    furniture = view["furniture"]
    history = view["history"]
    if player == view["wolf"]:
        score = {p: _PAYS.get(p, 1.0) / 10 for p in furniture}
        for weight, turn in zip((1.0, 0.5), reversed(history)):
            for piece in _seen(turn).values():
                score[piece] += weight
        return [{"lift": _best(score, stream, 2)}]
    score = {p: _PAYS.get(p, 1.0) for p in furniture}
    turns = max(1, len(history))
    for turn in history:
        for lift in turn["lifts"]:
            score[lift["furniture"]] *= 1 - 0.6 / turns ** 0.5 / 2
    if history:
        for lift in history[-1]["lifts"]:
            score[lift["furniture"]] *= 0.5
        mine = _seen(history[-1]).get(player)
        if mine:
            score[mine] *= 0.2
    return [{"hide": _best(score, stream, 1)[0]}]


# -- Sid's Secrets --------------------------------------------------------------


def secrets(view: View, player: str, stream: Stream) -> list[Any]:
    """Guard the best secret with just enough (a 7 alone stops any single SID); steal the best
    secrets of others that the public record shows unguarded, avoiding what was guarded before;
    go after the same secret as nobody else if possible (lowest seats' targets are guessed)."""
    from adjudicator.games.secrets.rules import value

    sids = sorted(view["sids"][player], reverse=True)
    mine = sorted(view["secrets"][player], reverse=True)
    banned = {(r["sid"], r["secret"]) for r in view["restrictions"]}
    attempts = view.get("attempts", [])
    guarded = {(a["owner"], a["secret"]) for a in attempts if a["code"] in ("captured", "escaped")}
    tried = {(a["owner"], a["secret"]): a["turn"] for a in attempts}
    items: list[Any] = []
    free = list(sids)
    # Guard: the best secret with the lowest group that reaches 7 (a 7 alone if it may).
    if mine:
        secret = mine[0]
        group = next(([s] for s in sorted(free) if s >= 7 and (s, secret) not in banned), None)
        if group is None:
            group = []
            for s in free:
                if (s, secret) not in banned and sum(group) < 7:
                    group.append(s)
        for s in group:
            free.remove(s)
            items.append({"sid": s, "guard": secret})
    scored = []
    for victim in view["players"]:
        if victim == player:
            continue
        for secret in view["secrets"][victim]:
            worth = value(secret)
            if (victim, secret) in guarded:
                worth *= 0.2
            elif (victim, secret) in tried:
                worth *= 0.8
            scored.append((worth + stream.below(1000) / 1e4, victim, secret))
    scored.sort(reverse=True)
    for sid, (_, victim, secret) in zip(sorted(free, reverse=True), scored):
        items.append({"sid": sid, "steal": {"player": victim, "secret": secret}})
    return items


COUNTERS: dict[str, Counter] = {"hidekids": hidekids, "secrets": secrets}
