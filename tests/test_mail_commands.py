"""Commands by mail (design 12) through `pbem ingest` alone: recognised, authenticated, answered
to the registered address only, delivered by `pbem mail --send` to a real SMTP server."""

from __future__ import annotations

import datetime as dt
import email
import email.policy
import shutil
from email.message import EmailMessage
from pathlib import Path

import pytest
import yaml
from reliability_kit import crashpoint, pbem, smtp_server, spread, uninterrupted
from reliability_kit import snapshot as visible
from test_ingest import mail, maildir, order_text, passwords, snapshot

from adjudicator.campaign.adjudicate import adjudicate
from adjudicator.campaign.create import create
from adjudicator.campaign.folder import Campaign
from adjudicator.cli import main
from adjudicator.mail import commands
from adjudicator.mail.ingest import ingest, load_index

PLAYERS = [
    {"id": "tony", "name": "Tony", "email": "tony@example.org"},
    {"id": "david", "name": "David", "email": "david@example.org"},
    {"id": "maria", "name": "María José", "email": "maria@example.org"},
]
NOW = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)


def make(root: Path, passwords: bool = True, schedule: bool = True, **judge: object) -> Path:
    create(root, "secrets", [dict(p) for p in PLAYERS], seed="mail", gm_email="GM <gm@example.org>", name="Spies", passwords=passwords)
    config = yaml.safe_load((root / "campaign.yaml").read_text())
    if schedule:
        config["schedule"] = {"start": "2026-12-05 20:00", "every": "7 days"}
    if judge:
        config["judge"] = judge
    (root / "campaign.yaml").write_text(yaml.safe_dump(config, allow_unicode=True, sort_keys=False))
    return root


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    return make(tmp_path / "spies")


def outbox(root: Path) -> dict[str, EmailMessage]:
    box = root / "mail" / "outbox"
    return {p.relative_to(box).as_posix(): email.message_from_bytes(p.read_bytes(), policy=email.policy.default) for p in sorted(box.rglob("*.eml"))}


def to(message: EmailMessage) -> list[str]:
    return [a.addr_spec for a in message["To"].addresses]


def run(root: Path, tmp_path: Path, *messages: EmailMessage, name: str = "Maildir") -> list:
    return ingest(root, [maildir(tmp_path, list(messages), name)], now=NOW).entries


def pw(root: Path, player: str) -> str:
    return f"password: {passwords(root)[player]}\n"


# -- recognising a command ------------------------------------------------------------


def test_a_command_word_in_the_subject_or_first_line_in_any_case(campaign: Path) -> None:
    def word(message: EmailMessage) -> str | None:
        found = commands.recognise(message)
        return found.word if found else None

    assert word(mail("tony@example.org", "", subject="STATUS")) == "status"
    assert word(mail("tony@example.org", "", subject="Re: [Spies] Help")) == "help"
    assert word(mail("tony@example.org", "\n\n  Report 2\nthanks\n", subject="hello")) == "report"
    assert word(mail("tony@example.org", "> status\nOrders attached.\n", subject="x")) is None  # quoted, then no command
    assert word(mail("tony@example.org", "Thanks!\n-- \nstatus\n", subject="x")) is None  # below the signature
    assert word(mail("tony@example.org", html="<html><body><p>Press David</p><p>Hi!</p></body></html>", subject="x")) == "press"
    latin = mail("maria@example.org", subject="x")
    latin.set_content("absence 2026-12-24 2027-01-02\n¡Feliz Navidad, señor!\n", charset="iso-8859-1", cte="quoted-printable")
    assert word(latin) == "absence"
    assert word(mail("tony@example.org", "status please", subject="x")) is None  # a word-alone command with more words
    assert word(mail("tony@example.org", "Orders attached.\n", subject="My orders")) is None
    # Subject: orders is how players have always sent orders: it asks only when nothing else is written.
    assert word(mail("tony@example.org", attachment=order_text(campaign, "tony", []), subject="orders")) is None
    assert word(mail("tony@example.org", "Can I have more time?\n", subject="orders")) is None
    assert word(mail("tony@example.org", pw(campaign, "tony"), subject="Orders")) == "orders"
    assert word(mail("tony@example.org", "help\n" + pw(campaign, "tony"), subject="orders")) == "help"  # the first line still counts
    # check carries an order document: it is still the check command
    assert word(mail("tony@example.org", "check\n" + order_text(campaign, "tony", []), subject="x")) == "check"


def test_a_command_is_read_below_the_password_and_campaign_lines_in_any_order(campaign: Path, tmp_path: Path) -> None:
    """Trial 3: a `campaign:` (or `password:`) line above the command hid it; what follows the command's
    line is its text, without those lines (a press relays none of them)."""
    status = mail("tony@example.org", f"{pw(campaign, 'tony')}campaign: Spies\n\nstatus\n", subject="hi", message_id="<e1@x>")
    press = mail("david@example.org", f"campaign: Spies\n{pw(campaign, 'david')}press Tony\nShall we guard 10?\n", subject="hi", message_id="<e2@x>")
    entries = run(campaign, tmp_path, status, press)
    assert [(e.status, e.found) for e in entries] == [("answered", "the command 'status' in the first line"),
                                                      ("answered", "the command 'press' in the first line")]
    relayed = outbox(campaign)["turn-001/press-00002-tony.eml"].get_content()
    assert "Shall we guard 10?" in relayed and "campaign:" not in relayed and "password" not in relayed


def test_an_order_submission_under_subject_orders_is_still_filed(campaign: Path, tmp_path: Path) -> None:
    entries = run(campaign, tmp_path, mail("tony@example.org", attachment=order_text(campaign, "tony", []), subject="orders", message_id="<o@x>"))
    assert [e.status for e in entries] == ["filed"]


# -- who asks, and where the answer goes ----------------------------------------------------


def test_answers_go_to_the_registered_address_only(campaign: Path, tmp_path: Path) -> None:
    good = mail("Tony at work <tony@work.example.com>", f"player: tony\n{pw(campaign, 'tony')}", subject="status", message_id="<s1@x>")
    good["Reply-To"] = "collector@evil.example"
    no_password = mail("david@example.org", "", subject="status", message_id="<s2@x>")
    wrong = mail("stranger@evil.example", "player: maria\npassword: guess\n", subject="report", message_id="<s3@x>")
    nobody = mail("stranger@evil.example", "hello?\n", subject="hi", message_id="<s4@x>")
    entries = run(campaign, tmp_path, good, no_password, wrong, nobody)
    assert [(e.status, e.player) for e in entries] == [("answered", "tony"), ("answered", None), ("answered", None), ("rejected", None)]
    sent = outbox(campaign)
    assert set(sent) == {"turn-001/reply-00001.eml", "turn-001/reply-00002.eml"}  # nothing to the stranger, ever
    assert to(sent["turn-001/reply-00001.eml"]) == ["tony@example.org"] and sent["turn-001/reply-00001.eml"]["Cc"] is None
    assert "Your orders for turn 1: none filed yet." in sent["turn-001/reply-00001.eml"].get_content()
    refusal = sent["turn-001/reply-00002.eml"]
    assert to(refusal) == ["david@example.org"] and "NOT answered: it has no line password:" in refusal.get_content()
    assert entries[2].reason == "not answered: its password is not the password of maria"
    for message in sent.values():
        for secret in passwords(campaign).values():
            assert secret not in message.as_string()


def test_a_missing_or_wrong_password_is_answered_with_how_to_get_it_again(campaign: Path, tmp_path: Path) -> None:
    """Trial 3: Bram wrote "I lost the mail with my password, can you resend it?" and heard only that the
    password is needed. There is no command that mails it (a forged sender would get it): the answer
    points to the welcome mail and to the GM, by address."""
    lost = mail("david@example.org", "Off skiing! I lost the mail with my password, can you resend it?\n",
                subject="absence 2026-12-07 2026-12-09", message_id="<l1@x>")
    wrong = mail("tony@example.org", attachment=order_text(campaign, "tony", [], password="guess"), message_id="<l2@x>")
    entries = run(campaign, tmp_path, lost, wrong)
    assert [e.status for e in entries] == ["answered", "rejected"]
    for name in ("turn-001/reply-00001.eml", "turn-001/ack-00002.eml"):
        text = " ".join(outbox(campaign)[name].get_content().split())
        assert "Lost your password? It is in the judge's welcome mail to you" in text and "write to GM <gm@example.org>" in text, (name, text)


def test_without_passwords_the_registered_address_is_the_proof(tmp_path: Path) -> None:
    root = make(tmp_path / "open", passwords=False)
    entries = run(root, tmp_path, mail("tony@example.org", "", subject="help", message_id="<h1@x>"),
                  mail("tony@elsewhere.example", "player: tony\n", subject="help", message_id="<h2@x>"))
    assert [(e.status, e.player) for e in entries] == [("answered", "tony"), ("answered", None)]
    assert list(outbox(root)) == ["turn-001/reply-00001.eml"]


def test_neither_orders_nor_a_command_gets_the_list_only_from_a_registered_address(campaign: Path, tmp_path: Path) -> None:
    chat = mail("david@example.org", "Can I have more time?\n", subject="hello", message_id="<c1@x>")
    chat["Reply-To"] = "elsewhere@example.net"
    spam = mail("spam@example.net", "Buy now!\n", subject="hello", message_id="<c2@x>")
    entries = run(campaign, tmp_path, chat, spam)
    assert [e.status for e in entries] == ["rejected", "rejected"]
    sent = outbox(campaign)
    assert list(sent) == ["turn-001/reply-00001.eml"] and to(sent["turn-001/reply-00001.eml"]) == ["david@example.org"]
    body = sent["turn-001/reply-00001.eml"].get_content()
    assert "neither orders nor a command" in body and "report [N]" in body and "press TO..." in body


# -- each answer -------------------------------------------------------------------------


def test_help_gives_the_commands_the_order_format_and_the_deadline(campaign: Path, tmp_path: Path) -> None:
    run(campaign, tmp_path, mail("tony@example.org", pw(campaign, "tony"), subject="help", message_id="<h@x>"))
    body = outbox(campaign)["turn-001/reply-00001.eml"].get_content()
    assert "absence FROM TO" in body and "check" in body and "Press is signed" in body
    assert "One order for one SID" in body and "  player: tony\n  turn: 1" in body and 'password: "YOUR PASSWORD"' in body
    assert "Deadline for turn 1: Saturday 5 December 2026, 20:00 UTC (UTC) (4 days 8 hours left)." in body
    assert "send guide for the player's guide" in body and "docs/players.md" not in body


def test_status_orders_check_and_report(campaign: Path, tmp_path: Path) -> None:
    filed = order_text(campaign, "tony", ["SID 1 steal David 8", {"sid": 9, "guard": 1}])
    checked = order_text(campaign, "tony", ["SID 2 steal Maria 3"])
    messages = [
        mail("tony@example.org", attachment=filed, message_id="<f@x>"),
        mail("tony@example.org", pw(campaign, "tony"), subject="status", message_id="<s@x>"),
        mail("tony@example.org", pw(campaign, "tony"), subject="orders", message_id="<o@x>"),
        mail("tony@example.org", "check\n" + checked, subject="Re: your report", message_id="<c@x>"),
        mail("tony@example.org", pw(campaign, "tony"), subject="report", message_id="<r@x>"),
        mail("tony@example.org", pw(campaign, "tony"), subject="report 7", message_id="<r7@x>"),
    ]
    entries = run(campaign, tmp_path, *messages)
    assert [e.status for e in entries] == ["filed", "answered", "answered", "answered", "answered", "answered"]
    sent = outbox(campaign)
    status = sent["turn-001/reply-00002.eml"].get_content()
    assert "Turn 1, phase orders." in status and "Due this turn: Tony, David, María José." in status
    assert "Your orders for turn 1: filed, 2 orders, 1 of them void." in status
    orders = sent["turn-001/reply-00003.eml"].get_content()
    assert "SID 1 tries to steal David's secret 8 (worth 15)" in orders and "VOID: sid is 9" in orders
    check = sent["turn-001/reply-00004.eml"].get_content()
    assert "Nothing was filed." in check and "SID 2 tries to steal María José's secret 3" in check
    assert yaml.safe_load((campaign / "turn-001" / "orders" / "tony.yaml").read_text())["orders"][0] == "SID 1 steal David 8"
    report = sent["turn-001/reply-00005.eml"]
    # The opening report was written before the schedule: the reply gives the deadline above it (issue 27).
    due = "Orders for turn 1 are due by Saturday 5 December 2026, 20:00 UTC (UTC): this report was written before that deadline was set.\n\n"
    assert report.get_content() == due + (campaign / "turn-000" / "reports" / "tony.txt").read_text()
    assert str(report["Subject"]) == "[Spies] turn 1: report of turn 0"
    assert "no report of turn 7" in sent["turn-001/reply-00006.eml"].get_content()


def test_check_names_what_is_wrong_and_files_nothing(campaign: Path, tmp_path: Path) -> None:
    bad = order_text(campaign, "tony", [], turn=3)
    run(campaign, tmp_path, mail("tony@example.org", "check\n" + bad, subject="x", message_id="<c@x>"))
    body = outbox(campaign)["turn-001/reply-00001.eml"].get_content()
    assert "REJECTED as a whole" in body and "turn: says 3 but the pending turn is 1" in body
    assert not (campaign / "turn-001" / "orders" / "tony.yaml").exists()


def test_absence_tells_the_gm_and_a_grant_shows_in_status(campaign: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    entries = run(campaign, tmp_path, mail("maria@example.org", pw(campaign, "maria"), subject="absence 2026-12-24 to 2027-01-02", message_id="<a@x>"),
                  mail("maria@example.org", pw(campaign, "maria"), subject="absence next week", message_id="<b@x>"))
    sent = outbox(campaign)
    gm = sent["turn-001/absence-00001.eml"]
    assert to(gm) == ["gm@example.org"] and f"pbem absence {campaign} maria --grant 2026-12-24 2027-01-02" in gm.get_content()
    assert "pbem deadline" in gm.get_content()
    assert "passed to the GM" in sent["turn-001/reply-00001.eml"].get_content()
    assert "NOT passed on" in sent["turn-001/reply-00002.eml"].get_content() and "turn-001/absence-00002.eml" not in sent
    assert entries[0].reason.startswith("your absence request (2026-12-24 to 2027-01-02) was passed to the GM")
    assert main(["absence", str(campaign), "maria", "--grant", "2026-12-24", "2027-01-02"]) == 0
    assert main(["absence", str(campaign), "maria", "--grant", "2027-01-02", "2026-12-24"]) == 1
    assert "before" in capsys.readouterr().err
    run(campaign, tmp_path, mail("tony@example.org", pw(campaign, "tony"), subject="status", message_id="<s@x>"), name="later")
    assert "Absences granted by the GM:\n  María José: 2026-12-24 to 2027-01-02" in outbox(campaign)["turn-001/reply-00003.eml"].get_content()
    assert main(["absence", str(campaign), "tony", "--grant", "2026-11-01", "2026-11-30"]) == 0  # over before NOW: not listed
    run(campaign, tmp_path, mail("tony@example.org", pw(campaign, "tony"), subject="status", message_id="<s2@x>"), name="latest")
    assert "Tony: 2026-11-01" not in outbox(campaign)["turn-001/reply-00004.eml"].get_content()
    assert "María José: 2026-12-24" in outbox(campaign)["turn-001/reply-00004.eml"].get_content()
    # pbem status lists the grants that have not ended (by the clock: so the test's grants lie far from today)
    assert main(["absence", str(campaign), "david", "--grant", "2099-01-01", "2099-01-31"]) == 0
    assert main(["absence", str(campaign), "tony", "--grant", "2000-01-01", "2000-01-31"]) == 0
    capsys.readouterr()
    assert main(["status", str(campaign)]) == 0
    shown = capsys.readouterr().out
    assert "Absence granted: David (david), 2099-01-01 to 2099-01-31" in shown and "2000-01-01" not in shown


def test_commands_are_answered_once_and_change_no_turn_file(campaign: Path, tmp_path: Path) -> None:
    turn = {k: v for k, v in snapshot(campaign).items() if k.startswith("turn-")}
    source = maildir(tmp_path, [mail("tony@example.org", pw(campaign, "tony"), subject=word, message_id=f"<{word}@x>") for word in ("help", "status", "orders", "report")])
    ingest(campaign, [source], now=NOW)
    after = snapshot(campaign)
    assert ingest(campaign, [source], now=NOW).skipped == 4 and snapshot(campaign) == after
    assert {k: v for k, v in after.items() if k.startswith("turn-")} == turn
    assert [e.status for e in load_index(campaign)] == ["answered"] * 4


def test_after_the_game_every_message_hears_the_end_and_the_final_standings(tmp_path: Path) -> None:
    """Report and status still answer after the last turn; trial 5: `status` gave the winners without the
    standings (design 15), orders were told the earlier ones 'stand unchanged', and sentences 'not understood'."""
    root = make(tmp_path / "done", passwords=False, schedule=False)
    for _ in range(5):
        adjudicate(root, nmr=True)
    entries = run(root, tmp_path, mail("tony@example.org", "", subject="status", message_id="<s@x>"),
                  mail("tony@example.org", "", subject="report", message_id="<r@x>"),
                  mail("tony@example.org", "press all\nGood game!\n", subject="x", message_id="<p@x>"),
                  mail("tony@example.org", "player: tony\nturn: 6\norders:\n  - SID 1 guard 3\n", subject="orders", message_id="<o@x>"),
                  mail("david@example.org", "SID 2 steals Tony's secret 8.\n", subject="my move", message_id="<w@x>"))
    assert [e.status for e in entries] == ["answered"] * 3 + ["rejected"] * 2
    sent = outbox(root)
    status = sent["turn-006/reply-00001.eml"].get_content()
    assert "The game is over after turn 5. Winners: " in status and "\nFINAL STANDINGS\n  Tony" in status and "score: " in status
    assert sent["turn-006/reply-00002.eml"].get_content() == (root / "turn-005" / "reports" / "tony.txt").read_text()
    assert "NOT relayed: the game is over" in sent["turn-006/reply-00003.eml"].get_content()
    assert not any("press-" in name for name in sent)
    for seq in (4, 5):
        [reply] = [m for name, m in sent.items() if name.endswith(f"-{seq:05d}.eml")]
        text = reply.get_content()
        assert "the game is over after turn 5, so nothing from your message is filed" in text, text
        assert "stand unchanged" not in text and "not understood" not in text and "FINAL STANDINGS" in text
        assert reply["Subject"].endswith("the game is over")


def test_answers_are_delivered_by_pbem_mail_send_once(campaign: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(campaign, tmp_path, mail("tony@example.org", pw(campaign, "tony"), subject="help", message_id="<h@x>"),
        mail("david@example.org", f"press tony\n{pw(campaign, 'david')}Meet me at secret 8.\n", subject="x", message_id="<p@x>"))
    with smtp_server() as (server, address):
        assert main(["mail", str(campaign), "--turn", "0", "--send", "--smtp", address]) == 0
        received = {(tuple(rcpts), str(m["Subject"])) for rcpts, m in server.received}
        assert (("tony@example.org",), "[Spies] turn 1: help") in received
        assert (("tony@example.org",), "[Spies] press from David") in received
        assert (("david@example.org",), "[Spies] turn 1: press") in received
        count = len(server.received)
        assert main(["mail", str(campaign), "--turn", "0", "--send", "--smtp", address]) == 0
        assert len(server.received) == count
    capsys.readouterr()


@pytest.mark.parametrize("game_id", ["secrets", "identity", "hide", "hidekids", "jekyll"])
def test_every_report_ends_with_the_guide_and_stays_a_valid_order_form(game_id: str, tmp_path: Path) -> None:
    """The footer is a YAML comment: a player who copies the order form to the end of the report still sends a valid file."""
    from adjudicator.games import GAMES

    game = GAMES[game_id]
    ids = ["tony", "david", "maria", "sue"][: min(max(game.min_players, 3), game.max_players)]
    root = tmp_path / game_id
    create(root, game_id, [{"id": p, "name": p.capitalize()} for p in ids], seed="guide", passwords=False)
    report = (root / "turn-000" / "reports" / "tony.txt").read_text()
    assert report.endswith('\n# Send the judge "help" for mail commands and press, "guide" for the player\'s guide\n')
    form = yaml.safe_load(report[report.rindex("\nplayer: ") + 1 :])
    assert form["player"] == "tony"


def test_ingest_of_commands_and_press_survives_every_kill_point(tmp_path: Path) -> None:
    """Killed at any file change and run again: the same files as one uninterrupted run, no press relayed twice."""
    before = make(tmp_path / "before", press_copy_gm=True)
    source = maildir(tmp_path, [
        mail("tony@example.org", f"press all\n{pw(before, 'tony')}Truce?\n", subject="x", message_id="<p1@x>"),
        mail("david@example.org", pw(before, "david"), subject="status", message_id="<s1@x>"),
        mail("maria@example.org", pw(before, "maria"), subject="absence 2026-12-24 2027-01-02", message_id="<a1@x>"),
    ])
    config = yaml.safe_load((before / "campaign.yaml").read_text())
    del config["schedule"]  # no time left in the answers: an uninterrupted run and a rerun say the same
    (before / "campaign.yaml").write_text(yaml.safe_dump(config, allow_unicode=True, sort_keys=False))
    reference = tmp_path / "reference"
    changes, expected = uninterrupted(before, reference, "ingest", source)
    assert sum("/press-" in name for name in expected) == 3  # david, maria and the GM
    for point in spread(changes, 8):
        root = tmp_path / f"kill-{point}"
        shutil.copytree(before, root)
        assert crashpoint(point, "ingest", root, source).returncode == -9, f"kill point {point} of {changes} was not reached"
        again = pbem("ingest", root, source)
        assert again.returncode == 0, again.stderr
        got = visible(root)
        gm = "mail/outbox/turn-001/absence-00003.eml"  # names the campaign's folder for the GM's command line
        told = email.message_from_bytes(got.pop(gm), policy=email.policy.default).get_content().replace(str(root), str(reference))
        assert told == email.message_from_bytes(expected[gm], policy=email.policy.default).get_content()
        assert got == {k: v for k, v in expected.items() if k != gm}, f"kill point {point}: the rerun differs from an uninterrupted ingest"


def test_an_answer_is_written_once_though_a_rerun_would_word_it_otherwise(campaign: Path, tmp_path: Path) -> None:
    """A kill after the answer was written and before the index was saved: the rerun, hours later, keeps the
    answer as written (it may have been sent meanwhile; rewritten, its new Message-ID would go out again)."""
    source = maildir(tmp_path, [mail("tony@example.org", pw(campaign, "tony"), subject="status", message_id="<s@x>")])
    ingest(campaign, [source], now=NOW)
    answer = campaign / "mail" / "outbox" / "turn-001" / "reply-00001.eml"
    first = answer.read_bytes()
    assert "4 days 8 hours left" in email.message_from_bytes(first, policy=email.policy.default).get_content()
    (campaign / "mail" / "ingest.jsonl").unlink()
    assert [e.status for e in ingest(campaign, [source], now=NOW + dt.timedelta(hours=5)).entries] == ["answered"]
    assert answer.read_bytes() == first


def test_a_command_in_the_subject_does_not_swallow_the_orders_in_the_body(campaign: Path, tmp_path: Path) -> None:
    """Issue 25 item 11, design 17: Subject `Status` with orders in the body files the orders, and the one
    reply says both: the acknowledgement and the status, which already counts the orders as filed."""
    text = order_text(campaign, "tony", ["SID 1 steal David 8"])
    entries = run(campaign, tmp_path, mail("tony@example.org", text, subject="Status", message_id="<so@x>"))
    assert [e.status for e in entries] == ["filed"]
    assert yaml.safe_load((campaign / "turn-001" / "orders" / "tony.yaml").read_text())["orders"] == ["SID 1 steal David 8"]
    [reply] = outbox(campaign).values()
    body = reply.get_content()
    assert "These orders are filed for turn 1." in body and "SID 1 tries to steal David's secret 8" in body
    assert "Your Subject also asked 'status'" in body and "Your orders for turn 1: filed, 1 order." in body
    assert "none filed" not in body and "and your status" in str(reply["Subject"])


def test_check_in_the_subject_still_files_nothing(campaign: Path, tmp_path: Path) -> None:
    text = order_text(campaign, "tony", ["SID 1 steal David 8"])
    entries = run(campaign, tmp_path, mail("tony@example.org", text, subject="check", message_id="<co@x>"))
    assert [e.status for e in entries] == ["answered"]
    assert not (campaign / "turn-001" / "orders" / "tony.yaml").exists()


def test_guide_mails_the_players_guide_and_no_reply_names_a_path_players_do_not_have(campaign: Path, tmp_path: Path) -> None:
    """Issue 24 item 11: players have no copy of pbem's docs; `guide` mails them the player's guide itself."""
    run(campaign, tmp_path, mail("tony@example.org", pw(campaign, "tony"), subject="guide"),
        mail("david@example.org", pw(campaign, "david"), subject="help"), name="Box")
    replies = {name: m.get_content() for name, m in outbox(campaign).items() if "reply-" in name}
    guide, help_text = replies["turn-001/reply-00001.eml"], replies["turn-001/reply-00002.eml"]
    assert guide.startswith("Spies (Sid's Secrets): the player's guide, for Tony (seat id: tony).") and "SENDING ORDERS BY MAIL" in guide
    assert "send guide for the player's guide" in help_text and "docs/players.md" not in help_text
    report = (campaign / "turn-000" / "reports" / "tony.txt").read_text()
    assert "docs/players.md" not in report and '"guide" for the player\'s guide' in report


FORM_EXAMPLES = {  # a line of each game's order form for the opening turn, in the game's own words
    "secrets": "#  - {sid: 1, steal: {player: PLAYER, secret: N}}   # or: - {sid: 1, guard: N}",
    "identity": "#  - bid: [CARD, CARD]",
    "hide": "#  - {target: army-base}     # one of: army-base, satellite, submarine",
    "hidekids": '# Shorthand works too:  - "lift clock then bed"',  # tony, the first seat, is the wolf
    "jekyll": "# A card is written purple5, red7, green1 (or pride5, wrath7, greed1) or potion3 (or 3+).",
}


@pytest.mark.parametrize("game_id", sorted(FORM_EXAMPLES))
def test_the_guide_is_plain_text_for_this_campaign_and_seat(game_id: str, tmp_path: Path) -> None:
    """Trial 2 item 1: `guide` answered with docs/players.md as it is: Markdown, Sid's Secrets examples in every
    game, and `pip install`. It is plain text for this campaign: how to send orders by mail, this seat's order
    form for the pending turn with this game's examples (as the seat's report gives them), and the commands."""
    from adjudicator.campaign.pending import read as read_pending
    from adjudicator.games import GAMES

    game = GAMES[game_id]
    ids = ["tony", "david", "maria", "sue"][: min(max(game.min_players, 3), game.max_players)]
    root = tmp_path / game_id
    create(root, game_id, [{"id": p, "name": p.capitalize(), "email": f"{p}@example.org"} for p in ids], seed="guide",
           gm_email="GM <gm@example.org>", name="Table", passwords=True)
    seat = read_pending(Campaign.open(root)).due_seats[0]
    run(root, tmp_path, mail(f"{seat}@example.org", pw(root, seat), subject="guide"))
    [reply] = outbox(root).values()
    guide = reply.get_content()
    assert guide.startswith(f"Table ({game.title}): the player's guide, for {seat.capitalize()} (seat id: {seat}).")
    assert "ABOVE the quoted report" in guide and 'password: "..."' in guide and "\n\n\n" not in guide
    assert "YOUR ORDERS FOR TURN 1 (as your report of turn 0 gives them)" in guide
    assert f"\nplayer: {seat}\nturn: 1\n" in guide and FORM_EXAMPLES[game_id] in guide, guide
    assert "  status             the turn, its deadline" in guide and "  resign " in guide
    prose = "\n".join(line for line in guide.split("\n") if not line.startswith("#"))  # the form's comment lines are its own
    for unwanted in ("```", "**", "## ", "pip install", "pbem check", "docs/", "the GM's"):  # no Markdown, nothing a player never needs
        assert unwanted not in prose, unwanted
    if game_id != "secrets":
        assert "SID" not in guide and "steal" not in guide, guide
