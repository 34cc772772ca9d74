"""Observers (design 16): each address that wrote `observe` gets each later public report, and nothing else.

    CAMPAIGN/mail/outbox/turn-NNN/observe-<hash>.eml   the public report of turn NNN, to one observer

Built with the players' reports of the same turn (judge/run.py), from reports/public.md alone: an
observer never gets anything private. One message per observer, addressed to that observer alone,
so no observer learns another's address; its name comes from the address and the report, so
building it again writes nothing and sends nothing.
"""

from __future__ import annotations

import hashlib

from ..campaign import signup
from ..campaign.folder import Campaign, turn_name
from ..mail.compose import MailError, make_message, to_bytes
from ..publish.render import markdown_plain


def report_messages(campaign: Campaign, turn: int) -> dict[str, bytes]:
    public = campaign.turn_dir(turn) / "reports" / "public.md"
    watchers = signup.observers(campaign)
    if not watchers or not public.is_file():
        return {}
    body = markdown_plain(public.read_text(encoding="utf-8")) + "\n\nYou get this as an observer of the game; write unobserve to stop.\n"
    files = {}
    for address in watchers:
        slug = hashlib.sha256(address.encode("utf-8")).hexdigest()[:12]
        try:
            message = make_message(campaign, kind=f"observe-{slug}", turn=turn, to=[("", address)],
                                   subject=f"[{campaign.config.get('name')}] turn {turn}: public report", body=body)
        except MailError:
            continue  # an address that cannot be written to is skipped; the others get theirs
        files[f"{turn_name(turn)}/observe-{slug}.eml"] = to_bytes(message)
    return files
