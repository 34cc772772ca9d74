"""`judge:` in campaign.yaml: how `pbem run` treats the campaign (design 11, 12 and 14).

    judge:
      inbox: [~/Maildir/spies, "imaps://spies@mail.example.org/INBOX"]
      imap_password_file: ~/.config/pbem/imap-password   # else $PBEM_IMAP_PASSWORD
      imap_ca_file: ~/.config/pbem/home-server.pem       # a server whose certificate no public CA signed
      imap_mark_seen: false     # flag taken messages \\Seen on the server (the judge never needs it)
      smtp_ca_file: ~/.config/pbem/home-server.pem       # the same for SMTP (else --smtp-ca-file)
      gm_digest: true           # a tick that did something sends the GM one message saying what
      early: true               # adjudicate as soon as every due player has an accepted file
      grace: 2 hours            # after the deadline, wait this long before counting NMRs
      remind: [48 hours, 6 hours]
      mail_passwords: false     # the welcome mail carries each player's password only when true
      preview: false            # true: each turn's reports go to the GM only until pbem release
      absences: auto            # gm (the default): requests go to the GM; auto: the judge grants them
      absence_budget: 7 days    # with auto: per player per game; a granted absence moves a deadline it covers
      takeover: mail            # gm: a `takeover SEAT` by mail only tells the GM, who runs pbem replace
      notify: [discord://webhook_id/webhook_token]   # apprise URLs each public report is posted to (judge/notify.py)

Every key is checked when a tick starts: a typo is refused in words, never ignored.
"""

from __future__ import annotations

import datetime as dt
import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..campaign.folder import Campaign, CampaignError
from ..campaign.schedule import ScheduleError, duration
from ..mail.fetch import FetchError, Source, parse_source
from . import services

_KEYS = ("inbox", "imap_password_file", "imap_ca_file", "imap_mark_seen", "smtp_ca_file", "gm_digest", "early", "grace", "remind",
         "mail_passwords", "press", "press_copy_gm", "abandon_after", "start", "notify",
         "preview", "absences", "absence_budget", "takeover")
"""Every key the design gives `judge:`; press and stand-ins are read by their own parts."""


class JudgeSettingsError(CampaignError):
    """campaign.yaml's judge: section cannot be read; the message says which key and why."""


@dataclass(frozen=True)
class JudgeSettings:
    inbox: tuple[Source, ...] = ()
    imap_password_file: str | None = None
    imap_ca_file: str | None = None
    early: bool = True
    grace: dt.timedelta = dt.timedelta(0)
    remind: tuple[tuple[str, dt.timedelta], ...] = (("24 hours", dt.timedelta(hours=24)),)
    """Each offset before the deadline as written (it names the reminder) and as a span."""
    mail_passwords: bool = False
    imap_mark_seen: bool = False
    smtp_ca_file: str | None = None
    gm_digest: bool = True
    preview: bool = False
    """Each adjudicated turn's reports go to the GM only until `pbem release` (judge/preview.py)."""
    notify: tuple[str, ...] = ()
    """The apprise URLs each adjudicated turn's public report is posted to (judge/notify.py), each checked."""


def _flag(section: dict[str, Any], key: str, default: bool) -> bool:
    value = section.get(key, default)
    if not isinstance(value, bool):
        raise JudgeSettingsError(f"judge.{key}: '{value}' is not true or false")
    return value


def _span(value: Any, where: str) -> dt.timedelta:
    try:
        return duration(value, where)
    except ScheduleError as exc:
        raise JudgeSettingsError(str(exc)) from None


def _path(section: dict[str, Any], key: str, root: Path) -> str | None:
    value = section.get(key)
    if value is None:
        return None
    path = Path(str(value)).expanduser()
    return str(path if path.is_absolute() else root / path)


def _notify(section: dict[str, Any]) -> tuple[str, ...]:
    """`notify:`, one URL or a list, each one apprise can post to: a wrong one is refused before anything is posted."""
    value = section.get("notify") or []
    listed = [value] if isinstance(value, str) else value
    if not isinstance(listed, list):
        raise JudgeSettingsError("judge.notify: must be a list of apprise URLs (discord://..., json://...)")
    for number, url in enumerate(listed, 1):
        why = services.problem(url)
        if why is not None:
            named = f" ({services.shown(url)})" if isinstance(url, str) and "://" in url else ""  # never its path: it holds the token
            raise JudgeSettingsError(f"judge.notify: entry {number}{named} {why}; the judge leaves the campaign alone until it is fixed")
    return tuple(listed)


def read_settings(campaign: Campaign) -> JudgeSettings:
    section = campaign.config.get("judge") or {}
    where = f"{campaign.root / 'campaign.yaml'}: "
    try:
        if not isinstance(section, dict):
            raise JudgeSettingsError("judge: must be a mapping of settings (inbox:, early:, remind:, ...)")
        for key in section:
            if key not in _KEYS:
                close = difflib.get_close_matches(str(key), _KEYS, n=1)
                hint = f" (did you mean '{close[0]}'?)" if close else ""
                raise JudgeSettingsError(f"judge: unknown key '{key}'{hint}; the keys are {', '.join(_KEYS)}")
        inbox = section.get("inbox") or []
        if isinstance(inbox, str):
            inbox = [inbox]
        if not isinstance(inbox, list):
            raise JudgeSettingsError("judge.inbox: must be a list of Maildir or mbox paths and imaps:// addresses")
        try:
            sources = tuple(parse_source(str(entry), campaign.root) for entry in inbox)
        except FetchError as exc:
            raise JudgeSettingsError(str(exc)) from None
        remind = section.get("remind", ["24 hours"])
        if remind is None:
            remind = []
        if not isinstance(remind, list):
            remind = [remind]
        offsets = tuple(sorted({(str(v).strip(), _span(v, "judge.remind")) for v in remind}, key=lambda o: -o[1]))
        grace = _span(section["grace"], "judge.grace") if section.get("grace") not in (None, 0, "0", "none") else dt.timedelta(0)
        if section.get("takeover", "mail") not in ("mail", "gm"):
            raise JudgeSettingsError(f"judge.takeover: '{section.get('takeover')}' is not mail or gm")
        if section.get("absences", "gm") not in ("gm", "auto"):
            raise JudgeSettingsError(f"judge.absences: '{section.get('absences')}' is not gm or auto")
        if section.get("absences") == "auto":
            _span(section.get("absence_budget", "0 days"), "judge.absence_budget")
        return JudgeSettings(
            sources,
            _path(section, "imap_password_file", campaign.root),
            _path(section, "imap_ca_file", campaign.root),
            _flag(section, "early", True),
            grace,
            offsets,
            _flag(section, "mail_passwords", "signup" in campaign.config),  # a sign-up campaign: nobody but the player sees it
            _flag(section, "imap_mark_seen", False),
            _path(section, "smtp_ca_file", campaign.root),
            _flag(section, "gm_digest", True),
            preview=_flag(section, "preview", False),
            notify=_notify(section),
        )
    except JudgeSettingsError as exc:
        raise JudgeSettingsError(where + str(exc)) from None
