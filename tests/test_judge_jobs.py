"""`pbem run --jobs N`: campaigns ticked side by side give the same lines, files and mails as one after another."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from adjudicator.cli import main
from judgekit import append_mbox, campaign, orders, snapshot
from servers import Inbox

NAMES = ("first", "second", "third", "fourth")


def filed_campaigns(parent: Path) -> list[Path]:
    """Four campaigns whose every player has sent orders for turn 1, so that a tick adjudicates and mails each."""
    roots = []
    for name in NAMES:
        roots.append(campaign(parent, name))
        for player in ("tony", "david", "maria"):
            append_mbox(parent / f"{name}.mbox", orders(player, 1, "Tue, 01 Dec 2026 10:00:00 +0000"))
    return roots


def run(capsys: pytest.CaptureFixture[str], roots: list[Path], address: str, *jobs: str) -> tuple[int, list[str]]:
    capsys.readouterr()
    code = main(["run", *map(str, roots), "--now", "2026-12-01T12:00+00:00", "--send", "--smtp", address, *jobs])
    out, err = capsys.readouterr()
    return code, [line.replace(str(roots[0].parent), "PARENT") for line in (out + err).splitlines()]


def test_campaigns_ticked_in_two_processes_give_what_one_process_gives_each_mail_sent_once(
    tmp_path: Path, smtp: tuple[Inbox, str], capsys: pytest.CaptureFixture[str]
) -> None:
    box, address = smtp
    alone, side_by_side = filed_campaigns(tmp_path / "alone"), filed_campaigns(tmp_path / "jobs")
    code, lines = run(capsys, alone, address)
    assert code == 0 and len(lines) == 4 and all("turn 1 adjudicated early" in line for line in lines), lines
    sent_alone = Counter((tuple(rcpt), m["Subject"], m["Message-ID"]) for rcpt, m in box.received)
    box.received.clear()
    assert run(capsys, side_by_side, address, "--jobs", "2") == (code, lines), "the same lines, in the order named"
    sent = Counter((tuple(rcpt), m["Subject"], m["Message-ID"]) for rcpt, m in box.received)
    assert sent == sent_alone and set(sent.values()) == {1}, "every mail sent, and once"
    for first, second in zip(alone, side_by_side):
        ours, theirs = snapshot(first), snapshot(second)
        for own in ("campaign.yaml", "mail/judge.json"):  # each names its own mbox (judge.json: with its time)
            ours.pop(own), theirs.pop(own)
        assert ours == theirs, f"{first.name}: the same files, boards and all"
    assert run(capsys, side_by_side, address, "--jobs", "2")[1] == [f"PARENT/{name}: nothing to do" for name in NAMES]
    assert len(box.received) == sum(sent.values()), "a second tick sends nothing"


def test_a_campaign_named_twice_is_ticked_twice_in_turn_even_with_jobs(tmp_path: Path, smtp: tuple[Inbox, str], capsys: pytest.CaptureFixture[str]) -> None:
    box, address = smtp
    root = filed_campaigns(tmp_path)[0]
    code, lines = run(capsys, [root, root], address, "--jobs", "2")
    assert code == 0 and "turn 1 adjudicated early" in lines[0] and lines[1] == "PARENT/first: nothing to do", lines
