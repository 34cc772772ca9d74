"""Security review, as behaviour: paths stay inside the campaign, passwords are salted slow hashes,
GM templates run sandboxed and fail cleanly, every input has a size limit.

(No password or seed in any output: tests/test_reliability_leaks.py.)
"""

from __future__ import annotations

import email
import email.message
import email.policy
import json
import os
import re
import subprocess
import sys
import time
from dataclasses import asdict
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from reliability_kit import (
    CRASHPOINT,
    ENV,
    NOW,
    THOROUGH,
    assert_clean_failure,
    order_mail,
    pbem,
    snapshot,
)

from adjudicator.campaign import auth
from adjudicator.campaign.audit import audit
from adjudicator.campaign.create import create
from adjudicator.common import yamlsafe
from adjudicator.mail import inbox as mail_inbox
from adjudicator.mail import ingest as mail_ingest
from adjudicator.mail.ingest import load_index

PLAYERS = [{"id": p, "name": p.title(), "email": f"{p}@example.org"} for p in ("tony", "david", "sue")]


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    root = tmp_path / "spies"
    create(root, "secrets", [dict(p) for p in PLAYERS], seed="a secret seed 7f3a", gm_email="gm@example.org", passwords=False)
    return root


def _outside(tmp_path: Path, campaign: Path) -> list[Path]:
    """Every file under tmp_path that is not inside the campaign (nothing may appear there)."""
    return sorted(p for p in tmp_path.rglob("*") if p.is_file() and campaign not in p.parents)


# -- paths -------------------------------------------------------------------------------


@pytest.mark.parametrize("bad_id", ["../../evil", "a/b", "/etc/x", "..", "Tony", "", "tony\n", 7])
def test_a_player_id_that_could_name_a_path_is_refused(campaign: Path, tmp_path: Path, bad_id: object) -> None:
    settings_file = campaign / "campaign.yaml"
    config = yaml.safe_load(settings_file.read_text())
    config["players"][0]["id"] = bad_id
    settings_file.write_text(yaml.safe_dump(config))
    before = _outside(tmp_path, campaign)
    for args in (("adjudicate", campaign, "--nmr"), ("status", campaign), ("show", campaign, "--json")):
        result = pbem(*args)
        assert_clean_failure(result)
        assert result.returncode == 1 and "cannot be a player id" in result.stderr, result.stderr
    assert _outside(tmp_path, campaign) == before and not (campaign / "turn-001" / "manifest.json").exists()


def test_a_tampered_setup_record_cannot_write_outside(campaign: Path, tmp_path: Path) -> None:
    setup = campaign / "turn-000" / "setup.json"
    record = json.loads(setup.read_text())
    record["players"][1]["id"] = "../../../escape"
    setup.write_text(json.dumps(record))
    result = pbem("adjudicate", campaign, "--nmr")
    assert_clean_failure(result)
    assert result.returncode == 1 and "cannot be a player id" in result.stderr
    assert not list(tmp_path.rglob("escape*"))


def test_symlinks_and_strange_names_in_orders_are_ignored_and_named(campaign: Path, tmp_path: Path) -> None:
    orders = campaign / "turn-001" / "orders"
    secret = tmp_path / "elsewhere.yaml"
    secret.write_text("player: tony\nturn: 1\norders: ['SID 7 steal sue 10']\n")
    os.symlink(secret, orders / "tony.yaml")  # a good-looking file that lives elsewhere
    os.symlink(campaign / "gm" / "seed.yaml", orders / "david.yaml")
    os.mkfifo(orders / "sue.yaml")  # would block a reader for ever
    (orders / "..yaml").write_text("player: tony\n")  # dot-named: a run-time file, never read
    (orders / "tony.yaml.bak").write_text("player: tony\n")
    result = pbem("adjudicate", campaign)
    assert result.returncode == 1 and "waiting for orders from tony, david, sue" in result.stderr
    result = pbem("adjudicate", campaign, "--nmr")
    assert result.returncode == 0, result.stderr
    out = " ".join(result.stdout.split())
    for name in ("tony.yaml (not a regular file; ignored)", "david.yaml (not a regular file; ignored)", "sue.yaml (not a regular", "tony.yaml.bak"):
        assert f"ignored in orders/: {name}" in out, name
    seed = yaml.safe_load((campaign / "gm" / "seed.yaml").read_text())["seed"]
    results = json.loads((campaign / "turn-001" / "results.json").read_text())
    assert all(s["status"] == "missing" for s in results["submissions"].values())
    for path in (campaign / "turn-001").rglob("*"):
        if path.is_file() and not path.is_symlink():
            assert seed not in path.read_text(errors="replace")
    assert pbem("audit", campaign).returncode == 0


def test_names_given_on_the_command_line_stay_inside(campaign: Path, tmp_path: Path) -> None:
    for args in (("report", campaign, "--player", "../gm/seed"), ("report", campaign, "--player", "../../campaign"),
                 ("show", campaign, "--json", "--player", "../tony"), ("report", campaign, "--turn", "-1")):
        result = pbem(*args)
        assert_clean_failure(result)
        assert result.returncode == 1 and "seed" not in result.stdout, args


def test_an_attachment_name_never_becomes_a_path(tmp_path: Path) -> None:
    root = tmp_path / "spies"
    create(root, "secrets", [dict(p) for p in PLAYERS], seed="s", gm_email="gm@example.org", passwords=False)
    message = order_mail("tony@example.org", "player: tony\nturn: 1\norders: []\n", "<../../../x@y>")
    raw = message.replace(b'filename="orders.yaml"', b'filename="../../../../../evil.yaml"')
    (tmp_path / "m.eml").write_bytes(raw)
    before = _outside(tmp_path, root)
    result = pbem("ingest", root, tmp_path / "m.eml")
    assert result.returncode == 0 and "filed" in result.stdout, result.stdout
    assert _outside(tmp_path, root) == before
    assert not list(tmp_path.rglob("evil*")) and (root / "turn-001" / "orders" / "tony.yaml").is_file()


# -- passwords ------------------------------------------------------------------------------


def test_passwords_are_salted_slow_hashes() -> None:
    password = auth.new_password()
    first, second = auth.hash_password(password), auth.hash_password(password)
    assert first != second, "the same password must hash differently (a salt per hash)"
    assert password not in first and auth.verify(password, first) and auth.verify(password, second)
    _, n, r, _, salt, _ = first.split("$")
    assert int(n) * int(r) >= 2**14 * 8 and len(bytes.fromhex(salt)) >= 16  # scrypt's work and memory, not a fast hash


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=11), st.sampled_from("abcdefghjkmnpqrstuvwxyz23456789"))
def test_a_wrong_password_of_the_same_length_never_matches(position: int, letter: str) -> None:
    password = "kq7mzt2rwxh4"
    stored = HASH_OF_PASSWORD
    wrong = password[:position] + letter + password[position + 1 :]
    assert auth.verify(wrong, stored) == (wrong == password)


HASH_OF_PASSWORD = auth.hash_password("kq7mzt2rwxh4")


@pytest.mark.parametrize("stored", [
    "", "scrypt", "scrypt$$$$$", "plain$kq7mzt2rwxh4", "kq7mzt2rwxh4", "scrypt$16384$8$1$zz$00", "scrypt$16384$8$1$00$",
    "scrypt$1073741824$8$1$00$00", "scrypt$3$8$1$00$00", "scrypt$16384$0$1$00$00", "scrypt$" + "9" * 5000 + "$8$1$00$00",
    HASH_OF_PASSWORD.replace("scrypt", "SCRYPT"), HASH_OF_PASSWORD + "$x", HASH_OF_PASSWORD[:-2],
])
def test_a_malformed_hash_never_matches_and_never_hangs(stored: str) -> None:
    assert auth.verify("kq7mzt2rwxh4", stored) is False
    assert auth.verify("", stored) is False


def test_a_wrong_password_file_is_rejected_and_not_echoed(tmp_path: Path) -> None:
    root = tmp_path / "pw"
    create(root, "secrets", [dict(p) for p in PLAYERS], seed="s")
    real = yaml.safe_load((root / "gm" / "passwords.yaml").read_text())["tony"]
    near = real[:-1] + ("a" if real[-1] != "a" else "b")
    (root / "turn-001" / "orders" / "tony.yaml").write_text(f"player: tony\nturn: 1\npassword: {near}\norders: []\n")
    checked = pbem("check", root / "turn-001" / "orders" / "tony.yaml", "--campaign", root)
    result = pbem("adjudicate", root, "--nmr")
    assert checked.returncode == 1 and result.returncode == 0
    for text in (checked.stdout, checked.stderr, result.stdout, result.stderr, *(p.read_text() for p in root.rglob("reports/*"))):
        assert near not in text and real not in text
    assert "not this player's password" in result.stdout


# -- templates --------------------------------------------------------------------------------

ESCAPES = [
    "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "{{ cycler.__init__.__globals__.os.popen('id').read() }}",
    "{{ self._TemplateReference__context }}",
    "{{ lipsum.__globals__['os'] }}",
    "{% include '../gm/seed.yaml' %}",
    "{% include '/etc/passwd' %}",
    "{{ range(10**9) | list }}",
    "{{ 1 / 0 }}",
    "{{ no_such_name }}",
    "{% for x in %}",
]


def test_a_gm_template_cannot_escape_and_a_broken_one_refuses_the_turn(tmp_path: Path) -> None:
    good, broken = tmp_path / "good", tmp_path / "broken"
    for root in (good, broken):
        create(root, "secrets", [dict(p) for p in PLAYERS], seed="tmpl", passwords=False)
    (broken / "templates").mkdir()
    seed = "tmpl"
    for attempt in ESCAPES:
        (broken / "templates" / "private.txt.j2").write_text(f"Hello\n{attempt}\n")
        before = snapshot(broken)
        result = pbem("adjudicate", broken, "--nmr")
        assert_clean_failure(result)
        assert result.returncode == 1, (attempt, result.stdout)
        assert "templates/private.txt.j2, line 2 failed" in result.stderr, (attempt, result.stderr)
        assert "nothing was written" in result.stderr
        assert snapshot(broken) == before
    # one broken campaign in a batch does not stop the others
    result = pbem("adjudicate", broken, good, "--nmr")
    assert result.returncode == 1 and (good / "turn-001" / "manifest.json").is_file()
    assert seed not in (good / "turn-001" / "reports" / "tony.txt").read_text()


def test_a_template_changed_after_a_turn_makes_the_audit_fail_cleanly(campaign: Path) -> None:
    assert pbem("adjudicate", campaign, "--nmr").returncode == 0
    (campaign / "templates").mkdir()
    (campaign / "templates" / "public.md.j2").write_text("{{ ''.__class__ }}\n")
    result = pbem("audit", campaign)
    assert_clean_failure(result)
    assert result.returncode == 1 and "public.md.j2, line 1 failed" in result.stderr


def test_html_templates_escape_player_text(tmp_path: Path) -> None:
    root = tmp_path / "h"
    create(root, "secrets", [{"id": "a", "name": "<img src=x onerror=alert(1)>"}, {"id": "b", "name": "B"}, {"id": "c", "name": "C"}],
           seed="h", passwords=False)
    (root / "turn-001" / "orders" / "a.yaml").write_text("player: a\nturn: 1\norders: ['<script>x</script>']\n")
    (root / "templates").mkdir()
    (root / "templates" / "public.html.j2").write_text("{{ view.names['a'] }}\n")
    (root / "templates" / "private.html.j2").write_text("{% for r in submission.readings %}{{ r.written }}{% endfor %}\n\n")
    assert pbem("adjudicate", root, "--nmr").returncode == 0
    assert (root / "turn-001" / "reports" / "public.html").read_text() == "&lt;img src=x onerror=alert(1)&gt;\n"
    assert (root / "turn-001" / "reports" / "a.html").read_text() == "&lt;script&gt;x&lt;/script&gt;\n"


# -- size limits -------------------------------------------------------------------------------


def test_order_files_over_the_limit_are_refused_without_reading_them_whole(campaign: Path) -> None:
    orders = campaign / "turn-001" / "orders"
    (orders / "tony.yaml").write_bytes(b"player: tony\nturn: 1\norders: []\n#" + b"x" * yamlsafe.MAX_BYTES)
    with open(orders / "david.yaml", "wb") as handle:  # 4 GiB, sparse: it must never be read into memory
        handle.truncate(4 * 1024**3)
    result = pbem("adjudicate", campaign, "--nmr")  # a 4 GiB read would not end within pbem()'s time-out
    assert result.returncode == 0
    assert result.stdout.count("larger than the limit of 64 KiB") == 2
    checked = pbem("check", orders / "david.yaml", "--campaign", campaign)
    assert checked.returncode == 1 and "larger than the limit of 64 KiB" in checked.stdout


def test_a_huge_email_is_refused_quickly_and_its_attachment_capped(tmp_path: Path) -> None:
    root = tmp_path / "spies"
    create(root, "secrets", [dict(p) for p in PLAYERS], seed="s", gm_email="gm@example.org", passwords=False)
    inbox = tmp_path / "inbox.mbox"
    big = order_mail("tony@example.org", "player: tony\nturn: 1\norders: []\n", "<big@x>").replace(
        b"Orders attached.", b"Orders attached.\n" + (b"y" * 76 + b"\n") * 700_000)  # about 50 MB
    attachment = order_mail("david@example.org", "player: david\nturn: 1\norders: []\n#" + "z" * 200_000 + "\n", "<att@x>")
    with open(inbox, "wb") as handle:
        handle.writelines(b"From MAILER-DAEMON Thu Jan  1 00:00:00 1970\n" + raw.replace(b"\nFrom ", b"\n>From ") + b"\n" for raw in (big, attachment))
    result = pbem("ingest", root, inbox)
    assert result.returncode == 0, result.stderr
    index = [asdict(e) for e in load_index(root)]
    assert [e["status"] for e in index] == ["rejected", "rejected"]
    assert "larger than 10 MiB" in index[0]["reason"] and index[0]["message_id"] == "<big@x>"
    assert "larger than the limit of 64 KiB" in index[1]["reason"]
    assert (root / index[0]["stored"]).stat().st_size <= mail_inbox.MAX_MESSAGE_BYTES + 1


def test_unclosed_code_fences_cannot_stall_an_ingest(tmp_path: Path) -> None:
    """Regression: the fence pattern took 30 s on 100 KiB of unclosed ``` lines (quadratic backtracking)."""
    root = tmp_path / "spies"
    create(root, "secrets", [dict(p) for p in PLAYERS], seed="s", gm_email="gm@example.org", passwords=False)
    bodies = ["```x\n" * 400_000, "[code]" * 300_000, "[code=" * 300_000, "~~~~~~~~\n" * 200_000 + "player: tony\nturn: 1\norders: []\n"]
    for number, body in enumerate(bodies):
        (tmp_path / f"m{number}.eml").write_bytes(order_mail("tony@example.org", body, f"<fence{number}@x>", attach=False))
    result = pbem("ingest", root, *(tmp_path / f"m{n}.eml" for n in range(len(bodies))))  # quadratic backtracking would run past pbem()'s time-out
    assert result.returncode == 0, result.stderr
    assert "filed" in result.stdout  # the last one: its orders follow the fences


_OLD_FENCE = re.compile(r"^[ \t]*(```+|~~~+)[ \t]*([A-Za-z0-9_-]*)[^\n]*\n(.*?)^[ \t]*\1[ \t]*$", re.MULTILINE | re.DOTALL)
_OLD_BBCODE = re.compile(r"\[code(?:=[^\]\n]{0,100})?\](.*?)\[/code\]", re.IGNORECASE | re.DOTALL)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["```", "````", "```yaml", "~~~", " ``` ", "player: a", "x", "", "[code]", "[/CODE]", "[code=yaml]", "``` x", "~~~~"]), max_size=14))
def test_the_linear_block_finders_agree_with_the_old_patterns(lines: list[str]) -> None:
    text = "\n".join(lines)
    assert [inner for _, inner in mail_inbox._fenced_blocks(text)] == [m.group(3) for m in _OLD_FENCE.finditer(text)]
    assert [inner for _, inner in mail_inbox._bbcode_blocks(text)] == [m.group(1) for m in _OLD_BBCODE.finditer(text)]


# -- mail that is not the player's: seat takeover, backscatter, floods (issue 15, items 1, 4 and 6) -----------------


def _raw(sender: str, message_id: str, body: str, *, reply_to: str = "", copy: int = 0, date: str = "Mon, 30 Nov 2026 10:00:00 +0000") -> bytes:
    head = f"Received: from relay{copy}.example.net\nFrom: {sender}\nTo: gm@example.org\nSubject: orders\nDate: {date}\nMessage-ID: {message_id}\n"
    return (head + (f"Reply-To: {reply_to}\n" if reply_to else "") + "\n" + body).encode("utf-8")


def _outbox(root: Path) -> list[tuple[str, email.message.EmailMessage]]:
    box = root / "mail" / "outbox"
    return [(p.name, email.message_from_bytes(p.read_bytes(), policy=email.policy.default)) for p in sorted(box.rglob("*.eml"))] if box.is_dir() else []


@pytest.mark.parametrize("passwords", [False, True], ids=["no-passwords", "passwords"])
def test_no_reply_reaches_an_unregistered_address_or_echoes_the_senders_text(tmp_path: Path, passwords: bool) -> None:
    """Every mix of sender (a stranger, a player, a forged player), Reply-To (none, a victim), content (an
    unknown player, another player's seat, no orders, a broken file, the seat's own orders) and Message-ID
    (short, 10 KB), each message arriving twice by different relays: replies go only to registered
    addresses, readings only to the seat's own, no reply echoes more than a line of the sender's text,
    and no refusal goes out twice."""
    root = tmp_path / "spies"
    create(root, "secrets", [dict(p) for p in PLAYERS], seed="bs", gm_email="gm@example.org", passwords=passwords)
    registered = {p["email"] for p in PLAYERS}
    senders = ["stranger@example.net", "tony@example.org", "Tony <tony@example.org>"]
    bodies = ["player: zz\nturn: 1\norders: []\n", "player: david\nturn: 1\norders: ['SID 1 steal Tony 1']\n", "Can I have more time?\n",
              "player: tony\nturn: [1\n", "player: tony\nturn: 1\norders: ['SID 2 steal David 3']\n"]
    long_id = "<" + "x" * 10_000 + "@example.net>"
    box = tmp_path / "box"
    box.mkdir()
    number = 0
    for sender in senders:
        for reply_to in ("", "victim@example.com"):
            for body in bodies:
                for message_id in ("<m{}@x>", long_id[:-13] + "{}@example.net>"):
                    for copy in (0, 1):
                        (box / f"{number:04d}-{copy}.eml").write_bytes(_raw(sender, message_id.format(number), body, reply_to=reply_to, copy=copy))
                    number += 1
    result = pbem("ingest", root, box)
    assert result.returncode == 0, result.stderr
    refusals: list[tuple[str, str]] = []
    for name, message in _outbox(root):
        to = [a.addr_spec for a in message["To"].addresses] + [a.addr_spec for a in (message["Cc"].addresses if message["Cc"] else ())]
        assert set(to) <= registered, (name, to)
        body = message.get_content()
        if "read them:" in body:
            assert to == ["tony@example.org"], name  # tony's readings: to tony only
        assert "x" * (mail_ingest.ECHO + 1) not in body and "victim" not in body
        if "NOT filed" in body:
            refusals.append((to[0], body.split("Why:", 1)[1].split("\n")[1]))
    assert refusals and len(refusals) == len(set(refusals)), "a refusal went out twice"
    print(f"FIGURE backscatter messages ({'passwords' if passwords else 'no passwords'}): {2 * number}, replies {len(_outbox(root))}, "
          "to unregistered addresses 0")


def test_a_flood_is_capped_per_sender_and_costs_the_same_per_message(tmp_path: Path) -> None:
    root = tmp_path / "spies"
    create(root, "secrets", [dict(p) for p in PLAYERS], seed="fl", gm_email="gm@example.org", passwords=False)
    box = tmp_path / "box"
    box.mkdir()
    count = mail_ingest.MESSAGES_PER_SENDER + 5
    for n in range(count):
        (box / f"{n:04d}.eml").write_bytes(_raw("tony@example.org", f"<f{n}@x>", "player: tony\nturn: 1\norders: []\n",
                                                date=f"Mon, 30 Nov 2026 10:{n:02d}:00 +0000"))
    entries = mail_ingest.ingest(root, [box], now=NOW).entries
    assert [e.status for e in entries].count("rejected") == 5
    assert all("kept, not read (a limit against floods)" in e.reason for e in entries[-5:])
    assert all(e.acknowledged == [] for e in entries[-5:])  # over the cap: no reply either
    assert yaml.safe_load((root / "turn-001" / "orders" / "tony.yaml").read_text()) == {"player": "tony", "turn": 1, "orders": []}


def test_adjudicate_at_the_deadline_gets_in_while_a_flood_is_ingested(tmp_path: Path) -> None:
    """Regression (issue 15, 6): ingest held the lock for the whole flood, so `pbem adjudicate` was busy.
    Now ingest lets go between slices; what it had not filed by then counts for the next turn."""
    root = tmp_path / "spies"
    create(root, "secrets", [dict(p) for p in PLAYERS], seed="fd", gm_email="gm@example.org", passwords=False)
    box = tmp_path / "box"
    (box / "new").mkdir(parents=True)
    (box / "cur").mkdir()
    flood = 3000 if THOROUGH else 1500
    for n in range(flood):
        (box / "new" / f"{1700000000 + n}.junk{n}").write_bytes(_raw(f"spam{n}@example.net", f"<s{n}@x>", "Buy now!\n"))
    (box / "new" / f"{1700000000 + flood}.late").write_bytes(_raw("sue@example.org", "<sue@x>", "player: sue\nturn: 1\norders: []\n"))
    # The ingest is held where its second slice opens the lock, after the first let go of it: adjudicate
    # comes in there, at a known moment whatever the machine's load (a race with the flood was not).
    signals = tmp_path / ".signals"
    signals.mkdir()
    env = {**ENV, "PBEM_PAUSED": str(signals / "paused"), "PBEM_RELEASE": str(signals / "release")}
    ingesting = subprocess.Popen([sys.executable, str(CRASHPOINT), "pause=2@/.lock", "ingest", str(root), str(box)], env=env,
                                 text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 600  # against a hang only
        while not (signals / "paused").exists():
            assert ingesting.poll() is None, ("the ingest ended in one hold of the lock", ingesting.communicate())
            assert time.monotonic() < deadline, "the ingest never reached its second slice"
            time.sleep(0.01)
        adjudicated = pbem("adjudicate", root, "--nmr")
        (signals / "release").touch()
        out, err = ingesting.communicate(timeout=600)
    finally:
        (signals / "release").touch()
        if ingesting.poll() is None:
            ingesting.kill()
    assert adjudicated.returncode == 0, adjudicated.stderr
    assert ingesting.returncode == 0, err
    index = mail_ingest.load_index(root)
    assert len(index) == flood + 1 and {e.turn for e in index} == {1, 2}
    assert index[-1].status == "rejected" and "pending turn is 2" in index[-1].reason  # late mail, as any other
    assert audit(root).divergence is None
    print(f"FIGURE flood: {flood} messages, adjudicate got in after {sum(e.turn == 1 for e in index)} of them")
