"""The judge's tick for a campaign open for sign-up (design 16): its mail read for `join`,
`leave`, `list`, `observe`, and the start when the last seat is filled (`judge: start: full`,
the default; `start: gm` waits for `pbem start`).

Once started, the campaign is a campaign like any other: the rest of the same tick (judge/run.py)
welcomes each player with their opening report, the first deadline and, in a sign-up campaign
with passwords, their own password (judge/settings.py: `mail_passwords` defaults to true there).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from ..campaign import signup
from ..campaign.folder import Campaign
from ..common.words import plural
from ..mail import compose
from ..mail.signup import handle_sources
from . import letters, shared
from .settings import read_settings


def _sources(root: Path, routed: frozenset[str]) -> list[Path]:
    """What the campaign's tick reads, as its ingest does: a source shared in this run through mail/inbox/."""
    return [s for s in shared.read_by_tick(root, read_settings(Campaign.open(root)), routed) if s.exists()]


def running(root: Path, now: dt.datetime, done: list[str], routed: frozenset[str] = frozenset()) -> list[str]:
    """A started campaign: the messages that carry a sign-up command (`list`, `join` to the waiting list,
    `leave` it, `observe`, `unobserve`, `takeover SEAT`) are answered here, before ingest, which then skips
    them (they are in mail/ingest.jsonl). The caller holds the lock. The facts for the GM's digest."""
    sources = _sources(root, routed)
    handled = handle_sources(root, sources, now, only_commands=True) if sources else []
    said = [h.said for h in handled if h.said]
    if handled:
        done.append(plural(len(handled), "sign-up message"))
    done.extend(said)
    return said


def tick(root: Path, now: dt.datetime, done: list[str], routed: frozenset[str] = frozenset()) -> tuple[bool, list[str]]:
    """Read the open campaign's new mail and start it when it is full: whether it is still open, and the
    facts for the GM's digest (joins, leaves, the start). The caller holds the campaign lock (and has
    fetched IMAP mail into mail/inbox/)."""
    campaign = Campaign.open(root)
    if not signup.is_open(campaign):
        return False, []
    sources = _sources(root, routed)
    handled = handle_sources(root, sources, now) if sources else []
    if handled:
        done.append(plural(len(handled), "sign-up message"))
    facts = [h.said for h in handled if h.said]
    done.extend(facts)
    campaign = Campaign.open(root)
    state = signup.read(campaign)
    if state.full and signup.start_mode(campaign) == "full":
        started = signup.start(root, now)
        facts.append(f"started with {plural(len(started.players), 'player')}" + (f", turn 1 due {started.deadline}" if started.deadline else ""))
        done.append(facts[-1])
        return False, facts
    return True, facts


def digest(root: Path, facts: list[str]) -> None:
    """The GM's digest of a sign-up tick that did something (design 15: joins are in it), while the campaign
    is still signing up; once it starts, the tick's own digest tells them. The caller holds the lock."""
    campaign = Campaign.open(root)
    if not facts or not campaign.gm_email or not read_settings(campaign).gm_digest:
        return
    name, data = letters.digest(campaign, 0, facts)
    compose.write_outbox(root, {name: data})
