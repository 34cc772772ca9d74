"""Reading Sid's Secrets orders: the rulebook's shorthand and the canonical form, each order
accepted with its meaning or void with a VoidOrder (SECRETS-1, -2, -7, -15, -18)."""

from __future__ import annotations

import re
from typing import Any

from .. import players
from ..base import Reading, View, VoidOrder
from ..wording import plain
from .rules import RANKS, SECRETS, value

# The verbs players use: "nicks", "pinches", "swipes" are steals; "sits on", "protects" are guards.
_STEAL_VERB = r"(?:steals?|nick(?:s)?|pinch(?:es)?|swipes?|snatch(?:es)?|grabs?|takes?|robs?)"
_GUARD_VERB = r"(?:guards?|protects?|defends?|watch(?:es)?(?:\s+over)?|sits?\s+on|covers?|keeps?)"
_SID = r"(?:my\s+)?sid\s*#?(\d+)\s*[:.,)-]?"
_SECRET = r"(?:secret\s+)?(?:#|no\.?\s*)?(\d+)"
_END = r"\s*[.!]?\s*\Z"
# "SID 1 steal David 8", "sid 2 steals Tony's secret 6", "my SID 2 nicks Bob's 10"
_STEAL = re.compile(rf"\s*{_SID}\s+{_STEAL_VERB}\s+(?:from\s+)?(.+?)(?:'s)?\s+{_SECRET}{_END}", re.IGNORECASE)
# "SID 4 steals secret 9 from Dora"
_STEAL_FROM = re.compile(rf"\s*{_SID}\s+{_STEAL_VERB}\s+{_SECRET}\s+(?:from|of)\s+(.+?){_END}", re.IGNORECASE)
# "Steal Carla's secret 8 with SID 5"
_STEAL_WITH = re.compile(rf"\s*{_STEAL_VERB}\s+(.+?)(?:'s)?\s+{_SECRET}\s+(?:with|using|by)\s+{_SID}{_END}", re.IGNORECASE)
# "SID 3 guard secret 6", "SID 7 guards my 9", "SID 3 sits on my 10"
_GUARD = re.compile(rf"\s*{_SID}\s+{_GUARD_VERB}\s+(?:my\s+|own\s+)?(?:own\s+)?{_SECRET}{_END}", re.IGNORECASE)
# "guard my secret 6 with SID 3"
_GUARD_WITH = re.compile(rf"\s*{_GUARD_VERB}\s+(?:my\s+|own\s+)?{_SECRET}\s+(?:with|using|by)\s+{_SID}{_END}", re.IGNORECASE)
_SID_WORD = re.compile(r"\bsid\s*#?\d", re.IGNORECASE)
# "SIDs 3 and 7 steal Bart 9", "SID 2, 5 & 6 guard my 10", "my SIDs 1 + 4 protect secret 8": the rulebook's
# two or more SIDs sent to one secret together, their ranks added (SECRETS-3), written as one order.
_TOGETHER = re.compile(r"\s*(?:my\s+)?sids?\s*#?(\d+)((?:\s*(?:,|&|\+|\band\b)\s*(?:sid\s*#?)?\d+)+)\s+(?![\d,&+]|and\b)(.+)", re.IGNORECASE)
_BETWEEN_ORDERS = re.compile(r"\s*(?:,|;|\band\b|\bthen\b)\s*(?:and\s+|then\s+)?", re.IGNORECASE)


def read_orders(view: View, player: str, items: list[tuple[int, Any]]) -> list[Reading]:
    """Each order with its meaning or why it is void; an item holding several orders gives a reading for
    each, under the item's number."""
    readings: list[Reading] = []
    by_sid: dict[int, list[Reading]] = {}
    for index, item in ((index, order) for index, whole in items for order in orders_in(whole)):
        written = item if isinstance(item, str) else _write(item)
        reading = Reading(index=index, written=written.strip())
        readings.append(reading)
        try:
            parsed = _parse(item)
        except VoidOrder as void:
            reading.refuse(void)
            continue
        # every order that names a SID counts, void or not (SECRETS-18)
        by_sid.setdefault(parsed["sid"], []).append(reading)
        try:
            reading.order, reading.meaning = _read_one(view, player, parsed)
        except VoidOrder as void:
            reading.refuse(void)
    for sid, same in by_sid.items():
        if len(same) > 1:  # SECRETS-1: every order of a doubly-ordered SID is void
            reason = f"SID {sid} was given {len(same)} orders this turn, so none of them stands"
            for reading in same:
                words = f"{reason} (and this one alone would be void: {reading.void})" if reading.void else reason
                reading.refuse(VoidOrder("sid_ordered_twice", words))
    return readings


def _read_one(view: View, player: str, parsed: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The canonical order and its meaning, or the VoidOrder that says why it cannot stand."""
    sid = parsed["sid"]
    if sid not in RANKS:
        raise VoidOrder("no_such_sid", f"there is no SID {sid}: ranks run from 1 to 7")
    if sid not in view["sids"][player]:
        raise VoidOrder("sid_captured", f"your SID {sid} was captured in an earlier turn")
    if "steal" in parsed:
        return _read_steal(view, player, sid, parsed["steal"])
    return _read_guard(view, player, sid, parsed["guard"])


def _read_steal(view: View, player: str, sid: int, target: dict[str, Any]) -> tuple[dict[str, Any], str]:
    named = players.named(view["players"], view["names"], target["player"])
    secret = target["secret"]
    if not named:
        known = ", ".join(f"{p} ({view['names'][p]})" for p in view["players"])
        raise VoidOrder("no_such_player", f"there is no player called '{target['player']}' (players: {known})")
    if len(named) > 1:
        which = ", ".join(named)
        raise VoidOrder(
            "ambiguous_player", f"'{target['player']}' is the name of more than one player ({which}): name the player by id"
        )
    victim = named[0]
    if secret not in SECRETS:
        raise VoidOrder("no_such_secret", f"there is no secret {secret}: secrets run from 1 to 10")
    if victim == player:
        raise VoidOrder("own_secret", "a SID cannot steal its own player's secret")
    if secret not in view["secrets"][victim]:
        raise VoidOrder(
            "secret_gone", f"{view['names'][victim]}'s secret {secret} was stolen in an earlier turn, so SID {sid} is not placed"
        )
    meaning = f"SID {sid} tries to steal {view['names'][victim]}'s secret {secret} (worth {value(secret)})"
    return {"sid": sid, "steal": {"player": victim, "secret": secret}}, meaning


def _read_guard(view: View, player: str, sid: int, secret: int) -> tuple[dict[str, Any], str]:
    if secret not in SECRETS:
        raise VoidOrder("no_such_secret", f"there is no secret {secret}: secrets run from 1 to 10")
    if secret not in view["secrets"][player]:
        raise VoidOrder("secret_gone", f"your secret {secret} was stolen in an earlier turn, so SID {sid} is not placed")
    if {"sid": sid, "secret": secret} in view["restrictions"]:
        raise VoidOrder(
            "guard_repeated",
            f"SID {sid} guarded secret {secret} last turn and nobody tried to steal it, "
            f"so it may not guard secret {secret} this turn",
        )
    return {"sid": sid, "guard": secret}, f"SID {sid} guards your secret {secret} (worth {value(secret)})"


def form_examples(view: View, player: str) -> list[str]:
    """The shorthand orders the order form suggests, each legal for this player now: a SID
    still free, a secret its owner still holds, a guard no restriction forbids."""
    sids, examples = view["sids"][player], []
    victim = next((p for p in view["players"] if p != player and view["secrets"][p]), None)
    if sids and victim is not None:
        examples.append(f"SID {sids[0]} steal {victim} {view['secrets'][victim][-1]}")
    guard = sids[len(examples)] if len(sids) > len(examples) else None  # another SID than the thief's
    if guard is not None:
        barred = {r["secret"] for r in view["restrictions"] if r["sid"] == guard}
        secret = next((s for s in reversed(view["secrets"][player]) if s not in barred), None)
        if secret is not None:
            examples.append(f"SID {guard} guard secret {secret}")
    return examples


def _parse(item: Any) -> dict[str, Any]:
    """The item in canonical shape, or a VoidOrder saying why it cannot be read."""
    if isinstance(item, dict):
        return item
    if not item.rstrip().endswith(","):  # a trailing comma stays void (SECRETS-14): an order after it may be lost
        item = plain(item)  # "I'll ...", "please", a full stop: no part of the order
    if len(_SID_WORD.findall(item)) > 1:
        raise VoidOrder(
            "several_orders",
            "this item holds more than one order, and not every part of it reads as one order on its own: write each "
            "order as its own list item, one per line (- SID 1 steal tony 9)",
        )
    if match := _STEAL.match(item):
        return {"sid": int(match[1]), "steal": {"player": match[2], "secret": int(match[3])}}
    if match := _STEAL_FROM.match(item):
        return {"sid": int(match[1]), "steal": {"player": match[3], "secret": int(match[2])}}
    if match := _STEAL_WITH.match(item):
        return {"sid": int(match[3]), "steal": {"player": match[1], "secret": int(match[2])}}
    if match := _GUARD.match(item):
        return {"sid": int(match[1]), "guard": int(match[2])}
    if match := _GUARD_WITH.match(item):
        return {"sid": int(match[2]), "guard": int(match[1])}
    raise VoidOrder("unreadable", "not understood: write 'SID <rank> steal <player> <secret>' or 'SID <rank> guard secret <secret>'")


def orders_in(item: Any) -> list[Any]:
    """The orders one list item holds: the rulebook's "SID 1 steal Tony 9, SID 6 guard secret 6" is two,
    split at its commas, semicolons, "and" or "then" when every part reads as an order alone (design 17:
    comma text where a list is asked); "SIDs 3 and 7 steal Bart 9" is one order for each SID when each
    reads; any other item is itself, and one naming two SIDs is void."""
    if isinstance(item, str) and (together := _TOGETHER.fullmatch(item)):
        sent = [f"SID {rank} {together[3].strip()}" for rank in (together[1], *re.findall(r"\d+", together[2]))]
        if all(_reads(order) for order in sent):
            return sent
    if not isinstance(item, str) or len(_SID_WORD.findall(item)) < 2:
        return [item]
    parts = [part.strip() for part in _BETWEEN_ORDERS.split(item.strip().rstrip(".")) if part.strip()]
    return parts if len(parts) > 1 and all(_reads(part) for part in parts) else [item]


def _reads(part: str) -> bool:
    try:
        _parse(part)
    except VoidOrder:
        return False
    return True


def _write(order: dict[str, Any]) -> str:
    if "steal" in order:
        return f"SID {order['sid']} steal {order['steal']['player']} {order['steal']['secret']}"
    return f"SID {order['sid']} guard secret {order['guard']}"


def instead(view: View, player: str, readings: list[Reading]) -> str:
    """A void order places nothing: no SID is placed in its place (SECRETS-8)."""
    return ("No SID is placed in its place (SECRETS-8); your other orders stand."
            if any(r.accepted for r in readings) else
            "With no valid order, none of your SIDs is placed this turn (SECRETS-8).")
