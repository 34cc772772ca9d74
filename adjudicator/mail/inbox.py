"""Incoming mail: read messages from a Maildir, an mbox or saved messages, and find the order document.

What fetchmail, getmail or a mail client leave behind is one of three things: a
Maildir (a folder with cur/ and new/), an mbox file (messages one after another,
each starting with a `From ` line) or single saved messages (`.eml`, `.msg`,
`.txt`, no extension: the name does not matter). A file is told apart by its
content, never by its name: a file whose first non-blank line starts with `From `
is an mbox; any other file is one message. A message must start with a header
field (`Name: value`, RFC 5322); one that does not (a binary file, a document) is
still handed on, and `parse` refuses it, so ingest keeps it with the reason. A
file with nothing but blank lines holds no message at all: it is named in the
ingest's notes (an empty mbox is an ordinary empty mailbox). Each message keeps its raw
bytes (they are filed as received) and its arrival position. An mbox is read under shared
fcntl and flock locks, and not while a fresh `.lock` file stands beside it: a delivery agent
still appending holds them, and the mbox is then left for the next run (named in the notes),
never read half written. Of a Maildir only `new/` and `cur/` are read, never `tmp/`.

The order document is, in this order of preference:
1. an attachment whose file name ends in .yaml or .yml (or whose type is YAML);
2. YAML in the body inside a Markdown code fence (```yaml ... ```) or a BBCode
   [code] ... [/code] block, as players paste it from forums and chat;
3. YAML written straight into the body, from a line `player: ...` on.
The body is the plain-text part, or the HTML part turned into text when the
mail has no plain text. Quoted lines (`> ...`), signatures and everything below
a reply or forward marker ("On ... wrote:", "-----Original Message-----",
"---------- Forwarded message ----------", "Begin forwarded message:") are cut
first, so a reply that quotes the previous report (whose order form also says
`player:`) finds the player's own orders, not the GM's form, and a forward of the
player's own earlier orders is never filed again as new ones. A reply whose quote is
marked line by line with `>` may have the player's text below it (bottom-posting,
design 17): the quoted lines are dropped and the text below is read (`_unquoted`). Below
a quote without `>` (Outlook's From:/Sent: block, a forward, an HTML reply turned into
text) nothing is read, since new text cannot be told from the old line by line: a
`player:` line found there gets a refusal that says where it was and what to do instead.

An attachment is decoded with the charset it declares (then handed on as UTF-8);
one that declares none must be UTF-8.
"""

from __future__ import annotations

import bisect
import email
import fcntl
import email.policy
import email.utils
import html
import mailbox
import re
import textwrap
import time
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import EmailMessage
from html.parser import HTMLParser
from pathlib import Path

from ..common import ordertext

MAX_MESSAGE_BYTES = 10 * 1024 * 1024
"""A message larger than this is kept but not read (a 64 KiB order file needs far less)."""
HEADER_BYTES = 64 * 1024
"""Of a message over the limit only this much is parsed, for its headers (sender, Message-ID)."""

_YAML_TYPES = ("application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml")
_FENCE_OPEN = re.compile(r"[ \t]*(```+|~~~+)")
_BBCODE_OPEN = re.compile(r"\[code(?:=[^\]\n]{0,100})?\]", re.IGNORECASE)
_BBCODE_CLOSE = re.compile(r"\[/code\]", re.IGNORECASE)
_PLAYER_LINE = re.compile(r"^(?P<indent>[ \t]*)player[ \t]*:", re.MULTILINE | re.IGNORECASE)
"""The first line of an order form; it may be indented (a mail client or the player did), and then the
whole form is read as if it started at the left margin."""
_INVISIBLE_LEAD = re.compile("^[\ufeff\u200b\u200c\u200d\u2060]+", re.MULTILINE)
"""A byte-order mark or zero-width characters at the start of a line (editors and chat apps put them
there): invisible to the player, they would hide the `player:` line."""
_TOP_LEVEL_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*[ \t]*:")
_REPLY_CUT = re.compile(
    r"^(-- |--\s*$|-{3,}\s*(?:Original|Forwarded) Message\s*-{3,}|Begin forwarded message:\s*$|_{10,}\s*$)",
    re.IGNORECASE,
)
"""A signature or forward marker: nothing below it is the sender's (a reply's attribution is _REPLY_WROTE)."""
CLIENT_SIGNATURE = re.compile(
    r"^[ \t]*(?:sent from my|sent from|sent with|sent via|get outlook|von meinem|gesendet von meinem|envoy[ée] de(?:puis)? mon|"
    r"inviato da(?:l mio)?|enviado desde mi|enviado do meu|verstuurd vanaf mijn|skickat från min|wysłane z(?: mojego)?)"
    r"[ \t].{0,50}?\b(?:iphone|ipad|phone|android|outlook|mail|mobile|samsung|galaxy|blackberry|smartphone|handy|pixel|huawei|"
    r"xiaomi|yahoo|proton\w*|gmail|windows|ios|gerät|appareil)\b.{0,30}$",
    re.IGNORECASE,
)
"""The line a phone or a mail program puts under what the player wrote ("Sent from my iPhone", "Get Outlook
for Android", "Sent from Mail for Windows", "Von meinem iPhone gesendet", "Envoyé de mon iPhone"): a
signature without the `-- ` marker, cut with everything below it as a signature is."""


@dataclass
class Incoming:
    """One message as found in a source."""

    raw: bytes
    source: str
    """Where it was found, for the GM's output (`inbox/new/1701...`, `mail.mbox#3`)."""


@dataclass
class OrderDocument:
    data: bytes
    """The order file's bytes as they will be filed (UTF-8 for text taken from a body)."""
    where: str
    """How it was found, in words: `attachment tony.yaml`, `a code block in the body`, `the body`."""
    lines: list[int] | None = None
    """For a document taken from the body: the line of the message text (from 1) of each of its lines,
    so that an error can name the line as the player sees it; None for an attachment (its own lines)."""

    def line(self, number: int) -> int:
        """The line of what the player sent that is line `number` (from 1) of the document."""
        if not self.lines or number < 1:
            return number
        if number <= len(self.lines):
            return self.lines[number - 1]
        return self.lines[-1] + number - len(self.lines)  # the end of the document: the lines after it


class NoOrders(ValueError):
    """The message carries no order document; the message says what was looked for."""

    def __init__(self, message: str, fix: tuple[str, str] = ("", ""), form: str = "", unread: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.unread = unread
        """Words naming each attachment that was not read, and why: the player may have meant one as the orders."""
        self.fix = fix
        """When the form was there but where it is not read (inside the quoted text, below a forward
        marker): what to do, in one sentence, and why it was not read; ("", "") otherwise."""
        self.form = form
        """That form's text, its `>` marks taken off ("" when there is none): whether the player filled it in
        tells typing into the quote from writing above it."""


class BadOrderFile(ValueError):
    """The order attachment cannot be turned into text (wrong or unknown charset); says what to do."""


class NotMail(ValueError):
    """The bytes are not an email message: they do not start with a header field."""


class NotASource(ValueError):
    """A source named on the command line exists but is no mailbox, folder or file (a named pipe, a device)."""


# -- sources ------------------------------------------------------------------


def check_source(path: Path) -> None:
    """Refuse at once a source that cannot be read as mail: missing (FileNotFoundError), or a named pipe,
    socket or device (NotASource), which would block a reader or never end."""
    if not path.exists():
        raise FileNotFoundError(2, "no such mailbox, folder or file", str(path))
    if not (path.is_dir() or path.is_file()):
        what = "a named pipe (FIFO)" if path.is_fifo() else "a socket" if path.is_socket() else "a device"
        raise NotASource(f"{path} is {what}, not a mailbox, a folder or a saved message; save the mail into a file or a Maildir and name that")


def _is_maildir(path: Path) -> bool:
    return path.is_dir() and (path / "cur").is_dir() and (path / "new").is_dir()


def read_sources(sources: list[Path], notes: list[str] | None = None) -> Iterator[Incoming]:
    """Every message of every source, in arrival order: sources as named, then each source's own order.
    A file with no message in it at all is named in `notes`.

    A Maildir's messages are taken in the order of their file names, which
    start with the delivery time; an mbox in file order; the files of any other
    folder in name order, each read as a file named on its own would be
    (dot-files and subfolders are not read).
    """
    for source in sources:
        if _is_maildir(source):
            # Delivery names start with the delivery time; the ":2,FLAGS" suffix a client adds is not part of the order.
            found = [p for sub in ("new", "cur") for p in (source / sub).iterdir() if p.is_file() and not p.name.startswith(".")]
            for path in sorted(found, key=lambda p: (p.name.split(":", 1)[0], p.parent.name)):
                try:
                    raw = _read(path)
                except FileNotFoundError:  # a mail client moved it to cur/ or flagged it (renamed) meanwhile
                    moved = _moved(source, path)
                    if moved is None:
                        continue  # gone (deleted, or moved again): the folder changed, so the next run reads it again
                    path, raw = moved
                yield Incoming(raw, f"{path.parent.name}/{path.name}")
        elif source.is_dir():
            for path in sorted(source.iterdir()):
                if path.is_file() and not path.name.startswith("."):
                    yield from _read_file(path, notes)
        else:
            check_source(source)
            yield from _read_file(source, notes)


def _moved(maildir: Path, path: Path) -> tuple[Path, bytes] | None:
    """A Maildir message found under its new name after a client renamed it: `cur/NAME:2,FLAGS`
    (Maildir keeps the unique part before the colon through every move and flag)."""
    unique = path.name.split(":", 1)[0]
    for candidate in (maildir / "cur").iterdir():
        if candidate.name.split(":", 1)[0] == unique:
            try:
                return candidate, _read(candidate)
            except FileNotFoundError:
                return None
    return None


FILE_EMPTY, FILE_MBOX, FILE_MESSAGE = "empty", "mbox", "message"


def file_kind(path: Path) -> str:
    """What a file holds, by its content: `mbox` when its first non-blank line starts with `From `
    (the mbox separator; `From:` or `From :` is a header), `empty` when it has no non-blank line,
    else `message` (one message; `parse` tells whether it really is mail)."""
    first = _first_line(path)
    if first is None:
        return FILE_EMPTY
    return FILE_MBOX if _MBOX_SEPARATOR.match(first) else FILE_MESSAGE


_MBOX_SEPARATOR = re.compile(rb"From (?![ \t]*:)")
_HEADER_FIELD = re.compile(rb"[!-9;-~]+[ \t]*:")
"""A header field's name and colon (RFC 5322: printable ASCII but the colon; obsolete syntax allows blanks before it)."""


def _blank_lines(data: bytes) -> int:
    """Where the first line that is not blank starts (len(data) when every line is blank)."""
    first = len(data) - len(data.lstrip(b" \t\r\n"))
    if first == len(data):
        return first
    return max(data.rfind(b"\n", 0, first), data.rfind(b"\r", 0, first)) + 1


def _first_line(path: Path) -> bytes | None:
    """The start of the file's first non-blank line, or None when the file holds only blank lines."""
    carried = b""  # a blank that began the current line in an earlier chunk: one byte tells enough
    with open(path, "rb") as handle:
        while True:
            chunk = handle.read(HEADER_BYTES)
            if not chunk:
                return None
            data = carried + chunk
            start = _blank_lines(data)
            if start < len(data):
                return data[start:] + handle.read(80)
            cut = max(data.rfind(b"\n"), data.rfind(b"\r")) + 1
            carried = data[cut : cut + 1]


def _read_file(path: Path, notes: list[str] | None) -> Iterator[Incoming]:
    """A file named as a source (or found in a plain folder), read by what it holds, not by its name."""
    kind = file_kind(path)
    if kind == FILE_EMPTY:  # an emptied mbox spool is an ordinary empty mailbox: a note, not an error
        if notes is not None:
            notes.append(f"{path} is empty (no message in it, not even headers); nothing was ingested from it")
    elif kind == FILE_MBOX:
        with open(path, "rb") as guard:
            busy = _mbox_busy(path, guard.fileno())
            if busy:
                if notes is not None:
                    notes.append(f"{path} was not read: {busy}; its mail is read at the next run")
                return
            box = mailbox.mbox(path, factory=None, create=False)
            try:  # the shared locks are held until the last message is read: the agent waits, no half message is read
                for number, key in enumerate(box.iterkeys(), start=1):
                    with box.get_file(key, from_=False) as handle:  # never more than the limit in memory
                        yield Incoming(handle.read(MAX_MESSAGE_BYTES + 1), f"{path}#{number}")
            finally:
                box.close()  # closing the guard lets go of its locks
    else:
        yield Incoming(_read(path), str(path))


DOT_LOCK_STALE = 15 * 60
"""Seconds after which a `.lock` file nobody refreshed is a leftover of a crash (procmail's rule is much the same)."""


def _mbox_busy(path: Path, fd: int) -> str | None:
    """Why the mbox cannot be read now (a delivery agent or a mail client is writing it), or None, with a
    shared lock then held on `fd` by both conventions. A reader takes what mutt and procmail take for
    reading: the fcntl (POSIX) and flock locks, shared, and it honours the `.lock` file (issue 26.8)."""
    dot = path.with_name(path.name + ".lock")
    try:
        age = time.time() - dot.stat().st_mtime
    except OSError:
        age = None
    if age is not None and age < DOT_LOCK_STALE:
        return f"{dot.name} says the mailbox is being written (a delivery agent or mail client holds it)"
    for kind, take in (("an fcntl", fcntl.lockf), ("a flock", fcntl.flock)):
        try:
            take(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            return f"{kind} lock is held on it by a program writing it (a delivery agent or a mail client)"
    return None


def _read(path: Path) -> bytes:
    with open(path, "rb") as handle:
        return handle.read(MAX_MESSAGE_BYTES + 1)


def parse(raw: bytes) -> EmailMessage:
    """The message in `raw`; NotMail when `raw` is not an email message at all.

    Blank lines before the header are skipped (a message saved by hand may start
    with one); what follows must be a header field or an mbox `From ` line. The
    email package would read anything else as a message with no header, and a
    binary file or a document is not mail.
    """
    start = _blank_lines(raw)
    if not (_HEADER_FIELD.match(raw, start) or raw.startswith(b"From ", start)):
        what = "it is empty" if start == len(raw) else "its first line is not a header field (Name: value)"
        raise NotMail(f"not an email message: {what}")
    message = email.message_from_bytes(raw[start:] if start else raw, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    return message


# -- headers ------------------------------------------------------------------


def clean(text: str) -> str:
    """Text that can be written as UTF-8: the email parser keeps a header's undecodable bytes as lone
    surrogates, and one of them in mail/ingest.json stopped every later ingest at the same message."""
    return text.encode("utf-8", "replace").decode("utf-8")


def header(message: EmailMessage, name: str) -> str:
    """A header as text; a malformed header gives its raw text rather than an exception."""
    try:
        value = message.get(name)
    except Exception:  # noqa: BLE001 - junk headers must not stop an ingest: take the raw text
        raw = [v for k, v in message.raw_items() if k.lower() == name.lower()]
        value = raw[0] if raw else None
    return clean(" ".join(str(value).split())) if value is not None else ""


_ADDRESS = re.compile(r"[^\s@<>()\[\],;:\\\"]+@[^\s@<>()\[\],;:\\\"]+")
"""An address that mail can be sent to: one @, something on each side, no blanks or specials."""
_ANGLE_ADDRESS = re.compile(r"<\s*([^<>\s]+@[^<>\s]+?)\s*>")
_MSG_ID = re.compile(r"<[!-;=?-~]+@[!-;=?-~]+>")
"""A msg-id as RFC 5322 allows it in practice: printable ASCII but <, > and blanks, one @ at least."""


def usable_address(address: str) -> bool:
    return bool(_ADDRESS.fullmatch(address))


def sender(message: EmailMessage) -> tuple[str, str]:
    """(display name, lower-case address) of From; empty strings when no usable address is in it.

    The last mailbox with a usable address counts: `From: Stark, Tony <tony@example.org>`
    (an unquoted comma) parses as two mailboxes, `Stark` and `Tony <tony@example.org>`.
    When no mailbox has one, the decoded header is searched for `<address>`: a client
    may put the whole `Name <address>` into one RFC 2047 encoded-word.
    """
    try:
        found = list(message["From"].addresses)
    except Exception:  # noqa: BLE001 - no From, or a malformed one: fall back to the plain text below
        found = []
    good = [a for a in found if usable_address(a.addr_spec.strip())]
    if good:
        return clean(good[-1].display_name), clean(good[-1].addr_spec.strip().lower())
    text = header(message, "From")
    angled = _ANGLE_ADDRESS.findall(text)
    if angled and usable_address(angled[-1]):
        name = text[: text.rfind("<")].strip().strip('"').strip()
        return name, angled[-1].lower()
    pairs = [(n, a.strip()) for n, a in email.utils.getaddresses([text]) if usable_address(a.strip())]
    if pairs:
        return clean(pairs[-1][0]), clean(pairs[-1][1].lower())
    return "", ""


def message_id(message: EmailMessage) -> str:
    """The Message-ID header as written (blanks collapsed): the message's key in mail/ingest.json."""
    return header(message, "Message-ID").strip()


def msg_ids(text: str) -> list[str]:
    """The well-formed msg-ids (`<left@right>`, ASCII, no blanks) in a header's text, in order; the rest dropped."""
    return _MSG_ID.findall(text)


def thread_ids(message: EmailMessage) -> tuple[str, list[str]]:
    """(the message's own msg-id or "", the References a reply to it carries: the parent's References,
    or lacking those its single In-Reply-To, then its own msg-id), RFC 5322 3.6.4; [] without a usable msg-id."""
    own = msg_ids(_raw_header(message, "Message-ID"))
    if not own:
        return "", []
    parent = msg_ids(_raw_header(message, "References"))
    if not parent:
        replied = msg_ids(_raw_header(message, "In-Reply-To"))
        parent = replied if len(replied) == 1 else []
    chain = [i for n, i in enumerate(parent) if i not in parent[:n] and i != own[0]]
    if len(chain) > 20:  # keep the thread's root and the recent part, as mail clients do
        chain = chain[:1] + chain[-19:]
    return own[0], [*chain, own[0]]


def _raw_header(message: EmailMessage, name: str) -> str:
    """A header's text as received (msg-ids are never encoded-words, so nothing is decoded)."""
    for key, value in message.raw_items():
        if key.lower() == name.lower():
            return str(value)
    return ""


# -- the order document ---------------------------------------------------------


def find_orders(message: EmailMessage) -> OrderDocument:
    """The order document of a message, or NoOrders saying what was looked for.

    An attachment named .yaml or .yml (or typed YAML) comes first; then a text attachment
    (`.txt`, or any text type: phones and Windows often cannot make a .yaml file) that holds an
    order form; then the body. An attachment that is not read is named in the refusal.
    """
    yaml_parts, other_parts = [], []
    for part in message.walk():
        if part.is_multipart():
            continue
        filename = clean(part.get_filename() or "")
        if filename.lower().endswith((".yaml", ".yml")) or part.get_content_type() in _YAML_TYPES:
            yaml_parts.append((filename or part.get_content_type(), part))
        elif filename or part.get_content_disposition() == "attachment":
            other_parts.append((filename or part.get_content_type(), part))
    if len(yaml_parts) > 1:
        names = ", ".join(name for name, _ in yaml_parts)
        raise NoOrders(f"the message carries {len(yaml_parts)} order attachments ({names}); send exactly one")
    if yaml_parts:
        name, part = yaml_parts[0]
        data = part.get_payload(decode=True) or b""
        return OrderDocument(_as_utf8(data, part), f"attachment {name}")
    texts, unread = _text_attachments(other_parts)
    if len(texts) > 1:
        names = ", ".join(found.where.removeprefix("attachment ") for found in texts)
        raise NoOrders(f"the message carries {len(texts)} attachments that hold an order form ({names}); send exactly one")
    if texts:
        return texts[0]
    try:
        return _orders_in_body(message)
    except NoOrders as exc:
        if unread:
            raise NoOrders(f"{exc}; {'; '.join(unread)}", exc.fix, unread=tuple(unread)) from None
        raise


def _text_attachments(parts: list[tuple[str, EmailMessage]]) -> tuple[list[OrderDocument], list[str]]:
    """(the attachments that hold an order form, read as text; words naming each attachment not read, and why)."""
    found, unread = [], []
    for name, part in parts:
        shown = name[:60]
        if part.get_content_maintype() != "text" and not name.lower().endswith(".txt"):
            unread.append(f"the attachment {shown} ({part.get_content_type()}) is not text and was not read")
            continue
        try:
            data = _as_utf8(part.get_payload(decode=True) or b"", part)
        except BadOrderFile as exc:
            unread.append(f"the attachment {shown} was not read: {exc}")
            continue
        text = ordertext.tidy(_INVISIBLE_LEAD.sub("", _normal(data.decode("utf-8", "replace"))))
        if _PLAYER_LINE.search(text):
            found.append(OrderDocument(text.encode("utf-8"), f"attachment {name}"))
        else:
            unread.append(f"the attachment {shown} holds no order form (no line starting 'player:')")
    return found, unread


def _orders_in_body(message: EmailMessage) -> OrderDocument:
    plain = _part_text(message, "plain")
    if plain is None and message.get_content_maintype() == "multipart" and not message.is_multipart():
        plain = _unsplit_multipart(message)
    if plain is None:
        html_text = _part_text(message, "html")
        if html_text is None:
            raise NoOrders("the message has no text and no .yaml attachment")
        return orders_in_text(html_text)
    try:
        return orders_in_text(plain)
    except NoOrders as exc:
        html_text = _part_text(message, "html")
        if html_text is not None and _PLAYER_LINE.search(_unquoted(_normal(html_text))[0]):
            raise NoOrders(
                f"{exc}; the message's plain-text part was read, and it has no order form, while its HTML part has one: "
                "when a message has a plain-text part the HTML part is not read (your mail program wrote two different "
                "versions); send the orders as plain text, or attach them as a .yaml file"
            ) from None
        raise


def _unsplit_multipart(message: EmailMessage) -> str:
    """The body of a message typed multipart but with no boundary to split it by (a defect the parser
    notes): it cannot be taken apart, so its whole body is read as the text the player wrote."""
    data = message.get_payload(decode=True)
    if not isinstance(data, bytes):
        payload = message.get_payload()
        data = payload.encode("utf-8", "surrogateescape") if isinstance(payload, str) else b""
    try:
        return clean(data.decode(str(message.get_param("charset", "") or "utf-8")))
    except (LookupError, UnicodeError):
        return data.decode("utf-8", "replace")


_ASCII_CHARSETS = ("us-ascii", "ascii", "ansi_x3.4-1968", "iso646-us")


def _as_utf8(data: bytes, part: EmailMessage) -> bytes:
    """An attachment's bytes as UTF-8: decoded with the charset it declares; without one it must be UTF-8 already."""
    declared = str(part.get_param("charset", "") or "").strip().lower()
    if declared in ("", "utf-8", "utf8") or declared in _ASCII_CHARSETS:
        # No charset, UTF-8, or ASCII (a label many clients add by default): the bytes must be UTF-8.
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            said = "it declares no charset and" if not declared else f"it is labelled {declared} but"
            raise BadOrderFile(
                f"the attached file is not UTF-8 text ({said} the first bad byte is at position {exc.start}); "
                "save it as UTF-8 and send it again"
            ) from None
        return data
    try:
        text = data.decode(declared)
    except LookupError:
        raise BadOrderFile(f"the attached file's charset '{clean(declared)[:40]}' is unknown; save it as UTF-8 and send it again") from None
    except UnicodeError as exc:  # a decoder may also fail otherwise than by a bad byte (UnicodeError, not UnicodeDecodeError)
        where = f" (the first bad byte is at position {exc.start})" if isinstance(exc, UnicodeDecodeError) else ""
        raise BadOrderFile(
            f"the attached file is labelled {clean(declared)[:40]} but is not {clean(declared)[:40]} text{where}; "
            "save it as UTF-8 and send it again"
        ) from None
    try:
        return text.removeprefix("\ufeff").encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate (UTF-7 or UTF-16 can spell one): not text
        raise BadOrderFile(
            f"the attached file, read as {clean(declared)[:40]}, holds a character that is not text (a lone surrogate at position {exc.start}); "
            "save it as UTF-8 and send it again"
        ) from None


def body_text(message: EmailMessage) -> str | None:
    """The plain-text body, or the HTML body as text; None when there is neither."""
    plain = _part_text(message, "plain")
    return plain if plain is not None else _part_text(message, "html")


def _part_text(message: EmailMessage, subtype: str) -> str | None:
    """The text of the message's text/`subtype` body part (HTML turned into text), or None."""
    try:
        part = message.get_body(preferencelist=(subtype,))
    except Exception:  # noqa: BLE001
        part = None
    if part is None or part.get_filename():
        return None
    try:
        content = part.get_content()
    except Exception:  # noqa: BLE001 - an unknown charset: read it as Latin-1 rather than lose it
        content = (part.get_payload(decode=True) or b"").decode("latin-1")
    if not isinstance(content, str):
        return None
    content = clean(content)  # UTF-7 or UTF-16 text may decode to lone surrogates: text that cannot be written out
    if subtype == "html":
        return html_to_text(content)
    if str(part.get_param("format", "")).lower() == "flowed":
        return unflow(content, str(part.get_param("delsp", "")).lower() == "yes")
    return content


def unflow(text: str, delsp: bool = False) -> str:
    """Undo RFC 3676 format=flowed (Thunderbird's default): rejoin soft-broken lines, remove space-stuffing.

    Without this a long line of the order form that the mail client wrapped
    would reach the YAML parser as two lines, and an indented order would
    carry the extra space the client stuffed in front of it.
    """
    out: list[str] = []
    joining = False
    for raw in text.replace("\r\n", "\n").split("\n"):
        depth = len(raw) - len(raw.lstrip(">"))
        content = raw[depth:]
        content = content.removeprefix(" ")
        soft = content.endswith(" ") and content != "-- "
        if soft and delsp:
            content = content[:-1]
        if joining and out and _depth(out[-1]) == depth:
            out[-1] += content
        else:
            out.append(">" * depth + (" " if depth and content else "") + content)
        joining = soft
    return "\n".join(out)


def _depth(line: str) -> int:
    return len(line) - len(line.lstrip(">"))


def _normal(text: str) -> str:
    return _INVISIBLE_LEAD.sub("", text.replace("\r\n", "\n").replace("\r", "\n").replace("\u00a0", " "))


def written(message: EmailMessage) -> str:
    """The body as the player wrote it, before any tidying, its lines numbered as OrderDocument.lines counts them."""
    return _normal(body_text(message) or "")


def orders_in_text(text: str) -> OrderDocument:
    text = ordertext.tidy(_normal(text))
    fresh, numbers = _unquoted(text)
    for start, inner in _fenced_blocks(fresh):
        if _PLAYER_LINE.search(inner):
            return _document(inner, "a code block in the body", numbers, start)
    for start, inner in _bbcode_blocks(fresh):
        inner = html.unescape(inner)
        start += len(inner) - len(inner.lstrip("\n"))
        if _PLAYER_LINE.search(inner):
            return _document(inner.lstrip("\n"), "a [code] block in the body", numbers, start)
    found = _yaml_block(fresh)
    if found is None:
        why, fix = _not_read(text)
        raise NoOrders("no .yaml attachment, and no order form (a line starting 'player:') in the message's own text" + why, fix,
                       _form(text) if why else "")
    start, block = found
    return _document(block, "the body", numbers, start)


def _document(text: str, where: str, numbers: list[int], start: int) -> OrderDocument:
    """A document found at line `start` (from 0) of the unquoted text, set to the left margin when the
    whole of it is indented, with the message line of each of its lines."""
    match = _PLAYER_LINE.search(text)
    if match and match.group("indent"):
        text = textwrap.dedent(text)
    count = text.count("\n") + (0 if text.endswith("\n") else 1)
    return OrderDocument(text.encode("utf-8"), where, [numbers[min(start + n, len(numbers) - 1)] for n in range(count)])


_ANY_PLAYER_LINE = re.compile(r"^[ \t>]*player[ \t]*:", re.MULTILINE | re.IGNORECASE)


def _not_read(text: str) -> tuple[str, tuple[str, str]]:
    """When the text holds a `player:` line that was not read (in `>` lines, or below a marker that
    ends what is read), words that say so for the record, and NoOrders.fix; ("", ("", "")) otherwise.
    The lines are told apart as _unquoted reads them."""
    lines = text.split("\n")
    end = _end_of_own_text(lines)
    advice = "put your orders above the quoted text, or attach them as a .yaml file"
    if _ANY_PLAYER_LINE.search("\n".join(lines[:end])):  # the own text has no form: this one is in `>` lines
        return (f" (a 'player:' line was found only in quoted lines starting with '>', which are not read: {advice})",
                ("write your orders above the quoted text, not inside the '>' lines",
                 "your order form is inside the quoted text (the lines starting with '>'), and quoted lines are not read, as they may be older mail"))
    if _ANY_PLAYER_LINE.search("\n".join(lines[end + 1 :])):
        shown = _whole_words(" ".join(lines[end].split()), 100) or "-- "
        return (f" (a 'player:' line was found below the quote, forward or signature marker '{shown}'; "
                f"nothing below such a marker is read, because it may be older mail: {advice})",
                (f"write your orders above the line '{shown}', not below it",
                 "your order form is below that line, and nothing below a quote, forward or signature line is read, as it may be older mail"))
    return "", ("", "")


def _form(text: str) -> str:
    """The first order form in `text`, read with every line's `>` marks taken off ("" when there is none)."""
    found = _yaml_block("\n".join(re.sub(r"^[ \t]*(?:>[ \t]?)+", "", line) for line in text.split("\n")))
    return found[1] if found else ""


def _whole_words(text: str, most: int) -> str:
    """`text` cut to at most `most` characters at a space, marked `...`: a name or an address is shown whole or not at all."""
    if len(text) <= most:
        return text
    return text[: text.rfind(" ", 0, most - 3) + 1 or most - 3].rstrip() + " ..."


def _fenced_blocks(text: str) -> Iterator[tuple[int, str]]:
    """(first line, contents) of ```/~~~ fenced blocks, in order; a fence closes on a line holding the same fence alone.

    A line scan with an index of closing lines, not a regular expression: a
    lazy match with a back-reference took 30 s on 100 KiB of unclosed fences
    (every opener searched to the end), so one message could stall an ingest.
    """
    lines = text.split("\n")
    closers: dict[str, list[int]] = {}
    for number, line in enumerate(lines):
        bare = line.strip(" \t")
        if bare and bare[0] in "`~" and bare == bare[0] * len(bare) and len(bare) >= 3:
            closers.setdefault(bare, []).append(number)
    number = 0
    while number < len(lines) - 1:  # an opening line needs a line after it
        opened = _FENCE_OPEN.match(lines[number])
        end = None
        if opened:
            run = opened.group(1)
            for size in range(len(run), 2, -1):  # the longest fence first, as the pattern would try
                found = closers.get(run[0] * size, [])
                after = bisect.bisect_right(found, number)
                if after < len(found):
                    end = found[after]
                    break
        if end is None:
            number += 1
            continue
        yield number + 1, "".join(line + "\n" for line in lines[number + 1 : end])
        number = end + 1


def _bbcode_blocks(text: str) -> Iterator[tuple[int, str]]:
    """(line of the opening tag, contents) of [code]...[/code] blocks, in order (case-insensitive), found in one pass."""
    position = 0
    while True:
        opened = _BBCODE_OPEN.search(text, position)
        if opened is None:
            return
        closed = _BBCODE_CLOSE.search(text, opened.end())
        if closed is None:
            return  # no later opening can close either
        yield text.count("\n", 0, opened.end()), text[opened.end() : closed.start()]
        position = closed.end()


def own_words(text: str) -> str:
    """A body's text as the sender wrote it: quoted lines and everything after a reply or
    signature marker left out (what orders and commands are looked for in)."""
    return _unquoted(_normal(text))[0]


_REPLY_WROTE = re.compile(
    r"^(On .{0,200} wrote"            # English
    r"|Le .{0,200} a écrit"           # French
    r"|Am .{0,200} schrieb .{0,80}"   # German
    r"|W dniu .{0,200} (?:pisze|napisał\(a\)|napisała?)"  # Polish (Thunderbird, Gmail)
    r"|El .{0,200} escribió"          # Spanish
    r"|Op .{0,200} schreef .{0,80}"   # Dutch
    r"|Il .{0,200} ha scritto"        # Italian
    r"|Em .{0,200} escreveu"          # Portuguese
    r")\s*:\s*$",
    re.IGNORECASE,
)
"""A reply's attribution line, as the mail programs players use write it in their languages: what follows
it is the quoted mail, each line starting with `>` (or, without `>`, nothing below it is the sender's)."""
_OUTLOOK_FROM = re.compile(r"^[ \t]*\**(?:From|Von|De|Van|Da)[ \t]*:\**[ \t]", re.IGNORECASE)
_OUTLOOK_FIELD = re.compile(r"^[ \t]*\**(?:Sent|Date|To|Cc|Subject|Gesendet|Datum|An|Betreff|Envoyé|À|Objet|Inviato|Oggetto)[ \t]*:", re.IGNORECASE)


def _outlook_block(lines: list[str], index: int) -> bool:
    """Whether line `index` starts the header block under which Outlook (desktop plain text, and on the
    web) quotes the mail replied to, with no `>`: `From: ...` with `Sent:`/`To:`/`Subject:` right under it."""
    if not _OUTLOOK_FROM.match(lines[index]):
        return False
    following = [line for line in lines[index + 1 : index + 4] if line.strip()][:2]
    return bool(following) and all(_OUTLOOK_FIELD.match(line) for line in following[:1])


def _unquoted(text: str) -> tuple[str, list[int]]:
    """The player's own words: quoted lines dropped, everything from a signature, forward or unquoted-reply
    marker cut; with the line of `text` (from 1) that each kept line was.

    After an attribution line ("On ... wrote:") whose quote is marked with `>`, the player's own text
    may go on below the quote (bottom-posting): the quoted lines are dropped and the rest is read. A
    quote with no `>` (Outlook's From:/Sent: block, an HTML reply turned into text) cannot be told from
    new text line by line, so everything below its marker is cut."""
    kept, numbers = [], []
    lines = text.split("\n")
    for index, line in enumerate(lines[: _end_of_own_text(lines)]):
        if line.lstrip().startswith(">") or _REPLY_WROTE.match(line):
            continue  # a quote marked line by line (and its attribution): the lines without `>` stay the player's
        kept.append(line)
        numbers.append(index + 1)
    return "\n".join(kept), numbers or [1]


def _end_of_own_text(lines: list[str]) -> int:
    """The line at which the player's own text ends: a signature, forward or Outlook marker, or an
    attribution ("On ... wrote:") whose quote is not marked with `>`; len(lines) when none."""
    for index, line in enumerate(lines):
        if _REPLY_WROTE.match(line):
            following = next((later for later in lines[index + 1 :] if later.strip()), "")
            if not following.lstrip().startswith(">"):
                return index
        elif _REPLY_CUT.match(line) or CLIENT_SIGNATURE.match(line) or _outlook_block(lines, index):
            return index
    return len(lines)


def _yaml_block(text: str) -> tuple[int, str] | None:
    """(its first line, the block) from the first `player:` line to the first line that cannot continue a
    top-level mapping, read at the `player:` line's indentation (a line indented less ends it)."""
    match = _PLAYER_LINE.search(text)
    if match is None:
        return None
    indent = match.group("indent")
    block: list[str] = []
    for line in text[match.start():].split("\n"):
        if line.strip() and not line.startswith(indent):
            break
        if _ends_yaml(line[len(indent):] if line.strip() else ""):
            break
        block.append(line)
    return text.count("\n", 0, match.start()), "\n".join(block).rstrip() + "\n"


def _ends_yaml(line: str) -> bool:
    """A line at the left margin that is neither a key, a list item, a comment nor a document marker."""
    if not line or line[0].isspace() or line.startswith(("#", "- ", "-\t")) or line in ("-", "---", "..."):
        return False
    return not _TOP_LEVEL_KEY.match(line)


# -- HTML-only mail -----------------------------------------------------------------


class _Text(HTMLParser):
    _BREAKS = frozenset({"br", "p", "div", "li", "tr", "pre", "h1", "h2", "h3", "h4", "h5", "h6", "table"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0  # inside <blockquote>, <style>, <script>, <head>: not the player's words

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("blockquote", "style", "script", "head"):
            self.skip += 1
        elif tag in self._BREAKS and not self.skip:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("blockquote", "style", "script", "head"):
            self.skip = max(0, self.skip - 1)
        elif tag in self._BREAKS and tag != "br" and not self.skip:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.parts.append(data)


def html_to_text(markup: str) -> str:
    parser = _Text()
    try:
        parser.feed(markup)
        parser.close()
    except Exception:  # noqa: BLE001
        return ""
    text = "".join(parser.parts).replace("\u00a0", " ")
    # HTML line breaks already became newlines; the source's own newlines inside a
    # paragraph are not line breaks in HTML, but mail clients put them only between tags.
    return re.sub(r"\n{3,}", "\n\n", text)

