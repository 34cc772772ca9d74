"""Hide the Kids!: the furniture, what the wolf lifted this turn and whom it found, kid tokens and pebbles."""

from __future__ import annotations

from typing import Any

from ..svg import Drawing, fit


def board(view: dict[str, Any], key: str) -> Drawing:
    names, kids, wolf = view["names"], view["kids"], view["wolf"]
    last = view["history"][-1] if view["history"] else {"lifts": [], "escaped": [], "turn": 0}
    lifted = {lift["furniture"]: lift["found"] for lift in last["lifts"]}
    escaped: dict[str, list[str]] = {}
    for kid in last["escaped"]:
        escaped.setdefault(kid["furniture"], []).append(kid["kid"])
    furniture = view["furniture"]
    d = Drawing(
        max(640, 20 + 90 * len(furniture)),
        210 + 28 * len(kids),
        f"Hide the Kids! after turn {last['turn']}",
        f"The wolf {names[wolf]} holds {view['kid_tokens']} kid tokens. "
        + (f"Lifted this turn: {', '.join(f'{f} (found {len(k)})' for f, k in lifted.items())}. " if lifted else "")
        + "Pebbles: " + ", ".join(f"{names[k]} {view['pebbles'][k]}" for k in kids),
        key,
    )
    d.text(10, 18, "the furniture: a framed piece was lifted by the wolf this turn (in red, the kids found under it); in green, the kids who came out of a piece with pebbles", "muted small")
    for i, piece in enumerate(furniture):
        x = 10 + i * 90
        d.rect(x, 26, 82, 60, "tile", 6, piece)
        if piece in lifted:
            d.rect(x + 3, 29, 76, 54, "hot", 5)
        d.text(x + 41, 50, piece, "ink label", "middle")
        for j, kid in enumerate(lifted.get(piece, [])[:2]):
            d.text(x + 41, 100 + j * 12, f"found {fit(names[kid], 8)}", "mark small", "middle")
        for j, kid in enumerate(escaped.get(piece, [])[:3]):
            d.text(x + 41, 66 + j * 10, fit(names[kid], 10), "good small", "middle")
    d.text(10, 140, f"wolf: {fit(names[wolf], 20)}, kid tokens", "ink label")
    for t in range(view["kid_tokens"]):
        d.circle(190 + t * 20, 136, 8, "mark")
    d.text(10, 170, "kids and their pebbles", "muted small")
    for row, kid in enumerate(kids):
        y = 180 + row * 28
        d.text(10, y + 14, fit(names[kid], 14), "ink label")
        for p in range(view["pebbles"][kid]):
            d.circle(140 + p * 16, y + 10, 6, "good")
        d.text(140 + view["pebbles"][kid] * 16 + 6, y + 14, view["pebbles"][kid], "muted small")
    return d


def standing(view: dict[str, Any]) -> dict[str, int]:
    return {**{k: view["pebbles"][k] for k in view["kids"]}, view["wolf"]: view["kid_tokens"]}
