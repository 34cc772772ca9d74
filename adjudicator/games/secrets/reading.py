"""Reading Sid's Secrets orders: the rulebook's shorthand and the canonical form, each order
accepted with its meaning or void with a VoidOrder (SECRETS-1, -2, -7, -15, -18)."""

from __future__ import annotations

import re
from typing import Any

from ..base import Reading, View, VoidOrder
from .rules import RANKS, SECRETS, value

# "SID 1 steal David 8", "sid 2 steal Tony secret 6", "SID 3 guard secret 6", "SID 3 guard 6"
_STEAL = re.compile(
    r"\s*sid\s*#?(\d+)\s*[:.,)-]?\s+steals?\s+(?:from\s+)?(.+?)(?:'s)?\s+(?:secret\s+)?(?:#|no\.?\s*)?(\d+)\s*\.?\s*\Z", re.IGNORECASE
)
_GUARD = re.compile(r"\s*sid\s*#?(\d+)\s*[:.,)-]?\s+guards?\s+(?:my\s+|own\s+)?(?:secret\s+)?(?:#|no\.?\s*)?(\d+)\s*\.?\s*\Z", re.IGNORECASE)
_SID_WORD = re.compile(r"\bsid\s*\d", re.IGNORECASE)


def read_orders(view: View, player: str, items: list[tuple[int, Any]]) -> list[Reading]:
    readings: list[Reading] = []
    by_sid: dict[int, list[Reading]] = {}
    for index, item in items:
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
    named = _find_players(view, target["player"])
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
    if len(_SID_WORD.findall(item)) > 1:  # the rulebook's "SID 1 steal Tony 9, SID 6 steal Tony 6"
        raise VoidOrder(
            "several_orders",
            "this item holds more than one order: write each order as its own list item, one per line (- SID 1 steal tony 9)",
        )
    match = _STEAL.match(item)
    if match:
        return {"sid": int(match[1]), "steal": {"player": match[2], "secret": int(match[3])}}
    match = _GUARD.match(item)
    if match:
        return {"sid": int(match[1]), "guard": int(match[2])}
    raise VoidOrder("unreadable", "not understood: write 'SID <rank> steal <player> <secret>' or 'SID <rank> guard secret <secret>'")


def _write(order: dict[str, Any]) -> str:
    if "steal" in order:
        return f"SID {order['sid']} steal {order['steal']['player']} {order['steal']['secret']}"
    return f"SID {order['sid']} guard secret {order['guard']}"


def _find_players(view: View, named: str) -> list[str]:
    """The players a word names, by id or by display name, ignoring case (design 5, SECRETS-15).

    An id wins over a display name, so every player can always be named by id even
    when another player's display name is the same word; a display name shared by
    several players names them all, and the caller voids the order as ambiguous.
    """
    by_id, by_name = _directory(view["players"], view["names"])
    wanted = named.strip().casefold()
    return by_id.get(wanted) or by_name.get(wanted, [])


_directory_cache: list[Any] = [None, None, None]


def _directory(players: list[str], names: dict[str, str]) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Case-folded id and name indexes, built once per state rather than once per order.

    Every view of one state shares its `names` object, so a one-entry cache keyed by
    that object's identity (and holding it, so the identity cannot be reused) turns
    a thousand players' thousands of steals from quadratic into linear work.
    """
    if _directory_cache[0] is not names or _directory_cache[1] is not players:
        by_id: dict[str, list[str]] = {}
        by_name: dict[str, list[str]] = {}
        for player in players:
            by_id.setdefault(player.casefold(), []).append(player)
            by_name.setdefault(names[player].casefold(), []).append(player)
        _directory_cache[:] = [names, players, (by_id, by_name)]
    return _directory_cache[2]


def instead(view: View, player: str, readings: list[Reading]) -> str:
    """A void order places nothing: no SID is placed in its place (SECRETS-8)."""
    return ("No SID is placed in its place (SECRETS-8); your other orders stand."
            if any(r.accepted for r in readings) else
            "With no valid order, none of your SIDs is placed this turn (SECRETS-8).")
