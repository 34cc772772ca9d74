"""Order text as phones and mail programs leave it, read as the player meant it (design 17).

One reading for every route: a mail body, an attachment, an order file in the
turn folder and `pbem check FILE` all go through `load`, so a file reads the same
wherever it came from. What is tidied has one meaning only:

- typographic quotes and apostrophes (autocorrect's “…”, ‘…’, „…“, «…») become
  straight ones; a straight quote never means anything else in an order form;
- list markers from phones and word processors (`–`, `—`, `•`, `·`, `*`, `‐`, `−`)
  at the start of a line become YAML's `- `;
- non-breaking and other wide spaces become spaces, and tabs in a line's
  indentation become spaces (four to a tab stop, as editors show them).

Only the start of a line and the quote characters are touched, so every line
keeps its number: an error still points at the line the player wrote. When the
tidied text is not YAML but the text as written is, the text as written is read.
"""

from __future__ import annotations

import re
from typing import Any

from . import yamlsafe

_DOUBLE = str.maketrans({"\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u00ab": '"', "\u00bb": '"',
                         "\u2033": '"'})
_SINGLE = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'"})
_WIDE_SPACES = str.maketrans({"\u00a0": " ", "\u202f": " ", "\u2007": " ", "\u2009": " ", "\u3000": " "})
_LEAD = re.compile(r"[ \t]*")
_MARKER = re.compile(r"(?:[\u2013\u2014\u2022\u00b7\u2010\u2011\u2212\u25aa\u25cf\u25e6]|\*(?![*\w]))[ \t]+")
"""A list marker other than `-` at the start of a line's text, with the blank after it. A `*` directly
followed by a letter is left alone (YAML's alias, refused by name by the loader)."""


def tidy(text: str) -> str:
    """The text with the phone and mail-program habits above undone; line numbers unchanged."""
    text = text.translate(_WIDE_SPACES).translate(_DOUBLE).translate(_SINGLE)
    lines = []
    for line in text.split("\n"):
        lead = _LEAD.match(line).group(0)  # type: ignore[union-attr]
        rest = line[len(lead):]
        if "\t" in lead:
            lead = lead.expandtabs(4)
        marker = _MARKER.match(rest)
        if marker:
            rest = "- " + rest[marker.end():]
        lines.append(lead + rest)
    return "\n".join(lines)


def load(data: bytes | str) -> Any:
    """The YAML document in `data`, read as the player meant it (see the module's words);
    yamlsafe.YamlError when neither the tidied text nor the text as written is YAML."""
    if isinstance(data, bytes):
        if len(data) > yamlsafe.MAX_BYTES:
            return yamlsafe.load(data)  # the size limit's own words
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return yamlsafe.load(data)  # the loader says how the file is saved
    else:
        text = data
    tidied = tidy(text.replace("\r\n", "\n").replace("\r", "\n"))
    if tidied == text:
        return yamlsafe.load(data)
    try:
        return yamlsafe.load(tidied)
    except yamlsafe.YamlError as tidied_error:
        try:
            return yamlsafe.load(data)
        except yamlsafe.YamlError:
            raise tidied_error.as_written(text) from None
