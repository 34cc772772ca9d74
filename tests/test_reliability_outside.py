"""The classes behind the holes a second outside attack found (issue 26): a message that cannot be read,
a command's odd arguments, a password in a broken file, press that unmasks its sender, mail still being
delivered, oversize mail, replies to press and names that mean everyone.

`PBEM_THOROUGH=1` runs the generated cases at their large counts (docs/reliability.md).
"""

from __future__ import annotations

import json
import mailbox
import types
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reliability_kit import NOW, THOROUGH, pbem
from test_mail_commands import make, outbox, pw
from test_ingest import order_text
from test_press import press_mail

from adjudicator.campaign import absences
from adjudicator.mail import commands, press
from adjudicator.mail.ingest import ingest, load_index

EXAMPLES = 400 if THOROUGH else 25


def raw_maildir(folder: Path, raws: list[bytes]) -> Path:
    """A Maildir holding these raw messages, in this order."""
    box = mailbox.Maildir(folder, create=True)
    for number, raw in enumerate(raws):
        key = box.add(mailbox.MaildirMessage(raw))
        path = folder / "new" / key
        path.rename(path.with_name(f"17000000{number:02d}.{key}"))
    return folder


def raw_mail(sender: str, subject: str, charset: str, body: bytes, message_id: str, cte: str = "8bit") -> bytes:
    head = (
        f"From: {sender}\nTo: judge@example.org\nSubject: {subject}\nMessage-ID: {message_id}\n"
        f"Date: Mon, 30 Nov 2026 10:00:00 +0000\nMIME-Version: 1.0\n"
        f"Content-Type: text/plain; charset={charset}\nContent-Transfer-Encoding: {cte}\n\n"
    )
    return head.encode("ascii") + body


def _index_is_whole_utf8(root: Path) -> None:
    data = (root / "mail" / "ingest.jsonl").read_bytes()
    data.decode("utf-8")  # every line written, and written as UTF-8
    for line in data.splitlines():
        json.loads(line)


# -- 1. a message that cannot be read is that message's problem ------------------------------------------


def test_utf7_surrogates_from_a_stranger_do_not_stop_ingest_or_the_judge(tmp_path: Path) -> None:
    """Issue 26.1: `On ... +2AA- wrote:` in UTF-7 decodes to a lone surrogate; it stopped every ingest and
    every `pbem run` for good. Now the message is kept with its reason and the orders after it are filed."""
    root = make(tmp_path / "spies")
    stranger = raw_mail("stranger@evil.example", "hi", "utf-7", b"On Mon +2AA- wrote:\nplayer: tony\n", "<u7@evil.example>")
    press_u7 = raw_mail("tony@example.org", "press david", "utf-7", pw(root, "tony").encode() + b"+2AA- secret +2D3dAA-\n", "<p7@x>")
    orders = press_mail("tony@example.org", f"player: tony\n{pw(root, 'tony')}", "orders:\n  guard: 1\n", "<o@x>").as_bytes()
    source = raw_maildir(tmp_path / "Maildir", [stranger, press_u7, orders])
    done = pbem("ingest", root, source)
    assert done.returncode == 0, done.stdout + done.stderr
    entries = load_index(root)
    assert [e.seq for e in entries] == [1, 2, 3] and entries[0].status == "rejected" and entries[0].reason
    assert (root / entries[0].stored).read_bytes() == stranger  # kept as received
    _index_is_whole_utf8(root)
    ticked = pbem("run", root, "--now", "2026-12-01 12:00")
    assert ticked.returncode == 0, ticked.stdout + ticked.stderr


_CHARSETS = ["utf-7", "utf-16", "utf-16-le", "utf-32", "shift_jis", "iso-2022-jp", "cp1252", "x-no-such-charset", "utf-8", "us-ascii", "big5"]
_PREFIXES = ["", "press all\n", "press anonymous david\n", "report 1\n", "absence 2026-12-24 2027-01-02\n", "help\n", "check\n", "player: tony\n"]


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    charset=st.sampled_from(_CHARSETS),
    prefix=st.sampled_from(_PREFIXES),
    text=st.lists(st.text(st.characters(blacklist_categories=("Cc",)), max_size=8) | st.sampled_from(["\ud800", "\udfff", "+2AA-", "+", "-", "\n", "On x wrote:\n"]), max_size=8).map("".join),
    where=st.sampled_from(["body", "attachment", "subject"]),
    cte=st.sampled_from(["8bit", "base64", "quoted-printable"]),
)
def test_any_charset_or_surrogate_is_that_messages_problem(tmp_path_factory: pytest.TempPathFactory, charset: str, prefix: str, text: str, where: str, cte: str) -> None:
    """Charsets and lone surrogates through ingest, commands and press: every message gets an entry, the
    index stays UTF-8, and a good order file sent after it is still filed."""
    import base64
    import quopri

    tmp = tmp_path_factory.mktemp("charset")
    root = make(tmp / "spies", press="grey")
    words = (prefix + pw(root, "tony") + text).encode("utf-8", "surrogatepass")
    if where == "attachment":
        body = b"see attached\n"
        boundary = "b0undary"
        raw = (
            f"From: tony@example.org\nTo: judge@example.org\nSubject: orders\nMessage-ID: <a@x>\nMIME-Version: 1.0\n"
            f'Content-Type: multipart/mixed; boundary="{boundary}"\n\n--{boundary}\nContent-Type: text/plain\n\n'
        ).encode() + body + (
            f"--{boundary}\nContent-Type: application/yaml; charset={charset}\nContent-Disposition: attachment; filename=orders.yaml\n"
            f"Content-Transfer-Encoding: base64\n\n"
        ).encode() + base64.encodebytes(words) + f"--{boundary}--\n".encode()
    else:
        encoded = base64.encodebytes(words) if cte == "base64" else quopri.encodestring(words) if cte == "quoted-printable" else words
        subject = "=?utf-7?q?" + (prefix.strip() or "x").replace(" ", "_") + "+2AA-?=" if where == "subject" else "a word"
        raw = raw_mail("tony@example.org", subject, charset, encoded, "<m@x>", cte)
    good = press_mail("david@example.org", f"player: david\n{pw(root, 'david')}", "orders:\n  guard: 1\n", "<g@x>").as_bytes()
    result = ingest(root, [raw_maildir(tmp / "Maildir", [raw, good])], now=NOW)
    assert [e.seq for e in result.entries] == [1, 2]
    assert all(e.status and (e.reason or e.status in ("filed", "answered")) for e in result.entries)
    _index_is_whole_utf8(root)
    for path in (root / "mail").rglob("*"):
        if path.suffix in (".json", ".txt", ".eml") and path.is_file() and "rejected" not in path.parts and "commands" not in path.parts:
            path.read_bytes().decode("utf-8")  # what the judge writes is UTF-8 (raw messages kept as received aside)
    assert load_index(root)[1].status in ("filed", "rejected")


# -- 2. a command's arguments never raise ----------------------------------------------------------------


@pytest.mark.parametrize("argument", ["²", "①", "1²", "١", "²²", "1" * 40, "-1", "٣", "🄁", "Ⅻ"])
def test_report_with_a_number_that_is_no_ascii_number_is_answered(tmp_path: Path, argument: str) -> None:
    """Issue 26.2: str.isdigit takes '²' and int() refuses it: every tick stopped on a ValueError."""
    root = make(tmp_path / "spies")
    done = pbem("ingest", root, raw_maildir(tmp_path / "Maildir", [press_mail("tony@example.org", f"report {argument}", pw(root, "tony"), "<r@x>").as_bytes()]))
    assert done.returncode == 0, done.stdout + done.stderr
    assert load_index(root)[0].status == "answered"
    assert "report N" in outbox(root)["turn-001/reply-00001.eml"].get_content()


_ODD = st.text(max_size=40) | st.sampled_from(["²", "①", "1²", "0", "99999999999999999999", "２０２６-１２-２４ 2027-01-01", "all all", "to", ",", "anonymous"])


@settings(max_examples=EXAMPLES * 8, deadline=None)
@given(arguments=_ODD)
def test_every_commands_argument_parsing_refuses_in_words_and_never_raises(arguments: str) -> None:
    """The class of 26.2: the argument readers of report, absence and press answer or refuse in words."""
    desk = types.SimpleNamespace(pending=3)
    turn = commands._report_turn(desk, arguments)  # noqa: SLF001 - the parser itself is the unit
    assert turn is None or isinstance(turn, int)
    try:
        start, end = absences.request(arguments)
        assert start <= end
    except absences.AbsenceError:
        pass
    state = {"players": ["tony", "david", "maria"], "names": {"tony": "Tony", "david": "David", "maria": "María José"}}
    try:
        named = press.receivers(state, "tony", arguments)
        assert named and "tony" not in named
    except press.PressError:
        pass
    commands._match(arguments)  # noqa: SLF001


# -- 4, 5. no password in any form is ever echoed, and such a campaign still exports ---------------------

BROKEN = {
    "an unclosed quote": 'player: tony\npassword: "{pw}\norders:\n  guard: 1\n',
    "an unclosed single quote": "player: tony\npassword: '{pw}\norders:\n  guard: 1\n",
    "a list": "player: tony\npassword: [{pw}]\norders:\n  guard: 1\n",
    "a mapping": "player: tony\npassword: {{{pw}: 1}}\norders:\n  guard: 1\n",
    "a colon after it": "player: tony\npassword: {pw}: x\norders:\n  guard: 1\n",
    "a misspelt key": "player: tony\npasswrd: {pw}\norders:\n  guard: 1\n",
    "the password as a key": "player: tony\n{pw}: 1\npassword: {pw}\norders:\n  guard: 1\n",
    "the password in an order": "player: tony\npassword: {pw}\norders:\n  guard: {pw}\n",
    "a duplicate key": "player: tony\npassword: {pw}\npassword: {pw}\norders:\n  guard: 1\n",
    "a tab after it": "player: tony\npassword: {pw}\n\torders:\n  guard: 1\n",
    "a quote closed a line later": 'player: tony\npassword: "{pw}\n  more"\norders:\n  guard: 1\n  x: [\n',
    "an unclosed flow mapping": "{{player: tony, password: {pw}, orders: {{guard: 1}}\n",
    "a tag": "player: tony\npassword: !!python/name:{pw}\norders:\n  guard: 1\n",
    "a block scalar": "player: tony\npassword: |\n  {pw}\n bad\norders:\n  guard: 1\n",
    "another seat": "player: david\npassword: {pw}\norders:\n  guard: 1\n",
    "a quoted key": 'player: tony\n"password": "{pw}\norders:\n  guard: 1\n',
    "an anchor and an alias": "player: tony\npassword: &{pw} x\norders:\n  guard: *{pw}\n",
    "typographic quotes, unclosed": "player: tony\npassword: \u201c{pw}\norders: [\n",
    "the body of a long line": "player: tony\npassword: {pw}" + " x" * 60 + ": y\norders:\n  guard: 1\n",
}


def _grep(folder: Path, secret: str, skip: tuple[str, ...] = ()) -> list[str]:
    """Files under `folder` holding `secret` (the campaign's own records of it aside)."""
    return sorted(
        str(p.relative_to(folder)) for p in folder.rglob("*")
        if p.is_file() and not any(s in p.as_posix() for s in skip) and secret.encode() in p.read_bytes()
    )


# The campaign's own copies of the password: the GM's list, the order file as filed, the raw mail received (.eml).
KEPT = ("gm/passwords.yaml", "orders/tony.yaml", ".eml")


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_a_password_in_a_broken_file_is_echoed_by_no_route_and_the_campaign_exports(tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 26.4 and 26.5: the password planted in every kind of broken file; then every output is searched:
    what `check`, `adjudicate`, `ingest` print, reports and results, mail replies (refusal, `check` by mail),
    rejected-file notes, the index, the site after reveal and the export, which must audit clean."""
    from adjudicator.cli import main

    root = tmp_path / "spies"
    assert main(["new", str(root), "--game", "secrets", "--players", "tony=tony@example.org,david=david@example.org,maria", "--seed", "s",
                 "--option", "turns=1", "--gm-email", "gm@example.org"]) == 0
    secret = (root / "gm" / "passwords.yaml").read_text().split("tony: ", 1)[1].split()[0]
    text = BROKEN[kind].format(pw=secret)
    # by mail: as the body, as an attachment, and in a `check`
    with_body = press_mail("tony@example.org", text, "", "<b@x>", subject="orders").as_bytes()
    checked = press_mail("tony@example.org", "check", text, "<c@x>").as_bytes()
    import email.message

    attached = email.message.EmailMessage()
    attached["From"], attached["To"], attached["Subject"], attached["Message-ID"] = "tony@example.org", "gm@example.org", "orders", "<a@x>"
    attached.set_content("my orders")
    attached.add_attachment(text.encode(), maintype="application", subtype="yaml", filename="tony.yaml")
    ingest(root, [raw_maildir(tmp_path / "Maildir", [with_body, checked, attached.as_bytes()])], now=NOW)
    (root / "turn-001" / "orders" / "tony.yaml").write_text(text)  # and saved by hand
    main(["check", "--campaign", str(root), str(root / "turn-001" / "orders" / "tony.yaml")])
    assert main(["adjudicate", str(root), "--nmr", "--force"]) == 0
    assert main(["reveal", str(root)]) == 0
    assert main(["site", str(root), str(tmp_path / "site")]) == 0
    assert main(["export", str(root), str(tmp_path / "export")]) == 0, capsys.readouterr().err
    assert main(["audit", str(tmp_path / "export")]) == 0
    printed = capsys.readouterr()
    assert secret not in printed.out + printed.err
    assert _grep(root, secret, KEPT) == []
    assert _grep(tmp_path / "site", secret) == []
    assert _grep(tmp_path / "export", secret) == []
    for name, message in outbox(root).items():
        assert secret not in message.get_content(), name


def test_a_stand_in_seat_in_a_campaign_with_passwords_exports(tmp_path: Path) -> None:
    """Issue 24.10: the stand-in signs its file with the seat's password; the export took it out, and the
    replay no longer knew the file for the stand-in's own (its hash as filed is what the record names)."""
    root = tmp_path / "spies"
    for command in (["new", root, "--game", "secrets", "--players", "tony,david,maria", "--seed", "s", "--option", "turns=1"],
                    ["standin", root, "david", "on"], ["adjudicate", root, "--nmr", "--force"], ["reveal", root],
                    ["export", root, tmp_path / "export"], ["audit", tmp_path / "export"]):
        done = pbem(*command)
        assert done.returncode == 0, (command, done.stdout, done.stderr)
    secret = (root / "gm" / "passwords.yaml").read_text().split("david: ", 1)[1].split()[0]
    assert _grep(tmp_path / "export", secret) == []


# -- 6. anonymous press on the archive site names nobody ------------------------------------------------


def _finished_with_press(root: Path, tmp_path: Path, sender: str, to: str) -> bytes:
    """A one-turn campaign where `sender` sent anonymous press to `to`, played, revealed: its site's press page."""
    import yaml

    from adjudicator.cli import main

    assert main(["new", str(root), "--game", "secrets", "--players", "tony=tony@example.org,david=david@example.org,maria=maria@example.org",
                 "--seed", "s", "--option", "turns=1", "--gm-email", "gm@example.org", "--name", "Spies"]) == 0
    config = yaml.safe_load((root / "campaign.yaml").read_text())
    config["judge"] = {"press": "anonymous"}
    (root / "campaign.yaml").write_text(yaml.safe_dump(config, allow_unicode=True, sort_keys=False))
    ingest(root, [raw_maildir(tmp_path / "Maildir", [press_mail(f"{sender}@example.org", f"press {to}", f"{pw(root, sender)}Someone lies.\n", "<p@x>").as_bytes()])], now=NOW)
    assert (root / "mail" / "press" / "00001.json").is_file()
    for command in (["adjudicate", str(root), "--nmr", "--force"], ["reveal", str(root)], ["site", str(root), str(tmp_path / "site")]):
        assert main(command) == 0
    return (tmp_path / "site" / "press.html").read_bytes()


@pytest.mark.parametrize("to", ["all", "maria"])
def test_the_site_of_anonymous_press_is_the_same_whoever_sent_it(tmp_path: Path, to: str) -> None:
    """Issue 26.6: the receivers of anonymous press to `all` were every player but the sender."""
    pages = {}
    for sender in ("tony", "david"):
        pages[sender] = _finished_with_press(tmp_path / sender / "spies", tmp_path / sender, sender, to)
    assert pages["tony"] == pages["david"]
    assert b"Someone lies." in pages["tony"]
    if to == "all":
        assert b"anonymous to everyone" in pages["tony"]


# -- 12, 14, 15. press replies, floods by seat, names that mean everyone --------------------------------


def test_a_reply_to_signed_press_with_press_on_its_first_line_is_press(tmp_path: Path) -> None:
    """Issue 26.12: "Re: [Spies] press from Tony" was read from the Subject as `press from ...`."""
    root = make(tmp_path / "spies")
    reply = press_mail("david@example.org", "press tony", f"{pw(root, 'david')}Deal.\n", "<r@x>", subject="Re: [Spies] press from Tony Stark")
    bare = press_mail("maria@example.org", "Deal?", pw(root, "maria"), "<s@x>", subject="Re: [Spies] press from Tony Stark")
    ingest(root, [raw_maildir(tmp_path / "Maildir", [reply.as_bytes(), bare.as_bytes()])], now=NOW)
    files = outbox(root)
    assert "turn-001/press-00001-tony.eml" in files
    assert "relayed" in files["turn-001/reply-00001.eml"].get_content()
    assert "'from'" not in files.get("turn-001/reply-00002.eml", files["turn-001/reply-00001.eml"]).get_content()


def test_the_press_flood_limit_counts_seats_not_addresses(tmp_path: Path) -> None:
    """Issue 26.14: with passwords, 25 `press all` from tony+N@ were all relayed."""
    root = make(tmp_path / "spies")
    flood = [press_mail(f"tony+{n}@example.org", "press all", f"player: tony\n{pw(root, 'tony')}Hello {n}.\n", f"<f{n}@x>").as_bytes() for n in range(25)]
    entries = ingest(root, [raw_maildir(tmp_path / "Maildir", flood)], now=NOW).entries
    relayed = [e for e in entries if e.status == "answered"]
    assert len(relayed) == 20 and all("limit against floods" in e.reason for e in entries[20:])
    assert len(list((root / "mail" / "press").glob("*.json"))) == 20


@pytest.mark.parametrize("word", ["All", "ALL", "anonymous", "To", "from", "Everyone", "ａｌｌ"])
def test_a_reserved_word_is_refused_as_a_name_or_an_id(tmp_path: Path, word: str) -> None:
    """Issue 26.15: `pbem new --names bob=All` was accepted, and then `press all` reached bob only."""
    named = pbem("new", tmp_path / "a", "--game", "secrets", "--players", "tony,bob,maria", "--names", f"bob={word}")
    assert named.returncode == 1 and "press all means every player" in named.stderr and not (tmp_path / "a").exists()
    if word.isascii() and word.lower() == word:
        as_id = pbem("new", tmp_path / "b", "--game", "secrets", "--players", f"tony,{word},maria")
        assert as_id.returncode == 1 and "press all means every player" in as_id.stderr
    root = make(tmp_path / "spies")
    replaced = pbem("replace", root, "david", "--name", word, "--email", "dave@example.org")
    assert replaced.returncode != 0 and "press all means every player" in replaced.stderr


def test_all_always_means_everyone_even_beside_a_seat_named_so(tmp_path: Path) -> None:
    """A hand-edited campaign.yaml may still name a seat All: `press all` reaches every other player."""
    state = {"players": ["tony", "bob", "maria"], "names": {"tony": "Tony", "bob": "All", "maria": "Maria"}}
    assert press.receivers(state, "tony", "all") == ["bob", "maria"]
    assert press.receivers(state, "tony", "ALL") == ["bob", "maria"]


# -- 11. a mail too large is answered to a registered player, and to nobody else --------------------------


def test_a_mail_too_large_gets_a_reply_saying_so_from_a_registered_player_only(tmp_path: Path) -> None:
    """Issue 26.11: an 11 MB mail (orders and a photo) from a player was refused without a word."""
    root = make(tmp_path / "spies")
    photo = b"\xff\xd8" + bytes(range(256)) * (11 * 4096)
    messages = []
    for number, sender in enumerate(("tony@example.org", "stranger@evil.example")):
        import email.message

        big = email.message.EmailMessage()
        big["From"], big["To"], big["Subject"], big["Message-ID"] = sender, "gm@example.org", "orders", f"<big{number}@x>"
        big.set_content(f"player: tony\n{pw(root, 'tony')}orders:\n  guard: 1\n")
        big.add_attachment(photo, maintype="image", subtype="jpeg", filename="me.jpg")
        messages.append(big.as_bytes())
    entries = ingest(root, [raw_maildir(tmp_path / "Maildir", messages)], now=NOW).entries
    assert [e.status for e in entries] == ["rejected", "rejected"] and all("larger than 10 MiB" in e.reason for e in entries)
    replies = {name: m for name, m in outbox(root).items() if "/reply" in name or "/ack" in name or "ack" in name}
    sent = [(m["To"].addresses[0].addr_spec, m.get_content()) for m in outbox(root).values()]
    assert [to for to, _ in sent] == ["tony@example.org"], replies
    assert "larger than 10 MiB" in sent[0][1] and "without pictures" in sent[0][1]


# -- 8. mail still being delivered is not read ---------------------------------------------------------


@pytest.mark.parametrize("lock", ["fcntl", "flock", "dot-lock", "all three"])
def test_an_mbox_being_appended_to_is_left_for_the_next_run(tmp_path: Path, lock: str) -> None:
    """Issue 26.8: the judge read an mbox while the delivery agent appended, filed the half-written message
    (the first order only) and then refused the whole one as late. Now a locked mbox waits for the next run."""
    import fcntl
    import os

    root = make(tmp_path / "spies")
    whole = press_mail("tony@example.org", order_text(root, "tony", []), "", "<o@x>").as_bytes()
    box = tmp_path / "judge.mbox"
    half = whole[: whole.index(b"password:")]
    box.write_bytes(b"From tony@example.org Mon Nov 30 10:00:00 2026\n" + half)
    writer = os.open(box, os.O_RDWR | os.O_APPEND)
    dot = box.with_name("judge.mbox.lock")
    if lock in ("fcntl", "all three"):
        fcntl.lockf(writer, fcntl.LOCK_EX)
    if lock in ("flock", "all three"):
        fcntl.flock(writer, fcntl.LOCK_EX)
    if lock in ("dot-lock", "all three"):
        dot.write_text(str(os.getpid()))
    try:
        during = pbem("ingest", root, box)
    finally:
        os.write(writer, whole[len(half):] + b"\n")
        os.close(writer)  # the agent is done: its locks go with the descriptor
        dot.unlink(missing_ok=True)
    assert during.returncode == 0, during.stderr
    assert "was not read" in during.stdout + during.stderr and not (root / "mail" / "ingest.jsonl").exists()
    after = pbem("ingest", root, box)
    assert after.returncode == 0, after.stderr
    assert [e.status for e in load_index(root)] == ["filed"]
    assert "password" in (root / "turn-001" / "orders" / "tony.yaml").read_text()  # the whole message, not its first half


def test_a_stale_dot_lock_and_maildir_tmp(tmp_path: Path) -> None:
    """A `.lock` left by a crash long ago does not stop the mail for ever; a Maildir's tmp/ (a message being
    delivered) is never read."""
    import os
    import time

    root = make(tmp_path / "spies")
    whole = press_mail("tony@example.org", order_text(root, "tony", []), "", "<o@x>").as_bytes()
    box = tmp_path / "judge.mbox"
    box.write_bytes(b"From tony@example.org Mon Nov 30 10:00:00 2026\n" + whole + b"\n")
    dot = box.with_name("judge.mbox.lock")
    dot.write_text("")
    old = time.time() - 3600
    os.utime(dot, (old, old))
    assert [e.status for e in ingest(root, [box], now=NOW).entries] == ["filed"]
    maildir = raw_maildir(tmp_path / "Maildir", [])
    (maildir / "tmp" / "1700000000.half.host").write_bytes(whole[: len(whole) // 2])
    assert ingest(root, [maildir], now=NOW).entries == []


# -- 9. a refused turn leaves no stand-in orders behind -------------------------------------------------


def test_a_turn_refused_by_a_broken_template_leaves_no_stand_in_files(tmp_path: Path) -> None:
    """Issue 26.9: `pbem adjudicate` refused (a broken GM template) saying "nothing was written", but had
    written the stand-in's orders/<seat>.yaml and standins.yaml; switched off, the stand-in still played."""
    root = tmp_path / "spies"
    assert pbem("new", root, "--game", "secrets", "--players", "tony,david,maria", "--seed", "s").returncode == 0
    assert pbem("standin", root, "david", "on").returncode == 0
    (root / "templates").mkdir()
    (root / "templates" / "private.txt.j2").write_text("Hello\n{{ no_such_thing.attribute }}\n")
    before = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if not p.name.startswith("."))
    refused = pbem("adjudicate", root, "--nmr", "--force")
    assert refused.returncode == 1 and "nothing was written" in refused.stderr, refused.stderr
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if not p.name.startswith(".")) == before
    assert not (root / "turn-001" / "orders" / "david.yaml").exists() and not (root / "turn-001" / "standins.yaml").exists()
    assert pbem("standin", root, "david", "off").returncode == 0
    (root / "templates" / "private.txt.j2").unlink()
    assert pbem("adjudicate", root, "--nmr", "--force").returncode == 0
    assert not (root / "turn-001" / "orders" / "david.yaml").exists() and not (root / "turn-001" / "standins.yaml").exists()
