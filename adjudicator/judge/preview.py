"""`judge: preview: true` (design 16): the judge adjudicates as usual, but a turn's reports go to the
GM only, marked as a preview, until `pbem release` (campaign/rollback.py) lets them go; meanwhile
the judge adjudicates no later turn and sends no reminder for it, and `pbem rollback` may take
the turn back.

    CAMPAIGN/mail/outbox/turn-NNN/gm-preview-<hash>.eml   the preview: every report of the turn, to the GM
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..campaign import rollback
from ..campaign.folder import Campaign, turn_name
from ..mail import preface
from .letters import to_gm


def held(campaign: Campaign, on: bool, reported: int) -> int | None:
    """The first adjudicated turn after `reported` (the last whose reports the judge built) that waits for
    `pbem release`, or None. Only with `judge: preview: true`: without it every turn goes out as before."""
    if not on:
        return None
    for turn in range(reported + 1, campaign.last_turn + 1):
        if not rollback.is_released(campaign.root, turn):
            return turn
    return None


def letter(campaign: Campaign, turn: int) -> tuple[str, bytes]:
    """Every report of the turn in one message to the GM, marked as a preview."""
    reports = campaign.turn_dir(turn) / "reports"
    before = sum(name.split(".")[0] == turn_name(turn) for name in rollback.kept(campaign.root))
    again = f" (this turn was rolled back {before} time{'' if before == 1 else 's'} before)" if before else ""
    parts = [
        f"PREVIEW: turn {turn} of {campaign.config.get('name')} ({campaign.game.title}) is adjudicated{again}.\n"
        "No player has been sent anything of it. The judge holds the turn (no later turn, no reminder)\nuntil you decide:\n\n"
        f"  pbem release {campaign.root}     the next tick mails these reports to the players\n"
        f"  pbem rollback {campaign.root}    takes the turn back (kept under gm/rolled-back/); its orders are pending again\n",
    ]
    moved = preface.deadline_moved(campaign, turn)  # an absence in this tick: the reports name the deadline before it
    if moved:
        parts.append(moved.rstrip("\n") + "\n")
    public = reports / "public.md"
    if public.is_file():
        parts.append(f"==== PREVIEW: public report of turn {turn} ====\n\n{public.read_text(encoding='utf-8')}")
    for path in sorted(reports.glob("*.txt")):
        parts.append(f"==== PREVIEW: report for {path.stem} ====\n\n{path.read_text(encoding='utf-8')}")
    return to_gm(campaign, turn, "preview", f"PREVIEW of turn {turn}: not sent to the players", "\n".join(parts))


def after_rollback(root: Path, record: dict[str, Any]) -> None:
    """Turns `pbem rollback` took back since the judge last looked: the judge's record goes back to
    before each (the turn is reported and told again once adjudicated again), and each is named in
    record["rolled_back"] for the GM's digest."""
    told = list(record.get("rolled_back", []))
    for name in rollback.kept(root):
        if name in told:
            continue
        turn = turn_of(name)
        record["reported"] = min(record["reported"], turn - 1)
        if "digested" in record:
            kept = {k: v for k, v in record["digested"].items() if k != "held"}  # adjudicated again, the turn is held again: told again
            record["digested"] = {**kept, "turn": min(record["digested"]["turn"], turn - 1)}
        told.append(name)
    if told != record.get("rolled_back", []):
        record["rolled_back"] = told


def turn_of(kept_name: str) -> int:
    """turn-003.2 -> 3."""
    return int(kept_name.split(".")[0].split("-")[1])
