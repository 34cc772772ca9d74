"""A command word in the Subject does not swallow orders written as sentences in the body (design 17): a trial's
players answered their report with `Subject: report` (Sid's Secrets) and `Re: report` (H.I.D.E.) and plain
order lines under their password, and the judge answered the report alone, filing nothing."""

from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage
from pathlib import Path

import pytest
import yaml

from adjudicator.campaign.create import create
from judgekit import append_mbox, campaign, edit
from test_judge import pbem, tick

WHEN = "Tue, 01 Dec 2026 10:00:00 +0000"
NOW = "2026-12-01T12:00+00:00"


def _sentences(sender: str, subject: str, body: str) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, "gm@example.org", subject
    message["Date"], message["Message-ID"] = WHEN, f"<{subject.replace(' ', '').replace(':', '')}@example.org>"
    message.set_content(body)
    return bytes(message)


def _password(root: Path, seat: str) -> str:
    return str(yaml.safe_load((root / "gm" / "passwords.yaml").read_text(encoding="utf-8"))[seat])


def _acknowledgement(root: Path) -> email.message.EmailMessage:
    [path] = sorted((root / "mail" / "outbox" / "turn-001").glob("ack-*.eml"))
    return email.message_from_bytes(path.read_bytes(), policy=email.policy.default)


def _tonys_mail(tmp_path: Path, capsys: pytest.CaptureFixture[str], subject: str, lines: str) -> tuple[Path, str]:
    """A Secrets campaign with passwords, and one judge's tick of Tony's mail of `lines` under his password."""
    root = campaign(tmp_path, passwords=True)
    append_mbox(tmp_path / "spies.mbox", _sentences("Tony <tony@example.org>", subject, f"password: {_password(root, 'tony')}\n{lines}"))
    code, out = tick(capsys, root, now=NOW)
    assert code == 0, out
    return root, out


def test_a_report_subject_over_sentences_files_them_and_answers_both(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root, out = _tonys_mail(tmp_path, capsys, "report", "SID 3 steal david 10\nSID 4 guard secret 10\nSID 6 steal maria 9\n")
    assert "(1 filed, 0 rejected)" in out, out
    filed = yaml.safe_load((root / "turn-001" / "orders" / "tony.yaml").read_text(encoding="utf-8"))
    assert filed["orders"] == ["SID 3 steal david 10", "SID 4 guard secret 10", "SID 6 steal maria 9"]
    _, status, _ = pbem(capsys, "status", root)
    assert "Still waiting for: david, maria" in status
    ack = _acknowledgement(root)
    text = ack.get_content()
    assert "These orders are filed for turn 1." in text and "SID 3 tries to steal David's secret 10" in text
    assert "Your Subject also asked 'report'" in text and "Opening report for Tony (tony)" in text
    assert ack["Subject"].endswith("orders received from Tony; and your report of turn 0")


def test_a_reply_to_a_hide_report_with_a_sentence_files_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "agents"
    seats = [{"id": p, "name": p.title(), "email": f"{p}@example.org"} for p in ("anna", "ben", "chiara", "dev")]
    create(root, "hide", seats, seed="subject", gm_email="GM <gm@example.org>", name="agents")
    mbox = tmp_path / "agents.mbox"
    mbox.touch()
    edit(root, lambda config: config.update(judge={"inbox": [str(mbox)], "gm_digest": False}))
    append_mbox(mbox, _sentences("Dev <dev@example.org>", "Re: report", f"password: {_password(root, 'dev')}\ntarget the sub\n"))
    code, out = tick(capsys, root, now=NOW)
    assert code == 0 and "(1 filed, 0 rejected)" in out, out
    assert yaml.safe_load((root / "turn-001" / "orders" / "dev.yaml").read_text(encoding="utf-8"))["orders"] == ["target the sub"]
    text = _acknowledgement(root).get_content()
    assert "These orders are filed for turn 1." in text and "Your Subject also asked 'report'" in text


def test_a_report_subject_over_words_that_are_no_order_is_the_report_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root, out = _tonys_mail(tmp_path, capsys, "report", "Could you send it again please?\n")
    assert "(0 filed, 1 answered, 0 rejected)" in out, out
    assert not (root / "turn-001" / "orders" / "tony.yaml").exists()


def test_a_report_subject_over_lines_none_of_which_stands_answers_each_line_and_the_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """As without the Subject, lines meant as orders and all void are answered line by line and nothing is
    filed; the report asked for comes in the same reply, never in place of the answer about the orders."""
    root, out = _tonys_mail(tmp_path, capsys, "Re: report", "SID 3 steal kostas 10\n")
    assert "(0 filed, 1 rejected)" in out, out
    assert not (root / "turn-001" / "orders" / "tony.yaml").exists()
    [path] = sorted((root / "mail" / "outbox" / "turn-001").glob("ack-*.eml"))
    reply = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    text = reply.get_content()
    assert reply["Subject"].endswith("your message was not filed; and your report of turn 0"), reply["Subject"]  # both, as filed orders' do
    assert "your message was NOT filed as orders" in text and "there is no player called 'kostas'" in text
    assert "Your Subject also asked 'report'. The answer:" in text and "Opening report for Tony (tony)" in text
    assert "was not answered" not in text
