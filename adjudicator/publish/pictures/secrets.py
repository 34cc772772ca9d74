"""Sid's Secrets: each player's ten secrets (stolen ones marked with the thief) and seven SIDs
(captured ones with their captor); from a player's view, the guards only they know of too."""

from __future__ import annotations

from typing import Any

from ...common.words import plural
from ..svg import Drawing, legend

ROW = 66


def board(view: dict[str, Any], key: str) -> Drawing:
    players, names = view["players"], view["names"]
    me = view.get("player")
    thief = {(s["owner"], s["secret"]): s["by"] for s in view["stolen"]}
    captor = {(c["player"], c["sid"]): c["by"] for c in view["captured"]}
    # Which SID guarded which secret without meeting a thief: every player's in the revealed
    # state, the viewer's own in a player's view (SECRETS-10), nobody's in the public one.
    restrictions = view.get("restrictions")
    if isinstance(restrictions, list):
        restrictions = {me: restrictions} if me else {}
    unmet = {(p, r["secret"]): r["sid"] for p, rs in restrictions.items() for r in rs} if isinstance(restrictions, dict) else {}
    height = 30 + ROW * len(players) + 26
    seen_by = f", as {names[me]} sees it" if me else ""
    d = Drawing(
        680,
        height,
        f"Sid's Secrets after turn {view['turn']} of {view['turns']}{seen_by}",
        f"{plural(len(view['stolen']), 'secret')} stolen and {plural(len(view['captured']), 'SID')} captured so far; "
        + "; ".join(f"{names[p]}: {plural(view['score'][p], 'point')}, {plural(len(view['secrets'][p]), 'secret')} and {plural(len(view['sids'][p]), 'SID')} left" for p in players),
        key,
    )
    d.text(10, 18, "each player's secrets 1-10 (secret n is worth 2n-1 points) and SIDs 1-7", "muted small", room=660)
    for row, player in enumerate(players):
        y = 30 + row * ROW
        d.text(10, y + 16, names[player], "ink big", room=106)
        d.text(10, y + 34, plural(view['score'][player], "point"), "muted label", room=106)
        if player == me:
            d.text(10, y + 50, "(you)", "good small", room=106)
        for secret in range(1, 11):
            x = 120 + (secret - 1) * 34
            taken = thief.get((player, secret))
            tip = f"{names[player]}'s secret {secret}" + (f", stolen by {names[taken]}" if taken else "")
            d.rect(x, y, 30, 30, "gone" if taken else "tile", 3, tip)
            d.text(x + 15, y + 19, secret, "muted label" if taken else "ink label", "middle")
            if taken:
                d.line(x + 3, y + 27, x + 27, y + 3, "edge")
                d.text(x + 15, y + 42, names[taken], "mark small", "middle", 33)
            if (player, secret) in unmet:
                d.text(x + 15, y + 54, f"SID {unmet[(player, secret)]}", "good small", "middle", 33)
        for sid in range(1, 8):
            x = 480 + (sid - 1) * 26
            taken = captor.get((player, sid))
            d.circle(x + 9, y + 14, 9, "gone" if taken else "tile")
            d.text(x + 9, y + 18, sid, "muted small" if taken else "ink small", "middle")
        captured = [f"{sid} by {names[captor[(player, sid)]]}" for sid in range(1, 8) if (player, sid) in captor]
        if captured:
            d.text(480, y + 42, "captured: " + ", ".join(captured), "mark small", room=190)
    legend(d, height - 10, [
        ("tile", "a secret kept, or a SID free"),
        ("gone", "stolen (the thief under it) or captured"),
        *([("good", "SID n under a secret: it guarded it, unmet")] if unmet else []),
    ])
    return d


def standing(view: dict[str, Any]) -> dict[str, int]:
    return dict(view["score"])
