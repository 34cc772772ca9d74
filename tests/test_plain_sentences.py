"""A mail of plain sentences with no form, from the seat's registered address (with its password: line),
is that seat's orders for the pending turn (issue 25 item 12, design 17)."""

from __future__ import annotations

import email
import email.policy
from pathlib import Path

import pytest
import yaml
from reliability_kit import NOW
from test_ingest import campaign, mail, maildir, passwords  # noqa: F401 - the fixture and the helpers

from adjudicator.campaign.create import create
from adjudicator.cli import main
from adjudicator.mail.ingest import ingest


def _reply(root: Path) -> email.message.EmailMessage:
    [path] = sorted((root / "mail" / "outbox").rglob("*.eml"))
    return email.message_from_bytes(path.read_bytes(), policy=email.policy.default)


def _ack(root: Path) -> str:
    return _reply(root).get_content()


def test_sentences_from_the_registered_address_are_the_seats_orders(campaign: Path, tmp_path: Path) -> None:  # noqa: F811
    body = f"Hi GM,\n\nSID 1 steals David's secret 8.\nSID 3 guards secret 6\n\npassword: {passwords(campaign)['tony']}\n\nThanks!\n"
    entries = ingest(campaign, [maildir(tmp_path, [mail("Tony <tony@example.org>", body, subject="my move", message_id="<p1@x>")])], now=NOW).entries
    assert [e.status for e in entries] == ["filed"], entries[0].reason
    filed = yaml.safe_load((campaign / "turn-001" / "orders" / "tony.yaml").read_text())
    assert filed["orders"] == ["SID 1 steals David's secret 8.", "SID 3 guards secret 6"]
    ack = _ack(campaign)
    assert "SID 1 tries to steal David's secret 8" in ack and "SID 3 guards your secret 6" in ack
    assert "Hi GM" not in ack and "Thanks" not in ack  # plainly not orders: not listed as if they were


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


def _quoted_report(root: Path, player: str) -> str:
    """The player's opening report (its order form's `player:` line with it) as a mail program quotes it."""
    report = (root / "turn-000" / "reports" / f"{player}.txt").read_text()
    return "On Mon, 30 Nov 2026, GM wrote:\n" + "\n".join("> " + line for line in report.splitlines()) + "\n"


def test_sentences_above_a_quoted_report_are_answered_about_what_they_say(campaign: Path, tmp_path: Path) -> None:  # noqa: F811
    # A trial's player replied to the report with his orders in his own words above the quote, which holds
    # the form's `player:` line: the reply is about his lines, not about a form in the quote.
    body = (f"SID 2 goes after whatever David hides best\npassword: {passwords(campaign)['tony']}\n\n"
            f"Sent from my Android\n\n{_quoted_report(campaign, 'tony')}")
    entries = ingest(campaign, [maildir(tmp_path, [mail("Tony <tony@example.org>", body, subject="Re: [Spies] Sid's Secrets: welcome, Tony", message_id="<q1@x>")])],
                     now=NOW).entries
    assert [e.status for e in entries] == ["rejected"]
    assert not (campaign / "turn-001" / "orders" / "tony.yaml").exists()
    reply = _reply(campaign)
    text = reply.get_content()
    assert "quoted" not in text and "'>'" not in text
    assert "SID 2 goes after whatever David hides best\n      -> VOID: not understood: write 'SID <rank> steal" in text
    assert "Android" not in text  # the phone's signature is not an order the player meant
    assert "No orders of yours are filed for turn 1" in text and "none of your SIDs is placed this turn (SECRETS-8)" in text
    assert "not filed" in reply["Subject"]


def test_every_sentence_meant_as_an_order_is_answered_and_the_subject_says_some_are_void(campaign: Path, tmp_path: Path) -> None:  # noqa: F811
    # As a trial's player wrote them: one readable, one not understood, and SID 2 given twice (each alone reads).
    body = ("SID 2 steals David's 8\nSID 4 goes for Maria's 9\nSID 3 guards secret 6\nsid 2 steal maria 10\n"
            f"password: {passwords(campaign)['tony']}\nThanks!\nSent from my iPhone\n")
    entries = ingest(campaign, [maildir(tmp_path, [mail("Tony <tony@example.org>", body, subject="turn 1", message_id="<v1@x>")])],
                     now=NOW).entries
    assert [e.status for e in entries] == ["filed"], entries[0].reason
    filed = yaml.safe_load((campaign / "turn-001" / "orders" / "tony.yaml").read_text())
    assert filed["orders"] == ["SID 2 steals David's 8", "SID 4 goes for Maria's 9", "SID 3 guards secret 6", "sid 2 steal maria 10"]
    reply = _reply(campaign)
    assert reply["Subject"].endswith("orders received from Tony, 3 of 4 orders VOID")
    text = reply.get_content()
    assert text.count("SID 2 was given 2 orders this turn, so none of them stands") == 2
    assert "SID 4 goes for Maria's 9\n      -> VOID: not understood: write 'SID <rank> steal" in text
    assert text.count("No SID is placed in its place (SECRETS-8)") == 3
    assert "SID 3 guards your secret 6" in text
    assert "Thanks" not in text and "iPhone" not in text


def test_lines_read_but_void_for_a_detail_are_not_said_to_read_as_no_order(campaign: Path, tmp_path: Path) -> None:  # noqa: F811
    # A trial's player named players of another table: the lines are orders, void for the name; the summary
    # says none could be filed, not that none reads as an order, and each line says why.
    body = f"password: {passwords(campaign)['tony']}\nSID 3 steal kostas 10\nSID 6 steal zoe 9\n"
    [entry] = ingest(campaign, [maildir(tmp_path, [mail("Tony <tony@example.org>", body, subject="turn 1", message_id="<k1@x>")])], now=NOW).entries
    assert entry.status == "rejected" and entry.reason.startswith("no line of your mail could be filed as an order (each line is answered below with why)")
    text = _ack(campaign)
    assert "reads as an order" not in text and "there is no player called 'kostas'" in text and "there is no player called 'zoe'" in text


def test_pbem_check_reads_a_file_of_sentences_as_the_judge_reads_the_mail(campaign: Path, tmp_path: Path,  # noqa: F811
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    # Design 17: the same reading for a mail body and `pbem check FILE`.
    body = f"Hi GM,\nSID 1 steals David's secret 8\nsid 9 guards 3\npassword: {passwords(campaign)['tony']}\nThanks!\n"
    path = tmp_path / "tony.txt"
    path.write_text(body, encoding="utf-8")
    assert main(["check", str(path), "--campaign", str(campaign)]) == 1
    out = capsys.readouterr().out
    assert "read for tony, turn 1; 1 of its 2 orders void" in out, out
    assert "SID 1 tries to steal David's secret 8" in out and "there is no SID 9" in out and "Thanks" not in out
    entries = ingest(campaign, [maildir(tmp_path, [mail("Tony <tony@example.org>", body, subject="my move", message_id="<c1@x>")])],
                     now=NOW).entries
    filed = yaml.safe_load((campaign / "turn-001" / "orders" / "tony.yaml").read_text())
    assert entries[0].status == "filed" and filed["orders"] == ["SID 1 steals David's secret 8", "sid 9 guards 3"]


def test_the_check_command_reads_sentences_and_files_nothing(campaign: Path, tmp_path: Path) -> None:  # noqa: F811
    body = f"SID 1 steals David's secret 8\nsid 9 guards 3\npassword: {passwords(campaign)['tony']}\n"
    [entry] = ingest(campaign, [maildir(tmp_path, [mail("Tony <tony@example.org>", body, subject="check", message_id="<c2@x>")])],
                     now=NOW).entries
    assert entry.status == "answered" and not (campaign / "turn-001" / "orders" / "tony.yaml").exists()
    text = _ack(campaign)
    assert "SID 1 tries to steal David's secret 8" in text and "there is no SID 9" in text and "Nothing was filed" in text


@pytest.fixture
def kids(tmp_path: Path) -> Path:
    root = tmp_path / "kids"
    players = [{"id": n, "name": n.title(), "email": f"{n}@example.org"} for n in ("ann", "bob", "cat")]
    create(root, "hidekids", players, seed="mail", gm_email="GM <gm@example.org>", name="Kids")
    return root  # Ann is the wolf (wolf: first); Bob and Cat are kids


@pytest.mark.parametrize(("written", "place"), [("Hide me under the bed please.", "bed"), ("Hide under the tub.", "tub"),
                                                ("I'll hide in the bathtub.", "tub"), ("I will hide behind the door, please", "door")])
def test_a_kids_sentence_with_punctuation_or_politeness_is_filed(kids: Path, tmp_path: Path, written: str, place: str) -> None:
    """Trial 5: 'Hide me under the bed please.' was refused whole while 'hide me under the bed' was filed."""
    body = f"{written}\npassword: {passwords(kids)['bob']}\n\nBob\n"
    [entry] = ingest(kids, [maildir(tmp_path, [mail("Bob <bob@example.org>", body, subject="my hiding place", message_id="<k1@x>")])], now=NOW).entries
    assert entry.status == "filed", entry.reason
    assert yaml.safe_load((kids / "turn-001" / "orders" / "bob.yaml").read_text())["orders"] == [written]
    assert f"you hide {'behind' if place == 'door' else 'under'} the {place}" in _ack(kids)


@pytest.mark.parametrize(("written", "place"), [("I'm back, sorry about that.\nhide behind the door", "door"),
                                                ("Hi all, I'm back for a bit!\nhide under the bed", "bed"),
                                                ("I'm back, hide under the tub", "tub"), ("Hi all, hide behind the door", "door")])
def test_a_returning_kids_greeting_is_no_void_order_and_an_order_after_it_is_read(kids: Path, tmp_path: Path, written: str, place: str) -> None:
    """Trial 9: "I'm back, sorry about that." and "Hi all, I'm back for a bit!" were answered as VOID hiding places
    ("1 of 2 orders VOID" in the Subject) to the very players coming back."""
    body = f"{written}\npassword: {passwords(kids)['bob']}\n"
    [entry] = ingest(kids, [maildir(tmp_path, [mail("Bob <bob@example.org>", body, subject="back", message_id="<k9@x>")])], now=NOW).entries
    assert entry.status == "filed", entry.reason
    assert len(yaml.safe_load((kids / "turn-001" / "orders" / "bob.yaml").read_text())["orders"]) == 1
    text = _ack(kids)
    assert "VOID" not in text and f"you hide {'behind' if place == 'door' else 'under'} the {place}" in text


ASIDES = ["Quick one from the train.", "Sorry, on my phone.", "Here goes:", "Here we go!", "Sent from the bus, sorry", "In a rush today."]
"""Lines about the mail itself, before the orders (trial 9: "Quick one from the train." was answered VOID)."""


@pytest.mark.parametrize("aside", ASIDES)
def test_an_aside_before_a_kids_order_is_no_void_order(kids: Path, tmp_path: Path, aside: str) -> None:
    body = f"{aside}\nhide under the bed\npassword: {passwords(kids)['bob']}\n"
    [entry] = ingest(kids, [maildir(tmp_path, [mail("Bob <bob@example.org>", body, subject="turn 1", message_id="<k10@x>")])], now=NOW).entries
    assert entry.status == "filed", entry.reason
    assert yaml.safe_load((kids / "turn-001" / "orders" / "bob.yaml").read_text())["orders"] == ["hide under the bed"]
    assert "VOID" not in _ack(kids) and "VOID" not in str(_reply(kids)["Subject"])


@pytest.mark.parametrize("aside", ASIDES)
def test_an_aside_among_secrets_orders_is_left_out_and_a_mistyped_order_still_answered(campaign: Path, tmp_path: Path, aside: str) -> None:  # noqa: F811
    body = f"{aside}\nSID 1 steals David's secret 8.\nSID 2 stael David 3\npassword: {passwords(campaign)['tony']}\n"
    [entry] = ingest(campaign, [maildir(tmp_path, [mail("Tony <tony@example.org>", body, message_id="<s10@x>")])], now=NOW).entries
    assert entry.status == "filed", entry.reason
    filed = yaml.safe_load((campaign / "turn-001" / "orders" / "tony.yaml").read_text())["orders"]
    assert filed == ["SID 1 steals David's secret 8.", "SID 2 stael David 3"]  # the line meant as an order is kept, and answered
    text = _ack(campaign)
    assert "SID 2 stael David 3\n      -> VOID" in text and aside not in text, text


@pytest.mark.parametrize("aside", ["Quick one from the train.", "Here goes:"])
def test_an_aside_alone_is_answered_as_any_line_is(kids: Path, tmp_path: Path, aside: str) -> None:
    """With no order beside it, nothing says the line is not a hiding place mistyped: it is answered, never dropped."""
    body = f"{aside}\npassword: {passwords(kids)['bob']}\n"
    [entry] = ingest(kids, [maildir(tmp_path, [mail("Bob <bob@example.org>", body, subject="turn 1", message_id="<k11@x>")])], now=NOW).entries
    assert entry.status == "rejected"
    assert f"1. {aside}\n      -> VOID" in _ack(kids), _ack(kids)


def test_a_kids_sentence_not_read_is_answered_line_by_line_with_the_growl(kids: Path, tmp_path: Path) -> None:
    """Trial 5: an unread sentence got "neither orders nor a command ... no order form": now the line, why,
    what happens at the deadline and how to write it."""
    body = f"I will hide under the sofa please.\npassword: {passwords(kids)['bob']}\n"
    [entry] = ingest(kids, [maildir(tmp_path, [mail("Bob <bob@example.org>", body, subject="hiding", message_id="<k2@x>")])], now=NOW).entries
    assert entry.status == "rejected" and not (kids / "turn-001" / "orders" / "bob.yaml").exists()
    text = _ack(kids)
    assert "neither orders nor a command" not in text and "player:" not in text
    assert "   1. I will hide under the sofa please.\n      -> VOID: there is no 'sofa' in the room" in text
    assert "write the piece, as in 'hide under the bed'" in text
    assert "you are caught at the growl, before the first lift (HIDEKIDS-5)" in text


@pytest.mark.parametrize("written", ["SID 1 steals David's secret 8, please.", "I'll steal David's 8 with SID 1.", "Please SID 1 steal David 8"])
def test_a_secrets_sentence_with_politeness_is_filed(campaign: Path, tmp_path: Path, written: str) -> None:  # noqa: F811
    body = f"{written}\npassword: {passwords(campaign)['tony']}\n-- \nTony\n"
    [entry] = ingest(campaign, [maildir(tmp_path, [mail("Tony <tony@example.org>", body, subject="move", message_id="<s1@x>")])], now=NOW).entries
    assert entry.status == "filed", entry.reason
    assert "SID 1 tries to steal David's secret 8" in _ack(campaign)


def test_unread_lines_above_a_quoted_untouched_form_are_answered_not_the_quote(campaign: Path, tmp_path: Path) -> None:  # noqa: F811
    """Trial 6: lines above 'Sent from my iPhone' and a quoted report whose untouched form holds structure
    (Identity's `- trick: 1` / `play: []`) were answered "write your orders above the line 'Sent from my
    iPhone'": the player had; the answer is about the lines they wrote."""
    quote = ("On Wed, 2 Dec 2026, GM wrote:\n> Fill in this form and send it back:\n> player: tony\n> turn: 1\n"
             "> password: \"your password\"\n> orders:\n>   - trick: 1\n>     play: []        # e.g. [orange-1]\n>     face_down: []\n")
    body = f"SID 2 goes after whatever David hides best\npassword: {passwords(campaign)['tony']}\n\nSent from my iPhone\n\n{quote}"
    [entry] = ingest(campaign, [maildir(tmp_path, [mail("Tony <tony@example.org>", body, subject="Re: [Spies] turn 1", message_id="<i1@x>")])], now=NOW).entries
    assert entry.status == "rejected"
    text = _ack(campaign)
    assert "not below it" not in text and "iPhone" not in text and "quoted" not in text
    assert "SID 2 goes after whatever David hides best\n      -> VOID: not understood: write 'SID <rank> steal" in text


@pytest.mark.parametrize("written", ["SID 1 steals David's secret 8. password: {pw}", "I give purple three. password: {pw}",
                                     "SID 1 steals David's secret 8 and my password: \u201c{pw}\u201d"])
def test_a_password_written_at_a_lines_end_is_read_and_echoed_nowhere(tmp_path: Path, capsys: pytest.CaptureFixture[str], written: str) -> None:
    """Trial 6: `I give purple three. password: mx25qnbyjx8m` was quoted whole in the reply, the GM's
    digest and mail/ingest.jsonl. The password is read, and its bytes are in nothing the judge writes."""
    from judgekit import append_mbox, edit
    from judgekit import campaign as judged

    root = judged(tmp_path, judge={"gm_digest": True}, passwords=True)
    edit(root, lambda c: c["players"][0].update(name="Tony"))
    pw = passwords(root)["tony"]
    append_mbox(tmp_path / "spies.mbox", bytes(mail("Tony <tony@example.org>", written.format(pw=pw) + "\nTony\n", subject="my move",
                                                    date="Tue, 01 Dec 2026 10:00:00 +0000", message_id="<pw1@x>")))
    assert main(["run", str(root), "--now", "2026-12-01T12:00+00:00"]) == 0
    out = capsys.readouterr()
    # what it writes about the mail: not the message kept as received (.eml), nor the order file it makes (.yaml, as filed)
    written_by_judge = [p for p in (root / "mail").rglob("*") if p.is_file() and p.suffix not in (".eml", ".yaml") or "outbox" in p.parts]
    assert written.startswith("SID") or any("outbox" in p.parts and "digest" in p.name for p in written_by_judge)  # a refusal is in it
    leaks = [str(p.relative_to(root)) for p in written_by_judge if p.is_file() and pw.encode() in p.read_bytes()]
    assert not leaks and pw not in out.out + out.err
    entry = [line for line in (root / "mail" / "ingest.jsonl").read_text().splitlines() if "pw1@x" in line]
    assert entry and ("password" not in entry[0] or "not this player's password" not in entry[0])
    if written.startswith("SID"):
        assert yaml.safe_load((root / "turn-001" / "orders" / "tony.yaml").read_text())["password"] == pw


def test_a_press_text_is_relayed_without_a_password_at_a_lines_end() -> None:
    from adjudicator.mail.envelope import cut, password_in

    text = "Let us gang up on David. password: x7fq2\nplayer: tony\nSee you"
    assert cut(text) == "Let us gang up on David\nSee you" and password_in(text) == "x7fq2"


def test_a_command_with_its_password_on_the_same_line_is_answered(campaign: Path, tmp_path: Path) -> None:  # noqa: F811
    pw = passwords(campaign)["tony"]
    [entry] = ingest(campaign, [maildir(tmp_path, [mail("Tony <tony@example.org>", f"status password: {pw}\n", subject="hi", message_id="<cp@x>")])],
                     now=NOW).entries
    assert (entry.status, entry.reason) == ("answered", "answered status")
    assert pw not in _ack(campaign) and "status for Tony (tony)" in _ack(campaign)
