"""Showdowns: life dice rolled at once until one agent is left (3rd phase, and ties)."""

from __future__ import annotations

from ...common.rng import Stream
from .components import FACES, GUN

SHOWDOWN_LIMIT = 10_000
"""Rolls before a showdown is called off; each roll ends it with a fair chance, so this is never reached."""


def fight(life: dict[str, int], order: list[str], stream: Stream) -> tuple[str, list[dict[str, object]]]:
    """Roll one life die each, at once, until one agent has dice left.

    When some but not all of the agents still in roll a gun, every agent who
    did not roll one loses the die just rolled; otherwise all roll again.
    Returns the survivor and every roll, each as {"faces", "lost", "out"}.
    """
    life = dict(life)
    standing = [p for p in order if life[p] > 0]
    rolls: list[dict[str, object]] = []
    while len(standing) > 1 and len(rolls) < SHOWDOWN_LIMIT:
        faces = {p: FACES[stream.die(6) - 1] for p in standing}
        guns = [p for p in standing if faces[p] == GUN]
        lost = [p for p in standing if faces[p] != GUN] if 0 < len(guns) < len(standing) else []
        for p in lost:
            life[p] -= 1
        out = [p for p in lost if life[p] == 0]
        standing = [p for p in standing if p not in out]
        rolls.append({"faces": faces, "lost": lost, "out": out, "life": {p: life[p] for p in order}})
    # The limit is a guard against a broken stream, not a rule: the first seat still in takes it.
    return standing[0], rolls
