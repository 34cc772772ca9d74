"""The apprise library, loaded quietly, and the check of a `judge: notify:` URL against it.

apprise speaks to Discord, Slack, Matrix, Telegram, a JSON webhook, mail and a hundred more
services, each named by its URL scheme (`discord://webhook_id/webhook_token`); whether a URL
is one it can post to is apprise's to say, so the check asks it, once per URL, when the
settings are read (judge/settings.py), before anything is posted.
"""

from __future__ import annotations

import warnings
from functools import cache
from typing import Any
from urllib.parse import urlsplit


@cache
def apprise() -> Any:
    """The apprise module with its service plugins loaded (once per process; only a campaign with
    `judge: notify:` pays for it)."""
    # apprise's e-mail plugin imports `imghdr` (for PGPy) when its plugins load, and Python 3.11
    # warns that imghdr goes away in 3.13: a warning about apprise's code, not ours, that would
    # print on the GM's terminal at every tick. Silenced for that one warning and that moment only.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="'imghdr' is deprecated", category=DeprecationWarning)
        import apprise as library

        library.Apprise.instantiate("json://localhost", suppress_exceptions=True)  # loads every plugin now, inside the filter
    return library


def shown(url: str) -> str:
    """A URL as the GM's messages name it: its scheme and host, never its path or token."""
    try:
        parts = urlsplit(url)
        return f"{parts.scheme}://{parts.hostname or ''}"
    except ValueError:
        return f"{url.partition('://')[0]}://"


def problem(url: object) -> str | None:
    """Why `url` is not a URL apprise can post to, or None when it is (in words that never repeat
    the URL's path or token)."""
    if not isinstance(url, str) or "://" not in url:
        return "is not a URL in apprise's form (discord://..., slack://..., json://HOST/PATH, mailto://...)"
    scheme = url.partition("://")[0].lower()
    if scheme not in _schemes():
        return f"{scheme}:// is not a scheme apprise knows (discord://, slack://, matrix://, tgram://, json://, mailto://, ...)"
    if apprise().Apprise.instantiate(url, suppress_exceptions=True) is None:
        return f"is a {scheme}:// URL apprise cannot read: a part is missing or malformed (see the service's page in apprise's documentation for its form)"
    return None


@cache
def _schemes() -> frozenset[str]:
    """Every scheme of apprise's enabled service plugins."""
    from apprise.manager_plugins import NotificationManager

    apprise()
    return frozenset(str(s).lower() for s in NotificationManager().schemas(include_disabled=False))
