"""The quiet records of campaigns sharing one inbox, kept in one file at the group's home (judge/quiet.py's
Records): a quiet tick over a thousand of them reads one file, not one per campaign, and still looks
properly at any campaign that a person or another command changed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.cli import main
from judgekit import append_mbox, campaign, edit, ends_as_uninterrupted, orders, snapshot

NOW = "2026-12-01T12:00+00:00"


def tick(capsys: pytest.CaptureFixture[str], *roots: Path, now: str) -> dict[str, str]:
    """Each campaign's line of one `pbem run`, by its folder's name."""
    code = main(["run", *map(str, roots), "--now", now])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    named = {str(root): root.name for root in roots}
    lines = {named[line.split(": ", 1)[0]]: line.split(": ", 1)[1] for line in out.splitlines() if line.split(": ", 1)[0] in named}
    assert set(lines) == set(named.values()), out  # the shared source's own line, if any, aside
    return lines


def group(tmp_path: Path, capsys: pytest.CaptureFixture[str], names: tuple[str, ...] = ("a", "b", "c")) -> list[Path]:
    """Campaigns sharing a.mbox, welcomed, then ticked twice with nothing to do: the second tick is quiet
    from the group's file, which the first wrote."""
    roots = [campaign(tmp_path, name) for name in names]
    for root in roots[1:]:
        edit(root, lambda c: c["judge"].update(inbox=[str(tmp_path / "a.mbox")]))
    tick(capsys, *roots, now=NOW)
    tick(capsys, *roots, now="2026-12-01T12:05+00:00")
    assert set(tick(capsys, *roots, now="2026-12-01T12:10+00:00").values()) == {"nothing to do"}
    return roots


def members(home: Path) -> set[str]:
    return set(json.loads((home / ".judge" / "quiet-group.json").read_bytes())["members"])


def tagged(player: str, name: str) -> bytes:
    """Orders for campaign `name` (the players play in every campaign: the Subject tag says which)."""
    return orders(player, 1, "Tue, 01 Dec 2026 12:30:00 +0000").replace(b"Subject: orders", f"Subject: [{name}] orders".encode())


def garble_in_place(path: Path) -> bytes:
    """Overwrite a file with bytes of its size, its time and inode kept: its stamp does not move."""
    before = os.stat(path)
    data = path.read_bytes()
    garbage = b"#" * len(data)
    with open(path, "r+b") as handle:
        handle.write(garbage)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    return garbage


def test_a_quiet_shared_inbox_is_ticked_from_one_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b, c = group(tmp_path, capsys)
    assert members(a) == {".", "../b", "../c"}
    garbage = garble_in_place(b / ".judge" / "quiet.json")  # not read while the group's copy of it stands
    assert set(tick(capsys, a, b, c, now="2026-12-01T12:15+00:00").values()) == {"nothing to do"}
    assert (b / ".judge" / "quiet.json").read_bytes() == garbage
    (b / ".judge" / "quiet.json").unlink()  # forgotten (as `pbem rollback` does): b looks again, and is quiet again
    assert set(tick(capsys, a, b, c, now="2026-12-01T12:20+00:00").values()) == {"nothing to do"}
    assert json.loads((b / ".judge" / "quiet.json").read_bytes())["until"]


def test_a_change_to_one_member_is_seen_through_the_groups_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b, c = group(tmp_path, capsys)
    for player in ("tony", "david", "maria"):  # saved by hand in b, as a GM may
        (b / "turn-001" / "orders" / f"{player}.yaml").write_text(f"player: {player}\nturn: 1\norders: []\n")
    lines = tick(capsys, a, b, c, now="2026-12-01T12:15+00:00")
    assert "turn 1 adjudicated early" in lines["b"] and lines["a"] == lines["c"] == "nothing to do", lines
    edit(c, lambda config: config["schedule"].update(start="2026-12-01 13:00"))  # campaign.yaml edited by hand
    lines = tick(capsys, a, b, c, now="2026-12-01T12:20+00:00")
    assert "adjudicated at the deadline" in lines["c"] and lines["a"] == "nothing to do", lines
    append_mbox(tmp_path / "a.mbox", tagged("tony", "a"))
    lines = tick(capsys, a, b, c, now="2026-12-01T12:35+00:00")
    assert "1 new message" in lines["a"], lines
    assert set(tick(capsys, a, b, c, now="2026-12-01T12:40+00:00").values()) == {"nothing to do"}


def test_a_campaign_joining_or_leaving_the_group(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b, c = group(tmp_path, capsys)
    d = campaign(tmp_path, "d")
    edit(d, lambda config: config["judge"].update(inbox=[str(tmp_path / "a.mbox")]))
    append_mbox(tmp_path / "a.mbox", tagged("tony", "d"))
    lines = tick(capsys, a, b, c, d, now="2026-12-01T12:15+00:00")
    assert "1 new message" in lines["d"] and lines["a"] == lines["b"] == lines["c"] == "nothing to do", lines
    tick(capsys, a, b, c, d, now="2026-12-01T12:20+00:00")
    assert members(a) == {".", "../b", "../c", "../d"}

    edit(c, lambda config: config["judge"].update(inbox=[str(tmp_path / "c.mbox")]))  # c leaves for its own mbox
    append_mbox(tmp_path / "c.mbox", orders("tony", 1, "Tue, 01 Dec 2026 12:30:00 +0000"))
    lines = tick(capsys, a, b, c, d, now="2026-12-01T12:35+00:00")
    assert "1 new message" in lines["c"], lines
    tick(capsys, a, b, c, d, now="2026-12-01T12:40+00:00")
    assert set(tick(capsys, a, b, c, d, now="2026-12-01T12:45+00:00").values()) == {"nothing to do"}
    append_mbox(tmp_path / "c.mbox", orders("david", 1, "Tue, 01 Dec 2026 12:46:00 +0000"))  # its own mbox, still watched
    lines = tick(capsys, a, b, c, d, now="2026-12-01T12:50+00:00")
    assert "1 new message" in lines["c"] and lines["a"] == lines["b"] == lines["d"] == "nothing to do", lines


def test_mail_routed_to_a_member_in_another_run_makes_it_look(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A run that names only the home routes b's message into b's mail/inbox/new/ (b not in that run): the
    group's entry for b no longer stands (its stamps take in mail/inbox/new), so b's next tick files it."""
    a, b, c = group(tmp_path, capsys)
    append_mbox(tmp_path / "a.mbox", tagged("tony", "b"))
    code = main(["run", str(a), "--now", "2026-12-01T12:15+00:00"])
    out = capsys.readouterr().out
    assert code == 0 and "note: " in out and f"{a}: nothing to do" in out, out
    assert len(list((b / "mail" / "inbox" / "new").iterdir())) == 1
    lines = tick(capsys, a, b, c, now="2026-12-01T12:20+00:00")
    assert "1 new message (1 filed" in lines["b"] and lines["a"] == lines["c"] == "nothing to do", lines
    assert set(tick(capsys, a, b, c, now="2026-12-01T12:25+00:00").values()) == {"nothing to do"}


def test_mail_put_by_hand_in_a_members_inbox_makes_it_look(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """mail/inbox/ of a campaign sharing an inbox is watched by its new/ (docs/email-workflow.md): a message a
    GM puts there by hand, as a Maildir delivery does (written in tmp/, moved to new/), is filed."""
    a, b, c = group(tmp_path, capsys)
    box = c / "mail" / "inbox"
    (box / "tmp" / "by-hand").write_bytes(orders("david", 1, "Tue, 01 Dec 2026 12:11:00 +0000"))
    (box / "tmp" / "by-hand").rename(box / "new" / "by-hand")
    lines = tick(capsys, a, b, c, now="2026-12-01T12:15+00:00")
    assert "1 new message (1 filed" in lines["c"] and lines["a"] == lines["b"] == "nothing to do", lines


@pytest.mark.parametrize("damage", ["deleted", "garbage", "truncated", "wrong shape"])
def test_the_groups_file_deleted_or_damaged_costs_one_slower_tick(tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: str) -> None:
    a, b, c = group(tmp_path, capsys)
    path = a / ".judge" / "quiet-group.json"
    good = path.read_bytes()
    if damage == "deleted":
        path.unlink()
    else:
        path.write_bytes({"garbage": b"\x00not json", "truncated": good[: len(good) // 2], "wrong shape": b'{"members": [1, 2]}'}[damage])
    assert set(tick(capsys, a, b, c, now="2026-12-01T12:15+00:00").values()) == {"nothing to do"}
    assert members(a) == {".", "../b", "../c"}  # written anew from the members' own records
    for player in ("tony", "david", "maria"):  # and a change is still seen
        (b / "turn-001" / "orders" / f"{player}.yaml").write_text(f"player: {player}\nturn: 1\norders: []\n")
    assert "turn 1 adjudicated early" in tick(capsys, a, b, c, now="2026-12-01T12:20+00:00")["b"]


def test_a_tick_killed_between_its_writes_leaves_no_record_that_hides_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A stranger's `list` in the shared inbox is answered by the home (a, whose record routing forgets so that
    its tick tells the GM), and each member files its own orders. Killed at each file operation, then run
    again, the campaigns are as after one uninterrupted tick: no group entry stood for a record rewritten or
    forgotten after it was copied."""
    crashpoint = Path(__file__).resolve().parent / "crashpoint.py"
    base = tmp_path / "base"
    base.mkdir()
    group(base, capsys)

    def fresh(name: str) -> Path:
        """A copy made quiet again (a copy's stamps are its own) with its group's file, then the mail."""
        folder = tmp_path / name
        shutil.copytree(base, folder)
        roots = [folder / root for root in ("a", "b", "c")]
        for root in roots:
            edit(root, lambda config: config["judge"].update(inbox=[str(folder / "a.mbox")]))
        tick(capsys, *roots, now="2026-12-01T12:40+00:00")
        assert set(tick(capsys, *roots, now="2026-12-01T12:45+00:00").values()) == {"nothing to do"}
        assert members(folder / "a") == {".", "../b", "../c"}
        append_mbox(folder / "a.mbox", tagged("tony", "b"))
        append_mbox(folder / "a.mbox", tagged("david", "c"))
        append_mbox(folder / "a.mbox", b"From: nosy@example.net\nSubject: list\nMessage-ID: <nosy.1@example.net>\n\nlist\n")
        return folder

    def run(point: int, folder: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, str(crashpoint), str(point), "run", *(str(folder / name) for name in ("a", "b", "c")), "--now", "2026-12-01T12:50+00:00"],
            capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(crashpoint.parent.parent)},
        )

    def state(folder: Path) -> dict[str, bytes]:
        return {f"{root}/{name}": data.replace(str(folder).encode(), b"FOLDER") for root in ("a", "b", "c")
                for name, data in snapshot(folder / root).items() if name not in ("campaign.yaml", "mail/judge.json", "mail/route.json")}

    expected = ends_as_uninterrupted(run, fresh, state)
    assert any(name.startswith("b/turn-001/orders/") for name in expected) and any(name.startswith("c/turn-001/orders/") for name in expected)


def test_stamps_of_files_dated_before_1970_or_after_2262_are_exact(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Stamps are packed as 64-bit numbers; a time outside them (a file touched to 1960 or 2300 by hand) is
    written out instead: the tick neither fails nor stops noticing that campaign.yaml's time moved."""
    from adjudicator.judge import quiet

    a, b, c = group(tmp_path, capsys)
    settings = b / "campaign.yaml"
    seen, recorded = [], []
    for seconds in (-10**9, 10**10, 10**10 + 1):  # 1938, 2286, and one second later
        os.utime(settings, (seconds, seconds))
        seen.append(quiet.stamps(b, ["campaign.yaml", ""]))
        assert quiet.stamps(b, ["campaign.yaml", ""]) == seen[-1]
        assert set(tick(capsys, a, b, c, now=f"2026-12-01T12:{15 + 5 * len(seen)}+00:00").values()) == {"nothing to do"}
        recorded.append(json.loads((b / ".judge" / "quiet.json").read_bytes())["stamps"])  # looked, and recorded anew
    assert len(set(seen)) == len(set(recorded)) == 3


@pytest.mark.parametrize("name", ["/srv/pbem/c1", "/srv/pbem/c1/", "/srv/./pbem/c1", "/srv//pbem/c1", "/srv/pbem/../c1", "/srv/.c1", "c1", "./c1", "/"])
def test_a_folders_absolute_name_without_os_path_is_os_paths(name: str) -> None:
    """Grouping the run's campaigns skips os.path.abspath for a name already absolute and normalised; any
    other name gets it."""
    from adjudicator.judge import quiet

    assert quiet.absolute(name) == os.path.abspath(name)
