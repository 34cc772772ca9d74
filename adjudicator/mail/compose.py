"""Outgoing mail, built: RFC 5322 messages written into the campaign's outbox.

    CAMPAIGN/mail/outbox/turn-NNN/report-<player>.eml   a player's report of turn NNN
    CAMPAIGN/mail/outbox/turn-NNN/report-public.eml     the public report of turn NNN
    CAMPAIGN/mail/outbox/turn-NNN/ack-<seq>.eml         an acknowledgement written by pbem ingest
    CAMPAIGN/mail/outbox/turn-NNN/remind-<player>.eml   a reminder for the orders of turn NNN

Every message is plain text in UTF-8, From the GM address of campaign.yaml. Its
Message-ID is derived from the campaign, the turn, the kind, the recipients and
a hash of the content, and it carries no Date until it is sent (mail/deliver.py):
building the outbox twice gives the same bytes, and a message whose content is
unchanged is never delivered twice.
"""

from __future__ import annotations

import datetime as dt
import email.policy
import hashlib
import json
import os
import re
from collections.abc import Sequence
from email.headerregistry import Address
from email.message import EmailMessage
from pathlib import Path
from typing import Any, Self

from ..campaign import schedule
from ..campaign.folder import Campaign, turn_name
from ..campaign.turn import pending_state
from ..common import atomic

POLICY = email.policy.default.clone(linesep="\n", max_line_length=78)


class MailError(ValueError):
    """Mail cannot be built or sent; the message says why."""


def mail_dir(root: Path) -> Path:
    return root / "mail"


def ensure_mail_dir(root: Path) -> Path:
    """mail/ holds players' addresses and messages (with their passwords): like gm/, for the GM only."""
    folder = mail_dir(root)
    if not folder.is_dir():
        folder.mkdir()
        os.chmod(folder, 0o700)
    return folder


def outbox_dir(root: Path) -> Path:
    return mail_dir(root) / "outbox"


# -- one message -----------------------------------------------------------------


def _ascii_domain(domain: str) -> str:
    """A domain as it goes on the wire: an internationalised one (`bücher.de`) in IDNA form (`xn--bcher-kva.de`)."""
    domain = domain.strip().rstrip(".")
    if domain.isascii():
        return domain
    try:
        return domain.encode("idna").decode("ascii")
    except UnicodeError as exc:
        raise ValueError(f"its domain {domain} cannot be written in IDNA form ({exc})") from None


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40] or "campaign"


def gm_address(campaign: Campaign) -> str:
    """gm_email as campaign.yaml has it, checked: a bad one stops all mail, with the reason."""
    if not campaign.gm_email:
        raise MailError(f"{campaign.root}/campaign.yaml has no gm_email: add one (gm_email: gm@example.org) to send mail")
    try:
        _address("", campaign.gm_email)
    except MailError as exc:
        raise MailError(f"{campaign.root}/campaign.yaml: gm_email {exc}") from None
    return campaign.gm_email


def make_message(
    campaign: Campaign,
    *,
    kind: str,
    turn: int,
    to: list[tuple[str, str]],
    subject: str,
    body: str,
    cc: list[tuple[str, str]] = (),  # type: ignore[assignment]
    in_reply_to: str = "",
    references: Sequence[str] = (),
) -> EmailMessage:
    """A plain-text UTF-8 message with a Message-ID that depends only on what it says and to whom.
    A reply names its parent's msg-id (`in_reply_to`) and the thread (`references`, RFC 5322 3.6.4)."""
    sender = gm_address(campaign)
    message = EmailMessage(policy=POLICY)
    message["From"] = _address("", sender)
    message["To"] = [_address(name, address) for name, address in to]
    if cc:
        message["Cc"] = [_address(name, address) for name, address in cc]
    message["Subject"] = subject
    fingerprint = hashlib.sha256(
        json.dumps([campaign.config.get("name"), turn, kind, to, list(cc), subject, body, in_reply_to], ensure_ascii=False).encode("utf-8")
    ).hexdigest()[:20]
    message["Message-ID"] = f"<{_slug(str(campaign.config.get('name', '')))}.{turn_name(turn)}.{kind}.{fingerprint}@{message['From'].addresses[0].domain.lower() or 'pbem.invalid'}>"
    if in_reply_to:
        message["In-Reply-To"] = _MsgIdHeader("In-Reply-To", [in_reply_to])
        message["References"] = _MsgIdHeader("References", list(references) or [in_reply_to])
    message["Auto-Submitted"] = "auto-replied" if kind == "ack" else "auto-generated"
    message["X-Pbem-Campaign"] = _slug(str(campaign.config.get("name", "")))
    message.set_content(body, charset="utf-8", cte="quoted-printable")
    return message


class _MsgIdHeader(str):
    """In-Reply-To or References as a header object that folds only between msg-ids and never into
    RFC 2047 encoded-words (not allowed in msg-id fields): email.policy keeps a value that has a
    `name` as it is (header_store_parse) and calls its `fold` when writing (EmailPolicy.fold).
    A msg-id longer than a line stays whole on its own line (RFC 5322 allows lines to 998)."""

    name: str
    defects: tuple = ()

    def __new__(cls, name: str, ids: list[str]) -> Self:
        value = super().__new__(cls, " ".join(ids))
        value.name = name
        return value

    def fold(self, *, policy: Any) -> str:
        limit = policy.max_line_length or 78
        lines = [f"{self.name}:"]
        for msg_id in self.split():
            if len(lines[-1]) + 1 + len(msg_id) > limit and lines[-1] != f"{self.name}:":
                lines.append("")
            lines[-1] += " " + msg_id
        return policy.linesep.join(lines) + policy.linesep


def _address(name: str, address: str) -> Address:
    """An address as written in campaign.yaml (`gm@example.org` or `Game Master <gm@example.org>`).

    An internationalised domain is written in IDNA form, which every server takes. A
    name before the @ in other than ASCII (`josé@example.org`) needs a server with
    SMTPUTF8, which pbem mail does not ask for: such an address is refused here, and
    the player's message is left out with a note, never built to fail at the server.
    """
    display, spec = email.utils.parseaddr(address)
    local, at, domain = spec.rpartition("@")
    try:
        if not at or not local or not domain:
            raise ValueError("it has no @domain")
        if not local.isascii():
            raise MailError(
                f"'{address}' cannot be mailed: the part before the @ ('{local}') is not ASCII, which needs a "
                "mail server with SMTPUTF8, and pbem mail does not use it"
            )
        return Address(display_name=name or display, addr_spec=f"{local}@{_ascii_domain(domain)}")
    except MailError:
        raise
    except (ValueError, IndexError) as exc:
        raise MailError(f"'{address}' is not an email address ({exc})") from None


def to_bytes(message: EmailMessage) -> bytes:
    return message.as_bytes(policy=POLICY)


def recipients(message: EmailMessage) -> list[str]:
    found = []
    for field in ("To", "Cc"):
        for address in message.get_all(field, []):
            for a in getattr(address, "addresses", ()):
                spec = text_header(a.addr_spec)
                if spec not in found:
                    found.append(spec)
    return found


def text_header(value: str) -> str:
    """Header text as read from raw 8-bit bytes (surrogate escapes) back into proper text."""
    return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


# -- reports --------------------------------------------------------------------------


def _subject(campaign: Campaign, turn: int, what: str) -> str:
    when = "opening" if turn == 0 else f"turn {turn}"
    return f"[{campaign.config.get('name')}] {campaign.game.title}, {when}: {what}"


def _recipient(campaign: Campaign, player: str, turn: int, names: dict[str, str]) -> tuple[str, str | None]:
    """(name, address) of whoever holds the seat for `turn`; the address is None when campaign.yaml has none."""
    holder = campaign.holder(player, turn) or {}
    return str(holder.get("name") or names.get(player, player)), campaign.email(player, turn)


def report_messages(campaign: Campaign, turn: int) -> tuple[dict[str, bytes], list[str]]:
    """One message per player with an address, and one for the public report: (outbox files, notes for the GM).

    A player's report goes to whoever holds the seat for the next turn, who acts on
    its order form (after `pbem replace`, the new player gets the latest report).
    """
    if not campaign.is_adjudicated(turn):
        raise MailError(f"turn {turn} of {campaign.root} has not been adjudicated; there is no report to mail")
    reports = campaign.turn_dir(turn) / "reports"
    state = campaign.state(turn)
    names = state.get("names", {})
    over = campaign.game.is_over(state)
    files: dict[str, bytes] = {}
    notes: list[str] = []
    folder = turn_name(turn)
    for player in state["players"]:
        path = reports / f"{player}.txt"
        if not path.is_file():
            notes.append(f"{player}: no plain-text report {path}")
            continue
        holder_turn = turn if over else turn + 1
        name, address = _recipient(campaign, player, holder_turn, names)
        if not address:
            notes.append(f"{player}: no email in campaign.yaml; send {path} yourself")
            continue
        try:
            message = make_message(
                campaign,
                kind=f"report-{player}",
                turn=turn,
                to=[(name, address)],
                subject=_subject(campaign, turn, f"report for {name}"),
                body=path.read_text(encoding="utf-8"),
            )
        except MailError as exc:  # one bad address in campaign.yaml must not hold up everyone's report
            notes.append(f"{player}: {exc}; fix campaign.yaml and run pbem mail again")
            continue
        files[f"{folder}/report-{player}.eml"] = to_bytes(message)
    public = reports / "public.md"
    if public.is_file():
        target = str(campaign.config.get("public_email") or gm_address(campaign))
        message = make_message(
            campaign,
            kind="report-public",
            turn=turn,
            to=[("", target)],
            subject=_subject(campaign, turn, "public report"),
            body=public.read_text(encoding="utf-8"),
        )
        files[f"{folder}/report-public.eml"] = to_bytes(message)
    return files, notes


# -- reminders ---------------------------------------------------------------------------


def reminder_messages(campaign: Campaign, missing: list[str], now: dt.datetime) -> tuple[dict[str, bytes], list[str]]:
    """A reminder to each due player without valid orders, while the deadline has not passed."""
    pending = campaign.last_turn + 1
    due = schedule.of_campaign(campaign, pending)
    if due is not None and due.at <= now:
        return {}, [f"the deadline for turn {pending} has passed ({due.text}): no reminders; adjudicate with --nmr"]
    names = pending_state(campaign).get("names", {})
    files: dict[str, bytes] = {}
    notes: list[str] = []
    for player in missing:
        name, address = _recipient(campaign, player, pending, names)
        if not address:
            notes.append(f"{player}: missing, but has no email in campaign.yaml")
            continue
        when = f"by {due.text}" if due else "as soon as you can"
        body = (
            f"{campaign.config.get('name')} ({campaign.game.title}): a reminder for {name} ({player}).\n\n"
            f"The GM has no valid orders from you for turn {pending} yet. Please send them {when}.\n"
            "Reply to this message with your order file attached, or pasted into the body, as the\n"
            f"order form at the end of your last report shows. Without orders you count as NMR\n"
            "(no moves received) when the turn is adjudicated.\n"
        )
        try:
            message = make_message(
                campaign,
                kind=f"remind-{player}",
                turn=pending,
                to=[(name, address)],
                subject=f"[{campaign.config.get('name')}] turn {pending}: your orders are missing",
                body=body,
            )
        except MailError as exc:
            notes.append(f"{player}: {exc}; fix campaign.yaml and run pbem mail --remind again")
            continue
        files[f"{turn_name(pending)}/remind-{player}.eml"] = to_bytes(message)
    return files, notes


def write_outbox(root: Path, files: dict[str, bytes]) -> list[str]:
    """Write outbox files that are new or changed; return their names. Unchanged files are not touched."""
    written = []
    if files:
        ensure_mail_dir(root)
    for name, data in sorted(files.items()):
        path = outbox_dir(root) / name
        if path.is_file() and path.read_bytes() == data:
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic.write_file(path, data)
        written.append(name)
    return written
