"""Outgoing mail, built: RFC 5322 messages written into the campaign's outbox.

    CAMPAIGN/mail/outbox/turn-NNN/report-<player>.eml   a player's report of turn NNN (mail/reportmail.py)
    CAMPAIGN/mail/outbox/turn-NNN/report-public.eml     the public report of turn NNN
    CAMPAIGN/mail/outbox/turn-NNN/ack-<seq>.eml         an acknowledgement written by pbem ingest
    CAMPAIGN/mail/outbox/turn-NNN/remind-<player>.eml   a reminder for the orders of turn NNN

Every message is plain text in UTF-8, From the GM address of campaign.yaml; a report
also carries the same report as HTML with the reader's board as an inline PNG (mail/boards.py). Its
Message-ID is derived from the campaign, the turn, the kind, the recipients and
a hash of the content, and it carries no Date until it is sent (mail/deliver.py):
building the outbox twice gives the same bytes, and a message whose content is
unchanged is never delivered twice.
"""

from __future__ import annotations

import datetime as dt
import email.policy
import email.quoprimime
import email.utils
import hashlib
import json
import os
import re
from collections.abc import Sequence
from email.headerregistry import Address
from email.message import EmailMessage
from pathlib import Path
from typing import Any, Self

from ..campaign import schedule, viewfile
from ..campaign.folder import Campaign, turn_name
from ..campaign.pending import pending_state
from ..common import atomic
from ..common.spelling import plain_ascii

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


def outbox_names(root: Path) -> set[str]:
    """Every message in the outbox, by its name (`turn-NNN/...eml`): what a tick built is the difference."""
    outbox = outbox_dir(root)
    return {f"{folder.name}/{m.name}" for folder in outbox.iterdir() if folder.is_dir() for m in folder.iterdir() if m.suffix == ".eml"} if outbox.is_dir() else set()


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
    """A campaign's name as its Message-IDs carry it, spelled as seat ids are (`Müller Cup`: `muller-cup`),
    so that a reply is routed to its campaign (mail/route.py) even when names differ only in their letters
    with marks. A name with nothing in ASCII (`Шпионы`) is told apart by a digest of it."""
    slug = re.sub(r"[^a-z0-9]+", "-", plain_ascii(text)).strip("-")[:40]
    return slug or "campaign-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


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
    for text in (subject, *(name for name, _ in [*to, *cc])):
        _one_line(text)
    sender = _address("", gm_address(campaign))
    message = EmailMessage(policy=POLICY)
    message["From"] = _AddressHeader("From", [sender])
    message["To"] = _AddressHeader("To", [_address(name, address) for name, address in to])
    if cc:
        message["Cc"] = _AddressHeader("Cc", [_address(name, address) for name, address in cc])
    message["Subject"] = _TextHeader("Subject", subject)
    fingerprint = hashlib.sha256(
        json.dumps([campaign.config.get("name"), turn, kind, to, list(cc), subject, body, in_reply_to], ensure_ascii=False).encode("utf-8")
    ).hexdigest()[:20]
    message["Message-ID"] = f"<{_slug(str(campaign.config.get('name', '')))}.{turn_name(turn)}.{kind}.{fingerprint}@{sender.domain.lower() or 'pbem.invalid'}>"
    if in_reply_to:
        message["In-Reply-To"] = _MsgIdHeader("In-Reply-To", [in_reply_to])
        message["References"] = _MsgIdHeader("References", list(references) or [in_reply_to])
    message["Auto-Submitted"] = "auto-generated"  # every message the judge sends, replies too (design 15)
    message["X-Pbem-Campaign"] = _slug(str(campaign.config.get("name", "")))
    message.set_content(body, charset="utf-8", cte="quoted-printable")
    return message


_CONTROL = re.compile(r"[\x00-\x1f\x7f\u0085\u2028\u2029]")


def _one_line(text: str) -> None:
    """Refuse header text holding a line break or another control character: written into a header it
    would start a header of its own (`Evil\nBcc: victim@...`). Names come from campaign.yaml."""
    found = _CONTROL.search(text)
    if found:
        raise MailError(
            f"'{text[:60].encode('unicode_escape').decode('ascii')}' holds a line break or control character (U+{ord(found.group()):04X}), which cannot go into a mail "
            "header; fix the name in campaign.yaml"
        )


_ENCODED_WORD_ROOM = 75
"""RFC 2047 2: an encoded-word is at most 75 characters."""


def _encoded_words(text: str) -> list[str]:
    """`text` as RFC 2047 encoded-words (UTF-8, Q encoding), each within the limit and never splitting a
    character. Every blank of the text is inside a word (as `_`), so the folding blanks between the
    words, which decoders drop, never take one away."""
    words: list[str] = []
    chunk = ""
    for char in text:
        if chunk and len(email.quoprimime.header_encode((chunk + char).encode("utf-8"), "utf-8")) > _ENCODED_WORD_ROOM:
            words.append(email.quoprimime.header_encode(chunk.encode("utf-8"), "utf-8"))
            chunk = ""
        chunk += char
    if chunk:
        words.append(email.quoprimime.header_encode(chunk.encode("utf-8"), "utf-8"))
    return words


def _text_tokens(text: str) -> list[str]:
    """An unstructured header's text as tokens to fold between: the words before the first one that
    needs encoding as they are, then the rest of the text (blanks included) as encoded-words.

    email.policy's own folder splits non-ASCII text at its blanks into separate encoded-words, and
    a decoder joins adjacent encoded-words without the blank: "report for María José" arrived as
    "MaríaJosé" (the blank between a plain word and an encoded-word is kept, so the prefix may stay plain)."""
    words = text.split(" ")
    plain = 0
    while plain < len(words) and words[plain].isascii() and "=?" not in words[plain]:
        plain += 1
    rest = " ".join(words[plain:])
    return [*words[:plain], *(_encoded_words(rest) if rest else [])]


class _FoldedHeader(str):
    """A header that folds itself: email.policy keeps a value that has a `name` as it is
    (header_store_parse) and calls its `fold` when writing (EmailPolicy.fold)."""

    name: str
    tokens: list[str]
    defects: tuple = ()

    def __new__(cls, name: str, value: str, tokens: list[str]) -> Self:
        header = super().__new__(cls, value)
        header.name, header.tokens = name, tokens
        return header

    def fold(self, *, policy: Any) -> str:
        """The tokens joined by blanks, a line broken before a token that would pass the limit."""
        limit = policy.max_line_length or 78
        lines = [f"{self.name}:"]
        for token in self.tokens:
            if len(lines[-1]) + 1 + len(token) > limit and lines[-1] != f"{self.name}:":
                lines.append("")
            lines[-1] += " " + token
        return policy.linesep.join(lines) + policy.linesep


class _MsgIdHeader(_FoldedHeader):
    """In-Reply-To or References: folded only between msg-ids, never into RFC 2047 encoded-words
    (not allowed in msg-id fields). A msg-id longer than a line stays whole on its own line
    (RFC 5322 allows lines to 998)."""

    def __new__(cls, name: str, ids: list[str]) -> Self:
        return super().__new__(cls, name, " ".join(ids), ids)


class _TextHeader(_FoldedHeader):
    def __new__(cls, name: str, text: str) -> Self:
        return super().__new__(cls, name, text, _text_tokens(text))


class _AddressHeader(_FoldedHeader):
    """From, To or Cc: each display name quoted when it needs it, encoded whole when it is not ASCII.

    A display name is one encoded-word even when that is longer than RFC 2047's 75 characters
    (the line may be 998): the standard library's address parser, like other decoders of a
    phrase, puts a blank between adjacent encoded-words, so a long name split into two came back
    as "Pér ez"."""

    def __new__(cls, name: str, addresses: list[Address]) -> Self:
        tokens: list[str] = []
        for number, address in enumerate(addresses):
            display = address.display_name
            if not display:
                shown = [address.addr_spec]
            elif display.isascii():
                shown = [*email.utils.formataddr((display, "x@x")).rpartition(" <")[0].split(" "), f"<{address.addr_spec}>"]
            else:
                shown = [email.quoprimime.header_encode(display.encode("utf-8"), "utf-8"), f"<{address.addr_spec}>"]
            if number < len(addresses) - 1:
                shown[-1] += ","
            tokens += shown
        return super().__new__(cls, name, ", ".join(str(a) for a in addresses), tokens)


def _address(name: str, address: str) -> Address:
    """An address as written in campaign.yaml (`gm@example.org` or `Game Master <gm@example.org>`).

    An internationalised domain is written in IDNA form, which every server takes. A
    name before the @ in other than ASCII (`josé@example.org`) needs a server with
    SMTPUTF8, which pbem mail does not ask for: such an address is refused here, and
    the player's message is left out with a note, never built to fail at the server.
    """
    _one_line(address)
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


_MINTED = re.compile(r"<[a-z0-9-]+\.turn-\d{3,}\.[^\s<>@]+\.[0-9a-f]{20}@[^\s<>@]+>")
"""A Message-ID as make_message mints it: <campaign.turn-NNN.kind.fingerprint@domain>."""


def campaign_slug(campaign: Campaign) -> str:
    """How the judge's Message-IDs and X-Pbem-Campaign name the campaign."""
    return _slug(str(campaign.config.get("name", "")))


def minted_campaign(msg_id: str) -> str | None:
    """The campaign (as campaign_slug names it) of a Message-ID the judge minted; None for any other."""
    msg_id = msg_id.strip()
    return msg_id[1:].split(".", 1)[0] if _MINTED.fullmatch(msg_id) else None


def is_own(message: EmailMessage) -> bool:
    """Whether a message is one the judge sent (a GM's copy, a notice, a public report mailed to the
    GM's own address): marked Auto-Submitted and X-Pbem-Campaign by make_message, under a Message-ID
    it minted. Such a message arriving in a judge inbox is not player mail."""
    try:
        auto = str(message.get("Auto-Submitted", "")).strip().lower()
        campaign = str(message.get("X-Pbem-Campaign", "")).strip()
        own_id = " ".join(str(message.get("Message-ID", "")).split())
    except Exception:  # noqa: BLE001 - malformed headers: not ours
        return False
    return bool(auto) and auto != "no" and bool(campaign) and bool(_MINTED.fullmatch(own_id))


def set_recipient(message: EmailMessage, name: str, address: str) -> str:
    """Address a built message to `name <address>` instead (an address the GM corrected); the address as written."""
    target = _address(name, address)
    del message["To"]
    message["To"] = _AddressHeader("To", [target])
    return target.addr_spec


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


_RE = re.compile(r"re\s*:", re.IGNORECASE)


def re_subject(theirs: str, otherwise: str) -> str:
    """The Subject of an answer to a stranger's mail (sign-up, `list`): `Re: <their Subject>`, so that it reads
    as the reply it is, with one `Re:` however often the thread went back and forth (RFC 5322 3.6.5);
    `otherwise` when their mail had no Subject. Their text is made one line (it goes into a header)."""
    theirs = " ".join(_CONTROL.sub(" ", theirs).split())[:200]
    if not theirs:
        return otherwise
    return theirs if _RE.match(theirs) else f"Re: {theirs}"


def reply_subject(campaign: Campaign, pending: int, over: bool, what: str) -> str:
    """`[NAME] turn N: what`; once the game is over, `[NAME] what`: no message names a turn that will never be."""
    return f"[{campaign.config.get('name')}] " + ("" if over else f"turn {pending}: ") + what


# -- reports ---------------------------------------------------------------------------


def recipient(campaign: Campaign, player: str, turn: int, names: dict[str, str]) -> tuple[str, str | None]:
    """(name, address) of whoever holds the seat for `turn`; the address is None when campaign.yaml has none."""
    holder = campaign.holder(player, turn) or {}
    return str(holder.get("name") or names.get(player, player)), campaign.email(player, turn)


def attach_view(message: EmailMessage, campaign: Campaign, turn: int, player: str) -> None:
    """The player's view file of `turn`, for `pbem check FILE --view VIEWFILE` (docs/orders.md), attached to
    their report or welcome; the message stays the same, byte for byte, on every build."""
    view = viewfile.for_report(campaign, turn, player)
    if view is None:
        return
    message.add_attachment(view, maintype="application", subtype="json", filename=viewfile.file_name(campaign, turn, player))
    # The boundary is made from what it separates ("=_" occurs in neither quoted-printable nor base64 text).
    message.set_boundary(f"=_pbem.{hashlib.sha256(message['Message-ID'].encode() + view).hexdigest()[:32]}")


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
        name, address = recipient(campaign, player, pending, names)
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


OUTBOX_MARK = "mail/outbox/.built"
"""Moved (one byte longer) by every write into the outbox, before its files: a tick that found nothing to do
watches this one file (judge/quiet.py), not a folder per turn played. Its writers hold the campaign lock, as
the quiet check does while it takes its stamps; a message put into the outbox by hand moves nothing, and
goes with `pbem mail --send` (docs/email-workflow.md). Dot-named: delete it at will (the next tick looks)."""


def write_outbox(root: Path, files: dict[str, bytes]) -> list[str]:
    """Write outbox files that are new or changed; return their names. Unchanged files are not touched."""
    changed = {}
    for name, data in sorted(files.items()):
        path = outbox_dir(root) / name
        if not (path.is_file() and path.read_bytes() == data):
            changed[name] = (path, data)
    if not changed:
        return []
    ensure_mail_dir(root)
    _move_mark(root)
    for path, data in changed.values():
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic.write_file(path, data)
    return list(changed)


def _move_mark(root: Path) -> None:
    """OUTBOX_MARK one byte longer, made durable before the files it announces are written: a kill or a power
    cut after them never leaves them unannounced. Its size only grows, so no two writes leave the same stamp,
    even within one tick of the file system's clock."""
    outbox_dir(root).mkdir(exist_ok=True)
    handle = os.open(root / OUTBOX_MARK, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        os.write(handle, b".")
        os.fsync(handle)
    finally:
        os.close(handle)
