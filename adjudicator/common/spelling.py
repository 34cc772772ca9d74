"""Names spelled in plain lower-case ASCII, as their languages write them without marks: the one
spelling that seat ids (campaign/signup.py) and the judge's Message-IDs (mail/compose.py) are made from."""

from __future__ import annotations

import unicodedata

_LATIN_LETTERS = str.maketrans({
    "ł": "l", "ø": "o", "đ": "d", "ð": "d", "ß": "ss", "æ": "ae", "œ": "oe", "þ": "th", "ı": "i",
    "ħ": "h", "ŧ": "t", "ĸ": "k", "ŋ": "ng", "ƒ": "f", "ə": "e", "ɨ": "i",
})
"""Lower-case Latin letters that are letters of their own, not a letter with a mark, so that NFKD
leaves nothing of them in ASCII (Łukasz would become `ukasz`): written as their languages spell them
in ASCII."""


def plain_ascii(text: str) -> str:
    """`text` in lower case with accents dropped and letters such as ł, ø, ß, æ written in ASCII
    (l, o, ss, ae); what has no ASCII spelling (other scripts, symbols) is left out."""
    return unicodedata.normalize("NFKD", text).lower().translate(_LATIN_LETTERS).encode("ascii", "ignore").decode("ascii")
