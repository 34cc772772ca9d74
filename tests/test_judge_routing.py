"""One judge address, many campaigns (design 15, issue 24 item 3): campaigns of one `pbem run` (or one
`pbem ingest DIR... --from SOURCE...`) that share a source read it once, and each message is filed in at
most one of them, by the rules of mail/route.py."""

from __future__ import annotations

import email
import hashlib
import email.policy
import json
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from adjudicator.cli import main
from judgekit import append_mbox, campaign, edit, orders, outbox

NOW = "2026-12-01T12:00+00:00"


def tick(capsys: pytest.CaptureFixture[str], *roots: Path, now: str) -> tuple[int, str]:
    code = main(["run", *map(str, roots), "--now", now])
    out, err = capsys.readouterr()
    return code, out + err


def shared(tmp_path: Path) -> tuple[Path, Path, Path]:
    """`spies` and `kids` on one mbox; Tony and David play in both, María only in spies, Kim only in kids."""
    spies = campaign(tmp_path, "spies")
    kids = campaign(tmp_path, "kids")
    mbox = tmp_path / "spies.mbox"
    edit(kids, lambda c: c["judge"].update(inbox=[str(mbox)]))
    edit(kids, lambda c: c["players"][2].update(email="kim@example.org"))
    return spies, kids, mbox


def filed(root: Path) -> list[tuple[str, str]]:
    path = root / "mail" / "ingest.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines()] if path.is_file() else []
    return [(e["sender"], e["status"]) for e in lines]


def mail(sender: str, subject: str, body: str, **headers: str) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, "gm@example.org", subject
    message["Date"], message["Message-ID"] = "Wed, 02 Dec 2026 10:00:00 +0000", f"<{hashlib.sha256(repr((sender, subject, body)).encode()).hexdigest()[:16]}@example.org>"
    for name, value in headers.items():
        message[name.replace("_", "-")] = value
    message.set_content(body)
    return bytes(message)


def test_each_message_goes_to_one_campaign_by_the_rules_in_order(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spies, kids, mbox = shared(tmp_path)
    assert tick(capsys, spies, kids, now=NOW)[0] == 0  # the welcomes
    welcome = email.message_from_bytes((kids / "mail" / "outbox" / "turn-000" / "welcome-tony.eml").read_bytes(), policy=email.policy.default)
    orders_text = "player: tony\nturn: 1\norders: []\n"
    append_mbox(mbox, mail("tony@example.org", "Re: welcome", orders_text, In_Reply_To=str(welcome["Message-ID"])))  # (1) kids
    append_mbox(mbox, mail("tony@example.org", "[SPIES] my orders", orders_text))  # (2) spies, by its folder name, any case
    append_mbox(mbox, mail("david@example.org", "orders", "campaign: Kids\n\nplayer: david\nturn: 1\norders: []\n"))  # (2) kids
    append_mbox(mbox, mail("maria@example.org", "orders", "player: maria\nturn: 1\norders: []\n"))  # (3) spies
    append_mbox(mbox, mail("kim@example.org", "orders", "player: maria\nturn: 1\norders: []\n"))  # (3) kids
    append_mbox(mbox, mail("david@example.org", "orders", "player: david\nturn: 1\norders: []\n"))  # (4) one reply, nothing filed
    append_mbox(mbox, mail("zed@example.org", "orders", "player: zed\nturn: 1\norders: []\n"))  # a stranger: nothing
    code, out = tick(capsys, spies, kids, now="2026-12-02T12:00+00:00")
    assert code == 0, out
    assert "messages routed: 3 to kids, 2 to spies, 1 answered with the list of campaigns" in out, out
    assert filed(spies) == [("tony@example.org", "filed"), ("maria@example.org", "filed")]
    assert filed(kids) == [("tony@example.org", "filed"), ("david@example.org", "filed"), ("kim@example.org", "filed")]
    replies = [name for name in outbox(kids) + outbox(spies) if "route-" in name]
    assert len(replies) == 1
    reply = email.message_from_bytes((kids / "mail" / "outbox" / replies[0]).read_bytes(), policy=email.policy.default)
    text = reply.get_body(("plain",)).get_content()
    assert str(reply["To"]) == "david@example.org" and "[kids]" in text and "[spies]" in text and "campaign: kids" in text
    assert "@" not in text.replace(str(reply["To"]), "").split("Your message:")[0]  # no other player's address
    assert reply["Auto-Submitted"] == "auto-generated"
    before = {root: (filed(root), outbox(root)) for root in (spies, kids)}
    code, out = tick(capsys, spies, kids, now="2026-12-02T12:05+00:00")
    assert code == 0 and "routed" not in out and out.count("nothing to do") == 2, out
    assert {root: (filed(root), outbox(root)) for root in (spies, kids)} == before  # nothing twice, no reply twice


@pytest.mark.parametrize("names", [("Müller", "Möller"), ("Шпионы", "Волки")])
def test_a_reply_goes_to_its_campaign_whatever_letters_the_names_are_written_in(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], names: tuple[str, str]) -> None:
    """Trial 2 item 6: the campaign part of the judge's Message-IDs dropped non-ASCII letters, so `Müller`
    and `Möller` (or two names in Cyrillic) minted the same one, and a reply to either, from a player of
    both, was answered with the list of campaigns instead of being filed where it belonged."""
    spies, kids, mbox = shared(tmp_path)
    for root, name in zip((spies, kids), names):
        edit(root, lambda c, name=name: c.update(name=name))
    assert tick(capsys, spies, kids, now=NOW)[0] == 0  # the welcomes
    welcome = email.message_from_bytes((kids / "mail" / "outbox" / "turn-000" / "welcome-tony.eml").read_bytes(), policy=email.policy.default)
    append_mbox(mbox, mail("tony@example.org", "Re: welcome", "player: tony\nturn: 1\norders: []\n", In_Reply_To=str(welcome["Message-ID"])))
    code, out = tick(capsys, spies, kids, now="2026-12-02T12:00+00:00")
    assert code == 0, out
    assert filed(kids) == [("tony@example.org", "filed")] and filed(spies) == [], out


def test_a_campaign_that_is_over_never_takes_another_campaigns_mail(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 24 item 3: the finished spies took a Hide the Kids! player's orders and answered 'the game is over'."""
    from adjudicator.campaign.adjudicate import adjudicate
    from adjudicator.campaign.folder import Campaign

    spies, kids, mbox = shared(tmp_path)
    edit(spies, lambda c: c.pop("schedule"))
    while not Campaign.open(spies).over:
        adjudicate(spies, nmr=True)
    assert tick(capsys, spies, kids, now=NOW)[0] == 0
    append_mbox(mbox, orders("tony", 1, "Wed, 02 Dec 2026 10:00:00 +0000"))  # Tony plays in both: only kids is running
    append_mbox(mbox, orders("maria", 1, "Wed, 02 Dec 2026 10:00:00 +0000"))  # María plays only in the finished spies
    code, out = tick(capsys, spies, kids, now="2026-12-02T12:00+00:00")
    assert code == 0 and "messages routed: 1 to kids, 1 to spies" in out, out
    assert filed(kids) == [("tony@example.org", "filed")]
    assert filed(spies) == [("maria@example.org", "rejected")]  # answered by the campaign it is for: the game is over


def test_without_sharing_each_campaign_reads_its_own_source_as_before(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spies = campaign(tmp_path, "spies")
    kids = campaign(tmp_path, "kids")
    append_mbox(tmp_path / "kids.mbox", orders("tony", 1, "Wed, 02 Dec 2026 10:00:00 +0000"))
    code, out = tick(capsys, spies, kids, now=NOW)
    assert code == 0 and "routed" not in out, out
    assert filed(kids) == [("tony@example.org", "filed")] and not (kids / "mail" / "inbox").exists()


def test_pbem_ingest_routes_several_campaigns_from_one_source(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spies, kids, mbox = shared(tmp_path)
    append_mbox(mbox, mail("maria@example.org", "orders", "player: maria\nturn: 1\norders: []\n"))
    append_mbox(mbox, mail("kim@example.org", "orders", "player: maria\nturn: 1\norders: []\n"))
    append_mbox(mbox, mail("tony@example.org", "[kids] orders", "player: tony\nturn: 1\norders: []\n"))
    assert main(["ingest", str(spies), str(kids), "--from", str(mbox)]) == 0
    out = capsys.readouterr().out
    assert "2 to kids, 1 to spies" in out, out
    assert filed(spies) == [("maria@example.org", "filed")]
    assert filed(kids) == [("kim@example.org", "filed"), ("tony@example.org", "filed")]
    assert main(["ingest", str(spies), str(kids), "--from", str(mbox)]) == 0
    assert len(filed(spies)) == 1 and len(filed(kids)) == 2
    capsys.readouterr()
    other = campaign(tmp_path, "ghosts")  # the documented form, one campaign: every message of the source
    assert main(["ingest", str(other), str(mbox)]) == 0
    assert len(filed(other)) == 3


# -- killed half way -----------------------------------------------------------------------------


def test_a_routing_tick_killed_at_any_file_operation_loses_nothing_and_does_nothing_twice(tmp_path: Path) -> None:
    import os
    import shutil
    import subprocess
    import sys

    from judgekit import ends_as_uninterrupted, snapshot

    crashpoint = Path(__file__).resolve().parent / "crashpoint.py"
    base = tmp_path / "base"
    base.mkdir()
    spies, kids, mbox = shared(base)
    assert main(["run", str(spies), str(kids), "--now", NOW]) == 0
    append_mbox(mbox, mail("maria@example.org", "orders", "player: maria\nturn: 1\norders: []\n"))  # spies
    append_mbox(mbox, mail("kim@example.org", "orders", "player: maria\nturn: 1\norders: []\n"))  # kids
    append_mbox(mbox, mail("tony@example.org", "[kids] orders", "player: tony\nturn: 1\norders: []\n"))  # kids
    append_mbox(mbox, mail("david@example.org", "orders", "player: david\nturn: 1\norders: []\n"))  # answered once
    append_mbox(mbox, mail("zed@example.org", "orders", "player: zed\nturn: 1\norders: []\n"))  # nothing
    for n in range(2):  # a stranger's list, twice: answered once (the day's reply recorded kill-safe)
        append_mbox(mbox, mail("nosy@example.net", "list", f"list\n{n}"))

    def fresh(name: str) -> Path:
        folder = tmp_path / name
        shutil.copytree(base, folder)
        for root in ("spies", "kids"):
            edit(folder / root, lambda c: c["judge"].update(inbox=[str(folder / "spies.mbox")]))
        (folder / "spies" / ".judge").exists() and shutil.rmtree(folder / "spies" / ".judge")
        (folder / "kids" / ".judge").exists() and shutil.rmtree(folder / "kids" / ".judge")
        return folder

    def run(point: int, folder: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, str(crashpoint), str(point), "run", str(folder / "spies"), str(folder / "kids"), "--now", "2026-12-02T12:00+00:00"],
            capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(crashpoint.parent.parent)},
        )

    def state(folder: Path) -> dict[str, bytes]:
        files = {}
        for root in ("spies", "kids"):
            for name, data in snapshot(folder / root).items():
                if name not in ("campaign.yaml", "mail/judge.json", "mail/route.json"):
                    files[f"{root}/{name}"] = data.replace(str(folder).encode(), b"FOLDER")
        return files

    expected = ends_as_uninterrupted(run, fresh, state)
    assert len(filed(tmp_path / "clean" / "spies")) == 1 and len(filed(tmp_path / "clean" / "kids")) == 2
    assert len([name for name in expected if "/route-" in name]) == 2


# -- one IMAP mailbox for several campaigns ---------------------------------------------------------


def test_a_shared_imap_mailbox_is_fetched_once_recorded_once_and_each_message_routed(tmp_path: Path, imap: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from servers import PASSWORD

    imap.empty()
    secret = tmp_path / "imap-password"
    secret.write_text(PASSWORD + "\n")
    spies, kids, _ = shared(tmp_path)
    for root in (spies, kids):
        edit(root, lambda c: c["judge"].update(inbox=[imap.url], imap_ca_file=imap.cafile, imap_password_file=str(secret)))
    imap.deliver(mail("maria@example.org", "orders", "player: maria\nturn: 1\norders: []\n"))  # spies
    imap.deliver(mail("kim@example.org", "orders", "player: maria\nturn: 1\norders: []\n"))  # kids
    imap.read_all()  # the GM read them in a client
    imap.deliver(mail("tony@example.org", "Re: [Spies] turn 1", "player: tony\nturn: 1\norders: []\n"))  # spies
    imap.deliver(mail("david@example.org", "orders", "player: david\nturn: 1\norders: []\n"))  # which game?
    code, out = tick(capsys, spies, kids, now="2026-12-02T12:00+00:00")
    assert code == 0 and "4 fetched; messages routed: 1 to kids, 2 to spies, 1 answered with the list of campaigns" in out, out
    assert filed(spies) == [("maria@example.org", "filed"), ("tony@example.org", "filed")]
    assert filed(kids) == [("kim@example.org", "filed")]
    taken = [root for root in (spies, kids) if (root / "mail" / "imap.json").is_file()]
    assert taken == [kids]  # recorded once, by the first of the campaigns sharing it
    assert (imap.seen(), imap.unseen()) == (2, 2)  # the judge changed no flag
    imap.all_unseen()
    code, out = tick(capsys, spies, kids, now="2026-12-02T12:05+00:00")
    assert code == 0 and "fetched" not in out and "routed" not in out, out
    imap.deliver(mail("kim@example.org", "status", "status\n"))
    code, out = tick(capsys, spies, kids, now="2026-12-02T12:10+00:00")
    assert code == 0 and "1 fetched; messages routed: 1 to kids" in out, out
    assert len(filed(spies)) == 2 and len(filed(kids)) == 2
    assert len([name for name in outbox(kids) + outbox(spies) if "route-" in name]) == 1


def test_the_judges_own_mail_in_a_shared_inbox_goes_to_its_campaign_and_is_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spies, kids, mbox = shared(tmp_path)
    assert tick(capsys, spies, kids, now=NOW)[0] == 0
    for name in outbox(kids):
        append_mbox(mbox, (kids / "mail" / "outbox" / name).read_bytes())
    code, out = tick(capsys, spies, kids, now="2026-12-01T12:10+00:00")
    assert code == 0 and "messages routed: 3 to kids" in out and "3 messages of the judge's own skipped" in out, out
    assert not (spies / "mail" / "ingest.jsonl").exists() and not (spies / "mail" / "rejected").exists()


# -- sign-up on a shared judge address (design 16) -----------------------------------------------------


def league_and_kids(tmp_path: Path, capsys: pytest.CaptureFixture[str], inbox: str, **judge: Any) -> tuple[Path, Path]:
    """`kids`, running, and `league`, signing up for three seats, on one judge address; the GM reads digests."""
    kids = campaign(tmp_path, "kids")
    league = tmp_path / "league"
    assert main(["new", str(league), "--game", "secrets", "--open", "3", "--gm-email", "gm@example.org", "--seed", "s"]) == 0
    capsys.readouterr()
    for root in (kids, league):
        edit(root, lambda c: c.setdefault("judge", {}).update(inbox=[inbox], gm_digest=True, **judge))
    return kids, league


def replies(root: Path) -> dict[str, str]:
    """The routing's replies in a campaign's outbox: recipient -> text (one reply each, or the test fails)."""
    found: dict[str, str] = {}
    for name in outbox(root):
        if "route-" in name:
            message = email.message_from_bytes((root / "mail" / "outbox" / name).read_bytes(), policy=email.policy.default)
            assert str(message["To"]) not in found, f"two replies to {message['To']}"
            found[str(message["To"])] = message.get_body(("plain",)).get_content()
    return found


def signing_up_by_the_shared_address(tmp_path: Path, capsys: pytest.CaptureFixture[str], kids: Path, league: Path, deliver: Any) -> None:
    """What a stranger sees of a shared judge address: list, join with and without the campaign named, floods."""
    assert tick(capsys, kids, league, now=NOW)[0] == 0  # kids' welcomes
    for n in range(3):  # a flood of list and of join naming no campaign: one reply of each a day
        deliver(mail("ann@example.net", "hello" if n else "list please", f"list\n{n}"))
        deliver(mail("bob@example.net", "hi", f"join Bob\n{n}"))
    deliver(mail("zed@example.net", "orders", "player: zed\nturn: 1\norders: []\n"))  # a stranger's orders: nothing
    code, out = tick(capsys, kids, league, now="2026-12-02T12:00+00:00")
    assert code == 0, out
    assert ("1 'list' answered with the campaigns of this judge, 1 answered with the list of campaigns (not filed), "
            "4 not answered (the sender had that reply today already; one a day per address), 1 from senders registered nowhere") in out, out
    answered = replies(kids)  # kids (first by folder) keeps the record and answers the list
    assert sorted(answered) == ["ann@example.net", "bob@example.net"]
    listing = answered["ann@example.net"]
    subjects = {str(m["To"]): str(m["Subject"]) for m in (email.message_from_bytes((kids / "mail" / "outbox" / name).read_bytes(),
                                                                                   policy=email.policy.default) for name in outbox(kids) if "route-" in name)}
    assert subjects["ann@example.net"] == "Re: list please", subjects  # trial 2 item 3: it reads as the reply it is
    assert "[league]  league (Sid's Secrets): signing up, 0 of 3 seats taken" in listing, listing
    assert "[kids]  kids (Sid's Secrets): running, turn 1 due Tuesday 8 December 2026, 20:00 CET" in listing, listing
    assert "@" not in listing and "@" not in answered["bob@example.net"].split("Your message:")[0]  # no player's address
    assert "[league]" in answered["bob@example.net"] and "Nothing from it was filed" in answered["bob@example.net"]
    assert not (league / "mail" / "ingest.jsonl").exists() and not (kids / "mail" / "ingest.jsonl").exists()
    [digest] = [name for name in outbox(kids) if "gm-digest" in name]
    told = email.message_from_bytes((kids / "mail" / "outbox" / digest).read_bytes(), policy=email.policy.default).get_body(("plain",)).get_content()
    assert "4 not answered (the sender had that reply today already" in " ".join(told.split()), told
    # Joins that name the campaign seat the players, and the tick that fills the last seat starts the game.
    deliver(mail("ann@example.net", "[League] join", "join Ann\n"))
    deliver(mail("bob@example.net", "join", "campaign: league\n\njoin Bob\n"))
    deliver(mail("cy@example.net", "Join [league]", "join Cy\n"))
    deliver(mail("ann@example.net", "again", "list\nagain"))  # answered already today: not again
    code, out = tick(capsys, kids, league, now="2026-12-02T13:00+00:00")
    assert code == 0 and "messages routed: 3 to league, 1 not answered" in out, out
    assert "ann joined" in out and "bob joined" in out and "cy joined" in out and "started with 3 players" in out, out
    assert [p["id"] for p in __import__("adjudicator.campaign.folder", fromlist=["Campaign"]).Campaign.open(league).players] == ["ann", "bob", "cy"]
    assert sorted(name for name in outbox(league) if "welcome-" in name) == ["turn-000/welcome-ann.eml", "turn-000/welcome-bob.eml", "turn-000/welcome-cy.eml"]
    assert len(replies(kids)) == 2 and not replies(league)
    deliver(mail("ann@example.net", "next day", "list\nnext day"))  # a new day: answered again, now with the game running
    code, out = tick(capsys, kids, league, now="2026-12-03T12:00+00:00")
    assert code == 0 and "1 'list' answered" in out, out
    assert len([name for name in outbox(kids) if "route-" in name]) == 3


def test_strangers_sign_up_by_a_shared_maildir_and_floods_get_one_reply_a_day(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import mailbox

    box = tmp_path / "judge-maildir"
    maildir = mailbox.Maildir(box, create=True)
    kids, league = league_and_kids(tmp_path, capsys, str(box))
    signing_up_by_the_shared_address(tmp_path, capsys, kids, league, maildir.add)


def test_strangers_sign_up_by_a_shared_imap_mailbox(tmp_path: Path, imap: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from servers import PASSWORD

    imap.empty()
    secret = tmp_path / "imap-password"
    secret.write_text(PASSWORD + "\n")
    kids, league = league_and_kids(tmp_path, capsys, imap.url, imap_ca_file=imap.cafile, imap_password_file=str(secret))
    signing_up_by_the_shared_address(tmp_path, capsys, kids, league, imap.deliver)


# -- a bounce in a shared inbox ---------------------------------------------------------------------


def bounce_of(original: bytes, returned: str) -> bytes:
    """A delivery report (RFC 3464) as Postfix writes one, returning the original's headers (or all of it)."""
    headers = original.split(b"\n\n", 1)[0].decode()
    part = (f"Content-Type: text/rfc822-headers\n\n{headers}\n" if returned == "headers"
            else f"Content-Type: message/rfc822\n\n{original.decode()}\n")
    return (
        "From: Mail Delivery System <MAILER-DAEMON@mx.example.org>\nTo: gm@example.org\n"
        f"Subject: Undelivered Mail Returned to Sender\nMessage-ID: <bounce-{returned}@mx.example.org>\n"
        "Date: Wed, 02 Dec 2026 10:00:00 +0000\nMIME-Version: 1.0\n"
        'Content-Type: multipart/report; report-type=delivery-status; boundary="b"\n\n'
        "--b\nContent-Type: text/plain\n\n<david@example.org>: host mx.example.org said: 550 5.1.1 no such user\n\n"
        "--b\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx.example.org\n\n"
        "Final-Recipient: rfc822; david@example.org\nAction: failed\nStatus: 5.1.1\n\n"
        f"--b\n{part}\n--b--\n"
    ).encode()


@pytest.mark.parametrize("returned", ["headers", "message"])
def test_a_bounce_in_a_shared_inbox_goes_to_the_campaign_whose_message_bounced(tmp_path: Path, capsys: pytest.CaptureFixture[str], returned: str) -> None:
    spies, kids, mbox = shared(tmp_path)
    edit(kids, lambda c: c["judge"].update(gm_digest=True))
    assert tick(capsys, spies, kids, now=NOW)[0] == 0
    welcome = (kids / "mail" / "outbox" / "turn-000" / "welcome-david.eml").read_bytes().replace(b"\r\n", b"\n")
    append_mbox(mbox, bounce_of(welcome, returned), "MAILER-DAEMON")
    code, out = tick(capsys, spies, kids, now="2026-12-02T12:00+00:00")
    assert code == 0 and "messages routed: 1 to kids" in out, out
    [notice] = [name for name in outbox(kids) if "gm-bounce" in name]  # as for a campaign with its own inbox
    text = email.message_from_bytes((kids / "mail" / "outbox" / notice).read_bytes(), policy=email.policy.default).get_content()
    assert "For:     david" in text and "Undelivered Mail" in text
    [digest] = [name for name in outbox(kids) if "gm-digest" in name]
    told = email.message_from_bytes((kids / "mail" / "outbox" / digest).read_bytes(), policy=email.policy.default).get_body(("plain",)).get_content()
    assert "from mailer-daemon@mx.example.org ('Undelivered Mail Returned to Sender') not filed" in told, told
    assert not [name for name in outbox(spies) if "gm-" in name]


# -- campaigns sharing a source, ticked apart ------------------------------------------------------------


@pytest.mark.parametrize("kind", ["mbox", "maildir", "imap"])
def test_campaigns_sharing_a_source_ticked_apart_each_file_only_their_own(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                          request: pytest.FixtureRequest, kind: str) -> None:
    """A cron line per campaign (`pbem run spies`, then `pbem run kids`): spies, ticked alone, took the whole
    source and kids' mail was lost to kids. Now the run routes the source for both, and says so."""
    import mailbox

    spies, kids, mbox = shared(tmp_path)
    if kind == "maildir":
        box = mailbox.Maildir(tmp_path / "judge-maildir", create=True)
        deliver, source = box.add, str(tmp_path / "judge-maildir")
        for root in (spies, kids):
            edit(root, lambda c: c["judge"].update(inbox=[source]))
    elif kind == "imap":
        from servers import PASSWORD

        imap = request.getfixturevalue("imap")
        imap.empty()
        secret = tmp_path / "imap-password"
        secret.write_text(PASSWORD + "\n")
        deliver = imap.deliver
        for root in (spies, kids):
            edit(root, lambda c: c["judge"].update(inbox=[imap.url], imap_ca_file=imap.cafile, imap_password_file=str(secret)))
    else:
        deliver = lambda raw: append_mbox(mbox, raw)  # noqa: E731
    code, out = tick(capsys, spies, kids, now=NOW)  # named together once: each learns who shares its source
    assert code == 0, out
    deliver(mail("maria@example.org", "orders", "player: maria\nturn: 1\norders: []\n"))  # spies
    deliver(mail("kim@example.org", "orders", "player: maria\nturn: 1\norders: []\n"))  # kids
    deliver(mail("tony@example.org", "[kids] orders", "player: tony\nturn: 1\norders: []\n"))  # kids
    code, out = tick(capsys, spies, now="2026-12-02T12:00+00:00")
    assert code == 0 and "messages routed: 2 to kids, 1 to spies" in out, out
    assert f"note: {kids} shares this source and is not in this run: its mail waits in mail/inbox/ for its own tick" in out, out
    assert filed(spies) == [("maria@example.org", "filed")] and filed(kids) == []
    code, out = tick(capsys, kids, now="2026-12-02T12:05+00:00")
    assert code == 0 and "routed" not in out and "2 new messages (2 filed, 0 rejected)" in out, out
    assert filed(kids) == [("kim@example.org", "filed"), ("tony@example.org", "filed")]
    deliver(mail("kim@example.org", "status", "status\n"))  # kids, while only spies runs
    for root, now in ((spies, "2026-12-02T12:10+00:00"), (kids, "2026-12-02T12:15+00:00"), (spies, "2026-12-02T12:20+00:00")):
        assert tick(capsys, root, now=now)[0] == 0
    code, out = tick(capsys, spies, kids, now="2026-12-02T12:25+00:00")
    assert code == 0 and out.count("nothing to do") == 2, out
    assert filed(spies) == [("maria@example.org", "filed")]  # nothing lost, nothing twice
    assert filed(kids) == [("kim@example.org", "filed"), ("tony@example.org", "filed"), ("kim@example.org", "answered")]


def test_the_mail_an_open_campaign_kept_for_the_shared_address_is_in_its_first_digest(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The first campaign by folder keeps routed.jsonl; one signing up sends no digest until it starts, then tells it."""
    import mailbox

    box = tmp_path / "judge-maildir"
    maildir = mailbox.Maildir(box, create=True)
    kids, league = league_and_kids(tmp_path, capsys, str(box))
    arena = tmp_path / "arena"  # signing up, and first by folder
    league.rename(arena)
    assert tick(capsys, kids, arena, now=NOW)[0] == 0
    maildir.add(mail("ann@example.net", "hello", "list\n"))
    code, out = tick(capsys, kids, arena, now="2026-12-02T12:00+00:00")
    assert code == 0 and "1 'list' answered" in out, out
    assert sorted(replies(arena)) == ["ann@example.net"] and not [n for n in outbox(arena) if "gm-digest" in n]
    for name in ("ann", "bob", "cy"):
        maildir.add(mail(f"{name}@example.net", "[arena] join", f"join {name}\n"))
    code, out = tick(capsys, kids, arena, now="2026-12-02T13:00+00:00")
    assert code == 0 and "started with 3 players" in out, out
    [digest] = [n for n in outbox(arena) if "gm-digest" in n]
    told = email.message_from_bytes((arena / "mail" / "outbox" / digest).read_bytes(), policy=email.policy.default).get_body(("plain",)).get_content()
    assert "the shared judge address: messages routed: 1 'list' answered" in " ".join(told.split()), told


def test_a_campaign_left_alone_on_a_source_once_shared_never_takes_what_went_to_the_other(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spies, kids, mbox = shared(tmp_path)
    assert tick(capsys, spies, kids, now=NOW)[0] == 0
    append_mbox(mbox, mail("maria@example.org", "orders", "player: maria\nturn: 1\norders: []\n"))  # spies
    append_mbox(mbox, mail("tony@example.org", "[kids] orders", "player: tony\nturn: 1\norders: []\n"))  # kids
    assert tick(capsys, spies, kids, now="2026-12-02T12:00+00:00")[0] == 0
    edit(kids, lambda c: c["judge"].update(inbox=[str(tmp_path / "kids-own.mbox")]))  # kids gets its own inbox
    (tmp_path / "kids-own.mbox").touch()
    append_mbox(mbox, mail("tony@example.org", "orders", "player: tony\nturn: 1\norders: []\n"))  # now spies'
    code, out = tick(capsys, spies, now="2026-12-02T12:10+00:00")
    assert code == 0 and "messages routed: 1 to spies" in out, out
    assert filed(spies) == [("maria@example.org", "filed"), ("tony@example.org", "filed")]  # tony's [kids] orders not taken
    code, out = tick(capsys, spies, kids, now="2026-12-02T12:15+00:00")
    assert code == 0 and out.count("nothing to do") == 2, out
    assert filed(kids) == [("tony@example.org", "filed")]


def test_a_campaign_line_above_a_command_names_the_game_and_the_command_is_read_below_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Trial 3: Oskar's `campaign: hyde` / `join Oskar` (an HTML reply) was answered "no sign-up command";
    Pat's `campaign: ident` / `observe` was taken for orders, refused, and never answered; the which-game
    reply and players.md tell a newcomer to write that line above the command (design 16)."""
    mbox = tmp_path / "judge.mbox"
    mbox.touch()
    kids, league = league_and_kids(tmp_path, capsys, str(mbox))
    assert tick(capsys, kids, league, now=NOW)[0] == 0  # kids' welcomes
    oskar = EmailMessage()
    oskar["From"], oskar["To"], oskar["Subject"] = "Oskar <oskar@example.net>", "gm@example.org", "Re: which game? your message was not filed"
    oskar["Date"], oskar["Message-ID"] = "Wed, 02 Dec 2026 10:00:00 +0000", "<oskar.1@example.net>"
    oskar.set_content('<html><body><div dir="ltr"><div>campaign: league</div><div>join Oskar</div><div><br></div>'
                      "<div>cheers, Oskar</div></div></body></html>", subtype="html")
    append_mbox(mbox, bytes(oskar))
    append_mbox(mbox, mail("pat@example.net", "hello", "campaign: kids\nobserve\n"))
    append_mbox(mbox, mail("tony@example.org", "hi", "campaign: kids\n\nstatus\n"))  # a seated player's command, below the line
    code, out = tick(capsys, kids, league, now="2026-12-02T12:00+00:00")
    assert code == 0, out
    assert "oskar joined" in out and "pat@example.net observes" in out, out
    from adjudicator.campaign.folder import Campaign

    assert [p["id"] for p in Campaign.open(league).players] == ["oskar"]
    assert [(e["sender"], e["status"], e["found"]) for e in map(json.loads, (kids / "mail" / "ingest.jsonl").read_text().splitlines())] == [
        ("pat@example.net", "answered", "the command 'observe'"), ("tony@example.org", "answered", "the command 'status' in the first line")]
    answers = {str(m["To"]): m.get_body(("plain",)).get_content() for name in outbox(kids) if "route-" not in name and "welcome" not in name
               for m in [email.message_from_bytes((kids / "mail" / "outbox" / name).read_bytes(), policy=email.policy.default)]}
    assert "you will get each public report from now on" in answers["pat@example.net"], answers
    assert "turn 1" in answers["Tony <tony@example.org>"].lower(), answers


def test_the_which_game_reply_counts_the_seats_joins_took_in_the_same_tick(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Trial 3: in the tick Hana joined hyde, Oskar's which-game reply said hyde had "0 of 2 seats taken".
    The replies routing decides are built after the campaigns' ticks, so they list what those ticks did."""
    mbox = tmp_path / "judge.mbox"
    mbox.touch()
    kids, league = league_and_kids(tmp_path, capsys, str(mbox))
    assert tick(capsys, kids, league, now=NOW)[0] == 0  # kids' welcomes
    append_mbox(mbox, mail("ann@example.net", "[league] join", "join Ann\n"))
    append_mbox(mbox, mail("bob@example.net", "hello", "join Bob\n"))  # names no game: the which-game reply
    append_mbox(mbox, mail("cy@example.net", "hello", "list\n"))
    code, out = tick(capsys, kids, league, now="2026-12-02T12:00+00:00")
    assert code == 0 and "ann joined" in out, out
    answered = replies(kids)
    assert "[league]  league (Sid's Secrets): signing up, 1 of 3 seats taken" in answered["bob@example.net"], answered
    assert "[league]  league (Sid's Secrets): signing up, 1 of 3 seats taken" in answered["cy@example.net"], answered
    before = outbox(kids)
    code, out = tick(capsys, kids, league, now="2026-12-02T12:05+00:00")
    assert code == 0 and outbox(kids) == before, out  # built once


def test_a_which_game_reply_a_kill_left_unbuilt_is_built_by_the_next_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The reply is built after the ticks, its routed.jsonl line before them: a run killed between the two
    leaves the line, and the next run builds the reply from it, once."""
    import datetime as dt

    from adjudicator.mail import route

    mbox = tmp_path / "judge.mbox"
    mbox.touch()
    kids, league = league_and_kids(tmp_path, capsys, str(mbox))
    append_mbox(mbox, mail("bob@example.net", "hello", "join Bob\n"))
    decided = route.route([kids, league], [mbox], dt.datetime(2026, 12, 2, 12, tzinfo=dt.UTC))  # killed before route.answer
    assert len(decided.answering) == 1 and not replies(kids)
    code, out = tick(capsys, kids, league, now="2026-12-02T12:05+00:00")
    assert code == 0 and list(replies(kids)) == ["bob@example.net"], out
    before = outbox(kids)
    assert tick(capsys, kids, league, now="2026-12-02T12:10+00:00")[0] == 0 and outbox(kids) == before


def test_the_which_game_and_list_replies_go_out_in_the_run_that_built_them(tmp_path: Path, capsys: pytest.CaptureFixture[str], smtp: tuple[Any, str]) -> None:
    """Built after the ticks (above), they were sent only with the next run's tick: an hour later under an
    hourly cron, for a newcomer waiting to learn which game to name."""
    box, address = smtp
    mbox = tmp_path / "judge.mbox"
    mbox.touch()
    kids, league = league_and_kids(tmp_path, capsys, str(mbox))
    assert tick(capsys, kids, league, now=NOW)[0] == 0
    append_mbox(mbox, mail("cy@example.net", "hello", "list\n"))
    code = main(["run", str(kids), str(league), "--now", "2026-12-02T12:00+00:00", "--send", "--smtp", address])
    out = "".join(capsys.readouterr())
    assert code == 0 and f"{kids}: 1 reply of the shared address sent" in out, out
    assert [rcpt for rcpt, message in box.received if "cy@example.net" in rcpt] == [["cy@example.net"]], box.received
    code = main(["run", str(kids), str(league), "--now", "2026-12-02T12:05+00:00", "--send", "--smtp", address])
    assert code == 0 and len([1 for rcpt, _ in box.received if "cy@example.net" in rcpt]) == 1, "sent once"
