"""Deadlines from the campaign's schedule (campaign.yaml `schedule:`), in the campaign's time zone.

    schedule:
      timezone: Europe/Berlin          # an IANA zone name; default UTC
      start: "2026-12-01 20:00"        # the deadline of turn 1 ...
      every: 7 days                    # ... and each later turn this long after the one before
      deadlines:                       # explicit deadlines win over the rule (an extension, a holiday)
        3: "2026-12-18 20:00"

A repeating rule counts in local wall-clock time: a 20:00 deadline stays at 20:00
when the clocks change. Nothing here reads the clock except `time_left`, which
only `pbem status` and `pbem mail --remind` use; reports take their dates from
the schedule, an input, so they stay deterministic.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .campaign import CampaignError

_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December")
_EVERY = re.compile(r"\s*(\d+)\s*(minute|hour|day|week)s?\s*\Z", re.IGNORECASE)
_LOCAL = re.compile(r"\s*(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{1,2}):(\d{2}))?\s*\Z")


class ScheduleError(CampaignError):
    """campaign.yaml's schedule cannot be read; the message says which entry and why."""


@dataclass(frozen=True)
class Deadline:
    turn: int
    at: dt.datetime
    """Aware, in the campaign's zone."""
    zone: str

    @property
    def text(self) -> str:
        """`Tuesday 1 December 2026, 20:00 CET (Europe/Berlin)`: English names, whatever the locale."""
        at = self.at
        return f"{_DAYS[at.weekday()]} {at.day} {_MONTHS[at.month - 1]} {at.year}, {at:%H:%M} {at.tzname()} ({self.zone})"

    @property
    def iso(self) -> str:
        return self.at.isoformat()

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "at": self.iso, "zone": self.zone, "text": self.text}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Deadline:
        zone = ZoneInfo(data["zone"])
        return cls(int(data["turn"]), dt.datetime.fromisoformat(data["at"]).astimezone(zone), data["zone"])


def _zone(schedule: dict[str, Any]) -> tuple[str, ZoneInfo]:
    name = str(schedule.get("timezone", "UTC"))
    try:
        return name, ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ScheduleError(f"schedule.timezone: '{name}' is not a time zone name such as Europe/Berlin or UTC") from None


def _local(value: Any, zone: ZoneInfo, where: str) -> dt.datetime:
    """A wall-clock time in the campaign's zone; YAML may already have made it a date or datetime."""
    if isinstance(value, dt.datetime):
        return value.astimezone(zone) if value.tzinfo else value.replace(tzinfo=zone)
    if isinstance(value, dt.date):
        return dt.datetime(value.year, value.month, value.day, 23, 59, tzinfo=zone)
    match = _LOCAL.match(str(value))
    if not match:
        raise ScheduleError(f"{where}: '{value}' is not a time of the form 2026-12-01 20:00")
    year, month, day, hour, minute = match.groups()
    try:
        if hour is None:  # a bare date means the end of that day
            return dt.datetime(int(year), int(month), int(day), 23, 59, tzinfo=zone)
        return dt.datetime(int(year), int(month), int(day), int(hour), int(minute), tzinfo=zone)
    except ValueError as exc:
        raise ScheduleError(f"{where}: '{value}' is not a real time ({exc})") from None


def _step(value: Any) -> dt.timedelta:
    match = _EVERY.match(str(value))
    if not match:
        raise ScheduleError(f"schedule.every: '{value}' is not a period such as '7 days', '2 weeks' or '48 hours'")
    count, unit = int(match.group(1)), match.group(2).lower()
    step = dt.timedelta(**{unit + "s": count})
    if step <= dt.timedelta(0):
        raise ScheduleError("schedule.every must be longer than zero")
    return step


def deadline(schedule: dict[str, Any] | None, turn: int) -> Deadline | None:
    """The deadline for the orders of `turn`, or None when the schedule gives none."""
    if not schedule:
        return None
    if not isinstance(schedule, dict):
        raise ScheduleError("schedule must be a mapping with timezone, and deadlines or start and every")
    name, zone = _zone(schedule)
    explicit = schedule.get("deadlines") or {}
    if not isinstance(explicit, dict):
        raise ScheduleError("schedule.deadlines must map turn numbers to times")
    by_turn = {}
    for key, value in explicit.items():
        try:
            by_turn[int(key)] = value
        except (TypeError, ValueError):
            raise ScheduleError(f"schedule.deadlines: '{key}' is not a turn number") from None
    if turn in by_turn:
        return Deadline(turn, _local(by_turn[turn], zone, f"schedule.deadlines.{turn}"), name)
    if "every" not in schedule:
        return None
    step = _step(schedule["every"])
    # Repeat from the latest explicit deadline before this turn, or from `start` (turn 1).
    anchors = [t for t in by_turn if t < turn]
    if anchors:
        base_turn = max(anchors)
        base = _local(by_turn[base_turn], zone, f"schedule.deadlines.{base_turn}")
    elif "start" in schedule:
        base_turn, base = 1, _local(schedule["start"], zone, "schedule.start")
    else:
        return None
    if turn < base_turn:
        return None
    wall = base.replace(tzinfo=None) + step * (turn - base_turn)  # wall-clock arithmetic: 20:00 stays 20:00
    return Deadline(turn, wall.replace(tzinfo=zone), name)


def time_left(target: Deadline, now: dt.datetime) -> str:
    """`2 days 3 hours left` or `passed 5 hours ago`: for a person, not for a file."""
    delta = target.at - now
    words = _span(abs(delta))
    return f"{words} left" if delta > dt.timedelta(0) else f"passed {words} ago"


def _span(delta: dt.timedelta) -> str:
    minutes = int(delta.total_seconds() // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = [(days, "day"), (hours, "hour")] if days else [(hours, "hour"), (minutes, "minute")]
    shown = [f"{n} {unit}{'' if n == 1 else 's'}" for n, unit in parts if n]
    return " ".join(shown) or "less than a minute"
