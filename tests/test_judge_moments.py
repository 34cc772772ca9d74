"""The turn's moments told truly (issues 24 and 27): when a turn was adjudicated, what the player whose
orders settled it is told, deadlines that move while a turn is held or a player is away, seats handed on
by whichever route files a resignation, and mail replies that read the pending turn as `pbem status` does."""

from __future__ import annotations

import email
import email.policy
import hashlib
import json
import os
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
import yaml

from adjudicator.campaign.audit import audit
from adjudicator.campaign.folder import Campaign
from adjudicator.cli import main
from judgekit import append_mbox, campaign, orders, outbox

SPIES = ("tony", "david", "maria")


def pbem(capsys: pytest.CaptureFixture[str], *args: Any) -> tuple[int, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out + err


def tick(capsys: pytest.CaptureFixture[str], root: Path, now: str) -> str:
    code, out = pbem(capsys, "run", root, "--now", now)
    assert code == 0, out
    return out


def text(root: Path, name: str) -> str:
    """An outbox message's text part, unfolded into one line of words."""
    message = email.message_from_bytes((root / "mail" / "outbox" / name).read_bytes(), policy=email.policy.default)
    part = message.get_body(("plain",))
    assert part is not None
    return " ".join(part.get_content().split())


def command(player: str, word: str, when: str = "Wed, 02 Dec 2026 10:00:00 +0000", body: str = "") -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = f"{player} <{player}@example.org>", "gm@example.org", word
    message["Date"], message["Message-ID"] = when, f"<{word.split()[0]}.{player}.{hashlib.sha256(repr((word, when, body)).encode()).hexdigest()[:12]}@example.org>"
    message.set_content(body or f"{word}\n")
    return bytes(message)


def test_a_late_order_is_told_the_moment_the_turn_recorded_not_a_file_time(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = campaign(tmp_path)
    for player in SPIES:
        append_mbox(tmp_path / "spies.mbox", orders(player, 1, "Thu, 03 Dec 2026 09:00:00 +0000"))
    assert "turn 1 adjudicated early" in tick(capsys, root, "2026-12-03T09:30+00:00")
    recorded = json.loads((root / "turn-001" / "adjudicated.json").read_bytes())
    assert recorded == {"at": "2026-12-03T09:30:00+00:00"}
    os.utime(root / "turn-001" / "manifest.json", (0, 0))  # a copied or restored folder: its file times say nothing
    append_mbox(tmp_path / "spies.mbox", orders("tony", 1, "Sat, 05 Dec 2026 09:00:00 +0000", body="player: tony\nturn: 1\norders: []\n# again\n"))
    tick(capsys, root, "2026-12-05T10:00+00:00")
    [late] = [n for n in outbox(root) if n.startswith("turn-002/ack-")]
    said = text(root, late)
    assert "late: turn 1 was adjudicated on Thursday 3 December 2026, 10:30 CET (Europe/Berlin); the pending turn is 2" in said, said
    assert audit(root).divergence is None


def _absence_moves_turn_2_as_turn_1_goes(tmp_path: Path, capsys: pytest.CaptureFixture[str], **judge: Any) -> Path:
    """Tony's absence covers turn 2's deadline (15 December), asked in the tick that adjudicates turn 1 early."""
    root = campaign(tmp_path, judge={"absences": "auto", "absence_budget": "5 days", **judge})
    mbox = tmp_path / "spies.mbox"
    append_mbox(mbox, command("tony", "absence 2026-12-14 2026-12-16", "Tue, 01 Dec 2026 09:00:00 +0000"))
    for player in SPIES:
        append_mbox(mbox, orders(player, 1, "Tue, 01 Dec 2026 10:00:00 +0000"))
    out = tick(capsys, root, "2026-12-01T12:00+00:00")
    assert "turn 1 adjudicated early" in out and "the deadline of turn 2 moved" in out, out
    return root


def test_an_absence_covering_the_new_turns_deadline_moves_it_in_the_tick_that_adjudicates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _absence_moves_turn_2_as_turn_1_goes(tmp_path, capsys)
    assert yaml.safe_load((root / "campaign.yaml").read_text())["schedule"]["deadlines"] == {2: "2026-12-17 00:00"}
    assert not [n for n in outbox(root) if "/deadline-" in n]  # the report's mail says it: no second letter
    moved = "The deadline for turn 2 has moved since this report was written: orders for turn 2 are now due by Thursday 17 December 2026, 00:00 CET (Europe/Berlin)."
    for name in ("turn-001/report-tony.eml", "turn-001/report-david.eml", "turn-001/report-public.eml"):
        said = text(root, name)
        assert moved in said and "absence" not in said.lower(), said  # whose absence is never said
    assert "Tuesday 15 December 2026" in (root / "turn-001" / "reports" / "tony.txt").read_text()  # the report as the turn wrote it
    assert "moved" not in tick(capsys, root, "2026-12-01T12:05+00:00")  # nothing moves twice
    assert audit(root).divergence is None


def test_a_held_turn_stops_the_next_turns_clock_until_it_is_released(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = campaign(tmp_path, judge={"preview": True})  # weekly: turn 2 is due Tuesday 15 December, 20:00 Berlin
    for player in SPIES:
        append_mbox(tmp_path / "spies.mbox", orders(player, 1, "Tue, 08 Dec 2026 09:00:00 +0000"))
    assert "turn 1 adjudicated early" in tick(capsys, root, "2026-12-08T10:00+00:00")
    append_mbox(tmp_path / "spies.mbox", orders("tony", 2, "Tue, 08 Dec 2026 11:00:00 +0000"))
    # Held past turn 2's deadline: no reminder, no adjudication at that deadline.
    for now in ("2026-12-15T12:00+01:00", "2026-12-15T21:00+01:00"):
        assert "adjudicated" not in tick(capsys, root, now)
    assert not [n for n in outbox(root) if "remind-" in n or "/report-" in n]
    code, out = pbem(capsys, "release", root, "--now", "2026-12-15T21:30+01:00")  # held 7 days 10 hours 30 minutes
    assert code == 0 and "from Tuesday 15 December 2026, 20:00 CET (Europe/Berlin) to Wednesday 23 December 2026, 06:30 CET" in out, out
    assert yaml.safe_load((root / "campaign.yaml").read_text())["schedule"]["deadlines"] == {2: "2026-12-23 06:30"}
    assert yaml.safe_load((root / "gm" / "released.yaml").read_text()) == {"turn": 1}
    out = tick(capsys, root, "2026-12-15T21:35+01:00")
    assert "adjudicated" not in out, out
    told = "orders for turn 2 are now due by Wednesday 23 December 2026, 06:30 CET (Europe/Berlin)."
    assert all(told in text(root, f"turn-001/report-{p}.eml") for p in SPIES)
    assert "adjudicated" not in tick(capsys, root, "2026-12-23T06:29+01:00")
    assert "adjudicated at the deadline, NMR: david, maria" in tick(capsys, root, "2026-12-23T06:30+01:00")
    assert audit(root).divergence is None


def test_a_release_cut_before_its_deadline_is_written_is_finished_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = campaign(tmp_path, judge={"preview": True})
    for player in SPIES:
        append_mbox(tmp_path / "spies.mbox", orders(player, 1, "Tue, 08 Dec 2026 09:00:00 +0000"))
    tick(capsys, root, "2026-12-08T10:00+00:00")
    # The kill came after the release's decision was written, before campaign.yaml.
    (root / "gm" / "released.yaml").write_text("turn: 1\nmove: {turn: 2, to: '2026-12-16 20:00'}\n")
    assert "deadlines" not in yaml.safe_load((root / "campaign.yaml").read_text())["schedule"]
    for now in ("2026-12-09T10:00+00:00", "2026-12-09T10:05+00:00"):
        tick(capsys, root, now)
        assert yaml.safe_load((root / "campaign.yaml").read_text())["schedule"]["deadlines"] == {2: "2026-12-16 20:00"}
    assert yaml.safe_load((root / "gm" / "released.yaml").read_text()) == {"turn": 1}
    assert pbem(capsys, "release", root)[0] == 1  # released once; nothing moves again
    assert yaml.safe_load((root / "campaign.yaml").read_text())["schedule"]["deadlines"] == {2: "2026-12-16 20:00"}


def test_the_last_orders_in_are_acknowledged_by_the_reports_mail(tmp_path: Path, smtp: tuple[Any, str], capsys: pytest.CaptureFixture[str]) -> None:
    box, address = smtp
    root = campaign(tmp_path)
    send = ["--send", "--smtp", address]
    for player in ("tony", "david"):
        append_mbox(tmp_path / "spies.mbox", orders(player, 1, "Tue, 01 Dec 2026 10:00:00 +0000"))
    assert pbem(capsys, "run", root, "--now", "2026-12-01T12:00+00:00", *send)[0] == 0
    acked = sorted(rcpt[0] for rcpt, m in box.received if "orders received" in m["Subject"])
    assert acked == ["david@example.org", "tony@example.org"]
    append_mbox(tmp_path / "spies.mbox", orders("maria", 1, "Tue, 01 Dec 2026 14:00:00 +0000"))
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T15:00+00:00", *send)
    assert code == 0 and "turn 1 adjudicated early" in out, out
    assert sorted(rcpt[0] for rcpt, m in box.received if "orders received" in m["Subject"]) == acked  # maria's went out of date unsent

    def report(to: str) -> str:
        [message] = [m for rcpt, m in box.received if rcpt == [to] and "report for" in m["Subject"]]
        return " ".join(message.get_body(("plain",)).get_content().split())

    said = report("maria@example.org")
    assert ("Your orders for turn 1 (your message dated Tuesday 1 December 2026, 15:00 CET (Europe/Berlin)) were filed and counted. "
            "The judge read them in the same run in which it adjudicated the turn on Tuesday 1 December 2026, 16:00 CET "
            "(Europe/Berlin), yours being the last the turn waited for, so no separate acknowledgement went out") in said, said
    assert "filed and counted" not in report("tony@example.org") + report("david@example.org")  # they had theirs
    # Said from what the campaign recorded: built again later, the mail is the same, byte for byte.
    from adjudicator.mail.reportmail import report_messages

    files, _ = report_messages(Campaign.open(root), 1)
    assert files["turn-001/report-maria.eml"] == (root / "mail" / "outbox" / "turn-001" / "report-maria.eml").read_bytes()
    assert audit(root).divergence is None


def test_orders_read_at_the_deadline_in_the_tick_that_settles_the_turn_are_told_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = campaign(tmp_path)
    append_mbox(tmp_path / "spies.mbox", orders("tony", 1, "Tue, 08 Dec 2026 18:55:00 +0000"))
    assert "adjudicated at the deadline, NMR: david, maria" in tick(capsys, root, "2026-12-08T20:05+01:00")
    said = text(root, "turn-001/report-tony.eml")
    assert ("were filed and counted. The judge read them in the same run in which it adjudicated the turn on Tuesday 8 December 2026, "
            "20:05 CET (Europe/Berlin), as its deadline had come") in " ".join(said.split()), said
    assert "passed" not in said.split("Sid's Secrets")[0], "no word that makes a punctual player think they were late"
    assert "filed and counted" not in text(root, "turn-001/report-david.eml")


def test_orders_acknowledged_days_before_the_deadline_are_not_told_they_were_overtaken(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Trial 5: a GM running the judge without --send (sent.json never written) saw every report begin with
    'Its deadline had passed ... before their acknowledgement could go out', for orders filed two days before."""
    root = campaign(tmp_path)
    append_mbox(tmp_path / "spies.mbox", orders("tony", 1, "Sun, 06 Dec 2026 10:00:00 +0000"))
    assert "1 filed" in tick(capsys, root, "2026-12-06T11:00+01:00")
    assert "adjudicated at the deadline, NMR: david, maria" in tick(capsys, root, "2026-12-08T20:05+01:00")
    said = text(root, "turn-001/report-tony.eml")
    assert "acknowledgement" not in said and "filed and counted" not in said, said


def test_mail_status_reads_the_pending_turn_as_pbem_status_does(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    counted = {"timezone": "Europe/Berlin", "start": "2026-12-08 20:00", "every": "7 days", "from": "adjudication"}
    root = campaign(tmp_path, schedule=counted)
    for player in SPIES:
        append_mbox(tmp_path / "spies.mbox", orders(player, 1, "Wed, 02 Dec 2026 09:00:00 +0000"))
    assert "turn 1 adjudicated early" in tick(capsys, root, "2026-12-02T10:00+00:00")  # turn 2: due a week after this moment
    assert pbem(capsys, "standin", root, "maria", "on")[0] == 0
    append_mbox(tmp_path / "spies.mbox", command("tony", "status", "Wed, 02 Dec 2026 11:00:00 +0000"))
    append_mbox(tmp_path / "spies.mbox", command("maria", "status", "Wed, 02 Dec 2026 11:00:00 +0000"))
    tick(capsys, root, "2026-12-02T12:00+00:00")
    code, out = pbem(capsys, "status", root, "--json")
    status = json.loads(out)
    assert status["deadline"]["text"] == "Wednesday 9 December 2026, 11:00 CET (Europe/Berlin)" and status["standins"] == ["maria"]
    replies = {n: text(root, n) for n in outbox(root) if n.startswith("turn-002/reply-")}
    tony = next(said for said in replies.values() if "status for Tony" in said)
    maria = next(said for said in replies.values() if "status for María" in said)
    for said in (tony, maria):
        assert f"Deadline for turn 2: {status['deadline']['text']}" in said, said
    assert "Due this turn: Tony, David, María (the stand-in plays this seat)." in tony, tony
    assert "none filed; the stand-in plays your seat unless you send orders" in maria


def _signup_campaign(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, Path, dict[str, str]]:
    """A sign-up campaign started by the judge with three seats and dan waiting."""
    root = tmp_path / "spies"
    box = tmp_path / "in.mbox"
    box.touch()
    assert pbem(capsys, "new", root, "--game", "secrets", "--open", "3", "--gm-email", "gm@example.org")[0] == 0
    config = yaml.safe_load((root / "campaign.yaml").read_text())
    config["judge"] = {"inbox": [str(box)]}
    config["schedule"] = {"timezone": "UTC", "start": "3 days", "every": "7 days"}
    (root / "campaign.yaml").write_text(yaml.safe_dump(config))
    for n, who in enumerate(("ann", "bob", "cat", "dan")):
        append_mbox(box, command(who, f"join {who.title()}", f"Tue, 01 Dec 2026 10:0{n}:00 +0000"))
    assert "started with 3 players" in tick(capsys, root, "2026-12-01T12:00+00:00")
    return root, box, yaml.safe_load((root / "gm" / "passwords.yaml").read_text())


def test_a_resignation_filed_by_pbem_ingest_hands_the_seat_on_at_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root, box, passwords = _signup_campaign(tmp_path, capsys)
    resign = tmp_path / "resign.mbox"
    append_mbox(resign, command("bob", "resign", "Tue, 01 Dec 2026 13:00:00 +0000", body=f"resign\npassword: {passwords['bob']}\n"))
    code, out = pbem(capsys, "ingest", root, resign)
    assert code == 0 and "seat bob taken by Dan <dan@example.org> from turn 1 (first on the waiting list)" in out, out
    campaign = Campaign.open(root)
    assert campaign.player("bob")["email"] == "dan@example.org" and campaign.config["signup"]["waiting"] == []
    assert len([n for n in outbox(root) if "/seat-bob-" in n]) == 1  # the new holder's letter, with their own password
    assert pbem(capsys, "ingest", root, resign)[0] == 0  # again: nobody seated twice
    assert len([n for n in outbox(root) if "/seat-bob-" in n]) == 1 and Campaign.open(root).player("bob")["email"] == "dan@example.org"
    out = tick(capsys, root, "2026-12-01T13:05+00:00")
    assert "taken by" not in out
    digest = next(text(root, n) for n in outbox(root) if "gm-digest" in n and "seat bob taken by Dan" in text(root, n))
    assert "command 'resign' from bob" in digest
    assert audit(root).divergence is None


def test_a_kill_in_a_handover_by_pbem_ingest_is_finished_by_the_next_route(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from adjudicator.campaign import signup
    from adjudicator.judge import seats

    root, box, passwords = _signup_campaign(tmp_path, capsys)
    resign = tmp_path / "resign.mbox"
    append_mbox(resign, command("bob", "resign", "Tue, 01 Dec 2026 13:00:00 +0000", body=f"resign\npassword: {passwords['bob']}\n"))
    real = signup.write_config

    def killed(campaign: Any, updates: dict[str, Any]) -> None:
        if "waiting" in (updates.get("signup") or {}) and Campaign.open(campaign.root).player("bob").get("email") == "dan@example.org":
            raise KeyboardInterrupt  # after the seat is handed over, before the waiting list is updated
        real(campaign, updates)

    monkeypatch.setattr(seats.signup, "write_config", killed)
    code, out = pbem(capsys, "ingest", root, resign)
    assert code != 0 and "interrupted" in out, out
    monkeypatch.setattr(seats.signup, "write_config", real)
    first = yaml.safe_load((root / "gm" / "passwords.yaml").read_text())["bob"]
    code, out = pbem(capsys, "ingest", root, resign)  # nothing new to read: the handover is finished all the same
    assert code == 0 and "seat bob taken by Dan" in out, out
    campaign = Campaign.open(root)
    assert campaign.player("bob")["email"] == "dan@example.org" and campaign.config["signup"]["waiting"] == [] and signup.vacant(campaign) == {}
    assert yaml.safe_load((root / "gm" / "passwords.yaml").read_text())["bob"] == first  # not handed over twice
    assert len([n for n in outbox(root) if "/seat-bob-" in n]) == 1


def test_a_report_asked_for_by_mail_after_a_release_gives_the_moved_deadline(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 27 item 1: the `report` reply reads the pending turn's deadline where `pbem status` reads it."""
    root = campaign(tmp_path, judge={"preview": True})
    for player in SPIES:
        append_mbox(tmp_path / "spies.mbox", orders(player, 1, "Tue, 08 Dec 2026 09:00:00 +0000"))
    assert "turn 1 adjudicated early" in tick(capsys, root, "2026-12-08T10:00+00:00")
    assert pbem(capsys, "release", root, "--now", "2026-12-15T21:30+01:00")[0] == 0
    tick(capsys, root, "2026-12-15T21:35+01:00")
    append_mbox(tmp_path / "spies.mbox", command("tony", "report", "Tue, 15 Dec 2026 21:00:00 +0000"))
    tick(capsys, root, "2026-12-15T22:05+01:00")
    status = json.loads(pbem(capsys, "status", root, "--json")[1])
    assert status["deadline"]["text"] == "Wednesday 23 December 2026, 06:30 CET (Europe/Berlin)"
    [reply] = [n for n in outbox(root) if n.startswith("turn-002/reply-")]
    said = text(root, reply)
    assert f"orders for turn 2 are now due by {status['deadline']['text']}." in said, said
    assert said.index("now due by") < said.index("Results of turn 1")  # above the report, which keeps its own words


def _vacant_through_turn_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, Path]:
    """A sign-up campaign whose seat cat was resigned with nobody waiting, and turn 1 adjudicated."""
    root, box, passwords = _signup_campaign(tmp_path, capsys)
    append_mbox(box, command("dan", "leave", "Tue, 01 Dec 2026 12:30:00 +0000"))
    append_mbox(box, command("cat", "resign", "Tue, 01 Dec 2026 12:31:00 +0000", body=f"resign\npassword: {passwords['cat']}\n"))
    assert "seat cat vacant from turn 1" in tick(capsys, root, "2026-12-01T13:00+00:00")
    for who in ("ann", "bob"):
        append_mbox(box, orders(who, 1, "Tue, 01 Dec 2026 14:00:00 +0000", password=passwords[who], sender=f"{who} <{who}@example.org>"))
    out = tick(capsys, root, "2026-12-01T14:05+00:00")
    assert "turn 1 adjudicated early" in out and "cat: no email" not in out, out  # a vacant seat: nothing for the GM to send
    return root, box


def test_a_resigned_seat_is_told_as_vacant_and_its_turns_as_the_stand_ins(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 27 item 3: the true reason, recorded and shown; the history credits the stand-in, not the player who left."""
    root, box = _vacant_through_turn_1(tmp_path, capsys)
    assert yaml.safe_load((root / "turn-001" / "standins.yaml").read_text())["cat"]["reason"] == "vacant"
    public = " ".join((root / "turn-001" / "reports" / "public.md").read_text().split())
    assert "Played by the stand-in this turn: Cat (the seat is vacant: its player resigned)." in public, public
    own = " ".join((root / "turn-001" / "reports" / "cat.txt").read_text().split())
    assert "The stand-in wrote this seat's orders for turn 1: the seat was vacant, its player having resigned." in own, own
    assert "the GM handed" not in own and "Send your own orders" not in own
    digest = [text(root, n) for n in outbox(root) if "gm-digest" in n and "turn 1 adjudicated" in text(root, n)]
    assert digest and "newly played by the stand-in from turn 1: cat (vacant)" in digest[0], digest
    append_mbox(box, command("eve", "takeover cat Eve", "Tue, 01 Dec 2026 15:00:00 +0000"))
    tick(capsys, root, "2026-12-01T15:05+00:00")
    passwords = yaml.safe_load((root / "gm" / "passwords.yaml").read_text())
    for who in ("ann", "bob", "cat"):
        sender = "Eve <eve@example.org>" if who == "cat" else f"{who} <{who}@example.org>"
        append_mbox(box, orders(who, 2, "Tue, 01 Dec 2026 16:00:00 +0000", password=passwords[who], sender=sender))
    assert "turn 2 adjudicated early" in tick(capsys, root, "2026-12-01T16:05+00:00")
    public = " ".join((root / "turn-002" / "reports" / "public.md").read_text().split())
    assert "seat cat: the stand-in \\(turn 1\\), then Eve \\(from turn 2\\)" in public, public
    assert "This seat has been played by: the stand-in (turn 1), Eve (from turn 2)." in (root / "turn-002" / "reports" / "cat.txt").read_text()
    assert audit(root).divergence is None


def test_a_takeover_brings_the_seats_last_report_and_the_deadline_in_the_same_tick(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 27 item 2: the new holder's letter says what happens, and it happens, once."""
    root, box = _vacant_through_turn_1(tmp_path, capsys)
    append_mbox(box, command("eve", "takeover cat Eve", "Tue, 01 Dec 2026 15:00:00 +0000"))
    out = tick(capsys, root, "2026-12-01T15:05+00:00")
    assert "seat cat taken by Eve <eve@example.org> from turn 2 (takeover)" in out, out
    [letter] = [n for n in outbox(root) if "/seat-cat-" in n]
    said = text(root, letter)
    status = json.loads(pbem(capsys, "status", root, "--json")[1])
    assert f"Orders for turn 2 are due by {status['deadline']['text']}." in said, said
    assert "Your report of turn 1, with its order form, comes in a message of its own with this one" in said, said
    [report] = [n for n in outbox(root) if n.startswith("turn-001/report-cat")]
    message = email.message_from_bytes((root / "mail" / "outbox" / report).read_bytes(), policy=email.policy.default)
    assert [a.addr_spec for a in message["To"].addresses] == ["eve@example.org"] and message["Subject"].endswith("report for Eve")
    assert "You take over the seat cat from Cat from turn 2 on." in text(root, report)
    digest = [text(root, n) for n in outbox(root) if "gm-digest" in n and "seat cat taken by Eve" in text(root, n)]
    assert digest and "eve@example.org takes over cat" in digest[0] and "None" not in digest[0], digest
    assert "command 'takeover'" not in digest[0], digest  # told twice (asked, done), not a third time
    tick(capsys, root, "2026-12-01T15:10+00:00")
    assert len([n for n in outbox(root) if "/report-cat" in n]) == 1  # once
    assert audit(root).divergence is None


def test_an_acknowledgement_after_a_resignation_in_the_same_tick_does_not_call_the_seat_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 27 item 5 (design 15): a seat played by the stand-in is never listed as missing."""
    root, box, passwords = _signup_campaign(tmp_path, capsys)
    append_mbox(box, command("dan", "leave", "Tue, 01 Dec 2026 12:30:00 +0000"))
    append_mbox(box, command("cat", "resign", "Tue, 01 Dec 2026 12:31:00 +0000", body=f"resign\npassword: {passwords['cat']}\n"))
    append_mbox(box, orders("ann", 1, "Tue, 01 Dec 2026 12:32:00 +0000", password=passwords["ann"]))
    assert "seat cat vacant from turn 1" in tick(capsys, root, "2026-12-01T13:00+00:00")
    [ack] = [n for n in outbox(root) if n.startswith("turn-001/ack-")]
    assert "Still missing for turn 1: Bob." in text(root, ack), text(root, ack)
    assert "stand-in" in pbem(capsys, "status", root)[1]


def test_status_tells_the_time_left_at_the_moment_given(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 27 item 10: a simulated week's `pbem status --now` reads the moment given, not the clock."""
    root = campaign(tmp_path)  # turn 1 is due Tuesday 8 December 2026, 20:00 Berlin
    code, out = pbem(capsys, "status", root, "--now", "2026-12-06T17:00+01:00")
    assert code == 0 and "(2 days 3 hours left)" in " ".join(out.split()), out
    code, out = pbem(capsys, "status", root, "--now", "2026-12-10 21:00")  # the host's zone: passed whatever it is
    assert code == 0 and "passed" in out, out
    with pytest.raises(SystemExit):
        pbem(capsys, "status", root, "--now", "not a time")
    assert "argument --now: 'not a time' is not a time" in capsys.readouterr().err


def test_a_preview_built_in_the_tick_of_an_absence_that_moved_the_next_deadline_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 27 item 4: the GM's preview tells the deadline the players will be given, not the one the reports wrote."""
    root = _absence_moves_turn_2_as_turn_1_goes(tmp_path, capsys, preview=True)
    [letter] = [n for n in outbox(root) if "gm-preview" in n]
    said = text(root, letter)
    moved = "orders for turn 2 are now due by Thursday 17 December 2026, 00:00 CET (Europe/Berlin)."
    assert moved in said and said.index(moved) < said.index("==== PREVIEW: public report"), said


def test_a_second_run_at_the_same_moment_with_send_writes_no_new_digest(tmp_path: Path, smtp: tuple[Any, str], capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 27 item 7: a digest carries only new facts; a turn held for the preview is told once."""
    box, address = smtp
    root = campaign(tmp_path, judge={"preview": True, "gm_digest": True})
    for player in SPIES:
        append_mbox(tmp_path / "spies.mbox", orders(player, 1, "Tue, 01 Dec 2026 10:00:00 +0000"))
    assert "turn 1 adjudicated early" in tick(capsys, root, "2026-12-01T12:00+00:00")
    digests = [n for n in outbox(root) if "gm-digest" in n]
    assert len(digests) == 1 and "turn 1 is held for your preview" in text(root, digests[0])
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T12:00+00:00", "--send", "--smtp", address)
    assert code == 0, out
    assert [n for n in outbox(root) if "gm-digest" in n] == digests, out
    assert sum("what happened" in m["Subject"] for _, m in box.received) == 1
    assert pbem(capsys, "rollback", root)[0] == 0
    assert "turn 1 adjudicated early" in tick(capsys, root, "2026-12-01T12:10+00:00")  # held again: told again
    assert sum("turn 1 is held" in text(root, n) for n in outbox(root) if "gm-digest" in n) == 2
    [again] = [text(root, n) for n in outbox(root) if "gm-digest" in n and "rolled back" in text(root, n)]
    assert again.index("turn 1 rolled back") < again.index("turn 1 adjudicated"), again  # item 9: in the order it happened


def test_the_ticks_line_counts_every_message_it_sent_the_digest_included(tmp_path: Path, smtp: tuple[Any, str], capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 27 item 8: "N messages sent" is what the SMTP server received, the preview and the digest too."""
    box, address = smtp
    root = campaign(tmp_path, judge={"preview": True, "gm_digest": True})
    for player in SPIES:
        append_mbox(tmp_path / "spies.mbox", orders(player, 1, "Tue, 01 Dec 2026 10:00:00 +0000"))
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T12:00+00:00", "--send", "--smtp", address)
    went = len(box.received)
    assert code == 0 and any("what happened" in m["Subject"] for _, m in box.received) and any("PREVIEW" in m["Subject"] for _, m in box.received)
    assert f"{went} messages built" in out and f"{went} messages sent" in out, (went, out)


def test_a_resigned_players_mail_and_the_seat_they_left_are_told_truly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 27 item 9: the welcome lists absence and resign; press names only who reads it; the GM hears that
    orders refused for a wrong password came from a player who had left the seat."""
    root, box, passwords = _signup_campaign(tmp_path, capsys)
    welcome = text(root, "turn-000/welcome-ann.eml")
    assert "absence FROM TO" in welcome and "resign " in welcome, welcome
    append_mbox(box, command("dan", "leave", "Tue, 01 Dec 2026 12:30:00 +0000"))
    for who in ("ann", "bob", "cat"):
        append_mbox(box, orders(who, 1, "Tue, 01 Dec 2026 12:40:00 +0000", password=passwords[who]))
    assert "turn 1 adjudicated early" in tick(capsys, root, "2026-12-01T13:00+00:00")
    append_mbox(box, command("cat", "resign", "Tue, 01 Dec 2026 13:10:00 +0000", body=f"resign\npassword: {passwords['cat']}\n"))
    assert "seat cat vacant from turn 2" in tick(capsys, root, "2026-12-01T13:15+00:00")
    append_mbox(box, orders("cat", 2, "Tue, 01 Dec 2026 13:20:00 +0000", password=passwords["cat"]))
    append_mbox(box, command("ann", "press all", "Tue, 01 Dec 2026 13:21:00 +0000", body=f"press all\npassword: {passwords['ann']}\nHello.\n"))
    tick(capsys, root, "2026-12-01T13:25+00:00")
    [relayed] = [n for n in outbox(root) if "/press-" in n]
    assert "Press from Ann (ann) to Bob, turn 2." in text(root, relayed), text(root, relayed)
    digest = next(text(root, n) for n in outbox(root) if "gm-digest" in n and "not filed" in text(root, n))
    assert "(the sender no longer holds a seat: they left cat (after turn 1))" in digest, digest


def test_the_gm_is_told_of_an_abandoned_seat_in_the_tick_of_the_turn_that_abandoned_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A field trial: the digest said only "NMR: oskar" in the turn that abandoned the seat, and told the
    stand-in's taking it a turn later, when the GM could no longer write to the player first."""
    root = campaign(tmp_path, judge={"abandon_after": 1, "gm_digest": True})
    for player in ("tony", "david"):
        append_mbox(tmp_path / "spies.mbox", orders(player, 1, "Tue, 08 Dec 2026 18:55:00 +0000"))
    line = tick(capsys, root, "2026-12-08T20:05+01:00")
    assert "NMR: maria; abandoned: maria (the stand-in plays from turn 2)" in line, line
    [digest] = [text(root, n) for n in outbox(root) if "gm-digest" in n]
    said = " ".join(digest.split())
    assert f"maria abandoned after 1 turn without valid orders in a row: the stand-in plays the seat from turn 2 (pbem standin {root} maria off stops it)" in said, said


def test_a_command_from_an_address_no_seat_has_is_in_the_gms_digest(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A field trial: Ben asked `status` from his work address and got no answer (design 12: nothing goes to
    an address no seat has), and the GM was not told either, so nobody could help him."""
    root = campaign(tmp_path, judge={"gm_digest": True})
    tick(capsys, root, "2026-12-02T09:00+01:00")
    append_mbox(tmp_path / "spies.mbox", command("tony.at.work", "status"))
    tick(capsys, root, "2026-12-02T12:00+01:00")
    digests = [" ".join(text(root, n).split()) for n in outbox(root) if "gm-digest" in n]
    assert any("command 'status' from tony.at.work@example.org: not answered: tony.at.work@example.org is registered for no seat" in d for d in digests), digests
