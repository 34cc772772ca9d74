"""Identity: the bids, the tricks of this deal (face-down cards as backs), plus and minus marks, scores."""

from __future__ import annotations

import re
from typing import Any

from ...common.words import plural
from ..svg import NARROW, Drawing, broken, card, hand, hand_height, legend, wrapped

_CARD = re.compile(r"([a-z]+)([+-]\d+)\Z")


def _card(d: Drawing, x: float, y: float, value: str | None, face_up: bool, owner: str) -> None:
    match = _CARD.match(value or "")
    if match is None:
        card(d, x, y, "back", "", f"{owner}: a card played face down")
        return
    colour, face = match.groups()
    card(d, x, y, colour, face, f"{owner}: {colour} {face}" + ("" if face_up else " (played face down)"), not face_up)


def board(view: dict[str, Any], key: str, narrow: bool = False) -> Drawing:
    players, names = view["players"], view["names"]
    tricks = [t for t in view.get("played", []) if t.get("deal") == view.get("deal")]
    width = 250 + 40 * len(players)
    me = view.get("player")
    if me and isinstance(view.get("hand"), list):  # a player's view: their own hand
        hands = {me: view["hand"]}
    else:  # the revealed state: every hand; the public view: none
        hands = view.get("hands") if isinstance(view.get("hands"), dict) else {}
    width = NARROW if narrow else max(width, 130 + 38 * max((len(h) for h in hands.values()), default=0), 520)
    # A name too long for its column goes on in more lines (svg.broken), and its row grows to hold them.
    name_lines = {p: broken(names[p], "ink big", 114) for p in players}
    bid_rows = [max(56, 34 + 18 * (len(name_lines[p]) - 1) + 16 * (p == me)) for p in players]
    bids_bottom = 40 + sum(bid_rows)
    plus_lines = [broken(f"+ {names[t['plus']]}", "good small", 84) if t.get("plus") else [] for t in tricks]
    # Who played, in order: under the cards on a phone's board, beside them on a desktop's.
    by_room = [width - 110 if narrow else width - 100 - len(t["plays"]) * 40 - 14 for t in tricks]
    by_lines = [wrapped(["by " + names[t["plays"][0]["player"]], *(names[p["player"]] for p in t["plays"][1:])], "muted small", room)
                if t["plays"] else [] for t, room in zip(tricks, by_room)]
    trick_rows = [max(72 if narrow else 56, 44 + 12 * len(plus), (62 if narrow else 28) + 12 * len(by) - 2) for plus, by in zip(plus_lines, by_lines)]
    tricks_bottom = bids_bottom + 30 + sum(trick_rows)
    height = tricks_bottom + sum(hand_height(len(h), narrow) for h in hands.values()) + 26
    d = Drawing(
        width,
        height,
        f"Identity, deal {view.get('deal')} of {view.get('deals')}" + (f", as {names[me]} sees it" if me else ""),
        f"{plural(len(tricks), 'trick')} played this deal; "
        + "; ".join(f"{names[p]}: {_bid_words(view, p)}, {view['plus'][p]} plus and {view['minus'][p]} minus, score {view['score'][p]}" for p in players),
        key,
    )
    d.text(10, 18, "bids (two cards each), plus and minus marks this deal, score", "muted small", room=d.width - 20)
    y = 30
    for player, row in zip(players, bid_rows):
        lines = name_lines[player]
        d.lines(10, y + 20, lines, "ink big", room=114, leading=18)
        if player == me:
            d.text(10, y + 18 * len(lines) + 18, "(you)", "good small", room=114)
        bid = view.get("bids", {}).get(player) or []
        for i, value in enumerate(bid[:2]):
            _card(d, 130 + i * 38, y, value, True, names[player])
        if not bid:
            card(d, 130, y, "back", "", f"{names[player]}'s bid, not shown yet")
            card(d, 168, y, "back", "", f"{names[player]}'s bid, not shown yet")
        value = view.get("bid_values", {}).get(player)
        d.text(220, y + 20, f"bid {value}" if value is not None else "bid hidden", "ink label", room=d.width - 230)
        d.text(220, y + 38, f"+{view['plus'][player]} / -{view['minus'][player]}  score {view['score'][player]}", "muted label", room=d.width - 230)
        y += row
    d.text(10, bids_bottom + 14, "tricks of this deal, in the order played" if tricks else "tricks of this deal: none played yet",
           "muted small", room=d.width - 20)
    y = bids_bottom + 24
    for trick, plus, by, room, row in zip(tricks, plus_lines, by_lines, by_room, trick_rows):
        d.text(10, y + 20, f"trick {trick['trick']}", "ink label", room=84)
        if plus:
            d.lines(10, y + 38, plus, "good small", room=84, leading=12)
        for i, play in enumerate(trick["plays"]):
            _card(d, 100 + i * 40, y, play["card"], play["face_up"], names[play["player"]])
        if by:
            d.lines(100 if narrow else d.width - 10 - room, y + (62 if narrow else 28), by, "muted small", room=room, leading=12)
        y += row
    y = tricks_bottom
    for player in (p for p in players if p in hands):
        whose = "your hand" if player == me else f"{names[player]}'s hand"
        for (x, top), value in zip(hand(d, y, whose, len(hands[player]), narrow, 130), hands[player]):
            _card(d, x, top, value, True, names[player])
        y += hand_height(len(hands[player]), narrow)
    legend(d, height - 10, [("back", "a card not shown, or played face down"), ("hot", "framed: played face down"),
                            ("c-orange", "a card: its value and its colour, in words")])
    return d


def _bid_words(view: dict[str, Any], player: str) -> str:
    """A player's bid for the picture's description: its value once shown, else that it is not (before the bids, None)."""
    value = view.get("bid_values", {}).get(player)
    return "bid not shown yet" if value is None else f"bid {value}"


def standing(view: dict[str, Any]) -> dict[str, int]:
    return dict(view["score"])
