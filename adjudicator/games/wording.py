"""The words around an order that carry none of it, in every game's sentences (design 17).

"I'll hide in the bathtub.", "Hide me under the bed please.", "SID 1 steals David's 8, please": who
speaks, please, a full stop, "then" or "if it's gone" before a later choice say nothing the order needs,
so each game's reader takes them off before it reads the words left (`plain`), and one line reads as
well with its politeness as without it. What is left is the game's own words, read by its own forms,
so a word that is wrong is still named.
"""

from __future__ import annotations

import re

WORD_END = r"(?![\w'])"
"""The end of a word: no letter and no apostrophe follows (the 'I' of "I'll" is no word of its own)."""

_OPENING = re.compile(
    r"(?:(?:then|next|else|otherwise|or(?:\s+else)?|and|also|failing\s+that|instead|but|"
    r"if\s+(?:(?:it'?s|it\s+is|that'?s|that\s+is|they'?re|they\s+are)\s+)?(?:gone|taken|not\s+there|not\s+possible|secured)|"
    r"if\s+(?:not|i\s+can'?t|i\s+cannot)|"
    r"(?:my\s+)?(?:first|second|third|next|1st|2nd|3rd|backup|fallback)(?:\s+(?:choice|pick|option))?(?:\s+is)?|"
    r"i|i'?ll|i\s+will|i'?d|i\s+would|i\s+want(?:\s+to)?|i'?d\s+like(?:\s+to)?|i\s+would\s+like(?:\s+to)?|"
    r"let\s+me|please|my\s+orders?(?:\s+is|\s+are)?|ok(?:ay)?)"
    rf"{WORD_END}[\s,:;-]*)+",
    re.IGNORECASE,
)
"""Words before the order that say only who speaks or that this is a later choice."""

_CLOSING = re.compile(
    r"(?:[\s,;]+(?:please|thanks|first|instead|if\s+(?:i\s+)?(?:can'?t|cannot|not|possible|gone|(?:it'?s|it\s+is|that'?s)\s+(?:gone|taken)))"
    rf"{WORD_END})+\s*[.!]*\s*\Z|\s*[.!]+\s*\Z",
    re.IGNORECASE,
)
"""Words after the order that add nothing to it ("please", "if I can't", a full stop)."""


def plain(text: str) -> str:
    """The sentence without the words that say only who speaks, that it is a later choice, or please."""
    words = " ".join(text.split())
    before = None
    while before != words:
        before = words
        words = _OPENING.sub("", words, count=1) if _OPENING.match(words) else words
        words = _CLOSING.sub("", words)
    return words.strip(" ,;:-")
