"""A player's sentence, in the game's words, brought to the one-line form the reader knows (design 17).

"I go for the submarine", "hide me at the power plant", "then satellite", "I pick the blue submarine
and guess anna red satellite", "if gone, the blue submarine": what is taken out has one meaning only
(who speaks, the verb of the phase, articles, "then", "if gone"), so the words left are the order's.
What is left is read by the same forms and the same explanations as the one-line orders, so a word
that is wrong is still named ("'bank' is not a building"). A line that names two buildings where one
is asked is never guessed at: the reader answers with both (HIDE-28).
"""

from __future__ import annotations

import re

from ..wording import WORD_END, plain

_ARTICLE = re.compile(r"\b(?:the|an?|my)\s+", re.IGNORECASE)

_CHOOSE_BUILDING = re.compile(
    r"(?:(?:go(?:ing)?\s+for|goes\s+for|aim(?:ing)?\s+(?:at|for)|target(?:ing|s)?|choose|pick|take|want|"
    r"hide(?:\s+(?:me|myself))?|hiding|search|raid|hit|infiltrate|attack|break\s+into|rob|"
    r"identity(?:\s+die)?(?:\s+(?:is|shows|on))?|target\s+is|my\s+target\s+is|die\s+shows|"
    r"secure|security(?:\s+card)?(?:\s+(?:goes|is))?|put\s+(?:security|the\s+security\s+card)|place\s+(?:security|the\s+security\s+card)|"
    r"guard|protect|strengthen|lock\s+down|the|a|my|at|in|on|to|into|inside|under)"
    rf"{WORD_END}[\s:,-]*)+",
    re.IGNORECASE,
)
"""The verbs and prepositions of the identity and security steps, before the building's name."""

_PICK_VERB = re.compile(
    r"\A(?:pick(?:ing|s)?|take|takes|taking|choose|grab|get|want|go\s+for|going\s+for|have)(?:\s+up)?\s+", re.IGNORECASE
)
_GUESS_LINK = re.compile(
    r"[\s,;]+(?:and\s+|then\s+|,\s*)?(?:i\s+)?(?:guess(?:es)?|shoot(?:s)?(?:\s+at)?|assassinate|accuse)\s+(?:that\s+)?", re.IGNORECASE
)
_GUESS_IS = re.compile(r"(?:'s(?:\s+(?:identity\s+)?die)?\s+is|\s+is|\s+has|\s+as)\s+", re.IGNORECASE)
_TURN_GUN = re.compile(
    r"[\s,;]+(?:and\s+)?(?:turn(?:ed)?\s+(?:it\s+)?(?:in)?to|make\s+it|(?:use|place|put)\s+it\s+as|as)\s+(?:an?\s+)?", re.IGNORECASE
)
_KEEP_GUN = re.compile(r"[\s,;]+(?:and\s+)?keep(?:\s+it)?(?:\s+as\s+(?:a\s+)?gun)?(?=\s|\Z)", re.IGNORECASE)
_GADGET = re.compile(
    r"\A(?:use\s+(?:my\s+)?gadget(?:\s+card)?|gadget(?:\s+card)?)\s*(?::|on|to\s+turn|to\s+change|and\s+turn|and\s+change)?\s+", re.IGNORECASE
)
_GADGET_TO = re.compile(
    r"\s+(?:(?:and\s+)?(?:make|turn)\s+it\s+(?:(?:in)?to\s+)?|(?:in)?to\s+(?:make\s+it\s+|show\s+)?|->\s*|as\s+)(?:an?\s+)?", re.IGNORECASE
)
_LAST_MAN = re.compile(
    r"\A(?:if\s+(?:i'?m|i\s+am)\s+)?(?:the\s+)?last[\s_-]*man(?:\s+standing)?\s*[,:]?\s*"
    r"(?:i\s+)?(?:(?:take|takes|raid|raids|search|go\s+for|goes\s+to|choose|pick)\s+)?(?:(?:the|intel\s+(?:from|of|under|at))\s+)*",
    re.IGNORECASE,
)


def choice(text: str) -> str:
    """An identity or security line as the building's words alone ('I go for the submarine' -> 'submarine')."""
    words = plain(text)
    match = _CHOOSE_BUILDING.match(words)
    return words[match.end():] if match and match.end() < len(words) else words


def mission(text: str) -> str:
    """A mission line in the one-line form: 'I pick the blue gun and turn it to a satellite and guess anna
    is red sat' -> 'pick blue gun as satellite guess anna red sat'."""
    words = plain(text)
    if last := _LAST_MAN.match(words):
        return "last man " + words[last.end():] if last.end() < len(words) else words
    if gadget := _GADGET.match(words):
        rest = _ARTICLE.sub("", words[gadget.end():])
        return "gadget " + _GADGET_TO.sub(" to ", rest, count=1)
    guess = ""
    if link := _GUESS_LINK.search(words):
        named = _ARTICLE.sub("", words[link.end():])
        guess = " guess " + _GUESS_IS.sub(" ", named, count=1)
        words = words[:link.start()]
    verb = _PICK_VERB.match(words)
    die = _ARTICLE.sub("", words[verb.end():] if verb else words)
    die = _TURN_GUN.sub(" as ", _KEEP_GUN.sub(" keep", die), count=1).strip()
    if not die:
        return text.strip()
    return ("pick " if verb else "") + die + guess
