"""Word to the GM when a seat's own player writes while the stand-in covers it (trial 8).

A player always wins over the stand-in (docs/standins.md), and the GM must know when one does: a player
back at a seat the GM handed to the stand-in plays that turn, but the stand-in stays on and plays, without
the judge waiting, any later turn they send nothing (the GM may want `pbem standin DIR SEAT off`); a
player back at an abandoned seat ends the abandonment, and the stand-in stops. Told once per seat and
turn, from the ingest's record and the campaign's files alone, so the run line of the tick that filed the
orders and the GM's digest of that tick say the same, and a tick run again says nothing new.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..campaign.folder import Campaign
from ..campaign.standins import ABANDONED, GM, Due, abandon_after, due, settings
from ..mail.ingest import Entry, load_index

ACCEPTED = ("filed", "superseded")
"""An entry whose orders were accepted (a later message may have superseded them since)."""


def told(campaign: Campaign, fresh: Iterable[int], entries: list[Entry] | None = None) -> list[str]:
    """What the GM is told of the messages `fresh` (their seqs) among the ingest's `entries` (all of them, in order;
    read from mail/ingest.jsonl when the caller has not)."""
    fresh = set(fresh)
    if abandon_after(campaign) is None and not settings(campaign):
        return []  # the usual campaign: no seat the stand-in could cover, no record or turn's state to read
    if entries is None:
        entries = load_index(campaign.root)
    seen: set[tuple[int, str]] = set()
    covered: dict[int, dict[str, Due]] = {}
    facts = []
    for entry in entries:
        if entry.status not in ACCEPTED or entry.player is None or entry.turn is None:
            continue
        key = (entry.turn, entry.player)
        if key in seen:
            continue  # the seat's player already wrote for that turn: told then
        seen.add(key)
        if entry.seq not in fresh or entry.turn > campaign.last_turn + 1:
            continue
        if entry.turn not in covered:
            covered[entry.turn] = due(campaign, entry.turn - 1, campaign.state(entry.turn - 1))
        seat = covered[entry.turn].get(entry.player)
        if seat is not None:
            facts += _fact(campaign, seat, entry.turn)
    return facts


def _fact(campaign: Campaign, seat: Due, turn: int) -> list[str]:
    if seat.reason == GM:
        return [f"{seat.seat} sent orders of their own for turn {turn} while your stand-in is on for the seat (since turn {seat.since}): "
                f"they play turn {turn}, and the stand-in goes on playing every turn {seat.seat} sends nothing, without the judge "
                f"waiting for them; if {seat.seat} is back for good: pbem standin {campaign.root} {seat.seat} off"]
    if seat.reason == ABANDONED:
        return [f"{seat.seat} is back: orders of their own for turn {turn} are filed, so the seat ({seat.why}) is abandoned no more "
                "and the stand-in stops playing it"]
    return []  # a vacant seat's resigned player has no password that works
