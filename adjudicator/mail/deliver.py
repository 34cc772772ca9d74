"""Outgoing mail, delivered: the outbox over SMTP, and the sent log that makes delivery happen once.

    CAMPAIGN/mail/sent.json     the Message-IDs delivered (or refused) so far

The sent log is rewritten atomically after each message, so a run broken half
way resumes where it stopped, and a message whose Message-ID is in the log is
never given to the server again.
"""

from __future__ import annotations

import datetime as dt
import email.utils
import hashlib
import json
import os
import re
import smtplib
import ssl
from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from ..campaign.folder import Campaign, dump_json
from ..common import atomic
from . import inbox
from .compose import POLICY, MailError, mail_dir, outbox_dir, recipients, text_header
from .compose import set_recipient, write_outbox

PASSWORD_ENV = "PBEM_SMTP_PASSWORD"


@dataclass
class Smtp:
    host: str
    port: int
    starttls: bool = False
    user: str | None = None
    password: str | None = None
    cafile: str | None = None
    """A CA or self-signed certificate to trust beside the system's (`--smtp-ca-file`, `judge: smtp_ca_file:`)."""


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
    current = {name: inbox.message_id(message) for name, message in _outbox_messages(root)}
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
    return [(path.relative_to(box).as_posix(), inbox.parse(path.read_bytes())) for path in sorted(box.rglob("*.eml"))]


def pending_messages(root: Path) -> list[tuple[str, EmailMessage]]:
    """Outbox messages whose Message-ID is not in the sent log (sent, in doubt or refused) and that are
    not outdated, in name order."""
    done = {entry["message_id"] for entry in sent_log(root)}
    settled = _last_turn(root)
    return [
        (name, message)
        for name, message in _outbox_messages(root)
        if inbox.message_id(message) not in done and not outdated(name, settled, message)
    ]


def going(root: Path, names: set[str]) -> list[str]:
    """Of these outbox messages, those that are to be sent (not `outdated`): what a tick tells the GM it built."""
    settled = _last_turn(root)
    box = outbox_dir(root)
    return sorted(name for name in names
                  if not outdated(name, settled, inbox.parse((box / name).read_bytes()) if "/ack-" in name else None))


def _last_turn(root: Path) -> int:
    """The last adjudicated turn, from the turn folders' manifests alone: the judge's word to the GM
    about a campaign.yaml that cannot be read must still go out."""
    return max((int(p.parent.name[5:]) for p in root.glob("turn-*/manifest.json") if p.parent.name[5:].isdigit()), default=-1)


def outdated(name: str, last_turn: int, message: EmailMessage | None = None) -> bool:
    """Whether an outbox message no longer says what is true: a reply to orders (`ack-*`) for a turn that
    has been adjudicated since it was written tells the player that sending again before the turn is
    adjudicated still counts. It is never sent; the turn's report says what became of the orders."""
    folder, _, file = name.partition("/")
    if message is not None and ".refusal." in inbox.message_id(message):  # a refusal stays true (issue 26 item 10)
        return False
    return file.startswith("ack-") and folder.startswith("turn-") and folder[5:].isdigit() and int(folder[5:]) <= last_turn


def drop_unsent(root: Path, names: list[str]) -> list[str]:
    """Remove the named outbox files whose message was never given to the server (`pbem replace`
    drops what was built for a player who left); return the names removed."""
    done = {entry["message_id"] for entry in sent_log(root) if not entry.get("refused")}
    dropped = []
    for name in names:
        path = outbox_dir(root) / name
        if path.is_file() and inbox.message_id(inbox.parse(path.read_bytes())) not in done:
            path.unlink()
            dropped.append(name)
    return dropped


_SEAT_FILE = re.compile(r"(?:report|remind|welcome|deadline)-(?P<seat>.+)\.eml|press-\d+-(?P<receiver>.+)\.eml|(?:ack|reply|absence)-(?P<seq>\d+)\.eml")
_FINGERPRINT = re.compile(r"\.([0-9a-f]{20})@")


def _seat_of(campaign: Campaign, name: str, players: dict[int, str]) -> str | None:
    """The seat an outbox message is for, from its file name (an answer by the ingested message it answers)."""
    match = _SEAT_FILE.fullmatch(name.rpartition("/")[2])
    if match is None:
        return None
    if match["seq"]:
        return players.get(int(match["seq"]))
    text = match["seat"] or match["receiver"]
    ids = sorted((str(p["id"]) for p in campaign.players), key=len, reverse=True)  # remind-<seat>-<offset>: the longest id that fits
    return next((seat for seat in ids if text == seat or text.startswith(seat + "-")), None)


def _addresses(campaign: Campaign, seat: str) -> set[str]:
    """The seat's address now and every former holder's: a message to a former holder (the reply to their
    `resign`, built in the turn their successor took the seat from) stays theirs; only a message to an
    address the GM has since corrected is rebuilt."""
    entry = campaign.player(seat) or {}
    holders = [entry, *(entry.get("history") or [])]
    return {email.utils.parseaddr(str(h["email"]))[1].lower() for h in holders if h.get("email")}


def readdress(root: Path, campaign: Campaign, players: dict[int, str]) -> list[str]:
    """Rebuild for the seat's address in campaign.yaml every outbox message for a seat that was never delivered
    (waiting, or refused by the server) and is addressed elsewhere: the GM corrected the address. It gets a new
    Message-ID, so a refused one is sent again, once. Only while the seat's holder is the one the message was
    for (a seat handed over by `pbem replace` has its mail rebuilt there). `players`: ingested message seq to
    the seat it was about. Returns the files rebuilt."""
    log = sent_log(root)
    delivered = {entry["message_id"] for entry in log if not entry.get("refused")}
    rebuilt = []
    for name, message in _outbox_messages(root):
        if inbox.message_id(message) in delivered:
            continue
        seat = _seat_of(campaign, name, players)
        folder = name.partition("/")[0]
        turn = int(folder[5:]) if folder.startswith("turn-") and folder[5:].isdigit() else None
        if seat is None or turn is None:
            continue
        now, then = campaign.holder(seat), campaign.holder(seat, max(turn, 1))
        address = campaign.email(seat)
        if not now or not then or now.get("from") != then.get("from") or not address:
            continue
        to, old = recipients(message), inbox.message_id(message)
        found = _FINGERPRINT.search(old)
        if len(to) != 1 or found is None or to[0].lower() in _addresses(campaign, seat):
            continue
        try:
            spec = set_recipient(message, str(now.get("name") or seat), address)
        except MailError:
            continue
        fresh = hashlib.sha256(f"{found.group(1)} {spec}".encode()).hexdigest()[:20]
        del message["Message-ID"]
        message["Message-ID"] = old[: found.start(1)] + fresh + old[found.end(1):]
        write_outbox(root, {name: message.as_bytes(policy=POLICY)})
        rebuilt.append(name)
    return rebuilt


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
    clock: Callable[[], dt.datetime],
    progress: Callable[[str, EmailMessage], None] = lambda name, message: None,
    on_refused: Callable[[str, EmailMessage, str], None] = lambda name, message, reason: None,
    only: Callable[[str], bool] = lambda name: True,
) -> list[str]:
    """Deliver every unsent outbox message over one SMTP connection; record each one as soon as it is accepted.

    A message whose recipients the server all refuses for good (5xx) is recorded as refused,
    reported through `on_refused`, and the others still go out. Anything else that goes wrong
    (a 4xx, a refused sender, a lost connection) stops the run: what was delivered is recorded
    and the next run resumes. Only a failure once the data is being handed over leaves the
    message in doubt; one that fails before (here, or in the server's words) is simply not sent.
    """
    queue = [(name, message) for name, message in pending_messages(root) if only(name)]  # `only`: pbem mail --player
    if not queue:
        return []
    log = sent_log(root)
    delivered: list[str] = []
    try:
        context = ssl.create_default_context(cafile=smtp.cafile)
    except OSError as exc:
        raise MailError(f"the SMTP CA file {smtp.cafile} cannot be read ({exc.strerror or exc})") from None
    with smtplib.SMTP(smtp.host, smtp.port, timeout=60) as server:
        if smtp.starttls:
            try:
                server.starttls(context=context)
            except ssl.SSLCertVerificationError as exc:
                raise MailError(
                    f"the SMTP server's certificate cannot be trusted ({exc.verify_message}); give its CA or its self-signed "
                    "certificate with --smtp-ca-file FILE or judge: smtp_ca_file:"
                ) from None
        if smtp.user:
            if smtp.password is None:
                raise MailError(f"no SMTP password for {smtp.user}: set ${PASSWORD_ENV} or give --password-file")
            server.login(smtp.user, smtp.password)
        for name, message in queue:
            del message["Date"]
            message["Date"] = email.utils.format_datetime(clock())  # the send step dates the message, not the file
            sender = text_header(message["From"].addresses[0].addr_spec)
            to = recipients(message)
            try:
                data = message.as_bytes(policy=POLICY.clone(linesep="\r\n"))
                for address in (sender, *to):
                    address.encode("ascii")
            except UnicodeError as exc:  # built by an older version, or by hand: nothing reached the server
                reason = f"it cannot be sent without SMTPUTF8 ({exc}); rebuild it with pbem mail"
                log.append({"message_id": inbox.message_id(message), "file": name, "refused": reason})
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
                log.append({"message_id": inbox.message_id(message), "file": name, "refused": reason})
                _write_log(root, log)
                on_refused(name, message, reason)
                continue
            # Written ahead: a crash between the server's acceptance and the log's update must not
            # send the message again on the next run. Only an answer in the server's words is sure
            # to have delivered nothing; then the mark is taken back.
            log.append({"message_id": inbox.message_id(message), "file": name, "in_doubt": True})
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
        "outdated": unsent_outdated(root),
    }


def unsent_outdated(root: Path) -> list[str]:
    """The outbox messages never sent that are outdated now (see `outdated`)."""
    done = {entry["message_id"] for entry in sent_log(root)}
    settled = _last_turn(root)
    return [name for name, message in _outbox_messages(root) if outdated(name, settled, message) and inbox.message_id(message) not in done]
