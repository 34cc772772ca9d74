"""Absences granted by the judge within a budget, moving the deadline for everyone (design 16, issue 27)."""

from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
import yaml

from adjudicator.campaign.audit import audit
from adjudicator.cli import main
from judgekit import append_mbox, campaign, orders, outbox


def pbem(capsys: pytest.CaptureFixture[str], *args: Any) -> tuple[int, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out + err


def command(player: str, text: str, n: int) -> bytes:
    message = EmailMessage()
    message["From"] = f"{player} <{player}@example.org>"
    message["To"] = "gm@example.org"
    message["Subject"] = text
    message["Date"] = "Tue, 01 Dec 2026 10:00:00 +0000"
    message["Message-ID"] = f"<{player}.cmd{n}@example.org>"
    message.set_content(text + "\n")
    return bytes(message)


def read(root: Path, name: str) -> email.message.EmailMessage:
    return email.message_from_bytes((root / "mail" / "outbox" / name).read_bytes(), policy=email.policy.default)


def test_an_absence_within_the_budget_is_granted_and_moves_a_deadline_it_covers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = campaign(tmp_path, judge={"absences": "auto", "absence_budget": "5 days", "gm_digest": True})
    mbox = tmp_path / "spies.mbox"
    append_mbox(mbox, orders("maria", 1, "Tue, 01 Dec 2026 09:00:00 +0000"))  # maria is not due any more: not told
    append_mbox(mbox, command("tony", "absence 2026-12-07 2026-12-09", 1))
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T12:00+00:00")
    assert code == 0 and "the deadline of turn 1 moved" in out and "for an absence of tony" in out, out
    assert "2 new messages (1 filed, 1 answered, 0 rejected)" in out, out  # a command is neither filed nor refused
    config = yaml.safe_load((root / "campaign.yaml").read_text())
    assert config["schedule"]["deadlines"] == {1: "2026-12-10 00:00"}  # the end of day TO, Europe/Berlin
    assert yaml.safe_load((root / "gm" / "absences.yaml").read_text()) == [{"seat": "tony", "from": "2026-12-07", "to": "2026-12-09"}]
    box = outbox(root)
    moved = {n.split("/")[1].split("-")[1]: read(root, n) for n in box if "/deadline-" in n}
    assert sorted(moved) == ["david", "tony"]  # each player still due, once; maria has orders in
    for seat, letter in moved.items():
        body = letter.get_body(("plain",)).get_content()
        assert "Thursday 10 December 2026, 00:00 CET" in body and "absence" not in body.lower()
        assert all(other not in body.lower() for other in ("tony", "david", "maria") if other != seat)
    reply = next(read(root, n) for n in box if "/reply-" in n and "tony@example.org" in str(read(root, n)["To"]) and "absence" in read(root, n).get_body(("plain",)).get_content())
    assert "is granted" in reply.get_body(("plain",)).get_content() and "2 days left" in reply.get_body(("plain",)).get_content() and "moves that deadline" in reply.get_body(("plain",)).get_content()
    digest = next(read(root, n).get_body(("plain",)).get_content() for n in box if "gm-digest" in n)
    assert "for an absence of tony" in digest and "command 'absence' from tony" in digest

    # Again at once: nothing moves twice, nobody is told twice.
    before = outbox(root)
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T12:05+00:00")
    assert "moved" not in out and outbox(root) == before

    # Over the budget: refused with what is left; the GM-only path is not taken.
    append_mbox(mbox, command("tony", "absence 2026-12-20 2026-12-22", 2))
    code, out = pbem(capsys, "run", root, "--now", "2026-12-02T12:00+00:00")
    refused = [read(root, n).get_body(("plain",)).get_content() for n in outbox(root) if n not in before and "tony@example.org" in str(read(root, n)["To"])]
    assert any("NOT granted" in r and "2 days left" in r for r in refused), refused
    assert len(yaml.safe_load((root / "gm" / "absences.yaml").read_text())) == 1
    assert not [n for n in outbox(root) if "/absence-" in n]
    # The GM's list shows each seat's budget as the judge reckons it (issue 27 item 9).
    code, out = pbem(capsys, "absence", root)
    assert code == 0 and "Absence budget (judge: absence_budget: 5 days per player for the game):" in out, out
    assert "  tony: 3 days used, 2 days left" in out, out
    assert audit(root).divergence is None


def test_without_auto_a_request_still_goes_to_the_gm_and_bad_settings_are_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = campaign(tmp_path, judge={"absences": "sometimes"})
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T12:00+00:00")
    assert code == 1 and "judge.absences: 'sometimes' is not gm or auto" in out
    root = campaign(tmp_path, name="other")
    append_mbox(tmp_path / "other.mbox", command("tony", "absence 2026-12-07 2026-12-09", 1))
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T12:00+00:00")
    assert code == 0 and "moved" not in out
    assert [n for n in outbox(root) if "/absence-" in n] and not (root / "gm" / "absences.yaml").exists()


@pytest.mark.parametrize(("zone", "now", "shown"), [
    ("Pacific/Auckland", "2026-12-05T12:00+00:00", False),  # already 6 December, 01:00, in Auckland: over
    ("America/Los_Angeles", "2026-12-06T03:00+00:00", True),  # still 5 December, 19:00, in Los Angeles: not over
])
def test_an_absence_ends_at_midnight_in_the_campaigns_zone(tmp_path: Path, capsys: pytest.CaptureFixture[str], zone: str, now: str, shown: bool) -> None:
    """`pbem status` and a player's `status` reply list an absence until the end of its last day where the
    campaign keeps its deadlines, not where the GM's machine (or UTC) has its date."""
    root = campaign(tmp_path, schedule={"every": "7 days", "start": "2026-12-09 20:00", "timezone": zone})
    code, _ = pbem(capsys, "absence", root, "tony", "--grant", "2026-12-01", "2026-12-05")
    assert code == 0
    code, out = pbem(capsys, "status", root, "--now", now)
    assert code == 0 and ("Absence granted: Tony (tony), 2026-12-01 to 2026-12-05" in out) is shown, out
    append_mbox(tmp_path / "spies.mbox", command("maria", "status", 1))
    code, out = pbem(capsys, "run", root, "--now", now)
    reply = next(read(root, n).get_body(("plain",)).get_content() for n in outbox(root) if "/reply-" in n)
    assert ("Tony: 2026-12-01 to 2026-12-05" in reply) is shown, reply


def test_an_acknowledgement_tells_the_deadline_and_the_missing_as_the_tick_leaves_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Trial 2 item 2: María's orders came first, then Tony's absence (granted, moving the deadline) and
    David's resignation (the stand-in plays his seat) in the same tick; her acknowledgement gave the old
    deadline and David as missing, and as she owes nothing she is not told of the move otherwise."""
    root = campaign(tmp_path, judge={"absences": "auto", "absence_budget": "5 days"})
    mbox = tmp_path / "spies.mbox"
    append_mbox(mbox, orders("maria", 1, "Tue, 01 Dec 2026 09:00:00 +0000"))
    append_mbox(mbox, command("tony", "absence 2026-12-07 2026-12-09", 1))
    append_mbox(mbox, command("david", "resign", 2))
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T12:00+00:00")
    assert code == 0 and "the deadline of turn 1 moved" in out, out
    ack = read(root, "turn-001/ack-00001.eml")
    assert str(ack["To"]) == "María <maria@example.org>" and ack["In-Reply-To"] is not None
    body = ack.get_body(("plain",)).get_content()
    assert "Deadline for turn 1: Thursday 10 December 2026, 00:00 CET (Europe/Berlin)." in body, body
    assert "Still missing for turn 1: Tony." in body, body
    code, out = pbem(capsys, "status", root, "--now", "2026-12-01T12:00+00:00")
    assert "Thursday 10 December 2026, 00:00 CET" in out, out  # the same deadline `pbem status` gives
    before = outbox(root)
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T12:05+00:00")  # again: nothing rebuilt, nothing new
    assert code == 0 and outbox(root) == before, out


def test_pbem_ingest_tells_the_missing_as_a_resignation_later_in_the_mail_leaves_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Trial 2 item 2, by `pbem ingest` alone: Tony's acknowledgement, written before David's resignation in the
    same mail, named David as missing although the stand-in plays his seat from that resignation on."""
    root = campaign(tmp_path)
    mbox = tmp_path / "spies.mbox"
    append_mbox(mbox, orders("tony", 1, "Tue, 01 Dec 2026 09:00:00 +0000"))
    append_mbox(mbox, command("david", "resign", 1))
    code, out = pbem(capsys, "ingest", root, mbox)
    assert code == 0 and "1 filed" in out, out
    body = read(root, "turn-001/ack-00001.eml").get_body(("plain",)).get_content()
    assert "Still missing for turn 1: María." in body, body


def test_an_absence_the_gm_grants_by_command_makes_a_quiet_campaign_look(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """gm/absences.yaml is no stamp of the quiet check: a grant by `pbem absence --grant` made the judge
    skip the campaign as quiet, and the deadline moved (and the players heard of it) only at the next reminder."""
    root = campaign(tmp_path, judge={"absences": "auto", "absence_budget": "5 days"})
    assert pbem(capsys, "run", root, "--now", "2026-12-01T12:00+00:00")[0] == 0
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T12:05+00:00")
    assert code == 0 and "nothing to do" in out, out  # quiet: the next tick would skip it
    code, out = pbem(capsys, "absence", root, "tony", "--grant", "2026-12-07", "2026-12-09")
    assert code == 0, out
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T12:10+00:00")
    assert code == 0 and "the deadline of turn 1 moved" in out and "for an absence of tony" in out, out
    assert sorted(n.split("/")[1].split("-")[1] for n in outbox(root) if "/deadline-" in n) == ["david", "maria", "tony"]
