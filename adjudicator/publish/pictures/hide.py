"""H.I.D.E.: the buildings with their intel stacks, the ranks on each hideout, the security card, and the
dice in the pool, on top of each screen and in front of it, as the public sees them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...common.words import plural
from ...games.hide.components import MISSION_TURNS, words
from ...games.hide.rounds import score
from ..svg import NARROW, Drawing, broken, legend

_COLOURS = ("red", "blue", "green", "yellow")
_ICON_LINES = {"submarine": ("sub-", "marine"), "satellite": ("satel-", "lite")}
"""Icons too long for a die's width at a readable size, broken where a dictionary hyphenates them (whole,
never cut: "submarine" on one line was squeezed to 0.63 of its width). Two-word icons break between words."""


def _die(d: Drawing, x: float, y: float, die: dict[str, Any] | None, tip: str) -> None:
    """A die: its colour, with its icon (a two-word icon on two lines) and its colour written on it, so
    that no die is told by colour alone (red and green are one colour to many colour-blind players)."""
    if not die:
        d.rect(x, y, DIE, DIE_HIGH, "back", 4, tip)
        return
    colour = die.get("colour") if die.get("colour") in _COLOURS else None
    icon = die.get("icon") or "?"  # a die whose face is not known to the public
    d.rect(x, y, DIE, DIE_HIGH, f"c-{colour or 'none'}", 4, f"{tip}: {colour or 'unknown colour'} {words(icon)}")
    lines = [*(_ICON_LINES.get(icon) or icon.split("-", 1)), *([colour] if colour else [])]
    for line, word in enumerate(lines):
        d.text(x + DIE / 2, y + (DIE_HIGH - 10 * len(lines)) / 2 + 8 + 10 * line, word, "on-colour small", "middle", DIE - 2)


DIE = 36
"""A die's width: room for its icon's word."""
DIE_HIGH = 40
"""A die's height: its icon's one or two lines and its colour's."""
STEP = DIE + 2
SCREEN = MISSION_TURNS
"""The most dice one screen's side can hold: an agent takes one die a mission turn, four turns a round."""


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
    name_room: int
    """The width of a player's name, status and face-down intel (the wide board's column, the narrow board's line)."""


_WIDE = _Layout(780, 4, 150, 80, 17, 712, 300)
"""On a desktop: each player in a row, their name, status and face-down intel in a column of 300 units
(a name at 15 px in two lines at most: 116 set "Konstantinos Papadopoulos" at 8 px), then the dice on top
of their screen and in front of it, SCREEN each, and the identity die."""
_NARROW = _Layout(NARROW, 2, 165, 10, 7, 314, 290)
"""On a phone: the buildings two by two, the pool seven dice a line, and each player's name across the
board, their status and intel under it, then their dice on top of their screen and in front of it on two
lines of their own, the identity die at the right."""


def _face_down(stack: dict[str, Any], worth: int) -> str:
    """A face-down stack in the private report's words (templates/hide/private.txt.j2): the intel cards,
    the rank cards taken in an assassination that count as intel (HIDE-6), and what they are worth."""
    ranks = f", {plural(stack['ranks'], 'rank card')}" if stack["ranks"] else ""
    return f"face-down intel: {', '.join(map(str, stack['intel'])) or 'no intel cards'}{ranks} (worth {worth})"


def board(view: dict[str, Any], key: str, narrow: bool = False) -> Drawing:
    players, names = view["players"], view["names"]
    at = _NARROW if narrow else _WIDE
    order = view.get("building_order") or sorted(view["buildings"])
    me = view.get("player")
    if me:  # a player's view: their own identity die, intel stack and its worth
        identities = {me: view["identity"]} if view.get("identity") else {}
        stacks = {me: view["stack"]} if view.get("stack") else {}
        worth = {me: view["score"]}
    else:  # the public view (neither) or the revealed state (everyone's)
        identities = view.get("identity") if isinstance(view.get("identity"), dict) else {}
        stacks = view.get("stacks") if isinstance(view.get("stacks"), dict) else {}
        worth = {p: score(view, p) for p in stacks}  # the stacks and the rank cards' value, as the game counts them
    pool = view.get("pool", [])
    screens = {p: view.get("screens", {}).get(p, {"top": [], "front": []}) for p in players}
    shown = {p: view.get("revealed", {}).get(p) or identities.get(p) for p in players}
    security = view.get("security")
    every_die = [*pool, *([view["security_die"]] if view.get("security_die") else []),
                 *(die for p in players for die in [*screens[p]["top"], *screens[p]["front"], *([shown[p]] if shown[p] else [])])]
    heads = {}  # each player's name lines and the lines under them: their status, their face-down intel
    for player in players:
        out = view.get("out", {}).get(player)
        status = f"out (shot by {names[out['by']]})" if out else f"rank {view['ranks'][player]}"
        intel = broken(_face_down(stacks[player], worth[player]), "muted small", at.name_room, 2) if player in stacks else []
        heads[player] = (broken(names[player] + (" (you)" if player == me else ""), "ink big", at.name_room, 2), status, intel)
    # A player's block: the name's lines, the status and intel under them (`head`, to the last one's
    # baseline), beside the dice on a desktop, above the screen's two lines on a phone.
    head = {p: 14 + 18 * len(name) + 14 * len(intel) for p, (name, _, intel) in heads.items()}
    rows = {p: head[p] + 16 + 2 * (DIE_HIGH + 4) if narrow else max(DIE_HIGH + 8, head[p] + 10) for p in players}
    buildings_shift = 106 * ((len(order) - 1) // at.building_line)  # the buildings' lines after the first
    pool_y = 126 + buildings_shift + 16 * narrow  # the narrow board names the pool on a line above it
    players_y = pool_y + DIE_HIGH + 22 + (DIE_HIGH + 4) * max(0, (len(pool) - 1) // at.pool_line)  # and the pool's lines after the first
    height = players_y + 8 + sum(rows.values()) + 30
    d = Drawing(
        at.width,
        height,
        f"H.I.D.E., round {view['round']}, {view['stage']}" + (f", as {names[me]} sees it" if me else ""),
        "Buildings: "
        + "; ".join(f"{words(b)} with intel {', '.join(map(str, view['buildings'][b])) or 'none'}" for b in order)
        + (f"; security card on {words(security)}" if security else "")
        + ". Ranks on the hideout: "
        + ", ".join(f"{names[p]} {view['ranks'][p]}" for p in players),
        key,
    )
    d.text(10, 18, "buildings and intel stacks (top card last)" + ("; security card on one" if security else ""), "muted small", room=d.width - 20)
    for i, building in enumerate(order):
        x = 10 + i % at.building_line * (at.building + 10)
        y = 26 + i // at.building_line * 106
        secured = building == security
        place = words(building)  # "army base", as the dice and the reports say it
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
        _die(d, at.pool_x + i % at.pool_line * STEP, pool_y + (DIE_HIGH + 4) * (i // at.pool_line), die, "a die in the pool")
    if view.get("security_die"):
        d.text(at.security_x + DIE / 2, pool_y - 8, "security", "muted small", "middle", 50)
        _die(d, at.security_x, pool_y, view["security_die"], "the security die")
    d.text(10, players_y, "player, rank on the hideout; dice on top of the screen | in front", "muted small", room=d.width - 20)
    y = players_y + 8
    for player in players:
        name, status, intel = heads[player]
        d.lines(10, y + 16, name, "ink big", room=at.name_room, leading=18)
        below = y + 16 + 18 * len(name)  # the status's line, under the name's last
        d.text(10, below - 2, status, "mark small" if player in view.get("out", {}) else "muted small", room=at.name_room)
        if intel:
            d.lines(10, below + 12, intel, "muted small", room=at.name_room, leading=14)
        screen, revealed = screens[player], shown[player]
        if narrow:  # the screen's two sides on two lines, each named; the identity die at the right
            dice_y = y + head[player] + 10
            for line, (side, where, dice) in enumerate((("on top", "on", screen["top"]), ("in front", "in front of", screen["front"]))):
                d.text(10, dice_y + 24 + (DIE_HIGH + 4) * line, side, "muted small", room=50)
                for i, die in enumerate(dice):
                    _die(d, 64 + i * STEP, dice_y + (DIE_HIGH + 4) * line, die, f"{where} {names[player]}'s screen")
            if revealed:
                d.text(at.security_x + DIE / 2, dice_y - 6, "identity", "muted small", "middle", 50)
                _die(d, at.security_x, dice_y, revealed, f"{names[player]}'s identity die")
        else:
            top_x = 20 + at.name_room
            for i, die in enumerate(screen["top"]):
                _die(d, top_x + i * STEP, y + 2, die, f"on {names[player]}'s screen")
            front_x = top_x + SCREEN * STEP + 10
            d.line(front_x - 6, y, front_x - 6, y + DIE_HIGH + 4, "edge")
            for i, die in enumerate(screen["front"]):
                _die(d, front_x + i * STEP, y + 2, die, f"in front of {names[player]}'s screen")
            if revealed:
                _die(d, front_x + SCREEN * STEP + 10, y + 2, revealed, f"{names[player]}'s identity die")
                d.text(front_x + SCREEN * STEP + 50, y + 24, "identity", "muted small", room=50)
        y += rows[player]
    legend(d, height - 10, [("tile", "a building"), *([("hot", "the security card")] if security else []),
                            *([("back", "a die not shown")] if not all(every_die) else []),
                            *([("c-red", "a die: its icon and its colour written on it")] if any(every_die) else [])])
    return d


def standing(view: dict[str, Any]) -> dict[str, int]:
    return dict(view["ranks"])
