"""The deck, the card notation players write, and the strength of a card.

Game constants live here too: how many cards a hand, a round, a Greed exchange has.
"""

from __future__ import annotations

import re
from typing import Any

from ..base import VoidOrder

COLOURS = ("purple", "red", "green")
"""The three suits by colour, in the order we list them (not a ranking)."""
SUIT_NAMES = {"purple": "Pride", "red": "Wrath", "green": "Greed"}
NUMBERS = range(1, 8)
POTIONS = range(2, 6)
DECK = [f"{colour}{n}" for colour in COLOURS for n in NUMBERS] + [f"potion{n}" for n in POTIONS]
HAND = 10
SET_ASIDE = 5
TRICKS = 10
ROUNDS = 3
GREED_CARDS = 2
DEFAULT_NAME = "purple"
"""The colour named for a potion lead when the leader named none (JEKYLL-17)."""

ALIASES = {"purple": "purple", "pride": "purple", "red": "red", "wrath": "red", "green": "green", "greed": "green"}
_COLOUR_CARD = re.compile(r"(purple|pride|red|wrath|green|greed)(\d+)\Z")
_POTION_CARD = re.compile(r"(?:potion(\d+)\+?|(\d+)\+|\+(\d+))\Z")
CARD_FORMS = "a colour and a number (purple5, red7, green1; pride5, wrath7, greed1 work too) or a potion (potion3 or 3+)"


def is_potion(card: str) -> bool:
    return card.startswith("potion")


def colour(card: str) -> str | None:
    return None if is_potion(card) else card.rstrip("0123456789")


def number(card: str) -> int:
    return int(card[len(card.rstrip("0123456789")) :])


def strength(card: str) -> int:
    """Potion n+ beats the colour card n and loses to n+1 (JEKYLL-3): potions sit on the half steps."""
    return 2 * number(card) + (1 if is_potion(card) else 0)


def hand_order(card: str) -> tuple[int, int]:
    """How a hand is listed: purple, red, green, potions; low to high."""
    suit = COLOURS.index(colour(card)) if not is_potion(card) else len(COLOURS)  # type: ignore[arg-type]
    return suit, number(card)


def low_order(card: str) -> tuple[int, tuple[int, int]]:
    """'Lowest card first', used by every default: by strength, ties purple, red, green."""
    return strength(card), hand_order(card)


def sort_hand(cards: list[str]) -> list[str]:
    return sorted(cards, key=hand_order)


def parse_colour(value: Any) -> str:
    text = str(value).strip().casefold() if isinstance(value, str) else ""
    if text in ALIASES:
        return ALIASES[text]
    raise VoidOrder("no_such_colour", f"{shown(value)} is not a colour: name purple (Pride), red (Wrath) or green (Greed)")


def parse_card(value: Any) -> str:
    """A card id (`purple5`, `potion3`) from what a player typed, or a VoidOrder saying why not."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise VoidOrder("no_such_card", f"{shown(value)} is not a card: write {CARD_FORMS}")
    if isinstance(value, int):
        colour_cards = f"add its colour (purple{value}, red{value}, green{value})" if value in NUMBERS else ""
        potion = f"write a potion as {value}+" if value in POTIONS else ""
        raise VoidOrder("no_such_card", f"a bare number ({shown(value)}) is not a card: " + (
            " or ".join(part for part in (colour_cards, potion) if part) or f"there is no card {value}; write {CARD_FORMS}"))
    text = re.sub(r"[\s_-]+", "", value.casefold())
    match = _COLOUR_CARD.match(text)
    if match:
        n = int(match[2]) if len(match[2]) < 4 else 0
        if n not in NUMBERS:
            raise VoidOrder("no_such_card", f"there is no {shown(value)}: colour cards run from 1 to 7")
        return f"{ALIASES[match[1]]}{n}"
    match = _POTION_CARD.match(text)
    if match:
        digits = next(g for g in match.groups() if g is not None)
        n = int(digits) if len(digits) < 4 else 0
        if n not in POTIONS:
            raise VoidOrder("no_such_card", f"there is no {shown(value)}: the potions are 2+, 3+, 4+ and 5+")
        return f"potion{n}"
    raise VoidOrder("no_such_card", f"{shown(value)} is not a card: write {CARD_FORMS}", value)


def shown(value: Any) -> str:
    """What a player wrote, quoted and cut short, for a message about it."""
    text = str(value) if isinstance(value, (str, int)) and not isinstance(value, bool) else type(value).__name__
    text = " ".join(text.split())
    return "'" + (text if len(text) <= 30 else text[:29] + "…") + "'"


def cards_text(cards: list[str]) -> str:
    return ", ".join(cards) if cards else "none"
