"""`pbem run` killed before each file operation of a tick that files orders, reminds and sends:
each (turn, player, offset) is reminded once, and nothing is filed or sent twice, across kills.
(The tick that fetches over IMAP and adjudicates is killed the same way in test_judge_imap.py.)
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

from judgekit import append_mbox, campaign, edit, kill_points, orders, snapshot
from servers import Inbox

from adjudicator.campaign.audit import audit

CRASHPOINT = Path(__file__).resolve().parent / "crashpoint.py"
NOW = "2026-12-07T21:00+01:00"  # 23 hours before turn 1's deadline: inside both reminder offsets


def _run(point: int, root: Path, smtp: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(CRASHPOINT), str(point), "run", str(root), "--now", NOW, "--send", "--smtp", smtp],
        capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(CRASHPOINT.parent.parent)},
    )


def _state(root: Path) -> dict[str, object]:
    """The campaign's files, but for what names its own folder (a copy has its own)."""
    files: dict[str, object] = dict(snapshot(root))
    files.pop("campaign.yaml")
    record = json.loads(files.pop("mail/judge.json"))  # type: ignore[arg-type]
    files["mail/judge.json"] = {key: value for key, value in record.items() if key != "sources"}
    files["mail/sent.json"] = sorted(e["message_id"] for e in json.loads(files["mail/sent.json"])["sent"])  # type: ignore[arg-type]
    return files


def test_reminders_and_acknowledgements_survive_a_kill_at_every_file_operation(tmp_path: Path, smtp: tuple[Inbox, str]) -> None:
    box, address = smtp
    (tmp_path / "base").mkdir()
    campaign(tmp_path / "base", judge={"remind": ["48 hours", "24 hours"]})
    append_mbox(tmp_path / "base" / "spies.mbox", orders("tony", 1, "Mon, 07 Dec 2026 10:00:00 +0000"))

    def fresh(name: str) -> Path:
        folder = tmp_path / name
        shutil.copytree(tmp_path / "base", folder)
        edit(folder / "spies", lambda c: c["judge"].update(inbox=[str(folder / "spies.mbox")]))
        box.received.clear()
        return folder / "spies"

    clean = fresh("clean")
    counted = _run(0, clean, address)
    assert counted.returncode == 0, counted.stderr
    changes = int(counted.stderr.strip().splitlines()[-1])
    expected = _state(clean)
    sent = Counter(str(m["Message-ID"]).strip() for _, m in box.received)
    reminders = sorted(rcpt[0] for rcpt, m in box.received if "missing" in str(m["Subject"]))
    assert reminders == ["david@example.org", "maria@example.org"] and max(sent.values()) == 1
    points = kill_points(changes)
    for point in points:
        root = fresh(f"kill-{point}")
        killed = _run(point, root, address)
        assert killed.returncode == -9, f"kill point {point} of {changes} was not reached: {killed.stderr}"
        again = _run(-1, root, address)
        assert again.returncode == 0, f"kill point {point}: {again.stdout} {again.stderr}"
        got = Counter(str(m["Message-ID"]).strip() for _, m in box.received)
        assert max(got.values()) == 1, f"kill point {point}: a message was sent twice"
        doubt = [e for e in json.loads((root / "mail" / "sent.json").read_text())["sent"] if e.get("in_doubt")]
        assert set(got) | {e["message_id"] for e in doubt} == set(sent), f"kill point {point}: a message was lost"
        assert _state(root) == expected, f"kill point {point}: the campaign differs from an uninterrupted tick"
        assert audit(root).divergence is None
    print(f"FIGURE judge reminder tick kill points survived: {len(points)} of {changes}")
