"""The judge's mail sources: local mailboxes as they are, IMAP mailboxes copied into the campaign first.

    judge:
      inbox:
        - ~/Maildir/spies                      # a Maildir (cur/, new/), read in place
        - /var/mail/spies                      # an mbox file, read in place
        - imaps://spies@mail.example.org/INBOX # an IMAP mailbox over TLS (port 993 unless given)

    CAMPAIGN/mail/inbox/   a Maildir: every message fetched over IMAP, stored before the
                           server is told it was seen

    CAMPAIGN/mail/imap.json   for each IMAP mailbox: its UIDVALIDITY and the highest UID taken

A message is known by the mailbox's UIDVALIDITY and its UID, never by its \\Seen flag: the GM may
read the mailbox in a client (which marks messages seen) before or after a tick and the judge
still takes every message it has not stored before. Each message is written into
mail/inbox/new/ (flushed, then renamed into place), then its UID is recorded in imap.json, and
only then, when `judge: imap_mark_seen: true`, is it flagged \\Seen on the server. A kill after
the store and before the record fetches the message again next time: its bytes are already
stored (its file name ends with the SHA-256 of its bytes), so it is only recorded. A new
UIDVALIDITY (the mailbox was rebuilt) reads the mailbox again from the start, and the same
bytes are again not stored twice. So no message is lost and none is stored twice; `pbem ingest`
then files each message once, as from any Maildir.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import imaplib
import json
import os
import ssl
import stat
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from ..common import atomic
from . import compose

IMAP_PASSWORD_ENV = "PBEM_IMAP_PASSWORD"
IMAP_PORT = 993
TIMEOUT = 60
"""Seconds a silent IMAP server is waited for before the fetch gives up (the next tick tries again)."""


class FetchError(ValueError):
    """A mail source cannot be read; the message says which and why."""


@dataclass(frozen=True)
class ImapSource:
    user: str
    host: str
    port: int
    folder: str

    def __str__(self) -> str:
        return f"imaps://{self.user}@{self.host}:{self.port}/{self.folder}"


Source = Path | ImapSource


def parse_source(text: str, base: Path) -> Source:
    """One entry of `judge: inbox:`: an `imaps://USER@HOST[:PORT]/FOLDER` address or a path
    (`~` is the GM's home; a relative path is read from the campaign folder, whatever cron's
    working folder is)."""
    text = str(text).strip()
    if "://" not in text:
        path = Path(text).expanduser()
        return path if path.is_absolute() else base / path
    parts = urlsplit(text)
    if parts.scheme != "imaps":
        raise FetchError(f"judge.inbox: '{text}' is not imaps://USER@HOST[:PORT]/FOLDER (only IMAP over TLS is read: a password must not cross the network in clear)")
    try:
        port = parts.port or IMAP_PORT
    except ValueError:
        raise FetchError(f"judge.inbox: '{text}' has a port that is not a number") from None
    if not parts.username or not parts.hostname:
        raise FetchError(f"judge.inbox: '{text}' needs a user and a host: imaps://USER@HOST/FOLDER (write an @ in the user as %40)")
    return ImapSource(unquote(parts.username), parts.hostname, port, unquote(parts.path.lstrip("/")) or "INBOX")


def inbox_dir(root: Path) -> Path:
    return compose.mail_dir(root) / "inbox"


def _ensure_maildir(root: Path, box: Path | None = None) -> Path:
    compose.ensure_mail_dir(root)
    box = box or inbox_dir(root)
    for sub in ("tmp", "new", "cur"):
        (box / sub).mkdir(parents=True, exist_ok=True)
    return box


def stored_hashes(box: Path) -> set[str]:
    """The messages stored in a Maildir of the judge's (by the hash their names end with; a client's `:2,S` apart)."""
    return {path.name.split(":", 1)[0].rsplit(".", 1)[-1] for sub in ("new", "cur") if (box / sub).is_dir() for path in (box / sub).iterdir()}


def ensure_inbox(root: Path, box: Path | None = None) -> Path:
    """The campaign's mail/inbox/ Maildir (or `box`, a Maildir under the campaign), made when missing."""
    return _ensure_maildir(root, box)


def store(box: Path, raw: bytes, uid: int, now: dt.datetime, stored: set[str]) -> bool:
    return _store(box, raw, uid, now, stored)


def message_hash(raw: bytes) -> str:
    """A stored message's name ends with this."""
    return hashlib.sha256(raw).hexdigest()[:32]


def _store(box: Path, raw: bytes, uid: int, now: dt.datetime, stored: set[str]) -> bool:
    """Write one message into the Maildir, unless its bytes are there already; True when written.
    The name starts with the moment and the server's UID, so the Maildir keeps arrival order."""
    digest = message_hash(raw)
    if digest in stored:
        return False
    name = f"{int(now.timestamp()):010d}.{uid:010d}.{digest}"
    atomic.write_file(box / "new" / name, raw)  # flushed under a dot-name (no reader takes it), then renamed
    stored.add(digest)
    return True


def _check(reply: tuple[str, list], what: str, source: ImapSource) -> list:
    status, data = reply
    if status != "OK":
        said = b" ".join(d for d in data if isinstance(d, bytes)).decode("utf-8", "replace")
        raise FetchError(f"{source}: the server refused to {what} ({said or status})")
    return data


def _mailbox_name(folder: str) -> str:
    """A mailbox name as IMAP wants it: quoted, with its quotes and backslashes escaped."""
    return '"' + folder.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _taken_path(root: Path) -> Path:
    return compose.mail_dir(root) / "imap.json"


def _taken(root: Path) -> dict[str, dict[str, int]]:
    path = _taken_path(root)
    return json.loads(path.read_bytes()) if path.is_file() else {}


def _record_taken(root: Path, taken: dict[str, dict[str, int]]) -> None:
    atomic.write_file(_taken_path(root), (json.dumps(taken, indent=1, sort_keys=True) + "\n").encode("utf-8"))


def _uidvalidity(server: imaplib.IMAP4, source: ImapSource) -> int:
    _, data = server.response("UIDVALIDITY")
    if not data or data[0] is None:
        data = _check(server.status(_mailbox_name(source.folder), "(UIDVALIDITY)"), "say the folder's UIDVALIDITY", source)
        text = b" ".join(d for d in data if isinstance(d, bytes)).decode("ascii", "replace")
        found = text.rsplit("UIDVALIDITY", 1)[-1].strip(" )")
        return int(found.split()[0])
    return int(data[0])


def fetch_imap(
    root: Path, source: ImapSource, password: str, now: dt.datetime, cafile: str | None = None, mark_seen: bool = False, into: Path | None = None
) -> int:
    """Copy every message of the mailbox not taken before (by UIDVALIDITY and UID, whatever its \\Seen
    flag) into mail/inbox/ (or the Maildir `into`: a mailbox several campaigns share, routed from there),
    recording each UID once stored; flag it seen only when `mark_seen`. Returns how many were new."""
    box = _ensure_maildir(root, into)
    stored = stored_hashes(box)
    taken = _taken(root)
    context = ssl.create_default_context(cafile=cafile)
    new = 0
    try:
        with imaplib.IMAP4_SSL(source.host, source.port, ssl_context=context, timeout=TIMEOUT) as server:
            try:
                server.login(source.user, password)
            except imaplib.IMAP4.error as exc:
                raise FetchError(f"{source}: the server refused the login ({_said(exc)}); check the IMAP password") from None
            _check(server.select(_mailbox_name(source.folder), readonly=not mark_seen), f"open the folder '{source.folder}'", source)
            validity = _uidvalidity(server, source)
            mark = taken.get(str(source), {})
            last = mark.get("uid", 0) if mark.get("uidvalidity") == validity else 0
            [found] = _check(server.uid("SEARCH", None, f"UID {last + 1}:*"), "search for new messages", source)
            # `N:*` names the last message even when its UID is below N (RFC 3501 6.4.8): keep only the new
            for uid in sorted(u for u in (int(u) for u in (found or b"").split()) if u > last):
                data = _check(server.uid("FETCH", str(uid), "(BODY.PEEK[])"), f"give message {uid}", source)
                raw = next((part[1] for part in data if isinstance(part, tuple)), None)
                if raw is not None:  # None: expunged meanwhile by another client, nothing to keep
                    new += _store(box, raw, uid, now, stored)
                taken[str(source)] = {"uidvalidity": validity, "uid": uid}
                _record_taken(root, taken)  # stored, then recorded, then (perhaps) acknowledged on the server
                if mark_seen and raw is not None:
                    _check(server.uid("STORE", str(uid), "+FLAGS.SILENT", "(\\Seen)"), f"flag message {uid} as seen", source)
            server.close()
    except (OSError, imaplib.IMAP4.error) as exc:
        raise FetchError(f"{source}: {_said(exc)}; nothing was lost: what was fetched is stored, the rest is fetched next time") from None
    return new


def _said(exc: BaseException) -> str:
    if isinstance(exc, ssl.SSLCertVerificationError):
        return f"the server's certificate cannot be trusted ({exc.verify_message}); give its CA with judge: imap_ca_file:"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    text = exc.args[0] if exc.args else exc
    return text.decode("utf-8", "replace") if isinstance(text, bytes) else str(text)


def imap_password(password_file: str | None, root: Path, environ: dict[str, str] | None = None) -> str | None:
    """The IMAP password: the first line of `judge: imap_password_file:`, else $PBEM_IMAP_PASSWORD."""
    environ = os.environ if environ is None else environ
    if password_file:
        path = Path(password_file).expanduser()
        path = path if path.is_absolute() else root / path
        try:
            with open(path, encoding="utf-8") as handle:
                return handle.readline().rstrip("\r\n")
        except OSError as exc:
            raise FetchError(f"judge.imap_password_file: {path}: {exc.strerror}") from None
    return environ.get(IMAP_PASSWORD_ENV)


def is_maildir(name: str) -> bool:
    return os.path.isdir(os.path.join(name, "new")) and os.path.isdir(os.path.join(name, "cur"))


def maildir_signature(name: str) -> list[int]:
    """signature() of a folder known to be a Maildir, without the stat that finds it is a folder; raises
    OSError when it is no longer one (judge/quiet.py then looks properly)."""
    return [os.stat(f"{name}/new").st_mtime_ns, os.stat(f"{name}/cur").st_mtime_ns]  # not os.path.join: a quiet tick's every campaign pays it


def signature(source: Path | str) -> list[int]:
    """What changes when mail arrives in a local source: a file's size and time, a Maildir's
    new/ and cur/ folders' times (adding or moving a message changes them). Cheaper than reading."""
    name = os.fspath(source)
    try:
        info = os.stat(name)
        if stat.S_ISDIR(info.st_mode):
            try:  # a Maildir: a stat of each of new/ and cur/ (every tick of every quiet campaign pays for this)
                return maildir_signature(name)
            except (FileNotFoundError, NotADirectoryError):
                pass  # a plain folder of saved messages
        return [info.st_mtime_ns, info.st_size]
    except FileNotFoundError:
        return []
