"""Reading orders: canonical mappings or the short written forms, for each phase.

Reading sees only the player's own view (their identity die included), so a
player running `pbem check` learns where each listed die would land and which
guess would be made, and nothing about anyone else.
"""

from __future__ import annotations

import re
from typing import Any

from ..base import Reading, View
from .components import (
    COLOURS,
    GUN,
    Die,
    colour_of,
    die_words,
    icon_of,
    shares_feature,
    words,
)
from .mission import placed_die

_ICON = r"army[\s_-]*base|army|base|satellite|sat|submarine|sub|power[\s_-]*plant|plant|power|guns?"
_COLOUR = "|".join(COLOURS)
_PICK = re.compile(
    rf"\s*(?:pick|take)?\s*({_COLOUR})\s+({_ICON})"
    rf"(?:\s+(?:as|turn(?:ed)?(?:\s+to)?|to|->)\s+({_ICON})|\s+(keep))?"
    rf"(?:\s+guess(?:es)?\s+(.+?))?\s*\Z",
    re.IGNORECASE,
)
_GUESS = re.compile(rf"\s*(.+?)\s+({_COLOUR})\s+({_ICON})\s*\Z", re.IGNORECASE)
_GADGET = re.compile(rf"\s*gadget\s+({_COLOUR})\s+({_ICON})\s+(?:to|as|->)\s+({_ICON})\s*\Z", re.IGNORECASE)
_LAST_MAN = re.compile(rf"\s*last[\s_-]*man\s+({_ICON})\s*\Z", re.IGNORECASE)
_TARGET = re.compile(rf"\s*(?:target|identity|security)?\s*({_ICON})\s*\Z", re.IGNORECASE)

MISSION_FORMS = ("'pick red satellite', 'pick blue gun as submarine guess bruno green army base', "
                 "'gadget yellow gun to satellite' or 'last man power plant'")


class Unreadable(ValueError):
    """An order that cannot be understood; the message says what is wrong in plain words."""


# -- shared pieces -------------------------------------------------------------


def find_player(view: View, named: str) -> str | None:
    """A player by id or display name, ignoring case; an id wins, a shared display name names nobody (HIDE-28)."""
    wanted = str(named).strip().casefold()
    by_id = [p for p in view["players"] if p.casefold() == wanted]
    by_name = [p for p in view["players"] if view["names"][p].casefold() == wanted]
    if by_id:
        return by_id[0]
    return by_name[0] if len(by_name) == 1 else None


def _icon(word: Any, what: str) -> str:
    icon = icon_of(str(word))
    if icon is None:
        raise Unreadable(f"'{word}' is not an icon ({what}: army base, satellite, submarine, power plant or gun)")
    return icon


def _building(word: Any, what: str) -> str:
    icon = _icon(word, what)
    if icon == GUN:
        raise Unreadable(f"{what} must be a building (army base, satellite, submarine or power plant), not a gun")
    return icon


def _colour(word: Any) -> str:
    colour = colour_of(str(word))
    if colour is None:
        raise Unreadable(f"'{word}' is not a dice colour (red, blue, green or yellow)")
    return colour


def _die(spec: Any) -> Die:
    if isinstance(spec, dict):
        return {"colour": _colour(spec["colour"]), "icon": _icon(spec["icon"], "a die's icon")}
    match = re.fullmatch(rf"\s*({_COLOUR})\s+(.+?)\s*", str(spec), re.IGNORECASE)
    if not match:
        raise Unreadable(f"'{spec}' does not name a die: write its colour and icon, e.g. 'red satellite'")
    return {"colour": match[1].lower(), "icon": _icon(match[2], "a die's icon")}


# -- mission -------------------------------------------------------------------


def parse_mission(item: Any) -> dict[str, Any]:
    """A mission item as a mapping with the player's words still in it."""
    if isinstance(item, dict):
        return item
    text = str(item)
    for pattern, build in (
        (_GADGET, lambda m: {"gadget": {"die": {"colour": m[1], "icon": m[2]}, "to": m[3]}}),
        (_LAST_MAN, lambda m: {"last_man": m[1]}),
        (_PICK, _pick_from_match),
    ):
        match = pattern.fullmatch(text)
        if match:
            return build(match)
    raise Unreadable(f"not understood: write {MISSION_FORMS}")


def _pick_from_match(m: re.Match[str]) -> dict[str, Any]:
    order: dict[str, Any] = {"pick": {"colour": m[1], "icon": m[2]}}
    if m[3] or m[4]:
        order["gun"] = m[3] or "keep"
    if m[5]:
        guesses = []
        for part in re.split(r"\s+or\s+", m[5], flags=re.IGNORECASE):
            g = _GUESS.fullmatch(part)
            if not g:
                raise Unreadable(f"the guess '{part}' must be a player, a colour and an icon, e.g. 'bruno red satellite'")
            guesses.append({"player": g[1], "colour": g[2], "icon": g[3]})
        order["guess"] = guesses
    return order


def read_mission(view: View, player: str, parsed: list[tuple[Reading, Any]]) -> None:
    """Each item of a mission preference list: a pick, a gadget use or the last man's building."""
    seen_last_man = False
    for reading, item in parsed:
        try:
            raw = parse_mission(item)
            if "pick" in raw:
                reading.order, reading.meaning = _read_pick(view, player, raw)
            elif "gadget" in raw:
                reading.order, reading.meaning = _read_gadget(view, player, raw["gadget"])
            else:
                building = _building(raw["last_man"], "the last man's building")
                if seen_last_man:
                    raise Unreadable("only your first last-man order counts")
                seen_last_man = True
                reading.order = {"last_man": building}
                reading.meaning = (f"if everyone else is assassinated this turn, you take the intel under the "
                                   f"{words(building)}")
        except Unreadable as exc:
            reading.void = str(exc)


def _read_pick(view: View, player: str, raw: dict[str, Any]) -> tuple[dict[str, Any], str]:
    identity = view["identity"]
    chosen = _die(raw["pick"])
    order: dict[str, Any] = {"pick": chosen}
    gun = raw.get("gun")
    if gun is not None:
        if chosen["icon"] != GUN:
            raise Unreadable(f"only a gun die can be turned; the {die_words(chosen)} is placed as it shows")
        gun = "keep" if str(gun).strip().casefold() == "keep" else _icon(gun, "what to turn the gun to")
        if gun == GUN:
            gun = "keep"
        if gun == "keep" and chosen["colour"] == identity["colour"]:
            raise Unreadable(f"a gun die of your own colour ({identity['colour']}) must be turned to a building")
        order["gun"] = gun
    raw_guesses = raw.get("guess")
    if raw_guesses is not None:
        order["guess"] = [_read_guess(view, player, g) for g in (raw_guesses if isinstance(raw_guesses, list) else [raw_guesses])]
    placed = placed_die(chosen, order.get("gun"), identity)
    top = shares_feature(placed, identity)
    meaning = f"take the {die_words(chosen)}"
    if chosen not in view["pool"]:
        meaning += " (none in the pool now: only if a gadget makes one before your pick)"
    if placed != chosen:
        meaning += f", turned to {words(placed['icon'])},"
    meaning += " and place it " + ("ON TOP of your screen" if top else "in front of your screen")
    if top and order.get("guess"):
        meaning += "; then guess " + " or else ".join(
            f"{view['names'][g['player']]}'s die is {die_words(g)}" for g in order["guess"])
    elif top:
        meaning += ("; you name no guess, so the default guess is made (the next player still in, as the "
                    "die you placed)" if view["assassination"] == "mandatory" else "; you make no guess")
    elif order.get("guess"):
        meaning += "; no assassination attempt from in front of the screen, so your guess is not used"
    return order, meaning


def _read_guess(view: View, player: str, raw: Any) -> dict[str, str]:
    if isinstance(raw, str):
        match = _GUESS.fullmatch(raw)
        if not match:
            raise Unreadable(f"the guess '{raw}' must be a player, a colour and an icon, e.g. 'bruno red satellite'")
        raw = {"player": match[1], "colour": match[2], "icon": match[3]}
    target = find_player(view, raw["player"])
    if target is None:
        known = ", ".join(f"{p} ({view['names'][p]})" for p in view["players"])
        raise Unreadable(f"there is no player called '{raw['player']}' (players: {known})")
    if target == player:
        raise Unreadable("you cannot guess your own identity die")
    if target in view["out"]:
        raise Unreadable(f"{view['names'][target]} is already out of this round")
    return {"player": target, "colour": _colour(raw["colour"]),
            "icon": _building(raw["icon"], "a guessed identity die's icon")}


def _read_gadget(view: View, player: str, raw: dict[str, Any]) -> tuple[dict[str, Any], str]:
    if player in view["gadget_used"]:
        raise Unreadable("you have already used your gadget card this round")
    target = _die(raw["die"])
    to = _icon(raw["to"], "the new icon")
    if to == target["icon"]:
        raise Unreadable(f"the gadget must change the die's icon, and the {die_words(target)} already shows {words(to)}")
    meaning = f"after your pick, use your gadget: turn a {die_words(target)} left in the pool to {words(to)}"
    if target not in view["pool"]:
        meaning += " (none in the pool now)"
    return {"gadget": {"die": target, "to": to}}, meaning


# -- identity and security -------------------------------------------------------


def read_choice(view: View, player: str, phase: str, parsed: list[tuple[Reading, Any]]) -> None:
    """The identity building (a preference list), or the secured building (one order)."""
    key = "target" if phase == "identity" else "security"
    first = True
    for reading, item in parsed:
        try:
            word = item.get(key) if isinstance(item, dict) else _word_of(item)
            if word is None:
                raise Unreadable(f"in the {phase} phase write '{{{key}: satellite}}' or just a building's name")
            building = _building(word, "a target" if phase == "identity" else "the secured building")
            if phase == "identity" and building == view["security"]:
                raise Unreadable(f"the {words(building)} is secured this round, so no identity die may show it")
            if phase == "security" and not first:
                raise Unreadable("only your first security order counts")
            first = False
            reading.order = {key: building}
            reading.meaning = (f"your identity die shows the {words(building)}: your target this round"
                               if phase == "identity" else f"the security card goes on the {words(building)}")
        except Unreadable as exc:
            reading.void = str(exc)
    if phase == "identity":
        kept = [r for r, _ in parsed if r.order is not None]
        for later in kept[1:]:
            later.meaning += f" (if the {words(kept[0].order['target'])} cannot be chosen)"


def _word_of(item: Any) -> str:
    match = _TARGET.fullmatch(str(item))
    if not match:
        raise Unreadable(f"'{item}' is not a building: write army base, satellite, submarine or power plant")
    return match[1]


def write(item: Any) -> str:
    """An order in one line, for echoing back to the player."""
    if isinstance(item, str):
        return item.strip()
    if not isinstance(item, dict):
        return str(item)
    if "pick" in item:
        d = item["pick"]
        text = f"pick {d.get('colour')} {d.get('icon')}" if isinstance(d, dict) else f"pick {d}"
        if "gun" in item:
            text += f" as {item['gun']}" if item["gun"] != "keep" else " keep"
        guesses = item.get("guess")
        if isinstance(guesses, dict):
            guesses = [guesses]
        if isinstance(guesses, list) and guesses:
            text += " guess " + " or ".join(
                f"{g.get('player')} {g.get('colour')} {g.get('icon')}" if isinstance(g, dict) else str(g) for g in guesses)
        return text
    if "gadget" in item and isinstance(item["gadget"], dict):
        d = item["gadget"].get("die")
        d = f"{d.get('colour')} {d.get('icon')}" if isinstance(d, dict) else d
        return f"gadget {d} to {item['gadget'].get('to')}"
    if "last_man" in item:
        return f"last man {item['last_man']}"
    key = next(iter(item), "?")
    return f"{key} {item.get(key)}"

