"""Card orders as players write them in words: numbers as words ("green two", "purple minus three"), read
as the digits, and the words between the cards of a list ("purple7, then red6 and red5").

The card games' readers (Identity, Jekyll vs Hyde) read a card as a colour and a number; a player on a
phone writes the number as a word as often as not, and a list as a sentence (design 17: sentences in the
game's words). Each of these words has one meaning, so every reader that names cards shares these lists.
"""

from __future__ import annotations

import re

BETWEEN_CARDS = frozenset({"and", "then", "or", "&", "with", "/"})
"""The words that join the cards of a list: no card, and no order of their own."""
_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
_SIGNS = {"plus": "+", "minus": "-", "negative": "-", "positive": "+"}
_NUMBER_WORD = re.compile(
    r"\b(?:(?P<sign>plus|minus|negative|positive)\s+|(?P<mark>[+-])\s*)?(?P<word>" + "|".join(_WORDS) + r")\b", re.IGNORECASE,
)
_SIGN_BEFORE_DIGITS = re.compile(r"\b(plus|minus|negative|positive)\s+(?=\d)", re.IGNORECASE)


def as_digits(text: str) -> str:
    """`text` with each number word written as its digits, its sign word as `+` or `-`: "green two" is
    "green 2", "purple minus three" "purple -3", "minus 2" "-2"; every other word is left as written."""
    def digits(match: re.Match[str]) -> str:
        sign = _SIGNS[match["sign"].casefold()] if match["sign"] else match["mark"] or ""
        return f"{sign}{_WORDS[match['word'].casefold()]}"

    text = _NUMBER_WORD.sub(digits, text)
    return _SIGN_BEFORE_DIGITS.sub(lambda match: _SIGNS[match[1].casefold()], text)
