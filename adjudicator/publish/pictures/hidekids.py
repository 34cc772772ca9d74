"""Hide the Kids!: the furniture, what the wolf lifted this turn and whom it found, kid tokens and pebbles."""

from __future__ import annotations

from typing import Any

from ...common.words import plural
from ..svg import NARROW, Drawing, broken, legend, text_width


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
    inner = 74 if narrow else 76
    # A long name goes on in a second line rather than shrinking (design 18): inside a piece the kids who came
    # out from it (the piece grows for a fourth line), under it the kids found (the furniture's line grows).
    out_lines = {piece: [line for kid in escaped.get(piece, [])[:3] for line in broken(names[kid], "good small", inner, 2)] for piece in furniture}
    found_lines = {piece: [broken(f"found {names[kid]}", "mark small", 86, 2) for kid in lifted.get(piece, [])[:2]] for piece in furniture}
    # A third line of names inside a piece stood on its lower edge: from the third on the piece grows.
    box = {piece: 60 if len(out_lines[piece]) < 3 else 47 + 10 * len(out_lines[piece]) for piece in furniture}
    rows = [furniture[i:i + max(per_line, 1)] for i in range(0, len(furniture), max(per_line, 1))]
    pitch = [max(100, max(box[p] for p in row) + 16 + 12 * max(sum(len(n) for n in found_lines[p]) for p in row)) for row in rows]
    tops = [26 + sum(pitch[:i]) for i in range(len(rows))]
    shift = tops[-1] + pitch[-1] - 126 + 24 * narrow
    kid_row = 42 if narrow else 28
    kid_lines = {kid: broken(names[kid] + (" (you)" if kid == me else ""), "ink label", 124) for kid in kids}
    kid_height = {kid: kid_row + 14 * (len(kid_lines[kid]) - 1) for kid in kids}
    height = 210 + shift + sum(kid_height.values()) + 24
    d = Drawing(
        _width(narrow, furniture),
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
        y = tops[i // per_line]
        d.rect(x, y, 82 if not narrow else 80, box[piece], "tile", 6, piece)
        middle = x + (41 if not narrow else 40)
        if piece in lifted:
            d.rect(x + 3, y + 3, inner, box[piece] - 6, "hot", 5)
        d.text(middle, y + 24, piece, "ink label", "middle", inner)
        below = y + box[piece] + 14
        for lines in found_lines[piece]:
            d.lines(middle, below, lines, "mark small", "middle", 86, 12)
            below += 12 * len(lines)
        if out_lines[piece]:
            d.lines(middle, y + 40, out_lines[piece], "good small", "middle", inner, 10)
    wolf_line = f"the wolf: {names[wolf]}" + (" (you)" if wolf == me else "") + f", {plural(view['kid_tokens'], 'kid token')}"
    wolf_y = 140 + shift - 24 * narrow
    d.text(10, wolf_y, wolf_line, "ink label", room=d.width - 20 if narrow else 400)
    start = 18 if narrow else 10 + min(400, text_width(wolf_line, 12)) + 14
    for t in range(view["kid_tokens"]):
        d.circle(start + t * 20, wolf_y - 4 + 24 * narrow, 8, "mark")
    d.text(10, 170 + shift, "the kids and their pebbles", "muted small", room=300)
    y = 180 + shift
    for kid in kids:
        d.lines(10, y + 14, kid_lines[kid], "ink label", room=124, leading=14)  # the pebbles stand from 140
        more = 14 * (len(kid_lines[kid]) - 1)  # a name's second line
        for p in range(view["pebbles"][kid]):
            d.circle(140 + p * 16, y + 10, 6, "good")
        d.text(140 + view["pebbles"][kid] * 16 + 6, y + 14, view["pebbles"][kid], "muted small")
        if kid in turn_of:
            words, ink = turn_of[kid]
            if narrow:
                d.text(10, y + 30 + more, words, f"{ink} small", room=d.width - 20)
            else:
                d.text(300, y + 14, words, f"{ink} small", room=d.width - 310)
        y += kid_height[kid]
    legend(d, height - 10, [("hot", "lifted by the wolf this turn"), ("circle:mark", "a kid token"), ("circle:good", "a pebble"),
                            ("mark", "red: a kid found, or caught at the growl"), ("good", "green: a kid who came out with pebbles")])
    return d


def _width(narrow: bool, furniture: list[str]) -> int:
    """The board's width: the narrow layout's, or room for every piece in one line."""
    return NARROW if narrow else max(640, 20 + 90 * len(furniture))


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
