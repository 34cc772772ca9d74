"""The GM's safety net (design 16, issue 27): judge: preview: true, pbem release, pbem rollback."""

from __future__ import annotations

import email
import email.policy
from pathlib import Path
from typing import Any

import pytest

from adjudicator.campaign import rollback
from adjudicator.campaign.audit import audit
from adjudicator.campaign.folder import Campaign
from adjudicator.cli import main
from judgekit import append_mbox, campaign, orders, outbox

SPIES = ("tony", "david", "maria")


def pbem(capsys: pytest.CaptureFixture[str], *args: Any) -> tuple[int, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out + err


def send_all(tmp_path: Path, turn: int, when: str = "Tue, 01 Dec 2026 10:00:00 +0000") -> None:
    for player in SPIES:
        append_mbox(tmp_path / "spies.mbox", orders(player, turn, when))


def read(root: Path, name: str) -> email.message.EmailMessage:
    return email.message_from_bytes((root / "mail" / "outbox" / name).read_bytes(), policy=email.policy.default)


def test_a_previewed_turn_goes_to_the_gm_only_until_released(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = campaign(tmp_path, judge={"preview": True, "gm_digest": True})
    send_all(tmp_path, 1)
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T12:00+00:00")
    assert code == 0 and "turn 1 adjudicated early" in out, out
    built = outbox(root)
    assert not [n for n in built if "report-" in n]  # nothing of the turn to any player, not even the public report
    [name] = [n for n in built if "gm-preview" in n]
    letter = read(root, name)
    assert letter["To"].addresses[0].addr_spec == "gm@example.org" and "PREVIEW" in letter["Subject"]
    body = letter.get_content()
    assert "PREVIEW: public report of turn 1" in body and "PREVIEW: report for maria" in body and f"pbem release {root}" in body
    digest = read(root, next(n for n in outbox(root) if "gm-digest" in n)).get_content()
    assert "turn 1 is held for your preview" in digest

    # While the turn is held, the judge adjudicates no later turn, even with every file in, and gives
    # no player the held report, even when asked for it.
    send_all(tmp_path, 2, "Tue, 01 Dec 2026 13:00:00 +0000")
    report = (root / "turn-001" / "reports" / "tony.txt").read_text()
    for n, words in enumerate(("report", "report 1")):
        append_mbox(tmp_path / "spies.mbox", orders("tony", 2, f"Tue, 01 Dec 2026 13:0{n}:00 +0000", body=words).replace(b"Subject: orders turn 2", f"Subject: {words}".encode()))
    code, out = pbem(capsys, "run", root, "--now", "2026-12-20T12:00+00:00")
    assert code == 0 and "adjudicated" not in out and Campaign.open(root).last_turn == 1
    replies = [read(root, n) for n in outbox(root) if "tony" in str(read(root, n)["To"]) and "report" in read(root, n)["Subject"]]
    assert len(replies) == 2 and all(report.splitlines()[1] not in r.get_content() for r in replies)
    assert all("the report of turn 1 is not out yet" in r.get_content() for r in replies)

    code, out = pbem(capsys, "status", root)
    assert code == 0 and "Turn 1 is held for your preview" in out
    code, out = pbem(capsys, "release", root, "--now", "2026-12-20T12:01+00:00")
    assert code == 0 and "Turn 1 is released" in out
    code, out = pbem(capsys, "release", root, "--now", "2026-12-20T12:02+00:00")
    assert code == 1 and "already released" in out
    code, out = pbem(capsys, "run", root, "--now", "2026-12-20T12:05+00:00")
    assert code == 0, out
    assert {f"turn-001/report-{p}.eml" for p in SPIES} <= set(outbox(root))
    assert Campaign.open(root).last_turn == 2  # released: the turn after goes as usual (and is held in its turn)
    assert not [n for n in outbox(root) if n.startswith("turn-002/report-")]
    code, out = pbem(capsys, "rollback", root)
    assert code == 0 and "Turn 2 is rolled back" in out
    code, out = pbem(capsys, "rollback", root)
    assert code == 1 and "turn 1 is released" in out and "cannot be rolled back" in out
    assert Campaign.open(root).last_turn == 1 and audit(root).divergence is None


def test_rollback_keeps_the_turn_puts_its_orders_back_and_audit_stays_clean(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = campaign(tmp_path, judge={"preview": True, "gm_digest": True})
    send_all(tmp_path, 1)
    assert pbem(capsys, "run", root, "--now", "2026-12-01T12:00+00:00")[0] == 0
    first = outbox(root)
    sent = {p: (root / "turn-001" / "orders" / f"{p}.yaml").read_bytes() for p in SPIES}
    manifest = (root / "turn-001" / "manifest.json").read_bytes()
    (root / "turn-002" / "orders" / "tony.yaml").write_bytes(b"player: tony\nturn: 2\norders: []\n")  # sent early
    code, out = pbem(capsys, "rollback", root)
    assert code == 0 and "Orders pending again: david.yaml, maria.yaml, tony.yaml" in out, out
    kept = root / "gm" / "rolled-back" / "turn-001"
    assert (kept / "manifest.json").read_bytes() == manifest
    assert (root / "gm" / "rolled-back" / "turn-002-pending" / "orders" / "tony.yaml").is_file()
    assert not (root / "turn-002").exists() and not (root / "turn-001" / "manifest.json").exists()
    assert {p: (root / "turn-001" / "orders" / f"{p}.yaml").read_bytes() for p in SPIES} == sent
    assert audit(root).divergence is None
    code, out = pbem(capsys, "status", root)
    assert code == 0 and "turn 1" in out.lower()
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T12:10+00:00")
    assert code == 0 and "turn 1 adjudicated early" in out, out
    digest = [read(root, n).get_content() for n in outbox(root) if "gm-digest" in n and n not in first]
    assert any("turn 1 rolled back by the GM" in d and "turn 1 adjudicated" in d for d in digest), digest
    again = [n for n in outbox(root) if "gm-preview" in n and n not in first]
    assert len(again) == 1 and "rolled back 1 time before" in read(root, again[0]).get_content()
    code, out = pbem(capsys, "rollback", root)
    assert code == 0 and (root / "gm" / "rolled-back" / "turn-001.2" / "manifest.json").is_file()
    assert audit(root).divergence is None and not [n for n in outbox(root) if "report-" in n]


def test_the_stand_ins_files_do_not_come_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = campaign(tmp_path, judge={"preview": True})
    assert pbem(capsys, "standin", root, "maria", "on")[0] == 0
    for player in ("tony", "david"):
        append_mbox(tmp_path / "spies.mbox", orders(player, 1, "Tue, 01 Dec 2026 10:00:00 +0000"))
    code, out = pbem(capsys, "run", root, "--now", "2026-12-01T12:00+00:00")
    assert "turn 1 adjudicated early" in out, out
    assert (root / "turn-001" / "orders" / "maria.yaml").is_file()
    assert pbem(capsys, "rollback", root)[0] == 0
    assert sorted(p.name for p in (root / "turn-001" / "orders").iterdir()) == ["david.yaml", "tony.yaml"]
    assert audit(root).divergence is None


def test_a_rollback_cut_at_any_step_is_finished_or_undone(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    for cut in range(3):  # after the staging, after the turn after moved in, after the commit point
        base = tmp_path / str(cut)
        base.mkdir()
        root = campaign(base, judge={"preview": True})
        for player in SPIES:
            append_mbox(base / "spies.mbox", orders(player, 1, "Tue, 01 Dec 2026 10:00:00 +0000"))
        assert pbem(capsys, "run", root, "--now", "2026-12-01T12:00+00:00")[0] == 0
        (root / "turn-002" / "orders" / "tony.yaml").write_bytes(b"player: tony\nturn: 2\norders: []\n")
        renames = []
        real = os.rename

        def cut_rename(a: Any, b: Any, *, stop: int = cut) -> None:
            if len(renames) == stop:
                raise KeyboardInterrupt
            renames.append(b)
            real(a, b)

        monkeypatch.setattr(rollback.os, "rename", cut_rename)
        with pytest.raises(KeyboardInterrupt):
            rollback.rollback(root)
        monkeypatch.setattr(rollback.os, "rename", real)
        Campaign.open(root).last_turn  # every state on the way reads
        code, out = pbem(capsys, "status", root)
        assert code == 0, out
        rollback.finish(root)
        done = not (root / "turn-001" / "manifest.json").exists()
        assert done == (cut == 2), cut
        if done:
            assert (root / "gm" / "rolled-back" / "turn-002-pending" / "orders" / "tony.yaml").is_file()
            assert sorted(p.name for p in (root / "turn-001" / "orders").iterdir()) == ["david.yaml", "maria.yaml", "tony.yaml"]
        else:
            assert (root / "turn-002" / "orders" / "tony.yaml").is_file()
        assert audit(root).divergence is None
        assert not list(root.glob(".turn-*.rollback"))


def test_a_turn_after_which_a_seat_changed_hands_is_not_rolled_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = campaign(tmp_path, judge={"preview": True})
    send_all(tmp_path, 1)
    assert pbem(capsys, "run", root, "--now", "2026-12-01T12:00+00:00")[0] == 0
    assert pbem(capsys, "replace", root, "david", "--name", "Dora", "--email", "dora@example.org")[0] == 0
    code, out = pbem(capsys, "rollback", root)
    assert code == 1 and "david was handed to a new player from turn 2" in out and Campaign.open(root).last_turn == 1
