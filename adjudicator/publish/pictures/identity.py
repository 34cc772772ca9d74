"""Identity: the bids, the tricks of this deal (face-down cards as backs), plus and minus marks, scores."""

from __future__ import annotations

import re
from typing import Any

from ..svg import Drawing, card, fit

_CARD = re.compile(r"([a-z]+)([+-]\d+)\Z")


def _card(d: Drawing, x: float, y: float, value: str | None, face_up: bool, owner: str) -> None:
    match = _CARD.match(value or "")
    if match is None:
        card(d, x, y, "back", "", f"{owner}: a card played face down")
        return
    colour, face = match.groups()
    card(d, x, y, colour, face, f"{owner}: {colour} {face}" + ("" if face_up else " (played face down)"), not face_up)


def board(view: dict[str, Any], key: str) -> Drawing:
    players, names = view["players"], view["names"]
    tricks = [t for t in view.get("played", []) if t.get("deal") == view.get("deal")]
    width = 250 + 40 * len(players)
    bids_bottom = 40 + 56 * len(players)
    hands = view.get("hands") if isinstance(view.get("hands"), dict) else {}  # the revealed state only
    tricks_bottom = bids_bottom + 30 + 56 * len(tricks)
    height = tricks_bottom + 56 * len(hands)
    d = Drawing(
        max(width, 130 + 38 * max((len(h) for h in hands.values()), default=0), 520),
        height,
        f"Identity, deal {view.get('deal')} of {view.get('deals')}",
        f"{len(tricks)} tricks played this deal; "
        + "; ".join(f"{names[p]}: bid {view.get('bid_values', {}).get(p, 'not shown')}, {view['plus'][p]} plus and {view['minus'][p]} minus, score {view['score'][p]}" for p in players),
        key,
    )
    d.text(10, 18, "bids (two cards each), plus and minus marks this deal, score", "muted small")
    for row, player in enumerate(players):
        y = 30 + row * 56
        d.text(10, y + 20, fit(names[player], 14), "ink big")
        bid = view.get("bids", {}).get(player) or []
        for i, value in enumerate(bid[:2]):
            _card(d, 130 + i * 38, y, value, True, names[player])
        if not bid:
            card(d, 130, y, "back", "", f"{names[player]}'s bid, not shown yet")
            card(d, 168, y, "back", "", f"{names[player]}'s bid, not shown yet")
        value = view.get("bid_values", {}).get(player)
        d.text(220, y + 20, f"bid {value}" if value is not None else "bid hidden", "ink label")
        d.text(220, y + 38, f"+{view['plus'][player]} / -{view['minus'][player]}  score {view['score'][player]}", "muted label")
    d.text(10, bids_bottom + 14, "tricks of this deal, in the order played (a framed card was played face down)", "muted small")
    for row, trick in enumerate(tricks):
        y = bids_bottom + 24 + row * 56
        d.text(10, y + 20, f"trick {trick['trick']}", "ink label")
        if trick.get("plus"):
            d.text(10, y + 38, f"+ {fit(names[trick['plus']], 10)}", "good small")
        for i, play in enumerate(trick["plays"]):
            _card(d, 100 + i * 40, y, play["card"], play["face_up"], names[play["player"]])
    for row, player in enumerate(p for p in players if p in hands):
        y = tricks_bottom + row * 56
        d.text(10, y + 20, f"{fit(names[player], 10)}'s hand", "ink label")
        for i, value in enumerate(hands[player]):
            _card(d, 130 + i * 38, y, value, True, names[player])
    return d


def standing(view: dict[str, Any]) -> dict[str, int]:
    return dict(view["score"])
