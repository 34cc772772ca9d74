"""The judge on a real mailbox (design 15, issue 24): its own mail and robots' mail are not player mail,
SMTP trusts the GM's certificate, a refused recipient is retried at the corrected address, and the GM
and the players hear what the judge did."""

from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from adjudicator.cli import main
from judgekit import append_mbox, campaign, edit, orders, outbox


def tick(capsys: pytest.CaptureFixture[str], *roots: Path, now: str, smtp: list[str] | None = None) -> tuple[int, str]:
    code = main(["run", *map(str, roots), "--now", now, *(smtp or [])])
    out, err = capsys.readouterr()
    return code, out + err


def _rejected(root: Path) -> list[str]:
    folder = root / "mail" / "rejected"
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def test_the_judges_own_mail_arriving_in_its_inbox_is_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The welcome and the public report reach the GM's address, which is the judge's inbox: the next
    tick counts them, keeps no rejection and answers nothing."""
    root = campaign(tmp_path)
    mbox = tmp_path / "spies.mbox"
    assert tick(capsys, root, now="2026-12-01T12:00+00:00")[0] == 0
    built = outbox(root)
    for name in built:
        append_mbox(mbox, (root / "mail" / "outbox" / name).read_bytes())
    code, out = tick(capsys, root, now="2026-12-01T12:10+00:00")
    assert code == 0 and f"{len(built)} messages of the judge's own skipped" in out, out
    assert "rejected" not in out and "new message" not in out
    assert _rejected(root) == [] and outbox(root) == built


def _robot(sender: str, header: tuple[str, str]) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, "gm@example.org", "Out of office: orders turn 1"
    message["Date"], message["Message-ID"] = "Wed, 02 Dec 2026 10:00:00 +0000", f"<robot.{header[0]}@example.org>"
    message[header[0]] = header[1]
    message.set_content("I am away until Monday.\n")
    return bytes(message)


@pytest.mark.parametrize("header", [
    ("Auto-Submitted", "auto-replied"),
    ("Precedence", "auto_reply"),
    ("Precedence", "bulk"),
    ("X-Autorespond", "yes"),
    ("X-Autoreply", "yes"),
    ("X-Auto-Response-Suppress", "All"),
])
def test_an_automatic_message_from_a_player_is_never_answered(tmp_path: Path, header: tuple[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    root = campaign(tmp_path)
    assert tick(capsys, root, now="2026-12-01T12:00+00:00")[0] == 0
    before = outbox(root)
    append_mbox(tmp_path / "spies.mbox", _robot("Tony <tony@example.org>", header))
    code, out = tick(capsys, root, now="2026-12-02T12:00+00:00")
    assert code == 0 and "1 new message (0 filed, 1 rejected)" in out, out
    assert outbox(root) == before  # no reply: a robot answering a robot never stops
    reason = (root / "mail" / "rejected" / _rejected(root)[1]).read_text()
    assert "automatic" in reason


# -- SMTP with STARTTLS and a self-signed certificate --------------------------------------


@pytest.fixture
def tls_smtp(tmp_path: Path) -> Any:
    """A real SMTP server (aiosmtpd) that requires STARTTLS, with a certificate made here and signed by no CA."""
    import socket
    import ssl

    from aiosmtpd.controller import Controller

    from reliability_kit import Inbox
    from servers import _certificate

    folder = tmp_path / "tls"
    folder.mkdir()
    cert, key = _certificate(folder)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    box = Inbox()
    controller = Controller(box, hostname="127.0.0.1", port=port, tls_context=context, require_starttls=True)
    controller.start()
    try:
        yield box, f"127.0.0.1:{port}", str(cert)
    finally:
        controller.stop()


def test_smtp_trusts_a_self_signed_certificate_given_by_the_gm(tmp_path: Path, tls_smtp: Any, capsys: pytest.CaptureFixture[str]) -> None:
    box, address, cert = tls_smtp
    root = campaign(tmp_path)
    send = ["--send", "--smtp", address, "--starttls"]
    code, out = tick(capsys, root, now="2026-12-01T12:00+00:00", smtp=send)
    assert code == 1 and "certificate cannot be trusted" in out and "--smtp-ca-file" in out, out
    assert box.received == []
    code, out = tick(capsys, root, now="2026-12-01T12:05+00:00", smtp=[*send, "--smtp-ca-file", cert])
    assert code == 0 and "3 messages sent" in out, out
    edit(root, lambda c: c["judge"].update(smtp_ca_file=cert))  # or in campaign.yaml
    (root / "turn-001" / "orders").mkdir(exist_ok=True)
    append_mbox(tmp_path / "spies.mbox", orders("tony", 1, "Wed, 02 Dec 2026 10:00:00 +0000"))
    code, out = tick(capsys, root, now="2026-12-02T12:00+00:00", smtp=send)
    assert code == 0 and "1 message sent" in out, out
    assert len(box.received) == 4


def test_the_readme_cron_line_names_the_password_file() -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    line = next(line for line in readme.splitlines() if line.startswith("*/5 * * * *  pbem run"))
    assert "--user" in line and "--password-file" in line


# -- a refused recipient, retried at the corrected address ---------------------------------


@pytest.fixture
def picky_smtp() -> Any:
    """A real SMTP server that refuses, for good, any recipient whose address holds 'typo'."""
    import socket

    from aiosmtpd.controller import Controller

    from reliability_kit import Inbox

    class Picky(Inbox):
        async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: Any) -> str:
            if "typo" in address:
                return "550 5.1.1 no such user"
            envelope.rcpt_tos.append(address)
            return "250 OK"

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    box = Picky()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield box, f"127.0.0.1:{port}"
    finally:
        controller.stop()


def _to(box: Any, address: str) -> list[str]:
    return [str(m["Subject"]) for rcpt, m in box.received if rcpt == [address]]


def test_a_refused_recipient_is_sent_again_once_the_gm_corrects_the_address(tmp_path: Path, picky_smtp: Any, capsys: pytest.CaptureFixture[str]) -> None:
    box, address = picky_smtp
    root = campaign(tmp_path)
    edit(root, lambda c: c["players"][1].update(email="david@typo.example.org"))
    send = ["--send", "--smtp", address]
    code, out = tick(capsys, root, now="2026-12-01T12:00+00:00", smtp=send)
    assert code == 1 and "the server refused turn-000/welcome-david.eml (550 5.1.1 no such user)" in out, out
    assert len(box.received) == 2 and (root / "mail" / "outbox" / "turn-000" / "welcome-david.eml").is_file()
    code, out = tick(capsys, root, now="2026-12-01T12:05+00:00", smtp=send)
    assert code == 0 and len(box.received) == 2  # not offered to the server again as it was
    edit(root, lambda c: c["players"][1].update(email="david@example.org"))
    code, out = tick(capsys, root, now="2026-12-01T12:10+00:00", smtp=send)
    assert code == 0 and "1 message rebuilt for a corrected address (turn-000/welcome-david.eml)" in out and "1 message sent" in out, out
    assert len(_to(box, "david@example.org")) == 1 and "welcome" in _to(box, "david@example.org")[0].lower()
    code, out = tick(capsys, root, now="2026-12-01T12:15+00:00", smtp=send)
    assert code == 0 and len(box.received) == 3, out  # once


def test_mail_waiting_in_the_outbox_goes_to_the_corrected_address_never_the_old(tmp_path: Path, picky_smtp: Any, capsys: pytest.CaptureFixture[str]) -> None:
    box, address = picky_smtp
    root = campaign(tmp_path)
    edit(root, lambda c: c["players"][1].update(email="david@old.example.org"))
    assert tick(capsys, root, now="2026-12-01T12:00+00:00")[0] == 0  # built, not sent
    edit(root, lambda c: c["players"][1].update(email="david@example.org"))
    code, out = tick(capsys, root, now="2026-12-01T12:10+00:00", smtp=["--send", "--smtp", address])
    assert code == 0 and "3 messages sent" in out, out
    assert _to(box, "david@old.example.org") == [] and len(_to(box, "david@example.org")) == 1


# -- players hear what changes for them ------------------------------------------------------


def _body(path: Path) -> str:
    return email.message_from_bytes(path.read_bytes(), policy=email.policy.default).get_body(("plain",)).get_content()


def test_an_acknowledgement_gives_times_in_the_campaigns_zone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = campaign(tmp_path)  # Europe/Berlin
    append_mbox(tmp_path / "spies.mbox", orders("tony", 1, "Wed, 02 Dec 2026 10:00:00 +0000"))
    assert tick(capsys, root, now="2026-12-02T12:00+00:00")[0] == 0
    text = _body(root / "mail" / "outbox" / "turn-001" / "ack-00001.eml")
    assert "Date:       Wednesday 2 December 2026, 11:00 CET (Europe/Berlin)" in text, text
    assert "2026-12-02T10:00:00+00:00" not in text


def test_a_refusal_written_at_the_tick_that_adjudicates_is_still_sent(tmp_path: Path, smtp: Any, capsys: pytest.CaptureFixture[str]) -> None:
    box, address = smtp
    root = campaign(tmp_path)
    append_mbox(tmp_path / "spies.mbox", orders("tony", 1, "Tue, 08 Dec 2026 19:00:00 +0000", body="player: tony\nturn: 1\norders: {bad\n"))
    code, out = tick(capsys, root, now="2026-12-08T21:00+01:00", smtp=["--send", "--smtp", address])  # past the deadline
    assert code == 0 and "turn 1 adjudicated at the deadline" in out, out
    refusals = [m for rcpt, m in box.received if rcpt == ["tony@example.org"] and "not filed" in str(m["Subject"])]
    assert len(refusals) == 1, [str(m["Subject"]) for _, m in box.received]


def test_after_the_last_turn_no_message_names_a_later_turn_or_a_deadline(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from adjudicator.campaign.adjudicate import adjudicate
    from adjudicator.campaign.folder import Campaign

    root = campaign(tmp_path, schedule=None)
    while not Campaign.open(root).over:
        adjudicate(root, nmr=True)
    last = Campaign.open(root).last_turn
    mbox = tmp_path / "spies.mbox"
    append_mbox(mbox, orders("tony", last + 1, "Wed, 02 Dec 2026 10:00:00 +0000"))
    status = EmailMessage()
    status["From"], status["To"], status["Subject"] = "david@example.org", "gm@example.org", "status"
    status["Date"], status["Message-ID"] = "Wed, 02 Dec 2026 10:05:00 +0000", "<status.david@example.org>"
    status.set_content("status\n")
    append_mbox(mbox, bytes(status))
    edit(root, lambda c: c.update(schedule=dict(timezone="Europe/Berlin", deadlines=["2026-12-08 20:00"])))
    assert tick(capsys, root, now="2026-12-02T12:00+00:00")[0] == 0
    replies = sorted((root / "mail" / "outbox").rglob("*-0000[12].eml"))
    assert len(replies) == 2, replies
    for path in replies:
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        assert f"turn {last + 1}" not in str(message["Subject"]) and f"turn {last + 1}" not in _body(path), (message["Subject"], _body(path))
        assert "Deadline" not in _body(path)


# -- the GM's digest ---------------------------------------------------------------------------


def test_the_gm_gets_one_digest_per_tick_that_did_something(tmp_path: Path, picky_smtp: Any, capsys: pytest.CaptureFixture[str]) -> None:
    box, address = picky_smtp
    root = campaign(tmp_path, judge={"gm_digest": True})
    edit(root, lambda c: c["players"][2].update(email="maria@typo.example.org"))
    mbox = tmp_path / "spies.mbox"
    send = ["--send", "--smtp", address]
    append_mbox(mbox, orders("tony", 1, "Tue, 08 Dec 2026 19:00:00 +0000"))
    append_mbox(mbox, orders("david", 1, "Tue, 08 Dec 2026 19:00:00 +0000", body="player: david\nturn: 1\norders: {bad\n"))
    code, out = tick(capsys, root, now="2026-12-08T21:00+01:00", smtp=send)  # past the deadline
    assert "turn 1 adjudicated at the deadline, NMR: david, maria" in out, out
    digests = [m for rcpt, m in box.received if "what happened" in str(m["Subject"])]
    assert len(digests) == 1 and digests[0]["Auto-Submitted"] == "auto-generated"
    text = digests[0].get_body(("plain",)).get_content()
    assert "turn 1 adjudicated at the deadline; NMR: david, maria" in text, "design 15: the GM is told whether early or at the deadline"
    assert "from david@example.org" in text and "not filed" in text
    assert "delivery failed: turn-000/welcome-maria.eml (550 5.1.1 no such user)" in text, text
    code, out = tick(capsys, root, now="2026-12-08T21:05+01:00", smtp=send)
    assert len([m for rcpt, m in box.received if "what happened" in str(m["Subject"])]) == 1  # a quiet tick sends none
    edit(root, lambda c: c["judge"].update(gm_digest=False))
    append_mbox(mbox, orders("david", 2, "Wed, 09 Dec 2026 19:00:00 +0000", body="player: david\nturn: 2\norders: {bad\n"))
    tick(capsys, root, now="2026-12-09T21:05+01:00", smtp=send)
    assert len([m for rcpt, m in box.received if "what happened" in str(m["Subject"])]) == 1


def test_a_moved_deadline_is_announced_to_each_player_still_due(tmp_path: Path, smtp: Any, capsys: pytest.CaptureFixture[str]) -> None:
    box, address = smtp
    root = campaign(tmp_path)
    append_mbox(tmp_path / "spies.mbox", orders("tony", 1, "Wed, 02 Dec 2026 10:00:00 +0000"))
    send = ["--send", "--smtp", address]
    assert tick(capsys, root, now="2026-12-02T12:00+00:00", smtp=send)[0] == 0
    assert main(["deadline", str(root), "--extend", "1 day"]) == 0
    assert "david, maria" in capsys.readouterr().out
    code, out = tick(capsys, root, now="2026-12-02T12:05+00:00", smtp=send)
    assert code == 0 and "2 messages sent" in out, out
    moved = {rcpt[0]: m for rcpt, m in box.received if "deadline moved" in str(m["Subject"])}
    assert sorted(moved) == ["david@example.org", "maria@example.org"]  # Tony's orders are in: not told
    text = moved["david@example.org"].get_body(("plain",)).get_content()
    assert "Wednesday 9 December 2026, 20:00 CET (Europe/Berlin)" in text and "Tuesday 8 December 2026" in text


# -- campaign.yaml stays the GM's file ---------------------------------------------------------


def test_commands_that_write_campaign_yaml_keep_the_gms_comments_and_quoting(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = campaign(tmp_path)
    path = root / "campaign.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("schedule:\n", "# the GM's own note, kept\nschedule:  # weekly, Tuesday evening\n", 1)
    text = text.replace("every: 7 days", "every: '7 days'  # quoted on purpose")
    path.write_text(text, encoding="utf-8")
    assert main(["deadline", str(root), "--extend", "1 day"]) == 0
    assert main(["standin", str(root), "maria", "on"]) == 0
    capsys.readouterr()
    after = path.read_text(encoding="utf-8")
    assert "# the GM's own note, kept\n" in after and "schedule:  # weekly, Tuesday evening\n" in after
    assert "every: '7 days'  # quoted on purpose" in after
    assert "2026-12-09 20:00" in after and "maria:" in after
    for line in text.splitlines():  # every line the GM wrote is still there, as written
        assert line in after.splitlines(), line


def test_every_message_the_judge_sends_says_auto_generated(tmp_path: Path) -> None:
    """Design 15: replies included, every message carries Auto-Submitted: auto-generated."""
    from adjudicator.campaign.folder import Campaign
    from adjudicator.mail import compose

    root = tmp_path / "spies"
    from adjudicator.campaign.create import create

    create(root, "secrets", [{"id": "tony", "name": "Tony", "email": "tony@example.org"}, {"id": "sue", "name": "Sue", "email": "sue@example.org"},
                             {"id": "ann", "name": "Ann", "email": "ann@example.org"}], seed="auto", gm_email="gm@example.org", passwords=False)
    campaign = Campaign.open(root)
    for kind in ("ack", "refusal", "report", "remind", "press", "welcome"):
        message = compose.make_message(campaign, kind=kind, turn=1, to=[("Tony", "tony@example.org")], subject="s", body="b\n")
        assert message["Auto-Submitted"] == "auto-generated", kind


# -- a Maildir the GM reads in a mail client ----------------------------------------------------


def _maildir(tmp_path: Path, root: Path) -> Path:
    box = tmp_path / "Maildir"
    for sub in ("tmp", "new", "cur"):
        (box / sub).mkdir(parents=True, exist_ok=True)
    edit(root, lambda c: c["judge"].update(inbox=[str(box)]))
    return box


def _ingested(root: Path) -> list[str]:
    path = root / "mail" / "ingest.jsonl"
    return [line.split('"sender":"')[1].split('"')[0] for line in path.read_text().splitlines()] if path.is_file() else []


def test_a_maildir_message_moved_to_cur_or_flagged_is_neither_lost_nor_taken_twice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = campaign(tmp_path)
    box = _maildir(tmp_path, root)
    (box / "new" / "1764583200.a1.host").write_bytes(orders("tony", 1, "Wed, 02 Dec 2026 10:00:00 +0000"))
    code, out = tick(capsys, root, now="2026-12-02T12:00+00:00")
    assert code == 0 and "1 new message (1 filed" in out, out
    (box / "new" / "1764583200.a1.host").rename(box / "cur" / "1764583200.a1.host:2,S")  # the GM read it in a client
    (box / "new" / "1764583300.b2.host").write_bytes(orders("david", 1, "Wed, 02 Dec 2026 10:05:00 +0000"))
    code, out = tick(capsys, root, now="2026-12-02T12:05+00:00")
    assert code == 0 and "1 new message (1 filed" in out, out
    (box / "cur" / "1764583200.a1.host:2,S").rename(box / "cur" / "1764583200.a1.host:2,FRS")  # flagged, answered
    (box / "new" / "1764583300.b2.host").rename(box / "cur" / "1764583300.b2.host:2,S")
    code, out = tick(capsys, root, now="2026-12-02T12:10+00:00")
    assert code == 0 and "new message" not in out, out
    assert _ingested(root) == ["tony@example.org", "david@example.org"]


def test_a_maildir_message_a_client_moves_while_the_judge_reads_is_taken_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The client renames new/X to cur/X:2,S between the judge's listing of new/ and its reading of X."""
    from adjudicator.mail import inbox

    root = campaign(tmp_path)
    box = _maildir(tmp_path, root)
    (box / "new" / "1764583200.a1.host").write_bytes(orders("tony", 1, "Wed, 02 Dec 2026 10:00:00 +0000"))
    read = inbox._read

    def client_moves_it_first(path: Path) -> bytes:
        if path.parent.name == "new" and path.exists():
            path.rename(box / "cur" / (path.name + ":2,S"))
        return read(path)

    monkeypatch.setattr(inbox, "_read", client_moves_it_first)
    code, out = tick(capsys, root, now="2026-12-02T12:00+00:00")
    assert code == 0 and "1 new message (1 filed" in out, out
    monkeypatch.setattr(inbox, "_read", read)
    code, out = tick(capsys, root, now="2026-12-02T12:05+00:00")
    assert code == 0 and "new message" not in out, out
    assert _ingested(root) == ["tony@example.org"]


class Killed(BaseException):
    """The process ends here, as under kill -9: nothing after it runs."""


def test_a_turn_whose_run_was_killed_before_its_mail_is_named_by_the_tick_that_mails_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from adjudicator.mail import reportmail

    root = campaign(tmp_path, judge={"gm_digest": True})
    for player in ("tony", "david", "maria"):
        append_mbox(tmp_path / "spies.mbox", orders(player, 1, "Tue, 01 Dec 2026 10:00:00 +0000"))

    def killed(*args: Any) -> Any:
        raise Killed

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(reportmail, "report_messages", killed)
        with pytest.raises(Killed):
            main(["run", str(root), "--now", "2026-12-01T12:00+00:00"])
    capsys.readouterr()
    code, out = tick(capsys, root, now="2026-12-01T12:05+00:00")
    assert code == 0
    assert "turn 1 adjudicated early; every due seat had orders (by an earlier run that stopped before its mail)" in out, out
    digest = [_body(root / "mail" / "outbox" / name) for name in outbox(root) if "gm-digest" in name]
    assert len(digest) == 1 and "turn 1 adjudicated early; every due seat had orders" in digest[0]
