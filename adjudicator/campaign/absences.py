"""Absences: a player asks by mail (`absence FROM TO`), the GM decides (design 12).

    CAMPAIGN/gm/absences.yaml     the absences the GM granted, one per item:
        - {seat: tony, from: "2026-12-24", to: "2027-01-02"}

A request only tells the GM (mail/commands.py); `pbem absence DIR SEAT --grant FROM TO`
(or the GM's own edit of the file) grants it, and the `status` reply lists the grants.
Granting moves no deadline: the GM does that with `pbem deadline DIR --extend DURATION`.

With `judge: absences: auto` and `judge: absence_budget: DURATION` (design 16) the judge grants
a request within the seat's budget left itself (`decide`, the same file), and every granted
absence of a seat due in the pending turn that covers its deadline moves that deadline to the
end of the absence (the end of day TO in the campaign's zone) for everyone (`covering`,
applied by the judge's tick: judge/absences.py).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path
from zoneinfo import ZoneInfo

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


# -- absences granted by the judge (design 16: judge: absences: auto) ---------------------------


@dataclass(frozen=True)
class Auto:
    """`judge: absences: auto` with `judge: absence_budget: DURATION` (per player per game)."""

    budget: dt.timedelta


def auto(campaign: Campaign) -> Auto | None:
    """The judge's own grants, when campaign.yaml asks for them (judge/settings.py checks the keys in words)."""
    from .schedule import ScheduleError, duration

    judge = campaign.config.get("judge")
    if not isinstance(judge, dict) or judge.get("absences", "gm") != "auto":
        return None
    try:
        return Auto(duration(judge.get("absence_budget", "0 days"), "judge.absence_budget"))
    except ScheduleError as exc:
        raise CampaignError(f"{campaign.root / 'campaign.yaml'}: {exc}") from None


def length(absence: Absence) -> dt.timedelta:
    """Whole days, the first and the last included."""
    return dt.timedelta(days=(absence.end - absence.start).days + 1)


def used(absences: list[Absence], seat: str) -> dt.timedelta:
    return sum((length(a) for a in absences if a.seat == seat), dt.timedelta(0))


def left(rules: Auto, absences: list[Absence], seat: str) -> dt.timedelta:
    """The seat's absence budget left: what the judge grants within, and what `pbem absence` lists."""
    return max(rules.budget - used(absences, seat), dt.timedelta(0))


def words(span: dt.timedelta) -> str:
    """7 days, 1 day 12 hours, 0 days."""
    days, hours = span.days, span.seconds // 3600
    parts = [f"{days} day{'' if days == 1 else 's'}"] if days or not hours else []
    if hours:
        parts.append(f"{hours} hour{'' if hours == 1 else 's'}")
    return " ".join(parts)


def bounds(absence: Absence, zone: ZoneInfo) -> tuple[dt.datetime, dt.datetime]:
    """From the start of day FROM to the end of day TO (midnight after it), in the campaign's zone."""
    start = dt.datetime.combine(absence.start, dt.time(0), zone)
    end = dt.datetime.combine(absence.end + dt.timedelta(days=1), dt.time(0), zone)
    return start, end


def covering(absences: list[Absence], seats: set[str], at: dt.datetime, zone: ZoneInfo) -> dt.datetime | None:
    """Where a deadline `at` moves to when an absence of one of `seats` covers it: the end of that absence,
    and on past any other absence the new moment falls in; None when none covers it."""
    moved = None
    while True:
        ends = [end for a in absences if a.seat in seats for start, end in [bounds(a, zone)] if start <= at < end]
        if not ends:
            return moved
        at = moved = max(ends)


@dataclass(frozen=True)
class Decision:
    granted: bool
    absence: Absence
    left: dt.timedelta
    """The budget left after it (or, refused, the budget left as it is)."""
    already: bool = False


def decide(campaign: Campaign, rules: Auto, seat: str, start: dt.date, end: dt.date) -> Decision:
    """Grant the absence within the seat's budget left (written to gm/absences.yaml as `pbem absence`
    writes it), or refuse it; the caller holds the campaign lock. The same request again changes nothing."""
    absences = granted(campaign.root)
    wanted = Absence(seat, start, end)
    remaining = left(rules, absences, seat)
    if wanted in absences:
        return Decision(True, wanted, remaining, already=True)
    if length(wanted) > remaining:
        return Decision(False, wanted, remaining)
    grant(campaign, seat, start.isoformat(), end.isoformat())
    return Decision(True, wanted, remaining - length(wanted))
