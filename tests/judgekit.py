"""What the judge's tests share: a campaign with a schedule and an mbox, messages, snapshots."""

from __future__ import annotations

import hashlib
import os
from email.message import EmailMessage
from pathlib import Path
from typing import Any, Callable

import yaml

from adjudicator.campaign.create import create

PLAYERS = [
    {"id": "tony", "name": "Tony", "email": "tony@example.org"},
    {"id": "david", "name": "David", "email": "david@example.org"},
    {"id": "maria", "name": "María", "email": "maria@example.org"},
]
WEEKLY = {"timezone": "Europe/Berlin", "start": "2026-12-08 20:00", "every": "7 days"}


def campaign(tmp_path: Path, name: str = "spies", schedule: dict[str, Any] | None = WEEKLY, judge: dict[str, Any] | None = None,
             passwords: bool = False) -> Path:
    root = tmp_path / name
    create(root, "secrets", [dict(p) for p in PLAYERS], seed=f"judge-{name}", gm_email="Game Master <gm@example.org>", name=name, passwords=passwords)
    mbox = tmp_path / f"{name}.mbox"
    mbox.touch()
    settings = root / "campaign.yaml"
    config = yaml.safe_load(settings.read_text(encoding="utf-8"))
    if schedule:
        config["schedule"] = dict(schedule)
    # The GM's digest is off unless a test asks for it: the older tests count the outbox exactly.
    config["judge"] = {"inbox": [str(mbox)], "gm_digest": False, **(judge or {})}
    settings.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    return root


def edit(root: Path, change: Any) -> None:
    settings = root / "campaign.yaml"
    config = yaml.safe_load(settings.read_text(encoding="utf-8"))
    change(config)
    settings.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")


def orders(player: str, turn: int, when: str, body: str | None = None, password: str | None = None, sender: str | None = None) -> bytes:
    """A player's order mail, as their client would send it."""
    message = EmailMessage()
    message["From"] = sender or f"{player} <{player}@example.org>"
    message["To"] = "gm@example.org"
    message["Subject"] = f"orders turn {turn}"
    message["Date"] = when
    message["Message-ID"] = f"<{player}.{turn}.{hashlib.sha256(repr((player, turn, when, body)).encode()).hexdigest()[:12]}@example.org>"  # the same every run
    secret = f'password: "{password}"\n' if password else ""
    message.set_content(body or f"player: {player}\nturn: {turn}\n{secret}orders: []\n")
    return bytes(message)


def append_mbox(mbox: Path, raw: bytes, sender: str = "someone@example.org") -> None:
    lines = raw.replace(b"\r\n", b"\n").split(b"\n")
    quoted = b"\n".join(b">" + line if line.startswith(b"From ") else line for line in lines)
    with open(mbox, "ab") as handle:
        handle.write(b"From " + sender.encode() + b" Mon Dec  1 10:00:00 2026\n" + quoted.rstrip(b"\n") + b"\n\n")


def snapshot(root: Path) -> dict[str, bytes]:
    """Every visible file of a campaign (run-time dot files are not its state)."""
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(root).parts)
    }


def outbox(root: Path) -> list[str]:
    box = root / "mail" / "outbox"
    return sorted(str(p.relative_to(box)) for p in box.rglob("*.eml")) if box.is_dir() else []


def ends_as_uninterrupted(run: Callable[[int, Path], Any], fresh: Callable[[str], Path], state: Callable[[Path], dict[str, bytes]]) -> dict[str, bytes]:
    """Kill a tick (`run(point, folder)`, through tests/crashpoint.py) at each of its kill points on a `fresh`
    copy, run it again, and check that the copy's `state` is the uninterrupted tick's, which is returned."""
    clean = fresh("clean")
    counted = run(0, clean)
    assert counted.returncode == 0, counted.stderr
    changes = int(counted.stderr.strip().splitlines()[-1])
    expected = state(clean)
    for point in kill_points(changes):
        folder = fresh(f"kill-{point}")
        killed = run(point, folder)
        assert killed.returncode == -9, f"kill point {point} of {changes} was not reached: {killed.stderr}"
        again = run(-1, folder)
        assert again.returncode == 0, f"kill point {point}: {again.stdout} {again.stderr}"
        assert state(folder) == expected, f"kill point {point}: the campaigns differ from an uninterrupted tick"
    return expected


def kill_points(changes: int) -> list[int]:
    """Where a crash test kills a tick of `changes` file operations: every one with
    PBEM_CRASH_POINTS=all (or PBEM_THOROUGH=1), else ten spread over the tick."""
    from reliability_kit import spread

    return list(range(1, changes + 1)) if os.environ.get("PBEM_CRASH_POINTS") == "all" else spread(changes, 10)
