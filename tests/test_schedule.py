"""Deadlines: the schedule in campaign.yaml, its time zone, the reports and `pbem status`."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
import yaml

from adjudicator.campaign.adjudicate import adjudicate
from adjudicator.campaign.audit import audit
from adjudicator.cli import main
from adjudicator.campaign.create import create
from adjudicator.campaign.schedule import ScheduleError, deadline, time_left

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
        # `start` is read whether or not `every` repeats it
        ({"start": "tomorrow"}, "schedule.start: 'tomorrow' is not a time of the form 2026-12-01 20:00"),
        ({"start": "2026-12-01 25:00"}, r"schedule.start: '2026-12-01 25:00' is not a real time \(hour must be in 0..23\)"),
        ({"start": "2026-12-01T20:00:00+05:00"}, "schedule.start: '2026-12-01T20:00:00\\+05:00' is not a time of the form"),
        ({"start": None, "every": "7 days"}, "schedule.start: 'None' is not a time of the form"),
        # the whole schedule is read, not only the entry of the turn asked about
        ({"deadlines": {1: "2026-12-01 20:00", 7: "next week"}}, "schedule.deadlines.7: 'next week' is not a time"),
        ({"deadlines": {1: "2026-12-01 20:00"}, "every": "fortnightly"}, "schedule.every: 'fortnightly' is not a period"),
        ({"deadlines": {0: "2026-12-01 20:00"}}, r"schedule.deadlines: '0' is not a turn number \(1, 2, 3, ...\)"),
        ({"deadlines": {1: "2026-12-01 20:00", "1": "2026-12-02 20:00"}}, "schedule.deadlines: turn 1 is given twice"),
        ({"every": "7 days"}, "schedule.every: nothing to repeat from: give start"),
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


def test_start_alone_is_the_deadline_of_turn_1_only() -> None:
    alone = {"timezone": "Europe/Berlin", "start": "2026-12-01 20:00"}
    assert deadline(alone, 1).text == "Tuesday 1 December 2026, 20:00 CET (Europe/Berlin)"
    assert deadline(alone, 2) is None
    with_later = {**alone, "deadlines": {3: "2026-12-20 18:00"}}  # no `every`: only the turns written down
    assert [d and d.text for d in (deadline(with_later, t) for t in (1, 2, 3, 4))] == [
        "Tuesday 1 December 2026, 20:00 CET (Europe/Berlin)",
        None,
        "Sunday 20 December 2026, 18:00 CET (Europe/Berlin)",
        None,
    ]
    assert deadline({**alone, "deadlines": {1: "2026-12-03 20:00"}}, 1).text.startswith("Thursday 3 December")  # deadlines win


@pytest.mark.parametrize(
    ("schedule", "message"),
    [
        (
            {"start": "2026-12-01 20:00", "evrey": "7 days"},
            r"^schedule: unknown key 'evrey' \(did you mean 'every'\?\); the keys are timezone, start, every, from and deadlines$",
        ),
        ({"start": "2026-12-01 20:00", "bogus": 1}, r"^schedule: unknown key 'bogus'; the keys are timezone, start, every, from and deadlines$"),
        (
            {"Timezone": "UTC", "deadline": {1: "2026-12-01 20:00"}},
            r"^schedule: unknown keys 'Timezone' \(did you mean 'timezone'\?\) and 'deadline' \(did you mean 'deadlines'\?\); ",
        ),
    ],
)
def test_an_unknown_key_is_refused_not_ignored(schedule: dict, message: str) -> None:
    for turn in (1, 2):
        with pytest.raises(ScheduleError, match=message):
            deadline(schedule, turn)


def test_a_time_the_spring_clock_change_skips_is_refused() -> None:
    skipped = r"^schedule\.{}: '2027-03-28 02:30' does not exist in Europe/Berlin: the clocks go forward 1 hour on that day and skip it; write 2027-03-28 03:30 or 2027-03-28 01:30 instead$"
    with pytest.raises(ScheduleError, match=skipped.format("start")):
        deadline({"timezone": "Europe/Berlin", "start": "2027-03-28 02:30"}, 1)
    with pytest.raises(ScheduleError, match=skipped.format("start")):
        deadline({"timezone": "Europe/Berlin", "start": "2027-03-28 02:30", "every": "7 days"}, 2)
    with pytest.raises(ScheduleError, match=skipped.format("deadlines.2")):
        deadline({"timezone": "Europe/Berlin", "deadlines": {1: "2027-03-01 20:00", 2: "2027-03-28 02:30"}}, 1)
    with pytest.raises(ScheduleError, match="write 2027-10-03 02:45 or 2027-10-03 01:45"):  # a half-hour change
        deadline({"timezone": "Australia/Lord_Howe", "deadlines": {1: "2027-10-03 02:15"}}, 1)


def test_a_repeat_that_lands_in_the_skipped_hour_moves_forward_and_the_repeated_hour_means_the_first() -> None:
    weekly = {"timezone": "Europe/Berlin", "start": "2027-03-21 02:30", "every": "7 days"}
    assert deadline(weekly, 2).text == "Sunday 28 March 2027, 03:30 CEST (Europe/Berlin)"
    assert deadline(weekly, 2).iso == "2027-03-28T03:30:00+02:00"
    assert deadline(weekly, 3).text == "Sunday 4 April 2027, 02:30 CEST (Europe/Berlin)"
    # 02:30 on the night the clocks go back happens twice: the first, still summer time (fold=0)
    autumn = {"timezone": "Europe/Berlin", "start": "2027-10-24 02:30", "every": "7 days"}
    assert deadline(autumn, 2).text == "Sunday 31 October 2027, 02:30 CEST (Europe/Berlin)"
    assert deadline({"timezone": "Europe/Berlin", "deadlines": {1: "2027-10-31 02:30"}}, 1).iso == "2027-10-31T02:30:00+02:00"


@pytest.mark.parametrize(
    ("schedule", "message"),
    [
        (
            {"deadlines": {1: dt.date(2026, 12, 1), 2: dt.date(2026, 11, 1)}},
            (
                r"^schedule\.deadlines\.2: turn 2's deadline, 2026-11-01 23:59 UTC, is not later than turn 1's, 2026-12-01 23:59 UTC "
                r"\(from schedule\.deadlines\.1\); each turn's deadline must be later than the one before$"
            ),
        ),
        (
            {"start": "2026-12-01 20:00", "every": "7 days", "deadlines": {3: "2026-12-05 20:00"}},
            r"^schedule\.deadlines\.3: turn 3's deadline, 2026-12-05 20:00 UTC, is not later than turn 2's, 2026-12-08 20:00 UTC \(from schedule\.every\)",
        ),
        (
            {"start": "2026-12-01 20:00", "deadlines": {2: "2026-12-01 20:00"}},  # the same time is not later either
            r"^schedule\.deadlines\.2: turn 2's deadline, .* is not later than turn 1's, .* \(from schedule\.start\)",
        ),
        (
            {"deadlines": {1: "2026-12-01 20:00", 4: "2026-12-30 20:00", 6: "2026-12-20 20:00"}},
            r"^schedule\.deadlines\.6: turn 6's deadline, .* is not later than turn 4's",
        ),
    ],
)
def test_deadlines_must_increase_with_the_turn_number(schedule: dict, message: str) -> None:
    for turn in (1, 2, 7):  # whichever turn is asked about
        with pytest.raises(ScheduleError, match=message):
            deadline(schedule, turn)


def test_a_repeat_shorter_than_the_skipped_hour_cannot_go_backwards() -> None:
    half_hourly = {"timezone": "Europe/Berlin", "start": "2027-03-28 01:30", "every": "30 minutes"}
    assert deadline(half_hourly, 3).text == "Sunday 28 March 2027, 03:30 CEST (Europe/Berlin)"
    with pytest.raises(ScheduleError, match=r"^schedule\.every: turn 4's deadline, 2027-03-28 03:00 CEST, is not later than turn 3's"):
        deadline(half_hourly, 4)


def test_a_deadline_in_the_past_is_not_refused() -> None:
    past = {"timezone": "UTC", "start": "2001-01-01 20:00", "every": "7 days", "deadlines": {3: "2001-01-20"}}
    assert [deadline(past, t).iso for t in (1, 2, 3, 4)] == [
        "2001-01-01T20:00:00+00:00",
        "2001-01-08T20:00:00+00:00",
        "2001-01-20T23:59:00+00:00",
        "2001-01-27T23:59:00+00:00",
    ]


@pytest.mark.parametrize(
    ("schedule", "message"),
    [
        ({"start": "2026-12-01 20:00", "evrey": "7 days"}, "schedule: unknown key 'evrey' (did you mean 'every'?)"),
        ({"start": "tomorrow"}, "schedule.start: 'tomorrow' is not a time"),
        ({"timezone": "Europe/Berlin", "start": "2027-03-28 02:30"}, "schedule.start: '2027-03-28 02:30' does not exist in Europe/Berlin"),
        ({"deadlines": {1: "2026-12-01 20:00", 2: "2026-11-01 20:00"}}, "schedule.deadlines.2: turn 2's deadline"),
    ],
)
def test_every_command_that_reads_the_schedule_says_what_is_wrong_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], schedule: dict, message: str
) -> None:
    root = _campaign(tmp_path, schedule)
    path = root / "campaign.yaml"
    path.write_text(path.read_text() + "gm_email: gm@example.org\n")
    for command in (["status", str(root)], ["adjudicate", str(root), "--nmr"], ["mail", str(root), "--remind"]):
        assert main(command) == 1, command
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1, (command, err)
        assert f"{root}/campaign.yaml: " in err, (command, err)
    assert not (root / "turn-001" / "reports").exists()  # the refused adjudication wrote nothing
