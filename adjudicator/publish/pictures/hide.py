"""H.I.D.E.: the buildings with their intel stacks, the ranks on each hideout, the security card, and the
dice in the pool, on top of each screen and in front of it, as the public sees them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...common.words import plural
from ..svg import NARROW, Drawing, legend

_COLOURS = ("red", "blue", "green", "yellow")
_ICON_LINES = {"submarine": ("sub-", "marine"), "satellite": ("satel-", "lite")}
"""Icons too long for a die's width at a readable size, broken where a dictionary hyphenates them (whole,
never cut: "submarine" on one line was squeezed to 0.63 of its width). Two-word icons break between words."""


def _die(d: Drawing, x: float, y: float, die: dict[str, Any] | None, tip: str) -> None:
    """A die: its colour, with its icon in words (a two-word icon on two lines) so that no die is told by colour alone."""
    if not die:
        d.rect(x, y, DIE, 28, "back", 4, tip)
        return
    colour = die.get("colour") if die.get("colour") in _COLOURS else "none"
    icon = die.get("icon") or "?"  # a die whose face is not known to the public
    d.rect(x, y, DIE, 28, f"c-{colour}", 4, f"{tip}: {die.get('colour') or 'unknown colour'} {icon}")
    words = _ICON_LINES.get(icon) or icon.split("-", 1)
    for line, word in enumerate(words):
        d.text(x + DIE / 2, y + (18 if len(words) == 1 else 12 + 10 * line), word, "on-colour small", "middle", DIE - 2)


DIE = 36
"""A die's width: room for its icon's word."""
STEP = DIE + 2


@dataclass(frozen=True)
class _Layout:
    width: int
    building_line: int
    """Buildings in one line."""
    building: int
    """A building's width."""
    pool_x: int
    pool_line: int
    """Dice of the pool in one line."""
    security_x: int
    """Where the security die stands, right of the pool."""
    player: int
    """A player's block: the wide board's row, the narrow board's name, status, then the screen's two lines."""


_WIDE = _Layout(780, 4, 150, 80, 17, 712, 44)
_NARROW = _Layout(NARROW, 2, 165, 10, 7, 314, 106)
"""On a phone: the buildings two by two, the pool seven dice a line, and each player's dice on top of
their screen and in front of it on two lines of their own, the identity die at the right."""


def board(view: dict[str, Any], key: str, narrow: bool = False) -> Drawing:
    players, names = view["players"], view["names"]
    at = _NARROW if narrow else _WIDE
    order = view.get("building_order") or sorted(view["buildings"])
    me = view.get("player")
    if me:  # a player's view: their own identity die and intel stack
        identities = {me: view["identity"]} if view.get("identity") else {}
        stacks = {me: view["stack"]} if view.get("stack") else {}
    else:  # the public view (neither) or the revealed state (everyone's)
        identities = view.get("identity") if isinstance(view.get("identity"), dict) else {}
        stacks = view.get("stacks") if isinstance(view.get("stacks"), dict) else {}
    pool = view.get("pool", [])
    buildings_shift = 106 * ((len(order) - 1) // at.building_line)  # the buildings' lines after the first
    pool_y = 126 + buildings_shift + 16 * narrow  # the narrow board names the pool on a line above it
    shift = pool_y - 126 + 32 * max(0, (len(pool) - 1) // at.pool_line)  # and the pool's lines after the first
    height = 200 + shift + at.player * len(players) + 30
    d = Drawing(
        at.width,
        height,
        f"H.I.D.E., round {view['round']}, {view['stage']}" + (f", as {names[me]} sees it" if me else ""),
        "Buildings: "
        + "; ".join(f"{b} with intel {', '.join(map(str, view['buildings'][b])) or 'none'}" for b in order)
        + (f"; security card on {view['security']}" if view.get("security") else "")
        + ". Ranks on the hideout: "
        + ", ".join(f"{names[p]} {view['ranks'][p]}" for p in players),
        key,
    )
    d.text(10, 18, "buildings and intel stacks (top card last); security card on one", "muted small", room=d.width - 20)
    for i, building in enumerate(order):
        x = 10 + i % at.building_line * (at.building + 10)
        y = 26 + i // at.building_line * 106
        secured = building == view.get("security")
        place = building.replace("-", " ")  # "army base", as the dice and the reports say it
        d.rect(x, y, at.building, 96, "tile", 6, place + (" (security card)" if secured else ""))
        if secured:
            d.rect(x + 3, y + 3, at.building - 6, 90, "hot", 5)
        d.text(x + at.building / 2, y + 18, place, "ink label", "middle", at.building - 10)
        for j, intel in enumerate(view["buildings"][building]):
            d.rect(x + 10 + j * 28, y + 30, 24, 34, "paper", 3, f"intel card worth {intel}")
            d.rect(x + 10 + j * 28, y + 30, 24, 34, "edge", 3)
            d.text(x + 22 + j * 28, y + 52, intel, "ink label", "middle")
        if secured:
            d.text(x + at.building / 2, y + 86, "security", "mark small", "middle")
    if narrow:  # the pool's name above its dice
        d.text(10, pool_y - 8, f"pool ({plural(len(pool), 'die', 'dice')})", "muted small", room=200)
    else:
        d.text(10, pool_y + 16, f"pool ({plural(len(pool), 'die', 'dice')})", "muted small", room=66)
    for i, die in enumerate(pool):
        _die(d, at.pool_x + i % at.pool_line * STEP, pool_y + 32 * (i // at.pool_line), die, "a die in the pool")
    if view.get("security_die"):
        d.text(at.security_x + DIE / 2, pool_y - 8, "security", "muted small", "middle", 50)
        _die(d, at.security_x, pool_y, view["security_die"], "the security die")
    d.text(10, 176 + shift, "player, rank on the hideout; dice on top of the screen | in front", "muted small", room=d.width - 20)
    for row, player in enumerate(players):
        y = 184 + shift + row * at.player
        out = view.get("out", {}).get(player)
        status = f"out (shot by {names[out['by']]})" if out else f"rank {view['ranks'][player]}"
        screen = view.get("screens", {}).get(player, {"top": [], "front": []})
        revealed = view.get("revealed", {}).get(player) or identities.get(player)
        stack = stacks.get(player)
        intel = f"intel {'+'.join(map(str, stack['intel'])) or '0'}" if stack else None
        d.text(10, y + 16, names[player] + (" (you)" if player == me else ""), "ink big", room=d.width - 20 if narrow else 116)
        d.text(10, y + 32, status, "mark small" if out else "muted small", room=150 if narrow else 116)
        if narrow:  # the screen's two sides on two lines, each named; the identity die at the right
            for line, (side, where, dice) in enumerate((("on top", "on", screen["top"]), ("in front", "in front of", screen["front"]))):
                d.text(10, y + 58 + 32 * line, side, "muted small", room=50)
                for i, die in enumerate(dice[:6]):
                    _die(d, 64 + i * STEP, y + 40 + 32 * line, die, f"{where} {names[player]}'s screen")
            if revealed:
                d.text(at.security_x + DIE / 2, y + 34, "identity", "muted small", "middle", 50)
                _die(d, at.security_x, y + 40, revealed, f"{names[player]}'s identity die")
            if intel:
                d.text(170, y + 32, intel, "muted small", room=120)
            continue
        for i, die in enumerate(screen["top"][:6]):
            _die(d, 130 + i * STEP, y + 2, die, f"on {names[player]}'s screen")
        d.line(362, y, 362, y + 32, "edge")
        for i, die in enumerate(screen["front"][:6]):
            _die(d, 368 + i * STEP, y + 2, die, f"in front of {names[player]}'s screen")
        if revealed:
            _die(d, 600, y + 2, revealed, f"{names[player]}'s identity die")
            d.text(640, y + 20, "identity", "muted small", room=50)
        if intel:
            d.text(694, y + 20, intel, "muted small", room=80)
    legend(d, height - 10, [("tile", "a building"), ("hot", "the security card"), ("back", "a die not shown"),
                            ("c-red", "a die: its colour, its icon written on it")])
    return d


def standing(view: dict[str, Any]) -> dict[str, int]:
    return dict(view["ranks"])
