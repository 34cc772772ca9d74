"""Jekyll vs Hyde: the track with the marker, the suit ranking, the tricks won this round and the last trick."""

from __future__ import annotations

import re
from typing import Any

from ...common.words import plural
from ..svg import NARROW, Drawing, card, hand, hand_height, legend

_CARD = re.compile(r"([a-z]+)(\d+)\Z")


def _card(d: Drawing, x: float, y: float, value: str | None, owner: str) -> None:
    match = _CARD.match(value or "")
    if match is None:
        card(d, x, y, "back", "", f"{owner}: a card not shown")
        return
    suit, face = match.groups()
    card(d, x, y, suit if suit in ("red", "green", "purple", "potion") else "none", face, f"{owner}: {suit} {face}")


TRACK_LINE = 11
"""Spaces of the track in one line on the narrow board."""
WIDE_TRACK_LINE = 25
"""Spaces in one line on the wide board: a track of up to 24 steps is spread over the line's 600 units;
a longer one (the option goes to 40) goes on in a second line, as its spaces would overlap at 24 units each."""
TRACK_PITCH = 70
"""From one line of the track to the next: a space, the marker under it, and the end's name ("Jekyll") clear of the next line."""


def board(view: dict[str, Any], key: str, narrow: bool = False) -> Drawing:
    players, names, roles = view["players"], view["names"], view["roles"]
    track, marker = view["track"], view["marker"]
    me = view.get("player")
    if me and isinstance(view.get("hand"), list):  # a player's view: their own hand
        hands = {me: view["hand"]}
    else:  # the revealed state: both hands; the public view: none
        hands = view.get("hands") if isinstance(view.get("hands"), dict) else {}
    hands = {p: hands[p][:12] for p in sorted(hands, key=players.index)}
    # The narrow board: the track in lines of eleven spaces, the last trick under the tricks won,
    # each hand's name on a line of its own and its cards in lines under it.
    per_line = TRACK_LINE if narrow else WIDE_TRACK_LINE
    shift = TRACK_PITCH * (track // per_line)
    last_x, last_y = (10, 236 + shift) if narrow else (340, 170 + shift)
    hands_y = (310 if narrow else 244) + shift
    height = hands_y + sum(hand_height(len(h), narrow) + 4 for h in hands.values()) + 30
    d = Drawing(
        NARROW if narrow else 660,
        height,
        f"Jekyll vs Hyde, round {view['round']}" + (f", as {names[me]} sees it" if me else ""),
        f"The marker stands at {marker} of {track} towards Hyde. Suit ranking: {', '.join(view['ranking']) or 'not set yet'}. "
        + ", ".join(f"{names[p]} ({roles[p]}) has won {plural(view['tricks_won'][p], 'trick')} this round" for p in players),
        key,
    )
    d.text(10, 18, "the track: Jekyll's end at 0, Hyde's at the far end", "muted small", room=d.width - 20)

    def space(i: int) -> tuple[float, float]:
        """The middle of space `i` and the top of its line."""
        if narrow:
            return 22 + i % TRACK_LINE * 30, 26 + TRACK_PITCH * (i // TRACK_LINE)
        return 20 + i % WIDE_TRACK_LINE * (600 / max(min(track, WIDE_TRACK_LINE - 1), 1)), 26 + TRACK_PITCH * (i // WIDE_TRACK_LINE)

    for i in range(track + 1):
        x, y = space(i)
        d.rect(x - 12, y, 24, 24, "hot" if i == marker else "tile", 4, f"space {i}" + (" (the marker)" if i == marker else ""))
        d.text(x, y + 16, i, "ink small", "middle")
    x, y = space(marker)
    d.circle(x, y + 36, 7, "mark")
    for end, name in ((0, "Jekyll"), (track, "Hyde")):
        x, y = space(end)
        d.text(x, y + 58, name, "ink small", "middle")
    d.text(10, 110 + shift, "suit ranking, strongest first:", "muted small", room=164)
    for i, suit in enumerate(view["ranking"]):
        card(d, 180 + i * 40, 96 + shift, suit, str(i + 1), f"rank {i + 1}: {suit}")
    if not view["ranking"]:  # JEKYLL-8: no colour played yet this round, or a Wrath potion just cleared it
        if narrow:
            d.text(10, 126 + shift, "none yet: the first colour played ranks lowest", "ink small", room=d.width - 20)
        else:
            d.text(180, 110 + shift, "none yet: the first colour played ranks lowest", "ink small", room=460)
    d.text(10, 170 + shift, "tricks won this round", "muted small", room=320)
    for row, player in enumerate(players):
        you = " (you)" if player == me else ""
        d.text(10, 190 + shift + row * 18, f"{names[player]}{you}, {roles[player].capitalize()}: {view['tricks_won'][player]}", "ink label", room=d.width - 20 if narrow else 320)
    played = view.get("played") or []
    if played:
        trick = played[-1]
        d.text(last_x, last_y, f"last trick ({trick['trick']}), won by {names[trick['winner']]}", "muted small", room=d.width - last_x - 10)
        _card(d, last_x, last_y + 10, trick["lead"], names[trick["leader"]])
        _card(d, last_x + 40, last_y + 10, trick["follow"], names[trick["follower"]])
    y = hands_y
    for player, cards in hands.items():
        whose = "your hand" if player == me else f"{names[player]}'s hand"
        for (x, top), value in zip(hand(d, y, whose, len(cards), narrow, 120), cards):
            _card(d, x, top, value, names[player])
        y += hand_height(len(cards), narrow) + 4
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
