"""SIGKILL `pbem adjudicate` before each of its file-system changes in turn.

After every kill the campaign is exactly before or exactly after the turn (once
the next command has finished any interrupted swap), `pbem audit` is clean, and
running the command again gives outputs byte-identical to an uninterrupted run.
CI tries about ten kill points spread over the run; `PBEM_CRASH_POINTS=all` tries
every one.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.common.atomic import recover
from adjudicator.campaign.audit import audit
from adjudicator.campaign.create import create

CRASHPOINT = Path(__file__).resolve().parent / "crashpoint.py"
COUNT, NEVER = 0, -1


def _snapshot(root: Path) -> dict[str, bytes]:
    """Every visible file: run-time dot files and folders are not part of a campaign's state."""
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(root).parts)
    }


def _run(kill_at: int, *roots: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(CRASHPOINT), str(kill_at), "adjudicate", *map(str, roots), "--nmr"],
        capture_output=True, text=True,
    )


@pytest.fixture(scope="module")
def before(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("crash") / "campaign"
    create(root, "secrets", [{"id": p, "name": p} for p in ("a", "b", "c")], seed="crash", passwords=False)
    (root / "turn-001" / "orders" / "a.yaml").write_text("player: a\nturn: 1\norders: ['SID 3 steal b 9', {sid: 5, guard: 2}]\n")
    (root / "turn-001" / "orders" / "b.yaml").write_text("player: b\nturn: 1\norders: [{sid: 7, guard: 9}]\n")
    return root


def test_every_kill_point_leaves_before_or_after(before: Path, tmp_path: Path) -> None:
    after = tmp_path / "after"
    shutil.copytree(before, after)
    counted = _run(COUNT, after)
    assert counted.returncode == 0, counted.stderr
    changes = int(counted.stderr.strip().splitlines()[-1])
    expected_before, expected_after = _snapshot(before), _snapshot(after)
    points = range(1, changes + 1)
    if os.environ.get("PBEM_CRASH_POINTS") != "all":
        points = sorted({1 + (changes - 1) * i // 9 for i in range(10)})
    for point in points:
        root = tmp_path / f"kill-{point}"
        shutil.copytree(before, root)
        killed = _run(point, root)
        assert killed.returncode == -9, f"kill point {point} of {changes} was not reached"
        recover(root)  # what the next pbem command does first, under the lock
        state = _snapshot(root)
        assert state in (expected_before, expected_after), f"kill point {point}: neither before nor after the turn"
        assert audit(root).divergence is None, f"kill point {point}: audit not clean"
        again = _run(NEVER, root) if state == expected_before else None
        if again is not None:
            assert again.returncode == 0, again.stderr
        assert _snapshot(root) == expected_after, f"kill point {point}: rerun differs from an uninterrupted run"
    print(f"FIGURE secrets adjudicate kill points survived: {len(points)} of {changes}")


def test_a_batch_killed_anywhere_leaves_each_campaign_before_or_after(before: Path, tmp_path: Path) -> None:
    """Three campaigns in one run share their flushes: a kill between the shared flush and
    the swaps, or between two campaigns' swaps, still leaves each one whole."""
    names = ("one", "two", "three")
    after = tmp_path / "after"
    for name in names:
        shutil.copytree(before, after / name)
    counted = _run(COUNT, *(after / n for n in names))
    assert counted.returncode == 0, counted.stderr
    changes = int(counted.stderr.strip().splitlines()[-1])
    expected_before, expected_after = _snapshot(before), _snapshot(after / "one")
    points = range(1, changes + 1)
    if os.environ.get("PBEM_CRASH_POINTS") != "all":
        points = sorted({1 + (changes - 1) * i // 11 for i in range(12)})
    for point in points:
        roots = [tmp_path / f"kill-{point}" / n for n in names]
        for root in roots:
            shutil.copytree(before, root)
        killed = _run(point, *roots)
        assert killed.returncode == -9, f"kill point {point} of {changes} was not reached"
        for root in roots:
            recover(root)
            assert _snapshot(root) in (expected_before, expected_after), f"kill point {point}: {root.name} is half done"
        behind = [r for r in roots if _snapshot(r) == expected_before]
        if behind:
            assert _run(NEVER, *behind).returncode == 0
        assert all(_snapshot(r) == expected_after for r in roots), f"kill point {point}: rerun differs"
    print(f"FIGURE secrets batch adjudicate kill points survived: {len(points)} of {changes}")
