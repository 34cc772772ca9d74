"""A quiet campaign costs a tick a few `stat` calls: what the judge looked at, and until when nothing is due.

    CAMPAIGN/.judge/quiet.json   written by a tick that found nothing to do: the size, time and
                                 inode of what it looked at, the mail sources as ingested, and
                                 the next moment something falls due (a deadline plus grace, a
                                 reminder time)

The next tick compares those with a `stat` each and, when nothing moved and that moment has not
come, has nothing to do without opening the campaign. Anything a person or another command
does shows in what is compared: mail in a source (its size and time), campaign.yaml edited
(`pbem deadline`, a new address), an order file saved by hand (the pending orders folder), a
turn adjudicated by hand (the campaign folder's entries), mail built by hand (the outbox's
folders). A campaign with an IMAP mailbox is never quiet: only the server knows what came.

It is a cache, dot-named like the lock: deleting it changes nothing but the next tick's speed.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path
from typing import Any

from ..campaign.folder import dump_json
from ..common import atomic
from ..mail import compose, fetch

FOLDER = ".judge"


def _path(root: Path) -> Path:
    return root / FOLDER / "quiet.json"


def _stamp(path: str) -> list[int] | None:
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    return [info.st_mtime_ns, info.st_size, info.st_ino]


def looked_at(root: Path, pending: int) -> list[str]:
    """What a tick reads that a person or another command may change, besides the mail sources."""
    outbox = compose.outbox_dir(root)
    folders = sorted(p.name for p in outbox.iterdir() if p.is_dir()) if outbox.is_dir() else []
    return ["", "campaign.yaml", f"turn-{pending:03d}/orders", "mail/outbox", *(f"mail/outbox/{name}" for name in folders)]


def prepare(root: Path) -> None:
    """The cache's folder, made before anything is stamped (making it changes the campaign folder's time)."""
    (root / FOLDER).mkdir(exist_ok=True)


def stamps(root: Path, paths: list[str]) -> list[list[int] | None]:
    base = os.fspath(root) + os.sep  # plain strings: this runs for every campaign of every tick, and pathlib
    return [_stamp(base + name) for name in paths]  # (or os.path.join) costs more than the stat; the names are relative


def remember(
    root: Path, paths: list[str], seen: list[list[int] | None], sources: dict[str, list[int]], until: dt.datetime | None, sent: bool,
    only_at: dt.datetime | None = None, inbox: list[str] | None = None, routed: frozenset[str] = frozenset(),
    shares: dict[str, str] | None = None,
) -> None:
    """Record a tick that had nothing to do (`seen` was taken before it looked, so anything that
    moved while it looked makes the next tick look again), quiet `until` something falls due.

    A tick that did something records what it left (`seen` taken after its writes), quiet only
    `only_at` its own moment: a second tick at the same `--now` then changes nothing, not even
    this file, and any later tick looks properly before it trusts the record.

    `inbox` names the campaign's sources as `judge: inbox:` gives them (mail/route.py's source_key), so
    that `pbem run` finds the sources campaigns share without opening them; `routed` those of them that
    were routed (shared in that run): a tick routed otherwise looks properly; `shares` for each shared
    source the folder whose mail/sharing.json names who shares it (judge/shared.py's pointers)."""
    record = {
        "paths": paths, "stamps": seen, "sources": sources, "until": until.isoformat() if until else None, "sent": sent,
        "only_at": only_at.isoformat() if only_at else None, "inbox": inbox_names(root, inbox or []), "routed": sorted(routed),
        "shares": shares or {},
        "maildirs": sorted(name for name in sources if fetch.is_maildir(name)),
    }
    data = dump_json(record)
    path = _path(root)
    if not path.is_file() or path.read_bytes() != data:
        atomic.write_file(path, data)


def forget(root: Path) -> None:
    _path(root).unlink(missing_ok=True)


_READ: dict[str, Any] = {}
"""Records read by `inbox` for the `is_quiet` of the same campaign that follows in the same run: a quiet
campaign's cache is read once per tick (only a tick writes it, and it comes after both)."""


def _load(name: str) -> Any:
    """The cache of the campaign folder `name`, read with plain system calls (a file object costs more, a thousand times a tick)."""
    handle = os.open(f"{name}/{FOLDER}/quiet.json", os.O_RDONLY)
    try:
        chunks = [os.read(handle, 1 << 16)]
        while len(chunks[-1]) == 1 << 16:
            chunks.append(os.read(handle, 1 << 16))
    finally:
        os.close(handle)
    return json.loads(b"".join(chunks))


def _read(root: Path) -> dict[str, Any]:
    name = os.fspath(root)
    if name in _READ:
        return _READ.pop(name)
    return _load(name)


def inbox(root: Path) -> tuple[list[str], dict[str, str]] | None:
    """The campaign's `judge: inbox:` as the last quiet tick recorded it (mail/route.py's source_key of
    each) and, for those shared, the folder that records who shares them, or None without a usable cache."""
    name = os.fspath(root)
    try:
        record = _load(name)
        found, shares = record["inbox"], record.get("shares", {})  # a cache from before sharing.json: none recorded
        if not all(isinstance(folder, str) for folder in shares.values()):
            return None
        _READ[name] = record
        return [os.path.realpath(os.path.join(name, key[2:])) if key.startswith("./") else str(key) for key in found], shares
    except (OSError, ValueError, KeyError, TypeError):
        return None


def inbox_names(root: Path, keys: list[str]) -> list[str]:
    """Source keys as the cache keeps them: one inside the campaign folder relative to it (`./inbox.mbox`),
    so that a copy of the folder names its own."""
    base = os.path.realpath(root) + os.sep
    return ["./" + key[len(base):] if key.startswith(base) else key for key in keys]


def is_quiet(root: Path, now: dt.datetime, sending: bool, routed: frozenset[str] = frozenset()) -> bool:
    """Whether the last tick had nothing to do and nothing has moved or fallen due since (and the
    sources routed to it, being shared in this run, are the same as then)."""
    try:
        record = _read(root)
    except (OSError, ValueError):
        return False
    try:
        if record["only_at"] is not None and dt.datetime.fromisoformat(record["only_at"]) != now:
            return False
        if record["until"] is not None and dt.datetime.fromisoformat(record["until"]) <= now:
            return False
        if sorted(routed) != record.get("routed", []):
            return False
        if sending and not record["sent"]:  # mail built by a tick that did not send may wait in the outbox
            return False
        if stamps(root, record["paths"]) != record["stamps"]:
            return False
        maildirs = record.get("maildirs", ())
        return all((fetch.maildir_signature(name) if name in maildirs else fetch.signature(name)) == signature
                   for name, signature in record["sources"].items())
    except (KeyError, TypeError, ValueError, OSError):  # a cache from another version, a Maildir gone: look properly
        return False
