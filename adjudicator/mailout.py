"""Outgoing mail: RFC 5322 messages into the campaign's outbox, and their delivery over SMTP.

    CAMPAIGN/mail/outbox/turn-NNN/report-<player>.eml   a player's report of turn NNN
    CAMPAIGN/mail/outbox/turn-NNN/report-public.eml     the public report of turn NNN
    CAMPAIGN/mail/outbox/turn-NNN/ack-<seq>.eml         an acknowledgement written by pbem ingest
    CAMPAIGN/mail/outbox/turn-NNN/remind-<player>.eml   a reminder for the orders of turn NNN
    CAMPAIGN/mail/sent.json                             the Message-IDs delivered (or refused) so far

Every message is plain text in UTF-8, From the GM address of campaign.yaml. Its
Message-ID is derived from the campaign, the turn, the kind, the recipients and
a hash of the content, and it carries no Date until it is sent: building the
outbox twice gives the same bytes, and a message whose content is unchanged is
never delivered twice. The sent log is rewritten atomically after each message,
so a run broken half way resumes where it stopped.
"""

from __future__ import annotations

import datetime as dt
import email.policy
import email.utils
import hashlib
import json
import os
import re
import smtplib
import ssl
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from email.headerregistry import Address
from email.message import EmailMessage
from pathlib import Path
from typing import Any, Self

from . import atomic, mailin, schedule
from .campaign import Campaign, dump_json, turn_name
from .turn import pending_state

POLICY = email.policy.default.clone(linesep="\n", max_line_length=78)
PASSWORD_ENV = "PBEM_SMTP_PASSWORD"


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
                spec = _text(a.addr_spec)
                if spec not in found:
                    found.append(spec)
    return found


def _text(value: str) -> str:
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
    due = schedule.deadline(campaign.schedule, pending)
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


# -- delivery ------------------------------------------------------------------------------


@dataclass
class Smtp:
    host: str
    port: int
    starttls: bool = False
    user: str | None = None
    password: str | None = None


def smtp_password(password_file: str | None, environ: dict[str, str] | None = None) -> str | None:
    """The SMTP password from a file (its first line) or from $PBEM_SMTP_PASSWORD; never from the command line."""
    environ = os.environ if environ is None else environ
    if password_file:
        with open(password_file, encoding="utf-8") as handle:
            return handle.readline().rstrip("\r\n")
    return environ.get(PASSWORD_ENV)


def parse_hostport(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise MailError(f"--smtp takes HOST:PORT, e.g. mail.example.org:587, not '{text}'")
    return host.strip("[]"), int(port)


def sent_log(root: Path) -> list[dict[str, str]]:
    """What became of each message given to the SMTP server: `{message_id, file}` once the server
    accepted it; `"in_doubt": true` while its data was being handed over (a run killed then may or may
    not have delivered it); `"refused": "550 5.1.1 no such user"` when the server refused every
    recipient for good (5xx): never delivered, and not tried again in that form (a message rebuilt
    for a corrected address has a new Message-ID and is sent); `"not_delivered_to"` when it refused
    some recipients of a message the others got."""
    path = mail_dir(root) / "sent.json"
    return json.loads(path.read_text(encoding="utf-8"))["sent"] if path.is_file() else []


def _write_log(root: Path, log: list[dict[str, Any]]) -> None:
    atomic.write_file(mail_dir(root) / "sent.json", dump_json({"sent": log}))


def in_doubt(root: Path) -> list[dict[str, str]]:
    """Messages whose delivery a crash interrupted: perhaps delivered, perhaps not; never resent by themselves."""
    return [entry for entry in sent_log(root) if entry.get("in_doubt")]


def refused(root: Path) -> list[dict[str, str]]:
    """Refused messages still in the outbox as they were refused (not yet rebuilt with another address)."""
    current = {name: mailin.message_id(message) for name, message in _outbox_messages(root)}
    return [entry for entry in sent_log(root) if entry.get("refused") and current.get(entry["file"]) == entry["message_id"]]


def resend_in_doubt(root: Path) -> list[str]:
    """The GM has checked that the messages in doubt did not arrive: send them again on the next --send."""
    log = sent_log(root)
    doubtful = [entry["file"] for entry in log if entry.get("in_doubt")]
    if doubtful:
        _write_log(root, [entry for entry in log if not entry.get("in_doubt")])
    return doubtful


def _outbox_messages(root: Path) -> list[tuple[str, EmailMessage]]:
    box = outbox_dir(root)
    if not box.is_dir():
        return []
    return [(path.relative_to(box).as_posix(), mailin.parse(path.read_bytes())) for path in sorted(box.rglob("*.eml"))]


def pending_messages(root: Path) -> list[tuple[str, EmailMessage]]:
    """Outbox messages whose Message-ID is not in the sent log (sent, in doubt or refused), in name order."""
    done = {entry["message_id"] for entry in sent_log(root)}
    return [(name, message) for name, message in _outbox_messages(root) if mailin.message_id(message) not in done]


def drop_unsent(root: Path, names: list[str]) -> list[str]:
    """Remove the named outbox files whose message was never given to the server (`pbem replace`
    drops what was built for a player who left); return the names removed."""
    done = {entry["message_id"] for entry in sent_log(root) if not entry.get("refused")}
    dropped = []
    for name in names:
        path = outbox_dir(root) / name
        if path.is_file() and mailin.message_id(mailin.parse(path.read_bytes())) not in done:
            path.unlink()
            dropped.append(name)
    return dropped


def _reply(code: int, text: bytes | str) -> str:
    text = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
    return " ".join(f"{code} {text}".split())


def _refusal(refused_rcpts: dict[str, tuple[int, bytes]]) -> str:
    if len(refused_rcpts) == 1:
        return _reply(*next(iter(refused_rcpts.values())))
    return "; ".join(f"{rcpt}: {_reply(code, text)}" for rcpt, (code, text) in refused_rcpts.items())


def send(
    root: Path,
    smtp: Smtp,
    *,
    clock: Callable[[], dt.datetime] = lambda: dt.datetime.now(dt.UTC),
    progress: Callable[[str, EmailMessage], None] = lambda name, message: None,
    on_refused: Callable[[str, EmailMessage, str], None] = lambda name, message, reason: None,
) -> list[str]:
    """Deliver every unsent outbox message over one SMTP connection; record each one as soon as it is accepted.

    A message whose recipients the server all refuses for good (5xx) is recorded as refused,
    reported through `on_refused`, and the others still go out. Anything else that goes wrong
    (a 4xx, a refused sender, a lost connection) stops the run: what was delivered is recorded
    and the next run resumes. Only a failure once the data is being handed over leaves the
    message in doubt; one that fails before (here, or in the server's words) is simply not sent.
    """
    queue = pending_messages(root)
    if not queue:
        return []
    log = sent_log(root)
    delivered: list[str] = []
    context = ssl.create_default_context()
    with smtplib.SMTP(smtp.host, smtp.port, timeout=60) as server:
        if smtp.starttls:
            server.starttls(context=context)
        if smtp.user:
            if smtp.password is None:
                raise MailError(f"no SMTP password for {smtp.user}: set ${PASSWORD_ENV} or give --password-file")
            server.login(smtp.user, smtp.password)
        for name, message in queue:
            del message["Date"]
            message["Date"] = email.utils.format_datetime(clock())  # the send step dates the message, not the file
            sender = _text(message["From"].addresses[0].addr_spec)
            to = recipients(message)
            try:
                data = message.as_bytes(policy=POLICY.clone(linesep="\r\n"))
                for address in (sender, *to):
                    address.encode("ascii")
            except UnicodeError as exc:  # built by an older version, or by hand: nothing reached the server
                reason = f"it cannot be sent without SMTPUTF8 ({exc}); rebuild it with pbem mail"
                log.append({"message_id": mailin.message_id(message), "file": name, "refused": reason})
                _write_log(root, log)
                on_refused(name, message, reason)
                continue
            server.ehlo_or_helo_if_needed()
            code, text = server.mail(sender)
            if code != 250:
                server.rset()
                raise smtplib.SMTPSenderRefused(code, text, sender)
            refused_rcpts: dict[str, tuple[int, bytes]] = {}
            for rcpt in to:
                code, text = server.rcpt(rcpt)
                if code not in (250, 251):
                    refused_rcpts[rcpt] = (code, text)
            if any(code < 500 for code, _ in refused_rcpts.values()):  # try again later: stop here
                server.rset()
                raise smtplib.SMTPRecipientsRefused(refused_rcpts)
            if len(refused_rcpts) == len(to):  # refused for good: never delivered, the others go on
                server.rset()
                reason = _refusal(refused_rcpts)
                log.append({"message_id": mailin.message_id(message), "file": name, "refused": reason})
                _write_log(root, log)
                on_refused(name, message, reason)
                continue
            # Written ahead: a crash between the server's acceptance and the log's update must not
            # send the message again on the next run. Only an answer in the server's words is sure
            # to have delivered nothing; then the mark is taken back.
            log.append({"message_id": mailin.message_id(message), "file": name, "in_doubt": True})
            _write_log(root, log)
            try:
                code, text = server.data(data)
            except smtplib.SMTPResponseException:  # DATA itself refused: no data went out
                log.pop()
                _write_log(root, log)
                raise
            if code != 250:
                log.pop()
                _write_log(root, log)
                server.rset()
                raise smtplib.SMTPDataError(code, text)
            del log[-1]["in_doubt"]
            if refused_rcpts:
                log[-1]["not_delivered_to"] = _refusal(refused_rcpts)  # delivered to the others
            _write_log(root, log)
            delivered.append(name)
            progress(name, message)
            if refused_rcpts:
                on_refused(name, message, _refusal(refused_rcpts))
    return delivered


def outbox_summary(root: Path) -> dict[str, Any]:
    return {
        "pending": [name for name, _ in pending_messages(root)],
        "sent": len(sent_log(root)),
        "in_doubt": [e["file"] for e in in_doubt(root)],
        "refused": [e["file"] for e in refused(root)],
    }
