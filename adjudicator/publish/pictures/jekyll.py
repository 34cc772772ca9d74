"""Jekyll vs Hyde: the track with the marker, the suit ranking, the tricks won this round and the last trick."""

from __future__ import annotations

import re
from typing import Any

from ...common.words import plural
from ..svg import Drawing, card, legend

_CARD = re.compile(r"([a-z]+)(\d+)\Z")


def _card(d: Drawing, x: float, y: float, value: str | None, owner: str) -> None:
    match = _CARD.match(value or "")
    if match is None:
        card(d, x, y, "back", "", f"{owner}: a card not shown")
        return
    suit, face = match.groups()
    card(d, x, y, suit if suit in ("red", "green", "purple", "potion") else "none", face, f"{owner}: {suit} {face}")


def board(view: dict[str, Any], key: str) -> Drawing:
    players, names, roles = view["players"], view["names"], view["roles"]
    track, marker = view["track"], view["marker"]
    me = view.get("player")
    if me and isinstance(view.get("hand"), list):  # a player's view: their own hand
        hands = {me: view["hand"]}
    else:  # the revealed state: both hands; the public view: none
        hands = view.get("hands") if isinstance(view.get("hands"), dict) else {}
    height = 250 + 60 * len(hands) + 24
    d = Drawing(
        660,
        height,
        f"Jekyll vs Hyde, round {view['round']}" + (f", as {names[me]} sees it" if me else ""),
        f"The marker stands at {marker} of {track} towards Hyde. Suit ranking: {', '.join(view['ranking']) or 'not set yet'}. "
        + ", ".join(f"{names[p]} ({roles[p]}) has won {plural(view['tricks_won'][p], 'trick')} this round" for p in players),
        key,
    )
    d.text(10, 18, "the track: Jekyll's end at 0, Hyde's at the far end", "muted small", room=640)
    step = 600 / max(track, 1)
    for i in range(track + 1):
        x = 20 + i * step
        d.rect(x - 12, 26, 24, 24, "hot" if i == marker else "tile", 4, f"space {i}" + (" (the marker)" if i == marker else ""))
        d.text(x, 42, i, "ink small", "middle")
    d.circle(20 + marker * step, 62, 7, "mark")
    d.text(20, 84, "Jekyll", "ink small", "middle")
    d.text(620, 84, "Hyde", "ink small", "middle")
    d.text(10, 110, "suit ranking, strongest first:", "muted small", room=164)
    for i, suit in enumerate(view["ranking"]):
        card(d, 180 + i * 40, 96, suit, str(i + 1), f"rank {i + 1}: {suit}")
    if not view["ranking"]:  # JEKYLL-8: no colour played yet this round, or a Wrath potion just cleared it
        d.text(180, 110, "none yet: the first colour played ranks lowest", "ink small", room=460)
    d.text(10, 170, "tricks won this round", "muted small", room=320)
    for row, player in enumerate(players):
        you = " (you)" if player == me else ""
        d.text(10, 190 + row * 18, f"{names[player]}{you}, {roles[player].capitalize()}: {view['tricks_won'][player]}", "ink label", room=320)
    played = view.get("played") or []
    if played:
        trick = played[-1]
        d.text(340, 170, f"last trick ({trick['trick']}), won by {names[trick['winner']]}", "muted small", room=310)
        _card(d, 340, 180, trick["lead"], names[trick["leader"]])
        _card(d, 380, 180, trick["follow"], names[trick["follower"]])
    for row, player in enumerate(sorted(hands, key=players.index)):
        y = 244 + row * 60
        d.text(10, y + 20, "your hand" if player == me else f"{names[player]}'s hand", "ink label", room=104)
        for i, value in enumerate(hands[player][:12]):
            _card(d, 120 + i * 38, y, value, names[player])
    legend(d, height - 10, [("hot", "the marker's space"), ("circle:mark", "the marker"),
                            ("c-purple", "a card: its value and its suit, in words"), ("back", "a card not shown")])
    return d


def standing(view: dict[str, Any]) -> dict[str, int]:
    """The marker's spaces from each player's opponent's end: for Hyde, how far it has come from
    Jekyll's end; for Dr. Jekyll, how far it still is from Hyde's (Hyde wins when his count reaches
    the track's length). The tricks won start again at 0 every round, so they would chart nothing
    of the game's course."""
    marker, track = view["marker"], view["track"]
    return {p: marker if view["roles"][p] == "hyde" else track - marker for p in view["players"]}
