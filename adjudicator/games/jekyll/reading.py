"""Reading exchange, Greed and trick orders, in the mapping form and as written text (JEKYLL-13, JEKYLL-14, JEKYLL-20)."""

from __future__ import annotations

import re
from typing import Any

from ..base import Order, Reading, View, VoidOrder, near_miss, others_stand
from ..written import BETWEEN_CARDS, as_digits
from .cards import (
    ALIASES,
    SUIT_NAMES,
    TRICKS,
    cards_text,
    is_potion,
    low_order,
    parse_card,
    parse_colour,
    shown,
)

_TRICK_WORD = re.compile(r"trick\s*(\d+)\s*:?", re.IGNORECASE)
_GIVE = re.compile(r"^\s*(?:i\s+)?gives?\b\s*:?", re.IGNORECASE)
_PLAY_WORDS = frozenset({"i", "i'll", "lead", "leads", "play", "plays", "follow", "follows"})
"""'I lead purple7, then red6': the words that say the list is played, no card of it."""


def read_gifts(view: View, items: list[tuple[int, Any]], count: int, potion_rule: bool) -> list[Reading]:
    """Exchange and greed orders: one card given per item (JEKYLL-13, JEKYLL-14)."""
    hand = view["hand"]
    opponent = next(p for p in view["players"] if p != view["player"])
    whom = view["names"][opponent]
    readings: list[Reading] = []
    accepted: list[Reading] = []
    for index, item, raw in ((index, item, raw) for index, item in items for raw in _gifts_in(item)):
        reading = Reading(index=index, written=_written(item))
        readings.append(reading)
        try:
            card = _gift(raw, view)
        except VoidOrder as void:
            reading.refuse(near_miss(void, hand))
            continue
        if card not in hand:
            reading.refuse(VoidOrder("not_held", f"you do not hold {card} (your hand: {cards_text(hand)})"))
        elif any(r.order["give"] == card for r in accepted):  # type: ignore[index]
            reading.refuse(VoidOrder("given_twice", f"{card} is already given by an earlier order"))
        elif len(accepted) >= count:
            reading.refuse(VoidOrder(
                "too_many_cards", f"you give only {count} {'card' if count == 1 else 'cards'} now, so {card} is one too many"
            ))
        else:
            reading.order = {"give": card}
            accepted.append(reading)
            reading.meaning = f"give {card} to {whom} (card {len(accepted)} of {count})"
    potions = [c for c in hand if is_potion(c)]
    gifts = [r.order["give"] for r in accepted]  # type: ignore[index]
    if potion_rule and len(potions) >= 2 and len(gifts) == count and not any(is_potion(c) for c in gifts):
        last = accepted[-1]
        lowest = min(potions, key=low_order)
        last.refuse(VoidOrder(
            "potion_required",
            f"you hold {len(potions)} potions, so your exchange must include one; this order ({last.order['give']}) is dropped",  # type: ignore[index]
        ))
        last.instead = f"In its place the rule gives your lowest potion, {lowest} (JEKYLL-13); your other orders stand."
    return readings


def _gifts_in(item: Any) -> list[Any]:
    """What one exchange item gives, each card an order of its own: 'give red6 and green1' and 'give green1,
    green2' are two (design 17: a list of valid items is read); any other item is itself."""
    raw = item.get("give") if isinstance(item, dict) else item
    if not isinstance(raw, str) or _TRICK_WORD.match(raw.strip()):
        return [raw]
    cards = [word for word in _card_words(_GIVE.sub("", raw)) if word.casefold() not in BETWEEN_CARDS]
    return cards if len(cards) > 1 else [_GIVE.sub("", raw).strip() or raw]


def _gift(raw: Any, view: View) -> str:
    """The card one gift names, or a VoidOrder that says why not and how to write it."""
    if isinstance(raw, str) and _TRICK_WORD.match(raw.strip()):
        when = "the exchange before the round's tricks" if view["phase"] == "exchange" else "a Greed exchange"
        raise VoidOrder("wrong_phase", f"this turn is {when}, so no trick is played in it: send your trick orders again "
                        "with the next turn's orders, when the tricks are played")
    try:
        return parse_card(as_digits(raw) if isinstance(raw, str) else raw)
    except VoidOrder as void:
        raise VoidOrder(void.code, f"{void.words} (in this phase you name the cards you give: give red6, green1)", void.unknown) from None


def _written(item: Any) -> str:
    if isinstance(item, str):
        return " ".join(item.split())[:120]
    if isinstance(item, list):
        return ", ".join(str(x) for x in item)[:120]
    if isinstance(item, dict):
        return "; ".join(f"{k}: {_written(v) if isinstance(v, (list, dict)) else v}" for k, v in item.items())[:120]
    return str(item)[:120]


def _parse_trick_text(text: str) -> dict[str, Any]:
    """'trick 4: red7, purple2, 3+ name green greed red1 purple1' -> the parts of a trick order."""
    parts: dict[str, Any] = {}
    match = _TRICK_WORD.match(text.strip())
    if match:
        parts["trick"] = int(match[1]) if len(match[1]) < 4 else 0
        text = text.strip()[match.end():]
    section = "play"
    for token in _card_words(text):
        word = token.casefold()
        if word in BETWEEN_CARDS or word in _PLAY_WORDS and section == "play":
            continue
        if word in ("name", "names", "naming", "call", "calls"):
            section = "name"
        elif section == "name" and "name" not in parts:  # the word after 'name' is the colour, even 'greed'
            parts["name"] = token
        elif word in ("greed", "give", "gives"):
            section = "greed"
        elif section == "name":
            if "name" in parts:
                raise VoidOrder("unreadable", f"name only one colour, not also {shown(token)}")
            parts["name"] = token
        else:
            parts.setdefault(section, []).append(token)
    if "play" not in parts:
        raise VoidOrder("unreadable", "no card to play: write e.g. 'trick 3: red7, purple2, 3+'")
    if section == "name" and "name" not in parts:
        raise VoidOrder("unreadable", "'name' must be followed by a colour (purple, red or green)")
    return parts


def _card_words(text: str) -> list[str]:
    """Words of a written order, with 'purple 5' and 'potion 3' joined into one card.

    'greed 5' is the Greed card 5; a lone 'greed' is the keyword that starts a Greed list.
    """
    joined: list[str] = []
    for token in re.sub(r"[,;:]", " ", as_digits(text)).split():
        if joined and re.fullmatch(r"\d+\+?", token) and joined[-1].casefold() in (*ALIASES, "potion"):
            joined[-1] += token
        else:
            joined.append(token)
    return joined


def _as_list(value: Any) -> list[Any]:
    """A card list as written in the mapping form: a list, or one text of cards."""
    if isinstance(value, list):
        return value
    return _card_words(value) if isinstance(value, str) else [value]


def read_tricks(view: View, items: list[tuple[int, Any]]) -> list[Reading]:
    """Trick orders: a preference list per trick, with an optional named colour and Greed list (JEKYLL-20)."""
    gone = {c: t["trick"] for t in view["played"] for c in (t["lead"], t["follow"])}
    hand = view["hand"]
    readings: list[Reading] = []
    meant: dict[int, int] = {}
    """The trick each order is for, the void ones too where it can be told (what replaces them depends on it)."""
    expected = view["trick"]
    for index, item in items:
        reading = Reading(index=index, written=_written(item))
        readings.append(reading)
        try:
            parts = _parse_trick_text(item) if isinstance(item, str) else (
                {"play": item} if isinstance(item, list) else dict(item))
        except VoidOrder as void:
            reading.refuse(void)
            written = _TRICK_WORD.match(item.strip()) if isinstance(item, str) else None
            meant[index] = int(written[1]) if written and len(written[1]) < 4 else expected
            expected = meant[index] + 1
            continue
        trick = parts.get("trick", expected)
        expected = trick + 1 if isinstance(trick, int) else expected + 1
        meant[index] = trick
        try:
            play = [parse_card(c) for c in _as_list(parts.get("play"))]
            greed = [parse_card(c) for c in _as_list(parts["greed"])] if "greed" in parts else None
            name = parse_colour(parts["name"]) if "name" in parts else None
        except VoidOrder as void:
            reading.refuse(near_miss(void, hand))
            continue
        if not 1 <= trick <= TRICKS:
            reading.refuse(VoidOrder("no_such_trick", f"there is no trick {trick}: a round has tricks 1 to {TRICKS}"))
        elif trick < view["trick"]:
            reading.refuse(VoidOrder(
                "trick_played", f"trick {trick} of this round has been played already; the next trick is {view['trick']}"
            ))
        elif not play:
            reading.refuse(VoidOrder("no_card", "no card to play is listed"))
        elif all(c in gone for c in play):
            reading.refuse(VoidOrder(
                "cards_played", "every card listed was played earlier this round: " + ", ".join(f"{c} (trick {gone[c]})" for c in play)
            ))
        else:
            reading.order = {"trick": trick, "play": list(dict.fromkeys(play))}
            if name is not None:
                reading.order["name"] = name
            if greed is not None:
                reading.order["greed"] = list(dict.fromkeys(greed))
            reading.meaning = _trick_meaning(reading.order, hand, gone)
    by_trick: dict[int, list[Reading]] = {}
    for reading in readings:
        if reading.order is not None:
            by_trick.setdefault(reading.order["trick"], []).append(reading)
    for trick, same in by_trick.items():
        if len(same) > 1:  # like two orders for one SID: neither stands
            for reading in same:
                reading.refuse(VoidOrder("trick_ordered_twice", f"trick {trick} was given {len(same)} orders, so none of them stands"))
    for reading in readings:  # design 17: each void order says what the rules put in its place, for its own trick
        trick = meant.get(reading.index)
        if not reading.accepted and isinstance(trick, int) and view["trick"] <= trick <= TRICKS:
            reading.instead = for_trick(view, trick, readings, meant)
    return readings


def _trick_meaning(order: Order, hand: list[str], gone: dict[str, int]) -> str:
    play = order["play"]
    text = f"trick {order['trick']}: " + (
        f"you play {play[0]} if you may" if len(play) == 1 else f"you play the first you hold and may play of {', '.join(play)}"
    )
    if "name" in order:
        text += f"; if you lead a potion you name {order['name']} ({SUIT_NAMES[order['name']]})"
    if "greed" in order:
        text += f"; in a Greed exchange after it you give the first you hold of {', '.join(order['greed'])}"
    stale = [c for c in play if c in gone]
    absent = [c for c in play if c not in gone and c not in hand]
    if stale:
        text += f" (skipped: {', '.join(stale)}, played earlier this round)"
    if absent:
        text += f" (not in your hand now, so used only if you receive it: {', '.join(absent)})"
    return text


def instead(view: View, player: str, readings: list[Reading]) -> str:
    """What the rules put in place of void or missing orders: the lowest cards given (JEKYLL-18), or the
    lowest card the rules allow played in the pending trick (JEKYLL-19); "" when the orders that stand settle it."""
    if view["phase"] == "trick":
        if any(r.order is not None and r.order.get("trick") == view["trick"] for r in readings):
            return ""
        return for_trick(view, view["trick"], readings, {r.index: r.order["trick"] for r in readings if r.order is not None})
    count = view["exchange_count"] if view["phase"] == "exchange" else view["greed"]["count"]
    given = sum(1 for r in readings if r.order is not None)
    if given >= count:
        return ""
    short = count - given
    lowest = "your lowest card" if short == 1 else f"your {short} lowest cards"
    potions = [c for c in view["hand"] if is_potion(c)]
    if view["phase"] == "exchange" and len(potions) >= 2 and not any(r.order is not None and is_potion(r.order["give"]) for r in readings):
        potion = min(potions, key=low_order)  # JEKYLL-13: the exchange must include a potion, the lowest first
        lowest = f"your lowest potion, {potion}" if short == 1 else f"{lowest}, your lowest potion ({potion}) among them"
        return f"In its place the rule gives {lowest}, as your exchange must include a potion (JEKYLL-13, JEKYLL-18){others_stand(readings)}."
    return f"In its place the rule gives {lowest} (JEKYLL-18){others_stand(readings)}."


def for_trick(view: View, trick: int, readings: list[Reading], meant: dict[int, int]) -> str:
    """What the rules do for `trick` with the orders that stand (`meant`: the trick each order is for):
    another order for it plays it; with none, the pending trick is played with the default (JEKYLL-19),
    and a later one stops the turn's play before it, so the orders for the tricks after it are not used
    and it waits for the next turn's orders (JEKYLL-20, JEKYLL-21)."""
    standing = [r for r in readings if r.accepted and r.order is not None and r.order["trick"] == trick]
    if standing:
        return f"Trick {trick} is played by your order {standing[0].index + 1}; your other orders stand."
    if trick == view["trick"]:
        return f"With no order standing for trick {trick}, you play your lowest card the rules allow in it (JEKYLL-19){others_stand(readings)}."
    later = sorted({meant[r.index] for r in readings if r.accepted and meant.get(r.index, 0) > trick})
    named = f"trick {later[0]}" if len(later) == 1 else "tricks " + ", ".join(map(str, later))
    unused = f"; your orders for {named} are not used this turn (send them again then)" if later else ""
    return (f"With no order standing for trick {trick}, this turn's play stops before it (JEKYLL-20): trick {trick} waits "
            f"for your orders of the next turn{unused}. Your orders for the tricks before it stand.")


def form_examples(view: View, player: str) -> list[str]:
    """Orders as sentences the reader takes as they are, each legal for this player now: the answers to
    `help` and the welcome show them beside the form (design 17: a mail of plain sentences is orders)."""
    hand = view["hand"]
    if view["phase"] == "trick":
        return [f"trick {view['trick']}: {', then '.join(hand[:3])}"] if hand else []
    count = view["exchange_count"] if view["phase"] == "exchange" else view["greed"]["count"]
    potions = [c for c in hand if is_potion(c)]
    must = potions[:1] if view["phase"] == "exchange" and len(potions) >= 2 else []  # JEKYLL-13's potion rule
    gifts = must + [c for c in hand if c not in must][: count - len(must)]
    return [f"give {' and '.join(gifts)}"] if gifts and count else []
