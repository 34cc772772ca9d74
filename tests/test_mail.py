"""`pbem mail`: the outbox, and delivery to a real SMTP server (aiosmtpd on a loopback port)."""

from __future__ import annotations

import email
import email.policy
import json
import socket
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
import yaml
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from adjudicator.campaign.adjudicate import adjudicate
from adjudicator.campaign.create import create
from adjudicator.cli import main
from adjudicator.publish.render import markdown_plain

PLAYERS = [
    {"id": "tony", "name": "Tony", "email": "tony@example.org"},
    {"id": "david", "name": "David", "email": "david@example.org"},
    {"id": "maria", "name": "María José", "email": "maria@example.org"},
    {"id": "sue", "name": "Sue"},
]


class Mailbox:
    """An SMTP server's handler: keeps every message, can refuse a recipient once, can require a login."""

    def __init__(self) -> None:
        self.received: list[tuple[list[str], EmailMessage]] = []
        self.refuse_once: set[str] = set()
        self.refuse_always: set[str] = set()
        self.logins: list[tuple[bytes, bytes]] = []

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, rcpt_options: list[str]) -> str:
        if address in self.refuse_always:
            return "550 5.1.1 no such user"
        if address in self.refuse_once:
            self.refuse_once.discard(address)
            return "451 4.3.0 mailbox busy, try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.original_content, policy=email.policy.default)
        self.received.append((list(envelope.rcpt_tos), message))
        return "250 Message accepted for delivery"

    def authenticate(self, server: Any, session: Any, envelope: Any, mechanism: str, auth_data: Any) -> AuthResult:
        if isinstance(auth_data, LoginPassword):
            self.logins.append((auth_data.login, auth_data.password))
            return AuthResult(success=auth_data.password == b"s3cret pass", handled=False)
        return AuthResult(success=False, handled=False)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def smtp() -> Iterator[tuple[Mailbox, str]]:
    box = Mailbox()
    port = free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port, authenticator=box.authenticate, auth_require_tls=False)
    controller.start()
    try:
        yield box, f"127.0.0.1:{port}"
    finally:
        controller.stop()


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    root = tmp_path / "spies"
    create(root, "secrets", [dict(p) for p in PLAYERS], seed="mail", gm_email="Game Master <gm@example.org>", name="Spies")
    return root


def pbem(capsys: pytest.CaptureFixture[str], *args: Any) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def text(message: EmailMessage) -> str:
    """The body as the reader sees it (on the wire lines end in CRLF)."""
    return message.get_body(("plain",)).get_content().replace("\r\n", "\n")


def outbox(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root / "mail" / "outbox")): p.read_bytes() for p in sorted((root / "mail" / "outbox").rglob("*.eml"))}


def test_reports_are_built_once_and_sent_once(campaign: Path, smtp: tuple[Mailbox, str], capsys: pytest.CaptureFixture[str]) -> None:
    box, address = smtp
    adjudicate(campaign, nmr=True)
    code, out, _ = pbem(capsys, "mail", campaign)
    assert code == 0, out
    built = outbox(campaign)
    assert sorted(built) == ["turn-001/report-david.eml", "turn-001/report-maria.eml", "turn-001/report-public.eml", "turn-001/report-tony.eml"]
    assert "sue: no email in campaign.yaml" in out
    assert pbem(capsys, "mail", campaign)[0] == 0 and outbox(campaign) == built  # deterministic: same bytes

    code, out, _ = pbem(capsys, "mail", campaign, "--send", "--smtp", address)
    assert code == 0, out
    assert len(box.received) == 4
    by_to = {rcpt[0]: message for rcpt, message in box.received}
    maria = by_to["maria@example.org"]
    assert maria["Subject"] == "[Spies] Sid's Secrets, turn 1: report for María José"
    assert maria["To"].addresses[0].display_name == "María José"
    assert maria["From"].addresses[0].addr_spec == "gm@example.org"
    body = maria.get_body(("plain",))
    assert body.get_content_type() == "text/plain" and body.get_content_charset() == "utf-8"
    [view] = [part for part in maria.iter_attachments() if part.get_filename() == "maria-turn-002.view.json"]
    assert view.get_content_type() == "application/json"  # for pbem check FILE --view VIEWFILE
    assert text(maria) == (campaign / "turn-001" / "reports" / "maria.txt").read_text()
    assert maria["Date"] is not None
    stored = email.message_from_bytes(built["turn-001/report-maria.eml"], policy=email.policy.default)
    assert maria["Message-ID"] == stored["Message-ID"] and stored["Date"] is None
    public = by_to["gm@example.org"]
    assert text(public) == markdown_plain((campaign / "turn-001" / "reports" / "public.md").read_text())
    for password in yaml.safe_load((campaign / "gm" / "passwords.yaml").read_text()).values():
        assert all(password not in m.as_string() for _, m in box.received)

    code, out, _ = pbem(capsys, "mail", campaign, "--send", "--smtp", address)
    assert code == 0 and len(box.received) == 4 and "0 messages delivered" in out


def test_the_public_report_is_mailed_as_plain_text_without_markdown_escapes(campaign: Path) -> None:
    """Issue 16, item 17: the mailed public report showed `\\(Europe/London\\)`: Markdown's escapes,
    which a text/plain reader shows as typed."""
    config = yaml.safe_load((campaign / "campaign.yaml").read_text())
    config["schedule"] = {"timezone": "Europe/London", "start": "2026-12-08 20:00", "every": "1 week"}
    (campaign / "campaign.yaml").write_text(yaml.safe_dump(config, allow_unicode=True))
    adjudicate(campaign, nmr=True)
    markdown = (campaign / "turn-001" / "reports" / "public.md").read_text()
    assert "\\(Europe/London\\)" in markdown  # escaped for a forum that renders Markdown
    assert main(["mail", str(campaign)]) == 0
    mailed = email.message_from_bytes(outbox(campaign)["turn-001/report-public.eml"], policy=email.policy.default)
    body = text(mailed)
    assert "(Europe/London)" in body and "\\(" not in body and "\\)" not in body


def test_a_broken_run_resumes_without_sending_twice(campaign: Path, smtp: tuple[Mailbox, str], capsys: pytest.CaptureFixture[str]) -> None:
    box, address = smtp
    box.refuse_once = {"maria@example.org"}  # the third message in name order: david, maria, public, tony
    code, _, err = pbem(capsys, "mail", campaign, "--turn", "0", "--send", "--smtp", address)
    assert code == 1 and "run the command again to resume" in err
    assert [rcpt for rcpt, _ in box.received] == [["david@example.org"]]
    code, _, _ = pbem(capsys, "mail", campaign, "--turn", "0", "--send", "--smtp", address)
    assert code == 0
    delivered = [rcpt[0] for rcpt, _ in box.received]
    assert sorted(delivered) == ["david@example.org", "gm@example.org", "maria@example.org", "tony@example.org"]
    ids = [m["Message-ID"] for _, m in box.received]
    assert len(set(ids)) == 4


def ingest_tonys_orders(campaign: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], message_id: str) -> None:
    password = yaml.safe_load((campaign / "gm" / "passwords.yaml").read_text())["tony"]
    message = EmailMessage()
    message["From"], message["To"], message["Subject"], message["Message-ID"] = "tony@example.org", "gm@example.org", "orders", message_id
    message.set_content(f"player: tony\nturn: 1\npassword: \"{password}\"\norders: []\n")
    (tmp_path / "o.eml").write_bytes(message.as_bytes())
    assert pbem(capsys, "ingest", campaign, tmp_path / "o.eml")[0] == 0


def test_acknowledgements_from_ingest_go_out_with_the_next_send(campaign: Path, smtp: tuple[Mailbox, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    box, address = smtp
    ingest_tonys_orders(campaign, tmp_path, capsys, "<o1@x>")
    assert pbem(capsys, "mail", campaign, "--turn", "0", "--send", "--smtp", address)[0] == 0
    acks = [m for _, m in box.received if m["In-Reply-To"] == "<o1@x>"]
    assert len(acks) == 1 and "orders for turn 1 received from Tony" in text(acks[0])


def test_an_acknowledgement_outdated_by_the_turn_is_never_sent(campaign: Path, smtp: tuple[Mailbox, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Regression (issue 16, 14): "before the turn is adjudicated, the newest message counts" went out after
    the turn was adjudicated. An unsent reply to orders of a turn since adjudicated is not sent."""
    box, address = smtp
    ingest_tonys_orders(campaign, tmp_path, capsys, "<o2@x>")
    adjudicate(campaign, nmr=True)
    code, out, _ = pbem(capsys, "mail", campaign, "--send", "--smtp", address)
    assert code == 0 and "1 reply to orders is not sent: their turn was adjudicated" in " ".join(out.split())
    assert box.received and not [m for _, m in box.received if m["In-Reply-To"] == "<o2@x>"]
    assert any("report for Tony" in str(m["Subject"]) for _, m in box.received)


def test_login_password_from_environment_or_file_never_the_command_line(
    campaign: Path, smtp: tuple[Mailbox, str], tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    box, address = smtp
    monkeypatch.delenv("PBEM_SMTP_PASSWORD", raising=False)
    code, _, err = pbem(capsys, "mail", campaign, "--turn", "0", "--send", "--smtp", address, "--user", "gm")
    assert code == 1 and "PBEM_SMTP_PASSWORD" in err and not box.received
    with pytest.raises(SystemExit) as usage:
        main(["mail", str(campaign), "--send", "--smtp", address, "--user", "gm", "--password", "s3cret pass"])
    assert usage.value.code == 2
    secret = tmp_path / "smtp-password"
    secret.write_text("wrong\n")
    code, _, err = pbem(capsys, "mail", campaign, "--turn", "0", "--send", "--smtp", address, "--user", "gm", "--password-file", secret)
    assert code == 1 and not box.received
    monkeypatch.setenv("PBEM_SMTP_PASSWORD", "s3cret pass")
    code, out, _ = pbem(capsys, "mail", campaign, "--turn", "0", "--send", "--smtp", address, "--user", "gm")
    assert code == 0, out
    assert box.logins[-1] == (b"gm", b"s3cret pass") and len(box.received) == 4


def test_reminders_before_the_deadline_only(campaign: Path, smtp: tuple[Mailbox, str], capsys: pytest.CaptureFixture[str]) -> None:
    box, address = smtp
    settings = campaign / "campaign.yaml"
    config = yaml.safe_load(settings.read_text())
    config["schedule"] = {"timezone": "Europe/Berlin", "deadlines": {1: "2099-12-01 20:00"}}
    settings.write_text(yaml.safe_dump(config, allow_unicode=True))
    password = yaml.safe_load((campaign / "gm" / "passwords.yaml").read_text())["david"]
    (campaign / "turn-001" / "orders" / "david.yaml").write_text(f"player: david\nturn: 1\npassword: \"{password}\"\norders: []\n")
    code, out, _ = pbem(capsys, "mail", campaign, "--remind", "--send", "--smtp", address)
    assert code == 0, out
    reminded = sorted(rcpt[0] for rcpt, _ in box.received)
    assert reminded == ["maria@example.org", "tony@example.org"] and "sue: missing, but has no email" in out
    body = text(box.received[0][1])
    assert "turn 1" in body and "Tuesday 1 December 2099, 20:00 CET (Europe/Berlin)" in body
    assert pbem(capsys, "mail", campaign, "--remind", "--send", "--smtp", address)[0] == 0
    assert len(box.received) == 2  # the same reminder is never sent twice

    config["schedule"]["deadlines"] = {1: "2001-01-01 20:00"}
    settings.write_text(yaml.safe_dump(config, allow_unicode=True))
    code, out, _ = pbem(capsys, "mail", campaign, "--remind")
    assert code == 0 and "has passed" in out


def test_mail_needs_a_gm_address_and_a_valid_smtp(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "nogm"
    create(root, "secrets", [dict(p) for p in PLAYERS], seed="x")
    code, _, err = pbem(capsys, "mail", root)
    assert code == 1 and "gm_email" in err
    with pytest.raises(SystemExit) as usage:  # a usage error: exit 2
        main(["mail", str(root), "--send"])
    assert usage.value.code == 2 and "--smtp" in capsys.readouterr().err
    code, _, err = pbem(capsys, "mail", root, "--turn", "3")
    assert code == 1 and "has not been adjudicated" in err


def test_one_bad_address_does_not_hold_up_the_others(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "typo"
    create(root, "secrets", PLAYERS, seed="x", gm_email="gm@example.org")  # pbem new refuses the typo: a hand edit makes it
    settings = root / "campaign.yaml"
    settings.write_text(settings.read_text().replace("tony@example.org", "tony at example.org"))
    code, out, _ = pbem(capsys, "mail", root)
    assert code == 0 and "tony: 'tony at example.org' is not an email address" in " ".join(out.split())
    assert sorted(outbox(root)) == ["turn-000/report-david.eml", "turn-000/report-maria.eml", "turn-000/report-public.eml"]


def sent_json(root: Path) -> list[dict[str, Any]]:
    return json.loads((root / "mail" / "sent.json").read_text())["sent"]


def test_international_domains_go_out_in_idna_form(tmp_path: Path, smtp: tuple[Mailbox, str], capsys: pytest.CaptureFixture[str]) -> None:
    box, address = smtp
    root = tmp_path / "idn"
    players = [dict(p) for p in PLAYERS]
    players[0]["email"] = "tony@bücher.de"
    players[1]["email"] = "josé@example.org"  # a non-ASCII local part needs SMTPUTF8: left out, with a note
    create(root, "secrets", players, seed="x", gm_email="Maître du Jeu <mj@exämple.org>", name="Spies")
    code, out, err = pbem(capsys, "mail", root)
    assert code == 0, out + err
    out = " ".join(out.split())
    assert "david: 'josé@example.org' cannot be mailed: the part before the @ ('josé') is not ASCII" in out and "SMTPUTF8" in out
    built = outbox(root)
    assert sorted(built) == ["turn-000/report-maria.eml", "turn-000/report-public.eml", "turn-000/report-tony.eml"]
    tony = built["turn-000/report-tony.eml"].decode("ascii")
    assert "To: Tony <tony@xn--bcher-kva.de>" in tony and "<mj@xn--exmple-cua.org>" in tony and "=?utf-8?q?b" not in tony
    code, out, err = pbem(capsys, "mail", root, "--send", "--smtp", address)
    assert code == 0, out + err
    assert sorted(rcpt[0] for rcpt, _ in box.received) == ["maria@example.org", "mj@xn--exmple-cua.org", "tony@xn--bcher-kva.de"]
    by_to = {rcpt[0]: m for rcpt, m in box.received}
    assert by_to["tony@xn--bcher-kva.de"]["From"].addresses[0].display_name == "Maître du Jeu"
    assert not any(entry.get("in_doubt") for entry in sent_json(root))


def test_a_message_that_fails_before_the_server_is_not_in_doubt(campaign: Path, smtp: tuple[Mailbox, str], capsys: pytest.CaptureFixture[str]) -> None:
    box, address = smtp
    assert pbem(capsys, "mail", campaign, "--turn", "0")[0] == 0
    bad = campaign / "mail" / "outbox" / "turn-000" / "report-aaa.eml"  # as written by hand or by an older version
    bad.write_bytes("From: gm@example.org\nTo: josé@example.org\nSubject: x\nMessage-ID: <bad@example.org>\n\nhello\n".encode())
    code, out, err = pbem(capsys, "mail", campaign, "--turn", "0", "--send", "--smtp", address)
    assert code == 1, out + err
    assert "refused: turn-000/report-aaa.eml to josé@example.org" in " ".join(out.split()) and "SMTPUTF8" in out, out + err
    assert len(box.received) == 4  # the others still went out
    entry = next(e for e in sent_json(campaign) if e["file"] == "turn-000/report-aaa.eml")
    assert "in_doubt" not in entry and "SMTPUTF8" in entry["refused"]
    code, out, _ = pbem(capsys, "mail", campaign, "--turn", "0", "--send", "--smtp", address)
    assert code == 0 and "in doubt:" not in out and "refused earlier: turn-000/report-aaa.eml" in " ".join(out.split())
    assert "every message in the outbox has now been sent" not in out


def test_a_permanently_refused_address_does_not_stop_the_others(campaign: Path, smtp: tuple[Mailbox, str], capsys: pytest.CaptureFixture[str]) -> None:
    box, address = smtp
    box.refuse_always = {"david@example.org"}
    code, out, err = pbem(capsys, "mail", campaign, "--turn", "0", "--send", "--smtp", address)
    assert code == 1, out + err
    flat = " ".join(out.split())
    assert "refused: turn-000/report-david.eml to david@example.org: 550 5.1.1 no such user" in flat
    assert "fix the address in campaign.yaml" in flat and "run pbem mail again to rebuild it" in flat
    assert sorted(rcpt[0] for rcpt, _ in box.received) == ["gm@example.org", "maria@example.org", "tony@example.org"]
    log = sent_json(campaign)
    assert next(e for e in log if e["file"] == "turn-000/report-david.eml")["refused"] == "550 5.1.1 no such user"
    assert not any(e.get("in_doubt") for e in log)

    code, out, _ = pbem(capsys, "mail", campaign, "--turn", "0", "--send", "--smtp", address)  # not tried again as it is
    assert code == 0 and len(box.received) == 3 and "refused earlier: turn-000/report-david.eml" in " ".join(out.split())

    settings = campaign / "campaign.yaml"
    config = yaml.safe_load(settings.read_text())
    config["players"] = [{**p, "email": "dave@example.org"} if p["id"] == "david" else p for p in config["players"]]
    settings.write_text(yaml.safe_dump(config, allow_unicode=True))
    code, out, _ = pbem(capsys, "mail", campaign, "--turn", "0", "--send", "--smtp", address)  # rebuilt: a new message, sent
    assert code == 0, out
    assert [rcpt for rcpt, _ in box.received][-1] == ["dave@example.org"] and "refused earlier" not in out
    assert "every message in the outbox has now been sent" in out


def test_a_server_refusal_of_the_data_is_not_in_doubt(campaign: Path, smtp: tuple[Mailbox, str], capsys: pytest.CaptureFixture[str]) -> None:
    box, address = smtp
    original = box.handle_DATA
    calls = []

    async def refuse_first(server: Any, session: Any, envelope: Any) -> str:
        calls.append(1)
        if len(calls) == 1:
            return "451 4.3.0 try again later"
        return await original(server, session, envelope)

    box.handle_DATA = refuse_first  # type: ignore[method-assign]
    code, _, err = pbem(capsys, "mail", campaign, "--turn", "0", "--send", "--smtp", address)
    assert code == 1 and "run the command again to resume" in err and not box.received
    assert sent_json(campaign) == []
    code, out, _ = pbem(capsys, "mail", campaign, "--turn", "0", "--send", "--smtp", address)
    assert code == 0 and len(box.received) == 4, out


NAMES = ["María José", "Zoë", "José", "Ann Marie Ñúñez de la Cruz y Pérez Fernández de Córdoba", "李 小龍", "Stark, Tony"]


def test_every_header_with_non_ascii_text_decodes_as_written(tmp_path: Path) -> None:
    """Regression (issue 16): the standard folder split "report for María José" into two encoded-words
    and decoders showed "MaríaJosé"; a long name came back as "Pér ez". Every message kind, several names."""
    players = [{"id": f"p{n}", "name": name, "email": f"p{n}@example.org"} for n, name in enumerate(NAMES)]
    root = tmp_path / "names"
    create(root, "secrets", players, seed="names", gm_email="Spielleiter Jürgen Größe-Überlänge von Österreich-Ungarn <gm@example.org>",
           name="Spione über Österreich")
    passwords = yaml.safe_load((root / "gm" / "passwords.yaml").read_text())
    inbox_dir = tmp_path / "in"
    inbox_dir.mkdir()
    for n, player in enumerate(players[:3]):
        message = EmailMessage()
        message["From"], message["To"], message["Message-ID"] = player["email"], "gm@example.org", f"<n{n}@x>"
        message["Date"] = "Mon, 30 Nov 2026 10:00:00 +0000"
        wrong = passwords[player["id"]] if n < 2 else "wrong"  # two acknowledgements and one refusal
        message.set_content(f"player: {player['id']}\nturn: 1\npassword: \"{wrong}\"\norders: []\n")
        (inbox_dir / f"{n}.eml").write_bytes(message.as_bytes())
    assert main(["ingest", str(root), str(inbox_dir)]) == 0
    assert main(["mail", str(root), "--remind"]) == 0
    adjudicate(root, nmr=True)
    assert main(["mail", str(root)]) == 0
    kinds = set()
    for path in sorted((root / "mail" / "outbox").rglob("*.eml")):
        message = read_message(path)
        kinds.add(path.name.split("-")[0])
        assert message["From"].addresses[0].display_name == "Spielleiter Jürgen Größe-Überlänge von Österreich-Ungarn"
        assert str(message["Subject"]).startswith("[Spione über Österreich] ")
        for address in message["To"].addresses:
            if address.addr_spec != "gm@example.org":
                name = NAMES[int(address.username[1:])]
                assert address.display_name == name, path
                if path.name.startswith("report"):
                    assert str(message["Subject"]).endswith(f"report for {name}"), path
    subjects = {str(read_message(path)["Subject"]) for path in (root / "mail" / "outbox" / "turn-001").glob("ack-*.eml")}
    assert subjects == {f"[Spione über Österreich] turn 1: orders received from {NAMES[0]}",
                        f"[Spione über Österreich] turn 1: orders received from {NAMES[1]}",
                        "[Spione über Österreich] turn 1: your message was not filed"}
    assert kinds == {"ack", "remind", "report"}


def read_message(path: Path) -> EmailMessage:
    message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    return message
