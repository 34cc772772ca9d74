"""Deadlines from the campaign's schedule (campaign.yaml `schedule:`), in the campaign's time zone.

    schedule:
      timezone: Europe/Berlin          # an IANA zone name; default UTC
      start: "2026-12-01 20:00"        # the deadline of turn 1 ...
      every: 7 days                    # ... and each later turn this long after the one before
      from: deadline                   # or `adjudication`: `every` counts from when the last turn was adjudicated
      deadlines:                       # explicit deadlines win over the rule (an extension, a holiday)
        3: "2026-12-18 20:00"

`start` alone is the deadline of turn 1 only; `every` repeats from `start` or from the latest
explicit deadline before a turn. With `from: adjudication` it repeats from the moment the turn
before was adjudicated instead (an early turn brings the next deadline forward); that deadline
is recorded in the adjudicated turn (turn-NNN/deadline.json), so reading it again needs no clock. The whole schedule is checked whichever turn is asked about:
an unknown key, a time that is not a time, a local time that the spring clock change skips, and
deadlines that do not increase with the turn number are all refused (ScheduleError). A deadline
in the past is not refused: that would depend on the clock.

A repeating rule counts in local wall-clock time: a 20:00 deadline stays at 20:00 when the
clocks change. A repeated deadline that lands in the hour the spring change skips moves forward
by the gap (02:30 becomes 03:30); a time in the hour the autumn change repeats means its first
occurrence (summer time; zoneinfo's fold=0). Nothing here reads the clock: the moment is an
argument (`time_left`, `moment`), given by the commands; reports take their dates from the
schedule, an input, so they stay deterministic.
"""

from __future__ import annotations

import datetime as dt
import difflib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .folder import DEADLINE_FILE, CampaignError

_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December")
_EVERY = re.compile(r"\s*(\d+)\s*(minute|hour|day|week)s?\s*\Z", re.IGNORECASE)
_LOCAL = re.compile(r"\s*(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{1,2}):(\d{2}))?\s*\Z")
_TURN = re.compile(r"\s*\d+\s*\Z")
_KEYS = ("timezone", "start", "every", "from", "deadlines")
_FROM = ("deadline", "adjudication")


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


@dataclass(frozen=True)
class _Rules:
    """A schedule read and checked: every time aware, in the campaign's zone."""

    name: str
    zone: ZoneInfo
    anchors: dict[int, dt.datetime]
    """Turn -> its deadline as written: `deadlines:`, and `start` for turn 1 unless `deadlines:` gives turn 1."""
    sources: dict[int, str]
    """Turn -> the entry of campaign.yaml that gave its anchor, for messages."""
    step: dt.timedelta | None
    settled: int = 0
    """The last adjudicated turn: its deadline and those before it constrain no later one."""


def _keys(schedule: dict[Any, Any]) -> None:
    unknown = [key for key in schedule if key not in _KEYS]
    if not unknown:
        return
    named = []
    for key in unknown:
        close = difflib.get_close_matches(str(key), _KEYS, n=1)
        named.append(f"'{key}'" + (f" (did you mean '{close[0]}'?)" if close else ""))
    listed = ", ".join(named[:-1]) + " and " + named[-1] if len(named) > 1 else named[0]
    plural = "s" if len(unknown) > 1 else ""
    raise ScheduleError(f"schedule: unknown key{plural} {listed}; the keys are timezone, start, every, from and deadlines")


def _zone(schedule: dict[str, Any]) -> tuple[str, ZoneInfo]:
    name = str(schedule.get("timezone", "UTC"))
    try:
        return name, ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ScheduleError(f"schedule.timezone: '{name}' is not a time zone name such as Europe/Berlin or UTC") from None


def local_zone(plan: dict[str, Any] | None) -> tuple[str, ZoneInfo]:
    """The campaign's zone, its name and itself: the schedule's, or UTC without a schedule or with one
    whose zone cannot be read (the deadline's own reading says what is wrong with it)."""
    try:
        return _zone(plan or {})
    except ScheduleError:
        return "UTC", ZoneInfo("UTC")


def local_text(plan: dict[str, Any] | None, at: dt.datetime) -> str:
    """A moment as the campaign's deadlines are written (`Wednesday 2 December 2026, 11:00 CET (Europe/Berlin)`),
    in the campaign's zone (`local_zone`)."""
    name, zone = local_zone(plan)
    return Deadline(0, at.astimezone(zone), name).text


def minute(at: dt.datetime) -> str:
    """A moment as campaign.yaml writes one (`2026-12-01 20:00`), in the moment's own zone."""
    return f"{at:%Y-%m-%d %H:%M}"


def _wall(wall: dt.datetime, zone: ZoneInfo, where: str | None = None, value: Any = None) -> dt.datetime:
    """A naive local time made aware in `zone`. A time the spring clock change skips is refused
    when the GM wrote it (`where` names the entry), and moved forward by the gap when the rule
    made it. A time the autumn change repeats is its first occurrence (fold=0)."""
    at = wall.replace(tzinfo=zone)
    real = at.astimezone(dt.UTC).astimezone(zone)
    if real.replace(tzinfo=None) == wall.replace(tzinfo=None):
        return at
    if where is None:
        return real
    before = wall.replace(tzinfo=zone, fold=1).astimezone(dt.UTC).astimezone(zone)
    gap = _span(real.utcoffset() - before.utcoffset())  # type: ignore[operator]
    raise ScheduleError(
        f"{where}: '{value}' does not exist in {zone.key}: the clocks go forward {gap} on that day and skip it; "
        f"write {minute(real)} or {minute(before)} instead"
    )


def _local(value: Any, zone: ZoneInfo, where: str) -> dt.datetime:
    """A wall-clock time in the campaign's zone; YAML may already have made it a date or datetime."""
    if isinstance(value, dt.datetime):
        return value.astimezone(zone) if value.tzinfo else _wall(value, zone, where, value)
    if isinstance(value, dt.date):
        return _wall(dt.datetime(value.year, value.month, value.day, 23, 59), zone, where, value)
    match = _LOCAL.match(str(value))
    if not match:
        raise ScheduleError(f"{where}: '{value}' is not a time of the form 2026-12-01 20:00")
    year, month, day, hour, minute = match.groups()
    try:
        if hour is None:  # a bare date means the end of that day
            wall = dt.datetime(int(year), int(month), int(day), 23, 59)
        else:
            wall = dt.datetime(int(year), int(month), int(day), int(hour), int(minute))
    except ValueError as exc:
        raise ScheduleError(f"{where}: '{value}' is not a real time ({exc})") from None
    return _wall(wall, zone, where, value)


def local_moment(plan: dict[str, Any], value: str, where: str = "schedule") -> dt.datetime:
    """A time as campaign.yaml writes one (`2026-12-01 20:00`), read in the schedule's zone."""
    return _local(value, _zone(plan)[1], where)


def duration(value: Any, where: str = "schedule.every") -> dt.timedelta:
    """A DURATION as `every:` writes it (`7 days`, `48 hours`, `2 weeks`), longer than zero and at most 100 years."""
    match = _EVERY.match(str(value))
    if not match:
        raise ScheduleError(f"{where}: '{value}' is not a period such as '7 days', '2 weeks' or '48 hours'")
    count, unit = int(match.group(1)), match.group(2).lower()
    try:
        step = dt.timedelta(**{unit + "s": count})
    except OverflowError:
        step = _LONGEST + _LONGEST
    if step <= dt.timedelta(0):
        raise ScheduleError(f"{where} must be longer than zero")
    if step > _LONGEST:
        raise ScheduleError(f"{where}: '{value}' is longer than 100 years; no deadline can be counted that far")
    return step


_LONGEST = dt.timedelta(days=36525)


def _turn(key: Any) -> int:
    if isinstance(key, bool) or not (isinstance(key, int) or (isinstance(key, str) and _TURN.match(key))) or int(key) < 1:
        raise ScheduleError(f"schedule.deadlines: '{key}' is not a turn number (1, 2, 3, ...)")
    return int(key)


def _read(schedule: Any, settled: int = 0, recorded: dict[int, dt.datetime] | None = None) -> _Rules:
    """The whole schedule, checked entry by entry, whichever turn is asked about."""
    if not isinstance(schedule, dict):
        raise ScheduleError("schedule must be a mapping with timezone, and deadlines or start and every")
    _keys(schedule)
    name, zone = _zone(schedule)
    explicit = schedule.get("deadlines") or {}
    if not isinstance(explicit, dict):
        raise ScheduleError("schedule.deadlines must map turn numbers to times")
    anchors: dict[int, dt.datetime] = {}
    sources: dict[int, str] = {}
    for key, value in explicit.items():
        turn = _turn(key)
        if turn in anchors:
            raise ScheduleError(f"schedule.deadlines: turn {turn} is given twice")
        anchors[turn] = _local(value, zone, f"schedule.deadlines.{turn}")
        sources[turn] = f"schedule.deadlines.{turn}"
    if "start" in schedule:
        start = _local(schedule["start"], zone, "schedule.start")
        if 1 not in anchors:  # an explicit deadline for turn 1 wins over start
            anchors[1], sources[1] = start, "schedule.start"
    counts_from_adjudication(schedule)  # a bad `from:` is refused whichever turn is asked about
    for turn, at in (recorded or {}).items():  # `from: adjudication`: counted when the turn before was settled
        if turn not in anchors:
            anchors[turn], sources[turn] = at.astimezone(zone), f"turn-{turn - 1:03d}/deadline.json"
    step = None
    if "every" in schedule:
        step = duration(schedule["every"])
        if not anchors:
            raise ScheduleError("schedule.every: nothing to repeat from: give start (the deadline of turn 1) or a deadline in deadlines:")
    rules = _Rules(name, zone, dict(sorted(anchors.items())), sources, step, settled)
    _check_order(rules)
    return rules


def counts_from_adjudication(schedule: Any) -> bool:
    """Whether `every` counts from the moment the turn before was adjudicated (`from: adjudication`)."""
    if not isinstance(schedule, dict) or "from" not in schedule:
        return False
    value = schedule["from"]
    if value not in _FROM:
        raise ScheduleError(f"schedule.from: '{value}' is neither 'deadline' (the default: every counts from the deadline before) nor 'adjudication'")
    return value == "adjudication" and "every" in schedule


def _at(rules: _Rules, turn: int) -> dt.datetime | None:
    if turn in rules.anchors:
        return rules.anchors[turn]
    earlier = [t for t in rules.anchors if t < turn]
    if rules.step is None or not earlier:
        return None
    # Repeat from the latest anchor before this turn: an explicit deadline, or `start` (turn 1).
    base_turn = max(earlier)
    try:
        wall = rules.anchors[base_turn].replace(tzinfo=None) + rules.step * (turn - base_turn)  # wall-clock arithmetic: 20:00 stays 20:00
    except OverflowError:
        raise ScheduleError(f"schedule.every: turn {turn}'s deadline would fall after the year 9999") from None
    return _wall(wall, rules.zone)


def _previous(rules: _Rules, turn: int) -> int | None:
    """The latest turn before `turn` that has a deadline."""
    earlier = [t for t in rules.anchors if t < turn]
    if not earlier:
        return None
    return turn - 1 if rules.step is not None else max(earlier)


def _source(rules: _Rules, turn: int) -> str:
    return rules.sources.get(turn, "schedule.every")


def _in_order(rules: _Rules, turn: int, at: dt.datetime) -> None:
    before = _previous(rules, turn)
    if before is None or before <= rules.settled:  # an adjudicated turn's deadline is history
        return
    earlier = _at(rules, before)
    assert earlier is not None
    if at <= earlier:
        raise ScheduleError(
            f"{_source(rules, turn)}: turn {turn}'s deadline, {minute(at)} {at.tzname()}, is not later than turn {before}'s, "
            f"{minute(earlier)} {earlier.tzname()} (from {_source(rules, before)}); each turn's deadline must be later than the one before"
        )


def _check_order(rules: _Rules) -> None:
    """Deadlines increase with the turn number. Between anchors the rule adds a positive step,
    so comparing each anchor with the turn before it covers the written schedule."""
    for turn, at in rules.anchors.items():
        _in_order(rules, turn, at)


def deadline(
    schedule: dict[str, Any] | None, turn: int, settled: int = 0, recorded: dict[int, dt.datetime] | None = None
) -> Deadline | None:
    """The deadline for the orders of `turn`, or None when the schedule gives none.

    `settled` is the last adjudicated turn (its deadline and earlier ones constrain no later
    one); `recorded` the deadlines counted from adjudications (`from: adjudication`), by turn."""
    if not schedule:
        return None
    rules = _read(schedule, settled, recorded)
    at = _at(rules, turn)
    if at is None:
        return None
    _in_order(rules, turn, at)  # a repeat moved forward out of the spring gap, by a step shorter than the gap
    return Deadline(turn, at, rules.name)


def of_campaign(campaign: Any, turn: int, adjudicated_at: dt.datetime | None = None) -> Deadline | None:
    """The deadline of `turn` in a campaign: its schedule, the turns already adjudicated, and with
    `from: adjudication` the deadlines those turns recorded. `adjudicated_at` is the moment the
    turn before `turn` is being adjudicated, when it is (the deadline it will record)."""
    plan = campaign.schedule
    if not plan:
        return None
    settled = campaign.last_turn if campaign.is_adjudicated(0) else 0  # pbem new asks before turn 0 is written
    recorded: dict[int, dt.datetime] = {}
    if counts_from_adjudication(plan):
        for earlier in range(1, min(settled, turn - 1) + 1):
            path = campaign.turn_dir(earlier) / DEADLINE_FILE
            if path.is_file():
                recorded[earlier + 1] = Deadline.from_json(json.loads(path.read_bytes())).at
        if adjudicated_at is not None and turn - 1 > settled:
            rules = _read(plan, settled, recorded)
            assert rules.step is not None
            recorded[turn] = _wall(adjudicated_at.astimezone(rules.zone).replace(tzinfo=None, second=0, microsecond=0) + rules.step, rules.zone)
    return deadline(plan, turn, settled, recorded)


def timing(campaign: Any, turn: int) -> str:
    """How adjudicated turn `turn` went, in the words the GM's line, the digest and the report mail use:
    `early` (before its deadline: every due seat was in), `at the deadline` (its deadline had passed), or
    "" when it cannot be said (no schedule, or a turn that recorded no moment)."""
    at = campaign.adjudicated_at(turn)
    try:
        due = of_campaign(campaign, turn)
    except ScheduleError:
        return ""
    if at is None or due is None:
        return ""
    return "early" if at < due.at else "at the deadline"


def moment(text: str, where: str = "--now") -> dt.datetime:
    """A TIME given on the command line: `2026-12-01 20:00` in the host's local zone, or ISO 8601 with an offset."""
    match = _LOCAL.match(text)
    try:
        if match:
            year, month, day, hour, minute = (int(g) if g else 0 for g in match.groups())
            return dt.datetime(year, month, day, hour, minute).astimezone()
        parsed = dt.datetime.fromisoformat(text.strip())
    except ValueError as exc:
        said = f"'{text}' is not a time such as 2026-12-01 20:00 or 2026-12-01T20:00+01:00 ({exc})"
        raise ScheduleError(f"{where}: {said}" if where else said) from None
    return parsed if parsed.tzinfo else parsed.astimezone()


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


@dataclass(frozen=True)
class Change:
    """A deadline changed by `pbem deadline`."""

    turn: int
    text: str
    before: str | None
    """The deadline it replaced, in words; None when the turn had none."""


def change_deadline(root: Path, turn: int | None, *, at: str | None = None, extend: str | None = None) -> Change:
    """Write turn `turn`'s new deadline (`at`, a TIME in the schedule's zone, or the current one
    moved later by `extend`, a DURATION) into campaign.yaml's `schedule.deadlines`, after checking
    the whole schedule with it. Turns already adjudicated cannot be changed: their deadline is
    history (and recorded in their reports)."""
    from ..common import atomic
    from .folder import Campaign

    with atomic.locked(Path(root)):
        campaign = Campaign.open(root)
        last = campaign.last_turn
        if campaign.over:
            raise ScheduleError(f"{campaign.root}: the game is over; no turn has a deadline to change")
        turn = last + 1 if turn is None else turn
        if turn <= last:
            raise ScheduleError(f"{campaign.root}: turn {turn} is adjudicated already and its deadline is history; the pending turn is {last + 1}")
        current = of_campaign(campaign, turn)
        plan = dict(campaign.schedule or {})
        _, zone = _zone(plan)
        if extend is not None:
            if current is None:
                raise ScheduleError(f"{campaign.root}: turn {turn} has no deadline to extend; give one with --set TIME")
            wall = current.at.replace(tzinfo=None) + duration(extend, "--extend")  # wall-clock arithmetic, as every: counts
            new_at = _wall(wall, zone)
        else:
            new_at = _local(at, zone, "--set")
        return write_deadline(campaign, turn, new_at, current)


def write_deadline(campaign: Any, turn: int, new_at: dt.datetime, current: Deadline | None) -> Change:
    """Turn `turn`'s deadline made `new_at` in campaign.yaml's `schedule.deadlines` (every other byte kept),
    the whole schedule checked with it; the caller holds the campaign lock."""
    from ..common import atomic
    from .folder import Campaign, rewrite_config

    plan = dict(campaign.schedule or {})
    deadlines = {key: value for key, value in (plan.get("deadlines") or {}).items() if _turn(key) != turn}
    deadlines[turn] = minute(new_at)
    plan["deadlines"] = dict(sorted(deadlines.items(), key=lambda item: _turn(item[0])))
    config = {**campaign.config, "schedule": plan}
    changed = of_campaign(Campaign(campaign.root, config, campaign.game), turn)  # the whole schedule, checked with it
    assert changed is not None
    atomic.write_file(campaign.root / "campaign.yaml", rewrite_config(campaign.root / "campaign.yaml", {"schedule": plan}))
    campaign.config["schedule"] = plan
    return Change(turn, changed.text, current.text if current else None)
