"""`pbem run`, the judge (design 11): when it adjudicates, what it mails, and that a tick repeats safely."""

from __future__ import annotations

import email
import json
import email.policy
from pathlib import Path
from typing import Any

import pytest
import yaml

from adjudicator.campaign.audit import audit
from adjudicator.campaign.folder import Campaign
from adjudicator.campaign.schedule import ScheduleError, deadline
from adjudicator.cli import main
from judgekit import append_mbox, campaign, edit, orders, outbox
from servers import Inbox


def pbem(capsys: pytest.CaptureFixture[str], *args: Any) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def tick(capsys: pytest.CaptureFixture[str], *roots: Path, now: str, smtp: str | None = None) -> tuple[int, str]:
    send = ["--send", "--smtp", smtp] if smtp else []
    code, out, err = pbem(capsys, "run", *roots, "--now", now, *send)
    return code, out + err


def test_a_tick_welcomes_and_a_second_at_the_same_moment_changes_nothing_and_sends_nothing(
    tmp_path: Path, smtp: tuple[Inbox, str], capsys: pytest.CaptureFixture[str]
) -> None:
    box, address = smtp
    root = campaign(tmp_path)
    append_mbox(tmp_path / "spies.mbox", orders("tony", 1, "Tue, 01 Dec 2026 10:00:00 +0000"))
    code, out = tick(capsys, root, now="2026-12-01T12:00+00:00", smtp=address)
    assert code == 0, out
    assert out.count("\n") == 1 and "1 new message (1 filed, 0 rejected)" in out and "sent" in out
    received = sorted((rcpt[0], m["Subject"]) for rcpt, m in box.received)
    assert [r for r, s in received if "welcome" in s] == ["david@example.org", "maria@example.org", "tony@example.org"]
    welcome = next(m for rcpt, m in box.received if "welcome" in m["Subject"] and rcpt == ["david@example.org"])
    body = welcome.get_body(("plain",)).get_content()
    views = [part.get_filename() for part in welcome.iter_attachments()]
    assert views == ["david-turn-001.view.json"], views  # the first orders can be checked before they are sent
    assert "Orders for turn 1 are due by Tuesday 8 December 2026, 20:00 CET (Europe/Berlin)." in body
    assert "player: david" in body and "help" in body and "Your password" not in body
    assert "Date: Tue, 01 Dec 2026 12:00:00 +0000" in welcome.as_string()  # --now dates the message
    def everything() -> dict[str, tuple[bytes, int]]:  # dot files too, with their times: not one is written again
        return {str(p): (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(root.rglob("*")) if p.is_file()}

    before, count = everything(), len(box.received)
    code, out = tick(capsys, root, now="2026-12-01T12:00+00:00", smtp=address)
    assert code == 0 and out.strip() == f"{root}: nothing to do"
    assert everything() == before and len(box.received) == count


def test_the_turn_goes_early_when_every_file_is_accepted_and_never_for_a_rejected_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = campaign(tmp_path)
    mbox = tmp_path / "spies.mbox"
    for player in ("tony", "david"):
        append_mbox(mbox, orders(player, 1, "Tue, 01 Dec 2026 10:00:00 +0000"))
    append_mbox(mbox, orders("maria", 1, "Tue, 01 Dec 2026 10:00:00 +0000", body="player: maria\nturn: 7\norders: []\n"))
    code, out = tick(capsys, root, now="2026-12-01T12:00+00:00")
    assert code == 0 and "(2 filed, 1 rejected)" in out and "adjudicated" not in out
    assert not Campaign.open(root).is_adjudicated(1)
    append_mbox(mbox, orders("maria", 1, "Tue, 01 Dec 2026 11:00:00 +0000"))
    code, out = tick(capsys, root, now="2026-12-01T13:00+00:00")
    assert code == 0 and "turn 1 adjudicated early" in out
    assert outbox(root)[-4:] == ["turn-001/report-david.eml", "turn-001/report-maria.eml", "turn-001/report-public.eml", "turn-001/report-tony.eml"]
    assert audit(root).divergence is None


def test_early_false_waits_for_the_deadline_and_grace_delays_the_nmr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = campaign(tmp_path, judge={"early": False, "grace": "2 hours"})
    for player in ("tony", "david", "maria"):
        append_mbox(tmp_path / "spies.mbox", orders(player, 1, "Tue, 01 Dec 2026 10:00:00 +0000"))
    assert "adjudicated" not in tick(capsys, root, now="2026-12-01T12:00+00:00")[1]
    assert "adjudicated" not in tick(capsys, root, now="2026-12-08T20:30+01:00")[1]  # past the deadline, inside the grace
    code, out = tick(capsys, root, now="2026-12-08T22:00+01:00")
    assert code == 0 and "turn 1 adjudicated at the deadline" in out and "NMR" not in out


def test_at_the_deadline_the_missing_are_nmr_and_without_a_schedule_only_a_full_turn_goes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = campaign(tmp_path)
    append_mbox(tmp_path / "spies.mbox", orders("tony", 1, "Tue, 01 Dec 2026 10:00:00 +0000"))
    assert "adjudicated" not in tick(capsys, root, now="2026-12-08T19:59+01:00")[1]
    code, out = tick(capsys, root, now="2026-12-08T20:00+01:00")
    assert code == 0 and "turn 1 adjudicated at the deadline, NMR: david, maria" in out
    loose = campaign(tmp_path, "loose", schedule=None)
    append_mbox(tmp_path / "loose.mbox", orders("tony", 1, "Tue, 01 Dec 2026 10:00:00 +0000"))
    assert "adjudicated" not in tick(capsys, loose, now="2099-01-01T00:00+00:00")[1]


def test_each_reminder_once_per_turn_player_and_offset(tmp_path: Path, smtp: tuple[Inbox, str], capsys: pytest.CaptureFixture[str]) -> None:
    box, address = smtp
    root = campaign(tmp_path, judge={"remind": ["48 hours", "24 hours"]})
    append_mbox(tmp_path / "spies.mbox", orders("tony", 1, "Tue, 01 Dec 2026 10:00:00 +0000"))
    tick(capsys, root, now="2026-12-05T12:00+01:00", smtp=address)

    def reminders() -> list[tuple[str, str]]:
        return sorted((rcpt[0], m["Subject"]) for rcpt, m in box.received if "missing" in m["Subject"])

    assert reminders() == []
    lines = [tick(capsys, root, now="2026-12-06T21:00+01:00", smtp=address)[1] for _ in range(2)]
    assert "reminded david, maria of turn 1's deadline" in lines[0] and "reminded" not in lines[1], lines
    assert reminders() == [("david@example.org", "[spies] turn 1: your orders are missing (48 hours left)"),
                           ("maria@example.org", "[spies] turn 1: your orders are missing (48 hours left)")]
    append_mbox(tmp_path / "spies.mbox", orders("david", 1, "Mon, 07 Dec 2026 10:00:00 +0000"))
    for _ in range(2):
        tick(capsys, root, now="2026-12-07T21:00+01:00", smtp=address)
    assert len(reminders()) == 3 and ("maria@example.org", "[spies] turn 1: your orders are missing (24 hours left)") in reminders()

    late = campaign(tmp_path, "late", judge={"remind": ["48 hours", "24 hours"]})
    tick(capsys, late, now="2026-12-08T10:00+01:00")  # the first tick comes late: one reminder each, the nearest
    assert [name for name in outbox(late) if "remind" in name] == [f"turn-001/remind-{p}-24hours.eml" for p in ("david", "maria", "tony")]


def test_mail_passwords_only_when_the_gm_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = campaign(tmp_path, passwords=True)
    passwords = yaml.safe_load((root / "gm" / "passwords.yaml").read_text())
    assert pbem(capsys, "mail", root, "--welcome")[0] == 0
    welcome = (root / "mail" / "outbox" / "turn-000" / "welcome-tony.eml").read_bytes()
    assert passwords["tony"].encode() not in welcome and b"The GM sends you your password" in welcome
    edit(root, lambda c: c["judge"].update(mail_passwords=True))
    tick(capsys, root, now="2026-12-01T12:00+00:00")
    message = email.message_from_bytes((root / "mail" / "outbox" / "turn-000" / "welcome-tony.eml").read_bytes(), policy=email.policy.default)
    assert f"Your password: {passwords['tony']}" in message.get_body(("plain",)).get_content()
    assert passwords["david"] not in message.get_body(("plain",)).get_content()


def test_one_broken_campaign_never_stops_the_others_and_its_gm_is_told_once(tmp_path: Path, smtp: tuple[Inbox, str], capsys: pytest.CaptureFixture[str]) -> None:
    box, address = smtp
    first, broken, last = (campaign(tmp_path, name) for name in ("first", "broken", "last"))
    (broken / "campaign.yaml").write_text((broken / "campaign.yaml").read_text() + "players: [oops\n")
    code, out = tick(capsys, first, broken, tmp_path / "nowhere", last, now="2026-12-01T12:00+00:00", smtp=address)
    lines = out.strip().splitlines()
    assert code == 1 and len(lines) == 4
    assert "could not be read" in lines[1] and "could not be read" in lines[2] and "refused" not in lines[0] + lines[3]
    told = [m for rcpt, m in box.received if rcpt == ["gm@example.org"] and "cannot be read" in m["Subject"]]
    assert len(told) == 1 and "is not valid YAML" in told[0].get_content()
    assert tick(capsys, first, broken, last, now="2026-12-01T12:05+00:00", smtp=address)[0] == 1
    assert len([m for _, m in box.received if "cannot be read" in m["Subject"]]) == 1


def test_a_turn_the_judge_cannot_adjudicate_is_told_to_the_gm_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = campaign(tmp_path)
    (root / "templates").mkdir()
    (root / "templates" / "private.txt.j2").write_text("{{ 1 / 0 }}\n")
    for _ in range(2):
        code, out = tick(capsys, root, now="2026-12-09T12:00+01:00")
        assert code == 1 and "report template" in out
    notices = [name for name in outbox(root) if "gm-refused" in name]
    assert len(notices) == 1 and b"ZeroDivisionError" in (root / "mail" / "outbox" / notices[0]).read_bytes()


BOUNCE = b"""From: Mail Delivery System <MAILER-DAEMON@mx.example.org>
To: gm@example.org
Subject: Undelivered Mail Returned to Sender
Message-ID: <bounce-1@mx.example.org>
Date: Wed, 02 Dec 2026 10:00:00 +0000
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="b"

--b
Content-Type: text/plain

<david@example.org>: host mx.example.org said: 550 5.1.1 no such user

--b
Content-Type: message/delivery-status

Final-Recipient: rfc822; david@example.org
Action: failed
Status: 5.1.1

--b--
"""


def test_a_bounce_from_a_players_address_is_told_to_the_gm(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = campaign(tmp_path)
    append_mbox(tmp_path / "spies.mbox", BOUNCE, "MAILER-DAEMON")
    tick(capsys, root, now="2026-12-02T12:00+00:00")
    [notice] = [name for name in outbox(root) if "gm-bounce" in name]
    text = email.message_from_bytes((root / "mail" / "outbox" / notice).read_bytes(), policy=email.policy.default).get_content()
    assert "For:     david" in text and "Undelivered Mail" in text


def test_from_adjudication_counts_the_next_deadline_from_the_early_turn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = campaign(tmp_path, schedule={**__import__("judgekit").WEEKLY, "from": "adjudication"})
    for player in ("tony", "david", "maria"):
        append_mbox(tmp_path / "spies.mbox", orders(player, 1, "Tue, 01 Dec 2026 10:00:00 +0000"))
    assert "adjudicated early" in tick(capsys, root, now="2026-12-03T09:30+01:00")[1]
    code, out, _ = pbem(capsys, "report", root, "--turn", "1", "--player", "tony")
    assert "Thursday 10 December 2026, 09:30 CET" in out  # a week from the adjudication, not from 8 December
    assert yaml.safe_load((root / "turn-001" / "deadline.json").read_text())["at"] == "2026-12-10T09:30:00+01:00"
    assert audit(root).divergence is None  # the moment is recorded in the turn; the replay needs no clock


def test_deadline_set_and_extend_and_an_adjudicated_turn_constrains_no_later_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = campaign(tmp_path)
    code, out, _ = pbem(capsys, "deadline", root, "--extend", "2 days")
    assert code == 0 and "Deadline for turn 1: Thursday 10 December 2026, 20:00 CET (Europe/Berlin)" in out and "was Tuesday 8" in out
    for player in ("tony", "david", "maria"):
        append_mbox(tmp_path / "spies.mbox", orders(player, 1, "Tue, 01 Dec 2026 10:00:00 +0000"))
    assert "adjudicated early" in tick(capsys, root, now="2026-12-02T12:00+01:00")[1]
    # Turn 2 was adjudicated a week early in the issue's story; here turn 1: turn 2 may now be due before turn 1's old deadline.
    code, out, err = pbem(capsys, "deadline", root, "--set", "2026-12-05 18:00")
    assert code == 0, err
    assert "Deadline for turn 2: Saturday 5 December 2026, 18:00 CET" in out
    code, _, err = pbem(capsys, "deadline", root, "--turn", "1", "--set", "2026-12-20 18:00")
    assert code == 1 and "turn 1 is adjudicated already" in err
    code, _, err = pbem(capsys, "deadline", root, "--turn", "3", "--set", "2026-12-04 18:00")
    assert code == 1 and "is not later than turn 2's" in err


def test_adjudicate_nmr_before_the_deadline_needs_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = campaign(tmp_path, schedule={"timezone": "UTC", "deadlines": {1: "2099-12-01 20:00"}})
    code, _, err = pbem(capsys, "adjudicate", root, "--nmr")
    assert code == 1 and "turn 1's deadline is Tuesday 1 December 2099, 20:00 UTC (UTC) (" in err and " left); " in err and "--force" in err
    assert not Campaign.open(root).is_adjudicated(1)
    assert pbem(capsys, "adjudicate", root, "--nmr", "--force")[0] == 0
    passed = campaign(tmp_path, "passed", schedule={"timezone": "UTC", "deadlines": {1: "2001-12-01 20:00"}})
    assert pbem(capsys, "adjudicate", passed, "--nmr")[0] == 0


def test_a_huge_every_is_refused_in_words() -> None:
    with pytest.raises(ScheduleError, match="longer than 100 years"):
        deadline({"start": "2026-12-01 20:00", "every": "99999999999999 days"}, 2)
    with pytest.raises(ScheduleError, match="schedule.from: 'tomorrow' is neither"):
        deadline({"start": "2026-12-01 20:00", "every": "1 day", "from": "tomorrow"}, 1)


def test_judge_settings_are_checked_in_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = campaign(tmp_path, judge={"remnid": ["1 day"]})
    code, out = tick(capsys, root, now="2026-12-01T12:00+00:00")
    assert code == 1 and "judge: unknown key 'remnid' (did you mean 'remind'?)" in out
    edit(root, lambda c: c["judge"].update(remnid=None) or c["judge"].pop("remnid") and None or c["judge"].update(inbox=["imap://x@y/INBOX"]))
    code, out = tick(capsys, root, now="2026-12-01T12:00+00:00")
    assert code == 1 and "only IMAP over TLS" in out


def test_a_quiet_campaign_is_skipped_until_something_moves_or_falls_due(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = campaign(tmp_path)
    tick(capsys, root, now="2026-12-01T12:00+00:00")  # the welcome
    tick(capsys, root, now="2026-12-01T12:05+00:00")  # nothing to do: remembered as quiet
    assert (root / ".judge" / "quiet.json").is_file()
    append_mbox(tmp_path / "spies.mbox", orders("tony", 1, "Tue, 01 Dec 2026 12:06:00 +0000"))
    assert "1 new message" in tick(capsys, root, now="2026-12-01T12:10+00:00")[1]
    for minute in ("15", "20"):
        assert "nothing to do" in tick(capsys, root, now=f"2026-12-01T12:{minute}+00:00")[1]
    for player in ("david", "maria"):  # saved by hand, as a GM may
        (root / "turn-001" / "orders" / f"{player}.yaml").write_text(f"player: {player}\nturn: 1\norders: []\n")
    assert "turn 1 adjudicated early" in tick(capsys, root, now="2026-12-01T12:25+00:00")[1]

    clock = campaign(tmp_path, "clock", judge={"remind": ["24 hours"]})
    tick(capsys, clock, now="2026-12-01T12:00+00:00")
    tick(capsys, clock, now="2026-12-01T12:05+00:00")
    assert "built" in tick(capsys, clock, now="2026-12-07T20:00+01:00")[1]  # the reminder time came
    tick(capsys, clock, now="2026-12-07T20:05+01:00")
    assert "adjudicated at the deadline" in tick(capsys, clock, now="2026-12-08T20:00+01:00")[1]

    edited = campaign(tmp_path, "edited")
    tick(capsys, edited, now="2026-12-01T12:00+00:00")
    tick(capsys, edited, now="2026-12-01T12:05+00:00")
    assert pbem(capsys, "deadline", edited, "--set", "2026-12-01 13:00")[0] == 0
    assert "adjudicated at the deadline" in tick(capsys, edited, now="2026-12-01T12:10+00:00")[1]


def test_a_quiet_sending_tick_sends_what_another_command_built_and_a_file_taken_out_by_hand_stays_out(
    tmp_path: Path, smtp: tuple[Inbox, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """The quiet check watches the outbox by its mark (mail/compose.py's OUTBOX_MARK), which whatever builds
    mail moves: a refusal `pbem ingest` writes into a turn folder the outbox already has is sent by the next
    tick. A message taken out of the outbox by hand is neither sent nor built again; one put in by hand goes
    with `pbem mail --send` (docs/email-workflow.md)."""
    box, address = smtp
    root = campaign(tmp_path)
    wrong = "player: tony\nturn: 7\norders: []\n"
    append_mbox(tmp_path / "spies.mbox", orders("tony", 1, "Tue, 01 Dec 2026 10:00:00 +0000", body=wrong))
    assert "1 rejected" in tick(capsys, root, now="2026-12-01T12:00+00:00", smtp=address)[1]  # the welcome, a refusal in turn-001/
    assert tick(capsys, root, now="2026-12-01T12:05+00:00", smtp=address)[1].endswith("nothing to do\n")  # remembered as quiet
    sent = len(box.received)
    by_hand = tmp_path / "by-hand.mbox"
    append_mbox(by_hand, orders("david", 1, "Tue, 01 Dec 2026 12:06:00 +0000", body=wrong.replace("tony", "david")))
    assert pbem(capsys, "ingest", root, "--from", by_hand)[0] == 0
    assert "turn-001/ack-00002.eml" in outbox(root)
    code, out = tick(capsys, root, now="2026-12-01T12:10+00:00", smtp=address)
    assert code == 0 and "1 message sent" in out, out
    assert [rcpt for rcpt, m in box.received[sent:]] == [["david@example.org"]]

    (root / "mail" / "outbox" / "turn-001" / "ack-00002.eml").unlink()  # taken out by hand, after it went
    for minute in ("15", "20"):
        assert tick(capsys, root, now=f"2026-12-01T12:{minute}+00:00", smtp=address)[1].endswith("nothing to do\n")
    assert "turn-001/ack-00002.eml" not in outbox(root) and len(box.received) == sent + 1
    letter = (root / "mail" / "outbox" / "turn-001" / "ack-00001.eml").read_bytes().replace(b"tony@", b"maria@")
    (root / "mail" / "outbox" / "turn-001" / "by-hand.eml").write_bytes(letter.replace(b"Message-ID: <", b"Message-ID: <by-hand."))
    code, out, err = pbem(capsys, "mail", root, "--send", "--smtp", address)  # (it builds turn 0's reports too: the judge welcomed instead)

    def by_hand() -> list[list[str]]:
        return [rcpt for rcpt, m in box.received if m["Message-ID"].startswith("<by-hand.")]

    assert code == 0 and by_hand() == [["maria@example.org"]], out + err
    count = len(box.received)
    assert tick(capsys, root, now="2026-12-01T12:25+00:00", smtp=address)[1].endswith("nothing to do\n")
    assert len(box.received) == count


def test_a_quiet_campaign_on_a_maildir_notices_new_mail_moved_mail_and_a_maildir_gone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The quiet check stats a Maildir's new/ and cur/ without the stat of the folder itself (it knows it
    is a Maildir): a message delivered, a message a client moved to cur/, or the folder no longer a Maildir
    each make the next tick look."""
    import mailbox
    import shutil

    box = tmp_path / "judge-maildir"
    maildir = mailbox.Maildir(box, create=True)
    root = campaign(tmp_path, judge={"inbox": [str(box)]})
    tick(capsys, root, now="2026-12-01T12:00+00:00")  # the welcome
    assert "nothing to do" in tick(capsys, root, now="2026-12-01T12:05+00:00")[1]  # remembered as quiet
    assert "nothing to do" in tick(capsys, root, now="2026-12-01T12:06+00:00")[1]
    key = maildir.add(orders("tony", 1, "Tue, 01 Dec 2026 12:06:00 +0000"))
    assert "1 new message" in tick(capsys, root, now="2026-12-01T12:10+00:00")[1]
    assert "nothing to do" in tick(capsys, root, now="2026-12-01T12:15+00:00")[1]
    for name in (box / "new").iterdir():  # delivered and moved at once, as a client reading the box may
        name.unlink()
    (box / "cur" / f"{key}:2,S").write_bytes(orders("david", 1, "Tue, 01 Dec 2026 12:16:00 +0000"))
    assert "1 new message" in tick(capsys, root, now="2026-12-01T12:20+00:00")[1]
    assert "nothing to do" in tick(capsys, root, now="2026-12-01T12:25+00:00")[1]
    shutil.rmtree(box)
    box.write_bytes(b"")  # no longer a Maildir: an (empty) mbox of the same name
    code, out = tick(capsys, root, now="2026-12-01T12:30+00:00")
    assert code == 0 and not (root / ".judge" / "quiet.json").read_text().count('"maildirs":["'), out


def test_a_second_tick_at_once_is_busy_and_without_a_gm_address_nothing_is_owed_later(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from adjudicator.common.atomic import locked

    root = campaign(tmp_path)
    with locked(root, ".judge.lock"):
        code, out = tick(capsys, root, now="2026-12-01T12:00+00:00")
    assert code == 1 and "busy: another pbem run is working on it" in out
    edit(root, lambda c: c.pop("gm_email"))
    assert tick(capsys, root, now="2026-12-01T12:00+00:00")[0] == 0 and outbox(root) == []
    edit(root, lambda c: c.update(gm_email="gm@example.org"))
    tick(capsys, root, now="2026-12-01T12:05+00:00")
    assert not [name for name in outbox(root) if "welcome" in name]  # the campaign had begun without mail


def test_an_adjudicated_turns_deadline_constrains_no_later_one() -> None:
    """Issue 16 item 16: turn 2 went a week early; turn 3 may be due before turn 2's old deadline."""
    plan = {"timezone": "UTC", "start": "2026-12-01 20:00", "every": "14 days", "deadlines": {3: "2026-12-10 20:00"}}
    with pytest.raises(ScheduleError, match="turn 3's deadline, 2026-12-10 20:00 UTC, is not later than turn 2's"):
        deadline(plan, 3, settled=1)
    assert deadline(plan, 3, settled=2).text == "Thursday 10 December 2026, 20:00 UTC (UTC)"
    assert deadline(plan, 4, settled=2).text == "Thursday 24 December 2026, 20:00 UTC (UTC)"  # the rule goes on from turn 3


def test_a_seat_without_an_address_is_named_for_the_gm(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = campaign(tmp_path)
    edit(root, lambda c: c["players"][2].pop("email"))
    code, out = tick(capsys, root, now="2026-12-01T12:00+00:00")
    assert code == 0 and "note: maria: no email in campaign.yaml; welcome them yourself" in out
    assert "note:" not in tick(capsys, root, now="2026-12-01T12:05+00:00")[1]


def test_now_is_read_in_the_hosts_zone_or_with_its_offset_and_deadline_makes_a_schedule(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import datetime as dt

    from adjudicator.campaign.schedule import moment

    assert moment("2026-12-01T20:00+01:00") == dt.datetime(2026, 12, 1, 19, 0, tzinfo=dt.UTC)
    assert moment("2026-12-01 20:00") == dt.datetime(2026, 12, 1, 20, 0).astimezone()  # the host's local zone
    with pytest.raises(ScheduleError, match="--now: '2026-13-01 20:00' is not a time such as 2026-12-01 20:00"):
        moment("2026-13-01 20:00")
    with pytest.raises(SystemExit) as usage:  # a usage error, before any campaign is touched
        main(["run", str(tmp_path), "--now", "tomorrow"])
    assert usage.value.code == 2 and "argument --now: 'tomorrow' is not a time" in capsys.readouterr().err
    root = campaign(tmp_path, schedule=None)
    code, out, _ = pbem(capsys, "deadline", root, "--set", "2026-12-10 18:00")
    assert code == 0 and "Deadline for turn 1: Thursday 10 December 2026, 18:00 UTC (UTC)" in out
    assert pbem(capsys, "deadline", root, "--extend", "fortnightly")[0] == 1


def test_a_seat_the_stand_in_plays_is_never_waited_for(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Design 14: the GM hands María's seat to the stand-in; the turn goes early once the others are in,
    with the stand-in's orders filed for her, and she is not reminded."""
    root = campaign(tmp_path)
    assert main(["standin", str(root), "maria", "on"]) == 0
    for player in ("tony", "david"):
        append_mbox(tmp_path / "spies.mbox", orders(player, 1, "Tue, 01 Dec 2026 10:00:00 +0000"))
    capsys.readouterr()
    code, out = tick(capsys, root, now="2026-12-01T12:00+00:00")
    assert code == 0 and "turn 1 adjudicated early" in out, out
    results = json.loads((root / "turn-001" / "results.json").read_text())
    assert results["standins"] == {"maria": {"reason": "gm"}} and results["submissions"]["maria"]["status"] == "accepted"
    assert not [name for name in outbox(root) if name.startswith("turn-002/remind-maria")]

