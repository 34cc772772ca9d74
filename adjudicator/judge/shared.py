"""The sources that campaigns of one `pbem run` share (design 15, "one judge address, many campaigns"):
each is read once per tick, before the campaigns are ticked, and each message routed to at most one of
them (mail/route.py); each campaign then files what was routed to it as it files any of its mail.

    CAMPAIGN/mail/shared/<key>/   a Maildir: a shared IMAP mailbox fetched once, kept by the first of the
                                  campaigns sharing it (by folder), its UIDs in that campaign's imap.json

A campaign is grouped by its `judge: inbox:` as its quiet cache recorded it (a thousand quiet campaigns
are not opened for this), else as campaign.yaml gives it. A shared source is routed only when every
campaign that shares it can be read (a message for a campaign that cannot be read would go to another
or be answered as ambiguous): until the GM mends it, the mail waits in the source.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from ..campaign.folder import Campaign, CampaignError
from ..common import atomic
from ..mail import compose, fetch, route
from . import quiet
from .settings import JudgeSettings, read_settings


@dataclass
class Sharing:
    """What routing the shared sources of one run did."""

    routed: dict[Path, frozenset[str]] = field(default_factory=dict)
    """For each campaign, its sources that are shared in this run: its tick does not read them itself."""
    lines: list[str] = field(default_factory=list)
    """One line per shared source that had something new, or could not be routed."""
    failed: bool = False


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


def _keys(root: Path) -> list[str]:
    names = quiet.inbox(root)
    if names is not None:
        return names
    return [route.source_key(s) for s in _sources(root) or []]


def groups(roots: list[Path]) -> dict[str, list[Path]]:
    """Each source that more than one of the campaigns names, with those campaigns."""
    readers: dict[str, list[Path]] = {}
    for root in roots:
        for key in dict.fromkeys(_keys(root)):
            readers.setdefault(key, []).append(root)
    return {key: sorted(members) for key, members in sorted(readers.items()) if len(members) > 1}


def route_shared(roots: list[Path], now: dt.datetime) -> Sharing:
    """Route every source the campaigns share; a source that did not change since it was last routed is not read."""
    result = Sharing()
    for key, members in groups(roots).items():
        for root in members:
            result.routed[root] = result.routed.get(root, frozenset()) | {key}
        try:
            line = _route_one(key, members, now)
        except (fetch.FetchError, CampaignError, OSError, ValueError, atomic.Busy) as exc:
            result.failed = True
            line = f"{key}: not routed ({' '.join(str(exc).split())}); its mail waits in it for the next tick"
        if line:
            result.lines.append(line)
    return result


def _route_one(key: str, members: list[Path], now: dt.datetime) -> str | None:
    home = members[0]
    if "://" not in key and route.unchanged(home, key, fetch.signature(key)):
        return None  # a local source named by its real path, unchanged since it was routed: nothing is opened
    source = next((s for s in _sources(home) or [] if route.source_key(s) == key), None)
    if source is None:  # the quiet cache was out of date (a campaign folder copied, say): ask campaign.yaml
        return _route_checked(key, members, now)
    path, fetched = _local(key, source, home, now)
    signature = fetch.signature(path)  # taken before reading: mail that arrives meanwhile is routed next time
    if route.unchanged(home, key, signature):
        return None
    return _route_checked(key, members, now, (source, path, fetched, signature))


def _route_checked(key: str, members: list[Path], now: dt.datetime, found: tuple | None = None) -> str | None:
    """Route the source once every campaign said to share it is read and found to name it."""
    sharing = []
    for root in members:
        sources = _sources(root)
        if sources is None:
            return f"{key}: not routed: {root} cannot be read (its own line says why); the mail waits in the source"
        if any(route.source_key(s) == key for s in sources):
            sharing.append(root)
    if len(sharing) < 2:
        return None  # not shared after all: each campaign's tick reads what it names
    if found is None or sharing[0] != members[0]:
        source = next(s for s in _sources(sharing[0]) or [] if route.source_key(s) == key)
        path, fetched = _local(key, source, sharing[0], now)
        found = (source, path, fetched, fetch.signature(path))
    source, path, fetched, signature = found
    routed = route.route(sharing, [path], now, name=str(source))
    route.remember(sharing[0], key, signature)
    if routed.listed or routed.answered or routed.held or routed.strangers or routed.others:
        quiet.forget(sharing[0])  # its routed.jsonl grew: its tick tells the GM in the digest
    if not (fetched or routed.anything):
        return None
    return f"{source}: {fetched}{routed.words}"


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
