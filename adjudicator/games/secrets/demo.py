"""The demo players of Sid's Secrets: each SID steals, guards or stays home at random."""

from __future__ import annotations

from typing import Any

from ...common.rng import Stream
from ..base import View


def orders(view: View, player: str, stream: Stream) -> list[Any]:
    """Written in both forms: the shorthand now and then, the canonical form mostly."""
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
