"""The envelope lines of a player's mail: `password: ...`, `player: ID` and `campaign: NAME`.

They say who writes and to which game (design 12, 15, 16), never what is asked: a command is the
first line of the sender's own text that is not blank and not one of them, in whatever order they
come above it (`campaign: hyde` / `join Oskar`, `password: ...` / `status`). Sign-up commands
(mail/signup.py) and the seated players' commands (mail/commands.py) find their line here, and a
press text is relayed without them.
"""

from __future__ import annotations

import re

PASSWORD_LINE = re.compile(r"^[ \t]*password[ \t]*:[ \t]*(.*?)[ \t]*$", re.IGNORECASE | re.MULTILINE)
PLAYER_LINE = re.compile(r"^[ \t]*player[ \t]*:[ \t]*(.*?)[ \t]*$", re.IGNORECASE | re.MULTILINE)
CAMPAIGN_LINE = re.compile(r"^[ \t]*campaign[ \t]*:[ \t]*(.+?)[ \t]*$", re.IGNORECASE | re.MULTILINE)
_LINES = (PASSWORD_LINE, PLAYER_LINE, CAMPAIGN_LINE)
_PASSWORD_AFTER = re.compile(r"(?:^|[ \t,;.]+)(?:(?:and|with|my|the|here'?s)[ \t]+)*password[ \t]*:[ \t]*(.*?)[ \t]*$", re.IGNORECASE)
"""A `password:` at the end of a line of words (`I give purple three. password: x7f`): a player on a phone
writes it where the order ends, and it is the password all the same."""
_QUOTES = {'"': '"', "'": "'", "\u201c": "\u201d", "\u201e": "\u201c", "\u2018": "\u2019", "\u00ab": "\u00bb", "\u201d": "\u201d"}
"""Each opening quote with the closing one it takes (a phone writes typographic quotes, German „...“)."""


def unquote(value: str) -> str:
    """An envelope line's value without the quotes around it (`password: "x7f"`, `player: \u201cTony\u201d`)."""
    value = value.strip()
    if len(value) >= 2 and _QUOTES.get(value[0]) == value[-1]:
        return value[1:-1]
    return value


def password_after(line: str) -> tuple[str, str | None]:
    """The line without the `password: ...` that ends it (or is all of it), and that password (None when
    there is none): the words before it are the order, and the password is never quoted back with them."""
    match = _PASSWORD_AFTER.search(line)
    if match is None or not match[1]:
        return line, None
    return line[: match.start()], unquote(match[1])


def is_envelope(line: str) -> bool:
    return any(pattern.match(line) for pattern in _LINES)


def command_line(lines: list[str]) -> int | None:
    """The index of the line a command is looked for in: the first that is neither blank nor an envelope line."""
    return next((n for n, line in enumerate(lines) if line.strip() and not is_envelope(line)), None)


def password_in(text: str) -> str | None:
    """The password a text gives, on a line of its own or at the end of a line of words; None without one."""
    return next((found for line in text.split("\n") if (found := password_after(line)[1]) is not None), None)


def cut(text: str) -> str:
    """The text without its envelope lines and any password at a line's end: those are the judge's, never relayed."""
    kept = [password_after(line)[0] for line in text.split("\n") if not is_envelope(line)]
    return "\n".join(line.rstrip() for line in kept).strip("\n")
