"""Absences: a player asks by mail (`absence FROM TO`), the GM decides (design 12).

    CAMPAIGN/gm/absences.yaml     the absences the GM granted, one per item:
        - {seat: tony, from: "2026-12-24", to: "2027-01-02"}

A request only tells the GM (mail/commands.py); `pbem absence DIR SEAT --grant FROM TO`
(or the GM's own edit of the file) grants it, and the `status` reply lists the grants.
Granting moves no deadline: the GM does that with `pbem deadline DIR --extend DURATION`.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path

from .folder import Campaign, CampaignError, damaged, dump_yaml, read_yaml
from ..common import atomic

_DAY = re.compile(r"\s*([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})\s*\Z")


class AbsenceError(ValueError):
    """A request or a grant that cannot be read; the message says what to write instead."""


@dataclass(frozen=True)
class Absence:
    seat: str
    start: dt.date
    end: dt.date

    @property
    def text(self) -> str:
        return f"{self.start.isoformat()} to {self.end.isoformat()}"


def path(root: Path) -> Path:
    return root / "gm" / "absences.yaml"


def day(text: object, where: str = "") -> dt.date:
    """A date written 2026-12-24 (YAML may already have made it one)."""
    if isinstance(text, dt.date) and not isinstance(text, dt.datetime):
        return text
    match = _DAY.match(str(text))
    try:
        if match is None:
            raise ValueError
        return dt.date(*(int(part) for part in match.groups()))
    except ValueError:
        raise AbsenceError(f"{where}'{str(text)[:40]}' is not a date written like 2026-12-24") from None


def span(first: object, last: object, where: str = "") -> tuple[dt.date, dt.date]:
    start, end = day(first, where), day(last, where)
    if end < start:
        raise AbsenceError(f"{where}{end.isoformat()} is before {start.isoformat()}: write the first day, then the last")
    return start, end


def request(words: str) -> tuple[dt.date, dt.date]:
    """The FROM and TO of an `absence FROM TO` line (`to` between them is allowed)."""
    parts = [w for w in words.split() if w.lower() != "to"]
    if len(parts) != 2:
        raise AbsenceError("write it as: absence 2026-12-24 2027-01-02 (the first and the last day you are away)")
    return span(parts[0], parts[1])


def granted(root: Path) -> list[Absence]:
    """The granted absences, in the file's order; a damaged file is the GM's to mend (CampaignError)."""
    file = path(root)
    if not file.is_file():
        return []
    items = read_yaml(file) or []
    if not isinstance(items, list):
        raise damaged(file, "not a list of {seat, from, to} items")
    found = []
    for number, item in enumerate(items, start=1):
        if not isinstance(item, dict) or not {"seat", "from", "to"} <= set(item):
            raise damaged(file, f"item {number} is not a mapping with seat, from and to")
        try:
            start, end = span(item["from"], item["to"], f"item {number}: ")
        except AbsenceError as exc:
            raise damaged(file, str(exc)) from None
        found.append(Absence(str(item["seat"]), start, end))
    return found


def grant(campaign: Campaign, seat: str, first: str, last: str) -> Absence:
    """Add a granted absence to gm/absences.yaml (the caller holds the campaign lock)."""
    if campaign.player(seat) is None:
        raise CampaignError(f"{campaign.root}: there is no seat '{seat}' (the seats: {', '.join(p['id'] for p in campaign.players)})")
    try:
        start, end = span(first, last)
    except AbsenceError as exc:
        raise CampaignError(str(exc)) from None
    absences = granted(campaign.root)
    added = Absence(seat, start, end)
    if added not in absences:
        absences.append(added)
    items = [{"seat": a.seat, "from": a.start.isoformat(), "to": a.end.isoformat()} for a in absences]
    path(campaign.root).parent.mkdir(exist_ok=True)
    atomic.write_file(path(campaign.root), dump_yaml(items))
    return added
