"""Sign-up by mail (design 16, issue 27): pbem new --open, join/leave/list/observe, the start."""

from __future__ import annotations

import email
import email.policy
import hashlib
from pathlib import Path
from typing import Any

import pytest
import yaml

from adjudicator.campaign import signup
from adjudicator.campaign.folder import Campaign
from adjudicator.cli import main
from judgekit import append_mbox


def pbem(capsys: pytest.CaptureFixture[str], *args: Any) -> tuple[int, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out + err


def mail(sender: str, first_line: str, subject: str = "hello", n: int = 0) -> bytes:
    return (
        f"From: {sender}\nTo: judge@example.org\nSubject: {subject}\nMessage-ID: <m{n}.{hashlib.sha256(first_line.encode()).hexdigest()[:12]}@x>\n"
        "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n"
        f"Date: Tue, 01 Dec 2026 10:00:00 +0000\n\n{first_line}\n"
    ).encode()


def open_campaign(tmp_path: Path, capsys: pytest.CaptureFixture[str], seats: int = 3, judge: dict[str, Any] | None = None,
                  schedule: dict[str, Any] | None = None, extra: tuple[str, ...] = ()) -> Path:
    root = tmp_path / "spies"
    code, out = pbem(capsys, "new", root, "--game", "secrets", "--open", seats, "--gm-email", "gm@example.org", "--seed", "s", *extra)
    assert code == 0, out
    text = (root / "campaign.yaml").read_text()
    text = text.replace("gm_email:", "# the GM's own comment\ngm_email:")
    settings = {"inbox": [str(tmp_path / "in.mbox")], **(judge or {})}
    text += yaml.safe_dump({"judge": settings})
    if schedule:
        text += yaml.safe_dump({"schedule": schedule})
    (root / "campaign.yaml").write_text(text)
    (tmp_path / "in.mbox").write_bytes(b"")
    return root


def outbox(root: Path) -> dict[str, email.message.EmailMessage]:
    found = {}
    for path in sorted((root / "mail" / "outbox").rglob("*.eml")):
        found[path.relative_to(root / "mail" / "outbox").as_posix()] = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    return found


def test_seat_ids_are_valid_and_unique_whatever_the_address() -> None:
    assert signup.seat_id(signup.local_part("Jean.Dupont+pbem@example.org"), set()) == "jean-dupont"
    assert signup.seat_id("jean-dupont", {"jean-dupont"}) == "jean-dupont-2"
    assert signup.seat_id("José Ñandú", set()) == "jose-nandu"
    assert signup.seat_id("42", set()) == "p-42"
    assert signup.seat_id("", set()) == "player"
    assert signup.seat_id("All", set()) == "all-player"
    assert signup.seat_id("x" * 80, set()) == "x" * 36
    assert signup.seat_id("日本", set()) == "player"


@pytest.mark.parametrize(("name", "seat"), [
    ("Łukasz Nowak", "lukasz-nowak"), ("Søren Ødegård", "soren-odegard"), ("Đorđe Ðurić", "dorde-duric"),
    ("Weiß", "weiss"), ("ẞ", "ss"), ("Æsa Brænne", "aesa-braenne"), ("Œdipe Cœur", "oedipe-coeur"),
    ("Þóra Sæþórsdóttir", "thora-saethorsdottir"), ("Yıldız", "yildiz"), ("Ǿrjan", "orjan"), ("Zoë", "zoe"),
])
def test_a_seat_id_keeps_every_letter_of_a_latin_name(name: str, seat: str) -> None:
    """Trial 2: Łukasz Nowak got the seat `ukasz-nowak`, as NFKD leaves nothing of ł in ASCII."""
    assert signup.seat_id(name, set()) == seat
    assert signup.seat_id(signup.local_part(f"{name.split()[0]} <{name.split()[0].lower()}@example.pl>"), set()) == seat.split("-")[0]


def test_an_open_campaign_is_signing_up_for_every_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = open_campaign(tmp_path, capsys)
    code, out = pbem(capsys, "status", root)
    assert code == 0 and "signing up, 0 of 3 seats taken" in out
    for command in (["adjudicate", root], ["report", root], ["show", root, "--json"], ["audit", root], ["mail", root]):
        code, out = pbem(capsys, *command)
        assert code == 1 and "is signing up (0 of 3 seats taken)" in out, (command, out)
    code, out = pbem(capsys, "start", root, "--now", "2026-12-01T12:00+00:00")
    assert code == 1 and "takes 3 to 6 players and 0 have joined" in out


def test_sign_up_answers_read_as_replies_to_the_players_mail(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Trial 2 item 3: the answers to join, leave, list and a mail without a command had the Subject
    `[spies] join`, not `Re: <their subject>`; they thread under the player's mail as other replies do."""
    root = open_campaign(tmp_path, capsys)
    box = tmp_path / "in.mbox"
    sent = [mail("ann@example.org", "join Ann", subject="join", n=1), mail("bea@example.org", "list", subject="Which games?", n=2),
            mail("cid@example.org", "Hi, how do I play?", subject="RE: your game", n=3), mail("dot@example.org", "join", subject="", n=4)]
    for message in sent:
        append_mbox(box, message)
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T12:00+00:00")
    assert code == 0, out
    answers = {str(m["To"]): m for k, m in outbox(root).items() if "gm-digest" not in k}
    assert {to: str(m["Subject"]) for to, m in answers.items()} == {
        "ann@example.org": "Re: join", "bea@example.org": "Re: Which games?", "cid@example.org": "RE: your game",
        "dot@example.org": "[spies] join"}
    for n, message in enumerate(sent, 1):
        parent = email.message_from_bytes(message, policy=email.policy.default)["Message-ID"]
        answer = answers[str(email.message_from_bytes(message, policy=email.policy.default)["From"])]
        assert answer["In-Reply-To"] == parent and answer["References"] == parent, (n, answer["In-Reply-To"], parent)


def test_joins_fill_the_seats_and_the_tick_that_fills_the_last_starts_the_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = open_campaign(tmp_path, capsys, schedule={"timezone": "UTC", "start": "3 days", "every": "7 days"})
    box = tmp_path / "in.mbox"
    append_mbox(box, mail("Jean.Dupont+pbem@example.org", "join"))
    append_mbox(box, mail("stranger@example.org", "leave"))
    append_mbox(box, mail("sue@example.org", "join Sue Storm"))
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T12:00+00:00")
    assert code == 0 and "jean-dupont joined" in out and "sue-storm joined" in out, out
    assert "# the GM's own comment" in (root / "campaign.yaml").read_text()
    code, out = pbem(capsys, "status", root)
    assert "2 of 3 seats taken" in out and "jean-dupont" in out
    replies = {k: m for k, m in outbox(root).items() if "gm-digest" not in k}
    assert len(replies) == 2  # the stranger's leave gets nothing
    [digest] = [m.get_body(("plain",)).get_content() for k, m in outbox(root).items() if "gm-digest" in k]  # joins are in the GM's digest (design 15)
    assert "- jean-dupont joined\n- sue-storm joined\n" in digest, digest
    assert "you hold the seat 'jean-dupont'" in replies["turn-000/signup-00001.eml"].get_body(("plain",)).get_content()
    append_mbox(box, mail("bob@example.org", "join Bob"))
    append_mbox(box, mail("carl@example.org", "join Carl"))
    code, out = pbem(capsys, "run", root, "--now", "2026-12-02T12:00+00:00")
    assert code == 0 and "started with 3 players, turn 1 due" in out and "carl on the waiting list (place 1)" in out, out
    assert "6 messages built" in out and len(outbox(root)) == 3 + 6, (out, sorted(outbox(root)))  # two answers, three welcomes, the digest
    [last] = [m.get_body(("plain",)).get_content() for k, m in outbox(root).items() if "signup-" in k and "'bob'" in m.get_body(("plain",)).get_content()]
    assert "You took the last seat: the game starts now" in last and "before the start" not in last, last
    [digest] = [m.get_body(("plain",)).get_content() for k, m in outbox(root).items() if "gm-digest" in k and "bob joined" in m.get_body(("plain",)).get_content()]
    assert "carl on the waiting list (place 1)" in digest and "started with 3 players" in digest, digest
    campaign = Campaign.open(root)
    assert campaign.last_turn == 0 and [p["id"] for p in campaign.players] == ["jean-dupont", "sue-storm", "bob"]
    assert campaign.config["schedule"]["start"] == "2026-12-05 12:00"
    code, out = pbem(capsys, "audit", root)
    assert code == 0, out
    passwords = yaml.safe_load((root / "gm" / "passwords.yaml").read_text())
    welcomes = {k: m for k, m in outbox(root).items() if "welcome" in k}
    assert sorted(welcomes) == ["turn-000/welcome-bob.eml", "turn-000/welcome-jean-dupont.eml", "turn-000/welcome-sue-storm.eml"]
    for seat, message in welcomes.items():
        seat = seat.removeprefix("turn-000/welcome-").removesuffix(".eml")
        body = message.get_body(("plain",)).get_content()
        assert f"Your password: {passwords[seat]}" in body
        # trial 2: the judge mailed the password, so the form must not say the GM sent it
        assert 'password: "your password"   # your seat\'s password; keep the quotes' in body and "GM sent" not in body
        assert all(passwords[other] not in body for other in passwords if other != seat)
        assert "Saturday 5 December 2026, 12:00" in body
    code, out = pbem(capsys, "status", root)
    assert code == 0 and "turn 1" in out


def test_a_kill_before_the_record_seats_nobody_twice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = open_campaign(tmp_path, capsys, seats=4)
    box = tmp_path / "in.mbox"
    append_mbox(box, mail("ann@example.org", "join Ann"))
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T12:00+00:00")
    assert "ann joined" in out
    (root / "mail" / "ingest.jsonl").unlink()  # as if killed before the message was recorded
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T12:05+00:00")
    assert code == 0 and [p["id"] for p in Campaign.open(root).players] == ["ann"]
    assert len([k for k in outbox(root) if "gm-digest" not in k]) == 1


def test_hostile_and_taken_names_and_list_floods(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = open_campaign(tmp_path, capsys, seats=4, judge={"start": "gm"})
    box = tmp_path / "in.mbox"
    append_mbox(box, mail("ann@example.org", "join Ann"))
    append_mbox(box, mail("ann2@example.org", "join ANN"))
    append_mbox(box, mail("eve@example.org", "join Ev\u202ee"))
    append_mbox(box, mail("all@example.org", "join"))
    append_mbox(box, mail("ann3@example.org", "join Ann", n=9))
    for n in range(5):
        append_mbox(box, mail("flood@example.org", "list", n=n))
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T12:00+00:00")
    assert code == 0, out
    players = Campaign.open(root).players
    assert [p["id"] for p in players] == ["ann", "all-player"]
    replies = {k: m.get_body(("plain",)).get_content() for k, m in outbox(root).items()}
    assert "'ANN' (for 'ann-2') is already the id of 'ann' (written 'ann' there; names are compared without case" in replies["turn-000/signup-00002.eml"]
    # Trial 5: 'Alice', asked when Alice (alice) plays, was said to "differ only in case" from the id: it is her name as written
    assert any("'Ann' (for 'ann-2') is already the display name of 'ann': each player needs" in body for body in replies.values()), replies
    assert "invisible formatting character" in replies["turn-000/signup-00003.eml"]
    lists = [k for k, body in replies.items() if "The campaigns of this judge" in body]
    assert len(lists) == 1 and "flood@example.org" not in replies[lists[0]] and "ann@" not in replies[lists[0]]
    assert "2 of 4 seats taken" in replies[lists[0]]
    append_mbox(box, mail("bob@example.org", "join Bob"))
    append_mbox(box, mail("cy@example.org", "join Cy"))
    code, out = pbem(capsys, "run", root, "--now", "2026-12-02T12:00+00:00")  # full, but start: gm: the judge waits
    assert Campaign.open(root).is_adjudicated(0) is False
    code, out = pbem(capsys, "start", root, "--now", "2026-12-02T13:00+00:00")
    assert code == 0 and "Started" in out, out
    code, out = pbem(capsys, "start", root, "--now", "2026-12-02T13:00+00:00")
    assert code == 1 and "already started" in out


def test_resign_needs_the_password_and_leaves_the_seat_to_the_stand_in(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from judgekit import campaign as running

    root = running(tmp_path, passwords=True)
    text = (root / "campaign.yaml").read_text()
    (root / "campaign.yaml").write_text("# kept\n" + text)
    box = tmp_path / "spies.mbox"
    passwords = yaml.safe_load((root / "gm" / "passwords.yaml").read_text())
    append_mbox(box, mail("david@example.org", "resign", n=1))
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T12:00+00:00")
    assert code == 0 and "david" not in signup.vacant(Campaign.open(root))
    append_mbox(box, mail("david@example.org", f"resign\npassword: {passwords['david']}", n=2))
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T12:05+00:00")
    assert code == 0 and "seat david vacant from turn 1" in out, out
    campaign = Campaign.open(root)
    assert signup.vacant(campaign) == {"david": 1}
    assert campaign.config["standins"]["david"] == {"on": True, "from": 1}
    assert (root / "campaign.yaml").read_text().startswith("# kept\n")
    replies = {k: m.get_body(("plain",)).get_content() for k, m in outbox(root).items() if "/reply-" in k}
    assert any("NOT answered" in body and "password" in body for body in replies.values())
    assert any("your resignation is recorded" in body and "seat david is vacant" in body for body in replies.values())
    code, out = pbem(capsys, "status", root)
    assert "stand-in" in out
    # Nobody waits: the seat keeps its name, loses the address and gets a password nobody was given (issue 27:
    # the old one no longer works); its history keeps who played it.
    campaign = Campaign.open(root)
    assert "email" not in campaign.player("david") and campaign.player("david")["name"] == "David"
    assert not campaign.password_ok("david", passwords["david"], 1)
    assert not [k for k in outbox(root) if "handover-david" in k]
    before = outbox(root)
    append_mbox(box, mail("david@example.org", f"resign\npassword: {passwords['david']}", n=3))
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T12:10+00:00")
    assert code == 0 and not [k for k in outbox(root) if k not in before and "david@" in str(outbox(root)[k]["To"])]


def _started(tmp_path: Path, capsys: pytest.CaptureFixture[str], judge: dict[str, Any] | None = None) -> tuple[Path, Path]:
    root = open_campaign(tmp_path, capsys, judge=judge, schedule={"timezone": "UTC", "start": "3 days", "every": "7 days"})
    box = tmp_path / "in.mbox"
    for n, who in enumerate(("ann", "bob", "cat", "dan")):
        append_mbox(box, mail(f"{who}@example.org", f"join {who.title()}", n=n))
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T12:00+00:00")
    assert code == 0 and "started with 3 players" in out and "dan on the waiting list (place 1)" in out, out
    return root, box


def test_a_resigned_seat_goes_at_once_to_the_first_waiting_with_a_password_of_their_own(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root, box = _started(tmp_path, capsys)
    old = yaml.safe_load((root / "gm" / "passwords.yaml").read_text())
    before = outbox(root)
    append_mbox(box, mail("bob@example.org", f"resign\npassword: {old['bob']}", n=10))
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T13:00+00:00")
    assert code == 0 and "seat bob taken by Dan <dan@example.org> from turn 1 (first on the waiting list)" in out, out
    campaign = Campaign.open(root)
    assert campaign.player("bob")["email"] == "dan@example.org" and campaign.player("bob")["name"] == "Dan"
    assert campaign.config["signup"]["waiting"] == [] and signup.vacant(campaign) == {}
    assert campaign.config["standins"]["bob"]["on"] is False
    assert "# the GM's own comment" in (root / "campaign.yaml").read_text()
    new = yaml.safe_load((root / "gm" / "passwords.yaml").read_text())["bob"]
    assert new != old["bob"] and not campaign.password_ok("bob", old["bob"], 1) and campaign.password_ok("bob", new, 1)
    fresh = {k: m for k, m in outbox(root).items() if k not in before}
    holding = [m for m in fresh.values() if "you hold the seat bob" in m["Subject"]]
    assert len(holding) == 1 and [a.addr_spec for a in holding[0]["To"].addresses] == ["dan@example.org"]
    assert new in holding[0].get_body(("plain",)).get_content()
    assert all(new not in m.get_body(("plain",)).get_content() for k, m in outbox(root).items() if m is not holding[0] and "dan@" not in str(m["To"]))
    digest = [m.get_body(("plain",)).get_content() for m in fresh.values() if "what happened" in m["Subject"]]
    assert digest and "seat bob taken by Dan" in digest[0] and "command 'resign' from bob" in digest[0]
    # Trial 5: the reply and the digest said the stand-in plays the seat the waiting player took in the same tick
    assert "stand-in" not in digest[0] and "the seat bob is taken over at once by the first player on the waiting list" in digest[0]
    [resigned] = [m.get_body(("plain",)).get_content() for k, m in fresh.items() if "/reply-" in k]
    assert "stand-in" not in resigned and "the seat bob is taken over at once by the first player on the waiting list" in resigned
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T13:05+00:00")  # again: nobody seated twice
    assert "taken by" not in out and Campaign.open(root).player("bob")["email"] == "dan@example.org"
    code, out = pbem(capsys, "audit", root)
    assert code == 0, out


def test_takeover_of_a_vacant_seat_and_a_join_after_the_start(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root, box = _started(tmp_path, capsys)
    old = yaml.safe_load((root / "gm" / "passwords.yaml").read_text())
    append_mbox(box, mail("dan@example.org", "leave", n=10))  # off the waiting list
    append_mbox(box, mail("cat@example.org", f"resign\npassword: {old['cat']}", n=11))
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T13:00+00:00")
    assert "seat cat vacant from turn 1" in out, out
    append_mbox(box, mail("ann@example.org", "takeover cat", n=12))  # seated elsewhere: refused
    append_mbox(box, mail("eve@example.org", "takeover bob", n=13))  # not vacant: refused
    append_mbox(box, mail("eve@example.org", "takeover cat Eve", n=14))
    append_mbox(box, mail("fay@example.org", "join Fay", n=15))  # after the start: the waiting list
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T14:00+00:00")
    assert code == 0 and "seat cat taken by Eve <eve@example.org> from turn 1 (takeover)" in out, out
    campaign = Campaign.open(root)
    assert campaign.player("cat")["email"] == "eve@example.org" and [w["id"] for w in campaign.config["signup"]["waiting"]] == ["fay"]
    replies = {k: m.get_body(("plain",)).get_content() for k, m in outbox(root).items() if "signup-" in k}
    assert any("you already hold the seat ann" in b for b in replies.values())
    assert any("the seat bob is not vacant" in b for b in replies.values())
    assert any("number 1 on the waiting list" in b for b in replies.values())
    code, out = pbem(capsys, "audit", root)
    assert code == 0, out


def test_join_and_takeover_without_a_name_show_the_from_headers_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Trial 3: `takeover dev` from "Quinn Lee <quinn@new.example>" got the display name `quinn`. A join or a
    takeover that gives no name is shown by the From header's name (a name it cannot have is not a refusal)."""
    root, box = _started(tmp_path, capsys)
    old = yaml.safe_load((root / "gm" / "passwords.yaml").read_text())
    append_mbox(box, mail("dan@example.org", "leave", n=10))  # off the waiting list
    append_mbox(box, mail("cat@example.org", f"resign\npassword: {old['cat']}", n=11))
    append_mbox(box, mail("bob@example.org", f"resign\npassword: {old['bob']}", n=12))
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T13:00+00:00")
    assert "seat cat vacant from turn 1" in out and "seat bob vacant from turn 1" in out, out
    append_mbox(box, mail("Quinn Lee <quinn@new.example>", "takeover cat", n=13))
    append_mbox(box, mail("Ann <rex@new.example>", "takeover bob", n=14))  # Ann is another seat's name: the address's
    append_mbox(box, mail("Gil Moss <gil@new.example>", "join", n=15))
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T14:00+00:00")
    assert code == 0 and "seat cat taken by Quinn Lee <quinn@new.example>" in out and "seat bob taken by rex <rex@new.example>" in out, out
    assert Campaign.open(root).config["signup"]["waiting"] == [{"id": "gil", "name": "Gil Moss", "email": "gil@new.example"}]


def test_a_player_who_resigns_before_playing_keeps_their_mail_and_is_known_after_a_takeover(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The seat's holder who leaves before their first turn is kept in its history (to = from - 1): the reply
    to their resignation, still unsent when the seat is taken over, stays addressed to them (it once went to
    the new holder as if the GM had corrected an address); their later wrong-password mail is told as a
    former holder's; the GM's digest tells the takeover in two lines (asked, done), not three."""
    root, box = _started(tmp_path, capsys, judge={"gm_digest": True})
    old = yaml.safe_load((root / "gm" / "passwords.yaml").read_text())
    append_mbox(box, mail("dan@example.org", "leave", n=10))
    append_mbox(box, mail("cat@example.org", f"resign\npassword: {old['cat']}", n=11))
    assert pbem(capsys, "run", root, "--now", "2026-12-01T13:00+00:00")[0] == 0  # no --send: the reply waits in the outbox
    [resigned] = [k for k, m in outbox(root).items() if "/reply-" in k and "your resignation is recorded" in m.get_body(("plain",)).get_content()]
    before = outbox(root)
    append_mbox(box, mail("eve@example.org", "takeover cat Eve", n=12))
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T14:00+00:00")
    assert code == 0 and "taken by Eve" in out and "corrected address" not in out, out
    assert [a.addr_spec for a in outbox(root)[resigned]["To"].addresses] == ["cat@example.org"]
    seat = Campaign.open(root).player("cat")
    assert [(h["name"], h["from"], h["to"], h["email"]) for h in seat["history"]] == [("Cat", 1, 0, "cat@example.org")]
    digest = next(m.get_body(("plain",)).get_content() for k, m in outbox(root).items() if k not in before and "what happened" in m["Subject"])
    assert [line for line in digest.splitlines() if "cat" in line] == [
        "- eve@example.org takes over cat", "- seat cat taken by Eve <eve@example.org> from turn 1 (takeover)"], digest
    before = outbox(root)
    append_mbox(box, mail("cat@example.org", "orders:\n- steal: ann", subject="orders", n=13))
    assert pbem(capsys, "run", root, "--now", "2026-12-01T15:00+00:00")[0] == 0
    digest = next(m.get_body(("plain",)).get_content() for k, m in outbox(root).items() if k not in before and "what happened" in m["Subject"])
    assert "(the sender no longer holds a seat: they left cat (before playing a turn))" in digest, digest
    code, out = pbem(capsys, "audit", root)
    assert code == 0, out


def test_a_join_after_the_start_takes_a_seat_left_vacant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A seat whose player resigned with nobody waiting stays vacant; a newcomer who writes `list` learns of it and
    one who writes `join` takes it in the same tick (before: wait-listed, "every seat is taken", never seated)."""
    root, box = _started(tmp_path, capsys)
    old = yaml.safe_load((root / "gm" / "passwords.yaml").read_text())
    append_mbox(box, mail("dan@example.org", "leave", n=10))  # off the waiting list: nobody waits
    append_mbox(box, mail("cat@example.org", f"resign\npassword: {old['cat']}", n=11))
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T13:00+00:00")
    assert "seat cat vacant from turn 1" in out, out
    append_mbox(box, mail("ana@example.org", "list", n=12))
    append_mbox(box, mail("ana@example.org", "join Ana Sousa", n=13))
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T14:00+00:00")
    assert code == 0 and "seat cat taken by Ana Sousa <ana@example.org> from turn 1 (first on the waiting list)" in out, out
    campaign = Campaign.open(root)
    assert campaign.player("cat")["email"] == "ana@example.org" and campaign.config["signup"]["waiting"] == [] and signup.vacant(campaign) == {}
    replies = {k: m.get_body(("plain",)).get_content() for k, m in outbox(root).items() if "signup-" in k}
    [listed] = [b for b in replies.values() if "The campaigns of this judge" in b]
    assert "vacant: cat (write join YOUR NAME to take one)" in listed, listed
    [joined] = [b for b in replies.values() if "Ana" in b or "vacant and is yours" in b]
    assert "the seat cat is vacant and is yours" in joined and "every seat is taken" not in joined, joined
    assert any("you hold the seat cat" in m["Subject"] for m in outbox(root).values())
    code, out = pbem(capsys, "audit", root)
    assert code == 0, out


def test_a_strangers_mail_to_a_campaign_signing_up_is_answered_with_how_to_join_once_a_day(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A mistyped join or a `help` from someone not seated got no answer at all; now they hear how to join,
    at most once a day per address (the limit of `list`), and nothing is seated."""
    root = open_campaign(tmp_path, capsys)
    box = tmp_path / "in.mbox"
    append_mbox(box, mail("lukasz@example.org", "jion Łukasz", n=1))
    append_mbox(box, mail("lukasz@example.org", "help", n=2))
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T12:00+00:00")
    assert code == 0 and out.strip().endswith("2 sign-up messages, 1 message built"), out
    answers = [m for k, m in outbox(root).items() if "signup-" in k]
    assert len(answers) == 1 and [a.addr_spec for a in answers[0]["To"].addresses] == ["lukasz@example.org"]
    body = answers[0].get_body(("plain",)).get_content()
    assert "your message holds no sign-up command" in body and "write join YOUR NAME" in body and "0 of 3 seats taken" in body, body
    assert Campaign.open(root).players == []
    append_mbox(box, mail("lukasz@example.org", "jion again", n=3))
    pbem(capsys, "run", root, "--now", "2026-12-02T12:00+00:00")  # the next day: answered again, once
    assert len([k for k in outbox(root) if "signup-" in k]) == 2


def test_with_takeover_gm_the_request_only_tells_the_gm(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root, box = _started(tmp_path, capsys, judge={"takeover": "gm"})
    old = yaml.safe_load((root / "gm" / "passwords.yaml").read_text())
    append_mbox(box, mail("dan@example.org", "leave", n=10))
    append_mbox(box, mail("cat@example.org", f"resign\npassword: {old['cat']}", n=11))
    assert pbem(capsys, "run", root, "--now", "2026-12-01T13:00+00:00")[0] == 0
    append_mbox(box, mail("eve@example.org", "takeover cat", n=12))
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T14:00+00:00")
    assert code == 0 and "eve@example.org asks to take over cat" in out and "taken by" not in out, out
    assert "email" not in Campaign.open(root).player("cat")


def test_observers_get_each_later_public_report_and_nothing_private(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root, box = _started(tmp_path, capsys)
    passwords = yaml.safe_load((root / "gm" / "passwords.yaml").read_text())
    append_mbox(box, mail("watcher@example.org", "observe", n=20))  # after the start: anyone
    append_mbox(box, mail("other@example.org", "observe", n=21))
    append_mbox(box, mail("nosy@example.org", "list", n=22))
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T13:00+00:00")
    assert code == 0 and "watcher@example.org observes" in out, out
    listing = next(m.get_body(("plain",)).get_content() for m in outbox(root).values() if "nosy@" in str(m["To"]))
    assert "running" in listing and "@" not in listing.replace("nosy@", "")
    for n, seat in enumerate(("ann", "bob", "cat")):
        body = f"player: {seat}\nturn: 1\npassword: {passwords[seat]}\norders: []\n"
        append_mbox(box, mail(f"{seat}@example.org", body, subject="orders", n=30 + n))
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T14:00+00:00")
    assert "turn 1 adjudicated early" in out, out
    watched = {k: m for k, m in outbox(root).items() if "/observe-" in k}
    assert sorted(str(m["To"]) for m in watched.values()) == ["other@example.org", "watcher@example.org"]
    public = (root / "turn-001" / "reports" / "public.md").read_text()
    private = [(root / "turn-001" / "reports" / f"{s}.txt").read_text() for s in ("ann", "bob", "cat")]
    for message in watched.values():
        body = message.get_body(("plain",)).get_content()
        assert "Results of turn 1" not in body and all(p.splitlines()[1] not in body for p in private)
        assert public.splitlines()[0].strip("# ") in body and "other@" not in body and "watcher@" not in body
        assert all(pw not in body for pw in passwords.values())
    append_mbox(box, mail("other@example.org", "unobserve", n=40))
    assert pbem(capsys, "run", root, "--now", "2026-12-01T15:00+00:00")[0] == 0
    assert signup.observers(Campaign.open(root)) == ["watcher@example.org"]


def test_a_kill_in_the_middle_of_a_handover_seats_nobody_twice(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from adjudicator.judge import run, seats

    root, box = _started(tmp_path, capsys)
    old = yaml.safe_load((root / "gm" / "passwords.yaml").read_text())
    append_mbox(box, mail("bob@example.org", f"resign\npassword: {old['bob']}", n=10))
    real = signup.write_config

    def killed(campaign: Any, updates: dict[str, Any]) -> None:
        if "waiting" in (updates.get("signup") or {}) and Campaign.open(campaign.root).player("bob").get("email") == "dan@example.org":
            raise KeyboardInterrupt  # after pbem replace's write, before the waiting list and vacant seats are updated
        real(campaign, updates)

    monkeypatch.setattr(seats.signup, "write_config", killed)
    with pytest.raises(KeyboardInterrupt):
        run.tick(root, signup_moment("2026-12-01T13:00+00:00"))
    monkeypatch.setattr(seats.signup, "write_config", real)
    first = yaml.safe_load((root / "gm" / "passwords.yaml").read_text())["bob"]
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T13:05+00:00")
    assert code == 0 and "seat bob taken by Dan" in out, out
    campaign = Campaign.open(root)
    assert campaign.player("bob")["email"] == "dan@example.org" and campaign.config["signup"]["waiting"] == []
    assert [h["name"] for h in campaign.player("bob").get("history") or []] in ([], ["Bob"])
    assert yaml.safe_load((root / "gm" / "passwords.yaml").read_text())["bob"] == first  # not handed over twice
    assert len([k for k in outbox(root) if "/seat-bob-" in k]) == 1
    code, out = pbem(capsys, "audit", root)
    assert code == 0, out


def signup_moment(text: str) -> Any:
    from adjudicator.campaign.schedule import moment

    return moment(text)


def test_after_the_start_a_sign_up_command_naming_another_campaign_is_left_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root, box = _started(tmp_path, capsys)
    append_mbox(box, mail("eve@example.org", "observe\ncampaign: elsewhere", n=50))
    append_mbox(box, mail("fay@example.org", "observe", subject="[Elsewhere] watch", n=51))
    append_mbox(box, mail("gus@example.org", "observe\ncampaign: SPIES", n=52))
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T13:00+00:00")
    assert code == 0 and signup.observers(Campaign.open(root)) == ["gus@example.org"], out


def test_an_observer_before_the_start_gets_the_opening_and_every_report_with_the_public_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Trial 5: observers got the turn reports as plain text only (design 18: the public report mail carries the
    public board), and one who signed up before the start got no opening public report."""
    from adjudicator.mail.boards import board_png

    root = open_campaign(tmp_path, capsys, schedule={"timezone": "UTC", "start": "3 days", "every": "7 days"})
    box = tmp_path / "in.mbox"
    append_mbox(box, mail("early@example.org", "observe", n=90))
    for n, who in enumerate(("ann", "bob", "cat")):
        append_mbox(box, mail(f"{who}@example.org", f"join {who.title()}", n=n))
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T12:00+00:00")
    assert code == 0 and "started with 3 players" in out, out
    passwords = yaml.safe_load((root / "gm" / "passwords.yaml").read_text())
    for n, seat in enumerate(("ann", "bob", "cat")):
        append_mbox(box, mail(f"{seat}@example.org", f"player: {seat}\nturn: 1\npassword: {passwords[seat]}\norders: []\n", subject="orders", n=30 + n))
    assert "turn 1 adjudicated early" in pbem(capsys, "run", root, "--now", "2026-12-01T14:00+00:00")[1]
    campaign = Campaign.open(root)
    watched = {k: m for k, m in outbox(root).items() if "/observe-" in k}
    assert sorted(k.split("/")[0] for k in watched) == ["turn-000", "turn-001"], "the opening too"
    for name, message in watched.items():
        turn = int(name[5:8])
        assert str(message["To"]) == "early@example.org" and message.get_content_type() == "multipart/alternative"
        assert "observer" in message.get_body(("plain",)).get_content()
        [image] = [p for p in message.walk() if p.get_content_type() == "image/png"]
        assert image.get_content() == board_png("secrets", campaign.game.view(campaign.state(turn), None), f"board-{turn}").png, "the public board"
        assert f'src="cid:{image["Content-ID"].strip("<>")}"' in message.get_body(("html",)).get_content()


def test_a_join_after_the_last_turn_hears_the_game_is_over(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Trial 5: `join Gina` after the end was told "the game has started; sign-up is closed"."""
    from adjudicator.campaign.adjudicate import adjudicate

    root = open_campaign(tmp_path, capsys)
    for n, who in enumerate(("ann", "bob", "cat")):
        append_mbox(tmp_path / "in.mbox", mail(f"{who}@example.org", f"join {who.title()}", n=n))
    assert pbem(capsys, "run", root, "--now", "2026-12-01T12:00+00:00")[0] == 0
    for _ in range(5):
        adjudicate(root, nmr=True)
    assert Campaign.open(root).over
    append_mbox(tmp_path / "in.mbox", mail("Gina <gina@example.org>", "join Gina", n=9))
    code, out = pbem(capsys, "run", root, "--now", "2026-12-30T12:00+00:00")
    assert code == 0, out
    [reply] = [m for m in outbox(root).values() if m["To"].addresses[0].addr_spec == "gina@example.org"]
    text = reply.get_body(("plain",)).get_content()
    assert "the game is over" in text and "sign-up is closed" not in text and "started" not in text, text


def test_a_waiting_player_and_an_observer_hear_what_they_may_do(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Trial 5: a waiting player's `status` and an observer's `press all` got no answer at all, only a line
    in the GM's digest ("registered for no seat")."""
    root = open_campaign(tmp_path, capsys)
    for n, who in enumerate(("ann", "bob", "cat", "dan")):
        append_mbox(tmp_path / "in.mbox", mail(f"{who}@example.org", f"join {who.title()}", n=n))
    append_mbox(tmp_path / "in.mbox", mail("olga@example.org", "observe", n=5))
    assert pbem(capsys, "run", root, "--now", "2026-12-01T12:00+00:00")[0] == 0
    assert [w["email"] for w in signup.read(Campaign.open(root)).waiting] == ["dan@example.org"]
    append_mbox(tmp_path / "in.mbox", mail("dan@example.org", "status", n=6))
    append_mbox(tmp_path / "in.mbox", mail("olga@example.org", "press all\nHello players!", n=7))
    assert pbem(capsys, "run", root, "--now", "2026-12-01T13:00+00:00")[0] == 0
    replies = {m["To"].addresses[0].addr_spec: m.get_body(("plain",)).get_content() for name, m in outbox(root).items() if "/reply-" in name}
    assert "your 'status' was not answered: you hold no seat in this game: you are on its waiting list (dan, place 1 of 1)" in replies["dan@example.org"]
    assert "Send leave to leave the list" in replies["dan@example.org"]
    assert "your 'press' was not answered: you observe this game" in replies["olga@example.org"]
    assert "Send unobserve to stop" in replies["olga@example.org"]
    assert not any("Hello players" in m.get_body(("plain",)).get_content() for m in outbox(root).values())
