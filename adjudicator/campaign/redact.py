"""Order files with their passwords taken out, for the archive and the export (design 13).

An order file is shown or copied as it was filed, except for the password. The value
after a `password:` key (block or flow style, quoted or bare) becomes `"(removed)"`;
then, as a second net, any password the GM's gm/passwords.yaml knows is replaced
wherever else it appears in the file (a password written under a misspelt key or in a
comment). The file keeps its shape: a line stays a line, so what the report said about
line numbers still points at the same place.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from .folder import read_yaml

REMOVED = "(removed)"

_PASSWORD_VALUE = re.compile(
    r"""(?P<key>["']?password["']?[ \t]*:[ \t]*)(?P<value>"(?:[^"\\\n]|\\.)*"?|'(?:[^'\n]|'')*'?|[^,}\]\n#]*[^,}\]\n# \t])""",
    re.IGNORECASE,
)


def known_passwords(root: Path) -> list[str]:
    """The passwords the GM generated (gm/passwords.yaml: player id -> password), longest first."""
    path = root / "gm" / "passwords.yaml"
    if not path.is_file():
        return []
    try:
        found = read_yaml(path) or {}
    except Exception:  # noqa: BLE001 - a damaged file only loses the second net; the first still holds
        return []
    words = {str(v) for v in found.values() if isinstance(v, (str, int))} if isinstance(found, dict) else set()
    return sorted((w for w in words if len(w) >= 4), key=lambda w: (-len(w), w))


def redact(data: bytes, passwords: Sequence[str] = ()) -> bytes:
    """The order file without its password (see the module's note)."""
    text = data.decode("utf-8", errors="replace")
    text = _PASSWORD_VALUE.sub(lambda m: m.group("key") + f'"{REMOVED}"', text)
    for password in passwords:
        text = text.replace(password, REMOVED)
    return text.encode("utf-8")
