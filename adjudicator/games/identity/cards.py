"""Card notation and the deck: the written form players type, the colour order, the two copies of each card.

Cards are strings in the written form players type (`blue+2`, `orange-3`,
`black0`); the two copies of a card are interchangeable, so hands and piles are
sorted lists (multisets).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from ..base import VoidOrder
from ..written import BETWEEN_CARDS, as_digits

COLOURS = ("orange", "purple", "blue", "green", "pink")
BLACK = "black"
NUMBERS = (-3, -2, -1, 1, 2, 3, 4)


def card_name(colour: str, number: int) -> str:
    return f"{colour}0" if number == 0 else f"{colour}{number:+d}"


ALL_CARDS: tuple[str, ...] = tuple(card_name(c, n) for c in COLOURS for n in NUMBERS) + (card_name(BLACK, 0),)
_FACE: dict[str, tuple[str, int]] = {card_name(c, n): (c, n) for c in COLOURS for n in NUMBERS}
_FACE[card_name(BLACK, 0)] = (BLACK, 0)
_RANK = {card: i for i, card in enumerate(ALL_CARDS)}


def colour(card: str) -> str:
    return _FACE[card][0]


def number(card: str) -> int:
    return _FACE[card][1]


def sort_cards(cards: list[str]) -> list[str]:
    """Colour order (orange, purple, blue, green, pink, black), then number."""
    return sorted(cards, key=_RANK.__getitem__)


def default_key(card: str) -> tuple[int, int]:
    """IDENTITY-8: the default plays the lowest number; colour order breaks ties."""
    return number(card), _RANK[card]


def playable(card: str, area: list[dict[str, Any]]) -> bool:
    """IDENTITY-6: differs in colour and in number from every face-up card in the play area.

    Written as a plain loop: the stand-in asks it for every card of every imagined trick (imagined.py)."""
    mine = _FACE[card]
    for play in area:
        if play["face_up"]:
            theirs = _FACE[play["card"]]
            if mine[0] == theirs[0] or mine[1] == theirs[1]:
                return False
    return True


def distinct(cards: list[str]) -> list[str]:
    return sort_cards(list(dict.fromkeys(cards)))


def deck(colours: list[str]) -> list[str]:
    """Every card of the colours in play, two copies each, in canonical order (IDENTITY-1)."""
    return [card for card in ALL_CARDS for _ in range(2) if colour(card) in colours]


def remove_cards(hand: list[str], cards: list[str]) -> list[str]:
    rest = list(hand)
    for card in cards:
        rest.remove(card)
    return rest


def holds(hand: list[str], cards: list[str]) -> bool:
    """Whether the hand holds all these cards (a card named twice needs both copies)."""
    have = Counter(hand)
    return all(have[c] >= n for c, n in Counter(cards).items())


_MINUS = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2014": "-"})
_CARD_TEXT = re.compile(r"([a-z]+)\s*[\[(]?\s*([+-]?)\s*(\d+)\s*[\])]?\Z")
_CARD_TOKEN = re.compile(r"[a-z]+\s*[\[(]?\s*[+-]?\s*\d+\s*[\])]?|[^\s,;/]+")
_FILLER = BETWEEN_CARDS | {"+"}
_ARTICLE = re.compile(r"\b(?:the|my|a|an)\s+(?=[+-]?\s*\d|[a-z]+\s*[+-]?\s*\d)")
"""'the +2', 'my blue 4': the article is no part of the card."""
_BARE_NUMBER = re.compile(r"([+-]?)\s*(\d+)\Z")


def read_card(text: str, colours: Any = None) -> str:
    """The canonical card a player means by `text` (IDENTITY-20); a VoidOrder says why not. `colours`:
    the colours of this campaign's deck (its view's `colours`), so that a shortened colour is read among
    them only ('b' is blue in a deck without black); every colour when not given."""
    written = " ".join(str(text).split())
    low = written.lower().translate(_MINUS)
    if bare := _BARE_NUMBER.match(low):
        value = -int(bare[2]) if bare[1] == "-" else int(bare[2])
        example = card_name((colours or COLOURS)[0], value) if value in NUMBERS else "blue+2"
        raise VoidOrder("no_colour", f"'{written}' names no colour: write the card as its colour and number, e.g. {example}", written)
    match = _CARD_TEXT.match(low)
    if not match:
        raise VoidOrder("no_such_card", f"'{written}' is not a card: write a colour and a number, e.g. blue+2, orange-3, black0", written)
    prefix, sign, digits = match.groups()
    named = [c for c in (colours or (*COLOURS, BLACK)) if c.startswith(prefix)]
    absent = [c for c in (*COLOURS, BLACK) if c.startswith(prefix) and len(prefix) >= 3]
    if not named and len(absent) == 1:
        raise VoidOrder("colour_not_in_game", f"'{written}': {absent[0]} is not in this game: its colours are {', '.join(colours[:-1])} and {colours[-1]}")
    if len(named) != 1:
        raise VoidOrder(
            "no_such_card",
            f"'{written}': '{prefix}' is not a colour" if not named
            else f"'{written}': '{prefix}' could be {' or '.join(named)}; write more of the colour",
            written,
        )
    value = -int(digits) if sign == "-" else int(digits)
    card = card_name(named[0], value)
    if card not in _FACE:
        rule = "the only black card is black0" if named[0] == BLACK else f"{named[0]} cards are -3, -2, -1, +1, +2, +3, +4"
        raise VoidOrder("no_such_card", f"'{written}' is not a card: {rule}")
    return card


def read_card_list(text: str, colours: Any = None) -> list[str]:
    """Every card named in a piece of text such as `blue+2, orange -3 and g4` (`colours`: as read_card)."""
    cards = []
    for token in _CARD_TOKEN.findall(_ARTICLE.sub("", as_digits(text).lower().translate(_MINUS))):
        if token not in _FILLER:
            cards.append(read_card(token, colours))
    return cards
