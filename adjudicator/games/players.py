"""The one way every game finds the player an order names (design 5 and 17).

A player is named by id or by display name, in any case, with or without the name's accents
("Carla Diaz" is the seat "Carla Díaz"), or by one word of the display name, as players call each
other at the table ("Konstantinos" or "Papadopoulos" for "Konstantinos Papadopoulos": an outside
trial saw four players of nine write a first name and lose the order). Exact spellings win over
looser ones, so a player can always be named by id even when another player's display name is the
same word: first the id, then the display name, then either with accents folded, then a word of the
display name, accents folded. A spelling that fits several players at the first step where any fits
names them all ("Ed" for "Ed Wu" and "Ed Smith"), and the order is answered with both, never guessed.
"""

from __future__ import annotations

import unicodedata
from typing import Any


def fold(text: str) -> str:
    """Text as it is compared: spaces collapsed, case folded, accents taken off ('Díaz' -> 'diaz')."""
    decomposed = unicodedata.normalize("NFKD", " ".join(str(text).split()).casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def named(players: list[str], names: dict[str, str], written: Any) -> list[str]:
    """The players `written` names, in seat order: one, none, or several when it is ambiguous."""
    wanted = " ".join(str(written).split()).casefold()
    by_id, by_name, folded_id, folded_name, by_word = _directory(players, names)
    for index, key in ((by_id, wanted), (by_name, wanted), (folded_id, fold(wanted)), (folded_name, fold(wanted)), (by_word, fold(wanted))):
        if found := index.get(key):
            return found
    return []


_cache: list[Any] = [None, None, None]


def _directory(players: list[str], names: dict[str, str]) -> tuple[dict[str, list[str]], ...]:
    """The ids, the display names, both with accents folded, and the words of the display names (folded),
    each an index from spelling to players.

    Built once per state, not once per order: every view of one state shares its `names` object, so a
    one-entry cache keyed by that object's identity (and holding it, so the identity cannot be reused)
    keeps a thousand players' thousands of orders linear work."""
    if _cache[0] is not names or _cache[1] is not players:
        indexes: tuple[dict[str, list[str]], ...] = ({}, {}, {}, {}, {})
        for player in players:
            name = " ".join(names[player].split()).casefold()
            for index, key in zip(indexes[:4], (player.casefold(), name, fold(player), fold(name)), strict=True):
                index.setdefault(key, []).append(player)
            words = fold(name).split()
            for word in dict.fromkeys(words) if len(words) > 1 else ():  # a one-word name is found a step above
                indexes[4].setdefault(word, []).append(player)
        _cache[:] = [names, players, indexes]
    return _cache[2]
