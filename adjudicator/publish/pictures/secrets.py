"""Sid's Secrets: each player's ten secrets (stolen ones marked with the thief) and seven SIDs
(captured ones with their captor); from a player's view, the guards only they know of too."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...common.words import plural
from ..svg import NARROW, Drawing, broken, legend, wrapped

@dataclass(frozen=True)
class _Layout:
    """Where a player's name, secrets and SIDs go, below the top of their block."""

    width: int
    name_room: int
    """The width of the name's lines: a long name goes on in a second line (a third) rather than shrink."""
    secret_x: int
    secret_y: int
    tile: int
    """A secret's tile width; its cell is `tile + 4`, the room of the thief's name under it."""
    sid_x: int
    captured_room: int


_WIDE = _Layout(740, 136, 150, 0, 72, 546, 184)
"""On a desktop: the name in a column of its own (its lines 15 px bold, where one line set
"Konstantinos Papadopoulos" at 8 px), the secrets in two lines of five (a thief's name under each in
up to three lines at its own size: ten in a line left it a tile's width, "Konstantinos" squeezed to 0.6
of itself), and the SIDs beside them, what was captured in as many lines as it takes under the SIDs."""
_NARROW = _Layout(NARROW, NARROW - 20, 10, 40, 66, 10, NARROW - 20)
"""On a phone: the name across the board, the secrets in two lines of five filling its width, the SIDs
under them, what was captured in as many lines as it takes."""

PER_LINE = 5
"""Secrets in one line, on both boards."""
LEADING = 12
"""From one line of a label under a tile to the next (10 px text)."""


def board(view: dict[str, Any], key: str, narrow: bool = False) -> Drawing:
    players, names = view["players"], view["names"]
    me = view.get("player")
    at = _NARROW if narrow else _WIDE
    cell = at.tile + 4
    thief = {(s["owner"], s["secret"]): s["by"] for s in view["stolen"]}
    captor = {(c["player"], c["sid"]): c["by"] for c in view["captured"]}
    # Which SID guarded which secret without meeting a thief: every player's in the revealed
    # state, the viewer's own in a player's view (SECRETS-10), nobody's in the public one.
    restrictions = view.get("restrictions")
    if isinstance(restrictions, list):
        restrictions = {me: restrictions} if me else {}
    unmet = {(p, r["secret"]): r["sid"] for p, rs in restrictions.items() for r in rs} if isinstance(restrictions, dict) else {}
    name_lines = {p: broken(names[p], "ink big", at.name_room) for p in players}
    # Under a tile: the thief's name, in as many lines as keep it at its size, then the SID that guarded it.
    thief_lines = {tile: broken(names[by], "mark small", cell - 1) for tile, by in thief.items()}
    under = {(p, n): len(thief_lines.get((p, n), [])) + ((p, n) in unmet) for p in players for n in range(1, 11)}
    captured_lines, tops, steps, heads, sid_ys, y = {}, {}, {}, {}, {}, 30
    for player in players:
        taken = [f"{sid} by {names[captor[(player, sid)]]}" for sid in range(1, 8) if (player, sid) in captor]
        captured_lines[player] = wrapped([f"captured: {taken[0]}", *taken[1:]] if taken else [], "mark small", at.captured_room)
        tops[player] = y
        # A line of secrets is as tall as its tiles and the most lines under one of them (two at least).
        steps[player] = 36 + LEADING * max(2, *(under[(player, n)] for n in range(1, 11)))
        heads[player] = 18 * (len(name_lines[player]) - 1) * narrow  # the narrow board's name's lines above the secrets
        secrets_end = heads[player] + at.secret_y + 2 * steps[player] + 4
        sid_ys[player] = secrets_end - 6 if narrow else 0
        # A block is as tall as its secrets' two lines or its SIDs and captured lines, whichever ends lower.
        y += max(secrets_end, sid_ys[player] + 38 + 14 * len(captured_lines[player]))
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
        lines = name_lines[player]
        d.lines(10, y + 16, lines, "ink big", room=at.name_room, leading=18)
        below = y + 16 + 18 * (len(lines) - 1)  # the name's last line
        if narrow:  # the points and "(you)" under the name
            d.text(10, below + 16, plural(view["score"][player], "point"), "muted label", room=84)
            if player == me:
                d.text(100, below + 16, "(you)", "good small", room=60)
        else:
            d.text(10, below + 18, plural(view['score'][player], "point"), "muted label", room=at.name_room)
            if player == me:
                d.text(10, below + 34, "(you)", "good small", room=at.name_room)
        head, step, sid_y = heads[player], steps[player], sid_ys[player]
        for secret in range(1, 11):
            x = at.secret_x + (secret - 1) % PER_LINE * cell
            top = y + head + at.secret_y + (secret - 1) // PER_LINE * step
            middle = x + at.tile / 2
            taken = thief.get((player, secret))
            tip = f"{names[player]}'s secret {secret}" + (f", stolen by {names[taken]}" if taken else "")
            d.rect(x, top, at.tile, 30, "gone" if taken else "tile", 3, tip)
            d.text(middle, top + 19, secret, "muted label" if taken else "ink label", "middle")
            if taken:
                d.line(x + 3, top + 27, x + at.tile - 3, top + 3, "edge")
                d.lines(middle, top + 30 + LEADING, thief_lines[(player, secret)], "mark small", "middle", cell - 1, LEADING)
            if (player, secret) in unmet:
                d.text(middle, top + 30 + LEADING * under[(player, secret)], f"SID {unmet[(player, secret)]}", "good small", "middle", cell - 1)
        for sid in range(1, 8):
            x = at.sid_x + (sid - 1) * 26
            gone = (player, sid) in captor
            d.circle(x + 9, y + sid_y + 14, 9, "gone" if gone else "tile")
            d.text(x + 9, y + sid_y + 18, sid, "muted small" if gone else "ink small", "middle")
        for line, words in enumerate(captured_lines[player]):
            d.text(at.sid_x, y + sid_y + 42 + 14 * line, words, "mark small", room=at.captured_room)
    legend(d, height - 10, [
        ("tile", "a secret kept, or a SID free"),
        ("gone", "stolen (the thief under it) or captured"),
        *([("good", "SID n under a secret: it guarded it, unmet")] if unmet else []),
    ])
    return d


def standing(view: dict[str, Any]) -> dict[str, int]:
    return dict(view["score"])
