"""The sources that campaigns of one `pbem run` share (design 15, "one judge address, many campaigns"):
each is read once per tick, before the campaigns are ticked, and each message routed to at most one of
them (mail/route.py); each campaign then files what was routed to it as it files any of its mail.

    CAMPAIGN/mail/shared/<key>/   a Maildir: a shared IMAP mailbox fetched once, kept by the first of the
                                  campaigns sharing it (by folder), its UIDs in that campaign's imap.json

    CAMPAIGN/mail/sharing.json    each shared source (its key) with the campaigns found sharing it when it
                                  was last routed (their folders relative to this one's)

A campaign is grouped by its `judge: inbox:` as its quiet cache recorded it (a thousand quiet campaigns
are not opened for this), else as campaign.yaml gives it. A shared source is routed only when every
campaign that shares it can be read (a message for a campaign that cannot be read would go to another
or be answered as ambiguous): until the GM mends it, the mail waits in the source.

Campaigns sharing a source and ticked apart (`pbem run A` where B shares A's inbox, or a cron line per
campaign): the run routes the source for every campaign sharing.json names, named in the run or not.
A's tick files what is A's; B's messages are stored in B's mail/inbox/, where B's own tick files them,
and the run's line says so. Nothing is taken by the wrong campaign, lost or filed twice. The judge learns
who shares a source from a run that names them together: until then a campaign ticked alone reads its
sources as its own (docs/email-workflow.md says to name them together once). A campaign left alone on a
source once shared keeps routing it, the others kept in its record, so it never takes what went to them.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from ..campaign.folder import Campaign, CampaignError, dump_json
from ..common import atomic
from ..mail import compose, fetch, route
from . import quiet
from .settings import JudgeSettings, read_settings


@dataclass
class Sharing:
    """What routing the shared sources of one run did."""

    routed: dict[str, frozenset[str]] = field(default_factory=dict)
    """For each campaign (its folder as named), its sources that are shared in this run: its tick does not read them itself."""
    lines: list[str] = field(default_factory=list)
    """One line per shared source that had something new, or could not be routed."""
    failed: bool = False
    groups: dict[str, list[str]] = field(default_factory=dict)
    """Each source campaigns share, with those campaigns (this run's and those recorded sharing it)."""
    answering: list[Answering] = field(default_factory=list)
    """The replies routing decided, built by `answer_routed` after the run's ticks."""


@dataclass(frozen=True)
class Answering:
    """A routed source's replies to build after the ticks, and its signature, remembered once they are built
    (remembered before, a kill between would leave the source unread and its replies unbuilt)."""

    sharing: list[Path]
    lines: list[dict]
    key: str
    signature: list[int]


def answer_routed(sharing: Sharing) -> list[str]:
    """After the run's ticks: the `list` and which-game replies of the shared sources, so that the campaigns
    they list count the seats the same tick's joins took (route.answer); then each source is remembered.
    The lines for the run of the replies that could not be built (the next run builds them)."""
    failures = []
    for due in sharing.answering:
        try:
            route.answer(due.sharing, due.lines)
            route.remember(due.sharing[0], due.key, due.signature)
        except (CampaignError, OSError, ValueError, atomic.Busy) as exc:  # not remembered: the next run routes it again
            failures.append(f"{due.key}: replies not built ({' '.join(str(exc).split())}); the next tick builds them")
    return failures


def read_by_tick(root: Path, settings: JudgeSettings, routed: frozenset[str]) -> list[Path]:
    """The local sources a campaign's own tick reads (its ingest, and its sign-up commands): those not
    shared in this run, and mail/inbox/, where what was routed to it or fetched over IMAP is stored."""
    sources = [s for s in settings.inbox if isinstance(s, Path) and route.source_key(s) not in routed]
    if any(route.source_key(s) in routed for s in settings.inbox):
        sources.append(fetch.ensure_inbox(root))
    elif any(isinstance(s, fetch.ImapSource) for s in settings.inbox):
        sources.append(fetch.inbox_dir(root))
    return sources


def _sources(root: Path) -> list[fetch.Source] | None:
    try:
        return list(read_settings(Campaign.open(root)).inbox)
    except (CampaignError, OSError, ValueError):
        return None  # its own line says why


def _sharing_path(root: Path) -> Path:
    return compose.mail_dir(root) / "sharing.json"


def recorded(root: Path) -> dict[str, list[str]]:
    """The campaign's sharing.json: each shared source's key with the folders sharing it, relative to this one."""
    try:
        found = json.loads(_sharing_path(root).read_bytes())
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def _record(sharing: list[Path], members: list[Path], key: str) -> None:
    """Each campaign sharing the source records its members (those that once shared it too: what was routed
    to them is not taken again); a change drops its quiet cache, which points at the record."""
    for root in sharing:
        shares = recorded(root)
        names = sorted(os.path.relpath(member, root) for member in members)
        if shares.get(key) != names:
            with atomic.locked(root):
                compose.ensure_mail_dir(root)
                atomic.write_file(_sharing_path(root), dump_json({**shares, key: names}))
            quiet.forget(root)


def pointers(root: Path) -> dict[str, str]:
    """For the quiet cache: each shared source's key with one member whose sharing.json names them all (the
    first, the same for every member), relative to this campaign: a thousand members read one record, not each its own."""
    base = os.path.abspath(root)
    return {key: os.path.relpath(min(os.path.normpath(os.path.join(base, name)) for name in names), base)
            for key, names in recorded(root).items() if names}


def _known(root: str, records: quiet.Records) -> tuple[list[str], dict[str, str]]:
    """The campaign's sources (keys) and, for those shared, the folder (named from `root`) whose sharing.json
    names who shares them; from its quiet cache, else its files."""
    cached = records.inbox(root)
    if cached is None:
        return ([route.source_key(s) for s in _sources(Path(root)) or []],
                {key: os.path.normpath(os.path.join(root, home)) for key, home in pointers(Path(root)).items()})
    return cached


def groups(roots: list[str], records: quiet.Records) -> dict[str, list[str]]:
    """Each source that more than one campaign shares, with those campaigns: those of the run that name it,
    and those recorded sharing it with them (named in this run or not)."""
    readers: dict[str, list[str]] = {}
    named: dict[str, set[str]] = {}
    pointed: dict[str, set[str]] = {}
    for root in roots:  # (no setdefault: it would make a list and a set per campaign, a thousand of them sharing one source)
        keys, homes = _known(root, records)
        base = quiet.absolute(root)
        for key in keys:
            if key in readers:
                readers[key].append(root)
                named[key].add(base)
            else:
                readers[key], named[key], pointed[key] = [root], {base}, set()
            if key in homes:  # the same folder for every member: read once below
                pointed[key].add(homes[key])
    for key, folders in sorted(pointed.items()):  # campaigns recorded sharing the source that this run does not name
        for folder in sorted({os.path.abspath(home) for home in folders}):
            parent = os.path.dirname(folder)
            for name in recorded(Path(folder)).get(key, []):
                member = quiet.joined(folder, parent, name)
                if member not in named[key] and os.path.isdir(member):
                    readers[key].append(member)
                    named[key].add(member)
    return {key: sorted(dict.fromkeys(members)) for key, members in sorted(readers.items()) if len(members) > 1}


def route_shared(roots: list[str], now: dt.datetime, records: quiet.Records) -> Sharing:
    """Route every source the campaigns share; a source that did not change since it was last routed is not read."""
    result = Sharing(groups=groups(roots, records))
    named = set(roots)
    for key, members in result.groups.items():
        try:
            line, sharing = _route_one(key, members, now, result.answering)
        except (fetch.FetchError, CampaignError, OSError, ValueError, atomic.Busy) as exc:
            result.failed = True
            line, sharing = f"{key}: not routed ({' '.join(str(exc).split())}); its mail waits in it for the next tick", members
        alone = frozenset({key})  # one set for the members of one source (most share only it): each quiet check reads it
        for root in sharing:
            had = result.routed.get(root)
            result.routed[root] = alone if had is None else had | alone
        absent = [root for root in sharing if root not in named]
        if line and absent:
            line += (f"; note: {', '.join(map(str, absent))} {'shares' if len(absent) == 1 else 'share'} this source and "
                     f"{'is' if len(absent) == 1 else 'are'} not in this run: {'its' if len(absent) == 1 else 'their'} mail "
                     "waits in mail/inbox/ for its own tick")
        if line:
            result.lines.append(line)
    return result


def remember_quiet(sharing: Sharing, records: quiet.Records) -> None:
    """After the run's ticks: each shared source's home keeps its members' quiet records in one file, which
    the next run reads once instead of a file per member (judge/quiet.py)."""
    homes: dict[str, list[str]] = {}
    for key, members in sharing.groups.items():
        folder = records.home(members[0], key)
        if folder is None:  # its quiet record is not read yet (or was damaged): its sharing.json says
            pointer = pointers(Path(members[0])).get(key)
            folder = None if pointer is None else os.path.normpath(os.path.join(members[0], pointer))
        if folder is not None:
            homes.setdefault(folder, []).extend(members)
    for home, members in sorted(homes.items()):
        try:
            records.remember_group(home, list(dict.fromkeys(members)))
        except OSError:
            pass  # a cache: without it the next run reads each member's own record


def _route_one(key: str, members: list[str], now: dt.datetime, answering: list[Answering]) -> tuple[str | None, list[str]]:
    """Route one shared source: the line for the run (None: nothing to say), and the campaigns sharing it."""
    home = Path(members[0])
    if "://" not in key and route.unchanged(home, key, fetch.signature(key)):
        return None, members  # a local source named by its real path, unchanged since it was routed: nothing is opened
    source = next((s for s in _sources(home) or [] if route.source_key(s) == key), None)
    if source is None:  # the quiet cache was out of date (a campaign folder copied, say): ask campaign.yaml
        return _route_checked(key, members, now, answering)
    path, fetched = _local(key, source, home, now)
    signature = fetch.signature(path)  # taken before reading: mail that arrives meanwhile is routed next time
    if route.unchanged(home, key, signature):
        return None, members
    return _route_checked(key, members, now, answering, (source, path, fetched, signature))


def _route_checked(key: str, members: list[str], now: dt.datetime, answering: list[Answering],
                   found: tuple | None = None) -> tuple[str | None, list[str]]:
    """Route the source once every campaign said to share it is read and found to name it."""
    sharing = []
    for root in members:
        sources = _sources(Path(root))
        if sources is None:
            return f"{key}: not routed: {root} cannot be read (its own line says why); the mail waits in the source", members
        if any(route.source_key(s) == key for s in sources):
            sharing.append(root)
    if len(sharing) < 2 and not any(key in recorded(Path(root)) for root in sharing):
        return None, []  # not shared after all: each campaign's tick reads what it names
    # Shared, or shared once: the one left keeps routing it, or it would take what went to the others.
    if found is None or sharing[0] != members[0]:
        source = next(s for s in _sources(Path(sharing[0])) or [] if route.source_key(s) == key)
        path, fetched = _local(key, source, Path(sharing[0]), now)
        found = (source, path, fetched, fetch.signature(path))
    source, path, fetched, signature = found
    _record([Path(root) for root in sharing], [Path(root) for root in members], key)  # before routing: a kill after it leaves the record a later lone tick needs
    routed = route.route([Path(root) for root in sharing], [path], now, name=str(source),
                         former=[Path(root) for root in members if root not in sharing])
    if routed.answering:  # its replies are built after the ticks, and the source remembered then
        answering.append(Answering([Path(root) for root in sharing], routed.answering, key, signature))
    else:
        route.remember(Path(sharing[0]), key, signature)
    if routed.listed or routed.answered or routed.held or routed.strangers or routed.others:
        quiet.forget(Path(sharing[0]))  # its routed.jsonl grew: its tick tells the GM in the digest
    if not (fetched or routed.anything):
        return None, sharing
    return f"{source}: {fetched}{routed.words}", sharing


def _local(key: str, source: fetch.Source, home: Path, now: dt.datetime) -> tuple[Path, str]:
    """The source as a local path (a shared IMAP mailbox fetched once into HOME/mail/shared/), and what was fetched."""
    if not isinstance(source, fetch.ImapSource):
        if not source.exists():
            raise fetch.FetchError(f"judge.inbox: {source}: no such Maildir, mbox or folder")
        return source, ""
    settings = read_settings(Campaign.open(home))
    password = fetch.imap_password(settings.imap_password_file, home)
    if password is None:
        raise fetch.FetchError(f"no IMAP password: set ${fetch.IMAP_PASSWORD_ENV} or give judge: imap_password_file: in {home}")
    box = compose.mail_dir(home) / "shared" / hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]
    with atomic.locked(home):
        count = fetch.fetch_imap(home, source, password, now, settings.imap_ca_file, settings.imap_mark_seen, into=box)
    return box, (f"{count} fetched; " if count else "")
