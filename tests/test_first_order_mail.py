"""A new player's first order mail as a field trial's players wrote it (design 17): the order form sent
back untouched is valid and says nothing; its password placeholder is named as written, never hidden as if
it were a password; a YAML error quotes the line as the player typed it, once, with the likely fix."""

from __future__ import annotations

import email
import email.policy
from pathlib import Path

import pytest
import yaml
from reliability_kit import NOW
from test_ingest import campaign, mail, maildir, order_text, passwords  # noqa: F401 - the fixture and the helpers

from adjudicator.cli import main
from adjudicator.mail.ingest import ingest


def _form(root: Path, player: str) -> str:
    """The order form at the end of the player's opening report, as the judge sent it."""
    report = (root / "turn-000" / "reports" / f"{player}.txt").read_text(encoding="utf-8")
    return report[report.index("# Lines starting with #"):]


def _replies(root: Path) -> list[email.message.EmailMessage]:
    return [email.message_from_bytes(p.read_bytes(), policy=email.policy.default) for p in sorted((root / "mail" / "outbox").rglob("*.eml"))]


def test_the_untouched_form_files_nothing_and_is_answered_calmly(campaign: Path, tmp_path: Path) -> None:  # noqa: F811
    earlier = mail("tony@example.org", attachment=order_text(campaign, "tony", ["SID 1 steal David 8"]), message_id="<u1@x>",
                   date="Mon, 30 Nov 2026 09:00:00 +0000")
    untouched = mail("Tony <tony@example.org>", _form(campaign, "tony"), subject="Re: your report", message_id="<u2@x>")
    assert 'password: "your password"' in untouched.get_content()
    entries = ingest(campaign, [maildir(tmp_path, [earlier, untouched])], now=NOW).entries
    assert [e.status for e in entries] == ["filed", "rejected"]
    filed = yaml.safe_load((campaign / "turn-001" / "orders" / "tony.yaml").read_text())
    assert filed["orders"] == ["SID 1 steal David 8"]  # the earlier orders stand: no password, no overwrite
    reply = _replies(campaign)[-1]
    text = reply.get_content()
    assert reply["Subject"].endswith("nothing to file"), reply["Subject"]
    assert "the order form as it was sent to you, untouched: it gives no orders" in text
    assert "stand unchanged" in text and "NOT filed" not in text
    assert "someone else wrote it in your name" not in text and "(removed)" not in text


def test_the_untouched_form_of_a_seat_with_no_orders_says_what_the_deadline_brings(campaign: Path, tmp_path: Path) -> None:  # noqa: F811
    untouched = mail("Tony <tony@example.org>", _form(campaign, "tony"), subject="Re: your report", message_id="<u3@x>")
    [entry] = ingest(campaign, [maildir(tmp_path, [untouched])], now=NOW).entries
    assert entry.status == "rejected" and not (campaign / "turn-001" / "orders" / "tony.yaml").exists()
    text = _replies(campaign)[-1].get_content()
    assert "No orders of yours are filed for turn 1: if none are by the deadline, you count as NMR" in text
    assert "none of your SIDs is placed this turn (SECRETS-8)" in text


def test_the_placeholder_with_orders_asks_for_the_password_without_the_alarm(campaign: Path, tmp_path: Path) -> None:  # noqa: F811
    form = _form(campaign, "tony").replace("orders:\n", "orders:\n  - SID 1 steal David 8\n", 1)
    [entry] = ingest(campaign, [maildir(tmp_path, [mail("Tony <tony@example.org>", form, subject="turn 1", message_id="<u4@x>")])],
                     now=NOW).entries
    assert entry.status == "rejected"
    text = _replies(campaign)[-1].get_content()
    assert 'password: still says "your password": you left the form\'s placeholder in' in text
    assert 'Write your seat\'s password on the password: line in place of "your password"' in text
    assert "someone else wrote it in your name" not in text and "(removed)" not in text


def test_a_yaml_error_on_the_placeholder_line_shows_the_line_as_written(campaign: Path, tmp_path: Path) -> None:  # noqa: F811
    body = 'player: tony\nturn: 1\npassword: "your password\norders: []\n'  # the closing quote lost
    [entry] = ingest(campaign, [maildir(tmp_path, [mail("tony@example.org", body, subject="turn 1", message_id="<u5@x>")])], now=NOW).entries
    assert entry.status == "rejected" and "(removed)" not in entry.reason, entry.reason
    assert "your password" in entry.reason


def test_a_bullet_out_of_line_is_quoted_as_typed_once_with_the_fix(campaign: Path, tmp_path: Path) -> None:  # noqa: F811
    # As a trial's player sent it from a phone: a tab before the first bullet, the second at the left margin.
    body = ('player: tony\nturn: 1\npassword: \u201cyour password\u201d   # keep the quotes\norders:\n'
            '\t\u2022 {sid: 1, steal: {player: david, secret: 8}}\n\u2022 {sid: 3, guard: 6}\n')
    [entry] = ingest(campaign, [maildir(tmp_path, [mail("tony@example.org", body, subject="turn 1", message_id="<u6@x>")])], now=NOW).entries
    assert entry.status == "rejected"
    text = _replies(campaign)[-1].get_content()
    assert "line up the items, each - at the same place" in text
    assert "line 6 of your message, column 1). Line 6 reads: \u2022 {sid: 3, guard: 6}" in text
    assert text.count("{sid: 3, guard: 6}") == 1 and "that line reads" not in text and "(removed)" not in text


def test_check_and_the_orders_command_say_what_the_deadline_brings(campaign: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    order = tmp_path / "tony.yaml"
    order.write_text('player: tony\nturn: 1\npassword: "wrong one"\norders: []\n', encoding="utf-8")
    assert main(["check", str(order), "--campaign", str(campaign)]) == 1
    out = capsys.readouterr().out
    assert "you would count as NMR (no moves received). With no valid order, none of your SIDs is placed this turn (SECRETS-8)." in out
    asked = mail("tony@example.org", f"orders\npassword: {passwords(campaign)['tony']}\n", subject="orders", message_id="<u7@x>")
    [entry] = ingest(campaign, [maildir(tmp_path, [asked])], now=NOW).entries
    assert entry.status == "answered"
    text = _replies(campaign)[-1].get_content()
    assert "Without them you count as NMR (no moves received). With no valid order, none of your SIDs is placed this turn (SECRETS-8)." in text
