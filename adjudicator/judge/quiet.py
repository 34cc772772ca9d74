"""A quiet campaign costs a tick a few `stat` calls: what the judge looked at, and until when nothing is due.

    CAMPAIGN/.judge/quiet.json   written by a tick that found nothing to do: the size, time and
                                 inode of what it looked at (one packed string, looks()), the
                                 mail sources as ingested, and the next moment something falls
                                 due (a deadline plus grace, a reminder time)

    HOME/.judge/quiet-group.json at the home of a shared inbox (judge/shared.py's pointers), written
                                 at the end of a run: for each member, the stamp of its quiet.json
                                 joined to the stamps that file holds, and the fields of its record
                                 that are its own; the fields all members share once ("common")

The next tick compares those with a `stat` each and, when nothing moved and that moment has not
come, has nothing to do without opening the campaign. Anything a person or another command
does shows in what is compared: mail in a source (its size and time), campaign.yaml edited
(`pbem deadline`, a new address), an order file saved by hand (the pending orders folder), a
turn adjudicated by hand (the campaign folder's entries), mail built by another command (the
outbox's mark, mail/compose.py), mail routed to a campaign sharing an inbox (its mail/inbox/new/, the router's, also
from a run it is not in). A campaign with an IMAP mailbox is never quiet: only the server knows what came.

A thousand campaigns sharing one inbox are ticked from one read of the group's file (class Records):
what their records hold alike (the moment something falls due, the paths looked at, the sources routed)
is checked once per run, and each member costs its stats and one string comparison. Each copy stands
only while its member's own file has the stamp copied, so the member's file stays the one authority
(a campaign ticked alone, `forget` by other commands) and a run killed between writing a member's
record and the group's file leaves a copy that does not stand.

Both are caches, dot-named like the lock: deleting them changes nothing but the next tick's speed.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from ..campaign.folder import dump_json
from ..common import atomic
from ..mail import compose, fetch

FOLDER = ".judge"
GROUP_FILE = "quiet-group.json"
GROUP_FORMAT = 2
"""The group file's layout; one of another (an older pbem's) is read as none, and written anew."""
ROUTED_MAIL = "mail/inbox/new"
"""Where the router stores what it routes to a campaign (a Maildir's new/, judge/shared.py)."""


def _path(root: Path) -> Path:
    return root / FOLDER / "quiet.json"


def looks(base: str, names: list[str]) -> str:
    """The stamps of base + each of `names` (time, size and inode of each; zeros for one missing: no file
    has inode 0) as one string. A record keeps and compares them as written, packed into hexadecimal:
    a thousand campaigns' records then decode and compare one string each, and building it costs half
    of writing the numbers in decimal, which cost as much as decoding them (19-digit times)."""
    values: list[int] = []
    for name in names:  # a plain loop, plain strings: every campaign of every tick runs it
        try:
            info = os.stat(base + name)
        except FileNotFoundError:
            values += (0, 0, 0)
        else:
            values += (info.st_mtime_ns, info.st_size, info.st_ino)
    packer = _PACKERS.get(len(values))
    if packer is None:
        packer = _PACKERS[len(values)] = struct.Struct("<" + "qQQ" * (len(values) // 3))
    try:
        return packer.pack(*values).hex()
    except struct.error:  # a time past 2262 or an inode past 2**64: written out, as exact
        return " ".join(map(str, values))


_PACKERS: dict[int, struct.Struct] = {}
"""The packing of each number of stamps met (a time may be before 1970: signed)."""


def looked_at(pending: int, routed: bool = False) -> list[str]:
    """What a tick reads that a person or another command may change, besides the mail sources: the campaign
    folder (a turn adjudicated or rolled back), campaign.yaml, the pending orders folder, the outbox's mark
    (mail/compose.py's OUTBOX_MARK, moved by whatever builds mail: one file, however many turns were played).
    A campaign whose shared sources are routed to it reads them from mail/inbox/, watched by its new/ alone:
    the router stores there, a client that moves a message from there to cur/ changes new/ too, and nothing
    else writes cur/ (docs/email-workflow.md: mail put there by hand goes to new/)."""
    return ["", "campaign.yaml", f"turn-{pending:03d}/orders", compose.OUTBOX_MARK, *([ROUTED_MAIL] if routed else [])]


def prepare(root: Path) -> None:
    """The cache's folder, made before anything is stamped (making it changes the campaign folder's time)."""
    (root / FOLDER).mkdir(exist_ok=True)


def stamps(root: Path | str, paths: list[str]) -> str:
    """The stamps of `paths`, named from the campaign folder (pathlib or os.path.join would cost a quiet
    tick more than the stats)."""
    return looks(os.fspath(root) + os.sep, paths)


OWN = f"{os.sep}{FOLDER}{os.sep}quiet.json"
"""A campaign's own record, named from its folder: its stamp comes first in a group entry's stamps."""


def _in_group(paths: list[str]) -> list[str]:
    """What a group entry's stamps are of, named from the member's folder: its own record, then its paths."""
    return [OWN, *(os.sep + path for path in paths)]


def remember(
    root: Path, paths: list[str], seen: str, sources: dict[str, list[int]], until: dt.datetime | None, sent: bool,
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
    were routed (shared in that run): a tick routed otherwise looks properly, and mail/inbox/, where
    their mail is stored, is among `paths` (looked_at), not the sources; `shares` for each shared source
    the folder whose mail/sharing.json names who shares it (judge/shared.py's pointers)."""
    store = os.fspath(fetch.inbox_dir(root)) if routed else None
    sources = {name: signature for name, signature in sources.items() if name != store}
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
    return name + OWN  # not os.path.join: every campaign of every tick pays for it


Answer = tuple[list[str], dict[str, str]]
"""What `Records.inbox` tells of a campaign: its sources' keys, and the home of each shared one."""


@dataclass
class _Group:
    """One group file as read."""

    home: str
    common: dict[str, Any]
    """The fields every member's record held alike when it was written (their `shares` named from the home)."""
    members: set[str] = field(default_factory=set)
    inbox: Answer | None = None
    """`Records.inbox` of a member whose record has none of these fields of its own (most of them: one answer)."""
    verdicts: dict[tuple[dt.datetime, bool, frozenset[str]], bool] = field(default_factory=dict)
    """Whether the common fields hold (nothing fell due...), asked once per run, not per member."""

    def holds(self, now: dt.datetime, sending: bool, routed: frozenset[str], moment: Callable[[str], dt.datetime]) -> bool:
        asked = (now, sending, routed)
        found = self.verdicts.get(asked)
        if found is None:
            found = self.verdicts[asked] = _holds(self.common, now, sending, routed, moment)
        return found

    @cached_property
    def looked_at(self) -> list[str]:
        """What a member's stamps are of (one list for every member whose paths are the common ones)."""
        return _in_group(self.common["paths"])


def _answer(name: str, record: dict[str, Any], base: str) -> Answer:
    """A record's sources and shared sources' homes: its keys named from the campaign `name` (`./inbox.mbox`),
    its `shares` from `base` (the campaign itself in its own record, the home in a group file)."""
    shares = record.get("shares", {})  # a cache from before sharing.json: none recorded
    if not all(isinstance(folder, str) for folder in shares.values()):
        raise ValueError("shares")
    homes = {key: os.path.normpath(os.path.join(base, folder)) for key, folder in shares.items()}
    return [os.path.realpath(os.path.join(name, key[2:])) if key.startswith("./") else str(key) for key in record["inbox"]], homes


class Records:
    """The quiet records one `pbem run` reads, each file at most once: a campaign's own quiet.json, or the
    entry the group file of a shared source's home holds for it (one read for a thousand campaigns).

    A group entry is a copy of the member's own record, its stamps joined to the stamp of that file when
    it was copied: it stands only while that stamp does, so anything that rewrites or forgets the member's
    record (its own tick, `pbem rollback`, a change of who shares the source) makes the member read its own file."""

    def __init__(self) -> None:
        self._own: dict[str, Any] = {}
        """Own records read to group the campaigns, kept for their `is_quiet` (only a tick writes them, after both)."""
        self._entries: dict[str, list[Any]] = {}
        """Group entries by the member's folder: [its stamps, its record's fields not common, its _Group]."""
        self._groups: dict[str, _Group | None] = {}
        """The group files read (None: none usable), by their home folder."""
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

    def inbox(self, root: Path | str) -> Answer | None:
        """The campaign's `judge: inbox:` as its last quiet tick recorded it (mail/route.py's source_key of
        each) and, for those shared, the folder that records who shares them (named from `root`: the group's
        home), or None without a usable cache. The lists are shared between members: not to be changed."""
        name = os.fspath(root)
        try:
            entry = self._entries.get(name)
            if entry is None:
                record = self._own.get(name)
                if record is None:
                    record = self._own[name] = _load(_own(name))
                answer = _answer(name, record, name)
            else:
                _, fields, group = entry
                answer = group.inbox if group.inbox is not None and "inbox" not in fields and "shares" not in fields else \
                    _answer(name, {**group.common, **fields}, group.home)
            self._homes[name] = answer[1]
            for home in answer[1].values():  # the home of each shared source keeps its members' records
                if home not in self._groups:
                    self._group(home)
            return answer
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None

    def _group(self, home: str) -> None:
        self._groups[home] = None
        try:
            found = _load(f"{home}/{FOLDER}/{GROUP_FILE}")
            if found["format"] != GROUP_FORMAT:
                return
            group = _Group(home, found["common"])
            if "inbox" in group.common and not any(key.startswith("./") for key in group.common["inbox"]):
                group.inbox = _answer(home, group.common, home)  # the keys are no member's own folder: one answer for all
            parent = os.path.dirname(home)
            entries = {}
            for relative, (signature, fields) in found["members"].items():  # (one of another shape never stands)
                entries[joined(home, parent, relative)] = [signature, fields, group]  # also the home's, read already: kept if it stands
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return  # none yet, or damaged: each member reads its own, and the run writes it anew
        group.members = set(entries)
        self._entries.update(entries)
        self._groups[home] = group

    def home(self, root: Path | str, key: str) -> str | None:
        """The home of a shared source as `inbox` found it for this campaign (None: not asked, or not shared)."""
        return self._homes.get(os.fspath(root), {}).get(key)

    def stands(self, name: str, now: dt.datetime, sending: bool, routed: frozenset[str]) -> bool:
        """Whether the campaign's group entry stands (asked by its `is_quiet` alone; see `standing`)."""
        return bool(self.standing([name], now, sending, {name: routed}))

    def standing(self, names: list[str], now: dt.datetime, sending: bool, routed: dict[str, frozenset[str]]) -> set[str]:
        """Those of `names` (`routed`: the sources routed to each) whose group entry stands: nothing fell due, and
        nothing moved since its own record was copied, that record included; each asked once (a campaign not
        found here reads its own record). Most members' records differ only in their stamps: what the others
        hold alike is checked once per run, their stamps with one comparison each, in one loop over the run's
        campaigns, without a tick's calls per campaign; a member whose record differs more is checked as its
        own record would be."""
        found = set()
        entries, asked, kept, moment = self._entries, self._asked, self._kept, self.moment
        alone: frozenset[str] = frozenset()
        for name in names:  # a plain loop, as looks(): every member of a shared inbox at every tick
            asked.add(name)
            entry = entries.pop(name, None)
            if entry is None:
                continue
            stamped, fields, group = entry
            sources = routed.get(name, alone)
            try:
                if fields:
                    record = {**group.common, **fields}
                    stands = (_holds(record, now, sending, sources, moment) and looks(name, _in_group(record["paths"])) == stamped
                              and _sources_unmoved(record))
                else:  # the common fields hold all but the stamps, sources none
                    stands = group.holds(now, sending, sources, moment) and looks(name, group.looked_at) == stamped
            except (KeyError, TypeError, ValueError, OSError):  # a cache from another version: look properly
                continue
            if stands:
                kept[name] = entry  # the group file keeps it as it was
                found.add(name)
        return found

    def own(self, name: str) -> Any:
        """The campaign's own record."""
        own = self._own.pop(name, None)
        return own if own is not None else _load(_own(name))

    def remember_group(self, home: str, members: list[str]) -> None:
        """Keep in HOME's group file the records of the members of its shared sources, as their own files
        hold them now (read only for members whose entry this run did not find standing)."""
        group = self._groups.get(home)
        loaded = group.members if group is not None else set()
        entries: dict[str, list[Any]] = {}
        for name in members:
            entry = self._kept.get(name) or (self._entries.get(name) if name not in self._asked else None)
            if entry is None or entry[2] is not group:  # (an entry from another source's home names its shares from there)
                entry = _copy(name, home)
            if entry is not None:
                entries[name] = entry
        if set(entries) == loaded and all(len(entry) == 3 for entry in entries.values()):
            return  # every entry read from the file stands: nothing to write
        path = Path(home) / FOLDER / GROUP_FILE
        if not entries:
            path.unlink(missing_ok=True)
            return
        records = {name: {**entry[2].common, **entry[1]} if len(entry) == 3 else entry[1] for name, entry in entries.items()}
        first = next(iter(records.values()))
        common = {key: value for key, value in first.items() if all(key in r and r[key] == value for r in records.values())}
        prepare(Path(home))
        atomic.write_file(path, dump_json({"format": GROUP_FORMAT, "common": common, "members": {
            os.path.relpath(name, home): [entries[name][0], {key: value for key, value in record.items() if key not in common}]
            for name, record in records.items()}}))


def joined(home: str, parent: str, relative: str) -> str:
    """os.path.normpath(os.path.join(home, relative)) for a normalised `home` whose parent folder is `parent`:
    a sibling, the usual layout of a folder of campaigns, without os.path's cost, which a thousand members
    of a shared inbox would pay at every tick."""
    sibling = relative[3:]
    if parent not in ("", "/") and relative.startswith("../") and "/" not in sibling and sibling not in ("", ".", ".."):
        return f"{parent}/{sibling}"
    return os.path.normpath(os.path.join(home, relative))


def absolute(name: str) -> str:
    """os.path.abspath(name), without os.path's cost for a folder named as cron names them (absolute and
    normalised already), which a thousand members of a shared inbox would pay at every tick."""
    if name[:1] == "/" and name[-1:] != "/" and "//" not in name and "/." not in name:
        return name
    return os.path.abspath(name)


def _copy(name: str, home: str) -> list[Any] | None:
    """A member's own record for HOME's group file, [the stamp of its file and its stamps, the record with its
    `shares` named from the home], stamped before it is read: a record rewritten meanwhile has a newer stamp
    than the copy, which then never stands."""
    stamp = looks(name, [OWN])
    try:
        record = _load(_own(name))
        if not isinstance(record.get("stamps"), str):
            return None  # from an older pbem: its next tick writes it anew (one gone cannot be read)
        shares = {key: os.path.relpath(os.path.normpath(os.path.join(name, folder)), home) for key, folder in record.pop("shares", {}).items()}
        return [stamp + record.pop("stamps"), {**record, "shares": shares}]  # as looks() of both; its stamps only there
    except (OSError, ValueError, AttributeError, TypeError):
        return None


def inbox_names(root: Path, keys: list[str]) -> list[str]:
    """Source keys as the cache keeps them: one inside the campaign folder relative to it (`./inbox.mbox`),
    so that a copy of the folder names its own."""
    base = os.path.realpath(root) + os.sep
    return ["./" + key[len(base):] if key.startswith(base) else key for key in keys]


def is_quiet(root: Path | str, now: dt.datetime, sending: bool, routed: frozenset[str] = frozenset(), records: Records | None = None) -> bool:
    """Whether the last tick had nothing to do and nothing has moved or fallen due since (and the
    sources routed to it, being shared in this run, are the same as then): from the campaign's group
    entry while it stands, else from its own record."""
    records = records or Records()
    name = os.fspath(root)
    if records.stands(name, now, sending, routed):
        return True
    try:
        record = records.own(name)
        return (_holds(record, now, sending, routed, records.moment) and stamps(name, record["paths"]) == record["stamps"]
                and _sources_unmoved(record))
    except (KeyError, TypeError, ValueError, OSError):  # a cache from another version, a Maildir gone: look properly
        return False


def _holds(record: Any, now: dt.datetime, sending: bool, routed: frozenset[str], moment: Callable[[str], dt.datetime]) -> bool:
    """Whether nothing a record names fell due by `now`, and it was written for this tick's kind (sending,
    the same sources routed)."""
    if record["only_at"] is not None and moment(record["only_at"]) != now:
        return False
    if record["until"] is not None and moment(record["until"]) <= now:
        return False
    if sorted(routed) != record["routed"]:
        return False
    return not sending or record["sent"]  # mail built by a tick that did not send may wait in the outbox


def _sources_unmoved(record: Any) -> bool:
    """Whether the mail sources a record names are as they were ingested."""
    maildirs = record["maildirs"]
    return all((fetch.maildir_signature(source) if source in maildirs else fetch.signature(source)) == signature
               for source, signature in record["sources"].items())
