"""The judge's IMAP source against a real Dovecot on loopback (TLS with a certificate made here),
and `pbem run` killed at every file operation of a tick: nothing lost, filed twice or sent twice.

Dovecot is installed by the first test that needs it (tests/system.py); if it cannot be installed
or cannot start, these tests fail and say why.
"""

from __future__ import annotations

import email
import email.policy
import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from adjudicator.campaign.audit import audit
from adjudicator.cli import main
from judgekit import append_mbox, campaign, edit, kill_points, orders, snapshot
from servers import PASSWORD, Imap, Inbox

CRASHPOINT = Path(__file__).resolve().parent / "crashpoint.py"


def _on_imap(tmp_path: Path, imap: Imap, name: str = "spies") -> Path:
    secret = tmp_path / f"{name}-imap-password"
    secret.write_text(PASSWORD + "\n")
    root = campaign(tmp_path, name, judge={"imap_ca_file": imap.cafile, "imap_password_file": str(secret)})
    edit(root, lambda c: c["judge"]["inbox"].append(imap.url))
    return root


def _stored(root: Path) -> list[bytes]:
    box = root / "mail" / "inbox"
    return [p.read_bytes() for sub in ("new", "cur") if (box / sub).is_dir() for p in sorted((box / sub).iterdir()) if not p.name.startswith(".")]


def test_imap_messages_are_taken_by_uid_whatever_their_seen_flag(tmp_path: Path, imap: Imap, capsys: pytest.CaptureFixture[str]) -> None:
    """The GM reads the judge's mailbox in a client (issue 24 item 1): messages marked seen before or
    after a tick are still taken, once each, and the judge changes no flag on the server."""
    imap.empty()
    root = _on_imap(tmp_path, imap)
    imap.deliver(orders("tony", 1, "Wed, 02 Dec 2026 10:00:00 +0000"))
    imap.read_all()  # the GM opened the mailbox before the tick
    imap.deliver(orders("david", 1, "Wed, 02 Dec 2026 10:05:00 +0000"))
    assert main(["run", str(root), "--now", "2026-12-02T12:00+00:00"]) == 0
    out = capsys.readouterr().out
    assert "2 messages fetched" in out and "2 new messages (2 filed, 0 rejected)" in out
    assert (imap.seen(), imap.unseen()) == (1, 1)  # flags on the server as the GM left them
    assert sorted(p.name for p in (root / "turn-001" / "orders").iterdir()) == ["david.yaml", "tony.yaml"]
    assert len(_stored(root)) == 2
    imap.read_all()  # ... and after it: nothing is taken twice
    imap.all_unseen()
    assert main(["run", str(root), "--now", "2026-12-02T12:10+00:00"]) == 0
    assert capsys.readouterr().out.strip() == f"{root}: nothing to do" and len(_stored(root)) == 2
    imap.deliver(orders("maria", 1, "Wed, 02 Dec 2026 12:15:00 +0000", body="player: maria\nturn: 1\norders: []\n"))
    imap.read_all()  # read by the GM before the judge's next tick
    assert main(["run", str(root), "--now", "2026-12-02T12:20+00:00"]) == 0
    assert "1 message fetched" in capsys.readouterr().out and len(_stored(root)) == 3
    assert (imap.seen(), imap.unseen()) == (3, 0)


def test_imap_mark_seen_flags_what_was_taken(tmp_path: Path, imap: Imap, capsys: pytest.CaptureFixture[str]) -> None:
    imap.empty()
    root = _on_imap(tmp_path, imap)
    edit(root, lambda c: c["judge"].update(imap_mark_seen=True))
    for player in ("tony", "david"):
        imap.deliver(orders(player, 1, "Wed, 02 Dec 2026 10:00:00 +0000"))
    assert main(["run", str(root), "--now", "2026-12-02T12:00+00:00"]) == 0
    assert "2 messages fetched" in capsys.readouterr().out and (imap.seen(), imap.unseen()) == (2, 0)
    imap.all_unseen()  # another client marks them unread again: not taken twice
    assert main(["run", str(root), "--now", "2026-12-02T12:10+00:00"]) == 0
    assert capsys.readouterr().out.strip() == f"{root}: nothing to do" and len(_stored(root)) == 2 and imap.unseen() == 2


def test_an_unreachable_or_untrusted_server_stops_the_tick_before_any_nmr(tmp_path: Path, imap: Imap, capsys: pytest.CaptureFixture[str]) -> None:
    imap.empty()
    root = _on_imap(tmp_path, imap)
    edit(root, lambda c: c["judge"].pop("imap_ca_file"))
    assert main(["run", str(root), "--now", "2026-12-09T12:00+01:00"]) == 1  # past the deadline
    out = capsys.readouterr().out
    assert "certificate cannot be trusted" in out and "judge: imap_ca_file:" in out
    assert not (root / "turn-001" / "manifest.json").exists()  # mail stuck on the server must not make NMRs
    edit(root, lambda c: c["judge"].update(imap_ca_file=imap.cafile))
    (tmp_path / "spies-imap-password").write_text("wrong\n")
    assert main(["run", str(root), "--now", "2026-12-09T12:00+01:00"]) == 1
    assert "refused the login" in capsys.readouterr().out


def _pbem_run(point: int, root: Path, smtp: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(CRASHPOINT), str(point), "run", str(root), "--now", "2026-12-08T21:00+01:00", "--send", "--smtp", smtp],
        capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(CRASHPOINT.parent.parent)},
    )


def _comparable(files: dict[str, bytes]) -> dict[str, Any]:
    """A campaign's files, but for what names its own folder: campaign.yaml's paths and the
    sources' paths and times in judge.json (a copy has its own)."""
    files = dict(files)
    files.pop("campaign.yaml")
    record = json.loads(files.pop("mail/judge.json"))
    files["mail/judge.json"] = {key: value for key, value in record.items() if key != "sources"}
    return files


def _ids(received: list[tuple[list[str], Any]]) -> Counter[str]:
    return Counter(str(message["Message-ID"]) for _, message in received)


def test_a_tick_killed_at_any_file_operation_loses_nothing_and_sends_nothing_twice(
    tmp_path: Path, imap: Imap, smtp: tuple[Inbox, str]
) -> None:
    """A tick that fetches, files, adjudicates at the deadline, builds and sends, killed before each
    of its file operations in turn (PBEM_CRASH_POINTS=all: every one; else ten spread over it),
    then run again: the campaign ends as an uninterrupted tick leaves it, every message was
    stored before the server saw it flagged, none was delivered twice, and audit is clean."""
    box, address = smtp
    imap.empty()
    (tmp_path / "base").mkdir()
    _on_imap(tmp_path / "base", imap)
    append_mbox(tmp_path / "base" / "spies.mbox", orders("tony", 1, "Wed, 02 Dec 2026 10:00:00 +0000"))
    imap.deliver(orders("david", 1, "Wed, 02 Dec 2026 11:00:00 +0000"))

    def fresh(name: str) -> Path:
        folder = tmp_path / name
        shutil.copytree(tmp_path / "base", folder)
        root = folder / "spies"
        edit(root, lambda c: c["judge"].update(inbox=[str(folder / "spies.mbox"), imap.url], imap_password_file=str(folder / "spies-imap-password"),
                                               imap_mark_seen=True))  # so that the order store, record, flag is checked
        imap.all_unseen()
        box.received.clear()
        return root

    clean = fresh("clean")
    counted = _pbem_run(0, clean, address)
    assert counted.returncode == 0, counted.stderr
    changes = int(counted.stderr.strip().splitlines()[-1])
    expected, sent = snapshot(clean), _ids(box.received)
    # 3 welcomes, 3 reports and the public one; the acknowledgements are outdated by the turn that the
    # same tick settles (they say the turn is still open), so they never go out
    assert "turn-001/manifest.json" in expected and len(sent) == 7 and max(sent.values()) == 1
    points = kill_points(changes)
    for point in points:
        root = fresh(f"kill-{point}")
        killed = _pbem_run(point, root, address)
        assert killed.returncode == -9, f"kill point {point} of {changes} was not reached: {killed.stderr}"
        with imap.client() as server:  # what the server counts as seen is stored already
            server.select("INBOX")
            _, [seen] = server.uid("SEARCH", None, "SEEN")
        assert len(_stored(root)) >= len(seen.split()), f"kill point {point}: a message was flagged seen before it was stored"
        again = _pbem_run(-1, root, address)
        assert again.returncode == 0, f"kill point {point}: {again.stdout} {again.stderr}"
        assert imap.unseen() == 0
        after, want = _comparable(snapshot(root)), _comparable(expected)
        doubt = [e for e in json.loads(after.pop("mail/sent.json"))["sent"] if e.get("in_doubt")]
        want.pop("mail/sent.json")
        assert after == want, f"kill point {point}: the campaign differs from an uninterrupted tick: {sorted(k for k in set(after) | set(want) if after.get(k) != want.get(k))}"
        got = _ids(box.received)
        assert max(got.values()) == 1, f"kill point {point}: a message was sent twice"
        assert len(got) + len(doubt) >= len(sent) and len(doubt) <= 1, f"kill point {point}: messages not sent"
        assert len(_stored(root)) == 1 and audit(root).divergence is None
    print(f"FIGURE judge tick kill points survived: {len(points)} of {changes}")


def test_the_fetched_message_is_read_like_any_other(tmp_path: Path, imap: Imap, capsys: pytest.CaptureFixture[str]) -> None:
    imap.empty()
    root = _on_imap(tmp_path, imap)
    imap.deliver(orders("maria", 1, "Wed, 02 Dec 2026 10:00:00 +0000", body="player: maria\nturn: 1\norders: ['SID 9 steal tony 3']\n"))
    assert main(["run", str(root), "--now", "2026-12-02T12:00+00:00"]) == 0
    ack = next((root / "mail" / "outbox" / "turn-001").glob("ack-*.eml"))
    text = email.message_from_bytes(ack.read_bytes(), policy=email.policy.default).get_content()
    assert "VOID" in text and "maria" in text
