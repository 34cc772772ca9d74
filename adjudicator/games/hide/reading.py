"""Reading orders: canonical mappings or the short written forms, for each phase.

Reading sees only the player's own view (their identity die included), so a
player running `pbem check` learns where each listed die would land and which
guess would be made, and nothing about anyone else.
"""

from __future__ import annotations

import re
from typing import Any

from .. import players
from ..base import Reading, View, VoidOrder, others_stand
from .components import (
    BUILDINGS,
    COLOURS,
    GUN,
    ICONS,
    Die,
    colour_of,
    die_words,
    icon_of,
    richest,
    shares_feature,
    words,
)
from .mission import placed_die
from .sentences import choice, mission

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
_TARGET = re.compile(rf"\s*(?:(?:target|identity|security)\s*:?)?\s*({_ICON})\s*\.?\s*\Z", re.IGNORECASE)

_TURN_WORDS = ("as", "to", "->", "turn", "turned")


def mission_forms(example: str) -> str:
    """The one-line mission forms, the guess naming `example` (a player of this campaign, or PLAYER)."""
    return (f"'pick red satellite', 'pick blue gun as submarine guess {example} green army base', "
            "'gadget yellow gun to satellite' or 'last man power plant'")


# -- shared pieces -------------------------------------------------------------


def rivals(view: View, player: str) -> list[str]:
    """The players `player` may guess at: the others still in the round, in seat order."""
    return [p for p in view["players"] if p != player and p not in view["out"]]


def example_player(view: View, player: str) -> str:
    """A player id for the examples in messages: another player of this campaign still in, else PLAYER."""
    others = rivals(view, player) or [p for p in view["players"] if p != player]
    return others[0] if others else "PLAYER"


def one_of(choices: Any, last: str = "or") -> str:
    """'a, b, c or d'."""
    items = [str(c) for c in choices]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {last} " + items[-1]


def icons_of(icons: Any) -> str:
    """Icons as people write them: 'army base, satellite, submarine or power plant'."""
    return one_of([words(i) for i in icons])


def _icon(word: Any, what: str, allowed: Any = ICONS) -> str:
    """An icon from the player's word; a word that is none says which icons `what` may be (HIDE-28)."""
    icon = icon_of(str(word))
    if icon is None:
        raise VoidOrder("unreadable", f"'{word}' is not an icon: {what} may be {icons_of(allowed)}")
    return icon


def _building(word: Any, what: str, allowed: Any = BUILDINGS) -> str:
    """A building from the player's word: the message lists only the buildings `what` may be."""
    icon = icon_of(str(word))
    if icon is None:
        raise VoidOrder("unreadable", f"'{word}' is not a building: {what} may be {icons_of(allowed)}")
    if icon == GUN:
        raise VoidOrder("unreadable", f"a gun is not a building: {what} may be {icons_of(allowed)}")
    return icon


def _colour(word: Any) -> str:
    colour = colour_of(str(word))
    if colour is None:
        raise VoidOrder("unreadable", _not_a_colour(word))
    return colour


def _not_a_colour(word: Any) -> str:
    return f"'{word}' is not a die colour: the colours are {one_of(COLOURS, 'and')}"


def _die(spec: Any) -> Die:
    if isinstance(spec, dict):
        return {"colour": _colour(spec["colour"]), "icon": _icon(spec["icon"], "a die's icon")}
    match = re.fullmatch(rf"\s*({_COLOUR})\s+(.+?)\s*", str(spec), re.IGNORECASE)
    if not match:
        first = str(spec).split()
        if first and first[0].casefold() not in COLOURS:
            raise VoidOrder("unreadable", f"{_not_a_colour(first[0])} (write a die as its colour and icon, e.g. 'red satellite')")
        raise VoidOrder("unreadable", f"'{spec}' does not name a die: write its colour and icon, e.g. 'red satellite'")
    return {"colour": match[1].lower(), "icon": _icon(match[2], "a die's icon")}


def _leading_icon(tokens: list[str]) -> tuple[str | None, int]:
    """The icon written by the first one or two words, and how many words it took."""
    for n in (2, 1):
        if len(tokens) >= n and re.fullmatch(_ICON, " ".join(tokens[:n]), re.IGNORECASE):
            return icon_of(" ".join(tokens[:n])), n
    return None, 0


def _trailing_icon(tokens: list[str]) -> tuple[str | None, int]:
    """The icon written by the last one or two words, and how many words it took."""
    for n in (2, 1):
        if len(tokens) > n and re.fullmatch(_ICON, " ".join(tokens[-n:]), re.IGNORECASE):
            return icon_of(" ".join(tokens[-n:])), n
    return None, 0


# -- mission -------------------------------------------------------------------


def parse_mission(item: Any, example: str = "PLAYER") -> dict[str, Any]:
    """A mission item as a mapping with the player's words still in it.

    `example` is the player named in the examples of a message: another player of the campaign.
    """
    if isinstance(item, dict):
        return item
    text = mission(str(item))
    for pattern, build in (
        (_GADGET, lambda m: {"gadget": {"die": {"colour": m[1], "icon": m[2]}, "to": m[3]}}),
        (_LAST_MAN, lambda m: {"last_man": m[1]}),
        (_PICK, lambda m: _pick_from_match(m, example)),
    ):
        match = pattern.fullmatch(text)
        if match:
            return build(match)
    raise VoidOrder("unreadable", _explain_mission(text, example))


def _pick_from_match(m: re.Match[str], example: str) -> dict[str, Any]:
    order: dict[str, Any] = {"pick": {"colour": m[1], "icon": m[2]}}
    if m[3] or m[4]:
        order["gun"] = m[3] or "keep"
    if m[5]:
        guesses = []
        for part in re.split(r"\s+or\s+", m[5], flags=re.IGNORECASE):
            g = _GUESS.fullmatch(part)
            if not g:
                raise VoidOrder("unreadable", _explain_guess(part, example))
            guesses.append({"player": g[1], "colour": g[2], "icon": g[3]})
        order["guess"] = guesses
    return order


# -- why a line fits no form (HIDE-28): the first word that is wrong, and what it may be


def _explain_mission(text: str, example: str) -> str:
    tokens = text.split()
    head = tokens[0].casefold() if tokens else ""
    last_man = re.match(r"\s*last[\s_-]*man(?:\s+|\Z)(.*)\Z", text, re.IGNORECASE | re.DOTALL)
    known = True
    try:
        if head in ("pick", "take"):
            _explain_pick(tokens[1:], example)
        elif head in COLOURS:
            _explain_pick(tokens, example)
        elif head == "gadget":
            _explain_gadget(tokens[1:])
        elif last_man:
            word = last_man[1].strip()
            if not word:
                return f"'{text.strip()}' names no building: write e.g. 'last man {words(BUILDINGS[0])}'"
            if not re.fullmatch(_ICON, word, re.IGNORECASE):
                raise VoidOrder("unreadable", f"'{word}' is not a building: the last man's building may be {icons_of(BUILDINGS)}")
            _building(word, "the last man's building")
        elif head in ("security", "target", "identity"):
            step = "security" if head == "security" else "identity"
            return (f"'{tokens[0]}' orders belong to the {step} step, not to a mission turn: "
                    f"write {mission_forms(example)}")
        elif _leading_icon(tokens[1:])[0] is not None:
            _explain_pick(tokens, example)  # a die written without 'pick' and with no colour ('purple gun')
        else:
            known = False
    except VoidOrder as void:
        return void.words
    if not tokens:
        return f"the order is empty: write {mission_forms(example)}"
    if known:
        return f"'{text.strip()}' is not understood: write {mission_forms(example)}"
    return (f"not understood: an order begins with 'pick' (or a die's colour), 'gadget' or 'last man', "
            f"not '{tokens[0]}'; write {mission_forms(example)}")


def _explain_pick(tokens: list[str], example: str) -> None:
    """Raise the reason a pick line (without its 'pick') fits no form."""
    if not tokens:
        raise VoidOrder("unreadable", "'pick' names no die: write its colour and icon, e.g. 'pick red satellite'")
    if tokens[0].casefold() not in COLOURS:
        raise VoidOrder("unreadable", _not_a_colour(tokens[0]))
    icon, n = _leading_icon(tokens[1:])
    if icon is None:
        if len(tokens) == 1:
            raise VoidOrder("unreadable", f"'{tokens[0]}' names no icon: write the die's colour and icon, e.g. "
                             f"'pick {tokens[0].lower()} satellite'")
        raise VoidOrder("unreadable", f"'{tokens[1]}' is not an icon: a die's icon may be {icons_of(ICONS)}")
    die = f"{tokens[0].lower()} {words(icon)}"
    rest = tokens[1 + n:]
    if rest and rest[0].casefold() in _TURN_WORDS:
        skip = 2 if rest[0].casefold() in ("turn", "turned") and len(rest) > 1 and rest[1].casefold() == "to" else 1
        after = rest[skip:]
        upto = next((i for i, w in enumerate(after) if w.casefold() in ("guess", "guesses")), len(after))
        word = " ".join(after[:upto])
        if not re.fullmatch(_ICON, word, re.IGNORECASE):
            raise VoidOrder("unreadable", _not_a_turn(word) if word else
                             f"'{' '.join(rest[:skip])}' names no building to turn the gun to: write e.g. "
                             f"'pick {die} as satellite'")
        rest = after[upto:]
    elif rest and rest[0].casefold() == "keep":
        rest = rest[1:]
    if rest and rest[0].casefold() in ("guess", "guesses"):
        if len(rest) == 1:
            raise VoidOrder("unreadable", f"'{rest[0]}' must be followed by a player, a colour and an icon, e.g. "
                             f"'guess {example} red satellite'")
        parts = re.split(r"\s+or\s+", " ".join(rest[1:]), flags=re.IGNORECASE)
        bad = next((p for p in parts if not _GUESS.fullmatch(p)), None)
        if bad is not None:
            raise VoidOrder("unreadable", _explain_guess(bad, example))
    elif rest:
        raise VoidOrder("unreadable", f"'{' '.join(rest)}' is not understood after 'pick {die}': a gun die may be followed by "
                         f"'as <building>' or 'keep', and any pick by 'guess <player> <colour> <icon>', e.g. "
                         f"'pick blue gun as submarine guess {example} green army base'")


def _not_a_turn(word: Any) -> str:
    return (f"'{word}' is not a building: a gun die is turned to {icons_of(BUILDINGS)}, "
            "or written 'keep' to stay a gun")


def _explain_guess(part: str, example: str) -> str:
    form = f"write a player, a colour and an icon, e.g. '{example} red satellite'"
    tokens = part.split()
    icon, n = _trailing_icon(tokens)
    if icon is not None:
        before = tokens[:-n]
        if before[-1].casefold() not in COLOURS:
            return f"{_not_a_colour(before[-1])} (in the guess '{part.strip()}')"
        if len(before) == 1:
            return f"the guess '{part.strip()}' names no player: {form}"
    elif len(tokens) >= 3 and tokens[-2].casefold() in COLOURS:
        return f"'{tokens[-1]}' is not a building: a guessed identity die's icon may be {icons_of(BUILDINGS)}"
    elif len(tokens) >= 2 and tokens[-1].casefold() in COLOURS:
        return f"the guess '{part.strip()}' names no icon: {form}"
    return f"the guess '{part.strip()}' must be a player, a colour and an icon, e.g. '{example} red satellite'"


def _explain_gadget(tokens: list[str]) -> None:
    """Raise the reason a gadget line (without its 'gadget') fits no form."""
    form = "write 'gadget <colour> <icon> to <icon>', e.g. 'gadget yellow gun to satellite'"
    if not tokens:
        raise VoidOrder("unreadable", f"'gadget' names no die: {form}")
    if tokens[0].casefold() not in COLOURS:
        raise VoidOrder("unreadable", _not_a_colour(tokens[0]))
    icon, n = _leading_icon(tokens[1:])
    if icon is None:
        if len(tokens) == 1:
            raise VoidOrder("unreadable", f"'{tokens[0]}' names no icon: {form}")
        raise VoidOrder("unreadable", f"'{tokens[1]}' is not an icon: a die's icon may be {icons_of(ICONS)}")
    die = f"{tokens[0].lower()} {words(icon)}"
    rest = tokens[1 + n:]
    if not rest or rest[0].casefold() not in ("to", "as", "->"):
        raise VoidOrder("unreadable", f"'gadget {die}' must be followed by 'to' and the new icon: {form}")
    new = " ".join(rest[1:])
    others = [i for i in ICONS if i != icon]
    if not new:
        raise VoidOrder("unreadable", f"'gadget {die} {rest[0]}' names no new icon: it may be {icons_of(others)}")
    if not re.fullmatch(_ICON, new, re.IGNORECASE):
        raise VoidOrder("unreadable", f"'{new}' is not an icon: the new icon may be {icons_of(others)}")


def read_mission(view: View, player: str, parsed: list[tuple[Reading, Any]]) -> None:
    """Each item of a mission preference list: a pick, a gadget use or the last man's building."""
    seen_last_man = False
    example = example_player(view, player)
    for reading, item in parsed:
        raw = None
        try:
            raw = parse_mission(item, example)
            if "pick" in raw:
                reading.order, reading.meaning = _read_pick(view, player, raw)
            elif "gadget" in raw:
                reading.order, reading.meaning = _read_gadget(view, player, raw["gadget"])
            else:
                building = _building(raw["last_man"], "the last man's building")
                if seen_last_man:
                    raise VoidOrder("second_order", "only your first last-man order counts")
                seen_last_man = True
                reading.order = {"last_man": building}
                reading.meaning = (f"if everyone else is assassinated this turn, you take the intel under the "
                                   f"{words(building)}")
        except VoidOrder as void:
            reading.refuse(void)


def _read_pick(view: View, player: str, raw: dict[str, Any]) -> tuple[dict[str, Any], str]:
    identity = view["identity"]
    chosen = _die(raw["pick"])
    order: dict[str, Any] = {"pick": chosen}
    gun = raw.get("gun")
    if gun is not None:
        if chosen["icon"] != GUN:
            raise VoidOrder("not_a_gun", f"only a gun die can be turned; the {die_words(chosen)} is placed as it shows")
        word = str(gun).strip()
        gun = "keep" if word.casefold() == "keep" else icon_of(word)
        if gun is None:
            raise VoidOrder("unreadable", _not_a_turn(word))
        if gun == GUN:
            gun = "keep"
        if gun == "keep" and chosen["colour"] == identity["colour"]:
            raise VoidOrder("own_colour_gun", f"a gun die of your own colour ({identity['colour']}) must be turned to a building")
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
            raise VoidOrder("unreadable", _explain_guess(raw, example_player(view, player)))
        raw = {"player": match[1], "colour": match[2], "icon": match[3]}
    named = players.named(view["players"], view["names"], raw["player"])
    # Only the players one may guess at are listed: not oneself, not an agent already out (HIDE-14).
    choices = one_of([p if view["names"][p].casefold() == p.casefold() else f"{p} ({view['names'][p]})"
                      for p in rivals(view, player)] or ["nobody"])
    if not named:
        raise VoidOrder("no_such_player", f"there is no player called '{raw['player']}': you may guess at {choices}")
    if len(named) > 1:
        raise VoidOrder("ambiguous_player", f"'{raw['player']}' is the name of more than one player ({one_of(named, 'and')}): "
                         "name the player by id")
    target = named[0]
    if target == player:
        raise VoidOrder("own_identity", f"you cannot guess your own identity die: you may guess at {choices}")
    if target in view["out"]:
        raise VoidOrder("player_out", f"{view['names'][target]} is already out of this round: you may guess at {choices}")
    return {"player": target, "colour": _colour(raw["colour"]),
            "icon": _building(raw["icon"], "a guessed identity die's icon")}


def _read_gadget(view: View, player: str, raw: dict[str, Any]) -> tuple[dict[str, Any], str]:
    if player in view["gadget_used"]:
        raise VoidOrder("gadget_used", "you have already used your gadget card this round")
    target = _die(raw["die"])
    to = _icon(raw["to"], "the new icon", [i for i in ICONS if i != target["icon"]])
    if to == target["icon"]:
        raise VoidOrder("same_icon", f"the gadget must change the die's icon, and the {die_words(target)} already shows {words(to)}")
    meaning = f"after your pick, use your gadget: turn a {die_words(target)} left in the pool to {words(to)}"
    if target not in view["pool"]:
        meaning += " (none in the pool now)"
    return {"gadget": {"die": target, "to": to}}, meaning


# -- identity and security -------------------------------------------------------


def read_choice(view: View, player: str, phase: str, parsed: list[tuple[Reading, Any]]) -> None:
    """The identity building (a preference list), or the secured building (one order)."""
    key = "target" if phase == "identity" else "security"
    # Only the buildings this order may name are offered: a target is never the secured building (HIDE-9).
    allowed = [b for b in BUILDINGS if phase != "identity" or b != view["security"]]
    what = "your target" if phase == "identity" else "the secured building"
    first = True
    for reading, item in parsed:
        try:
            word = item.get(key) if isinstance(item, dict) else _word_of(item, what, allowed)
            if word is None:
                raise VoidOrder("unreadable", f"in the {phase} phase write '{{{key}: {allowed[0]}}}' or just a building's name "
                                 f"({icons_of(allowed)})")
            building = _building(word, what, allowed)
            if phase == "identity" and building == view["security"]:
                raise VoidOrder("secured_building", f"the {words(building)} is secured this round, so no identity die may show it: "
                                 f"your target may be {icons_of(allowed)}")
            if phase == "security" and not first:
                raise VoidOrder("second_order", "only your first security order counts")
            first = False
            reading.order = {key: building}
            reading.meaning = (f"your identity die shows the {words(building)}: your target this round"
                               if phase == "identity" else f"the security card goes on the {words(building)}")
        except VoidOrder as void:
            reading.refuse(void)
    if phase == "identity":
        kept = [r for r, _ in parsed if r.order is not None]
        for later in kept[1:]:
            later.meaning += f" (if the {words(kept[0].order['target'])} cannot be chosen)"


_FALLBACK = re.compile(r"(\s*[,;]?\s*\b(?:or(?:\s+else)?|else|otherwise|then|failing\s+that)\b[\s,:]*|\s*;\s*)", re.IGNORECASE)
"""Between a first choice and the next in one line: "the submarine, or the power plant if I can't"."""
_BARE_OR = re.compile(r"\s*,?\s*or\s*\Z", re.IGNORECASE)
_CONDITION = re.compile(r"\bif\b", re.IGNORECASE)


def choices_in(item: Any) -> list[Any]:
    """The identity step's choices one line holds, first choice first: "I go for the submarine, or the
    power plant if I can't" and "the sub, then the sat" are two, as if written on two lines, when each
    part names one building. "The submarine or the satellite", with no "if" after its "or", says
    neither which comes first nor that the second is a fallback: it stays one line naming two buildings,
    answered with both, never guessed (HIDE-28)."""
    if not isinstance(item, str) or len(_buildings_in(choice(item))) < 2:
        return [item]
    pieces = _FALLBACK.split(item)  # choice, link, choice, link, ...
    parts, links = pieces[0::2], pieces[1::2]
    if any(_BARE_OR.fullmatch(link) and not _CONDITION.search(after) for link, after in zip(links, parts[1:])):
        return [item]
    parts = [part for part in parts if part.strip()]
    return parts if len(parts) > 1 and all(len(_buildings_in(choice(part))) == 1 for part in parts) else [item]


def _word_of(item: Any, what: str, allowed: list[str]) -> str:
    said = choice(str(item))
    match = _TARGET.fullmatch(said)
    if not match:
        named = _buildings_in(said)
        if len(named) > 1:  # design 17: two meanings are answered, never guessed
            raise VoidOrder("two_meanings", f"'{str(item).strip()}' names {one_of([words(b) for b in named], 'and')}: "
                             f"write one building per line, the one you want most first")
        keyword = re.fullmatch(r"\s*(target|identity|security)\b\s*:?\s*(.*?)\s*", said, re.IGNORECASE | re.DOTALL)
        word = keyword[2] if keyword else said.strip()
        if not word:
            raise VoidOrder("unreadable", f"'{str(item).strip()}' names no building: {what} may be {icons_of(allowed)}")
        raise VoidOrder("unreadable", f"'{word}' is not a building: {what} may be {icons_of(allowed)}")
    return match[1]


def _buildings_in(text: str) -> list[str]:
    """The distinct buildings a text names, in the order written."""
    found: list[str] = []
    for match in re.finditer(rf"\b(?:{_ICON})\b", text, re.IGNORECASE):
        icon = icon_of(match[0])
        if icon in BUILDINGS and icon not in found:
            found.append(icon)
    return found


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



def instead(view: View, player: str, readings: list[Reading]) -> str:
    """What the rules put in place of void or missing orders (HIDE-16), from what the player sees: the
    richest building secured or targeted, the first die of the pool picked; where an order that stands
    settles it, that this one changes nothing and which order plays (design 17: never only "does nothing")."""
    stage = view["stage"]
    if stage in ("security", "identity"):
        kept = next((r for r in readings if _settles(r, stage)), None)
        if kept is not None:
            what = "secured building" if stage == "security" else "target"
            return f"In its place nothing changes: your {what} stays the {words(str(kept.order[_KEY[stage]]))}, as your order {kept.index + 1} says."  # type: ignore[index]
        if stage == "security":
            return f"With no valid security order, the richest building, the {words(richest(view['buildings']))}, is secured (HIDE-16)."
        allowed = [b for b in BUILDINGS if b != view["security"]]
        return (f"With no valid target, the richest building you may target, the {words(richest(view['buildings'], allowed))}, "
                "becomes your target (HIDE-16).")
    kept = next((r for r in readings if r.order is not None and "pick" in r.order), None)
    if kept is not None:
        return f"In its place nothing is done: your pick is played as your order {kept.index + 1} says{others_stand(readings)}."
    return ("With no valid pick, you take the first die of the pool that would land in front of you, with the default gun "
            f"turn and shot (HIDE-16){others_stand(readings)}.")


_KEY = {"security": "security", "identity": "target"}
"""The key of the order that settles each stage before the missions."""


def _settles(reading: Reading, stage: str) -> bool:
    return reading.order is not None and _KEY[stage] in reading.order
