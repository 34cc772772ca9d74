"""The physical pieces of H.I.D.E. and the names players use for them.

What the rulebook leaves out (how many buildings, what a die shows, the intel
card values) is fixed here and documented as decisions in docs/rules/hide.md.
"""

from __future__ import annotations

from typing import Any

BUILDINGS = ("army-base", "satellite", "submarine", "power-plant")
"""The four buildings, from the far left of the board to the right (HIDE-1)."""
GUN = "gun"
ICONS = (*BUILDINGS, GUN)
FACES = (*BUILDINGS, GUN, GUN)
"""The six faces of every die: one per building and two guns (HIDE-2). A roll of n shows FACES[n - 1]."""
COLOURS = ("red", "blue", "green", "yellow")
"""The four dice colours (HIDE-3)."""
DICE_PER_COLOUR = {3: 6, 4: 7, 5: 8}
"""Setup step 1: dice taken of each colour, by the number of players."""
RANK_CARDS = 23
LEGEND_RANK = 7
GADGET_CARDS = tuple(b for b in BUILDINGS for _ in range(2))
"""Eight gadget cards, each showing a building, two of each (HIDE-4)."""
MISSION_TURNS = 4
ROUNDS = 3
DEFAULT_INTEL = "1,1,1,1,2,2,2,2,3,3,3,3,4,4,5,5"
"""The sixteen intel card values (HIDE-5); a GM may give another table as an option."""
INTEL_CARDS = 16

Die = dict[str, str]
"""A die as it lies: {"colour": "red", "icon": "satellite"}."""

_ICON_WORDS = {
    "army-base": "army-base", "army base": "army-base", "army_base": "army-base", "armybase": "army-base",
    "army": "army-base", "base": "army-base",
    "satellite": "satellite", "sat": "satellite",
    "submarine": "submarine", "sub": "submarine",
    "power-plant": "power-plant", "power plant": "power-plant", "power_plant": "power-plant",
    "powerplant": "power-plant", "plant": "power-plant", "power": "power-plant",
    "gun": "gun", "guns": "gun",
}
_COLOUR_WORDS = {c: c for c in COLOURS} | {"r": "red", "b": "blue", "g": "green", "y": "yellow"}


def icon_of(word: str) -> str | None:
    """A canonical icon from what a player wrote ('Power Plant', 'sub', 'gun'), or None."""
    key = " ".join(word.strip().casefold().replace("_", " ").replace("-", " ").split())
    return _ICON_WORDS.get(key) or _ICON_WORDS.get(key.replace(" ", "-"))


def colour_of(word: str) -> str | None:
    return _COLOUR_WORDS.get(word.strip().casefold())


def words(icon: str) -> str:
    """An icon as people write it: 'army base', 'gun'."""
    return icon.replace("-", " ")


def die_words(die: Die) -> str:
    return f"{die['colour']} {words(die['icon'])}"


def die(colour: str, icon: str) -> Die:
    return {"colour": colour, "icon": icon}


def die_key(d: Die) -> tuple[int, int]:
    """Dice sort by colour, then icon, so a pool always lists the same way."""
    return COLOURS.index(d["colour"]), ICONS.index(d["icon"])


def shares_feature(d: Die, identity: Die) -> bool:
    """A die goes on top of the screen when it shares its colour or its icon with the identity die."""
    return d["colour"] == identity["colour"] or d["icon"] == identity["icon"]


def parse_intel(text: str) -> list[int]:
    """The intel option: sixteen whole numbers separated by commas (HIDE-5)."""
    parts = [p.strip() for p in str(text).split(",") if p.strip()]
    try:
        values = [int(p) for p in parts]
    except ValueError:
        raise ValueError(f"option intel_values needs {INTEL_CARDS} whole numbers separated by commas, not '{text}'") from None
    if len(values) != INTEL_CARDS or any(v < 0 or v > 99 for v in values):
        raise ValueError(f"option intel_values needs exactly {INTEL_CARDS} numbers from 0 to 99, not '{text}'")
    return sorted(values)


def richest(buildings: dict[str, list[int]], allowed: Any = BUILDINGS) -> str:
    """The building whose intel cards add up highest; ties go to the leftmost (the NMR defaults)."""
    allowed = [b for b in BUILDINGS if b in allowed]
    return max(allowed, key=lambda b: (sum(buildings[b]), -BUILDINGS.index(b)))


def rotation(players: list[str], first: str) -> list[str]:
    """Every player in clockwise (seat) order, beginning with `first`."""
    i = players.index(first)
    return players[i:] + players[:i]
