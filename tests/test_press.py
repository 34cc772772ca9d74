"""Press (design 12): relayed to the named players only, signed or anonymous as campaign.yaml says,
kept in mail/press/, never part of a turn."""

from __future__ import annotations

import json
from email.message import EmailMessage
from pathlib import Path

import pytest
import yaml
from test_ingest import maildir, passwords, snapshot
from test_mail_commands import NOW, make, outbox, pw, run, to

from adjudicator.campaign.adjudicate import adjudicate
from adjudicator.campaign.audit import audit
from adjudicator.campaign.create import create
from adjudicator.games import GAMES
from adjudicator.mail import press
from adjudicator.mail.ingest import ingest


def press_mail(sender: str, first: str, text: str, message_id: str, **headers: str) -> EmailMessage:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, "gm@example.org", headers.pop("subject", "a word")
    message["Date"], message["Message-ID"] = headers.pop("date", "Mon, 30 Nov 2026 10:00:00 +0000"), message_id
    for name, value in headers.items():
        message[name.replace("_", "-")] = value
    message.set_content(f"{first}\n{text}")
    return message


def relayed(root: Path) -> dict[str, EmailMessage]:
    return {name: m for name, m in outbox(root).items() if "/press-" in name}


def test_anonymous_press_carries_nothing_of_its_sender(tmp_path: Path) -> None:
    """The same anonymous text from two different players: the receiver gets the same bytes."""
    copies = []
    for sender, agent in (("tony", "Mutt/2.2.12"), ("maria", "Thunderbird/115.5")):
        root = make(tmp_path / sender, press="anonymous")
        message = press_mail(
            f"{sender.capitalize()} <{sender}@example.org>", "press david", f"{pw(root, sender)}Watch your secret 8.\n\nOn Mon, {sender} <{sender}@example.org> wrote:\n> my earlier mail, home\n-- \n{sender} from home\n",
            f"<{sender}-unique-{agent}@{sender}.example.org>", User_Agent=agent, X_Mailer=agent, Reply_To=f"{sender}@home.example",
            date=("Mon, 30 Nov 2026 10:00:00 +0000" if sender == "tony" else "Tue, 01 Dec 2026 23:59:00 -0800"),
        )
        run(root, tmp_path / sender, message)
        files = relayed(root)
        assert list(files) == ["turn-001/press-00001-david.eml"]
        copies.append((root / "mail" / "outbox" / "turn-001" / "press-00001-david.eml").read_bytes())
        text = copies[-1].decode()
        for tell in (sender, sender.capitalize(), agent, "unique", "home", "Date:", "In-Reply-To", "References"):
            assert tell not in text, f"{tell!r} reached the receiver"
        assert "Watch your secret 8." in text
    assert copies[0] == copies[1]


def test_signed_press_names_its_sender_and_reaches_only_the_named(tmp_path: Path) -> None:
    root = make(tmp_path / "spies", press_copy_gm=True)
    run(root, tmp_path, press_mail("tony@example.org", "Press María José", f"{pw(root, 'tony')}player: tony\nShall we gang up on David?\n", "<p@x>"))
    files = relayed(root)
    assert set(files) == {"turn-001/press-00001-maria.eml", "turn-001/press-00001-gm.eml"}
    to_maria = files["turn-001/press-00001-maria.eml"]
    assert to(to_maria) == ["maria@example.org"] and str(to_maria["Subject"]) == "[Spies] press from Tony"
    body = to_maria.get_content()
    assert body.startswith("Press from Tony (tony) to María José, turn 1.\n\nShall we gang up on David?\n")
    assert passwords(root)["tony"] not in body and "player: tony" not in body  # the envelope lines are the judge's
    assert to(files["turn-001/press-00001-gm.eml"]) == ["gm@example.org"]
    record = json.loads((root / "mail" / "press" / "00001.json").read_text())
    assert record == {"seq": 1, "turn": 1, "from": "tony", "to": ["maria"], "anonymous": False, "text": "Shall we gang up on David?\n"}
    receipt = outbox(root)["turn-001/reply-00001.eml"]
    assert to(receipt) == ["tony@example.org"] and "relayed signed with your name to María José" in receipt.get_content()


def test_press_named_in_the_subject_relays_the_whole_text(tmp_path: Path) -> None:
    root = make(tmp_path / "spies")
    run(root, tmp_path, press_mail("tony@example.org", "David: a deal?", f"{pw(root, 'tony')}Guard 10, I guard 9.\n", "<p@x>", subject="Press David, María José"))
    files = relayed(root)
    assert set(files) == {"turn-001/press-00001-david.eml", "turn-001/press-00001-maria.eml"}
    assert "David: a deal?\nGuard 10, I guard 9.\n" in files["turn-001/press-00001-david.eml"].get_content()


@pytest.mark.parametrize(
    ("mode", "first", "outcome"),
    [
        ("grey", "press david", "signed"),
        ("grey", "press anonymous david", "anonymous"),
        ("anonymous", "press david", "anonymous"),
        ("signed", "press anonymous david", "NOT relayed: this campaign's press is signed only"),
        ("none", "press david", "NOT relayed: this campaign has no press"),
        ("bogus", "press david", "NOT relayed: campaign.yaml's judge.press is 'bogus'"),
        ("signed", "press bob", "NOT relayed: 'bob' names no player"),
        ("signed", "press tony", "NOT relayed: it names no player but yourself"),
        ("signed", "press", "NOT relayed: it names no player but yourself"),
    ],
)
def test_press_modes_and_refusals(tmp_path: Path, mode: str, first: str, outcome: str) -> None:
    root = make(tmp_path / "spies", press=mode)
    run(root, tmp_path, press_mail("tony@example.org", first, f"{pw(root, 'tony')}Hello.\n", "<p@x>"))
    files, receipt = relayed(root), outbox(root)["turn-001/reply-00001.eml"].get_content()
    if outcome in ("signed", "anonymous"):
        assert list(files) == ["turn-001/press-00001-david.eml"]
        subject = str(files["turn-001/press-00001-david.eml"]["Subject"])
        assert subject == ("[Spies] anonymous press" if outcome == "anonymous" else "[Spies] press from Tony")
    else:
        assert files == {} and outcome in receipt and not (root / "mail" / "press").exists()


def test_size_cap_and_empty_text(tmp_path: Path) -> None:
    root = make(tmp_path / "spies")
    run(root, tmp_path, press_mail("tony@example.org", "press all", pw(root, "tony") + "x" * (press.MAX_PRESS_CHARS + 1) + "\n", "<big@x>"),
        press_mail("tony@example.org", "press all", pw(root, "tony"), "<empty@x>"))
    assert relayed(root) == {}
    assert f"more than the {press.MAX_PRESS_CHARS} press may hold" in outbox(root)["turn-001/reply-00001.eml"].get_content()
    assert "it has no text below the press line" in outbox(root)["turn-001/reply-00002.eml"].get_content()


def test_each_receiver_counts_their_own_press(tmp_path: Path) -> None:
    """Two identical anonymous messages to one player are two messages (two Message-IDs), and the count in
    them is the receiver's own: press to others between them does not show."""
    root = make(tmp_path / "spies", press="anonymous")
    text = f"{pw(root, 'tony')}Boo.\n"
    run(root, tmp_path, press_mail("tony@example.org", "press david", text, "<1@x>"),
        press_mail("tony@example.org", "press maria", text, "<2@x>"),
        press_mail("tony@example.org", "press david", text, "<3@x>"))
    files = relayed(root)
    ids = [str(files[f"turn-001/press-0000{n}-david.eml"]["Message-ID"]) for n in (1, 3)]
    assert ids[0] != ids[1] and ".press-1." in ids[0] and ".press-2." in ids[1]
    assert ".press-1." in str(files["turn-001/press-00002-maria.eml"]["Message-ID"])


def test_press_is_never_part_of_a_turn(tmp_path: Path) -> None:
    quiet, busy = make(tmp_path / "quiet", passwords=False, schedule=False), make(tmp_path / "busy", passwords=False, schedule=False)
    run(busy, tmp_path, press_mail("tony@example.org", "press all", "I will steal secret 10 from David.\n", "<p@x>"))
    assert relayed(busy)
    for root in (quiet, busy):
        adjudicate(root, nmr=True)
        assert audit(root).divergence is None
    turn = {k: v for k, v in snapshot(quiet).items() if k.startswith("turn-")}
    assert turn == {k: v for k, v in snapshot(busy).items() if k.startswith("turn-")}


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_press_never_reaches_an_unnamed_player(game_id: str, tmp_path: Path) -> None:
    game = GAMES[game_id]
    count = min(max(game.min_players, 4), game.max_players)
    ids = ["tony", "david", "maria", "sue", "omar"][:count]
    root = tmp_path / game_id
    create(root, game_id, [{"id": p, "name": p.capitalize(), "email": f"{p}@example.org"} for p in ids],
           seed=f"{game_id}-press", gm_email="gm@example.org", name="Spies", passwords=False)
    config = yaml.safe_load((root / "campaign.yaml").read_text())
    config["judge"] = {"press": "grey"}
    (root / "campaign.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    messages, named = [], {}
    for n, sender in enumerate(ids):
        receivers = [ids[(n + 1) % count]]  # one neighbour; the first sender names everyone else by name
        if n == 0 and count > 2:
            receivers = [p.capitalize() for p in ids[2:]]
        token = f"token-{sender}-{n}"
        anonymous = "anonymous " if n % 2 else ""
        messages.append(press_mail(f"{sender}@example.org", f"press {anonymous}{', '.join(receivers)}", f"{token}\n", f"<{token}@x>"))
        named[token] = {r.lower() for r in receivers}
    ingest(root, [maildir(tmp_path, messages)], now=NOW)
    sent = outbox(root)
    assert sum("/press-" in name for name in sent) == sum(len(v) for v in named.values())
    for name, message in sent.items():
        content = message.get_content()
        for token, receivers in named.items():
            if token in content and "/reply-" in name:  # an anonymous press's receipt shows its sender the text sent
                assert to(message) == [f"{token.split('-')[1]}@example.org"], f"{token} reached {to(message)} ({name})"
            elif token in content:
                assert "/press-" in name and {a.split("@")[0] for a in to(message)} <= receivers, f"{token} reached {to(message)} ({name})"


def test_receivers_by_id_name_or_all_with_or_without_commas() -> None:
    state = {"players": ["tony", "david", "maria"], "names": {"tony": "Tony", "david": "David", "maria": "María José"}}
    assert press.receivers(state, "tony", "David María José") == ["david", "maria"]  # a name of two words, no commas
    assert press.receivers(state, "tony", "maría josé, DAVID") == ["david", "maria"]
    assert press.receivers(state, "tony", "to maria") == ["maria"]
    assert press.receivers(state, "david", "all") == ["tony", "maria"]
    with pytest.raises(press.PressError, match="'Bob' names no player"):
        press.receivers(state, "tony", "David Bob")


def test_anonymous_press_leaves_out_a_phone_signature_and_the_senders_name_and_shows_what_went(tmp_path: Path) -> None:
    """Trial 3: Anna's `press anonymous all` ended `Anna Berg` / `Sent from my phone`, and both reached the
    receivers. A client's signature line is cut as any signature is; under anonymous press a closing line that
    is the sender's name (seat name, id, first name or the From header's name) is cut too, and the sender's
    confirmation says what was left out and shows the text as they got it."""
    root = make(tmp_path / "spies", press="grey")
    for n, (closing, sender) in enumerate((("María José\nSent from my phone", "Maria <maria@example.org>"),
                                           ("\u2014 Mimi\n\nVon meinem iPhone gesendet", "Mimi <maria@example.org>"),
                                           ("maria\nGet Outlook for Android", "maria@example.org"))):
        message = press_mail(sender, "press anonymous all", f"{pw(root, 'maria')}Someone is bluffing with that 8. Watch Tony.\n\n{closing}\n", f"<a{n}@x>")
        run(root, tmp_path, message, name=f"Maildir{n}")
        copies = {name: m for name, m in relayed(root).items() if f"press-0000{n + 1}-" in name}
        assert sorted(copies) == [f"turn-001/press-0000{n + 1}-david.eml", f"turn-001/press-0000{n + 1}-tony.eml"]
        for copy in copies.values():
            text = copy.get_content()
            assert "Watch Tony." in text
            for tell in ("Mar", "Jos", "Mimi", "maria", "phone", "iPhone", "Outlook", "gesendet"):
                assert tell not in text, f"{tell!r} reached the receiver: {text}"
        receipt = outbox(root)[f"turn-001/reply-0000{n + 1}.eml"].get_content()
        assert "Left out, as it names you: '" + closing.split("\n")[0] + "'." in receipt, receipt
        assert "The text as they got it:\n\n    Someone is bluffing with that 8. Watch Tony.\n" in receipt, receipt
    signed = press_mail("maria@example.org", "press all", f"{pw(root, 'maria')}Good luck.\n\nMaría José\nSent from my iPhone\n", "<s@x>")
    run(root, tmp_path, signed, name="MaildirSigned")
    text = relayed(root)["turn-001/press-00004-david.eml"].get_content()
    assert "Good luck.\n\nMaría José\n" in text and "iPhone" not in text  # signed: the name stays, the phone's line goes
