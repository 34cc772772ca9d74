"""A quiet campaign costs a tick a few `stat` calls: what the judge looked at, and until when nothing is due.

    CAMPAIGN/.judge/quiet.json   written by a tick that found nothing to do: the size, time and
                                 inode of what it looked at, the mail sources as ingested, and
                                 the next moment something falls due (a deadline plus grace, a
                                 reminder time)

    HOME/.judge/quiet-group.json at the home of a shared inbox (judge/shared.py's pointers), written
                                 at the end of a run: a copy of each member's quiet.json with that
                                 file's stamp, the fields all members share once ("common")

The next tick compares those with a `stat` each and, when nothing moved and that moment has not
come, has nothing to do without opening the campaign. Anything a person or another command
does shows in what is compared: mail in a source (its size and time), campaign.yaml edited
(`pbem deadline`, a new address), an order file saved by hand (the pending orders folder), a
turn adjudicated by hand (the campaign folder's entries), mail built by hand (the outbox's
folders). A campaign with an IMAP mailbox is never quiet: only the server knows what came.

A thousand campaigns sharing one inbox are ticked from one read of the group's file (class Records);
each copy stands only while its member's own file has the stamp copied, so the member's file stays the
one authority (a campaign ticked alone, `forget` by other commands) and a run killed between writing a
member's record and the group's file leaves a copy that does not stand.

Both are caches, dot-named like the lock: deleting them changes nothing but the next tick's speed.
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
GROUP_FILE = "quiet-group.json"


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


def _load(path: str) -> Any:
    """A cache file read with plain system calls (a file object costs more, a thousand times a tick)."""
    handle = os.open(path, os.O_RDONLY)
    try:
        chunks = [os.read(handle, 1 << 16)]
        while len(chunks[-1]) == 1 << 16:
            chunks.append(os.read(handle, 1 << 16))
    finally:
        os.close(handle)
    return json.loads(b"".join(chunks))


def _own(name: str) -> str:
    return f"{name}/{FOLDER}/quiet.json"  # not os.path.join: every campaign of every tick pays for it


class Records:
    """The quiet records one `pbem run` reads, each file at most once: a campaign's own quiet.json, or the
    entry the group file of a shared source's home holds for it (one read for a thousand campaigns).

    A group entry is a copy of the member's own record with the stamp of that file when it was copied:
    it stands only while that stamp does, so anything that rewrites or forgets the member's record (its
    own tick, `pbem rollback`, a change of who shares the source) makes the member read its own file."""

    def __init__(self) -> None:
        self._own: dict[str, Any] = {}
        """Own records read to group the campaigns, kept for their `is_quiet` (only a tick writes them, after both)."""
        self._entries: dict[str, list[Any]] = {}
        """Group entries by the member's folder: [stamp of its own quiet.json, its record]."""
        self._groups: dict[str, set[str]] = {}
        """The group files read, by their home folder, with the members each held."""
        self._parents: dict[str, str] = {}
        """The parent folder of each member a group file named (normalised, as its home is)."""
        self._homes: dict[str, dict[str, str]] = {}
        """What `inbox` found: each campaign's shared sources with their homes."""
        self._asked: set[str] = set()
        """The campaigns `is_quiet` asked about: an entry of any other is kept in the group file as it was read."""
        self._kept: dict[str, list[Any]] = {}
        """Group entries that `is_quiet` found standing: the group file keeps them without reading the own file."""
        self._moments: dict[str, dt.datetime] = {}

    def moment(self, text: str) -> dt.datetime:
        """A recorded moment, parsed once per run: a shared inbox's members mostly record the same deadline."""
        found = self._moments.get(text)
        if found is None:
            found = self._moments[text] = dt.datetime.fromisoformat(text)
        return found

    def inbox(self, root: Path | str) -> tuple[list[str], dict[str, str]] | None:
        """The campaign's `judge: inbox:` as its last quiet tick recorded it (mail/route.py's source_key of
        each) and, for those shared, the folder that records who shares them (named from `root`: the group's
        home), or None without a usable cache."""
        name = os.fspath(root)
        try:
            entry = self._entries.get(name)
            record = entry[1] if entry is not None else self._own.get(name)
            if record is None:
                record = self._own[name] = _load(_own(name))
            found, shares = record["inbox"], record.get("shares", {})  # a cache from before sharing.json: none recorded
            if not all(isinstance(folder, str) for folder in shares.values()):
                return None
            parent = self._parents.get(name)
            homes = self._homes[name] = {key: os.path.normpath(os.path.join(name, folder)) if parent is None else joined(name, parent, folder)
                                         for key, folder in shares.items()}
            for home in homes.values():  # the home of each shared source keeps its members' records
                self._group(home)
            return [os.path.realpath(os.path.join(name, key[2:])) if key.startswith("./") else str(key) for key in found], homes
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None

    def _group(self, home: str) -> None:
        if home in self._groups:
            return
        self._groups[home] = set()
        try:
            found = _load(f"{home}/{FOLDER}/{GROUP_FILE}")
            common, members = found["common"], found["members"]
            parent = os.path.dirname(home)
            for relative, (stamp, record) in members.items():
                name = joined(home, parent, relative)
                self._parents[name] = os.path.dirname(name)
                self._groups[home].add(name)
                self._entries[name] = [stamp, {**common, **record}]  # also the home's, read already: kept if it stands
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return  # none yet, or damaged: each member reads its own, and the run writes it anew

    def home(self, root: Path | str, key: str) -> str | None:
        """The home of a shared source as `inbox` found it for this campaign (None: not asked, or not shared)."""
        return self._homes.get(os.fspath(root), {}).get(key)

    def record(self, root: Path | str) -> Any:
        """The campaign's record for its `is_quiet`: its group entry while it stands, else its own file."""
        name = os.fspath(root)
        self._asked.add(name)
        entry = self._entries.pop(name, None)
        if entry is not None and _stamp(_own(name)) == entry[0]:
            self._kept[name] = entry
            return entry[1]
        own = self._own.pop(name, None)
        return own if own is not None else _load(_own(name))

    def remember_group(self, home: str, members: list[str]) -> None:
        """Keep in HOME's group file the records of the members of its shared sources, as their own files
        hold them now (read only for members whose entry this run did not find standing)."""
        loaded = self._groups.get(home, set())
        entries: dict[str, list[Any]] = {}
        for name in members:
            entry = self._kept.get(name) or (self._entries.get(name) if name not in self._asked else None)
            if entry is None:
                entry = _copy(name)
            if entry is not None:
                entries[name] = entry
        if set(entries) == loaded and all(name in self._kept or name not in self._asked for name in entries):
            return  # every entry read from the file stands: nothing to write
        path = Path(home) / FOLDER / GROUP_FILE
        if not entries:
            path.unlink(missing_ok=True)
            return
        records = [record for _, record in entries.values()]
        common = {key: value for key, value in records[0].items() if all(r.get(key, value) == value and key in r for r in records)}
        prepare(Path(home))
        atomic.write_file(path, dump_json({"common": common, "members": {
            os.path.relpath(name, home): [stamp, {key: value for key, value in record.items() if key not in common}]
            for name, (stamp, record) in entries.items()}}))


def joined(home: str, parent: str, relative: str) -> str:
    """os.path.normpath(os.path.join(home, relative)) for a normalised `home` whose parent folder is `parent`:
    a sibling, the usual layout of a folder of campaigns, without os.path's cost, which a thousand members
    of a shared inbox would pay at every tick."""
    sibling = relative[3:]
    if parent not in ("", "/") and relative.startswith("../") and "/" not in sibling and sibling not in ("", ".", ".."):
        return f"{parent}/{sibling}"
    return os.path.normpath(os.path.join(home, relative))


def _copy(name: str) -> list[Any] | None:
    """A member's own record with the stamp of its file, stamped before it is read: a record rewritten
    meanwhile has a newer stamp than the copy, which then never stands."""
    stamp = _stamp(_own(name))
    try:
        return None if stamp is None else [stamp, _load(_own(name))]
    except (OSError, ValueError):
        return None


def inbox_names(root: Path, keys: list[str]) -> list[str]:
    """Source keys as the cache keeps them: one inside the campaign folder relative to it (`./inbox.mbox`),
    so that a copy of the folder names its own."""
    base = os.path.realpath(root) + os.sep
    return ["./" + key[len(base):] if key.startswith(base) else key for key in keys]


def is_quiet(root: Path | str, now: dt.datetime, sending: bool, routed: frozenset[str] = frozenset(), records: Records | None = None) -> bool:
    """Whether the last tick had nothing to do and nothing has moved or fallen due since (and the
    sources routed to it, being shared in this run, are the same as then)."""
    records = records or Records()
    try:
        record = records.record(root)
    except (OSError, ValueError):
        return False
    try:
        if record["only_at"] is not None and records.moment(record["only_at"]) != now:
            return False
        if record["until"] is not None and records.moment(record["until"]) <= now:
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
