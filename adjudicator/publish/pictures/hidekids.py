"""Hide the Kids!: the furniture, what the wolf lifted this turn and whom it found, kid tokens and pebbles."""

from __future__ import annotations

from typing import Any

from ...common.words import plural
from ..svg import NARROW, Drawing, legend, text_width


FURNITURE_LINE = 4
"""Pieces of furniture in one line on the narrow board (the wide board has them all in one)."""


def board(view: dict[str, Any], key: str, narrow: bool = False) -> Drawing:
    names, kids, wolf = view["names"], view["kids"], view["wolf"]
    last = view["history"][-1] if view["history"] else {"lifts": [], "escaped": [], "turn": 0}
    lifted = {lift["furniture"]: lift["found"] for lift in last["lifts"]}
    escaped: dict[str, list[str]] = {}
    for kid in last["escaped"]:
        escaped.setdefault(kid["furniture"], []).append(kid["kid"])
    furniture = view["furniture"]
    me = view.get("player")
    caught = last.get("not_hidden", [])  # captured at the growl: under no piece, so only their own row shows them
    turn_of = _turn_of(view, last)
    # The narrow board: the furniture in lines of four, the kid tokens on a line of their own under the wolf's,
    # and what became of a kid this turn under the kid's name.
    per_line = FURNITURE_LINE if narrow else len(furniture)
    shift = 100 * ((len(furniture) - 1) // max(per_line, 1)) + 24 * narrow
    kid_row = 42 if narrow else 28
    height = 210 + shift + kid_row * len(kids) + 24
    d = Drawing(
        NARROW if narrow else max(640, 20 + 90 * len(furniture)),
        height,
        f"Hide the Kids! after turn {last['turn']}" + (f", as {names[me]} ({view.get('role')}) sees it" if me else ""),
        f"The wolf {names[wolf]} holds {plural(view['kid_tokens'], 'kid token')}. "
        + (f"Caught at the growl: {', '.join(names[k] for k in caught)}. " if caught else "")
        + (f"Lifted this turn: {', '.join(f'{f} (found {len(k)})' for f, k in lifted.items())}. " if lifted else "")
        + "Pebbles: " + ", ".join(f"{names[k]} {view['pebbles'][k]}" for k in kids),
        key,
    )
    d.text(10, 18, "the furniture: the wolf lifted the framed pieces this turn" if view["history"] else
           "the furniture: nothing lifted yet; each turn the wolf lifts two pieces", "muted small", room=d.width - 20)
    for i, piece in enumerate(furniture):
        x = 10 + i % per_line * (86 if narrow else 90)
        y = 26 + i // per_line * 100
        d.rect(x, y, 82 if not narrow else 80, 60, "tile", 6, piece)
        middle = x + (41 if not narrow else 40)
        if piece in lifted:
            d.rect(x + 3, y + 3, 76 if not narrow else 74, 54, "hot", 5)
        d.text(middle, y + 24, piece, "ink label", "middle", 76 if not narrow else 74)
        for j, kid in enumerate(lifted.get(piece, [])[:2]):
            d.text(middle, y + 74 + j * 12, f"found {names[kid]}", "mark small", "middle", 86)
        for j, kid in enumerate(escaped.get(piece, [])[:3]):
            d.text(middle, y + 40 + j * 10, names[kid], "good small", "middle", 76 if not narrow else 74)
    wolf_line = f"the wolf: {names[wolf]}" + (" (you)" if wolf == me else "") + f", {plural(view['kid_tokens'], 'kid token')}"
    wolf_y = 140 + shift - 24 * narrow
    d.text(10, wolf_y, wolf_line, "ink label", room=d.width - 20 if narrow else 400)
    start = 18 if narrow else 10 + min(400, text_width(wolf_line, 12)) + 14
    for t in range(view["kid_tokens"]):
        d.circle(start + t * 20, wolf_y - 4 + 24 * narrow, 8, "mark")
    d.text(10, 170 + shift, "the kids and their pebbles", "muted small", room=300)
    for row, kid in enumerate(kids):
        y = 180 + shift + row * kid_row
        d.text(10, y + 14, names[kid] + (" (you)" if kid == me else ""), "ink label", room=124)
        for p in range(view["pebbles"][kid]):
            d.circle(140 + p * 16, y + 10, 6, "good")
        d.text(140 + view["pebbles"][kid] * 16 + 6, y + 14, view["pebbles"][kid], "muted small")
        if kid in turn_of:
            words, ink = turn_of[kid]
            if narrow:
                d.text(10, y + 30, words, f"{ink} small", room=d.width - 20)
            else:
                d.text(300, y + 14, words, f"{ink} small", room=d.width - 310)
    legend(d, height - 10, [("hot", "lifted by the wolf this turn"), ("circle:mark", "a kid token"), ("circle:good", "a pebble"),
                            ("mark", "red: a kid found, or caught at the growl"), ("good", "green: a kid who came out with pebbles")])
    return d


def _turn_of(view: dict[str, Any], last: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """What became of each kid in the turn drawn, in words and ink, for the kid's own row: every kid is
    there, however many were under one piece (the furniture row has room for a few names only)."""
    where = view["where"]
    said = {kid: ("this turn: caught at the growl, not hidden in time", "mark") for kid in last.get("not_hidden", [])}
    said.update({kid: (f"this turn: found {where[lift['furniture']]}", "mark") for lift in last["lifts"] for kid in lift["found"]})
    # "from inside the cupboard", as the reports say it (templates/hidekids/_events.j2), not "from in the"
    said.update({e["kid"]: (f"this turn: came out from {where[e['furniture']].replace('in the', 'inside the', 1)}", "good") for e in last["escaped"]})
    return said


def standing(view: dict[str, Any]) -> dict[str, int]:
    return {**{k: view["pebbles"][k] for k in view["kids"]}, view["wolf"]: view["kid_tokens"]}
