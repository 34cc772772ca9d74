"""Reading bid and trick orders, in either written form, against the player's own hand."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from ..base import Order, Reading, View, VoidOrder, near_miss
from .cards import holds, number, read_card, read_card_list, remove_cards

_TRICK_PREFIX = re.compile(r"\s*trick\s*#?\s*(\d{1,3})\s*[:.)-]?", re.IGNORECASE)
_EVERY_PREFIX = re.compile(
    r"\s*(?:(?:in|for)\s+)?(?:(?:every|each|all)(?:\s+(?:the\s+)?(?:remaining|other|later|rest\s+of\s+the))?\s+tricks?|tricks?\s+(?:every|all|each))\s*[:.)-]?",
    re.IGNORECASE,
)
EVERY = ("every", "all", "each")
"""`trick: every` (or all, each): the same lists for every remaining trick of the deal (issue 25 item 8)."""
_TRICK_WORDS = re.compile(r"\btrick\s*#?\s*\d{1,3}", re.IGNORECASE)
_BETWEEN_LISTS = re.compile(r"(?:\s*(?:[/;,]|\band\b|\bthen\b))+\s*\Z", re.IGNORECASE)
"""What stands between two trick lists written on one line: '/', ';', ',', 'and', 'then'."""
_DOWN = re.compile(r"\b(?:face[\s_-]*down|down)\b\s*:?", re.IGNORECASE)
_PLAY = re.compile(r"\s*(?:play|face[\s_-]*up|up)\b\s*:?", re.IGNORECASE)
_BID = re.compile(r"\s*bids?\b\s*:?", re.IGNORECASE)


_BID_SENTENCE = re.compile(
    r"\s*(?:i\s+(?:will\s+|'ll\s+)?|my\s+)?bids?\s*:?\s*(?:is\s+)?(?:(?P<total>[+-]?\s*\d+)\s*(?:wins?\s*)?(?:with|using|:|=|,)\s*)?",
    re.IGNORECASE,
)
"""'I bid +3 with blue -1 and green +4', 'my bid is +3: ...', 'bid blue+2 orange-3': the bid and, when written,
the total the player counts on, which must be what the cards add up to (issue 25 item 12)."""


def parse_bid(item: Any, colours: Any = None) -> list[str]:
    """Cards of one bid item: `{bid: [a, b]}`, `"bid a b"`, `"a, b"`, a single card `"a"`, or a sentence
    such as `"I bid +3 with blue -1 and green +4"` (a total that the cards do not add up to is two readings: void)."""
    if isinstance(item, dict) and "bid" in item:
        return [read_card(c, colours) for c in item["bid"]]
    if isinstance(item, dict) or _TRICK_PREFIX.match(item) or _PLAY.match(item) or _DOWN.match(item):
        raise VoidOrder("wrong_phase", "the deal opens with bids: no trick can be played until every bid is in")
    total = None
    if (m := _BID_SENTENCE.match(item)) and m.end():
        text, total = item[m.end():], m["total"]
    else:
        text = item
    text = re.sub(r"[.!]+\s*\Z", "", text.strip())
    cards = read_card_list(text, colours)
    if not cards:
        raise VoidOrder("unreadable", "names no card: a bid is two cards of your hand, e.g. bid blue+2 orange-3")
    if total is not None and int(total.replace(" ", "")) != sum(map(number, cards)):
        raise VoidOrder("two_readings", (
            f"the bid says {int(total.replace(' ', '')):+d} but {' + '.join(cards)} add up to {sum(map(number, cards)):+d}: "
            "it may mean those cards or a bid of that total, so it is not guessed; send the two cards again"))
    return cards


def parse_trick(item: Any, colours: Any = None) -> dict[str, Any]:
    """One trick list: `{trick: 3, play: [...], face_down: [...]}` or `"trick 3: play a b down c"`."""
    if isinstance(item, dict) and "bid" in item or isinstance(item, str) and _BID.match(item):
        raise VoidOrder("wrong_phase", "the bids of this deal are already revealed; this turn plays tricks")
    if isinstance(item, dict):
        trick = item.get("trick")
        return {
            "trick": "every" if isinstance(trick, str) and trick.casefold() in EVERY else trick,
            "play": [read_card(c, colours) for c in item.get("play", [])],
            "face_down": [read_card(c, colours) for c in item.get("face_down", [])],
        }
    trick = None
    text = item
    if m := _TRICK_PREFIX.match(text):
        trick, text = int(m[1]), text[m.end():]
    elif m := _EVERY_PREFIX.match(text):
        trick, text = "every", text[m.end():]
    parts = _DOWN.split(text, maxsplit=1)
    up = parts[0][m.end():] if (m := _PLAY.match(parts[0])) else parts[0]
    return {"trick": trick, "play": read_card_list(up, colours), "face_down": read_card_list(parts[1], colours) if len(parts) > 1 else []}


def _hinted(void: VoidOrder, hand: list[str]) -> VoidOrder:
    """`void` with the cards of the hand it may have meant: those of the number written without a colour
    ('the +2'), or the one card a slip of the keys is from (near_miss). A hint only: the order stays void."""
    if void.code != "no_colour":
        return near_miss(void, hand)
    value = int(void.unknown.replace(" ", ""))
    held = list(dict.fromkeys(c for c in hand if number(c) == value))
    if not held:
        return VoidOrder(void.code, f"'{void.unknown}' names no colour, and you hold no card numbered {value:+d}", void.unknown)
    return VoidOrder(void.code, f"'{void.unknown}' names no colour: of that number you hold {' and '.join(held)}; write the one you mean, "
                     f"e.g. {held[0]}", void.unknown)


def _written(item: Any) -> str:
    if isinstance(item, str):
        return " ".join(item.split())
    if "bid" in item:
        return "bid " + ", ".join(map(str, item["bid"]))
    parts = [f"trick {item['trick']}:" if "trick" in item else "next trick:"]
    parts += ["play", *map(str, item.get("play", []))] if item.get("play") else []
    parts += ["down", *map(str, item.get("face_down", []))] if item.get("face_down") else []
    return " ".join(parts)


def _not_held(cards: list[str], available: list[str]) -> str:
    """Why these cards cannot be named: the first one the hand lacks (a second copy counts)."""
    need = Counter(cards)
    card = next(c for c in cards if need[c] > available.count(c))
    if available.count(card):
        return f"you hold only one {card}"
    return f"you do not hold {card} (your cards: {', '.join(available) or 'none'})"


def read_bids(view: View, items: list[tuple[int, Any]]) -> list[Reading]:
    """IDENTITY-4: the bid is the first two cards named by the bid orders, in order."""
    hand = view["hand"]
    chosen: list[str] = []
    readings = []
    for index, item in items:
        reading = Reading(index=index, written=_written(item))
        readings.append(reading)
        try:
            cards = parse_bid(item, view.get("colours"))
        except VoidOrder as void:
            reading.refuse(_hinted(void, hand))
            continue
        if len(chosen) + len(cards) > 2:
            reading.refuse(VoidOrder("too_many_cards", (
                f"a bid is two cards and your earlier orders already named {', '.join(chosen)}" if chosen
                else f"a bid is two cards, not {len(cards)}"
            )))
        elif not holds(remove_cards(hand, chosen), cards):
            reading.refuse(VoidOrder("not_held", _not_held(cards, remove_cards(hand, chosen))))
        else:
            chosen += cards
            reading.order = {"bid": cards}
            reading.meaning = "bid card" + ("s " if len(cards) > 1 else " ") + " and ".join(cards)
    accepted = [r for r in readings if r.accepted]
    if accepted:
        last = accepted[-1]
        if len(chosen) == 2:
            total = sum(map(number, chosen))
            wins = f"{total:+d} {'win' if abs(total) == 1 else 'wins'}" if total else "0 wins"
            last.meaning += f": your bid is {chosen[0]} + {chosen[1]} = {wins}"
        else:
            last.meaning += "; the second bid card will be drawn at random from the rest of your hand"
    return readings


def read_tricks(view: View, items: list[tuple[int, Any]]) -> list[Reading]:
    """IDENTITY-11/12: one list per trick of this deal, naming only cards held now."""
    hand = view["hand"]
    taken: dict[int, list[Reading]] = {}
    readings = []
    later: dict[int, int] = {}
    """Position in `readings` -> the later trick its order was written for: a void one is answered for that trick."""
    for index, item in ((index, part) for index, whole in items for part in _lists_in(whole)):
        reading = Reading(index=index, written=_written(item))
        readings.append(reading)
        if isinstance(item, str) and (m := _TRICK_PREFIX.match(item)) and int(m[1]) > view["trick"]:
            later[len(readings) - 1] = int(m[1])
        try:
            order = parse_trick(item, view.get("colours"))
        except VoidOrder as void:
            reading.refuse(_hinted(void, hand))
            continue
        every = order["trick"] == "every"
        trick = view["trick"] if order["trick"] is None or every else order["trick"]
        order["trick"] = trick
        if every:
            order["through"] = view["tricks"]
        missing = [c for c in order["play"] + order["face_down"] if c not in hand][:1]
        if trick < view["trick"]:
            reading.refuse(VoidOrder("trick_played", f"trick {trick} has already been played; the next trick is {view['trick']}"))
        elif trick > view["tricks"]:
            reading.refuse(VoidOrder("no_such_trick", f"this deal has only {view['tricks']} tricks"))
        elif missing:
            reading.refuse(VoidOrder("not_held", _not_held(missing, hand)))
        elif every:
            reading.order = order
            reading.meaning = _trick_meaning(order, view["trick"]).replace(
                f"trick {trick}: ", f"every remaining trick ({trick} to {view['tricks']}, cards already played skipped): ", 1)
        else:
            reading.order = order
            taken.setdefault(trick, []).append(reading)
    for position, reading in enumerate(readings):
        trick = later.get(position, 0)
        if not reading.accepted and view["trick"] < trick <= view["tricks"]:
            reading.instead = _for_later_trick(trick, taken.get(trick, []))
    for trick, group in taken.items():
        joined = {"trick": trick, "play": [], "face_down": []}
        for reading in group:
            joined["play"] += reading.order["play"]
            joined["face_down"] += reading.order["face_down"]
        for reading in group:
            reading.meaning = _trick_meaning(joined, view["trick"])
            if len(group) > 1:
                orders = ", ".join(str(r.index + 1) for r in group)
                reading.meaning = f"orders {orders} join into one list for " + reading.meaning
    return readings


def _lists_in(item: Any) -> list[Any]:
    """The trick lists one item holds: 'trick 3: purple3 / trick 4: orange+2' is two, split before each
    'trick N' (design 17: several orders in a line are read when each is one); any other item is itself."""
    if not isinstance(item, str) or len(_TRICK_WORDS.findall(item)) < 2:
        return [item]
    starts = [m.start() for m in _TRICK_WORDS.finditer(item)]
    parts = [item[a:b] for a, b in zip([0, *starts[1:]], [*starts[1:], len(item)])]
    return [_BETWEEN_LISTS.sub("", part) for part in parts]


def _for_later_trick(trick: int, standing: list[Reading]) -> str:
    """What the rules do for a later trick whose order is void (IDENTITY-10), in that trick's terms."""
    if standing:
        return f"Trick {trick} is played by your order {standing[0].index + 1}; your other orders stand."
    return (f"With no list standing for trick {trick}, play stops before trick {trick} and waits for your orders of the next turn, "
            "unless your play in it is forced (IDENTITY-10); your lists for the tricks before it stand.")


def _trick_meaning(order: Order, pending: int) -> str:
    trick = order["trick"]
    text = f"trick {trick}: " + (
        "face up the first playable of " + ", ".join(order["play"]) if order["play"] else "no face-up list"
    )
    text += (
        "; with nothing playable, face down the first you still hold of " + ", ".join(order["face_down"])
        if order["face_down"] else "; no face-down list"
    )
    # These words are stored in results.json, which the audit replays byte for byte: changed, they would
    # fail the audit of every campaign adjudicated before (a face-down list is in nearly every turn).
    fallback = (
        "the default plays your lowest legal card" if trick == pending
        else f"play stops before trick {trick} and waits for new orders (unless you have only one choice)"
    )
    return text + f"; where this does not settle your play, {fallback}"


def instead(view: View, player: str, readings: list[Reading]) -> str:
    """What the rules put in place of void or missing orders: the bid completed at random (IDENTITY-4),
    or the default play in the pending trick (IDENTITY-8); "" when the orders that stand settle it."""
    if view["stage"] == "bid":
        chosen = sum(len(r.order["bid"]) for r in readings if r.order is not None and "bid" in r.order)
        if chosen >= 2:
            return ""
        drawn = "both bid cards are" if not chosen else "the second bid card is"
        return f"In its place {drawn} drawn at random from the rest of your hand (IDENTITY-4)."
    pending = view["trick"]
    if any(r.order is not None and r.order.get("trick") == pending for r in readings):
        return ""
    return (f"With no list standing for trick {pending}, your play in it follows the default: your lowest legal card "
            "(IDENTITY-8); with no lists for later tricks, play stops after it unless your plays are forced (IDENTITY-10).")


def form_examples(view: View, player: str) -> list[str]:
    """Orders as sentences the reader takes as they are, each legal for this player now: the answers to
    `help` and the welcome show them beside the form (design 17: a mail of plain sentences is orders)."""
    hand = view["hand"]
    if len(hand) < 2:
        return []
    low, high = hand[0], hand[-1]
    if view["stage"] == "bid":
        total = number(low) + number(high)
        return [f"bid {low} {high}", f"I bid {total:+d} with {low} and {high}"]
    examples = [f"trick {view['trick']}: play {low} {high} down {hand[1]}"]
    if view["trick"] < view["tricks"]:
        examples.append(f"trick {view['trick'] + 1}: play {high}")
    return examples
