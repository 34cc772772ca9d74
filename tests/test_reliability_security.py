"""Security review, as behaviour: paths stay inside the campaign, passwords are salted slow hashes,
GM templates run sandboxed and fail cleanly, every input has a size limit.

(No password or seed in any output: tests/test_reliability_leaks.py.)
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import asdict
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from reliability_kit import assert_clean_failure, order_mail, pbem, snapshot

from adjudicator.campaign import auth
from adjudicator.campaign.create import create
from adjudicator.common import yamlsafe
from adjudicator.mail import inbox as mail_inbox
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
    assert int(n) * int(r) >= 2**14 * 8 and len(bytes.fromhex(salt)) >= 16
    started = time.perf_counter()
    auth.verify(password, first)
    assert time.perf_counter() - started > 0.005, "a check must cost real work (scrypt), not a fast hash"


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
    started = time.perf_counter()
    assert auth.verify("kq7mzt2rwxh4", stored) is False
    assert auth.verify("", stored) is False
    assert time.perf_counter() - started < 2


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
    started = time.perf_counter()
    result = pbem("adjudicate", campaign, "--nmr")
    assert result.returncode == 0 and time.perf_counter() - started < 20
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
    started = time.perf_counter()
    result = pbem("ingest", root, inbox)
    assert result.returncode == 0, result.stderr
    assert time.perf_counter() - started < 20
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
    started = time.perf_counter()
    result = pbem("ingest", root, *(tmp_path / f"m{n}.eml" for n in range(len(bodies))))
    assert result.returncode == 0 and time.perf_counter() - started < 20, result.stderr
    assert "filed" in result.stdout  # the last one: its orders follow the fences


_OLD_FENCE = re.compile(r"^[ \t]*(```+|~~~+)[ \t]*([A-Za-z0-9_-]*)[^\n]*\n(.*?)^[ \t]*\1[ \t]*$", re.MULTILINE | re.DOTALL)
_OLD_BBCODE = re.compile(r"\[code(?:=[^\]\n]{0,100})?\](.*?)\[/code\]", re.IGNORECASE | re.DOTALL)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["```", "````", "```yaml", "~~~", " ``` ", "player: a", "x", "", "[code]", "[/CODE]", "[code=yaml]", "``` x", "~~~~"]), max_size=14))
def test_the_linear_block_finders_agree_with_the_old_patterns(lines: list[str]) -> None:
    text = "\n".join(lines)
    assert [inner for _, inner in mail_inbox._fenced_blocks(text)] == [m.group(3) for m in _OLD_FENCE.finditer(text)]
    assert [inner for _, inner in mail_inbox._bbcode_blocks(text)] == [m.group(1) for m in _OLD_BBCODE.finditer(text)]
