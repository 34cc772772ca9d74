"""Two commands on one campaign at once: one works, the other exits 1 saying the campaign is busy.

The race is made real: the first command is paused at a chosen file-system
change while it holds the lock (tests/crashpoint.py `pause=N`), and the second
one runs meanwhile; then both are also started together many times.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path

import yaml
from reliability_kit import (
    CRASHPOINT,
    ENV,
    THOROUGH,
    crashpoint,
    order_mail,
    pbem,
    snapshot,
    spread,
)

from adjudicator.campaign.audit import audit
from adjudicator.campaign.create import create
from adjudicator.campaign.folder import Campaign
from adjudicator.mail.ingest import load_index

PLAYERS = [{"id": p, "name": p.title(), "email": f"{p}@example.org"} for p in ("tony", "david", "sue")]


def _campaign(root: Path) -> Path:
    create(root, "secrets", [dict(p) for p in PLAYERS], seed="busy", gm_email="gm@example.org", passwords=False)
    for player in ("tony", "david", "sue"):
        (root / "turn-001" / "orders" / f"{player}.yaml").write_text(f"player: {player}\nturn: 1\norders: []\n")
    return root


HANG_SECONDS = 600
"""Time-outs against a hang only: every wait here ends on its event, however loaded the machine."""


@contextmanager
def paused(point: int, *args: object) -> Iterator[subprocess.Popen[str]]:
    """The command runs until just before its change number `point`, and waits there until the block ends."""
    signals = Path(str(args[1])).parent / f".signals-{point}"
    signals.mkdir()
    env = {**ENV, "PBEM_PAUSED": str(signals / "paused"), "PBEM_RELEASE": str(signals / "release")}
    process = subprocess.Popen([sys.executable, str(CRASHPOINT), f"pause={point}", *map(str, args)], env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + HANG_SECONDS
        while not (signals / "paused").exists():
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the first command never reached its pause"
            time.sleep(0.01)
        yield process
    finally:
        (signals / "release").touch()
        process.wait(timeout=HANG_SECONDS)


def _changes(root: Path, *args: object) -> int:
    counted = crashpoint(0, *args)
    assert counted.returncode == 0, counted.stderr
    return int(counted.stderr.strip().splitlines()[-1])


def test_a_second_adjudicate_is_refused_while_the_first_holds_the_campaign(tmp_path: Path) -> None:
    before = _campaign(tmp_path / "before")
    probe = tmp_path / "probe"
    shutil.copytree(before, probe)
    changes = _changes(probe, "adjudicate", probe)
    expected = snapshot(probe)
    # Change 1 creates the lock file; from change 2 on the first command holds the lock.
    for point in [p for p in spread(changes, 6) if p >= 2]:
        root = tmp_path / f"at-{point}"
        shutil.copytree(before, root)
        with paused(point, "adjudicate", root) as first:
            second = pbem("adjudicate", root, "--nmr")
            assert second.returncode == 1 and "busy" in second.stderr, (point, second.stderr)
            assert "Traceback" not in second.stderr
        assert first.returncode == 0, first.stderr
        assert snapshot(root) == expected and audit(root).divergence is None


def test_two_adjudicate_started_together_adjudicate_once(tmp_path: Path) -> None:
    before = _campaign(tmp_path / "before")
    for attempt in range(20 if THOROUGH else 4):
        root = tmp_path / f"race-{attempt}"
        shutil.copytree(before, root)
        both = [subprocess.Popen([sys.executable, "-m", "adjudicator", "adjudicate", str(root)], env=ENV, text=True,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
        results = [(p.wait(timeout=HANG_SECONDS), p.communicate()[1]) for p in both]
        assert sorted(code for code, _ in results) == [0, 1], results
        refusal = next(err for code, err in results if code == 1)
        assert "busy" in refusal or "waiting for orders" in refusal, refusal  # the loser came first, or just after
        assert Campaign.open(root).last_turn == 1 and audit(root).divergence is None


def test_ingest_during_adjudicate_never_files_into_an_adjudicated_turn(tmp_path: Path) -> None:
    root = _campaign(tmp_path / "spies")
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "late.eml").write_bytes(order_mail("tony@example.org", "player: tony\nturn: 1\norders: ['SID 7 steal sue 10']\n", "<late@x>", attach=False))
    (inbox / "next.eml").write_bytes(order_mail("sue@example.org", "player: sue\nturn: 2\norders: []\n", "<next@x>", attach=False))
    turn_one = snapshot(root / "turn-001" / "orders")
    with paused(5, "adjudicate", root):
        during = pbem("ingest", root, inbox)
        assert during.returncode == 1 and "busy" in during.stderr
        assert not (root / "mail" / "ingest.jsonl").exists()  # left in the mailbox for the next run
    after = pbem("ingest", root, inbox)
    assert after.returncode == 0, after.stderr
    entries = {e.message_id: asdict(e) for e in load_index(root)}
    assert entries["<late@x>"]["status"] == "rejected" and "pending turn is 2" in entries["<late@x>"]["reason"]
    assert entries["<next@x>"]["status"] == "filed" and entries["<next@x>"]["turn"] == 2
    assert snapshot(root / "turn-001" / "orders") == turn_one
    assert (root / "turn-002" / "orders" / "sue.yaml").is_file() and audit(root).divergence is None


def test_adjudicate_during_ingest_waits_for_the_next_run(tmp_path: Path) -> None:
    root = tmp_path / "spies"
    create(root, "secrets", [dict(p) for p in PLAYERS], seed="busy", gm_email="gm@example.org", passwords=False)
    message = tmp_path / "tony.eml"
    message.write_bytes(order_mail("tony@example.org", "player: tony\nturn: 1\norders: ['SID 7 steal sue 10']\n", "<t@x>", attach=False))
    with paused(4, "ingest", root, message) as first:
        during = pbem("adjudicate", root, "--nmr")
        assert during.returncode == 1 and "busy" in during.stderr
        assert not (root / "turn-001" / "manifest.json").exists()
    assert first.returncode == 0, first.stderr
    assert yaml.safe_load((root / "turn-001" / "orders" / "tony.yaml").read_text())["orders"] == ["SID 7 steal sue 10"]
    assert pbem("adjudicate", root, "--nmr").returncode == 0
    results = json.loads((root / "turn-001" / "results.json").read_text())
    assert results["submissions"]["tony"]["status"] == "accepted"


# -- order files saved into orders/ while `pbem adjudicate` runs (issue 15, item 2) --------------------


def _pending_orders(root: Path) -> Path | None:
    """Where a player saves an order file now, as the manual workflow says: the orders/ folder of
    the first turn without a manifest; None while that folder is not there (mid-swap: try again)."""
    number = 1
    while (root / f"turn-{number:03d}" / "manifest.json").is_file():
        number += 1
    orders = root / f"turn-{number:03d}" / "orders"
    return orders if orders.is_dir() else None


def _save_late_orders(root: Path) -> dict[str, bytes] | None:
    """sue's first file, and tony's file rewritten in place (same length, other bytes: an editor
    that writes over the file, the case a hard link shares); None when no orders/ folder is there."""
    orders = _pending_orders(root)
    if orders is None:
        return None
    turn = int(orders.parent.name.removeprefix("turn-"))
    sue = f"player: sue\nturn: {turn}\norders: ['SID 7 steal tony 10']\n".encode()
    (orders / "sue.yaml").write_bytes(sue)
    tony = orders / "tony.yaml"
    if tony.is_file():
        old = tony.read_bytes()
        with open(tony, "r+b") as handle:
            handle.write(old.replace(b"orders: []", b"orders: ~ ")[: len(old)])
    return {"sue.yaml": sue}


def _assert_nothing_unread_was_committed(root: Path, saved: dict[str, bytes]) -> None:
    """Audit clean; every file of an adjudicated turn is what that turn read; what was saved is
    in some turn's orders/, whole."""
    assert audit(root).divergence is None
    results = json.loads((root / "turn-001" / "results.json").read_text())
    committed = root / "turn-001" / "orders"
    assert ("sue.yaml" in {p.name for p in committed.iterdir()}) == (results["submissions"]["sue"]["status"] != "missing")
    found = [p.read_bytes() for p in root.glob("turn-*/orders/sue.yaml")]
    assert saved["sue.yaml"] in found, found


def test_an_order_file_saved_at_any_moment_of_an_adjudication_is_read_or_left_for_later(tmp_path: Path) -> None:
    """Before: a file saved after the orders were read was hard-linked into the adjudicated turn
    unread (the report said NMR) and a file rewritten in place changed the committed turn, so
    `pbem audit` failed on that turn for ever. Now the turn commits the bytes it read; a change
    found at the swap puts the pending turn back as it was and refuses (the next run reads it)."""
    before = tmp_path / "before"
    _campaign(before)
    (before / "turn-001" / "orders" / "sue.yaml").unlink()
    probe = tmp_path / "probe"
    shutil.copytree(before, probe)
    changes = _changes(probe, "adjudicate", probe, "--nmr")
    refused = committed = 0
    for point in spread(changes, 8):
        root = tmp_path / f"at-{point}"
        shutil.copytree(before, root)
        with paused(point, "adjudicate", root, "--nmr") as first:
            saved = _save_late_orders(root)
        if saved is None:  # between the swap's two renames: the folder is not there, the player saves again after
            saved = _save_late_orders(root)
            assert saved is not None
        err = first.communicate()[1]
        assert first.returncode in (0, 1) and "Traceback" not in err, err
        if first.returncode == 1:
            refused += 1
            assert "turn-001/orders/sue.yaml" in err and "while turn-001 was being adjudicated; nothing was written" in err, err
            assert not (root / "turn-001" / "manifest.json").exists() and (root / "turn-001" / "orders" / "sue.yaml").read_bytes() == saved["sue.yaml"]
            again = pbem("adjudicate", root, "--nmr")
            assert again.returncode == 0, again.stderr
            results = json.loads((root / "turn-001" / "results.json").read_text())
            assert results["submissions"]["sue"]["status"] == "accepted"
        else:
            committed += 1
        _assert_nothing_unread_was_committed(root, saved)
    assert refused and committed, (refused, committed)
    print(f"FIGURE order files saved during adjudicate: {refused + committed} pause points, {refused} refused and rerun, {committed} committed")


def test_a_real_writer_saving_orders_throughout_an_adjudication(tmp_path: Path) -> None:
    """A second process rewrites order files as fast as it can (in place, and by rename as careful
    editors save) from before `pbem adjudicate` starts until the turn is about to be swapped in;
    the turn then holds exactly what it read, or is refused and the rerun reads the last versions."""
    before = _campaign(tmp_path / "before")
    log = tmp_path / "changes.log"
    probe = tmp_path / "probe"
    shutil.copytree(before, probe)
    crashpoint(0, "adjudicate", probe, env={"PBEM_CHANGES": str(log)})
    swap = next(int(n) for n, event, path in (line.split(" ", 2) for line in log.read_text().splitlines())
                if event == "os.rename" and path.rstrip().endswith("/turn-001"))
    outcomes: list[str] = []
    writes = 0
    for attempt in range(10 if THOROUGH else 1):
        root = tmp_path / f"run-{attempt}" / "spies"  # each run its own parent: the pause's signal files go there
        shutil.copytree(before, root)
        saved, first, err = _write_throughout(root, swap, root.parent / "stop")
        writes += saved
        assert first.returncode in (0, 1) and "Traceback" not in err, err
        if first.returncode == 1:
            assert "while turn-001 was being adjudicated" in err, err
        outcomes.append("refused" if first.returncode else "committed")
        assert audit(root).divergence is None
    print(f"FIGURE a writer saving throughout adjudicate: {len(outcomes)} runs, {writes} saves, "
          f"{outcomes.count('refused')} refused and rerun, {outcomes.count('committed')} committed; audit clean every time")


WRITER = """
import os, sys, pathlib
orders, stop = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
i = 0
while not stop.exists():
    i += 1
    (orders / 'sue.yaml').write_text(f"player: sue\\nturn: 1\\norders: ['SID {1 + i % 7} guard secret {1 + i % 10}']\\n")
    temporary = orders / '.tony.yaml.tmp'
    temporary.write_text(f"player: tony\\nturn: 1\\norders: ['SID {1 + i % 7} steal david {1 + i % 10}']\\n")
    os.replace(temporary, orders / 'tony.yaml')
print(i)
"""


def _write_throughout(root: Path, swap: int, stop: Path) -> tuple[int, subprocess.Popen[str], str]:
    """The writer runs until `pbem adjudicate` stops before its swap; then the last versions are
    checked against the committed turn once it is in (by this run, or the rerun after a refusal)."""
    orders = root / "turn-001" / "orders"
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(orders), str(stop)], text=True, stdout=subprocess.PIPE)
    try:
        while "SID" not in (orders / "sue.yaml").read_text():  # the writer has saved once: it is running
            assert writer.poll() is None, "the writer stopped before its first save"
            time.sleep(0.01)
        # --nmr: a file caught half written is rejected, and a rejected file is not "sent" (the turn
        # would wait for it); with --nmr the turn goes on and holds the bytes it read
        with paused(swap, "adjudicate", root, "--nmr") as first:
            stop.touch()
            saved = int(writer.communicate(timeout=HANG_SECONDS)[0])
            last = {name: (orders / name).read_bytes() for name in ("sue.yaml", "tony.yaml")}
    finally:
        stop.touch()
        writer.wait(timeout=HANG_SECONDS)
    err = first.communicate()[1]
    if first.returncode == 1:
        assert pbem("adjudicate", root).returncode == 0
    assert {name: (orders / name).read_bytes() for name in last} == last
    results = json.loads((root / "turn-001" / "results.json").read_text())
    assert [o["written"] for o in results["submissions"]["sue"]["orders"]] == yaml.safe_load(last["sue.yaml"])["orders"]
    return saved, first, err
