"""Deadlines: the schedule in campaign.yaml, its time zone, the reports and `pbem status`."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
import yaml

from adjudicator.adjudicate import adjudicate
from adjudicator.audit import audit
from adjudicator.cli import main
from adjudicator.new import create
from adjudicator.schedule import ScheduleError, deadline, time_left

WEEKLY = {"timezone": "Europe/Berlin", "start": "2027-03-16 20:00", "every": "7 days"}


def test_a_weekly_deadline_keeps_its_wall_clock_time_across_the_clock_change() -> None:
    first, second, third = (deadline(WEEKLY, turn) for turn in (1, 2, 3))
    assert first.text == "Tuesday 16 March 2027, 20:00 CET (Europe/Berlin)"
    assert second.text == "Tuesday 23 March 2027, 20:00 CET (Europe/Berlin)"
    assert third.text == "Tuesday 30 March 2027, 20:00 CEST (Europe/Berlin)"  # summer time began on 28 March
    utc = dt.UTC
    assert third.at.astimezone(utc) - second.at.astimezone(utc) == dt.timedelta(days=7) - dt.timedelta(hours=1)
    assert third.iso == "2027-03-30T20:00:00+02:00"


def test_explicit_deadlines_win_and_the_rule_continues_from_them() -> None:
    schedule = {**WEEKLY, "deadlines": {3: "2027-04-02 12:00", "5": "2027-04-20"}}
    assert deadline(schedule, 3).text == "Friday 2 April 2027, 12:00 CEST (Europe/Berlin)"
    assert deadline(schedule, 4).text == "Friday 9 April 2027, 12:00 CEST (Europe/Berlin)"
    assert deadline(schedule, 5).text == "Tuesday 20 April 2027, 23:59 CEST (Europe/Berlin)"  # a bare date: end of that day
    only = {"timezone": "America/New_York", "deadlines": {1: "2026-12-01 18:30"}}
    assert deadline(only, 1).text == "Tuesday 1 December 2026, 18:30 EST (America/New_York)"
    assert deadline(only, 2) is None and deadline(None, 1) is None


@pytest.mark.parametrize(
    ("schedule", "message"),
    [
        ({"timezone": "Mars/Olympus", "deadlines": {1: "2026-12-01 20:00"}}, "not a time zone name"),
        ({"deadlines": {1: "next Tuesday"}}, "not a time of the form"),
        ({"deadlines": {1: "2026-02-30 20:00"}}, "not a real time"),
        ({"start": "2026-12-01 20:00", "every": "fortnightly"}, "not a period"),
        ({"deadlines": {"first": "2026-12-01 20:00"}}, "not a turn number"),
    ],
)
def test_a_bad_schedule_says_what_is_wrong(schedule: dict, message: str) -> None:
    with pytest.raises(ScheduleError, match=message):
        deadline(schedule, 1)


def test_time_left_is_for_people() -> None:
    due = deadline({"timezone": "UTC", "deadlines": {1: "2026-12-01 20:00"}}, 1)
    assert time_left(due, dt.datetime(2026, 11, 29, 17, 0, tzinfo=dt.UTC)) == "2 days 3 hours left"
    assert time_left(due, dt.datetime(2026, 12, 1, 19, 59, 30, tzinfo=dt.UTC)) == "less than a minute left"
    assert time_left(due, dt.datetime(2026, 12, 1, 21, 5, tzinfo=dt.UTC)) == "passed 1 hour 5 minutes ago"


def _campaign(tmp_path: Path, schedule: dict | None) -> Path:
    root = tmp_path / "c"
    create(root, "secrets", [{"id": p, "name": p.title()} for p in ("ann", "bob", "cy")], seed="d", passwords=False)
    if schedule is not None:
        path = root / "campaign.yaml"
        config = yaml.safe_load(path.read_text())
        config["schedule"] = schedule
        path.write_text(yaml.safe_dump(config, sort_keys=False))
    return root


def test_reports_name_the_next_deadline_and_an_extension_never_changes_them(tmp_path: Path) -> None:
    root = _campaign(tmp_path, {"timezone": "Europe/Berlin", "start": "2026-12-01 20:00", "every": "1 week"})
    adjudicate(root, nmr=True)
    private = (root / "turn-001" / "reports" / "ann.txt").read_text()
    assert "Deadline for your orders for turn 2: Tuesday 8 December 2026, 20:00 CET (Europe/Berlin)." in private
    public = (root / "turn-001" / "reports" / "public.md").read_text()
    assert "**Deadline for turn 2:** Tuesday 8 December 2026, 20:00 CET \\(Europe/Berlin\\)." in public
    assert "deadline.json" in (root / "turn-001" / "manifest.json").read_text()
    # the GM extends turn 2: reports already written keep their date, and still audit clean
    path = root / "campaign.yaml"
    config = yaml.safe_load(path.read_text())
    config["schedule"]["deadlines"] = {2: "2026-12-10 20:00"}
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    assert audit(root).divergence is None
    adjudicate(root, nmr=True)
    assert "turn 3: Thursday 17 December 2026" in (root / "turn-002" / "reports" / "bob.txt").read_text()
    assert audit(root).divergence is None


def test_no_schedule_no_deadline(tmp_path: Path) -> None:
    root = _campaign(tmp_path, None)
    adjudicate(root, nmr=True)
    assert not (root / "turn-001" / "deadline.json").exists()
    assert "Deadline" not in (root / "turn-001" / "reports" / "ann.txt").read_text()


def test_status_shows_the_time_left(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _campaign(tmp_path, {"timezone": "UTC", "deadlines": {1: "2000-01-01 12:00", 2: "2099-01-01 12:00"}})
    assert main(["status", str(root)]) == 0
    out = capsys.readouterr().out
    assert "Deadline for turn 1: Saturday 1 January 2000, 12:00 UTC (UTC) (passed" in out
    adjudicate(root, nmr=True)
    assert main(["status", str(root)]) == 0
    assert "Deadline for turn 2: Thursday 1 January 2099" in capsys.readouterr().out
    bad = root / "campaign.yaml"
    bad.write_text(bad.read_text().replace("timezone: UTC", "timezone: Nowhere/Land"))
    assert main(["status", str(root)]) == 1
    assert "not a time zone name" in capsys.readouterr().err
