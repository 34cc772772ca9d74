"""Absences that move the deadline (design 16, `judge: absences: auto`): on each tick, after the mail
is read, and again at once after a turn is adjudicated (the new turn's deadline moves in the same
tick, and the mail that carries the report gives it), a granted absence of a seat due in the pending turn that covers the turn's deadline moves it
to the end of the absence for everyone (written to campaign.yaml as `pbem deadline` writes it), and
each player still due (pending.Verdict.waiting) is told once, by the letter `pbem deadline` sends:
it names the new deadline, never whose absence moved it (games whose NMR is private keep it so;
the others lose nothing by it). The GM's digest and the tick's line name the seat.

Safe to repeat: once moved, the deadline is at the end of the absence and no longer covered; a
kill before the move is caught up by the next tick, and each letter's name comes from the deadline
it announces, so none goes twice."""

from __future__ import annotations

from pathlib import Path

from ..campaign import absences, pending, schedule
from ..campaign.folder import Campaign
from ..mail.compose import write_outbox
from . import letters


def apply(root: Path, tell: bool = True) -> list[str]:
    """Move the pending deadline past the absences that cover it; the facts for the GM (the caller holds
    the lock). The letters go into the outbox first, then the deadline into campaign.yaml: a kill between
    leaves the deadline covered, and the next tick builds the same letters (same names: nothing twice).
    `tell` False: a turn just adjudicated, whose report nobody has yet; the mail that carries the report
    gives the moved deadline (mail/reportmail.py), so no separate letter goes."""
    campaign = Campaign.open(root)
    if absences.auto(campaign) is None or campaign.over:
        return []
    turn = pending.read(campaign)
    due = turn.deadline()
    if due is None:
        return []
    zone = due.at.tzinfo
    granted = turn.absences
    seats = {a.seat for a in granted if turn.due(a.seat)}
    to = absences.covering(granted, seats, due.at, zone)  # type: ignore[arg-type]
    if to is None:
        return []
    whose = sorted({a.seat for a in granted if a.seat in seats and absences.bounds(a, zone)[0] <= due.at < absences.bounds(a, zone)[1]})  # type: ignore[arg-type]
    text = schedule.Deadline(turn.number, to, due.zone).text
    files: dict[str, bytes] = {}
    told = []
    if campaign.gm_email and tell:
        for player in pending.check(turn).waiting:
            letter = letters.deadline_moved(campaign, player, turn.number, text, due.text)
            if letter:
                files[letter[0]] = letter[1]
                told.append(player)
        write_outbox(root, files)
    change = schedule.write_deadline(campaign, turn.number, to, due)
    told_how = f"; told: {', '.join(told)}" if told else ("; no player still due to tell" if tell else "; the players are told with the report")
    return [f"the deadline of turn {turn.number} moved from {change.before} to {change.text} for an absence of {', '.join(whose)}{told_how}"]
