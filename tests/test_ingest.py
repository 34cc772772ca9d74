"""`pbem ingest`: real Maildir, mbox and .eml files, built with the mailbox and email modules."""

from __future__ import annotations

import email
import email.policy
import mailbox
import os
import re
import subprocess
import sys
from email.message import EmailMessage
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reliability_kit import NOW

from adjudicator.campaign.adjudicate import adjudicate
from adjudicator.campaign.create import create
from adjudicator.cli import main
from adjudicator.common.atomic import locked
from adjudicator.mail.inbox import file_kind, find_orders, orders_in_text
from adjudicator.mail.ingest import ingest, load_index

PLAYERS = [
    {"id": "tony", "name": "Tony", "email": "tony@example.org"},
    {"id": "david", "name": "David", "email": "david@example.org"},
    {"id": "maria", "name": "María José", "email": "maria@example.org"},
]


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    root = tmp_path / "spies"
    create(root, "secrets", [dict(p) for p in PLAYERS], seed="mail", gm_email="GM <gm@example.org>", name="Spies")
    return root


def passwords(root: Path) -> dict[str, str]:
    return yaml.safe_load((root / "gm" / "passwords.yaml").read_text())


def order_text(root: Path, player: str, orders: list, turn: int = 1, password: str | None = None) -> str:
    document = {"player": player, "turn": turn, "password": password or passwords(root)[player], "orders": orders}
    return yaml.safe_dump(document, allow_unicode=True, sort_keys=False)


def mail(
    sender: str,
    body: str = "Orders attached.\n",
    *,
    subject: str = "orders",
    date: str = "Mon, 30 Nov 2026 10:00:00 +0000",
    message_id: str | None = None,
    attachment: str | None = None,
    filename: str = "orders.yaml",
    cte: str | None = None,
    html: str | None = None,
) -> EmailMessage:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = "GM <gm@example.org>"
    message["Subject"] = subject
    message["Date"] = date
    if message_id is not None:
        message["Message-ID"] = message_id
    if html is not None:
        message.set_content(html, subtype="html", cte=cte or "quoted-printable")
    else:
        message.set_content(body, cte=cte) if cte else message.set_content(body)
    if attachment is not None:
        message.add_attachment(attachment.encode("utf-8"), maintype="application", subtype="octet-stream", filename=filename)
    return message


def maildir(tmp_path: Path, messages: list[EmailMessage], name: str = "Maildir") -> Path:
    box = mailbox.Maildir(tmp_path / name, create=True)
    for number, message in enumerate(messages):
        key = box.add(mailbox.MaildirMessage(message.as_bytes()))
        # Delivery names sort in arrival order, as a real MDA's time-stamped names do.
        path = tmp_path / name / "new" / key
        path.rename(path.with_name(f"17000000{number:02d}.{key}"))
    return tmp_path / name


def read(path: Path) -> EmailMessage:
    message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    return message


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and p.name != ".lock"}


def test_attachment_is_filed_and_acknowledged(campaign: Path, tmp_path: Path) -> None:
    text = order_text(campaign, "tony", ["SID 1 steal David 8", {"sid": 9, "guard": 1}])
    source = maildir(tmp_path, [mail("Tony <tony@example.org>", attachment=text, filename="tony.yaml", message_id="<a1@example.org>")])
    result = ingest(campaign, [source], now=NOW)
    assert [e.status for e in result.entries] == ["filed"]
    assert (campaign / "turn-001" / "orders" / "tony.yaml").read_text() == text
    ack = email.message_from_bytes((campaign / "mail" / "outbox" / "turn-001" / "ack-00001.eml").read_bytes(), policy=email.policy.default)
    body = ack.get_content()
    assert ack["To"].addresses[0].addr_spec == "tony@example.org" and ack["In-Reply-To"] == "<a1@example.org>"
    assert "SID 1 tries to steal David's secret 8 (worth 15)" in body
    assert "VOID: sid is 9, above the highest allowed value 7" in body
    assert "Still missing for turn 1: David, María José." in body
    assert passwords(campaign)["tony"] not in body
    assert ack["Date"] is None and ack["From"].addresses[0].addr_spec == "gm@example.org"


def test_every_kind_of_body_is_read(campaign: Path, tmp_path: Path) -> None:
    pw = passwords(campaign)
    fence = f"Hi GM,\n\nhere you go:\n\n```yaml\n{order_text(campaign, 'david', [{'sid': 2, 'guard': 3}])}```\n\nDavid\n"
    bbcode = f"Posted from the forum:\n[code]{order_text(campaign, 'maria', ['SID 4 steal Tony 9'])}[/code]\n-- \nMaría\n"
    html = (
        "<html><body><div dir='ltr'>player: tony<br>turn: 1<br>password: \"" + pw["tony"] + "\"<br>orders:<br>"
        "&nbsp;&nbsp;- SID 3 guard secret 6<br></div><blockquote>player: tony<br>turn: 0</blockquote></body></html>"
    )
    messages = [
        mail("David <david@example.org>", fence, cte="quoted-printable", message_id="<f@x>"),
        mail("=?utf-8?q?Mar=C3=ADa_Jos=C3=A9?= <maria@example.org>", bbcode, cte="base64", message_id="<b@x>", subject="Órdenes"),
        mail("tony@example.org", html=html, message_id="<h@x>"),
    ]
    result = ingest(campaign, [maildir(tmp_path, messages)], now=NOW)
    assert [(e.status, e.player, e.found) for e in result.entries] == [
        ("filed", "david", "a code block in the body"),
        ("filed", "maria", "a [code] block in the body"),
        ("filed", "tony", "the body"),
    ]
    assert yaml.safe_load((campaign / "turn-001" / "orders" / "tony.yaml").read_text())["orders"] == ["SID 3 guard secret 6"]
    last_ack = (campaign / "mail" / "outbox" / "turn-001" / "ack-00003.eml").read_bytes()
    assert b"Every player has sent orders for turn 1." in email.message_from_bytes(last_ack, policy=email.policy.default).get_content().encode()
    assert adjudicate(campaign).output.submissions["maria"].status == "accepted"


def test_a_latin_1_body_is_filed_as_utf_8(campaign: Path, tmp_path: Path) -> None:
    text = order_text(campaign, "maria", []) + "# ¡Gracias, señor GM!\n"
    message = mail('"Jos\u00e9, Mar\u00eda" <maria@example.org>', message_id="<latin@x>")
    message.set_content(text, charset="iso-8859-1", cte="quoted-printable")
    assert b"=E1" not in message.as_bytes() and b"se=F1or" in message.as_bytes()
    result = ingest(campaign, [maildir(tmp_path, [message])], now=NOW)
    assert (result.entries[0].status, result.entries[0].sender) == ("filed", "maria@example.org")
    assert (campaign / "turn-001" / "orders" / "maria.yaml").read_text(encoding="utf-8") == text


def test_a_reply_quoting_the_report_files_the_players_own_orders(campaign: Path, tmp_path: Path) -> None:
    report = (campaign / "turn-000" / "reports" / "david.txt").read_text()
    mine = order_text(campaign, "david", ["SID 5 steal Tony 10"])
    quoted = "\n".join("> " + line for line in report.splitlines())
    top_posted = f"{mine}\nThanks!\n\nOn Mon, 30 Nov 2026, GM wrote:\n{quoted}\n"
    outlook = f"Orders below.\n\n{mine}\n-----Original Message-----\nFrom: GM\n{report}"
    assert orders_in_text(top_posted).data.decode() == mine
    assert orders_in_text(outlook).data.decode() == mine
    messages = [mail("david@example.org", top_posted, message_id="<r1@x>", date="Mon, 30 Nov 2026 10:00:00 +0000"),
                mail("david@example.org", outlook, message_id="<r2@x>", date="Mon, 30 Nov 2026 11:00:00 +0000")]
    result = ingest(campaign, [maildir(tmp_path, messages)], now=NOW)
    assert [e.status for e in result.entries] == ["superseded", "filed"]
    assert (campaign / "turn-001" / "orders" / "david.yaml").read_text() == mine


def test_format_flowed_lines_are_rejoined(campaign: Path, tmp_path: Path) -> None:
    password = passwords(campaign)["tony"]
    # As Thunderbird sends it: long lines broken after a space, indented lines stuffed with one more space.
    wire = (
        "player: tony\nturn: 1\n"
        f"password: \"{password}\"\n"
        "orders:\n"
        "   - SID 1 steal David 8\n"
        "#  - {sid: 2, steal: {player: PLAYER, secret: N}}   # or: \n"
        "- {sid: 2, guard: N}\n"
        "   - SID 3 guard secret 6\n"
        "-- \nTony\n"
    )
    raw = (
        "From: tony@example.org\nTo: gm@example.org\nSubject: orders\nMessage-ID: <flow@x>\n"
        "Date: Mon, 30 Nov 2026 10:00:00 +0000\nMIME-Version: 1.0\n"
        "Content-Type: text/plain; charset=UTF-8; format=flowed\nContent-Transfer-Encoding: 7bit\n\n" + wire
    )
    source = tmp_path / "flowed.eml"
    source.write_bytes(raw.encode())
    assert ingest(campaign, [source], now=NOW).entries[0].status == "filed"
    filed = yaml.safe_load((campaign / "turn-001" / "orders" / "tony.yaml").read_text())
    assert filed["orders"] == ["SID 1 steal David 8", "SID 3 guard secret 6"]


def test_junk_and_failures_are_kept_with_the_reason(campaign: Path, tmp_path: Path) -> None:
    pw = passwords(campaign)
    auto = mail("tony@example.org", "I am on holiday.", message_id="<auto@x>")
    auto["Auto-Submitted"] = "auto-replied"
    messages = [
        mail("Tony <tony@example.org>", attachment=order_text(campaign, "tony", []), message_id="<good@x>"),
        mail("evil@example.net", order_text(campaign, "tony", ["SID 1 steal David 1"], password="guess"), message_id="<bad@x>",
             date="Mon, 30 Nov 2026 12:00:00 +0000"),
        mail("stranger@example.net", order_text(campaign, "tony", [], password=pw["tony"]).replace("tony", "bob"), message_id="<who@x>"),
        mail("david@example.org", "Can I have more time?", message_id="<chat@x>"),
        mail("spam@example.net", "Buy now!", message_id="<spam@x>"),
        auto,
        mail("sue@example.org", attachment="player: tony\nturn: [1\n", message_id="<yaml@x>"),
    ]
    source = maildir(tmp_path, messages)
    with open(source / "new" / "1800000000.junk", "wb") as handle:
        handle.write(b"\x00\xff not mail at all \xfe")
    result = ingest(campaign, [source], now=NOW)
    statuses = [(e.status, e.player) for e in result.entries]
    assert statuses[0] == ("filed", "tony")
    assert all(s == "rejected" for s, _ in statuses[1:]) and len(statuses) == 8
    reasons = [e.reason for e in result.entries[1:]]
    assert "password: is not this player's password" in reasons[0]
    assert "matches no player" in reasons[1] and "'bob'" in reasons[1]
    assert reasons[2].startswith("no orders") and result.entries[3].player == "david"
    assert "Auto-Submitted" in reasons[4] and "cannot be read: not valid YAML" in reasons[5]
    # the forged file did not replace Tony's good one
    assert yaml.safe_load((campaign / "turn-001" / "orders" / "tony.yaml").read_text())["orders"] == []
    for entry in result.entries[1:]:
        assert (campaign / entry.stored).is_file()
        assert (campaign / entry.stored).with_suffix(".txt").read_text().splitlines()[1] == entry.reason
    # replies: the good one and David's chat (a registered address); never the forger, a stranger, spam or the auto-reply
    acked = {e.message_id: e.acknowledged for e in result.entries}
    assert acked["<good@x>"] == ["tony@example.org"] and acked["<chat@x>"] == ["david@example.org"]
    assert acked["<bad@x>"] == acked["<who@x>"] == acked["<spam@x>"] == acked["<auto@x>"] == acked["<yaml@x>"] == []
    # David's chat holds neither orders nor a command: his registered address gets the commands (mail/commands.py)
    refusal = read(campaign / "mail" / "outbox" / "turn-001" / "reply-00004.eml").get_content()
    assert "neither orders nor a command" in refusal and pw["david"] not in refusal and "It holds no orders" in refusal
    assert sorted(p.name for p in (campaign / "mail" / "outbox" / "turn-001").iterdir()) == ["ack-00001.eml", "reply-00004.eml"]


def test_newest_by_date_wins_and_superseded_versions_are_kept(campaign: Path, tmp_path: Path) -> None:
    early = mail("tony@example.org", attachment=order_text(campaign, "tony", ["SID 1 steal David 1"]), message_id="<early@x>",
                 date="Mon, 30 Nov 2026 09:00:00 +0100")
    late = mail("tony@example.org", attachment=order_text(campaign, "tony", ["SID 2 steal David 2"]), message_id="<late@x>",
                date="Mon, 30 Nov 2026 09:30:00 +0100")
    later_same_date = mail("tony@example.org", attachment=order_text(campaign, "tony", ["SID 3 steal David 3"]), message_id="<tie@x>",
                           date="Mon, 30 Nov 2026 08:30:00 +0000")
    # arrival order: late, early (delayed in transit), then one with the same instant as late
    ingest(campaign, [maildir(tmp_path, [late, early])], now=NOW)
    orders = campaign / "turn-001" / "orders" / "tony.yaml"
    assert "SID 2" in orders.read_text()
    ingest(campaign, [maildir(tmp_path, [later_same_date], name="more")], now=NOW)
    assert "SID 3" in orders.read_text()
    index = {e.message_id: e for e in load_index(campaign)}
    assert index["<late@x>"].status == "superseded" and "<tie@x>" in index["<late@x>"].reason
    assert index["<early@x>"].status == "superseded" and index["<tie@x>"].status == "filed"
    kept = sorted(p.name for p in (campaign / "mail" / "turn-001" / "tony").glob("*.eml"))
    assert len(kept) == 3
    for entry in index.values():
        assert entry.message_id.encode() in (campaign / entry.stored).read_bytes()
    assert "NOT USED" in read(campaign / "mail" / "outbox" / "turn-001" / "ack-00002.eml").get_content()


def test_ingesting_twice_changes_nothing(campaign: Path, tmp_path: Path) -> None:
    messages = [
        mail("tony@example.org", attachment=order_text(campaign, "tony", []), message_id="<one@x>"),
        mail("nobody@example.net", "junk without an id"),
    ]
    del messages[1]["Message-ID"]
    box = tmp_path / "inbox.mbox"
    mbox = mailbox.mbox(box, create=True)
    for message in messages:
        mbox.add(mailbox.mboxMessage(message))
    mbox.close()
    first = ingest(campaign, [box], now=NOW)
    assert len(first.entries) == 2 and first.entries[1].key.startswith("sha256:")
    before = snapshot(campaign)
    again = ingest(campaign, [box], now=NOW)
    assert again.entries == [] and again.skipped == 2
    assert snapshot(campaign) == before


def test_eml_files_and_an_address_that_is_not_the_players(campaign: Path, tmp_path: Path) -> None:
    path = tmp_path / "from-phone.eml"
    path.write_bytes(mail("Tony on the road <t0ny@mobile.example>", order_text(campaign, "tony", []), message_id="<phone@x>").as_bytes())
    result = ingest(campaign, [path], now=NOW)
    assert result.entries[0].status == "filed"
    assert result.entries[0].acknowledged == ["tony@example.org"]  # the readings are private: never to the other address
    ack = email.message_from_bytes((campaign / "mail" / "outbox" / "turn-001" / "ack-00001.eml").read_bytes(), policy=email.policy.default)
    assert str(ack["To"]) == "Tony <tony@example.org>" and ack["Cc"] is None
    said = " ".join(ack.get_content().split())
    assert "came from t0ny@mobile.example" in said and "goes to the registered address only" in said


def test_without_passwords_the_registered_address_decides(tmp_path: Path) -> None:
    root = tmp_path / "forum"
    create(root, "secrets", [dict(p) for p in PLAYERS], seed="f", passwords=False, gm_email="gm@example.org")
    text = "player: tony\nturn: 1\norders: []\n"
    result = ingest(root, [maildir(tmp_path, [mail("x@example.net", text, message_id="<x@x>"), mail("tony@example.org", text, message_id="<t@x>")])], now=NOW)
    assert [e.status for e in result.entries] == ["rejected", "filed"]
    assert "no passwords to prove who sent it" in result.entries[0].reason


def test_orders_after_the_turn_are_refused_and_the_lock_is_respected(campaign: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    adjudicate(campaign, nmr=True, now=NOW, at=NOW)  # the moment the turn records (the judge's), which the late reply names
    late = mail("tony@example.org", attachment=order_text(campaign, "tony", []), message_id="<late@x>")
    source = maildir(tmp_path, [late])
    with locked(campaign):
        assert main(["ingest", str(campaign), str(source)]) == 1
    assert "busy" in capsys.readouterr().err
    assert not (campaign / "mail").exists()
    assert main(["ingest", str(campaign), str(source)]) == 0
    out = capsys.readouterr().out
    assert "rejected" in out and "late: turn 1 was adjudicated on Tuesday 1 December 2026, 12:00 UTC (UTC)" in out and "; the pending turn is 2" in out  # late, not a wrong turn number
    assert not (campaign / "turn-002" / "orders" / "tony.yaml").exists()
    assert (campaign / "turn-001" / "manifest.json").is_file()
    assert load_index(campaign)[0].status == "rejected"
    # trial 2: a fresh mail on the old form; the reply says what to do with it, not only that it is late
    reply = " ".join(read(campaign / "mail" / "outbox" / "turn-002" / "ack-00001.eml").get_content().split())
    assert "late: turn 1 was adjudicated" in reply
    assert "If these are your orders for turn 2, send them again with the line turn: 2 (the order form at the end of your latest report" in reply
    assert "No orders for turn 2 are filed for your seat yet." in reply and "Fix the problem" not in reply


def test_a_form_naming_nobody_from_a_seats_address_is_told_the_seat_id(campaign: Path, tmp_path: Path) -> None:
    """Trial 2: Łukasz wrote `player: lukasz` from the address of the seat `lukasz-nowak`; the reply names the seat."""
    text = order_text(campaign, "tony", []).replace("player: tony", "player: antonio")
    stranger = mail("antonio@example.net", text, message_id="<s@x>")
    result = ingest(campaign, [maildir(tmp_path, [mail("tony@example.org", text, message_id="<t@x>"), stranger])], now=NOW)
    assert [e.reason for e in result.entries] == ["matches no player: the order file names the player 'antonio', who is not in this campaign"] * 2
    assert [e.acknowledged for e in result.entries] == [["tony@example.org"], []]  # a stranger learns no seat id
    reply = " ".join(read(outbox(campaign, 1)).get_content().split())
    assert "You hold the seat tony: write player: tony in your order file and send it again." in reply


def test_two_attachments_are_ambiguous(campaign: Path) -> None:
    message = mail("tony@example.org", attachment=order_text(campaign, "tony", []), filename="a.yaml")
    message.add_attachment(b"player: tony\n", maintype="application", subtype="octet-stream", filename="b.yml")
    with pytest.raises(ValueError, match="2 order attachments"):
        find_orders(email.message_from_bytes(message.as_bytes(), policy=email.policy.default))


@pytest.fixture(scope="module")
def shared_campaign(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hostile") / "c"
    create(root, "secrets", [dict(p) for p in PLAYERS], seed="h", gm_email="gm@example.org")
    return root


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.one_of(
        st.binary(max_size=400),
        st.text(max_size=300).map(lambda body: f"From: tony@example.org\nSubject: x\n\n{body}".encode("utf-8", "surrogatepass")),
        st.lists(st.sampled_from(["player: tony", "turn: 1", "orders:", "  - SID 1 steal david 8", "```", "[code]", "> quoted",
                                  "-- ", "password: x", "orders: [", "\t- x", "player: [b]"]), max_size=12)
        .map(lambda lines: ("From: tony@example.org\nContent-Type: text/plain; format=flowed\n\n" + "\n".join(lines)).encode()),
    )
)
def test_no_message_can_break_an_ingest(shared_campaign: Path, tmp_path_factory: pytest.TempPathFactory, raw: bytes) -> None:
    path = tmp_path_factory.mktemp("one") / "m.eml"
    path.write_bytes(raw)
    kind = file_kind(path)  # by content, whatever the name: an mbox, one message, or blank
    result = ingest(shared_campaign, [path], now=NOW)
    if kind == "empty":
        assert result.entries == [] and not raw.strip()
    if kind == "message":
        assert len(result.entries) + result.skipped == 1
    for entry in result.entries:
        assert entry.status in ("filed", "superseded", "rejected", "answered")  # answered: a command (mail/commands.py)
        stored = (shared_campaign / entry.stored).read_bytes()
        assert stored == raw if kind == "message" else stored in raw  # an mbox's message: the bytes after its From line


# -- a file is told apart by its content, not its name ------------------------------------------------------


@pytest.mark.parametrize("name", ["single.msg", "orders.txt", "tony-orders"], ids=["msg", "txt", "no-extension"])
def test_a_saved_message_is_read_whatever_its_name(campaign: Path, tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    text = order_text(campaign, "tony", ["SID 1 steal David 8"])
    path = tmp_path / name
    path.write_bytes(mail("Tony <tony@example.org>", attachment=text, filename="tony.yaml", message_id="<saved@x>").as_bytes())
    assert main(["ingest", str(campaign), str(path)]) == 0
    assert "1 new message (1 filed, 0 rejected)" in capsys.readouterr().out  # trial 3: not "1 new messages"
    assert (campaign / "turn-001" / "orders" / "tony.yaml").read_text() == text
    [entry] = load_index(campaign)
    assert (entry.status, entry.player, entry.message_id) == ("filed", "tony", "<saved@x>")
    assert (campaign / entry.stored).read_bytes() == path.read_bytes()
    before = snapshot(campaign)
    assert main(["ingest", str(campaign), str(path)]) == 0
    assert "0 new messages (0 filed, 0 rejected), 1 already ingested." in capsys.readouterr().out
    assert snapshot(campaign) == before


@pytest.mark.parametrize("name", ["inbox", "saved-mail.txt", "orders.eml"])
def test_an_mbox_is_read_whatever_its_name(campaign: Path, tmp_path: Path, name: str) -> None:
    tony = order_text(campaign, "tony", [{"sid": 2, "guard": 3}])
    david = order_text(campaign, "david", ["SID 5 steal Tony 10"])
    box_path = tmp_path / "built.mbox"
    box = mailbox.mbox(box_path, create=True)
    box.add(mailbox.mboxMessage(mail("tony@example.org", attachment=tony, message_id="<mb1@x>")))
    box.add(mailbox.mboxMessage(mail("david@example.org", david, message_id="<mb2@x>")))
    box.close()
    path = tmp_path / name
    path.write_bytes(b"\n\n" + box_path.read_bytes())  # blank lines before the first From line, as some tools leave
    assert path.read_bytes().lstrip().startswith(b"From ")
    result = ingest(campaign, [path], now=NOW)
    assert [(e.status, e.player) for e in result.entries] == [("filed", "tony"), ("filed", "david")]
    assert (campaign / "turn-001" / "orders" / "tony.yaml").read_text() == tony
    assert (campaign / "turn-001" / "orders" / "david.yaml").read_text() == david
    before = snapshot(campaign)
    again = ingest(campaign, [path], now=NOW)
    assert again.entries == [] and again.skipped == 2
    assert snapshot(campaign) == before


def test_a_folder_of_saved_messages_is_read_by_content(campaign: Path, tmp_path: Path) -> None:
    folder = tmp_path / "saved"
    folder.mkdir()
    (folder / "a.msg").write_bytes(mail("tony@example.org", attachment=order_text(campaign, "tony", []), message_id="<f1@x>").as_bytes())
    (folder / "b").write_bytes(mail("david@example.org", order_text(campaign, "david", []), message_id="<f2@x>").as_bytes())
    (folder / ".hidden").write_bytes(mail("maria@example.org", order_text(campaign, "maria", []), message_id="<f3@x>").as_bytes())
    result = ingest(campaign, [folder], now=NOW)
    assert [(e.status, e.player) for e in result.entries] == [("filed", "tony"), ("filed", "david")]
    assert not (campaign / "turn-001" / "orders" / "maria.yaml").exists()


def test_a_file_that_is_not_mail_is_kept_with_the_reason(campaign: Path, tmp_path: Path) -> None:
    path = tmp_path / "scan.msg"
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00\x00 an Outlook file, not RFC 5322 \xff\xfe")
    result = ingest(campaign, [path], now=NOW)
    [entry] = result.entries
    assert (entry.status, entry.reason) == ("rejected", "not a readable email message")
    assert (campaign / entry.stored).read_bytes() == path.read_bytes()
    assert (campaign / entry.stored).with_suffix(".txt").read_text().splitlines() == [str(path), "not a readable email message"]
    assert entry.acknowledged == [] and not (campaign / "turn-001" / "orders" / "tony.yaml").exists()
    before = snapshot(campaign)
    assert ingest(campaign, [path], now=NOW).skipped == 1 and snapshot(campaign) == before


@pytest.mark.parametrize("content", [b"", b"\n \r\n\t\n"], ids=["empty", "blank-lines"])
def test_an_empty_file_is_named_in_a_note(campaign: Path, tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "orders.eml"
    path.write_bytes(content)
    before = snapshot(campaign)
    result = ingest(campaign, [path], now=NOW)
    assert result.entries == [] and result.skipped == 0
    assert f"{path} is empty (no message in it, not even headers); nothing was ingested from it" in result.notes
    assert snapshot(campaign) == before


def test_the_empty_file_note_reaches_the_gm(campaign: Path, tmp_path: Path) -> None:
    path = tmp_path / "spool"
    path.write_bytes(b"")
    repo = Path(__file__).resolve().parent.parent
    done = subprocess.run(
        [sys.executable, "-m", "adjudicator", "ingest", str(campaign), str(path)], check=False, cwd=repo, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert f"note: {path} is empty" in " ".join(done.stdout.split())
    assert "0 new messages" in done.stdout


# -- review fixes: the sender, attachment charsets, text that is not read, threading ------------------------------


def raw_mail(root: Path, sender: str, message_id: str, body: str, extra: str = "", date: str = "Mon, 30 Nov 2026 10:00:00 +0000") -> bytes:
    """A message written by hand, for headers the email package would not write as they come from real clients."""
    head = f"From: {sender}\nTo: gm@example.org\nSubject: orders\nDate: {date}\n{message_id and f'Message-ID: {message_id}' + chr(10)}{extra}"
    return (head + "\n" + body).encode("utf-8")


def outbox(root: Path, seq: int) -> Path:
    return root / "mail" / "outbox" / "turn-001" / f"ack-{seq:05d}.eml"


@pytest.mark.parametrize(
    ("sender", "address"),
    [
        ("Stark, Tony <tony@example.org>", "tony@example.org"),  # unquoted comma: two mailboxes
        ("=?utf-8?q?Mar=C3=ADa_Jos=C3=A9_<maria@example.org>?=", "maria@example.org"),
        ("Tony", ""),  # no address at all: the registered address still hears of it
        ("undisclosed-recipients:;", ""),
    ],
    ids=["unquoted-comma", "encoded-mailbox", "no-address", "empty-group"],
)
def test_every_filed_message_is_acknowledged_whatever_its_from_header(campaign: Path, tmp_path: Path, sender: str, address: str) -> None:
    path = tmp_path / "m.eml"
    path.write_bytes(raw_mail(campaign, sender, "<from@x>", order_text(campaign, "tony", [])))
    [entry] = ingest(campaign, [path], now=NOW).entries
    assert (entry.status, entry.sender) == ("filed", address)
    assert entry.acknowledged == ["tony@example.org"]
    ack = read(outbox(campaign, 1))
    assert [a.addr_spec for a in ack["To"].addresses] == ["tony@example.org"] and ack["Cc"] is None
    if not address:
        assert "came from an address that could not be read" in " ".join(ack.get_content().split())


def yaml_attachment(root: Path, data: bytes, charset: str | None, message_id: str) -> EmailMessage:
    message = mail("Tony <tony@example.org>", message_id=message_id)
    params = {"charset": charset} if charset else {}
    message.add_attachment(data, maintype="application", subtype="x-yaml", filename="tony.yaml", params=params)
    return message


@pytest.mark.parametrize("charset", ["iso-8859-1", "utf-16", "windows-1252", "us-ascii", "utf-8"])
def test_an_attachment_is_read_in_the_charset_it_declares(campaign: Path, tmp_path: Path, charset: str) -> None:
    text = order_text(campaign, "tony", []) + ("# María José\n" if charset != "us-ascii" else "# Maria Jose\n")
    message = yaml_attachment(campaign, text.encode(charset), charset, "<cs@x>")
    [entry] = ingest(campaign, [maildir(tmp_path, [message])], now=NOW).entries
    assert (entry.status, entry.found) == ("filed", "attachment tony.yaml"), entry.reason
    assert (campaign / "turn-001" / "orders" / "tony.yaml").read_bytes() == text.encode("utf-8")


@pytest.mark.parametrize(
    ("charset", "said"),
    [
        (None, "the attached file is not UTF-8 text (it declares no charset and the first bad byte is at position "),
        ("utf-8", "the attached file is not UTF-8 text (it is labelled utf-8 but the first bad byte is at position "),
        ("x-klingon", "the attached file's charset 'x-klingon' is unknown"),
    ],
)
def test_an_attachment_that_cannot_be_read_says_what_to_do(campaign: Path, tmp_path: Path, charset: str | None, said: str) -> None:
    text = order_text(campaign, "tony", []) + "# María José\n"
    [entry] = ingest(campaign, [maildir(tmp_path, [yaml_attachment(campaign, text.encode("iso-8859-1"), charset, "<bad-cs@x>")])], now=NOW).entries
    assert entry.status == "rejected" and said in entry.reason and entry.reason.endswith("save it as UTF-8 and send it again")
    assert entry.acknowledged == ["tony@example.org"] and said in " ".join(read(outbox(campaign, 1)).get_content().split())


def test_orders_below_a_quote_or_forward_marker_are_refused_with_the_reason(campaign: Path, tmp_path: Path) -> None:
    mine = order_text(campaign, "david", ["SID 5 steal Tony 10"])
    earlier = order_text(campaign, "david", ["SID 1 steal Tony 1"])
    outlook = f"-----Original Message-----\nFrom: GM\n\n{mine}"
    gmail = f"Did you get these?\n\n---------- Forwarded message ---------\nFrom: David <david@example.org>\n\n{earlier}"
    apple = f"See below.\n\nBegin forwarded message:\n\n{earlier}"
    quoted = "Same as before.\n\n" + "\n".join("> " + line for line in earlier.splitlines()) + "\n"
    html = "<html><body><p>" + mine.replace("\n", "<br>") + "</p></body></html>"
    alternative = mail("david@example.org", "My orders are in the HTML version.\n", message_id="<alt@x>")
    alternative.add_alternative(html, subtype="html")
    messages = [mail("david@example.org", body, message_id=f"<q{n}@x>") for n, body in enumerate([outlook, gmail, apple, quoted])]
    result = ingest(campaign, [maildir(tmp_path, [*messages, alternative])], now=NOW)
    assert [e.status for e in result.entries] == ["rejected"] * 5
    assert not (campaign / "turn-001" / "orders" / "david.yaml").exists()
    reasons = [e.reason for e in result.entries]
    advice = "put your orders above the quoted text, or attach them as a .yaml file)"
    for reason, marker in zip(reasons, ["-----Original Message-----", "---------- Forwarded message ---------",
                                        "Begin forwarded message:"]):
        assert f"a 'player:' line was found below the quote, forward or signature marker '{marker}'" in reason and reason.endswith(advice)
    assert "a 'player:' line was found only in quoted lines starting with '>'" in reasons[3] and reasons[3].endswith(advice)
    assert "the message's plain-text part was read, and it has no order form, while its HTML part has one" in reasons[4]
    assert all(e.acknowledged == ["david@example.org"] for e in result.entries)
    with pytest.raises(ValueError, match=r"in the message's own text$"):
        orders_in_text("Can I have more time?\n-- \nDavid\n")


def test_orders_typed_into_the_quoted_form_are_answered_with_the_fix_first(campaign: Path, tmp_path: Path) -> None:
    """Trial 2: a Gmail reply with the form filled in inside the `>`-quoted welcome got 'not understood',
    with the fix at the end of a long parenthesis whose marker was cut mid-address."""
    form = order_text(campaign, "david", ["SID 5 steal Tony 10"])
    attribution = "On Wed, Dec 2, 2026 at 12:10 AM Spies Judge <judge@spies.example.org> wrote:"
    body = f"Here you go, I filled in the form below!\n\n{attribution}\n\n> Welcome, David.\n>\n" + "".join(f"> {line}\n" for line in form.splitlines())
    outlook = f"Here they are.\n\nFrom: Spies Judge <judge@spies.example.org>\nSent: Wednesday, December 2, 2026 00:10\nTo: David\n\n{form}"
    messages = [mail("david@example.org", text, message_id=f"<in{n}@x>") for n, text in enumerate([body, outlook])]
    result = ingest(campaign, [maildir(tmp_path, messages)], now=NOW)
    assert [e.status for e in result.entries] == ["rejected"] * 2
    assert not any((campaign / "turn-001" / "orders").iterdir())
    assert "a 'player:' line was found only in quoted lines starting with '>'" in result.entries[0].reason
    quoted, below = (read(campaign / "mail" / "outbox" / "turn-001" / f"reply-{n:05d}.eml") for n in (1, 2))
    assert quoted["Subject"] == "[Spies] turn 1: your orders were not read"
    lines = quoted.get_content().splitlines()
    assert lines[0] == "Spies (Sid's Secrets): write your orders above the quoted text, not inside the '>' lines."
    assert lines[2].startswith("Your order form is inside the quoted text (the lines starting with '>'), and quoted lines are not read")
    assert "judge@spies.examp" not in quoted.get_content() and "neither orders nor a command" not in quoted.get_content()
    assert below.get_content().splitlines()[0] == (
        "Spies (Sid's Secrets): write your orders above the line 'From: Spies Judge <judge@spies.example.org>', not below it.")


def test_orders_below_a_quote_marked_with_gt_are_read_bottom_posting(campaign: Path, tmp_path: Path) -> None:
    """Issue 25 item 13: a form typed below the `>`-quoted report has one reading; the quoted form is not it."""
    mine = order_text(campaign, "david", ["SID 5 steal Tony 10"])
    bottom = f"On Mon, 30 Nov 2026, GM wrote:\n> Your report\n> player: david\n> orders:\n\n{mine}\n-- \nDavid\n"
    found = orders_in_text(bottom)
    assert b"SID 5 steal Tony 10" in found.data and found.where == "the body"
    result = ingest(campaign, [maildir(tmp_path, [mail("david@example.org", bottom, message_id="<b1@x>")])], now=NOW)
    assert [e.status for e in result.entries] == ["filed"]


ATTRIBUTIONS = [
    "W dniu 2 gru 2026 o 10:00 Spies Judge <judge@spies.example.org> pisze:",
    "W dniu śr., 2 gru 2026 o 10:00 Spies Judge <judge@spies.example.org> napisał(a):",
    "Am Mi., 2. Dez. 2026 um 10:00 Uhr schrieb Spies Judge <judge@spies.example.org>:",
    "Le mer. 2 déc. 2026 à 10:00, Spies Judge <judge@spies.example.org> a écrit :",
    "El mié, 2 dic 2026 a las 10:00, Spies Judge (<judge@spies.example.org>) escribió:",
    "Op wo 2 dec. 2026 om 10:00 schreef Spies Judge <judge@spies.example.org>:",
]


@pytest.mark.parametrize("attribution", ATTRIBUTIONS)
def test_reply_headers_in_other_languages_start_the_quote(campaign: Path, tmp_path: Path, attribution: str) -> None:
    """Trial 2 item 4: a Polish, German, French, Spanish or Dutch mail program's reply header starts the
    quoted part as "On ... wrote:" does. Under it without `>` (an HTML reply made text) the quoted report's
    empty form is not the player's orders (a question must not replace filed orders); with `>`, the
    player's orders typed below the quote are read."""
    empty = order_text(campaign, "david", [])
    question = f"When is the deadline exactly?\n\n{attribution}\n\n{empty}"
    with pytest.raises(ValueError, match="below the quote"):
        orders_in_text(question)
    mine = order_text(campaign, "david", ["SID 5 steal Tony 10"])
    bottom = f"{attribution}\n> Results of turn 1\n> player: david\n\n{mine}"
    assert orders_in_text(bottom).data.decode() == mine
    result = ingest(campaign, [maildir(tmp_path, [mail("david@example.org", question, message_id="<q1@x>")])], now=NOW)
    assert [e.status for e in result.entries] == ["rejected"]
    assert not (campaign / "turn-001" / "orders" / "david.yaml").exists()
    answer = read(campaign / "mail" / "outbox" / "turn-001" / "reply-00001.eml").get_content()
    assert f"write your orders above the line '{attribution[:20]}" in answer


@pytest.mark.parametrize("block", [
    "From: GM <gm@example.org>\nSent: Monday, November 30, 2026 10:00 AM\nTo: David <david@example.org>\nSubject: [spies] turn 1\n",
    "________________________________\nFrom: GM <gm@example.org>\nSent: Monday, November 30, 2026 10:00\nTo: David\n",
    "*From:* GM <gm@example.org>\n*Sent:* Monday, November 30, 2026\n*To:* David\n",
    "Von: GM <gm@example.org>\nGesendet: Montag, 30. November 2026\nAn: David\n",
])
def test_an_outlook_quoted_report_is_a_quote_not_orders(campaign: Path, tmp_path: Path, block: str) -> None:
    """Issue 26 item 3: Outlook quotes the report under a From:/Sent:/To: block without `>`; its empty
    order form is not the player's orders (a question must not replace filed orders)."""
    form = order_text(campaign, "david", [])
    body = f"When is the deadline exactly?\n\n{block}\n{form}"
    with pytest.raises(ValueError, match="below the quote"):
        orders_in_text(body)
    result = ingest(campaign, [maildir(tmp_path, [mail("david@example.org", body, message_id="<o1@x>")])], now=NOW)
    assert [e.status for e in result.entries] == ["rejected"]
    assert not (campaign / "turn-001" / "orders" / "david.yaml").exists()


def test_acknowledgements_thread_under_the_message(campaign: Path, tmp_path: Path) -> None:
    body = order_text(campaign, "tony", [])
    long_id = "<" + "a" * 90 + "@example.org>"
    cases = [
        ("<m4@x>", "References: <r1@x> <r2@x>\n", "<m4@x>", "<r1@x> <r2@x> <m4@x>"),
        ("<m5@x>", "In-Reply-To: <p@x>\n", "<m5@x>", "<p@x> <m5@x>"),  # no References: the parent's In-Reply-To
        (long_id, "", long_id, long_id),
        ("<a@b> (sent by Tony's phone)", "", "<a@b>", "<a@b>"),
        ("<x y@z> (comment)", "References: <r1@x>\n", None, None),
        ("<mar\u00eda@example.org>", "", None, None),
        ("", "References: <r1@x>\n", None, None),
    ]
    for n, (message_id, extra, reply, references) in enumerate(cases):
        (tmp_path / f"{n}.eml").write_bytes(raw_mail(campaign, "tony@example.org", message_id, body, extra, date=f"Mon, 30 Nov 2026 1{n}:00:00 +0000"))
    result = ingest(campaign, [tmp_path / f"{n}.eml" for n in range(len(cases))], now=NOW)
    assert [e.status for e in result.entries] == ["superseded"] * (len(cases) - 1) + ["filed"]  # each dated an hour later
    for n, (_, _, reply, references) in enumerate(cases, start=1):
        raw = outbox(campaign, n).read_bytes()
        head = raw.split(b"\n\n", 1)[0]
        assert b"=?" not in head.replace(b"Subject:", b"") and head.isascii()
        ack = read(outbox(campaign, n))
        assert ack["In-Reply-To"] == reply and ack["References"] == references
        if reply:
            assert f"In-Reply-To: {reply}\n".encode() in head  # one line, as written
    before = snapshot(campaign)
    assert ingest(campaign, [tmp_path / f"{n}.eml" for n in range(len(cases))], now=NOW).skipped == len(cases)
    assert snapshot(campaign) == before


# -- issue 15 and 16: seat takeover, collisions, dates, forms the reader missed, attachments, line numbers ----------


def no_password_campaign(tmp_path: Path) -> Path:
    root = tmp_path / "forum"
    create(root, "secrets", [dict(p) for p in PLAYERS], seed="f", passwords=False, gm_email="gm@example.org", name="Forum")
    return root


def test_reply_to_and_a_future_date_cannot_take_a_seat(tmp_path: Path) -> None:
    """Regression (issue 15, 1): `From: David` with `Reply-To: thief@...` and a Date in 2031 got David's readings
    (his whole hand) mailed to the thief, and David's own later message was "superseded"."""
    root = no_password_campaign(tmp_path)
    forged = raw_mail(root, "David <david@example.org>", "<forged@x>", "player: david\nturn: 1\norders: ['SID 1 steal Tony 1']\n",
                      "Reply-To: thief@example.net\n", date="Fri, 31 Jan 2031 10:00:00 +0000")
    own = raw_mail(root, "david@example.org", "<own@x>", "player: david\nturn: 1\norders: []\n", date="Tue, 01 Dec 2026 11:00:00 +0000")
    (tmp_path / "1.eml").write_bytes(forged)
    (tmp_path / "2.eml").write_bytes(own)
    first, second = ingest(root, [tmp_path / "1.eml", tmp_path / "2.eml"], now=NOW).entries
    assert first.date is None and "is in the future" in first.notes[0]
    assert (first.status, second.status) == ("superseded", "filed")
    assert yaml.safe_load((root / "turn-001" / "orders" / "david.yaml").read_text())["orders"] == []
    for seq in (1, 2):
        ack = read(root / "mail" / "outbox" / "turn-001" / f"ack-{seq:05d}.eml")
        assert [a.addr_spec for a in ack["To"].addresses] == ["david@example.org"] and ack["Cc"] is None
        assert b"thief" not in outbox(root, seq).read_bytes()
        assert "password" not in ack.get_content()  # this campaign has none: nothing may claim one was right
    assert first.acknowledged == second.acknowledged == ["david@example.org"]


def test_a_date_past_the_end_of_time_is_no_readable_date(campaign: Path, tmp_path: Path) -> None:
    """Regression (issue 15, 10): year 9999 at -1200 overflowed, and valid orders were "not a readable email message"."""
    path = tmp_path / "m.eml"
    path.write_bytes(raw_mail(campaign, "tony@example.org", "<y9999@x>", order_text(campaign, "tony", []), date="Fri, 31 Dec 9999 23:59:59 -1200"))
    [entry] = ingest(campaign, [path], now=NOW).entries
    assert (entry.status, entry.date) == ("filed", None) and "cannot be read" in entry.notes[0]
    assert "no Date that counts" in " ".join(read(outbox(campaign, 1)).get_content().split())


def test_a_different_message_under_a_known_message_id_is_read(campaign: Path, tmp_path: Path) -> None:
    """Regression (issue 15, 9): junk first took the Message-ID, and the real orders under it were "already ingested"."""
    (tmp_path / "1.eml").write_bytes(raw_mail(campaign, "spam@example.net", "<same@x>", "Buy now!\n"))
    (tmp_path / "2.eml").write_bytes(raw_mail(campaign, "tony@example.org", "<same@x>", order_text(campaign, "tony", [])))
    result = ingest(campaign, [tmp_path / "1.eml", tmp_path / "2.eml"], now=NOW)
    assert [e.status for e in result.entries] == ["rejected", "filed"] and result.skipped == 0
    assert "already used by message 1" in result.entries[1].notes[0]
    assert ingest(campaign, [tmp_path / "1.eml", tmp_path / "2.eml"], now=NOW).skipped == 2  # the very same bytes: seen


def test_a_reply_that_cannot_be_built_does_not_stop_the_message_being_recorded(campaign: Path, tmp_path: Path) -> None:
    """Regression (issue 15, 7): a name with a line break made building the acknowledgement fail after the
    order file was written, before the message was recorded, at every run again. Names are now refused
    when campaign.yaml is read; a hand-edited GM address with a line break still breaks the reply."""
    settings_file = campaign / "campaign.yaml"
    config = yaml.safe_load(settings_file.read_text())
    config["gm_email"] = "gm@example.org\nBcc: victim@example.net"
    settings_file.write_text(yaml.safe_dump(config, allow_unicode=True))
    path = tmp_path / "m.eml"
    path.write_bytes(raw_mail(campaign, "tony@example.org", "<evil@x>", order_text(campaign, "tony", [])))
    [entry] = ingest(campaign, [path], now=NOW).entries
    assert entry.status == "filed" and entry.acknowledged == []
    assert "no reply was written" in entry.notes[0] and "line break" in entry.notes[0]
    assert [e.message_id for e in load_index(campaign)] == ["<evil@x>"]
    assert not (campaign / "mail" / "outbox").exists()
    assert ingest(campaign, [path], now=NOW).skipped == 1


def test_an_indented_order_form_and_invisible_characters_before_it_are_read(campaign: Path, tmp_path: Path) -> None:
    """Regression (issue 15, 13): an indented form was "found only in quoted lines"; a BOM or a zero-width
    space before `player:` hid the form."""
    text = order_text(campaign, "tony", ["SID 1 steal David 8"])
    bodies = [
        "Hi GM,\n\n" + "".join("    " + line + "\n" for line in text.splitlines()) + "\nThanks\n",
        "\ufeff" + text,
        "Here:\n\u200b" + text,
    ]
    messages = [mail("tony@example.org", body, message_id=f"<form{n}@x>", date=f"Mon, 30 Nov 2026 1{n}:00:00 +0000") for n, body in enumerate(bodies)]
    result = ingest(campaign, [maildir(tmp_path, messages)], now=NOW)
    assert [e.status for e in result.entries] == ["superseded", "superseded", "filed"], [e.reason for e in result.entries]
    for entry in result.entries:
        assert yaml.safe_load((campaign / entry.stored).with_suffix(".yaml").read_text())["orders"] == ["SID 1 steal David 8"]


def test_a_multipart_message_without_a_boundary_is_read(campaign: Path, tmp_path: Path) -> None:
    """Regression (issue 15, 13): `multipart/mixed` with no boundary was "has no text"."""
    path = tmp_path / "m.eml"
    path.write_bytes(raw_mail(campaign, "tony@example.org", "<nob@x>", order_text(campaign, "tony", []),
                              "MIME-Version: 1.0\nContent-Type: multipart/mixed\n"))
    assert ingest(campaign, [path], now=NOW).entries[0].status == "filed"


def test_a_named_pipe_as_source_is_named_for_what_it_is(campaign: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Regression (issue 15, 13): `ingest DIR FIFO` said "no such file"."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert main(["ingest", str(campaign), str(fifo)]) == 1
    err = capsys.readouterr().err
    assert "is a named pipe (FIFO), not a mailbox" in err and "no such file" not in err


@pytest.mark.parametrize(("filename", "maintype", "subtype"), [("orders.txt", "text", "plain"), ("ORDERS.TXT", "application", "octet-stream"),
                                                              ("notes", "text", "plain")])
def test_a_text_attachment_holding_an_order_file_is_read(campaign: Path, tmp_path: Path, filename: str, maintype: str, subtype: str) -> None:
    """Regression (issue 16, 7): a .txt attachment with a whole order file was refused as "no .yaml attachment"."""
    message = mail("tony@example.org", "See the attachment.\n", message_id="<txt@x>")
    message.add_attachment(order_text(campaign, "tony", []).encode(), maintype=maintype, subtype=subtype, filename=filename)
    [entry] = ingest(campaign, [maildir(tmp_path, [message])], now=NOW).entries
    assert (entry.status, entry.found) == ("filed", f"attachment {filename}")


def test_an_attachment_that_is_not_read_is_named(campaign: Path, tmp_path: Path) -> None:
    message = mail("tony@example.org", "See the attachments.\n", message_id="<pics@x>")
    message.add_attachment(b"\x89PNG...", maintype="image", subtype="png", filename="orders.png")
    message.add_attachment(b"just my notes\n", maintype="text", subtype="plain", filename="notes.txt")
    [entry] = ingest(campaign, [maildir(tmp_path, [message])], now=NOW).entries
    assert entry.status == "rejected"
    assert "the attachment orders.png (image/png) is not text and was not read" in entry.reason
    assert "the attachment notes.txt holds no order form" in entry.reason


def test_a_yaml_error_names_the_line_of_the_message_and_quotes_it(campaign: Path, tmp_path: Path) -> None:
    """Regression (issue 16, 6): the line was counted from the `player:` line and never quoted back."""
    pw = passwords(campaign)["tony"]
    body = f"Hello GM,\n\nmy orders:\n\nplayer: tony\nturn: 1\npassword: \"{pw}\"\norders:\n  - [SID 1 steal David 8\n\nTony\n"
    [entry] = ingest(campaign, [maildir(tmp_path, [mail("tony@example.org", body, message_id="<yerr@x>")])], now=NOW).entries
    assert entry.status == "rejected"
    line = re.search(r"line (\d+) of your message", entry.reason)
    assert line, entry.reason
    assert line.group(1) == "9" and "Line 9 reads:   - [SID 1 steal David 8" in entry.reason
    assert "that line reads" not in entry.reason  # quoted once (a field trial's replies said it twice)


def test_a_forged_from_with_a_wrong_password_tells_the_real_player_it_may_not_be_theirs(campaign: Path, tmp_path: Path) -> None:
    """Issue 24 item 11: the refusal reaches the seat's registered address (the From says so); since
    the From proves nothing, it says the player need do nothing if they did not send it."""
    forged = mail("tony@example.org", attachment=order_text(campaign, "tony", ["SID 1 steal David 1"], password="guess"), message_id="<forged@x>")
    [entry] = ingest(campaign, [maildir(tmp_path, [forged])], now=NOW).entries
    assert entry.status == "rejected" and entry.acknowledged == ["tony@example.org"]
    [path] = (campaign / "mail" / "outbox" / "turn-001").iterdir()
    text = " ".join(read(path).get_content().split())
    assert "If you did not send this message, someone else wrote it in your name" in text
    assert not (campaign / "turn-001" / "orders" / "tony.yaml").exists()
