"""Crash safety of `pbem ingest`, `pbem mail --send` and of every game's `pbem adjudicate`,
and clean failure on a really full disk and a really read-only folder.

Each kill is a SIGKILL just before the Nth file-system change of the real
command (tests/crashpoint.py); CI spreads about ten points over each run,
`PBEM_THOROUGH=1` tries every one. After each kill, running the command again
must give exactly what an uninterrupted run gives, and the SMTP server must have
received every message exactly once.
"""

from __future__ import annotations

import json
import mailbox
import shutil
import subprocess
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from reliability_kit import (
    THOROUGH,
    assert_clean_failure,
    crashpoint,
    order_mail,
    pbem,
    smtp_server,
    snapshot,
    spread,
    uninterrupted,
)

from adjudicator.campaign.audit import audit
from adjudicator.campaign.create import create
from adjudicator.campaign.demo import write_demo_orders
from adjudicator.campaign.folder import Campaign
from adjudicator.common.atomic import recover
from adjudicator.games import GAMES
from adjudicator.mail.ingest import load_index

PLAYERS = [
    {"id": "tony", "name": "Tony", "email": "tony@example.org"},
    {"id": "david", "name": "David", "email": "david@example.org"},
    {"id": "sue", "name": "Sue", "email": "sue@example.org"},
]


def _campaign(root: Path, passwords: bool = True) -> Path:
    create(root, "secrets", [dict(p) for p in PLAYERS], seed="reliable", gm_email="gm@example.org", name="Spies", passwords=passwords)
    return root


def _mailbox(folder: Path, root: Path) -> Path:
    """Four messages: two players' orders, junk, and a newer file that replaces the first."""
    pw = yaml.safe_load((root / "gm" / "passwords.yaml").read_text())

    def doc(player: str, orders: list[object]) -> str:
        return yaml.safe_dump({"player": player, "turn": 1, "password": pw[player], "orders": orders}, sort_keys=False)

    box = mailbox.Maildir(folder, create=True)
    raws = [
        order_mail("tony@example.org", doc("tony", ["SID 1 steal David 8"]), "<t1@x>"),
        order_mail("david@example.org", doc("david", [{"sid": 2, "guard": 3}]), "<d1@x>", attach=False),
        order_mail("spam@example.net", "Buy now!", "<spam@x>", attach=False),
        order_mail("tony@example.org", doc("tony", ["SID 2 steal Sue 9"]), "<t2@x>", date="Mon, 30 Nov 2026 11:00:00 +0000"),
    ]
    for number, raw in enumerate(raws):
        key = box.add(raw)
        path = folder / "new" / key
        path.rename(path.with_name(f"17000000{number:02d}.{key}"))
    return folder


def test_ingest_survives_every_kill_point(tmp_path: Path) -> None:
    before = _campaign(tmp_path / "before")
    source = _mailbox(tmp_path / "Maildir", before)
    changes, expected = uninterrupted(before, tmp_path / "reference", "ingest", source)
    order_files = {data for name, data in expected.items() if name.startswith("mail/turn-001/") and name.endswith(".yaml")}
    for point in spread(changes, 10):
        root = tmp_path / f"kill-{point}"
        shutil.copytree(before, root)
        killed = crashpoint(point, "ingest", root, source)
        assert killed.returncode == -9, f"kill point {point} of {changes} was not reached"
        for path in (root / "turn-001" / "orders").iterdir():
            assert path.read_bytes() in order_files, f"kill point {point}: {path.name} is not a whole order file"
        index = root / "mail" / "ingest.jsonl"
        if index.exists():  # never half written: every line a whole record
            assert index.read_bytes().endswith(b"\n") and all(json.loads(line) for line in index.read_bytes().splitlines())
        assert audit(root).divergence is None
        again = pbem("ingest", root, source)
        assert again.returncode == 0, again.stderr
        assert snapshot(root) == expected, f"kill point {point}: the rerun differs from an uninterrupted ingest"
    print(f"FIGURE ingest kill points survived: {len(spread(changes, 10))} of {changes}")


@pytest.fixture
def outbox_campaign(tmp_path: Path) -> Path:
    """A campaign with acknowledgements of turn 1 waiting in the outbox, before turn 1 is adjudicated (an
    acknowledgement is not sent once its turn is adjudicated), and the opening reports: seven messages to send."""
    root = _campaign(tmp_path / "before")
    assert pbem("ingest", root, _mailbox(tmp_path / "Maildir", root)).returncode == 0
    return root


def test_mail_send_survives_every_kill_point(outbox_campaign: Path, tmp_path: Path) -> None:
    with smtp_server() as (inbox, address):
        reference = tmp_path / "reference"
        shutil.copytree(outbox_campaign, reference)
        counted = crashpoint(0, "mail", reference, "--send", "--smtp", address)
        assert counted.returncode == 0, counted.stderr
        changes = int(counted.stderr.strip().splitlines()[-1])
        expected_ids = Counter(inbox.ids())
        assert len(expected_ids) >= 6 and set(expected_ids.values()) == {1}
        expected = snapshot(reference)
        survived, resent = 0, False
        for point in spread(changes, 10):
            inbox.received.clear()
            root = tmp_path / f"kill-{point}"
            shutil.copytree(outbox_campaign, root)
            killed = crashpoint(point, "mail", root, "--send", "--smtp", address)
            assert killed.returncode == -9, f"kill point {point} of {changes} was not reached"
            delivered_before_rerun = set(inbox.ids())
            again = pbem("mail", root, "--send", "--smtp", address)
            assert again.returncode == 0, again.stderr
            assert Counter(inbox.ids()) == expected_ids, f"kill point {point}: a message was lost or sent twice"
            log = json.loads((root / "mail" / "sent.json").read_text())["sent"]
            doubtful = [entry for entry in log if entry.get("in_doubt")]
            # A message is in doubt only when the kill came after the server had it: it was delivered, once.
            assert all(entry["message_id"] in delivered_before_rerun for entry in doubtful)
            assert all("in doubt" in " ".join(again.stdout.split()) for _ in doubtful)
            cleared = [{k: v for k, v in entry.items() if k != "in_doubt"} for entry in log]
            assert cleared == json.loads(expected["mail/sent.json"])["sent"]
            assert snapshot(root, skip=("mail/sent.json",)) == {k: v for k, v in expected.items() if k != "mail/sent.json"}
            survived += 1
            if doubtful and not resent:
                resent = _resend_in_doubt(root, inbox, address, doubtful)
        assert survived >= min(changes, 10) and resent, "no kill point left a message in doubt"
        print(f"FIGURE mail --send kill points survived: {survived} of {changes}")


def _resend_in_doubt(root: Path, inbox: object, address: str, doubtful: list[dict[str, str]]) -> bool:
    """The GM checked that the message in doubt did not arrive: --resend-in-doubt sends it (again), once."""
    before = Counter(inbox.ids())  # type: ignore[attr-defined]
    result = pbem("mail", root, "--send", "--smtp", address, "--resend-in-doubt")
    assert result.returncode == 0, result.stderr
    assert Counter(inbox.ids()) - before == Counter(entry["message_id"] for entry in doubtful)  # type: ignore[attr-defined]
    assert "in doubt" not in pbem("mail", root, "--send", "--smtp", address).stdout
    return True


@pytest.mark.parametrize("game_id", sorted(set(GAMES) - {"secrets"}))  # secrets: tests/test_crash.py
def test_every_game_survives_kill_points(game_id: str, tmp_path: Path) -> None:
    before = tmp_path / "before"
    game = GAMES[game_id]
    count = min(max(game.min_players, 3), game.max_players)
    names = ["ann", "bob", "cat", "dan"][:count]
    campaign = create(before, game_id, [{"id": p, "name": p} for p in names], seed=f"kill-{game_id}", passwords=False)
    write_demo_orders(campaign, {})
    after = tmp_path / "after"
    shutil.copytree(before, after)
    counted = crashpoint(0, "adjudicate", after, "--nmr")
    assert counted.returncode == 0, counted.stderr
    changes = int(counted.stderr.strip().splitlines()[-1])
    expected_before, expected_after = snapshot(before), snapshot(after)
    for point in spread(changes, 10 if THOROUGH else 3):
        root = tmp_path / f"kill-{point}"
        shutil.copytree(before, root)
        assert crashpoint(point, "adjudicate", root, "--nmr").returncode == -9
        recover(root)
        state = snapshot(root)
        assert state in (expected_before, expected_after), f"kill point {point}: neither before nor after the turn"
        assert audit(root).divergence is None
        if state == expected_before:
            assert pbem("adjudicate", root, "--nmr").returncode == 0
        assert snapshot(root) == expected_after
    print(f"FIGURE {game_id} adjudicate kill points survived: {len(spread(changes, 10 if THOROUGH else 3))} of {changes}")


# -- a really full disk, a really read-only folder ---------------------------------------


def _mount(*args: str) -> bool:
    return subprocess.run(["mount", *args], capture_output=True, check=False).returncode == 0


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MiB tmpfs (needs root); skipped where mounting is not allowed (tests/test_atomic.py simulates it)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    if not _mount("-t", "tmpfs", "-o", "size=2m", "tmpfs", str(disk)):
        pytest.skip("cannot mount a tmpfs here (not root); test_atomic.py's simulated full disk covers this")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


def _fill(disk: Path, leave: int) -> Path:
    """Fill the disk, then free `leave` bytes."""
    filler = disk / "filler"
    with open(filler, "wb", buffering=0) as handle:
        try:
            while handle.write(b"\0" * 4096):
                pass
        except OSError:
            pass
    with open(filler, "r+b") as handle:
        handle.truncate(max(0, filler.stat().st_size - leave))
    return filler


@pytest.mark.parametrize("leave", [0, 8192, 24576, 40960])
def test_a_full_disk_fails_cleanly_and_loses_nothing(small_disk: Path, tmp_path: Path, leave: int) -> None:
    root = _campaign(small_disk / "spies", passwords=False)
    (root / "turn-001" / "orders" / "tony.yaml").write_text("player: tony\nturn: 1\norders: ['SID 3 steal david 9']\n")
    reference = tmp_path / "reference"
    shutil.copytree(root, reference)
    assert pbem("adjudicate", reference, "--nmr").returncode == 0
    before = snapshot(root)
    filler = _fill(small_disk, leave)
    result = pbem("adjudicate", root, "--nmr")
    assert_clean_failure(result)
    if result.returncode == 1:
        assert "No space left on device" in result.stderr and "kept nothing half written" in result.stderr
        assert snapshot(root) == before, "a failed turn changed the campaign"
        assert not any(p.name.startswith(".turn-") for p in root.iterdir()), "the half-built turn still takes space"
        filler.unlink()
        assert pbem("adjudicate", root, "--nmr").returncode == 0
    assert leave > 4096 or result.returncode == 1, "the disk was meant to be too full for this turn"
    assert snapshot(root) == snapshot(reference) and audit(root).divergence is None


def test_ingest_mail_and_new_on_a_full_disk_fail_cleanly(small_disk: Path, tmp_path: Path) -> None:
    root = _campaign(small_disk / "spies")
    source = _mailbox(tmp_path / "Maildir", root)
    before = snapshot(root)
    filler = _fill(small_disk, 0)
    for args in (("ingest", root, source), ("mail", root), ("new", small_disk / "other", "--game", "secrets", "--players", "a,b,c")):
        result = pbem(*args)
        assert_clean_failure(result)
        assert result.returncode == 1 and "No space left on device" in result.stderr, result.stderr
    assert snapshot(root, skip=("mail/ingest.jsonl",)).keys() >= before.keys()
    assert sorted(p.name for p in small_disk.iterdir()) == ["filler", "spies"], "pbem new left a partial folder"
    filler.unlink()
    assert pbem("ingest", root, source).returncode == 0
    assert [e.status for e in load_index(root)] == [
        "superseded", "filed", "rejected", "filed"
    ]


def test_a_read_only_campaign_fails_cleanly(tmp_path: Path) -> None:
    root = _campaign(tmp_path / "spies")
    source = _mailbox(tmp_path / "Maildir", root)
    view = tmp_path / "readonly"
    view.mkdir()
    if not (_mount("--bind", str(root), str(view)) and _mount("-o", "remount,ro,bind", str(view))):
        subprocess.run(["umount", str(view)], check=False)
        pytest.skip("cannot make a read-only bind mount here (not root)")
    try:
        before = snapshot(root)
        for args in (("adjudicate", view, "--nmr"), ("ingest", view, source), ("mail", view), ("reveal", view)):
            result = pbem(*args)
            assert_clean_failure(result)
            assert result.returncode == 1
            assert args[0] == "reveal" or "Read-only file system" in result.stderr, result.stderr
        assert pbem("status", view).returncode == 0 and pbem("show", view, "--json").returncode == 0
        assert pbem("audit", view).returncode == 0
        assert snapshot(root) == before
    finally:
        subprocess.run(["umount", str(view)], check=False)
    assert pbem("adjudicate", root, "--nmr").returncode == 0
    assert Campaign.open(root).last_turn == 1
