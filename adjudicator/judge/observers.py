"""Observers (design 16): each address that wrote `observe` gets each later public report (and the opening's,
when it watched before the start), and nothing else.

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
from ..mail.compose import MailError, to_bytes
from ..mail.reportmail import public_message

FOOTER = "\n\nYou get this as an observer of the game; write unobserve to stop.\n"


def report_messages(campaign: Campaign, turn: int) -> dict[str, bytes]:
    """Turn `turn`'s public report (0: the opening, for those who watched before the start) to each observer,
    as the public report mail is: text, then HTML with the public board inline (design 18)."""
    public = campaign.turn_dir(turn) / "reports" / "public.md"
    watchers = signup.observers(campaign)
    if not watchers or not public.is_file():
        return {}
    what = "the opening" if turn == 0 else f"turn {turn}"
    files = {}
    for address in watchers:
        slug = hashlib.sha256(address.encode("utf-8")).hexdigest()[:12]
        try:
            message = public_message(campaign, turn, f"observe-{slug}", address, f"[{campaign.config.get('name')}] {what}: public report", after=FOOTER)
        except MailError:
            continue  # an address that cannot be written to is skipped; the others get theirs
        files[f"{turn_name(turn)}/observe-{slug}.eml"] = to_bytes(message)
    return files
