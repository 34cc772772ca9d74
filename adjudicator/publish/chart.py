"""The index's standings chart: one line per player over the turns, as SVG."""

from __future__ import annotations

from .svg import NARROW, SERIES, Drawing

SHOWN = SERIES
"""Players drawn at most: the leaders at the end (a chart of thousands of lines says nothing);
the index's table lists everyone."""


def standings_chart(turns: list[int], values: dict[str, list[int | None]], names: dict[str, str], label: str, key: str,
                    narrow: bool = False) -> Drawing:
    """`values[player][i]` is the player's number after `turns[i]` (None where the game does not show one).
    The narrow chart (for a phone) has its key under the lines instead of beside them."""
    final = {p: next((v for v in reversed(vs) if v is not None), 0) for p, vs in values.items()}
    order = list(values)
    seat = {p: i for i, p in enumerate(order)}
    shown = sorted(order, key=lambda p: (-final[p], seat[p]))[:SHOWN] if len(order) > SHOWN else order
    numbers = [v for p in shown for v in values[p] if v is not None] or [0]
    low, high = min(0, *numbers), max(1, *numbers)
    left, top, width, height = (40, 20, NARROW - 60, 200) if narrow else (50, 20, 460, 220)
    key_x, key_y = (10, top + height + 56) if narrow else (left + width + 14, top + 8)
    d = Drawing(
        NARROW if narrow else left + width + 170,
        top + height + 50 + (20 * len(shown) + 10 if narrow else 0),
        f"Standings over the turns ({label})",
        ("The leading ten players. " if len(order) > SHOWN else "")
        + "; ".join(f"{names[p]}: {', '.join('-' if v is None else str(v) for v in values[p])}" for p in shown),
        key,
    )

    def x(i: int) -> float:
        return left + (width * i / (len(turns) - 1) if len(turns) > 1 else width / 2)

    def y(v: int) -> float:
        return top + height - height * (v - low) / (high - low)

    d.line(left, top, left, top + height, "edge")
    d.line(left, y(0), left + width, y(0), "edge")
    for v in sorted({low, high, (low + high) // 2}):
        d.text(left - 6, y(v) + 4, v, "muted small", "end")
    step = max(1, len(turns) // 12)
    for i, turn in enumerate(turns):
        if i % step == 0 or i == len(turns) - 1:
            d.text(x(i), top + height + 16, turn, "muted small", "middle")
    d.text(left + width / 2, top + height + 36, f"turn ({label} after it)", "muted small", "middle")
    for n, player in enumerate(shown):
        points = [(x(i), y(v)) for i, v in enumerate(values[player]) if v is not None]
        cls = f"s{n % SERIES}"
        if len(points) > 1:
            d.polyline(points, cls)
        for px, py in points[-1:]:
            d.circle(px, py, 3, "ink")
        d.line(key_x, key_y + n * 20, key_x + 20, key_y + n * 20, f"{cls} w2")
        d.text(key_x + 26, key_y + 4 + n * 20, f"{names[player]} {final[player]}", "ink small", room=d.width - key_x - 30)
    return d
