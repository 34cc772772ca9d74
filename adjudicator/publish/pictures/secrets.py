"""Sid's Secrets: each player's ten secrets (stolen ones marked with the thief) and seven SIDs
(captured ones with their captor); from a player's view, the guards only they know of too."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...common.words import plural
from ..svg import NARROW, Drawing, legend, wrapped

@dataclass(frozen=True)
class _Layout:
    """Where a player's secrets and SIDs go, below the top of their block."""

    width: int
    per_line: int
    """Secrets in one line."""
    secret_x: int
    secret_y: int
    tile: int
    """A secret's tile width; its cell is `tile + 4`, the room of the thief's name under it."""
    sid_x: int
    sid_y: int
    captured_room: int


_WIDE = _Layout(680, 5, 120, 0, 64, 480, 0, 190)
"""On a desktop: the name, the secrets in two lines of five (room for the thief's name under each at
its own size: ten in a line left it a tile's width, "Konstantinos" squeezed to 0.6 of itself), and the
SIDs side by side, what was captured in as many lines as it takes under the SIDs."""
_NARROW = _Layout(NARROW, 5, 10, 40, 64, 10, 158, NARROW - 20)
"""On a phone: the name on a line of its own, the secrets in two lines of five, the SIDs under them,
what was captured in as many lines as it takes."""


def board(view: dict[str, Any], key: str, narrow: bool = False) -> Drawing:
    players, names = view["players"], view["names"]
    me = view.get("player")
    at = _NARROW if narrow else _WIDE
    thief = {(s["owner"], s["secret"]): s["by"] for s in view["stolen"]}
    captor = {(c["player"], c["sid"]): c["by"] for c in view["captured"]}
    # Which SID guarded which secret without meeting a thief: every player's in the revealed
    # state, the viewer's own in a player's view (SECRETS-10), nobody's in the public one.
    restrictions = view.get("restrictions")
    if isinstance(restrictions, list):
        restrictions = {me: restrictions} if me else {}
    unmet = {(p, r["secret"]): r["sid"] for p, rs in restrictions.items() for r in rs} if isinstance(restrictions, dict) else {}
    captured_lines = {}
    for player in players:
        taken = [f"{sid} by {names[captor[(player, sid)]]}" for sid in range(1, 8) if (player, sid) in captor]
        items = [f"captured: {taken[0]}", *taken[1:]] if taken else []
        captured_lines[player] = wrapped(items, 10, at.captured_room)
    tops, y = {}, 30
    for player in players:
        tops[player] = y
        # A block is as tall as its secrets' two lines or its SIDs and captured lines, whichever ends lower.
        y += max(at.secret_y + 60 * (10 // at.per_line) + 4, at.sid_y + 38 + 14 * len(captured_lines[player]))
    height = y + 26
    seen_by = f", as {names[me]} sees it" if me else ""
    d = Drawing(
        at.width,
        height,
        f"Sid's Secrets after turn {view['turn']} of {view['turns']}{seen_by}",
        f"{plural(len(view['stolen']), 'secret')} stolen and {plural(len(view['captured']), 'SID')} captured so far; "
        + "; ".join(f"{names[p]}: {plural(view['score'][p], 'point')}, {plural(len(view['secrets'][p]), 'secret')} and {plural(len(view['sids'][p]), 'SID')} left" for p in players),
        key,
    )
    d.text(10, 18, "each player's secrets 1-10 (secret n is worth 2n-1 points) and SIDs 1-7", "muted small", room=d.width - 20)
    for player in players:
        y = tops[player]
        if narrow:  # the name across the board, the points and "(you)" under it
            d.text(10, y + 16, names[player], "ink big", room=d.width - 20)
            d.text(10, y + 32, plural(view["score"][player], "point"), "muted label", room=84)
            if player == me:
                d.text(100, y + 32, "(you)", "good small", room=60)
        else:
            d.text(10, y + 16, names[player], "ink big", room=106)
            d.text(10, y + 34, plural(view['score'][player], "point"), "muted label", room=106)
            if player == me:
                d.text(10, y + 50, "(you)", "good small", room=106)
        cell = at.tile + 4
        for secret in range(1, 11):
            x = at.secret_x + (secret - 1) % at.per_line * cell
            top = y + at.secret_y + (secret - 1) // at.per_line * 60
            middle = x + at.tile / 2
            taken = thief.get((player, secret))
            tip = f"{names[player]}'s secret {secret}" + (f", stolen by {names[taken]}" if taken else "")
            d.rect(x, top, at.tile, 30, "gone" if taken else "tile", 3, tip)
            d.text(middle, top + 19, secret, "muted label" if taken else "ink label", "middle")
            if taken:
                d.line(x + 3, top + 27, x + at.tile - 3, top + 3, "edge")
                d.text(middle, top + 42, names[taken], "mark small", "middle", cell - 1)
            if (player, secret) in unmet:
                d.text(middle, top + 54, f"SID {unmet[(player, secret)]}", "good small", "middle", cell - 1)
        for sid in range(1, 8):
            x = at.sid_x + (sid - 1) * 26
            taken = captor.get((player, sid))
            d.circle(x + 9, y + at.sid_y + 14, 9, "gone" if taken else "tile")
            d.text(x + 9, y + at.sid_y + 18, sid, "muted small" if taken else "ink small", "middle")
        for line, words in enumerate(captured_lines[player]):
            d.text(at.sid_x, y + at.sid_y + 42 + 14 * line, words, "mark small", room=at.captured_room)
    legend(d, height - 10, [
        ("tile", "a secret kept, or a SID free"),
        ("gone", "stolen (the thief under it) or captured"),
        *([("good", "SID n under a secret: it guarded it, unmet")] if unmet else []),
    ])
    return d


def standing(view: dict[str, Any]) -> dict[str, int]:
    return dict(view["score"])
