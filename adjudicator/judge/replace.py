"""`pbem replace`: hand a seat to a new player from the pending turn on, keeping the seat's history.

The seat keeps its id (files are named by it) and everything the game knows
about it. What changes, from the pending turn on:

- campaign.yaml: the seat's name, email and password hash are the new player's,
  with `since: N`; the outgoing player moves to the seat's `history` with the
  turns they played (`from`, `to`), so older turns still check against their
  passwords and `pbem audit` replays them unchanged;
- gm/passwords.yaml: the new player's password (when the campaign uses passwords);
- turn-NNN/seats.yaml: the seat's new display name, an input of turn NNN that its
  manifest hashes: the reports of turn NNN and later use the new name and show
  who held the seat for which turns;
- an order file the outgoing player already sent for turn NNN is moved to
  gm/replaced/, since the new player decides that turn;
- mail built for the outgoing player and not yet sent (a reminder for turn NNN,
  the report of turn NNN-1) is taken out of mail/outbox/, so it never reaches
  someone who left; the next `pbem mail` builds it for the new player.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..campaign import auth
from ..campaign.adjudicate import prepare
from ..campaign.folder import (
    Campaign,
    CampaignError,
    display_name,
    dump_yaml,
    read_yaml,
    rewrite_config,
    turn_name,
)
from ..campaign.pending import SEATS_FILE, read_seat_changes
from ..common import atomic
from ..common.address import address_problem
from ..mail import compose, deliver
from ..mail.ingest import load_index, save_index


@dataclass
class Replacement:
    campaign: Campaign
    seat: str
    turn: int
    """The first turn the new player plays."""
    outgoing: dict[str, Any]
    password_file: Path | None
    moved: list[str]
    dropped: list[str] = field(default_factory=list)
    """Unsent outbox messages for the outgoing player, removed (names under mail/outbox/)."""
    told: str = ""
    """The outbox message that tells the outgoing player (empty: they have no address, or the campaign no gm_email)."""


def replace(root: Path, seat: str, name: str, email: str | None = None, tell: bool = True, vacant: bool = False) -> Replacement:
    """Hand `seat` to a new player (`tell`: the outgoing player gets a word of it; a resignation needs none),
    or, `vacant`, to nobody: a resignation, whose turns the reports then credit to the stand-in."""
    if not name.strip():
        raise CampaignError("--name must give the new player's display name")
    problem = address_problem(email) if email is not None else ""
    if problem:
        raise CampaignError(f"--email '{email}' is not an email address: it {problem}; the seat was not handed over")
    Campaign.open(root)
    with atomic.locked(Path(root)):
        campaign = prepare(Path(root))
        state = campaign.state()
        if campaign.game.is_over(state):
            raise CampaignError(f"{campaign.root}: the game is over; there is no seat to hand over")
        entry = campaign.player(seat)
        if entry is None:
            raise CampaignError(f"no seat '{seat}' in {campaign.root}; seats: {', '.join(p['id'] for p in campaign.players)}")
        name = display_name(name, seat, campaign.players)
        pending = campaign.last_turn + 1
        outgoing = campaign.holder(seat) or {}
        since = int(entry.get("since", 1))
        history = list(entry.get("history") or [])
        if since < pending or entry.get("email"):
            # The outgoing player, kept even when they played no turn (to = from - 1), so that mail still
            # to them stays theirs (mail/deliver.py) and a later mail of theirs is known as a former holder's.
            past = {"name": entry["name"], "from": since, "to": pending - 1}
            for key in ("email", "password"):
                if entry.get(key):
                    past[key] = entry[key]
            history.append(past)
        new_entry: dict[str, Any] = {"id": seat, "name": name}
        if email:
            new_entry["email"] = email
        password_file = None
        if campaign.uses_passwords:
            password = auth.new_password()
            new_entry["password"] = auth.hash_password(password)
            password_file = campaign.root / "gm" / "passwords.yaml"
            passwords = read_yaml(password_file) if password_file.is_file() else {}
            passwords = {**(passwords or {}), seat: password}
            atomic.write_file(password_file, dump_yaml(passwords))
        new_entry["since"] = pending
        if history:
            new_entry["history"] = history

        folder = campaign.turn_dir(pending)
        seats_path = folder / SEATS_FILE
        changes = read_seat_changes(seats_path.read_bytes(), seats_path) if seats_path.is_file() else {}
        changes = {**changes, seat: {"name": name, **({"vacant": True} if vacant else {})}}
        atomic.write_file(seats_path, dump_yaml(dict(sorted(changes.items()))))

        moved = _move_pending_orders(campaign, seat, pending)
        _mark_ingested_orders(campaign, seat, pending, name)
        dropped = _drop_unsent_mail(campaign, seat, pending)
        told = _tell_outgoing(campaign, seat, pending, outgoing, name) if tell else ""

        players = [new_entry if p["id"] == seat else p for p in campaign.config["players"]]
        atomic.write_file(campaign.root / "campaign.yaml", rewrite_config(campaign.root / "campaign.yaml", {"players": players}))
        return Replacement(Campaign.open(campaign.root), seat, pending, outgoing, password_file, moved, dropped, told)


def _tell_outgoing(campaign: Campaign, seat: str, pending: int, outgoing: dict[str, Any], name: str) -> str:
    """A message into the outbox for the player who leaves, so that they know (the next pbem mail --send sends it)."""
    address = outgoing.get("email")
    if not address:
        return ""
    title = f"[{campaign.config.get('name')}] {campaign.game.title}: seat {seat} handed over"
    body = (f"Hello {outgoing.get('name', seat)},\n\nfrom turn {pending} on, the seat {seat} in {campaign.config.get('name')} "
            f"is played by {name}. Your password no longer works and you get no more reports for it.\n\n"
            "Thank you for playing.\n")
    try:
        message = compose.make_message(campaign, kind=f"handover-{seat}", turn=pending, to=[(str(outgoing.get("name", seat)), str(address))],
                                       subject=title, body=body)
    except compose.MailError:  # no gm_email to send from: the GM tells them
        return ""
    file = f"{turn_name(pending)}/handover-{seat}.eml"
    compose.write_outbox(campaign.root, {file: compose.to_bytes(message)})
    return file


def _drop_unsent_mail(campaign: Campaign, seat: str, pending: int) -> list[str]:
    """The outgoing player's reminder for the pending turn and last report, if built and not yet sent."""
    # The welcome holds the outgoing player's password: never readdressed to the new player.
    return deliver.drop_unsent(campaign.root, [f"{turn_name(pending)}/remind-{seat}.eml", f"{turn_name(pending - 1)}/report-{seat}.eml",
                                               f"{turn_name(0)}/welcome-{seat}.eml"])


def _move_pending_orders(campaign: Campaign, seat: str, pending: int) -> list[str]:
    """The outgoing player's order file for the pending turn goes to gm/replaced/ (it holds their password)."""
    moved = []
    for ext in ("yaml", "yml"):
        path = campaign.turn_dir(pending) / "orders" / f"{seat}.{ext}"
        if path.is_file():
            target = campaign.root / "gm" / "replaced" / f"{turn_name(pending)}-{seat}.{ext}"
            number = 1
            while target.exists():  # a seat handed over twice before the turn: keep every file
                number += 1
                target = target.with_name(f"{turn_name(pending)}-{seat}-{number}.{ext}")
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(path, target)
            moved.append(str(target.relative_to(campaign.root)))
    return moved


def _mark_ingested_orders(campaign: Campaign, seat: str, pending: int, name: str) -> None:
    """Mail filed for the outgoing player this turn no longer counts (see adjudicator/mail/ingest.py)."""
    entries = load_index(campaign.root)
    changed = False
    for entry in entries:
        if entry.status == "filed" and entry.turn == pending and entry.player == seat:
            entry.status, entry.reason = "superseded", f"the seat passed to {name} for turn {pending}"
            changed = True
    if changed:
        save_index(campaign.root, entries)
