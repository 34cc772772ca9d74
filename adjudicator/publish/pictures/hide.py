"""H.I.D.E.: the buildings with their intel stacks, the ranks on each hideout, the security card, and the
dice in the pool, on top of each screen and in front of it, as the public sees them."""

from __future__ import annotations

from typing import Any

from ...common.words import plural
from ..svg import Drawing, legend

_COLOURS = ("red", "blue", "green", "yellow")


def _die(d: Drawing, x: float, y: float, die: dict[str, Any] | None, tip: str) -> None:
    """A die: its colour, with its icon in words (a two-word icon on two lines) so that no die is told by colour alone."""
    if not die:
        d.rect(x, y, DIE, 28, "back", 4, tip)
        return
    colour = die.get("colour") if die.get("colour") in _COLOURS else "none"
    icon = die.get("icon") or "?"  # a die whose face is not known to the public
    d.rect(x, y, DIE, 28, f"c-{colour}", 4, f"{tip}: {die.get('colour') or 'unknown colour'} {icon}")
    words = icon.split("-", 1)
    for line, word in enumerate(words):
        d.text(x + DIE / 2, y + (18 if len(words) == 1 else 12 + 10 * line), word, "on-colour small", "middle", DIE - 2)


DIE = 36
"""A die's width: room for its icon's word."""
STEP = DIE + 2
POOL_ROW = 17
"""Dice of the pool in one line."""


def board(view: dict[str, Any], key: str) -> Drawing:
    players, names = view["players"], view["names"]
    order = view.get("building_order") or sorted(view["buildings"])
    me = view.get("player")
    if me:  # a player's view: their own identity die and intel stack
        identities = {me: view["identity"]} if view.get("identity") else {}
        stacks = {me: view["stack"]} if view.get("stack") else {}
    else:  # the public view (neither) or the revealed state (everyone's)
        identities = view.get("identity") if isinstance(view.get("identity"), dict) else {}
        stacks = view.get("stacks") if isinstance(view.get("stacks"), dict) else {}
    pool = view.get("pool", [])
    shift = 32 * max(0, (len(pool) - 1) // POOL_ROW)  # the pool's lines after the first
    height = 200 + shift + 44 * len(players) + 30
    d = Drawing(
        780,
        height,
        f"H.I.D.E., round {view['round']}, {view['stage']}" + (f", as {names[me]} sees it" if me else ""),
        "Buildings: "
        + "; ".join(f"{b} with intel {', '.join(map(str, view['buildings'][b])) or 'none'}" for b in order)
        + (f"; security card on {view['security']}" if view.get("security") else "")
        + ". Ranks on the hideout: "
        + ", ".join(f"{names[p]} {view['ranks'][p]}" for p in players),
        key,
    )
    d.text(10, 18, "buildings and their intel stacks (top card last); the security card guards one building", "muted small", room=760)
    for i, building in enumerate(order):
        x = 10 + i * 160
        secured = building == view.get("security")
        place = building.replace("-", " ")  # "army base", as the dice and the reports say it
        d.rect(x, 26, 150, 96, "tile", 6, place + (" (security card)" if secured else ""))
        if secured:
            d.rect(x + 3, 29, 144, 90, "hot", 5)
        d.text(x + 75, 44, place, "ink label", "middle", 140)
        for j, intel in enumerate(view["buildings"][building]):
            d.rect(x + 10 + j * 28, 56, 24, 34, "paper", 3, f"intel card worth {intel}")
            d.rect(x + 10 + j * 28, 56, 24, 34, "edge", 3)
            d.text(x + 22 + j * 28, 78, intel, "ink label", "middle")
        if secured:
            d.text(x + 75, 112, "security", "mark small", "middle")
    d.text(10, 142, f"pool ({plural(len(pool), 'die', 'dice')})", "muted small", room=66)
    for i, die in enumerate(pool):
        _die(d, 80 + i % POOL_ROW * STEP, 126 + 32 * (i // POOL_ROW), die, "a die in the pool")
    if view.get("security_die"):
        d.text(730, 118, "security", "muted small", "middle", 50)
        _die(d, 712, 126, view["security_die"], "the security die")
    d.text(10, 176 + shift, "player and rank on the hideout; dice on top of the screen | in front of it", "muted small", room=760)
    for row, player in enumerate(players):
        y = 184 + shift + row * 44
        out = view.get("out", {}).get(player)
        d.text(10, y + 16, names[player] + (" (you)" if player == me else ""), "ink big", room=116)
        status = f"out (shot by {names[out['by']]})" if out else f"rank {view['ranks'][player]}"
        d.text(10, y + 32, status, "mark small" if out else "muted small", room=116)
        screen = view.get("screens", {}).get(player, {"top": [], "front": []})
        for i, die in enumerate(screen["top"][:6]):
            _die(d, 130 + i * STEP, y + 2, die, f"on {names[player]}'s screen")
        d.line(362, y, 362, y + 32, "edge")
        for i, die in enumerate(screen["front"][:6]):
            _die(d, 368 + i * STEP, y + 2, die, f"in front of {names[player]}'s screen")
        revealed = view.get("revealed", {}).get(player) or identities.get(player)
        if revealed:
            _die(d, 600, y + 2, revealed, f"{names[player]}'s identity die")
            d.text(640, y + 20, "identity", "muted small", room=50)
        stack = stacks.get(player)
        if stack:
            d.text(694, y + 20, f"intel {'+'.join(map(str, stack['intel'])) or '0'}", "muted small", room=80)
    legend(d, height - 10, [("tile", "a building"), ("hot", "the security card"), ("back", "a die not shown"),
                            ("c-red", "a die: its colour, its icon written on it")])
    return d


def standing(view: dict[str, Any]) -> dict[str, int]:
    return dict(view["ranks"])
