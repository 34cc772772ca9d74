"""Lines of a player's mail that are plainly not orders: greetings, thanks, sign-offs, questions, lines
that only point at the orders ("see below", "my orders:"), a player saying they are back ("I am back now") and the
signature a phone adds (design 17);
kisses sign off too ("xx Maxi", "Maxi xx").

A mail of plain sentences is read line by line as orders, each without the chatter it starts with
("Oops.", "Sorry, I was away!"). A line that is none of the lines below is
taken as an order the player meant to give, so one the game cannot read is answered with why and
what happens instead, never dropped in silence; the lines below are the only ones left out unsaid.
The list is closed and short on purpose: a line wrongly taken for chatter would be an order lost
without a word, while a line wrongly taken for an order only earns a line of explanation.
"""

from __future__ import annotations

import re

from .inbox import CLIENT_SIGNATURE

_WORDS = r"(?:[ \t,.!]+[^\s,.!]+){0,3}"
"""Up to three words after the phrase: `Hi GM`, `Thanks a lot`, `Cheers, Dora`."""
_END = r"[ \t,.!:;)(-]*$"
_OPENER = (
    r"(?:(?:hi|hello|hey|hiya|dear|greetings|howdy|good (?:morning|afternoon|evening)|moin|hallo|ciao|salut|bonjour)"
    r"|(?:many |big )?(?:thanks|thank you|thx|ty|cheers|ta)"
    r"|(?:best|kind|warm)?[ \t]*(?:regards|wishes)"
    r"|(?:sorry|oops|whoops|apologies)"
    r"|(?:best|all the best|bye|see you|see ya|cu|good luck|gl|hf|have fun|take care|love|yours|sincerely|x{1,4}))\b"
)
"""A greeting, thanks, an apology or a sign-off, which a few words may follow (`_WORDS`)."""
_I_AM = r"(?:i[ \t]*['’]?[ \t]*m|i[ \t]+am)[ \t]+"
_BACK = (r"(?:" + _I_AM + r")?back(?:[ \t]+(?:again|now|home|online))+"
         r"|" + _I_AM + r"back(?:[ \t]+for[ \t]+(?:a[ \t]+(?:bit|while)|now|good))?")
"""A player saying they are back ("I'm back", "I am back now", "back again", "I'm back for a bit"; trial 8 read "I am back now." as a
hiding place): never an order, whose words would follow on the line. "back" alone is not on the list: a line of
one word is more likely an order the game cannot read, which is answered, than a greeting, which is not."""
_CHATTER = re.compile(
    r"^(?:" + _OPENER + _WORDS
    + r"|see (?:the )?(?:below|above|attached|attachments?)|(?:the )?same as (?:before|last (?:time|turn))|as before|here (?:are|is|you go|they are)\b" + _WORDS
    + r"|please find\b.*|attached\b.*"
    + r"|" + _BACK
    + r")" + _END,
    re.IGNORECASE,
)
_OPENED = re.compile(
    r"^(?:" + _OPENER + r"(?:[ \t]+[^\s,.!:;]+){0,2}|" + _I_AM + r"back)[ \t]*[,:;-]+[ \t]*(?P<rest>\S.*)$", re.IGNORECASE
)
"""An opener (and a word or two: "Hi all") or "I'm back" set off by a comma from the words after it: "Hi, bid
blue+2 orange-3", "Cheers, Dora", "I'm back, sorry about that"."""
_ASIDE = re.compile(
    r"^(?:(?:just )?(?:a )?(?:quick|short) one|here (?:goes|we go)|(?:sorry,? )?(?:in a (?:rush|hurry)"
    r"|(?:typing |writing |sent )?(?:on|from) (?:my|the) (?:phone|mobile|tablet|train|bus|tram|plane|airport)))"
    + _WORDS + _END,
    re.IGNORECASE,
)
"""A line about the writing of the mail or leading into it: "Quick one from the train.", "Sorry, on my phone.",
"Here goes:" (trial 9: answered VOID above the orders). Unlike the lines above, left out only where the game does
not read it and the rest of the mail holds orders (mail/sentences.py): alone, it is answered as any line is."""
_NO_WORD = re.compile(r"^[^\w]*$")
_ABOUT_ORDERS = re.compile(r"\borders?\b", re.IGNORECASE)
"""A line that speaks of the orders ("my orders are attached", "orders in the HTML version") with no number
in it talks about them rather than giving one: no game's order needs the word, and most need a number."""


_KISSES = re.compile(r"(?:[ \t]+x{1,4})+[ \t.!]*$", re.IGNORECASE)
"""Kisses after a name that signs a mail ("Maxi xx"); before it, they are a sign-off of the list above ("xx Maxi")."""


_LEADING_SENTENCE = re.compile(r"(.+?[.!])\s+(?=\S)")


def without_lead(line: str, names: tuple[str, ...] = ()) -> str:
    """`line` without the sentences of chatter it starts with: "Oops. bid green 4 and purple 3" is the order
    "bid green 4 and purple 3", as "Sorry, I was away! trick 3: ..." is "trick 3: ..." (a trial's players)."""
    while (lead := _LEADING_SENTENCE.match(line)) and _alone(lead[1], names):
        line = line[lead.end():]
    return line


def after_opener(line: str) -> str | None:
    """The words after an opener and its comma ("bid blue+2 orange-3" of "Hi, bid blue+2 orange-3"), or None.

    A few words after a greeting are chatter by the list above ("Hi, all", "Cheers, Dora"), yet a short order
    fits in as few ("Hi, bid blue 2"), and no game reads an order that starts "Hi,": the reader of the seat's
    orders decides (mail/sentences.py), for a line taken for chatter that reads as an order is an order lost
    without a word."""
    found = _OPENED.match(" ".join(line.split()))
    return found["rest"] if found else None


def chatter(line: str, names: tuple[str, ...] = ()) -> bool:
    """Whether `line` is plainly not an order: a greeting, thanks or a sign-off, a question, a line about
    the orders with no number in it, a phone's signature, a line of punctuation only, or the sender
    signing with one of `names` (their id, display name or its first word). After a sentence of chatter
    the rest of the line decides: "Oops. bid green+4 orange+4" is an order, "Hi. Thanks!" is not."""
    rest = without_lead(" ".join(line.split()), names)
    opened = after_opener(rest)  # "Hi all, I'm back for a bit!", "I'm back, sorry about that": chatter after chatter
    return _alone(rest, names) or (opened is not None and _alone(opened, names))


def aside(line: str) -> bool:
    """Whether `line` is an aside about the mail itself (`_ASIDE`), which the seat's orders around it make chatter."""
    return bool(_ASIDE.match(" ".join(line.split())))


def _alone(line: str, names: tuple[str, ...]) -> bool:
    """Whether `line`, taken whole, is one of the lines of chatter above."""
    text = " ".join(line.split())
    if _NO_WORD.match(text) or text.endswith("?") or _CHATTER.match(text) or CLIENT_SIGNATURE.match(text):
        return True
    if _ABOUT_ORDERS.search(text) and not any(c.isdigit() for c in text):
        return True
    signed = _KISSES.sub("", text).strip(" -,.!").casefold()  # "Maxi xx" signs as "Maxi" does
    return any(signed == name.casefold() for name in names if name)
