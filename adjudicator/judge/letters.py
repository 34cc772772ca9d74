"""The messages only the judge writes: the welcome, a reminder at each offset, and word to the GM.

    CAMPAIGN/mail/outbox/turn-000/welcome-<player>.eml          the opening report, first deadline, how to play
    CAMPAIGN/mail/outbox/turn-NNN/remind-<player>-<offset>.eml  a reminder so long before turn NNN's deadline
    CAMPAIGN/mail/outbox/turn-NNN/deadline-<player>-<hash>.eml a moved deadline (pbem deadline), to each player still due
    CAMPAIGN/mail/outbox/turn-NNN/standin-off-<player>-<hash>.eml the GM took the stand-in off the seat (pbem standin ... off)
    CAMPAIGN/mail/outbox/turn-NNN/gm-<what>-<hash>.eml          what needs the GM: a turn refused, a bounce
    CAMPAIGN/mail/outbox/gm-unreadable-<hash>.eml               the campaign could not be read

Each message's bytes depend only on what it says (mail/compose.py), so building one again
writes nothing and sends nothing: the outbox and its sent log are the record that a message
went out once.
"""

from __future__ import annotations

import email.utils
import hashlib
import re
from pathlib import Path
from typing import Any

import yaml

from ..campaign import pending, schedule
from ..campaign.folder import Campaign, read_yaml, turn_name
from ..campaign.pending import pending_state
from ..campaign.pipeline import nmr_means
from ..campaign.standins import ABANDONED, GM, Due, abandon_after
from ..common import atomic
from ..common.words import plural
from ..mail import answers, boards, deliver, plainhtml
from ..mail.compose import MailError, attach_view, gm_address, make_message, to_bytes, write_outbox


def _title(campaign: Campaign) -> str:
    return f"{campaign.config.get('name')} ({campaign.game.title})"


def _holder(campaign: Campaign, player: str, turn: int) -> tuple[str, str | None]:
    holder = campaign.holder(player, turn) or {}
    return str(holder.get("name") or player), (str(holder["email"]) if holder.get("email") else None)


def deadline_words(campaign: Campaign, turn: int) -> str:
    due = schedule.of_campaign(campaign, turn)
    if due is None:
        return f"Turn {turn} has no deadline: it is adjudicated as soon as every player has sent orders."
    return f"Orders for turn {turn} are due by {due.text}."


def welcome_messages(campaign: Campaign, mail_passwords: bool) -> tuple[dict[str, bytes], list[str]]:
    """Each player with an address: the opening report, the first deadline, how to send orders and
    commands, and the password only when `mail_passwords` (the GM's choice)."""
    reports = campaign.turn_dir(0) / "reports"
    opening = campaign.state(0)
    names = opening.get("names", {})
    passwords: dict[str, Any] = {}
    secret = campaign.root / "gm" / "passwords.yaml"
    if mail_passwords and campaign.uses_passwords and secret.is_file():
        passwords = read_yaml(secret) or {}
    files: dict[str, bytes] = {}
    notes: list[str] = []
    for player in opening["players"]:
        name, address = _holder(campaign, player, 1)
        name = names.get(player, name)
        if not address:
            notes.append(f"{player}: no email in campaign.yaml; welcome them yourself")
            continue
        lines = [f"{_title(campaign)}: welcome, {name}.", "", f"You hold the seat '{player}'. Your opening report is at the end of this message.", ""]
        lines.append(deadline_words(campaign, 1))
        lines += [
            "",
            "To send orders, reply to this message with your order file attached (a",
            f".yaml file) or pasted into the body, starting with the line 'player: {player}',",
            "as the order form at the end of the report shows. Each order file is",
            "acknowledged; the newest one before the turn is adjudicated counts.",
            *answers.sentence_examples(campaign, campaign.game.view(opening, player), player),
            *(["Mail from another address of yours counts too when it carries your",
               f"'player: {player}' and 'password:' lines; the judge answers at {address}."] if campaign.uses_passwords
              else [f"Write from {address}: mail from another address is not read as yours."]),
            "",
            "A message whose Subject or first line is one of these words is a command",
            "to the judge:",
            *answers.command_list(campaign),  # the list `help` gives: absence and resign included
        ]
        if campaign.uses_passwords:
            lines.append("")
            if mail_passwords and passwords.get(player):
                lines += [f"Your password: {passwords[player]}", "Write it in every order file and command (password: ...), and keep it", "to yourself."]
            else:
                lines += ["The GM sends you your password; write it in every order file and", "command (password: ...)."]
                if mail_passwords:
                    notes.append(f"{player}: no password in gm/passwords.yaml to mail; send it yourself")
        path = reports / f"{player}.txt"
        if path.is_file():
            lines += ["", "-" * 72, "", path.read_text(encoding="utf-8").rstrip("\n")]
        try:
            message = make_message(
                campaign, kind=f"welcome-{player}", turn=0, to=[(name, address)],
                subject=f"[{campaign.config.get('name')}] {campaign.game.title}: welcome, {name}", body="\n".join(lines) + "\n",
            )
        except MailError as exc:
            notes.append(f"{player}: {exc}; fix campaign.yaml")
            continue
        # The opening report is the first report mail: it shows the player's own board too (design 18).
        boards.with_board(message, campaign.game.id, campaign.game.view(opening, player), plainhtml.text_html(message.get_content()), "board-0")
        attach_view(message, campaign, 0, player)  # so the first orders can be checked before they are sent
        files[f"{turn_name(0)}/welcome-{player}.eml"] = to_bytes(message)
    return files, notes


def _offset_slug(offset: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", offset.lower())


def reminder(campaign: Campaign, player: str, turn: int, offset: str, due: schedule.Deadline) -> tuple[str, bytes] | None:
    """The reminder sent `offset` before turn `turn`'s deadline, or None when the seat has no address."""
    names = pending_state(campaign).get("names", {})
    name, address = _holder(campaign, player, turn)
    name = names.get(player, name)
    if not address:
        return None
    body = (
        f"{_title(campaign)}: a reminder for {name} ({player}).\n\n"
        f"The judge has no accepted orders from you for turn {turn}, and the deadline\n"
        f"is {offset} away or less: {due.text}.\n\n"
        "Reply with your order file attached, or pasted into the body, as the order\n"
        "form at the end of your last report shows. Without orders you count as NMR\n"
        "(no moves received) at the deadline.\n"
    )
    message = make_message(
        campaign, kind=f"remind-{player}-{_offset_slug(offset)}", turn=turn, to=[(name, address)],
        subject=f"[{campaign.config.get('name')}] turn {turn}: your orders are missing ({offset} left)", body=body,
    )
    return f"{turn_name(turn)}/remind-{player}-{_offset_slug(offset)}.eml", to_bytes(message)


def deadline_moved(campaign: Campaign, player: str, turn: int, text: str, before: str | None) -> tuple[str, bytes] | None:
    """Word to a player still due (no accepted orders) that turn `turn`'s deadline moved; None without an address."""
    names = pending_state(campaign).get("names", {})
    name, address = _holder(campaign, player, turn)
    name = names.get(player, name)
    if not address:
        return None
    was = f" (it was {before})" if before else ""
    body = (
        f"{_title(campaign)}: the deadline for turn {turn} has moved.\n\n"
        f"New deadline: {text}{was}.\n\n"
        "The judge has no accepted orders from you for this turn yet. Reply with your order file\n"
        "attached, or pasted into the body, as the order form at the end of your last report shows.\n"
    )
    message = make_message(
        campaign, kind=f"deadline-{player}", turn=turn, to=[(name, address)],
        subject=f"[{campaign.config.get('name')}] turn {turn}: the deadline moved to {text}", body=body,
    )
    return f"{turn_name(turn)}/deadline-{player}-{_digest(text)}.eml", to_bytes(message)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def to_gm(campaign: Campaign, turn: int, what: str, subject: str, body: str) -> tuple[str, bytes]:
    """A message to the GM address about something that needs a person; named by what it says."""
    address = gm_address(campaign)
    message = make_message(campaign, kind=f"gm-{what}", turn=turn, to=[("", address)], subject=f"[{campaign.config.get('name')}] judge: {subject}", body=body)
    return f"{turn_name(turn)}/gm-{what}-{_digest(body)}.eml", to_bytes(message)


def refused_turn(campaign: Campaign, turn: int, reason: str) -> tuple[str, bytes]:
    body = (
        f"{_title(campaign)}: the judge could not adjudicate turn {turn}.\n\n"
        f"Why:\n  {reason}\n\n"
        "Nothing of the turn was written. The judge tries again at every tick; this message is sent\n"
        "once for this reason. Fix what it names (then `pbem audit` checks the campaign), or adjudicate\n"
        "by hand with `pbem adjudicate`.\n"
    )
    return to_gm(campaign, turn, "refused", f"turn {turn} could not be adjudicated", body)


def bounce(campaign: Campaign, turn: int, seats: list[str], subject: str, stored: str) -> tuple[str, bytes]:
    who = ", ".join(seats) if seats else "no player address was found in it"
    body = (
        f"{_title(campaign)}: a bounce (a delivery failure) arrived.\n\n"
        f"  Subject: {subject[:200]}\n"
        f"  For:     {who}\n"
        f"  Kept as: {campaign.root / stored}\n\n"
        "A player may not be getting the judge's mail: check the address in campaign.yaml, or give the\n"
        "seat a new one (pbem replace DIR SEAT --name N --email E).\n"
    )
    return to_gm(campaign, turn, "bounce", "a message to a player bounced", body)


def unreadable(root: Path, reason: str) -> tuple[str, bytes] | None:
    """Word to the GM that the campaign cannot be read, if its campaign.yaml still names a GM address."""
    address = _gm_email_of_damaged(root / "campaign.yaml")
    if not address:
        return None
    stand_in = Campaign(root, {"name": root.name, "gm_email": address}, None)  # type: ignore[arg-type]  # only its name and GM address are read
    body = (
        f"The judge could not read the campaign {root}.\n\n"
        f"Why:\n  {reason}\n\n"
        "Nothing was done to it: no mail was read, no turn adjudicated. Fix what is named; the next tick\n"
        "goes on where it stopped. This message is sent once for this reason.\n"
    )
    try:
        message = make_message(stand_in, kind="gm-unreadable", turn=0, to=[("", address)], subject=f"[{root.name}] judge: the campaign cannot be read", body=body)
    except MailError:
        return None
    return f"gm-unreadable-{_digest(body)}.eml", to_bytes(message)


def _gm_email_of_damaged(path: Path) -> str | None:
    """gm_email from a campaign.yaml that may not load: its own line is enough."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    try:
        config = yaml.safe_load(text)
        if isinstance(config, dict) and config.get("gm_email"):
            return str(config["gm_email"])
    except yaml.YAMLError:
        pass
    match = re.search(r"^gm_email:\s*['\"]?([^'\"\n]+?)['\"]?\s*$", text, re.MULTILINE)
    return match.group(1) if match and email.utils.parseaddr(match.group(1))[1] else None



def digest(campaign: Campaign, turn: int, facts: list[str]) -> tuple[str, bytes]:
    """The GM's digest of a tick (`judge: gm_digest:`): what the judge did that the GM should know, one line
    each. Auto-Submitted like all the judge's mail, so it is skipped when it lands in a judge inbox."""
    body = f"{_title(campaign)}: what the judge did.\n\n" + "".join(f"- {fact}\n" for fact in facts) + (
        "\nThis digest is sent after each tick that did something (judge: gm_digest: false turns it off).\n"
    )
    return to_gm(campaign, turn, "digest", "what happened", body)


def announce_deadline(root: Path, turn: int, text: str, before: str | None) -> list[str]:
    """`pbem deadline` moved turn `turn`'s deadline: one message into the outbox for each player still due
    (a due seat without accepted orders; a seat the stand-in plays is not), when it is the pending turn
    and the campaign has a GM address. Returns the seats told."""
    with atomic.locked(root):
        campaign = Campaign.open(root)
        if not campaign.gm_email or campaign.over or turn != campaign.last_turn + 1:
            return []
        files: dict[str, bytes] = {}
        told = []
        for player in pending.check(pending.read(campaign)).waiting:
            letter = deadline_moved(campaign, player, turn, text, before)
            if letter:
                files[letter[0]] = letter[1]
                told.append(player)
        write_outbox(root, files)
    return told


_HANDED_BACK = re.compile(r"standin-off-(?P<seat>.+)-[0-9a-f]{12}\.eml")


def handed_back(root: Path, turn: int) -> set[str]:
    """The seats whose letter handing them back for turn `turn` (`announce_standin_off`) waits in the outbox, not
    yet given to the server: it names the deadline, so a reminder due in the same tick is folded into it
    (trial 9: the letter and "24 hours left" reached the player at once)."""
    waiting = (name.partition("/") for name, _ in deliver.pending_messages(root))
    return {found["seat"] for folder, _, file in waiting if folder == turn_name(turn) and (found := _HANDED_BACK.fullmatch(file))}


def announce_standin_off(root: Path, seat: str, turn: int, before: Due | None) -> bool:
    """`pbem standin DIR SEAT off` took the stand-in off a seat it played at the GM's word or as abandoned: its
    player is told, in the outbox, that from turn `turn` the seat waits for their orders (design 14: a player
    whose seat is handed back should know it before the deadline counts them NMR). Whether a message was written."""
    if before is None or before.reason not in (GM, ABANDONED):
        return False  # no stand-in to take off, or a vacant seat, whose player resigned
    with atomic.locked(root):
        campaign = Campaign.open(root)
        name, address = _holder(campaign, seat, turn)
        if not campaign.gm_email or campaign.over or turn != campaign.last_turn + 1 or not address:
            return False
        turn_now = pending.read(campaign)
        limit = abandon_after(campaign)
        again = (f" After {plural(limit, 'turn')} in a row without valid orders the stand-in would take the seat again, as abandoned."
                 if limit else "")
        body = (
            f"{_title(campaign)}: the GM has handed your seat back to you, {name} ({seat}).\n\n"
            f"The seat was the judge's stand-in's to play ({before.why}); from turn {turn} it no longer is, and the judge\n"
            f"waits for your orders. {deadline_words(campaign, turn)}\n\n"
            "Reply with your order file attached, or pasted into the body, as the order form at the end of your\n"
            f"last report shows. A turn without your orders counts as NMR (no moves received). "
            f"{nmr_means(campaign.game, turn_now.position, seat)}{again}\n"
        )
        message = make_message(campaign, kind=f"standin-off-{seat}", turn=turn, to=[(name, address)],
                               subject=f"[{campaign.config.get('name')}] turn {turn}: your seat is yours again, no stand-in plays it", body=body)
        write_outbox(root, {f"{turn_name(turn)}/standin-off-{seat}-{_digest(body)}.eml": to_bytes(message)})
    return True
