"""The GM's safety net (design 16): release a previewed turn, or take an unreleased one back.

    CAMPAIGN/gm/released.yaml              {turn: N}: `pbem release` let turns up to N go to the players
                                           (with `move:` while the deadline it moves is being written)
    CAMPAIGN/gm/rolled-back/turn-NNN[.K]/  a turn taken back by `pbem rollback`, exactly as it was
                                           committed (its manifest, reports, orders, stand-in record);
                                           the K-th rollback of the same turn gets `.K`
    CAMPAIGN/gm/rolled-back/turn-MMM-pending[.K]/  the folder of the turn after it (orders sent early), kept

A turn is released once `pbem release` has marked it, or once its reports were built for the
players (mail/outbox/turn-NNN/report-*.eml, by the judge or `pbem mail`): then players may have
read it, and it is never taken back. The judge with `judge: preview: true` builds no report for a
turn that is not released (judge/preview.py).

A turn held for the preview stops the clock of the turn after: `pbem release` moves that turn's
deadline later by the time the turn was held (from the moment the turn recorded, adjudicated.json,
to the release), so a fixed schedule loses none of the players' time, and the mail that carries the
released reports gives the new deadline (mail/reportmail.py). The move is written to
gm/released.yaml first (the release's commit point), then to campaign.yaml as `pbem deadline`
writes it, then dropped from released.yaml; `finish` completes a move a kill cut.

A rollback makes turn N pending again: its players' own order files (not the ones the stand-in
wrote; it plays again at the next adjudication) and its seats.yaml go back to turn-NNN/orders/.
Crash safety: the pending folder is built first as `.turn-NNN.rollback` (with the name of its
keep inside), then the committed turn is moved into gm/rolled-back/ (the commit point), then
the pending folder is put in its place; `finish` completes a rollback a kill cut after the
commit point, or drops the built folder of one cut before it. `pbem audit` stays clean: the
campaign's chain ends with turn N-1, as it did before turn N was adjudicated.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..common import atomic
from . import pending, schedule, standins
from .folder import Campaign, CampaignError, dump_yaml, read_yaml, turn_name

RELEASED = Path("gm") / "released.yaml"
KEPT = Path("gm") / "rolled-back"
STAGED = ".{turn}.rollback"
NEXT = ".next"
"""Inside the staged folder: the turn after's folder (orders sent early), until the rollback is done."""
KEEP_NOTE = ".keep.json"
"""Inside the staged folder: where the committed turn goes (and the turn after it), for `finish`."""


class RollbackError(CampaignError):
    """A release or rollback refused; the message says why."""


def released_mark(root: Path) -> int:
    """The last turn `pbem release` let go (0 when it was never run)."""
    path = root / RELEASED
    if not path.is_file():
        return 0
    data = read_yaml(path) or {}
    turn = data.get("turn") if isinstance(data, dict) else None
    if not isinstance(turn, int) or isinstance(turn, bool) or turn < 0:
        raise CampaignError(f"{path}: 'turn' must be the number of the last released turn")
    return turn


def reports_built(root: Path, turn: int) -> bool:
    """Whether the turn's reports were built for the players (the outbox is mail/compose.py's; the
    path is read here only to know whether a player may have the turn already)."""
    folder = root / "mail" / "outbox" / turn_name(turn)
    return folder.is_dir() and any(p.name.startswith("report-") for p in folder.iterdir())


def is_released(root: Path, turn: int) -> bool:
    return turn <= released_mark(root) or reports_built(root, turn)


def withheld(campaign: Campaign, turn: int) -> bool:
    """Whether a turn's reports are held for the GM's preview (`judge: preview: true`, not released):
    no player is given anything of it, not even by the `report` command."""
    judge = campaign.config.get("judge")
    return isinstance(judge, dict) and judge.get("preview") is True and turn > 0 and not is_released(campaign.root, turn)


@dataclass(frozen=True)
class Released:
    turn: int
    moved: schedule.Change | None = None
    """The deadline of the turn after, moved by the time the turn was held; None when none moved."""


def release(root: Path, now: dt.datetime) -> Released:
    """Mark every adjudicated turn released at the moment `now`; the turn after's deadline moves by the
    time the last turn was held. The caller holds the campaign lock."""
    finish(root)
    campaign = Campaign.open(root)
    last = campaign.last_turn
    if last == 0:
        raise RollbackError(f"{root}: no turn has been adjudicated yet; there is nothing to release")
    if is_released(root, last):
        raise RollbackError(f"{root}: turn {last} is already released; there is nothing to release")
    mark: dict[str, Any] = {"turn": last}
    move = _after_the_hold(campaign, last, now) if withheld(campaign, last) else None
    if move is not None:
        mark["move"] = {"turn": last + 1, "to": schedule.minute(move)}
    path = root / RELEASED
    path.parent.mkdir(mode=0o700, exist_ok=True)
    atomic.write_file(path, dump_yaml(mark))
    return Released(last, _move_deadline(root))


def _after_the_hold(campaign: Campaign, turn: int, now: dt.datetime) -> dt.datetime | None:
    """The deadline of the turn after `turn`, later by the time `turn` was held (whole minutes, rounded
    up: the players lose none of it); None when there is nothing to move."""
    at = campaign.adjudicated_at(turn)
    due = schedule.of_campaign(campaign, turn + 1) if not campaign.over else None
    if at is None or due is None or now <= at:
        return None
    held = dt.timedelta(minutes=-(-(now - at) // dt.timedelta(minutes=1)))
    return (due.at.astimezone(dt.UTC) + held).astimezone(due.at.tzinfo)  # time held, not wall-clock time


def _move_deadline(root: Path) -> schedule.Change | None:
    """Write the deadline a release decided (released.yaml's `move:`) into campaign.yaml, then drop it."""
    path = root / RELEASED
    data = read_yaml(path) if path.is_file() else None
    move = data.get("move") if isinstance(data, dict) else None
    if not isinstance(move, dict):
        return None
    campaign = Campaign.open(root)
    turn = int(move["turn"])
    current = schedule.of_campaign(campaign, turn)
    plan = campaign.schedule or {}
    target = schedule.local_moment(plan, str(move["to"]), str(path))
    change = schedule.write_deadline(campaign, turn, target, current)
    atomic.write_file(path, dump_yaml({"turn": data["turn"]}))
    return change


@dataclass(frozen=True)
class RolledBack:
    turn: int
    keep: Path
    """Where the committed turn is kept (gm/rolled-back/turn-NNN[.K])."""
    restored: list[str]
    """The files back in the pending turn folder (orders/<seat>.yaml, seats.yaml)."""


def kept(root: Path) -> list[str]:
    """The names of the turns kept under gm/rolled-back/ (turn-NNN, turn-NNN.2, ...), sorted."""
    folder = root / KEPT
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("turn-") and "-pending" not in p.name) if folder.is_dir() else []


def _keep_name(root: Path, turn: int) -> str:
    base, number = turn_name(turn), 1
    name = base
    while (root / KEPT / name).exists():
        number += 1
        name = f"{base}.{number}"
    return name


def rollback(root: Path) -> RolledBack:
    """Take the last turn back when it is not released; the caller holds the campaign lock."""
    finish(root)
    campaign = Campaign.open(root)
    atomic.recover(campaign.root)
    last = campaign.last_turn
    if last == 0:
        raise RollbackError(f"{root}: no turn has been adjudicated yet; there is nothing to roll back (the opening is taken back by pbem new again)")
    if is_released(root, last):
        how = "pbem release released it" if last <= released_mark(root) else "its reports were built for the players (mail/outbox)"
        raise RollbackError(f"{root}: turn {last} is released ({how}): players may have read it, so it cannot be rolled back; nothing was changed")
    handed = [p["id"] for p in campaign.players if int(p.get("since", 1)) > last]
    if handed or (campaign.turn_dir(last + 1) / pending.SEATS_FILE).is_file():
        raise RollbackError(
            f"{root}: {', '.join(handed) or 'a seat'} was handed to a new player from turn {last + 1} (pbem replace, or a "
            f"resignation or takeover by mail); turn {last} cannot be rolled back under that handover; nothing was changed"
        )
    folder = campaign.turn_dir(last)
    files = _pending_files(folder)
    name = _keep_name(root, last)
    staged = root / STAGED.format(turn=turn_name(last))
    if staged.exists():
        shutil.rmtree(staged)
    note = {"keep": name, "next": f"{turn_name(last + 1)}-pending" + name[len(turn_name(last)):]}
    atomic.write_tree(staged, {**files, KEEP_NOTE: json.dumps(note).encode()})
    after = campaign.turn_dir(last + 1)
    if after.exists():  # orders sent early for the turn after: they go with the rollback
        os.rename(after, staged / NEXT)
    (root / KEPT).mkdir(parents=True, exist_ok=True)
    os.rename(folder, root / KEPT / name)  # the commit point: from here turn N is pending again
    atomic.settle([root, root / KEPT])
    finish(root)
    return RolledBack(last, root / KEPT / name, sorted(files))


def _pending_files(folder: Path) -> dict[str, bytes]:
    """What the committed turn held before it was adjudicated: the players' own order files (every
    entry of orders/ but the stand-in's), and seats.yaml."""
    _, record = standins.parse_record((folder / standins.RECORD_FILE).read_bytes() if (folder / standins.RECORD_FILE).is_file() else None)
    orders, _ = pending.read_orders_folder(folder / "orders")
    by_stand_in = set(standins.played(record, {n.rsplit(".", 1)[0]: standins.digest(d) for n, d in orders.items()}))
    files = {f"orders/{n}": d for n, d in orders.items() if n.rsplit(".", 1)[0] not in by_stand_in}
    seats = folder / pending.SEATS_FILE
    if seats.is_file():
        files[pending.SEATS_FILE] = seats.read_bytes()
    return files


def _move_into(source: Path, target: Path) -> None:
    """`source` becomes `target`; where `target` exists already (a command made an empty pending
    folder meanwhile, or filed into it), each file of `source` it lacks goes into it."""
    if not target.exists():
        os.rename(source, target)
        return
    for path in sorted(p for p in source.rglob("*") if p.is_file()):
        into = target / path.relative_to(source)
        into.parent.mkdir(parents=True, exist_ok=True)
        if not into.exists():
            os.rename(path, into)
    shutil.rmtree(source)


def finish(root: Path) -> None:
    """Complete a rollback a kill cut after its commit point, or undo one cut before it. Every
    state on the way is a campaign that reads: before the commit the turn after's folder is only
    missing (its files wait in the staged folder), after it turn N is pending with no folder yet.
    Complete the deadline move of a release a kill cut (`release`)."""
    if (root / RELEASED).is_file():
        _move_deadline(root)
    for staged in sorted(root.glob(".turn-*.rollback")):
        turn_folder = root / staged.name[1 : -len(".rollback")]
        after = root / turn_name(int(turn_folder.name.split("-")[1]) + 1)
        if (turn_folder / "manifest.json").is_file():  # cut before the commit point: undone
            if (staged / NEXT).exists():
                _move_into(staged / NEXT, after)
            shutil.rmtree(staged)
            atomic.settle([root])
            continue
        note = json.loads((staged / KEEP_NOTE).read_bytes())
        if (staged / NEXT).exists():
            (root / KEPT).mkdir(parents=True, exist_ok=True)
            _move_into(staged / NEXT, root / KEPT / note["next"])  # orders sent for a turn that no longer follows
        (staged / KEEP_NOTE).unlink()
        _move_into(staged, turn_folder)
        (turn_folder / "orders").mkdir(exist_ok=True)
        atomic.settle([root, root / KEPT])
