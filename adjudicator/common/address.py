"""Whether a GM's text is an email address that mail can be sent to, in words when it is not.

`pbem new` and `pbem replace` check the addresses they are given at once, so a typo is
named while the GM is typing, not at the first `pbem mail`. The test is a practical one
(RFC 5321's mailbox, not every form RFC 5322 allows): one @, a local part without blanks
or specials, and a domain of dot-separated labels (Unicode letters allowed in both: SMTPUTF8
and IDNA).
"""

from __future__ import annotations

import email.utils
import re

_LOCAL = re.compile(r"[\w!#$%&'*+/=?^`{|}~.-]+\Z")  # letters of any script: SMTPUTF8 delivers them
_LABEL = re.compile(r"(?!-)[\w-]{1,63}(?<!-)\Z")


def address_problem(text: str) -> str:
    """What keeps `text` from being a usable email address; empty when it is one.
    `Name <address>` is an address too (a GM's From often is)."""
    if text.rstrip().endswith(">") and "<" in text and not any(not c.isprintable() for c in text):
        text = email.utils.parseaddr(text)[1] or text
    if not text or any(c.isspace() or not c.isprintable() for c in text):
        return "has a blank or a control character" if text else "is empty"
    if text.count("@") != 1:
        return "needs exactly one @ (like name@example.org)" if "@" in text else "has no @ (an address looks like name@example.org)"
    local, domain = text.split("@")
    if not local or not _LOCAL.match(local) or local.startswith(".") or local.endswith(".") or ".." in local:
        return f"has a part before the @ ('{local}') that mail cannot send to"
    labels = domain.rstrip(".").split(".")
    if len(labels) < 2 or not all(_LABEL.match(label) and "_" not in label for label in labels):
        return f"has a domain ('{domain}') that is not a name like example.org"
    return ""
