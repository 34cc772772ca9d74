"""A turn is committed whole or not at all; a crash mid-swap is finished or undone by the next command."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from adjudicator.common import atomic
from adjudicator.campaign.adjudicate import adjudicate
from adjudicator.campaign.audit import audit
from adjudicator.campaign.create import create


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    root = tmp_path / "c"
    create(root, "secrets", [{"id": p, "name": p} for p in ("a", "b", "c")], seed="s", passwords=False)
    (root / "turn-001" / "orders" / "a.yaml").write_text("player: a\nturn: 1\norders: ['SID 2 steal b 4']\n")
    return root


def _snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and p.name != ".lock"}


def test_a_staged_folder_keeps_what_was_there(tmp_path: Path) -> None:
    final = tmp_path / "turn-001"
    (final / "orders").mkdir(parents=True)
    (final / "orders" / "a.yaml").write_text("x")
    staged = atomic.stage(final, {"state.json": b"{}", "reports/a.txt": b"hi"})
    assert not (final / "state.json").exists()  # nothing in place before the swap
    atomic.flush([staged])
    atomic.swap(staged)
    atomic.settle([tmp_path])
    assert (final / "orders" / "a.yaml").read_text() == "x"
    assert (final / "reports" / "a.txt").read_bytes() == b"hi"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["turn-001"]


def test_crash_between_the_two_renames_rolls_back_and_keeps_what_was_saved(campaign: Path, tmp_path: Path) -> None:
    """The turn is built, the pending folder renamed away, and the kill comes before the new folder is
    renamed in: the next command puts the pending folder back, with a file saved into it just before
    (issue 15, item 2: rolling forward removed it with the old folder), and the rerun gives the turn."""
    before = _snapshot(campaign)
    staged = atomic.stage(campaign / "turn-001", {"state.json": b"{}"})
    atomic.flush([staged])
    os.rename(campaign / "turn-001", campaign / ".turn-001.old")
    (campaign / ".turn-001.old" / "orders" / "late.yaml").write_text("player: tony\n")
    atomic.recover(campaign)
    assert _snapshot(campaign) == {**before, "turn-001/orders/late.yaml": b"player: tony\n"}
    assert sorted(p.name for p in campaign.iterdir() if p.name.startswith(".turn")) == []
    (campaign / "turn-001" / "orders" / "late.yaml").unlink()
    adjudicate(campaign, nmr=True)
    assert audit(campaign).divergence is None


def test_crash_while_removing_the_old_folder_finishes_the_swap(campaign: Path, tmp_path: Path) -> None:
    reference = tmp_path / "reference"
    shutil.copytree(campaign, reference)
    adjudicate(reference, nmr=True)
    adjudicate(campaign, nmr=True)
    shutil.copytree(reference / "turn-001" / "orders", campaign / ".turn-001.old" / "orders")  # half removed
    atomic.recover(campaign)
    assert _snapshot(campaign) == _snapshot(reference)
    assert audit(campaign).divergence is None


def test_crash_while_building_rolls_back(campaign: Path) -> None:
    before = _snapshot(campaign)
    half = campaign / ".turn-001.new"
    shutil.copytree(campaign / "turn-001", half)
    (half / "state.json").write_text("{half written")
    atomic.recover(campaign)
    assert _snapshot(campaign) == before
    assert not half.exists()


def test_next_run_after_a_crash_gives_the_uninterrupted_result(campaign: Path, tmp_path: Path) -> None:
    reference = tmp_path / "reference"
    shutil.copytree(campaign, reference)
    adjudicate(reference, nmr=True)
    half = campaign / ".turn-001.new"
    shutil.copytree(campaign / "turn-001", half)
    (half / "results.json").write_text("{")
    adjudicate(campaign, nmr=True)
    assert _snapshot(campaign) == _snapshot(reference)


def test_a_failed_turn_changes_nothing(campaign: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = _snapshot(campaign)

    real_write = atomic._write_new
    writes = []

    def disk_full_on_the_third_file(path: Path, data: bytes, sync: bool = True) -> None:
        writes.append(path)
        if len(writes) == 3:
            raise OSError(28, "No space left on device")
        real_write(path, data, sync)

    monkeypatch.setattr(atomic, "_write_new", disk_full_on_the_third_file)
    with pytest.raises(OSError):
        adjudicate(campaign, nmr=True)
    assert not (campaign / ".turn-001.new").exists()  # the half-built turn takes no space
    atomic.recover(campaign)
    assert _snapshot(campaign) == before


def test_write_file_replaces_whole(tmp_path: Path) -> None:
    target = tmp_path / "campaign.yaml"
    target.write_text("old")
    atomic.write_file(target, b"new")
    assert target.read_bytes() == b"new"
    assert [p.name for p in tmp_path.iterdir()] == ["campaign.yaml"]
