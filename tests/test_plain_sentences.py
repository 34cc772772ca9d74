"""A mail of plain sentences with no form, from the seat's registered address (with its password: line),
is that seat's orders for the pending turn (issue 25 item 12, design 17)."""

from __future__ import annotations

import email
import email.policy
from pathlib import Path

import yaml
from reliability_kit import NOW
from test_ingest import campaign, mail, maildir, passwords  # noqa: F401 - the fixture and the helpers

from adjudicator.mail.ingest import ingest


def _ack(root: Path) -> str:
    [path] = sorted((root / "mail" / "outbox").rglob("*.eml"))
    return email.message_from_bytes(path.read_bytes(), policy=email.policy.default).get_content()


def test_sentences_from_the_registered_address_are_the_seats_orders(campaign: Path, tmp_path: Path) -> None:  # noqa: F811
    body = f"Hi GM,\n\nSID 1 steals David's secret 8.\nSID 3 guards secret 6\n\npassword: {passwords(campaign)['tony']}\n\nThanks!\n"
    entries = ingest(campaign, [maildir(tmp_path, [mail("Tony <tony@example.org>", body, subject="my move", message_id="<p1@x>")])], now=NOW).entries
    assert [e.status for e in entries] == ["filed"], entries[0].reason
    filed = yaml.safe_load((campaign / "turn-001" / "orders" / "tony.yaml").read_text())
    assert filed["orders"] == ["SID 1 steals David's secret 8.", "SID 3 guards secret 6"]
    ack = _ack(campaign)
    assert "SID 1 tries to steal David's secret 8" in ack and "SID 3 guards your secret 6" in ack
    assert "not read as orders: 'Hi GM,'; 'Thanks!'" in ack


def test_sentences_need_the_password_where_the_campaign_has_one(campaign: Path, tmp_path: Path) -> None:  # noqa: F811
    body = "SID 1 steals David's secret 8\n"
    entries = ingest(campaign, [maildir(tmp_path, [mail("Tony <tony@example.org>", body, subject="move", message_id="<p2@x>")])], now=NOW).entries
    assert [e.status for e in entries] == ["rejected"] and "password" in entries[0].reason
    assert not (campaign / "turn-001" / "orders" / "tony.yaml").exists()


def test_sentences_from_a_stranger_or_with_no_order_are_not_orders(campaign: Path, tmp_path: Path) -> None:  # noqa: F811
    pw = passwords(campaign)["tony"]
    messages = [mail("someone@else.example", f"SID 1 steals David's secret 8\npassword: {pw}\n", subject="move", message_id="<p3@x>"),
                mail("tony@example.org", f"Hello, when is the deadline?\npassword: {pw}\n", subject="question", message_id="<p4@x>")]
    entries = ingest(campaign, [maildir(tmp_path, messages)], now=NOW).entries
    assert [e.status for e in entries] == ["rejected", "rejected"]
    assert all(e.reason.startswith("no orders") for e in entries)
