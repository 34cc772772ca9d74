"""Sid's Secrets: each player's ten secrets (stolen ones marked with the thief) and seven SIDs."""

from __future__ import annotations

from typing import Any

from ..svg import Drawing, fit

ROW = 62


def board(view: dict[str, Any], key: str) -> Drawing:
    players, names = view["players"], view["names"]
    thief = {(s["owner"], s["secret"]): s["by"] for s in view["stolen"]}
    captor = {(c["player"], c["sid"]): c["by"] for c in view["captured"]}
    # Only in the revealed state: which SID guarded which secret without meeting a thief.
    restrictions = view.get("restrictions")
    unmet = {(p, r["secret"]): r["sid"] for p, rs in restrictions.items() for r in rs} if isinstance(restrictions, dict) else {}
    d = Drawing(
        670,
        30 + ROW * len(players),
        f"Sid's Secrets after turn {view['turn']} of {view['turns']}",
        f"{len(view['stolen'])} secrets stolen and {len(view['captured'])} SIDs captured so far; "
        + "; ".join(f"{names[p]}: {view['score'][p]} points, {len(view['secrets'][p])} secrets and {len(view['sids'][p])} SIDs left" for p in players),
        key,
    )
    d.text(10, 18, "secrets 1-10 (worth 2n-1); a struck one is stolen, the thief named under it; SIDs 1-7 at the right", "muted small")
    for row, player in enumerate(players):
        y = 30 + row * ROW
        d.text(10, y + 16, fit(names[player], 14), "ink big")
        d.text(10, y + 34, f"{view['score'][player]} points", "muted label")
        for secret in range(1, 11):
            x = 120 + (secret - 1) * 34
            taken = thief.get((player, secret))
            tip = f"{names[player]}'s secret {secret}" + (f", stolen by {names[taken]}" if taken else "")
            d.rect(x, y, 30, 30, "gone" if taken else "tile", 3, tip)
            d.text(x + 15, y + 19, secret, "muted label" if taken else "ink label", "middle")
            if taken:
                d.line(x + 3, y + 27, x + 27, y + 3, "edge")
                d.text(x + 15, y + 42, fit(names[taken], 5), "mark small", "middle")
            if (player, secret) in unmet:
                d.text(x + 15, y + 52, f"g{unmet[(player, secret)]}", "good small", "middle")
        for sid in range(1, 8):
            x = 480 + (sid - 1) * 25
            taken = captor.get((player, sid))
            d.circle(x + 9, y + 14, 9, "gone" if taken else "tile")
            d.text(x + 9, y + 18, sid, "muted small" if taken else "ink small", "middle")
            if taken:
                d.text(x + 9, y + 36 + 10 * (sid % 2), fit(names[taken], 3), "mark small", "middle")
    return d


def standing(view: dict[str, Any]) -> dict[str, int]:
    return dict(view["score"])
