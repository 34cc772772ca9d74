"""A whole simulated fortnight of a campaign run by the judge alone, from one cron line.

Players' mail arrives in an mbox and over IMAP (a real Dovecot) at different moments; cron's
`pbem run` ticks (each tick run twice: the second must do nothing) welcome the players,
file and acknowledge orders, remind the late, adjudicate turn 1 early and turn 2 at its
deadline with NMRs, and deliver every message to a real SMTP server (aiosmtpd) exactly once.
Then `pbem audit` is clean.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from adjudicator.cli import main
from judgekit import append_mbox, campaign, edit, orders
from servers import PASSWORD, Imap, Inbox


def test_a_fortnight_run_by_the_judge(tmp_path: Path, imap: Imap, smtp: tuple[Inbox, str], capsys: pytest.CaptureFixture[str]) -> None:
    box, address = smtp
    secret = tmp_path / "imap-password"
    secret.write_text(PASSWORD + "\n")
    root = campaign(tmp_path, judge={"imap_ca_file": imap.cafile, "imap_password_file": str(secret), "remind": ["24 hours"]})
    edit(root, lambda c: c["judge"]["inbox"].append(imap.url))
    mbox = tmp_path / "spies.mbox"
    lines: list[str] = []

    def cron(now: str) -> str:
        """What cron does every few minutes; the same minute twice must change nothing."""
        code = main(["run", str(root), "--now", now, "--send", "--smtp", address])
        first = capsys.readouterr().out
        assert code == 0, first
        count = len(box.received)
        assert main(["run", str(root), "--now", now, "--send", "--smtp", address]) == 0
        assert capsys.readouterr().out.strip() == f"{root}: nothing to do" and len(box.received) == count
        lines.append(first.strip())
        return first

    def got(address: str, words: str) -> int:
        return sum(1 for rcpt, m in box.received if rcpt == [address] and words in str(m["Subject"]))

    # Tuesday 1 December: the GM set the campaign up; the first tick welcomes everyone.
    assert "3 messages sent" in cron("2026-12-01T12:00+01:00")
    assert all(got(f"{p}@example.org", "welcome") == 1 for p in ("tony", "david", "maria"))
    # Wednesday: Tony's orders land in the mbox, David's on the IMAP server.
    append_mbox(mbox, orders("tony", 1, "Wed, 02 Dec 2026 09:00:00 +0100", body="player: tony\nturn: 1\norders: ['SID 7 guard 10']\n"))
    imap.deliver(orders("david", 1, "Wed, 02 Dec 2026 10:00:00 +0100", body="player: david\nturn: 1\norders: ['SID 6 steal tony 10']\n"))
    out = cron("2026-12-02T10:15+01:00")
    assert "1 message fetched" in out and "2 new messages (2 filed, 0 rejected)" in out
    assert got("tony@example.org", "orders received") == 1 and got("david@example.org", "orders received") == 1
    # Monday 7 December 21:00, 23 hours before the deadline: María is reminded, once.
    cron("2026-12-07T21:00+01:00")
    assert got("maria@example.org", "your orders are missing") == 1 and got("tony@example.org", "missing") == 0
    # María answers over IMAP: everyone is in, turn 1 goes early.
    imap.deliver(orders("maria", 1, "Mon, 07 Dec 2026 22:00:00 +0100"))
    out = cron("2026-12-07T22:05+01:00")
    assert "turn 1 adjudicated early" in out
    assert all(got(f"{p}@example.org", "turn 1: report") == 1 for p in ("tony", "david", "maria"))
    assert got("gm@example.org", "public report") == 1
    report = next(m for rcpt, m in box.received if rcpt == ["david@example.org"] and "turn 1: report" in m["Subject"])
    assert "Tuesday 15 December 2026, 20:00 CET" in report.get_body(("plain",)).get_content()  # turn 2's deadline, from the schedule
    # Turn 2: only Tony writes. Reminders the day before, then NMRs at the deadline.
    append_mbox(mbox, orders("tony", 2, "Thu, 10 Dec 2026 09:00:00 +0100"))
    cron("2026-12-10T09:10+01:00")
    cron("2026-12-14T20:30+01:00")
    assert got("david@example.org", "missing") == 1 and got("maria@example.org", "missing") == 2 and got("tony@example.org", "missing") == 0
    assert "adjudicated" not in cron("2026-12-15T19:55+01:00")
    out = cron("2026-12-15T20:00+01:00")
    assert "turn 2 adjudicated at the deadline, NMR: david, maria" in out
    assert all(got(f"{p}@example.org", "turn 2: report") == 1 for p in ("tony", "david", "maria"))

    sent = Counter(str(m["Message-ID"]) for _, m in box.received)
    assert max(sent.values()) == 1, "a message was delivered twice"
    # 3 welcomes, 3 acknowledgements, 3 reminders, 2 x (3 reports + the public one): María's orders of
    # turn 1 made the turn go early in the tick that filed them, so her acknowledgement, which says the
    # turn is still open, is outdated before it can go out and her report says what became of them.
    assert len(sent) == 3 + 3 + 3 + 8, lines
    assert sum(".ack." in message_id for message_id in sent) == 3, sorted(sent)
    assert imap.unseen() == 2 and imap.seen() == 0  # the judge leaves the GM's mailbox flags as they were
    assert main(["audit", str(root)]) == 0
    assert "Audit clean" in capsys.readouterr().out
