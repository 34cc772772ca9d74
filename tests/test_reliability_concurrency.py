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


@contextmanager
def paused(point: int, *args: object) -> Iterator[subprocess.Popen[str]]:
    """The command runs until just before its change number `point`, and waits there until the block ends."""
    signals = Path(str(args[1])).parent / f".signals-{point}"
    signals.mkdir()
    env = {**ENV, "PBEM_PAUSED": str(signals / "paused"), "PBEM_RELEASE": str(signals / "release")}
    process = subprocess.Popen([sys.executable, str(CRASHPOINT), f"pause={point}", *map(str, args)], env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while not (signals / "paused").exists():
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the first command never reached its pause"
            time.sleep(0.01)
        yield process
    finally:
        (signals / "release").touch()
        process.wait(timeout=60)


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
        results = [(p.wait(timeout=60), p.communicate()[1]) for p in both]
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
